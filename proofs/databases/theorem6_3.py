"""grs2009 Theorem 6.3, Lemma 6.4, Figures 4-5: with priors over databases no 1/2-DP mechanism implements both optima.

The claim grs2009.thm6.3 on the users and optima of proofs/databases/priors.py: Figure 4 against the certified optimum,
Figure 5 as Lemma 6.4's parametrisation in delta_1..delta_4 (:func:`figure5_rows`, compared as exact
expressions), the proof's inequalities from the two-row DP bound and the values delta_k = 1 they force.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
import z3

from proofs.databases.priors import (
    HALF,
    SHOWN,
    SMALL_EPS,
    certified_optima,
    compare_priors,
    db,
    decide_impossibility,
    lp_certificate,
    printed_item,
    witnessed,
)
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import PrintedItem, compare_printed
from udpm.core import linalg
from udpm.lp.database import Database
from udpm.smt.solvers import decide, model_value

F = Fraction


D1, D2, D3, D4 = sp.symbols("delta_1 delta_2 delta_3 delta_4")
COLUMNS = ("l", "m", "n", "o")  # (y1, y2): l = (1, 1), m = (2, 2), n = (1, 2), o = (2, 1)


def figure5_rows(rows_a, rows_b) -> list[list[sp.Expr]]:
    """Lemma 6.4's x on {1}, {2}, {1,3}, {2,3}: x_l + x_n = P(y1 = 1), x_l + x_o = P(y2 = 1), sum 1, with the
    paper's free parameter: 12 x_o at {1}, 12 x_n at {2}, 6 x_o at {1,3}, 6 x_n at {2,3}."""
    out = []
    for (pa, _), (pb, _), delta, free, scale in zip(rows_a, rows_b, (D1, D2, D3, D4), "onon", (12, 12, 6, 6)):
        pa, pb = sp.Rational(str(pa)), sp.Rational(str(pb))
        xl, xm, xn, xo = sp.symbols("xl xm xn xo")
        sol = sp.solve(
            [xl + xn - pa, xl + xo - pb, xl + xm + xn + xo - 1, (xo if free == "o" else xn) - delta / scale],
            [xl, xm, xn, xo],
            dict=True,
        )[0]
        out.append([sp.factor(sol[v]) for v in (xl, xm, xn, xo)])
    return out


def parse_latex(text: str) -> sp.Expr | None:
    t = text.replace("\\leq", "<=").replace(" ", "")
    t = re.sub(r"\\frac\{(\d+)\}\{(\d+)\}", r"(\1/\2)*", t)
    t = re.sub(r"\\delta_(\d)", r"delta_\1", t)
    t = re.sub(r"(\d)(delta|\()", r"\1*\2", t)
    t = t.replace("*)", ")")
    try:
        if "<=" in t:
            lhs, rhs = t.split("<=")
            return sp.sympify(rhs, locals=_SYMS) - sp.sympify(lhs, locals=_SYMS)
        return sp.sympify(t.rstrip("*"), locals=_SYMS)
    except (sp.SympifyError, SyntaxError, TypeError):
        return None


_SYMS = {"delta_1": D1, "delta_2": D2, "delta_3": D3, "delta_4": D4}


def _same_inequality(p: sp.Expr | None, q: sp.Expr) -> bool:
    """p >= 0 and q >= 0 are the same inequality: p = c q for a positive rational c."""
    if p is None:
        return False
    ratio = sp.simplify(p / q)
    return bool(ratio.is_Rational and ratio > 0)


FIG4_ORDER = [(), (1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 2, 3)]


