"""False variants of gs2010's claims: each changes the printed statement and runs the claim's own check."""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from proofs.assertions.gs2010.derivation_proofs import inverse_of_g, lemma3_case2
from proofs.assertions.gs2010.optimal_mechanisms import optimal_not_derivable
from proofs.assertions.gs2010.section2 import positive_entries, postprocessing_preserves_privacy, variable_counts
from proofs.assertions.gs2010.section3 import convex_hull, neither_implies_the_other
from proofs.assertions.gs2010.theorem1_proof import printed_algebra, theorem1_algebra
from udpm.claims.registry import Context, Findings, restrict
from udpm.claims.variants import false_variant

# ---------------------------------------------------------------- Section 2: the mechanisms


@false_variant("gs2010.def1", "constant", "Pr[Z = z] = (1-alpha) alpha^|z| (the factor 1/(1+alpha) dropped)")
def _def1_unnormalised(ctx: Context) -> Findings:
    from proofs.geometric import two_sided as g
    from proofs.geometric.case_split import a

    return g.geometric_is_distribution_and_private(ctx, pmf=lambda d: (1 - a) * a ** sp.Abs(d))


@false_variant("gs2010.def1.corrected", "constant", "for alpha in [0, 1): Pr[Z = z] = (1-alpha) alpha^|z|")
def _def1_corrected_unnormalised(ctx: Context) -> Findings:
    from proofs.geometric import two_sided as g
    from proofs.geometric.case_split import a

    found = g.geometric_is_distribution_and_private(ctx, pmf=lambda d: (1 - a) * a ** sp.Abs(d))
    return restrict("gs2010.def1.corrected", found)


@false_variant("gs2010.fig1", "object", "Figure 1 plots the 1/5-geometric pmf with one bar doubled")
def _fig1_skewed(ctx: Context) -> Findings:
    from experiments import gs2010 as ex

    def skewed():
        pmf = ex.figure_1_values()
        pmf[7] *= 2
        return pmf

    return ex.figure_1(ctx, values=skewed)


@false_variant("gs2010.def4", "constant", "the geometric mechanism is G remapped with weights (1-alpha^2) alpha^r")
def _def4_weight(ctx: Context) -> Findings:
    from proofs.geometric import range_restricted as g
    from proofs.geometric.case_split import a

    return g.range_restricted_equivalent_to_geometric(ctx, weight=lambda r: (1 - a**2) * a**r)


@false_variant("gs2010.def4.corrected", "constant", "for alpha in [0, 1): the spreading weights (1-alpha^2) alpha^r")
def _def4_corrected_weight(ctx: Context) -> Findings:
    from proofs.geometric import range_restricted as g
    from proofs.geometric.case_split import a

    found = g.range_restricted_equivalent_to_geometric(ctx, weight=lambda r: (1 - a**2) * a**r)
    return restrict("gs2010.def4.corrected", found)


@false_variant("gs2010.table1", "object", "Table 1 is optimal for the squared loss (i - r)^2 (not |i - r|)")
def _table1_squared(ctx: Context) -> Findings:
    from experiments import gs2010 as ex
    from udpm.core.users import squared_error

    return ex.table_1(ctx, loss=squared_error)


@false_variant("gs2010.randomized", "object", "a deterministic remap of G cannot reach the optimum for S = {0}")
def _randomized_singleton(ctx: Context) -> Findings:
    from proofs.minimax import consumers as minimax

    return minimax.randomized_post_processing(ctx, side_information=(0,))


# ---------------------------------------------------------------- Section 3: determinants and derivability


@false_variant("gs2010.table2", "constant", "Table 2's G without the factor 1/(1-alpha) in columns 1 and n")
def _table2_no_boundary_factor(ctx: Context) -> Findings:
    from proofs.derivation import matrices as d
    from proofs.derivation import table2

    return table2.table2(ctx, printed_g=lambda i, j, boundary: (1 - d.a) / (1 + d.a) * d.a ** sp.Abs(i - j))


@false_variant("gs2010.lemma1", "exponent", "det G'_m = (1-alpha^2)^m (exponent m, not m-1)")
def _lemma1_exponent(ctx: Context) -> Findings:
    from proofs.derivation import lemma1 as d

    return d.det_g_prime(ctx, exponent=lambda m: m)


