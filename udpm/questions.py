# ruff: noqa: E501  (doctests show one-line error messages in full)
"""The papers' questions, asked of any count-query mechanism: is_private, derive, optimal_for,
is_universally_optimal (grs2011 Theorem 3.2), and the exact helpers that answer them.

A mechanism is a row-stochastic matrix: row i is the query result i = 0..n, column r an output.
Every answer is exact.  Inputs are Fractions, ints or strings such as ``"1/3"``; floats and numpy
arrays are accepted only through the explicit ``exact="rationalize"``, which replaces each float by
the simplest rational within a stated relative tolerance and says so in the answer.  alpha = e^-eps
is given as ``alpha="1/2"`` or as ``eps="ln 2"`` (exact where e^-eps is rational, refused otherwise).

>>> from fractions import Fraction as F
>>> from udpm.mechanisms import truncated_geometric
>>> T = truncated_geometric(2, F(1, 2))
>>> bool(is_private(T, "1/2")), bool(is_universally_optimal(T, eps="ln 2"))
(True, True)
>>> rr = [["3/5", "2/5"], ["2/5", "3/5"]]        # randomized response: 2/3-DP, hence 1/2-DP
>>> v = is_universally_optimal(rr, "1/2")
>>> bool(v), v.witness_user["label"], v.witness_user["mechanism_loss"], v.witness_user["optimum"]
(False, 'uniform prior, zero-one loss', '2/5', '1/3')
>>> derive(from_=T, to=[["1"], ["1"], ["1"]])      # every mechanism derives the constant one
[[Fraction(1, 1)], [Fraction(1, 1)], [Fraction(1, 1)]]
>>> derive(from_=rr, to=truncated_geometric(1, F(1, 2))) is None
True

Errors are one line, typed (subclasses of :class:`udpm.errors.InvalidInput`):

>>> is_private([[0.5, 0.5], [0.5, 0.5]], "1/2")
Traceback (most recent call last):
    ...
udpm.errors.InvalidMatrix: mechanism[0][0]=0.5 is a float; pass exact rationals (Fraction(1, 3), '1/3') or exact='rationalize' to convert within a stated tolerance
>>> is_private(rr, eps=1)
Traceback (most recent call last):
    ...
udpm.exact_inputs.IrrationalAlpha: eps=1 gives alpha = e^-1, which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from . import linalg
from .certificates import to_certificate
from .certify import Certified, solve
from .errors import CertificationFailed, HarnessError, InvalidInput, InvalidMatrix, SolverTimeout
from .exact_inputs import TOLERANCE, Conversion, exact_alpha, exact_matrix, make_user
from .mechanisms import truncated_geometric
from .privacy import Violation, dp_violations
from .privacy_level import PrivacyLevel, privacy_level
from .programs import bayesian_lp, remap_existence_lp
from .readable import compact, readable
from .remaps import posterior_loss
from .time_budget import Budget, bounded
from .universality_check import SMALL, decide_remap
from .users import BayesianUser, LossValue
from .validate import Matrix, show
from .witness_users import find_witness

#: The default bound, in seconds, on each certified LP solve.
TIMEOUT_S = 60.0


# ---------------------------------------------------------------- exact helpers


def _less(a: LossValue, b: LossValue) -> bool:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a < b
    return bool(sympy.sympify(a) < sympy.sympify(b))


def best_remap(x: Matrix, user: BayesianUser) -> tuple[LossValue, list[int]]:
    """mu_X(u): the loss of ``x`` under the user's best (Bayes) remap, and that remap; ties to the smallest j."""
    total: LossValue = Fraction(0)
    mapping = []
    for r in range(len(x[0])):
        best_j, best = 0, None
        for j in range(user.n + 1):
            c = posterior_loss(x, user, r, j)
            if best is None or _less(c, best):
                best_j, best = j, c
        mapping.append(best_j)
        total = total + best
    return total, mapping


