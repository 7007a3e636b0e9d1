"""Priors over databases (grs2011 Appendix C, grs2009 Theorem 6.3): the two users, their optima, no common mechanism.

D = {0,1}, n = 3, alpha = 1/2, loss |i-j|^(1-delta), objective (8): the two users' priors over D^3
(:func:`user_prior`), their certified unique optimal direct mechanisms with the exact range of eps
(:func:`certified_optima`), and the z3 proof, from satisfiable premises, that no single alpha-DP mechanism can be
remapped to both (:func:`decide_impossibility`).  The claims built on them are grs2011 Appendix C
(proofs/databases/appendix_c.py) and grs2009 Theorem 6.3 (proofs/databases/theorem6_3.py).  The averaging
claims (grs2011 Proposition 6.1, grs2009 Proposition 6.2) are in proofs.databases.worst_extension.

The loss |i-j|^(1-delta) only matters through l = 0, 1, 2^(1-delta), 3^(1-delta).  For every delta in [0, 1)
the remap 0 -> 1, 3 -> 2 strictly lowers the loss of any mass on outputs 0 or 3 at a database of count 1 or
2 (1 > 0, 2^(1-delta) > 1), so optimal mechanisms put no mass there and on outputs {1, 2} the loss is
0/1 whatever delta is: the optima are those for delta = 0 (loss |i-j|, rational).  The run also certifies
delta = 1/2 and 1/10 directly (irrational objective, exact sign decisions in udpm.lp.certify).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction

import sympy as sp
import z3

from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings
from udpm.claims.tables import PrintedItem, compare_printed, printed
from udpm.core import linalg
from udpm.core.users import absolute_error, power_loss
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.database import Database, DatabaseSpace, expected_loss_lp, mechanism_rows
from udpm.smt.solvers import decide, model_value, premise_witness

F = Fraction
HALF = F(1, 2)
SMALL_EPS = F(1, 100)


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
    from udpm.lp.programs import Constraint, LinearProgram

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
    """udpm.smt.solvers.premise_witness (VacuousPremise if the premises have no model), reported by a canonical point
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


def lp_certificate(rec: Findings, ctx: Context, eps: Fraction, deltas=(0,)) -> None:
    lps = [
        (f"user {u} at eps={eps}" + (f", delta={dl}" if dl else ""), optimum(eps, u, ctx, dl))
        for dl in deltas
        for u in (1, 2)
    ]
    rec.certificate = certificate_of({"eps": str(eps)}, lps)


def printed_item(paper: str, key: str, items: Mapping[str, PrintedItem] | None) -> PrintedItem:
    """The printed item ``key``, or its replacement in ``items`` (a false variant)."""
    return (items or {}).get(key) or printed(paper, key)
