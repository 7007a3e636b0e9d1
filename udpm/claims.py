"""The claim registry: what each claim says, which function checks it, and what it showed.

A claim is declared once, in :mod:`udpm.catalog`, with its id from
``shared/CLAIMS.md``.  The function that checks it lives in ``proofs/`` or
``experiments/`` and is bound with :func:`checks`::

    @checks("grs2011.ex2.1")
    def geometric_is_private(ctx: Context) -> Result:
        '''grs2011 Example 2.1: the alpha-geometric mechanism is alpha-DP.'''

A check returns a :class:`Result` that says exactly what was shown: its
status, the evidence kind reached, and the scope (n_max, alphas, samples).
A claim with no bound function is ``pending``: listed and counted apart,
never as a pass.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import random
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from .errors import ExpectationsError, HarnessError, SolverTimeout, UnknownClaim


class Status(str, Enum):
    PROVED = "proved"  # all n
    VERIFIED = "verified"  # bounded: every n <= n_max, the listed alphas
    TESTED = "tested"  # sampled: K random instances, no counterexample
    REPRODUCED = "reproduced"  # a table matches exactly or after the paper's rounding
    ERRATUM = "erratum"  # printed value differs; class and correct value recorded
    REFUTED = "refuted"  # the claim as stated is false; counterexample attached
    INCONCLUSIVE = "inconclusive"  # solver timeout or unknown
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


ERRATUM_CLASSES = ("rounding", "typo", "extraction damage", "false claim")
# A difference nobody has classified yet; reproduce.py fails the run on it.
UNCLASSIFIED = "unclassified"


@dataclass(frozen=True)
class Scope:
    """What a verdict covers: every n <= n_max, at these alphas, over this many samples."""

    n_max: int | None = None
    alphas: tuple[str, ...] = ()
    samples: int | None = None

    @classmethod
    def of(cls, n_max: int | None = None, alphas: Iterable[object] = (), samples: int | None = None) -> Scope:
        return cls(n_max, tuple(str(a) for a in alphas), samples)

    def to_json(self) -> dict:
        return {"n_max": self.n_max, "alphas": list(self.alphas), "samples": self.samples}


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


@dataclass
class Result:
    status: Status
    evidence: Evidence = Evidence.NONE
    scope: Scope = field(default_factory=Scope)
    values: dict[str, str] = field(default_factory=dict)
    counterexample: str | None = None
    certificate: dict | None = None
    errata: list[Erratum] = field(default_factory=list)
    notes: str = ""

    def to_json(self) -> dict:
        return {
            "status": str(self.status),
            "evidence": str(self.evidence),
            "scope": self.scope.to_json(),
            "values": dict(sorted(self.values.items())),
            "counterexample": self.counterexample,
            "certificate": self.certificate,
            "errata": [asdict(e) for e in self.errata],
            "notes": self.notes,
        }


def exact_values(**values: object) -> dict[str, str]:
    """Exact values as strings: Fractions as '272/415', everything else via str()."""
    return {k: str(Fraction(v)) if isinstance(v, (int, Fraction)) else str(v) for k, v in values.items()}


def refuted(counterexample: str, evidence: Evidence, scope: Scope, **values: object) -> Result:
    return Result(Status.REFUTED, evidence, scope, exact_values(**values), counterexample=counterexample)


def refuted_at(counterexample: str, n: int, alpha: object, **values: object) -> Result:
    """A bounded refutation found at one instance: the scope is that n and that alpha."""
    return refuted(counterexample, Evidence.BOUNDED, Scope.of(n, [alpha]), **values)


def verified(scope: Scope, values: dict[str, str] | None = None, **fields: Any) -> Result:
    """A bounded verdict with no counterexample: every n <= scope.n_max at scope.alphas.
    ``fields``: certificate, errata, notes, as in :class:`Result`."""
    return Result(Status.VERIFIED, Evidence.BOUNDED, scope, {} if values is None else values, **fields)


def tested(scope: Scope, values: dict[str, str] | None = None, **fields: Any) -> Result:
    """A sampled verdict: scope.samples random instances, no counterexample; ``fields`` as for :func:`verified`."""
    return Result(Status.TESTED, Evidence.SAMPLED, scope, {} if values is None else values, **fields)


def proved(scope: Scope, values: dict[str, str] | None = None, **fields: Any) -> Result:
    """An all-n verdict over scope.alphas (usually a symbolic alpha); ``fields`` as for :func:`verified`."""
    return Result(Status.PROVED, Evidence.ALL_N, scope, {} if values is None else values, **fields)


@dataclass(frozen=True)
class Claim:
    id: str
    where: str
    statement: str
    aim: str

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]


@dataclass(frozen=True)
class Context:
    """How a run was asked for: quick (CI-sized) or full, the seed, and the solver time bound."""

    quick: bool = True
    seed: int = 0
    solver_timeout: float = 60.0
    claim_timeout: float = 600.0  # wall-clock bound on one whole check

    def rng(self, claim_id: str) -> random.Random:
        """A generator seeded by the run's seed and the claim id, identical on every run."""
        return random.Random(f"{self.seed}:{claim_id}")


