"""udpm.lp.certify: exact optima, exact duals, uniqueness, vertices, fallbacks, and answers that are never guessed."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, absolute_error, binary_loss, power_loss
from udpm.errors import CertificationFailed, InvalidInput, SolverTimeout
from udpm.lp.certify import (
    _check,
    _check_unique,
    _Clock,
    _dual_simplex,
    _full_point,
    _q,
    _two_phase,
    check_certified,
    is_vertex,
    sign_of,
    solve,
    split_coefficient,
    standard_form,
    vertex_reduced_costs,
)
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp, objective_value, violated_constraint


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


# ---------------------------------------------------------------- guard rails: one corrupted condition at a time
#
# A genuine certified optimum is corrupted in exactly one condition; the exact check must reject it with a message
# that starts with the condition's name.  Equal objectives cannot be broken alone inside _check: with A z = b exact,
# c·z - b·y = d·z, which complementary slackness already forces to 0.  It is exercised where it can fail alone, on
# the stated objective (check_certified).


def slack_lp() -> LinearProgram:
    """two_row_lp plus a loose row x + y <= 10 (slack 28/3 at the optimum): a '<=' slack column to corrupt."""
    lp = two_row_lp()
    loose = Constraint(((0, F(1)), (1, F(1))), "<=", F(10), "loose")
    return LinearProgram(lp.names, lp.objective, (*lp.rows, loose), "slack lp")


def degenerate_lp() -> LinearProgram:
    """Three >= rows through the optimum (2/3, 2/3), the third parallel to the objective: degenerate, unique."""
    lp = two_row_lp()
    third = Constraint(((0, F(1)), (1, F(1))), ">=", F(4, 3), "parallel")
    return LinearProgram(lp.names, lp.objective, (*lp.rows, third), "degenerate lp")


def _exact_parts(c):
    std = standard_form(c.lp)
    z = _full_point(std, c.x)
    y = [[_q(c.y_components[t][k]) for t in range(len(std.atoms))] for k in range(std.m)]
    return std, z, y, list(c.basis)


def _fy(values):
    return [[_q(v)] for v in values]


@pytest.fixture(scope="module")
def slack_cert():
    c = solve(slack_lp(), timeout_s=10)
    assert c.x == (F(2, 3), F(2, 3)) and c.y == (F(1, 3), F(1, 3), 0) and c.unique is True
    return c


@pytest.fixture(scope="module")
def degenerate_cert():
    c = solve(degenerate_lp(), timeout_s=10, candidate=[F(2, 3), F(2, 3)])
    assert c.unique is True and c.y == (0, 0, 1) and "uniqueness_dual" in c.extra  # d = 0 on two nonbasic slacks
    return c


def test_genuine_certificates_pass_every_check(slack_cert, degenerate_cert):
    for c in (slack_cert, degenerate_cert, solve(two_row_lp(), timeout_s=10)):
        std, z, y, basis = _exact_parts(c)
        _check(std, z, y, basis, _Clock(10))
        check_certified(c)
    user = BayesianUser.of([F(1, 4), 0, F(1, 4), 0, F(1, 4), F(1, 4)], power_loss(5, sympy.Rational(3, 2)))
    check_certified(solve(bayesian_lp(user, F(1, 2)), timeout_s=60))  # irrational objective


E = F(1, 10)
CHECK_CORRUPTIONS = [
    # (id, new z (None: keep), new y per row (None: keep), message pattern)
    ("negative variable", [F(-1, 10), F(2, 3), 0, 0, F(28, 3)], None, r"^primal feasibility: column 0 \(x\) is -1/10"),
    ("negative slack", [F(6), F(6), 16, 16, F(-2)], None, r"^primal feasibility: column 4 \(slack\(loose\)\)"),
    ("row violated", [F(2, 3) + F(1, 7), F(2, 3), 0, 0, F(28, 3)], None, r"^primal feasibility: row 0"),
    ("variable reduced cost", None, [F(4, 3), F(1, 3), 0], r"^dual feasibility: reduced cost of column 0 \(x\)"),
    # wrong sign of y on a >= row: the slack column's reduced cost is negative (x, y stay dual feasible)
    ("slack dual, >= row", None, [F(-1, 3), F(1, 3), 0], r"^dual feasibility: reduced cost of column 2 \(slack"),
    # wrong sign of y on the <= row alone, compensated so that d_x = d_y = 0 still
    ("slack dual, <= row", None, [F(3, 10), F(3, 10), E], r"^dual feasibility: .*slack\(loose\)"),
    ("slackness at a variable", None, [0, 0, 0], r"^complementary slackness: column 0 \(x\)"),
    # y != 0 on the loose row, compensated so that d_x = d_y = 0: only the slack column breaks slackness
    (
        "slackness at a slack",
        None,
        [F(1, 3) + E / 3, F(1, 3) + E / 3, -E],
        r"^complementary slackness: .*slack\(loose\)",
    ),
]


@pytest.mark.parametrize(
    "z_new, y_new, pattern", [c[1:] for c in CHECK_CORRUPTIONS], ids=[c[0] for c in CHECK_CORRUPTIONS]
)
def test_exact_check_rejects_each_corrupted_condition(slack_cert, z_new, y_new, pattern):
    std, z, y, basis = _exact_parts(slack_cert)
    if z_new is not None:
        z = [_q(v) for v in z_new]
    if y_new is not None:
        y = _fy(y_new)
    with pytest.raises(CertificationFailed, match=pattern):
        _check(std, z, y, basis, _Clock(10))


def test_slackness_corruptions_also_open_an_objective_gap(slack_cert):
    """Why no corruption breaks equal objectives alone in _check: b·y moves with every slackness failure."""
    std = standard_form(slack_cert.lp)
    for y_new in ([0, 0, 0], [F(1, 3) + E / 3, F(1, 3) + E / 3, -E]):
        assert sum(std.b[k] * _q(v) for k, v in enumerate(y_new)) != F(4, 3)


def test_check_certified_rejects_each_corrupted_claim(slack_cert, degenerate_cert):
    cases = [
        (replace(slack_cert, x=(F(2, 3), F(1, 2))), "^primal feasibility"),
        (replace(slack_cert, x=(F(6), F(6))), r"^primal feasibility: column 4 \(slack\(loose\)\)"),
        (replace(slack_cert, y_components=((F(3, 10), F(3, 10), E),)), r"^dual feasibility: .*slack\(loose\)"),
        (replace(slack_cert, y_components=((F(1, 3) + E / 3, F(1, 3) + E / 3, -E),)), "^complementary slackness"),
        (replace(slack_cert, objective=F(5, 3)), "^equal objectives: stated objective 5/3"),
        (replace(degenerate_cert, extra={}), "^uniqueness: the optimum is not proved unique"),
        (replace(degenerate_cert, extra={"uniqueness_dual": (F(1), F(1), F(-2))}), "^uniqueness: .*b·u = 4/3"),
        # b·u = 0 but -A_j·u < 0 on a column with reduced cost 0 (x: u·(1, 2, 1) = 1 > 0)
        (
            replace(degenerate_cert, extra={"uniqueness_dual": (F(0), F(2), F(-3))}),
            r"^uniqueness: the witness has -A_j·u < 0 at column 0 \(x\)",
        ),
    ]
    for bad, pattern in cases:
        with pytest.raises(CertificationFailed, match=pattern):
            check_certified(bad)


def test_a_false_uniqueness_claim_is_rejected_and_never_made():
    """min x + 2y over two_row_lp's region: the whole edge x + 2y = 2, 2/3 <= x <= 2, is optimal."""
    lp = two_row_lp()
    lp = LinearProgram(lp.names, ((0, F(1)), (1, F(2))), lp.rows, "edge")
    for cand in (None, [F(2, 3), F(2, 3)], [F(2), F(0)]):
        c = solve(lp, timeout_s=10, candidate=cand)
        assert c.objective == 2 and c.unique is False
        check_certified(c)  # unique=False claims nothing
        with pytest.raises(CertificationFailed, match=r"^uniqueness"):
            check_certified(replace(c, unique=True))
    flat_face = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))), (Constraint(((0, F(1)), (1, F(1))), ">=", F(1)),))
    c = solve(flat_face, timeout_s=10)
    with pytest.raises(CertificationFailed, match=r"^uniqueness"):
        check_certified(replace(c, unique=True))
    std = standard_form(c.lp)
    reduced = dict.fromkeys(range(std.ncols), 0)  # as if every reduced cost were 0: nothing pins the face
    with pytest.raises(CertificationFailed, match=r"^uniqueness"):
        _check_unique(std, reduced, None, _Clock(10))
