"""The printed ends alpha in {0, 1}: gs2010 Definition 1 and Definition 4 are refuted at alpha = 1 as printed (the pmf
is 0 everywhere), hold at alpha = 0; grs2011 Example 2.1's 0- and 1-geometric mechanisms are built and decided;
gs2010 Lemma 5 holds at both ends for every n.  False variants through each check's own parameters are refuted."""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from proofs.boundary.geometric import END_MECHANISMS, built, definition4, one_geometric, zero_geometric
from proofs.geometric import case_split as cs
from proofs.geometric import range_restricted, two_sided
from proofs.minimax import lemma5_ends
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Status

CTX = Context(quick=True)


def _at(rec, alpha, kind=None):
    return [d for d in rec.decisions if d.instance.alpha == alpha and (kind is None or d.instance.kind is kind)]


def test_definition1_is_refuted_at_alpha_one_and_holds_at_zero():
    rec = two_sided.geometric_is_distribution_and_private(CTX)
    (one,) = _at(rec, "1")
    assert one.instance.kind is ALL_N and one.outcome is Outcome.COUNTEREXAMPLE and "sums to 0 over Z" in one.detail
    assert [d.outcome for d in _at(rec, "0")] == [Outcome.HOLDS]
    assert rec.status is Status.REFUTED


def test_definition1_wrong_constant_is_refuted_at_alpha_zero():
    rec = two_sided.geometric_is_distribution_and_private(
        CTX, pmf=lambda d: (1 - cs.a) / (2 + cs.a) * cs.a ** sp.Abs(d)
    )
    (zero,) = _at(rec, "0")
    assert zero.outcome is Outcome.COUNTEREXAMPLE and "sums to 1/2" in zero.detail


def test_definition4_is_refuted_at_alpha_one_and_a_wrong_g_at_zero():
    rec = range_restricted.range_restricted_equivalent_to_geometric(CTX)
    (one,) = _at(rec, "1")
    assert one.outcome is Outcome.COUNTEREXAMPLE and "do not derive each other" in one.detail
    assert {d.outcome for d in _at(rec, "0")} == {Outcome.HOLDS}
    rec = range_restricted.range_restricted_equivalent_to_geometric(CTX, g_at_end=lambda m, a: definition4(m, F(1, 2)))
    assert all(d.outcome is Outcome.COUNTEREXAMPLE for d in _at(rec, "0"))


def test_definition4_at_one_decides_only_the_printed_zero_pmf():
    point_mass = lambda d: sp.Piecewise((1, sp.Eq(d, 0)), (0, True))  # noqa: E731  not Definition 1
    rec = range_restricted.range_restricted_equivalent_to_geometric(CTX, pmf=point_mass)
    assert [d.outcome for d in _at(rec, "1")] == [Outcome.INCONCLUSIVE]


def test_example_2_1_builds_the_end_mechanisms():
    window = range(-3, 5)
    assert built(zero_geometric, 1, window)[1] == [F(int(r == 1)) for r in window]
    assert all(row == built(one_geometric, 1, window)[0] for row in built(one_geometric, 1, window))
    rec = two_sided.geometric_is_private(CTX)
    ends = _at(rec, "0") + _at(rec, "1")
    assert {d.outcome for d in ends} == {Outcome.HOLDS} and {d.instance.kind for d in ends} == {ALL_N, BOUNDED}
    assert rec.status is Status.PROVED
    swapped = {F(1): zero_geometric, F(0): one_geometric}  # the identity claimed 1-DP
    rec = two_sided.geometric_is_private(CTX, ends=swapped)
    assert rec.status is Status.REFUTED and all(d.outcome is Outcome.COUNTEREXAMPLE for d in _at(rec, "1"))
    (one,) = _at(rec, "1", ALL_N)
    assert "ratio outside [1, 1/1]" in one.detail
    assert set(END_MECHANISMS) == {F(0), F(1)}


def test_example_2_1_a_mechanism_that_is_no_distribution_is_refuted():
    double = lambda i, r: 2 * zero_geometric(i, r)  # noqa: E731
    rec = two_sided.geometric_is_private(CTX, ends={F(0): double})
    (zero,) = _at(rec, "0", ALL_N)
    assert zero.outcome is Outcome.COUNTEREXAMPLE and "sums to 2" in zero.detail


def test_lemma5_at_the_ends_and_the_flipped_pattern():
    rec = Findings("gs2010.lemma5")
    lemma5_ends.lemma5_end_all_n(rec)
    lemma5_ends.lemma5_at_ends(rec)
    assert {d.outcome for d in rec.decisions} == {Outcome.HOLDS}
    assert {d.instance.alpha for d in rec.decided(ALL_N)} == {"0", "1"}
    rec = Findings("gs2010.lemma5")
    lemma5_ends.lemma5_end_all_n(rec, flip=True)
    (zero,) = _at(rec, "0")
    assert zero.outcome is Outcome.COUNTEREXAMPLE and "j = i, j = i+1" in zero.detail and "at n = 3" in zero.detail
