# ruff: noqa: E501  (the doctest shows one report line in full)
"""The audit of one mechanism: privacy, grs2011 Theorem 3.2 and each user's certified optimum, in one report.

:func:`audit` asks every question of :mod:`udpm.auditing.questions` of one mechanism, an exact matrix or a DP
library's mechanism (:class:`udpm.auditing.adapters.LibraryMechanism`), within one time budget; a step that runs
out of time is reported as ``timeout`` with what was decided before it, never raised.
:class:`udpm.auditing.findings.AuditReport` renders the answers, with their certificates, as text, JSON (``udpm-audit/2``) and
HTML (:mod:`udpm.auditing.html`); text and HTML start with one verdict line and show a decimal beside every
exact number (:mod:`udpm.auditing.readable`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from fractions import Fraction

from udpm.auditing.alpha_inputs import exact_alpha
from udpm.auditing.exact_inputs import TOLERANCE, Conversion, exact_matrix
from udpm.auditing.findings import AuditReport, Step, UserResult
from udpm.auditing.optimum import TIMEOUT_S, optimal_for
from udpm.auditing.privacy_level import level_of_library, level_of_matrix
from udpm.auditing.questions import PrivacyVerdict, decide_universality
from udpm.auditing.time_budget import Budget, bounded
from udpm.auditing.universality_check import SMALL
from udpm.auditing.user_inputs import parse_users
from udpm.auditing.witness_users import fast_best_remap, weights_of
from udpm.core.privacy import dp_violations
from udpm.core.users import BayesianUser
from udpm.core.validate import Matrix
from udpm.errors import CertificationFailed, InvalidMatrix, SolverTimeout

Progress = Callable[[str], None]


def _timed(steps: list[Step], name: str, progress: Progress | None, fn: Callable[[], object]) -> object:
    """Run one step; a SolverTimeout is recorded as ``timeout`` and returned as None, never raised."""
    if progress:
        progress(f"udpm audit: {name} ...")
    t0 = time.perf_counter()
    try:
        out = fn()
        status = "decided"
    except SolverTimeout as exc:
        out, status = None, "timeout"
        steps.append(Step(name, status, time.perf_counter() - t0, str(exc)))
    else:
        steps.append(Step(name, status, time.perf_counter() - t0))
    if progress:
        progress(f"udpm audit: {name} {status} ({steps[-1].seconds:.2f} s)")
    return out


def _user_result(
    x: Matrix | None, lib: object, a: Fraction, label: str, user: BayesianUser, budget: Budget
) -> UserResult:
    if x is not None:
        w = weights_of(user)
        if w is not None:
            mu, mapping = fast_best_remap(x, w)
        else:
            from udpm.auditing.optimum import best_remap

            mu, mapping = best_remap(x, user)
    else:
        from udpm.auditing.library import loss_ball

        mu, mapping = loss_ball(lib, user), None
    if budget.expired:
        return UserResult(label, user, mu, mapping, None, "timeout")
    try:
        opt = optimal_for(user, a, timeout_s=budget.left(TIMEOUT_S))
    except (SolverTimeout, CertificationFailed):
        return UserResult(label, user, mu, mapping, None, "timeout")
    return UserResult(label, user, mu, mapping, opt)


def audit(
    m: object,
    alpha: object = None,
    *,
    eps: object = None,
    users: object = None,
    exact: str | None = None,
    tolerance: object = TOLERANCE,
    timeout_s: float = TIMEOUT_S,
    budget: float | None = None,
    witness: bool = True,
    progress: Progress | None = None,
    confidence: object = "0.95",
) -> AuditReport:
    """Audit one count-query mechanism: privacy, universal optimality, and each user's certified optimum.

    Parameters
    ----------
    m : matrix or LibraryMechanism
        Rows i = 0..n (n >= 1), any number of outputs; or a DP library's mechanism
        (:mod:`udpm.auditing.adapters`, e.g. ``udpm.auditing.adapters.diffprivlib.geometric_truncated(10, math.log(2))``),
        whose float parameter is taken exactly as the library receives it.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`; for a library mechanism both may be omitted: the audit
        is then at the library's own ratio alpha_lib.
    users : None, loss name, (prior, loss), BayesianUser, or a list / dict of them
        Default: the uniform prior with each of 'abs', 'zero-one', 'squared'; ``[]`` for none.
    exact : None, "rationalize", "estimated" or "sampled"
        As in :func:`exact_matrix`; the report states the conversion used.  ``"sampled"``: ``m`` holds the
        sample counts of a sampler (counts[i][r], non-negative ints), audited at ``confidence`` by
        :func:`udpm.auditing.sampled.audit_samples` (a statistical verdict, never an exact one).
    budget : float or None
        Seconds for the whole audit; a step that runs out is reported as ``timeout``, never raised.
    witness : bool
        Search for a witness user when M is not universally optimal (at most ``timeout_s`` seconds).
    progress : callable or None
        Called with one line per step started and finished (``udpm audit`` prints them on a terminal).

    Returns
    -------
    AuditReport
        ``.headline``, ``.verdict``, ``.to_text()``, ``.to_json()``, ``.to_html()``.

    Examples
    --------
    >>> from udpm.core.mechanisms import truncated_geometric
    >>> r = audit(truncated_geometric(2, "1/2"), eps="ln 2", users="abs")
    >>> print(r.to_text())
    verdict: DP at eps = ln 2 (alpha = 1/2); universally optimal: T(2, 1/2) is a remap of it (grs2011 Theorem 3.2)
    udpm audit: n=2, alpha=1/2 (eps=ln 2), 3 outputs; exact input
      privacy: DP at alpha = 1/2
      tightest level: alpha* = 1/2 ≈ 0.5, eps* = ln 2 ≈ 0.6931: bound by rows 0, 1 at output 0 (2/3 ≈ 0.6667 vs 1/3 ≈ 0.3333) (M is alpha-DP exactly for alpha <= alpha*)
      universally optimal: M·Y = T(2, 1/2) exactly for a stochastic remap Y (M = T (Y = I))
      certificate: M·Y = T(2, 1/2) exactly for Y = I (the identity)
      user uniform, abs: M loses 5/9 ≈ 0.5556; certified optimum 5/9 ≈ 0.5556: optimal
      steps: privacy decided, universality decided, user uniform, abs decided
    <BLANKLINE>
    >>> audit(truncated_geometric(2, "1/2"), "1/2", users=[(["1/2", "1/2"], "abs")])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: the prior has 2 entries, the loss is for results 0..2
    """
    from udpm.auditing.adapters import LibraryMechanism

    clock = Budget(budget)
    lib = m if isinstance(m, LibraryMechanism) else None
    rate = None
    if lib is not None and alpha is None and eps is None:
        if lib.rational:
            a, given = lib.alpha, f"alpha_lib={lib.alpha}"
        else:
            a, given, rate = lib.alpha, f"alpha_lib=e^-{float(lib.rate)!r}", lib.rate
    else:
        a = exact_alpha(alpha, eps)
        given = f"eps={eps}" if eps is not None else f"alpha={alpha}"
    steps: list[Step] = []
    if exact == "sampled":
        return _audit_sampled(m, a, given, confidence, steps, clock, progress)
    if lib is not None and not lib.rational:
        return _audit_irrational(lib, a if rate is None else None, given, users, steps, clock, progress)
    if lib is not None:
        x, conv = exact_matrix(lib.matrix)
    else:
        x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    if len(x) < 2:
        raise InvalidMatrix("a count-query mechanism has rows 0..n with n >= 1; got 1 row")
    people = parse_users(users, len(x) - 1)
    level = _timed(steps, "privacy", progress, lambda: level_of_matrix(x))
    violations = () if a <= level.alpha else tuple(dp_violations(x, a))
    privacy = PrivacyVerdict(a, violations, conv)
    uni = _timed(
        steps,
        "universality",
        progress,
        lambda: decide_universality(
            x, a, budget=clock, witness=witness, witness_s=timeout_s, conversion=conv, violations=violations
        ),
    )
    if uni is not None and not uni.optimal and uni.method != "not DP":
        u_step = steps[-1]
        steps[-1] = Step(u_step.name, u_step.status, u_step.seconds - uni.witness_seconds)
        steps.append(Step("witness user", uni.witness_status, uni.witness_seconds))
    rows = []
    for label, user in people:
        got = _timed(
            steps,
            f"user {label}",
            progress,
            lambda user=user, label=label: bounded(
                lambda: _user_result(x, None, a, label, user, clock), clock, f"user {label}", len(x) > SMALL
            ),
        )
        rows.append(got if got is not None else UserResult(label, user, None, None, None, "timeout"))
        if rows[-1].status == "timeout" and steps[-1].status == "decided":
            steps[-1] = Step(steps[-1].name, "timeout", steps[-1].seconds, "optimum not certified within the budget")
    return AuditReport(x, a, given, privacy, uni, tuple(rows), conv, level, tuple(steps), lib, budget, len(x[0]))


def _counts(m: object) -> list[list[int]]:
    """Sample counts from ints or digit strings (a CSV's cells); anything else is refused, one line."""
    if isinstance(m, (str, bytes)) or not hasattr(m, "__len__"):
        raise InvalidMatrix(f"sample counts must be rows of non-negative ints, got {type(m).__name__}")
    rows = []
    for i, row in enumerate(m):
        out = []
        for r, v in enumerate(row):
            if isinstance(v, str) and v.strip().isdigit():
                v = int(v.strip())
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidMatrix(f"counts[{i}][{r}] = {v!r} is not a non-negative integer count")
            out.append(v)
        rows.append(out)
    return rows


def _audit_sampled(m: object, a: Fraction, given: str, confidence: object, steps: list[Step], clock, progress):
    """exact="sampled": the statistical audit of :mod:`udpm.auditing.sampled` (the other helpers' exact steps skipped)."""
    from udpm.auditing.sampled import audit_samples

    counts = _counts(m)
    sv = _timed(steps, "sampled audit", progress, lambda: audit_samples(counts, a, confidence=confidence))
    estimate = [[Fraction(c, sum(row)) for c in row] if sum(row) else [] for row in counts]
    return AuditReport(
        estimate,
        a,
        given,
        PrivacyVerdict(a, ()),
        None,
        (),
        Conversion("sampled"),
        None,
        tuple(steps),
        None,
        clock.seconds if math.isfinite(clock.seconds) else None,
        len(counts[0]),
        None,
        sv,
    )


def _audit_irrational(
    lib: object, a: Fraction | None, given: str, users: object, steps: list[Step], clock: Budget, progress
) -> AuditReport:
    """A library mechanism with an irrational ratio (:mod:`udpm.auditing.library`)."""
    from udpm.auditing.library import answers

    level = _timed(steps, "privacy", progress, lambda: level_of_library(lib))
    got = _timed(steps, "universality", progress, lambda: answers(lib, a, level))
    people = parse_users(users, lib.n) if a is not None else []
    rows = []
    if a is not None and got.privacy:
        for label, user in people:
            r = _timed(
                steps,
                f"user {label}",
                progress,
                lambda user=user, label=label: _user_result(None, lib, a, label, user, clock),
            )
            rows.append(r if r is not None else UserResult(label, user, None, None, None, "timeout"))
    elif a is None and users is not None:
        steps.append(Step("users", "skipped", 0.0, "a user's certified optimum needs a rational alpha"))
    alpha = lib.alpha if a is None else a
    return AuditReport(
        None,
        alpha,
        given,
        got.privacy,
        got.universality,
        tuple(rows),
        Conversion(),
        level,
        tuple(steps),
        lib,
        clock.seconds if math.isfinite(clock.seconds) else None,
        len(lib.outputs),
        lib.rate if a is None else None,
    )


__all__ = ["AuditReport", "Step", "UserResult", "audit"]
