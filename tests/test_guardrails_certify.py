"""Guard rails of udpm.lp.certify (mutation-run kills): time bounds, exact coefficient splitting and signs,
sparse elimination, standard form, every malformed input and failed check named, the proposer chain."""

from dataclasses import replace
from fractions import Fraction as F

import flint
import pytest
import sympy

from udpm.errors import CertificationFailed, InvalidInput, SolverTimeout
from udpm.lp import certify
from udpm.lp.certify import (
    ONE_ATOM,
    Certified,
    Singular,
    Unbounded,
    _Basis,
    _check,
    _check_unique,
    _Clock,
    _dual_simplex,
    _f,
    _full_point,
    _q,
    _two_phase,
    check_certified,
    column_label,
    combo_value,
    is_vertex,
    sign_of,
    solve,
    sparse_rank,
    sparse_solve,
    split_coefficient,
    standard_form,
    vertex_reduced_costs,
)
from udpm.lp.programs import Constraint, LinearProgram

R2, R3 = sympy.sqrt(2), sympy.sqrt(3)


def C(coeffs, sense, rhs, name=""):
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), name)


def two_row(obj=((0, 1), (1, 1))):
    """min x + y s.t. x + 2y >= 2, 2x + y >= 2: the unique optimum x = y = 2/3."""
    return LinearProgram(
        ("x", "y"),
        tuple((j, F(v)) if not isinstance(v, sympy.Basic) else (j, v) for j, v in obj),
        (C([(0, 1), (1, 2)], ">=", 2, "r0"), C([(0, 2), (1, 1)], ">=", 2, "r1")),
        "two rows",
    )


def fz(v):
    return [_f(x) for x in v]


# ---------------------------------------------------------------- small helpers


def test_clock_refuses_a_non_positive_bound_and_times_out():
    for bad in (0, -1):
        with pytest.raises(InvalidInput) as e:
            _Clock(bad)
        assert str(e.value) == f"timeout_s must be > 0, got {bad}"
    clock = _Clock(0.25)
    assert clock.timeout_s == 0.25
    clock.tick("early")  # within the bound
    clock.deadline -= 10
    with pytest.raises(SolverTimeout) as e:
        clock.tick("phase x")
    assert str(e.value) == "certified LP solve (phase x) exceeded 0.25 s"


def test_q_and_f_round_trip():
    assert _q(F(3, 4)) == flint.fmpq(3, 4) and _q(2) == flint.fmpq(2) and _q("1/3") == flint.fmpq(1, 3)
    v = flint.fmpq(5, 7)
    assert _q(v) is v
    assert _f(flint.fmpq(-5, 7)) == F(-5, 7) and type(_f(v)) is F


def test_split_coefficient():
    assert split_coefficient(F(3, 2)) == {ONE_ATOM: F(3, 2)}
    assert split_coefficient(2) == {ONE_ATOM: F(2)}
    assert split_coefficient(0) == {} and split_coefficient(F(0)) == {}
    assert split_coefficient(2 * R2 + 1) == {R2: F(2), ONE_ATOM: F(1)}
    assert split_coefficient(R2 * (1 + R2)) == {R2: F(1), ONE_ATOM: F(2)}
    assert split_coefficient(R2 - R2 + R3 / 2) == {R3: F(1, 2)}
    assert split_coefficient(sympy.Rational(1, 3)) == {ONE_ATOM: F(1, 3)}
    x = sympy.Symbol("x")
    for bad in (x + 1, sympy.I, sympy.Float(0.5) * R2):
        with pytest.raises(InvalidInput) as e:
            split_coefficient(bad)
        assert str(e.value) == f"objective coefficient {bad} is not an exact real number"


def test_sign_of_rationals_surds_and_hard_zeros():
    assert sign_of({}) == 0 and sign_of({ONE_ATOM: F(0)}) == 0
    assert sign_of({ONE_ATOM: F(1, 10**30)}) == 1 and sign_of({ONE_ATOM: F(-3)}) == -1
    assert sign_of({R2: F(1), ONE_ATOM: F(-1)}) == 1
    assert sign_of({R2: F(-1), ONE_ATOM: F(1)}) == -1
    assert sign_of({R2: F(1), R3: F(-1)}) == -1
    # within 1e-30 of zero: the 80-bit interval straddles 0, a finer one decides
    near = sympy.Rational(int(sympy.floor(R2 * 10**40)), 10**40)
    assert sign_of({R2: F(1), ONE_ATOM: -F(near.p, near.q)}) == 1
    assert sign_of({R2: F(-1), ONE_ATOM: F(near.p, near.q)}) == -1
    # a nested radical (no interval rule for an irrational base) equal to sqrt(2) + sqrt(3) = 3.146...:
    # decided by sympy, and zero proved by its minimal polynomial
    nested = sympy.sqrt(5 + 2 * sympy.sqrt(6))
    assert sign_of({nested: F(1), ONE_ATOM: F(-3)}) == 1
    assert sign_of({nested: F(-1), ONE_ATOM: F(3)}) == -1
    assert sign_of({nested: F(1), R2: F(-1), R3: F(-1)}) == 0
    assert sign_of({nested: F(1), R2: F(-1), R3: F(-1), ONE_ATOM: F(1, 10**50)}) == 1
    # products and sums of roots are bounded by intervals too
    assert sign_of({R2 * R3 + 1: F(1), ONE_ATOM: F(-7, 2)}) == -1
    assert sign_of({sympy.Pow(2, sympy.Rational(1, 3)): F(1), ONE_ATOM: F(-5, 4)}) == 1


