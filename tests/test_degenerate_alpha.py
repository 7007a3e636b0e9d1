"""grs2011 Corollary 3.4 at its printed boundary alpha = 1 (proofs.boundary.alpha_one): refuted with a concrete
mechanism; candidates that are pi o T, that are not mechanisms, or whose remaps are restricted do not refute."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from proofs.boundary.alpha_one import (
    READINGS,
    beating_user,
    constant_rows,
    decide_alpha_one,
    is_one_dp,
    permuted_forms,
    truncated_geometric_at_one,
)
from proofs.universality import range_n_permutations
from udpm.claims.findings import Findings
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context, Status
from udpm.errors import VacuousPremise

CTX = Context(quick=True)


def test_corollary_3_4_is_refuted_at_alpha_one_with_a_concrete_mechanism():
    rec = range_n_permutations.permutations_of_t(CTX)
    assert rec.status is Status.REFUTED
    at_one = [d for d in rec.decisions if d.instance.alpha == "1"]
    assert [d.outcome for d in at_one] == [Outcome.COUNTEREXAMPLE] * 3
    assert "n = 1, X = [[2/3, 1/3], [2/3, 1/3]]" in at_one[0].detail and "not pi o T" in at_one[0].detail
    below_one = [d for d in rec.decisions if d.instance.alpha != "1"]
    assert below_one and all(d.outcome is not Outcome.COUNTEREXAMPLE for d in below_one)


@pytest.mark.parametrize(
    ("candidate", "why"),
    [
        ((F(1),), "is pi o T(n, 1) under Example 2.1"),  # the constant-0 mechanism is T itself
        ((F(1, 2), F(1, 2)), "is pi o T(n, 1) under Example 2.2"),  # n = 1: the formula's rows (1/2, 1/2)
        ((F(2, 3), F(2, 3)), "is not a 1-DP mechanism"),  # rows do not sum to 1
    ],
)
def test_a_candidate_that_is_no_counterexample_leaves_the_instance_inconclusive(candidate, why):
    rec = Findings("grs2011.cor3.4")
    decide_alpha_one(rec, CTX, candidate, 1)
    (d,) = rec.decisions
    assert d.outcome is Outcome.INCONCLUSIVE and why in d.detail


def test_remaps_restricted_to_some_results_are_beaten_by_a_user():
    rec = Findings("grs2011.cor3.4")
    decide_alpha_one(rec, CTX, (F(2, 3), F(1, 3)), 1, targets=(1,))  # result 0 is never a target
    assert all(d.outcome is Outcome.INCONCLUSIVE and "user weights w = " in d.detail for d in rec.decisions)


def test_a_contradictory_premise_is_reported_not_used():
    rec = Findings("grs2011.cor3.4")
    with pytest.raises(VacuousPremise):
        beating_user(constant_rows([F(1), F(0)]), (0, 1), 10, rec, extra=lambda w, q: [q[0] < 0, q[0] > 0])


def test_both_readings_of_t_at_alpha_one_are_one_dp_and_distinct():
    for n in (1, 2, 3):
        a, b = (truncated_geometric_at_one(n, r) for r in READINGS)
        assert is_one_dp(a) and is_one_dp(b) and a != b
        distinct = {tuple(map(tuple, m)) for m in permuted_forms(a)}  # the constant mechanisms e_j, j in N
        assert len(distinct) == n + 1 and all(is_one_dp([list(r) for r in m]) for m in distinct)


def test_constant_remaps_attain_every_deterministic_one_dp_mechanism():
    from proofs.boundary.alpha_one import constant_beaten

    rec = Findings("grs2011.thm3.2")
    assert all(constant_beaten(n, range(n + 1), 10, rec) is None for n in (1, 2, 3))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_constant_beaten_fails_without_the_privacy_constraint_or_with_a_missing_target(n):
    from proofs.boundary.alpha_one import constant_beaten

    rec = Findings("grs2011.thm3.2")
    unprivate = constant_beaten(n, range(n + 1), 10, rec, one_dp=False)
    assert unprivate is not None and "(not 1-DP)" in unprivate
    missing = constant_beaten(n, range(1, n + 1), 10, rec)  # no remap to result 0
    assert missing is not None and "(1-DP)" in missing


def test_alpha_one_instances_of_theorem_3_2_are_refuted_when_a_result_is_never_a_target():
    from proofs.boundary.universality import every_one_dp_universal

    rec = Findings("grs2011.thm3.2")
    every_one_dp_universal(rec, CTX, "every 1-DP X", targets=(1,), part="if")
    assert [d.outcome for d in rec.decisions] == [Outcome.COUNTEREXAMPLE] * 3
    assert all("beats the remaps to constants" in d.detail for d in rec.decisions)
