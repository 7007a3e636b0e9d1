"""Non-oblivious mechanisms over explicit databases D^n (grs2011 Section 6 and Appendix C, grs2009 Section 6).

- Propositions grs2011 6.1 / grs2009 6.2: under the worst-extension objective (9) averaging over databases
  with the same count gives an oblivious alpha-DP mechanism that is no worse; the database-level LP optimum
  equals the oblivious one.
- grs2011 Appendix C / grs2009 Theorem 6.3: with priors over databases (objective (8)) there are two users
  (D = {0,1}, n = 3, alpha = 1/2) with unique optimal direct mechanisms that no single 1/2-DP mechanism can be
  remapped to; z3 proves the impossibility, the certifier the optima.

The loss |i-j|^(1-delta) only matters through l = 0, 1, 2^(1-delta), 3^(1-delta).  For every delta in [0, 1)
the remap 0 -> 1, 3 -> 2 strictly lowers the loss of any mass on outputs 0 or 3 at a database of count 1 or
2 (1 > 0, 2^(1-delta) > 1), so optimal mechanisms put no mass there and on outputs {1, 2} the loss is
0/1 whatever delta is: the optima are those for delta = 0 (loss |i-j|, rational).  The run also certifies
delta = 1/2 and 1/10 directly (irrational objective, exact sign decisions in udpm.certify).
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

import sympy as sp
import z3

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import Context, Evidence, Result, Scope, Status, checks, exact_values, refuted, refuted_at, verified
from udpm.privacy import dp_violations
from udpm.programs import bayesian_lp
from udpm.programs_database import (
    Database,
    DatabaseSpace,
    average_by_count,
    expected_loss_lp,
    mechanism_rows,
    random_dp_database_mechanism,
    worst_extension_lp,
)
from udpm.smt import decide, model_value
from udpm.tables import printed, table_result
from udpm.users import BayesianUser, Loss, absolute_error, binary_loss, power_loss, squared_error

F = Fraction
HALF = F(1, 2)
SMALL_EPS = F(1, 100)
ALPHAS = (F(1, 4), F(1, 2), F(2, 3))
SPACES = ((2, 2, (1,)), (2, 3, (1,)), (3, 2, (1,)), (3, 2, (1, 2)))


# ---------------------------------------------------------------- Propositions 6.1 / 6.2


def random_loss(rng: random.Random, n: int) -> Loss:
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice((absolute_error, squared_error, binary_loss))(n)
    if kind == 1:  # legal: depends on i and |j-i|, nondecreasing, ties allowed
        steps = [[F(rng.choice((0, 1, 2, 3)), rng.choice((1, 2))) for _ in range(n + 1)] for _ in range(n + 1)]
        return Loss.from_function(n, lambda i, j: sum(steps[i][: abs(i - j)], F(0)))
    return Loss.from_function(n, lambda i, j: F(rng.randint(0, 4)) if i != j else F(0))  # arbitrary


def random_prior(rng: random.Random, n: int) -> list[Fraction]:
    raw = [F(rng.choice((0, 0, 1, 2, 3))) for _ in range(n + 1)]
    if not any(raw):
        raw[rng.randrange(n + 1)] = F(1)
    return [v / sum(raw) for v in raw]


def worst_extension_value(space: DatabaseSpace, x, prior, loss: Loss) -> Fraction:
    """(9): sum_i p_i max_{f(d)=i} sum_j x_dj l(i, j) (the worst prior over databases puts p_i on one database)."""
    total = F(0)
    for i, p in enumerate(prior):
        if p:
            total += p * max(sum((x[d][j] * loss(i, j) for j in range(space.n + 1)), F(0)) for d in space.with_count(i))
    return total


def averaging_check(ctx: Context, claim: str, alpha_claimed: Fraction | None) -> Result:
    rng = ctx.rng(claim)
    spaces = SPACES if ctx.quick else (*SPACES, (2, 4, (1,)), (3, 3, (1,)), (4, 2, (1, 3)))
    trials = lps = 0
    certs: list = []
    for dom, n, pred in spaces:
        space = DatabaseSpace.of(dom, n, pred)
        for _ in range(3 if ctx.quick else 10):
            a = rng.choice(ALPHAS)
            ac = a if alpha_claimed is None else alpha_claimed
            loss, prior = random_loss(rng, n), random_prior(rng, n)
            where = (
                f"|D|={dom}, predicate {list(pred)}, n={n}, alpha={a}, prior={[str(p) for p in prior]}, "
                f"l={[[str(v) for v in r] for r in loss.values]}"
            )
            db = solve(worst_extension_lp(space, prior, loss, a), timeout_s=ctx.solver_timeout)
            obl = solve(bayesian_lp(BayesianUser.of(prior, loss), ac), timeout_s=ctx.solver_timeout)
            lps += 2
            if not certs:
                certs = [("database-level (9)", db), ("oblivious (3)-(7)", obl)]
            if db.objective != obl.objective:
                return refuted_at(
                    f"{where}: database-level optimum of (9) {db.objective} != oblivious optimum "
                    f"{obl.objective} at alpha={ac}",
                    n,
                    a,
                    database_optimum=db.objective,
                    oblivious_optimum=obl.objective,
                )
            for x in (mechanism_rows(space, db.lp.names, db.x), random_dp_database_mechanism(rng, space, a)):
                trials += 1
                xa = average_by_count(space, x)
                bad = dp_violations(xa, ac)
                if bad:
                    return refuted_at(
                        f"{where}: the averaged mechanism {linalg.fmt_matrix(xa)} is not {ac}-DP: {bad[0]}", n, a
                    )
                before = worst_extension_value(space, x, prior, loss)
                after = BayesianUser.of(prior, loss).expected_loss(xa)
                if after > before:
                    return refuted_at(f"{where}: averaging raised (9) from {before} to {after}", n, a)
    return verified(
        Scope.of(max(s[1] for s in spaces), ALPHAS, trials),
        exact_values(mechanisms_averaged=trials, certified_lps=lps, database_spaces=len(spaces)),
        certificate=certificate_of({"certified LPs": lps}, certs),
        notes="D^n with |D| in {2, 3, 4}, predicates with 1 or 2 values, Hamming neighbours; legal and arbitrary "
        "losses, priors with zeros; the database-level LP optimum of (9) equals the oblivious LP optimum (both "
        "certified); averaging the LP optimum and random alpha-DP database mechanisms keeps alpha-DP and never "
        "increases (9)",
    )


@checks("grs2011.prop6.1")
def prop_6_1(ctx: Context, alpha_claimed: Fraction | None = None) -> Result:
    """grs2011 Proposition 6.1: averaging an alpha-DP mechanism over the databases with the same count gives an
    oblivious alpha-DP mechanism with no larger worst-extension loss (9); an oblivious mechanism is optimal."""
    return averaging_check(ctx, "grs2011.prop6.1", alpha_claimed)


@checks("grs2009.prop6.2")
def prop_6_2(ctx: Context, alpha_claimed: Fraction | None = None) -> Result:
    """grs2009 Proposition 6.2: some alpha-DP mechanism minimising (9) is oblivious (the averaging argument)."""
    return averaging_check(ctx, "grs2009.prop6.2", alpha_claimed)


# ---------------------------------------------------------------- Appendix C / Theorem 6.3

SPACE3 = DatabaseSpace.of(2, 3)


def db(*ones: int) -> Database:
    """The database whose rows (numbered 1..3) in ``ones`` are 1."""
    return tuple(int(r in ones) for r in (1, 2, 3))


SHOWN = (db(1), db(2), db(1, 3), db(2, 3))


def user_prior(eps: Fraction, user: int) -> dict[Database, Fraction]:
    """User 1: {1}: 1/4, {2}: 1/4, {1,3}: eps, {2,3}: 1/2 - eps.  User 2 exchanges {1,3} and {2,3}."""
    a, b = (eps, HALF - eps) if user == 1 else (HALF - eps, eps)
    return {db(1): F(1, 4), db(2): F(1, 4), db(1, 3): a, db(2, 3): b}


def optimum(eps: Fraction, user: int, ctx: Context, delta: object = 0, alpha: Fraction = HALF):
    loss = absolute_error(3) if delta == 0 else power_loss(3, 1 - sp.nsimplify(delta))
    return solve(expected_loss_lp(SPACE3, user_prior(eps, user), loss, alpha), timeout_s=ctx.solver_timeout)


def shown_rows(cert) -> list[list[Fraction]]:
    x = mechanism_rows(SPACE3, cert.lp.names, cert.x)
    return [x[d] for d in SHOWN]


def figure_rows(values) -> list[list[Fraction]]:
    """Printed 2-output rows (outputs 1, 2) as full rows over outputs 0..3."""
    return [[F(0), F(r[0]), F(r[1]), F(0)] for r in values]


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


def figure_check(ctx: Context, eps: Fraction) -> tuple[list, dict, list]:
    """Certified optima of both users at ``eps``, compared with the printed figures; returns (computed, values,
    failures)."""
    values: dict[str, str] = {}
    failures = []
    computed = []
    for user in (1, 2):
        cert = optimum(eps, user, ctx)
        rows = shown_rows(cert)
        values[f"user {user} optimum at eps={eps} (rows {{1}},{{2}},{{1,3}},{{2,3}}, outputs 0..3)"] = (
            linalg.fmt_matrix(rows)
        )
        values[f"user {user} unique (all 8 databases)"] = str(cert.unique)
        if not cert.unique:
            failures.append(f"user {user}: the optimum at eps={eps} is not unique")
        if any(r[0] or r[3] for r in rows):
            failures.append(f"user {user}: mass on outputs 0 or 3")
        computed.append([[r[1], r[2]] for r in rows])
    return computed, values, failures


def impossibility(alpha: Fraction, rows_a, rows_b, ctx: Context):
    """z3: no alpha-DP X on D^3 with range {11, 12, 21, 22} (WLOG, grs2009 Lemma 6.4; randomized remaps reduce
    to this by sampling both remaps jointly) whose first-index marginal is Figure (a) and second-index marginal
    Figure (b) on the four shown databases."""
    x = {(d, o): z3.Real(f"x_{''.join(map(str, d))}_{o}") for d in SPACE3.databases for o in ("11", "12", "21", "22")}
    cs = []
    for d in SPACE3.databases:
        cs += [x[d, o] >= 0 for o in ("11", "12", "21", "22")]
        cs.append(z3.Sum([x[d, o] for o in ("11", "12", "21", "22")]) == 1)
    for d1, d2 in SPACE3.neighbours:
        for o in ("11", "12", "21", "22"):
            cs += [x[d1, o] >= alpha * x[d2, o], x[d2, o] >= alpha * x[d1, o]]
    for d, ra, rb in zip(SHOWN, rows_a, rows_b):
        cs.append(x[d, "11"] + x[d, "12"] == ra[0])
        cs.append(x[d, "11"] + x[d, "21"] == rb[0])
    return decide(cs, ctx.solver_timeout), x, cs


def model_rows(model, x) -> str:
    """The z3 model's rows at the four shown databases, outputs (11, 12, 21, 22), as exact strings."""
    return "; ".join(
        f"{d}: (" + ", ".join(model_value(model, x[d, o]) for o in ("11", "12", "21", "22")) + ")" for d in SHOWN
    )


