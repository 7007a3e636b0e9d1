"""Pins udpm.lp.certify's exact ray check (``_exact_ray``), the feasible-candidate fallback of ``_solve`` and the
second-optimum search on fixed LPs, with HiGHS's proposals set by hand where the path depends on them."""

from fractions import Fraction as F

import pytest
import sympy

from udpm.lp import certify
from udpm.lp.programs import Constraint, LinearProgram


def C(coeffs: list[tuple[int, object]], sense: str, rhs: int, name: str = "") -> Constraint:
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), name)


# One row x - y - u + v - q - 2p <= 1 (slack column 7) and a column r in no row.  From the basis {x}:
# y, u (w = -1, d = -1), r (w = 0, d = -1) and p (w = -2, d = -1) are exact rays;
# v (w = 1, d = -1) is blocked; q (w = -1, d = 0) does not decrease the objective; the slack has w = 1.
RAYS = LinearProgram(
    ("x", "y", "u", "v", "q", "r", "p"),
    ((0, F(-1)), (3, F(-2)), (4, F(1)), (5, F(-1)), (6, F(1))),
    (C([(0, 1), (1, -1), (2, -1), (3, 1), (4, -1), (6, -2)], "<=", 1),),
)


def ray(**nonzero: float) -> list[float]:
    cols = ["x", "y", "u", "v", "q", "r", "p", "s"]
    return [float(nonzero.get(c, 0.0)) for c in cols]


@pytest.mark.parametrize(
    "last, expected",
    [
        ([], None),
        ([{"rounds": 0}], None),
        ([{"rounds": 0}, {"unbounded": ([0], ray(x=1, y=1))}], 1),
        ([{"unbounded": ([0], ray(x=1, y=0.5, u=2))}], 2),  # the largest ray entry first
        ([{"unbounded": ([0], ray(x=1, y=1, v=3))}], 1),  # v is blocked (w > 0): the next candidate
        ([{"unbounded": ([0], ray(x=1, y=1, q=3))}], 1),  # q has reduced cost 0: not a ray
        ([{"unbounded": ([0], ray(r=0.5))}], 5),  # w = 0 is no block
        ([{"unbounded": ([0], ray(p=0.5))}], 6),  # c_p - c_x w = 1 - 2 < 0
        ([{"unbounded": ([0], ray(x=1))}], None),  # only basic or zero entries: no candidate
        ([{"unbounded": ([0], ray(y=0.0, s=1))}], None),  # the slack is blocked
        ([{"unbounded": ([0], ray(v=1, q=1))}], None),
        ([{"unbounded": ([5], ray(y=1))}], None),  # a singular basis: no decision
        ([{"unbounded": ([], ray(y=1))}], None),
        ([{"unbounded": ([], ray(y=1, u=1, s=1))}], None),
        ([{"unbounded": ([], ray(r=1))}], 5),  # HiGHS's basis is completed (by the slack): r is a ray from it
    ],
)
def test_exact_ray(last: list[dict], expected: int | None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(certify.refinement, "LAST", last)
    std = certify.standard_form(RAYS)
    assert certify._exact_ray(std, certify._Clock(10)) == expected


def test_exact_ray_with_an_irrational_reduced_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    # min -x + (2 - sqrt(2)/2) y, x - y <= 1: from the basis {x}, y has w = -1 and d = 1 - sqrt(2)/2 > 0
    lp = LinearProgram(("x", "y"), ((0, F(-1)), (1, 2 - sympy.sqrt(2) / 2)), (C([(0, 1), (1, -1)], "<=", 1),))
    monkeypatch.setattr(certify.refinement, "LAST", [{"unbounded": ([0], [1.0, 1.0, 0.0])}])
    assert certify._exact_ray(certify.standard_form(lp), certify._Clock(10)) is None
    lp2 = LinearProgram(("x", "y"), ((0, F(-1)), (1, 1 - sympy.sqrt(2) / 2)), (C([(0, 1), (1, -1)], "<=", 1),))
    assert certify._exact_ray(certify.standard_form(lp2), certify._Clock(10)) == 1


UNBOUNDED = LinearProgram(("x", "y"), ((0, F(-1)), (1, F(0))), (C([(0, 1), (1, -1)], "<=", 1),))


def test_a_feasible_candidate_and_an_exact_ray_prove_unboundedness() -> None:
    with pytest.raises(certify.Unbounded) as e:
        certify._solve(UNBOUNDED, certify._Clock(10), [F(1), F(0)], decide_unique=False, repair_candidate=False)
    assert str(e.value) == "the LP is unbounded below (a feasible candidate and an exact ray)"


def test_without_a_ray_the_feasible_candidate_is_repaired(monkeypatch: pytest.MonkeyPatch) -> None:
    lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2)))
    monkeypatch.setattr(certify, "refined_basis", lambda std, timeout_s: None)
    monkeypatch.setattr(certify.refinement, "LAST", [])
    c = certify._solve(lp, certify._Clock(10), [F(2), F(0)], decide_unique=True, repair_candidate=False)
    assert (c.x, c.objective, c.unique, c.proposer, c.simplex_pivots) == (
        (F(2, 3), F(2, 3)),
        F(4, 3),
        True,
        "candidate+exact simplex",
        1,
    )
    certify.check_certified(c)


def _second(lp: LinearProgram, z: list[int], basis: list[int], free: list[int]) -> int | None:
    std = certify.standard_form(lp)
    return certify._second_optimum(std, [certify.Q(v) for v in z], basis, free, certify._Clock(10))


