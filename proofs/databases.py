"""Non-oblivious mechanisms over explicit databases D^n (grs2011 Appendix C, grs2009 Section 6).

- grs2011 Appendix C / grs2009 Theorem 6.3: with priors over databases (objective (8)) there are two users
  (D = {0,1}, n = 3, alpha = 1/2) with unique optimal direct mechanisms that no single 1/2-DP mechanism can be
  remapped to; z3 proves the impossibility (from satisfiable premises), the certifier the optima.
- The averaging claims (grs2011 Proposition 6.1, grs2009 Proposition 6.2) are in proofs.averaging; the names
  proofs.minimax imports from here are re-exported.

The loss |i-j|^(1-delta) only matters through l = 0, 1, 2^(1-delta), 3^(1-delta).  For every delta in [0, 1)
the remap 0 -> 1, 3 -> 2 strictly lowers the loss of any mass on outputs 0 or 3 at a database of count 1 or
2 (1 > 0, 2^(1-delta) > 1), so optimal mechanisms put no mass there and on outputs {1, 2} the loss is
0/1 whatever delta is: the optima are those for delta = 0 (loss |i-j|, rational).  The run also certifies
delta = 1/2 and 1/10 directly (irrational objective, exact sign decisions in udpm.certify).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

import sympy as sp
import z3

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import Context, Findings, checks
from udpm.instances import BOUNDED
from udpm.programs_database import Database, DatabaseSpace, expected_loss_lp, mechanism_rows
from udpm.smt import decide, model_value, premise_witness
from udpm.tables import PrintedItem, compare_printed, printed
from udpm.users import absolute_error, power_loss

from .averaging import (  # noqa: F401  re-exported: their home before the split (tests/test_averaging.py)
    ALPHAS,
    FULL_SPACES,
    SPACES,
    averaging_farkas,
    decide_averaged,
    decide_farkas,
    digest,
    mechanism_text,
    prop_6_1,
    prop_6_2,
    space_label,
)

F = Fraction
HALF = F(1, 2)
SMALL_EPS = F(1, 100)

# ---------------------------------------------------------------- Appendix C / Theorem 6.3

SPACE3 = DatabaseSpace.of(2, 3)
OUTS = ("11", "12", "21", "22")  # (output of remap 1, output of remap 2)


def db(*ones: int) -> Database:
    """The database whose rows (numbered 1..3) in ``ones`` are 1."""
    return tuple(int(r in ones) for r in (1, 2, 3))


SHOWN = (db(1), db(2), db(1, 3), db(2, 3))


def user_prior(eps: Fraction | sp.Expr, user: int) -> dict[Database, Fraction | sp.Expr]:
    """User 1: {1}: 1/4, {2}: 1/4, {1,3}: eps, {2,3}: 1/2 - eps.  User 2 exchanges {1,3} and {2,3}."""
    a, b = (eps, HALF - eps) if user == 1 else (HALF - eps, eps)
    return {db(1): F(1, 4), db(2): F(1, 4), db(1, 3): a, db(2, 3): b}


def optimum(eps: Fraction, user: int, ctx: Context, delta: object = 0, alpha: Fraction = HALF):
    loss = absolute_error(3) if delta == 0 else power_loss(3, 1 - sp.nsimplify(delta))
    return solve(expected_loss_lp(SPACE3, user_prior(eps, user), loss, alpha), timeout_s=ctx.solver_timeout)


def shown_rows(cert) -> list[list[Fraction]]:
    x = mechanism_rows(SPACE3, cert.lp.names, cert.x)
    return [x[d] for d in SHOWN]


def eps_range(user: int, ctx: Context, target) -> tuple[bool, str]:
    """Exactly: target is the unique optimum for every eps in (0, 1/8) and for no eps > 1/8.

    The objective is c0 + eps c1.  V(eps) is concave and c(eps).target linear, so target optimal at 0 and 1/8
    means optimal on [0, 1/8].  Uniqueness on (0, 1/8): a feasible y != target has g(eps) = c(eps).(y - target)
    linear with g(1/8) >= 0; g(0) > 0 gives g > 0 on [0, 1/8); g(0) = 0 means y is optimal at 0, and then
    c1.(y - target) > 0 exactly when target is the unique minimiser of c1 over the optimal face at 0 (the
    lexicographic LP).  Beyond 1/8: the optimum y at eps = 1/4 ties with target at 1/8 and c1.(target - y) > 0,
    so y is strictly better for every eps > 1/8."""
    from udpm.programs import Constraint, LinearProgram

    lps = {e: expected_loss_lp(SPACE3, user_prior(e, user), absolute_error(3), HALF) for e in (F(0), F(1, 8), F(1, 4))}
    certs = {e: solve(lp, timeout_s=ctx.solver_timeout) for e, lp in lps.items()}

    def value(e: Fraction, x) -> Fraction:
        return sum((F(cf) * x[i] for i, cf in lps[e].objective), F(0))

    for e in (F(0), F(1, 8)):
        if value(e, target) != certs[e].objective:
            return False, f"not optimal at eps={e} ({value(e, target)} vs {certs[e].objective})"
    c1: dict[int, Fraction] = {}
    for i, cf in lps[F(1, 8)].objective:
        c1[i] = F(cf) * 8
    for i, cf in lps[F(0)].objective:
        c1[i] = c1.get(i, F(0)) - F(cf) * 8
    c1 = {i: v for i, v in c1.items() if v}
    lp0 = lps[F(0)]
    face = Constraint(tuple((i, F(cf)) for i, cf in lp0.objective), "<=", certs[F(0)].objective, "optimal at eps=0")
    lex = solve(
        LinearProgram(lp0.names, tuple(sorted(c1.items())), (*lp0.rows, face), "lexicographic at eps=0"),
        timeout_s=ctx.solver_timeout,
    )
    if lex.objective != sum((v * target[i] for i, v in c1.items()), F(0)) or not lex.unique:
        return False, f"not the unique lexicographic optimum at eps=0 (unique={lex.unique})"
    y = certs[F(1, 4)].x
    slope = sum((v * (target[i] - y[i]) for i, v in c1.items()), F(0))
    if value(F(1, 8), y) != value(F(1, 8), target) or not slope > 0:
        return False, "the eps = 1/4 optimum does not overtake target exactly at 1/8"
    lo = "0 <= eps" if certs[F(0)].unique else "0 < eps"
    return True, (
        f"unique optimum exactly for {lo} < 1/8; at eps = 1/8 tied with another mechanism (value "
        f"{certs[F(1, 8)].objective}), strictly worse for eps > 1/8"
    )


def certified_optima(rec: Findings, ctx: Context, eps: Fraction) -> tuple[list, dict]:
    """Both users' certified optima at ``eps``: one bounded instance each (every 1/2-DP direct mechanism on D^3;
    the optimum must be unique and put no mass on outputs 0, 3), then the exact eps range and delta = 1/2, 1/10.

    Returns the shown rows (outputs 1, 2) per user and the full optimal mechanism per user."""
    computed, full = [], {}
    for user in (1, 2):
        cert = optimum(eps, user, ctx)
        rows = shown_rows(cert)
        full[user] = mechanism_rows(SPACE3, cert.lp.names, cert.x)
        rec.value(
            **{
                f"user {user} optimum at eps={eps} (rows {{1}},{{2}},{{1,3}},{{2,3}}, outputs 0..3)": linalg.fmt_matrix(
                    rows
                )
            }
        )
        with rec.deciding(
            n=3,
            alpha=HALF,
            kind=BOUNDED,
            method="certified LP optimum, exact uniqueness",
            covers="every 1/2-DP direct mechanism on D^3 under the user's prior over databases (8)",
            user=user,
            eps=eps,
            delta=0,
        ) as d:
            if not cert.unique:
                d.counterexample(f"user {user}: the optimum at eps={eps} is not unique: {linalg.fmt_matrix(rows)} ties")
            elif any(r[0] or r[3] for r in rows):
                d.counterexample(
                    f"user {user}: the optimum at eps={eps} puts mass on outputs 0 or 3: {linalg.fmt_matrix(rows)}"
                )
        computed.append([[r[1], r[2]] for r in rows])
        if not cert.unique:
            continue
        ok, text = eps_range(user, ctx, list(cert.x))
        rec.decide(
            ok,
            f"user {user}: {text}",
            n=3,
            alpha=HALF,
            kind=BOUNDED,
            method="exact parametric LP (concavity + lexicographic LP)",
            covers="every eps in (0, 1/8): the same unique optimum",
            user=user,
        )
        rec.value(**{f"user {user} eps range": text})
        for delta in (F(1, 2), F(1, 10)):
            cd = optimum(eps, user, ctx, delta)
            same = shown_rows(cd) == rows and cd.unique
            rec.decide(
                same,
                f"user {user}, delta={delta}: certified optimum {linalg.fmt_matrix(shown_rows(cd))} "
                f"(unique={cd.unique}) differs from the delta = 0 one",
                n=3,
                alpha=HALF,
                kind=BOUNDED,
                method="certified LP optimum (irrational loss), exact uniqueness",
                covers="every 1/2-DP direct mechanism on D^3 under the user's prior over databases (8)",
                user=user,
                eps=eps,
                delta=delta,
            )
    return computed, full


def _substitutes(premises: Sequence[z3.BoolRef], point: Mapping[z3.ArithRef, Fraction]) -> bool:
    """Do all premises hold exactly at ``point`` (every free variable assigned)?"""
    pairs = [(v, z3.RealVal(str(F(q)))) for v, q in point.items()]
    return all(z3.is_true(z3.simplify(z3.substitute(p, *pairs))) for p in premises)


def witnessed(premises: Sequence[z3.BoolRef], point: Mapping[z3.ArithRef, Fraction], ctx: Context, what: str) -> str:
    """udpm.smt.premise_witness (VacuousPremise if the premises have no model), reported by a canonical point
    re-checked exactly, so the record does not depend on z3's choice of model."""
    model = premise_witness(premises, ctx.solver_timeout, what)
    if _substitutes(premises, point):
        return "satisfiable; canonical witness re-checked exactly"
    return "satisfiable; z3 model " + ", ".join(f"{k}={v}" for k, v in sorted(model.items()))


