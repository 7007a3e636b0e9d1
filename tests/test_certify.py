"""udpm.certify: exact optima, exact duals, uniqueness, vertices, fallbacks, and answers that are never guessed."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from udpm.certify import (
    _Clock,
    _dual_simplex,
    _two_phase,
    is_vertex,
    sign_of,
    solve,
    split_coefficient,
    standard_form,
    vertex_reduced_costs,
)
from udpm.errors import CertificationFailed, InvalidInput, SolverTimeout
from udpm.mechanisms import truncated_geometric
from udpm.programs import Constraint, LinearProgram, bayesian_lp, objective_value, violated_constraint
from udpm.remaps import compose, deterministic_remap
from udpm.users import BayesianUser, absolute_error, binary_loss, power_loss


def flat(m):
    return [v for r in m for v in r]


def uniform_abs(n):
    return BayesianUser.of([F(1, n + 1)] * (n + 1), absolute_error(n))


def two_row_lp() -> LinearProgram:
    """min x + y s.t. x + 2y >= 2, 2x + y >= 2: unique optimum x = y = 2/3."""
    return LinearProgram(
        ("x", "y"),
        ((0, F(1)), (1, F(1))),
        (Constraint(((0, F(1)), (1, F(2))), ">=", F(2)), Constraint(((0, F(2)), (1, F(1))), ">=", F(2))),
    )


def test_small_lp_exact_optimum_dual_and_uniqueness():
    lp = two_row_lp()
    c = solve(lp, timeout_s=10)
    assert c.x == (F(2, 3), F(2, 3)) and c.objective == F(4, 3) and c.unique is True
    assert c.y == (F(1, 3), F(1, 3))  # >= rows: duals >= 0, b·y = 4/3


def test_non_unique_optimum_is_detected():
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))), (Constraint(((0, F(1)), (1, F(1))), ">=", F(1)),))
    c = solve(lp, timeout_s=10)
    assert c.objective == 1 and c.unique is False


def test_unbounded_and_infeasible_raise():
    unbounded = LinearProgram(("x",), ((0, F(-1)),), (Constraint(((0, F(1)),), ">=", F(1)),))
    with pytest.raises(CertificationFailed):
        solve(unbounded, timeout_s=10)
    infeasible = LinearProgram(
        ("x",), ((0, F(1)),), (Constraint(((0, F(1)),), ">=", F(2)), Constraint(((0, F(1)),), "<=", F(1)))
    )
    with pytest.raises(CertificationFailed):
        solve(infeasible, timeout_s=10)


def test_candidate_and_highs_and_two_phase_agree():
    user = uniform_abs(5)
    lp = bayesian_lp(user, F(1, 2))
    t = flat(truncated_geometric(5, F(1, 2)))
    a = solve(lp, timeout_s=60)
    b = solve(lp, timeout_s=60, candidate=t)
    _, z, _, _ = _two_phase(standard_form(lp), _Clock(60))
    assert a.objective == b.objective == objective_value(lp, [F(int(v.p), int(v.q)) for v in z[: len(lp.names)]])
    assert b.proposer == "candidate" and b.unique is True and list(b.x) == t


def test_a_suboptimal_candidate_is_never_returned():
    user = uniform_abs(3)
    lp = bayesian_lp(user, F(1, 3))
    constant = flat(compose(truncated_geometric(3, F(1, 3)), deterministic_remap([1, 1, 1, 1], 4)))
    assert violated_constraint(lp, constant) is None
    c = solve(lp, timeout_s=60, candidate=constant)
    assert c.objective < objective_value(lp, constant)
    assert c.objective == user.expected_loss(truncated_geometric(3, F(1, 3)))


def test_irrational_objective_certified_exactly():
    user = BayesianUser.of([F(1, 4), 0, F(1, 4), 0, F(1, 4), F(1, 4)], power_loss(5, sympy.Rational(3, 2)))
    c = solve(bayesian_lp(user, F(1, 2)), timeout_s=60)
    assert "sqrt(2)" in c.atoms and isinstance(c.objective, sympy.Expr)
    assert sympy.expand(c.objective - objective_value(bayesian_lp(user, F(1, 2)), c.x)) == 0


def test_alpha_near_zero_and_one():
    for a in (F(1, 100), F(99, 100)):
        user = BayesianUser.of([F(1, 4)] * 4, binary_loss(3))
        c = solve(bayesian_lp(user, a), timeout_s=60)
        assert c.objective == user.expected_loss(truncated_geometric(3, a))


def test_timeout_raises():
    with pytest.raises(SolverTimeout):
        solve(bayesian_lp(uniform_abs(12), F(1, 2)), timeout_s=1e-6)


def test_is_vertex():
    n, a = 2, F(1, 2)
    user = BayesianUser.of([F(1, 2), 0, F(1, 2)], binary_loss(n))
    lp = bayesian_lp(user, a)
    t = truncated_geometric(n, a)
    z1 = compose(t, deterministic_remap([0, 0, 2], 3))
    z2 = compose(t, deterministic_remap([0, 2, 2], 3))
    assert is_vertex(lp, flat(t)) and is_vertex(lp, flat(z1)) and is_vertex(lp, flat(z2))
    mid = [(u + v) / 2 for u, v in zip(flat(z1), flat(z2))]
    assert not is_vertex(lp, mid)
    with pytest.raises(InvalidInput):
        is_vertex(lp, [F(1)] * 9)


def test_sign_of_exact():
    r2 = sympy.sqrt(2)
    assert sign_of(split_coefficient(r2 - sympy.Rational(1414, 1000))) == 1
    assert sign_of(split_coefficient(3 - 2 * r2)) == 1
    assert sign_of(split_coefficient(2 * r2 - sympy.sqrt(8))) == 0
    assert sign_of({sympy.sqrt(2): F(-1), sympy.sqrt(3): F(0)}) == -1
    # 99/70 exceeds sqrt(2) by 7e-5: the sign is still exact
    assert sign_of(split_coefficient(r2 - sympy.Rational(99, 70))) == -1


def test_vertex_reduced_costs_linear_in_objective():
    n, a = 2, F(1, 2)
    lp = bayesian_lp(uniform_abs(n), a)
    c0 = [(i * 3 + j, F(1, 3)) for i in range(3) for j in range(3) if i != j]
    c1 = [(i * 3 + j, F(abs(i - j), 3)) for i in range(3) for j in range(3) if i != j]
    c01 = [(k, v + w) for (k, v), (_, w) in zip(c0, c1)]
    _, (d0, d1, d01) = vertex_reduced_costs(lp, flat(truncated_geometric(n, a)), [c0, c1, c01], timeout_s=30)
    assert [x + y for x, y in zip(d0, d1)] == d01


def _brute_force_2d(rows, c):
    """Minimum of c·x over the 2-variable polygon by enumerating intersections of constraint lines."""
    lines = [(r[0], r[1], r[2]) for r in rows] + [(F(1), F(0), F(0)), (F(0), F(1), F(0))]
    best = None
    for (a1, b1, r1), (a2, b2, r2) in itertools.combinations(lines, 2):
        det = a1 * b2 - a2 * b1
        if det == 0:
            continue
        x, y = (r1 * b2 - r2 * b1) / det, (a1 * r2 - a2 * r1) / det
        if x >= 0 and y >= 0 and all(a * x + b * y <= r for a, b, r in rows):
            v = c[0] * x + c[1] * y
            best = v if best is None else min(best, v)
    return best


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(1, 6)), min_size=2, max_size=4),
    st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
)
def test_random_bounded_2d_lps_match_brute_force(rows, c):
    rows = [(F(a), F(b), F(r)) for a, b, r in rows] + [(F(1), F(1), F(10))]  # bounded: x + y <= 10
    lp = LinearProgram(
        ("x", "y"),
        tuple((j, F(v)) for j, v in enumerate(c) if v),
        tuple(Constraint(((0, a), (1, b)), "<=", r) for a, b, r in rows),
    )
    got = solve(lp, timeout_s=30)
    assert got.objective == _brute_force_2d(rows, [F(v) for v in c])


def test_exact_dual_simplex_repairs_a_primal_infeasible_dual_feasible_basis():
    lp = two_row_lp()
    std = standard_form(lp)
    _, z, _, pivots = _dual_simplex(std, [2, 3], _Clock(10))  # both slacks basic: x = y = 0 violates the rows
    assert pivots == 2 and [F(int(v.p), int(v.q)) for v in z[:2]] == [F(2, 3), F(2, 3)]


def test_degenerate_candidate_vertex_gets_a_dual_feasible_basis():
    n, a = 4, F(1, 3)
    user = BayesianUser.of([F(1, 2), 0, 0, 0, F(1, 2)], binary_loss(n))
    lp = bayesian_lp(user, a)
    z = flat(compose(truncated_geometric(n, a), deterministic_remap([0, 0, 0, 4, 4], n + 1)))  # zero columns
    c = solve(lp, timeout_s=60, candidate=z)
    assert c.proposer.startswith("candidate") and c.objective == objective_value(lp, z) and c.unique is False


def test_dependent_equality_rows_are_handled():
    rows = (
        Constraint(((0, F(1)), (1, F(1))), "=", F(1)),
        Constraint(((0, F(2)), (1, F(2))), "=", F(2)),  # twice the first row
    )
    lp = LinearProgram(("x", "y"), ((0, F(1)),), rows)
    for cand in (None, [0, 1]):
        c = solve(lp, timeout_s=10, candidate=cand)
        assert c.x == (0, 1) and c.objective == 0 and c.unique is True
