"""Status, evidence and grid are derived from decided instances, and from nothing else (udpm.claims.evidence)."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction

import pytest

from udpm.claims.evidence import Evidence, Status, cap, derive, grid_text, n_text, scope_text
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, TABLE, Outcome
from udpm.errors import HarnessError, SolverTimeout

HALF = Fraction(1, 2)


def decided(kind=BOUNDED, grid=((HALF, 3),), holds=True, claim="t.claim") -> Findings:
    rec = Findings(claim)
    for alpha, top in grid:
        for n in range(1, top + 1):
            rec.decide(holds, "" if holds else "witness", n=n, alpha=alpha, kind=kind, method="m")
    return rec


@pytest.mark.parametrize(
    "kind, status",
    [(ALL_N, Status.PROVED), (BOUNDED, Status.VERIFIED), (SAMPLED, Status.TESTED), (TABLE, Status.REPRODUCED)],
)
def test_the_strongest_kind_decided_sets_the_status(kind, status):
    r = derive(decided(kind))
    assert r.status is status and r.evidence is Evidence(str(kind))


def test_mixed_kinds_take_the_strongest_and_keep_every_grid():
    rec = decided(BOUNDED, ((HALF, 2),))
    rec.decide(True, n=5, alpha=HALF, kind=SAMPLED, method="m", sample="a")
    r = derive(rec)
    assert r.status is Status.VERIFIED
    assert r.grid == {"bounded": [{"alphas": ["1/2"], "n": [1, 2]}], "sampled": [{"alphas": ["1/2"], "n": [5]}]}
    assert r.samples == 1 and "sample_digest" in r.values


def test_the_grid_shows_each_alpha_as_far_as_it_went():
    r = derive(decided(grid=((HALF, 4), (Fraction(1, 3), 3), (Fraction(2, 3), 3), (Fraction(1, 10), 3))))
    assert scope_text(r) == "alpha=1/2: n<=4; 1/3, 2/3, 1/10: n<=3"


def test_a_counterexample_anywhere_refutes_with_its_witness():
    rec = decided(grid=((HALF, 3),))
    rec.decide(False, "X=[[1,0],[0,1]] is not private", n=1, alpha=Fraction(1, 3), kind=BOUNDED, method="m")
    r = derive(rec)
    assert r.status is Status.REFUTED and "X=[[1,0],[0,1]]" in r.counterexample and "alpha=1/3" in r.counterexample


def test_an_inconclusive_instance_is_never_a_pass():
    rec = decided()
    with rec.deciding(n=9, alpha=HALF, kind=BOUNDED, method="smt-unsat"):
        raise SolverTimeout("z3 answered unknown (timeout)")
    r = derive(rec)
    assert r.status is Status.INCONCLUSIVE and "n=9" in r.notes
    assert rec.decisions[-1].outcome is Outcome.INCONCLUSIVE


def test_a_check_that_decides_nothing_is_an_error():
    assert derive(Findings("t.empty")).status is Status.ERROR


def test_printed_values_that_differ_make_a_table_claim_an_erratum():
    rec = decided(TABLE, ((HALF, 1),))
    rec.erratum("Table 1[0][0]", "2/3", "272/415", "rounding", "closest fraction")
    assert derive(rec).status is Status.ERRATUM
    checked = decided(BOUNDED, ((HALF, 1),))
    checked.decide(True, n=1, alpha=HALF, kind=TABLE, method="m")
    checked.erratum("Table 1[0][0]", "2/3", "272/415", "rounding", "closest fraction")
    assert derive(checked).status is Status.ERRATUM  # an optimality certificate does not hide a printed difference
    proof = decided(ALL_N, ((HALF, 1),))
    proof.erratum("Lemma 1, proof", "x", "y", "typo", "in the proof's text")
    assert derive(proof).status is Status.PROVED  # errata in a proof's text do not lower a proved lemma


def test_the_same_instance_cannot_be_decided_twice():
    rec = decided()
    with pytest.raises(HarnessError, match="twice"):
        rec.decide(True, n=1, alpha=HALF, kind=BOUNDED, method="m")


def test_a_float_alpha_or_n_is_refused():
    with pytest.raises(HarnessError, match="exact"):
        Findings("t").decide(True, n=1, alpha=0.5, kind=BOUNDED, method="m")
    with pytest.raises(HarnessError, match="int"):
        Findings("t").decide(True, n=1.0, alpha=HALF, kind=BOUNDED, method="m")


def test_a_refuted_instance_needs_a_witness():
    with pytest.raises(HarnessError, match="witness"):
        Findings("t").decide(False, n=1, alpha=HALF, kind=BOUNDED, method="m")


@pytest.mark.parametrize(
    "dep, status, capped",
    [
        (Status.PROVED, Status.PROVED, None),
        (Status.VERIFIED, Status.VERIFIED, "d"),
        (Status.TESTED, Status.TESTED, "d"),
        (Status.REFUTED, Status.INCONCLUSIVE, "d"),
        (Status.INCONCLUSIVE, Status.INCONCLUSIVE, "d"),
        (Status.ERROR, Status.INCONCLUSIVE, "d"),
    ],
)
def test_a_claim_is_capped_by_its_weakest_dependency(dep, status, capped):
    r = derive(decided(ALL_N), {"d": dep})
    assert r.status is status and r.capped_by == capped
    assert r.depends_on == [{"id": "d", "status": str(dep)}]


def test_the_weakest_of_several_dependencies_caps():
    r = cap(derive(decided(ALL_N)), {"a": Status.PROVED, "b": Status.TESTED, "c": Status.VERIFIED})
    assert r.status is Status.TESTED and r.capped_by == "b"


def test_a_refuted_claim_is_not_raised_by_its_dependencies():
    rec = decided(ALL_N, holds=False)
    assert derive(rec, {"d": Status.PROVED}).status is Status.REFUTED


def test_instances_are_small_picklable_values_with_stable_keys():
    rec = decided()
    inst = rec.decisions[0].instance
    assert pickle.loads(pickle.dumps(inst)) == inst
    assert inst.key() == rec.instance(n=1, alpha="1/2", kind=BOUNDED, method="m").key()
    assert inst.key() != inst.key(code_version="other")
    assert len(json.dumps(inst.to_json())) < 200


def test_the_sample_digest_changes_with_the_samples():
    a, b = Findings("t"), Findings("t")
    a.decide(True, n=1, alpha=HALF, kind=SAMPLED, method="m", sample="x")
    b.decide(True, n=1, alpha=HALF, kind=SAMPLED, method="m", sample="y")
    assert derive(a).values["sample_digest"] != derive(b).values["sample_digest"]


@pytest.mark.parametrize(
    "ns, text",
    [([None], "all n"), ([1, 2, 3], "n<=3"), ([2, 3, 4], "n=2..4"), ([5], "n=5"), ([1, 2, 4], "n in {1, 2, 4}")],
)
def test_n_text(ns, text):
    assert n_text(ns) == text


def test_grid_text_groups_alphas_with_the_same_n():
    rows = [{"alphas": ["1/2"], "n": [1, 2, 3, 4]}, {"alphas": ["1/3", "2/3"], "n": [1, 2, 3]}]
    assert grid_text(rows) == "alpha=1/2: n<=4; 1/3, 2/3: n<=3"
