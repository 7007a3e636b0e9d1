"""grs2009 Lemmas 5.5, 5.6, 5.8, 5.9, 5.11 and Corollary 5.7 as printed: Section 5's user has any prior and any
monotone loss, the proofs assume full support and strict monotonicity, and footnote 3 claims the rest.

Each printed claim declares the two parts of that class; its check decides the first on its grid and the second
by footnote 3's certified optimal vertex (proofs/assertions/footnotes.py), which refutes it.  The claims ``<id>.strict``
restate each lemma under the proofs' hypotheses and hold on the same grid; a false variant of them is refuted."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest
import z3

from proofs.assertions.footnotes import (
    FN3_ALPHA,
    FN3_REGION,
    FN3_USER,
    FN3_X,
    STRICT_REGION,
    certify_witness,
    decide_fn3_witness,
    fn3_witness,
)
from proofs.signatures import optimal_mechanisms as s
from proofs.signatures import vertex_remaps as vr
from proofs.signatures.lemmas import PROPERTIES
from udpm.claims.catalog import CLAIMS
from udpm.claims.evidence import derive
from udpm.claims.instances import BOUNDED, Outcome
from udpm.claims.registry import Context, Findings, Status
from udpm.core.mechanisms import truncated_geometric
from udpm.core.signatures import parse, signature
from udpm.core.users import BayesianUser, absolute_error

CTX = Context()
PLAN = {F(1, 2): 2, F(1, 3): 1}
BY_ID = {c.id: c for c in CLAIMS}

# (printed check, strict check, how the witness breaks the lemma)
LEMMAS = {
    "grs2009.lemma5.5": (s.grs2009_lemma_5_5, s.grs2009_lemma_5_5_strict, "row 0 is ↑↓"),
    "grs2009.lemma5.6": (s.grs2009_lemma_5_6, s.grs2009_lemma_5_6_strict, "row 1 has 1 down(s) and no S, row 0 has 1"),
    "grs2009.cor5.7": (s.grs2009_corollary_5_7, s.grs2009_corollary_5_7_strict, "s = 0 S entries < z = 1"),
    "grs2009.lemma5.8": (s.grs2009_lemma_5_8, s.grs2009_lemma_5_8_strict, "s = 0 S entries != z = 1"),
    "grs2009.lemma5.9": (s.grs2009_lemma_5_9, s.grs2009_lemma_5_9_strict, "non-Z column 0 (column 1) is ↑↓"),
    "grs2009.lemma5.11": (vr.grs2009_lemma_5_11, vr.grs2009_lemma_5_11_strict, "no remap of G has this constraint"),
}


@pytest.mark.parametrize("cid", sorted(LEMMAS))
def test_printed_class_has_the_two_parts_and_the_strict_claim_restates_it(cid):
    printed, strict = BY_ID[cid], BY_ID[f"{cid}.strict"]
    assert printed.printed.parts == (STRICT_REGION, FN3_REGION)
    users = dict(next(d for d in printed.printed.dimensions if d.name == "users").fields)
    assert users["prior"] == "any" and "not necessarily strictly" in users["loss"]
    assert strict.restates == cid and "full support" in strict.hypothesis and "strictly monotone" in strict.hypothesis
    assert strict.quotes == printed.quotes and not strict.printed.parts
    strict_users = dict(next(d for d in strict.printed.dimensions if d.name == "users").fields)
    assert "full support" in strict_users["prior"] and "strictly monotone" in strict_users["loss"]


def test_dependencies_on_the_proofs_hypotheses_point_at_the_strict_claims():
    deps = {cid: BY_ID[cid].depends_on for cid in BY_ID if cid.startswith("grs2009.lemma5.")}
    assert deps["grs2009.lemma5.9"] == deps["grs2009.lemma5.9.strict"] == ("grs2009.lemma5.8.strict",)
    both = ("grs2009.lemma5.8.strict", "grs2009.lemma5.9.strict")
    assert deps["grs2009.lemma5.11"] == deps["grs2009.lemma5.11.strict"] == both
    assert deps["grs2009.lemma5.11.count"] == ("grs2009.lemma5.9.strict",)


def test_the_witness_is_a_certified_optimal_vertex_outside_the_proofs_hypotheses():
    w = fn3_witness(CTX.solver_timeout)
    assert w.in_printed_class and w.outside_proof_hypotheses
    assert w.facts["full-support prior"] and not w.facts["strictly legal loss"]  # a tie in the loss
    assert w.loss == w.optimum.objective == F(5, 24) and w.certificate["lps"]
    assert signature(FN3_X, FN3_ALPHA) == parse(["Z^v", "Zv^"])


@pytest.mark.parametrize("cid", [c for c in sorted(PROPERTIES) if c in LEMMAS])
def test_each_lemmas_exact_test_rejects_the_witness(cid):
    assert not PROPERTIES[cid].holds(signature(FN3_X, FN3_ALPHA))


@pytest.mark.parametrize("cid", sorted(LEMMAS))
def test_printed_claim_is_refuted_by_the_witness_in_the_second_part(cid):
    printed, _, how = LEMMAS[cid]
    rec = printed(CTX, plan=PLAN)
    assert rec.status is Status.REFUTED, rec.notes
    grid = [d for d in rec.decisions if d.instance.region == STRICT_REGION]
    (cex,) = [d for d in rec.decisions if d.outcome is Outcome.COUNTEREXAMPLE]
    assert len(grid) == sum(PLAN.values()) and all(d.outcome is Outcome.HOLDS for d in grid)
    assert len(rec.decisions) == len(grid) + 1
    i = cex.instance
    assert (i.region, i.n, i.alpha, i.kind) == (FN3_REGION, 2, "1/2", BOUNDED)
    assert "X = [[0, 1/3, 2/3], [0, 2/3, 1/3], [0, 1/3, 2/3]] is an optimal vertex" in cex.detail
    assert how in cex.detail and how in rec.counterexample
    assert rec.certificate and rec.certificate["lps"]


@pytest.mark.parametrize("cid", sorted(LEMMAS))
def test_strict_claim_holds_with_instances_for_its_class_whole(cid):
    _, strict, _ = LEMMAS[cid]
    rec = strict(CTX, plan=PLAN)
    assert rec.status is Status.VERIFIED, (rec.notes, rec.counterexample)
    assert len(rec.decisions) == sum(PLAN.values())
    assert all(d.instance.region == "" and d.outcome is Outcome.HOLDS for d in rec.decisions)
    assert rec.result().coverage.undecided == []


def test_the_grid_alone_leaves_the_printed_claim_partial():
    """Without the second part the printed claim is not decided: the parts are wired to the coverage."""
    rec = s.grs2009_lemma_5_5_strict(CTX, plan={F(1, 2): 2})
    alone = Findings("grs2009.lemma5.5")
    for d in rec.decisions:
        alone.record(replace(d.instance, claim=alone.claim, region=STRICT_REGION), d.outcome, d.detail)
    res = derive(alone)
    assert res.status is Status.PARTIAL
    assert res.coverage.undecided == [f"alpha in (0, 1); {FN3_REGION}"]


def test_false_variant_of_lemma_5_8_strict_with_less_than_is_refuted():
    """'s < z' in place of 's = z': its negation s >= z has a model at an optimal vertex (z = 0 = s, e.g. T)."""
    rec = s.grs2009_lemma_5_8_strict(CTX, plan={F(1, 2): 2}, negation=lambda e: e.n_slack() >= e.n_zero_cols())
    assert rec.status is Status.REFUTED and "X=" in rec.counterexample
    assert all(d.instance.region == "" for d in rec.decisions)


def test_false_variant_of_lemma_5_5_strict_is_refuted():
    """'no row is downs, at most one S, ups' in place of 'every row is'."""
    from proofs.signatures.lemmas import not_unimodal

    rec = s.grs2009_lemma_5_5_strict(CTX, plan={F(1, 2): 2}, negation=lambda e: z3.Not(not_unimodal(e)))
    assert rec.status is Status.REFUTED


def test_a_witness_inside_the_hypotheses_or_satisfying_the_lemma_decides_nothing():
    strict_user = BayesianUser.of(FN3_USER.prior, absolute_error(2))
    t = truncated_geometric(2, FN3_ALPHA)
    inside = certify_witness(t, strict_user, FN3_ALPHA, CTX.solver_timeout)
    assert inside.in_printed_class and not inside.outside_proof_hypotheses
    for w, breaks in ((inside, lambda sig: "broken"), (fn3_witness(CTX.solver_timeout), lambda sig: None)):
        rec = Findings("grs2009.lemma5.5")
        decide_fn3_witness(rec, CTX, breaks, "test", witness=w)
        (d,) = rec.decisions
        assert d.outcome is Outcome.INCONCLUSIVE and d.instance.region == FN3_REGION


def test_the_remap_search_finds_remaps_where_they_exist():
    """Not vacuous: G's own constraint matrix and every listed Lemma 5.9 form at n = 2 have a remap of G."""
    a = F(1, 2)
    assert vr.no_remap_of_g(signature(truncated_geometric(2, a), a), a, CTX.solver_timeout) is None
    for sig in vr.grs2009_form_signatures(2):
        assert vr.no_remap_of_g(sig, a, CTX.solver_timeout) is None
    y, _ = vr.randomized_remap_with(signature(truncated_geometric(2, a), a), a, CTX.solver_timeout)
    assert y is not None
    found, tried = vr.deterministic_remaps_with(signature(FN3_X, a), a)
    assert found == [] and tried == 27
    assert vr.randomized_remap_with(signature(FN3_X, a), a, CTX.solver_timeout)[0] is None


def test_the_inventory_points_statements_at_the_printed_claims_and_proof_steps_at_the_strict_ones():
    from udpm.claims.assertions import load_inventory

    mine = [a for a in load_inventory() if a.paper == "grs2009" and a.claim.removesuffix(".strict") in LEMMAS]
    statements = [a for a in mine if a.kind in ("lemma", "corollary")]
    assert sorted(a.claim for a in statements) == sorted(LEMMAS)
    assert all(a.claim.endswith(".strict") for a in mine if a.kind == "proof step")
    assert all(not a.claim.endswith(".strict") for a in mine if a.kind != "proof step")
