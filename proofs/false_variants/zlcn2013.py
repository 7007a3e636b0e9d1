"""False variants of zlcn2013's claims: each changes the printed statement and runs the claim's own check."""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from udpm.claims.registry import Context, Findings, restrict
from udpm.claims.variants import false_variant

# ---------------------------------------------------------------- Sections 2, 3.1: legal functions and recurrences


@false_variant("zlcn2013.def2", "hypothesis", "Definition 2 without the constraints on 1 - phi")
def _def2_drop(ctx: Context) -> Findings:
    from proofs.countrange import definition2 as d2

    return d2.legal_region(ctx, drop="1-phi")


@false_variant("zlcn2013.eq2", "exponent", "the interval ends of (2) are 1/alpha^(k+1) (not 1/(alpha^k (alpha+1)))")
def _eq2_breakpoint(ctx: Context) -> Findings:
    from proofs.countrange import recurrences as rc

    return rc.recurrence_closed_form(ctx, breakpoint=lambda k: 1 / rc.A_SYM ** (k + 1))


@false_variant("zlcn2013.thm1", "direction", "Theorem 1 with condition (5) reversed")
def _thm1_flip5(ctx: Context) -> Findings:
    from proofs.countrange import consumers as cc

    return cc.min_of_recurrences(ctx, flip5=True)


@false_variant("zlcn2013.twovar", "object", "the optimum is psi1 alone (no psi2, one variable)")
def _twovar_psi1(ctx: Context) -> Findings:
    from proofs.countrange import consumers as cc

    return cc.two_variables(ctx, use_psi2=False)


@false_variant("zlcn2013.thm5", "object", "a threshold consumer's optimum satisfies (3) in place of (2)")
def _thm5_swap(ctx: Context) -> Findings:
    from proofs.countrange import consumers as cc

    return cc.threshold_recurrence(ctx, swap=True)


@false_variant("zlcn2013.def6", "constant", "formula (6) with entry [0][0] larger by 1/1000")
def _def6_perturbed(ctx: Context) -> Findings:
    from proofs.geometric import range_restricted as g

    def formula(n, al):
        m = g.zlcn2013_formula6(n, al)
        m[0][0] += F(1, 1000)
        return m

    return g.zlcn_range_restricted_is_truncated(ctx, formula=formula)


@false_variant("zlcn2013.def6.corrected", "constant", "n >= 1: formula (6) with entry [0][0] larger by 1/1000")
def _def6_corrected_perturbed(ctx: Context) -> Findings:
    return restrict("zlcn2013.def6.corrected", _def6_perturbed(ctx))


# ---------------------------------------------------------------- Section 3.2: two consumers, n = 3


@false_variant("zlcn2013.xhat", "object", "y-hat (not x-hat) is the first consumer's unique optimum")
def _xhat_swapped(ctx: Context) -> Findings:
    from proofs.countrange import xhat_yhat as xy

    return xy.x_hat_unique(ctx, vector=xy.y_hat)


@false_variant("zlcn2013.yhat", "object", "y-hat is the unique optimum for the uniform weights rho (not the stated)")
def _yhat_uniform(ctx: Context) -> Findings:
    from proofs.countrange import xhat_yhat as xy

    return xy.y_hat_unique(ctx, rho_of=xy.uniform_rho)


@false_variant("zlcn2013.lemma1", "direction", "Lemma 1 with the transformation (p_j, q_j, t_j) flipped")
def _lemma1_flip(ctx: Context) -> Findings:
    from proofs.countrange import lemma1 as c1

    return c1.lemma1(ctx, flip=True)


@false_variant("zlcn2013.lemma1.corrected", "direction", "non-zero columns: the transformation (p_j, q_j, t_j) flipped")
def _lemma1_corrected_flip(ctx: Context) -> Findings:
    from proofs.countrange import lemma1 as c1

    return restrict("zlcn2013.lemma1.corrected", c1.lemma1(ctx, flip=True))


