"""zlcn2013 Sections 3.2 and 3.2.1: assertions about randomizations shared by consumers.

Each check decides one sentence of the paper as printed, in zlcn2013's alpha > 1 (written A here; the
harness's internal alpha is 1/A, through proofs/countrange/alpha.py).  Exact rationals, sympy identities
and z3 answers (udpm.smt.solvers.decide) only.

* zlcn2013.sec3.2.unless: one randomization cannot serve two consumers unless (omega, rho) agree.
* zlcn2013.sec3.2.linearity: A differentially private => X = A t differentially private.
* zlcn2013.sec3.2.1.gamma: min{psi1, psi2} with (5) switches once, at gamma in [theta1, theta2].
* zlcn2013.sec3.2.1.deterministic: "no deterministic algorithm satisfies differential privacy".
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.assertions.zlcn2013.common import A, identity, positive_for_alpha_above_one
from proofs.countrange.alpha import ZLCN_ALPHAS, internal, zlcn_label
from proofs.countrange.derivation import premises_hold
from proofs.countrange.legal_lp import consumer_text, fmt, lp_optimum
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.privacy import is_dp
from udpm.core.users import CountRangeConsumer
from udpm.smt.solvers import decide

F = Fraction
SECOND_RHO = (F(3, 10), F(1, 5), F(1, 4), F(1, 4))


@checks("zlcn2013.sec3.2.unless")
def one_randomization(
    ctx: Context, rho2: Sequence[Fraction] = SECOND_RHO, omega2: Sequence[int] = (1, 1, 1, 1)
) -> Findings:
    """zlcn2013 Section 3.2: "if the true query result is only randomized once, the differentially private mechanism
    cannot be optimal for every consumer unless they have the same error penalty function and prior distribution".
    Decided on one pair of consumers of <p, 1, 2> at n = 3: the uniform consumer of Section 3.2.1 and (omega2, rho2);
    a counterexample is a pair with different (omega, rho) whose certified optimal legal functions coincide (then
    the one mechanism, randomizing once, is optimal for both)."""
    rec = Findings("zlcn2013.sec3.2.unless")
    c1 = CountRangeConsumer.of([1] * 4, [F(1, 4)] * 4, 1, 2)
    c2 = CountRangeConsumer.of(list(omega2), list(rho2), 1, 2)
    for a in ZLCN_ALPHAS[:3]:
        with rec.deciding(
            n=3,
            alpha=zlcn_label(a),
            kind=SAMPLED,
            method="certified LP with uniqueness",
            covers="one pair of consumers of <p, 1, 2>",
            sample=consumer_text(c2),
        ) as d:
            _, cert1, _ = lp_optimum(c1, a, ctx)
            _, cert2, _ = lp_optimum(c2, a, ctx)
            same = (list(c1.omega), list(c1.rho)) == (list(c2.omega), list(c2.rho))
            if not same and list(cert1.x) == list(cert2.x):
                d.counterexample(
                    f"zlcn alpha = {a}: {consumer_text(c1)} and {consumer_text(c2)} differ, and both have the optimal "
                    f"legal function {fmt(cert1.x)} (certified; unique: {cert1.unique}, {cert2.unique}), so one "
                    "mechanism randomizing once is optimal for both"
                )
    return rec


@checks("zlcn2013.sec3.2.linearity")
def derived_is_private(ctx: Context, factor: Callable[[object], object] = lambda a: a, m_max: int = 3) -> Findings:
    """zlcn2013 Section 3.2: if A (rows: counts 0..n, m columns, rows summing to 1) is A-differentially private
    (a_(i+1)j / A <= a_ij <= A a_(i+1)j), then x = A t, t in [0, 1]^m, is a legal function (Definition 2).
    For a fixed matrix, x is linear in t and Definition 2 is linear in x, so the vertices t in {0, 1}^m decide
    every t: x = the sum of a set S of columns.  z3 unsat (linear) per (n, zlcn alpha, m) over every such matrix
    and every S; ``factor`` is the DP bound claimed for x (a smaller one is a false variant).  n = 0: one row, no
    neighbours, so x = A t need only lie in [0, 1]."""
    rec = Findings("zlcn2013.sec3.2.linearity")
    for n in (0, 1, 2):
        for al in (F(2), F(3, 2)):
            for m in range(1, m_max + 1):
                with rec.deciding(
                    n=n,
                    alpha=zlcn_label(al),
                    kind=BOUNDED,
                    method="z3 unsat (vertices of t)",
                    m=m,
                    covers=f"every DP {n + 1} x {m} matrix and every t in [0,1]^{m}",
                ) as d:
                    a, fa = z3.RealVal(str(al)), z3.RealVal(str(factor(al)))
                    M = [[z3.Real(f"a_{i}_{j}") for j in range(m)] for i in range(n + 1)]
                    prem = [v >= 0 for row in M for v in row] + [z3.Sum(row) == 1 for row in M]
                    prem += [
                        c
                        for i in range(n)
                        for j in range(m)
                        for c in (M[i][j] <= a * M[i + 1][j], M[i + 1][j] <= a * M[i][j])
                    ]
                    pins = [M[i][j] == (1 if j == 0 else 0) for i in range(n + 1) for j in range(m)]
                    premises_hold(prem, pins, ctx.solver_timeout, "a DP matrix")
                    bad = []
                    subsets = list(itertools.product((0, 1), repeat=m))
                    for s in subsets:
                        x = [z3.Sum([M[i][j] for j in range(m) if s[j]] or [z3.RealVal(0)]) for i in range(n + 1)]
                        legal = [z3.And(0 <= v, v <= 1) for v in x]
                        for u, v in itertools.pairwise(x):
                            legal += [u <= fa * v, v <= fa * u, 1 - u <= fa * (1 - v), 1 - v <= fa * (1 - u)]
                        bad.append(z3.Not(z3.And(legal)))
                    out = decide([*prem, z3.Or(bad)], ctx.solver_timeout)
                    if not out.unsat:
                        mv = out.model
                        d.counterexample(
                            f"A = {[[str(mv.eval(v, model_completion=True)) for v in row] for row in M]}: some t in "
                            f"{{0,1}}^{m} gives A t not legal with factor {factor(al)} (z3 model)"
                        )
    rec.note(f"bounded in the number m of columns (m <= {m_max}); the paper's termwise argument is every m")
    return rec


def _psi_z3(beta, n: int, a, step):
    out = [beta]
    for _ in range(n):
        out.append(step(out[-1], a))
    return out


def _step2(p, a):
    return z3.If(a * p <= (a - 1 + p) / a, a * p, (a - 1 + p) / a)


def _step3(p, a):
    return z3.If(p / a >= 1 - a + a * p, p / a, 1 - a + a * p)


@checks("zlcn2013.sec3.2.1.gamma")
def switch_point(
    ctx: Context, gammas: Callable[[int, int], range] = lambda t1, t2: range(t1, t2 + 1), n_max: int = 3
) -> Findings:
    """zlcn2013 Section 3.2.1: if psi1, psi2 satisfy (2), (3) and (5), then min{psi1, psi2} = psi1 on 0..gamma and
    psi2 on gamma+1..n for an integer gamma between theta1 and theta2.  Bounded: z3 unsat per (n, zlcn alpha,
    theta) over every (beta1, beta2) in [0, 1]^2 that no gamma of ``gammas`` fits.  Recorded, not a verdict: (2)
    never decreases and (3) never increases on [0, 1] (sympy, every A > 1), so psi1 - psi2 is non-decreasing, <= 0
    at theta1 and >= 0 at theta2 by (5), and gamma = the last mu <= theta2 with psi1(mu) <= psi2(mu) fits (a hand
    argument for every n)."""
    rec = Findings("zlcn2013.sec3.2.1.gamma")
    for n in range(1, n_max + 1):
        for al in ZLCN_ALPHAS[:3]:
            a = z3.RealVal(str(al))
            for t1 in range(n + 1):
                for t2 in range(t1 + 1, n + 1):
                    with rec.deciding(
                        n=n,
                        alpha=zlcn_label(al),
                        kind=BOUNDED,
                        method="z3 unsat",
                        theta=f"{t1},{t2}",
                        covers="every (beta1, beta2) in [0,1]^2 with (5)",
                    ) as d:
                        b1, b2 = z3.Reals("beta1 beta2")
                        p1, p2 = _psi_z3(b1, n, a, _step2), _psi_z3(b2, n, a, _step3)
                        phi = [z3.If(u <= v, u, v) for u, v in zip(p1, p2)]
                        prem = [0 <= b1, b1 <= 1, 0 <= b2, b2 <= 1, p1[t1] <= p2[t1], p1[t2] >= p2[t2]]
                        premises_hold(prem, [b1 == 0, b2 == 1], ctx.solver_timeout, "(5)")
                        fits = [
                            z3.And([phi[mu] == (p1[mu] if mu <= g else p2[mu]) for mu in range(n + 1)])
                            for g in gammas(t1, t2)
                        ]
                        out = decide([*prem, z3.Not(z3.Or(fits)) if fits else z3.BoolVal(True)], ctx.solver_timeout)
                        if not out.unsat:
                            mv = out.model
                            d.counterexample(
                                f"theta = ({t1}, {t2}), beta = ({mv.eval(b1)}, {mv.eval(b2)}): min{{psi1, psi2}} = "
                                f"{[str(mv.eval(v, model_completion=True)) for v in phi]} switches at no gamma in "
                                f"{list(gammas(t1, t2))} (z3 model)"
                            )
    p = sp.Symbol("p", nonnegative=True)
    up = [A * p - p, (A - 1 + p) / A - p]  # each branch of (2) minus psi, at psi = p
    down = [p - p / A, p - (1 - A + A * p)]  # psi minus each branch of (3)
    ok = all(_nonneg_on_unit(e, p) for e in [*up, *down])
    rec.value(
        **{
            "all n (not a verdict)": "each branch of (2) is >= psi and each branch of (3) <= psi on [0, 1] for every "
            "A > 1 (sympy): " + ("yes" if ok else "no") + "; with (5) the hand argument in the docstring gives gamma"
        }
    )
    return rec


def _nonneg_on_unit(e: sp.Expr, p: sp.Symbol) -> bool:
    """e(p) >= 0 for p in [0, 1] and A > 1: e is linear in p, so both ends decide it."""
    e = sp.expand(e)
    if sp.degree(e, p) > 1:
        return False
    return all(identity(v) or positive_for_alpha_above_one(v) for v in (e.subs(p, 0), e.subs(p, 1)))


@checks("zlcn2013.sec3.2.1.deterministic")
def deterministic(ctx: Context, min_outputs: int = 1) -> Findings:
    """zlcn2013 Section 3.2.1: "no deterministic algorithm satisfies differential privacy".  Per (n, zlcn alpha):
    every deterministic map of the counts 0..n to outputs (n+1 outputs suffice: a map uses at most n+1), as a 0/1
    mechanism, is tested for A-DP exactly; ``min_outputs`` restricts to maps using at least that many outputs (2:
    the non-constant maps, the corrected statement)."""
    rec = Findings("zlcn2013.sec3.2.1.deterministic")
    for n in range(1, 4):
        for al in ZLCN_ALPHAS[:3]:
            with rec.deciding(
                n=n,
                alpha=zlcn_label(al),
                kind=BOUNDED,
                method="exact enumeration",
                covers=f"every deterministic map of the counts 0..{n} using >= {min_outputs} outputs",
            ) as d:
                for f in itertools.product(range(n + 1), repeat=n + 1):
                    if len(set(f)) < min_outputs:
                        continue
                    mech = [[F(int(f[i] == j)) for j in range(n + 1)] for i in range(n + 1)]
                    if is_dp(mech, internal(al)):
                        d.counterexample(
                            f"the deterministic map count -> {list(f)} (rows {fmt(mech[0])}, ...) is zlcn "
                            f"{al}-differentially private"
                        )
                        break
    return rec
