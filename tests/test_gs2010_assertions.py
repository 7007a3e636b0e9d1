"""gs2010's assertions checked in proofs/assertions/gs2010/: the printed statement's verdict, and a changed
statement (a constant, a bound, an inequality, a mechanism) fed through the check's parameters."""

from __future__ import annotations

from fractions import Fraction as F

from proofs.assertions.gs2010.derivation_proofs import lemma3_case2
from proofs.assertions.gs2010.optimal_mechanisms import optimal_not_derivable
from proofs.assertions.gs2010.section2 import postprocessing_preserves_privacy, variable_counts
from proofs.assertions.gs2010.section3 import convex_hull, neither_implies_the_other
from proofs.assertions.gs2010.theorem1_proof import printed_algebra, theorem1_algebra
from proofs.boundary.geometric import definition4
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context, Status

CTX = Context()


def refuted_alphas(rec) -> set[str]:
    return {d.instance.alpha for d in rec.decisions if d.outcome is Outcome.COUNTEREXAMPLE}


def test_the_printed_n_squared_count_is_refuted_and_n_plus_one_squared_holds():
    rec = variable_counts(CTX)
    assert rec.status is Status.REFUTED and "4 entries, not the printed 1" in rec.counterexample
    assert variable_counts(CTX, count=lambda n: (n + 1) ** 2).status is Status.PROVED
    assert variable_counts(CTX, count=lambda n: (n + 1) ** 2 + 1).status is Status.REFUTED


def test_post_processing_keeps_alpha_but_not_a_stronger_level():
    assert postprocessing_preserves_privacy(CTX).status is Status.PROVED
    rec = postprocessing_preserves_privacy(CTX, level=lambda a: (1 + a) / 2, sizes=(1, 2))
    assert rec.status is Status.REFUTED and "breaks" in rec.counterexample


def test_neither_condition_implies_the_other_only_inside_the_printed_range():
    rec = neither_implies_the_other(CTX)
    assert rec.status is Status.REFUTED and refuted_alphas(rec) == {"0", "1"}
    inside = neither_implies_the_other(CTX, alphas=(F(1, 4), F(1, 2)))
    assert inside.status is Status.PARTIAL  # the printed ends 0 and 1 left undecided
    assert not refuted_alphas(inside)


def test_a_condition_that_privacy_implies_is_refuted_inside():
    rec = neither_implies_the_other(CTX, condition=lambda x1, x2, x3, a: x2 - a * x1, alphas=(F(1, 2),))
    assert rec.status is Status.REFUTED and refuted_alphas(rec) == {"1/2"}
    assert "alpha-DP implies the condition" in rec.counterexample


def test_the_convex_hull_fails_and_the_cone_holds():
    rec = convex_hull(CTX)
    assert rec.status is Status.REFUTED and "column 0 is all ones" in rec.counterexample
    assert convex_hull(CTX, hull="cone").status is Status.VERIFIED


def test_lemma3_case2_fails_at_the_ends_and_holds_weakly():
    rec = lemma3_case2(CTX)
    assert rec.status is Status.REFUTED and "1/2" not in refuted_alphas(rec)
    assert {"chain 0<1/2", "chain 1/2<1", "1", "0"} <= refuted_alphas(rec)
    assert lemma3_case2(CTX, strict=False).status is not Status.REFUTED


def test_lemma3_case2_with_a_changed_bound_is_refuted_inside():
    rec = lemma3_case2(CTX, chain=lambda a, b: (1 + a * a - 2 * a * b, 1 - a * a, 0), strict=False)
    assert rec.status is Status.REFUTED
    assert "symbolic 0 < alpha <= beta < 1" in refuted_alphas(rec)


def test_an_optimal_mechanism_not_derivable_from_g():
    rec = optimal_not_derivable(CTX)
    assert rec.status is Status.REFUTED and rec.values["optimal"] == "True"
    assert rec.values["derivable from G"] == "False" and rec.values["rows breaking Lemma 5's pattern"] == "[1]"


def test_g_itself_does_not_refute_it():
    assert optimal_not_derivable(CTX, m=definition4(4, F(1, 2))).status is Status.INCONCLUSIVE


def test_theorem1_algebra_holds_inside_and_a_changed_equation_4_is_refuted():
    rec = theorem1_algebra(CTX)
    assert rec.status is Status.REFUTED and refuted_alphas(rec) == {"0", "1"}

    def changed(a):
        p = printed_algebra(a)
        p["a"] = p["a"] + a  # a changed constant in (4)
        return p

    wrong = theorem1_algebra(CTX, printed=changed)
    assert "symbolic alpha in (0,1)" in refuted_alphas(wrong) and "(4): a fails" in wrong.counterexample


def test_a_changed_rewriting_of_equation_2_is_refuted_inside():
    from proofs.assertions.gs2010.theorem1_proof import X

    def changed(a):
        p = printed_algebra(a)
        x1, x2, x3 = X
        p["(2), second rewriting"] = (x2 - a * x1) - a * (x3 - a * x1)  # x1 for x2: a changed index
        return p

    rec = theorem1_algebra(CTX, printed=changed)
    assert rec.status is Status.REFUTED and "(2), second rewriting fails" in rec.counterexample


def test_positive_entries_as_printed_are_refuted_and_non_negative_ones_are_not():
    from proofs.assertions.gs2010.section2 import positive_entries

    rec = positive_entries(CTX)
    assert rec.status is Status.REFUTED and refuted_alphas(rec) == {"1/4", "1/2"}
    assert "the minimum is not attained" in rec.counterexample
    assert not refuted_alphas(positive_entries(CTX, strict=False))


def test_g_inverse_fails_only_at_alpha_one():
    from proofs.assertions.gs2010.derivation_proofs import inverse_of_g

    rec = inverse_of_g(CTX, sizes=(1, 2))
    assert rec.status is Status.REFUTED and refuted_alphas(rec) == {"1"}
    assert "not unique" in rec.counterexample
    inside = inverse_of_g(CTX, sizes=(1, 2), alphas=(F(0), F(1, 2), F(3, 4)))
    assert inside.status is Status.PARTIAL and not refuted_alphas(inside)
