"""Pins udpm.lp.refinement's observable behaviour (its bases, its per-attempt statistics ``LAST``, the HiGHS
models it builds and its exact helpers) on fixed LPs, so that a changed refinement step is seen.

The traces are HiGHS's deterministic answers on these small LPs; each is pinned by the sha256 of its repr
(the small ones also literally)."""

import hashlib
from fractions import Fraction as F
from typing import ClassVar

import flint
import pytest
import sympy

from udpm.core.users import BayesianUser, Loss, absolute_error
from udpm.lp import refinement
from udpm.lp.certify import standard_form
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp


def C(coeffs: list[tuple[int, int]], sense: str, rhs: int) -> Constraint:
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), "")


def two_row(obj: tuple = ((0, 1), (1, 1))) -> LinearProgram:
    objective = tuple((j, c if isinstance(c, sympy.Expr) else F(c)) for j, c in obj)
    return LinearProgram(("x", "y"), objective, (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2)))


def grs(n: int, problem: str) -> LinearProgram:
    if problem == "U":
        user = BayesianUser.of([F(1, n + 1)] * (n + 1), absolute_error(n))
    else:
        total = (n + 1) * (n + 2) // 2
        loss = Loss.from_function(n, lambda i, j: 1 + abs(i - j) % 4)
        user = BayesianUser.of([F(i + 1, total) for i in range(n + 1)], loss)
    return bayesian_lp(user, F(1, 2))


LPS: dict[str, LinearProgram] = {
    "two rows": two_row(),
    "degenerate": LinearProgram(
        ("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], ">=", 0), C([(1, 1)], ">=", 0))
    ),
    "equality": LinearProgram(("x", "y"), ((0, F(2)), (1, F(3))), (C([(0, 1), (1, 1)], "=", 1),)),
    "mixed": LinearProgram(
        ("x", "y", "z"),
        ((0, F(-1)), (1, F(-2)), (2, F(1, 3))),
        (C([(0, 1), (1, 1), (2, 1)], "=", 3), C([(0, 1)], "<=", 2), C([(1, 3), (2, 1)], ">=", 1)),
    ),
    "irrational objective": two_row(((0, sympy.sqrt(2)), (1, 1))),
    "grs2011 U n=8": grs(8, "U"),
    "grs2011 M n=8": grs(8, "M"),
    "infeasible": LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], ">=", 2), C([(0, 1)], "<=", 1))),
    "unbounded": LinearProgram(("x",), ((0, F(-1)),), (C([(0, 1)], ">=", 1),)),
}

CONFIGS: dict[str, dict] = {
    "default": {},
    "cold": {"WARM_START": False},
    "no quick check": {"QUICK_CHECK_ROWS": 0},
    "cold, no quick check": {"WARM_START": False, "QUICK_CHECK_ROWS": 0},
    "unrefined": {"MAX_ROUNDS": 0},
    "one exact check": {"QUICK_CHECK_ROWS": 0, "MAX_EXACT_CHECKS": 1},
    "slow growth": {"QUICK_CHECK_ROWS": 0, "WARM_START": False, "MAX_ROUNDS": 3, "GROWTH_BITS": 4},
    "one round": {"QUICK_CHECK_ROWS": 0, "WARM_START": False, "MAX_ROUNDS": 1, "GROWTH_BITS": 70},
    # HiGHS sees the first cost negated: its bases fail the exact check, which uses the true objective
    "perturbed": {"_objective": "perturbed"},
    "perturbed, no quick check": {"_objective": "perturbed", "QUICK_CHECK_ROWS": 0},
    "perturbed, cold": {"_objective": "perturbed", "QUICK_CHECK_ROWS": 0, "WARM_START": False},
    "perturbed, two checks": {"_objective": "perturbed", "QUICK_CHECK_ROWS": 0, "MAX_EXACT_CHECKS": 2},
    "perturbed, one round": {"_objective": "perturbed", "QUICK_CHECK_ROWS": 0, "MAX_ROUNDS": 1},
}

_OBJECTIVE = refinement._objective


def perturbed(std: object) -> list[flint.fmpq]:
    return [-v if j == 0 else v for j, v in enumerate(_OBJECTIVE(std))]


def trace(lp: LinearProgram) -> tuple:
    std = standard_form(lp)
    basis = refinement.refined_basis(std, 30)
    last = [{k: v for k, v in s.items() if k != "seconds"} for s in refinement.LAST]
    known = sorted((k, [str(v) for v in z], [str(v) for yk in y for v in yk]) for k, (z, y) in std.known.items())
    return basis, last, known


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


