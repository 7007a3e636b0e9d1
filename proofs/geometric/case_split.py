"""The all-n case split of the geometric mechanism proofs: symbols, the geometric pmf, and the sympy steps.

Every statement proved this way is about all n and all alpha in (0, 1).  The integer
parameters are split into finitely many cases (delta >= 1 or delta <= 0, a
boundary or an interior column, ...), each case is written with non-negative
integer symbols so that |.| resolves, and sympy decides an identity in alpha.
A case whose identity fails is searched at exact rational points for a
concrete counterexample.  Here: the symbols, the geometric pmf (grs2011 (1), gs2010 Definition 1), closed-form
series under 0 < alpha < 1, the DP ratio of a translation-invariant noise, and the findings of a list of symbolic
parts (:func:`decide_parts`).  The checks: :mod:`proofs.geometric.two_sided` (grs2011 Example 2.1, gs2010
Definition 1), :mod:`proofs.geometric.truncated` (grs2011 Example 2.2), :mod:`proofs.geometric.range_restricted`
(gs2010 Definition 4, zlcn2013 Definition 6).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from udpm.claims.instances import ALL_N
from udpm.claims.registry import Findings

a = sp.Symbol("alpha", positive=True)  # internal alpha; every use assumes alpha < 1
A = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1
k, p, q = (sp.Symbol(s, integer=True, nonnegative=True) for s in "kpq")
GRID = (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3), Fraction(1, 10), Fraction(9, 10))

Expr = sp.Expr
Pmf = Callable[[Expr], Expr]
BOUNDED_N = 8  # the largest n of the exact cross-checks of the library


def below_one(e: Expr) -> Expr:
    """Simplify under 0 < alpha < 1: resolve sympy's Piecewise branches and alpha**oo = 0."""
    e = sp.refine(sp.sympify(e), sp.Q.lt(a, 1))
    e = e.replace(lambda x: x.is_Pow and x.base == a and x.exp == sp.oo, lambda x: sp.Integer(0))
    return sp.simplify(e)


def series(term: Expr, var: sp.Symbol, lo: Expr, hi: Expr) -> Expr:
    """sum_{var=lo}^{hi} term in closed form, for 0 < alpha < 1."""
    return below_one(sp.summation(term, (var, lo, hi)))


def is_zero(e: Expr) -> bool:
    return sp.simplify(below_one(e)) == 0


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
    total = below_one(pmf(sp.Integer(0)) + series(pmf(k), k, 1, sp.oo) + series(pmf(-k), k, 1, sp.oo))
    return is_zero(total - 1), f"sum over Z = {sp.simplify(total)}"


SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"
Part = tuple[bool | None, str]


def decide_parts(claim: str, parts: list[Part], bounded: Callable[[Findings], None] | None = None) -> Findings:
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