def forced_values(alpha: Fraction, rows_a, rows_b, ctx: Context) -> dict[str, str]:
    """The proof's chain as z3 entailments over the four shown databases, each from satisfiable premises:
    the two-row DP bound (factor 1/alpha^2) between {1} and {2} on outputs 12, 21 forces x_22 = 0 at {1} and
    {2}; DP between {1} and {1,3} on output 22 forces it at {1,3}; then x_{{1},11} = 7/12 and x_{{1,3},11} = 1/6,
    whose ratio exceeds 1/alpha."""
    outs = ("11", "12", "21", "22")
    x = {(d, o): z3.Real(f"y_{''.join(map(str, d))}_{o}") for d in SHOWN for o in outs}
    base = []
    for d, ra, rb in zip(SHOWN, rows_a, rows_b):
        base += [x[d, o] >= 0 for o in outs] + [z3.Sum([x[d, o] for o in outs]) == 1]
        base += [x[d, "11"] + x[d, "12"] == F(ra[0]), x[d, "11"] + x[d, "21"] == F(rb[0])]
    a2 = alpha * alpha
    two_rows = [x[db(1), o] >= a2 * x[db(2), o] for o in ("12", "21")] + [
        x[db(2), o] >= a2 * x[db(1), o] for o in ("12", "21")
    ]
    step = [x[db(1, 3), "22"] >= alpha * x[db(1), "22"], x[db(1), "22"] >= alpha * x[db(1, 3), "22"]]
    premises = base + two_rows + step
    out = {"premises satisfiable": str(not decide(premises, ctx.solver_timeout).unsat)}
    for d in (db(1), db(2), db(1, 3)):
        out[f"x_22 = 0 forced at {d}"] = str(decide([*premises, x[d, "22"] > 0], ctx.solver_timeout).unsat)
    for d, v in zip((db(1), db(1, 3)), solved_entries(rows_a, rows_b)):
        out[f"x_11 = {v} forced at {d}"] = str(decide([*premises, x[d, "11"] != v], ctx.solver_timeout).unsat)
    return out