# (config, lp) -> digest of trace(lp) under that configuration
TRACES: dict[tuple[str, str], str] = {
    ("perturbed", "two rows"): "f36f3b5c9ef97ad7",
    ("perturbed", "degenerate"): "2001716af151cf49",
    ("perturbed", "equality"): "b40b134e830c353c",
    ("perturbed", "mixed"): "7494e2a9a86d0acb",
    ("perturbed", "irrational objective"): "f36f3b5c9ef97ad7",
    ("perturbed", "grs2011 U n=8"): "2b836e81d32d58f5",
    ("perturbed", "grs2011 M n=8"): "5f7b38f8c68f24dc",
    ("perturbed", "infeasible"): "1606337819615c36",
    ("perturbed", "unbounded"): "6106978de9c51172",
    ("perturbed, no quick check", "two rows"): "f36f3b5c9ef97ad7",
    ("perturbed, no quick check", "degenerate"): "2001716af151cf49",
    ("perturbed, no quick check", "equality"): "98185d7a4aed66a4",
    ("perturbed, no quick check", "mixed"): "2a7e240ba46caa40",
    ("perturbed, no quick check", "irrational objective"): "f36f3b5c9ef97ad7",
    ("perturbed, no quick check", "grs2011 U n=8"): "ed694b76aaf3ff99",
    ("perturbed, no quick check", "grs2011 M n=8"): "f4bd613309a5094f",
    ("perturbed, no quick check", "infeasible"): "1606337819615c36",
    ("perturbed, no quick check", "unbounded"): "0f97370a8e38f7e3",
    ("perturbed, cold", "two rows"): "f36f3b5c9ef97ad7",
    ("perturbed, cold", "degenerate"): "2001716af151cf49",
    ("perturbed, cold", "equality"): "8608f72a96fd5f4b",
    ("perturbed, cold", "mixed"): "4b82e94d04301b08",
    ("perturbed, cold", "irrational objective"): "f36f3b5c9ef97ad7",
    ("perturbed, cold", "grs2011 U n=8"): "90a7d503e7e21800",
    ("perturbed, cold", "grs2011 M n=8"): "2f45e8da3a113003",
    ("perturbed, cold", "infeasible"): "1606337819615c36",
    ("perturbed, cold", "unbounded"): "c967a979332978bf",
    ("perturbed, two checks", "two rows"): "f36f3b5c9ef97ad7",
    ("perturbed, two checks", "degenerate"): "2001716af151cf49",
    ("perturbed, two checks", "equality"): "98185d7a4aed66a4",
    ("perturbed, two checks", "mixed"): "2a7e240ba46caa40",
    ("perturbed, two checks", "irrational objective"): "f36f3b5c9ef97ad7",
    ("perturbed, two checks", "grs2011 U n=8"): "ed694b76aaf3ff99",
    ("perturbed, two checks", "grs2011 M n=8"): "f4bd613309a5094f",
    ("perturbed, two checks", "infeasible"): "1606337819615c36",
    ("perturbed, two checks", "unbounded"): "0f97370a8e38f7e3",
    ("perturbed, one round", "two rows"): "f36f3b5c9ef97ad7",
    ("perturbed, one round", "degenerate"): "2001716af151cf49",
    ("perturbed, one round", "equality"): "98185d7a4aed66a4",
    ("perturbed, one round", "mixed"): "2a7e240ba46caa40",
    ("perturbed, one round", "irrational objective"): "f36f3b5c9ef97ad7",
    ("perturbed, one round", "grs2011 U n=8"): "ed694b76aaf3ff99",
    ("perturbed, one round", "grs2011 M n=8"): "921d77c53224b7aa",
    ("perturbed, one round", "infeasible"): "1606337819615c36",
    ("perturbed, one round", "unbounded"): "83438c7c0d13baeb",
    ("default", "two rows"): "4a210b8f6f4f72bf",
    ("default", "degenerate"): "924b8b0bdb8ef429",
    ("default", "equality"): "b40b134e830c353c",
    ("default", "mixed"): "7494e2a9a86d0acb",
    ("default", "irrational objective"): "c142ceabee67d78d",
    ("default", "grs2011 U n=8"): "2b836e81d32d58f5",
    ("default", "grs2011 M n=8"): "16f3fe44093cd0e7",
    ("default", "infeasible"): "1606337819615c36",
    ("default", "unbounded"): "94b046904b71b938",
    ("cold", "two rows"): "acad76de25a3c792",
    ("cold", "degenerate"): "1e8ca82f34cc2f80",
    ("cold", "equality"): "8608f72a96fd5f4b",
    ("cold", "mixed"): "4b82e94d04301b08",
    ("cold", "irrational objective"): "7f11cf8ef20c576a",
    ("cold", "grs2011 U n=8"): "90a7d503e7e21800",
    ("cold", "grs2011 M n=8"): "9c4c72ea56e410cb",
    ("cold", "infeasible"): "1606337819615c36",
    ("cold", "unbounded"): "94b046904b71b938",
    ("no quick check", "two rows"): "2b86b7d58fb598c0",
    ("no quick check", "degenerate"): "98e4837ed24dff9f",
    ("no quick check", "equality"): "98185d7a4aed66a4",
    ("no quick check", "mixed"): "2a7e240ba46caa40",
    ("no quick check", "irrational objective"): "f66061dd68ad8777",
    ("no quick check", "grs2011 U n=8"): "ed694b76aaf3ff99",
    ("no quick check", "grs2011 M n=8"): "1f5586a3101768cb",
    ("no quick check", "infeasible"): "1606337819615c36",
    ("no quick check", "unbounded"): "94b046904b71b938",
    ("cold, no quick check", "two rows"): "acad76de25a3c792",
    ("cold, no quick check", "degenerate"): "1e8ca82f34cc2f80",
    ("cold, no quick check", "equality"): "8608f72a96fd5f4b",
    ("cold, no quick check", "mixed"): "4b82e94d04301b08",
    ("cold, no quick check", "irrational objective"): "7f11cf8ef20c576a",
    ("cold, no quick check", "grs2011 U n=8"): "90a7d503e7e21800",
    ("cold, no quick check", "grs2011 M n=8"): "9c4c72ea56e410cb",
    ("cold, no quick check", "infeasible"): "1606337819615c36",
    ("cold, no quick check", "unbounded"): "94b046904b71b938",
    ("unrefined", "two rows"): "be65e98c999445ee",
    ("unrefined", "degenerate"): "e7c29cd9bdf26eab",
    ("unrefined", "equality"): "ff97b51f6a0032b8",
    ("unrefined", "mixed"): "e7c29cd9bdf26eab",
    ("unrefined", "irrational objective"): "be65e98c999445ee",
    ("unrefined", "grs2011 U n=8"): "38e161412e60aa23",
    ("unrefined", "grs2011 M n=8"): "e1f14a97e591125f",
    ("unrefined", "infeasible"): "1606337819615c36",
    ("unrefined", "unbounded"): "94b046904b71b938",
    ("one exact check", "two rows"): "2b86b7d58fb598c0",
    ("one exact check", "degenerate"): "98e4837ed24dff9f",
    ("one exact check", "equality"): "98185d7a4aed66a4",
    ("one exact check", "mixed"): "2a7e240ba46caa40",
    ("one exact check", "irrational objective"): "f66061dd68ad8777",
    ("one exact check", "grs2011 U n=8"): "ed694b76aaf3ff99",
    ("one exact check", "grs2011 M n=8"): "1f5586a3101768cb",
    ("one exact check", "infeasible"): "1606337819615c36",
    ("one exact check", "unbounded"): "94b046904b71b938",
    ("slow growth", "two rows"): "ca4044887a977df0",
    ("slow growth", "degenerate"): "1e8ca82f34cc2f80",
    ("slow growth", "equality"): "8608f72a96fd5f4b",
    ("slow growth", "mixed"): "4b82e94d04301b08",
    ("slow growth", "irrational objective"): "b9903dbec4209106",
    ("slow growth", "grs2011 U n=8"): "367498fa06da5c50",
    ("slow growth", "grs2011 M n=8"): "8ac465423afdc8aa",
    ("slow growth", "infeasible"): "1606337819615c36",
    ("slow growth", "unbounded"): "94b046904b71b938",
    ("one round", "two rows"): "acad76de25a3c792",
    ("one round", "degenerate"): "1e8ca82f34cc2f80",
    ("one round", "equality"): "8608f72a96fd5f4b",
    ("one round", "mixed"): "4b82e94d04301b08",
    ("one round", "irrational objective"): "7f11cf8ef20c576a",
    ("one round", "grs2011 U n=8"): "90a7d503e7e21800",
    ("one round", "grs2011 M n=8"): "9c4c72ea56e410cb",
    ("one round", "infeasible"): "1606337819615c36",
    ("one round", "unbounded"): "94b046904b71b938",
}

