"""Rational functions of the internal alpha a over Q, and their sign on 0 < a < 1 (zlcn2013's checks).

zlcn2013 writes alpha = e^eps > 1 (here A); the harness's alpha is a = 1/A in
(0, 1).  Symbolically every function of A becomes a rational function of a
after the one substitution A = 1/a (:func:`in_internal_alpha`).  :class:`R` is
such a function, num/den with python-flint polynomials over Q, kept reduced.

:func:`nonneg_on_unit` decides f(a) >= 0 for every a in (0, 1) exactly: after
a = s/(1+s), the polynomial P Q (1+s)^deg has no negative coefficient (a
Bernstein-style certificate), else a grid point where f < 0, else z3 decides
the univariate polynomial inequality (time-bounded).  Used by the recurrences
(2)/(3) (:mod:`proofs.countrange.recurrences`) and Theorem 7 (:mod:`proofs.countrange.thresholds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy as sp
import z3

from udpm.smt.solvers import decide

A_SYM = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1
a_sym = sp.Symbol("a", positive=True)  # internal alpha = 1/A


def in_internal_alpha(expr: sp.Expr) -> sp.Expr:
    """The one symbolic conversion: zlcn2013's A becomes 1/a."""
    return sp.sympify(expr).subs(A_SYM, 1 / a_sym)


# --- rational functions of a over Q (python-flint) -------------------------------------------

P = flint.fmpq_poly
X = P([0, 1])


@dataclass(frozen=True)
class R:
    """num/den, both fmpq_poly in a, den != 0, reduced."""

    num: flint.fmpq_poly
    den: flint.fmpq_poly

    @staticmethod
    def of(num: object, den: object = 1) -> R:
        n, d = P(num) if not isinstance(num, P) else num, P(den) if not isinstance(den, P) else den
        g = n.gcd(d) if n != 0 else d
        n, d = n // g, d // g
        lc = d.coeffs()[-1]
        return R(n / lc, d / lc)

    def __add__(self, o: R) -> R:
        return R.of(self.num * o.den + o.num * self.den, self.den * o.den)

    def __sub__(self, o: R) -> R:
        return R.of(self.num * o.den - o.num * self.den, self.den * o.den)

    def __mul__(self, o: R) -> R:
        return R.of(self.num * o.num, self.den * o.den)

    def __truediv__(self, o: R) -> R:
        return R.of(self.num * o.den, self.den * o.num)

    def __neg__(self) -> R:
        return R(-self.num, self.den)

    def is_zero(self) -> bool:
        return self.num == 0

    def at(self, al: Fraction) -> Fraction:
        return _peval(self.num, al) / _peval(self.den, al)

    def sympy(self) -> sp.Expr:
        return sp.factor(_psym(self.num) / _psym(self.den))

    def in_zlcn(self) -> str:
        return str(sp.factor(sp.cancel((_psym(self.num) / _psym(self.den)).subs(a_sym, 1 / A_SYM))))


def _peval(p: flint.fmpq_poly, x: Fraction) -> Fraction:
    return sum((Fraction(int(c.p), int(c.q)) * x**k for k, c in enumerate(p.coeffs())), Fraction(0))


def _psym(p: flint.fmpq_poly) -> sp.Expr:
    return sum((sp.Rational(int(c.p), int(c.q)) * a_sym**k for k, c in enumerate(p.coeffs())), sp.Integer(0))


def _to_poly(e: sp.Expr) -> flint.fmpq_poly:
    coeffs = sp.Poly(sp.expand(e), a_sym).all_coeffs()
    return P([flint.fmpq(int(sp.Rational(c).p), int(sp.Rational(c).q)) for c in reversed(coeffs)])


def from_sympy(expr: sp.Expr) -> R:
    """A rational function of a (given as a sympy expression) as an R."""
    num, den = sp.fraction(sp.together(sp.sympify(expr)))
    return R.of(_to_poly(num), _to_poly(den))


ZERO, ONE, ALPHA = R.of(0), R.of(1), R.of(X)
GRID = [Fraction(k, 64) for k in range(1, 64)]


class Undecided(Exception):
    """The sign of a rational function is not uniform on (0, 1)."""


def nonneg_on_unit(f: R, timeout: float) -> bool:
    """Is f(a) >= 0 for every a in (0, 1)?  Exact: Bernstein-style certificate, else z3 (time-bounded)."""
    if f.is_zero():
        return True
    p = f.num * f.den
    deg = p.degree()
    s, one_s = P([0, 1]), P([1, 1])
    q = sum((p.coeffs()[k] * s**k * one_s ** (deg - k) for k in range(deg + 1)), P([0]))
    if all(c >= 0 for c in q.coeffs()):
        return True
    if any(_peval(p, g) < 0 for g in GRID):
        return False
    av = z3.Real("a")
    poly = sum((z3.RealVal(f"{int(c.p)}/{int(c.q)}") * av**k for k, c in enumerate(p.coeffs())), z3.RealVal(0))
    return decide([av > 0, av < 1, poly < 0], timeout).unsat


def sign_on_unit(f: R, timeout: float) -> int:
    """+1 if f >= 0 on (0,1), -1 if f <= 0, else Undecided (0 counts as either)."""
    if nonneg_on_unit(f, timeout):
        return 1
    if nonneg_on_unit(-f, timeout):
        return -1
    raise Undecided(f"sign of {f.sympy()} changes on 0 < a < 1")
