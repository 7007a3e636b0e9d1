"""gs2010 Lemmas 1-3 and Theorem 2 at the printed boundary alpha in {0, 1} (proofs.boundary.derivation): Lemma 1 and
Lemma 2 fail at alpha = 1 with exact witnesses, Theorem 2 and Lemma 3 hold; false variants are refuted."""

from __future__ import annotations

from fractions import Fraction as F

from proofs.boundary.derivation import (
    every_consumer_at_boundary,
    lemma1_at_boundary,
    lemma2_at_boundary,
    lemma3_at_boundary,
    theorem2_at_boundary,
)
from proofs.boundary.geometric import (
    definition4,
    definition4_at_zero,
    end_mechanisms_private,
    in_band,
    point_mass_pmf_at_zero,
    post_processing_at_zero,
    zero_geometric,
)
from proofs.derivation.column_replacement import lemma2_functional
from proofs.derivation.derivability import three_term
from proofs.geometric import post_processing_example
from udpm.claims.findings import Findings
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context
from udpm.core import linalg


def _outcomes(rec):
    return {(d.instance.n, d.instance.alpha): d.outcome for d in rec.decisions}


def test_definition4_at_the_ends():
    assert definition4(3, F(0)) == linalg.identity(3)
    assert all(row == [F(1, 2), 0, 0, F(1, 2)] for row in definition4(4, F(1)))


def test_lemma1_fails_exactly_at_alpha_one():
    rec = Findings("gs2010.lemma1")
    lemma1_at_boundary(rec)
    assert {k for k, v in _outcomes(rec).items() if v is Outcome.COUNTEREXAMPLE} == {(2, "1"), (3, "1"), (4, "1")}


def test_lemma2_fails_at_alpha_one_from_size_three_and_a_false_functional_fails_at_zero():
    rec = Findings("gs2010.lemma2")
    lemma2_at_boundary(rec, lemma2_functional)
    assert {k for k, v in _outcomes(rec).items() if v is Outcome.COUNTEREXAMPLE} == {(3, "1"), (4, "1")}
    rec = Findings("gs2010.lemma2")
    lemma2_at_boundary(rec, lambda kind: (1, -1, 1))  # x_i - (x_(i-1) + x_(i+1)) signs: wrong at alpha = 0
    bad = [d for d in rec.decisions if d.instance.alpha == "0" and d.outcome is Outcome.COUNTEREXAMPLE]
    assert bad and "x = (" in bad[0].detail


def test_theorem2_holds_at_both_ends_and_a_false_condition_fails():
    rec = Findings("gs2010.thm2")
    theorem2_at_boundary(rec, three_term)
    assert set(_outcomes(rec).values()) == {Outcome.HOLDS} and len(rec.decisions) == 6
    rec = Findings("gs2010.thm2")
    theorem2_at_boundary(rec, lambda x1, x2, x3, a: x2 - 2 * x1)  # not implied by alpha-DP at alpha = 0
    assert any(d.outcome is Outcome.COUNTEREXAMPLE and "can be < 0" in d.detail for d in rec.decisions)


def test_lemma3_holds_at_the_boundary_pairs_and_a_reversed_pair_fails():
    rec = Findings("gs2010.lemma3")
    lemma3_at_boundary(rec, [(F(0), F(1)), (F(1), F(1))])
    assert set(_outcomes(rec).values()) == {Outcome.HOLDS}
    rec = Findings("gs2010.lemma3")
    lemma3_at_boundary(rec, [(F(1, 2), F(0))])  # beta < alpha: T = G_(1/2)^-1 has negative entries
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "not a stochastic" in d.detail for d in rec.decisions)


def test_the_ratio_band_reads_zero_over_zero_as_one_and_x_over_zero_as_infinity():
    assert in_band(F(0), F(0), F(1)) and in_band(F(1), F(0), F(0)) and in_band(F(0), F(1), F(0))
    assert not in_band(F(1), F(0), F(1, 2)) and not in_band(F(0), F(1), F(1))


def test_the_point_mass_mechanisms_are_private_at_their_level_only():
    rec = Findings("grs2011.ex2.1")
    end_mechanisms_private(rec)
    point_mass_pmf_at_zero(rec)
    definition4_at_zero(rec)
    assert {d.outcome for d in rec.decisions} == {Outcome.HOLDS}
    rec = Findings("grs2011.ex2.1")
    end_mechanisms_private(rec, {F(1): zero_geometric}, sizes=(1,))  # the identity claimed 1-DP: a false variant
    assert [d.outcome for d in rec.decisions] == [Outcome.COUNTEREXAMPLE] * 2
    assert all("ratio outside [1, 1/1]" in d.detail for d in rec.decisions)


def test_grs2009_example_2_2_at_alpha_zero_and_a_false_formula():
    rec = Findings("grs2009.ex2.2")
    check = post_processing_example.post_processing_grs2009(Context(quick=True))
    assert [d.outcome for d in check.decisions if d.instance.alpha == "0"] == [Outcome.HOLDS] * 2
    post_processing_at_zero(rec, lambda al, n: 1 - al, lambda al, n: al, lambda n: (F(0), F(0)))  # 1 at alpha = 0
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "stated (1, 0)" in d.detail for d in rec.decisions)


def test_every_consumer_at_the_ends_and_a_wrong_deployed_mechanism():
    rec = Findings("gs2010.thm1")
    every_consumer_at_boundary(rec)
    assert [d.outcome for d in rec.decisions] == [Outcome.HOLDS] * 6
    rec = Findings("gs2010.thm1")
    every_consumer_at_boundary(rec, deployed=lambda n, a: definition4(n + 1, F(1, 2)))  # G_(1/2) deployed instead
    at_zero = [d for d in rec.decisions if d.instance.alpha == "0"]  # at 1 any mechanism derives the equal-row M
    assert at_zero and all(d.outcome is Outcome.COUNTEREXAMPLE and "does not derive" in d.detail for d in at_zero)
