"""zlcn2013 (count-range queries): printed items not checked elsewhere, regenerated and diffed.

zlcn2013 writes alpha > 1 (alpha = e^eps).  x-hat, y-hat, rho, Lemma 2's sum and Theorem 3's
tables and relations are transcribed in paper_tables/printed/zlcn2013.json and compared by the
zlcn2013 claims in proofs/countrange/lemma2.py (lemma2) and proofs/countrange/theorem3.py (thm3); this
module compares the printed matrix M of Theorem 7's proof sketch.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy

from experiments.grs2011 import PROPERTY
from udpm.claims.instances import TABLE
from udpm.claims.registry import UNCLASSIFIED, Context, Findings, checks
from udpm.claims.tables import printed
from udpm.errors import InvalidInput

A = sympy.Symbol("alpha", positive=True)  # zlcn2013's alpha > 1
N = sympy.Symbol("n", integer=True, positive=True)
PLACEHOLDERS = {"\\dots", "\\vdots", "\\ddots", ""}


def latex_value(text: str) -> sympy.Expr:
    """The sympy value of a printed LaTeX entry in alpha and n (\\frac, \\cdot, ^{...}, \\alpha)."""
    s = text.replace("\\alpha", "alpha").replace("\\cdot", "*").replace(" ", "")
    frac = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
    power = re.compile(r"\^\{([^{}]*)\}")
    while True:
        t = power.sub(r"**(\1)", frac.sub(r"((\1)/(\2))", s))
        if t == s:
            break
        s = t
    s = re.sub(r"\^(\w)", r"**\1", s)
    if "\\" in s or "{" in s:
        raise InvalidInput(f"cannot read the printed entry {text!r}")
    return sympy.sympify(s, locals={"alpha": A, "n": N})


def range_restricted(i: sympy.Expr, j: sympy.Expr, dist: sympy.Expr, n: sympy.Expr = N) -> sympy.Expr:
    """zlcn2013 (6): Pr[Z(i) = j] at distance |j - i| = dist, for alpha > 1."""
    if j == 0 or j == n:
        return A / (A + 1) * A ** (-dist)
    return (A - 1) / (A + 1) * A ** (-dist)


def _distance(i: sympy.Expr, j: sympy.Expr) -> sympy.Expr:
    d = j - i
    # Displayed indices are 0, 1, 2 and n with n >= 3, so the sign of j - i is that of its n-coefficient,
    # or of the constant when n cancels.
    sign = d.coeff(N) if d.coeff(N) != 0 else d
    return d if sign >= 0 else -d


ZLCN_ALPHA = "symbolic zlcn alpha > 1 (n >= 3)"
B = sympy.Symbol("beta", positive=True)  # alpha = 1 + beta > 1: resolves sympy's alpha = 1 branches
J = sympy.Symbol("j", integer=True)


def is_identity(e: sympy.Expr) -> bool:
    """e = 0 identically in alpha > 1 and n (sympy's alpha = 1 branches resolved by alpha = 1 + beta)."""
    e = sympy.piecewise_fold(sympy.sympify(e)).subs(A, 1 + B)
    return sympy.simplify(sympy.powsimp(e, force=True)) == 0


def row_sum(mechanism: Callable, i: sympy.Expr) -> sympy.Expr:
    """sum_{j=0}^{n} m[i, j] of the matrix with entries ``mechanism`` (the displayed pattern), in closed form."""
    total = mechanism(i, sympy.Integer(0), i) + mechanism(i, N, N - i)
    if i == N:
        return total + sympy.summation(mechanism(i, J, N - J), (J, 1, N - 1))
    total += sum((mechanism(i, sympy.Integer(k), i - k) for k in range(1, int(i))), sympy.Integer(0))
    return total + sympy.summation(mechanism(i, J, J - i), (J, max(int(i), 1), N - 1))


@checks("zlcn2013.thm7.M")
def theorem_7_matrix(ctx: Context, mechanism: Callable = range_restricted) -> Findings:
    """zlcn2013 Theorem 7's proof sketch: the printed M = (a-1)/(a+1) (...) is the range-restricted
    geometric mechanism (6), entry by entry, symbolically in alpha > 1 and n >= 3; and M, as printed,
    is a symmetric mechanism (rows sum to 1) whose displayed neighbouring rows are alpha-DP."""
    rec = Findings("zlcn2013.thm7.M")
    item = printed("zlcn2013", "thm7.M")
    scalar = latex_value(_raw(item, "scalar"))
    idx = [sympy.Integer(0), sympy.Integer(1), sympy.Integer(2), None, N]
    shown: dict[tuple[int, int], sympy.Expr] = {}
    for r, row in enumerate(item.values):
        for c, text in enumerate(row):
            if text in PLACEHOLDERS or idx[r] is None or idx[c] is None:
                continue
            i, j = idx[r], idx[c]
            want = mechanism(i, j, _distance(i, j))
            got = shown[(r, c)] = scalar * latex_value(text)
            if not is_identity(got - want):
                decl = item.errata.get(f"[{r}][{c}]", {})
                rec.erratum(
                    f"{item.where}[{r}][{c}]",
                    text,
                    str(sympy.simplify(want / scalar)),
                    decl.get("class", UNCLASSIFIED),
                    decl.get("explanation", f"m[{i},{j}] should be {want}"),
                )
    rec.value(**{"entries checked": len(shown), "scalar": scalar})
    rec.decide(
        True,
        n=None,
        alpha=ZLCN_ALPHA,
        kind=TABLE,
        method="symbolic comparison in alpha and n (sympy)",
        covers=f"{item.where} ({item.key}): every displayed entry times the scalar against (6)",
    )
    # The properties the paper asserts or uses: "a symmetric matrix M", rows summing to 1, alpha-DP rows.
    asym = [(r, c) for (r, c), v in shown.items() if (c, r) in shown and not is_identity(v - shown[(c, r)])]
    centre = {(0, 0): (4, 4), (0, 4): (4, 0), (4, 0): (0, 4), (4, 4): (0, 0)}  # (i, j) -> (n-i, n-j), both shown
    off_centre = [(r, c) for (r, c), (r2, c2) in centre.items() if not is_identity(shown[(r, c)] - shown[(r2, c2)])]
    rec.decide(
        not off_centre,
        f"M[{off_centre[0]}] != M[{centre[off_centre[0]]}]" if off_centre else "",
        n=None,
        alpha=ZLCN_ALPHA,
        kind=TABLE,
        method=PROPERTY,
        covers="M is centrosymmetric on its displayed entries (m[i][j] = m[n-i][n-j])",
    )
    rec.value(**{"displayed entries breaking symmetry": ", ".join(f"[{r}][{c}]" for r, c in asym) or "none"})
    # The paper asserts "a symmetric matrix M": a claim about a printed object, decided as printed.
    rec.decide(
        not asym,
        (
            f"M[{asym[0][0]}][{asym[0][1]}] = {sympy.simplify(shown[asym[0]])} but "
            f"M[{asym[0][1]}][{asym[0][0]}] = {sympy.simplify(shown[asym[0][::-1]])}"
        )
        if asym
        else "",
        n=None,
        alpha=ZLCN_ALPHA,
        kind=TABLE,
        method=PROPERTY,
        covers="the paper's assertion 'a symmetric matrix M' (m[i][j] = m[j][i]) on the displayed entries",
    )
    if asym:
        (r, c) = asym[0]
        rec.erratum(
            "Theorem 7, proof sketch: 'a symmetric matrix M'",
            "symmetric",
            "centrosymmetric (m[i][j] = m[n-i][n-j]), not symmetric",
            "false claim" if not off_centre else UNCLASSIFIED,
            f"as printed, M[{r}][{c}] = {sympy.simplify(shown[(r, c)])} but M[{c}][{r}] = "
            f"{sympy.simplify(shown[(c, r)])}: the boundary columns carry the extra factor alpha/(alpha-1), "
            "so M is not symmetric; it is centrosymmetric, as (6) is. The proof sketch uses only that M "
            "is invertible, not its symmetry",
        )
    bad = [(i, s) for i in (idx[0], idx[1], idx[2], N) if not is_identity((s := row_sum(mechanism, i)) - 1)]
    rec.decide(
        not bad,
        f"row {bad[0][0]} of M sums to {sympy.simplify(bad[0][1])}" if bad else "",
        n=None,
        alpha=ZLCN_ALPHA,
        kind=TABLE,
        method=PROPERTY + " (closed-form row sums)",
        covers="the displayed rows 0, 1, 2, n of M (hidden entries by the displayed pattern (6)) sum to 1",
    )
    dp_bad = []
    for r in (0, 1):
        for c in (0, 1, 2, 4):
            ratio = sympy.simplify(shown[(r, c)] / shown[(r + 1, c)])
            if not any(is_identity(ratio - v) for v in (A, 1 / A, sympy.Integer(1))):
                dp_bad.append(f"M[{r}][{c}]/M[{r + 1}][{c}] = {ratio}")
    rec.decide(
        not dp_bad,
        dp_bad[0] if dp_bad else "",
        n=None,
        alpha=ZLCN_ALPHA,
        kind=TABLE,
        method=PROPERTY,
        covers="displayed neighbouring rows (0,1), (1,2) of M: every ratio is alpha, 1/alpha or 1",
    )
    rec.note(
        "kind: a printed matrix compared (table), symbolically in alpha > 1 and n >= 3 for the displayed "
        "entries; '\\dots' cells are placeholders, not values. Printed objects' properties are decided on "
        "the printed entries as their own table instances"
    )
    return rec


def _raw(item, key: str) -> str:
    import json

    from udpm.claims.tables import PRINTED

    data = json.loads((PRINTED / f"{item.paper}.json").read_text(encoding="utf-8"))
    return data["items"][item.key][key]