def impossibility_premises(alpha: Fraction) -> tuple[dict, list]:
    """X on D^3 with range {11, 12, 21, 22} (WLOG, grs2009 Lemma 6.4; randomized remaps reduce to this by
    sampling both remaps jointly), stochastic and alpha-DP."""
    x = {(d, o): z3.Real(f"x_{''.join(map(str, d))}_{o}") for d in SPACE3.databases for o in OUTS}
    cs = []
    for d in SPACE3.databases:
        cs += [x[d, o] >= 0 for o in OUTS]
        cs.append(z3.Sum([x[d, o] for o in OUTS]) == 1)
    for d1, d2 in SPACE3.neighbours:
        for o in OUTS:
            cs += [x[d1, o] >= alpha * x[d2, o], x[d2, o] >= alpha * x[d1, o]]
    return x, cs


def marginals(x, rows, which: int) -> list[z3.BoolRef]:
    """Remap ``which`` (1: first index, 2: second) of X gives output 1 with probability rows[k][0] at SHOWN[k]."""
    ones = ("11", "12") if which == 1 else ("11", "21")
    return [x[d, ones[0]] + x[d, ones[1]] == F(r[0]) for d, r in zip(SHOWN, rows)]


def diagonal_point(x, mech: Mapping[Database, Sequence[Fraction]]) -> dict:
    """X = the user's own optimum put on the diagonal outputs: x_11 = P(output <= 1), x_22 = the rest (a remap of
    an alpha-DP mechanism, so alpha-DP)."""
    point = {}
    for d in SPACE3.databases:
        p = mech[d][0] + mech[d][1]
        point |= {x[d, "11"]: p, x[d, "12"]: F(0), x[d, "21"]: F(0), x[d, "22"]: 1 - p}
    return point


