"""gs2010 Theorem 2, Lemma 3, Algorithm 1, Lemma 4: real statements pass, false variants are refuted."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from proofs import derivability as dv
from udpm.claims import Context, Status, run_claim
from udpm.errors import SolverTimeout

CTX = Context(quick=True)


def test_thm2_proved():
    r = dv.derivable_iff_three_term(CTX)
    assert r.status is Status.PROVED
    assert "false" in r.values["without the DP hypothesis"]


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


def test_thm2_forced_timeout_is_inconclusive(monkeypatch):
    def no_answer(*_args, **_kw):
        raise SolverTimeout("forced")

    monkeypatch.setattr(dv, "decide", no_answer)
    result, _ = run_claim("gs2010.thm2", CTX)
    assert result.status is Status.INCONCLUSIVE


def test_lemma3_proved_with_strictness_erratum():
    r = dv.adding_privacy(CTX)
    assert r.status is Status.PROVED and r.errata[0].cls == "typo"


def test_lemma3_flipped_order_refuted():
    r = dv.adding_privacy(CTX, pairs=[(F(1, 2), F(1, 3))])
    assert r.status is Status.REFUTED and "< 0" in r.counterexample


def test_lemma3_wrong_case2_bound_refuted():
    r = dv.adding_privacy(CTX, case2_bound=lambda al, be: (1 + al) ** 2)
    assert r.status is Status.REFUTED and "is not > 0" in r.counterexample


def test_alg1_proved_with_loop_erratum():
    r = dv.multi_level_release(CTX)
    assert r.status is Status.PROVED and "alpha_{k+1}" in r.errata[0].explanation


def test_alg1_decreasing_alphas_refuted():
    r = dv.multi_level_release(CTX, order=lambda c: sorted(c, reverse=True))
    assert r.status is Status.REFUTED and "not a mechanism" in r.counterexample


def test_alg1_repeated_perturbation_refuted():
    r = dv.multi_level_release(CTX, stages=lambda n, al: [dv.truncated_geometric(n, x) for x in al])
    assert r.status is Status.REFUTED and "Pr[r_2" in r.counterexample


def test_lemma4_verified():
    assert dv.collusion_resistance(CTX).status is Status.VERIFIED


def test_lemma4_max_level_refuted():
    r = dv.collusion_resistance(CTX, level=max)
    assert r.status is Status.REFUTED and "ratio" in r.counterexample
