"""proofs/signatures/optimal_mechanisms.py, vertex_remaps.py, remapped_column.py (with signatures_encoding.py,
signature_lemmas.py, mechanism_vertices.py), binding_sets.py:
each lemma holds on its grid, and each false variant is refuted with a counterexample.

grs2009's Section 5 lemmas hold on their grids under the proofs' hypotheses: the claims ``<id>.strict``.  The
printed claims, whose class footnote 3 extends, are refuted by footnote 3's witness
(tests/test_grs2009_printed_class.py)."""

from __future__ import annotations

import inspect
import random
from fractions import Fraction as F

import pytest
import z3

from proofs.signatures import binding_sets
from proofs.signatures import encoding as enc
from proofs.signatures import lemmas as sl
from proofs.signatures import optimal_mechanisms as s
from proofs.signatures import remapped_column as rc
from proofs.signatures import vertex_remaps as vr
from proofs.signatures import vertices as mv
from udpm.claims.evidence import grid_text
from udpm.claims.registry import Context, Status
from udpm.core.signatures import DOWN, SLACK, UP, ZERO, parse, remap_from_signature
from udpm.errors import VacuousPremise

CTX = Context()
TEST_PLAN = {F(1, 2): 3, F(1, 3): 2, F(9, 10): 2}
VERTEX_PLAN = {F(1, 2): 2, F(1, 3): 1}


@pytest.mark.parametrize(
    "fn, status",
    [
        (s.lemma_5_3, Status.PROVED),
        (s.grs2009_lemma_5_4, Status.PROVED),
        (s.lemma_5_5, Status.VERIFIED),
        (s.grs2009_lemma_5_5_strict, Status.VERIFIED),
        (s.lemma_5_6, Status.VERIFIED),
        (s.grs2009_lemma_5_6_strict, Status.VERIFIED),
        (s.grs2009_corollary_5_7_strict, Status.VERIFIED),
        (s.lemma_5_8, Status.VERIFIED),
        (s.grs2009_lemma_5_8_strict, Status.VERIFIED),
        (s.lemma_5_9, Status.VERIFIED),
        (s.grs2009_lemma_5_9_strict, Status.VERIFIED),
        (vr.lemma_5_10, Status.VERIFIED),
        (vr.grs2009_lemma_5_11_strict, Status.VERIFIED),
    ],
)
def test_claim_holds_and_the_grid_is_what_ran(fn, status):
    """The real check on a test-sized plan; the recorded grid is exactly that plan."""
    vertex = fn in (s.lemma_5_8, s.grs2009_lemma_5_8_strict, s.lemma_5_9, s.grs2009_lemma_5_9_strict)
    plan = VERTEX_PLAN if vertex or fn in (vr.lemma_5_10, vr.grs2009_lemma_5_11_strict) else TEST_PLAN
    rec = fn(CTX, plan=plan)
    assert rec.status is status, (rec.notes, rec.counterexample)
    want = {str(a): list(range(1, top + 1)) for a, top in plan.items()}
    got = {a: row["n"] for row in rec.result().grid["bounded"] for a in row["alphas"]}
    assert got == want
    all_n = {s.lemma_5_3: 3, s.grs2009_lemma_5_4: 2}.get(
        fn, 0
    )  # the induction proofs (proofs.universality.postprocessing)
    assert len(rec.decisions) == sum(plan.values()) + all_n


def test_quick_grids_of_the_vertex_lemmas_are_their_plan():
    rec = s.lemma_5_8(CTX)
    assert grid_text(rec.result().grid["bounded"]) == "alpha=1/2: n<=3; 1/3, 2/3, 1/10, 9/10: n<=2"
    assert rec.values["non_vertex_models_excluded"].startswith("n=1 alpha=1/2: ")


def test_lemma_5_4_and_5_10_are_all_n():
    assert binding_sets.lemma_5_4(CTX).status is Status.PROVED
    rec = rc.grs2009_lemma_5_10(CTX)
    assert rec.status is Status.PROVED
    assert [d.instance.n for d in rec.decided()][:6] == [None] * 6


def assert_refuted(rec, *needles):
    assert rec.status is Status.REFUTED, rec.notes
    cex = rec.counterexample
    assert cex and "alpha=" in cex
    for needle in needles:
        assert needle in cex