Check = Callable[[Context], Result]
_CHECKERS: dict[str, Check] = {}
CHECK_PACKAGES = ("proofs", "experiments")


def catalog() -> dict[str, Claim]:
    from .catalog import CLAIMS

    return {c.id: c for c in CLAIMS}


def checks(claim_id: str) -> Callable[[Check], Check]:
    """Bind the decorated function as the one check of ``claim_id``."""

    def bind(fn: Check) -> Check:
        if claim_id not in catalog():
            raise UnknownClaim(f"@checks names {claim_id!r}, which udpm.catalog does not declare")
        if claim_id in _CHECKERS and _CHECKERS[claim_id] is not fn:
            raise HarnessError(
                f"claim {claim_id} has two checks: {_CHECKERS[claim_id].__qualname__} and {fn.__qualname__}"
            )
        _CHECKERS[claim_id] = fn
        return fn

    return bind


def load_checkers() -> dict[str, Check]:
    """Import every module of proofs/ and experiments/ so that their @checks bind."""
    for pkg_name in CHECK_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{pkg_name}.{info.name}")
    return dict(_CHECKERS)


def select(ids: Sequence[str], patterns: Sequence[str] = (), paper: str | None = None) -> list[str]:
    """Ids matching any glob in ``patterns`` (all when empty) and the paper key; none is an error."""
    from fnmatch import fnmatchcase

    chosen = [i for i in ids if (not patterns or any(fnmatchcase(i, p) for p in patterns))]
    if paper is not None:
        chosen = [i for i in chosen if i.split(".", 1)[0] == paper]
    if not chosen:
        what = " or ".join(repr(p) for p in patterns) if patterns else "any claim"
        raise UnknownClaim(f"no claim matches {what}{f' in paper {paper!r}' if paper else ''}; see reproduce.py --list")
    return chosen


@contextlib.contextmanager
def _time_bound(seconds: float) -> Iterator[None]:
    """Raise SolverTimeout in the main thread after ``seconds`` (a check that runs away is inconclusive)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise SolverTimeout(f"the check exceeded its wall-clock bound of {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_claim(claim_id: str, ctx: Context) -> tuple[Result, float]:
    """Run one check, turning solver timeouts into inconclusive and crashes into error."""
    fn = _CHECKERS.get(claim_id)
    if fn is None:
        return Result(Status.PENDING, notes="declared in udpm.catalog; no check is implemented yet"), 0.0
    start = time.perf_counter()
    try:
        with _time_bound(ctx.claim_timeout):
            result = fn(ctx)
    except ExpectationsError:
        raise  # a malformed file in paper_tables/ is bad input to the whole run, not a failed claim
    except SolverTimeout as exc:
        result = Result(Status.INCONCLUSIVE, notes=f"solver gave no answer within its bound: {exc}")
    except Exception as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]
        result = Result(
            Status.ERROR, notes=f"{type(exc).__name__}: {exc} (at {last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
        )
    return result, time.perf_counter() - start
