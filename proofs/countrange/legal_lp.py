"""Shared machinery of the zlcn2013 count-range checks: the test alphas, consumers, and the legal-function LP.

zlcn2013's alpha > 1 (written A here) enters only through udpm.core.conventions.alpha_from_zlcn2013 (inside
udpm.lp.countrange).  Here: the zlcn alphas of the bounded grids (:data:`ALPHAS_Z`) and the symbol A
(:data:`AS`); a consumer's text, its digest and random draws; the count ranges (theta1, theta2) at n; the
certified optimum of the legal-function LP of Definition 2 (every LP optimum is certified exactly,
udpm.lp.certify); and Definition 2's legality as z3 constraints.  The checks that use them:
Definition 2 and (1) in proofs/countrange/definition2.py, x-hat and y-hat (Section 3.2) in
proofs/countrange/xhat_yhat.py, Section 4.2's oblivious step functions in proofs/countrange/oblivious_step.py;
Theorem 4 (the exact worst ratio and its closed forms in A) is in proofs/countrange/approximation_ratio.py;
Theorem 1, the two-variable form and Theorems 5, 6 are in proofs/countrange/consumers.py; over all consumers in
proofs/countrange/cones.py (which reuses the legal polytope's vertices of proofs.countrange.legal_polytope), the
exact (beta1, beta2) minimisations in proofs/countrange/family.py.
"""

from __future__ import annotations

import hashlib
import random
from fractions import Fraction

import sympy as sp

from udpm.claims.registry import Context
from udpm.core.users import CountRangeConsumer
from udpm.lp.certify import solve
from udpm.lp.countrange import legal_function_lp

ALPHAS_Z = (Fraction(101, 100), Fraction(3, 2), Fraction(2), Fraction(10))  # zlcn2013's alpha > 1
F = Fraction
AS = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1, symbolically


def fmt(v) -> str:
    return "(" + ", ".join(str(x) for x in v) + ")"


def consumer_text(c: CountRangeConsumer) -> str:
    t2 = "inf" if c.theta2 is None else c.theta2
    return f"omega={fmt(c.omega)}, rho={fmt(c.rho)}, theta=({c.theta1}, {t2})"


def random_consumer(rng: random.Random, n: int, theta1: int, theta2: int | None) -> CountRangeConsumer:
    omega = [F(rng.choice((0, 1, 1, 2, 3, 5))) for _ in range(n + 1)]
    raw = [F(rng.choice((0, 1, 1, 2, 4))) for _ in range(n + 1)]
    if not any(raw):
        raw[rng.randrange(n + 1)] = F(1)
    s = sum(raw)
    return CountRangeConsumer.of(omega, [r / s for r in raw], theta1, theta2)


def theta_pairs(n: int) -> list[tuple[int, int | None]]:
    """Every count range 0 <= theta1 < theta2 <= n, and the thresholds <theta, +inf>."""
    return [(t1, t2) for t1 in range(n + 1) for t2 in range(t1 + 1, n + 1)] + [(t, None) for t in range(n + 1)]


def lp_optimum(c: CountRangeConsumer, A: Fraction, ctx: Context):
    p = legal_function_lp(c, A)
    cert = solve(p.lp, timeout_s=ctx.solver_timeout)
    return p, cert, p.objective_to_error(cert.objective)


def digest(text: str) -> str:
    """A short, stable name of a drawn object (its exact text)."""
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def theta_text(t1: int, t2: int | None) -> str:
    return f"{t1},{'inf' if t2 is None else t2}"


def z3_legal(p, A):
    """Definition 2 as printed (zlcn's alpha > 1) for the z3 terms ``p``: the z3 constraints of a legal function."""
    c = []
    for v in p:
        c += [v >= 0, v <= 1]
    for u, v in zip(p, p[1:]):
        c += [u <= A * v, v <= A * u, 1 - u <= A * (1 - v), 1 - v <= A * (1 - u)]
    return c