def test_combo_value():
    assert combo_value({}) == 0 and type(combo_value({})) is F
    assert combo_value({ONE_ATOM: F(3, 2), R2: F(0)}) == F(3, 2) and type(combo_value({ONE_ATOM: F(3, 2)})) is F
    assert combo_value({R2: F(2), ONE_ATOM: F(1)}) == 2 * R2 + 1


# ---------------------------------------------------------------- sparse elimination


def test_sparse_solve_and_rank():
    Q = flint.fmpq
    rows = [{0: Q(2), 1: Q(1)}, {0: Q(1), 1: Q(3)}]
    sol = sparse_solve(rows, [[Q(3), Q(1)], [Q(4), Q(0)]], 2, _Clock(5))
    assert sol == [[Q(1), Q(3, 5)], [Q(1), Q(-1, 5)]]
    assert rows == [{0: Q(2), 1: Q(1)}, {0: Q(1), 1: Q(3)}]  # the input is not modified
    with pytest.raises(Singular) as e:
        sparse_solve([{0: Q(1), 1: Q(1)}, {0: Q(2), 1: Q(2)}], [[Q(1)], [Q(2)]], 2, _Clock(5))
    assert str(e.value) == "basis matrix is singular (rank 1 < 2)"
    with pytest.raises(Singular):
        sparse_solve([{0: Q(1)}], [[Q(1)]], 2, _Clock(5))
    assert sparse_rank([{0: 1, 1: 1}, {0: 2, 1: 2}, {2: F(1, 2)}]) == 2
    assert sparse_rank([{0: 0}, {}]) == 0
    assert sparse_rank([{0: 1, 1: 2, 2: 3}, {0: 2, 1: 4, 2: 7}, {0: 3, 1: 6, 2: 10}]) == 2
    # a larger system with fill-in: a tridiagonal matrix
    n = 70
    tri = [{k: Q(2), **({k - 1: Q(-1)} if k else {}), **({k + 1: Q(-1)} if k < n - 1 else {})} for k in range(n)]
    x = sparse_solve(tri, [[Q(1)] for _ in range(n)], n, _Clock(30))
    for k in range(n):
        assert sum(v * x[c][0] for c, v in tri[k].items()) == 1


def test_elimination_checks_the_clock():
    Q = flint.fmpq
    n = 40
    rows = [{k: Q(2), (k + 1) % n: Q(1)} for k in range(n)]
    clock = _Clock(5)
    clock.deadline -= 10
    with pytest.raises(SolverTimeout, match=r"\(elimination\)"):
        sparse_solve(rows, [[Q(1)] for _ in range(n)], n, clock)
    dense = [{c: Q(1 + (k * c) % 7) for c in range(70)} for k in range(70)]
    clock = _Clock(5)
    clock.deadline -= 10
    with pytest.raises(SolverTimeout, match=r"\(elimination\)"):
        sparse_rank(dense, clock)


# ---------------------------------------------------------------- standard form and points


def test_standard_form_slacks_atoms_and_bad_senses():
    lp = LinearProgram(
        ("x", "y"),
        ((0, F(1)), (1, 2 * R2), (0, F(1, 2)), (1, R2 + 1)),
        (C([(0, 1), (0, 1), (1, 0)], "<=", 4, "le"), C([(1, 1)], "=", 1), C([(0, 1), (1, 1)], ">=", 1)),
    )
    std = standard_form(lp)
    assert (std.nx, std.ncols, std.m) == (2, 4, 3)
    assert std.cols[0] == {0: flint.fmpq(2), 2: flint.fmpq(1)}  # duplicate entries added, zeros skipped
    assert std.cols[1] == {1: flint.fmpq(1), 2: flint.fmpq(1)}
    assert std.cols[2] == {0: flint.fmpq(1)} and std.cols[3] == {2: flint.fmpq(-1)}
    assert std.slack_of_row == [2, None, 3]
    assert std.b == [flint.fmpq(4), flint.fmpq(1), flint.fmpq(1)]
    assert std.atoms == [ONE_ATOM, R2]
    assert std.c == [{0: flint.fmpq(3, 2), 1: flint.fmpq(1)}, {1: flint.fmpq(3)}]
    alt = standard_form(lp, objective=((1, F(5)),))
    assert alt.atoms == [ONE_ATOM] and alt.c == [{1: flint.fmpq(5)}]
    with pytest.raises(InvalidInput) as e:
        standard_form(LinearProgram(("x",), (), (C([(0, 1)], "<", 1, "tight"),)))
    assert str(e.value) == "constraint tight has sense '<'"
    with pytest.raises(InvalidInput) as e:
        standard_form(LinearProgram(("x",), (), (C([(0, 1)], "=", 1), C([(0, 1)], "==", 1))))
    assert str(e.value) == "constraint 1 has sense '=='"