@false_variant("zlcn2013.lemma2", "object", "both consumers want x-hat (y = x-hat): no DP joint mechanism")
def _lemma2_equal(ctx: Context) -> Findings:
    from proofs.countrange import lemma2 as c
    from proofs.countrange import vectors as cv

    return c.lemma2(ctx, y=cv.xhat)


@false_variant("zlcn2013.lemma3", "exponent", "x_i = alpha^(i-k)/(alpha+1) for i > k (exponent off by one)")
def _lemma3_exponent(ctx: Context) -> Findings:
    from proofs.countrange import lemma3 as c3
    from proofs.countrange import vectors as cv

    def x_wrong(n, t1, t2, a):
        k = cv.lemma3_k(t1, t2)
        return [a ** (k - i) / (a + 1) if i <= k else a ** (i - k) / (a + 1) for i in range(n + 1)]

    return c3.lemma3(ctx, xf=x_wrong, n_max=3)


@false_variant("zlcn2013.thm2", "object", "no DP joint mechanism even when both consumers want Lemma 3's x")
def _thm2_equal(ctx: Context) -> Findings:
    from proofs.countrange import lemma3 as c3
    from proofs.countrange import vectors as cv

    return c3.thm2(ctx, yf=cv.lemma3_x, n_max=4)


@false_variant("zlcn2013.lemma3.corrected", "exponent", "theta2 <= n-1: x_i = alpha^(i-k)/(alpha+1), i > k (off by 1)")
def _lemma3_corrected_exponent(ctx: Context) -> Findings:
    from proofs.countrange import lemma3 as c3
    from proofs.countrange import vectors as cv

    def x_wrong(n, t1, t2, a):
        k = cv.lemma3_k(t1, t2)
        return [a ** (k - i) / (a + 1) if i <= k else a ** (i - k) / (a + 1) for i in range(n + 1)]

    return restrict("zlcn2013.lemma3.corrected", c3.lemma3(ctx, xf=x_wrong, n_max=3))


@false_variant("zlcn2013.thm2.each-query", "object", "each query: no DP joint mechanism when both consumers want x")
def _thm2_each_equal(ctx: Context) -> Findings:
    from proofs.countrange import lemma3 as c3
    from proofs.countrange import vectors as cv

    return c3.thm2_each_query(ctx, yf=cv.lemma3_x, n_max=4)


@false_variant("zlcn2013.thm3", "quantifier", "no DP joint mechanism on the counts 0, 1 alone")
def _thm3_two_counts(ctx: Context) -> Findings:
    from proofs.countrange import theorem3 as t3

    return t3.thm3(ctx, rows=(0, 1), n_max=3)


# ---------------------------------------------------------------- Section 4


@false_variant("zlcn2013.thm4", "constant", "the range-restricted mechanism is a 1-approximation (not 2)")
def _thm4_factor(ctx: Context) -> Findings:
    from proofs.countrange import approximation_ratio as ar

    return ar.two_approximation(ctx, factor=1)


@false_variant("zlcn2013.thm4.corrected", "constant", "n >= 1: the range-restricted mechanism is a 1-approximation")
def _thm4_corrected_factor(ctx: Context) -> Findings:
    return restrict("zlcn2013.thm4.corrected", _thm4_factor(ctx))


@false_variant("zlcn2013.thm7", "object", "Theorem 7 with (2) combined by max (not min)")
def _thm7_max(ctx: Context) -> Findings:
    from proofs.countrange import recurrences as rc
    from proofs.countrange import thresholds as th

    flipped = rc.Recurrence("(2) with max", rc.EQ2.first, rc.EQ2.second, "max")
    return th.threshold_universality(ctx, recurrences=(flipped,))


@false_variant("zlcn2013.thm7", "constant", "Theorem 7 for the recurrence min{alpha psi, 1} (an illegal one)")
def _thm7_illegal(ctx: Context) -> Findings:
    from proofs.countrange import recurrences as rc
    from proofs.countrange import thresholds as th

    bad = rc.Recurrence("min{A psi, 1}", (sp.Integer(0), rc.A_SYM), (sp.Integer(1), sp.Integer(0)), "min")
    return th.threshold_universality(ctx, recurrences=(bad,))


