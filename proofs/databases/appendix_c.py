"""grs2011 Appendix C, Figure 6: with priors over databases no 1/2-DP mechanism remaps to both users' optima.

The claim grs2011.appC on the users and optima of proofs/databases/priors.py, and the proof's chain of relations over
the four shown databases: its premises (:func:`chain_premises`), the values they force (:func:`forced_values`)
and each printed equation and inequality decided as a z3 entailment from them (:func:`chain_relation_holds`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

import sympy as sp
import z3

from proofs.databases.priors import (
    HALF,
    OUTS,
    SHOWN,
    SMALL_EPS,
    certified_optima,
    compare_priors,
    db,
    decide_impossibility,
    lp_certificate,
    model_rows,
    printed_item,
    witnessed,
)
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import PrintedItem, compare_printed
from udpm.smt.solvers import decide, model_value

F = Fraction


def chain_premises(alpha: Fraction, rows_a, rows_b) -> tuple[dict, list, dict]:
    """The premises of grs2011 Appendix C's chain over the four shown databases: X stochastic with the two
    remaps' marginals (Figure 6(a), (b)), the two-row DP bound (factor 1/alpha^2) between {1} and {2} on outputs
    12, 21 and DP between {1} and {1,3} on output 22.  Returns (x, premises, the proof's solution: x_22 = 0 and
    x_11 = P(first = 1) + P(second = 1) - 1 at every shown database)."""
    x = {(d, o): z3.Real(f"y_{''.join(map(str, d))}_{o}") for d in SHOWN for o in OUTS}
    base = []
    for d, ra, rb in zip(SHOWN, rows_a, rows_b):
        base += [x[d, o] >= 0 for o in OUTS] + [z3.Sum([x[d, o] for o in OUTS]) == 1]
        base += [x[d, "11"] + x[d, "12"] == F(ra[0]), x[d, "11"] + x[d, "21"] == F(rb[0])]
    a2 = alpha * alpha
    two_rows = [x[db(1), o] >= a2 * x[db(2), o] for o in ("12", "21")] + [
        x[db(2), o] >= a2 * x[db(1), o] for o in ("12", "21")
    ]
    step = [x[db(1, 3), "22"] >= alpha * x[db(1), "22"], x[db(1), "22"] >= alpha * x[db(1, 3), "22"]]
    point = {}
    for d, ra, rb in zip(SHOWN, rows_a, rows_b):
        x11 = F(ra[0]) + F(rb[0]) - 1
        point |= {x[d, "11"]: x11, x[d, "12"]: F(ra[0]) - x11, x[d, "21"]: F(rb[0]) - x11, x[d, "22"]: F(0)}
    return x, base + two_rows + step, point


def forced_values(rec: Findings, ctx: Context, alpha: Fraction, rows_a, rows_b) -> None:
    """The proof's chain as z3 entailments over the four shown databases, from premises shown satisfiable: the
    two-row DP bound (factor 1/alpha^2) between {1} and {2} on outputs 12, 21 forces x_22 = 0 at {1} and {2};
    DP between {1} and {1,3} on output 22 forces it at {1,3}; then x_{{1},11} = 7/12 and x_{{1,3},11} = 1/6,
    whose ratio exceeds 1/alpha."""
    x, premises, point = chain_premises(alpha, rows_a, rows_b)
    rec.value(**{"chain premises": witnessed(premises, point, ctx, "the proof's chain")})
    goals = [(f"x_22 = 0 at {d}", x[d, "22"] > 0) for d in (db(1), db(2), db(1, 3))]
    goals += [
        (f"x_11 = {v} at {d}", x[d, "11"] != v) for d, v in zip((db(1), db(1, 3)), solved_entries(rows_a, rows_b))
    ]
    for step_name, negation in goals:
        with rec.deciding(
            n=3,
            alpha=alpha,
            kind=BOUNDED,
            method="smt-unsat entailment",
            covers="every X satisfying the proof's premises at the four shown databases",
            step=step_name,
        ) as d:
            out = decide([*premises, negation], ctx.solver_timeout)
            if not out.unsat:
                d.counterexample(f"{step_name} is not forced: {model_rows(out.model, x)}")


def solved_entries(rows_a, rows_b) -> list[Fraction]:
    """With x_22 = 0 a row's x_11 = P(first = 1) + P(second = 1) - 1: at {1} and {1,3}."""
    return [F(rows_a[0][0]) + F(rows_b[0][0]) - 1, F(rows_a[2][0]) + F(rows_b[2][0]) - 1]


