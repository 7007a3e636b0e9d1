"""gs2010 minimax claims: derived statuses, recorded grids, and false variants refuted with a counterexample."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs.minimax import consumers as minimax
from udpm.claims.evidence import Status, grid_text
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context
from udpm.core.mechanisms import truncated_geometric
from udpm.core.users import MinimaxUser, absolute_error, power_loss
from udpm.errors import InvalidInput
from udpm.lp.minimax import optimal_interaction_lp, optimal_mechanism_lp

CTX = Context()
CONSUMER_GRID = "alpha=1/2, 99/100, 1/100, 1/4, 2/3: n<=5"


def assert_distinct_identified_consumers(rec):
    sampled = rec.decided(SAMPLED)
    params = [dict(d.instance.params) for d in sampled]
    assert all(p["consumer"] and p["sample"] for p in params)
    assert len({p["sample"] for p in params}) == len(params)  # distinct consumers
    assert any(d.instance.n == 1 for d in sampled)


def test_thm1_verified_over_every_consumer_with_a_sampled_cross_check_and_a_weaker_mechanism_is_refuted():
    rec = minimax.universal_optimality(CTX)
    res = rec.result()
    assert res.status is Status.VERIFIED and grid_text(res.grid[str(SAMPLED)]) == CONSUMER_GRID
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/100, 1/4, 1/2, 2/3, 99/100, 0, 1: n<=3"  # 0, 1: printed ends
    assert res.samples == 15 + 2 * 25  # 3 fixed consumers per n, 2 random per (n, alpha) cell
    assert_distinct_identified_consumers(rec)
    bad = minimax.universal_optimality(CTX, deployed=lambda n, a: truncated_geometric(n, (1 + a) / 2))
    assert bad.status is Status.REFUTED and "optimal interaction" in bad.counterexample
    assert "both certified" in bad.counterexample  # found over every consumer, not by the sample


def test_thm1_a_bayesian_user_that_is_no_consumer_counterexample_leaves_the_instance_inconclusive(monkeypatch):
    rec = minimax.Findings("gs2010.thm1")
    no_gap = lambda u, y, ctx: minimax.mechanism_optimum(u, Fraction(2, 3), ctx)  # noqa: E731
    monkeypatch.setattr(minimax, "interaction_optimum", no_gap)
    weaker = lambda n, a: truncated_geometric(n, (1 + a) / 2)  # noqa: E731
    assert minimax.decide_every_consumer(rec, 2, Fraction(2, 3), weaker, CTX)
    assert rec.status is Status.INCONCLUSIVE and "not for its consumer" in rec.decisions[0].detail


def test_randomized_is_one_bounded_example_and_a_singleton_S_needs_no_randomness():
    rec = minimax.randomized_post_processing(CTX)
    res = rec.result()
    assert res.status is Status.VERIFIED and res.values["randomized_optimum"] == "168/415"
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/4: n=3" and len(rec.decisions) == 1
    bad = minimax.randomized_post_processing(CTX, side_information=(0,))
    assert bad.status is Status.REFUTED and "already reaches" in bad.counterexample


def test_lemma6_proved_for_all_n_and_a_stricter_claimed_alpha_is_refuted():
    rec = minimax.oblivious_suffices(CTX)
    res = rec.result()
    assert res.status is Status.PROVED and rec.decided(ALL_N) and not rec.decided(outcome=Outcome.COUNTEREXAMPLE)
    assert [e.cls for e in rec.errata] == ["typo"]  # the proof's "n - f(d_1) rows that satisfy the predicate"
    want = "alpha=1/4, 1/2, 2/3: n<=3"
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/4, 1/2, 2/3, 0, 1: n<=3"  # the printed ends 0 and 1 too
    assert grid_text(res.grid[str(SAMPLED)]) == want
    sampled = rec.decided(SAMPLED)
    keys = [(d.instance.n, d.instance.alpha, d.instance.params) for d in sampled]  # params: space, sample
    assert len(set(keys)) == len(keys) and any(n == 1 for n, _, _ in keys)
    bad = minimax.oblivious_suffices(CTX, alpha_claimed=Fraction(3, 4))
    assert bad.status is Status.REFUTED and "not 3/4-DP" in bad.counterexample


def test_builders_reject_irrational_loss_and_bad_shapes():
    import sympy

    u = MinimaxUser.of([0, 1], power_loss(1, sympy.Rational(3, 2)))
    u2 = MinimaxUser.of([0, 1], power_loss(2, sympy.Rational(3, 2)))
    optimal_mechanism_lp(u, Fraction(1, 2))  # |i-j|^1.5 is rational on {0, 1}
    with pytest.raises(InvalidInput):
        optimal_mechanism_lp(u2, Fraction(1, 2))
    with pytest.raises(InvalidInput):
        optimal_interaction_lp(MinimaxUser.of([0], absolute_error(2)), truncated_geometric(3, Fraction(1, 2)))