@pytest.mark.parametrize(
    "fn, variant",
    [
        (s.lemma_5_5, {"strict": False}),
        (s.grs2009_lemma_5_5_strict, {"full_support": False}),
        (s.lemma_5_6, {"strict": False}),
        (s.grs2009_lemma_5_6_strict, {"full_support": False}),
        (s.grs2009_corollary_5_7_strict, {"strict": False}),
        (s.lemma_5_8, {"vertex": False}),  # drop the vertex hypothesis
        (s.grs2009_lemma_5_8_strict, {"vertex": False}),
        (s.lemma_5_9, {"strict": False}),
        (s.grs2009_lemma_5_9_strict, {"full_support": False}),
    ],
)
def test_dropped_hypothesis_is_refuted_with_an_optimal_mechanism(fn, variant):
    assert_refuted(fn(CTX, plan={F(1, 2): 3}, **variant), "X=", "optimal (exact dual certificate) for prior")


@pytest.mark.parametrize(
    "fn, wrong",
    [
        # the repaired Lemma 5.8: the false claim #S <= #Z - 1 at optimal vertices (vertex still by rank)
        (s.lemma_5_8, lambda e: e.n_slack() > e.n_zero_cols() - 1),
        (s.grs2009_lemma_5_8_strict, lambda e: e.n_slack() != e.n_zero_cols() + 1),
        (s.lemma_5_5, lambda e: z3.Not(sl.not_unimodal(e))),  # "no row is unimodal"
        (s.grs2009_lemma_5_5_strict, lambda e: z3.Not(sl.not_unimodal(e))),
        (s.lemma_5_6, lambda e: z3.Not(sl.lemma56_negation(e))),
        (s.grs2009_lemma_5_6_strict, lambda e: z3.Not(sl.grs2009_56_negation(e))),
        (s.grs2009_corollary_5_7_strict, lambda e: e.n_slack() < e.n_zero_cols() + 1),  # "#S >= #Z + 1"
        (s.lemma_5_9, lambda e: z3.Not(sl.p1_p3_negation(e))),
        (s.grs2009_lemma_5_9_strict, lambda e: z3.Not(sl.grs2009_59_negation(e))),
    ],
)
def test_a_wrong_conclusion_is_refuted_with_a_vertex_or_optimum(fn, wrong):
    rec = fn(CTX, plan={F(1, 2): 2}, negation=wrong)
    assert_refuted(rec, "X=", "optimal (exact dual certificate)")


def test_repaired_lemma_5_8_counterexample_is_an_exact_vertex():
    found = enc.search(
        2, F(1, 2), sl.PROPERTIES["grs2011.lemma5.8"], 60, negation=lambda e: e.n_slack() > e.n_zero_cols() - 1
    )
    cex = found.counterexample
    assert cex is not None and mv.is_vertex(cex.x, cex.a)


@pytest.mark.parametrize("cid", sorted(sl.PROPERTIES))
def test_contradictory_premise_fires_the_vacuity_guard(cid):
    with pytest.raises(VacuousPremise):
        enc.search(2, F(1, 2), sl.PROPERTIES[cid], 30, premise=lambda e: e.x[0][0] < 0)


def test_contradictory_premise_fails_the_check():
    with pytest.raises(VacuousPremise):
        s.lemma_5_8(CTX, plan={F(1, 2): 1}, premise=lambda e: z3.Sum(e.x[0]) == 2)


def test_values_do_not_depend_on_earlier_z3_work():
    first = s.grs2009_lemma_5_8_strict(CTX, plan={F(1, 2): 2}).values
    s.lemma_5_6(CTX, plan={F(1, 3): 2})
    z3.Solver().check(z3.Real("unrelated") > 1)
    assert s.grs2009_lemma_5_8_strict(CTX, plan={F(1, 2): 2}).values == first


def test_lemma_5_3_opposite_structure_is_refuted():
    no_zero = enc.Property(
        lambda e: z3.Or([z for row in e.Z for z in row]), lambda sig: all(ZERO not in r for r in sig), optimal=False
    )
    assert_refuted(s.lemma_5_3(CTX, prop=no_zero, plan={F(1, 2): 2}), "signature")


def test_grs2009_lemma_5_4_flipped_is_refuted():
    every_row_has_down = enc.Property(
        lambda e: z3.Or([z3.Not(z3.Or(e.D[i])) for i in range(e.n)]),
        lambda sig: all(DOWN in r for r in sig),
        optimal=False,
    )
    assert_refuted(s.grs2009_lemma_5_4(CTX, prop=every_row_has_down, plan={F(1, 2): 2}), "signature")


