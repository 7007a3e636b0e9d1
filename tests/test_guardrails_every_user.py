"""Guard rails for udpm/auditing/every_user.py: each test pins a behaviour a mutant of the module got wrong without the
existing tests noticing (benchmarks/mutation.py; the equivalent mutants are in benchmarks/mutation_equivalents.json).
Grouped by the function they pin."""

from __future__ import annotations

import re
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
import z3

from udpm.auditing import every_user as e
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import CertificationFailed, HarnessError, InvalidMatrix, VacuousPremise

HALF = F(1, 2)
T2 = truncated_geometric(2, HALF)
RR = [[HALF if i == j else F(1, 4) for j in range(3)] for i in range(3)]
#: a legal user (row 1 has prior 0) for whom T(2, 2/3) is not optimal at alpha = 1/2; total weight 17
BEATEN = [[F(0), F(0), F(3)], [F(0), F(0), F(0)], [F(7), F(7), F(0)]]
#: a legal user with no zero column (every mechanism loses something), total weight 17
SPREAD = [[F(1), F(2), F(3)], [F(2), F(1), F(2)], [F(3), F(2), F(1)]]


@pytest.fixture
def fresh_cache():
    """geometric_for_every_user caches per process: clear it so the test reaches the code under test."""
    e._geometric_for_every_user.cache_clear()
    yield
    e._geometric_for_every_user.cache_clear()


def _fixed(w, values):
    """A z3 model that gives the weight variables ``w`` these exact values."""
    s = z3.Solver()
    s.add(_fixed_constraints(w, values))
    assert s.check() == z3.sat
    return s.model()


def _fixed_constraints(w, values):
    return [w[i][r] == z3.Q(v.numerator, v.denominator) for i, row in enumerate(values) for r, v in enumerate(row)]


def _matrix(premise: str) -> list[list[F]]:
    assert premise.startswith("W = [[")
    return [[F(v) for v in re.findall(r"-?\d+(?:/\d+)?", row)] for row in premise[4:].split("], [")]


# ---------------------------------------------------------------- the cone of users


def test_an_unknown_cone_is_refused_naming_the_cones():
    with pytest.raises(ValueError, match=r"^unknown cone 'symmetric'; one of legal, sided, nonnegative$"):
        e.cone(e.weights(2), "symmetric")


def test_a_negative_weight_is_in_no_cone():
    for kind in e.CONES:
        assert not e.in_cone([[F(-1), F(0)], [F(0), F(0)]], kind)
    assert e.in_cone([[F(1), F(0)], [F(0), F(0)]], e.NONNEGATIVE)


def test_user_of_is_exact_and_gives_a_zero_row_zero_loss():
    u = e.user_of([[1, 2], [0, 0]])  # integer weights: still exact rationals
    assert u.prior == (F(1), F(0))
    assert [list(r) for r in u.loss.values] == [[F(1, 3), F(2, 3)], [F(0), F(0)]]
    assert all(type(v) is F for r in u.loss.values for v in r) and all(type(p) is F for p in u.prior)


def test_model_weights_reads_a_variable_the_model_leaves_free_as_zero():
    w = e.weights(1)
    s = z3.Solver()
    s.add(w[0][1] == z3.Q(1, 2))  # w_0_0, w_1_0, w_1_1 do not occur: the model does not mention them
    assert s.check() == z3.sat
    assert e._model_weights(s.model(), w) == [[F(0), F(1, 2)], [F(0), F(0)]]


@pytest.mark.parametrize("kind", e.CONES)
def test_the_premise_witness_is_a_user_of_the_cone_with_total_weight_1(kind):
    values = _matrix(e.nonzero_user(e.weights(2), kind, 10))
    assert sum(v for row in values for v in row) == 1 and e.in_cone(values, kind)


def test_the_premise_witness_reads_a_variable_it_omits_as_zero(monkeypatch):
    monkeypatch.setattr(e, "premise_witness", lambda premises, timeout_s, what: {"w_0_1": "1/2", "w_1_0": "1/2"})
    assert e.nonzero_user(e.weights(1), e.LEGAL, 10) == "W = [[0, 1/2], [1/2, 0]]"


def test_a_contradictory_cone_is_refused_naming_the_cone(monkeypatch):
    monkeypatch.setattr(e, "cone", lambda w, kind: [w[0][0] < 0, w[0][0] >= 0])
    with pytest.raises(VacuousPremise, match=r"^sided users: the hypotheses have no model"):
        e.nonzero_user(e.weights(1), e.SIDED, 10)


# ---------------------------------------------------------------- the feasible set


