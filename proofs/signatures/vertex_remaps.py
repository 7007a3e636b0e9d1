"""Optimal vertices are remaps of T (grs2011 Section 5.5, Lemma 5.10; grs2009 Section 5, Lemma 5.11).

* grs2011 Lemma 5.10, grs2009 Lemma 5.11: every signature that an optimal vertex
  can have (by grs2011 Lemma 5.9's (P1)-(P3), resp. grs2009 Lemma 5.9's column
  form with #S = #Z) is listed, the list compared with a brute-force enumeration
  filtered by the exact predicates, and each is reproduced exactly by its remap
  of T, whose binding rows have full rank (so any vertex with that signature IS
  that remap).  Bounded per (n, alpha), on the vertex lemmas' grid.
* grs2009 Lemma 5.11 is printed for any prior and any monotone loss (Section
  5's setup): the listing above decides its part "full-support priors,
  strictly monotone losses" (the proof's hypotheses; also the claim
  grs2009.lemma5.11.strict), and footnote 3's certified optimal vertex the
  rest: no remap of G, deterministic (all of them) or randomized (z3 over the
  stochastic Y), has its constraint matrix, so the printed lemma is refuted.

The signature lemmas these rest on are proofs/signatures/optimal_mechanisms.py; grs2009 Lemma 5.10 (the column
of an interval remap of G) is proofs/signatures/remapped_column.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

import z3

from proofs.assertions.footnotes import decide_fn3_witness, fn3_witness
from proofs.signatures.bounded_claims import (
    GRS2009_NOTE,
    GRS2009_STRICT_NOTE,
    plan_pairs,
    region_of,
    vertex_plan,
)
from proofs.signatures.lemmas import PROPERTIES
from proofs.signatures.vertices import is_vertex
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.signatures import DOWN, SLACK, UP, ZERO, Signature, remap_from_signature, render, signature
from udpm.errors import HarnessError, InvalidInput
from udpm.smt.solvers import decide, model_value


def interval_signatures(n: int):
    """Every signature with (P1)-(P3): non-zero columns j_1 < ... < j_K and a partition of 0..n into consecutive
    intervals I_k = a_k..b_k; column j_k is up in rows < a_k, S in a_k..b_k-1, down in rows >= b_k."""
    for k in range(1, n + 2):
        for cols in itertools.combinations(range(n + 1), k):
            for cuts in itertools.combinations(range(1, n + 1), k - 1):
                bounds = [0, *cuts, n + 1]
                sig = [[ZERO] * (n + 1) for _ in range(n)]
                for idx, j in enumerate(cols):
                    a_k, b_k = bounds[idx], bounds[idx + 1] - 1
                    for i in range(n):
                        sig[i][j] = UP if i < a_k else (SLACK if i < b_k else DOWN)
                yield sig


def grs2009_form_signatures(n: int):
    """grs2009 Lemma 5.9's constraint matrices: non-Z columns k_0 < ... and s_0 + ... = z = #Z-columns (5.8)."""
    for kk in range(1, n + 2):
        z = n + 1 - kk
        for cols in itertools.combinations(range(n + 1), kk):
            for bars in itertools.combinations(range(z + kk - 1), kk - 1):  # compositions of z into kk parts >= 0
                edges = [-1, *bars, z + kk - 1]
                s = [edges[t + 1] - edges[t] - 1 for t in range(kk)]
                sig = [[ZERO] * (n + 1) for _ in range(n)]
                before = 0
                for i, j in enumerate(cols):
                    col = [UP] * (i + before) + [SLACK] * s[i]
                    col += [DOWN] * (n - len(col))
                    for r in range(n):
                        sig[r][j] = col[r]
                    before += s[i]
                yield sig


def single_peaked_columns(n: int) -> list[tuple[str, ...]]:
    """Every column of length n: all zero, or zero-free and up*, S*, down* (the per-column condition (P1))."""
    cols = [tuple([ZERO] * n)]
    for u in range(n + 1):
        for s in range(n + 1 - u):
            cols.append(tuple([UP] * u + [SLACK] * s + [DOWN] * (n - u - s)))
    return cols


