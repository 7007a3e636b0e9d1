"""Signatures of optimal mechanisms (grs2011 Sections 5.3-5.5, grs2009 Section 5), proved by SMT for bounded n.
grs2011 Lemma 5.4 (signature and binding set determine each other, all n) is proofs/signatures/binding_sets.py;
how each lemma is decided per (n, alpha) is proofs/signatures/bounded_claims.py.

Each bounded lemma is decided per (n, alpha) by z3 (the encoding and the exact
re-check of every model are in proofs/signatures/encoding.py, the lemmas'
conclusions in proofs/signatures/lemmas.py, the exact vertex test in
proofs/signatures/vertices.py): ``unsat`` of "premises and not conclusion"
after the premises were shown satisfiable by a witness.  One instance is
recorded per (n, alpha) decided (proofs/signatures/bounded_claims.py).  The lemmas that identify optimal vertices
with remaps of T (grs2011 Lemma 5.10, grs2009 Lemmas 5.10, 5.11) are
proofs/signatures/vertex_remaps.py.

Checked as printed, and where not:

* grs2011 Lemmas 5.5-5.10 state their hypotheses (full support, strictly
  legal loss); they are checked as stated.
* grs2009 Section 5 fixes "a user with prior {p_i} and a loss function
  monotone in |i - r|" and an optimal vertex: any prior, a loss that need not
  be strictly monotone.  Its proofs use full support and strict monotonicity
  and footnote 3 claims the extension by a limit argument.  The printed
  Lemmas 5.5, 5.6, 5.8, 5.9 and Corollary 5.7 declare the two parts of that
  class (proofs/assertions/footnotes.py: STRICT_REGION, FN3_REGION): their checks decide
  the first per (n, alpha) by SMT, and the second by footnote 3's certified
  optimal vertex, whose constraint matrix the lemma's own exact test rejects
  (so each is refuted as printed).  The statements under the proofs'
  hypotheses are the claims ``<id>.strict`` (restates, hypothesis), decided
  by the same code on the same grid, their instances without a region.
"""

from __future__ import annotations

from fractions import Fraction as F

from proofs.signatures.bounded_claims import bounded_signature_claim, signature_plan
from proofs.signatures.encoding import Property, search
from proofs.signatures.lemmas import PROPERTIES
from proofs.universality.postprocessing import rows_not_all_down_all_n, zero_propagation_all_n
from udpm.claims.registry import Context, Findings, checks


@checks("grs2011.lemma5.3", plan=signature_plan("grs2011.lemma5.3"))
def lemma_5_3(ctx: Context, prop: Property = PROPERTIES["grs2011.lemma5.3"], plan=None, **variant) -> Findings:
    """grs2011 Lemma 5.3: for every feasible X of (4)-(7), (a) no signature column mixes 0 and non-0 entries
    and (b) no signature row is all down/0 or all up/0.  Bounded per (n, alpha) by SMT, and for every n and alpha
    by induction (proofs.universality.postprocessing)."""
    rec = bounded_signature_claim("grs2011.lemma5.3", ctx, prop, plan, **variant)
    zero_propagation_all_n(rec, ctx)
    return rec