OPTS = {"primal_feasibility_tolerance": 1e-09, "dual_feasibility_tolerance": 1e-09}

LITERAL: list[tuple[str, str, tuple]] = [
    (
        "default",
        "two rows",
        ([0, 1], [{"options": "first basis, exact check", "rounds": 0, "exact_checks": 1, "converged": True}]),
    ),
    (
        "cold",
        "two rows",
        (
            [0, 1],
            [
                {
                    "options": OPTS,
                    "rounds": 1,
                    "exact_checks": 1,
                    "converged": True,
                    "iterations": [2, 0],
                    "scales": [(53, 54)],
                }
            ],
        ),
    ),
    (
        "default",
        "unbounded",
        (
            None,
            [{"options": OPTS, "rounds": 0, "exact_checks": 0, "converged": False, "unbounded": ([0], [1.0, 1.0])}],
        ),
    ),
    (
        "unrefined",
        "degenerate",
        ([1, 3, 4], [{"options": OPTS, "rounds": 0, "exact_checks": 0, "converged": False, "iterations": [0]}]),
    ),
]


@pytest.fixture
def config(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    for k, v in CONFIGS[request.param].items():
        monkeypatch.setattr(refinement, k, perturbed if v == "perturbed" else v)
    return request.param


@pytest.mark.parametrize("config, lp, expected", LITERAL, indirect=["config"])
def test_small_traces_literally(config: str, lp: str, expected: tuple) -> None:
    assert trace(LPS[lp])[:2] == expected


@pytest.mark.parametrize("config", sorted(CONFIGS), indirect=True)
def test_traces_of_every_lp_under_every_configuration(config: str) -> None:
    got = {lp: digest(trace(LPS[lp])) for lp in LPS}
    assert got == {lp: TRACES[config, lp] for lp in LPS}


@pytest.mark.parametrize(
    "v, e, expected",
    [
        (flint.fmpq(0), 5, 0.0),
        (flint.fmpq(3), 0, 3.0),
        (flint.fmpq(3), 1, 6.0),
        (flint.fmpq(-3), 2, -12.0),
        (flint.fmpq(-(2**53)), 0, float(-(2**53))),
        (flint.fmpq(2**53 + 1), 0, 9007199254740992.0),
        (flint.fmpq(1, 3), 0, 1 / 3),
        (flint.fmpq(1, 3), 2, 4 / 3),
        (flint.fmpq(3), -1, 1.5),
        (flint.fmpq(5, 7), -3, 5 / 56),
        (flint.fmpq(2**1100), 0, float("inf")),
        (flint.fmpq(-(2**1100)), 0, float("-inf")),
        (flint.fmpq(1), 1100, float("inf")),
        (flint.fmpq(-1), 1100, float("-inf")),
    ],
)
def test_scaled_float(v: flint.fmpq, e: int, expected: float) -> None:
    assert refinement._scaled_float(v, e) == expected


@pytest.mark.parametrize(
    "v, expected", [(flint.fmpq(1), 0), (flint.fmpq(8), 3), (flint.fmpq(1, 8), -3), (flint.fmpq(3, 5), -1)]
)
def test_log2(v: flint.fmpq, expected: int) -> None:
    assert refinement._log2(v) == expected


def test_objective_exact_and_irrational() -> None:
    assert (
        refinement._objective(standard_form(LPS["mixed"]))
        == [flint.fmpq(-1), flint.fmpq(-2), flint.fmpq(1, 3)] + [flint.fmpq(0)] * 2
    )
    c = refinement._objective(standard_form(LPS["irrational objective"]))
    assert c[1:] == [flint.fmpq(1), flint.fmpq(0), flint.fmpq(0)]
    assert abs(float(c[0]) - 2**0.5) < 1e-15 and c[0].q.bit_length() <= 125 and c[0] * c[0] != 2
    assert abs(c[0] * c[0] - 2) < flint.fmpq(1, 2**110)


@pytest.mark.parametrize("lp", ["two rows", "mixed", "equality", "degenerate"])
def test_native_start_and_model(lp: str) -> None:
    std = standard_form(LPS[lp])
    cost = refinement._objective(std)
    start = refinement._native_start(std, cost, 10, {})
    model = refinement._Model(std, cost, 10, {})
    h = model.h.getLp()
    seen = (
        [[int(s) for s in part] for part in start] if start is not None else None,
        list(h.col_cost_),
        list(h.col_lower_),
        list(h.col_upper_),
        list(h.row_lower_),
        list(h.row_upper_),
        list(h.a_matrix_.start_),
        list(h.a_matrix_.index_),
        list(h.a_matrix_.value_),
        model.h.getOptionValue("presolve"),
        model.h.getOptionValue("time_limit"),
    )
    if start is not None:
        model.warm(start)
    seen += (model.run(first=True), model.iterations(), model.basis(std))
    assert digest(repr(seen)) == NATIVE[lp]


NATIVE: dict[str, str] = {
    "two rows": "f33bf5def08a9947",
    "mixed": "c33bf80558174109",
    "equality": "9215d1797126566f",
    "degenerate": "2bba133e5c256e7b",
}


@pytest.mark.parametrize(
    "atom, expected",
    [
        # sqrt(2) and exp(100) to 120 bits: the first has a negative binary exponent, the second a positive one
        (sympy.sqrt(2), flint.fmpq(939906129562517623222788173740722879, 2**119)),
        (sympy.exp(100), flint.fmpq(26881171418161354484126255515800135886962688)),
        # sqrt(13173) lies within 10^-40 of the midpoint of two 120-bit values: its 40-digit decimal rounds to the
        # upper one (41 digits would give the lower).  HiGHS's proposals, and so the bases certify is offered,
        # depend on these bits: the pin keeps them reproducible.
        (sympy.sqrt(13173), flint.fmpq(595939071924618295550745654394376463, 2**112)),
    ],
)
def test_objective_rounds_each_atom_to_120_bits(atom: sympy.Expr, expected: flint.fmpq) -> None:
    lp = LinearProgram(("x", "y"), ((0, atom), (1, F(1))), (C([(0, 1), (1, 1)], ">=", 1),))
    assert refinement._objective(standard_form(lp)) == [expected, flint.fmpq(1), flint.fmpq(0)]


def test_attempt_records_its_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refinement, "QUICK_CHECK_ROWS", 0)
    refinement.refined_basis(standard_form(LPS["grs2011 M n=8"]), 30)
    seconds = [s["seconds"] for s in refinement.LAST if "seconds" in s]
    assert len(seconds) == 1 and isinstance(seconds[0], float) and 0 <= seconds[0] < 30
    assert round(seconds[0], 3) == seconds[0]


