"""Consumers with a unique optimum over the legal polytope (zlcn2013 Definition 2 and Lemma 3, Section 3.2).

Lemma 3 needs, for each of its vectors x and y, a consumer whose only optimal legal function it is.  Here the
legal polytope is written as linear rows, such a consumer is found as an interior point of the cone of binding
constraint gradients, and uniqueness of an optimum is re-checked by z3 over every legal function.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import z3

from proofs.countrange.derivation import premises_hold
from udpm.core import linalg
from udpm.core.users import CountRangeConsumer
from udpm.smt.solvers import decide, model_value

F = Fraction


def legal_constraints(n: int, a: Fraction) -> list[tuple[list[Fraction], Fraction]]:
    """zlcn2013 Definition 2 as rows g.phi >= h, internal form: for neighbours i, i+1,
    a phi_i <= phi_(i+1) <= phi_i / a and the same for 1 - phi."""
    rows = []

    def e(pairs):
        g = [F(0)] * (n + 1)
        for i, v in pairs:
            g[i] += v
        return g

    for i in range(n + 1):
        rows += [(e([(i, F(1))]), F(0)), (e([(i, F(-1))]), F(-1))]
    for i in range(n):
        rows += [
            (e([(i + 1, F(1)), (i, -a)]), F(0)),  # phi_(i+1) >= a phi_i
            (e([(i, F(1)), (i + 1, -a)]), F(0)),  # phi_i >= a phi_(i+1)
            (e([(i + 1, F(-1)), (i, a)]), a - 1),  # 1 - phi_(i+1) >= a (1 - phi_i)
            (e([(i, F(-1)), (i + 1, a)]), a - 1),  # 1 - phi_i >= a (1 - phi_(i+1))
        ]
    return rows


def legal_premise(
    n: int, a: Fraction, psi: Sequence[z3.ArithRef], phi: Sequence[Fraction], timeout_s: float, what: str
):
    """(the legality constraints on psi, the premise witness: psi = phi, a legal function, pinned)."""
    ok = [
        z3.Sum([z3.RealVal(str(g[i])) * psi[i] for i in range(n + 1)]) >= z3.RealVal(str(h))
        for g, h in legal_constraints(n, a)
    ]
    pins = [v == z3.RealVal(str(p)) for v, p in zip(psi, phi)]
    return ok, premises_hold(ok, pins, timeout_s, what)


def unique_optimum_consumer(n: int, theta: tuple[int, int], phi: list[Fraction], a: Fraction, timeout_s: float):
    """A consumer (omega = 1, prior rho) whose ONLY optimal legal function (internal a) is phi, or why there is none.

    The weighted error is const + c.phi with c_i = -omega_i rho_i inside [theta1, theta2] and +omega_i rho_i
    outside.  phi is the unique minimiser of c over the legal polytope iff c is in the interior of the cone of
    the gradients g of the constraints binding at phi, i.e. c = sum lambda_k g_k with every lambda_k > 0 (scaled:
    >= 1), which needs the binding gradients to span R^(n+1) (phi a vertex).  Found c are re-checked by a second
    z3 query, after its premise (legal psi) is shown satisfiable: no legal psi != phi has c.psi <= c.phi."""
    cons = legal_constraints(n, a)
    tight = [(g, h) for g, h in cons if sum(gi * p for gi, p in zip(g, phi)) == h]
    if linalg.rank([g for g, _ in tight] or [[F(0)] * (n + 1)]) < n + 1:
        return None, f"phi is not a vertex of the legal polytope (binding rank < {n + 1})"
    lam = [z3.Real(f"lam_{k}") for k in range(len(tight))]
    c = [z3.Sum([z3.RealVal(str(g[i])) * lam[k] for k, (g, _) in enumerate(tight)]) for i in range(n + 1)]
    inside = [theta[0] <= i <= theta[1] for i in range(n + 1)]
    facts = [v >= 1 for v in lam] + [c[i] <= 0 if inside[i] else c[i] >= 0 for i in range(n + 1)]
    # first at the canonical point (every lambda 1), so that the consumer found does not depend on z3's term order
    out = decide([*facts, *(v == 1 for v in lam)], timeout_s)
    if out.unsat:
        out = decide(facts, timeout_s)
    if out.unsat:
        return None, "no omega, rho: the cone of binding gradients at phi has no interior point of the needed signs"
    cv = [F(model_value(out.model, t)) for t in c]
    # independent uniqueness check
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
    better = z3.Sum([z3.RealVal(str(cv[i])) * (psi[i] - z3.RealVal(str(phi[i]))) for i in range(n + 1)]) <= 0
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    if not decide([*ok, better, other], timeout_s).unsat:
        raise AssertionError("interior-of-cone consumer is not unique; the certificate logic is wrong")
    w = [abs(v) for v in cv]
    rho = [v / sum(w) for v in w]
    consumer = CountRangeConsumer.of([1] * (n + 1), rho, theta[0], theta[1])
    const = sum((rho[i] for i in range(n + 1) if inside[i]), F(0))
    assert consumer.weighted_error(phi) == const + sum(ci * p for ci, p in zip(cv, phi)) / sum(w)
    return consumer, ""


def is_unique_optimum(consumer: CountRangeConsumer, phi: list[Fraction], a: Fraction, timeout_s: float) -> bool:
    """z3: no legal psi != phi (internal a) has weighted error <= that of phi (linear in psi); the premise (legal
    psi) is shown satisfiable first."""
    n = consumer.n
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
    w = [consumer.omega[i] * consumer.rho[i] for i in range(n + 1)]
    sign = [-1 if consumer.in_range(i) else 1 for i in range(n + 1)]
    diff = z3.Sum(
        [
            z3.RealVal(str(sign[i] * w[i] * (0 - phi[i]))) + z3.RealVal(str(sign[i] * w[i])) * psi[i]
            for i in range(n + 1)
        ]
    )
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    return decide([*ok, diff <= 0, other], timeout_s).unsat
