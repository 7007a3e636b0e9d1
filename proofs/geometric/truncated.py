"""The truncated geometric mechanism T: grs2011 Example 2.2, for all n and alpha, and at the printed ends.

The stated probabilities are the clamp remap of the geometric mechanism, every row sums to 1, and T is alpha-DP:
all n by the case split of :mod:`proofs.geometric.case_split`, with the library's T(n, alpha) cross-checked
exactly against the clamp remap (:func:`clamp_remap_matches`, n <= BOUNDED_N); at alpha = 0 and 1 on the built
matrices (:func:`truncated_at_ends`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import END_MECHANISMS, ENDS, built, in_band
from proofs.geometric.case_split import (
    BOUNDED_N,
    GRID,
    Expr,
    a,
    band_counterexample,
    below_one,
    decide_parts,
    is_zero,
    k,
    p,
    q,
    series,
)
from proofs.geometric.noise import geometric_pmf
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import geometric_window, truncated_geometric
from udpm.core.remaps import compose, deterministic_remap


def stated_truncated(i: Expr, j: str | Expr, n: Expr) -> Expr:
    """grs2011 Example 2.2's stated probabilities: a^i/(1+a) at output 0, a^(n-i)/(1+a) at n."""
    if j == "first":
        return a**i / (1 + a)
    if j == "last":
        return a ** (n - i) / (1 + a)
    return geometric_pmf(j - i)


def clamp_remap_matches(rec: Findings, mechanism: Callable[[int, Fraction], list[list[Fraction]]]) -> None:
    """Exact cross-check of the library: T(n, a) = clamp remap of the geometric window, n <= BOUNDED_N.

    Outputs beyond the window carry tail mass a^k/(1+a), added exactly.
    """
    for n in range(1, BOUNDED_N + 1):
        for al in GRID:
            rec.decide(
                *_clamp_remap_instance(n, al, mechanism),
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact matrix identity",
                covers="the library's T(n, alpha)",
            )


def _clamp_remap_instance(n: int, al: Fraction, mechanism: Callable) -> tuple[bool, str]:
    lo, hi = -1, n + 1
    g = geometric_window(n, al, lo, hi)
    clamp = deterministic_remap([min(max(r, 0), n) for r in range(lo, hi + 1)], n + 1)
    t = compose(g, clamp)
    for i in range(n + 1):  # mass outside the window, Pr[Delta <= lo-1-i] and Pr[Delta >= hi+1-i]
        t[i][0] += al ** (i - lo + 1) / (1 + al)
        t[i][n] += al ** (hi + 1 - i) / (1 + al)
    got = mechanism(n, al)
    for i in range(n + 1):
        for j in range(n + 1):
            if got[i][j] != t[i][j]:
                return False, f"T[{i}][{j}] = {got[i][j]}, the clamp remap gives {t[i][j]}"
    return True, ""


