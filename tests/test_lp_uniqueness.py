"""Uniqueness of a certified optimum is decided without the exact simplex where a cheap exact argument
suffices: a second optimum along an unblocked edge of the optimal basis, or, when the optimal-face LP is
unbounded, an exact ray checked from HiGHS's basis (regression: the face LP of a grs2011 (9) LP fell to the
exact two-phase simplex from scratch, 0.3 s -> 49 s)."""

from fractions import Fraction as F

import pytest

from udpm.errors import CertificationFailed
from udpm.lp import certify, exact_simplex
from udpm.lp.certify import solve, standard_form
from udpm.lp.exact_lp import Unbounded, _Clock
from udpm.lp.programs import Constraint, LinearProgram


def C(coeffs, sense, rhs):
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs))


def _no_exact_simplex(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the exact simplex was run")

    monkeypatch.setattr(certify, "_simplex", refuse)
    monkeypatch.setattr(certify, "_two_phase", refuse)
    monkeypatch.setattr(exact_simplex, "_simplex", refuse)


def test_degenerate_vertex_with_an_unbounded_optimal_face_is_decided_by_an_exact_ray(monkeypatch):
    # min y s.t. x - w <= 0, w - x <= 0: every (t, 0, t) is optimal.  At the vertex 0 with both slacks basic
    # (both 0) each free column's edge is blocked, so the optimal-face LP decides; it is unbounded.
    lp = LinearProgram(("x", "y", "w"), ((1, F(1)),), (C([(0, 1), (2, -1)], "<=", 0), C([(0, -1), (2, 1)], "<=", 0)))
    std = standard_form(lp)
    clock = _Clock(30)
    basis = [s for s in std.slack_of_row if s is not None]
    B = exact_simplex._Basis(std, basis, clock)
    z, y = B.primal(), B.dual()
    reduced = certify._check(std, z, y, basis, clock)
    assert certify._second_optimum(std, z, basis, [0, 2], clock) is None  # both edges blocked
    rays = []
    real = certify._exact_ray

    def counted(std, clock):
        rays.append(real(std, clock))
        return rays[-1]

    monkeypatch.setattr(certify, "_exact_ray", counted)
    _no_exact_simplex(monkeypatch)
    assert certify._decide_unique(std, z, basis, reduced, clock) == (False, None)
    assert rays and rays[-1] is not None


def test_an_unblocked_edge_proves_a_second_optimum_without_the_face_lp(monkeypatch):
    # min x + y s.t. x + y >= 1: the segment between (1, 0) and (0, 1) is optimal.
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], ">=", 1),))
    faces = []
    real = certify._solve

    def spy(lp, *args, **kwargs):
        faces.append(lp.name)
        return real(lp, *args, **kwargs)

    monkeypatch.setattr(certify, "_solve", spy)
    c = solve(lp, timeout_s=30)
    assert c.unique is False and c.objective == 1
    assert "optimal face" not in faces


def test_an_exact_ray_is_only_accepted_when_it_is_one(monkeypatch):
    # A proposed "unbounded" basis whose ray column has a positive reduced cost is rejected (floats only propose).
    lp = LinearProgram(("x", "y"), ((0, F(1)),), (C([(0, 1), (1, -1)], "<=", 0),))
    std = standard_form(lp)
    slack = std.slack_of_row[0]
    monkeypatch.setattr(certify.refinement, "LAST", [{"unbounded": ([slack], [1.0, 1.0, 0.0])}])
    assert certify._exact_ray(std, _Clock(30)) is None  # x: cost 1 > 0; y: w = -1 <= 0 but cost 0
    std2 = standard_form(LinearProgram(("x", "y"), ((1, F(-1)),), (C([(0, 1), (1, -1)], "<=", 0),)))
    monkeypatch.setattr(certify.refinement, "LAST", [{"unbounded": ([slack], [0.0, 1.0, 0.0])}])
    assert certify._exact_ray(std2, _Clock(30)) == 1  # y grows along (0, 1) + slack, cost -1


def test_an_unbounded_lp_with_a_feasible_candidate_is_still_decided_unbounded():
    lp = LinearProgram(("x", "y"), ((1, F(-1)),), (C([(0, 1), (1, -1)], "<=", 0),))
    with pytest.raises(Unbounded):
        certify._solve(lp, _Clock(30), (F(0), F(0)), decide_unique=False, repair_candidate=False)
    with pytest.raises(CertificationFailed):
        solve(lp, timeout_s=30)
