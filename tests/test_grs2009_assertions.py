"""The grs2009 assertion checks: each decides the printed statement, and refutes a changed one."""

from fractions import Fraction as F

import sympy as sp

from proofs.assertions.grs2009.lemma5_proofs import lemma_5_6_proof, lemma_5_11_count
from proofs.assertions.grs2009.privacy_definition import (
    example_2_1,
    footnote_1,
    larger_alpha_more_privacy,
    oblivious_equivalence,
    remap_preserves_privacy,
)
from proofs.assertions.grs2009.user_lp import constraint_matrix_well_defined, footnote_4, user_specific_lp
from proofs.geometric.case_split import a as ALPHA
from udpm.claims.registry import Context, Status
from udpm.core.mechanisms import truncated_geometric


def test_example_2_1_fails_at_the_printed_closed_end_alpha_1_only():
    rec = example_2_1(Context())
    assert rec.status is Status.REFUTED and "alpha=1" in rec.counterexample and "sums to 0" in rec.counterexample
    assert example_2_1(Context(), alpha_range="[0, 1)").status is not Status.REFUTED


def test_example_2_1_refutes_a_pmf_with_a_changed_constant():
    wrong = lambda d: (1 - ALPHA) / (2 + ALPHA) * ALPHA ** sp.Abs(d)  # noqa: E731
    assert example_2_1(Context(), pmf=wrong, alpha_range="(0, 1)").status is Status.REFUTED


def test_the_printed_lp_quantifiers_are_refuted_and_the_swapped_ones_hold():
    rec = user_specific_lp(Context())
    assert rec.status is Status.REFUTED and "not 1/2-DP" in rec.counterexample
    fixed = user_specific_lp(Context(), r_of=lambda n: range(n + 1), i_of=lambda n: range(n))
    assert fixed.status is not Status.REFUTED and not fixed.counterexample


def test_an_lp_missing_a_privacy_row_is_refuted():
    rec = user_specific_lp(Context(), r_of=lambda n: range(n + 1), i_of=lambda n: range(n - 1), readings=("drop",))
    assert rec.status is Status.REFUTED


def test_lemma_5_6_proof_holds_and_changed_constants_are_refuted():
    assert lemma_5_6_proof(Context()).status is not Status.REFUTED
    rhs = lambda al, b, bp: 1 / al + al - 2 + b - bp * al  # noqa: E731
    assert lemma_5_6_proof(Context(), rhs=rhs).status is Status.REFUTED
    bound = lambda al: 1 / al + al - 2  # noqa: E731
    assert lemma_5_6_proof(Context(), bound=bound).status is Status.REFUTED


def test_lemma_5_11_count_is_refuted_and_s_i_plus_one_holds():
    rec = lemma_5_11_count(Context())
    assert rec.status is Status.REFUTED and "stated count is 2" in rec.counterexample
    assert lemma_5_11_count(Context(), count=lambda s_i, big: s_i + 1).status is not Status.REFUTED


def test_footnote_4_is_refuted_and_a_remap_of_g_does_not_refute_it():
    rec = footnote_4(Context())
    assert rec.status is Status.REFUTED and "has a negative entry" in rec.counterexample
    assert footnote_4(Context(), x=truncated_geometric(2, F(1, 2))).status is not Status.REFUTED


def test_remaps_preserve_privacy_but_not_a_stronger_level():
    assert remap_preserves_privacy(Context()).status is not Status.REFUTED
    assert remap_preserves_privacy(Context(), factor=F(2)).status is Status.REFUTED


def test_larger_alpha_more_privacy_and_not_the_reverse():
    assert larger_alpha_more_privacy(Context()).status is not Status.REFUTED
    assert larger_alpha_more_privacy(Context(), pairs=[(F(1, 3), F(1, 2))]).status is Status.REFUTED


def test_footnote_1_holds_and_a_definition_over_the_whole_range_only_is_not_equivalent():
    assert footnote_1(Context()).status is not Status.REFUTED
    assert footnote_1(Context(), subsets=lambda k: [tuple(range(k))]).status is Status.REFUTED


def test_oblivious_equivalence_holds_and_a_changed_step_is_refuted():
    assert oblivious_equivalence(Context()).status is not Status.REFUTED
    assert oblivious_equivalence(Context(), step=0).status is Status.REFUTED


def test_constraint_matrix_well_defined_inside_0_1_and_not_at_alpha_1():
    assert constraint_matrix_well_defined(Context()).status is not Status.REFUTED
    assert constraint_matrix_well_defined(Context(), upper=F(2)).status is Status.REFUTED
    assert constraint_matrix_well_defined(Context(), lower=F(-1)).status is Status.REFUTED


def test_a_contradictory_premise_of_an_assertion_check_is_refused():
    import pytest
    import z3

    from proofs.assertions.grs2009.common import witnessed
    from udpm.claims.registry import Findings
    from udpm.errors import VacuousPremise

    u = z3.Real("u")
    rec = Findings("grs2009.sec1.monotone")
    witnessed(rec, [u >= 0, u <= 1], "an entry", 5)
    assert rec.values["premise witness: an entry"].startswith("u=")
    with pytest.raises(VacuousPremise, match=r"grs2009\.sec1\.monotone: an entry"):
        witnessed(rec, [u >= 1, u <= 0], "an entry", 5)
