"""proofs/universality/converse.py: the converse of grs2011 Lemma 5.10 is decided for every candidate, and a wrong
claimed set is
refuted with a concrete candidate and, where it is a unique optimum, its certified user."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import z3

from proofs.universality import converse as c
from udpm.auditing.every_user import user_of
from udpm.claims.evidence import Status, grid_text
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import VacuousPremise
from udpm.smt.solvers import premise_witness

CTX = Context()
HALF = F(1, 2)


def test_the_unique_optima_are_exactly_the_nondecreasing_remaps():
    rec = c.unique_optima_among_remaps(CTX)
    res = rec.result()
    assert res.status is Status.VERIFIED, res.counterexample
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/3, 9/10: n<=3; 1/2: n<=4"
    assert res.values["unique_optima[n=4,alpha=1/2]"] == "126"
    assert res.values["unique_optima[n=3,alpha=9/10]"] == "35"
    assert res.values["vertices[n=4,alpha=1/2]"] == "1045"


def test_claiming_only_the_identity_is_refuted_with_a_certified_user():
    rec = c.unique_optima_among_remaps(CTX, claimed=lambda d: d == tuple(range(len(d))))
    assert rec.status is Status.REFUTED
    assert "is the unique optimum of the user W =" in rec.counterexample


def test_claiming_every_vertex_is_refuted_with_a_vertex_no_user_singles_out():
    rec = c.unique_optima_among_remaps(CTX, claimed=lambda d: True)
    assert rec.status is Status.REFUTED and "the unique optimum of no user" in rec.counterexample


def test_reversed_t_is_a_vertex_but_no_strictly_legal_users_unique_optimum():
    t = truncated_geometric(2, HALF)
    rev = [row[::-1] for row in t]
    assert c.is_vertex(rev, HALF) and c.unique_optimum_user(rev, HALF, 30) is None


def test_t_is_the_unique_optimum_of_a_user_whose_certificate_checks_exactly():
    t = truncated_geometric(3, HALF)
    w = c.unique_optimum_user(t, HALF, 30, cross_check=True)
    assert c.in_strictly_legal(w) and all(p > 0 for p in user_of(w).prior)


def test_a_mirrored_candidate_gets_the_mirrored_user():
    t = truncated_geometric(3, HALF)
    shifted = [[row[0] + row[1], row[2], row[3], F(0)] for row in t]  # D = (0, 0, 1, 2), nondecreasing
    w = c.unique_optimum_user(shifted, HALF, 30)
    mirror = [list(r) for r in c.reflected(shifted)]
    assert w is not None and c.unique_optimum_user(mirror, HALF, 30) is not None
    assert c.in_strictly_legal([list(r) for r in c.reflected(w)])


def test_a_mixture_is_not_a_vertex():
    t = truncated_geometric(2, HALF)
    mid = [[(u + v) / 2 for u, v in zip(r1, r1[::-1])] for r1 in t]
    assert not c.is_vertex(mid, HALF)


def test_dominance_is_by_tails():
    t = truncated_geometric(2, HALF)
    everything_to_0 = [[F(1), F(0), F(0)] for _ in range(3)]
    assert c.dominates(t, t) and not c.dominates(everything_to_0, t)


def test_the_strictly_legal_premise_has_a_witness_and_a_contradiction_is_caught():
    w = c._weights(3)
    premise_witness(c.strictly_legal(w), 10, "strictly legal")
    with pytest.raises(VacuousPremise):
        premise_witness([*c.strictly_legal(w), w[0][1] <= w[0][0]], 10, "not strictly legal")


@pytest.mark.parametrize(
    ("values", "legal"),
    [
        ([[0, 1, 2], [1, 0, 1], [2, 1, 0]], True),
        ([[0, 1, 1], [1, 0, 1], [2, 1, 0]], False),  # not strict
        ([[0, 1, 2], [1, 0, 2], [2, 1, 0]], False),  # not symmetric
    ],
)
def test_exact_membership_agrees_with_the_smt_cone(values, legal):
    w = c._weights(3)
    s = z3.Solver()
    s.add(c.strictly_legal(w))
    s.add([w[i][r] == values[i][r] for i in range(3) for r in range(3)])
    assert (s.check() == z3.sat) == legal == c.in_strictly_legal([[F(v) for v in row] for row in values])