class RecordingClock:
    """A clock that never expires and records its bound and what it was ticked for."""

    made: ClassVar[list[float]] = []
    ticks: ClassVar[list[str]] = []

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.deadline = float("inf")
        RecordingClock.made.append(timeout_s)

    def tick(self, what: str) -> None:
        RecordingClock.ticks.append(what)


def test_attempt_and_first_check_bound_their_exact_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refinement, "_Clock", RecordingClock)
    monkeypatch.setattr(RecordingClock, "made", [])
    monkeypatch.setattr(RecordingClock, "ticks", [])
    std = standard_form(LPS["grs2011 M n=8"])
    assert refinement._attempt(std, 0.5, {}, {"rounds": 0, "exact_checks": 0, "converged": False}) is not None
    start = refinement._native_start(std, refinement._objective(std), 10, {})
    assert refinement._first_basis_exact(std, start, 1e-5) is not None
    assert RecordingClock.made == [0.5, 1e-3]  # a bound below 1 ms is raised to 1 ms
    assert "iterative refinement" in RecordingClock.ticks


def test_native_start_sets_highs_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import highspy

    calls: list[tuple[str, object, object]] = []

    class Recording(highspy.Highs):
        def setOptionValue(self, name: str, value: object) -> object:
            status = super().setOptionValue(name, value)
            calls.append((name, value, status))
            return status

    monkeypatch.setattr(highspy, "Highs", Recording)
    refinement._native_start(
        standard_form(LPS["two rows"]), refinement._objective(standard_form(LPS["two rows"])), 7, {}
    )
    assert calls[0] == ("time_limit", 7.0, highspy.HighsStatus.kOk)
    assert all(status == highspy.HighsStatus.kOk for _, _, status in calls)


def test_the_quick_check_covers_exactly_quick_check_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    std = standard_form(LPS["two rows"])
    monkeypatch.setattr(refinement, "QUICK_CHECK_ROWS", std.m)
    assert refinement.refined_basis(std, 30) == [0, 1]
    assert [s["options"] for s in refinement.LAST] == ["first basis, exact check"]
    monkeypatch.setattr(refinement, "QUICK_CHECK_ROWS", std.m - 1)
    refinement.refined_basis(standard_form(LPS["two rows"]), 30)
    assert [s["options"] for s in refinement.LAST] == [refinement.ATTEMPTS[0]]


def test_a_bound_under_one_second_still_runs_an_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(refinement, "QUICK_CHECK_ROWS", 0)
    assert refinement.refined_basis(standard_form(LPS["two rows"]), 0.5) == [0, 1]
    assert len(refinement.LAST) == 1 and refinement.LAST[0]["converged"]
