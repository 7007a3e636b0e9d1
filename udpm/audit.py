# ruff: noqa: E501  (doctests show one-line error messages in full)
"""Audit your own mechanism: the papers' questions, asked of any count-query mechanism.

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
(False, 'uniform, zero-one', '2/5', '1/3')
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
udpm.audit.IrrationalAlpha: eps=1 gives alpha = e^-1, which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
"""

from __future__ import annotations

import html
import json
import math
import re
import sys
import types
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from . import linalg
from .certificates import to_certificate
from .certify import Certified, solve
from .errors import CertificationFailed, InvalidAlpha, InvalidInput, InvalidMatrix
from .mechanisms import truncated_geometric
from .privacy import Violation, dp_violations
from .programs import Constraint, LinearProgram, bayesian_lp
from .remaps import posterior_loss
from .users import BayesianUser, Loss, LossValue, absolute_error, binary_loss, squared_error
from .validate import Matrix, alpha_in_unit_interval, distribution, rational, show, stochastic

#: The default relative tolerance of ``exact="rationalize"``: |q - x| <= tolerance * |x| per entry.
TOLERANCE = Fraction(1, 10**9)
#: The default bound, in seconds, on each certified LP solve.
TIMEOUT_S = 60.0
#: Named losses (``--loss`` on the command line).
LOSSES = {
    "abs": absolute_error,
    "zero-one": binary_loss,
    "squared": squared_error,
}
_LOSS_ALIASES = {"absolute": "abs", "|i-j|": "abs", "binary": "zero-one", "0-1": "zero-one", "square": "squared"}


class IrrationalAlpha(InvalidAlpha):
    """eps was given, but alpha = e^-eps is not a rational number (never approximated by a float)."""


class NotRationalizable(InvalidMatrix):
    """``exact="rationalize"`` found no exact row-stochastic matrix within the stated tolerance."""


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Conversion:
    """How a mechanism's entries became exact: ``exact`` (as given) or ``rationalize`` (floats replaced).

    ``tolerance`` is the relative tolerance used, ``replaced`` the number of float entries replaced,
    ``max_deviation`` the largest relative change |q - x| / |x| among them (exactly, from the binary float).
    """

    mode: str = "exact"
    tolerance: Fraction | None = None
    replaced: int = 0
    max_deviation: Fraction = Fraction(0)

    def __str__(self) -> str:
        if self.mode == "exact":
            return "exact input"
        return (
            f"rationalized: {self.replaced} float entr{'y' if self.replaced == 1 else 'ies'} replaced by the simplest "
            f"rational within relative tolerance {self.tolerance} (largest relative change {float(self.max_deviation):.3g})"
        )

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "tolerance": None if self.tolerance is None else str(self.tolerance),
            "replaced": self.replaced,
            "max_relative_deviation": str(self.max_deviation),
        }