@checks("grs2009.lemma5.4", plan=signature_plan("grs2009.lemma5.4"))
def grs2009_lemma_5_4(ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.4"], plan=None, **variant) -> Findings:
    """grs2009 Lemma 5.4: for every feasible mechanism no constraint-matrix row is all down or all up (Z ignored).
    Bounded per (n, alpha) by SMT, and for every n and alpha by induction (proofs.universality.postprocessing)."""
    rec = bounded_signature_claim("grs2009.lemma5.4", ctx, prop, plan, **variant)
    rows_not_all_down_all_n(rec, ctx)
    return rec


@checks("grs2011.lemma5.5", plan=signature_plan("grs2011.lemma5.5"))
def lemma_5_5(ctx: Context, prop: Property = PROPERTIES["grs2011.lemma5.5"], plan=None, **variant) -> Findings:
    """grs2011 Lemma 5.5: every optimal direct mechanism of a full-support, strictly legal user has a unimodal
    signature (every row: downs, at most one S, ups, zeros ignored)."""
    return bounded_signature_claim("grs2011.lemma5.5", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.5", plan=signature_plan("grs2009.lemma5.5"))
def grs2009_lemma_5_5(ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.5"], plan=None, **variant) -> Findings:
    """grs2009 Lemma 5.5 as printed (any prior, any monotone loss): every row of the constraint matrix of an optimal
    vertex is downs, at most one S, ups.  Full-support strictly monotone users: decided for every optimal
    mechanism, vertex or not, per (n, alpha); the rest: refuted by footnote 3's witness (row 0 is up, down)."""
    return bounded_signature_claim("grs2009.lemma5.5", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.5.strict", plan=signature_plan("grs2009.lemma5.5.strict"))
def grs2009_lemma_5_5_strict(
    ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.5"], plan=None, **variant
) -> Findings:
    """grs2009 Lemma 5.5 for full-support priors and strictly monotone losses (the proof's hypotheses): the
    printed lemma's grid, whole."""
    return bounded_signature_claim("grs2009.lemma5.5.strict", ctx, prop, plan, **variant)


@checks("grs2011.lemma5.6", plan=signature_plan("grs2011.lemma5.6"))
def lemma_5_6(ctx: Context, prop: Property = PROPERTIES["grs2011.lemma5.6"], plan=None, **variant) -> Findings:
    """grs2011 Lemma 5.6: for optimal mechanisms of full-support strictly legal users (a) the signature rows are
    non-decreasing in #down and (b) a strictly unimodal row i < n-1 is followed by a larger row or a row with S."""
    return bounded_signature_claim("grs2011.lemma5.6", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.6", plan=signature_plan("grs2009.lemma5.6"))
def grs2009_lemma_5_6(ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.6"], plan=None, **variant) -> Findings:
    """grs2009 Lemma 5.6 as printed: row i+1 of the constraint matrix has at least one more down than row i, or, if
    it has an S, at least as many.  Full-support strictly monotone users: every optimal mechanism per (n, alpha);
    the rest: refuted by footnote 3's witness (rows 0 and 1 have one down each, no S)."""
    return bounded_signature_claim("grs2009.lemma5.6", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.6.strict", plan=signature_plan("grs2009.lemma5.6.strict"))
def grs2009_lemma_5_6_strict(
    ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.6"], plan=None, **variant
) -> Findings:
    """grs2009 Lemma 5.6 for full-support priors and strictly monotone losses (the proof's hypotheses)."""
    return bounded_signature_claim("grs2009.lemma5.6.strict", ctx, prop, plan, **variant)


@checks("grs2009.cor5.7", plan=signature_plan("grs2009.cor5.7"))
def grs2009_corollary_5_7(
    ctx: Context, prop: Property = PROPERTIES["grs2009.cor5.7"], plan=None, **variant
) -> Findings:
    """grs2009 Corollary 5.7 as printed: #S >= #Z-columns, decided for EVERY optimal mechanism (not only vertices)
    of a full-support strictly legal user; grs2011 Lemma 5.8 gives the other inequality at vertices.  The rest of
    the printed users: refuted by footnote 3's witness (s = 0 < z = 1)."""
    return _corollary_5_7("grs2009.cor5.7", ctx, prop, plan, **variant)


@checks("grs2009.cor5.7.strict", plan=signature_plan("grs2009.cor5.7.strict"))
def grs2009_corollary_5_7_strict(
    ctx: Context, prop: Property = PROPERTIES["grs2009.cor5.7"], plan=None, **variant
) -> Findings:
    """grs2009 Corollary 5.7 for full-support priors and strictly monotone losses (the proof's hypotheses)."""
    return _corollary_5_7("grs2009.cor5.7.strict", ctx, prop, plan, **variant)


def _corollary_5_7(cid: str, ctx: Context, prop: Property, plan, **variant) -> Findings:
    rec = bounded_signature_claim(cid, ctx, prop, plan, **variant)
    if not variant:
        # The reverse inequality (grs2011 Lemma 5.8) needs the vertex hypothesis: a non-vertex optimum with #S > #Z.
        first = None
        for n in range(1, 4):
            if search(n, F(1, 2), PROPERTIES["grs2011.lemma5.8"], ctx.solver_timeout, vertex=False).counterexample:
                first = n
                break
        rec.value(
            s_le_z_off_vertices=(
                f"fails from n={first} at alpha=1/2 (an exactly certified non-vertex optimum with #S > #Z)"
                if first
                else "holds for n <= 3 at alpha=1/2"
            )
        )
        rec.note(
            "no conflict with grs2011 Lemma 5.8: for full-support strictly monotone users 5.7 (>=) holds for all "
            "optima, 5.8 (<=) for optimal vertices, together #S = #Z (grs2009 Lemma 5.8)"
        )
    return rec


@checks("grs2011.lemma5.8", plan=signature_plan("grs2011.lemma5.8"))
def lemma_5_8(ctx: Context, prop: Property = PROPERTIES["grs2011.lemma5.8"], plan=None, **variant) -> Findings:
    """grs2011 Lemma 5.8: every optimal vertex mechanism of a full-support strictly legal user has #S entries
    <= #zero columns.  The vertex hypothesis is decided by the exact rank test only (no counting condition)."""
    return bounded_signature_claim("grs2011.lemma5.8", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.8", plan=signature_plan("grs2009.lemma5.8"))
def grs2009_lemma_5_8(ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.8"], plan=None, **variant) -> Findings:
    """grs2009 Lemma 5.8 as printed: at an optimal vertex #S = #Z-columns.  Full-support prior, strictly monotone
    loss: both halves decided per (n, alpha), the vertex by the exact rank test only; the rest of the printed
    users: refuted by footnote 3's witness (s = 0, z = 1)."""
    return bounded_signature_claim("grs2009.lemma5.8", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.8.strict", plan=signature_plan("grs2009.lemma5.8.strict"))
def grs2009_lemma_5_8_strict(
    ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.8"], plan=None, **variant
) -> Findings:
    """grs2009 Lemma 5.8 for full-support priors and strictly monotone losses (the proof's hypotheses)."""
    return bounded_signature_claim("grs2009.lemma5.8.strict", ctx, prop, plan, **variant)


@checks("grs2011.lemma5.9", plan=signature_plan("grs2011.lemma5.9"))
def lemma_5_9(ctx: Context, prop: Property = PROPERTIES["grs2011.lemma5.9"], plan=None, **variant) -> Findings:
    """grs2011 Lemma 5.9: the signature of every optimal vertex of a full-support strictly legal user satisfies
    (P1) single-peaked non-zero columns, (P2) no incline first / no decline last, (P3) incline growth by one."""
    return bounded_signature_claim("grs2011.lemma5.9", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.9", plan=signature_plan("grs2009.lemma5.9"))
def grs2009_lemma_5_9(ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.9"], plan=None, **variant) -> Findings:
    """grs2009 Lemma 5.9 as printed: at an optimal vertex the i-th non-Z column is up in rows 0..i-1+S_(i-1), S in
    the next s_i rows and down below.  Full-support strictly monotone users per (n, alpha) (with #S <= #Z from
    grs2009.lemma5.8.strict); the rest: refuted by footnote 3's witness (its first non-Z column is up, down)."""
    return bounded_signature_claim("grs2009.lemma5.9", ctx, prop, plan, **variant)


@checks("grs2009.lemma5.9.strict", plan=signature_plan("grs2009.lemma5.9.strict"))
def grs2009_lemma_5_9_strict(
    ctx: Context, prop: Property = PROPERTIES["grs2009.lemma5.9"], plan=None, **variant
) -> Findings:
    """grs2009 Lemma 5.9 for full-support priors and strictly monotone losses (the proof's hypotheses)."""
    return bounded_signature_claim("grs2009.lemma5.9.strict", ctx, prop, plan, **variant)
