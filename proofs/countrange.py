"""Count-range impossibility (zlcn2013 Section 3.2-3.3): Lemmas 1-2, Corollary 1 and Theorem 3 (n = 3).

Lemma 1 and Corollary 1 (the tight columns of a DP 2 x m matrix deriving (1/(A+1), A/(A+1))), Lemma 2 (no DP
matrix derives both x-hat and y-hat) and Theorem 3 (no DP joint mechanism has the marginals x-hat, y-hat), each
for every number of output columns by the reduction of proofs/countrange_derivation.py.  The alpha convention
(zlcn2013's alpha > 1 is the label, the internal a = 1/alpha is computed with) is proofs/countrange_alpha.py;
the vectors are proofs/countrange_vectors.py; Lemma 3, Corollary 2 and Theorem 2 are proofs/countrange_lemma3.py.

Symbolic alpha: each z3 problem here is also decided with a a z3 real variable, 0 < a < 1 (nonlinear
real arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange_alpha import SYMBOLIC, ZLCN_ALPHAS, Alpha, a_sym, label
from proofs.countrange_derivation import (
    JOINT,
    alphas_for,
    at_model,
    derivation,
    dp_column,
    pin_alpha,
    premises_hold,
    vector_terms,
    z3_alpha,
)
from proofs.countrange_lemma3 import decide_general
from proofs.countrange_vectors import Vector, printed_internal, printed_vector, xhat, yhat
from udpm.claims import Context, Findings, checks
from udpm.instances import ALL_N, BOUNDED, TABLE
from udpm.smt import decide, model_value
from udpm.tables import printed

F = Fraction


# --- Lemma 1 and Corollary 1 ----------------------------------------------------------------------


def lemma1_target(a: object) -> list:
    """(1/(A+1), A/(A+1)) with A = 1/a: (a/(a+1), 1/(a+1))."""
    return [a / (a + 1), 1 / (a + 1)]


def lemma1_counterexample(
    alpha: Alpha, timeout_s: float, target: Vector = lemma1_target, flip: bool = False
) -> tuple[str | None, str]:
    """(A 2 x m instance where some non-zero column is not tight with the matching t, or None; premise witnesses).

    Reduction: split every column by t (as in proofs/countrange_derivation.py's module docstring, K = 1) into
    a t = 1 part and a t = 0 part with the same ratio p_j/q_j; a non-tight column stays non-tight, and a tight
    column with fractional t leaves a part whose t is the wrong one.  Keep one violating column j0 (t in {0, 1})
    and merge the others by t: three columns suffice for every m.  Tight: p_j/q_j = A = 1/a (q_j = a p_j) or
    p_j/q_j = 1/A = a (p_j = a q_j).
    The premises (a DP 2 x 3 matrix derives the target with t = (tau, 1, 0), column 0 non-zero) are shown
    satisfiable first; their canonical model is the paper's tight matrix."""
    a, side = z3_alpha(alpha)
    tgt = vector_terms(target, alpha, a)
    witnesses = []
    for tau in (0, 1):
        p, q = z3.Reals("p0 p1 p2"), z3.Reals("q0 q1 q2")
        t = [tau, 1, 0]
        premises = [*side, z3.Sum(p) == 1, z3.Sum(q) == 1]
        for j in range(3):
            premises += dp_column([p[j], q[j]], a)
        premises.append(z3.Sum([p[j] for j in range(3) if t[j]]) == tgt[0])
        premises.append(z3.Sum([q[j] for j in range(3) if t[j]]) == tgt[1])
        premises.append(p[0] + q[0] > 0)
        lo, hi = a / (a + 1), 1 / (a + 1)  # the paper's tight columns at the canonical point
        pin_pq = ((lo, 0, hi), (hi, 0, lo)) if tau else ((hi, lo, 0), (lo, hi, 0))
        pins = pin_alpha(alpha, a) + [v == w for v, w in zip([*p, *q], [*pin_pq[0], *pin_pq[1]])]
        w = premises_hold(premises, pins, timeout_s, f"Lemma 1 at {label(alpha)}, t_0 = {tau}")
        witnesses.append(f"t_0={tau}: {w}")
        t_when_p_big, t_when_q_big = (1, 0) if flip else (0, 1)
        good = z3.Or(z3.And(q[0] == a * p[0], tau == t_when_p_big), z3.And(p[0] == a * q[0], tau == t_when_q_big))
        out = decide([*premises, z3.Not(good)], timeout_s)
        if not out.unsat:
            m = out.model
            vals = [(model_value(m, p[j]), model_value(m, q[j]), t[j]) for j in range(3)]
            return (
                f"{at_model(alpha, m, a)}: columns (p_j, q_j, t_j) = {vals}; column 0 is not tight with the stated t "
                f"(B t = {[model_value(m, v) for v in tgt]})"
            ), "; ".join(witnesses)
    return None, "; ".join(witnesses)


@checks("zlcn2013.lemma1")
def lemma1(ctx: Context, target: Vector = lemma1_target, flip: bool = False) -> Findings:
    """zlcn2013 Lemma 1 and Corollary 1: if a DP 2 x m matrix (p; q) derives (1/(A+1), A/(A+1)) (zlcn's A > 1) then
    every non-zero column has p_j/q_j in {A, 1/A}, with t_j = 0 when p_j/q_j = A and t_j = 1 when it is 1/A;
    Corollary 1 applies this to the row pairs (0,1) and (2,3) of x-hat and (1,2) of y-hat."""
    rec = Findings("zlcn2013.lemma1")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=1,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat (3-column reduction)",
            covers="every DP 2 x m matrix (p; q), every m, and t in [0,1]^m deriving Lemma 1's vector",
        ) as d:
            cex, witness = lemma1_counterexample(al, ctx.solver_timeout, target, flip)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(cex)
    # Corollary 1: the three row pairs have exactly Lemma 1's right-hand side (or its complement, t -> 1 - t).
    xh, yh, tgt = xhat(a_sym), yhat(a_sym), lemma1_target(a_sym)
    pairs = {
        "x-hat rows (0,1)": (xh[0], xh[1]),
        "x-hat rows (2,3), with 1 - t": (1 - xh[2], 1 - xh[3]),
        "y-hat rows (1,2)": (yh[1], yh[2]),
    }
    for name, (u, v) in pairs.items():
        ok = sp.simplify(u - tgt[0]) == 0 and sp.simplify(v - tgt[1]) == 0
        rec.decide(
            ok,
            f"Corollary 1: {name} gives ({sp.simplify(u)}, {sp.simplify(v)}) in the internal a, not Lemma 1's vector",
            n=3,
            alpha=SYMBOLIC,
            kind=BOUNDED,
            method="sympy identity in a",
            covers="Corollary 1: a row pair of x-hat or y-hat is Lemma 1's vector",
            pair=name,
        )
    rec.value(zero_columns="p_j = q_j = 0 has no ratio: the lemma holds for every non-zero column")
    rec.note(
        "n=1 stands for Lemma 1's two rows (two neighbouring counts); the number m of columns is arbitrary: the "
        "3-column reduction (lemma1_counterexample's docstring) is a hand argument, not computed, so each alpha is a "
        "bounded instance (not all-n); z3 unsat for each rational zlcn alpha (at a = 1/alpha) and for symbolic "
        "internal a in (0, 1) (nlsat), i.e. every zlcn alpha > 1. Corollary 1 (n = 3) by sympy identities in a"
    )
    return rec