def test_full_point_adds_exact_slacks():
    std = standard_form(LinearProgram(("x", "y"), (), (C([(0, 1), (1, 1)], "<=", 4), C([(0, 1)], ">=", 1))))
    assert fz(_full_point(std, [F(1, 2), 1])) == [F(1, 2), 1, F(5, 2), F(-1, 2)]
    assert fz(_full_point(std, [0, 0])) == [0, 0, 4, -1]
    assert _full_point(std, [1]) is None and _full_point(std, [1, 2, 3]) is None


def test_column_labels():
    lp = LinearProgram(("x", "y"), (), (C([(0, 1)], "<=", 1, "cap"), C([(0, 1)], "=", 1, "eq"), C([(1, 1)], ">=", 0)))
    assert [column_label(lp, j) for j in range(4)] == ["x", "y", "slack(cap)", "slack(2)"]


def test_basis_needs_m_distinct_columns():
    std = standard_form(two_row())
    for bad in ([0], [0, 0], [0, 1, 2]):
        with pytest.raises(Singular) as e:
            _Basis(std, bad, _Clock(5))
        assert str(e.value) == f"a basis needs 2 distinct columns, got {len(set(bad))}"
    b = _Basis(std, [0, 1], _Clock(5))
    assert fz(b.primal()) == [F(2, 3), F(2, 3), 0, 0]
    assert [fz(v) for v in b.dual()] == [[F(1, 3)], [F(1, 3)]]
    assert b.reduced(b.dual(), 2) == {ONE_ATOM: F(1, 3)} and b.reduced(b.dual(), 0) == {}
    assert fz(b.direction(2)) == [F(1, 3), F(-2, 3)]


# ---------------------------------------------------------------- Certified


def test_certified_accessors():
    c = solve(two_row(), timeout_s=10)
    assert c.value("y") == F(2, 3)
    assert c.matrix(1, 2) == [[F(2, 3), F(2, 3)]] and c.matrix(2, 1) == [[F(2, 3)], [F(2, 3)]]
    assert c.summary() == {
        "lp": "two rows",
        "variables": 2,
        "constraints": 2,
        "objective": "4/3",
        "unique": True,
        "proposer": "highs",
    }
    assert c.atoms == ("1",) and c.y_components == ((F(1, 3), F(1, 3)),)
    assert c.basis == (0, 1) and c.simplex_pivots == 0 and c.extra == {} and c.notes == ""
    assert Certified(c.lp, c.x, c.y, c.objective, c.basis, True).atoms == ("1",)


# ---------------------------------------------------------------- solve: the proposer chain


def test_candidate_at_the_optimum_is_certified_as_proposed():
    c = solve(two_row(), timeout_s=10, candidate=[F(2, 3), F(2, 3)])
    assert c.proposer == "candidate" and c.simplex_pivots == 0 and c.x == (F(2, 3), F(2, 3))
    assert c.y == (F(1, 3), F(1, 3)) and c.unique is True


def test_a_feasible_non_optimal_candidate_is_repaired_by_the_exact_simplex():
    c = solve(two_row(), timeout_s=10, candidate=[F(2), F(0)])  # a vertex, but not optimal
    assert c.proposer == "candidate+exact simplex" and c.simplex_pivots >= 1
    assert c.x == (F(2, 3), F(2, 3)) and c.objective == F(4, 3)


@pytest.mark.parametrize("cand", [[F(1), F(1)], [F(-1), F(5)], [F(1)], [F(3), F(3)]])
def test_unusable_candidates_fall_back_to_highs(cand):
    # interior (not a vertex), negative, wrong length, or a slack-basic point that is not a vertex
    c = solve(two_row(), timeout_s=10, candidate=cand)
    assert c.proposer == "highs" and c.x == (F(2, 3), F(2, 3))


def test_without_highs_the_exact_two_phase_simplex_decides(monkeypatch):
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: None)
    c = solve(two_row(), timeout_s=10)
    assert c.proposer == "exact two-phase simplex" and c.x == (F(2, 3), F(2, 3)) and c.simplex_pivots >= 2
    infeasible = LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], ">=", 2), C([(0, 1)], "<=", 1)))
    with pytest.raises(CertificationFailed) as e:
        solve(infeasible, timeout_s=10)
    assert str(e.value) == "the LP is infeasible"
    unbounded = LinearProgram(("x",), ((0, F(-1)),), (C([(0, 1)], ">=", 1),))
    with pytest.raises(Unbounded) as e:
        solve(unbounded, timeout_s=10)
    assert str(e.value) == "the LP is unbounded below"


def test_a_primal_infeasible_highs_basis_is_repaired_by_the_dual_simplex(monkeypatch):
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: [2, 3])  # both slacks: x = y = 0
    c = solve(two_row(), timeout_s=10)
    assert c.proposer == "highs+exact dual simplex" and c.simplex_pivots == 2 and c.x == (F(2, 3), F(2, 3))


def test_a_short_highs_basis_is_completed(monkeypatch):
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: [0])
    c = solve(two_row(), timeout_s=10)
    assert c.x == (F(2, 3), F(2, 3)) and c.proposer.startswith("highs")