_VAR = re.compile(r"x_\{\\\{([\d,\s]*)\\\},([12]{2})\}")


def chain_relations(text: str) -> list[tuple[sp.Expr, str, sp.Expr]] | None:
    r"""A printed relation of Appendix C ('x_{\{1\},12} \leq 4x_{\{2\},12}', 'a = b = 0') as (lhs, op, rhs)
    links over sympy symbols named 'x_{1},12' (database as its set of rows equal to 1), else None."""
    t = _VAR.sub(lambda m: f" X({m.group(1).replace(' ', '')}|{m.group(2)}) ", text)
    t = re.sub(r"\\frac\{(\d+)\}\{(\d+)\}", r"(\1/\2)", t).replace("\\leq", "<=")
    names: dict[str, sp.Symbol] = {}

    def symbol(m: re.Match) -> str:
        name = f"x_{{{m.group(1)}}},{m.group(2)}"
        names[f"v{len(names)}"] = sp.Symbol(name)
        return f" v{len(names) - 1} "

    t = re.sub(r"X\(([\d,]*)\|(\d\d)\)", symbol, t)
    t = re.sub(r"(\d)\s*(v\d)", r"\1*\2", t)
    parts = re.split(r"(<=|=)", t)
    if len(parts) < 3 or "\\" in t:
        return None
    try:
        exprs = [sp.sympify(q, locals=names) for q in parts[::2]]
    except (sp.SympifyError, SyntaxError, TypeError):
        return None
    return [(exprs[k], parts[2 * k + 1], exprs[k + 1]) for k in range(len(exprs) - 1)]


def _chain_var(sym: sp.Symbol, x: Mapping) -> z3.ArithRef | None:
    m = re.fullmatch(r"x_\{([\d,]*)\},(\d\d)", sym.name)
    d = db(*(int(r) for r in m.group(1).split(",") if r)) if m else None
    return x.get((d, m.group(2))) if m else None


def _linear_z3(e: sp.Expr, x: Mapping) -> z3.ArithRef | None:
    """A linear sympy expression in the printed x_{d,jk} as a z3 term over ``x`` (None: not linear or unknown)."""
    e = sp.expand(e)
    out = z3.RealVal(0)
    for term in sp.Add.make_args(e):
        coeff, rest = term.as_coeff_Mul()
        if not coeff.is_Rational:
            return None
        if rest == 1:
            out = out + z3.RealVal(str(coeff))
            continue
        v = _chain_var(rest, x) if isinstance(rest, sp.Symbol) else None
        if v is None:
            return None
        out = out + z3.RealVal(str(coeff)) * v
    return out


