"""False variants of grs2009's claims: each changes the printed statement and runs the claim's own check."""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp
import z3

from udpm.claims.registry import Context, Findings, restrict
from udpm.claims.variants import false_variant

HALF = F(1, 2)


@false_variant("grs2009.ex2.2", "constant", "the face-value loss is alpha/(1+alpha) (not 2 alpha/(1+alpha))")
def _ex22_face(ctx: Context) -> Findings:
    from proofs.geometric import post_processing_example as ppe

    return ppe.post_processing_grs2009(ctx, face=lambda al, n: al / (1 + al))


@false_variant("grs2009.thm3.1", "hypothesis", "the geometric mechanism is optimal for every nonnegative loss")
def _thm31_nonnegative(ctx: Context) -> Findings:
    from proofs.universality import geometric_optimality as u

    return u.geometric_minimizes_every_loss(ctx, users="nonnegative")


# ---------------------------------------------------------------- Section 5: constraint matrices of vertices


@false_variant("grs2009.lemma5.4", "direction", "every row of a feasible mechanism's constraint matrix has a down")
def _lemma54_every_row_down(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s
    from proofs.signatures.encoding import Property
    from udpm.core.signatures import DOWN

    every_row_has_down = Property(
        lambda e: z3.Or([z3.Not(z3.Or(e.D[i])) for i in range(e.n)]),
        lambda sig: all(DOWN in r for r in sig),
        optimal=False,
    )
    return s.grs2009_lemma_5_4(ctx, prop=every_row_has_down, plan={HALF: 2})


@false_variant("grs2009.lemma5.5", "hypothesis", "Lemma 5.5 also for every optimal vertex of a prior with zeros")
def _lemma55_full_support(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.grs2009_lemma_5_5(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.lemma5.6", "hypothesis", "Lemma 5.6 also for every optimal vertex of a prior with zeros")
def _lemma56_full_support(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.grs2009_lemma_5_6(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.cor5.7", "hypothesis", "Corollary 5.7 for every monotone loss with ties (not strictly)")
def _cor57_nonstrict(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.grs2009_corollary_5_7(ctx, plan={HALF: 3}, strict=False)


@false_variant("grs2009.lemma5.8", "hypothesis", "#S = #Z for every optimal mechanism (vertex hypothesis dropped)")
def _lemma58_no_vertex(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.grs2009_lemma_5_8(ctx, plan={HALF: 3}, vertex=False)


@false_variant("grs2009.lemma5.9", "hypothesis", "Lemma 5.9 also for every optimal vertex of a prior with zeros")
def _lemma59_full_support(ctx: Context) -> Findings:
    from proofs.signatures import optimal_mechanisms as s

    return s.grs2009_lemma_5_9(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.lemma5.10", "boundary", "the column has S in rows a..b (not a..b-1), down below b")
def _lemma510_s_through_b(ctx: Context) -> Findings:
    from proofs.signatures import remapped_column as rc
    from udpm.core.signatures import DOWN, SLACK, UP

    def stated(n, lo, hi):
        return [UP if i < lo else (SLACK if i <= hi else DOWN) for i in range(n)]

    return rc.grs2009_lemma_5_10(ctx, stated=stated)


@false_variant("grs2009.lemma5.11", "object", "i+S_(i-1)..i+S_i go to the i-th non-Z column from the right")
def _lemma511_reversed(ctx: Context) -> Findings:
    from proofs.signatures import vertex_remaps as vr

    def reversed_targets(sig):
        m = vr.grs2009_remap(sig)
        cols = sorted(set(m))
        flip = dict(zip(cols, reversed(cols)))
        return [flip[c] for c in m]

    return vr.grs2009_lemma_5_11(ctx, remap=reversed_targets)


@false_variant("grs2009.fig2", "object", "Example 5.2's remap sends output 1 to 0 (not to 1) and gives Figure 2")
def _fig2_remap(ctx: Context) -> Findings:
    from experiments import grs2009 as ex

    rule = [["<0", "0"], ["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], [">5", "5"]]
    return ex.figures_2_3(ctx, rule=rule)


@false_variant("grs2009.fn3", "object", "footnote 3's row structure holds at every optimal vertex for the zero loss")
def _fn3_zero_loss(ctx: Context) -> Findings:
    from proofs.assertions import footnotes as fn
    from udpm.core.users import BayesianUser, Loss

    user = BayesianUser.of([F(1, 3)] * 3, Loss.from_matrix([[0] * 3 for _ in range(3)]))
    return fn.footnote_3(ctx, user=user)


# ---------------------------------------------------------------- Section 6


@false_variant("grs2009.sec6.1", "exponent", "the Laplace mechanism's loss is sqrt(alpha) (not sqrt(alpha)/2)")
def _sec61_laplace(ctx: Context) -> Findings:
    from proofs.geometric import laplace_vs_geometric as lvg

    return lvg.laplace_vs_geometric(ctx, laplace_loss=lambda al: sp.sqrt(al))


@false_variant("grs2009.thm6.1", "object", "every deterministic remap of x^G (not only permutations) is optimal")
def _thm61_every_remap(ctx: Context) -> Findings:
    from proofs.universality import range_n_permutations as c

    return c.uniqueness_up_to_permutation(ctx, claimed=lambda d: True)


@false_variant("grs2009.prop6.2", "constant", "averaging over databases gives a 3/4-DP mechanism (stricter than alpha)")
def _prop62_stricter(ctx: Context) -> Findings:
    from proofs.databases import worst_extension as we

    return we.prop_6_2(ctx, alpha_claimed=F(3, 4))


@false_variant("grs2009.thm6.3", "boundary", "the printed mechanisms are the unique optima for eps = 1/5 (not small)")
def _thm63_big_eps(ctx: Context) -> Findings:
    from proofs.databases import theorem6_3 as thm63

    return thm63.theorem_6_3(ctx, eps=F(1, 5))


# ---------------------------------------------------------------- printed assertions (proofs/assertions/grs2009/)


@false_variant("grs2009.ex2.1", "constant", "Pr[Z = z] = (1-alpha)/(2+alpha) alpha^|z|, alpha in (0, 1), is a pmf")
def _ex21_constant(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga
    from proofs.geometric.case_split import a

    return ga.example_2_1(ctx, pmf=lambda d: (1 - a) / (2 + a) * a ** sp.Abs(d), alpha_range="(0, 1)")


@false_variant("grs2009.lp", "hypothesis", "the LP with rows (3), (4) for r in N and i < n - 1 only (one row dropped)")
def _lp_row_dropped(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import user_lp as ga

    return ga.user_specific_lp(ctx, r_of=lambda n: range(n + 1), i_of=lambda n: range(n - 1), readings=("drop",))


@false_variant("grs2009.lemma5.6.proof", "constant", "the proof's right-hand side 1/alpha + alpha - 2 + b - b' alpha")
def _lemma56_proof_rhs(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import lemma5_proofs as ga

    return ga.lemma_5_6_proof(ctx, rhs=lambda al, b, bp: 1 / al + al - 2 + b - bp * al)


@false_variant("grs2009.lemma5.11.count", "constant", "s_i + 2 responses of G are mapped to k_i")
def _lemma511_count(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import lemma5_proofs as ga

    return ga.lemma_5_11_count(ctx, count=lambda s_i, big: s_i + 2)


@false_variant("grs2009.fn4", "object", "non-derivable vertices are optimal for no user, the zero loss included")
def _fn4_zero_loss(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import user_lp as ga
    from udpm.core.users import BayesianUser, Loss

    user = BayesianUser.of([F(1, 3)] * 3, Loss.from_matrix([[0] * 3 for _ in range(3)]))
    return ga.footnote_4(ctx, user=user)


@false_variant("grs2009.sec2.3", "constant", "y o x is (2 alpha)-DP for alpha-DP x (a stronger level)")
def _sec23_stronger(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga

    return ga.remap_preserves_privacy(ctx, factor=F(2))


@false_variant("grs2009.sec1.monotone", "direction", "an alpha-DP mechanism is alpha'-DP for alpha' >= alpha")
def _sec1_reversed(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga

    return ga.larger_alpha_more_privacy(ctx, pairs=[(F(1, 3), F(1, 2))])


@false_variant("grs2009.fn1", "quantifier", "the ratio bound on the whole range only is equivalent to every output's")
def _fn1_whole_range(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga

    return ga.footnote_1(ctx, subsets=lambda k: [tuple(range(k))])


@false_variant("grs2009.sec2.1", "constant", "oblivious alpha-DP is the ratio bound for rows i, i + 0 (step 0, not 1)")
def _sec21_step(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga

    return ga.oblivious_equivalence(ctx, step=0)


@false_variant("grs2009.sec5.wd", "boundary", "C is well defined for alpha in (0, 2) (alpha = 1 included)")
def _sec5wd_alpha_one(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import user_lp as ga

    return ga.constraint_matrix_well_defined(ctx, upper=F(2))


# ---------------------------------------------------------------- corrected restatements
# (udpm.claims.registry.restricted)


@false_variant("grs2009.ex2.2.corrected", "constant", "alpha in [0, 1): the face-value loss is alpha/(1+alpha)")
def _ex22_corrected_face(ctx: Context) -> Findings:
    from proofs.geometric import post_processing_example as ppe

    found = ppe.post_processing_grs2009(ctx, face=lambda al, n: al / (1 + al))
    return restrict("grs2009.ex2.2.corrected", found)


@false_variant("grs2009.thm3.1.corrected", "hypothesis", "alpha in [0, 1): x^G is optimal for every nonnegative loss")
def _thm31_corrected_nonnegative(ctx: Context) -> Findings:
    from proofs.universality import geometric_optimality as u

    return restrict("grs2009.thm3.1.corrected", u.geometric_minimizes_every_loss(ctx, users="nonnegative"))


@false_variant("grs2009.sec6.1.corrected", "exponent", "alpha in (0, 1): the Laplace mechanism's loss is sqrt(alpha)")
def _sec61_corrected_laplace(ctx: Context) -> Findings:
    from proofs.geometric import laplace_vs_geometric as lvg

    found = lvg.laplace_vs_geometric(ctx, laplace_loss=lambda al: sp.sqrt(al))
    return restrict("grs2009.sec6.1.corrected", found)


@false_variant("grs2009.thm6.1.corrected", "object", "alpha in [0, 1): every deterministic remap of x^G is optimal")
def _thm61_corrected_every_remap(ctx: Context) -> Findings:
    from proofs.universality import range_n_permutations as c

    found = c.uniqueness_up_to_permutation(ctx, claimed=lambda d: True, conclusion="G")
    return restrict("grs2009.thm6.1.corrected", found)


@false_variant("grs2009.ex2.1.corrected", "constant", "alpha in [0, 1): (1-alpha)/(2+alpha) alpha^|z| is a pmf")
def _ex21_corrected_constant(ctx: Context) -> Findings:
    from proofs.assertions.grs2009 import privacy_definition as ga
    from proofs.geometric.case_split import a

    return restrict("grs2009.ex2.1.corrected", ga.example_2_1(ctx, pmf=lambda d: (1 - a) / (2 + a) * a ** sp.Abs(d)))


# ---------------------------------------------------------------- the .strict claims (Lemmas 5.5-5.11 under footnote 3)


@false_variant("grs2009.lemma5.5.strict", "hypothesis", "Lemma 5.5 also for optimal vertices of priors with zeros")
def _lemma55_strict_full_support(ctx: Context) -> Findings:
    from proofs.signatures.optimal_mechanisms import grs2009_lemma_5_5_strict

    return grs2009_lemma_5_5_strict(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.lemma5.6.strict", "hypothesis", "Lemma 5.6 also for optimal vertices of priors with zeros")
def _lemma56_strict_full_support(ctx: Context) -> Findings:
    from proofs.signatures.optimal_mechanisms import grs2009_lemma_5_6_strict

    return grs2009_lemma_5_6_strict(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.cor5.7.strict", "hypothesis", "Corollary 5.7 also for monotone losses with ties")
def _cor57_strict_nonstrict(ctx: Context) -> Findings:
    from proofs.signatures.optimal_mechanisms import grs2009_corollary_5_7_strict

    return grs2009_corollary_5_7_strict(ctx, plan={HALF: 3}, strict=False)


@false_variant("grs2009.lemma5.8.strict", "direction", "s < z (not s = z) at optimal vertices")
def _lemma58_strict_less(ctx: Context) -> Findings:
    from proofs.signatures.optimal_mechanisms import grs2009_lemma_5_8_strict

    return grs2009_lemma_5_8_strict(ctx, plan={HALF: 2}, negation=lambda e: e.n_slack() >= e.n_zero_cols())


@false_variant("grs2009.lemma5.9.strict", "hypothesis", "Lemma 5.9 also for optimal vertices of priors with zeros")
def _lemma59_strict_full_support(ctx: Context) -> Findings:
    from proofs.signatures.optimal_mechanisms import grs2009_lemma_5_9_strict

    return grs2009_lemma_5_9_strict(ctx, plan={HALF: 3}, full_support=False)


@false_variant("grs2009.lemma5.11.strict", "object", "i+S_(i-1)..i+S_i go to the i-th non-Z column from the right")
def _lemma511_strict_reversed(ctx: Context) -> Findings:
    from proofs.signatures.vertex_remaps import grs2009_lemma_5_11_strict, grs2009_remap

    def reversed_targets(sig: list[list[str]]) -> list[int]:
        m = grs2009_remap(sig)
        cols = sorted(set(m))
        flip = dict(zip(cols, reversed(cols)))
        return [flip[c] for c in m]

    return grs2009_lemma_5_11_strict(ctx, remap=reversed_targets)
