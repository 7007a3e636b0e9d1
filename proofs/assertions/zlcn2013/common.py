"""zlcn2013 assertion checks: the symbol A (zlcn2013's alpha > 1) and the exact sign tests several share."""

from __future__ import annotations

import sympy as sp

A = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1
_S = sp.Symbol("s", positive=True)  # A = 1 + s


def positive_for_alpha_above_one(e: sp.Expr) -> bool:
    """e > 0 for every A > 1: substitute A = 1 + s (s > 0) and ask sympy on the factored form."""
    return bool(sp.factor(sp.together(sp.sympify(e).subs(A, 1 + _S))).is_positive)


def identity(e: sp.Expr) -> bool:
    return sp.simplify(sp.sympify(e)) == 0
