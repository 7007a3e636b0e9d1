"""gs2010 minimax claims: real statuses, and false variants that must be refuted with a counterexample."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs import minimax
from udpm.claims import Context, Status
from udpm.errors import InvalidInput
from udpm.mechanisms import truncated_geometric
from udpm.programs_minimax import optimal_interaction_lp, optimal_mechanism_lp
from udpm.users import MinimaxUser, absolute_error, power_loss

CTX = Context()


def test_thm1_holds_and_a_weaker_deployed_mechanism_is_refuted():
    assert minimax.universal_optimality(CTX).status is Status.TESTED
    bad = minimax.universal_optimality(CTX, deployed=lambda n, a: truncated_geometric(n, (1 + a) / 2))
    assert bad.status is Status.REFUTED and "optimal interaction" in bad.counterexample


def test_randomized_needed_for_table1_consumer_not_for_a_singleton_S():
    res = minimax.randomized_post_processing(CTX)
    assert res.status is Status.VERIFIED and res.values["randomized_optimum"] == "168/415"
    bad = minimax.randomized_post_processing(CTX, side_information=(0,))
    assert bad.status is Status.REFUTED and "already reaches" in bad.counterexample


def test_lemma5_pattern_and_flipped_pattern():
    assert minimax.adjacent_rows(CTX).status is Status.TESTED
    bad = minimax.adjacent_rows(CTX, flip=True)
    assert bad.status is Status.REFUTED and "between the two tight blocks" in bad.counterexample


def test_lemma6_and_a_stricter_claimed_alpha():
    assert minimax.oblivious_suffices(CTX).status is Status.VERIFIED
    bad = minimax.oblivious_suffices(CTX, alpha_claimed=Fraction(3, 4))
    assert bad.status is Status.REFUTED and "oblivious" in bad.counterexample


def test_pattern_checker_on_hand_made_matrices():
    a = Fraction(1, 2)
    assert minimax.adjacent_row_violation(truncated_geometric(3, a), a) is None
    assert minimax.adjacent_row_violation([[Fraction(1, 2)] * 2, [Fraction(1, 2)] * 2], a) is not None


def test_builders_reject_irrational_loss_and_bad_shapes():
    import sympy

    u = MinimaxUser.of([0, 1], power_loss(1, sympy.Rational(3, 2)))
    u2 = MinimaxUser.of([0, 1], power_loss(2, sympy.Rational(3, 2)))
    optimal_mechanism_lp(u, Fraction(1, 2))  # |i-j|^1.5 is rational on {0, 1}
    with pytest.raises(InvalidInput):
        optimal_mechanism_lp(u2, Fraction(1, 2))
    with pytest.raises(InvalidInput):
        optimal_interaction_lp(MinimaxUser.of([0], absolute_error(2)), truncated_geometric(3, Fraction(1, 2)))