def test_a_dual_infeasible_primal_infeasible_highs_basis_falls_back(monkeypatch):
    # x basic on row 0 only (x = 2, slack1 = 2): primal feasible but not optimal for min -x + ... ; use the
    # columns (slack0, slack1) with an objective that makes them dual infeasible and the point infeasible
    lp = two_row(((0, -1), (1, 1)))
    lp = LinearProgram(lp.names, lp.objective, (*lp.rows, C([(0, 1)], "<=", 5, "cap")), "capped")
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: [2, 3, 4])
    c = solve(lp, timeout_s=10)
    assert c.x == (F(5), F(0)) and c.objective == -5
    assert c.proposer == "exact two-phase simplex"


def test_highs_basis_of_a_real_lp():
    std = standard_form(two_row())
    assert sorted(certify._highs_basis(std, 5)) == [0, 1]
    infeasible = LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], ">=", 2), C([(0, 1)], "<=", 1)))
    assert certify._highs_basis(standard_form(infeasible), 5) is None
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, R2)), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], "<=", 3)))
    assert certify._highs_basis(standard_form(lp), 5) == [0, 3]


def test_dual_simplex_refuses_a_dual_infeasible_basis_and_detects_infeasibility():
    std = standard_form(two_row(((0, -1), (1, 1))))
    with pytest.raises(CertificationFailed) as e:
        _dual_simplex(std, [2, 3], _Clock(5))
    assert str(e.value) == "basis is not dual feasible"
    infeasible = LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], ">=", 2), C([(0, 1)], "<=", 1)))
    with pytest.raises(CertificationFailed) as e:
        _dual_simplex(standard_form(infeasible), [1, 2], _Clock(5))
    assert str(e.value) == "the LP is infeasible (dual ray)"


def test_dual_simplex_leaves_by_smallest_column_and_enters_by_minimum_ratio():
    # min 2x + 3y + 4w s.t. x + y + w >= 3, x + 2y + 3w >= 4: the optimum (2, 1, 0) takes two pivots
    lp = LinearProgram(
        ("x", "y", "w"),
        ((0, F(2)), (1, F(3)), (2, F(4))),
        (C([(0, 1), (1, 1), (2, 1)], ">=", 3), C([(0, 1), (1, 2), (2, 3)], ">=", 4)),
    )
    std = standard_form(lp)
    basis, z, y, pivots = _dual_simplex(std, [3, 4], _Clock(5))
    assert fz(z[:3]) == [2, 1, 0] and sorted(basis) == [0, 1] and pivots == 2
    assert [fz(v) for v in y] == [[1], [1]]


def test_two_phase_keeps_artificials_out():
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], "=", 2), C([(0, 1)], ">=", 1)))
    basis, z, _, _ = _two_phase(standard_form(lp), _Clock(5))
    assert len(z) == 3 and fz(z)[:2] in ([1, 1], [2, 0]) and all(j < 3 for j in basis)
    neg = LinearProgram(("x",), ((0, F(1)),), (C([(0, -1)], "=", -2),))
    basis, z, _, _ = _two_phase(standard_form(neg), _Clock(5))
    assert fz(z) == [2]


def test_an_irrational_objective_keeps_its_atoms():
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, R2)), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], "<=", F(1, 2))))
    c = solve(lp, timeout_s=10)
    assert c.x == (F(1, 2), F(1, 2)) and c.objective == sympy.Rational(1, 2) + R2 / 2
    assert c.atoms == ("1", "sqrt(2)")
    assert c.y_components == ((F(0), F(1)), (F(1), F(-1)))
    assert c.y == (R2, 1 - R2)
    check_certified(c)


def test_decide_unique_false_and_unbounded_faces():
    c = solve(two_row(), timeout_s=10, decide_unique=False)
    assert c.unique is None and c.extra == {}
    ray = LinearProgram(("x", "y"), ((0, F(1)),), (C([(0, 1)], ">=", 1),))  # y is free along the optimum
    c = solve(ray, timeout_s=10)
    assert c.unique is False and c.objective == 1


# ---------------------------------------------------------------- the exact checks


def test_check_refuses_malformed_points_and_duals():
    std = standard_form(two_row())
    Q = flint.fmpq
    z = [Q(2, 3), Q(2, 3), Q(0), Q(0)]
    y = [[Q(1, 3)], [Q(1, 3)]]
    assert _check(std, z, y, [0, 1], _Clock(5)) == {0: 0, 1: 0, 2: 1, 3: 1}
    for zz, yy in ((z[:3], y), (z, y[:1]), (z, [[Q(1, 3), Q(0)], [Q(1, 3)]])):
        with pytest.raises(CertificationFailed) as e:
            _check(std, zz, yy, [0, 1], _Clock(5))
        assert str(e.value) == "malformed: primal or dual has the wrong length"
    with pytest.raises(CertificationFailed) as e:
        _check(std, [Q(1), Q(1), Q(1), Q(0)], y, [0, 1], _Clock(5))
    assert str(e.value) == "primal feasibility: row 1 (r1) of the standard form gives 3 != 2"


