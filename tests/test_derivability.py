"""gs2010 Theorem 2, Lemma 3 (proofs/derivation/derivability.py), Algorithm 1, Lemma 4 (proofs/release/multilevel.py):
real
statements pass, false variants are refuted."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import z3

from proofs.derivation import derivability as dv
from proofs.release import multilevel as ml
from udpm.claims.evidence import grid_text
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Status, run_claim
from udpm.errors import SolverTimeout, VacuousPremise

CTX = Context(quick=True)


def test_thm2_verified_with_grid():
    # all-n inside (0, 1); the printed ends 0 and 1 are decided for n <= 3 only, so the claim is as strong as them
    r = dv.derivable_iff_three_term(CTX)
    assert r.status is Status.VERIFIED
    assert "false" in r.values["without the DP hypothesis"]
    assert grid_text(r.result().grid[str(BOUNDED)]) == "alpha=1/2, 1/3, 9/10, 1/100: n<=4; 0, 1: n<=3"


@pytest.mark.parametrize(
    "condition",
    [
        lambda x1, x2, x3, a: -dv.three_term(x1, x2, x3, a),  # flipped inequality
        lambda x1, x2, x3, a: (1 + a) * x2 - a * (x1 + x3),  # wrong coefficient (1+a instead of 1+a^2)
    ],
)
def test_thm2_false_condition_refuted(condition):
    r = dv.derivable_iff_three_term(CTX, condition=condition)
    assert r.status is Status.REFUTED and "M = [[" in r.counterexample


def test_thm2_dropped_dp_hypothesis_refuted():
    r = dv.derivable_iff_three_term(CTX, require_dp=False)
    assert r.status is Status.REFUTED and "not derivable" in r.counterexample


def test_thm2_contradictory_condition_is_vacuous(monkeypatch):
    """A stated condition no column satisfies makes one direction's premises empty: it proves nothing.  The
    other direction refutes it; were that direction silent too, the vacuous premise is raised, never a pass."""
    cex = dv.theorem2_counterexample(2, F(1, 2), lambda *_: -1, True, 5)
    assert cex and "is derivable but violates the stated condition" in cex
    real = dv.decide
    monkeypatch.setattr(dv, "decide", lambda q, t: real([*q, z3.BoolVal(False)], t))  # no counterexample anywhere
    with pytest.raises(VacuousPremise):
        dv.theorem2_counterexample(2, F(1, 2), lambda *_: -1, True, 5)


def test_thm2_forced_timeout_is_inconclusive(monkeypatch):
    def no_answer(*_args, **_kw):
        raise SolverTimeout("forced")

    monkeypatch.setattr(dv, "decide", no_answer)
    monkeypatch.setattr(dv, "premise_witness", lambda *_a, **_k: {})
    result, _ = run_claim("gs2010.thm2", CTX)
    assert result.status is Status.INCONCLUSIVE


def test_lemma3_verified_with_strictness_erratum_and_grid():
    r = dv.adding_privacy(CTX)  # all-n inside the printed [0, 1], its ends for bounded n
    assert r.status is Status.VERIFIED and r.errata[0].cls == "typo"
    assert len(r.decided(ALL_N)) == 7  # six factorised cases + the printed case-2 bound, all alpha <= beta
    bounded = r.decided(BOUNDED)
    assert len(bounded) == 6 * 28 + 3 * 5 and {d.instance.n for d in bounded} == set(range(1, 7))
    assert r.values["premise witness"]


def test_lemma3_flipped_order_refuted():
    r = dv.adding_privacy(CTX, pairs=[(F(1, 2), F(1, 3))])
    assert r.status is Status.REFUTED and "< 0" in r.counterexample


def test_lemma3_wrong_case2_bound_refuted():
    r = dv.adding_privacy(CTX, case2_bound=lambda al, be: (1 + al) ** 2)
    assert r.status is Status.REFUTED and "<= 0" in r.counterexample and "alpha=" in r.counterexample


def test_lemma3_case2_bound_failing_off_any_grid_refuted():
    """A bound with 1 + a^2 - 2ab - bound = 2a(1-b)(b - 199/200)^2: > 0 on the old 7x7 grid, 0 at beta = 199/200."""
    r = dv.adding_privacy(
        CTX, case2_bound=lambda al, be: 1 + al**2 - 2 * al * be - 2 * al * (1 - be) * (be - F(199, 200)) ** 2
    )
    assert r.status is Status.REFUTED and "beta=199/200" in r.counterexample and "case 2" in r.counterexample


def test_lemma3_without_the_order_hypothesis_refuted():
    def unordered(env):
        return [env[dv.a] > 0, env[dv.b] > 0, env[dv.b] < 1, env[dv.W] > 0, env[dv.W] <= 1]  # alpha <= beta dropped

    r = dv.adding_privacy(CTX, pairs=[], premises=unordered)
    assert r.status is Status.REFUTED and "< 0 at" in r.counterexample


def test_lemma3_contradictory_premise_is_vacuous():
    with pytest.raises(VacuousPremise):
        dv.adding_privacy(CTX, premises=lambda env: [env[dv.a] > env[dv.b], env[dv.b] > env[dv.a]])


def test_alg1_verified_with_loop_erratum_and_grid():
    r = ml.multi_level_release(CTX)
    assert r.status is Status.VERIFIED and "alpha_{k+1}" in r.errata[0].explanation
    assert not r.decided(ALL_N)
    ns: dict[str, list[int]] = {}
    for d in r.decided(BOUNDED):
        ns.setdefault(d.instance.alpha, []).append(d.instance.n)
    assert ns["chain 1/4<1/2"] == [1, 2, 3, 4] and ns["symbolic alphas a1, a2, a3"] == [1, 2]


def test_alg1_decreasing_alphas_refuted():
    r = ml.multi_level_release(CTX, order=lambda c: sorted(c, reverse=True))
    assert r.status is Status.REFUTED and "not a mechanism" in r.counterexample


def test_alg1_repeated_perturbation_refuted():
    r = ml.multi_level_release(CTX, stages=lambda n, al: [ml.truncated_geometric(n, x) for x in al])
    assert r.status is Status.REFUTED and "Lemma 3's T" in r.counterexample


def test_alg1_stage_not_lemma3_refuted():
    """A stage that is stochastic and keeps every marginal for n <= 2 but is not Lemma 3's T from n = 3 on."""

    def late(n, alphas):
        ts = ml.algorithm1_stages(n, alphas)
        if n >= 3:
            ts[1] = [[F(int(i == j)) for j in range(n + 1)] for i in range(n + 1)]  # the identity remap
        return ts

    r = ml.multi_level_release(CTX, stages=late)
    assert r.status is Status.REFUTED and "n=3" in r.counterexample and "Lemma 3's T" in r.counterexample


def test_lemma4_verified_with_grid():
    r = ml.collusion_resistance(CTX)
    assert r.status is Status.VERIFIED
    coalitions = {(d.instance.n, d.instance.alpha, dict(d.instance.params)["coalition"]) for d in r.decisions}
    assert (3, "chain 1/3<1/2<2/3", "1,2,3") in coalitions and len(coalitions) == 3 * (3 + 7 + 7 + 3) + 3 * 16
    assert (3, "chain 0<1/2<1", "3") in coalitions  # the printed boundary: chains starting at 0 or ending at 1


def test_lemma4_max_level_refuted():
    r = ml.collusion_resistance(CTX, level=max)
    assert r.status is Status.REFUTED and "ratio" in r.counterexample
