"""gs2010 Lemma 5's adjacent-row pattern on built mechanisms, and Lemma 5 at the printed ends alpha in {0, 1}.

The pattern (rows i, i+1: a prefix of columns with alpha x_ij = x_(i+1)j, a suffix with x_ij = alpha x_(i+1)j, at
most one column between) decided exactly on a given mechanism (:func:`adjacent_row_violation`: the sampled
cross-check of proofs/minimax/lemma5.py uses it on certified optima).  gs2010 Section 2.1 fixes alpha in [0, 1]:
at alpha = 0 the identity and at alpha = 1 a mechanism with equal rows is optimal for every monotone loss and
every S (:func:`end_mechanism`); the pattern on it for every n (:func:`lemma5_end_all_n`, on its column regions)
and on the built mechanisms, n = 1..6 (:func:`lemma5_at_ends`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.core import linalg


def adjacent_row_violation(x, a: Fraction, flip: bool = False) -> str | None:
    """gs2010 Lemma 5's pattern for rows i, i+1: a prefix of columns with a x_ij = x_{i+1,j}, a suffix with
    x_ij = a x_{i+1,j}, and at most one column between.  ``flip`` swaps the two equalities (a false variant)."""
    n = len(x) - 1
    for i in range(n):
        lo = [a * x[i][j] == x[i + 1][j] for j in range(n + 1)]
        hi = [x[i][j] == a * x[i + 1][j] for j in range(n + 1)]
        if flip:
            lo, hi = hi, lo
        p = 0
        while p <= n and lo[p]:
            p += 1
        s = n + 1
        while s > 0 and hi[s - 1]:
            s -= 1
        if s - p > 1:
            return f"rows {i},{i + 1}: columns {list(range(p, s))} lie between the two tight blocks"
    return None


# --- the printed ends alpha = 0 and 1 -------------------------------------------------------------------

#: Sizes at which the ends are decided on built mechanisms.
END_SIZES = (1, 2, 3, 4, 5, 6)


def end_mechanism(n: int, a: Fraction) -> list[list[object]]:
    """An optimal alpha-DP mechanism at an end of the printed [0, 1], for every monotone loss and every S.

    alpha = 1: every 1-DP mechanism has equal rows (each ratio in [1, 1], 0/0 = 1), so the optimum is some
    mechanism with every row the same (q_0, ..., q_n); it is built with symbolic q (sympy), which stands for all of
    them.  alpha = 0: the identity.  Every row's loss sum_r l(i, r) x_ir is at least min_r l(i, r) = l(i, i) (l is
    nondecreasing in |i - r|), which the identity attains in every row at once, so it minimises max_{i in S}."""
    if a == 1:
        qs = sp.symbols(f"q0:{n + 1}", nonnegative=True)
        return [list(qs) for _ in range(n + 1)]
    return [[Fraction(int(i == j)) for j in range(n + 1)] for i in range(n + 1)]


def lemma5_at_ends(rec: Findings, flip: bool = False, build: Callable = end_mechanism) -> None:
    """gs2010 Lemma 5 at alpha = 0 and alpha = 1 (the ends of the printed [0, 1]), n = 1..6: the built optimal
    mechanism (:func:`end_mechanism`) has the adjacent-row pattern, decided exactly by :func:`adjacent_row_violation`
    (``flip``: the pattern's two equalities swapped, a false variant)."""
    for a in (Fraction(0), Fraction(1)):
        for n in END_SIZES:
            with rec.deciding(
                n=n,
                alpha=a,
                kind=BOUNDED,
                method="the printed boundary: the pattern on the built optimal mechanism "
                "(0: the identity; 1: equal symbolic rows), exact",
                covers="every monotone loss and every S",
            ) as d:
                x = build(n, a)
                bad = adjacent_row_violation(x, a, flip)
                if bad:
                    d.counterexample(
                        f"n={n}, alpha={a}: the optimal {linalg.fmt_matrix(x) if a == 0 else 'mechanism'}"
                        f" breaks the pattern: {bad}"
                    )


def end_regions(a: Fraction) -> list[tuple[str, bool, tuple[object, object]]]:
    """Adjacent rows i, i+1 of :func:`end_mechanism` for every n and i, as regions of columns in order: (where,
    exactly one column?, (x_ij, x_(i+1)j) there).  alpha = 0, the identity: j < i, j = i, j = i+1, j > i+1; alpha = 1:
    one region, every column, with the symbolic common entry q_j."""
    if a == 1:
        q = sp.Symbol("q_j", nonnegative=True)
        return [("every column j", False, (q, q))]
    zero, one = Fraction(0), Fraction(1)
    return [
        ("j < i", False, (zero, zero)),
        ("j = i", True, (one, zero)),
        ("j = i+1", True, (zero, one)),
        ("j > i+1", False, (zero, zero)),
    ]


def pattern_gap(a: Fraction, flip: bool = False) -> str | None:
    """Lemma 5's pattern on :func:`end_regions` for every n and i: the tight prefix (a x_ij = x_(i+1)j) is a union of
    leading regions, the tight suffix (x_ij = a x_(i+1)j) of trailing ones; the columns between are the regions in the
    gap, which must hold at most one column (a region of any size in the gap has two columns for some n).  The two
    equalities are decided exactly (sympy) per region.  None if the pattern holds; else the failing regions."""
    regions = end_regions(a)

    def tight(u: object, v: object) -> bool:
        return sp.simplify(sp.sympify(u) - sp.sympify(v)) == 0

    lo = [tight(a * u, v) for _, _, (u, v) in regions]
    hi = [tight(u, a * v) for _, _, (u, v) in regions]
    if flip:
        lo, hi = hi, lo
    p = next((k for k, ok in enumerate(lo) if not ok), len(regions))
    s = next((k + 1 for k in reversed(range(len(regions))) if not hi[k]), 0)
    gap = regions[p:s]
    if any(not single for _, single, _ in gap) or len(gap) > 1:
        return ", ".join(where for where, _, _ in gap) + " lie between the two tight blocks"
    return None


def lemma5_end_all_n(rec: Findings, flip: bool = False) -> None:
    """gs2010 Lemma 5 at alpha = 0 and 1 for every n: :func:`pattern_gap` on the regions of the optimal
    :func:`end_mechanism`; a failure is re-checked on the built mechanism at n = 3 (exact)."""
    for a in (Fraction(0), Fraction(1)):
        with rec.deciding(
            n=None,
            alpha=a,
            kind=ALL_N,
            method="the printed boundary: the pattern on the optimal mechanism's column "
            "regions (0: the identity; 1: equal rows), exact",
            covers="every n, every adjacent row pair, every monotone loss and every S",
        ) as d:
            bad = pattern_gap(a, flip)
            if bad:
                witness = adjacent_row_violation(end_mechanism(3, a), a, flip)
                if witness is None:
                    d.inconclusive(f"alpha={a}: regions {bad}, but the built n = 3 mechanism has the pattern")
                else:
                    d.counterexample(f"alpha={a}: {bad}; at n = 3: {witness}")