def test_check_names_the_row_by_index_without_a_name():
    lp = LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], "=", 1),))
    std = standard_form(lp)
    Q = flint.fmpq
    with pytest.raises(CertificationFailed) as e:
        _check(std, [Q(2)], [[Q(1)]], [0], _Clock(5))
    assert str(e.value) == "primal feasibility: row 0 (0) of the standard form gives 2 != 1"
    with pytest.raises(CertificationFailed) as e:
        _check(std, [Q(1)], [[Q(2)]], [0], _Clock(5))
    assert str(e.value) == "dual feasibility: reduced cost of column 0 (x) is negative"


def test_check_certified_refuses_malformed_certificates():
    c = solve(two_row(), timeout_s=10)
    with pytest.raises(CertificationFailed) as e:
        check_certified(replace(c, atoms=("1", "sqrt(2)")))
    assert str(e.value) == "malformed: atoms ['1', 'sqrt(2)'] do not match the objective's"
    with pytest.raises(CertificationFailed, match=r"^malformed: atoms \['1'\]"):
        check_certified(replace(c, y_components=(*c.y_components, c.y_components[0])))
    with pytest.raises(CertificationFailed) as e:
        check_certified(replace(c, x=(F(2, 3),)))
    assert str(e.value) == "malformed: x has 1 entries for 2 variables"
    with pytest.raises(CertificationFailed) as e:
        check_certified(replace(c, y_components=((F(1, 3),),)))
    assert str(e.value) == "malformed: the dual needs 2 entries per atom"
    with pytest.raises(CertificationFailed) as e:
        check_certified(replace(c, objective=F(5, 3)))
    assert str(e.value) == "equal objectives: stated objective 5/3 != c·x = 4/3"
    check_certified(replace(c, unique=False, extra={"uniqueness_dual": (F(1), F(1))}))  # claims nothing
    check_certified(c, timeout_s=5)


def test_check_certified_compares_the_objective_atom_by_atom():
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, R2)), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], "<=", F(1, 2))))
    c = solve(lp, timeout_s=10)
    with pytest.raises(CertificationFailed, match=r"^equal objectives: stated objective"):
        check_certified(replace(c, objective=sympy.Rational(1, 2) + R2 / 3))
    with pytest.raises(CertificationFailed, match=r"^equal objectives"):
        check_certified(replace(c, objective=R2 / 2))


def test_check_unique_witness_length_and_dependent_columns():
    std = standard_form(two_row())
    reduced = {0: 0, 1: 0, 2: 1, 3: 1}
    _check_unique(std, reduced, None, _Clock(5))
    _check_unique(std, reduced, [0, 0], _Clock(5))
    with pytest.raises(CertificationFailed) as e:
        _check_unique(std, reduced, [0, 0, 0], _Clock(5))
    assert str(e.value) == "uniqueness: the witness has 3 entries for 2 rows"
    with pytest.raises(CertificationFailed) as e:
        _check_unique(std, {0: 0, 1: 0, 2: 0, 3: 1}, None, _Clock(5))
    assert str(e.value) == (
        "uniqueness: the optimum is not proved unique: the 3 columns with reduced cost 0 "
        "that the witness does not pin to 0 are linearly dependent"
    )
    with pytest.raises(CertificationFailed) as e:
        _check_unique(std, reduced, [1, -1], _Clock(5))
    assert str(e.value) == "uniqueness: the witness has -A_j·u < 0 at column 1 (y) (reduced cost 0)"
    with pytest.raises(CertificationFailed) as e:
        _check_unique(std, reduced, [1, 0], _Clock(5))
    assert str(e.value) == "uniqueness: the witness has b·u = 2 != 0"


# ---------------------------------------------------------------- vertices


def test_vertex_reduced_costs_refusals():
    lp = two_row()
    nonbasic, (d,) = vertex_reduced_costs(lp, [F(2, 3), F(2, 3)], [((0, F(1)), (1, F(1)))], timeout_s=5)
    assert nonbasic == [2, 3] and d == [F(1, 3), F(1, 3)]
    with pytest.raises(CertificationFailed) as e:
        vertex_reduced_costs(lp, [F(0), F(0)], [], timeout_s=5)
    assert str(e.value) == "point is not feasible"
    with pytest.raises(CertificationFailed) as e:
        vertex_reduced_costs(lp, [F(1)], [], timeout_s=5)
    assert str(e.value) == "point is not feasible"
    with pytest.raises(CertificationFailed) as e:
        vertex_reduced_costs(lp, [F(2), F(2)], [], timeout_s=5)
    assert str(e.value) == "vertex is degenerate or not a vertex (4 positive of 2)"
    with pytest.raises(InvalidInput) as e:
        vertex_reduced_costs(lp, [F(2, 3), F(2, 3)], [((0, R2),)], timeout_s=5)
    assert str(e.value) == "vertex_reduced_costs needs rational objectives"


