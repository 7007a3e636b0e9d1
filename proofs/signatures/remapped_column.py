"""grs2009 Lemma 5.10: the column of the output that receives exactly a..b of G = T, for all n.

The remapped column is up in rows 0..a-1, S in rows a..b-1 and down below (grs2009 Section 5): all n by sympy
summation of the column per row case (:func:`grs2009_lemma510_cases`, using only that column j of T is
k_j alpha^|i-j|, grs2011 Example 2.2), plus the exact column of every interval remap of T (bounded).  The remaps
of T that optimal vertices are (grs2011 Lemma 5.10, grs2009 Lemma 5.11) are in
proofs/signatures/vertex_remaps.py.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.signatures.bounded_claims import SYMBOLIC_ALPHA
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import truncated_geometric
from udpm.core.signatures import DOWN, SLACK, UP, signature

F = Fraction
ALPHAS = (F(1, 2), F(1, 3), F(2, 3), F(1, 10), F(9, 10))

al = sp.Symbol("alpha", positive=True)
_j = sp.Symbol("j", integer=True)
_s, _t, _a = (sp.Symbol(v, integer=True, nonnegative=True) for v in "sta")
_k = sp.Function("k", positive=True)  # column j of G is k_j alpha^|i-j| (grs2011 Example 2.2)


def _column_sum(row, lo, hi, above: bool):
    """w_row = sum_{j=lo..hi} k_j alpha^|row-j|, with |row-j| resolved: j >= row if ``above``, else j <= row."""
    return sp.Sum(_k(_j) * al ** ((_j - row) if above else (row - _j)), (_j, lo, hi))


def grs2009_lemma510_cases() -> dict[str, bool]:
    """The column l of the remap a..b -> l of G is w_i = sum_{j=a..b} g_ij, g_ij = k_j alpha^|i-j|, k_j > 0.

    Per case of the row i (offsets s, t >= 0 symbolic, so every n, a, b, i is one of them), sympy reduces:
    * up, i = a-1-s < a (every j > i): w_(i+1) - w_i/alpha = 0;
    * down, i = b+s >= b (every j <= i): w_(i+1) - alpha w_i = 0;
    * S, a <= i = a+s < b = i+1+t: with L = sum_{j=a..i} (j <= i) and R = sum_{j=i+1..b} (j > i),
      w_(i+1) - alpha w_i - R (1/alpha - alpha) = 0 and w_i/alpha - w_(i+1) - L (1/alpha - alpha) = 0, where
      L and R are non-empty sums of positive terms (so alpha w_i < w_(i+1) < w_i/alpha as 0 < alpha < 1).
    Returns each identity and positivity fact with sympy's verdict."""
    b = sp.Symbol("b", integer=True, nonnegative=True)
    out: dict[str, bool] = {}
    i = _a - 1 - _s
    up = _column_sum(i + 1, _a, b, True) - _column_sum(i, _a, b, True) / al
    out["up rows i < a: w_(i+1) = w_i/alpha"] = sp.simplify(up) == 0
    i = b + _s
    down = _column_sum(i + 1, _a, b, False) - al * _column_sum(i, _a, b, False)
    out["down rows i >= b: w_(i+1) = alpha w_i"] = sp.simplify(down) == 0
    i = _a + _s
    hi = i + 1 + _t
    left_i, right_i = _column_sum(i, _a, i, False), _column_sum(i, i + 1, hi, True)
    left_next, right_next = _column_sum(i + 1, _a, i, False), _column_sum(i + 1, i + 1, hi, True)
    w_i, w_next = left_i + right_i, left_next + right_next
    gap = 1 / al - al
    out["S rows: w_(i+1) - alpha w_i = R (1/alpha - alpha)"] = sp.simplify(w_next - al * w_i - gap * right_i) == 0
    out["S rows: w_i/alpha - w_(i+1) = L (1/alpha - alpha)"] = sp.simplify(w_i / al - w_next - gap * left_i) == 0
    for name, part in (("L", left_i), ("R", right_i)):
        term, (_, lo, top) = part.function, part.limits[0]
        out[f"S rows: {name} has a term and every term is positive"] = bool(
            sp.simplify(top - lo) in (_s, _t) and term.is_positive
        )
    return out


def grs2009_lemma510_column(n: int, lo: int, hi: int) -> list[str]:
    """grs2009 Lemma 5.10's stated column: up in rows 0..lo-1, S in lo..hi-1, down in the remaining rows."""
    return [UP if i < lo else (SLACK if i < hi else DOWN) for i in range(n)]


@checks("grs2009.lemma5.10")
def grs2009_lemma_5_10(
    ctx: Context, stated: Callable[[int, int, int], list[str]] = grs2009_lemma510_column
) -> Findings:
    """grs2009 Lemma 5.10: the output l receiving exactly a..b of G = T has constraint-matrix column up in rows
    0..a-1, S in rows a..b-1 and down below, for all n and alpha in (0, 1).

    All n: the column sums of the remap, per row case, computed by sympy (grs2009_lemma510_cases); it uses
    only that column j of T is k_j alpha^|i-j| with k_j > 0 (grs2011 Example 2.2, declared depends_on).  The
    stated pattern is the one the three cases produce only if ``stated`` agrees with the exact column for every
    n <= N, interval and alpha (one bounded instance per (n, alpha))."""
    rec = Findings("grs2009.lemma5.10")
    cases = grs2009_lemma510_cases()
    for k, (name, ok) in enumerate(cases.items()):
        rec.decide(
            ok or None,
            n=None,
            alpha=SYMBOLIC_ALPHA,
            kind=ALL_N,
            method="sympy summation of the remapped column of G, per row case",
            covers="every n, every interval a..b, every row",
            part=k,
        )
        rec.value(**{name: "sympy: identity" if ok else "sympy: not shown"})
    top = 6 if ctx.quick else 9
    for n in range(1, top + 1):
        for a in ALPHAS:
            with rec.deciding(
                n=n, alpha=a, kind=BOUNDED, method="exact column of every interval remap of T", covers="every a..b"
            ) as d:
                t = truncated_geometric(n, a)
                for lo in range(n + 1):
                    for hi in range(lo, n + 1):
                        w = [sum(t[i][lo : hi + 1], F(0)) for i in range(n + 1)]
                        col = [signature([[v] for v in w], a)[i][0] for i in range(n)]
                        if col != stated(n, lo, hi):
                            d.counterexample(
                                f"n={n}, alpha={a}, a..b={lo}..{hi}: column {''.join(col)}, "
                                f"stated {''.join(stated(n, lo, hi))}"
                            )
                            break
                    if d.witness:
                        break
    rec.note(
        "all-n: the three row cases computed by sympy on the column sums (symbolic offsets), plus the exact "
        "column of every interval remap of T as a bounded cross-check of the stated pattern"
    )
    return rec
