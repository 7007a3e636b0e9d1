"""Averaging over equal counts (grs2011 Prop 6.1, grs2009 Prop 6.2): proved for every n in the run, the formulas
cross-checked by enumeration, each all-n step refuted with a concrete counterexample by its false variant on the
same code path, each SMT step refusing a contradictory premise."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import sympy as sp
import z3

from proofs.databases import averaging as avg
from proofs.databases import worst_extension as we
from udpm.claims.evidence import Status, grid_text
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Findings
from udpm.core.privacy import database_dp_violations, dp_violations
from udpm.errors import VacuousPremise
from udpm.induction import databases as udb
from udpm.lp.database import DatabaseSpace, average_by_count

CTX = Context()
F = Fraction
N, I_, K, M = udb.N_, udb.I_, udb.K_, udb.M_


@pytest.fixture(scope="module", params=[we.prop_6_1, we.prop_6_2], ids=["grs2011.prop6.1", "grs2009.prop6.2"])
def averaging(request):
    return request.param, request.param(CTX)


def test_averaging_proved_for_every_n_with_bounded_and_sampled_cross_checks(averaging):
    _, rec = averaging
    res = rec.result()
    assert res.status is Status.PROVED and str(ALL_N) in res.grid
    parts = {dict(d.instance.params)["part"]: d.outcome for d in rec.decided(ALL_N)}
    assert parts == {
        p: Outcome.HOLDS for p in ("1 degrees", "2 edges", "3 multipliers", "4 edge sum", "5 Farkas", "6 loss step (9)")
    }
    # bounded: the formulas against enumeration per space, and Farkas per (space, alpha)
    bounded = rec.decided(BOUNDED)
    assert len(bounded) == len(avg.SPACES) * (1 + len(we.ALPHAS))
    assert grid_text(res.grid[str(SAMPLED)]) == "alpha=1/4, 1/2, 2/3: n<=3"
    assert "non-trivial predicate" in rec.values["outside the printed hypotheses"]


def test_grs2009_proof_miscount_is_an_erratum_that_does_not_lower_the_proof(averaging):
    check, rec = averaging
    if check is we.prop_6_1:
        assert not rec.errata
        return
    (err,) = rec.errata
    assert err.cls == "typo" and "n - f(d_1) rows that satisfy" in err.printed
    # re-check the concrete case: n = 1, D = {0, 1}, P = {1}: database (1) has one neighbour of count 0
    space = DatabaseSpace.of(2, 1, (1,))
    assert sum(1 for d1, d2 in space.neighbours if (1,) in (d1, d2)) == 1 and "has 1 neighbour" in err.correct
    assert rec.result().status is Status.PROVED


def test_derived_degrees_match_enumeration_on_a_space_not_in_the_grid():
    up, down, _ = udb.derived_degrees(udb.hamming)
    assert sp.simplify(up - (N - I_) * K) == 0 and sp.simplify(down - (I_ + 1) * M) == 0
    space = DatabaseSpace.of(4, 3, (1, 3))
    rec = Findings("demo")
    avg.degrees_cross_check(rec, space, up, down)
    assert rec.decisions[0].outcome is Outcome.HOLDS


# ---------------------------------------------------------------- false variants, one per all-n step


def _refuted(check, **all_n):
    rec = check(CTX, all_n=all_n)
    assert rec.status is Status.REFUTED
    return rec.counterexample


def test_wrong_degree_formula_is_refuted_by_enumeration(averaging):
    check, _ = averaging
    cex = _refuted(check, degrees=((N - I_) * K, (N - I_) * M))  # the right degree with grs2009's row miscount
    assert "part=1 degrees" in cex and "(enumerated)" in cex
    m = re.search(r"n=(\d+), \|D\|=(\d+), P=\[([\d, ]+)\], database (\d+) has (\d+) neighbours of count (\d+)", cex)
    n, dom, pred, d, got, target = m.groups()
    space = DatabaseSpace.of(int(dom), int(n), tuple(int(v) for v in pred.split(", ")))
    d = tuple(int(c) for c in d)
    nb = [e for a, b in space.neighbours for e in ((b,) if a == d else (a,) if b == d else ())]
    assert sum(space.count(e) == int(target) for e in nb) == int(got)


def test_wrong_degrees_also_break_the_edge_count_and_the_multipliers():
    up, down, _ = udb.derived_degrees(udb.hamming)
    assert udb.edge_count_step(up, down)[0] is True
    ok, text = udb.edge_count_step(up, I_ * M)
    assert ok is False and "a |S_i| =" in text
    assert udb.farkas_step(2 * up, down)[0] is False


def test_non_regular_neighbour_relation_is_refuted(averaging):
    check, _ = averaging

    def only_value_0_crosses(frm, to, v):  # a row crosses the predicate only between P and N's value 0
        if (frm, to) == ("N", "P"):
            return sp.Piecewise((K, sp.Eq(v, 0)), (0, True))
        return sp.Integer(1) if (frm, to) == ("P", "N") else udb.hamming(frm, to, v)

    cex = _refuted(check, relation=only_value_0_crosses)
    assert "not regular at n=1, i=0, k=1, m=2" in cex
    # the concrete consequence: D = {0, 1, 2}, P = {2}, rows may cross only between 0 and 2 (and 0 <-> 1)
    space = DatabaseSpace.of(3, 1, (2,))
    pairs = (((0,), (2,)), ((0,), (1,)))
    x = {(2,): [F(2, 3), F(1, 3)], (0,): [F(1, 3), F(2, 3)], (1,): [F(1, 6), F(5, 6)]}
    assert not database_dp_violations(x, pairs, F(1, 2))
    assert dp_violations(average_by_count(space, x), F(1, 2))  # mean(1/3, 1/6) = 1/4 < 1/2 x 2/3


@pytest.mark.parametrize("claimed", [lambda a: (1 + a) / 2, lambda a: F(3, 4)], ids=["(1+a)/2", "3/4"])
def test_claimed_alpha_above_alpha_is_refuted_with_a_concrete_mechanism(claimed):
    cex = _refuted(we.prop_6_1, claimed=claimed)
    assert "part=5 Farkas" in cex and "averages to" in cex
    a = F(re.search(r"at alpha = (\d+/\d+)", cex).group(1))
    space = DatabaseSpace.of(2, 1)
    col = {d: [(1 - a) / 2 * a ** space.count(d), 1 - (1 - a) / 2 * a ** space.count(d)] for d in space.databases}
    assert not database_dp_violations(col, space.neighbours, a)
    assert dp_violations(average_by_count(space, col), claimed(a))


def test_stricter_alpha_claimed_is_refuted_at_all_n_and_bounded(averaging):
    check, _ = averaging
    bad = check(CTX, alpha_claimed=F(3, 4))
    assert bad.status is Status.REFUTED and "averages to" in bad.counterexample and "not 3/4-DP" in bad.counterexample
    assert bad.decided(BOUNDED, Outcome.COUNTEREXAMPLE)


def test_edge_sum_without_the_dp_inequality_is_refuted():
    cex = _refuted(we.prop_6_2, edge_dp=False)
    assert "part=4 edge sum" in cex and "edge sum: step (one more edge) fails" in cex


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (udb.worst_extension_step(weights_nonnegative=False), "weighted sum: step"),
        (udb.worst_extension_step(per_class="min"), "class mean: step"),
        (udb.minimax_step(per_class="min"), "class mean: step"),
    ],
    ids=["(9) negative weight", "(9) min per class", "(5) min per class"],
)
def test_loss_step_false_variants_are_refuted(step, words):
    cex = _refuted(we.prop_6_1, loss_step=step)
    assert f"part=6 loss step {step.objective}" in cex and words in cex


def test_minimax_loss_step_and_trivial_predicates_hold_for_gs2010_lemma6():
    rec = Findings("gs2010.lemma6")
    assert avg.averaging_all_n(rec, CTX, udb.MINIMAX, trivial_predicates=True) is True
    assert rec.status is Status.PROVED
    parts = {dict(d.instance.params)["part"] for d in rec.decisions}
    assert {"6 loss step (5)", "3' trivial predicate"} <= parts
    rec = Findings("gs2010.lemma6")
    avg.row_count_erratum(rec, "Lemma 6, proof")
    assert rec.errata[0].entry.startswith("Lemma 6, proof")


def test_trivial_predicate_step_false_variant_fails():
    ok, text = avg._proof_text((udb.trivial_predicate_obligation(trivial=False),), CTX.solver_timeout)
    assert ok is False and "trivial predicate: S_i or S_(i+1) is empty fails" in text
    with pytest.raises(VacuousPremise):
        avg.averaging_all_n(
            Findings("demo"),
            CTX,
            udb.MINIMAX,
            trivial_predicates=True,
            extra_premise={"3'": (z3.Int("k") + z3.Int("m") <= 0,)},
        )


def test_trivial_predicate_fails_step_3_outside_the_hypotheses():
    assert "k=0, m=1 and k=1, m=0" in udb.outside_the_hypotheses()
    # dropping the non-trivial predicate is a different obligation; it fails (decided, not assumed)
    ok, text = avg._proof_text(udb.multiplier_obligations(non_trivial=False), CTX.solver_timeout)
    assert ok is False and "have a member fails" in text


# ---------------------------------------------------------------- contradictory premises


@pytest.mark.parametrize(
    ("step", "premise"),
    [
        ("3", z3.Int("k") <= 0),  # the non-trivial predicate says k >= 1
        ("4", z3.Real("alpha") > 1),
        ("5", z3.Real("alpha") < 0),
        ("6", z3.Real("c") < 0),  # the class mean's step counts c >= 0 databases
    ],
)
def test_contradictory_premise_is_refused(step, premise):
    with pytest.raises(VacuousPremise):
        avg.averaging_all_n(Findings("demo"), CTX, udb.WORST_EXTENSION, extra_premise={step: (premise,)})
