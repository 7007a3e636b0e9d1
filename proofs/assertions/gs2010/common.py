"""gs2010 assertion checks: the symbols, alpha grids and exact tests several of them share."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

F = Fraction
Matrix = list[list[Fraction]]
ALPHA = sp.Symbol("alpha", positive=True)
INTERIOR = "symbolic alpha in (0,1)"
ENDS_AND_INSIDE = (F(0), F(1, 4), F(1, 2), F(3, 4), F(1))


def first_violation(x: Sequence[Sequence[object]], b: object) -> tuple[int, int] | None:
    """The first (i, c) where x breaks b x[i][c] <= x[i+1][c] or b x[i+1][c] <= x[i][c] (Definition 2 without
    1/alpha, so alpha = 0 is allowed); None when x is b-DP."""
    for i in range(len(x) - 1):
        for c in range(len(x[i])):
            if x[i + 1][c] < b * x[i][c] or x[i][c] < b * x[i + 1][c]:
                return i, c
    return None


def sign_inside(p: sp.Expr) -> str | None:
    """The sign of the polynomial p(alpha) on the open interval (0, 1): '0' (identically zero), '+' or '-'
    (no root inside, exact real-root isolation); None when p changes sign or vanishes inside."""
    p = sp.expand(p)
    if p == 0:
        return "0"
    poly = sp.Poly(p, ALPHA)
    if any(0 < r < 1 for r in sp.real_roots(poly)):
        return None
    return "+" if p.subs(ALPHA, sp.Rational(1, 2)) > 0 else "-"