@false_variant("zlcn2013.thm7.corrected", "object", "n >= 1: Theorem 7 with (2) combined by max (not min)")
def _thm7_corrected_max(ctx: Context) -> Findings:
    return restrict("zlcn2013.thm7.corrected", _thm7_max(ctx))


@false_variant("zlcn2013.thm7.corrected", "constant", "n >= 1: Theorem 7 for the recurrence min{alpha psi, 1}")
def _thm7_corrected_illegal(ctx: Context) -> Findings:
    return restrict("zlcn2013.thm7.corrected", _thm7_illegal(ctx))


@false_variant("zlcn2013.oblivious", "object", "the step function is dominated by the constant function beta2")
def _oblivious_constant(ctx: Context) -> Findings:
    from proofs.countrange import oblivious_step as ob

    return ob.oblivious_step(ctx, recurrence=lambda beta2, theta, n, A: [beta2] * (n + 1))


@false_variant("zlcn2013.thm7.M", "exponent", "M_ij with exponent d + 1 (not d)")
def _thm7m_exponent(ctx: Context) -> Findings:
    from experiments import zlcn2013 as exz

    return exz.theorem_7_matrix(ctx, mechanism=lambda i, j, d: exz.range_restricted(i, j, d + 1))


# ---------------------------------------------------------------- printed assertions (proofs/assertions/zlcn2013/)


@false_variant("zlcn2013.eq2.k", "boundary", "some integer k between 1 and n - 2 (not n - 1) has beta1 in its interval")
def _eq2k_top(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section3_1 as za

    return za.unique_k(ctx, unique=False, k_top=lambda n: n - 2, n_min=2)


@false_variant("zlcn2013.sec3.2.linearity", "constant", "x = A t is ((1+alpha)/2)-DP (a smaller factor than alpha)")
def _linearity_factor(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section3_2 as za

    return za.derived_is_private(ctx, factor=lambda a: (1 + a) / 2, m_max=2)


@false_variant("zlcn2013.sec3.2.1.gamma", "boundary", "the switch point is above theta1: theta1 < gamma <= theta2")
def _gamma_above(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section3_2 as za

    return za.switch_point(ctx, gammas=lambda t1, t2: range(t1 + 1, t2 + 1), n_max=3)


@false_variant("zlcn2013.lemma2.proof", "constant", "the proof's sum_{j<=l} a_2j = A/(A+1)^2 (not A^2/(A+1)^2)")
def _lemma2_proof_sum(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import lemma2_theorem3_proofs as za

    return za.lemma2_steps(ctx, printed_sum=za.A / (za.A + 1) ** 2)


@false_variant("zlcn2013.thm3.proof", "constant", "the sketch's upper bound t0 <= 1/(A+1) (not 1/(A+1)^2)")
def _thm3_proof_high(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import lemma2_theorem3_proofs as za

    return za.thm3_steps(ctx, high=1 / (za.A + 1))


@false_variant("zlcn2013.sec3.4.intuition", "object", "the most likely output of (6) given i is i + 1")
def _intuition_shift(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section3_4 as za

    return za.mode_and_decay(ctx, shift=1)


@false_variant("zlcn2013.thm7.invertible", "constant", "M is invertible with its boundary factor A/(A-1) read as 0")
def _invertible_boundary(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section4 as za

    return za.m_invertible(ctx, boundary=sp.Integer(0), n_max=3)


@false_variant("zlcn2013.sec4.2.legal", "hypothesis", "Phi is legal without the conditions on 1 - beta1, 1 - beta2")
def _step_function_without_complement(ctx: Context) -> Findings:
    from proofs.assertions.zlcn2013 import section4 as z

    return z.step_function_legal(ctx, drop="complement")
