"""The mechanisms of the papers, as exact matrices or exact / symbolic pmfs.

Rows are query results i = 0..n, columns are outputs.  ``alpha`` is the
internal alpha = e^-eps in (0, 1); zlcn2013's alpha > 1 reaches these
functions only through :func:`udpm.core.conventions.alpha_from_zlcn2013`.

>>> from fractions import Fraction as F
>>> truncated_geometric(2, F(1, 2))[0]
[Fraction(2, 3), Fraction(1, 6), Fraction(1, 6)]
>>> geometric_pmf(-1, F(1, 2))
Fraction(1, 6)
>>> geometric_tail(2, F(1, 2))
Fraction(1, 6)
>>> geometric_pmf(0, "1/2")
Fraction(1, 3)

Floats are refused with one line, never computed with:

>>> geometric_pmf(0, 0.5)
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: alpha=0.5 is a float; pass an exact rational such as Fraction(1, 2) or the string '1/2'
>>> geometric_pmf(0.5, F(1, 2))
Traceback (most recent call last):
    ...
udpm.errors.InvalidInteger: delta must be an int, got 0.5 (float)
    (alpha is a separate argument: a Fraction or a string like '1/2')
>>> truncated_geometric(2, 1)
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 1;
    for the zlcn2013 convention (alpha > 1) use conventions.alpha_from_zlcn2013
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from udpm.core.conventions import alpha_from_zlcn2013
from udpm.core.validate import Matrix, alpha_in_unit_interval, integer, size
from udpm.errors import InvalidAlpha, InvalidInput


def geometric_pmf(delta: int, alpha: object) -> Fraction:
    """Pr[Delta = delta] = (1-a)/(1+a) a^|delta| (grs2011 (1), gs2010 Definition 1).

    delta is an int; alpha an exact rational in (0, 1) (a Fraction or a string like '1/2').
    """
    delta = integer(delta, "delta")
    a = alpha_in_unit_interval(alpha)
    return (1 - a) / (1 + a) * a ** abs(delta)


def geometric_tail(k: int, alpha: object) -> Fraction:
    """Pr[Delta >= k]: a^k / (1+a) for k >= 1 (by symmetry also Pr[Delta <= -k]), any int k."""
    k = integer(k, "k")
    a = alpha_in_unit_interval(alpha)
    if k <= 0:
        return 1 - geometric_tail(1 - k, a)
    return a**k / (1 + a)


def geometric_window(n: int, alpha: object, lo: int, hi: int) -> Matrix:
    """Rows i = 0..n and outputs r = lo..hi of the (infinite-range) alpha-geometric mechanism."""
    size(n)
    a = alpha_in_unit_interval(alpha)
    lo, hi = integer(lo, "lo"), integer(hi, "hi")
    if lo > hi:
        raise InvalidInput(f"the output window lo..hi is empty: lo={lo} > hi={hi}")
    return [[geometric_pmf(r - i, a) for r in range(lo, hi + 1)] for i in range(n + 1)]


def truncated_geometric(n: int, alpha: object) -> Matrix:
    """T(n, alpha): the geometric mechanism with outputs < 0 sent to 0 and > n sent to n.

    grs2011 Example 2.2; gs2010 calls it the range-restricted G_{n,alpha}.
    """
    size(n)
    a = alpha_in_unit_interval(alpha)
    c = (1 - a) / (1 + a)

    def entry(i: int, j: int) -> Fraction:
        if j in (0, n):
            return a ** abs(j - i) / (1 + a)
        return c * a ** abs(j - i)

    return [[entry(i, j) for j in range(n + 1)] for i in range(n + 1)]


def scaled_truncated_geometric(n: int, alpha: object) -> Matrix:
    """gs2010's G': columns 0 and n of T(n, alpha) times (1+a), the others times (1+a)/(1-a).

    Its entries are the bare powers a^|i-j| (gs2010 Table 2).
    """
    size(n)
    a = alpha_in_unit_interval(alpha)
    t = truncated_geometric(n, a)
    scale = [(1 + a) if j in (0, n) else (1 + a) / (1 - a) for j in range(n + 1)]
    return [[x * s for x, s in zip(row, scale)] for row in t]


def truncated_geometric_zlcn2013(n: int, alpha_zlcn: object) -> Matrix:
    """zlcn2013's range-restricted geometric mechanism for its alpha > 1, via the one conversion."""
    size(n)
    return truncated_geometric(n, alpha_from_zlcn2013(alpha_zlcn))


ALPHA = sympy.Symbol("alpha", positive=True)


def _symbolic_alpha(alpha: object) -> sympy.Expr:
    """A symbolic alpha as it is; a number only when exact and provably in (0, 1)."""
    if isinstance(alpha, sympy.Basic) and not isinstance(alpha, sympy.Expr):
        raise InvalidAlpha(f"alpha={alpha} is not a sympy expression")
    if isinstance(alpha, sympy.Expr):
        if alpha.has(sympy.Float):
            raise InvalidAlpha(
                f"alpha={alpha} contains a float; pass an exact number such as Rational(1, 2) or exp(-1)"
            )
        if alpha.free_symbols:
            return alpha
        if alpha.is_Rational:
            alpha = Fraction(int(alpha.p), int(alpha.q))
        elif alpha.is_positive is True and (1 - alpha).is_positive is True:
            return alpha
        else:
            raise InvalidAlpha(f"alpha must be an exact number with 0 < alpha < 1 (alpha = e^-eps), got {alpha}")
    a = alpha_in_unit_interval(alpha)
    return sympy.Rational(a.numerator, a.denominator)


def rounded_laplace_pmf(k: int, alpha: sympy.Expr = ALPHA) -> sympy.Expr:
    """Pr[round(L) = k] for L with Laplace density eps/2 e^(-eps|t|), eps = ln(1/alpha).

    Computed by symbolic integration over [k - 1/2, k + 1/2], so that the
    closed form of grs2011 Theorem A.2 is checked, not assumed.  alpha is a
    sympy symbol / expression, or an exact rational in (0, 1).
    """
    k = integer(k, "k")
    alpha = _symbolic_alpha(alpha)
    t = sympy.Symbol("t", real=True)
    eps = sympy.log(1 / alpha)
    density = eps / 2 * sympy.exp(-eps * sympy.Abs(t))
    lo, hi = sympy.Rational(2 * k - 1, 2), sympy.Rational(2 * k + 1, 2)
    if lo >= 0:
        val = sympy.integrate(eps / 2 * sympy.exp(-eps * t), (t, lo, hi))
    elif hi <= 0:
        val = sympy.integrate(eps / 2 * sympy.exp(eps * t), (t, lo, hi))
    else:
        val = sympy.integrate(density.subs(sympy.Abs(t), -t), (t, lo, 0)) + sympy.integrate(
            density.subs(sympy.Abs(t), t), (t, 0, hi)
        )
    return sympy.simplify(sympy.powsimp(sympy.expand_log(val, force=True), force=True))


def fast_truncated_geometric(n: int, alpha: Fraction) -> Matrix:
    """T(n, alpha) (grs2011 Example 2.2) from one table of powers; equal to :func:`truncated_geometric`."""
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
