"""proofs/universality.py: each claim holds as stated; each false variant is refuted with a concrete user."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from proofs import universality as u
from udpm.claims import Context, Status
from udpm.mechanisms import truncated_geometric
from udpm.programs import bayesian_lp

CTX = Context()


@pytest.mark.parametrize(
    "check",
    [
        u.user_specific_lp,
        u.bayes_remap_optimal,
        u.direct_mechanisms_suffice,
        u.optimal_vertex_exists,
        u.main_characterization,
        u.geometric_universal,
        u.remap_to_t_universal,
        u.unique_optimum_user,
        u.permutations_of_t,
        u.geometric_minimizes_every_loss,
        u.uniqueness_up_to_permutation,
    ],
)
def test_claim_holds_in_bounded_scope(check):
    r = check(CTX)
    assert r.status is Status.VERIFIED, (r.counterexample, r.notes)
    assert r.scope.n_max and r.scope.alphas and r.scope.samples


def _refuted(r, *words):
    assert r.status is Status.REFUTED, r.notes
    assert r.counterexample and all(w in r.counterexample for w in words), r.counterexample


def test_lp_with_wrong_alpha_refuted():
    _refuted(u.user_specific_lp(CTX, builder=lambda user, a: bayesian_lp(user, a * a)), "LP-feasible but not alpha-DP")


def test_map_remap_refuted():
    _refuted(u.bayes_remap_optimal(CTX, rule=u.map_remap), "optimal randomized remap", "prior")


def test_truncating_remap_is_not_direct():
    _refuted(u.direct_mechanisms_suffice(CTX, remap_rule=u.truncate_remap), "not direct", "prior")


def test_every_optimum_a_vertex_refuted():
    _refuted(u.optimal_vertex_exists(CTX, every_optimum=True), "is not a vertex", "prior")


def test_wrong_alpha_in_characterization_refuted():
    _refuted(u.main_characterization(CTX, target_alpha=lambda a: (1 + a) / 2), "not universal", "prior")


def test_more_private_t_is_not_universal():
    mechs = lambda n, a: [("T(n, (1+alpha)/2)", truncated_geometric(n, (1 + a) / 2))]  # noqa: E731
    _refuted(u.geometric_universal(CTX, mechanisms=mechs), "certified optimum", "prior")


def test_merged_outputs_are_not_universal():
    mechs = lambda n, a: u.non_universal_mechanisms(n, a)[:1]  # noqa: E731
    _refuted(u.remap_to_t_universal(CTX, mechanisms=mechs), "merged", "prior")


def test_randomized_response_does_not_minimize_every_loss():
    mechs = lambda n, a: [("RR", u.rr_mechanism(n, 1 / (1 + n * a)))]  # noqa: E731
    _refuted(u.geometric_minimizes_every_loss(CTX, mechanisms=mechs), "RR", "prior")


def test_wrong_lemma_5_12_user_refuted():
    ends = lambda n, g: u.BayesianUser.of([F(1, 2)] + [F(0)] * (n - 1) + [F(1, 2)], u.gamma_user(n, g).loss)  # noqa: E731
    _refuted(u.unique_optimum_user(CTX, loss_of=ends), "not the unique optimum")


def test_large_gamma_witness_refuted():
    # gamma = 10 is not "small" at alpha = 99/100: T is then not the unique optimum of the witness user.
    _refuted(u.permutations_of_t(CTX, witness_gamma=F(10)), "not the unique optimum")
    _refuted(u.uniqueness_up_to_permutation(CTX, witness_gamma=F(10)), "not the unique optimum")


def test_gamma_max_is_exact_and_finite_near_alpha_one():
    lo, hi, stuck = u.gamma_interval(2, F(99, 100), 60)
    assert hi == F(100, 9701) and lo < 0 and not stuck
    assert u.gamma_interval(3, F(1, 2), 60)[1] is None


def test_gamma_max_closed_form_at_n_2():
    for a in (F(2, 3), F(9, 10), F(7, 10)):
        assert u.gamma_interval(2, a, 60)[1] == (1 - a) / (a * a + a - 1)
    assert u.gamma_interval(2, F(61, 100), 60)[1] is None  # below (sqrt 5 - 1)/2 = 0.618...
