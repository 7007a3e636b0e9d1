"""grs2011 assertions outside the numbered results: each check refutes a false variant of its statement."""

from fractions import Fraction as F

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
from udpm.claims.registry import Context, Status
from udpm.core.mechanisms import truncated_geometric


def test_appendix_b_loss_is_asymmetric_but_a_symmetric_non_monotone_loss_passes():
    rec = appendix_b_only_monotonicity_dropped(Context())
    assert rec.status is Status.REFUTED and "l(1, 0) = 0 but l(1, 2) = 1" in rec.counterexample
    symmetric = [[1, 0, 1, 1], [0, 1, 0, 1], [1, 0, 1, 0], [1, 1, 0, 1]]
    assert appendix_b_only_monotonicity_dropped(Context(), loss=symmetric).status is not Status.REFUTED


def test_geometric_outside_mass_fails_only_at_the_closed_ends():
    rec = geometric_outputs_wrong(Context())
    assert rec.status is Status.REFUTED and "alpha=0" in rec.counterexample
    inner = (F(1, 3), F(1, 2), F(9, 10))
    assert geometric_outputs_wrong(Context(), alphas=inner).status is not Status.REFUTED
    # a false variant: the outside mass at least alpha/(1+alpha) fails for an interior result
    variant = geometric_outputs_wrong(Context(), lower=lambda n, i, a: a / (1 + a), alphas=inner)
    assert variant.status is Status.REFUTED


def test_binding_constraints_outnumber_arrows_only_with_zero_columns():
    rec = lemma_5_8_binding(Context())
    assert rec.status is Status.REFUTED and "34 privacy constraints bind" in rec.counterexample
    assert lemma_5_8_binding(Context(), x=truncated_geometric(5, F(1, 2))).status is not Status.REFUTED


def test_first_row_of_an_optimal_vertex_can_carry_the_s_entry():
    rec = lemma_5_9_first_row(Context())
    assert rec.status is Status.REFUTED and rec.values["optimal"] == "True" and rec.values["vertex"] == "True"
    # T itself: first row strictly unimodal, nothing to refute
    assert lemma_5_9_first_row(Context(), remap=(0, 1, 2)).status is not Status.REFUTED


def test_the_strict_first_link_needs_a_positive():
    assert lemma_5_6_chain(Context()).status is Status.REFUTED
    weak = lemma_5_6_chain(Context(), first_link=lambda a, m: a * m - a * a * m <= m - a * m)
    assert weak.status is not Status.REFUTED


def test_factor_bound_fails_for_negative_losses_only():
    rec = theorem_a2_factor(Context())
    assert rec.status is Status.REFUTED and "-1 + sqrt(2)/4" in rec.counterexample
    assert theorem_a2_factor(Context(), shift=0).status is not Status.REFUTED


def test_limits_of_the_factor_and_a_false_limit():
    assert appendix_a_limits(Context()).status is Status.PROVED
    assert appendix_a_limits(Context(), at_one=2).status is Status.REFUTED


def test_true_assertions_hold_and_their_false_variants_are_refuted():
    assert trivial_privacy(Context()).status is not Status.REFUTED
    assert trivial_privacy(Context(), mechanism=lambda n: truncated_geometric(n, F(1, 2))).status is Status.REFUTED
    assert oblivious_adjacent(Context()).status is not Status.REFUTED
    assert oblivious_adjacent(Context(), step=2).status is Status.REFUTED
    assert example_losses_legal(Context()).status is not Status.REFUTED
    bad = example_losses_legal(
        Context(), losses=lambda n: {"-|j - i|": [[-abs(j - i) for j in range(n + 1)] for i in range(n + 1)]}
    )
    assert bad.status is Status.REFUTED
    assert composition_level(Context()).status is not Status.REFUTED
    assert composition_level(Context(), level=lambda a, k: a ** (k + 1)).status is Status.REFUTED
