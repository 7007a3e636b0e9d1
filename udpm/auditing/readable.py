"""Exact numbers as a person reads them: a decimal beside every exact value, long fractions shortened.

The exact value stays in the JSON; text and HTML show ``decimal(x)`` first when the fraction is long:

>>> from fractions import Fraction as F
>>> readable(F(1, 15)), readable(F(3)), readable(F(-1, 3))
('1/15 ≈ 0.06667', '3', '-1/3 ≈ -0.3333')
>>> readable(F(64997 * 10**33 + 993, 266784 * 10**45 + 832))
'2.436e-13 (exactly 649970…993/266784…832)'
>>> decimal(F(1, 3 * 2**1000))
'3.111e-302'
>>> approx(F(2, 3)), relative(F(1, 15), F(1, 3))
('2/3 ≈ 0.6667', '20%')
"""

from __future__ import annotations

import decimal as _decimal
from fractions import Fraction

import sympy

#: Longest exact text shown in full.
SHORT = 24


def _digits(k: int) -> str:
    s = str(abs(k))
    return s if len(s) <= 12 else f"{s[:6]}…{s[-3:]}"


def _long(x: Fraction) -> bool:
    return len(str(x)) > SHORT or len(str(abs(x.numerator))) > 12 or len(str(x.denominator)) > 12


def short_exact(x: Fraction) -> str:
    """The fraction itself when short, else its numerator and denominator cut to their first and last digits."""
    text = str(x)
    if not _long(x):
        return text
    sign = "-" if x < 0 else ""
    if x.denominator == 1:
        return sign + _digits(x.numerator)
    return f"{sign}{_digits(x.numerator)}/{_digits(x.denominator)}"


def decimal(x: object, digits: int = 4) -> str:
    """x to ``digits`` significant digits, scientific when tiny or huge (never underflows: decimal arithmetic)."""
    if isinstance(x, sympy.Expr) and not x.is_Rational:
        x = Fraction(str(sympy.N(x, digits + 10)))
    q = Fraction(x)
    if q == 0:
        return "0"
    with _decimal.localcontext() as ctx:
        ctx.prec = digits
        ctx.Emax, ctx.Emin = _decimal.MAX_EMAX, _decimal.MIN_EMIN
        v = _decimal.Decimal(q.numerator) / _decimal.Decimal(q.denominator)
    exp = v.adjusted()
    if -4 <= exp < 6:
        return f"{v:.{digits}g}"
    mant, _, e = f"{v:.{digits - 1}e}".partition("e")
    return f"{mant}e{int(e)}"


def readable(x: object) -> str:
    """'1/15 ≈ 0.06667' for a short fraction, '2.436e-13 (exactly 649970…993/266784…832)' for a long one."""
    if isinstance(x, sympy.Expr) and not x.is_Rational:
        return f"{decimal(x)} (exactly {x})"
    q = Fraction(x)
    if q.denominator == 1 and not _long(q):
        return str(q)
    if not _long(q):
        return f"{q} ≈ {decimal(q)}"
    return f"{decimal(q)} (exactly {short_exact(q)})"


def compact(x: Fraction) -> str:
    """The exact text of a short fraction ('1/2'); a long one as 'decimal (exactly 123456…789/…)'."""
    q = Fraction(x)
    return str(q) if not _long(q) else f"{decimal(q)} (exactly {short_exact(q)})"


def approx(x: object, rate: Fraction | None = None) -> str:
    """A ratio alpha readably: '2/3 ≈ 0.6667', or 'e^-0.6931471805599453 ≈ 0.5' for alpha = e^-rate."""
    if rate is not None:
        r = repr(float(rate)) if Fraction(float(rate)) == rate else short_exact(rate)
        return f"e^-{r} ≈ {decimal(sympy.exp(-sympy.Rational(rate.numerator, rate.denominator)), 17)}"
    return readable(x)


def relative(gap: Fraction, base: Fraction) -> str:
    """gap / base as a percentage, readably ('20%', '3.1e-14%'); 'inf' when base is 0 < gap."""
    if base == 0:
        return "inf" if gap else "0%"
    return f"{decimal(Fraction(gap) / Fraction(base) * 100, 2)}%"


__all__ = ["approx", "compact", "decimal", "readable", "relative", "short_exact"]
