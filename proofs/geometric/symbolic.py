"""Symbolic alpha and n, and the printed LaTeX formulas as sympy expressions: the vocabulary of the all-n
symbolic checks (proofs/geometric/post_processing_example.py, proofs/geometric/rounded_laplace.py,
proofs/geometric/laplace_vs_geometric.py).

The printed formulas are read from paper_tables/printed/*.json (LaTeX, verbatim) by :func:`latex_expr`
and compared with the exact symbolic value computed from the mechanism's pmf.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
from sympy.parsing.sympy_parser import implicit_multiplication_application, parse_expr, standard_transformations

a = sp.Symbol("alpha", positive=True)
nn = sp.Symbol("n", integer=True, positive=True)
h, k = sp.symbols("h k", integer=True, nonnegative=True)
SYMBOLIC = "symbolic alpha in (0,1)"
F_ONE = Fraction(1)
GRID = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(9, 10), Fraction(1, 100))


# --- printed LaTeX ---------------------------------------------------------------------------


def _braced(s: str, i: int) -> tuple[str, int]:
    """The content of the {...} group starting at s[i] == '{', and the index after it."""
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return s[i + 1 : j], j + 1
    raise ValueError(f"unbalanced braces in {s!r}")


def latex_expr(text: str) -> sp.Expr:
    """A printed LaTeX formula in alpha and n (\\frac, \\sqrt, \\cdot, ^{...}) as a sympy expression."""
    s = text.replace("\\alpha", " alpha ").replace("\\cdot", "*").replace("\\left", "").replace("\\right", "")
    out, i = "", 0
    while i < len(s):
        if s.startswith("\\frac", i):
            num, i = _braced(s, i + 5)
            den, i = _braced(s, i)
            out += f"(({latex_expr(num)})/({latex_expr(den)}))"
        elif s.startswith("\\sqrt", i):
            arg, i = _braced(s, i + 5)
            out += f"sqrt({latex_expr(arg)})"
        elif s.startswith("^{", i):
            arg, i = _braced(s, i + 1)
            out += f"**({latex_expr(arg)})"
        elif s[i] == "^":
            out += "**"
            i += 1
        else:
            out += s[i]
            i += 1
    return parse_expr(
        out,
        local_dict={"alpha": a, "n": nn},
        transformations=(*standard_transformations, implicit_multiplication_application),
    )


def same(x: sp.Expr, y: sp.Expr) -> bool:
    return sp.simplify(sp.powsimp(sp.expand(x - y), force=True)) == 0


def below_one(e: sp.Expr) -> sp.Expr:
    """Simplify under 0 < alpha < 1: Piecewise convergence branches resolved and alpha**oo = 0."""
    e = sp.refine(sp.sympify(e), sp.Q.lt(a, 1))
    if isinstance(e, sp.Piecewise):
        e = e.args[0][0]
    e = e.replace(lambda x: x.is_Pow and x.base == a and x.exp == sp.oo, lambda x: sp.Integer(0))
    return sp.simplify(e)
