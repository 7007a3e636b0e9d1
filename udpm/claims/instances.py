"""Instances and decisions: the record a check keeps of what it decided.

A check never states its own status or scope.  It decides *instances*, one
(n, alpha, class of users or mechanisms, method) at a time, and records each
one in a :class:`Findings` as it is decided.  :mod:`udpm.claims.evidence` derives the
status, the evidence kind and the per-alpha grid from that record, and from
nothing else.

The kind of an instance says how much of the claim's quantifiers it exhausts:

* ``all-n``: a symbolic argument that covers every n (the all-n proof ran);
* ``bounded``: one (n, alpha), every user or mechanism of the stated class
  (an LP certificate, an SMT ``unsat``, an exhaustive enumeration);
* ``sampled``: one element drawn out of a continuum (a prior, a loss, a
  mechanism), decided exactly;
* ``table``: a printed object compared with its exact recomputation.

A check decides an instance inside :meth:`Findings.deciding`::

    for n in range(1, 5):
        with rec.deciding(n=n, alpha=a, kind=BOUNDED, method="smt-unsat", covers="all optimal vertices") as d:
            cex = search(n, a)
            if cex is not None:
                d.counterexample(cex)

A block that ends normally *holds*; :meth:`Decision.counterexample` refutes
the instance; a :class:`~udpm.errors.SolverTimeout` inside the block makes it
``inconclusive`` and the check goes on with the next instance.

Every SMT query :func:`udpm.smt.solvers.decide` answers while a block is open is
reported to it (:func:`smt_query`): the decision's record names the exported
files and the solvers each answer rests on (:func:`smt_record`).  A query
answered outside any block is kept for the next :meth:`Findings.decide` of the
check (a new :class:`Findings` drops what is left over, so that nothing crosses
from one check to the next).

>>> rec = Findings("demo")
>>> with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="enumeration"):
...     pass
>>> rec.decisions[0].outcome
<Outcome.HOLDS: 'holds'>
>>> with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="enumeration"):
...     pass
Traceback (most recent call last):
...
udpm.errors.HarnessError: demo decided the same instance twice: n=1 alpha=1/2 bounded enumeration
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from udpm.errors import HarnessError, SolverTimeout
from udpm.internal import deadline

#: The version of the instance encoding; part of every key, so that a cache keyed by it is invalidated.
INSTANCE_FORMAT = 1


class Kind(str, Enum):
    """How much of a claim's quantifiers one decided instance exhausts (strongest first)."""

    ALL_N = "all-n"
    BOUNDED = "bounded"
    SAMPLED = "sampled"
    TABLE = "table"

    def __str__(self) -> str:
        return self.value


ALL_N, BOUNDED, SAMPLED, TABLE = Kind.ALL_N, Kind.BOUNDED, Kind.SAMPLED, Kind.TABLE


class Outcome(str, Enum):
    HOLDS = "holds"
    COUNTEREXAMPLE = "counterexample"
    INCONCLUSIVE = "inconclusive"

    def __str__(self) -> str:
        return self.value


#: The alpha label of an instance that holds for a symbolic alpha.
SYMBOLIC = "symbolic"


def alpha_label(alpha: object) -> str:
    """The canonical text of an alpha: '1/2' for Fraction(1, 2), strings as given.

    >>> alpha_label(Fraction(2, 4)), alpha_label(1), alpha_label("symbolic alpha in (0,1)")
    ('1/2', '1', 'symbolic alpha in (0,1)')
    >>> alpha_label(0.5)
    Traceback (most recent call last):
    ...
    udpm.errors.HarnessError: an instance's alpha must be exact (Fraction, int or a label), got float 0.5
    """
    if isinstance(alpha, bool | float):
        kind = type(alpha).__name__
        raise HarnessError(f"an instance's alpha must be exact (Fraction, int or a label), got {kind} {alpha}")
    if isinstance(alpha, int | Fraction):
        return str(Fraction(alpha))
    return str(alpha)


def is_symbolic(alpha: str) -> bool:
    return alpha.startswith(SYMBOLIC) or alpha.startswith(f"{SYMBOLIC} ")