def brute_force_signatures(n: int, holds: Callable[[Signature], bool]) -> tuple[list[str], int]:
    """Every signature whose columns are all-zero or zero-free single-peaked (Lemma 5.3 and (P1), both
    per-column conditions of the properties compared) and that satisfies ``holds``; and the number tried."""
    found, tried = [], 0
    for cols in itertools.product(single_peaked_columns(n), repeat=n + 1):
        if all(c[0] == ZERO for c in cols):
            continue
        tried += 1
        sig = [[cols[j][i] for j in range(n + 1)] for i in range(n)]
        if holds(sig):
            found.append(render(sig))
    return sorted(found), tried


def remap_check(n: int, a: Fraction, sig: Signature, remap: Callable[[Signature], list[int]]) -> str | None:
    """Y o T for the remap of the signature: same signature, and that signature's binding rows have full rank
    (so it is the only point with them, i.e. any vertex with this signature IS Y o T)."""
    y = remap(sig)
    z = compose(truncated_geometric(n, a), deterministic_remap(y, n + 1))
    got = signature(z, a)
    if got != sig:
        return (
            f"n={n}, alpha={a}: signature {render(sig)!r} -> remap {y}, but Y o T = {linalg.fmt_matrix(z)} has "
            f"signature {render(got)!r}"
        ).replace("\n", "/")
    if not is_vertex(z, a):
        return f"n={n}, alpha={a}: Y o T = {linalg.fmt_matrix(z)} is not a vertex".replace("\n", "/")
    return None


BRUTE_N = {True: 3, False: 4}  # quick -> n <= 3 (about 0.1 s), full -> n <= 4


def _remap_claim(
    cid: str, ctx: Context, signatures, structure: str, holds, remap, plan: dict | None = None, region: str = ""
) -> Findings:
    rec = Findings(cid)
    plan = plan or vertex_plan(ctx)
    compared = []
    for n in range(1, min(BRUTE_N[ctx.quick], max(plan.values())) + 1):
        listed = sorted(render(s) for s in signatures(n))
        brute, tried = brute_force_signatures(n, holds)
        if listed != brute:
            raise HarnessError(
                f"{cid}: n={n}: the listed signatures ({len(listed)}) differ from brute force ({len(brute)})"
            )
        compared.append(f"n={n}: {len(listed)} listed = {len(brute)} of {tried} candidates")
    rec.value(enumeration_vs_brute_force="; ".join(compared))
    counts = []
    for n, a in plan_pairs(plan):
        with rec.deciding(
            n=n,
            alpha=a,
            kind=BOUNDED,
            method="exact remap of T per listed signature + vertex rank",
            covers=f"every optimal vertex of every full-support strictly legal user ({structure})",
            region=region,
        ) as d:
            total = 0
            for sig in signatures(n):
                bad = remap_check(n, a, sig, remap)
                if bad:
                    d.counterexample(bad)
                    break
                total += 1
            counts.append(f"n={n} alpha={a}: {total}")
    rec.value(signatures_checked="; ".join(counts))
    rec.note(
        f"{structure}; every such signature is reproduced exactly by its remap of T, whose binding rows have "
        "full rank (the signature determines a unique point, grs2011 Lemma 5.4), so every optimal vertex is that "
        "remap. The listed signatures equal a brute-force enumeration filtered by the exact predicates for "
        f"n <= {len(compared)} (enumeration_vs_brute_force)"
    )
    return rec


