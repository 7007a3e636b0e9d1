"""Proofs for every n by induction, each obligation an SMT unsat decided in the run.

A statement about sums over any number of terms (a row of any length, a column of any height, a
remap onto any number of outputs) is proved by induction on the number of terms.  The harness
does not take the induction on trust: it states the invariant, and decides

* the **base**: the invariant holds for the empty sum (or the first term), and
* the **step**: the invariant for a partial sum, plus the hypotheses on one more term, imply the
  invariant for the longer sum,

each as an SMT query whose negated conclusion is unsat (z3, and cvc5 on the exported file), after its
premises are shown satisfiable with a witness (:func:`udpm.smt.solvers.premise_witness`), so that a
contradictory hypothesis cannot prove the step.  The scalars (alpha, the partial sums) are
symbolic reals: one run covers every alpha in the stated range and every n.

>>> import z3
>>> a, s, t = z3.Reals("a s t")
>>> base = Obligation("base", (0 < a, a < 1), 0 * a <= 0)
>>> step = Obligation("step", (0 < a, a < 1, s >= 0, t >= 0), s + t >= 0)
>>> by_induction(base, step, timeout_s=10).holds
True
>>> wrong = Obligation("step", (0 < a, a < 1, s >= 0), s + t >= 0)
>>> print(by_induction(base, wrong, timeout_s=10).counterexample)
step fails: a = 1/2, s = 0, t = -1/2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import z3

from udpm.smt.solvers import decide, model_value, premise_witness


@dataclass(frozen=True)
class Obligation:
    """premises => conclusion, for all values of the free variables."""

    name: str
    premises: tuple[z3.BoolRef, ...]
    conclusion: z3.BoolRef

    def variables(self) -> list[z3.ExprRef]:
        seen: dict[str, z3.ExprRef] = {}

        def walk(e: z3.ExprRef) -> None:
            if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
                seen.setdefault(str(e), e)
            for c in e.children():
                walk(c)

        for e in (*self.premises, self.conclusion):
            walk(e)
        return [seen[k] for k in sorted(seen)]


@dataclass(frozen=True)
class Proof:
    """The outcome of discharging obligations: holds, or the first failing one with its model."""

    obligations: tuple[str, ...]
    counterexample: str | None = None

    @property
    def holds(self) -> bool:
        return self.counterexample is None


def discharge(obligations: Sequence[Obligation], timeout_s: float) -> Proof:
    """Every obligation's premises satisfiable (a witness), and premises with the negated conclusion unsat."""
    for ob in obligations:
        premise_witness(ob.premises, timeout_s, ob.name)
        out = decide([*ob.premises, z3.Not(ob.conclusion)], timeout_s)
        if not out.unsat:
            shown = ", ".join(f"{v} = {model_value(out.model, v)}" for v in ob.variables())
            return Proof(tuple(o.name for o in obligations), f"{ob.name} fails: {shown}")
    return Proof(tuple(o.name for o in obligations))


def by_induction(base: Obligation, step: Obligation, timeout_s: float) -> Proof:
    """The base and the step, both discharged: the invariant holds for sums of every length."""
    return discharge((base, step), timeout_s)
