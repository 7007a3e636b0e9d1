"""proofs/universality/postprocessing.py and udpm/induction/obligations.py: the all-n induction proofs hold, and each
false variant (a
hypothesis dropped from the step) fails with a concrete model."""

from __future__ import annotations

import pytest
import z3

from proofs.universality import bayes_remap, direct_mechanisms
from proofs.universality import postprocessing as p
from udpm.claims.evidence import Status
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings
from udpm.errors import VacuousPremise
from udpm.induction.obligations import Obligation, by_induction, discharge

CTX = Context()


@pytest.mark.parametrize(
    ("record", "variant", "words"),
    [
        (p.post_processing_all_n, {"upper": False}, ("ratio bounds: step", "x_next = ")),
        (p.zero_propagation_all_n, {"lower": False}, ("zero propagation: step", "x_i = ")),
        (p.simplex_minimum_all_n, {"bounded_below": False}, ("simplex minimum: step", "c = ")),
    ],
)
def test_each_all_n_proof_holds_and_its_false_variant_is_refuted(record, variant, words):
    rec = Findings("grs2011.lemma5.2")
    assert record(rec, CTX)
    assert rec.status is Status.PROVED and all(d.instance.kind == ALL_N for d in rec.decisions)
    bad = Findings("grs2011.lemma5.2")
    assert not record(bad, CTX, **variant)
    assert bad.status is Status.REFUTED and all(w in bad.counterexample for w in words), bad.counterexample


def test_rows_cannot_be_all_down_but_could_be_if_alpha_were_1():
    assert discharge(p.no_all_down_row(), 10).holds and discharge(p.no_all_down_row(factor_up=True), 10).holds
    base, step, close = p.no_all_down_row()
    a = z3.Real("alpha")
    at_one = Obligation(close.name, (a == 1, *close.premises[2:]), close.conclusion)
    assert "both 1 is impossible fails" in discharge((base, step, at_one), 10).counterexample


def test_a_contradictory_step_premise_is_refused_not_proved():
    s = z3.Real("s")
    base = Obligation("base", (), s * 0 == 0)
    step = Obligation("step", (s > 1, s < 0), s == 42)
    with pytest.raises(VacuousPremise):
        by_induction(base, step, 10)


def test_lemma_5_2_and_the_bayes_remap_are_proved_for_every_n_with_sampled_cross_checks():
    for check in (direct_mechanisms.direct_mechanisms_suffice, bayes_remap.bayes_remap_optimal):
        res = check(CTX).result()
        assert res.status is Status.PROVED and set(res.grid) == {str(ALL_N), "sampled"}
