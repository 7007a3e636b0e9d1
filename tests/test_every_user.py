"""udpm.auditing.every_user: the all-users decision is exact, fails on false variants with certified users, and agrees
with the certified LP optimum on users drawn at random from the cone."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from udpm.auditing import every_user as e
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import InvalidMatrix, VacuousPremise
from udpm.lp.certify import solve
from udpm.lp.programs import bayesian_lp
from udpm.smt.solvers import premise_witness

HALF = F(1, 2)


def _certified(cex, kind=e.LEGAL):
    """A counterexample is a user of the cone whose certified optimum is strictly below the mechanism's loss."""
    values = [[p * v for v in row] for p, row in zip(cex.user.prior, cex.user.loss.values)]
    assert e.in_cone(values, kind)
    assert cex.optimum < cex.mechanism_loss
    return values


@pytest.mark.parametrize(("n", "queries"), [(1, 0), (2, 3), (3, 16), (4, 55)])
def test_t_is_optimal_for_every_legal_user(n, queries):
    v = e.optimal_for_every_user(truncated_geometric(n, HALF), HALF, timeout_s=60)
    assert v.holds and v.queries == queries and v.premise.startswith("W = ")


def test_a_nonlegal_loss_breaks_t():
    v = e.optimal_for_every_user(truncated_geometric(3, HALF), HALF, e.NONNEGATIVE, timeout_s=60)
    assert not v.holds
    values = _certified(v.counterexample, e.NONNEGATIVE)
    assert not e.in_cone(values, e.LEGAL)


def test_t_at_another_alpha_is_not_optimal_for_every_user():
    v = e.optimal_for_every_user(truncated_geometric(3, F(2, 3)), HALF, timeout_s=60)
    assert not v.holds
    _certified(v.counterexample)


def test_randomized_response_is_beaten_by_a_certified_user():
    rr = [[F(1, 2) if i == j else F(1, 4) for j in range(3)] for i in range(3)]
    cex = e.user_preferring(truncated_geometric(2, HALF), rr, HALF, timeout_s=60)
    assert cex is not None
    _certified(cex)


def test_a_mechanism_with_a_remap_to_t_is_never_worse():
    t = truncated_geometric(3, F(1, 3))
    split = [[row[0] / 3, 2 * row[0] / 3, *row[1:]] for row in t]
    assert e.user_preferring(t, split, F(1, 3), timeout_s=60) is None


def test_non_square_or_non_private_mechanisms_are_refused():
    with pytest.raises(InvalidMatrix, match="square"):
        e.optimal_for_every_user([[HALF, HALF, 0], [HALF, HALF, 0]], HALF)
    with pytest.raises(InvalidMatrix, match="DP"):
        e.optimal_for_every_user([[1, 0], [0, 1]], HALF)


def test_an_unknown_cone_is_refused():
    with pytest.raises(ValueError, match="unknown cone"):
        e.cone(e.weights(2), "symmetric")


@pytest.mark.parametrize("kind", e.CONES)
def test_the_cone_premise_has_a_nonzero_witness_and_a_contradiction_is_caught(kind):
    w = e.weights(2)
    premise_witness([*e.cone(w, kind), z3.Sum([v for r in w for v in r]) == 1], 10, kind)
    with pytest.raises(VacuousPremise):
        premise_witness([*e.cone(w, kind), z3.Sum([v for r in w for v in r]) == -1], 10, kind)


matrices = st.lists(st.lists(st.integers(0, 3), min_size=4, max_size=4), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
@given(matrices)
def test_in_cone_agrees_with_the_smt_cone(rows):
    values = [[F(v) for v in row] for row in rows]
    w = e.weights(3)
    s = z3.Solver()
    s.add(e.cone(w, e.LEGAL))
    s.add([w[i][r] == values[i][r] for i in range(4) for r in range(4)])
    assert (s.check() == z3.sat) == e.in_cone(values, e.LEGAL)


legal_rows = st.lists(
    st.tuples(st.integers(0, 3), st.lists(st.integers(0, 3), min_size=3, max_size=3)), min_size=4, max_size=4
)


@settings(max_examples=15, deadline=None)
@given(legal_rows)
def test_every_legal_user_drawn_is_served_optimally_by_t(rows):
    """The all-users verdict against the certified LP on random users of the cone (a cross-check)."""
    values = []
    for i, (p, steps) in enumerate(rows):
        g = [F(0)]
        for s in steps:
            g.append(g[-1] + s)
        values.append([F(p) * g[abs(r - i)] for r in range(4)])
    if not any(v for row in values for v in row):
        return
    user = e.user_of(values)
    total = sum(v for row in values for v in row)
    t = truncated_geometric(3, HALF)
    assert e.remapped_loss(t, values) / total == solve(bayesian_lp(user, HALF), timeout_s=60).objective


def test_a_cache_hit_reports_the_same_smt_queries_to_the_open_decision():
    from udpm.claims.instances import BOUNDED
    from udpm.claims.registry import Findings

    def files() -> tuple[tuple[str, str], ...]:
        rec = Findings("grs2011.cor3.3")
        with rec.deciding(n=3, alpha=F(1, 3), kind=BOUNDED, method="m", covers="c"):
            e.geometric_for_every_user(3, F(1, 3), e.LEGAL, 60)
        return rec.decisions[0].smt

    first, second = files(), files()  # the second call is a cache hit
    assert first and first == second


def test_a_capture_block_nested_in_a_decision_with_equal_contents_closes_cleanly():
    """The two blocks hold equal sets when the capture closes: closing it must not close the decision's block."""
    from udpm.claims.instances import BOUNDED
    from udpm.claims.registry import Findings
    from udpm.smt.reports import reported_queries, smt_query

    rec = Findings("grs2011.cor3.3")
    with rec.deciding(n=1, alpha=F(1, 2), kind=BOUNDED, method="m", covers="c"):
        with reported_queries() as got:
            smt_query("a" * 16, "unsat: z3+cvc5")
        smt_query("b" * 16, "unsat: z3+cvc5")
    assert got == {("a" * 16, "unsat: z3+cvc5")}
    assert [f for f, _ in rec.decisions[0].smt] == ["a" * 16, "b" * 16]


def test_an_unconfirmed_sat_is_inconclusive_not_a_pass_nor_a_crash(monkeypatch):
    """A sat whose user the certified LP does not confirm leaves the instance inconclusive."""
    from udpm.claims.evidence import Status
    from udpm.claims.instances import BOUNDED
    from udpm.claims.registry import Findings

    class Optimal:
        objective = F(10**6)  # the 'certified optimum' beats nothing: the re-check does not confirm the sat

    monkeypatch.setattr(e, "solve", lambda lp, timeout_s: Optimal())
    rec = Findings("grs2011.cor3.3")
    with rec.deciding(n=3, alpha=HALF, kind=BOUNDED, method="m", covers="c"):
        e.optimal_for_every_user(truncated_geometric(3, F(2, 3)), HALF, timeout_s=60)
    assert rec.status is Status.INCONCLUSIVE and "does not beat M" in rec.decisions[0].detail
