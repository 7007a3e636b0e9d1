"""Each step of udpm.lp.refinement's loop on one fixed LP, with HiGHS's answer set by hand where the step
depends on it: the residual problem a round builds, the scales it records, when it checks a basis exactly,
when it stops, and what a failed re-solve leaves in ``LAST``.

HiGHS only proposes (udpm.lp.certify decides), so none of these steps can change a verdict; they pin the
refinement as the module's docstring describes it."""

from __future__ import annotations

import math
from fractions import Fraction as F
from types import SimpleNamespace

import highspy
import pytest

from udpm.errors import SolverTimeout
from udpm.lp import refinement
from udpm.lp.certify import standard_form
from udpm.lp.exact_lp import Singular
from udpm.lp.programs import Constraint, LinearProgram


def C(coeffs: list[tuple[int, int]], sense: str, rhs: F | int) -> Constraint:
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), "")


# min x + y, x + 2y >= 2, 2x + y >= 2: the optimum (2/3, 2/3) is not a float, so no float solution is exact;
# the standard form's columns are x, y and the two slacks.
TWO_ROWS = LinearProgram(
    ("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2))
)
# min x - w/2, x - w >= 1/3: the optimum x = 1/3 has the dual 1 exactly (a float), and the reduced cost of w
# (1/2) needs the dual's term.
DUAL_ONE = LinearProgram(("x", "w"), ((0, F(1)), (1, F(-1, 2))), (C([(0, 1), (1, -1)], ">=", F(1, 3)),))
# min 2x + 3y + z, x + y = 1, 2x + 2y + z = 2: at the optimum (1, 0, 0) HiGHS keeps a row's logical basic, so
# its basis of the standard form (equality rows, no slacks) is {x} alone, completed exactly by z.
REDUNDANT = LinearProgram(
    ("x", "y", "z"),
    ((0, F(2)), (1, F(3)), (2, F(1))),
    (C([(0, 1), (1, 1)], "=", 1), C([(0, 2), (1, 2), (2, 1)], "=", 2)),
)
OPTIMAL_BASIS = [0, 1]  # of TWO_ROWS


def stats() -> dict:
    return {"options": {}, "rounds": 0, "exact_checks": 0, "converged": False}


def attempt(lp: LinearProgram, warm: object = None) -> tuple[list[int] | None, dict]:
    """One refinement attempt on ``lp`` from a cold start (or ``warm``): its basis and its statistics."""
    s = stats()
    return refinement._attempt(standard_form(lp), 30, {}, s, warm), s


class FirstSolution:
    """HiGHS's first solution replaced by (col_value, row_dual); later solutions are HiGHS's own."""

    def __init__(self, h: object, col_value: list[float], row_dual: list[float]) -> None:
        self._h, self._first = h, SimpleNamespace(col_value=col_value, row_dual=row_dual)

    def getSolution(self) -> object:
        first, self._first = self._first, None
        return first if first is not None else self._h.getSolution()

    def __getattr__(self, name: str) -> object:
        return getattr(self._h, name)


def first_solution(monkeypatch: pytest.MonkeyPatch, col_value: list[float], row_dual: list[float]) -> None:
    init = refinement._Model.__init__

    def patched(self: refinement._Model, *args: object) -> None:
        init(self, *args)
        self.h = FirstSolution(self.h, col_value, row_dual)

    monkeypatch.setattr(refinement._Model, "__init__", patched)


def residual_problems(monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[tuple]:
    """The (rhs, lower, cost) of every re-solve; with ``fail`` each re-solve's costs are made negative, so that
    HiGHS finds it unbounded."""
    seen: list[tuple] = []
    resolve = refinement._Model.resolve

    def spy(self: refinement._Model, rhs: list[float], lower: list[float], cost: list[float]) -> bool:
        seen.append((rhs, lower, cost))
        return resolve(self, rhs, lower, [-1.0] * len(cost) if fail else cost)

    monkeypatch.setattr(refinement._Model, "resolve", spy)
    return seen


# ------------------------------------------------------------------ the HiGHS model


class Answer:
    """A HiGHS run that ends in ``status`` with the given validity of its values and duals."""

    def __init__(self, status: object, value_valid: bool = True, dual_valid: bool = True) -> None:
        self.status = status
        self.solution = SimpleNamespace(value_valid=value_valid, dual_valid=dual_valid)

    def run(self) -> None:
        pass

    def getModelStatus(self) -> object:
        return self.status

    def getSolution(self) -> object:
        return self.solution


S = highspy.HighsModelStatus


@pytest.mark.parametrize(
    "answer, first, proposes",
    [
        (Answer(S.kOptimal), True, True),
        (Answer(S.kOptimal), False, True),
        (Answer(S.kUnknown), False, True),  # a residual problem's 'unknown' still proposes
        (Answer(S.kUnknown), True, False),  # the first solve's does not
        (Answer(S.kUnknown, value_valid=False), False, False),
        (Answer(S.kUnknown, dual_valid=False), False, False),
        (Answer(S.kInfeasible), False, False),
        (Answer(S.kTimeLimit), False, False),
        (Answer(S.kInfeasible), True, False),
    ],
)
def test_a_run_proposes_an_optimum_or_a_residual_unknown(answer: Answer, first: bool, proposes: bool) -> None:
    model = refinement._Model.__new__(refinement._Model)
    model.hs, model.h = highspy, answer
    assert model.run(first=first) is proposes
    if not first:
        assert model.run() is proposes  # a residual re-solve by default


def test_a_warm_start_from_the_optimal_basis_needs_no_iteration() -> None:
    std = standard_form(TWO_ROWS)
    cost = refinement._objective(std)
    cold = refinement._Model(std, cost, 10, {})
    assert cold.run(first=True) and cold.iterations() > 0
    b = cold.h.getBasis()
    warm = refinement._Model(std, cost, 10, {})
    warm.warm((list(b.col_status), list(b.row_status)))
    assert warm.h.getBasis().valid
    assert warm.run(first=True) and warm.iterations() == 0 and warm.basis(std) == OPTIMAL_BASIS


def test_the_native_start_keeps_a_redundant_rows_logical_basic() -> None:
    std = standard_form(REDUNDANT)
    cols, rows = refinement._native_start(std, refinement._objective(std), 10, {})
    basic = highspy.HighsBasisStatus.kBasic
    assert sum(s == basic for s in cols) + sum(s == basic for s in rows) == std.m
    assert basic in rows


def test_complete_extends_a_short_basis_and_keeps_a_full_one() -> None:
    std = standard_form(TWO_ROWS)
    clock = refinement._Clock(10)
    full = [0, 1]
    assert refinement._complete(std, full, clock) is full
    assert len(refinement._complete(std, [0], clock)) == std.m


# ------------------------------------------------------------------ one attempt


def test_the_first_solve_must_be_optimal(monkeypatch: pytest.MonkeyPatch) -> None:
    # HiGHS ends its first solve 'unknown' with valid values: not a proposal (only a residual re-solve may)
    init = refinement._Model.__init__

    class Unknown(FirstSolution):
        def getModelStatus(self) -> object:
            return S.kUnknown

    def patched(self: refinement._Model, *args: object) -> None:
        init(self, *args)
        self.h = Unknown(self.h, [], [])

    monkeypatch.setattr(refinement._Model, "__init__", patched)
    assert attempt(TWO_ROWS) == (None, stats())


def test_a_cold_solve_without_iterations_is_checked_exactly_before_any_round(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refinement._Model, "iterations", lambda self: 0)
    basis, s = attempt(TWO_ROWS)
    assert basis == OPTIMAL_BASIS and (s["rounds"], s["exact_checks"], s["converged"]) == (0, 1, True)


def test_the_reduced_costs_use_a_dual_of_exactly_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # HiGHS's dual is exactly 1 and the reduced costs are then exactly >= 0: the first round's dual scale
    # grows by GROWTH_BITS (a dual violation of 1/2 would set it to 1)
    seen = residual_problems(monkeypatch)
    _, s = attempt(DUAL_ONE)
    assert s["converged"] and s["scales"][0][1] == refinement.GROWTH_BITS
    assert seen[0][2] == [0.0, refinement.CLIP, refinement.CLIP]  # 2^59 and 2^60, clipped


@pytest.mark.parametrize(
    "x, scales",
    [
        ([0.0, 0.0, 0.0, 0.0], (0, refinement.GROWTH_BITS)),  # residuals (2, 2): a violation of 2
        ([1.0, 0.0, 0.0, 0.0], (0, refinement.GROWTH_BITS)),  # residuals (1, 0): a violation of exactly 1
        ([2.0, 2.0, 4.0, 4.0], (0, refinement.GROWTH_BITS)),  # feasible rows, but nothing negative
        ([-1.0, 3.0, 3.0, -1.0], (0, refinement.GROWTH_BITS)),  # rows hold, x has entries -1
        ([-0.25, 2.5, 2.75, 0.25], (2, refinement.GROWTH_BITS)),  # rows hold, x has the entry -1/4
    ],
)
def test_the_primal_violation_is_the_largest_residual_or_negative_entry(
    x: list[float], scales: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    first_solution(monkeypatch, x, [0.0, 0.0])
    residual_problems(monkeypatch)
    monkeypatch.setattr(refinement, "MAX_ROUNDS", 1)
    _, s = attempt(TWO_ROWS)
    if x == [2.0, 2.0, 4.0, 4.0]:  # an exact primal and y = 0 with costs >= 0: checked at once, no round
        assert (s["rounds"], s["exact_checks"]) == (0, 1)
    else:
        assert s["scales"][0] == scales


def test_the_residual_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    # x = (1, 2^200, 1e30, 0): the rows' residuals are of order 2^201, so the primal scale is 2^0
    big, edge = 2.0**200, 1e30
    first_solution(monkeypatch, [1.0, big, edge, 0.0], [0.0, 0.0])
    seen = residual_problems(monkeypatch, fail=True)
    attempt(TWO_ROWS)
    rhs, lower, cost = seen[0]
    assert rhs == [float(2 - 1 - 2 * F(big) + F(edge)), float(2 - 2 - F(big))]
    # -x scaled, with -1 kept as it is and anything at or below -INF_BOUND passed as -inf
    assert lower == [-1.0, -math.inf, -math.inf, 0.0]
    assert cost == [refinement.CLIP, refinement.CLIP, 0.0, 0.0]  # y = 0: the costs, scaled by 2^60 and clipped


def test_a_failed_resolve_records_highs_status_and_keeps_the_basis(monkeypatch: pytest.MonkeyPatch) -> None:
    residual_problems(monkeypatch, fail=True)
    basis, s = attempt(TWO_ROWS)
    assert basis == OPTIMAL_BASIS and s["rounds"] == 1 and not s["converged"]
    assert s["status"] == "Unbounded"
    iterations, primal, dual = s["info"]
    assert isinstance(iterations, int) and isinstance(primal, float) and isinstance(dual, float)
    assert "seconds" in s


def _singular(*args: object) -> None:
    raise Singular("a singular basis")


@pytest.mark.parametrize(
    "iterations, setting, rounds_and_checks",
    [
        (0, ("MAX_EXACT_CHECKS", 0), (0, 0)),  # no exact check allowed
        (0, ("exactly_optimal", _singular), (0, 1)),  # the one exact check meets a singular basis
        # HiGHS never settles (every re-solve iterates) and x never becomes exact (2/3 is not a float)
        (1, ("MAX_ROUNDS", 2), (2, 0)),
    ],
    ids=["exact checks", "a singular basis", "rounds"],
)
def test_an_attempt_stopped_by_a_bound_ends_with_its_last_basis(
    iterations: int, setting: tuple, rounds_and_checks: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(refinement._Model, "iterations", lambda self: iterations)
    monkeypatch.setattr(refinement, *setting)
    basis, s = attempt(TWO_ROWS)
    assert basis == OPTIMAL_BASIS and (s["rounds"], s["exact_checks"], s["converged"]) == (*rounds_and_checks, False)
    assert "seconds" in s


def test_a_short_basis_is_completed_for_its_exact_check() -> None:
    basis, s = attempt(REDUNDANT)
    assert basis == [0, 2] and s["converged"]


def test_a_failed_check_rescales_to_the_exact_solution_and_every_new_basis_is_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # HiGHS's first basis is set to {x, s1}: its exact solution x = 1, s1 = -1 is not feasible.  The next round
    # is scaled to that violation (1, so 2^0), and the optimal basis the round finds is checked in turn.
    bases = iter([[0, 2]])
    real = refinement._Model.basis
    monkeypatch.setattr(refinement._Model, "basis", lambda self, std: next(bases, None) or real(self, std))
    monkeypatch.setattr(refinement._Model, "iterations", lambda self: 0)
    basis, s = attempt(TWO_ROWS)
    assert basis == OPTIMAL_BASIS and s["converged"] and s["exact_checks"] == 2 and s["rounds"] == 1
    assert s["scales"][0][0] == 0


def test_an_irrational_objective_keeps_highs_dual_after_a_failed_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import sympy

    lp = LinearProgram(("x", "y"), ((0, sympy.sqrt(2)), (1, F(1))), TWO_ROWS.rows)
    bases = iter([[0, 2]])
    real = refinement._Model.basis
    monkeypatch.setattr(refinement._Model, "basis", lambda self, std: next(bases, None) or real(self, std))
    monkeypatch.setattr(refinement._Model, "iterations", lambda self: 0)
    _, s = attempt(lp)
    # the dual scale comes from HiGHS's float dual (a violation of about 2^-54); the rational parts of the
    # exact dual of {x, s1} (0, 0) are not a dual of this objective and would show no violation (2^60)
    assert s["converged"] and s["scales"] == [(0, 54)]


# ------------------------------------------------------------------ the attempts


def frozen_time(monkeypatch: pytest.MonkeyPatch, now: list[float]) -> None:
    monkeypatch.setattr(refinement, "time", SimpleNamespace(perf_counter=lambda: now[0]))


def test_no_time_left_means_no_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    frozen_time(monkeypatch, [100.0])
    monkeypatch.setattr(refinement, "WARM_START", False)
    assert refinement.refined_basis(standard_form(TWO_ROWS), 0) is None
    assert refinement.LAST == []


@pytest.mark.parametrize("second", ["out of time", "timeout"])
def test_the_first_attempts_basis_is_kept_when_the_second_cannot_finish(
    second: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    frozen_time(monkeypatch, now)
    monkeypatch.setattr(refinement, "WARM_START", False)
    calls: list[int] = []

    def fake(std: object, left: float, options: dict, s: dict, warm: object) -> list[int]:
        calls.append(1)
        if len(calls) == 2:
            raise SolverTimeout("the second attempt's bound")
        now[0] += 10 if second == "out of time" else 1
        return [0, 2]  # not converged

    monkeypatch.setattr(refinement, "_attempt", fake)
    assert refinement.refined_basis(standard_form(TWO_ROWS), 5) == [0, 2]
    assert len(calls) == (1 if second == "out of time" else 2)
