"""The claim registry: what each claim says, which function checks it, and what it showed.

A claim is declared once, in :mod:`udpm.claims.catalog`, with its id from
``shared/CLAIMS.md``.  The function that checks it lives in ``proofs/`` or
``experiments/`` and is bound with :func:`checks`::

    @checks("grs2011.ex2.1")
    def geometric_is_private(ctx: Context) -> Findings:
        '''grs2011 Example 2.1: the alpha-geometric mechanism is alpha-DP.'''

A check returns the :class:`~udpm.claims.findings.Findings` it recorded: the
instances it decided, with exact values, errata and certificates.  It never
states its status or scope; :func:`judge` derives them
(:mod:`udpm.claims.evidence`), capped by the claims the check depends on.  A claim
with no bound function is ``pending``: listed and counted apart, never as a
pass.
"""

from __future__ import annotations

import contextlib
import importlib
import pkgutil
import random
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

from udpm.claims.evidence import Evidence, Result, Status, derive, unresolved
from udpm.claims.findings import Findings
from udpm.claims.instances import ERRATUM_CLASSES, UNCLASSIFIED, Erratum
from udpm.claims.statements import Statement as Claim
from udpm.errors import CheckTimeout, ExpectationsError, HarnessError, SolverTimeout, UnknownClaim

__all__ = [
    "ERRATUM_CLASSES",
    "UNCLASSIFIED",
    "Claim",
    "Context",
    "Erratum",
    "Evidence",
    "Findings",
    "Plan",
    "Result",
    "Status",
    "checks",
    "run_claim",
]


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


Check = Callable[[Context], Findings]
_CHECKERS: dict[str, Check] = {}
CHECK_PACKAGES = ("proofs", "experiments")


@dataclass(frozen=True)
class Plan:
    """A check's optional split into tasks, so that an executor spreads one claim over many workers.

    ``tasks(ctx)`` lists the check's tasks in the order a serial run decides them, each a small
    descriptor of ints and strings (picklable, and its JSON text is part of a cache key);
    ``decide(ctx, descriptor)`` decides one task and returns a :class:`Findings` holding just its
    decisions (and any per-task values the check merges).  The check itself stays the one code path:
    it asks :func:`part` for each task's findings, in plan order, and merges them; :func:`part`
    decides the task there and then, unless an executor already did and supplied it.
    """

    tasks: Callable[[Context], list[tuple]]
    decide: Callable[[Context, tuple], Findings]


_PLANS: dict[str, Plan] = {}
_SUPPLIED = threading.local()


def plan_of(claim_id: str) -> Plan | None:
    """The claim's task plan, or None when the check runs as one task."""
    return _PLANS.get(claim_id)


@contextlib.contextmanager
def supplied(parts: dict[tuple[str, tuple], Findings]) -> Iterator[None]:
    """Within the block (this thread), :func:`part` answers from ``parts``: (claim id, descriptor) -> findings."""
    previous = getattr(_SUPPLIED, "parts", None)
    _SUPPLIED.parts = parts
    try:
        yield
    finally:
        _SUPPLIED.parts = previous


def part(claim_id: str, ctx: Context, descriptor: tuple) -> Findings:
    """Inside a planned check: the findings of one task, supplied by the executor or decided now."""
    parts = getattr(_SUPPLIED, "parts", None)
    if parts is not None and (claim_id, descriptor) in parts:
        return parts[(claim_id, descriptor)]
    return _PLANS[claim_id].decide(ctx, descriptor)


def absorb(rec: Findings, found: Findings) -> None:
    """Append a task's decisions to the check's record, in the task's order (a repeated instance is refused)."""
    for d in found.decisions:
        rec.record(d.instance, d.outcome, d.detail, d.smt)


def catalog() -> dict[str, Claim]:
    from udpm.claims.catalog import CLAIMS

    return {c.id: c for c in CLAIMS}


def checks(claim_id: str, plan: Plan | None = None) -> Callable[[Check], Check]:
    """Bind the decorated function as the one check of ``claim_id`` (with its task :class:`Plan`, if any)."""

    def bind(fn: Check) -> Check:
        if claim_id not in catalog():
            raise UnknownClaim(f"@checks names {claim_id!r}, which udpm.claims.catalog does not declare")
        if claim_id in _CHECKERS and _CHECKERS[claim_id] is not fn:
            raise HarnessError(
                f"claim {claim_id} has two checks: {_CHECKERS[claim_id].__qualname__} and {fn.__qualname__}"
            )
        _CHECKERS[claim_id] = fn
        if plan is not None:
            _PLANS[claim_id] = plan
        return fn

    return bind


def load_checkers() -> dict[str, Check]:
    """Import every module of proofs/ and experiments/ (their subpackages included) so that their @checks bind; a claim
    that restates a printed
    one on part of its class, with no check of its own, is decided by the printed claim's check (:func:`restricted`)."""
    for pkg_name in CHECK_PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in sorted(pkgutil.walk_packages(pkg.__path__, f"{pkg_name}."), key=lambda m: m.name):
            if not any(part.startswith("_") for part in info.name.split(".")):
                importlib.import_module(info.name)
    for cid, c in catalog().items():
        if c.restates and cid not in _CHECKERS and c.restates in _CHECKERS:
            _CHECKERS[cid] = restricted(cid)
    return dict(_CHECKERS)


