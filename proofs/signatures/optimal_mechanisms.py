"""Signatures of optimal mechanisms (grs2011 Sections 5.3-5.5, grs2009 Section 5), proved by SMT for bounded n,
and grs2011 Lemma 5.4 (signature and binding set determine each other) for all n.

Each bounded lemma is decided per (n, alpha) by z3 (the encoding and the exact
re-check of every model are in proofs/signatures/encoding.py, the lemmas'
conclusions in proofs/signatures/lemmas.py, the exact vertex test in
proofs/signatures/vertices.py): ``unsat`` of "premises and not conclusion"
after the premises were shown satisfiable by a witness.  One instance is
recorded per (n, alpha) decided.  The lemmas that identify optimal vertices
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

import itertools
from fractions import Fraction

import z3

from proofs.assertions.footnotes import FN3_REGION, STRICT_REGION, decide_fn3_witness
from proofs.signatures.encoding import Property, _val, search
from proofs.signatures.lemmas import PROPERTIES
from proofs.universality.postprocessing import rows_not_all_down_all_n, zero_propagation_all_n
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, Plan, absorb, checks
from udpm.claims.registry import part as planned_part
from udpm.core.signatures import (
    DOWN,
    SLACK,
    UP,
    ZERO,
    Signature,
    count,
    downs,
    is_unimodal_row,
    nonzero_columns,
    zero_columns,
)
from udpm.smt.solvers import decide, premise_witness

F = Fraction
SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"


def scope_plan(ctx: Context) -> dict[Fraction, int]:
    """n_max per alpha for the lemmas without the vertex hypothesis (no CEGAR): quick n <= 4 at 1/2, else 3."""
    if ctx.quick:
        return {F(1, 2): 4, F(1, 3): 3, F(2, 3): 3, F(1, 10): 3, F(9, 10): 3}
    return {F(1, 2): 6, F(1, 3): 5, F(2, 3): 5, F(1, 10): 5, F(9, 10): 5}


def vertex_plan(ctx: Context) -> dict[Fraction, int]:
    """n_max per alpha for the vertex lemmas (5.8, and 5.9-5.11, which rest on 5.8 at the same (n, alpha)).

    The exact vertex test excludes non-vertex models one by one: ~23 at n=3 (1.4 s), ~45 at n=4 (6.5 s) at
    alpha=1/2, so the quick run stops at n=3 for 1/2 and n=2 for the other alphas."""
    if ctx.quick:
        return {F(1, 2): 3, F(1, 3): 2, F(2, 3): 2, F(1, 10): 2, F(9, 10): 2}
    return {F(1, 2): 4, F(1, 3): 3, F(2, 3): 3, F(1, 10): 3, F(9, 10): 3}


def _plan_pairs(plan: dict[Fraction, int]) -> list[tuple[int, Fraction]]:
    return [(n, a) for a, top in plan.items() for n in range(1, top + 1)]


FEASIBLE = "every feasible mechanism of (4)-(7)"
OPTIMAL = "every optimal mechanism of every full-support user with a strictly legal loss"
OPTIMAL_VERTEX = "every optimal vertex (exact rank test) of every full-support user with a strictly legal loss"
GRS2009_NOTE = (
    "grs2009 Section 5 fixes any prior and a loss merely monotone in |i-r|: the printed class has two parts, "
    f"'{STRICT_REGION}' (the hypotheses the proofs use, decided per (n, alpha)) and '{FN3_REGION}' (decided by "
    "footnote 3's certified optimal vertex, which refutes the printed lemma; see grs2009.fn3)"
)
GRS2009_STRICT_NOTE = (
    "the printed lemma under the hypotheses its proof uses (full-support prior, strictly monotone loss); "
    "footnote 3's extension to the rest of the printed class is refuted (grs2009.fn3 and the printed claim)"
)
STRICT = ".strict"
#: The grs2009 Section 5 claims whose printed users' class has the parts STRICT_REGION and FN3_REGION.
GRS2009_SPLIT = (
    "grs2009.lemma5.5",
    "grs2009.lemma5.6",
    "grs2009.cor5.7",
    "grs2009.lemma5.8",
    "grs2009.lemma5.9",
    "grs2009.lemma5.11",
)


def printed_id(cid: str) -> str:
    """The printed claim a ``.strict`` claim restates (``cid`` itself otherwise)."""
    return cid.removesuffix(STRICT)


def region_of(cid: str, variant: dict | None = None) -> str:
    """The region the (n, alpha) instances of ``cid`` decide: STRICT_REGION for a printed grs2009 Section 5 lemma
    (its grid assumes the proofs' hypotheses), '' (the class whole) for a ``.strict`` claim, whose class is that
    region, for every other claim, and for a variant that drops full support or strictness (its search covers
    the printed users' class whole at that (n, alpha))."""
    widened = variant is not None and (variant.get("full_support") is False or variant.get("strict") is False)
    return STRICT_REGION if cid in GRS2009_SPLIT and not widened else ""


def _fn3_breaks(cid: str, prop: Property):
    """The lemma's exact test (``prop.holds``, the one that re-checks every SMT model) on a constraint matrix, and,
    where it fails, how (facts read off the matrix)."""

    def breaks(sig: Signature) -> str | None:
        if prop.holds(sig):
            return None
        s, z = count(sig, SLACK), len(zero_columns(sig))
        if cid == "grs2009.lemma5.5":
            bad = [i for i, row in enumerate(sig) if not is_unimodal_row(row)]
            how = "; ".join(f"row {i} is {''.join(c for c in sig[i] if c != ZERO)} (Z ignored)" for i in bad)
            return f"{how}: not downs, at most one S, ups"
        if cid == "grs2009.lemma5.6":
            bad = [i for i in range(len(sig) - 1) if downs(sig[i + 1]) < downs(sig[i]) + (SLACK not in sig[i + 1])]
            return "; ".join(
                f"row {i + 1} has {downs(sig[i + 1])} down(s) and {'an' if SLACK in sig[i + 1] else 'no'} S, row {i} "
                f"has {downs(sig[i])}"
                for i in bad
            )
        if cid == "grs2009.cor5.7":
            return f"s = {s} S entries < z = {z} Z-columns"
        if cid == "grs2009.lemma5.8":
            return f"s = {s} S entries != z = {z} Z-columns"
        if cid == "grs2009.lemma5.9":
            n, out, s_before = len(sig), [], 0
            for k, j in enumerate(nonzero_columns(sig)):
                col = [sig[i][j] for i in range(n)]
                want = [UP] * (k + s_before) + [SLACK] * col.count(SLACK)
                want = (want + [DOWN] * n)[:n]
                if col != want:
                    out.append(f"non-Z column {k} (column {j}) is {''.join(col)}, the lemma says {''.join(want)}")
                s_before += col.count(SLACK)
            return "; ".join(out) or "the lemma's column form fails"
        return "the lemma's exact test fails on this constraint matrix"

    return breaks


def _covers(prop: Property) -> str:
    if not prop.optimal:
        return FEASIBLE
    return OPTIMAL_VERTEX if prop.vertex else OPTIMAL


def _default_plan(ctx: Context, prop: Property) -> dict[Fraction, int]:
    return vertex_plan(ctx) if prop.vertex else scope_plan(ctx)


def signature_instance(cid: str, ctx: Context, prop: Property, n: int, a: Fraction, **variant) -> Findings:
    """Decide ``prop`` at one (n, alpha): one instance, and its premise witness (and non-vertex cuts) as values.

    The instance decides the region ``region_of(cid, variant)`` of the claim's printed class."""
    rec = Findings(cid)
    method = "smt-unsat, vertex by exact rank (cegar)" if prop.vertex else "smt-unsat"
    found = None
    region = region_of(cid, variant)
    with rec.deciding(n=n, alpha=a, kind=BOUNDED, method=method, covers=_covers(prop), region=region) as d:
        found = search(n, a, prop, ctx.solver_timeout, **variant)
        if found.counterexample is not None:
            d.counterexample(str(found.counterexample))
    if found is not None:
        rec.value(witness=f"n={n} alpha={a}: {found.witness}")
        if prop.vertex:
            rec.value(excluded=f"n={n} alpha={a}: {found.excluded}")
    return rec


def signature_plan(cid: str) -> Plan:
    """One task per (n, alpha) of the claim's default plan (udpm.claims.registry.Plan): descriptors (n, "alpha").

    A ``.strict`` claim decides the property of the printed claim it restates."""
    prop = PROPERTIES[printed_id(cid)]
    return Plan(
        tasks=lambda ctx: [(n, str(a)) for n, a in _plan_pairs(_default_plan(ctx, prop))],
        decide=lambda ctx, task: signature_instance(cid, ctx, prop, task[0], Fraction(task[1])),
    )


def bounded_signature_claim(
    cid: str, ctx: Context, prop: Property, plan: dict[Fraction, int] | None = None, **variant
) -> Findings:
    """Decide ``prop`` for every (n, alpha) of the plan; ``variant`` changes hypotheses (false variants).

    The claim's own run (default plan, property and hypotheses) takes each (n, alpha) from udpm.claims.registry.part,
    so that an executor may decide them as separate tasks; the record is the same either way.

    A printed grs2009 Section 5 lemma (GRS2009_SPLIT) decides its grid in STRICT_REGION and the part FN3_REGION by
    footnote 3's witness, with ``prop``'s exact test; its ``.strict`` claim decides the grid alone, whole."""
    rec = Findings(cid)
    planned = plan is None and not variant and prop is PROPERTIES.get(printed_id(cid))
    plan = plan or _default_plan(ctx, prop)
    witnesses, excluded = [], []
    for n, a in _plan_pairs(plan):
        if planned:
            one = planned_part(cid, ctx, (n, str(a)))
        else:
            one = signature_instance(cid, ctx, prop, n, a, **variant)
        absorb(rec, one)
        if "witness" in one.values:
            witnesses.append(one.values["witness"])
        if "excluded" in one.values:
            excluded.append(one.values["excluded"])
    rec.value(premise_witnesses="; ".join(witnesses))
    if prop.vertex:
        rec.value(non_vertex_models_excluded="; ".join(excluded))
    if variant:
        rec.note(f"hypotheses changed: {sorted(variant)}")
    rec.note(
        "z3 unsat of premises and the lemma's negation per (n, alpha); premises shown satisfiable first "
        "(premise_witnesses: the signature of an exactly re-checked witness)"
    )
    if prop.vertex:
        rec.note(
            "vertex decided by the exact rank of each model's binding rows (FLINT); non-vertex models are "
            "excluded by cuts that remove only non-vertices (their count is non_vertex_models_excluded)"
        )
    if prop.s_at_most_z:
        rec.note(
            "assumes #S <= #Z-columns at optimal vertices (the paper's Lemma 5.8, decided by the exact rank test "
            "on the same (n, alpha) grid and declared depends_on), as the paper's proof does"
        )
    if cid in GRS2009_SPLIT:
        decide_fn3_witness(rec, ctx, _fn3_breaks(cid, prop), "the lemma's exact test on its constraint matrix")
        rec.note(GRS2009_NOTE)
    elif cid.startswith("grs2009") and cid.endswith(STRICT):
        rec.note(GRS2009_STRICT_NOTE)
    return rec


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


# --- grs2011 Lemma 5.4: the signature and the binding set determine each other -------------------


def entry_binding_table(
    alpha_max_inclusive: bool, timeout_s: float
) -> tuple[dict[str, frozenset[str]] | None, str, dict[str, str]]:
    """For one signature entry (p = x_ij, q = x_(i+1)j) and symbolic alpha, which of the four constraints on
    p, q bind under each symbol: (4) p = alpha q, (5) q = alpha p, (7) p = 0, (7') q = 0.

    Returns (table, '', witnesses) when every symbol fixes its binding set, else (None, counterexample, ...).
    Each symbol's premises (domain and symbol) are first shown satisfiable (premise_witness)."""
    al, p, q = z3.Reals("alpha p q")
    dom = [al > 0, al <= 1 if alpha_max_inclusive else al < 1, p >= 0, q >= 0, p - al * q >= 0, q - al * p >= 0]
    symbols = {
        DOWN: z3.And(p > 0, q == al * p),
        UP: z3.And(p > 0, p == al * q),
        SLACK: z3.And(p > 0, q > al * p, p > al * q),
        ZERO: z3.And(p == 0, q == 0),
    }
    constraints = {"(4)": p - al * q == 0, "(5)": q - al * p == 0, "(7)p": p == 0, "(7)q": q == 0}
    table: dict[str, frozenset[str]] = {}
    witnesses: dict[str, str] = {}
    for sym, cond in symbols.items():
        w = premise_witness([*dom, cond], timeout_s, f"symbol {sym}")
        witnesses[f"premise witness {sym}"] = ", ".join(f"{k}={v}" for k, v in w.items())
        binds = set()
        for name, k in constraints.items():
            never = decide([*dom, cond, k], timeout_s)
            always = decide([*dom, cond, z3.Not(k)], timeout_s)
            if not never.unsat and not always.unsat:
                m, m2 = never.model, always.model
                return (
                    None,
                    f"symbol {sym} does not fix whether {name} binds: it binds at alpha={_val(m, al)}, "
                    f"p={_val(m, p)}, q={_val(m, q)} and fails at alpha={_val(m2, al)}, p={_val(m2, p)}, "
                    f"q={_val(m2, q)}",
                    witnesses,
                )
            if always.unsat:
                binds.add(name)
        table[sym] = frozenset(binds)
    return table, "", witnesses


@checks("grs2011.lemma5.4")
def lemma_5_4(ctx: Context, alpha_max_inclusive: bool = False) -> Findings:
    """grs2011 Lemma 5.4: two feasible X, X' of (4)-(7) have the same signature iff the same constraints bind.

    All n: the binding set of X is the rows (6) (always) plus, entry by entry, the constraints (4), (5) of that
    entry and the non-negativity of its two variables (every x_ij lies in some entry).  So it suffices that each
    symbol fixes its entry's binding set (checked by z3 for symbolic alpha, nonlinear but tiny) and that
    different symbols give different sets."""
    rec = Findings("grs2011.lemma5.4")
    label = "symbolic alpha in (0,1]" if alpha_max_inclusive else SYMBOLIC_ALPHA
    with rec.deciding(
        n=None,
        alpha=label,
        kind=ALL_N,
        method="z3 nonlinear unsat per signature symbol and constraint",
        covers="every entry of every feasible mechanism, every n",
    ) as d:
        table, cex, witnesses = entry_binding_table(alpha_max_inclusive, ctx.solver_timeout)
        rec.value(**witnesses)
        if table is None:
            d.counterexample(cex)
        else:
            same = [(s, t) for s, t in itertools.combinations(table, 2) if table[s] == table[t]]
            if same:
                s, t = same[0]
                d.counterexample(f"symbols {s} and {t} have the same binding set {sorted(table[s])}")
            rec.value(**{f"binding set of {s}": ", ".join(sorted(b)) or "none" for s, b in table.items()})
    rec.note("entrywise: each symbol fixes a distinct local binding set, z3 unsat for symbolic alpha")
    return rec
