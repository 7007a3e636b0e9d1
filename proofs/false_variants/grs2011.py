"""False variants of grs2011's claims: each changes the printed statement and runs the claim's own check."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import sympy as sp
import z3

from proofs.assertions.grs2011.appendices import (
    appendix_a_limits,
    appendix_b_only_monotonicity_dropped,
    theorem_a2_factor,
)
from proofs.assertions.grs2011.lemma5_proofs import lemma_5_6_chain, lemma_5_8_binding, lemma_5_9_first_row
from proofs.assertions.grs2011.model import (
    composition_level,
    example_losses_legal,
    geometric_outputs_wrong,
    oblivious_adjacent,
    trivial_privacy,
)
from udpm.claims.registry import Context, Findings, restrict
from udpm.claims.tables import PrintedItem, printed
from udpm.claims.variants import false_variant
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, Loss

HALF = F(1, 2)


# ---------------------------------------------------------------- Section 2: the mechanisms


@false_variant("grs2011.ex2.1", "exponent", "Pr[Delta = delta] proportional to alpha^(2|delta|) is alpha-DP")
def _ex21_exponent(ctx: Context) -> Findings:
    from proofs.geometric import two_sided as g
    from proofs.geometric.case_split import a

    return g.geometric_is_private(ctx, pmf=lambda d: (1 - a) / (1 + a) * a ** (2 * sp.Abs(d)))


@false_variant("grs2011.ex2.2", "exponent", "Pr[output 0 | result i] = alpha^(i+1)/(1+alpha) (exponent i+1, not i)")
def _ex22_exponent(ctx: Context) -> Findings:
    from proofs.geometric import truncated as g
    from proofs.geometric.case_split import a

    def stated(i, j, n):
        return a ** (i + 1) / (1 + a) if j == "first" else g.stated_truncated(i, j, n)

    return g.truncated_geometric_example(ctx, stated=stated)


@false_variant("grs2011.ex2.2.corrected", "exponent", "for alpha in [0, 1): Pr[output 0 | i] = alpha^(i+1)/(1+alpha)")
def _ex22_corrected_exponent(ctx: Context) -> Findings:
    from proofs.geometric import truncated as g
    from proofs.geometric.case_split import a

    def stated(i, j, n):
        return a ** (i + 1) / (1 + a) if j == "first" else g.stated_truncated(i, j, n)

    return restrict("grs2011.ex2.2.corrected", g.truncated_geometric_example(ctx, stated=stated))


@false_variant("grs2011.ex2.3", "exponent", "the remapped loss is alpha^((n-1)/2)/(1+alpha) (exponent (n-1)/2)")
def _ex23_exponent(ctx: Context) -> Findings:
    from proofs.geometric import post_processing_example as ppe

    return ppe.post_processing_grs2011(ctx, remapped=lambda al, n: al ** ((n - 1) / 2) / (1 + al))


@false_variant("grs2011.ex2.3.corrected", "exponent", "alpha in [0, 1): remapped loss alpha^((n-1)/2)/(1+alpha)")
def _ex23_corrected_exponent(ctx: Context) -> Findings:
    from proofs.geometric import post_processing_example as ppe

    found = ppe.post_processing_grs2011(ctx, remapped=lambda al, n: al ** ((n - 1) / 2) / (1 + al))
    return restrict("grs2011.ex2.3.corrected", found)


# ---------------------------------------------------------------- Section 2.3, 5.2: remaps and the LP


@false_variant("grs2011.bayes-remap", "object", "the MAP remap (most likely result) is an optimal remap")
def _bayes_map(ctx: Context) -> Findings:
    from proofs.universality import bayes_remap as r

    return r.bayes_remap_optimal(ctx, rule=r.map_remap)


@false_variant("grs2011.lp", "constant", "constraints (5)-(6) with alpha^2 in place of alpha describe alpha-DP")
def _lp_alpha_squared(ctx: Context) -> Findings:
    from proofs.universality import user_lp as r
    from udpm.lp.programs import bayesian_lp

    return r.user_specific_lp(ctx, builder=lambda user, a: bayesian_lp(user, a * a))


@false_variant("grs2011.lemma5.2", "object", "the truncating remap (clamp to 0..n) makes every mechanism direct")
def _lemma52_truncate(ctx: Context) -> Findings:
    from proofs.universality import direct_mechanisms as r

    return r.direct_mechanisms_suffice(ctx, remap_rule=r.truncate_remap)


# ---------------------------------------------------------------- Section 5: signatures and vertices


@false_variant("grs2011.lemma5.3", "direction", "no feasible solution of (4)-(7) has a zero (Z) entry")
def _lemma53_no_zero(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s
    from proofs.signatures.encoding import Property
    from udpm.core.signatures import ZERO

    no_zero = Property(
        lambda e: z3.Or([z for row in e.Z for z in row]), lambda sig: all(ZERO not in r for r in sig), optimal=False
    )
    return s.lemma_5_3(ctx, prop=no_zero, plan={HALF: 2})


@false_variant("grs2011.lemma5.4", "boundary", "Lemma 5.4 for alpha in (0, 1] (alpha = 1 included)")
def _lemma54_alpha_one(ctx: Context) -> Findings:
    from proofs.signatures import binding_sets as s

    return s.lemma_5_4(ctx, alpha_max_inclusive=True)


@false_variant("grs2011.lemma5.5", "hypothesis", "Lemma 5.5 for every legal (not strictly legal) loss")
def _lemma55_nonstrict(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.lemma_5_5(ctx, plan={HALF: 3}, strict=False)


@false_variant("grs2011.lemma5.6", "hypothesis", "Lemma 5.6 for every legal (not strictly legal) loss")
def _lemma56_nonstrict(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.lemma_5_6(ctx, plan={HALF: 3}, strict=False)


@false_variant("grs2011.lemma5.7", "quantifier", "every optimal mechanism (not some) is a vertex of (3)-(7)")
def _lemma57_every(ctx: Context) -> Findings:
    from proofs.universality import optimal_vertex as ov

    return ov.optimal_vertex_exists(ctx, every_optimum=True)


@false_variant("grs2011.lemma5.8", "hypothesis", "Lemma 5.8 for every optimal mechanism (vertex hypothesis dropped)")
def _lemma58_no_vertex(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.lemma_5_8(ctx, plan={HALF: 3}, vertex=False)


@false_variant("grs2011.lemma5.9", "hypothesis", "Lemma 5.9 for every legal (not strictly legal) loss")
def _lemma59_nonstrict(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.lemma_5_9(ctx, plan={HALF: 3}, strict=False)


@false_variant("grs2011.lemma5.10", "object", "the remap sends a_k..b_k to the k-th column counted from the right")
def _lemma510_reversed(ctx: Context) -> Findings:
    from proofs.signatures import vertex_remaps as vr
    from udpm.core.signatures import remap_from_signature

    def reversed_targets(sig):
        m = remap_from_signature(sig)
        cols = sorted(set(m))
        flip = dict(zip(cols, reversed(cols)))
        return [flip[c] for c in m]

    return vr.lemma_5_10(ctx, remap=reversed_targets)


@false_variant("grs2011.lemma5.10.converse", "object", "only the identity remap of T is a unique optimum")
def _converse_identity(ctx: Context) -> Findings:
    from proofs.universality import converse as c

    return c.unique_optima_among_remaps(ctx, claimed=lambda d: d == tuple(range(len(d))))


@false_variant("grs2011.lemma5.11", "hypothesis", "Lemma 5.11 for every nonnegative (not legal) loss")
def _lemma511_nonnegative(ctx: Context) -> Findings:
    from proofs.universality import geometric_optimality as u

    return u.remap_to_t_universal(ctx, users="nonnegative")


@false_variant("grs2011.lemma5.12", "constant", "l(i, j) = gamma|j - i| off the diagonal (the 1 + dropped)")
def _lemma512_no_one(ctx: Context) -> Findings:
    from proofs.universality import unique_optimum as c
    from udpm.core.users import BayesianUser, Loss

    def user(n, gamma):
        return BayesianUser.of(
            [F(1, n + 1)] * (n + 1), Loss.from_function(n, lambda i, j: 0 if i == j else gamma * abs(i - j))
        )

    return c.unique_optimum_user(ctx, loss_of=user)


# ---------------------------------------------------------------- Section 3: the main results


@false_variant("grs2011.thm3.2", "constant", "X is universal iff some remap gives Y o X = T at alpha^2 (not alpha)")
def _thm32_alpha_squared(ctx: Context) -> Findings:
    from proofs.universality import characterization as c

    return c.main_characterization(ctx, target_alpha=lambda a: a * a)


@false_variant("grs2011.cor3.3", "hypothesis", "the geometric mechanisms are optimal for every nonnegative loss")
def _cor33_nonnegative(ctx: Context) -> Findings:
    from proofs.universality import geometric_optimality as u

    return u.geometric_universal(ctx, users="nonnegative")


@false_variant("grs2011.cor3.4", "object", "every deterministic remap D o T (not only permutations) is universal")
def _cor34_every_remap(ctx: Context) -> Findings:
    from proofs.universality import range_n_permutations as c

    return c.permutations_of_t(ctx, claimed=lambda d: True)


# ---------------------------------------------------------------- Figures, Section 6, appendices


@false_variant("grs2011.fig3", "exponent", "Figure 3(a) is optimal for the loss |i - j|^2 (exponent 2, not 1.5)")
def _fig3_exponent(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    return ex.figure_3(ctx, exponent=sp.Integer(2))


@false_variant("grs2011.prop6.1", "constant", "oblivious averaging gives a 3/4-DP mechanism (stricter than alpha)")
def _prop61_stricter(ctx: Context) -> Findings:
    from proofs.databases import worst_extension as we

    return we.prop_6_1(ctx, alpha_claimed=F(3, 4))


@false_variant("grs2011.appC", "boundary", "Figure 6 is the unique optimum for epsilon = 1/5 (not small)")
def _appc_big_eps(ctx: Context) -> Findings:
    from proofs.databases import appendix_c as appc

    return appc.appendix_c(ctx, eps=F(1, 5))


@false_variant("grs2011.exA.1", "direction", "the Laplace mechanism's loss 1/4 is not above the geometric's")
def _exa1_laplace_not_worse(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    return ex.example_a1(ctx, laplace=lambda a: (sp.Integer(0), sp.Rational(1, 4)))


@false_variant("grs2011.thmA.2", "exponent", "the Laplace mechanism is F-approximate, F = (1+alpha)/(2 alpha^(1/4))")
def _thma2_factor(ctx: Context) -> Findings:
    from proofs.geometric import rounded_laplace as rl

    return rl.rounded_laplace(ctx, factor=lambda al: (1 + al) / (2 * al ** sp.Rational(1, 4)))


@false_variant("grs2011.thmA.2", "constant", "the proof's pmf ratio Pr[Delta'=i]/Pr[Delta=i] is (1+alpha)/(2 alpha)")
def _thma2_ratio(ctx: Context) -> Findings:
    from proofs.geometric import rounded_laplace as rl

    return rl.rounded_laplace(ctx, ratio=lambda al: (1 + al) / (2 * al))


@false_variant("grs2011.thmA.2.corrected", "exponent", "alpha in (0, 1): F = (1+alpha)/(2 alpha^(1/4)) suffices")
def _thma2_corrected_factor(ctx: Context) -> Findings:
    from proofs.geometric import rounded_laplace as rl

    found = rl.rounded_laplace(ctx, factor=lambda al: (1 + al) / (2 * al ** sp.Rational(1, 4)))
    return restrict("grs2011.thmA.2.corrected", found)


@false_variant("grs2011.appB", "hypothesis", "Figure 5(a) beats every remap of T for the legal loss |i - j|")
def _appb_legal_loss(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    return ex.appendix_b(ctx, loss_matrix=[[F(abs(i - j)) for j in range(4)] for i in range(4)])


# ---------------------------------------------------------------- printed figures: a changed entry must be caught


def _with_entry(key: str, row: int, col: int, value: str) -> PrintedItem:
    item = printed("grs2011", key)
    rows = [list(r) for r in item.values]
    rows[row][col] = value
    return replace(item, values=rows)


@false_variant("grs2011.fig1a", "object", "Figure 1(a) prints 1/4 where the 1/2-geometric mechanism has 1/3 (row 0)")
def _fig1a_entry(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    return ex.figure_1a(ctx, item=_with_entry("fig1a", 0, 1, "1/4"))


@false_variant("grs2011.fig1b", "object", "Figure 1(b) prints 1/2 where T(5, 1/2) has 2/3 (row 0, output 0)")
def _fig1b_entry(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    return ex.figure_1b(ctx, item=_with_entry("fig1b", 0, 0, "1/2"))


@false_variant("grs2011.fig4", "object", "Figure 4's first row read with an up arrow where T's signature has a down")
def _fig4_entry(ctx: Context) -> Findings:
    from experiments import grs2011 as ex

    item = printed("grs2011", "fig4")
    rows = [list(r) for r in item.values]
    rows[0][0] = "↑" if rows[0][0] != "↑" else "↓"
    return ex.figure_4(ctx, item=replace(item, values=rows))


@false_variant("grs2011.cor3.4.corrected", "object", "alpha in [0, 1): every deterministic remap D o T is universal")
def _cor34_corrected_every_remap(ctx: Context) -> Findings:
    from proofs.universality import range_n_permutations as c

    return restrict("grs2011.cor3.4.corrected", c.permutations_of_t(ctx, claimed=lambda d: True))


# ---------------------------------------------------------------- the assertion claims (proofs/assertions/grs2011/)


@false_variant("grs2011.sec1.trivial", "hypothesis", "a data-dependent mechanism (T, alpha = 1/2) is DP at every level")
def _trivial_dependent(ctx: Context) -> Findings:
    return trivial_privacy(ctx, mechanism=lambda n: truncated_geometric(n, HALF))


@false_variant("grs2011.sec2.1.oblivious", "constant", "neighbouring databases realize the results at distance 2")
def _oblivious_step(ctx: Context) -> Findings:
    return oblivious_adjacent(ctx, step=2)


@false_variant("grs2011.ex2.2.wrong", "constant", "the mass outside N exceeds alpha/(1+alpha) for alpha in (0, 1)")
def _wrong_bound(ctx: Context) -> Findings:
    return geometric_outputs_wrong(ctx, lower=lambda n, i, a: a / (1 + a), alphas=(F(1, 3), F(1, 2), F(9, 10)))


@false_variant("grs2011.sec2.2.legal", "direction", "the negated mean error -|j - i| is legal")
def _legal_negated(ctx: Context) -> Findings:
    return example_losses_legal(
        ctx, losses=lambda n: {"-|j - i|": [[-abs(j - i) for j in range(n + 1)] for i in range(n + 1)]}
    )


@false_variant("grs2011.sec3.composition", "exponent", "a answers degrade alpha-DP to alpha^(a+1)")
def _composition_exponent(ctx: Context) -> Findings:
    return composition_level(ctx, level=lambda a, k: a ** (k + 1))


@false_variant("grs2011.lemma5.6.chain", "direction", "alpha a - alpha^2 a < 0 on a row with a = 0")
def _chain_negative(ctx: Context) -> Findings:
    return lemma_5_6_chain(ctx, first_link=lambda a, m: a * m - a * a * m < 0)


@false_variant("grs2011.lemma5.8.binding", "object", "binding constraints match arrows at T·(0, 0, 2), a zero column")
def _binding_other(ctx: Context) -> Findings:
    return lemma_5_8_binding(ctx, x=compose(truncated_geometric(2, HALF), deterministic_remap([0, 0, 2], 3)))


@false_variant("grs2011.lemma5.9.first-row", "object", "r_1 is the first row for prior (7/10, 1/20, 1/4), loss |j - i|")
def _first_row_other(ctx: Context) -> Findings:
    user = BayesianUser.of(
        [F(7, 10), F(1, 20), F(1, 4)], Loss.from_matrix([[abs(j - i) for j in range(3)] for i in range(3)])
    )
    return lemma_5_9_first_row(ctx, user=user)


@false_variant("grs2011.thmA.2.factor", "constant", "factor 1 in place of (1+alpha)/(2 sqrt alpha), loss |j - i|")
def _factor_one(ctx: Context) -> Findings:
    return theorem_a2_factor(ctx, shift=0, factor=1)


@false_variant("grs2011.appA.limits", "constant", "the factor approaches 2 as alpha approaches 1")
def _limits_two(ctx: Context) -> Findings:
    return appendix_a_limits(ctx, at_one=2)


@false_variant("grs2011.appB.symmetric", "object", "the loss with rows (0 1 1 0), (1 0 0 1), ... is symmetric")
def _symmetric_other(ctx: Context) -> Findings:
    return appendix_b_only_monotonicity_dropped(ctx, loss=[[0, 1, 1, 0], [1, 0, 0, 1], [1, 1, 0, 0], [0, 1, 1, 0]])