def decide_impossibility(rec: Findings, ctx: Context, alpha: Fraction, rows_a, rows_b, full) -> None:
    """Bounded: no alpha-DP X on D^3 (4-output range, Lemma 6.4) has Figure (a) as one remap and (b) as the other.
    The premises with each figure alone are first shown satisfiable (the user's own optimum on the diagonal)."""
    x, cs = impossibility_premises(alpha)
    for user, rows, which in ((1, rows_a, 1), (2, rows_b, 2)):
        text = witnessed([*cs, *marginals(x, rows, which)], diagonal_point(x, full[user]), ctx, f"user {user} alone")
        rec.value(**{f"premises: alpha-DP X with remap {which} = user {user}'s optimum": text})
    with rec.deciding(
        n=3,
        alpha=alpha,
        kind=BOUNDED,
        method="smt-unsat",
        covers="every alpha-DP mechanism on D^3 with a 4-output range and the two remaps (WLOG, grs2009 Lemma 6.4)",
    ) as d:
        out = decide([*cs, *marginals(x, rows_a, 1), *marginals(x, rows_b, 2)], ctx.solver_timeout)
        if not out.unsat:
            d.counterexample(f"z3 found an {alpha}-DP mechanism remapping to both optima: {model_rows(out.model, x)}")
    rec.value(
        **{
            "no mechanism remaps to both (z3)": {"holds": "unsat", "counterexample": "sat"}.get(
                str(rec.decisions[-1].outcome), "unknown"
            )
        }
    )


