"""The printed boundaries alpha = 0 and alpha = 1 of grs2011 Theorem 3.2, Corollary 3.3 and grs2009 Theorems 3.1, 6.1
(proofs.boundary.universality, proofs.boundary.alpha_zero): they hold for n <= 3; each helper's false variant is
refuted with an exactly re-checked witness, and a contradictory premise is reported, not used."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from proofs.boundary.alpha_zero import (
    binary_user_second_optimum,
    formula_at_zero,
    identity,
    identity_beaten,
    non_permutation_deriving_identity,
)
from proofs.boundary.universality import (
    corollary_3_3_at_boundary,
    every_one_dp_universal,
    grs2011_one_geometric,
    range_n_uniqueness_at_zero,
    theorem_3_1_at_boundary,
    theorem_3_2_at_boundary,
)
from udpm.claims.findings import Findings
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context, Status
from udpm.errors import VacuousPremise

CTX = Context(quick=True)


def test_theorem_3_2_holds_at_both_boundaries():
    rec = Findings("grs2011.thm3.2")
    theorem_3_2_at_boundary(rec, CTX)
    assert [d.outcome for d in rec.decisions] == [Outcome.HOLDS] * 12
    assert {d.instance.alpha for d in rec.decisions} == {"0", "1"}
    # only the ends are decided here: the inside of [0, 1] is the check's (proofs/universality/range_n_permutations.py)
    cov = rec.result().coverage
    assert rec.status is Status.PARTIAL and cov.undecided == ["alpha in (0, 1)"]


def test_corollary_3_3_theorem_3_1_and_6_1_hold_at_alpha_0_and_3_1_fails_at_alpha_1():
    rec = Findings("x")
    corollary_3_3_at_boundary(rec, CTX)
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions)
    assert {d.instance.alpha for d in rec.decisions} == {"0", "1"}
    rec = Findings("x")
    theorem_3_1_at_boundary(rec, CTX)
    assert {d.instance.alpha for d in rec.decisions} == {"0", "1"}
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions if d.instance.alpha == "0")
    # grs2009's x^G at alpha = 1 is the printed pmf, 0 everywhere: no mechanism (tests/test_ends_grs.py)
    assert all(d.outcome is Outcome.COUNTEREXAMPLE for d in rec.decisions if d.instance.alpha == "1")
    rec = Findings("x")
    theorem_3_1_at_boundary(rec, CTX, geometric_at_one=grs2011_one_geometric)  # grs2011's 1-geometric: holds
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions)
    rec = Findings("grs2009.thm6.1")
    range_n_uniqueness_at_zero(rec, CTX, "every range-N x")
    assert [d.outcome for d in rec.decisions] == [Outcome.HOLDS] * 3


def test_t_at_zero_is_the_identity():
    assert all(formula_at_zero(n) == identity(n) for n in (1, 2, 3))


def test_remaps_to_some_constants_only_are_beaten_at_alpha_one():
    rec = Findings("grs2011.cor3.3")
    every_one_dp_universal(rec, CTX, "false variant", targets=(1,))
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "every constant remap's" in d.detail for d in rec.decisions)


def test_a_printed_mechanism_that_is_not_one_dp_refutes():
    rec = Findings("grs2011.cor3.3")
    every_one_dp_universal(rec, CTX, "false variant", mechanisms=lambda n: [("I", identity(n))])
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "I is not 1-DP" in d.detail for d in rec.decisions)


def test_false_variants_at_alpha_zero_give_exact_witnesses():
    rec = Findings("x")
    assert identity_beaten(2, 10, rec) is None
    beaten = identity_beaten(2, 10, rec, legal=False)  # losses not monotone: I is beaten
    assert beaten and "row i answers" in beaten
    assert binary_user_second_optimum(2, 10, rec) is None
    assert "loss 0" in binary_user_second_optimum(2, 10, rec, miss=0)
    assert non_permutation_deriving_identity(2, 10, rec) is None
    constant = [[F(1), F(0), F(0)]] * 3  # every mechanism derives the constant 0: fractional ones too
    assert "X = " in non_permutation_deriving_identity(2, 10, rec, target=constant)


def test_a_contradictory_premise_is_reported_not_used():
    rec = Findings("x")
    with pytest.raises(VacuousPremise):
        identity_beaten(1, 10, rec, extra=lambda v, c: [c[0] < 0, c[0] > 0])
    with pytest.raises(VacuousPremise):
        binary_user_second_optimum(1, 10, rec, extra=lambda z: [z[0][0] > 1])
    with pytest.raises(VacuousPremise):
        non_permutation_deriving_identity(1, 10, rec, extra=lambda x, d: [d[0] > 5])
