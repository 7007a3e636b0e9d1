"""Evidence: the status, evidence kind and grid of a claim, derived from the instances it decided.

Nothing else sets a status.  The rules, in order:

1. a check that decided no instance (and found no erratum) is an ``error``;
2. any counterexample: ``refuted``, with the evidence of the strongest
   refuting instance and the grid where it fails;
3. any inconclusive instance: ``inconclusive`` (a timeout is never a pass);
4. a claim that compared printed objects (``table`` instances) and found a
   printed value that differs is an ``erratum``, whatever else it decided
   (errata in the text of a proof do not lower a proved lemma);
5. a part of the printed class that no holding instance reached (an end the
   printed alpha range includes, a region of users or mechanisms the statement
   declares; :mod:`udpm.claims.coverage`) leaves the claim ``partial``, naming that
   part: never a pass for the statement as printed;
6. otherwise the kind that reached every part of the printed class sets the
   status (each part counts with the strongest kind that reached it; the
   claim with its weakest part): ``all-n`` gives ``proved``, ``bounded``
   ``verified``, ``sampled`` ``tested``, and printed objects alone
   ``reproduced``;
7. a claim is capped by its weakest dependency (the claims its argument
   relies on): a dependency that is ``verified`` caps a ``proved`` claim at
   ``verified``; one that is ``partial`` leaves it ``partial``; one that is
   refuted, inconclusive or in error leaves it ``inconclusive``.

The grid says, per alpha, which n were decided; it is grouped and printed as
it is, e.g. ``alpha=1/2: n<=4; 1/3, 2/3: n<=3``.

>>> from udpm.claims.findings import Findings
>>> from udpm.claims.instances import BOUNDED, SAMPLED
>>> rec = Findings("demo")
>>> for a, top in (("1/2", 4), ("1/3", 3), ("2/3", 3)):
...     for n in range(1, top + 1):
...         _ = rec.decide(True, n=n, alpha=a, kind=BOUNDED, method="smt-unsat")
>>> r = derive(rec)
>>> r.status, r.evidence, grid_text(r.grid[str(BOUNDED)])
(<Status.VERIFIED: 'verified'>, <Evidence.BOUNDED: 'bounded'>, 'alpha=1/2: n<=4; 1/3, 2/3: n<=3')
>>> _ = rec.decide(False, "X = [[1]] breaks it", n=2, alpha="1/3", kind=SAMPLED, method="exact", sample="x")
>>> derive(rec).status
<Status.REFUTED: 'refuted'>
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Protocol

from udpm.claims.coverage import Coverage, coverage
from udpm.claims.instances import Decision, Erratum, Kind, Outcome, is_symbolic
from udpm.claims.statements import PrintedClass


class Record(Protocol):
    """What :func:`derive` reads of a check's record (:class:`udpm.claims.findings.Findings`)."""

    claim: str
    decisions: list[Decision]
    values: dict[str, str]
    errata: list[Erratum]
    certificate: dict | None
    notes: list[str]


class Status(str, Enum):
    PROVED = "proved"  # all n: the all-n argument ran in this run
    VERIFIED = "verified"  # bounded: every decided (n, alpha) exhausted the claim's quantifiers
    TESTED = "tested"  # sampled: instances drawn out of a continuum, no counterexample
    REPRODUCED = "reproduced"  # a printed object matches exactly or after the paper's rounding
    ERRATUM = "erratum"  # a printed value differs; class and correct value recorded
    PARTIAL = "partial"  # decided on part of the printed class only; the part left undecided is named
    REFUTED = "refuted"  # the claim as stated is false; counterexample attached
    INCONCLUSIVE = "inconclusive"  # a solver timeout or unknown; never a pass
    ERROR = "error"
    PENDING = "pending"  # declared, not yet implemented

    def __str__(self) -> str:
        return self.value


class Evidence(str, Enum):
    ALL_N = "all-n"
    BOUNDED = "bounded"
    SAMPLED = "sampled"
    TABLE = "table"
    NONE = "none"

    def __str__(self) -> str:
        return self.value


KIND_ORDER = (Kind.ALL_N, Kind.BOUNDED, Kind.SAMPLED, Kind.TABLE)  # strongest first
_STATUS_OF_KIND = {
    Kind.ALL_N: Status.PROVED,
    Kind.BOUNDED: Status.VERIFIED,
    Kind.SAMPLED: Status.TESTED,
    Kind.TABLE: Status.REPRODUCED,
}
# Strength of a passing status, for the cap by dependencies; a printed object's match counts as a test.
_RANK = {Status.PROVED: 3, Status.VERIFIED: 2, Status.TESTED: 1, Status.REPRODUCED: 1, Status.ERRATUM: 1}

#: One row of a grid: the alphas that share the same decided n (None: all n).
GridRow = dict