def model_rows(model, x) -> str:
    """The z3 model's rows at the four shown databases, outputs (11, 12, 21, 22), as exact strings."""
    return "; ".join(f"{d}: (" + ", ".join(model_value(model, x[d, o]) for o in OUTS) + ")" for d in SHOWN)


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


EPS = sp.Symbol("epsilon")


def _prior_entry(text: str) -> sp.Expr | None:
    """A printed prior entry ('\\frac{1}{2} - \\epsilon', '1/4') as a sympy expression in EPS, else None."""
    t = re.sub(r"\\frac\{(\d+)\}\{(\d+)\}", r"(\1/\2)", text).replace("\\epsilon", " eps ")
    try:
        return sp.sympify(t, locals={"eps": EPS})
    except (sp.SympifyError, SyntaxError, TypeError):
        return None


def compare_priors(rec: Findings, item: PrintedItem) -> None:
    """The printed first user's prior on {1}, {2}, {1,3}, {2,3} (grs2011 Appendix C, grs2009 proof of Theorem
    6.3) against :func:`user_prior` (symbolic in eps), the prior the check optimises under; an entry matches
    when it is the same expression in eps."""
    prior = user_prior(EPS, 1)
    computed: list[str] = []
    for text, d in zip(item.values, SHOWN):
        want, got = sp.sympify(prior[d]), _prior_entry(text)
        computed.append(text if got is not None and sp.simplify(got - want) == 0 else str(want))
    compare_printed(rec, item, computed, n=3, alpha=HALF, method="the prior the check optimises under")


def _lp_certificate(rec: Findings, ctx: Context, eps: Fraction, deltas=(0,)) -> None:
    lps = [
        (f"user {u} at eps={eps}" + (f", delta={dl}" if dl else ""), optimum(eps, u, ctx, dl))
        for dl in deltas
        for u in (1, 2)
    ]
    rec.certificate = certificate_of({"eps": str(eps)}, lps)