@dataclass(frozen=True)
class Instance:
    """One decided question: small, picklable, with a stable key.

    ``n`` is None for an all-n argument or where n does not apply; ``n_from`` is the first n an all-n
    argument covers when that is not 1 (its symbol n ranges over the integers >= n_from); ``alpha``
    is a canonical label ('1/2', 'symbolic alpha in (0,1)', 'zlcn alpha=2');
    ``covers`` names the class of users or mechanisms the instance exhausts
    (or, for a sample, what was drawn); ``params`` are any further parameters
    (a sample's digest, a table entry, a second alpha), as sorted pairs.
    """

    claim: str
    n: int | None
    alpha: str
    kind: Kind
    method: str
    covers: str = ""
    params: tuple[tuple[str, str], ...] = ()
    region: str = ""
    n_from: int | None = None

    @property
    def first_n(self) -> int | None:
        """The smallest n an all-n argument covers (1 unless it names another), or None at a fixed n."""
        if self.n is not None:
            return None
        return 1 if self.n_from is None else self.n_from

    def describe(self) -> str:
        n = "all" if self.n is None else self.n
        n = f">={self.n_from}" if self.n is None and self.n_from is not None else n
        parts = [f"n={n}", f"alpha={self.alpha}", str(self.kind), self.method]
        parts += [f"{k}={v}" for k, v in self.params]
        parts += [f"[{self.region}]"] if self.region else []
        return " ".join(parts)

    def to_json(self) -> dict:
        out = {
            "n": self.n,
            "alpha": self.alpha,
            "kind": str(self.kind),
            "method": self.method,
            "covers": self.covers,
            "params": dict(self.params),
        }
        if self.region:  # absent for a whole-class instance, so that its key stays what it was
            out["region"] = self.region
        if self.n_from is not None:  # absent for an all-n argument from n = 1, likewise
            out["n_from"] = self.n_from
        return out

    def key(self, code_version: str = "") -> str:
        """A stable hex key over (claim, parameters, method, code version)."""
        blob = json.dumps([INSTANCE_FORMAT, self.claim, self.to_json(), code_version], sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Decision:
    """An instance and what was decided about it: holds, a counterexample (the witness), or inconclusive (why).

    ``smt`` are the SMT queries decided for it, as sorted (file hash, what the answer rests on) pairs.
    """

    instance: Instance
    outcome: Outcome
    detail: str = ""
    smt: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict:
        out = {**self.instance.to_json(), "outcome": str(self.outcome), "detail": self.detail}
        if self.smt:
            out["smt"] = smt_record(self.smt)
        return out


# --- the SMT queries of a decision -----------------------------------------------------------------

# The queries reported by udpm.smt.solvers.decide to each open deciding block (innermost last), and those
# reported while none was open.
_OPEN: list[set[tuple[str, str]]] = []
_LOOSE: set[tuple[str, str]] = set()

#: What a record says of a query that rests on both solvers, and of a sat not sent to cvc5 (udpm.smt.solvers).
AGREED, SAT_NOT_RUN = "z3+cvc5", "sat: z3 (cvc5 not run)"


def smt_query(file: str, rests_on: str) -> None:
    """udpm.smt.solvers.decide's report of one query: its file hash and "<answer>: <solvers>" ("unsat: z3+cvc5")."""
    for block in _OPEN or [_LOOSE]:
        block.add((file, rests_on))


def _close(block: set[tuple[str, str]]) -> None:
    """Remove this very block (list.remove would take the first EQUAL set: two empty blocks are equal)."""
    del _OPEN[next(k for k, b in enumerate(_OPEN) if b is block)]


@contextlib.contextmanager
def reported_queries() -> Iterator[set[tuple[str, str]]]:
    """Collect the SMT queries answered inside the block (they still reach the open decision as usual), so that a
    caller that caches a result can report them again on a cache hit (:func:`smt_query`)."""
    got: set[tuple[str, str]] = set()
    _OPEN.append(got)
    try:
        yield got
    finally:
        _close(got)


def smt_record(queries: tuple[tuple[str, str], ...]) -> dict:
    """The ``smt`` field of a decision's record: sorted and de-duplicated, so independent of order and timing.

    ``files``: every query's file hash (build/smt/<hash>.smt2); ``answers``: how many queries each answer
    and pair of solvers; ``agreement``: "z3+cvc5" when every unsat (every verdict) rests on both solvers,
    else how many rest on one; ``one_solver``: the files whose answer rests on one solver or none (only
    when there are some).  A sat z3 answers is never a verdict (its model is re-checked exactly); by
    default cvc5 is not asked about it (SAT_NOT_RUN).

    >>> smt_record((("b1", "unsat: z3+cvc5"), ("a0", "sat: z3 (cvc5 not run)")))["agreement"]
    'z3+cvc5'
    >>> r = smt_record((("b1", "unsat: z3+cvc5"), ("c2", "unsat: z3 only (cvc5 unknown: budget spent)")))
    >>> r["agreement"], r["one_solver"]
    ('z3+cvc5 on 1 of 2 unsat; z3 only on 1', {'c2': 'unsat: z3 only (cvc5 unknown: budget spent)'})
    """
    queries = tuple(sorted(set(queries)))
    answers: dict[str, int] = {}
    for _, rests_on in queries:
        answers[rests_on] = answers.get(rests_on, 0) + 1
    unsat = [r for _, r in queries if r.startswith("unsat: ")]
    both = sum(r == f"unsat: {AGREED}" for r in unsat)
    if not unsat:
        agreement = "no unsat answer"
    elif both == len(unsat):
        agreement = AGREED
    else:
        agreement = f"{AGREED} on {both} of {len(unsat)} unsat"
        for who in ("z3 only", "cvc5 only"):
            count = sum(r.startswith(f"unsat: {who}") for r in unsat)
            agreement += f"; {who} on {count}" if count else ""
    others = sum(not r.startswith("unsat: ") and not r.startswith("sat: ") for _, r in queries)
    agreement += f"; undecided on {others}" if others else ""
    one: dict[str, str] = {}
    for file, rests_on in queries:
        if not rests_on.endswith(f": {AGREED}") and rests_on != SAT_NOT_RUN:
            one[file] = f"{one[file]}; {rests_on}" if file in one else rests_on
    out: dict = {"files": sorted({f for f, _ in queries}), "answers": answers, "agreement": agreement}
    if one:
        out["one_solver"] = one
    return out


@dataclass
class Deciding:
    """The open decision of one :meth:`Findings.deciding` block."""

    witness: str | None = None
    reason: str | None = None

    def counterexample(self, witness: str) -> None:
        """The instance fails; ``witness`` is the concrete counterexample, re-checked exactly."""
        if not witness:
            raise HarnessError("a counterexample needs a concrete witness")
        self.witness = witness

    def inconclusive(self, reason: str) -> None:
        """The instance was not decided (a solver said unknown, a search hit its cap)."""
        self.reason = reason


@dataclass(frozen=True)
class Erratum:
    """A printed value that differs from the exact one, with the class of the difference."""

    entry: str  # e.g. "Table 1(a)[0][2]"
    printed: str
    correct: str
    cls: str  # one of ERRATUM_CLASSES
    explanation: str

    def __post_init__(self) -> None:
        if self.cls not in (*ERRATUM_CLASSES, UNCLASSIFIED):
            raise ValueError(f"erratum class must be one of {ERRATUM_CLASSES}, got {self.cls!r}")


ERRATUM_CLASSES = ("rounding", "typo", "extraction damage", "false claim")
# A difference nobody has classified yet; reproduce.py fails the run on it.
UNCLASSIFIED = "unclassified"


def _exact_text(v: object) -> str:
    return str(Fraction(v)) if isinstance(v, int | Fraction) and not isinstance(v, bool) else str(v)


@dataclass
class Findings:
    """Everything a check found: its decided instances, exact values, errata, certificate and notes.

    The check fills it; :func:`udpm.claims.evidence.derive` turns it into a verdict.
    ``status``, ``evidence`` and the other derived fields are available here
    too (without the cap of dependencies), so that a test can ask a check
    directly what it showed.
    """

    claim: str
    decisions: list[Decision] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    errata: list[Erratum] = field(default_factory=list)
    certificate: dict | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        _LOOSE.clear()  # queries answered outside any block of an earlier check are no part of this one

    # --- recording ------------------------------------------------------------------------------

    def instance(
        self,
        *,
        n: int | None,
        alpha: object,
        kind: Kind,
        method: str,
        covers: str = "",
        region: str = "",
        n_from: int | None = None,
        **params: object,
    ) -> Instance:
        deadline.check()  # each instance a check decides is a safe point for its wall-clock bound
        if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
            raise HarnessError(f"{self.claim}: an instance's n must be an int or None, got {n!r}")
        if n_from is not None and (n is not None or isinstance(n_from, bool) or not isinstance(n_from, int)):
            raise HarnessError(f"{self.claim}: n_from is the first n of an all-n argument (n=None), got {n_from!r}")
        return Instance(
            self.claim,
            n,
            alpha_label(alpha),
            Kind(kind),
            method,
            covers,
            tuple(sorted((k, _exact_text(v)) for k, v in params.items())),
            region,
            None if n_from == 1 else n_from,
        )

    def record(
        self, instance: Instance, outcome: Outcome, detail: str = "", smt: Iterable[tuple[str, str]] = ()
    ) -> Decision:
        if any(d.instance == instance for d in self.decisions):
            raise HarnessError(f"{self.claim} decided the same instance twice: {instance.describe()}")
        decision = Decision(instance, Outcome(outcome), detail, tuple(sorted(set(smt))))
        self.decisions.append(decision)
        return decision

    @contextlib.contextmanager
    def deciding(self, **instance: object) -> Iterator[Deciding]:
        """Decide one instance in the block: holds unless the block refutes it, inconclusive on a timeout."""
        inst = self.instance(**instance)  # type: ignore[arg-type]
        verdict = Deciding()
        queries: set[tuple[str, str]] = set()
        _OPEN.append(queries)
        try:
            yield verdict
        except SolverTimeout as exc:
            self.record(inst, Outcome.INCONCLUSIVE, f"no answer within the bound: {exc}", queries)
            return
        finally:
            _close(queries)
        if verdict.witness is not None:
            self.record(inst, Outcome.COUNTEREXAMPLE, verdict.witness, queries)
        elif verdict.reason is not None:
            self.record(inst, Outcome.INCONCLUSIVE, verdict.reason, queries)
        else:
            self.record(inst, Outcome.HOLDS, smt=queries)

    def decide(self, holds: bool | None, witness: str = "", **instance: object) -> bool | None:
        """Record an instance decided outside a block: True holds, False refutes (``witness``), None inconclusive."""
        inst = self.instance(**instance)  # type: ignore[arg-type]
        if holds is False and not witness:
            raise HarnessError(f"{self.claim}: a refuted instance needs its witness ({inst.describe()})")
        outcome = {True: Outcome.HOLDS, False: Outcome.COUNTEREXAMPLE, None: Outcome.INCONCLUSIVE}[holds]
        queries = set(_LOOSE) if not _OPEN else set()  # the queries answered since the last decision, outside blocks
        self.record(inst, outcome, "" if holds else witness, queries)
        if not _OPEN:
            _LOOSE.clear()
        return holds

    def value(self, **values: object) -> None:
        """Exact values, as text: Fractions as '272/415'."""
        self.values.update({k: _exact_text(v) for k, v in values.items()})

    def erratum(self, entry: str, printed: str, correct: str, cls: str, explanation: str) -> None:
        self.errata.append(Erratum(entry, printed, correct, cls, explanation))

    def note(self, text: str) -> None:
        self.notes.append(text)

    # --- derived views (for tests and the runner) -------------------------------------------------

    def result(self, dependencies: Mapping[str, object] | None = None):  # -> udpm.claims.evidence.Result
        """The verdict derived from this record (:func:`udpm.claims.evidence.derive`)."""
        from udpm.claims.evidence import derive

        return derive(self, dependencies or {})

    @property
    def status(self):
        return self.result().status

    @property
    def evidence(self):
        return self.result().evidence

    @property
    def counterexample(self) -> str | None:
        return self.result().counterexample

    def decided(self, kind: Kind | None = None, outcome: Outcome | None = None) -> list[Decision]:
        return [
            d
            for d in self.decisions
            if (kind is None or d.instance.kind is kind) and (outcome is None or d.outcome is outcome)
        ]
