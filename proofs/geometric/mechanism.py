"""All-n symbolic proofs about the geometric and truncated geometric mechanisms.

Every statement here is about all n and all alpha in (0, 1).  The integer
parameters are split into finitely many cases (delta >= 1 or delta <= 0, a
boundary or an interior column, ...), each case is written with non-negative
integer symbols so that |.| resolves, and sympy decides an identity in alpha.
A case whose identity fails is searched at exact rational points for a
concrete counterexample.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import (
    END_MECHANISMS,
    ENDS,
    GS2010_RANGE,
    built,
    definition4,
    definition4_at_one,
    definition4_at_zero,
    end_mechanisms_private,
    in_band,
    pmf_at_end,
)
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.conventions import alpha_from_zlcn2013
from udpm.core.mechanisms import geometric_window, truncated_geometric, truncated_geometric_zlcn2013
from udpm.core.remaps import compose, deterministic_remap

a = sp.Symbol("alpha", positive=True)  # internal alpha; every use assumes alpha < 1
A = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1
k, p, q = (sp.Symbol(s, integer=True, nonnegative=True) for s in "kpq")
GRID = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 10), Fraction(9, 10))

Expr = sp.Expr
Pmf = Callable[[Expr], Expr]


def geometric_pmf(delta: Expr) -> Expr:
    """grs2011 (1), gs2010 Definition 1: Pr[Delta = delta] = (1-a)/(1+a) a^|delta|."""
    return (1 - a) / (1 + a) * a ** sp.Abs(delta)


def _below_one(e: Expr) -> Expr:
    """Simplify under 0 < alpha < 1: resolve sympy's Piecewise branches and alpha**oo = 0."""
    e = sp.refine(sp.sympify(e), sp.Q.lt(a, 1))
    e = e.replace(lambda x: x.is_Pow and x.base == a and x.exp == sp.oo, lambda x: sp.Integer(0))
    return sp.simplify(e)


def series(term: Expr, var: sp.Symbol, lo: Expr, hi: Expr) -> Expr:
    """sum_{var=lo}^{hi} term in closed form, for 0 < alpha < 1."""
    return _below_one(sp.summation(term, (var, lo, hi)))


def is_zero(e: Expr) -> bool:
    return sp.simplify(_below_one(e)) == 0


def dp_ratio_cases(pmf: Pmf) -> list[tuple[str, Expr]]:
    """pmf(delta)/pmf(delta-1) on the two cases delta = k+1 >= 1 and delta = -k <= 0."""
    return [
        ("delta = k+1 >= 1", sp.simplify(pmf(k + 1) / pmf(k))),
        ("delta = -k <= 0", sp.simplify(pmf(-k) / pmf(-k - 1))),
    ]


def band_counterexample(case: str, ratio: Expr) -> str | None:
    """A concrete point where the ratio leaves [alpha, 1/alpha], else None."""
    for al in GRID:
        for kv in range(5):
            r = sp.nsimplify(ratio.subs({a: sp.Rational(al.numerator, al.denominator), k: kv, p: kv, q: kv}))
            x = sp.Rational(al.numerator, al.denominator)
            if not (x <= r <= 1 / x):
                return f"{case}: at alpha={al}, k={kv} the ratio is {r}, outside [{x}, {1 / x}]"
    return None


def prove_translation_invariant_dp(pmf: Pmf) -> tuple[bool | None, str]:
    """Adding noise with this pmf is alpha-DP iff every ratio pmf(d)/pmf(d-1) lies in [alpha, 1/alpha]."""
    notes = []
    for case, ratio in dp_ratio_cases(pmf):
        if is_zero(ratio - a) or is_zero(ratio - 1 / a):
            notes.append(f"{case}: ratio = {sp.simplify(ratio)}")
            continue
        cex = band_counterexample(case, ratio)
        if cex:
            return False, cex
        return None, f"{case}: ratio {ratio} not decided symbolically and no counterexample on the grid"
    return True, "; ".join(notes)


def prove_sums_to_one(pmf: Pmf) -> tuple[bool, str]:
    total = _below_one(pmf(sp.Integer(0)) + series(pmf(k), k, 1, sp.oo) + series(pmf(-k), k, 1, sp.oo))
    return is_zero(total - 1), f"sum over Z = {sp.simplify(total)}"


SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"
Part = tuple[bool | None, str]


def _decide(claim: str, parts: list[Part], bounded: Callable[[Findings], None] | None = None) -> Findings:
    """Each symbolic part is one all-n instance (holds, refuted with its counterexample, or undecided);
    ``bounded`` adds the exact cross-check of the library, one instance per (n, alpha)."""
    rec = Findings(claim)
    for k, (ok, msg) in enumerate(parts):
        rec.decide(ok, msg, n=None, alpha=SYMBOLIC_ALPHA, kind=ALL_N, method="sympy identity over a case split", part=k)
        if ok:
            rec.value(**{f"case{k}": msg})
    rec.note("symbolic identities in alpha over a finite case split of the integer parameters")
    if bounded is not None:
        bounded(rec)
    return rec