def _printed(paper: str, key: str, items: Mapping[str, PrintedItem] | None) -> PrintedItem:
    """The printed item ``key``, or its replacement in ``items`` (a false variant)."""
    return (items or {}).get(key) or printed(paper, key)


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
    compare_priors(rec, _printed("grs2011", "appC.priors", items))
    computed, full = certified_optima(rec, ctx, eps)
    fa, fb = _printed("grs2011", "fig6a", items), _printed("grs2011", "fig6b", items)
    compare_printed(rec, fa, computed[0], n=3, alpha=HALF, method="certified LP optimum")
    compare_printed(rec, fb, computed[1], n=3, alpha=HALF, method="certified LP optimum")
    if len(full) == 2:
        decide_impossibility(rec, ctx, alpha_smt, computed[0], computed[1], full)
        forced_values(rec, ctx, alpha_smt, computed[0], computed[1])
        compare_chain_relations(rec, ctx, _printed("grs2011", "appC.equations", items), alpha_smt, *computed)
    solved = solved_entries(computed[0], computed[1])
    compare_printed(rec, _printed("grs2011", "appC.solved", items), solved, n=3, alpha=HALF)
    _lp_certificate(rec, ctx, eps, (0, F(1, 2)))
    rec.note(
        "optima certified exactly (udpm.certify, uniqueness over all 8 databases); the eps range is exact; "
        "any delta in [0, 1) by the remap argument (module docstring), delta = 1/2, 1/10 certified; z3 proves that "
        "no 1/2-DP mechanism on D^3 can be remapped to both optima (premises with each optimum alone satisfiable)"
    )
    return rec


# ---------------------------------------------------------------- grs2009 Theorem 6.3, Lemma 6.4, Figures 4-5

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
    compare_priors(rec, _printed("grs2009", "thm6.3.priors", items))
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
    fig4 = _printed("grs2009", "fig4", items)
    fig4_is_x1 = compare_printed(rec, fig4, grid, n=3, alpha=HALF, method="certified LP optimum")
    if len(full) == 2:
        decide_impossibility(rec, ctx, alpha_smt, a_rows, computed[1], full)
    # Figure 5: the parametrised x of Lemma 6.4, compared as exact expressions
    fig5 = _printed("grs2009", "fig5", items)
    rows5 = figure5_rows(a_rows, computed[1])
    grid5: list[list[object]] = [["", "", "", ""] for _ in FIG4_ORDER]
    for d, r in zip(SHOWN, rows5):
        k = shown_idx[d]
        grid5[k] = [fig5.values[k][c] if _equal(parse_latex(fig5.values[k][c]), r[c]) else str(r[c]) for c in range(4)]
    fig5_is_x = compare_printed(rec, fig5, grid5, n=3, alpha=HALF, method="Lemma 6.4 solved exactly in delta_k")
    # the proof's inequalities (DP between {1} and {2}, two rows apart: factor 1/alpha^2 = 4) and its values
    x1, x2 = rows5[0], rows5[1]
    ineqs = [4 * x2[2] - x1[2], 4 * x1[3] - x2[3], (4 * x2[2] - x1[2]) + (4 * x1[3] - x2[3])]
    item_i = _printed("grs2009", "thm6.3.inequalities", items)
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
    compare_printed(rec, _printed("grs2009", "thm6.3.solved", items), solved, n=3, alpha=HALF)
    refs = [
        fig4.where if fig4_is_x1 else "no printed figure equals x_1",
        fig5.where if fig5_is_x else "no printed figure has the form of Lemma 6.4",
        f"{latex_set(SHOWN[2])} and {latex_set(SHOWN[3])}",  # the rows of Figure 5 carrying delta_3, delta_4
    ]
    compare_printed(
        rec,
        _printed("grs2009", "thm6.3.references", items),
        refs,
        n=3,
        alpha=HALF,
        method="the figure whose printed values equal the object, the databases carrying delta_3, delta_4",
    )
    _lp_certificate(rec, ctx, eps)
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
