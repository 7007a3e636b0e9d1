"""proofs/universality/ (geometric_optimality.py, user_lp.py, bayes_remap.py, direct_mechanisms.py, optimal_vertex.py,
unique_optimum.py, characterization.py, range_n_permutations.py): each claim's record is what ran, and each false
variant (through an injectable parameter of the shipped check) is refuted with a concrete counterexample."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from proofs.universality import bayes_remap, direct_mechanisms, user_lp
from proofs.universality import characterization as c
from proofs.universality import geometric_optimality as u
from proofs.universality import optimal_vertex as ov
from proofs.universality import range_n_permutations as rp
from proofs.universality import unique_optimum as uo
from proofs.universality.mechanisms import rr_mechanism
from proofs.universality.optimality import flat, optimum
from udpm.claims.evidence import grid_text
from udpm.claims.instances import BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Status, restrict
from udpm.core.mechanisms import truncated_geometric
from udpm.core.users import BayesianUser, Loss
from udpm.lp.certify import is_vertex
from udpm.lp.programs import bayesian_lp, objective_value

CTX = Context()
ALPHAS = "alpha=1/100, 1/3, 1/2, 99/100"


def cor34_below_one(ctx, witness_gamma=F(0), claimed=rp.is_permutation):
    """grs2011.cor3.4's scan inside (0, 1) alone (its ends: tests/test_degenerate_alpha.py), under a claim id the
    catalog does not declare, so that its status is the scan's own, not the printed class's."""
    return rp.range_n_scan(ctx, "test.cor3.4-inside", witness_gamma, claimed)


def thm61_of_g(ctx, witness_gamma=F(0), claimed=rp.is_permutation):
    """grs2009 Theorem 6.1 with the conclusion read as G over [0, 1) (grs2009.thm6.1.corrected)."""
    return restrict("grs2009.thm6.1.corrected", rp.uniqueness_up_to_permutation(ctx, witness_gamma, claimed, "G"))


def _refuted(rec, *words):
    assert rec.status is Status.REFUTED, rec.notes
    cex = rec.counterexample
    assert cex and all(w in cex for w in words), cex


def _sampled_grid(rec, n_text):
    """Status tested, only sampled instances, on the grid that ran, every instance distinct and holding."""
    res = rec.result()
    assert res.status is Status.TESTED, (res.counterexample, res.notes)
    assert set(res.grid) == {str(SAMPLED)}
    assert grid_text(res.grid[str(SAMPLED)]) == f"{ALPHAS}: {n_text}"
    ds = rec.decided(SAMPLED)
    assert res.samples == len(ds) > 0
    assert len({d.instance for d in ds}) == len(ds)
    assert all(d.outcome is Outcome.HOLDS for d in ds)
    return ds


def _users_per_cell(ds):
    """Each sampled user is identified by its digest, distinct within its (n, alpha)."""
    cells: dict = {}
    for d in ds:
        p = dict(d.instance.params)
        if "user" in p:
            key = (d.instance.n, d.instance.alpha, p.get("part"))
            assert p["user"] not in cells.setdefault(key, set())
            cells[key].add(p["user"])
    return cells


# ---------------------------------------------------------------- grids that ran


@pytest.mark.parametrize(
    ("check", "n_text"),
    [
        (user_lp.user_specific_lp, "n<=4"),
        (ov.optimal_vertex_exists, "n<=4"),
        (cor34_below_one, "n<=3"),
    ],
)
def test_sampled_claims_record_one_instance_per_user(check, n_text):
    ds = _sampled_grid(check(CTX), n_text)
    cells = _users_per_cell(ds)
    assert cells and all(len(v) >= 1 for v in cells.values())


def test_grs2009_theorem_6_1_refuted_by_its_printed_conclusion_and_at_alpha_1():
    # as printed, p o x = x^G: x^G has range Z, so T(n, alpha) itself refutes it inside (0, 1)
    printed_x_g = rp.uniqueness_up_to_permutation(CTX).result()
    assert printed_x_g.status is Status.REFUTED and "output -1" in printed_x_g.counterexample
    rec = rp.uniqueness_up_to_permutation(CTX, conclusion="G")
    res = rec.result()
    # at alpha = 1 a 1-DP x with rows (2/3, 1/3, 0, ...) meets the hypothesis and no p o x is x^G (pmf 0 everywhere)
    assert res.status is Status.REFUTED and res.counterexample.startswith("n=1 alpha=1 bounded"), res.notes
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions if d.instance.alpha != "1")
    assert rec.values["corrected_statement"].startswith("alpha in [0, 1)")
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=0, 1: n<=3"
    assert restrict("grs2009.thm6.1.corrected", rec).result().status is Status.TESTED
    assert grid_text(res.grid[str(SAMPLED)]) == f"{ALPHAS}: n<=3"
    assert _users_per_cell(rec.decided(SAMPLED))


@pytest.mark.parametrize(
    "check", [u.geometric_universal, u.remap_to_t_universal, u.geometric_minimizes_every_loss, c.main_characterization]
)
def test_universality_claims_are_verified_over_every_user_with_sampled_cross_checks(check):
    rec = check(CTX)
    res = rec.result()
    if check is u.geometric_minimizes_every_loss:  # grs2009's x^G at alpha = 1 is 0 everywhere: refuted there
        assert res.status is Status.REFUTED and res.counterexample.startswith("n=1 alpha=1 bounded"), res.notes
        assert all(d.outcome is Outcome.HOLDS for d in rec.decisions if d.instance.alpha != "1")
    else:
        assert res.status is Status.VERIFIED, (res.counterexample, res.notes)
    boundary = {u.remap_to_t_universal: ""}.get(check, ", 0, 1")
    assert grid_text(res.grid[str(BOUNDED)]) == f"{ALPHAS}{boundary}: n<=3"  # the printed boundary alpha in [0, 1]
    assert grid_text(res.grid[str(SAMPLED)]) == f"{ALPHAS}: n<=3"
    every = [d for d in rec.decided(BOUNDED) if d.instance.alpha not in ("0", "1")]
    if check is c.main_characterization:
        assert sorted(dict(d.instance.params)["part"] for d in every) == ["if"] * 12 + ["only if"] * 12
    else:
        assert len(every) == 12 and all(dict(d.instance.params)["users"] == "legal" for d in every)
        assert rec.values["users_decided"] == str(len(rec.decided(SAMPLED)))


def test_a_permuted_t_passes_both_parts_of_the_characterization():
    rec = c.Findings("grs2011.thm3.2")
    t = truncated_geometric(2, F(1, 3))
    permuted = [row[::-1] for row in t]
    assert c.decide_characterization_for_every_x(rec, 2, F(1, 3), permuted, CTX)
    assert [d.outcome for d in rec.decisions] == [Outcome.HOLDS, Outcome.HOLDS]


def test_the_only_if_part_fails_when_the_unique_optimum_cannot_reach_the_target(monkeypatch):
    monkeypatch.setattr(c, "remap_exists", lambda x, target, timeout_s: (False, None))
    rec = c.Findings("grs2011.thm3.2")
    permuted = [row[::-1] for row in truncated_geometric(2, F(1, 3))]
    assert not c.decide_characterization_for_every_x(rec, 2, F(1, 3), permuted, CTX)
    _refuted(rec, "unique optimum U", "no remap to the target")


@pytest.mark.parametrize("check", [u.geometric_universal, u.remap_to_t_universal, u.geometric_minimizes_every_loss])
def test_a_loss_that_is_not_legal_refutes_the_every_user_check(check):
    _refuted(check(CTX, users="nonnegative"), "nonnegative user", "certified optimum", "prior")


def test_universality_grid_users_are_recorded_at_n_2():
    rec = u.geometric_universal(CTX)
    at = {(d.instance.n, d.instance.alpha) for d in rec.decisions}
    n2_half = [d for d in rec.decided(SAMPLED) if d.instance.n == 2 and d.instance.alpha == "1/2"]
    n2_third = [d for d in rec.decided(SAMPLED) if d.instance.n == 2 and d.instance.alpha == "1/3"]
    assert (2, "99/100") in at and len(n2_half) > 300 > len(n2_third)  # the n=2 grid ran at 1/2 and 99/100 only


def test_lemma_5_12_is_bounded_per_n_alpha_with_sampled_gammas():
    rec = uo.unique_optimum_user(CTX)
    res = rec.result()
    assert res.status is Status.VERIFIED and res.evidence.value == "bounded"
    assert grid_text(res.grid[str(BOUNDED)]) == f"{ALPHAS}: n<=4"
    assert len(rec.decided(BOUNDED)) == 16
    gammas = {dict(d.instance.params)["gamma"] for d in rec.decided(SAMPLED)}
    assert {"0", "1/1000"} <= gammas
    assert rec.values["gamma_max[n=2,alpha=99/100]"] == "100/9701"


# ---------------------------------------------------------------- false variants


def test_lp_with_wrong_alpha_refuted():
    _refuted(
        user_lp.user_specific_lp(CTX, builder=lambda user, a: bayesian_lp(user, a * a)), "LP-feasible but not alpha-DP"
    )


def test_lp_with_a_stricter_alpha_refuted_the_other_way():
    rec = user_lp.user_specific_lp(CTX, builder=lambda user, a: bayesian_lp(user, (1 + a) / 2))
    _refuted(rec, "alpha-DP but LP-infeasible", "X = [[")


def test_lp_with_a_transposed_loss_refuted():
    def builder(user, a):
        lt = Loss.from_matrix([[user.loss(j, i) for j in range(user.n + 1)] for i in range(user.n + 1)])
        return bayesian_lp(BayesianUser.of(user.prior, lt), a)

    _refuted(user_lp.user_specific_lp(CTX, builder=builder), "coefficient of x[")


def test_map_remap_refuted():
    _refuted(bayes_remap.bayes_remap_optimal(CTX, rule=bayes_remap.map_remap), "optimal randomized remap", "prior")


def test_truncating_remap_is_not_direct():
    _refuted(
        direct_mechanisms.direct_mechanisms_suffice(CTX, remap_rule=direct_mechanisms.truncate_remap),
        "not direct",
        "prior",
    )


def test_every_optimum_a_vertex_refuted():
    _refuted(ov.optimal_vertex_exists(CTX, every_optimum=True), "is not a vertex", "prior")


def test_a_walk_that_does_not_move_is_caught():
    _refuted(ov.optimal_vertex_exists(CTX, walk=lambda lp, x: (list(x), 0)), "which is not a vertex", "prior")


def test_a_walk_that_leaves_the_optimal_face_is_caught():
    def to_t(lp, x):  # jump to the vertex T whatever the objective: feasible and a vertex, rarely optimal
        n = math.isqrt(len(x)) - 1
        alpha = -lp.rows[0].coeffs[1][1]  # row (4) i=0 j=0: x[0,0] - alpha x[1,0] >= 0
        return flat(truncated_geometric(n, alpha)), 1

    _refuted(ov.optimal_vertex_exists(CTX, walk=to_t), "the vertex reached has loss")


def test_the_walk_from_a_midpoint_of_two_optima_ends_at_an_optimal_vertex():
    user, z1, z2 = ov.two_optimal_points(2, F(1, 2))
    lp = bayesian_lp(user, F(1, 2))
    mid = [(a + b) / 2 for a, b in zip(flat(z1), flat(z2))]
    assert not is_vertex(lp, mid)
    end, steps = ov.walk_to_vertex(lp, mid)
    assert steps >= 1 and is_vertex(lp, end)
    assert objective_value(lp, end) == objective_value(lp, mid) == optimum(user, F(1, 2), 60).objective


def test_more_private_t_is_not_universal():
    mechs = lambda n, a: [("T(n, (1+alpha)/2)", truncated_geometric(n, (1 + a) / 2))]  # noqa: E731
    _refuted(u.geometric_universal(CTX, mechanisms=mechs), "certified optimum", "prior")


def test_merged_outputs_are_not_universal():
    mechs = lambda n, a: c.non_universal_mechanisms(n, a)[:1]  # noqa: E731
    _refuted(u.remap_to_t_universal(CTX, mechanisms=mechs), "merged", "prior")


def test_randomized_response_does_not_minimize_every_loss():
    mechs = lambda n, a: [("RR", rr_mechanism(n, 1 / (1 + n * a)))]  # noqa: E731
    _refuted(u.geometric_minimizes_every_loss(CTX, mechanisms=mechs), "RR", "prior")


def test_wrong_alpha_in_characterization_refuted():
    _refuted(c.main_characterization(CTX, target_alpha=lambda a: (1 + a) / 2), "certified optimum", "prior")


def test_wrong_lemma_5_12_user_refuted():
    ends = lambda n, g: BayesianUser.of([F(1, 2)] + [F(0)] * (n - 1) + [F(1, 2)], uo.gamma_user(n, g).loss)  # noqa: E731
    rec = uo.unique_optimum_user(CTX, loss_of=ends)
    _refuted(rec, "not the unique optimum", "prior")
    assert rec.result().evidence.value == "bounded"


@pytest.mark.parametrize("check", [cor34_below_one, thm61_of_g])
def test_every_deterministic_remap_claimed_universal_refuted(check):
    _refuted(check(CTX, claimed=lambda d: True), "certified optimum", "prior")


@pytest.mark.parametrize("check", [cor34_below_one, thm61_of_g])
def test_a_large_gamma_witness_leaves_the_only_if_part_open(check):
    # gamma = 10 is not "small" at alpha = 99/100: T is then not the witness user's unique optimum.
    rec = check(CTX, witness_gamma=F(10))
    assert rec.status is Status.INCONCLUSIVE and "not the unique optimum of the witness" in rec.result().notes


def test_gamma_max_is_exact_and_finite_near_alpha_one():
    lo, hi, stuck = uo.gamma_interval(2, F(99, 100), 60)
    assert hi == F(100, 9701) and lo < 0 and not stuck
    assert uo.gamma_interval(3, F(1, 2), 60)[1] is None


def test_gamma_max_closed_form_at_n_2():
    for a in (F(2, 3), F(9, 10), F(7, 10)):
        assert uo.gamma_interval(2, a, 60)[1] == (1 - a) / (a * a + a - 1)
    assert uo.gamma_interval(2, F(61, 100), 60)[1] is None  # below (sqrt 5 - 1)/2 = 0.618...
