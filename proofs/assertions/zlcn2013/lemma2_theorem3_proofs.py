"""zlcn2013 Lemma 2 and Theorem 3: the displayed steps of their printed proofs.

In zlcn2013's alpha > 1 (written A); sympy identities and exact sign tests only.

* zlcn2013.lemma2.proof: Lemma 2's displayed steps.
* zlcn2013.thm3.proof: Theorem 3's displayed steps (n = 3).
"""

from __future__ import annotations

import sympy as sp

from proofs.assertions.zlcn2013.common import A, identity, positive_for_alpha_above_one
from proofs.countrange.alpha import SYMBOLIC
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings, checks


def xh(a):
    return [1 / (a + 1), a / (a + 1), a / (a + 1), 1 / (a + 1)]


def yh(a):
    return [1 / ((a + 1) * a), 1 / (a + 1), a / (a + 1), 1 / (a + 1)]


@checks("zlcn2013.lemma2.proof")
def lemma2_steps(ctx: Context, printed_sum: sp.Expr = A**2 / (A + 1) ** 2) -> Findings:
    """zlcn2013 Lemma 2, proof, symbolically in A > 1 (n = 3): the two displayed equations (a_1 t and a_2 t are
    x-hat's entries 1, 2) give sum_{j<=l} a_2j = ``printed_sum``; y-hat has y0 = y1 / A and y1 = y2 / A (the two
    displays used for t'); both ranges 1..l and l+1..k carry positive mass ('either range is non-empty'); and the
    closing inequality A/(A+1) <= sum_{j<=l} a_2j is false (the contradiction)."""
    rec = Findings("zlcn2013.lemma2.proof")
    s1, s2 = sp.symbols("S1 S2")
    sol = sp.solve([s1 / A + A * s2 - xh(A)[1], s1 + s2 - xh(A)[2]], [s1, s2], dict=True)[0]
    steps = {
        "sum_{j<=l} a_2j as printed": identity(sol[s1] - printed_sum),
        "a_0 t' = a_1 t' / A (y-hat)": identity(yh(A)[0] - yh(A)[1] / A),
        "a_1 t' = a_2 t' / A (y-hat)": identity(yh(A)[1] - yh(A)[2] / A),
        "range 1..l non-empty (positive mass)": positive_for_alpha_above_one(sol[s1]),
        "range l+1..k non-empty (positive mass)": positive_for_alpha_above_one(sol[s2]),
        "contradiction: A/(A+1) > sum": positive_for_alpha_above_one(yh(A)[2] - printed_sum),
    }
    for name, ok in steps.items():
        rec.decide(
            ok,
            f"Lemma 2, proof: the step '{name}' fails (S1 = {sp.factor(sol[s1])}, S2 = {sp.factor(sol[s2])})",
            n=3,
            alpha=SYMBOLIC,
            kind=ALL_N,
            method="sympy identity / sign for every A > 1",
            step=name,
            covers="the step for every zlcn alpha > 1 (stated at n = 3 only)",
        )
    rec.value(S1=str(sp.factor(sol[s1])), S2=str(sp.factor(sol[s2])))
    rec.note(
        "the final display sums from j = 0 (a typo for j = 1: columns are 1..m); 'a_0j = A a_1j > a_1j / A' needs "
        "a_1j > 0 (a zero column has equality, and t'_j is then irrelevant)"
    )
    return rec


def _bound(ineq_lhs: sp.Expr, ineq_rhs: sp.Expr, var: sp.Symbol) -> tuple[str, sp.Expr]:
    """lhs <= rhs, linear in var, solved for every A > 1: ('>=' or '<=', bound)."""
    e = sp.expand(ineq_lhs - ineq_rhs)  # e <= 0
    c, d0 = e.coeff(var, 1), e.coeff(var, 0)
    if positive_for_alpha_above_one(c):
        return "<=", sp.factor(-d0 / c)
    if positive_for_alpha_above_one(-c):
        return ">=", sp.factor(-d0 / c)
    return "?", sp.nan


@checks("zlcn2013.thm3.proof")
def thm3_steps(ctx: Context, low: sp.Expr = 1 / (A * (A + 1)), high: sp.Expr = 1 / (A + 1) ** 2) -> Findings:
    """zlcn2013 Theorem 3, proof sketch (n = 3, theta = (1, 2)), symbolically in A > 1: the joint tables with
    t_mu = t_(mu,1,1) and marginals x-hat, y-hat; from the DP inequalities the sketch displays, t1 = A t0, t2 = A t1,
    t0 >= ``low`` and t0 <= ``high``, and low > high (the contradiction)."""
    rec = Findings("zlcn2013.thm3.proof")
    t0, t1, t2 = sp.symbols("t0 t1 t2")
    x, y = xh(A), yh(A)

    def cell(mu, i, j, t):  # the joint probability of (first consumer i, second j) at count mu
        return {(1, 1): t, (1, 0): x[mu] - t, (0, 1): y[mu] - t, (0, 0): 1 - x[mu] - y[mu] + t}[(i, j)]

    printed = {  # the printed cells (Theorem 3's second table), in A
        (0, 0, 0): t0 + (A - 1) / A,
        (0, 0, 1): 1 / ((A + 1) * A) - t0,
        (0, 1, 0): 1 / (A + 1) - t0,
        (1, 0, 0): t1,
        (1, 0, 1): 1 / (A + 1) - t1,
        (1, 1, 0): A / (A + 1) - t1,
        (2, 0, 0): t2 - (A - 1) / (A + 1),
        (2, 0, 1): A / (A + 1) - t2,
        (2, 1, 0): A / (A + 1) - t2,
    }
    ts = (t0, t1, t2)
    cells_ok = all(identity(cell(mu, i, j, ts[mu]) - v) for (mu, i, j), v in printed.items())
    steps: dict[str, bool] = {"the printed cells have the marginals x-hat, y-hat": cells_ok}
    # t1 <= A t0 and (1/(A+1) - t1) <= A (1/(A(A+1)) - t0)  =>  A t0 <= t1
    sense, b = _bound(cell(1, 0, 1, t1).subs(t1, A * t0 + sp.Symbol("u")), A * cell(0, 0, 1, t0), sp.Symbol("u"))
    steps["A t0 <= t1 (so t1 = A t0)"] = sense == ">=" and identity(b)
    sense, b = _bound(cell(2, 0, 1, t2).subs(t2, A * t1 + sp.Symbol("u")), A * cell(1, 0, 1, t1), sp.Symbol("u"))
    steps["A t1 <= t2 (so t2 = A t1)"] = sense == ">=" and identity(b)
    sense, b = _bound(cell(0, 0, 0, t0), A * cell(1, 0, 0, A * t0), t0)
    steps["t0 >= low"] = sense == ">=" and identity(b - low)
    sense, b = _bound(cell(1, 1, 0, A * t0), A * cell(2, 1, 0, A**2 * t0), t0)
    steps["t0 <= high"] = sense == "<=" and identity(b - high)
    steps["contradiction: low > high"] = positive_for_alpha_above_one(low - high)
    for name, ok in steps.items():
        rec.decide(
            ok,
            f"Theorem 3, proof sketch: the step '{name}' fails",
            n=3,
            alpha=SYMBOLIC,
            kind=ALL_N,
            method="sympy, every A > 1",
            step=name,
            covers="the step for every zlcn alpha > 1 (stated at n = 3 only)",
        )
    return rec
