"""The ln(1/alpha)-Laplace noise, density eps/2 e^(-eps|t|) with eps = ln(1/alpha), and its mass on an interval
on one side of 0, exactly (grs2011 Appendix A: Theorem A.2 and Example A.1; grs2009 Section 6.1).
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from proofs.geometric.symbolic import a

EPS = sp.Symbol("epsilon", positive=True)
T = sp.Symbol("t", real=True)


@cache
def laplace_antiderivative(side: int) -> sp.Expr:
    """An antiderivative of eps/2 e^(-side eps t) (side = 1: t >= 0, side = -1: t <= 0), checked by differentiating."""
    density = EPS / 2 * sp.exp(-side * EPS * T)
    anti = sp.integrate(density, T)
    if sp.simplify(sp.diff(anti, T) - density) != 0:
        raise ArithmeticError("antiderivative check failed")
    return anti


def laplace_cell(lo: sp.Expr, hi: sp.Expr, side: int) -> sp.Expr:
    """Pr[lo <= L <= hi] for the Laplace density eps/2 e^(-eps|t|), eps = ln(1/a), on one side of 0
    (side = 1: 0 <= lo <= hi, side = -1: lo <= hi <= 0).  Exact with eps > 0 a symbol, then eps = ln(1/a)."""
    anti = laplace_antiderivative(side)
    val = sp.simplify(anti.subs(T, hi) - anti.subs(T, lo)).subs(EPS, sp.log(1 / a))
    return sp.simplify(sp.powsimp(sp.expand_log(sp.expand_power_exp(sp.simplify(val)), force=True), force=True))
