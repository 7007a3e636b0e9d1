"""Instances and decisions: the record a check keeps of what it decided.

A check never states its own status or scope.  It decides *instances*, one
(n, alpha, class of users or mechanisms, method) at a time, and records each
one in a :class:`~udpm.claims.findings.Findings` as it is decided.  :mod:`udpm.claims.evidence` derives the
status, the evidence kind and the per-alpha grid from that record, and from
nothing else.

The kind of an instance says how much of the claim's quantifiers it exhausts:

* ``all-n``: a symbolic argument that covers every n (the all-n proof ran);
* ``bounded``: one (n, alpha), every user or mechanism of the stated class
  (an LP certificate, an SMT ``unsat``, an exhaustive enumeration);
* ``sampled``: one element drawn out of a continuum (a prior, a loss, a
  mechanism), decided exactly;
* ``table``: a printed object compared with its exact recomputation.

A check decides an instance inside :meth:`~udpm.claims.findings.Findings.deciding`::

    for n in range(1, 5):
        with rec.deciding(n=n, alpha=a, kind=BOUNDED, method="smt-unsat", covers="all optimal vertices") as d:
            cex = search(n, a)
            if cex is not None:
                d.counterexample(cex)

A block that ends normally *holds*; :meth:`Decision.counterexample` refutes
the instance; a :class:`~udpm.errors.SolverTimeout` inside the block makes it
``inconclusive`` and the check goes on with the next instance.

Every SMT query :func:`udpm.smt.solvers.decide` answers while a block is open is
reported to it (:func:`udpm.smt.reports.smt_query`): the decision's record names the exported
files and the solvers each answer rests on (:func:`udpm.smt.reports.smt_record`).  A query
answered outside any block is kept for the next :meth:`Findings.decide` of the
check (a new :class:`Findings` drops what is left over, so that nothing crosses
from one check to the next).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from udpm.errors import HarnessError
from udpm.smt.reports import smt_record

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
        if self.region:  # absent for a whole-class instance: its key is that of the instance without a region
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


def exact_text(v: object) -> str:
    return str(Fraction(v)) if isinstance(v, int | Fraction) and not isinstance(v, bool) else str(v)