@checks("grs2011.ex2.1")
def geometric_is_private(ctx: Context, pmf: Pmf = geometric_pmf, ends: dict = END_MECHANISMS) -> Findings:
    """grs2011 Example 2.1: the alpha-geometric mechanism is alpha-DP for every alpha in (0,1), and the 0- and
    1-geometric mechanisms it also defines (always f(d); always 0) are 0- and 1-DP.  ``ends``: the mechanism built
    at each end (alpha -> builder on results 0..n and a window of outputs), for false variants."""
    rec = _decide("grs2011.ex2.1", [prove_translation_invariant_dp(pmf)])
    end_mechanisms_private(rec, ends)
    rec.note(
        "Example 2.1 also defines the 0-geometric mechanism (always the true result) and the 1-geometric mechanism "
        "(always 0): each is built as a matrix on results 0..n (n = 1..5) and the outputs -n-2..2n+2, and decided "
        "exactly: its rows are distributions inside the window (so no mass lies outside it) and every adjacent "
        "ratio lies in [alpha, 1/alpha], read with 0/0 = 1 (grs2011 Section 2.1) and x/0 = infinity, so [0, 1/0] is "
        "[0, infinity] at alpha = 0"
    )
    return rec


@checks("gs2010.def1")
def geometric_is_distribution_and_private(
    ctx: Context, pmf: Pmf = geometric_pmf, ends: tuple[Fraction, ...] = ENDS, claim: str = "gs2010.def1"
) -> Findings:
    """gs2010 Definition 1: the two-sided geometric pmf sums to 1 over Z, and adding it is alpha-DP, for alpha in
    the printed [0, 1] (Section 2.1): symbolically on (0, 1), exactly at the ends 0 and 1 (0^0 = 1)."""
    rec = _decide(claim, [prove_sums_to_one(pmf), prove_translation_invariant_dp(pmf)])
    for e in ends:
        pmf_at_end(rec, pmf, e)
    if 1 not in ends:
        return rec
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; decided on the printed pmf at each end: at alpha = 0 it is the point "
        "mass at 0 (sum 1, 0-DP with x/0 = infinity); at alpha = 1 it is 0 at every z and sums to 0, so Definition "
        "1 as printed is false at alpha = 1 (the printed range [0, 1] would need to be [0, 1))"
    )
    rec.value(
        corrected_statement="Definition 1's pmf is a distribution and alpha-DP for alpha in [0, 1); at alpha = 1 "
        "(1 - alpha)/(1 + alpha) alpha^|z| = 0 for every z (the claim gs2010.def1.corrected)",
    )
    return rec


# --- the truncated geometric mechanism, grs2011 Example 2.2 -----------------------------------


def stated_truncated(i: Expr, j: str | Expr, n: Expr) -> Expr:
    """grs2011 Example 2.2's stated probabilities: a^i/(1+a) at output 0, a^(n-i)/(1+a) at n."""
    if j == "first":
        return a**i / (1 + a)
    if j == "last":
        return a ** (n - i) / (1 + a)
    return geometric_pmf(j - i)


BOUNDED_N = 8


def _clamp_remap_matches(rec: Findings, mechanism: Callable[[int, Fraction], list[list[Fraction]]]) -> None:
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
        parts.append((is_zero(s - 1), f"{label} sums to {_below_one(s)}"))
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
    rec = _decide(claim, parts, lambda rec: _clamp_remap_matches(rec, mechanism))
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


def spreading_weight(r: Expr) -> Expr:
    """Probability that the remap sends boundary output 0 to r <= 0 (|r| = r here): (1-a) a^|r|."""
    return (1 - a) * a**r


