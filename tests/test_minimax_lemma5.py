"""gs2010 Lemma 5 (proofs/minimax/lemma5.py, obligations in proofs/minimax/perturbation.py): the paper's argument
computed for all n, its printed steps checked as printed, false variants."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
import z3

from proofs.minimax import lemma5 as l5
from proofs.minimax import lemma5_ends
from proofs.minimax import perturbation as pt
from udpm.claims.evidence import Status, grid_text
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, SAMPLED
from udpm.claims.registry import Context
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import VacuousPremise
from udpm.induction.obligations import Obligation

CTX = Context()
CONSUMER_GRID = "alpha=1/2, 99/100, 1/100, 1/4, 2/3: n<=5"
PARTS = 8


def values(text: str) -> dict[str, Fraction]:
    """'name = 1/2, other = 3' (the tail of a counterexample) as exact values."""
    return {k: Fraction(v) for k, v in (p.split(" = ") for p in text.split(": ", 1)[1].split(", "))}


@pytest.fixture(scope="module")
def proved() -> Findings:
    return l5.adjacent_rows(CTX)


def test_lemma5_is_proved_for_all_n_and_the_sampled_lexicographic_optima_stay_as_a_cross_check(proved):
    res = proved.result()
    assert res.status is Status.PROVED and res.symbolic_alpha
    all_n = [d for d in proved.decided(ALL_N) if d.instance.alpha == l5.SYMBOLIC_ALPHA]
    assert len(all_n) == PARTS and all(d.outcome.value == "holds" for d in all_n)
    ends = [d for d in proved.decided(ALL_N) if d.instance.alpha in ("0", "1")]
    assert len(ends) == 2 and all(d.outcome.value == "holds" for d in ends)
    assert all(d["smt"]["agreement"] == "z3+cvc5" for d in (x.to_json() for x in all_n))
    assert grid_text(res.grid[str(SAMPLED)]) == CONSUMER_GRID
    sampled = [dict(d.instance.params) for d in proved.decided(SAMPLED)]
    assert len({p["sample"] for p in sampled}) == len(sampled)
    witnesses = [k for k in proved.values if k.startswith("premise witness: ")]
    assert len(witnesses) >= 15


def test_the_printed_proof_has_three_wrong_steps_each_with_an_exact_counterexample(proved):
    errata = {e.entry: e for e in proved.errata}
    assert len(errata) == 3
    chain = errata["Lemma 5, proof, case i <= (j+k)/2: privacy of y at rows i, i+1"]
    assert chain.cls == "false claim" and "for m = k at" in chain.explanation
    # m = k: y_ik = (1 - delta) x_ik < x_ik, whatever the delta > 0
    at_k = values("x: " + chain.explanation.split("for m = k at ")[1].split(" (")[0])
    assert at_k["delta"] > 0 and (1 - at_k["delta"]) * at_k["x_i_k"] <= at_k["x_i_k"]
    delta = errata["Lemma 5, proof, case i <= (j+k)/2: the choice of delta"]
    v = values("x: " + delta.explanation.split("breaks alpha-DP: ")[1])
    a, d = v["alpha"], v["delta"]
    assert a * (v["x_i_j"] + d * v["x_i_k"]) < v["x_i1_j"] and a * (1 - d) * v["x_i_k"] < v["x_i1_k"]  # printed
    assert a * v["x_i1_k"] > (1 - d) * v["x_i_k"]  # y is not alpha-DP in column k
    case2 = errata["Lemma 5, proof, case i > (j+k)/2: the rows that change"]
    v = values("x: " + case2.explanation.split("alpha-DP at rows i, i+1: ")[1].split(" (")[0])
    a = v["alpha"]
    # rows <= i move delta x_ij from j to k: a y_(i+1)j <= y_ij fails for every delta > 0
    assert all(a * v["x_i1_j"] > (1 - dd) * v["x_i_j"] for dd in (Fraction(1, 10**k) for k in range(1, 30)))


@pytest.mark.parametrize(
    ("variant", "part", "shown"),
    [
        (pt.Variant(split=1), "case 1 (2i <= j+k, rows r <= i): L does not increase", "l_r_j"),
        (pt.Variant(loss=pt.SIDED), "case 1 (2i <= j+k, rows r <= i): L does not increase", "l_r_k"),
        (pt.Variant(loss=pt.NONE), "case 1 (2i <= j+k, rows r <= i): L does not increase", "l_r_k"),
        (pt.Variant(delta_scale=Fraction(2)), "case 1 (2i <= j+k, rows r <= i): alpha-DP", "delta"),
        (pt.Variant(tie_dp=False), "case 1 (2i <= j+k, rows r <= i): L' strictly decreases", "x_im1_k = 0"),
        (pt.Variant(gap=1), "step 3: no violating pair => pattern", "no c1 with c2 = c1 + 1"),
    ],
)
def test_a_false_variant_of_the_argument_is_refuted_with_a_concrete_counterexample(variant, part, shown):
    bad = l5.adjacent_rows(CTX, variant=variant)
    assert bad.status is Status.REFUTED and shown in bad.counterexample
    refuted = [d for d in bad.decisions if d.outcome.value == "counterexample"]
    assert [dict(d.instance.params)["part"] for d in refuted] == [part]
    assert not bad.decided(SAMPLED)  # the sampled cross-check does not run after a failed part


def test_the_false_variants_counterexamples_recheck_in_exact_arithmetic():
    rec = Findings("gs2010.lemma5")
    assert not l5.lemma5_all_n(rec, CTX, pt.Variant(delta_scale=Fraction(2)))
    v = values(rec.counterexample.split(" fails")[1])
    a, d = v["alpha"], v["delta"]
    yi = (v["x_i_j"] + d * v["x_i_k"], (1 - d) * v["x_i_k"])
    yi1 = (v["x_i1_j"], v["x_i1_k"])
    assert not all(a * yi[c] <= yi1[c] and a * yi1[c] <= yi[c] and yi[c] >= 0 for c in (0, 1))
    rec = Findings("gs2010.lemma5")
    assert not l5.lemma5_all_n(rec, CTX, pt.Variant(tie_dp=False))
    v = values(rec.counterexample.split(" fails")[1])
    assert 2 * v["i"] == v["j"] + v["k"] and v["x_im1_k"] == 0 and v["x_i_k"] > v["alpha"] * v["x_i1_k"]
    # the row i-1 a DP mechanism must have: x_(i-1)k >= alpha x_ik > 0; here 0, so L' does not move
    assert v["x_im1_k"] < v["alpha"] * v["x_i_k"]
    rec = Findings("gs2010.lemma5")
    assert not l5.lemma5_all_n(rec, CTX, pt.Variant(loss=pt.SIDED))
    v = values(rec.counterexample.split(" fails")[1])
    r, j, k = v["r"], v["j"], v["k"]
    assert j < r < k and v["l_r_j"] > v["l_r_k"]  # one-sided monotone: j and k on opposite sides of r
    assert v["delta"] * v["x_r_k"] * (v["l_r_j"] - v["l_r_k"]) > 0  # the row's loss increases by this


def every_obligation() -> list[Obligation]:
    v = pt.Variant()
    obs = [pt.inside_block(c) for c in (pt.CASE1, pt.CASE2)]
    obs += [pt.small_delta_exists(c) for c in (pt.CASE1, pt.CASE2, pt.CASE2_AS_PRINTED)]
    for c in (pt.CASE1, pt.CASE2):
        obs += [pt.boundary(c, v), pt.row_loss(c, v), pt.lprime_row(c, v), pt.lprime_strict(c, v)]
    obs += [*pt.over_rows(), pt.tight_or_strict(), pt.pattern_step()[0]]
    obs += [l5.printed_chain("j"), l5.printed_chain("k"), l5.printed_delta()]
    return obs


@pytest.mark.parametrize("index", range(len(every_obligation())))
def test_every_premise_is_witnessed_and_a_contradictory_premise_is_rejected(index):
    ob = every_obligation()[index]
    got: dict[str, str] = {}
    assert l5.settle(ob, CTX.solver_timeout, got) is None or "printed" in ob.name  # printed steps fail
    assert got[f"premise witness: {ob.name}"]
    contradictory = Obligation(ob.name, (*ob.premises, z3.Not(ob.premises[0])), ob.conclusion)
    with pytest.raises(VacuousPremise):
        l5.settle(contradictory, CTX.solver_timeout, {})


def test_step3_agrees_with_enumeration_up_to_five_columns():
    for m in range(1, 6):
        for cols in itertools.product(((True, False), (False, True), (False, False), (True, True)), repeat=m):
            a_col, b_col = [c[0] for c in cols], [c[1] for c in cols]
            if any(not a_col[j] and not b_col[k] for j in range(m) for k in range(j + 1, m)):
                continue  # a violating pair: step 2 rules these out
            assert pt.pattern_holds(a_col, b_col, (2,)) is not None
            assert pt.pattern_holds(a_col, b_col, (1, 2)) is not None


def test_the_record_does_not_depend_on_what_ran_before():
    first = Findings("gs2010.lemma5")
    l5.lemma5_all_n(first, CTX)
    z3.Solver().check(z3.Real("noise") * z3.Real("more") > 2)  # other terms in the default context
    second = Findings("gs2010.lemma5")
    l5.lemma5_all_n(second, CTX)
    dump = lambda r: json.dumps([[d.to_json() for d in r.decisions], r.values, [str(e) for e in r.errata]])  # noqa: E731
    assert dump(first) == dump(second)


def test_the_pattern_checker_of_the_sampled_cross_check_on_hand_made_matrices():
    a = Fraction(1, 2)
    assert lemma5_ends.adjacent_row_violation(truncated_geometric(3, a), a) is None
    assert lemma5_ends.adjacent_row_violation([[Fraction(1, 2)] * 2, [Fraction(1, 2)] * 2], a) is not None


def test_the_flipped_pattern_is_refuted_by_the_sampled_cross_check():
    bad = l5.adjacent_rows(CTX, flip=True)
    assert bad.status is Status.REFUTED and "between the two tight blocks" in bad.counterexample
    symbolic = [d for d in bad.decided(ALL_N) if d.instance.alpha == l5.SYMBOLIC_ALPHA]
    assert len(symbolic) == PARTS  # the all-n argument holds; the flipped pattern is not the lemma's
    (zero,) = [d for d in bad.decided(ALL_N) if d.instance.alpha == "0"]  # the identity at alpha = 0 breaks it
    assert zero.outcome.value == "counterexample"