def solved_entries(rows_a, rows_b) -> list[Fraction]:
    """With x_22 = 0 a row's x_11 = P(first = 1) + P(second = 1) - 1: at {1} and {1,3}."""
    return [F(rows_a[0][0]) + F(rows_b[0][0]) - 1, F(rows_a[2][0]) + F(rows_b[2][0]) - 1]


@checks("grs2011.appC")
def appendix_c(ctx: Context, eps: Fraction = SMALL_EPS, alpha_smt: Fraction = HALF) -> Result:
    """grs2011 Appendix C, Figure 6: D = {0,1}, n = 3, alpha = 1/2, loss |i-j|^(1-delta), the two priors over
    databases: Figure 6(a), (b) are the unique optimal direct mechanisms (eps, delta small), and no 1/2-DP
    mechanism can be remapped to both."""
    scope = Scope.of(3, [HALF])
    computed, values, failures = figure_check(ctx, eps)
    fa, fb = printed("grs2011", "fig6a"), printed("grs2011", "fig6b")
    if failures or computed != [[[F(v) for v in r] for r in t.values] for t in (fa, fb)]:
        return refuted(
            f"eps={eps}: "
            + (
                "; ".join(failures)
                or "the certified optima differ from Figure 6: " + " / ".join(linalg.fmt_matrix(c) for c in computed)
            ),
            Evidence.BOUNDED,
            scope,
        )
    for user, fig in ((1, fa), (2, fb)):
        ok, text = eps_range(user, ctx, _full_vector(user, ctx))
        values[f"user {user} eps range"] = text
        if not ok:
            return refuted(f"user {user}: {text}", Evidence.BOUNDED, scope)
        for delta in (F(1, 2), F(1, 10)):
            cert = optimum(eps, user, ctx, delta)
            if shown_rows(cert) != figure_rows(fig.values) or not cert.unique:
                return refuted(f"user {user}, delta={delta}: certified optimum differs", Evidence.BOUNDED, scope)
        values[f"user {user} delta"] = (
            "same unique optimum certified at delta = 1/2, 1/10 (irrational loss); "
            "any delta in [0, 1) by the remap argument (module docstring)"
        )
    out, xv, _ = impossibility(alpha_smt, fa.values, fb.values, ctx)
    if not out.unsat:
        return refuted_at(
            f"alpha={alpha_smt}: z3 found a DP mechanism that remaps to both Figure 6(a) and 6(b): "
            f"{model_rows(out.model, xv)}",
            3,
            alpha_smt,
        )
    values["no mechanism remaps to both (z3)"] = "unsat"
    values.update(forced_values(alpha_smt, fa.values, fb.values, ctx))
    res = table_result(fa, computed[0], values, scope)
    for item, comp in ((fb, computed[1]), (printed("grs2011", "appC.solved"), solved_entries(fa.values, fb.values))):
        extra = table_result(item, comp, {}, scope)
        if extra.status is Status.ERRATUM:
            res.status = Status.ERRATUM
            res.errata += extra.errata
    lps = [(f"user {u} at eps={eps}", optimum(eps, u, ctx)) for u in (1, 2)]
    lps += [(f"user {u} at eps={eps}, delta=1/2", optimum(eps, u, ctx, F(1, 2))) for u in (1, 2)]
    res.certificate = certificate_of({"eps": str(eps)}, lps)
    res.notes = (
        "optima certified exactly (udpm.certify, uniqueness over all 8 databases); the eps range is exact; "
        "z3 proves that no 1/2-DP mechanism on D^3 can be remapped to both figures"
    )
    return res