def _remap_lp(t: Matrix, x: Matrix, timeout_s: float) -> tuple[Matrix | None, Certified]:
    """Certified phase-1 LP: min sum |T·Y - X| over stochastic Y; 0 gives Y exactly, > 0 proves no Y exists."""
    cols = len(x[0])
    cert = solve(remap_existence_lp(t, x), timeout_s=timeout_s, decide_unique=False)
    if cert.objective != 0:
        return None, cert
    y = [list(cert.x[r * cols : (r + 1) * cols]) for r in range(len(t[0]))]
    return y, cert


def _derive(
    t: Matrix, x: Matrix, timeout_s: float, names: tuple[str, str] = ("T", "X")
) -> tuple[Matrix | None, str, Certified | None]:
    """The remap (or None), a one-line proof, and the LP certificate when one was solved."""
    tn, xn = names
    if len(t) != len(x):
        raise InvalidMatrix(
            f"from_ has {len(t)} rows and to has {len(x)}; a post-processing keeps the inputs (rows) of from_"
        )
    if len(t) == len(t[0]) and linalg.det(t) != 0:
        y = linalg.solve(t, x)  # T invertible: Y = T^-1 X is the only candidate (gs2010 Section 3)
        neg = [(r, j, v) for r, row in enumerate(y) for j, v in enumerate(row) if v < 0]
        if neg:
            r, j, v = neg[0]
            return None, f"the only solution Y = {tn}^-1 {xn} has Y[{r}][{j}] = {v} < 0 ({tn} is invertible)", None
        return y, f"Y = {tn}^-1 {xn} is stochastic ({tn} is invertible)", None
    y, cert = _remap_lp(t, x, timeout_s)
    if y is None:
        return None, f"every stochastic Y has sum |{tn} Y - {xn}| >= {cert.objective} > 0 (certified LP)", cert
    return y, f"certified LP: sum |{tn} Y - {xn}| = 0", cert


def _check_remap(t: Matrix, y: Matrix, x: Matrix) -> None:
    if linalg.matmul(t, y) != x or any(v < 0 for r in y for v in r) or any(sum(r) != 1 for r in y):
        raise CertificationFailed("a remap returned does not satisfy T·Y = X with Y stochastic")  # pragma: no cover


# ---------------------------------------------------------------- the public questions


@dataclass(frozen=True)
class PrivacyVerdict:
    """Whether a mechanism is alpha-DP; true exactly when ``violations`` is empty.

    Each :class:`~udpm.privacy.Violation` names adjacent results i, i+1 and an output r whose
    probabilities differ by more than the factor 1/alpha.
    """

    alpha: Fraction
    violations: tuple[Violation, ...]
    conversion: Conversion = field(default_factory=Conversion)

    def __bool__(self) -> bool:
        return not self.violations

    @property
    def private(self) -> bool:
        return not self.violations

    def __str__(self) -> str:
        if not self.violations:
            return f"{self.alpha}-DP"
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        return f"not {self.alpha}-DP: {self.violations[0]}{more}"


def is_private(
    m: object, alpha: object = None, *, eps: object = None, exact: str | None = None, tolerance: object = TOLERANCE
) -> PrivacyVerdict:
    """Is the count-query mechanism ``m`` alpha-differentially private?

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (query results), columns the outputs; exact row-stochastic entries.
    alpha, eps : rational or str
        Exactly one: alpha = e^-eps in (0, 1), e.g. ``"1/2"``, or eps such as ``"ln 2"``.
    exact : None, "rationalize" or "estimated"
        ``"rationalize"`` accepts floats and numpy arrays (see :func:`exact_matrix`).

    Returns
    -------
    PrivacyVerdict
        True when private; ``.violations`` lists every (i, i+1, output) that breaks alpha-DP.

    Examples
    --------
    >>> v = is_private([["1/2", "1/2"], ["1", "0"]], "1/2")
    >>> bool(v), str(v)
    (False, 'not 1/2-DP: x[0][1]=1/2, x[1][1]=0, ratio inf')
    >>> is_private([["1/2", "1/2"], ["1"]], "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: mechanism is ragged: row 1 has 1 entries, row 0 has 2
    >>> is_private([["1/2", "1/2"]], 2)
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 2; for the zlcn2013 convention (alpha > 1) use conventions.alpha_from_zlcn2013
    """
    a = exact_alpha(alpha, eps)
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    return PrivacyVerdict(a, tuple(dp_violations(x, a)), conv)


