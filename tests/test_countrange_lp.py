"""zlcn2013 legal-function LP claims: real statuses and refuted false variants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs import countrange_lp as cr
from udpm.claims import Context, Status
from udpm.errors import InvalidInput
from udpm.programs_countrange import legal_function_lp, psi1, psi2
from udpm.users import CountRangeConsumer

CTX = Context()


def test_def2_region_and_dropped_constraints():
    assert cr.legal_region(CTX).status is Status.VERIFIED
    for drop in ("1-phi", "phi"):
        bad = cr.legal_region(CTX, drop=drop)
        assert bad.status is Status.REFUTED and "legal by Definition 2" in bad.counterexample


def test_thm1_and_flipped_condition_5():
    assert cr.min_of_recurrences(CTX).status is Status.TESTED
    bad = cr.min_of_recurrences(CTX, flip5=True)
    assert bad.status is Status.REFUTED and "LP optimum" in bad.counterexample


def test_twovar_and_psi1_alone():
    assert cr.two_variables(CTX).status is Status.TESTED
    bad = cr.two_variables(CTX, use_psi2=False)
    assert bad.status is Status.REFUTED and "two-variable minimum" in bad.counterexample


def test_thm5_and_the_wrong_recurrence():
    assert cr.threshold_recurrence(CTX).status is Status.TESTED
    bad = cr.threshold_recurrence(CTX, swap=True)
    assert bad.status is Status.REFUTED and "recurrence" in bad.counterexample


def test_xhat_yhat_unique_and_swapped():
    assert cr.x_hat_unique(CTX).status is Status.VERIFIED
    assert cr.y_hat_unique(CTX).status is Status.VERIFIED
    assert cr.x_hat_unique(CTX, vector=cr.y_hat).status is Status.REFUTED
    bad = cr.y_hat_unique(CTX, rho_of=cr.uniform_rho)
    assert bad.status is Status.REFUTED and "not optimal" in bad.counterexample


def test_thm4_worst_ratio_below_two_but_above_one():
    res = cr.two_approximation(CTX)
    assert res.status is Status.VERIFIED and Fraction(res.values["worst_ratio"]) < 2
    bad = cr.two_approximation(CTX, factor=1)
    assert bad.status is Status.REFUTED and "> 1" in bad.counterexample


def test_oblivious_refuted_at_n1_and_corrected_for_n_ge_2():
    res = cr.oblivious_step(CTX)
    assert res.status is Status.REFUTED and "n=1" in res.counterexample
    assert cr.oblivious_step(CTX, n_min=2).status is Status.VERIFIED


def test_recurrences_and_lp_basics():
    assert psi2(Fraction(2, 3), 3, 2) == [1 - v for v in psi1(Fraction(1, 3), 3, 2)]
    c = CountRangeConsumer.of([1] * 4, [Fraction(1, 4)] * 4, 1, 2)
    assert legal_function_lp(c, 2).error(cr.x_hat(Fraction(2))) == Fraction(1, 3)
    with pytest.raises(InvalidInput):
        legal_function_lp(c, Fraction(1, 2))  # zlcn2013's alpha must exceed 1
    with pytest.raises(InvalidInput):
        psi1(Fraction(3, 2), 3, 2)