def test_signatures_are_down_plus_1_and_up_minus_1_in_order():
    assert e.signatures(2) == [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def test_a_ray_starts_at_1_and_goes_down_by_alpha_or_up_by_1_over_alpha():
    assert e.ray((1, -1, -1), HALF) == [F(1), F(1, 2), F(1), F(2)]
    assert e._show((1, -1, -1)) == "↓↑↑" and e._show((-1, 1)) == "↑↓"


def test_the_phi_bounds_are_exact_at_the_boundary():
    """_at_most_phi(v) means v <= phi_column(W) and _at_least_phi(v) means v >= phi_column(W), equality included."""
    w = e.weights(1)
    values = [[F(1), F(2)], [F(3), F(4)]]
    column = [HALF, F(1, 4)]
    phi = e.best_output_value(column, values)
    assert phi == F(5, 4)
    v = z3.Real("v")
    for bound, inside, outside in (
        (e._at_most_phi(v, column, w), phi, phi + F(1, 1000)),
        (e._at_least_phi(v, column, w), phi, phi - F(1, 1000)),
    ):
        for value, answer in ((inside, z3.sat), (outside, z3.unsat)):
            s = z3.Solver()
            s.add(_fixed_constraints(w, values))
            s.add(bound)
            s.add(v == z3.Q(value.numerator, value.denominator))
            assert s.check() == answer, (bound, value)


def _fixed_constraints(w, values):
    return [w[i][r] == z3.Q(v.numerator, v.denominator) for i, row in enumerate(values) for r, v in enumerate(row)]


# ---------------------------------------------------------------- the exact re-check of a counterexample


def test_a_certified_counterexample_is_normalised_and_named():
    cex = e._certified_counterexample(truncated_geometric(2, F(2, 3)), BEATEN, HALF, e.LEGAL, 30, "here")
    assert cex.user.prior == (F(3, 17), F(0), F(14, 17))
    assert (cex.mechanism_loss, cex.optimum) == (F(3, 17), F(13, 102))
    assert cex.mechanism_loss == cex.user.expected_loss(
        [[F(0), F(0), F(1)]] * 3
    )  # the loss of sending everything to output 2, the best remap of T(2, 2/3) here
    assert cex.detail == "n=2, alpha=1/2, legal user from here"
    assert str(cex) == (
        "n=2, alpha=1/2, legal user from here: prior [3/17, 0, 14/17], loss [[0, 0, 1], [0, 0, 0], [1/2, 1/2, 0]]; "
        "the best remap loses 3/17 > 13/102, the certified optimum"
    )


def test_a_solver_user_outside_the_cone_is_a_harness_error():
    outside = [[F(1), F(0), F(0)], [F(0), F(0), F(0)], [F(0), F(0), F(0)]]
    with pytest.raises(HarnessError, match=r"^the solver's user is not in the legal cone: "):
        e._certified_counterexample(T2, outside, HALF, e.LEGAL, 30, "here")


def test_a_user_for_whom_m_ties_the_optimum_is_undecided_not_a_counterexample():
    with pytest.raises(e.Undecided, match=r"^the solver's user at here does not beat M once re-checked exactly"):
        e._certified_counterexample(T2, SPREAD, HALF, e.LEGAL, 30, "here")


def test_an_uncertified_optimum_is_undecided_naming_where(monkeypatch):
    def fail(lp, timeout_s):
        raise CertificationFailed("no basis")

    monkeypatch.setattr(e, "solve", fail)
    with pytest.raises(e.Undecided, match=r"^no certified optimum for the user found at here: no basis$"):
        e._certified_counterexample(truncated_geometric(2, F(2, 3)), BEATEN, HALF, e.LEGAL, 30, "here")


# ---------------------------------------------------------------- optimal_for_every_user


def test_a_singular_square_mechanism_is_refused_by_the_dual_test():
    with pytest.raises(InvalidMatrix, match=r"^the dual test needs a square invertible mechanism \(outputs 0\.\.n\)$"):
        e.optimal_for_every_user([[HALF, HALF], [HALF, HALF]], HALF)


def test_a_verdict_that_holds_names_its_instance():
    v = e.optimal_for_every_user(T2, HALF, e.SIDED, timeout_s=30)
    assert (v.n, v.alpha, v.cone, v.holds) == (2, HALF, e.SIDED, True)


def test_a_refuted_verdict_names_its_instance_the_failing_ray_and_the_premise():
    v = e.optimal_for_every_user(truncated_geometric(2, F(2, 3)), HALF, timeout_s=30)
    assert (v.n, v.alpha, v.cone, v.queries) == (2, HALF, e.LEGAL, 1)
    assert v.premise == e.nonzero_user(e.weights(2), e.LEGAL, 30)
    assert v.counterexample.detail == "n=2, alpha=1/2, legal user from ray ↓↓ to output 0"


# ---------------------------------------------------------------- user_preferring


def test_mechanisms_of_different_heights_are_refused_with_both_heights():
    with pytest.raises(InvalidMatrix, match=r"^M has 2 rows, T has 3$"):
        e.user_preferring(T2, [[HALF, HALF], [HALF, HALF]], HALF)


@pytest.mark.parametrize(
    "m",
    [
        [[r[0] + r[1], r[2]] for r in T2],  # T(2, 1/2) with outputs 0 and 1 merged: worse by a small margin
        [[r[0], r[1], r[2] * F(99, 100), r[2] / 100] for r in RR],  # RR with a nearly empty extra output
    ],
    ids=["T with two outputs merged", "RR with an output split 99:1"],
)
def test_a_mechanism_slightly_worse_than_t_is_caught_by_a_named_user(m):
    """Each column's phi has a variable of its own (one shared variable finds none of these users)."""
    cex = e.user_preferring(T2, m, HALF, timeout_s=30)
    assert cex is not None and cex.optimum < cex.mechanism_loss
    assert cex.detail == "n=2, alpha=1/2, legal user from a user preferring T"


def test_a_solver_user_that_does_not_separate_m_from_t_is_a_harness_error(monkeypatch):
    model = _fixed(e.weights(2), SPREAD)  # M = T: no user separates them; total weight 17
    monkeypatch.setattr(e, "decide", lambda query, timeout_s: SimpleNamespace(unsat=False, model=model))
    with pytest.raises(HarnessError, match=r"^the solver's user does not separate M from T exactly: "):
        e.user_preferring(T2, T2, HALF, timeout_s=30)


# ---------------------------------------------------------------- geometric_for_every_user / mechanism_for_every_user


def test_a_cache_hit_reports_each_query_file_and_answer(fresh_cache):
    from udpm.claims.instances import BOUNDED
    from udpm.claims.registry import Findings

    e.geometric_for_every_user(2, HALF, e.LEGAL, 30)
    rec = Findings("grs2011.cor3.3")
    with rec.deciding(n=2, alpha=HALF, kind=BOUNDED, method="m", covers="c"):
        e.geometric_for_every_user(2, HALF, e.LEGAL, 30)  # a cache hit
    smt = rec.decisions[0].smt
    assert sorted(a.split(":")[0] for _, a in smt) == ["sat", "unsat", "unsat", "unsat"], smt  # witness, 3 queries
    assert all(re.fullmatch(r"[0-9a-f]{16}", f) for f, _ in smt), smt


def test_a_square_invertible_mechanism_is_decided_by_the_dual_test(fresh_cache):
    assert e.mechanism_for_every_user(T2, HALF, e.SIDED, timeout_s=30) == e.optimal_for_every_user(
        T2, HALF, e.SIDED, timeout_s=30
    )


def test_a_non_square_mechanism_with_a_remap_to_t_is_optimal_for_every_user(fresh_cache):
    t = truncated_geometric(2, F(1, 3))
    split = [[row[0] / 3, 2 * row[0] / 3, *row[1:]] for row in t]
    g = e.geometric_for_every_user(2, F(1, 3), e.SIDED, 30)
    v = e.mechanism_for_every_user(split, F(1, 3), e.SIDED, timeout_s=30)
    assert v == e.EveryUser(2, F(1, 3), e.SIDED, g.queries + 1, g.premise)


def test_a_non_square_mechanism_worse_than_t_gets_a_counterexample(fresh_cache):
    merged = [[r[0] + r[1], r[2]] for r in T2]
    g = e.geometric_for_every_user(2, HALF, e.SIDED, 30)
    v = e.mechanism_for_every_user(merged, HALF, e.SIDED, timeout_s=30)
    assert (v.n, v.alpha, v.cone, v.queries, v.premise) == (2, HALF, e.SIDED, g.queries + 1, g.premise)
    assert v.counterexample is not None
    assert v.counterexample.detail == "n=2, alpha=1/2, sided user from a user preferring T"


def test_a_singular_square_mechanism_is_compared_with_t(fresh_cache):
    v = e.mechanism_for_every_user([[HALF, HALF], [HALF, HALF]], HALF, timeout_s=30)
    assert (v.n, v.queries) == (1, 1) and not v.holds


def test_a_mechanism_that_is_not_private_is_refused():
    with pytest.raises(InvalidMatrix, match=r"^M is not 1/2-DP: "):
        e.mechanism_for_every_user([[F(1), F(0)], [F(0), F(1)]], HALF)


@pytest.mark.parametrize(
    "m", [T2, [[r[0] + r[1], r[2]] for r in T2]], ids=["square: the dual test", "non-square: against T"]
)
def test_the_time_bound_reaches_every_query(monkeypatch, fresh_cache, m):
    seen = []
    real = e.decide

    def spy(query, timeout_s):
        seen.append(timeout_s)
        return real(query, timeout_s)

    monkeypatch.setattr(e, "decide", spy)
    e.mechanism_for_every_user(m, HALF, timeout_s=29)
    assert seen and set(seen) == {29}