def test_is_vertex_refusals_and_answers():
    lp = LinearProgram(("x", "y"), (), (C([(0, 1), (1, 1)], "<=", 2, "cap"), C([(0, 1)], ">=", 0), C([(1, 1)], "=", 1)))
    assert is_vertex(lp, [0, 1]) and is_vertex(lp, [1, 1]) and not is_vertex(lp, [F(1, 2), 1])
    with pytest.raises(InvalidInput) as e:
        is_vertex(lp, [0, 1, 0])
    assert str(e.value) == "point has 3 entries, the LP has 2 variables"
    with pytest.raises(InvalidInput) as e:
        is_vertex(lp, [-1, 1])
    assert str(e.value) == "point is infeasible: a negative variable"
    with pytest.raises(InvalidInput) as e:
        is_vertex(lp, [2, 1])
    assert str(e.value) == "point is infeasible: constraint cap"
    with pytest.raises(InvalidInput) as e:
        is_vertex(lp, [1, 2])
    assert str(e.value) == "point is infeasible: constraint cap"
    with pytest.raises(InvalidInput) as e:
        is_vertex(lp, [0, F(1, 2)])
    assert str(e.value) == "point is infeasible: constraint 2"
    ge = LinearProgram(("x",), (), (C([(0, 1)], ">=", 1, "lo"),))
    with pytest.raises(InvalidInput, match=r"constraint lo$"):
        is_vertex(ge, [0])
    assert is_vertex(ge, [1]) and not is_vertex(ge, [2])


# ---------------------------------------------------------------- intervals, clocks and pivoting details


def test_interval_bounds_of_products_sums_and_powers_are_tight():
    cube = sympy.Pow(2, sympy.Rational(1, 3))
    prod = cube * R3  # 2^(1/3) * 3^(1/2) = 2.18224...
    assert prod.is_Mul
    assert sign_of({prod: F(1), ONE_ATOM: F(-21822, 10**4)}) == 1
    assert sign_of({prod: F(1), ONE_ATOM: F(-21823, 10**4)}) == -1
    s = sympy.Add(sympy.Rational(1, 2), R2, evaluate=False)  # 1.91421...
    assert sign_of({s: F(1), ONE_ATOM: F(-19142, 10**4)}) == 1
    assert sign_of({s: F(1), ONE_ATOM: F(-19143, 10**4)}) == -1
    s2 = R2 + R3  # 3.14626...
    assert sign_of({s2: F(1), ONE_ATOM: F(-31462, 10**4)}) == 1
    assert sign_of({s2: F(1), ONE_ATOM: F(-31463, 10**4)}) == -1
    p = sympy.Pow(2, sympy.Rational(2, 3))  # 1.58740...
    assert sign_of({p: F(1), ONE_ATOM: F(-15873, 10**4)}) == 1
    assert sign_of({p: F(1), ONE_ATOM: F(-15875, 10**4)}) == -1


def expired():
    clock = _Clock(1)
    clock.deadline -= 10
    return clock


def test_each_phase_names_itself_when_the_time_bound_is_hit():
    std = standard_form(two_row())
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(exact simplex\) exceeded 1 s$"):
        certify._simplex(std, [0, 1], expired())
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(exact dual simplex\) exceeded 1 s$"):
        _dual_simplex(std, [2, 3], expired())
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(basis completion\) exceeded 1 s$"):
        certify._complete_basis(std, [0], expired())
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(basis completion\) exceeded 1 s$"):
        certify._complete_basis(std, [], expired())


def test_complete_basis_refuses_dependent_supports_and_rows():
    std = standard_form(two_row())
    assert sorted(certify._complete_basis(std, [0], _Clock(5))) == [0, 2]
    assert certify._complete_basis(std, [], _Clock(5)) == [2, 3]
    dep = LinearProgram(("x", "y", "w"), (), (C([(0, 1), (1, 1)], "=", 1), C([(0, 1), (2, 1)], "=", 1)))
    sd = standard_form(dep)
    assert certify._complete_basis(sd, [1, 2], _Clock(5)) == [1, 2]
    with pytest.raises(Singular) as e:
        certify._complete_basis(sd, [0, 1, 2], _Clock(5))  # x = y + w - ... : three columns in two rows
    assert str(e.value) == "the candidate's support columns are linearly dependent: not a vertex"
    rows = LinearProgram(("x", "y"), (), (C([(0, 1), (1, 1)], "=", 1), C([(0, 2), (1, 2)], "=", 2)))
    with pytest.raises(Singular) as e:
        certify._complete_basis(standard_form(rows), [], _Clock(5))
    assert str(e.value) == "the constraint matrix has dependent rows; no basis exists"


def test_dual_simplex_returns_a_degenerate_feasible_basis_unchanged():
    lp = two_row()
    lp = LinearProgram(lp.names, lp.objective, (*lp.rows, C([(0, 1), (1, 1)], ">=", F(4, 3))), "degenerate")
    basis, z, _, pivots = _dual_simplex(standard_form(lp), [0, 1, 4], _Clock(5))  # slack of row 2 basic at 0
    assert basis == [0, 1, 4] and pivots == 0 and fz(z) == [F(2, 3), F(2, 3), 0, 0, 0]


def test_dual_simplex_skips_columns_absent_from_the_leaving_row():
    lp = LinearProgram(
        ("x", "y", "w"),
        ((0, F(1)), (1, F(1)), (2, F(1))),
        (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2), C([(2, 1)], ">=", 1)),
    )
    _basis, z, _, pivots = _dual_simplex(standard_form(lp), [3, 4, 5], _Clock(5))
    assert fz(z[:3]) == [F(2, 3), F(2, 3), 1] and pivots == 3