def test_lemma_5_4_at_alpha_one_is_refuted():
    rec = binding_sets.lemma_5_4(CTX, alpha_max_inclusive=True)
    assert rec.status is Status.REFUTED and "alpha=1" in rec.counterexample


def test_wrong_remap_is_refuted():
    rec = vr.lemma_5_10(CTX, remap=lambda sig: list(reversed(remap_from_signature(sig))), plan=VERTEX_PLAN)
    assert_refuted(rec, "Y o T")
    rec = vr.grs2009_lemma_5_11_strict(CTX, remap=lambda sig: list(reversed(vr.grs2009_remap(sig))), plan=VERTEX_PLAN)
    assert_refuted(rec, "Y o T")


def test_p1_p3_lists_equal_brute_force_to_n_3():
    rec = vr.lemma_5_10(CTX, plan={F(1, 2): 3})
    assert rec.values["enumeration_vs_brute_force"].count("listed") == 3
    for n in (1, 2, 3):
        brute, _ = vr.brute_force_signatures(n, sl.p1_p3)
        assert sorted(enc.render(x) for x in vr.interval_signatures(n)) == brute


def test_flipped_column_pattern_of_grs2009_lemma_5_10_is_refuted():
    def flipped(n, lo, hi):
        return [DOWN if i < lo else (SLACK if i < hi else UP) for i in range(n)]

    assert_refuted(rc.grs2009_lemma_5_10(CTX, stated=flipped), "stated")


def test_grs2009_lemma_5_10_symbolic_cases_are_not_vacuous():
    """A wrong ratio (alpha instead of 1/alpha in the up rows) is not simplified to an identity."""
    i = rc._a - 1 - rc._s
    b = rc.sp.Symbol("b", integer=True, nonnegative=True)
    wrong = rc._column_sum(i + 1, rc._a, b, True) - rc.al * rc._column_sum(i, rc._a, b, True)
    assert rc.sp.simplify(wrong) != 0
    assert all(rc.grs2009_lemma510_cases().values())


def test_figure_3_signature_has_the_structure():
    """grs2011 Figure 3(b) / grs2009 Figure 3: the printed signature satisfies every proved property."""
    sig = parse(["v0^^^^", "v0S^^^", "v0v^^^", "v0vv^^", "v0vvv^"])
    for cid in (
        "grs2011.lemma5.5",
        "grs2011.lemma5.6",
        "grs2009.lemma5.6",
        "grs2011.lemma5.8",
        "grs2009.lemma5.8",
        "grs2011.lemma5.9",
        "grs2009.lemma5.9",
    ):
        assert sl.PROPERTIES[cid].holds(sig), cid
    assert vr.grs2009_remap(sig) == remap_from_signature(sig) == [0, 2, 2, 3, 4, 5]


@pytest.mark.parametrize("n, samples", [(2, 60), (3, 10)])
def test_z3_negations_agree_with_the_python_properties(n, samples):
    """Each z3 negation is true exactly where the exact Python test of the property fails."""
    rng = random.Random(f"sig-encodings-{n}")
    sigs = [[list(r) for r in p] for p in vr.interval_signatures(n)][::3]
    for _ in range(samples):
        cols = [
            [ZERO] * n if rng.random() < 0.25 else [rng.choice((DOWN, UP, SLACK)) for _ in range(n)]
            for _ in range(n + 1)
        ]
        if all(c[0] == ZERO for c in cols):
            continue
        sigs.append([[cols[j][i] for j in range(n + 1)] for i in range(n)])
    for sig in sigs:
        e = enc.constant_encoding(sig)
        for cid, prop in sl.PROPERTIES.items():
            neg = z3.simplify(prop.negation(e))
            assert z3.is_true(neg) == (not prop.holds(sig)), (cid, sig)


def test_vertex_rank_check_and_purify():
    from udpm.core.mechanisms import truncated_geometric

    t = truncated_geometric(3, F(1, 2))
    assert mv.is_vertex(t, F(1, 2))
    mid = [[(x + y) / 2 for x, y in zip(r1, r2)] for r1, r2 in zip(t, [[F(1, 4)] * 4] * 4)]
    assert not mv.is_vertex(mid, F(1, 2))
    assert mv.is_vertex(mv.purify(mid, F(1, 2)), F(1, 2))


def test_every_check_takes_findings_parameters():
    for fn in (s.lemma_5_8, vr.lemma_5_10, rc.grs2009_lemma_5_10):
        assert "ctx" in inspect.signature(fn).parameters