@false_variant("gs2010.lemma1.corrected", "exponent", "for alpha in [0, 1): det G'_m = (1-alpha^2)^m (not m-1)")
def _lemma1_corrected_exponent(ctx: Context) -> Findings:
    from proofs.derivation import lemma1 as d

    return d.det_g_prime(ctx, exponent=lambda m: m, ends=(F(0),), claim="gs2010.lemma1.corrected")


@false_variant("gs2010.lemma1.corrected", "boundary", "det G_{n,alpha} > 0 for alpha in [0, 1] (alpha = 1 put back)")
def _lemma1_corrected_alpha_one(ctx: Context) -> Findings:
    from proofs.derivation import lemma1 as d

    return d.det_g_prime(ctx, ends=(F(0), F(1)), claim="gs2010.lemma1.corrected")


@false_variant("gs2010.lemma2", "exponent", "det G'(i, x) carries (1-alpha^2)^(n-3) (not n-2)")
def _lemma2_power(ctx: Context) -> Findings:
    from proofs.derivation import column_replacement as cr

    return cr.column_replacement_determinants(ctx, power=lambda m: m - 3)


@false_variant("gs2010.lemma2.corrected", "direction", "alpha in [0, 1): det G'(1, x) ~ x1 + alpha x2 (sign flipped)")
def _lemma2_corrected_sign(ctx: Context) -> Findings:
    from proofs.derivation import column_replacement as cr

    def flipped(kind):
        prev, self_, nxt = cr.lemma2_functional(kind)
        return (-prev, self_, -nxt)

    return cr.column_replacement_determinants(ctx, functional=flipped, ends=(F(0),), claim="gs2010.lemma2.corrected")


@false_variant("gs2010.thm2", "direction", "M is derivable from G iff (1+a^2) x2 - a (x1 + x3) <= 0 (flipped)")
def _thm2_flipped(ctx: Context) -> Findings:
    from proofs.derivation import derivability as dv

    return dv.derivable_iff_three_term(ctx, condition=lambda x1, x2, x3, a: -dv.three_term(x1, x2, x3, a))


@false_variant("gs2010.thm2", "hypothesis", "Theorem 2 for every mechanism M (the alpha-DP hypothesis dropped)")
def _thm2_no_dp(ctx: Context) -> Findings:
    from proofs.derivation import derivability as dv

    return dv.derivable_iff_three_term(ctx, require_dp=False)


@false_variant("gs2010.lemma3", "direction", "G_{n,beta} = G_{n,alpha} T with T stochastic for alpha > beta")
def _lemma3_flipped_order(ctx: Context) -> Findings:
    from proofs.derivation import derivability as dv

    return dv.adding_privacy(ctx, pairs=[(F(1, 2), F(1, 3))])


@false_variant("gs2010.lemma3", "constant", "proof case 2: 1 + a^2 - 2ab > (1 + a)^2 (not (1 - a)^2)")
def _lemma3_case2(ctx: Context) -> Findings:
    from proofs.derivation import derivability as dv

    return dv.adding_privacy(ctx, case2_bound=lambda al, be: (1 + al) ** 2)


# ---------------------------------------------------------------- Section 2.6, 4: multi-level release, minimax


@false_variant("gs2010.alg1", "direction", "Algorithm 1 with alpha_1 > alpha_2 > ... > alpha_k (decreasing)")
def _alg1_decreasing(ctx: Context) -> Findings:
    from proofs.release import multilevel as ml

    return ml.multi_level_release(ctx, order=lambda c: sorted(c, reverse=True))


@false_variant("gs2010.lemma4", "object", "a coalition's joint release is alpha_max-DP (its most private member)")
def _lemma4_max(ctx: Context) -> Findings:
    from proofs.release import multilevel as ml

    return ml.collusion_resistance(ctx, level=max)


@false_variant("gs2010.lemma5", "direction", "the adjacent-rows pattern with the two tight blocks swapped")
def _lemma5_flip(ctx: Context) -> Findings:
    from proofs.minimax import lemma5 as l5

    return l5.adjacent_rows(ctx, flip=True)


@false_variant("gs2010.thm1", "object", "G_{n,(1+alpha)/2} (a weaker mechanism) is universally optimal at alpha")
def _thm1_weaker(ctx: Context) -> Findings:
    from proofs.minimax import consumers as minimax
    from udpm.core.mechanisms import truncated_geometric

    return minimax.universal_optimality(ctx, deployed=lambda n, a: truncated_geometric(n, (1 + a) / 2))