def derive(
    *, from_: object, to: object, exact: str | None = None, tolerance: object = TOLERANCE, timeout_s: float = TIMEOUT_S
) -> Matrix | None:
    """Is ``to`` a post-processing of ``from_``?  The remap Y with from_·Y = to exactly, or None.

    Both are mechanisms with the same inputs (rows); Y is row-stochastic, from the outputs of
    ``from_`` to the outputs of ``to``.  When ``from_`` is square and invertible Y = from_^-1·to is
    the only candidate; otherwise an exactly certified LP decides (None only when it proves
    that no stochastic Y exists).

    Parameters
    ----------
    from_ : matrix
        The mechanism that is run (e.g. T, the truncated geometric mechanism).
    to : matrix
        The mechanism asked about.
    exact : None, "rationalize" or "estimated"
        As in :func:`exact_matrix`, for both matrices.

    Returns
    -------
    list of list of Fraction, or None

    Examples
    --------
    >>> from udpm.mechanisms import truncated_geometric
    >>> T = truncated_geometric(1, "1/2")
    >>> derive(from_=T, to=[["1/2", "1/2"], ["1/2", "1/2"]])
    [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]]
    >>> derive(from_=[["1/2", "1/2"], ["1/2", "1/2"]], to=T) is None
    True
    >>> derive(T, T)
    Traceback (most recent call last):
        ...
    TypeError: derive() takes 0 positional arguments but 2 were given
    >>> derive(from_=T, to=[["1"], ["1"], ["1"]])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: from_ has 2 rows and to has 3; a post-processing keeps the inputs (rows) of from_
    """
    t, _ = exact_matrix(from_, exact=exact, tolerance=tolerance, what="from_")
    x, _ = exact_matrix(to, exact=exact, tolerance=tolerance, what="to")
    y, _, _ = _derive(t, x, timeout_s)
    if y is not None:
        _check_remap(t, y, x)
    return y


@dataclass(frozen=True)
class Optimum:
    """A user's certified optimal alpha-DP mechanism (grs2011 LP (3)-(7), range N).

    ``mechanism`` is an optimal vertex, ``loss`` its exact expected loss (the LP optimum), ``certified``
    the exact certificate (primal, dual, equal objectives); :meth:`certificate` exports it in the
    format that ``python -m udpm.certificates`` re-checks with the standard library alone.
    """

    alpha: Fraction
    user: BayesianUser
    mechanism: Matrix
    loss: LossValue
    unique: bool | None
    certified: Certified

    def certificate(self, label: str = "") -> dict:
        return to_certificate(self.certified, label or f"optimum for one user, n={self.user.n}, alpha={self.alpha}")


def optimal_for(
    user: object, alpha: object = None, *, eps: object = None, unique: bool = False, timeout_s: float = TIMEOUT_S
) -> Optimum:
    """The certified optimal alpha-DP mechanism for one Bayesian user.

    Parameters
    ----------
    user : BayesianUser or (prior, loss)
        prior a probability vector or 'uniform'; loss a Loss, a square matrix or 'abs', 'zero-one', 'squared'.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    unique : bool
        Also decide, exactly, whether the optimum is unique.

    Returns
    -------
    Optimum
        The mechanism, its expected loss and the exact LP certificate.

    Examples
    --------
    >>> opt = optimal_for((["1/2", "1/2"], "zero-one"), "1/2", unique=True)
    >>> opt.loss, opt.mechanism, opt.unique
    (Fraction(1, 3), [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]], True)
    >>> optimal_for((["1/2", "1/3"], "abs"), "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidDistribution: prior must be non-negative and sum to 1, got sum 5/6
    """
    a = exact_alpha(alpha, eps)
    if isinstance(user, tuple) and len(user) == 2:
        user = make_user(user[0], user[1])
    if not isinstance(user, BayesianUser):
        raise InvalidInput(f"user must be a BayesianUser or (prior, loss), got {show(user)}")
    t = truncated_geometric(user.n, a)
    _, mapping = best_remap(t, user)
    candidate = [v for row in t for v in row]
    cand = [[Fraction(0)] * (user.n + 1) for _ in range(user.n + 1)]
    for i in range(user.n + 1):
        for r, j in enumerate(mapping):
            cand[i][j] += t[i][r]
    candidate = [v for row in cand for v in row]  # the theory's candidate (grs2011 Thm 3.1); the certificate decides
    cert = solve(bayesian_lp(user, a), timeout_s=timeout_s, candidate=candidate, decide_unique=unique)
    return Optimum(a, user, cert.matrix(user.n + 1, user.n + 1), cert.objective, cert.unique, cert)


