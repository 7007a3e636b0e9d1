"""The refined generic path (udpm.lp.refinement) certifies the same optimum as the unrefined one, and a forged or
perturbed proposal is still repaired or rejected exactly: floats only propose."""

from fractions import Fraction as F

import pytest
import sympy

from udpm.core.users import BayesianUser, Loss, absolute_error
from udpm.errors import CertificationFailed
from udpm.lp import certify, refinement
from udpm.lp.certify import check_certified, solve, standard_form
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp


def C(coeffs, sense, rhs, name=""):
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), name)


def two_row(obj=((0, 1), (1, 1))):
    objective = tuple((j, c if isinstance(c, sympy.Expr) else F(c)) for j, c in obj)
    return LinearProgram(("x", "y"), objective, (C([(0, 1), (1, 2)], ">=", 2), C([(0, 2), (1, 1)], ">=", 2)))


def grs(n, problem):
    if problem == "U":
        user = BayesianUser.of([F(1, n + 1)] * (n + 1), absolute_error(n))
    else:
        total = (n + 1) * (n + 2) // 2
        loss = Loss.from_function(n, lambda i, j: 1 + abs(i - j) % 4)
        user = BayesianUser.of([F(i + 1, total) for i in range(n + 1)], loss)
    return bayesian_lp(user, F(1, 2))


TABLE = {
    "two rows": two_row(),
    "degenerate": LinearProgram(
        ("x", "y"), ((0, F(1)), (1, F(1))), (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], ">=", 0), C([(1, 1)], ">=", 0))
    ),
    "equality": LinearProgram(("x", "y"), ((0, F(2)), (1, F(3))), (C([(0, 1), (1, 1)], "=", 1),)),
    "irrational objective": two_row(((0, sympy.sqrt(2)), (1, 1))),
    "grs2011 U n=8": grs(8, "U"),
    "grs2011 M n=8": grs(8, "M"),
    "grs2011 U n=30": grs(30, "U"),
}


def _unrefined(lp, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(refinement, "MAX_ROUNDS", 0)
        return solve(lp, timeout_s=120)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_refined_path_gives_the_same_certified_optimum(name, monkeypatch):
    lp = TABLE[name]
    refined = solve(lp, timeout_s=120)
    before = _unrefined(lp, monkeypatch)
    assert refined.objective == before.objective and refined.unique == before.unique
    if refined.unique:
        assert refined.x == before.x
    check_certified(refined)


def test_refinement_reaches_an_exactly_optimal_basis_without_pivots():
    c = solve(TABLE["grs2011 U n=30"], timeout_s=120)
    assert c.proposer == "highs" and c.simplex_pivots == 0
    assert refinement.LAST and refinement.LAST[-1]["converged"]


@pytest.mark.parametrize(
    "lp, error",
    [
        (LinearProgram(("x",), ((0, F(1)),), (C([(0, 1)], ">=", 2), C([(0, 1)], "<=", 1))), "the LP is infeasible"),
        (LinearProgram(("x",), ((0, F(-1)),), (C([(0, 1)], ">=", 1),)), "the LP is unbounded below"),
    ],
)
def test_infeasible_and_unbounded_are_still_decided_exactly(lp, error):
    assert refinement.refined_basis(standard_form(lp), 5) is None  # HiGHS proposes nothing
    with pytest.raises(CertificationFailed) as e:
        solve(lp, timeout_s=10)
    assert str(e.value) == error


def test_a_forged_refined_basis_is_repaired_exactly(monkeypatch):
    monkeypatch.setattr(certify, "refined_basis", lambda std, timeout_s: [2, 3])  # both slacks: not optimal
    c = solve(two_row(), timeout_s=10)
    assert c.x == (F(2, 3), F(2, 3)) and c.simplex_pivots >= 1 and c.proposer != "highs"


def test_a_perturbed_float_proposal_is_never_trusted(monkeypatch):
    # HiGHS's answer perturbed: the objective it sees is off, so its basis is the wrong vertex; the exact check
    # rejects it and the exact repair reaches the true optimum.
    real = refinement._objective
    monkeypatch.setattr(refinement, "_objective", lambda std: [-v if j == 0 else v for j, v in enumerate(real(std))])
    c = solve(two_row(), timeout_s=10)
    assert c.x == (F(2, 3), F(2, 3)) and c.objective == F(4, 3)
    check_certified(c)


def test_forged_exact_solutions_in_the_cache_are_caught(monkeypatch):
    real = refinement.refined_basis

    def forge(std, timeout_s):
        basis = real(std, timeout_s)
        z, y = std.known[tuple(basis)]
        std.known[tuple(basis)] = ([v * 2 for v in z], y)  # a corrupted primal
        return basis

    monkeypatch.setattr(certify, "refined_basis", forge)
    with pytest.raises(CertificationFailed):
        solve(two_row(), timeout_s=10)
