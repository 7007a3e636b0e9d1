"""zlcn2013 Section 4: assertions of Theorem 7's proof sketch and of Section 4.2.

* zlcn2013.thm7.invertible: Theorem 7, proof sketch, "M is invertible" (exact determinants).
* zlcn2013.sec4.2.legal: Section 4.2, the printed conditions make the step function Phi legal (z3).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
import z3
from sympy.polys.matrices import DomainMatrix

from proofs.assertions.zlcn2013.common import A, positive_for_alpha_above_one
from proofs.countrange.alpha import SYMBOLIC
from proofs.countrange.derivation import premises_hold
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.smt.solvers import decide

F = Fraction


def printed_m(n: int, boundary: sp.Expr = A / (A - 1)) -> sp.Matrix:
    """Theorem 7's M: (A-1)/(A+1) A^-|i-j|, the columns 0 and n times ``boundary``."""
    return sp.Matrix(
        n + 1, n + 1, lambda i, j: (A - 1) / (A + 1) * (boundary if j in (0, n) else 1) * A ** (-abs(i - j))
    )


@checks("zlcn2013.thm7.invertible")
def m_invertible(ctx: Context, boundary: sp.Expr = A / (A - 1), n_max: int = 7) -> Findings:
    """zlcn2013 Theorem 7, proof sketch: "We can show that M is invertible", per n symbolically in A > 1: det M is a
    rational function of A; it is decided non-zero for every A > 1 (sympy sign after A = 1 + s).  ``boundary`` is
    the factor of M's first and last columns (a wrong one is a false variant).  n = 0 is the 1 x 1 M, its one column
    both the first and the last (the factor once)."""
    rec = Findings("zlcn2013.thm7.invertible")
    for n in range(n_max + 1):
        with rec.deciding(
            n=n,
            alpha=SYMBOLIC,
            kind=BOUNDED,
            method="sympy determinant, sign for A > 1",
            covers="every zlcn alpha > 1",
        ) as d:
            dm = DomainMatrix.from_Matrix(printed_m(n, boundary)).to_field()
            det = sp.factor(dm.domain.to_sympy(dm.det()))
            rec.value(**{f"det M, n={n}": str(det)})
            if not (positive_for_alpha_above_one(det) or positive_for_alpha_above_one(-det)):
                d.counterexample(f"n = {n}: det M = {det}, not of one sign for every A > 1")
    return rec


@checks("zlcn2013.sec4.2.legal")
def step_function_legal(ctx: Context, drop: str = "") -> Findings:
    """zlcn2013 Section 4.2: when 0 <= beta2/A <= beta1 <= A beta2 <= 1 and (1 - beta2)/A <= 1 - beta1 <=
    A (1 - beta2), the step function Phi (beta1 below theta, beta2 from theta on) is a legal function.  z3 unsat
    per (n, theta) with A a real variable > 1 (nonlinear), so every zlcn alpha > 1 at once; ``drop`` removes one
    printed condition ('upper': A beta2 <= 1; 'lower': 0 <= beta2/A; 'complement': the two conditions on 1 - beta)
    as a variant: 'upper' and 'lower' are implied by the rest, 'complement' is needed.  n = 0 (one count, theta = 0):
    Phi is the constant beta2."""
    rec = Findings("zlcn2013.sec4.2.legal")
    for n in range(5):
        for theta in range(n + 1):
            with rec.deciding(
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="z3 unsat (nonlinear real arithmetic)",
                theta=theta,
                covers="every (beta1, beta2) meeting the printed conditions, every zlcn alpha > 1",
            ) as d:
                a, b1, b2 = z3.Reals("A beta1 beta2")
                cond = [a > 1, b2 / a <= b1, b1 <= a * b2]
                if drop != "complement":
                    cond += [(1 - b2) / a <= 1 - b1, 1 - b1 <= a * (1 - b2)]
                if drop != "lower":
                    cond.append(0 <= b2 / a)
                if drop != "upper":
                    cond.append(a * b2 <= 1)
                premises_hold(cond, [a == 2, b1 == F(1, 3), b2 == F(1, 3)], ctx.solver_timeout, "printed conditions")
                phi = [b1 if mu < theta else b2 for mu in range(n + 1)]
                legal = [z3.And(0 <= v, v <= 1) for v in phi]
                for u, v in itertools.pairwise(phi):
                    legal += [u <= a * v, v <= a * u, 1 - u <= a * (1 - v), 1 - v <= a * (1 - u)]
                out = decide([*cond, z3.Not(z3.And(legal))], ctx.solver_timeout)
                if not out.unsat:
                    mv = out.model
                    d.counterexample(
                        f"theta = {theta}, A = {mv.eval(a)}, beta = ({mv.eval(b1)}, {mv.eval(b2)}): the conditions "
                        "hold and Phi is not legal (z3 model)"
                    )
    rec.value(
        **{
            "beta1 = beta2 = 1 (legal) meets the conditions": "no (A beta2 <= 1 fails): the conditions are sufficient, "
            "not necessary"
        }
    )
    return rec
