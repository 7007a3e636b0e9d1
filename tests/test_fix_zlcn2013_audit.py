"""zlcn2013 def2, lemma2, lemma3 and thm2 after the audit: (1) decided for every consumer, Lemma 2's whole scope
proved, the count-range definition quoted verbatim and its boundary queries decided; each false variant refuted."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import sympy as sp
import z3

from proofs.countrange import boundary as cbd
from proofs.countrange import definition2 as d2
from proofs.countrange import lemma2 as c
from proofs.countrange import lemma3 as c3
from proofs.countrange import vectors as cv
from proofs.countrange.alpha import SYMBOLIC
from proofs.countrange.legal_lp import ALPHAS_Z
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Findings, Status

CTX = Context()
PAPER = Path("/work/shared/papers/001_0ccd38b6704e2377.txt")


def test_def2_objective_identity_covers_every_consumer():
    rec = d2.legal_region(CTX)
    assert rec.status is Status.VERIFIED, rec.counterexample
    ident = [d for d in rec.decided(BOUNDED) if d.instance.method.startswith("sympy identity")]
    assert len(ident) == 2 * len(ALPHAS_Z) and all(d.outcome is Outcome.HOLDS for d in ident)
    assert d2.query_classes(1) == [(0, 1), (0, 2), (1, 2), (0, None), (1, None), (2, None)]


def test_def2_with_theta2_left_out_of_the_middle_sum_is_refuted():
    # (1) with the false-negative sum stopping at theta2 - 1 (a changed boundary) instead of theta2
    def shifted(w, phi, t1, t2, n):
        top = n if t2 is None else min(t2, n) - 1
        zero = sp.Integer(0)
        return (
            sum((w[i] * phi[i] for i in range(min(t1, n + 1))), zero)
            + sum((w[i] * (1 - phi[i]) for i in range(t1, top + 1)), zero)
            + sum((w[i] * phi[i] for i in range(top + 1, n + 1)), zero)
        )

    bad = d2.legal_region(CTX, error=shifted)
    assert bad.status is Status.REFUTED and bad.evidence.value == "bounded"
    assert "sympy identity" in bad.counterexample and "theta=(0, 1)" in bad.counterexample


def test_def2_with_a_flipped_false_positive_sign_is_refuted():
    def flipped(w, phi, t1, t2, n):
        return d2.printed_error(w, phi, t1, t2, n) - 2 * sum((w[i] * phi[i] for i in range(min(t1, n + 1))), 0)

    bad = d2.legal_region(CTX, error=flipped)
    assert bad.status is Status.REFUTED and "theta=(1, 2)" in bad.counterexample


def test_lemma2_symbolic_instance_is_all_n_only_with_the_reduction():
    rec = c.lemma2(CTX)
    [sym] = rec.decided(ALL_N)
    assert sym.instance.alpha == SYMBOLIC and "whole scope" in sym.instance.covers
    assert c.reduction_failures(CTX.solver_timeout) == []


def test_a_broken_reduction_step_leaves_lemma2_bounded(monkeypatch):
    # a column condition not closed under scaling (entries 0 or >= 1): the scale step fails, nothing is all-n
    real = c.dp_column

    def lumpy(col, a):
        return [*real(col, a), *(z3.Or(v == 0, v >= 1) for v in col)]

    monkeypatch.setattr(c, "dp_column", lumpy)
    assert "scale: w >= 0 times a DP column is DP" in c.reduction_failures(CTX.solver_timeout)


def test_lemma2_with_a_changed_y_hat_constant_is_refuted():
    # y-hat's entries 0 and 2, 1/((alpha+1) alpha) and alpha/(alpha+1), both printed as 1/(alpha+1) (internal
    # a/(a+1)); a single changed entry keeps Lemma 2 true
    def y_wrong(a):
        y = cv.yhat(a)
        return [a / (a + 1), y[1], a / (a + 1), y[3]]

    res = c.lemma2(CTX, y=y_wrong)
    assert res.status is Status.REFUTED and res.evidence.value == "all-n" and "the DP matrix" in res.counterexample


def test_count_range_definition_is_quoted_verbatim():
    text = PAPER.read_text()
    assert all(q in text for q in cbd.COUNT_RANGE_DEFINITION)
    assert all(q in cbd.DEFINITION_NOTE for q in cbd.COUNT_RANGE_DEFINITION)


def test_boundary_thetas():
    assert cbd.boundary_thetas(3) == [(1, 3), (2, 3), (0, 1), (0, 2), (0, 3)]
    assert not set(cbd.boundary_thetas(5)) & set(c3.count_range_thetas(5))


def test_universality_decision_holds_inside_and_fails_at_the_boundary():
    inside, edge = Findings("zlcn2013.thm2"), Findings("zlcn2013.thm2")
    assert cbd.universal_at_boundary(inside, [3], [F(2)], CTX, c3.count_range_thetas) == 1
    assert [d.outcome for d in inside.decisions] == [Outcome.HOLDS]
    cbd.universal_at_boundary(edge, [3], [F(2)], CTX)
    assert {d.outcome for d in edge.decisions} == {Outcome.COUNTEREXAMPLE}
    assert len(edge.decisions) == 4  # (1,3), (2,3), (0,1), (0,2); (0,3) puts every count in range
