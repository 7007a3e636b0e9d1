"""grs2011 Section 2.3 (grs2011.bayes-remap): the all-n instance is an argument about a mechanism X, a prior p, a
loss l and a randomized remap Y, and false variants of the statement are refuted by the same check."""

from __future__ import annotations

from proofs.universality import bayes_remap as r
from udpm.claims.evidence import Status
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings

CTX = Context(quick=True)


def test_the_all_n_instance_speaks_of_the_claims_objects():
    rec = Findings("grs2011.bayes-remap")
    assert r.bayes_remap_all_n(rec, CTX)
    (d,) = rec.decisions
    assert d.instance.kind == ALL_N and "mechanism X" in d.instance.covers and "prior p" in d.instance.covers
    names = [ob.name for ob in (*r.posterior_obligations(), r.bayes_choice_obligation(), *r.remap_row_obligations())]
    assert any("posterior" in n for n in names) and any("Bayes choice" in n for n in names)
    assert r.loss_decomposition() is None


def test_the_worst_posterior_remap_is_refuted():
    res = r.bayes_remap_optimal(CTX, choice="max").result()
    assert res.status is Status.REFUTED
    assert "Bayes choice (max posterior loss) minimises C_rj fails" in res.counterexample


def test_the_reversed_inequality_is_refuted():
    res = r.bayes_remap_optimal(CTX, ge=False).result()
    assert res.status is Status.REFUTED and "remap row: step (one more result j) fails" in res.counterexample


def test_the_worst_remap_rule_is_also_refuted_on_the_sampled_mechanisms():
    rec = Findings("grs2011.bayes-remap")
    assert not r.bayes_remap_all_n(rec, CTX, choice="max")
    res = r.bayes_remap_optimal(CTX, rule=r.worst_remap).result()
    assert res.status is Status.REFUTED and "optimal randomized remap" in res.counterexample


def test_a_decomposition_without_the_prior_is_not_an_identity():
    wrong = r.loss_decomposition(weight_by_prior=False)
    assert wrong is not None and "p[i]" in wrong.split("but")[0] and "p[i]" not in wrong.split("but")[1]


def test_the_claim_is_proved_for_every_n():
    res = r.bayes_remap_optimal(CTX).result()
    assert res.status is Status.PROVED and str(ALL_N) in set(res.grid)