@checks("grs2011.lemma5.10")
def lemma_5_10(
    ctx: Context, remap: Callable[[Signature], list[int]] = remap_from_signature, plan: dict | None = None
) -> Findings:
    """grs2011 Lemma 5.10: every optimal vertex of a full-support strictly legal user is Y o T for the deterministic
    remap Y sending a_k..b_k to the k-th non-zero column (udpm.core.signatures.remap_from_signature)."""
    return _remap_claim(
        "grs2011.lemma5.10",
        ctx,
        interval_signatures,
        "optimal vertices satisfy (P1)-(P3) (grs2011.lemma5.9, declared depends_on, same grid)",
        PROPERTIES["grs2011.lemma5.9"].holds,
        remap,
        plan,
    )


def grs2009_remap(sig: Signature) -> list[int]:
    """grs2009 Lemma 5.11's map: the integers i + S_(i-1) .. i + S_i go to k_i, the i-th non-Z column."""
    n = len(sig)
    nz = [j for j in range(n + 1) if any(sig[r][j] != ZERO for r in range(n))]
    mapping: list[int | None] = [None] * (n + 1)
    s_prev = 0  # S_(i-1)
    for i, k_i in enumerate(nz):
        s_i = sum(sig[r][k_i] == SLACK for r in range(n))
        for r in range(i + s_prev, i + s_prev + s_i + 1):
            if r <= n:
                mapping[r] = k_i
        s_prev += s_i
    if any(m is None for m in mapping):
        raise InvalidInput(f"the map of grs2009 Lemma 5.11 leaves {mapping.count(None)} results unmapped (#S != #Z)")
    return [int(m) for m in mapping]


def _grs2009_structure(sig: Signature) -> bool:
    """grs2009 Lemma 5.9's column form with #S = #Z (Lemma 5.8)."""
    n = len(sig)
    z = sum(all(sig[i][j] == ZERO for i in range(n)) for j in range(n + 1))
    return PROPERTIES["grs2009.lemma5.9"].holds(sig) and sum(r.count(SLACK) for r in sig) == z


def deterministic_remaps_with(sig: Signature, a: Fraction) -> tuple[list[list[int]], int]:
    """Every deterministic remap y of G = T (each of the (n+1)^(n+1) maps) whose Y o T has constraint matrix
    ``sig``, exactly; and the number of maps tried."""
    n = len(sig)
    t = truncated_geometric(n, a)
    found, tried = [], 0
    for y in itertools.product(range(n + 1), repeat=n + 1):
        tried += 1
        if signature(compose(t, deterministic_remap(list(y), n + 1)), a) == sig:
            found.append(list(y))
    return found, tried


def randomized_remap_with(
    sig: Signature, a: Fraction, timeout_s: float
) -> tuple[list[list[Fraction]] | None, tuple[str, ...]]:
    """A randomized remap Y of G = T (stochastic: Y >= 0, rows summing to 1) such that the constraint matrix of
    Y o T is ``sig``, from a z3 model re-checked exactly; None when the solvers answer unsat; and the solvers the
    answer rests on.  Linear real arithmetic: for each entry, Z: both entries 0; down: p > 0, q = alpha p; up:
    p > 0, p = alpha q; S: p > 0, q > 0, q > alpha p, p > alpha q (p = (Y o T)_ij, q = (Y o T)_(i+1)j)."""
    n = len(sig)
    t = truncated_geometric(n, a)
    al = z3.Q(a.numerator, a.denominator)
    y = [[z3.Real(f"y_{r}_{j}") for j in range(n + 1)] for r in range(n + 1)]
    facts = [v >= 0 for row in y for v in row] + [z3.Sum(row) == 1 for row in y]
    m = [
        [z3.Sum([z3.Q(t[i][r].numerator, t[i][r].denominator) * y[r][j] for r in range(n + 1)]) for j in range(n + 1)]
        for i in range(n + 1)
    ]
    for i in range(n):
        for j in range(n + 1):
            p, q = m[i][j], m[i + 1][j]
            facts += {
                ZERO: [p == 0, q == 0],
                DOWN: [p > 0, q == al * p],
                UP: [p > 0, p == al * q],
                SLACK: [p > 0, q > 0, q > al * p, p > al * q],
            }[sig[i][j]]
    out = decide(facts, timeout_s)
    if out.unsat:
        return None, out.solvers
    ym = [[Fraction(model_value(out.model, v)) for v in row] for row in y]
    if any(v < 0 for row in ym for v in row) or any(sum(row) != 1 for row in ym) or signature(compose(t, ym), a) != sig:
        raise HarnessError(f"z3's remap {ym} does not re-check exactly for the constraint matrix {render(sig)!r}")
    return ym, out.solvers