def restricted(claim_id: str) -> Check:
    """The check of ``claim_id``, which restates a printed claim on part of its class (a narrower alpha range, fewer
    regions): the printed claim's own check, run as is, keeping the decisions that lie in this claim's printed
    class (:func:`restrict`).  The same code decides both; only the class differs."""

    def check(ctx: Context) -> Findings:
        return restrict(claim_id, _CHECKERS[catalog()[claim_id].restates](ctx))

    check.__qualname__ = f"restricted({claim_id!r})"
    check.restricts = catalog()[claim_id].restates  # type: ignore[attr-defined]
    return check


def restricted_from(claim_id: str) -> str | None:
    """The printed claim whose findings decide ``claim_id`` by restriction (None when it has a check of its own),
    so that a run that decides the printed claim anyway derives this one from its findings."""
    return getattr(_CHECKERS.get(claim_id), "restricts", None)


def restrict(claim_id: str, found: Findings) -> Findings:
    """The findings of the printed claim ``claim_id`` restates, kept where they lie in ``claim_id``'s class (a false
    variant of the narrower claim runs the printed check on the variant, then this)."""
    from udpm.claims.coverage import restricted_to

    c = catalog()[claim_id]
    rec = Findings(claim_id)
    rec.decisions = [
        replace(d, instance=replace(d.instance, claim=claim_id)) for d in restricted_to(found.decisions, c.printed)
    ]
    rec.values = {k: v for k, v in found.values.items() if not k.startswith("corrected_")}
    rec.errata, rec.certificate = list(found.errata), found.certificate
    rec.notes = [
        f"decided by the check of {c.restates}, its instances kept where they lie in this claim's "
        f"printed class (alpha in {c.printed.alpha.text() if c.printed.alpha else 'the printed range'})"
    ]
    return rec


def select(ids: Sequence[str], patterns: Sequence[str] = (), paper: str | None = None) -> list[str]:
    """Ids matching any glob in ``patterns`` (all when empty) and the paper key.

    Every pattern must match some claim (of that paper), so a typo is an error, not a silent no-op.
    """
    from fnmatch import fnmatchcase

    pool = [i for i in ids if paper is None or i.split(".", 1)[0] == paper]
    where = f" in paper {paper!r}" if paper else ""
    for p in patterns:
        if not any(fnmatchcase(i, p) for i in pool):
            raise UnknownClaim(f"no claim matches {p!r}{where}; see reproduce.py --list")
    chosen = [i for i in pool if not patterns or any(fnmatchcase(i, p) for p in patterns)]
    if not chosen:
        raise UnknownClaim(f"no claim{where}; see reproduce.py --list")
    return chosen


def _time_bound(seconds: float) -> AbstractContextManager[None]:
    """Raise CheckTimeout in the main thread after ``seconds``, at a safe point, never inside z3
    (udpm.internal.deadline):
    a check that runs away is inconclusive.  Elsewhere, the executor bounds its worker threads itself."""
    if threading.current_thread() is not threading.main_thread():
        return contextlib.nullcontext()
    from udpm.internal.deadline import bound

    return bound(seconds)


def dependency_order(ids: Iterable[str]) -> list[str]:
    """``ids`` and every claim they depend on, each after its dependencies (catalog order otherwise)."""
    claims = catalog()
    out: list[str] = []

    def visit(cid: str, path: tuple[str, ...]) -> None:
        if cid in out:
            return
        if cid in path:
            raise HarnessError(f"claims depend on each other in a cycle: {' -> '.join((*path, cid))}")
        if cid not in claims:
            raise UnknownClaim(
                f"{path[-1] if path else '?'} depends on {cid!r}, which udpm.claims.catalog does not declare"
            )
        for dep in claims[cid].depends_on:
            visit(dep, (*path, cid))
        out.append(cid)

    position = {c: k for k, c in enumerate(claims)}  # an undeclared id sorts last and is refused by visit()
    for cid in sorted(set(ids), key=lambda c: position.get(c, len(position))):
        visit(cid, ())
    return out


def run_check(claim_id: str, ctx: Context) -> tuple[Findings | Result, float]:
    """Run one check: its findings, or a pending/error/inconclusive verdict; never raises but for bad input."""
    fn = _CHECKERS.get(claim_id)
    if fn is None:
        return unresolved(Status.PENDING, "declared in udpm.claims.catalog; no check is implemented yet"), 0.0
    start = time.perf_counter()
    try:
        with _time_bound(ctx.claim_timeout):
            found = fn(ctx)
    except ExpectationsError:
        raise  # a malformed file in paper_tables/ is bad input to the whole run, not a failed claim
    except (CheckTimeout, SolverTimeout) as exc:
        found = unresolved(Status.INCONCLUSIVE, f"no answer within the bound: {exc}")
    except Exception as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno}"
        found = unresolved(Status.ERROR, f"{type(exc).__name__}: {exc} (at {where})")
    if not isinstance(found, Findings | Result):
        found = unresolved(Status.ERROR, f"the check returned {type(found).__name__}, not Findings")
    return found, time.perf_counter() - start


def judge(claim_id: str, found: Findings | Result, statuses: dict[str, Status]) -> Result:
    """The verdict of a claim from its findings and the statuses of its dependencies (already judged)."""
    deps = {d: statuses[d] for d in catalog()[claim_id].depends_on}
    if isinstance(found, Findings):
        return derive(found, deps)
    from udpm.claims.evidence import cap

    return cap(found, deps)


def run_claim(claim_id: str, ctx: Context) -> tuple[Result, float]:
    """Run one claim and its dependencies; the claim's verdict (for tests and single-claim use)."""
    statuses: dict[str, Status] = {}
    result, seconds = unresolved(Status.ERROR, ""), 0.0
    for cid in dependency_order([claim_id]):
        found, seconds = run_check(cid, ctx)
        result = judge(cid, found, statuses)
        statuses[cid] = result.status
    return result, seconds