@dataclass
class Result:
    """A claim's verdict, derived by :func:`derive` (or :func:`unresolved` for pending and error)."""

    status: Status
    evidence: Evidence = Evidence.NONE
    grid: dict[str, list[GridRow]] = field(default_factory=dict)
    samples: int = 0
    symbolic_alpha: bool = False
    decisions: list[Decision] = field(default_factory=list)
    depends_on: list[dict[str, str]] = field(default_factory=list)
    capped_by: str | None = None
    values: dict[str, str] = field(default_factory=dict)
    counterexample: str | None = None
    certificate: dict | None = None
    errata: list[Erratum] = field(default_factory=list)
    notes: str = ""
    coverage: Coverage | None = None  # the printed class's parts and how strongly each was decided

    @property
    def scope_text(self) -> str:
        """The grid of the status's evidence kind, as printed in the console and the report."""
        return scope_text(self)

    def to_json(self) -> dict:
        return {
            "status": str(self.status),
            "evidence": str(self.evidence),
            "grid": self.grid,
            "samples": self.samples,
            "symbolic_alpha": self.symbolic_alpha,
            "instances": {
                "decided": len(self.decisions),
                **{str(o): sum(d.outcome is o for d in self.decisions) for o in Outcome},
            },
            "depends_on": self.depends_on,
            "capped_by": self.capped_by,
            "values": dict(sorted(self.values.items())),
            "counterexample": self.counterexample,
            "certificate": self.certificate,
            "errata": [asdict(e) for e in self.errata],
            "notes": self.notes,
            "coverage": None if self.coverage is None else self.coverage.to_json(),
            "decisions": [d.to_json() for d in self.decisions],
        }


def unresolved(status: Status, notes: str) -> Result:
    """A claim that decided nothing: pending (no check) or error (the check crashed)."""
    return Result(status, notes=notes)


def printed_class_of(claim_id: str) -> PrintedClass | None:
    """The printed class of a declared claim (None for an id the catalog does not declare, e.g. in a test)."""
    from udpm.claims.catalog import CLAIMS

    return next((c.printed for c in CLAIMS if c.id == claim_id), None)


def derive(
    rec: Record, dependencies: Mapping[str, object] | None = None, printed: PrintedClass | None = None
) -> Result:
    """The verdict of a claim from its record, its printed class (default: the catalog's) and the statuses of the
    claims it depends on."""
    ds = rec.decisions
    printed = printed if printed is not None else printed_class_of(rec.claim)
    grid = {str(k): grid_of([d for d in ds if d.instance.kind is k]) for k in KIND_ORDER}
    grid = {k: v for k, v in grid.items() if v}
    sampled = [d for d in ds if d.instance.kind is Kind.SAMPLED]
    values = dict(rec.values)
    if sampled:
        values["sample_digest"] = sample_digest(sampled)
    base = {
        "grid": grid,
        "samples": len(sampled),
        "symbolic_alpha": any(is_symbolic(d.instance.alpha) for d in ds),
        "decisions": list(ds),
        "values": values,
        "certificate": rec.certificate,
        "errata": list(rec.errata),
        "coverage": None if printed is None else coverage(ds, printed),
    }
    notes = list(rec.notes)
    cex = [d for d in ds if d.outcome is Outcome.COUNTEREXAMPLE]
    open_ = [d for d in ds if d.outcome is Outcome.INCONCLUSIVE]
    if not ds and not rec.errata:
        return Result(Status.ERROR, notes="the check decided no instance", **{**base, "grid": {}})
    if cex:
        kind = _strongest(cex)
        first = next(d for d in cex if d.instance.kind is kind)
        return Result(
            Status.REFUTED,
            Evidence(str(kind)),
            counterexample=f"{first.instance.describe()}: {first.detail}",
            notes=_join(notes),
            **base,
        )
    if open_:
        why = "; ".join(f"{d.instance.describe()}: {d.detail}" for d in open_)
        return Result(Status.INCONCLUSIVE, Evidence.NONE, notes=_join([*notes, f"undecided: {why}"]), **base)
    kind = _strongest(ds) if ds else Kind.TABLE
    cov = base["coverage"]
    whole = None if cov is None or not ds else cov.weakest
    status = _STATUS_OF_KIND[whole or kind]
    if cov is not None and ds and whole is None:
        status = Status.PARTIAL
        notes.append("undecided part of the printed class: " + "; ".join(cov.undecided))
    elif whole is not None:
        kind = whole
    if rec.errata and (not ds or any(d.instance.kind is Kind.TABLE for d in ds)):
        # A printed object that differs from its exact value, however strong the rest of the evidence.
        status = Status.ERRATUM
    result = Result(status, Evidence(str(kind)), notes=_join(notes), **base)
    return cap(result, dependencies or {})