def no_remap_of_g(sig: Signature, a: Fraction, timeout_s: float) -> str | None:
    """How no remap of G has constraint matrix ``sig`` (Lemma 5.11's conclusion fails), or None when one has."""
    found, tried = deterministic_remaps_with(sig, a)
    if found:
        return None
    randomized, solvers = randomized_remap_with(sig, a, timeout_s)
    if randomized is not None:
        return None
    return (
        f"no remap of G has this constraint matrix: none of the {tried} deterministic remaps of G (exact), and no "
        f"randomized remap (unsat over every stochastic Y: {' and '.join(solvers)})"
    )


@checks("grs2009.lemma5.11")
def grs2009_lemma_5_11(
    ctx: Context, remap: Callable[[Signature], list[int]] = grs2009_remap, plan: dict | None = None
) -> Findings:
    """grs2009 Lemma 5.11 as printed (any prior, any monotone loss): for the constraint matrix C of an optimal
    vertex, some remap of G induces a mechanism with constraint matrix C.

    Full-support priors, strictly monotone losses: the map i+S_(i-1)..i+S_i -> k_i applied to G induces a mechanism
    with constraint matrix C (hence, by Observation 5.3, the vertex itself), per (n, alpha).  The rest: footnote
    3's certified optimal vertex, whose C no remap of G has (``no_remap_of_g``), refutes it."""
    rec = _grs2009_lemma_5_11("grs2009.lemma5.11", ctx, remap, plan)
    w = fn3_witness(ctx.solver_timeout)
    decide_fn3_witness(
        rec,
        ctx,
        lambda sig: no_remap_of_g(sig, w.a, ctx.solver_timeout),
        "every deterministic remap of G (exact) and a randomized one (z3)",
        witness=w,
    )
    found, _ = deterministic_remaps_with(signature(truncated_geometric(2, w.a), w.a), w.a)
    sanity, _ = randomized_remap_with(signature(truncated_geometric(2, w.a), w.a), w.a, ctx.solver_timeout)
    rec.value(
        remap_search_not_vacuous=(
            f"the same searches find G's own constraint matrix at n=2, alpha={w.a}: {len(found)} deterministic "
            f"remap(s), randomized {'Y = ' + str([list(map(str, r)) for r in sanity]) if sanity else 'NONE'}"
        )
    )
    rec.note(GRS2009_NOTE)
    return rec


@checks("grs2009.lemma5.11.strict")
def grs2009_lemma_5_11_strict(
    ctx: Context, remap: Callable[[Signature], list[int]] = grs2009_remap, plan: dict | None = None
) -> Findings:
    """grs2009 Lemma 5.11 for full-support priors and strictly monotone losses (the proof's hypotheses): the
    printed lemma's grid, whole."""
    rec = _grs2009_lemma_5_11("grs2009.lemma5.11.strict", ctx, remap, plan)
    rec.note(GRS2009_STRICT_NOTE)
    return rec


def _grs2009_lemma_5_11(cid: str, ctx: Context, remap, plan: dict | None) -> Findings:
    return _remap_claim(
        cid,
        ctx,
        grs2009_form_signatures,
        "optimal vertices have grs2009 Lemma 5.9's column form and #S = #Z (grs2009.lemma5.9.strict and "
        "5.8.strict, declared depends_on, same grid)",
        _grs2009_structure,
        remap,
        plan,
        region=region_of(cid),
    )