@checks("gs2010.def4")
def range_restricted_equivalent_to_geometric(
    ctx: Context,
    weight: Callable[[Expr], Expr] = spreading_weight,
    g_at_end: Callable[[int, Fraction], list[list[Fraction]]] = definition4,
    pmf: Pmf = geometric_pmf,
    at_one: bool = True,
    claim: str = "gs2010.def4",
) -> Findings:
    """gs2010 Definition 4: the range-restricted geometric G is derivable from the geometric
    mechanism and vice versa, for all n >= 1 and alpha in (0, 1), and at the printed ends alpha = 0 and 1
    (``g_at_end``: Definition 4's matrix there; ``pmf``: Definition 1's, both for false variants).

    G from geometric: the clamp remap, proved for all n in grs2011.ex2.2 (a declared dependency
    of this claim in udpm.claims.catalog, so this claim's status is capped by that one's).  Geometric from G: keep
    outputs 1..n-1, send output 0 to r <= 0 with probability (1-a) a^|r| and
    output n to r >= n with probability (1-a) a^(r-n).  This remap is
    stochastic and reproduces every column of the geometric mechanism.
    """
    parts: list[tuple[bool | None, str]] = []
    spread = series(weight(p), p, 0, sp.oo)
    parts.append((is_zero(spread - 1), f"the spreading remap's rows sum to {spread}"))
    # Column r = -p <= 0 of the geometric mechanism at result i = k: G[i][0] * y[0][r].
    lhs = a**k / (1 + a) * weight(p)
    parts.append((is_zero(lhs - geometric_pmf(-p - k)), "G[i][0] (1-a) a^|r| = Pr[Delta = r - i] for r <= 0"))
    # Column r = n + p >= n at result i = n - q (q >= 0).
    lhs = a**q / (1 + a) * weight(p)
    parts.append((is_zero(lhs - geometric_pmf(p + q)), "G[i][n] (1-a) a^(r-n) = Pr[Delta = r - i] for r >= n"))
    rec = _decide(claim, parts, lambda rec: _clamp_remap_matches(rec, truncated_geometric))
    definition4_at_zero(rec, g_at_end)
    if not at_one:
        return rec
    definition4_at_one(rec, pmf)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; alpha = 0 holds (both mechanisms are the identity); at alpha = 1 "
        "G_{n,1} is a mechanism (rows (1/2, 0, ..., 0, 1/2)) but Definition 1's pmf is 0 at every z, so the "
        "1-geometric mechanism's rows sum to 0 and no stochastic remap turns either into the other: refuted at "
        "alpha = 1 as printed"
    )
    rec.value(
        corrected_statement="G_{n,alpha} and the alpha-geometric mechanism derive each other for alpha in [0, 1) "
        "(the claim gs2010.def4.corrected)",
    )
    return rec


def zlcn2013_formula6(n: int, alpha_zlcn: Fraction) -> list[list[Fraction]]:
    """zlcn2013 (6), literally, in its alpha > 1: alpha/(alpha+1) alpha^-|z-mu| at z in {0, n},
    (alpha-1)/(alpha+1) alpha^-|z-mu| inside."""
    al = Fraction(alpha_zlcn)
    return [
        [(al / (al + 1) if z in (0, n) else (al - 1) / (al + 1)) * al ** -abs(z - mu) for z in range(n + 1)]
        for mu in range(n + 1)
    ]


ZLCN_ALPHAS = (Fraction(2), Fraction(3), Fraction(3, 2), Fraction(10, 9), Fraction(10))


@checks("zlcn2013.def6")
def zlcn_range_restricted_is_truncated(ctx: Context, formula=zlcn2013_formula6) -> Findings:
    """zlcn2013 Definition 6, (6): for alpha > 1 it is the truncated geometric mechanism T(n, 1/alpha), for every
    number n of rows, n = 0 included (one count, 0, in {0, n})."""
    parts: list[tuple[bool | None, str]] = []
    d = p  # |z - mu|
    boundary = (A / (A + 1) * A**-d).subs(A, 1 / a) - a**d / (1 + a)
    interior = ((A - 1) / (A + 1) * A**-d).subs(A, 1 / a) - geometric_pmf(d)
    parts.append((is_zero(boundary), "boundary z in {0,n}: A/(A+1) A^-d = a^d/(1+a) at A = 1/a"))
    parts.append((is_zero(interior), "interior: (A-1)/(A+1) A^-d = (1-a)/(1+a) a^d at A = 1/a"))

    def bounded(rec: Findings) -> None:
        for al in ZLCN_ALPHAS:  # n = 0: one result, so the only mechanism is [[1]] (a row sums to 1)
            row = formula(0, al)[0]
            rec.decide(
                row == [1],
                f"at n = 0, (6) gives Pr[Z(0) = 0] = {row[0]} (z = 0 is in {{0, n}}): a distribution on the one "
                f"output 0 must give it 1",
                n=0,
                alpha=f"zlcn alpha={al} (internal {alpha_from_zlcn2013(al)})",
                kind=BOUNDED,
                method="exact matrix identity",
                covers="(6) literally against the only mechanism on the single count 0",
            )
        for n in range(1, BOUNDED_N + 1):
            for al in ZLCN_ALPHAS:
                lit, conv = formula(n, al), truncated_geometric_zlcn2013(n, al)
                witness = ""
                if lit != conv:
                    i, j = next((i, j) for i in range(n + 1) for j in range(n + 1) if lit[i][j] != conv[i][j])
                    witness = f"(6) gives {lit[i][j]} at [{i}][{j}], T gives {conv[i][j]}"
                rec.decide(
                    lit == conv,
                    witness,
                    n=n,
                    alpha=f"zlcn alpha={al} (internal {alpha_from_zlcn2013(al)})",
                    kind=BOUNDED,
                    method="exact matrix identity",
                    covers="(6) literally against the library's T(n, 1/alpha)",
                )

    rec = _decide("zlcn2013.def6", parts, bounded)
    rec.value(**{"T(2, zlcn alpha=2)": linalg.fmt_matrix(truncated_geometric_zlcn2013(2, 2))})
    return rec
