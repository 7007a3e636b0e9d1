"""grs2011 assertion checks: the constants and helpers several of them share."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from udpm.claims.tables import parse_exact, printed

F = Fraction
HALF = F(1, 2)
SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"
al = sp.Symbol("alpha", positive=True)


def printed_matrix(key: str) -> list[list[Fraction]]:
    return [[parse_exact(v) for v in row] for row in printed("grs2011", key).values]