# --- Lemma 2 and Theorem 3 (n = 3, theta = (1, 2)) ------------------------------------------------


def reduction_failures(timeout_s: float, rows: int = 4) -> list[str]:
    """The steps of the split-and-merge reduction (proofs/countrange_derivation.py) for K = 2 targets, decided for
    every column and every alpha > 1 at once; the names of the steps that fail (none: the reduction holds).

    A DP column c (``rows`` entries) with transformation values (t, u) in [0, 1]^2 is split into the four columns
    w_s c, s in {0,1}^2, with w_00 = (1-t)(1-u), w_01 = (1-t)u, w_10 = t(1-u), w_11 = tu; then the columns with the
    same s are merged.  Steps: (split) sum_s w_s = 1, sum_s w_s s_1 = t, sum_s w_s s_2 = u (sympy identities: row
    sums and derived vectors are kept); (weights) w_s >= 0 when t, u in [0, 1]; (scale) w >= 0 times a DP column is
    DP; (merge) the sum of two DP columns is DP (z3 unsat, internal a a variable in (0, 1)).  Merging the columns of
    one s one at a time is an induction on their number with the base one column and the step (merge); fewer than
    four columns are padded with zero columns, which are DP."""
    t, u = sp.symbols("t u")
    w = {(0, 0): (1 - t) * (1 - u), (0, 1): (1 - t) * u, (1, 0): t * (1 - u), (1, 1): t * u}
    fails = []
    for name, lhs, rhs in (
        ("split: sum_s w_s = 1", sum(w.values()), 1),
        ("split: sum_s w_s s_1 = t", sum(v * s[0] for s, v in w.items()), t),
        ("split: sum_s w_s s_2 = u", sum(v * s[1] for s, v in w.items()), u),
    ):
        if sp.expand(lhs - rhs) != 0:
            fails.append(name)
    a, side = z3_alpha(SYMBOLIC)
    tz, uz = z3.Reals("t u")
    box = [tz >= 0, tz <= 1, uz >= 0, uz <= 1]
    for s, v in w.items():
        wz = sp.lambdify((t, u), v)(tz, uz)
        if not decide([*box, wz < 0], timeout_s).unsat:
            fails.append(f"weights: w_{s[0]}{s[1]} >= 0 on [0, 1]^2")
    col, col2 = z3.Reals(" ".join(f"c{i}" for i in range(rows))), z3.Reals(" ".join(f"e{i}" for i in range(rows)))
    lam = z3.Real("w")
    scaled = [lam * v for v in col]
    premises = [*side, lam >= 0, *dp_column(col, a)]
    premises_hold(premises, [a == z3.RealVal("1/2"), lam == 1, *(v == 1 for v in col)], timeout_s, "scale: DP column")
    if not decide([*premises, z3.Not(z3.And(dp_column(scaled, a)))], timeout_s).unsat:
        fails.append("scale: w >= 0 times a DP column is DP")
    premises = [*side, *dp_column(col, a), *dp_column(col2, a)]
    pins = [a == z3.RealVal("1/2"), *(v == 1 for v in [*col, *col2])]
    premises_hold(premises, pins, timeout_s, "merge: two DP columns")
    if not decide([*premises, z3.Not(z3.And(dp_column([p + q for p, q in zip(col, col2)], a)))], timeout_s).unsat:
        fails.append("merge: the sum of two DP columns is DP")
    return fails


