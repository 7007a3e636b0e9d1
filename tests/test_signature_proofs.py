"""proofs/signatures.py: each lemma holds in its scope, and each false variant is refuted with a counterexample."""

from __future__ import annotations

import inspect
import random
from fractions import Fraction as F

import pytest
import z3

from proofs import signatures as s
from udpm.claims import Context, Status
from udpm.signatures import DOWN, SLACK, UP, ZERO, parse, remap_from_signature

CTX = Context()
TEST_PLAN = {F(1, 2): 3, F(1, 3): 2, F(9, 10): 2}


def run(fn, **kw):
    return fn(CTX, **kw)


@pytest.mark.parametrize(
    "fn, status",
    [
        (s.lemma_5_3, Status.VERIFIED),
        (s.grs2009_lemma_5_4, Status.VERIFIED),
        (s.lemma_5_4, Status.PROVED),
        (s.lemma_5_5, Status.VERIFIED),
        (s.grs2009_lemma_5_5, Status.VERIFIED),
        (s.lemma_5_6, Status.VERIFIED),
        (s.grs2009_lemma_5_6, Status.VERIFIED),
        (s.grs2009_corollary_5_7, Status.VERIFIED),
        (s.lemma_5_8, Status.VERIFIED),
        (s.grs2009_lemma_5_8, Status.VERIFIED),
        (s.lemma_5_9, Status.VERIFIED),
        (s.grs2009_lemma_5_9, Status.VERIFIED),
        (s.lemma_5_10, Status.VERIFIED),
        (s.grs2009_lemma_5_10, Status.PROVED),
        (s.grs2009_lemma_5_11, Status.VERIFIED),
    ],
)
def test_claim_holds_in_scope(fn, status):
    """The real check (on a test-sized plan: n <= 3 at 1/2, n <= 2 at 1/3 and 9/10; reproduce.py runs more)."""
    kw = {"plan": TEST_PLAN} if "plan" in inspect.signature(fn).parameters else {}
    res = fn(CTX, **kw)
    assert res.status is status, (res.notes, res.counterexample)
    if status is Status.VERIFIED:
        assert res.scope.n_max == 3 and len(res.scope.alphas) == 3


def assert_refuted(res, *needles):
    assert res.status is Status.REFUTED, res.notes
    assert res.counterexample and "alpha=" in res.counterexample
    for needle in needles:
        assert needle in res.counterexample


@pytest.mark.parametrize(
    "fn, variant",
    [
        (s.lemma_5_5, {"strict": False}),
        (s.grs2009_lemma_5_5, {"full_support": False}),
        (s.lemma_5_6, {"strict": False}),
        (s.grs2009_lemma_5_6, {"full_support": False}),
        (s.grs2009_corollary_5_7, {"strict": False}),
        (s.lemma_5_8, {"vertex": False}),  # drop the vertex hypothesis
        (s.grs2009_lemma_5_8, {"vertex": False}),
        (s.lemma_5_9, {"strict": False}),
        (s.grs2009_lemma_5_9, {"full_support": False}),
    ],
)
def test_dropped_hypothesis_is_refuted_with_an_optimal_mechanism(fn, variant):
    res = fn(CTX, **variant)
    assert_refuted(res, "X=", "optimal (exact dual certificate) for prior")


def test_lemma_5_3_opposite_structure_is_refuted():
    no_zero = s.Property(
        lambda e: z3.Or([z for row in e.Z for z in row]), lambda sig: all(ZERO not in r for r in sig), optimal=False
    )
    assert_refuted(s.lemma_5_3(CTX, prop=no_zero), "signature")


def test_grs2009_lemma_5_4_flipped_is_refuted():
    every_row_has_down = s.Property(
        lambda e: z3.Or([z3.Not(z3.Or(e.D[i])) for i in range(e.n)]),
        lambda sig: all(DOWN in r for r in sig),
        optimal=False,
    )
    assert_refuted(s.grs2009_lemma_5_4(CTX, prop=every_row_has_down), "signature")


def test_lemma_5_4_at_alpha_one_is_refuted():
    res = s.lemma_5_4(CTX, alpha_max_inclusive=True)
    assert res.status is Status.REFUTED and "alpha=1" in res.counterexample


def test_wrong_remap_is_refuted():
    res = s.lemma_5_10(CTX, remap=lambda sig: list(reversed(remap_from_signature(sig))))
    assert_refuted(res, "Y o T")
    res = s.grs2009_lemma_5_11(CTX, remap=lambda sig: list(reversed(s.grs2009_remap(sig))))
    assert_refuted(res, "Y o T")


def test_flipped_column_pattern_of_grs2009_lemma_5_10_is_refuted():
    def flipped(n, lo, hi):
        return [DOWN if i < lo else (SLACK if i < hi else UP) for i in range(n)]

    res = s.grs2009_lemma_5_10(CTX, stated=flipped)
    assert_refuted(res, "stated")


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
        assert s.PROPERTIES[cid].holds(sig), cid
    assert s.grs2009_remap(sig) == remap_from_signature(sig) == [0, 2, 2, 3, 4, 5]


def _constant_encoding(sig):
    """An Encoding whose signature Booleans are the constants of ``sig`` (for evaluating negations)."""
    n = len(sig)
    e = s.Encoding(n, F(1, 2), optimal=False)
    for name, sym in (("D", DOWN), ("U", UP), ("S", SLACK), ("Z", ZERO)):
        setattr(e, name, [[z3.BoolVal(sig[i][j] == sym) for j in range(n + 1)] for i in range(n)])
    e.zc = [z3.BoolVal(all(sig[i][j] == ZERO for i in range(n))) for j in range(n + 1)]
    return e


@pytest.mark.parametrize("n, samples", [(2, 60), (3, 10)])
def test_z3_negations_agree_with_the_python_properties(n, samples):
    """Each z3 negation is true exactly where the exact Python test of the property fails."""
    rng = random.Random(f"sig-encodings-{n}")
    sigs = [[list(r) for r in p] for p in s.interval_signatures(n)][::3]
    for _ in range(samples):
        cols = [
            [ZERO] * n if rng.random() < 0.25 else [rng.choice((DOWN, UP, SLACK)) for _ in range(n)]
            for _ in range(n + 1)
        ]
        if all(c[0] == ZERO for c in cols):
            continue
        sigs.append([[cols[j][i] for j in range(n + 1)] for i in range(n)])
    for sig in sigs:
        e = _constant_encoding(sig)
        for cid, prop in s.PROPERTIES.items():
            neg = z3.simplify(prop.negation(e))
            assert z3.is_true(neg) == (not prop.holds(sig)), (cid, sig)


def test_vertex_rank_check():
    from udpm.mechanisms import truncated_geometric

    t = truncated_geometric(3, F(1, 2))
    assert s.is_vertex(t, F(1, 2))
    mid = [[(x + y) / 2 for x, y in zip(r1, r2)] for r1, r2 in zip(t, [[F(1, 4)] * 4] * 4)]
    assert not s.is_vertex(mid, F(1, 2))
