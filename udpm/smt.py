"""Time-bounded z3 calls whose only passing answer is ``unsat``.

Every solver call in the harness goes through :func:`decide`.  It sets the
time bound on the solver itself and turns ``unknown`` (a timeout, or a
fragment z3 gave up on) into :class:`SolverTimeout`, which the registry
reports as ``inconclusive``.  So no path reads "no answer" as a proof.
z3 catches Ctrl-C itself and answers unknown; :func:`decide` turns that
back into :class:`KeyboardInterrupt`, so an interrupt stops the run.

:func:`premise_witness` shows that a check's hypotheses are satisfiable,
with a model, before an ``unsat`` of their conjunction with a negated
conclusion is trusted (a contradictory premise proves anything):

>>> import z3
>>> x = z3.Real("x")
>>> premise_witness([x > 1, x < 3], timeout_s=5, what="demo")["x"]
'2'
>>> premise_witness([x > 1, x < 0], timeout_s=5, what="demo")
Traceback (most recent call last):
...
udpm.errors.VacuousPremise: demo: the hypotheses have no model, so any conclusion would follow

>>> decide([x > 1, x < 0], timeout_s=5).unsat
True
>>> decide([x > 1], timeout_s=5).model is not None
True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import z3

from .errors import SolverTimeout, VacuousPremise

# z3's reason when it caught SIGINT itself.
KEYBOARD = "interrupted from keyboard"


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
    reason = solver.reason_unknown()
    if KEYBOARD in reason:
        raise KeyboardInterrupt
    raise SolverTimeout(f"z3 answered unknown ({reason}) within {timeout_s:g} s")


@contextlib.contextmanager
def fresh_context() -> Iterator[None]:
    """Build and solve every z3 term of the block in a new z3 context.

    z3's models depend on the ids of its terms, hence on every term the process created before; in a
    fresh context a search's models are a function of the query alone, whatever ran earlier (run order,
    filters, workers).  z3's Python API builds terms in its default context, so that is swapped in.
    """
    old = z3.z3._main_ctx
    z3.z3._main_ctx = z3.Context()
    try:
        yield
    finally:
        z3.z3._main_ctx = old


def premise_witness(premises: Iterable[z3.BoolRef], timeout_s: float, what: str) -> dict[str, str]:
    """A model of ``premises`` as {name: exact value}, sorted; VacuousPremise when they have none."""
    premises = list(premises)
    out = decide(premises, timeout_s)
    if out.unsat:
        raise VacuousPremise(f"{what}: the hypotheses have no model, so any conclusion would follow")
    model = out.model
    return {d.name(): model_value(model, d()) for d in sorted(model.decls(), key=lambda d: d.name()) if d.arity() == 0}


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
