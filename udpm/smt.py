"""Time-bounded z3 calls whose only passing answer is ``unsat``.

Every solver call in the harness goes through :func:`decide`.  It sets the
time bound on the solver itself and turns ``unknown`` (a timeout, or a
fragment z3 gave up on) into :class:`SolverTimeout`, which the registry
reports as ``inconclusive``.  So no path reads "no answer" as a proof.

>>> import z3
>>> x = z3.Real("x")
>>> decide([x > 1, x < 0], timeout_s=5).unsat
True
>>> decide([x > 1], timeout_s=5).model is not None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import z3

from .errors import SolverTimeout


@dataclass(frozen=True)
class Outcome:
    """unsat (the negation is impossible, so the claim holds) or a model of the negation."""

    unsat: bool
    model: z3.ModelRef | None = None


def decide(assertions: Iterable[z3.BoolRef], timeout_s: float, logic: str | None = None) -> Outcome:
    """Check the conjunction of ``assertions``; unknown raises SolverTimeout."""
    solver = z3.SolverFor(logic) if logic else z3.Solver()
    solver.set("timeout", max(1, int(timeout_s * 1000)))
    solver.add(*assertions)
    answer = solver.check()
    if answer == z3.unsat:
        return Outcome(True)
    if answer == z3.sat:
        return Outcome(False, solver.model())
    raise SolverTimeout(f"z3 answered unknown ({solver.reason_unknown()}) within {timeout_s:g} s")


def model_value(model: z3.ModelRef, term: z3.ExprRef) -> str:
    """A model value as an exact string ('3/4'), never a float."""
    v = model.eval(term, model_completion=True)
    if z3.is_rational_value(v):
        return (
            f"{v.numerator_as_long()}/{v.denominator_as_long()}"
            if v.denominator_as_long() != 1
            else str(v.numerator_as_long())
        )
    if z3.is_algebraic_value(v):
        return str(v.approx(20)) + " (algebraic)"
    return str(v)
