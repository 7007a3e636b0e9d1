"""Lemma 3's printed formulas for x and y (zlcn2013 Section 3.2), checked symbolically in k and i.

The paper's formulas (in A) are the internal ones after A = 1/a, their entries k-1..k+2 are x-hat and y-hat, and
every entry is a probability (the smallest exponent of a on each side of k).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from proofs.countrange.alpha import A_SYM, a_sym, in_internal_alpha
from proofs.countrange.vectors import INTERNAL_LEMMA3, PAPER_LEMMA3
from udpm.errors import ExpectationsError


def smallest_exponent(f: Callable, low: bool) -> tuple[sp.Expr, sp.Expr]:
    """(exponent e(s), its minimum over s >= 0) of Lemma 3's entry f = a^e/(a+1) at i = k - s (low side) or
    j = k + 1 + s (high side), symbolically in k and s."""
    kk, s = sp.Symbol("k", integer=True, nonnegative=True), sp.Symbol("s", integer=True, nonnegative=True)
    idx = kk - s if low else kk + 1 + s
    base, e = sp.powsimp(sp.simplify(f(kk, idx, a_sym) * (a_sym + 1))).as_base_exp()
    if base != a_sym:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__} is not a^e/(a+1): {f(kk, idx, a_sym)}")
    poly = sp.Poly(sp.expand(e), s)
    if poly.degree() > 1 or any(c.free_symbols for c in poly.all_coeffs()) or poly.all_coeffs()[0] < 0:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__}: exponent {e} is not increasing in s")
    return sp.expand(e), e.subs(s, 0)


def lemma3_formula_facts() -> dict[str, str]:
    """The printed exponents, symbolically in k and i: the paper's formulas (in A) become the internal ones after
    A = 1/a; the entries next to k are x-hat, y-hat; every entry is a probability (computed: the smallest exponent
    of a on each side of k)."""
    kk = sp.Symbol("k", integer=True, nonnegative=True)
    i = sp.Symbol("i", integer=True)
    paper = {name: in_internal_alpha(f(kk, i, A_SYM)) for name, f in PAPER_LEMMA3.items()}
    for name, f in INTERNAL_LEMMA3.items():
        if sp.simplify(paper[name] - f(kk, i, a_sym)) != 0:
            raise ExpectationsError(f"Lemma 3 {name}: {f(kk, i, a_sym)} is not the paper's formula {paper[name]}")
    x_lo, xy_hi, y_lo = paper["x, i <= k"], paper["x and y, j >= k+1"], paper["y, i <= k"]
    facts = {
        "x_(k-1), x_k, x_(k+1), x_(k+2)": [
            x_lo.subs(i, kk - 1),
            x_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
        "y_(k-1), y_k, y_(k+1), y_(k+2)": [
            y_lo.subs(i, kk - 1),
            y_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
    }
    out = {f"Lemma 3 symbolic {name}": ", ".join(str(sp.simplify(v)) for v in vals) for name, vals in facts.items()}
    lows = {"x, i <= k": True, "x and y, j >= k+1": False, "y, i <= k": True}
    mins = {name: smallest_exponent(INTERNAL_LEMMA3[name], low) for name, low in lows.items()}
    smallest = min(m for _, m in mins.values())
    parts = ", ".join(f"{name}: a^({e})/(a+1), s >= 0, smallest exponent {m}" for name, (e, m) in mins.items())
    verdict = (
        f"yes: smallest exponent {smallest} >= 0, so 0 < entry <= 1/(a+1) < 1"
        if smallest >= 0
        else f"no: exponent {smallest} < 0 gives entries above 1/(a+1)"
    )
    out["Lemma 3 entries in (0, 1)"] = f"{verdict} ({parts}; s = k - i below k, j - k - 1 above)"
    return out
