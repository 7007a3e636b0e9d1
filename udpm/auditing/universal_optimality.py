# ruff: noqa: E501  (doctests show one-line reasons in full)
"""Universal optimality (grs2011 Theorem 3.2) decided for one mechanism, within a time budget.

An alpha-DP mechanism M is universally optimal iff T(n, alpha) is a remap of M.  :func:`decide_universality`
checks alpha-DP exactly, answers the remap question with its cheapest exact certificate
(:func:`udpm.auditing.universality_check.decide_remap`), and, when the answer is no, looks for a witness user as an
optional second step with its own budget (:func:`udpm.auditing.witness_users.find_witness`).  The public entry is
:func:`is_universally_optimal`, also exported by :mod:`udpm.auditing.questions`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from udpm.auditing.alpha_inputs import exact_alpha
from udpm.auditing.exact_inputs import TOLERANCE, Conversion, exact_matrix
from udpm.auditing.readable import compact, readable
from udpm.auditing.time_budget import Budget, bounded
from udpm.auditing.universality_check import SMALL, decide_remap
from udpm.auditing.witness_users import find_witness
from udpm.core.mechanisms import fast_truncated_geometric
from udpm.core.privacy import Violation, dp_violations
from udpm.core.validate import Matrix
from udpm.errors import HarnessError, InvalidMatrix, SolverTimeout
from udpm.lp.certificates import to_certificate

#: The default bound, in seconds, on the witness search (each solver call in it is bounded too).
WITNESS_S = 60.0


@dataclass(frozen=True)
class Universality:
    """grs2011 Theorem 3.2 decided for one mechanism: universally optimal iff some remap Y gives M·Y = T(n, alpha).

    True exactly when ``remap`` is such a Y (checked by exact multiplication).  Otherwise ``reason``
    says why: M is not alpha-DP (``violations``), or no remap exists, with the certificate named by
    ``method`` (:mod:`udpm.auditing.universality_check`: a negative entry of M^-1 T, a null vector z with
    z·M = 0 != z·T, or ``no_remap_certificate``, an exact LP certificate that sum |M·Y - T| > 0).
    ``witness_user``, when found, is a user for whom M's best remap loses strictly more than
    T(n, alpha) does: a direct counterexample that does not rest on the theorem.  ``witness_status``
    is "found", "none found", "timeout", "undecided" (a solver's user not confirmed exactly), "off" or
    "not needed".
    """

    optimal: bool
    n: int
    alpha: Fraction
    reason: str
    remap: Matrix | None = None
    violations: tuple[Violation, ...] = ()
    no_remap_certificate: dict | None = None
    witness_user: dict | None = None
    conversion: Conversion = field(default_factory=Conversion)
    method: str = ""
    negative_entry: tuple[int, int, Fraction] | None = None
    null_vector: list[Fraction] | None = None
    witness: object | None = None  # udpm.auditing.witness_users.Witness
    witness_status: str = "not needed"
    witness_seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.optimal

    def __str__(self) -> str:
        return ("universally optimal: " if self.optimal else "not universally optimal: ") + self.reason


def _readable_violation(v: Violation) -> str:
    ratio = "inf" if v.ratio is None else readable(v.ratio)
    return f"x[{v.row}][{v.column}]={readable(v.p)}, x[{v.other}][{v.column}]={readable(v.q)}, ratio {ratio}"


def decide_universality(
    x: Matrix,
    a: Fraction,
    *,
    budget: Budget | None = None,
    witness: bool = True,
    witness_s: float = WITNESS_S,
    conversion: Conversion | None = None,
    violations: tuple[Violation, ...] | None = None,
) -> Universality:
    """grs2011 Theorem 3.2 for an exact matrix, within ``budget``; the witness search gets at most ``witness_s``.

    Raises SolverTimeout only when the remap question itself is not decided in time; a witness search
    that runs out of time is reported as ``witness_status == "timeout"``.
    """
    conv = conversion or Conversion()
    budget = budget or Budget(None)
    n = len(x) - 1
    if violations is None:
        from udpm.auditing.privacy_level import level_of_matrix

        violations = () if a <= level_of_matrix(x).alpha else tuple(dp_violations(x, a))
    if violations:
        more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
        return Universality(
            False,
            n,
            a,
            f"M is not {compact(a)}-DP: {_readable_violation(violations[0])}{more}",
            violations=violations,
            conversion=conv,
            method="not DP",
        )
    t = fast_truncated_geometric(n, a)
    d = decide_remap(x, t, budget)
    if d.exists:
        return Universality(
            True,
            n,
            a,
            f"M·Y = T({n}, {compact(a)}) exactly for a stochastic remap Y ({d.proof})",
            remap=d.remap,
            conversion=conv,
            method=d.method,
        )
    w, status, wdict = None, "off", None
    started = time.perf_counter()
    if witness:
        try:
            wb = Budget(budget.left(witness_s))
            w = bounded(lambda: find_witness(x, a, wb, t=t), wb, "witness user", len(x) > SMALL)
            status = "found" if w is not None else "none found"
        except SolverTimeout:
            status = "timeout"
        except HarnessError:  # a solver's answer that did not survive the exact re-check: no witness, no verdict change
            status = "undecided"
        if w is not None:
            wdict = w.to_json()
    return Universality(
        False,
        n,
        a,
        f"no remap Y with M·Y = T({n}, {compact(a)}): {d.proof}",
        no_remap_certificate=None if d.lp is None else to_certificate(d.lp, f"no remap of M to T({n}, {a})"),
        witness_user=wdict,
        conversion=conv,
        method=d.method,
        negative_entry=d.negative,
        null_vector=d.null_vector,
        witness=w,
        witness_status=status,
        witness_seconds=time.perf_counter() - started,
    )


def is_universally_optimal(
    m: object,
    alpha: object = None,
    *,
    eps: object = None,
    exact: str | None = None,
    tolerance: object = TOLERANCE,
    timeout_s: float = WITNESS_S,
    witness: bool = True,
    budget: float | None = None,
) -> Universality:
    """Is the count-query mechanism ``m`` universally utility-maximizing at alpha (grs2011 Theorem 3.2)?

    The theorem: an alpha-DP mechanism X is universally utility-maximizing (optimal, after its own
    best remap, for every Bayesian user with a legal loss) iff some remap of X is the truncated
    geometric mechanism T(n, alpha).  This decides exactly that: M alpha-DP, and T derivable from M
    (:func:`udpm.auditing.universality_check.decide_remap`, cheapest exact certificate first).  When it is not,
    a user for whom M's best remap loses more than T's is searched for, as an optional second step
    (:func:`udpm.auditing.witness_users.find_witness`: named users, an LP proposal, then SMT over every legal user).

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (n >= 1), any number of outputs.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    witness : bool
        Look for a witness user when the answer is no (at most ``timeout_s`` seconds).
    budget : float or None
        Seconds for the whole question; the remap question raises SolverTimeout when it is not
        decided within them, the witness search reports ``witness_status == "timeout"``.

    Returns
    -------
    Universality
        True with the remap Y (M·Y = T), or False with the reason, certificate and witness.

    Examples
    --------
    >>> from udpm.core.mechanisms import geometric_window, truncated_geometric
    >>> u = is_universally_optimal(truncated_geometric(3, "1/3"), "1/3")
    >>> bool(u), u.remap == [[int(i == j) for j in range(4)] for i in range(4)]
    (True, True)
    >>> rr = [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"], ["1/4", "1/4", "1/2"]]
    >>> u = is_universally_optimal(rr, "1/2")
    >>> bool(u), u.reason
    (False, 'no remap Y with M·Y = T(2, 1/2): the only solution Y = M^-1 T has Y[0][2] = -1/2 ≈ -0.5 < 0 (M is invertible)')
    >>> is_universally_optimal([["1", "0"], ["0", "1"]], "1/2").reason
    'M is not 1/2-DP: x[0][0]=1, x[1][0]=0, ratio inf (and 1 more)'
    >>> is_universally_optimal([["1/2", "1/2"]], "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: a count-query mechanism has rows 0..n with n >= 1; got 1 row
    """
    a = exact_alpha(alpha, eps)
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    if len(x) < 2:
        raise InvalidMatrix("a count-query mechanism has rows 0..n with n >= 1; got 1 row")
    return decide_universality(x, a, budget=Budget(budget), witness=witness, witness_s=timeout_s, conversion=conv)


__all__ = ["WITNESS_S", "Universality", "decide_universality", "fast_truncated_geometric", "is_universally_optimal"]
