"""How a signature lemma is decided per (n, alpha): the (n, alpha) plans, one SMT instance per (n, alpha)
(:func:`signature_instance`), the claim assembled from them (:func:`bounded_signature_claim`), and the split of
grs2009 Section 5's printed users' class (STRICT_REGION decided on the grid, FN3_REGION by footnote 3's witness,
proofs/assertions/footnotes.py).

Used by the signature lemmas (proofs/signatures/optimal_mechanisms.py) and the vertex-remap lemmas
(proofs/signatures/vertex_remaps.py).
"""

from __future__ import annotations

from fractions import Fraction

from proofs.assertions.footnotes import FN3_REGION, STRICT_REGION, decide_fn3_witness
from proofs.signatures.encoding import Property, search
from proofs.signatures.lemmas import PROPERTIES
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, Plan, absorb
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


def plan_pairs(plan: dict[Fraction, int]) -> list[tuple[int, Fraction]]:
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
        tasks=lambda ctx: [(n, str(a)) for n, a in plan_pairs(_default_plan(ctx, prop))],
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
    for n, a in plan_pairs(plan):
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
