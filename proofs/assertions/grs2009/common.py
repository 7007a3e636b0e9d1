"""grs2009 assertion checks: the helpers several of them share (exact matrices, premise witnesses)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import z3

from udpm.claims.registry import Findings
from udpm.smt.solvers import premise_witness

F = Fraction
SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"
ONE, NIL = F(1), F(0)
Matrix = list[list[Fraction]]


def witnessed(rec: Findings, premises: Sequence[z3.BoolRef], what: str, timeout_s: float) -> None:
    """Show the hypotheses of an unsat query satisfiable (a contradictory premise proves anything) and record the
    model as a value; VacuousPremise otherwise."""
    model = premise_witness(premises, timeout_s, f"{rec.claim}: {what}")
    rec.value(**{f"premise witness: {what}": ", ".join(f"{k}={v}" for k, v in model.items())})


def square_matrix(values: Sequence[Fraction], n: int) -> Matrix:
    return [list(values[i * (n + 1) : (i + 1) * (n + 1)]) for i in range(n + 1)]