@checks("grs2009.thm6.3")
def theorem_6_3(
    ctx: Context,
    eps: Fraction = SMALL_EPS,
    alpha_smt: Fraction = HALF,
    items: Mapping[str, PrintedItem] | None = None,
) -> Findings:
    """grs2009 Theorem 6.3, Lemma 6.4, Figures 4-5: two users with priors over D^3 (D = {0,1}, alpha = 1/2,
    loss |i-r|^(1-delta)) whose unique optimal mechanisms (Figure 4 and its mirror) no single 1/2-DP mechanism
    implements; Figure 5's parametrisation and the proof's inequalities and values are regenerated, the printed
    prior is compared with the one optimised under and the proof's references with the objects they name."""
    rec = Findings("grs2009.thm6.3")
    compare_priors(rec, printed_item("grs2009", "thm6.3.priors", items))
    computed, full = certified_optima(rec, ctx, eps)
    shown_idx = {db(*o): k for k, o in enumerate(FIG4_ORDER)}
    a_rows = computed[0]
    mirror = [a_rows[1], a_rows[0], a_rows[3], a_rows[2]]  # x_2 exchanges rows 1 and 2
    rec.decide(
        computed[1] == mirror,
        f"user 2's certified optimum {linalg.fmt_matrix(computed[1])} is not the mirror of user 1's",
        n=3,
        alpha=HALF,
        kind=BOUNDED,
        method="exact comparison of certified unique optima",
        covers="user 2's unique optimum = user 1's with rows 1, 2 exchanged",
    )
    grid: list[list[object]] = [["", ""] for _ in FIG4_ORDER]
    for d, r in zip(SHOWN, a_rows):
        grid[shown_idx[d]] = r
    fig4 = printed_item("grs2009", "fig4", items)
    fig4_is_x1 = compare_printed(rec, fig4, grid, n=3, alpha=HALF, method="certified LP optimum")
    if len(full) == 2:
        decide_impossibility(rec, ctx, alpha_smt, a_rows, computed[1], full)
    # Figure 5: the parametrised x of Lemma 6.4, compared as exact expressions
    fig5 = printed_item("grs2009", "fig5", items)
    rows5 = figure5_rows(a_rows, computed[1])
    grid5: list[list[object]] = [["", "", "", ""] for _ in FIG4_ORDER]
    for d, r in zip(SHOWN, rows5):
        k = shown_idx[d]
        grid5[k] = [fig5.values[k][c] if _equal(parse_latex(fig5.values[k][c]), r[c]) else str(r[c]) for c in range(4)]
    fig5_is_x = compare_printed(rec, fig5, grid5, n=3, alpha=HALF, method="Lemma 6.4 solved exactly in delta_k")
    # the proof's inequalities (DP between {1} and {2}, two rows apart: factor 1/alpha^2 = 4) and its values
    x1, x2 = rows5[0], rows5[1]
    ineqs = [4 * x2[2] - x1[2], 4 * x1[3] - x2[3], (4 * x2[2] - x1[2]) + (4 * x1[3] - x2[3])]
    item_i = printed_item("grs2009", "thm6.3.inequalities", items)
    got_i = [s if _same_inequality(parse_latex(s), q) else f"0 <= {q}" for s, q in zip(item_i.values, ineqs)]
    compare_printed(rec, item_i, got_i, n=3, alpha=HALF, method="two-row DP bound, exact")
    # the same two-row argument on {1}, {2} (delta_1, delta_2) and on {1,3}, {2,3} (delta_3, delta_4)
    for (k, dk), (m, dm) in (((0, D1), (1, D2)), ((2, D3), (3, D4))):
        xk, xm = rows5[k], rows5[m]
        pair = f"{space_set(SHOWN[k])}, {space_set(SHOWN[m])}"
        key = "delta premises" if k == 0 else f"delta premises ({pair})"
        premises = [_z3(v) >= 0 for v in (*xk, *xm)] + [_z3(4 * xm[2] - xk[2]) >= 0, _z3(4 * xk[3] - xm[3]) >= 0]
        one = {_Z3[dk]: F(1), _Z3[dm]: F(1)}
        rec.value(**{key: witnessed(premises, one, ctx, f"Figure 5 rows {pair} and the inequalities")})
        with rec.deciding(
            n=3,
            alpha=HALF,
            kind=BOUNDED,
            method="smt-unsat entailment",
            covers=f"every ({dk}, {dm}) with Figure 5's rows {pair} non-negative and their two inequalities",
            step=f"{dk} = {dm} = 1",
        ) as d:
            out = decide([*premises, z3.Or(_Z3[dk] != 1, _Z3[dm] != 1)], ctx.solver_timeout)
            if not out.unsat:
                d.counterexample(
                    f"{dk} = {model_value(out.model, _Z3[dk])}, {dm} = {model_value(out.model, _Z3[dm])} "
                    "also satisfy them"
                )
    solved = [_exact(rows5[0][0].subs(D1, 1)), _exact(rows5[2][0].subs(D3, 1))]
    compare_printed(rec, printed_item("grs2009", "thm6.3.solved", items), solved, n=3, alpha=HALF)
    refs = [
        fig4.where if fig4_is_x1 else "no printed figure equals x_1",
        fig5.where if fig5_is_x else "no printed figure has the form of Lemma 6.4",
        f"{latex_set(SHOWN[2])} and {latex_set(SHOWN[3])}",  # the rows of Figure 5 carrying delta_3, delta_4
    ]
    compare_printed(
        rec,
        printed_item("grs2009", "thm6.3.references", items),
        refs,
        n=3,
        alpha=HALF,
        method="the figure whose printed values equal the object, the databases carrying delta_3, delta_4",
    )
    lp_certificate(rec, ctx, eps)
    rec.note(
        "Figure 4 = certified unique optimum (uniqueness over all 8 databases), eps range exact; Figure 5 "
        "regenerated from Lemma 6.4 (entries compared as exact expressions in delta_k); the inequalities "
        "from the two-row DP bound, on {1}, {2} and on {1,3}, {2,3}; z3 proves no 1/2-DP mechanism implements "
        "both users' optima (premises with each optimum alone satisfiable)"
    )
    return rec


def space_set(d: Database) -> str:
    """A database by its set of rows equal to 1, as the papers label it: (1, 0, 1) -> '{1, 3}'."""
    return "{" + ", ".join(str(r + 1) for r, v in enumerate(d) if v) + "}"


def latex_set(d: Database) -> str:
    """:func:`space_set` in the extracted LaTeX: '\\{1, 3\\}'."""
    return "\\" + space_set(d)[:-1] + "\\}"


def _equal(p: sp.Expr | None, q: sp.Expr) -> bool:
    return p is not None and sp.simplify(p - q) == 0


def _exact(v):
    if isinstance(v, sp.Basic) and v.is_Rational:
        return F(int(v.p), int(v.q))
    return v


_Z3 = {D1: z3.Real("delta_1"), D2: z3.Real("delta_2"), D3: z3.Real("delta_3"), D4: z3.Real("delta_4")}


def _z3(e: sp.Expr):
    e = sp.expand(e)
    out = z3.RealVal(0)
    for term in sp.Add.make_args(e):
        coeff, rest = term.as_coeff_Mul()
        c = z3.RealVal(str(coeff))
        out = out + (c if rest == 1 else c * _Z3[rest])
    return out
