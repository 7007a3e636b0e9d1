"""zlcn2013 Theorems 2 and 3 on mechanisms over databases (not count-oriented): Section 3.3's reduction through
tau_0..tau_n, computed (proofs/countrange/databases.py decide_databases), holds for the paper's chain, and each false
variant (a chain whose consecutive databases are not neighbours, wrong counts, equal consumers) is refuted."""

from __future__ import annotations

from fractions import Fraction as F

import z3

from proofs.countrange import alpha as ca
from proofs.countrange import chain as cch
from proofs.countrange import databases as cdb
from proofs.countrange import lemma3 as c3
from proofs.countrange import optimum_consumers as coc
from proofs.countrange import theorem3 as t3
from proofs.countrange import vectors as cv
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Status

CTX = Context()


def two_rows(n, i, k):
    """tau_1 has rows 1 and 2 satisfying p: tau_0, tau_1 differ in two rows (and tau_1 has count 2)."""
    return z3.If(i == 1, k <= 2, k <= i)


def far_apart(n, i, k):
    """Counts 0..n, but for odd i the rows satisfying p are the last i: tau_1 = 001, tau_2 = 110 at n = 3."""
    return z3.If(i % 2 == 0, k <= i, k > n - i)


def in_region(rec, region=cdb.DB_REGION, outcome=None):
    return [d for d in rec.decisions if d.instance.region == region and (outcome is None or d.outcome is outcome)]


def test_the_papers_chain_is_a_path_of_neighbours_for_every_n():
    assert cch.chain_symbolic_failures(cch.paper_chain, 10)[0] == []
    for n in range(1, 6):
        for uni in cch.UNIVERSES:
            assert cch.chain_failure(n, uni) is None
    assert cch.chain_databases(3, cch.BINARY) == [(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)]


def test_restriction_and_error_identity_hold():
    for n in range(1, 4):
        for uni in cch.UNIVERSES:
            assert cch.restriction_dp_failure(n, uni, cch.paper_chain, 10)[0] is None
            assert cch.error_identity_failure(n, uni) is None


def test_a_chain_with_two_rows_changed_is_refuted_fact_by_fact():
    fails, _ = cch.chain_symbolic_failures(two_rows, 10)
    assert any(f.startswith("(a1)") for f in fails)
    assert "has count 2, not 1" in cch.chain_failure(3, cch.BINARY, two_rows)
    cex, _ = cch.restriction_dp_failure(3, cch.BINARY, two_rows, 10)
    assert cex and "is not DP on consecutive counts" in cex
    assert "repeats a database" in cch.error_identity_failure(3, cch.BINARY, two_rows)  # tau_1 = tau_2 = 110

    def wrong_count(n, i, k):  # tau_1 = 011: distinct databases, but count 2 at tau_1
        return z3.If(i == 1, z3.And(k >= 2, k <= 3), k <= i)

    assert "not 0" in cch.error_identity_failure(3, cch.BINARY, wrong_count)


def test_a_chain_of_non_neighbours_is_refuted():
    assert "not neighbouring databases" in cch.chain_failure(3, cch.BINARY, far_apart)
    cex, _ = cch.restriction_dp_failure(3, cch.TERNARY, far_apart, 10)
    assert cex is not None
    # and the transfer (d) fails: a consumer put on non-neighbours is served better than by her count optimum
    a = ca.internal(F(2))
    phi = cv.lemma3_x(4, 1, 2, a)
    consumer, _ = coc.unique_optimum_consumer(4, (1, 2), phi, a, 10)
    cex, _ = cdb.transfer_failure(4, cch.BINARY, far_apart, F(2), consumer, phi, 10)
    assert cex and "not phi" in cex
    assert cdb.transfer_failure(4, cch.BINARY, cch.paper_chain, F(2), consumer, phi, 10)[0] is None


def test_thm2_decides_both_parts():
    rec = c3.thm2(CTX, n_max=4)
    assert rec.status is Status.VERIFIED, rec.counterexample
    parts = rec.result().coverage.to_json()
    assert parts["undecided"] == [] and len(parts["parts"]) == 2
    db = in_region(rec)
    assert db and all(d.outcome is Outcome.HOLDS for d in db)
    facts = {dict(d.instance.params)["fact"] for d in db}
    assert facts == {"a", "b", "c", "d", "conclusion"}
    assert [d.instance.n for d in db if d.instance.kind is ALL_N] == [None]
    assert {d.instance.n for d in db if dict(d.instance.params)["fact"] == "conclusion"} == {3, 4}
    assert all(d.instance.region == cdb.CO_REGION for d in rec.decisions if d not in db)


def test_thm2_with_a_two_row_chain_is_refuted_on_databases():
    rec = c3.thm2(CTX, n_max=3, chain=two_rows)
    assert rec.status is Status.REFUTED and "symbolic n" in rec.counterexample
    assert not in_region(rec, cdb.CO_REGION, Outcome.COUNTEREXAMPLE)
    assert {dict(d.instance.params)["fact"] for d in in_region(rec, outcome=Outcome.COUNTEREXAMPLE)} >= {"a", "b", "c"}


def test_thm3_with_non_neighbours_is_refuted_on_databases():
    rec = t3.thm3(CTX, n_max=3, chain=far_apart)
    assert rec.status is Status.REFUTED
    bad = in_region(rec, outcome=Outcome.COUNTEREXAMPLE)
    assert bad and not in_region(rec, cdb.CO_REGION, Outcome.COUNTEREXAMPLE)


def test_thm3_decides_joint_mechanisms_on_databases():
    rec = t3.thm3(CTX, n_max=4)
    assert rec.status is Status.ERRATUM and not rec.counterexample  # the declared extraction damage, as before
    assert rec.result().coverage.undecided == []
    db = in_region(rec)
    assert db and all(d.outcome is Outcome.HOLDS for d in db)
    assert {d.instance.n for d in db if d.instance.kind is BOUNDED and dict(d.instance.params)["fact"] == "d"} == {3, 4}


def test_equal_consumers_are_served_on_databases_too():
    # both consumers want x: the conclusion on D^n finds a mechanism, in the region of databases as well
    rec = c3.thm2(CTX, yf=cv.lemma3_x, n_max=3)
    assert rec.status is Status.REFUTED
    bad = in_region(rec, outcome=Outcome.COUNTEREXAMPLE)
    assert bad and all(dict(d.instance.params)["fact"] == "conclusion" for d in bad)
    assert "derives optima of both consumers" in bad[0].detail