@checks("grs2011.ex2.2")
def truncated_geometric_example(
    ctx: Context,
    stated: Callable[[Expr, str | Expr, Expr], Expr] = stated_truncated,
    mechanism: Callable[[int, Fraction], list[list[Fraction]]] = truncated_geometric,
    ends: tuple[Fraction, ...] = ENDS,
    claim: str = "grs2011.ex2.2",
) -> Findings:
    """grs2011 Example 2.2: the stated probabilities are the clamp remap of the geometric mechanism,
    every row sums to 1, and the mechanism is alpha-DP, for all n >= 1 and alpha in (0, 1), and at the ``ends``
    of the printed [0, 1] (:func:`truncated_at_ends`)."""
    parts: list[tuple[bool | None, str]] = []
    # (1) the stated boundary probabilities are the clamped tails, for every result i >= 0 and n >= i.
    i_, n_ = k, k + q
    tail_low = series(geometric_pmf(-p), p, i_, sp.oo)  # Pr[Delta <= -i]
    tail_high = series(geometric_pmf(p), p, n_ - i_, sp.oo)  # Pr[Delta >= n-i]
    parts.append((is_zero(tail_low - stated(i_, "first", n_)), f"Pr[Delta <= -i] = {sp.simplify(tail_low)}"))
    parts.append((is_zero(tail_high - stated(i_, "last", n_)), f"Pr[Delta >= n-i] = {sp.simplify(tail_high)}"))
    # (2) rows sum to 1: interior rows i = 1+p, n = i+1+q; row 0 and row n with n = 1+q.
    j = sp.Symbol("j", integer=True)

    def row_sum(i: Expr, n: Expr) -> Expr:
        """Columns 0 and n, then interior columns 1..n-1 split at the diagonal (i = 0 and i = n are cases)."""
        left = 0 if i == 0 else series(geometric_pmf(j - i).subs(sp.Abs(j - i), i - j), j, 1, i - 1 if i == n else i)
        right = 0 if i == n else series(geometric_pmf(j - i).subs(sp.Abs(j - i), j - i), j, i + 1, n - 1)
        return stated(i, "first", n) + stated(i, "last", n) + left + right

    for label, (i, n) in {
        "row 0": (sp.Integer(0), 1 + q),
        "row i, 0<i<n": (1 + p, 2 + p + q),
        "row n": (1 + q, 1 + q),
    }.items():
        s = row_sum(i, n)
        parts.append((is_zero(s - 1), f"{label} sums to {below_one(s)}"))
    # (3) alpha-DP, column by column: ratio T[i][j] / T[i+1][j].
    ratios = {
        "column 0": stated(k, "first", k + 1 + q) / stated(k + 1, "first", k + 1 + q),
        "column n": stated(k, "last", k + 1 + q) / stated(k + 1, "last", k + 1 + q),
        "interior column j >= i+1": geometric_pmf(sp.Integer(1) + p) / geometric_pmf(p),
        "interior column j <= i": geometric_pmf(-p) / geometric_pmf(-p - 1),
    }
    for label, r in ratios.items():
        r = sp.simplify(r)
        ok = is_zero(r - a) or is_zero(r - 1 / a)
        parts.append(
            (
                ok if ok else (False if band_counterexample(label, r) else None),
                f"{label}: ratio {r}" if ok else (band_counterexample(label, r) or f"{label}: ratio {r} undecided"),
            )
        )
    rec = decide_parts(claim, parts, lambda rec: clamp_remap_matches(rec, mechanism))
    truncated_at_ends(rec, stated, ends)
    if 1 not in ends:
        return rec
    rec.note(
        "the ends of the printed [0, 1] (Example 2.1 defines the 0- and 1-geometric mechanisms): at alpha = 0 the "
        "stated probabilities (0^0 = 1) are the identity, the truncated 0-geometric mechanism; at alpha = 1 they give "
        "rows (1/2, 0, ..., 0, 1/2) while remapping the 1-geometric mechanism (always 0) as the example says gives "
        "rows (1, 0, ..., 0): 'In other words' is false there, so the example is refuted at alpha = 1 as printed; "
        "Section 3's statements at alpha = 1 are checked under both readings (proofs.boundary.alpha_one)"
    )
    return rec


def truncated_at_ends(
    rec: Findings, stated=stated_truncated, ends: tuple[Fraction, ...] = ENDS, ns: range = range(1, 4)
) -> None:
    """grs2011 Example 2.2 at alpha = 0 and 1: the stated probabilities (0^0 = 1) form a mechanism that is
    alpha-DP, and it is what remapping Example 2.1's 0- or 1-geometric mechanism (negative outputs to 0, outputs
    above n to n) gives, decided exactly on the built matrices."""
    for e in ends:
        entry = END_MECHANISMS[e]
        for n in ns:
            with rec.deciding(
                n=n,
                alpha=e,
                kind=BOUNDED,
                method="exact matrices at the end",
                covers="the stated probabilities against the remapped end mechanism",
            ) as d:

                def at(i: int, j: int, n=n, e=e) -> Fraction:
                    col = "first" if j == 0 else "last" if j == n else sp.Integer(j)
                    v = stated(sp.Integer(i), col, sp.Integer(n))
                    return Fraction(str(sp.nsimplify(v.subs(a, e))))

                t = [[at(i, j) for j in range(n + 1)] for i in range(n + 1)]
                window = range(-1, n + 2)  # the end mechanisms put all their mass on 0..n
                clamp = deterministic_remap([min(max(r, 0), n) for r in window], n + 1)
                remapped = compose(built(entry, n, window), clamp)
                bad_row = next((i for i in range(n + 1) if sum(t[i]) != 1), None)
                bad_dp = next(
                    (
                        (i, j)
                        for i in range(n)
                        for j in range(n + 1)
                        if not (in_band(t[i][j], t[i + 1][j], e) and in_band(t[i + 1][j], t[i][j], e))
                    ),
                    None,
                )
                if bad_row is not None:
                    d.counterexample(f"n={n}, alpha={e}: the stated row {bad_row} sums to {sum(t[bad_row])}")
                elif bad_dp is not None:
                    i, j = bad_dp
                    d.counterexample(f"n={n}, alpha={e}: T[{i}][{j}] = {t[i][j]}, T[{i + 1}][{j}] = {t[i + 1][j]}")
                elif t != remapped:
                    i = next(i for i in range(n + 1) if t[i] != remapped[i])
                    d.counterexample(
                        f"n={n}, alpha={e}: the stated row {i} is {[str(x) for x in t[i]]}, remapping the "
                        f"{e}-geometric mechanism gives {[str(x) for x in remapped[i]]}"
                    )