@false_variant("gs2010.lemma6", "constant", "the oblivious mechanism from averaging is 3/4-DP (stricter than alpha)")
def _lemma6_stricter(ctx: Context) -> Findings:
    from proofs.minimax import consumers as minimax

    return minimax.oblivious_suffices(ctx, alpha_claimed=F(3, 4))


@false_variant("gs2010.appB", "object", "G_{3,1/2} itself (not Appendix B's matrix) is not derivable from G")
def _appb_derivable(ctx: Context) -> Findings:
    from experiments import gs2010 as ex
    from udpm.core.mechanisms import truncated_geometric

    return ex.appendix_b(ctx, m=truncated_geometric(3, F(1, 2)))


# ---------------------------------------------------------------- the assertion claims (proofs/assertions/gs2010/)


@false_variant("gs2010.sec2.variables", "constant", "the programs have (n+1)^2 + 1 variables T[r, r'] (one too many)")
def _variables_plus_one(ctx: Context) -> Findings:
    return variable_counts(ctx, count=lambda n: (n + 1) ** 2 + 1)


@false_variant("gs2010.sec2.5.postprocessing", "constant", "x = y T is ((1+alpha)/2)-DP (stricter than alpha)")
def _postprocessing_stricter(ctx: Context) -> Findings:
    return postprocessing_preserves_privacy(ctx, level=lambda a: (1 + a) / 2, sizes=(1, 2))


@false_variant("gs2010.sec3.neither", "object", "neither alpha-DP nor x2 >= alpha x1 implies the other, at alpha = 1/2")
def _neither_dp_consequence(ctx: Context) -> Findings:
    return neither_implies_the_other(ctx, condition=lambda x1, x2, x3, a: x2 - a * x1, alphas=(F(1, 2),))


@false_variant("gs2010.sec3.convex-hull", "boundary", "the convex hull, inside the range only: n = 2, alpha = 1/2")
def _convex_hull_inside(ctx: Context) -> Findings:
    return convex_hull(ctx, sizes=(2,), alphas=(F(1, 2),))


@false_variant("gs2010.lemma3.case2", "constant", "case 2: 1 + a^2 - 2ab >= 1 - a^2 (not (1 - a)^2), read weakly")
def _case2_wrong_bound(ctx: Context) -> Findings:
    return lemma3_case2(ctx, chain=lambda a, b: (1 + a * a - 2 * a * b, 1 - a * a, 0), strict=False)


#: A second optimal, non-derivable mechanism: loss |i - r|, S = {0, 2}, n = 3, alpha = 1/2 (three-term at rows 0-2,
#: column 0 is -3/16).
OPT_M_02 = [
    [F(3, 4), F(0), F(1, 4), F(0)],
    [F(1, 2), F(0), F(1, 2), F(0)],
    [F(1, 4), F(0), F(3, 4), F(0)],
    [F(1, 2), F(0), F(1, 2), F(0)],
]


@false_variant(
    "gs2010.sec4.2.optimal-derivable",
    "object",
    "every optimal mechanism of the consumer |i - r|, S = {0, 2} derives from G_{3,1/2}",
)
def _optimal_other_consumer(ctx: Context) -> Findings:
    return optimal_not_derivable(ctx, m=OPT_M_02, side_information=(0, 2))


@false_variant("gs2010.thm1.algebra", "constant", "(4) with a + alpha in place of a")
def _equation4_shifted(ctx: Context) -> Findings:
    def changed(a: sp.Expr) -> dict:
        p = printed_algebra(a)
        p["a"] = p["a"] + a
        return p

    return theorem1_algebra(ctx, printed=changed)


@false_variant("gs2010.sec2.positive", "object", "the program for S = {3}, n = 3, alpha = 1/3 has a positive optimum")
def _positive_other_consumer(ctx: Context) -> Findings:
    return positive_entries(ctx, cases=(("Section 2.5, mechanism", 3, F(1, 3), (3,)),))


@false_variant("gs2010.sec3.inverse", "boundary", "G_{4,1}^-1 exists (n = 4 at the printed end alpha = 1)")
def _inverse_at_one(ctx: Context) -> Findings:
    return inverse_of_g(ctx, sizes=(4,), alphas=(F(1),))