@dataclass(frozen=True)
class Universality:
    """grs2011 Theorem 3.2 decided for one mechanism: universally optimal iff some remap Y gives M·Y = T(n, alpha).

    True exactly when ``remap`` is such a Y (checked by exact multiplication).  Otherwise ``reason``
    says why: M is not alpha-DP (``violations``), or no remap exists, with the certificate named by
    ``method`` (:mod:`udpm.universality_check`: a negative entry of M^-1 T, a null vector z with
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
    witness: object | None = None  # udpm.witness_users.Witness
    witness_status: str = "not needed"
    witness_seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.optimal

    def __str__(self) -> str:
        return ("universally optimal: " if self.optimal else "not universally optimal: ") + self.reason


def _describe(user: BayesianUser) -> dict:
    return {
        "prior": [str(p) for p in user.prior],
        "loss": [[str(v) for v in r] for r in user.loss.values],
    }


def _readable_violation(v: Violation) -> str:
    ratio = "inf" if v.ratio is None else readable(v.ratio)
    return f"x[{v.row}][{v.column}]={readable(v.p)}, x[{v.other}][{v.column}]={readable(v.q)}, ratio {ratio}"


def fast_truncated_geometric(n: int, alpha: Fraction) -> Matrix:
    """T(n, alpha) (grs2011 Example 2.2) from one table of powers; equal to :func:`udpm.mechanisms.truncated_geometric`."""
    a = Fraction(alpha)
    pw = [Fraction(1)]
    for _ in range(n):
        pw.append(pw[-1] * a)
    c, e = (1 - a) / (1 + a), 1 / (1 + a)
    mid = [c * p for p in pw]
    return [
        [pw[i] * e if j == 0 else pw[n - i] * e if j == n else mid[abs(i - j)] for j in range(n + 1)]
        for i in range(n + 1)
    ]


def decide_universality(
    x: Matrix,
    a: Fraction,
    *,
    budget: Budget | None = None,
    witness: bool = True,
    witness_s: float = TIMEOUT_S,
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
        from .privacy_level import level_of_matrix

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
    timeout_s: float = TIMEOUT_S,
    witness: bool = True,
    budget: float | None = None,
) -> Universality:
    """Is the count-query mechanism ``m`` universally utility-maximizing at alpha (grs2011 Theorem 3.2)?

    The theorem: an alpha-DP mechanism X is universally utility-maximizing (optimal, after its own
    best remap, for every Bayesian user with a legal loss) iff some remap of X is the truncated
    geometric mechanism T(n, alpha).  This decides exactly that: M alpha-DP, and T derivable from M
    (:func:`udpm.universality_check.decide_remap`, cheapest exact certificate first).  When it is not,
    a user for whom M's best remap loses more than T's is searched for, as an optional second step
    (:func:`udpm.witness_users.find_witness`: named users, an LP proposal, then SMT over every legal user).

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
    >>> from udpm.mechanisms import geometric_window, truncated_geometric
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


__all__ = [
    "TIMEOUT_S",
    "Optimum",
    "PrivacyLevel",
    "PrivacyVerdict",
    "Universality",
    "best_remap",
    "decide_universality",
    "derive",
    "fast_truncated_geometric",
    "is_private",
    "is_universally_optimal",
    "optimal_for",
    "privacy_level",
]