@pytest.mark.parametrize("order", ["x first", "y first"])
def test_dual_simplex_compares_irrational_ratios_atom_by_atom(order):
    # min x + sqrt(2) y s.t. x + y >= 1: from the slack basis, x must enter (ratio 1 < sqrt(2))
    if order == "x first":
        lp = LinearProgram(("x", "y"), ((0, F(1)), (1, R2)), (C([(0, 1), (1, 1)], ">=", 1),))
        want = [1, 0]
    else:
        lp = LinearProgram(("y", "x"), ((0, R2), (1, F(1))), (C([(0, 1), (1, 1)], ">=", 1),))
        want = [0, 1]
    _basis, z, _, pivots = _dual_simplex(standard_form(lp), [2], _Clock(5))
    assert fz(z[:2]) == want and pivots == 1


def test_simplex_and_two_phase_count_their_pivots(monkeypatch):
    std = standard_form(two_row())
    _basis, z, _, pivots = certify._simplex(std, [0, 3], _Clock(5))  # x = 2, slack1 = 2: one pivot to the optimum
    assert pivots == 1 and fz(z) == [F(2, 3), F(2, 3), 0, 0]
    assert certify._simplex(std, [0, 1], _Clock(5))[3] == 0
    _, _, _, p = _two_phase(std, _Clock(5))
    assert p == 2
    c = solve(two_row(), timeout_s=10, candidate=[F(2), F(0)])
    assert c.simplex_pivots == 1


def test_two_phase_with_fractional_right_hand_sides():
    lp = LinearProgram(
        ("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 2)], ">=", F(1, 2)), C([(0, 2), (1, 1)], ">=", F(1, 2)))
    )
    _basis, z, _, _ = _two_phase(standard_form(lp), _Clock(5))
    assert fz(z[:2]) == [F(1, 6), F(1, 6)]


def test_two_phase_with_dependent_equality_rows_keeps_a_pinned_artificial(monkeypatch):
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: None)
    rows = (C([(0, 1), (1, 1), (2, 1)], "=", 1), C([(0, 2), (1, 2), (2, 2)], "=", 2))
    lp = LinearProgram(("x", "y", "w"), ((0, F(3)), (1, F(1)), (2, F(2))), rows)
    c = solve(lp, timeout_s=10)
    assert c.x == (0, 1, 0) and c.objective == 1 and c.proposer == "exact two-phase simplex"


def test_vertex_reduced_costs_on_a_larger_lp_and_zero_objectives():
    from udpm.core.mechanisms import truncated_geometric
    from udpm.core.users import BayesianUser, absolute_error
    from udpm.lp.programs import bayesian_lp

    n, a = 3, F(1, 2)
    lp = bayesian_lp(BayesianUser.of([F(1, 4)] * 4, absolute_error(n)), a)
    x = [v for row in truncated_geometric(n, a) for v in row]
    nonbasic, (d, zero) = vertex_reduced_costs(lp, x, [lp.objective, ()], timeout_s=30)
    assert len(nonbasic) == len(d) == len(zero) and zero == [0] * len(nonbasic)
    assert all(v >= 0 for v in d)
    lp2 = two_row()
    assert vertex_reduced_costs(lp2, [F(2, 3), F(2, 3)], [()], timeout_s=5) == ([2, 3], [[0, 0]])


def test_is_vertex_uses_the_bounds_x_ge_0():
    lp = LinearProgram(("x", "y"), (), (C([(0, 1), (1, 1)], "<=", 2, "cap"),))
    assert is_vertex(lp, [0, 0]) and is_vertex(lp, [2, 0])
    assert not is_vertex(lp, [1, 1]) and not is_vertex(lp, [1, 0])


def test_the_exact_fallback_of_sign_of():
    nested = sympy.sqrt(5 + 2 * sympy.sqrt(6))  # = sqrt(2) + sqrt(3) = 3.146..., no interval rule
    assert sign_of({nested: F(1, 2), ONE_ATOM: F(-2)}) == -1  # 1.57 - 2
    assert sign_of({nested: F(-1, 2), ONE_ATOM: F(3, 2)}) == -1  # -1.57 + 1.5
    # a combination that sympy itself folds to 0 once it is built
    assert sign_of({sympy.Add(R2, 1, evaluate=False): F(1), R2: F(-1), ONE_ATOM: F(-1)}) == 0


def test_sign_of_refuses_to_guess(monkeypatch):
    nested = sympy.sqrt(5 + 2 * sympy.sqrt(6))
    monkeypatch.setattr(certify.sympy, "minimal_polynomial", lambda expr, x: x + 1)  # no zero proof
    with pytest.raises(CertificationFailed) as e:
        sign_of({nested: F(1), R2: F(-1), R3: F(-1)})
    assert str(e.value).startswith("could not decide the sign of ") and str(e.value).endswith(" exactly")