def _full_vector(user: int, ctx: Context) -> list[Fraction]:
    """The full certified vertex at a small eps (the zero-prior rows included), used as the eps-range target."""
    cert = optimum(F(1, 100), user, ctx)
    return list(cert.x)


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


@checks("grs2009.thm6.3")
def theorem_6_3(ctx: Context, eps: Fraction = SMALL_EPS, alpha_smt: Fraction = HALF) -> Result:
    """grs2009 Theorem 6.3, Lemma 6.4, Figures 4-5: two users with priors over D^3 (D = {0,1}, alpha = 1/2,
    loss |i-r|^(1-delta)) whose unique optimal mechanisms (Figure 4 and its mirror) no single 1/2-DP mechanism
    implements; Figure 5's parametrisation and the proof's inequalities and values are regenerated."""
    scope = Scope.of(3, [HALF])
    computed, values, failures = figure_check(ctx, eps)
    fig4 = printed("grs2009", "fig4")
    order = [(), (1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 2, 3)]
    shown_idx = {db(*o): k for k, o in enumerate(order)}
    a_rows = [[F(v) for v in fig4.values[shown_idx[d]]] for d in SHOWN]
    b_rows = [a_rows[1], a_rows[0], a_rows[3], a_rows[2]]  # x_2 exchanges rows 1 and 2
    if failures or computed[0] != a_rows or computed[1] != b_rows:
        return refuted(
            f"eps={eps}: " + ("; ".join(failures) or "certified optima differ from Figure 4 / its mirror"),
            Evidence.BOUNDED,
            scope,
        )
    for user in (1, 2):
        ok, text = eps_range(user, ctx, _full_vector(user, ctx))
        values[f"user {user} eps range"] = text
        if not ok:
            return refuted(f"user {user}: {text}", Evidence.BOUNDED, scope)
    out, xv, _ = impossibility(alpha_smt, a_rows, b_rows, ctx)
    if not out.unsat:
        return refuted_at(
            f"alpha={alpha_smt}: z3 found a DP mechanism implementing both x_1 and x_2: {model_rows(out.model, xv)}",
            3,
            alpha_smt,
        )
    values["no mechanism implements both (z3)"] = "unsat"
    grid = [["", ""] for _ in order]
    for d, r in zip(SHOWN, computed[0]):
        grid[shown_idx[d]] = r
    res = table_result(fig4, grid, values, scope)
    # Figure 5: the parametrised x of Lemma 6.4, compared as exact expressions
    fig5 = printed("grs2009", "fig5")
    rows5 = figure5_rows(a_rows, b_rows)
    grid5 = [["", "", "", ""] for _ in order]
    for d, r in zip(SHOWN, rows5):
        k = shown_idx[d]
        grid5[k] = [fig5.values[k][c] if _equal(parse_latex(fig5.values[k][c]), r[c]) else str(r[c]) for c in range(4)]
    # the proof's inequalities (DP between {1} and {2}, two rows apart: factor 1/alpha^2 = 4) and its values
    x1, x2 = rows5[0], rows5[1]
    ineqs = [4 * x2[2] - x1[2], 4 * x1[3] - x2[3], (4 * x2[2] - x1[2]) + (4 * x1[3] - x2[3])]
    item_i = printed("grs2009", "thm6.3.inequalities")
    got_i = [s if _same_inequality(parse_latex(s), q) else f"0 <= {q}" for s, q in zip(item_i.values, ineqs)]
    nonneg = [_z3(v) >= 0 for v in (*x1, *x2)]
    forced = decide([*nonneg, *(_z3(e) >= 0 for e in ineqs[:2]), z3.Or(_z3(D1) != 1, _z3(D2) != 1)], ctx.solver_timeout)
    values["delta_1 = delta_2 = 1 forced (z3)"] = str(forced.unsat)
    solved = [rows5[0][0].subs(D1, 1), rows5[2][0].subs(D3, 1)]
    for item, comp in ((fig5, grid5), (item_i, got_i), (printed("grs2009", "thm6.3.solved"), solved)):
        extra = table_result(
            item, [[_exact(v) for v in r] for r in comp] if item is fig5 else [_exact(v) for v in comp], {}, scope
        )
        if extra.status is Status.ERRATUM:
            res.status = Status.ERRATUM
            res.errata += extra.errata
    lps = [(f"user {u} at eps={eps}", optimum(eps, u, ctx)) for u in (1, 2)]
    res.certificate = certificate_of({"eps": str(eps)}, lps)
    res.notes = (
        "Figure 4 = certified unique optimum (uniqueness over all 8 databases), eps range exact; Figure 5 "
        "regenerated from Lemma 6.4 (entries compared as exact expressions in delta_k); the inequalities "
        "from the two-row DP bound; z3 proves no 1/2-DP mechanism implements both users' optima"
    )
    return res


def _equal(p: sp.Expr | None, q: sp.Expr) -> bool:
    return p is not None and sp.simplify(p - q) == 0


def _exact(v):
    if isinstance(v, str):
        return v
    if isinstance(v, sp.Basic) and v.is_Rational:
        return F(int(v.p), int(v.q))
    return v


def _z3(e: sp.Expr):
    names = {D1: z3.Real("delta_1"), D2: z3.Real("delta_2"), D3: z3.Real("delta_3"), D4: z3.Real("delta_4")}
    e = sp.expand(e)
    out = z3.RealVal(0)
    for term in sp.Add.make_args(e):
        coeff, rest = term.as_coeff_Mul()
        c = z3.RealVal(str(coeff))
        out = out + (c if rest == 1 else c * names[rest])
    return out