@checks("zlcn2013.lemma2")
def lemma2(ctx: Context, x: Vector = xhat, y: Vector = yhat) -> Findings:
    """zlcn2013 Lemma 2: no alpha-DP matrix A (4 x m, any m) derives both x-hat and y-hat (n = 3, theta = (1,2)),
    for every zlcn alpha > 1 (every internal a in (0, 1)).

    The printed scope (Section 3.2.2 characterises A as a 4 x m matrix, outputs 1..m, entries with
    1/alpha <= a_ij/a_(i+1)j <= alpha) is the two fixed vectors at n = 3, every m and every alpha > 1.  Every m:
    the split-and-merge reduction, its steps decided by :func:`reduction_failures`; every alpha > 1: z3 with the
    internal a a variable.  When both hold, the symbolic instance covers the whole statement (all-n kind, as
    zlcn2013.xhat's)."""
    rec = Findings("zlcn2013.lemma2")
    steps_failed = reduction_failures(ctx.solver_timeout)
    rec.value(**{"every-m reduction, steps failing": ", ".join(steps_failed) or "none"})
    for al in alphas_for(ctx):
        whole = al == SYMBOLIC and not steps_failed
        with rec.deciding(
            n=3,
            alpha=label(al),
            # stated at n = 3 only; every m by the reduction's decided steps, every alpha > 1 symbolically
            kind=ALL_N if whole else BOUNDED,
            method="z3 unsat (4-column reduction)" + (", reduction steps decided" if whole else ""),
            covers="every DP 4 x m matrix, every m, with transformations deriving x-hat and y-hat"
            + ("; the claim's whole scope (stated at n = 3 only), every alpha > 1" if whole else ""),
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(cex)
    # The printed vectors are the ones checked.
    for key, fn in (("xhat", x), ("yhat", y)):
        same = all(sp.simplify(u - v) == 0 for u, v in zip(printed_vector(key), fn(a_sym)))
        rec.value(**{f"printed {key} = the vector checked": "yes" if same else "no"})
    # The proof's intermediate value: from (1/A) S1 + A S2 = A/(A+1) and S1 + S2 = A/(A+1), in a = 1/A:
    # a S1 + S2 / a = 1/(a+1) and S1 + S2 = 1/(a+1).
    s1, s2 = sp.symbols("S1 S2")
    sol = sp.solve([a_sym * s1 + s2 / a_sym - 1 / (a_sym + 1), s1 + s2 - 1 / (a_sym + 1)], [s1, s2])
    printed_sum = printed_internal(printed("zlcn2013", "lemma2.sum").values)
    rec.value(
        **{
            "proof: sum_{j<=l} a_2j": f"{ratio_str(sol[s1])} (internal a = 1/alpha)",
            "proof: sum matches printed a^2/(a+1)^2": "yes" if sp.simplify(sol[s1] - printed_sum) == 0 else "no",
        }
    )
    rec.note(
        "n = 3 as stated; every m by the split-and-merge reduction of proofs/countrange_derivation.py, whose steps "
        "(split identities, non-negative weights, scaling and merging DP columns) are decided for every column and "
        "every alpha > 1 (reduction_failures; the merge over m columns is an induction with that step); z3 unsat "
        "at each rational zlcn alpha (bounded) and for symbolic internal a in (0, 1), i.e. every zlcn alpha > 1, "
        "which with the reduction is the claim's whole scope (all-n kind: nothing is left to bound); the premises "
        "(a DP matrix with 4 columns) are shown satisfiable first, witness recorded per alpha"
        + (
            f"; reduction steps NOT decided: {', '.join(steps_failed)}, so the symbolic instance stays bounded"
            if steps_failed
            else ""
        )
    )
    return rec


def ratio_str(e: sp.Expr) -> str:
    """A rational function as num/den, factored (1/(a + 1)**2 rather than (a + 1)**(-2))."""
    num, den = sp.fraction(sp.factor(e))
    if den == 1:
        return str(num)
    top = f"({num})" if num.is_Add else str(num)
    return f"{top}/{den}" if den.is_Atom or den.is_Pow else f"{top}/({den})"


def thm3_tables_check() -> dict[str, tuple[bool, str]]:
    """Theorem 3's parametrised 2x2 tables: each has total 1 and the marginals x-hat_mu, y-hat_mu."""
    item = printed("zlcn2013", "thm3.tables").values[1]
    ts = {f"t{i}": sp.Symbol(f"t{i}") for i in range(3)}
    cells = [[printed_internal(c, ts) for c in row] for row in item]
    out = {}
    for mu in range(3):
        t00, t01 = cells[0][2 * mu], cells[0][2 * mu + 1]
        t10, t11 = cells[1][2 * mu], cells[1][2 * mu + 1]
        ok = (
            sp.simplify(t00 + t01 + t10 + t11 - 1) == 0
            and sp.simplify(t10 + t11 - xhat(a_sym)[mu]) == 0
            and sp.simplify(t01 + t11 - yhat(a_sym)[mu]) == 0
        )
        out[f"mu={mu}"] = (
            ok,
            f"printed table mu={mu}: total {sp.simplify(t00 + t01 + t10 + t11)}, marginals "
            f"({sp.simplify(t10 + t11)}, {sp.simplify(t01 + t11)}), not 1, x-hat_mu, y-hat_mu",
        )
    return out


@checks("zlcn2013.thm3")
def thm3(
    ctx: Context, x: Vector = xhat, y: Vector = yhat, rows: tuple[int, ...] = (0, 1, 2), n_max: int | None = None
) -> Findings:
    """zlcn2013 Theorem 3 (n = 3, theta = (1,2)): no DP joint mechanism t_(mu,i,j) on counts mu = 0, 1, 2 has the
    marginals x-hat (first consumer) and y-hat (second), for every zlcn alpha > 1; also, beyond the paper's n = 3,
    for Lemma 3's x and y at general n (a bounded cross-check at a few alphas)."""
    rec = Findings("zlcn2013.thm3")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=3,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat",
            covers=f"{JOINT} with marginals x-hat, y-hat",
            counts=",".join(map(str, rows)),
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout, rows)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(f"counts {list(rows)}: {cex}")
    for name, (ok, why) in thm3_tables_check().items():
        rec.decide(
            ok,
            why,
            n=3,
            alpha=SYMBOLIC,
            kind=TABLE,
            method="printed 2x2 table, sympy identity",
            covers="a printed table has total 1 and the marginals x-hat, y-hat",
            table=name,
        )
    two, _ = derivation([x, y], F(2), ctx.solver_timeout, rows=(0, 1))
    rec.value(**{f"counts 0,1 alone ({label(F(2))})": "a joint mechanism exists" if two else "none"})
    n_max = n_max or (5 if ctx.quick else 8)
    general_alphas = ZLCN_ALPHAS[:3] if ctx.quick else ZLCN_ALPHAS
    count = decide_general(rec, range(3, n_max + 1), general_alphas, ctx.solver_timeout)
    rec.value(**{"general n: (n, theta, alpha) instances with no joint mechanism": count})
    rec.note(
        f"the paper's n = 3 (counts {list(rows)}): every rational zlcn alpha and symbolic internal a in (0, 1); "
        f"beyond the paper, Lemma 3's x and y at n = 3..{n_max}, 1 <= theta1 < theta2 <= n-1, only at zlcn alphas "
        f"{', '.join(map(str, general_alphas))}"
    )
    return rec