def cap(result: Result, dependencies: Mapping[str, object]) -> Result:
    """Lower a passing status to that of its weakest dependency; record every dependency's status."""
    result.depends_on = [{"id": cid, "status": str(st)} for cid, st in sorted(dependencies.items())]
    if result.status not in _RANK:
        return result
    for cid, st in sorted(dependencies.items(), key=lambda kv: (_RANK.get(Status(str(kv[1])), -1), kv[0])):
        st = Status(str(st))
        if st is Status.PARTIAL:
            result.status, result.capped_by = Status.PARTIAL, cid
            result.notes = _join([result.notes, f"rests on {cid}, which is decided on part of its printed class"])
            return result
        if st not in _RANK:
            result.status, result.capped_by = Status.INCONCLUSIVE, cid
            result.notes = _join([result.notes, f"rests on {cid}, which is {st}"])
            return result
        if _RANK[st] < _RANK[result.status]:
            result.status = Status.TESTED if st in (Status.REPRODUCED, Status.ERRATUM) else st
            result.capped_by = cid
            result.notes = _join([result.notes, f"capped at {result.status}: rests on {cid}, which is {st}"])
        return result
    return result


def _strongest(ds: Sequence[Decision]) -> Kind:
    return min((d.instance.kind for d in ds), key=KIND_ORDER.index)


def _join(parts: Sequence[str]) -> str:
    return "; ".join(p for p in parts if p)


def sample_digest(ds: Sequence[Decision]) -> str:
    """A digest of the sampled instances, in order: a changed seed or sampler shows in the golden diff."""
    h = hashlib.sha256()
    for d in ds:
        h.update(d.instance.key().encode())
    return h.hexdigest()[:16]


# --- the grid ------------------------------------------------------------------------------------


def grid_of(ds: Sequence[Decision]) -> list[GridRow]:
    """Rows {"alphas": [...], "n": [...]} grouping the alphas (first-seen order) with the same decided n."""
    per_alpha: dict[str, set] = {}
    first: dict[str, int] = {}  # the first n of the all-n arguments at an alpha, when it is not 1
    for d in ds:
        per_alpha.setdefault(d.instance.alpha, set()).add(d.instance.n)
        if d.instance.first_n is not None:
            first[d.instance.alpha] = min(first.get(d.instance.alpha, d.instance.first_n), d.instance.first_n)
    rows: list[GridRow] = []
    for alpha, ns in per_alpha.items():
        n_list = sorted(ns, key=lambda n: (n is not None, n if n is not None else 0))
        start = {"from": first[alpha]} if first.get(alpha, 1) != 1 else {}
        for row in rows:
            if row["n"] == n_list and row.get("from") == start.get("from"):
                row["alphas"].append(alpha)
                break
        else:
            rows.append({"alphas": [alpha], "n": n_list, **start})
    return rows


def n_text(ns: Sequence[int | None], unset: str = "all n") -> str:
    """'all n', 'n<=4' (1..4), 'n=2..5', 'n=3' or 'n in {1, 3}'; ``unset`` names an instance without n.

    >>> n_text([None]), n_text([1, 2, 3, 4]), n_text([0, 1, 2]), n_text([2, 3]), n_text([3]), n_text([1, 3])
    ('all n', 'n<=4', 'n=0..2', 'n=2..3', 'n=3', 'n in {1, 3}')
    >>> n_text([None], unset=""), n_text([None, 2], unset="")
    ('', 'n=2')
    """
    parts = [unset] if None in ns and unset else []
    ints = [n for n in ns if n is not None]
    if ints:
        lo, hi = ints[0], ints[-1]
        if len(ints) == 1:
            parts.append(f"n={lo}")
        elif ints == list(range(lo, hi + 1)):
            parts.append(f"n<={hi}" if lo == 1 else f"n={lo}..{hi}")
        else:
            parts.append("n in {" + ", ".join(map(str, ints)) + "}")
    return "; ".join(parts)


def grid_text(rows: Sequence[GridRow], kind: str = str(Kind.ALL_N)) -> str:
    """'alpha=1/2: n<=4; 1/3, 2/3: n<=3'.

    An instance without n is "all n" only in an ``all-n`` grid; elsewhere (a printed figure, a check
    with no size parameter) the alphas stand alone, so that no grid claims an n it did not decide.

    >>> grid_text([{"alphas": ["1/5"], "n": [None]}], kind="table")
    'alpha=1/5'
    >>> grid_text([{"alphas": ["symbolic"], "n": [None, 1], "from": 2}])
    'alpha=symbolic: n >= 2; n=1'
    """
    out = []
    for k, row in enumerate(rows):
        every = f"n >= {row['from']}" if "from" in row else "all n"
        ns = n_text(row["n"], unset=every if kind == str(Kind.ALL_N) else "")
        out.append(f"{'alpha=' if k == 0 else ''}{', '.join(row['alphas'])}{f': {ns}' if ns else ''}")
    return "; ".join(out)


def scope_text(result: Result | Mapping) -> str:
    """The grid of the status's evidence kind, plus K for samples, e.g. 'alpha=1/2: n<=3 (K=30)'."""
    doc = result.to_json() if isinstance(result, Result) else result
    kind = doc.get("evidence")
    rows = (doc.get("grid") or {}).get(kind)
    if not rows:
        return ""
    text = grid_text(rows, kind)
    if kind == str(Evidence.SAMPLED):
        text += f" (K={doc.get('samples', 0)})"
    return text