def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in [lo, hi] (continued fractions, exact).

    >>> simplest_between(Fraction(3, 10), Fraction(7, 20)), simplest_between(Fraction(-1, 3), Fraction(1, 3))
    (Fraction(1, 3), Fraction(0, 1))
    """
    if lo > hi:
        lo, hi = hi, lo
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest_between(-hi, -lo)
    fl = math.floor(lo)
    if fl == lo:
        return Fraction(fl)
    if fl + 1 <= hi:
        return Fraction(fl + 1)
    return fl + 1 / simplest_between(1 / (hi - fl), 1 / (lo - fl))


def rationalize(x: float, tolerance: Fraction = TOLERANCE) -> Fraction:
    """The simplest rational q with |q - x| <= tolerance·|x|: the exact value a float was rounded from.

    >>> rationalize(1 / 3), rationalize(0.1), rationalize(2 ** -20 / 3), rationalize(0.0)
    (Fraction(1, 3), Fraction(1, 10), Fraction(1, 3145728), Fraction(0, 1))
    >>> rationalize(float("nan"))
    Traceback (most recent call last):
        ...
    udpm.audit.NotRationalizable: nan is not a finite number; nothing to rationalize
    """
    if not math.isfinite(x):
        raise NotRationalizable(f"{x} is not a finite number; nothing to rationalize")
    f = Fraction(x)
    return simplest_between(f - abs(f) * tolerance, f + abs(f) * tolerance)


def _tolerance(tolerance: object) -> Fraction:
    if isinstance(tolerance, float):
        tolerance = Fraction(str(tolerance))  # a stated tolerance is a decimal literal, not a measurement
    try:
        t = rational(tolerance, "tolerance")
    except InvalidMatrix as exc:
        raise InvalidInput(str(exc)) from None
    if not 0 <= t < 1:
        raise InvalidInput(f"tolerance must satisfy 0 <= tolerance < 1 (relative), got {t}")
    return t


def _is_numpy(x: object) -> bool:
    return type(x).__module__.split(".")[0] == "numpy"


def _float_like(v: object) -> bool:
    return isinstance(v, float) or (_is_numpy(v) and getattr(getattr(v, "dtype", None), "kind", "") == "f")


def exact_matrix(
    m: object, *, exact: str | None = None, tolerance: object = TOLERANCE, what: str = "mechanism"
) -> tuple[Matrix, Conversion]:
    """A row-stochastic exact matrix from ``m``, and how it was obtained.

    ``exact=None`` accepts exact entries only (Fraction, int, strings such as '1/3' or '0.25');
    ``exact="rationalize"`` also accepts floats and numpy arrays, each float replaced by the
    simplest rational within relative ``tolerance``; the result must then be exactly stochastic.

    >>> exact_matrix([[2 / 3, 1 / 3], [1 / 3, 2 / 3]], exact="rationalize")[0][0]
    [Fraction(2, 3), Fraction(1, 3)]
    >>> exact_matrix([[0.7, 0.2], [0.2, 0.8]], exact="rationalize")
    Traceback (most recent call last):
        ...
    udpm.audit.NotRationalizable: mechanism: row 0 of the rationalized matrix sums to 9/10, not 1 (relative tolerance 1/1000000000); no exact stochastic matrix is that close, pass exact values
    >>> exact_matrix([["1/2", "1/2"]], exact="round")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: exact must be None (exact input only) or 'rationalize', got 'round'
    """
    if exact not in (None, "rationalize"):
        raise InvalidInput(f"exact must be None (exact input only) or 'rationalize', got {show(exact)}")
    if _is_numpy(m) and hasattr(m, "tolist"):
        if exact is None:
            raise InvalidMatrix(
                f"{what} is a numpy array; pass exact rationals (Fraction(1, 3), '1/3') or exact='rationalize' "
                "to convert its floats within a stated tolerance"
            )
        m = m.tolist()
    if isinstance(m, (str, bytes)) or not isinstance(m, Sequence):
        raise InvalidMatrix(f"{what} must be a list of rows, got {show(m)} ({type(m).__name__})")
    if exact is None:
        for i, row in enumerate(m):
            if isinstance(row, Sequence) and not isinstance(row, (str, bytes)):
                for j, v in enumerate(row):
                    if _float_like(v):
                        raise InvalidMatrix(
                            f"{what}[{i}][{j}]={v!r} is a float; pass exact rationals (Fraction(1, 3), '1/3') "
                            "or exact='rationalize' to convert within a stated tolerance"
                        )
        return stochastic(m, what), Conversion()
    tol = _tolerance(tolerance)
    replaced, worst = 0, Fraction(0)
    rows = []
    for i, row in enumerate(m):
        if _is_numpy(row) and hasattr(row, "tolist"):
            row = row.tolist()
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise InvalidMatrix(f"{what}[{i}] must be a list of entries, got {show(row)}")
        out = []
        for v in row:
            if _float_like(v):
                v = float(v)
                q = rationalize(v, tol)
                replaced += 1
                if v:
                    worst = max(worst, abs(q - Fraction(v)) / abs(Fraction(v)))
                out.append(q)
            else:
                out.append(v.item() if _is_numpy(v) and hasattr(v, "item") else v)
        rows.append(out)
    conv = Conversion("rationalize", tol, replaced, worst)
    from .validate import matrix

    exact_rows = matrix(rows, what)
    for i, r in enumerate(exact_rows):
        if sum(r) != 1 and all(x >= 0 for x in r):
            raise NotRationalizable(
                f"{what}: row {i} of the rationalized matrix sums to {sum(r)}, not 1 (relative tolerance {tol}); "
                "no exact stochastic matrix is that close, pass exact values"
            )
    return stochastic(exact_rows, what), conv


def _root(k: int, b: int) -> int | None:
    r = round(k ** (1 / b)) if k else 0
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**b == k:
            return c
    return None


_RAT = r"[0-9]+(?:/[0-9]+)?"
_EPS = re.compile(rf"^(?:(?P<c>{_RAT})\s*\*?\s*)?(?:ln|log)\s*(?:\(\s*(?P<a>{_RAT})\s*\)|(?P<b>{_RAT}))$")


def alpha_from_eps(eps: object) -> Fraction:
    """alpha = e^-eps exactly, for eps written as ``c·ln(r)`` (c, r rational); refused when irrational.

    >>> alpha_from_eps("ln 2"), alpha_from_eps("ln(3/2)"), alpha_from_eps("2 ln 2"), alpha_from_eps("1/2*log(9)")
    (Fraction(1, 2), Fraction(2, 3), Fraction(1, 4), Fraction(1, 3))
    >>> alpha_from_eps("1/2 ln 2")
    Traceback (most recent call last):
        ...
    udpm.audit.IrrationalAlpha: eps=1/2 ln 2 gives alpha = 2^(-1/2), which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
    >>> alpha_from_eps(0.69)
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: eps=0.69 is a float; write eps as ln(p/q), e.g. eps='ln 2' (alpha = 1/2), or pass alpha itself
    >>> alpha_from_eps("ln 1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: eps=ln 1/2 is not > 0 (alpha = e^-eps = 2 is not in (0, 1))
    """
    hint = "give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself"
    if isinstance(eps, bool) or _float_like(eps):
        raise InvalidAlpha(
            f"eps={eps!r} is a float; write eps as ln(p/q), e.g. eps='ln 2' (alpha = 1/2), or pass alpha itself"
        )
    if isinstance(eps, (int, Fraction)):
        eps = str(eps)
    if not isinstance(eps, str):
        raise InvalidAlpha(f"eps={show(eps)} ({type(eps).__name__}) must be a string such as 'ln 2'")
    text = " ".join(eps.strip().lower().split())
    mt = _EPS.match(text)
    if mt is None:
        try:
            q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise InvalidAlpha(f"eps={show(eps)} is not understood; write it as c*ln(p/q), e.g. 'ln 2'") from None
        if q <= 0:
            raise InvalidAlpha(f"eps={eps} is not > 0 (alpha = e^-eps must be in (0, 1))")
        raise IrrationalAlpha(f"eps={eps} gives alpha = e^-{q}, which is irrational; {hint}")
    c = Fraction(mt["c"]) if mt["c"] else Fraction(1)
    r = Fraction(mt["a"] or mt["b"])
    if c == 0 or r <= 0:
        raise InvalidAlpha(f"eps={eps} is not > 0 (alpha = e^-eps must be in (0, 1))")
    base = 1 / r  # alpha = (1/r)^c
    num, den = _root(base.numerator, c.denominator), _root(base.denominator, c.denominator)
    if num is None or den is None:
        raise IrrationalAlpha(f"eps={eps} gives alpha = {r}^(-{c}), which is irrational; {hint}")
    alpha = Fraction(num, den) ** c.numerator
    if not 0 < alpha < 1:
        raise InvalidAlpha(f"eps={eps} is not > 0 (alpha = e^-eps = {alpha} is not in (0, 1))")
    return alpha


def exact_alpha(alpha: object = None, eps: object = None) -> Fraction:
    """alpha in (0, 1) from exactly one of ``alpha`` (e.g. '1/2') and ``eps`` (e.g. 'ln 2').

    >>> exact_alpha("1/2"), exact_alpha(eps="ln 3")
    (Fraction(1, 2), Fraction(1, 3))
    >>> exact_alpha("1/2", eps="ln 2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: give alpha or eps, not both (alpha='1/2', eps='ln 2')
    """
    if alpha is not None and eps is not None:
        raise InvalidAlpha(f"give alpha or eps, not both (alpha={alpha!r}, eps={eps!r})")
    if alpha is None and eps is None:
        raise InvalidAlpha("give alpha (e.g. '1/2') or eps (e.g. 'ln 2'); alpha = e^-eps")
    return alpha_from_eps(eps) if eps is not None else alpha_in_unit_interval(alpha)


def make_user(prior: object, loss: object, n: int | None = None) -> BayesianUser:
    """A Bayesian user (grs2011 Section 2.2): ``prior`` a probability vector or 'uniform'; ``loss`` a
    :class:`~udpm.users.Loss`, a square matrix, or a name: 'abs', 'zero-one', 'squared'.

    >>> make_user("uniform", "abs", n=2).prior
    (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    >>> make_user(["1/2", "1/2"], "hinge")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: unknown loss 'hinge'; use abs, zero-one, squared or a square matrix
    """
    if n is None:
        if isinstance(prior, Sequence) and not isinstance(prior, str):
            n = len(prior) - 1
        elif isinstance(loss, Loss):
            n = loss.n
        elif isinstance(loss, Sequence) and not isinstance(loss, str):
            n = len(loss) - 1
        else:
            raise InvalidInput("give n, or a prior or loss matrix that fixes it")
    if isinstance(loss, str):
        key = _LOSS_ALIASES.get(loss.strip().lower(), loss.strip().lower())
        if key not in LOSSES:
            raise InvalidInput(f"unknown loss {loss!r}; use abs, zero-one, squared or a square matrix")
        loss = LOSSES[key](n)
    elif not isinstance(loss, Loss):
        if _is_numpy(loss) or any(_float_like(v) for r in loss for v in r):
            raise InvalidInput("a loss matrix must be exact (Fraction, int or strings like '1/3'), not floats")
        loss = Loss.from_matrix(loss)
    if isinstance(prior, str):
        if prior.strip().lower() != "uniform":
            raise InvalidInput(f"prior must be 'uniform' or a probability vector, got {prior!r}")
        prior = [Fraction(1, loss.n + 1)] * (loss.n + 1)
    if _is_numpy(prior) or any(_float_like(v) for v in prior):
        raise InvalidInput("a prior must be exact (Fraction, int or strings like '1/3'), not floats")
    if len(prior) != loss.n + 1:
        raise InvalidInput(f"the prior has {len(prior)} entries, the loss is for results 0..{loss.n}")
    return BayesianUser(tuple(distribution(prior, loss.n + 1)), loss)


def _users(users: object, n: int) -> list[tuple[str, BayesianUser]]:
    if users is None:
        users = ["abs", "zero-one", "squared"]
    if isinstance(users, (str, BayesianUser)) or (
        isinstance(users, tuple) and len(users) == 2 and not isinstance(users[0], (BayesianUser, tuple))
    ):
        users = [users]
    items = list(users.items()) if isinstance(users, Mapping) else [(None, u) for u in users]
    out = []
    for label, u in items:
        if isinstance(u, str):
            user, label = make_user("uniform", u, n), label or f"uniform, {u}"
        elif isinstance(u, BayesianUser):
            user = u
        elif isinstance(u, tuple) and len(u) == 2:
            user = make_user(u[0], u[1], n)
            label = label or f"{u[0] if isinstance(u[0], str) else linalg.fmt_vector(user.prior)}, " + (
                u[1] if isinstance(u[1], str) else "given loss"
            )
        else:
            raise InvalidInput(f"a user is a BayesianUser, (prior, loss) or a loss name, got {show(u)}")
        if user.n != n:
            raise InvalidInput(
                f"user {label or ''} is for results 0..{user.n}, the mechanism for 0..{n}".replace("  ", " ")
            )
        out.append((label or f"user {len(out) + 1}", user))
    return out


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
    rows_n, rr, cols = len(t), len(t[0]), len(x[0])
    names = [f"y[{r},{j}]" for r in range(rr) for j in range(cols)]
    dev = len(names)
    names += [f"s+[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    names += [f"s-[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    rows = [
        Constraint(tuple((r * cols + j, Fraction(1)) for j in range(cols)), "=", Fraction(1), f"Y row {r}")
        for r in range(rr)
    ]
    for i in range(rows_n):
        for j in range(cols):
            k = i * cols + j
            coeffs = (
                *((r * cols + j, t[i][r]) for r in range(rr) if t[i][r]),
                (dev + k, Fraction(1)),
                (dev + rows_n * cols + k, Fraction(-1)),
            )
            rows.append(Constraint(coeffs, "=", x[i][j], f"(TY)[{i},{j}]"))
    obj = tuple((j, Fraction(1)) for j in range(dev, len(names)))
    lp = LinearProgram(tuple(names), obj, tuple(rows), "remap existence: min sum |T Y - X|")
    cert = solve(lp, timeout_s=timeout_s, decide_unique=False)
    if cert.objective != 0:
        return None, cert
    y = [list(cert.x[r * cols : (r + 1) * cols]) for r in range(rr)]
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
    exact : None or "rationalize"
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
    exact : None or "rationalize"
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


def _lemma512_user(n: int, gamma: Fraction) -> BayesianUser:
    """grs2011 Lemma 5.12: uniform prior, l(i, j) = 0 if i = j else 1 + gamma|i - j| (T the unique optimum)."""
    return BayesianUser.of(
        [Fraction(1, n + 1)] * (n + 1), Loss.from_function(n, lambda i, j: 0 if i == j else 1 + gamma * abs(i - j))
    )


@dataclass(frozen=True)
class Universality:
    """grs2011 Theorem 3.2 decided for one mechanism: universally optimal iff some remap Y gives M·Y = T(n, alpha).

    True exactly when ``remap`` is such a Y (checked by exact multiplication).  Otherwise ``reason``
    says why: M is not alpha-DP (``violations``), or no remap exists (``no_remap_certificate``: an
    exact LP certificate that sum |M·Y - T| > 0 for every stochastic Y).  ``witness_user``, when found,
    is a user for whom M's best remap loses strictly more than the certified optimum: a direct
    counterexample that does not rest on the theorem.
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

    def __bool__(self) -> bool:
        return self.optimal

    def __str__(self) -> str:
        return ("universally optimal: " if self.optimal else "not universally optimal: ") + self.reason


def _describe(user: BayesianUser) -> dict:
    return {
        "prior": [str(p) for p in user.prior],
        "loss": [[str(v) for v in r] for r in user.loss.values],
    }


def _witness(x: Matrix, a: Fraction, timeout_s: float) -> dict | None:
    n = len(x) - 1
    cands = [(f"uniform, {name}", make_user("uniform", name, n)) for name in ("zero-one", "abs", "squared")]
    cands += [(f"Lemma 5.12 user, gamma={g}", _lemma512_user(n, g)) for g in (Fraction(1, 1000), Fraction(1, 100))]
    for label, user in cands:
        opt = optimal_for(user, a, timeout_s=timeout_s)
        mu, mapping = best_remap(x, user)
        if _less(opt.loss, mu):
            return {
                "label": label,
                **_describe(user),
                "mechanism_loss": str(mu),
                "best_remap": mapping,
                "optimum": str(opt.loss),
                "optimal_mechanism": [[str(v) for v in r] for r in opt.mechanism],
                "certificate": opt.certificate(f"witness user {label}"),
            }
    return None


def is_universally_optimal(
    m: object,
    alpha: object = None,
    *,
    eps: object = None,
    exact: str | None = None,
    tolerance: object = TOLERANCE,
    timeout_s: float = TIMEOUT_S,
    witness: bool = True,
) -> Universality:
    """Is the count-query mechanism ``m`` universally utility-maximizing at alpha (grs2011 Theorem 3.2)?

    The theorem: an alpha-DP mechanism X is universally utility-maximizing (optimal, after its own
    best remap, for every Bayesian user with a legal loss) iff some remap of X is the truncated
    geometric mechanism T(n, alpha).  This decides exactly that: M alpha-DP, and T derivable from M
    (:func:`derive` with ``from_=M, to=T``).  When it is not, a user for whom M is strictly
    suboptimal is looked for among Lemma 5.12's users and the uniform prior with each named loss.

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (n >= 1), any number of outputs.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    witness : bool
        Look for a witness user when the answer is no (one certified LP per user tried).

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
    (False, 'no remap Y with M·Y = T(2, 1/2): the only solution Y = M^-1 T has Y[0][2] = -1/2 < 0 (M is invertible)')
    >>> is_universally_optimal([["1", "0"], ["0", "1"]], "1/2").reason
    'M is not 1/2-DP: x[0][0]=1, x[1][0]=0, ratio inf (and 1 more)'
    >>> is_universally_optimal([["1/2", "1/2"]], "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: a count-query mechanism has rows 0..n with n >= 1; got 1 row
    """
    a = exact_alpha(alpha, eps)
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    n = len(x) - 1
    if n < 1:
        raise InvalidMatrix("a count-query mechanism has rows 0..n with n >= 1; got 1 row")
    violations = tuple(dp_violations(x, a))
    if violations:
        more = f" (and {len(violations) - 1} more)" if len(violations) > 1 else ""
        return Universality(
            False, n, a, f"M is not {a}-DP: {violations[0]}{more}", violations=violations, conversion=conv
        )
    t = truncated_geometric(n, a)
    y, proof, cert = _derive(x, t, timeout_s, ("M", "T"))
    if y is not None:
        _check_remap(x, y, t)
        return Universality(
            True, n, a, f"M·Y = T({n}, {a}) exactly for a stochastic remap Y ({proof})", remap=y, conversion=conv
        )
    w = _witness(x, a, timeout_s) if witness else None
    return Universality(
        False,
        n,
        a,
        f"no remap Y with M·Y = T({n}, {a}): {proof}",
        no_remap_certificate=None if cert is None else to_certificate(cert, f"no remap of M to T({n}, {a})"),
        witness_user=w,
        conversion=conv,
    )


# ---------------------------------------------------------------- the audit report


@dataclass(frozen=True)
class UserResult:
    """One user's view of M: its loss under its best remap against the certified optimum."""

    label: str
    user: BayesianUser
    mechanism_loss: LossValue
    best_remap: list[int]
    optimum: Optimum

    @property
    def gap(self) -> LossValue:
        return self.mechanism_loss - self.optimum.loss

    @property
    def verdict(self) -> str:
        if _less(self.optimum.loss, self.mechanism_loss):
            return f"suboptimal by {self.gap}"
        if _less(self.mechanism_loss, self.optimum.loss):
            return "below the alpha-DP optimum (M is not alpha-DP)"
        return "optimal"

    def to_json(self) -> dict:
        return {
            "label": self.label,
            **_describe(self.user),
            "mechanism_loss": str(self.mechanism_loss),
            "best_remap": self.best_remap,
            "optimum": str(self.optimum.loss),
            "optimal_mechanism": [[str(v) for v in r] for r in self.optimum.mechanism],
            "verdict": self.verdict,
            "certificate": self.optimum.certificate(f"optimum for {self.label}"),
        }


@dataclass(frozen=True)
class AuditReport:
    """Everything :func:`audit` found about one mechanism; renders as text, JSON and HTML."""

    mechanism: Matrix
    alpha: Fraction
    alpha_given: str
    privacy: PrivacyVerdict
    universality: Universality
    users: tuple[UserResult, ...]
    conversion: Conversion

    @property
    def n(self) -> int:
        return len(self.mechanism) - 1

    @property
    def verdict(self) -> str:
        if not self.privacy:
            return f"NOT {self.alpha}-DP"
        if self.universality:
            return f"{self.alpha}-DP and universally optimal (grs2011 Theorem 3.2)"
        return f"{self.alpha}-DP, NOT universally optimal (grs2011 Theorem 3.2)"

    def to_dict(self) -> dict:
        u = self.universality
        return {
            "format": "udpm-audit/1",
            "n": self.n,
            "alpha": str(self.alpha),
            "alpha_given": self.alpha_given,
            "input": self.conversion.to_json(),
            "mechanism": [[str(v) for v in r] for r in self.mechanism],
            "verdict": self.verdict,
            "private": self.privacy.private,
            "violations": [str(v) for v in self.privacy.violations],
            "universally_optimal": u.optimal,
            "reason": u.reason,
            "remap_to_T": None if u.remap is None else [[str(v) for v in r] for r in u.remap],
            "no_remap_certificate": u.no_remap_certificate,
            "witness_user": u.witness_user,
            "users": [r.to_json() for r in self.users],
            # every LP certificate above, again, so that `python -m udpm.certificates report.json` re-checks them all
            "certificates": [
                c
                for c in (
                    u.no_remap_certificate,
                    (u.witness_user or {}).get("certificate"),
                    *(r.optimum.certificate(f"optimum for {r.label}") for r in self.users),
                )
                if c
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        u = self.universality
        lines = [
            f"udpm audit: n={self.n}, alpha={self.alpha}{'' if self.alpha_given.startswith('alpha') else f' ({self.alpha_given})'}, {len(self.mechanism[0])} outputs; "
            f"{self.conversion}",
            f"verdict: {self.verdict}",
            f"  privacy: {self.privacy}",
            f"  {u}",
        ]
        if u.remap is not None:
            lines.append(
                f"  certificate: the remap Y with M·Y = T({self.n}, {self.alpha}): {linalg.fmt_matrix(u.remap)}"
            )
        if u.witness_user:
            w = u.witness_user
            lines.append(
                f"  witness: user '{w['label']}' loses {w['mechanism_loss']} with M (best remap {w['best_remap']}), "
                f"the certified optimum is {w['optimum']}"
            )
        for r in self.users:
            lines.append(
                f"  user {r.label}: M loses {r.mechanism_loss} (best remap {r.best_remap}); certified optimum "
                f"{r.optimum.loss}: {r.verdict}"
            )
        return "\n".join(lines) + "\n"

    def to_html(self) -> str:
        e = html.escape
        d = self.to_dict()

        def table(m: Sequence[Sequence[object]]) -> str:
            return (
                "<table class=m>"
                + "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in r) + "</tr>" for r in m)
                + "</table>"
            )

        parts = [
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>udpm audit</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto}"
            "table.m td{border:1px solid #ccc;padding:2px 6px;font-family:monospace}"
            ".ok{color:#060}.no{color:#a00}</style></head><body>",
            "<h1>udpm audit</h1>",
            f"<p>n = {self.n}, alpha = {e(d['alpha'])} ({e(self.alpha_given)}); {e(str(self.conversion))}</p>",
            f"<h2 class={'ok' if self.universality else 'no'}>{e(self.verdict)}</h2>",
            f"<p>privacy: {e(str(self.privacy))}</p>",
            f"<p>{e(str(self.universality))}</p>",
            "<h3>mechanism M</h3>" + table(d["mechanism"]),
        ]
        if d["remap_to_T"]:
            parts.append(
                f"<h3>certificate: remap Y with M·Y = T({self.n}, {e(d['alpha'])})</h3>" + table(d["remap_to_T"])
            )
        if d["witness_user"]:
            w = d["witness_user"]
            parts.append(
                f"<h3>witness user: {e(w['label'])}</h3><p>M loses {e(w['mechanism_loss'])}; the certified optimum "
                f"is {e(w['optimum'])}.</p>"
            )
        parts.append(
            "<h3>users</h3><table class=m><tr><td>user</td><td>M's loss</td><td>optimum</td><td>verdict</td></tr>"
        )
        for r in d["users"]:
            parts.append(
                f"<tr><td>{e(r['label'])}</td><td>{e(r['mechanism_loss'])}</td><td>{e(r['optimum'])}</td>"
                f"<td>{e(r['verdict'])}</td></tr>"
            )
        parts.append("</table></body></html>\n")
        return "\n".join(parts)


def audit(
    m: object,
    alpha: object = None,
    *,
    eps: object = None,
    users: object = None,
    exact: str | None = None,
    tolerance: object = TOLERANCE,
    timeout_s: float = TIMEOUT_S,
) -> AuditReport:
    """Audit one count-query mechanism: privacy, universal optimality, and each user's certified optimum.

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (n >= 1), any number of outputs.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    users : None, loss name, (prior, loss), BayesianUser, or a list / dict of them
        Default: the uniform prior with each of 'abs', 'zero-one', 'squared'.
    exact : None or "rationalize"
        As in :func:`exact_matrix`; the report states the conversion used.

    Returns
    -------
    AuditReport
        ``.verdict``, ``.to_text()``, ``.to_json()``, ``.to_html()``.

    Examples
    --------
    >>> from udpm.mechanisms import truncated_geometric
    >>> r = audit(truncated_geometric(2, "1/2"), eps="ln 2", users="abs")
    >>> print(r.to_text())
    udpm audit: n=2, alpha=1/2 (eps=ln 2), 3 outputs; exact input
    verdict: 1/2-DP and universally optimal (grs2011 Theorem 3.2)
      privacy: 1/2-DP
      universally optimal: M·Y = T(2, 1/2) exactly for a stochastic remap Y (Y = M^-1 T is stochastic (M is invertible))
      certificate: the remap Y with M·Y = T(2, 1/2): [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
      user uniform, abs: M loses 5/9 (best remap [0, 1, 2]); certified optimum 5/9: optimal
    <BLANKLINE>
    >>> audit(truncated_geometric(2, "1/2"), "1/2", users=[(["1/2", "1/2"], "abs")])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: the prior has 2 entries, the loss is for results 0..2
    """
    a = exact_alpha(alpha, eps)
    given = f"eps={eps}" if eps is not None else f"alpha={alpha}"
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    if len(x) < 2:
        raise InvalidMatrix("a count-query mechanism has rows 0..n with n >= 1; got 1 row")
    people = _users(users, len(x) - 1)
    privacy = PrivacyVerdict(a, tuple(dp_violations(x, a)), conv)
    uni = is_universally_optimal(x, a, timeout_s=timeout_s)
    rows = []
    for label, user in people:
        mu, mapping = best_remap(x, user)
        rows.append(UserResult(label, user, mu, mapping, optimal_for(user, a, timeout_s=timeout_s)))
    return AuditReport(x, a, given, privacy, uni, tuple(rows), conv)


class _CallableModule(types.ModuleType):
    """``udpm.audit`` names both this module and its main function: calling the module runs :func:`audit`.

    (Importing a submodule binds it on its package, so ``udpm.audit`` is this module once it is loaded.)
    """

    def __call__(self, *args: object, **kwargs: object) -> AuditReport:
        return audit(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule

__all__ = [
    "AuditReport",
    "Conversion",
    "IrrationalAlpha",
    "NotRationalizable",
    "Optimum",
    "PrivacyVerdict",
    "Universality",
    "alpha_from_eps",
    "audit",
    "derive",
    "exact_alpha",
    "exact_matrix",
    "is_private",
    "is_universally_optimal",
    "make_user",
    "optimal_for",
    "rationalize",
]