def chain_relation_holds(text: str, x: Mapping, premises: list, point: Mapping, ctx: Context) -> str:
    """The printed relation ``text`` if every X satisfying the proof's premises satisfies it (z3 unsat of its
    negation), else the relation that does hold: an equation with its constant corrected by the value of
    lhs - rhs at the proof's solution when the premises force that value, otherwise 'not implied' with a
    model of the premises that violates it."""
    links = chain_relations(text)
    if links is None:
        return f"unreadable: {text}"
    fixed, implied = [], True
    for lhs, op, rhs in links:
        zl, zr = _linear_z3(lhs, x), _linear_z3(rhs, x)
        if zl is None or zr is None:
            return f"unreadable: {text}"
        negation = zl != zr if op == "=" else zl > zr
        out = decide([*premises, negation], ctx.solver_timeout)
        if out.unsat:
            fixed.append(f"{lhs} {op} {rhs}")
            continue
        implied = False
        if op == "=":
            gap = F(str(z3.simplify(z3.substitute(zl - zr, *[(v, z3.RealVal(str(q))) for v, q in point.items()]))))
            if decide([*premises, zl - zr != gap], ctx.solver_timeout).unsat:
                fixed.append(f"{lhs} = {rhs + sp.Rational(gap.numerator, gap.denominator)}")
                continue
        used = {str(v) for v in (lhs - rhs).free_symbols}
        witness = "; ".join(f"{k}={model_value(out.model, v)}" for k, v in sorted(_named(x).items()) if k in used)
        fixed.append(f"not implied: {lhs} {op} {rhs} (fails at {witness})")
    return text if implied else "; ".join(fixed)


def _named(x: Mapping) -> dict[str, z3.ArithRef]:
    return {f"x_{{{','.join(str(r + 1) for r, v in enumerate(d) if v)}}},{o}": t for (d, o), t in x.items()}


def compare_chain_relations(rec: Findings, ctx: Context, item: PrintedItem, alpha: Fraction, rows_a, rows_b) -> None:
    """grs2011 Appendix C: each printed equation and inequality of the proof against the premises it rests on
    (:func:`chain_premises`, built from the certified optima): a printed relation matches when every X
    satisfying them satisfies it."""
    x, premises, point = chain_premises(alpha, rows_a, rows_b)
    computed = [chain_relation_holds(t, x, premises, point, ctx) for t in item.values]
    compare_printed(rec, item, computed, n=3, alpha=alpha, method="z3 entailment from the proof's premises")


@checks("grs2011.appC")
def appendix_c(
    ctx: Context,
    eps: Fraction = SMALL_EPS,
    alpha_smt: Fraction = HALF,
    items: Mapping[str, PrintedItem] | None = None,
) -> Findings:
    """grs2011 Appendix C, Figure 6: D = {0,1}, n = 3, alpha = 1/2, loss |i-j|^(1-delta), the two priors over
    databases: Figure 6(a), (b) are the unique optimal direct mechanisms (eps, delta small), and no 1/2-DP
    mechanism can be remapped to both.  The printed prior and the proof's equations and inequalities are
    compared with the prior optimised under and with the proof's premises."""
    rec = Findings("grs2011.appC")
    compare_priors(rec, printed_item("grs2011", "appC.priors", items))
    computed, full = certified_optima(rec, ctx, eps)
    fa, fb = printed_item("grs2011", "fig6a", items), printed_item("grs2011", "fig6b", items)
    compare_printed(rec, fa, computed[0], n=3, alpha=HALF, method="certified LP optimum")
    compare_printed(rec, fb, computed[1], n=3, alpha=HALF, method="certified LP optimum")
    if len(full) == 2:
        decide_impossibility(rec, ctx, alpha_smt, computed[0], computed[1], full)
        forced_values(rec, ctx, alpha_smt, computed[0], computed[1])
        compare_chain_relations(rec, ctx, printed_item("grs2011", "appC.equations", items), alpha_smt, *computed)
    solved = solved_entries(computed[0], computed[1])
    compare_printed(rec, printed_item("grs2011", "appC.solved", items), solved, n=3, alpha=HALF)
    lp_certificate(rec, ctx, eps, (0, F(1, 2)))
    rec.note(
        "optima certified exactly (udpm.lp.certify, uniqueness over all 8 databases); the eps range is exact; "
        "any delta in [0, 1) by the remap argument (module docstring), delta = 1/2, 1/10 certified; z3 proves that "
        "no 1/2-DP mechanism on D^3 can be remapped to both optima (premises with each optimum alone satisfiable)"
    )
    return rec
