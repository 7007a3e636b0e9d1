"""zlcn2013 Section 3.2: x-hat and y-hat, the only optimal legal functions of two consumers at n = 3.

Section 3.2.1 (claim zlcn2013.xhat): uniform penalty and prior, theta = (1, 2): x-hat is the only optimum, and the
range-restricted geometric mechanism (6) cannot derive it.  Section 3.2.2 (claim zlcn2013.yhat): the stated prior
rho: y-hat is the only optimum.  Each at the rational alphas by the certified LP, and for every alpha > 1 at once
by z3 (nonlinear real arithmetic) and sympy.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange.alpha import SYMBOLIC, zlcn_label
from proofs.countrange.derivation import premises_hold
from proofs.countrange.legal_lp import ALPHAS_Z, AS, F, consumer_text, fmt, lp_optimum, z3_legal
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import truncated_geometric_zlcn2013
from udpm.core.remaps import transformation_vector
from udpm.core.users import CountRangeConsumer
from udpm.lp.certificates import certificate_of
from udpm.smt.solvers import decide


def _z3_err(p, rho, t1, t2):
    return sum(r * (1 - v if t1 <= i <= t2 else v) for i, (v, r) in enumerate(zip(p, rho)))


def x_hat(A):
    return [1 / (A + 1), A / (A + 1), A / (A + 1), 1 / (A + 1)]


def y_hat(A):
    return [1 / ((A + 1) * A), 1 / (A + 1), A / (A + 1), 1 / (A + 1)]


def uniform_rho(A):
    return [F(1, 4)] * 4 if isinstance(A, Fraction) else [z3.RealVal(1) / 4] * 4


def stated_rho(A):
    """rho(0)/rho(1) = alpha^2, rho(2)/rho(1) = alpha, rho(3) = rho(2): rho = (A^2, 1, A, A) / (A+1)^2."""
    return [A * A / (A + 1) ** 2, 1 / (A + 1) ** 2, A / (A + 1) ** 2, A / (A + 1) ** 2]


def unique_optimum(ctx: Context, claim: str, vector, rho_of, theta=(1, 2)) -> Findings:
    """Exact uniqueness at rational alphas (certified LP with the certifier's uniqueness decision) and for all
    alpha > 1 at once (z3: v is legal, and no legal phi != v has err(phi) <= err(v)), after the premises of each
    z3 query are shown satisfiable."""
    rec = Findings(claim)
    certs = []
    covers = "every legal function phi at this (n, alpha): v is the only optimum"
    for A in ALPHAS_Z:
        with rec.deciding(
            n=3, alpha=zlcn_label(A), kind=BOUNDED, method="certified LP, uniqueness", covers=covers
        ) as d:
            v = vector(A)
            c = CountRangeConsumer.of([1] * 4, rho_of(A), *theta)
            p, cert, opt = lp_optimum(c, A, ctx)
            rec.value(**{f"optimum at {zlcn_label(A)}": fmt(cert.x)})
            certs.append((f"{claim} at {zlcn_label(A)}", cert))
            if list(cert.x) != v or not cert.unique:
                how = "not optimal" if p.error(v) != opt else "optimal but not the only optimum"
                d.counterexample(
                    f"{consumer_text(c)}: {fmt(v)} is {how} (err {p.error(v)}); certified optimum {fmt(cert.x)} "
                    f"(err {opt}, unique={cert.unique})"
                )
    A = z3.Real("alpha")
    ph = [z3.Real(f"phi{i}") for i in range(4)]
    v, rho = vector(A), rho_of(A)
    with rec.deciding(
        n=3,
        alpha=SYMBOLIC,
        kind=ALL_N,  # the claim is stated at n = 3 only: every alpha > 1 at once is its whole scope, a proof
        method="z3 unsat (nonlinear real arithmetic)",
        covers=covers + "; the claim's whole scope (stated at n = 3 only), every alpha > 1",
    ) as d:
        pins = [A == 2, *(x == y for x, y in zip(ph, vector(F(2))))]
        w1 = premises_hold([A > 1], pins[:1], ctx.solver_timeout, f"{claim}: alpha > 1")
        premises = [A > 1, *z3_legal(ph, A)]
        w2 = premises_hold(premises, pins, ctx.solver_timeout, f"{claim}: alpha > 1, phi legal")
        rec.value(**{"premise witness (alpha > 1)": w1, "premise witness (alpha > 1, phi legal)": w2})
        legal = decide([A > 1, z3.Not(z3.And(z3_legal(v, A)))], ctx.solver_timeout)
        better = decide(
            [
                *premises,
                _z3_err(ph, rho, *theta) <= _z3_err(v, rho, *theta),
                z3.Or([x != y for x, y in zip(ph, v)]),
            ],
            ctx.solver_timeout,
        )
        if not legal.unsat:
            d.counterexample(f"at alpha = {legal.model.eval(A)} the vector is not legal (z3 model)")
        elif not better.unsat:
            m = better.model
            d.counterexample(
                f"at alpha = {m.eval(A)} the legal phi = {[str(m.eval(x)) for x in ph]} has err <= err(v) (z3 model)"
            )
    rec.certificate = certificate_of({}, certs)
    rec.note(
        "the claim is about n = 3, theta = (1, 2) only: the symbolic instance (z3 over the reals, A > 1 a variable) "
        "covers every zlcn alpha > 1 at that n, which is the claim's whole scope, so its unsat is a proof (all-n "
        "kind: nothing is left to bound); the rational alphas are also decided by the certified LP with its "
        "uniqueness decision"
    )
    return rec


@checks("zlcn2013.xhat")
def x_hat_unique(ctx: Context, vector=x_hat, rho_of=uniform_rho) -> Findings:
    """zlcn2013 Section 3.2.1: n = 3, theta = (1, 2), uniform penalty and prior: x-hat = (1/(a+1), a/(a+1),
    a/(a+1), 1/(a+1)) is the only optimal legal function, and the range-restricted geometric mechanism cannot
    derive it (t = M^-1 x-hat leaves [0, 1])."""
    rec = unique_optimum(ctx, "zlcn2013.xhat", vector, rho_of)
    covers = "x-hat not derivable from the range-restricted geometric mechanism: M^-1 x-hat leaves [0,1]"
    for A in ALPHAS_Z:
        with rec.deciding(n=3, alpha=zlcn_label(A), kind=BOUNDED, method="exact M^-1 x-hat", covers=covers) as d:
            t = transformation_vector(vector(A), truncated_geometric_zlcn2013(3, A))
            rec.value(**{f"M^-1 x-hat at {zlcn_label(A)}": fmt(t.t)})
            if t.valid:
                d.counterexample(f"M^-1 x-hat = {fmt(t.t)} lies in [0,1]: x-hat is derivable")
    t_sym = symbolic_transformation(vector)
    rec.value(**{"M^-1 x-hat (symbolic)": fmt(t_sym)})
    above = [k for k, v in enumerate(t_sym) if _positive_above_one(v - 1)]
    rec.value(**{"entries of M^-1 x-hat above 1 for every alpha > 1": str(above)})
    if above:
        rec.decide(
            True,
            n=3,
            alpha=SYMBOLIC,
            kind=ALL_N,  # stated at n = 3 only: the symbolic sign for every alpha > 1 is the whole claim
            method="sympy sign of M^-1 x-hat - 1",
            covers=covers + "; the claim's whole scope (stated at n = 3 only), every alpha > 1",
        )
    else:
        rec.note("underivability shown at the rational alphas only (symbolic sign not decided)")
    return rec


def _positive_above_one(e: sp.Expr) -> bool:
    """e > 0 for every A > 1: substitute A = 1 + s, s > 0, and ask sympy on the factored form."""
    s_ = sp.Symbol("s", positive=True)
    return bool(sp.factor(sp.together(e.subs(AS, 1 + s_))).is_positive)


def symbolic_transformation(vector) -> list[sp.Expr]:
    """t = M^-1 v for zlcn2013's range-restricted geometric M (6) at n = 3, symbolically in A > 1."""
    n = 3
    m = sp.Matrix(
        n + 1, n + 1, lambda i, j: (AS / (AS + 1) if j in (0, n) else (AS - 1) / (AS + 1)) * AS ** (-abs(i - j))
    )
    return [sp.factor(v) for v in m.LUsolve(sp.Matrix(vector(AS)))]


@checks("zlcn2013.yhat")
def y_hat_unique(ctx: Context, vector=y_hat, rho_of=stated_rho) -> Findings:
    """zlcn2013 Section 3.2.2: n = 3, theta = (1, 2), uniform penalty and rho(0)/rho(1) = a^2, rho(2)/rho(1) = a,
    rho(3) = rho(2): y-hat = (1/((a+1)a), 1/(a+1), a/(a+1), 1/(a+1)) is the only optimal legal function."""
    return unique_optimum(ctx, "zlcn2013.yhat", vector, rho_of)