EQ = LinearProgram(("x", "y", "u"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], "=", 1), C([(2, 1)], "=", 0)))
BLOCKED = LinearProgram(
    ("x", "y", "u"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], "=", 1), C([(2, 1), (1, 1)], "=", 0))
)
OPEN = LinearProgram(
    ("x", "y", "u"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], "=", 1), C([(2, 1), (1, -1)], "=", 0))
)


@pytest.mark.parametrize(
    "lp, z, basis, free, expected",
    [
        (EQ, [1, 0, 0], [0, 2], [1], 1),  # u is basic at 0 but w_u = 0: the edge along y is open
        (BLOCKED, [1, 0, 0], [0, 2], [1], None),  # w_u = 1 > 0 at a basic 0: blocked
        (OPEN, [1, 0, 0], [0, 2], [1], 1),  # w_u = -1
        (EQ, [1, 0, 1], [0, 2], [1], 1),  # nondegenerate (as z says): the first free column
        (BLOCKED, [1, 0, 0], [0, 2], [1, 1, 1, 1, 1, 1], None),  # every batch blocked
        (BLOCKED, [1, 0, 0], [0, 2], [1, 1, 1, 1], None),  # exactly one full batch
        (EQ, [1, 0, 0], [0, 5], [1], None),  # an artificial column left basic
    ],
)
def test_second_optimum(
    lp: LinearProgram, z: list[int], basis: list[int], free: list[int], expected: int | None
) -> None:
    assert _second(lp, z, basis, free) == expected


def test_a_degenerate_optimum_with_blocked_edges_and_an_unbounded_face_is_not_unique() -> None:
    # every edge from the basis {d, the three slacks} is blocked at the vertex 0, yet the optimal face is a cone
    rows = (
        C([(0, -2), (1, -1), (2, -2), (3, 2)], "<=", 0),
        C([(0, -1), (1, 1), (2, -1), (3, -1)], "=", 0),
        C([(3, -2)], "<=", 0),
        C([(0, -2), (1, -2), (2, 2), (3, -2)], "<=", 0),
    )
    lp = LinearProgram(("a", "b", "c", "d"), ((0, F(2)),), rows)
    std = certify.standard_form(lp)
    z = [certify.Q(0)] * std.ncols
    reduced = {0: 1, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0}
    clock = certify._Clock(10)
    assert certify._second_optimum(std, z, [3, 4, 5, 6], [1, 2], clock) is None
    assert certify._decide_unique(std, z, [3, 4, 5, 6], reduced, clock) == (False, None)
    c = certify.solve(lp, timeout_s=10)
    assert (c.objective, c.unique) == (0, False)


def _at_the_slack_vertex(lp: LinearProgram) -> tuple:
    """The standard form of ``lp`` at the vertex where every slack is basic: (std, z, basis, reduced, clock)."""
    std = certify.standard_form(lp)
    clock = certify._Clock(10)
    basis = [s for s in std.slack_of_row if s is not None]
    B = certify._Basis(std, basis, clock)
    z, y = B.primal(), B.dual()
    return std, z, basis, certify._check(std, z, y, basis, clock), clock


def _refuse(what: str):
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{what} was run")

    return refuse


# x, y, w >= 0, x <= y + w, y <= x + w, w <= x + y, x + y + w <= 1, objective 0: the optimal face is the whole
# bounded polytope; at the vertex 0 with the four slacks basic, each of x, y, w is blocked by one of the
# first three rows (basic at 0), so no edge shows a second optimum and the optimal-face LP decides.
BOUNDED_FACE = LinearProgram(
    ("x", "y", "w"),
    (),
    (
        C([(0, 1), (1, -1), (2, -1)], "<=", 0),
        C([(0, -1), (1, 1), (2, -1)], "<=", 0),
        C([(0, -1), (1, -1), (2, 1)], "<=", 0),
        C([(0, 1), (1, 1), (2, 1)], "<=", 1),
    ),
)
# x, y >= 0, x + y <= 0: the vertex 0 is the only feasible point, though both edges have reduced cost 0.
ONE_POINT = LinearProgram(("x", "y"), (), (C([(0, 1), (1, 1)], "<=", 0),))


def test_a_bounded_optimal_face_behind_blocked_edges_is_not_a_point(monkeypatch: pytest.MonkeyPatch) -> None:
    std, z, basis, reduced, clock = _at_the_slack_vertex(BOUNDED_FACE)
    assert certify._second_optimum(std, z, basis, [0, 1, 2], clock) is None
    # the vertex is not optimal for the face LP: HiGHS proposes its optimum, no exact pivot from the vertex
    monkeypatch.setattr(certify, "_simplex", _refuse("the exact simplex"))
    assert certify._decide_unique(std, z, basis, reduced, clock) == (False, None)
    monkeypatch.undo()
    assert certify.solve(BOUNDED_FACE, timeout_s=10).unique is False


def test_a_unique_degenerate_optimum_is_proved_from_the_vertex_without_highs(monkeypatch: pytest.MonkeyPatch) -> None:
    std, z, basis, reduced, clock = _at_the_slack_vertex(ONE_POINT)
    assert certify._second_optimum(std, z, basis, [0, 1], clock) is None
    # the optimal-face LP starts from the vertex, which is already its optimum: HiGHS is not asked
    monkeypatch.setattr(certify, "_highs_basis", _refuse("HiGHS"))
    assert certify._decide_unique(std, z, basis, reduced, clock) == (True, (F(-1),))
    monkeypatch.undo()
    c = certify.solve(ONE_POINT, timeout_s=10)
    assert (c.unique, c.extra) == (True, {"uniqueness_dual": (F(-1),)})
