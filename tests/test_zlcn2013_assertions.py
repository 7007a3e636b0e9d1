"""zlcn2013's printed assertions outside the numbered results (proofs/assertions/zlcn2013/): each check decides
the sentence as printed, and a changed statement (a constant, a bound, a range, a condition) is refuted."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from proofs.assertions.zlcn2013.common import A
from proofs.assertions.zlcn2013.lemma2_theorem3_proofs import lemma2_steps, thm3_steps
from proofs.assertions.zlcn2013.section3_1 import unique_k
from proofs.assertions.zlcn2013.section3_2 import derived_is_private, deterministic, one_randomization, switch_point
from proofs.assertions.zlcn2013.section3_4 import mode_and_decay
from proofs.assertions.zlcn2013.section4 import m_invertible, step_function_legal
from udpm.claims.evidence import Status
from udpm.claims.registry import Context


def status(rec):
    return rec.result().status


@pytest.fixture(scope="module")
def ctx():
    return Context()


def test_unique_k_fails_as_printed_and_existence_holds(ctx):
    rec = unique_k(ctx)
    assert status(rec) is Status.REFUTED
    assert "k = none among k = 1..0" in rec.result().counterexample  # n = 1: no integer between 1 and 0
    assert any("k = [1, 2]" in (d.detail or "") for d in rec.decisions)  # n >= 3: a shared end lies in two intervals
    assert status(unique_k(ctx, unique=False, n_min=2)) is Status.VERIFIED
    assert status(unique_k(ctx, unique=False, n_min=2, k_top=lambda n: n - 2)) is Status.REFUTED


def test_one_randomization_serves_two_different_consumers(ctx):
    rec = one_randomization(ctx)
    assert status(rec) is Status.REFUTED
    # consumers whose optima differ are no counterexample
    assert status(one_randomization(ctx, rho2=(F(1, 10), F(1, 10), F(1, 10), F(7, 10)))) is not Status.REFUTED


def test_derived_mechanism_is_private_and_a_smaller_factor_is_refuted(ctx):
    assert status(derived_is_private(ctx)) is Status.VERIFIED
    assert status(derived_is_private(ctx, factor=lambda a: (a + 1) / 2)) is Status.REFUTED


def test_switch_point_gamma_and_a_shifted_range_is_refuted(ctx):
    assert status(switch_point(ctx, n_max=2)) is Status.VERIFIED
    assert status(switch_point(ctx, gammas=lambda t1, t2: range(t1 + 1, t2 + 1), n_max=2)) is Status.REFUTED


def test_deterministic_algorithms_constant_ones_are_private(ctx):
    rec = deterministic(ctx)
    assert status(rec) is Status.REFUTED and "[0, 0]" in rec.result().counterexample
    assert status(deterministic(ctx, min_outputs=2)) is Status.VERIFIED


def test_lemma2_steps_and_a_wrong_sum(ctx):
    assert status(lemma2_steps(ctx)) is Status.PROVED
    assert status(lemma2_steps(ctx, printed_sum=A / (A + 1) ** 2)) is Status.REFUTED


def test_thm3_steps_and_a_wrong_bound(ctx):
    assert status(thm3_steps(ctx)) is Status.PROVED
    assert status(thm3_steps(ctx, high=1 / (A * (A + 1)))) is Status.REFUTED


def test_intuition_fails_below_alpha_two_and_holds_above(ctx):
    rec = mode_and_decay(ctx)
    assert status(rec) is Status.REFUTED and "zlcn alpha = 3/2" in rec.result().counterexample
    assert status(mode_and_decay(ctx, alphas=(F(3), F(10)))) is Status.VERIFIED
    assert status(mode_and_decay(ctx, alphas=(F(3),), shift=1)) is Status.REFUTED


def test_m_invertible_and_a_zero_boundary_is_singular(ctx):
    assert status(m_invertible(ctx, n_max=4)) is Status.VERIFIED
    assert status(m_invertible(ctx, boundary=0, n_max=2)) is Status.REFUTED


def test_step_function_legal_and_a_dropped_condition(ctx):
    assert status(step_function_legal(ctx)) is Status.VERIFIED
    assert status(step_function_legal(ctx, drop="complement")) is Status.REFUTED
