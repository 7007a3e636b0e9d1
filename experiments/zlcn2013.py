"""zlcn2013 (count-range queries): printed items not checked elsewhere, regenerated and diffed.

zlcn2013 writes alpha > 1 (alpha = e^eps).  The x-hat, y-hat, rho and Theorem 3 tables are
transcribed in paper_tables/printed/zlcn2013.json and checked by the zlcn2013 claims in
proofs/; this module checks the printed matrix M of Theorem 7's proof sketch.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import sympy

from udpm.claims import Context, Erratum, Evidence, Result, Scope, Status, checks
from udpm.errors import InvalidInput
from udpm.tables import printed

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


@checks("zlcn2013.thm7.M")
def theorem_7_matrix(ctx: Context, mechanism: Callable = range_restricted) -> Result:
    """zlcn2013 Theorem 7's proof sketch: the printed M = (a-1)/(a+1) (...) is the range-restricted
    geometric mechanism (6), entry by entry, symbolically in alpha > 1 and n >= 3."""
    item = printed("zlcn2013", "thm7.M")
    scalar = latex_value(_raw(item, "scalar"))
    idx = [sympy.Integer(0), sympy.Integer(1), sympy.Integer(2), None, N]
    errata, checked = [], 0
    for r, row in enumerate(item.values):
        for c, text in enumerate(row):
            if text in PLACEHOLDERS or idx[r] is None or idx[c] is None:
                continue
            i, j = idx[r], idx[c]
            want = mechanism(i, j, _distance(i, j))
            got = scalar * latex_value(text)
            checked += 1
            if sympy.simplify(sympy.powsimp(got - want, force=True)) != 0:
                errata.append(Erratum(f"{item.where}[{r}][{c}]", text, str(sympy.simplify(want / scalar)),
                                      "unclassified", f"m[{i},{j}] should be {want}"))
    values = {"entries checked": str(checked), "scalar": str(scalar)}
    scope = Scope.of(None, ["alpha > 1 (symbolic)"])
    if errata:
        e = errata[0]
        return Result(Status.ERRATUM, Evidence.TABLE, scope, values, errata=errata,
                      counterexample=f"{e.entry}: printed {e.printed}, (6) gives {e.correct}")
    res = Result(Status.REPRODUCED, Evidence.TABLE, scope, values)
    res.notes = "every displayed entry times the scalar equals (6) identically in alpha and n (n >= 3)"
    return res


def _raw(item, key: str) -> str:
    import json

    from udpm.tables import PRINTED

    data = json.loads((PRINTED / f"{item.paper}.json").read_text(encoding="utf-8"))
    return data["items"][item.key][key]