def test_highs_gets_the_whole_cost_and_equality_rows():
    # cost of x is 1 + sqrt(2) = 2.41 > 2 = cost of y: HiGHS must see both atoms to propose y
    lp = LinearProgram(("x", "y"), ((0, 1 + R2), (1, F(2))), (C([(0, 1), (1, 1)], ">=", 1),))
    assert certify._highs_basis(standard_form(lp), 5) == [1]
    c = solve(lp, timeout_s=10)
    assert c.proposer == "highs" and c.x == (0, 1)
    eq = LinearProgram(("x", "y"), ((0, F(1)), (1, F(2))), (C([(0, 1), (1, 1)], "=", 1),))
    assert certify._highs_basis(standard_form(eq), 5) == [0]


def test_the_dual_check_names_itself_on_timeout():
    std = standard_form(two_row())
    Q = flint.fmpq
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(dual check\) exceeded 1 s$"):
        _check(std, [Q(2, 3), Q(2, 3), Q(0), Q(0)], [[Q(1, 3)], [Q(1, 3)]], [0, 1], expired())


@pytest.mark.parametrize("obj, pivots", [(((0, 1), (1, 1)), 6), (((0, 1), (1, -1)), 4), (((0, -1), (1, 1)), 5)])
def test_two_phase_pivots_are_the_sum_of_both_phases(obj, pivots):
    lp = LinearProgram(
        ("x", "y"),
        tuple((j, F(v)) for j, v in obj),
        (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2), C([(0, 1), (1, 1)], "<=", 5)),
    )
    assert _two_phase(standard_form(lp), _Clock(5))[3] == pivots


def test_an_artificial_left_basic_at_zero_is_pinned_in_phase_two(monkeypatch):
    # x = y = 0 is the only feasible point; phase 1 leaves the artificial of the row -2x - 2y = 0 basic at 0,
    # and letting it move in phase 2 would walk along -2x - 2y = a > 0 and report the LP unbounded
    lp = LinearProgram(
        ("x", "y"),
        ((0, F(-2)), (1, F(-2))),
        (C([(0, 0), (1, 0)], "=", 0), C([(0, -2), (1, -2)], "=", 0)),
    )
    _, z, _, _ = _two_phase(standard_form(lp), _Clock(5))
    assert fz(z) == [0, 0]
    monkeypatch.setattr(certify, "_highs_basis", lambda std, timeout_s: None)
    c = solve(lp, timeout_s=10)
    assert c.x == (0, 0) and c.objective == 0 and c.proposer == "exact two-phase simplex"


def test_elimination_polls_the_clock_on_long_pivot_rows():
    Q = flint.fmpq
    rows = [{c: Q(1) for c in range(70)}, {c: Q(c + 1) for c in range(70)}]  # two rows of 70 entries
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(elimination\) exceeded 1 s$"):
        sparse_rank(rows, expired())


def test_an_lp_without_constraints():
    c = solve(LinearProgram(("x", "y"), ((0, F(1)), (1, F(2))), ()), timeout_s=10)
    assert c.x == (0, 0) and c.objective == 0 and c.y == () and c.unique is True


def test_a_candidate_with_a_singular_support_falls_back():
    # x and y have the same column: the candidate's support {x, y} has m = 2 columns but no basis
    rows = (C([(0, 1), (1, 1), (2, 1)], "=", 1), C([(0, 1), (1, 1), (2, -1)], "=", 1))
    lp = LinearProgram(("x", "y", "w"), ((0, F(1)), (1, F(2)), (2, F(1))), rows)
    c = solve(lp, timeout_s=10, candidate=[F(1, 2), F(1, 2), 0])
    assert c.x == (1, 0, 0) and c.objective == 1 and c.proposer == "highs"


def test_highs_sees_each_row_sense():
    eq = LinearProgram(("x", "y"), ((0, F(-1)),), (C([(0, 1), (1, 1)], "=", 1), C([(0, 1)], "<=", 3)))
    assert certify._highs_basis(standard_form(eq), 5) == [0, 2]  # x = 1 (not 3: the row is an equality)
    ge = LinearProgram(("x", "y"), ((0, F(1)), (1, F(2))), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], ">=", F(1, 4))))
    assert certify._highs_basis(standard_form(ge), 5) == [0, 3]  # x = 1, the row x >= 1/4 is slack
    assert solve(ge, timeout_s=10).proposer == "highs" and solve(eq, timeout_s=10).proposer == "highs"


def test_a_pinned_artificial_competes_in_the_ratio_test_with_ratio_zero():
    # phase 1 ends with an artificial basic at 0 that a phase-2 entering column would move, next to
    # another basic variable with a positive ratio: the artificial's ratio is 0, the minimum
    rows = (
        C([(0, 1), (1, 2), (2, 1), (3, -1)], ">=", 0),
        C([(0, -2), (1, -1), (2, 1), (3, -1)], ">=", 2),
        C([(0, 1), (2, 1), (3, 2)], "<=", 2),
    )
    lp = LinearProgram(("a", "b", "c", "d"), ((1, F(2)), (2, F(2)), (3, F(1))), rows)
    _, z, _, _ = _two_phase(standard_form(lp), _Clock(5))
    assert fz(z) == [0, 0, 2, 0, 2, 0, 0]
