"""Count-range impossibility (zlcn2013 Section 3.2-3.3): Lemmas 1-2, Corollary 1 and Theorem 3 (n = 3).

Lemma 1 and Corollary 1 (the tight columns of a DP 2 x m matrix deriving (1/(A+1), A/(A+1))), Lemma 2 (no DP
matrix derives both x-hat and y-hat) and Theorem 3 (no DP joint mechanism has the marginals x-hat, y-hat), each
for every number of output columns by the reduction of proofs/countrange_derivation.py.  The alpha convention
(zlcn2013's alpha > 1 is the label, the internal a = 1/alpha is computed with) is proofs/countrange_alpha.py;
the vectors are proofs/countrange_vectors.py; Lemma 3, Corollary 2 and Theorem 2 are proofs/countrange_lemma3.py.

The printed objects of these places (paper_tables/printed/zlcn2013.json: x-hat, y-hat, rho, Lemma 2's sum,
Theorem 3's tables and relations) are compared here as table instances of zlcn2013.lemma2 and zlcn2013.thm3.

Symbolic alpha: each z3 problem here is also decided with a a z3 real variable, 0 < a < 1 (nonlinear
real arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange_alpha import A_SYM, SYMBOLIC, ZLCN_ALPHAS, Alpha, a_sym, label
from proofs.countrange_derivation import (
    JOINT,
    alphas_for,
    at_model,
    derivation,
    derivation_problem,
    dp_column,
    pin_alpha,
    premises_hold,
    vector_terms,
    z3_alpha,
)
from proofs.countrange_lemma3 import (
    CO_REGION,
    DATABASES_NOTE,
    PRINTED_CONSUMERS,
    Chain,
    cleared,
    count_range_thetas,
    decide_databases,
    decide_general,
    paper_chain,
    paper_rho,
    printed_optimum_failure,
    printed_rho_weights,
    z3_of,
)
from proofs.countrange_lp import lp_optimum
from proofs.countrange_vectors import Vector, lemma3_x, lemma3_y, printed_internal, printed_vector, xhat, yhat
from udpm.claims import Context, Findings, checks
from udpm.errors import ExpectationsError
from udpm.instances import ALL_N, BOUNDED, TABLE, Erratum
from udpm.smt import decide, model_value
from udpm.tables import PRINTED, Mismatch, PrintedItem, mismatch_errata, printed
from udpm.users import CountRangeConsumer

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


#: The parts of Lemma 1's printed class (udpm/statements/zlcn2013.toml): the columns it speaks of, decided apart.
NONZERO_COLUMNS = "columns with p_j + q_j > 0"
ZERO_COLUMNS = "zero columns (p_j = q_j = 0)"
#: How a zero column reads "1/alpha <= p_j/q_j <= alpha" and "p_j/q_j = alpha": "paper", as zlcn2013 Section 2
#: defines differential privacy, multiplied out ("x_(tau',r)/alpha <= x_(tau,r) <= alpha x_(tau',r)", the form
#: Section 3.3 writes the same constraint in: "By differential privacy, a_(i+1,j)/alpha <= a_(i,j) <= alpha
#: a_(i+1,j)"); "0/0=1", the convention of grs2011 Section 2.1 ("where we interpret 0/0 as 1").
ZERO_READINGS = ("paper", "0/0=1")


def zero_column_counterexample(
    alpha: Alpha, timeout_s: float, target: Vector = lemma1_target, reading: str = "paper"
) -> tuple[str | None, str]:
    """Lemma 1 at a 2 x 3 matrix whose column 2 is zero (p_2 = q_2 = 0, in the printed class: "0 <= p_j, q_j <=
    1"), t = (1, 0, t_2): (the matrix found where the conclusion fails at the zero column, or None; premise witness).

    ``reading`` "paper": the privacy constraint multiplied out (a zero column meets it), the former case p_2 =
    alpha q_2, the latter p_2 = q_2/alpha; the conclusion at column 2 is "one of the cases, t_2 = 0 in the former,
    t_2 = 1 in the latter": a zero column is in both cases, so it asks t_2 = 0 and t_2 = 1.  ``reading`` "0/0=1":
    the ratio of a zero column is 1, inside [1/alpha, alpha], and the conclusion asks it to be alpha or 1/alpha.
    The premises (columns 0, 1 DP, B t = the target) are shown satisfiable first, at the paper's tight matrix."""
    if reading not in ZERO_READINGS:
        raise ExpectationsError(f"zlcn2013 Lemma 1: zero-column reading {reading!r} is not one of {ZERO_READINGS}")
    a, side = z3_alpha(alpha)
    tgt = vector_terms(target, alpha, a)
    p0, p1, q0, q1, t2 = z3.Reals("p0 p1 q0 q1 t2")
    p, q, t = [p0, p1, z3.RealVal(0)], [q0, q1, z3.RealVal(0)], [z3.RealVal(1), z3.RealVal(0), t2]
    premises = [*side, z3.Sum(p) == 1, z3.Sum(q) == 1, t2 >= 0, t2 <= 1]
    for j in range(3):
        premises += dp_column([p[j], q[j]], a)  # q_j / alpha <= p_j <= alpha q_j, internal a = 1/alpha
    premises += [z3.Sum([p[j] * t[j] for j in range(3)]) == tgt[0], z3.Sum([q[j] * t[j] for j in range(3)]) == tgt[1]]
    lo, hi = a / (a + 1), 1 / (a + 1)
    pins = [*pin_alpha(alpha, a), p0 == lo, q0 == hi, p1 == hi, q1 == lo, t2 == z3.RealVal("1/2")]
    witness = premises_hold(premises, pins, timeout_s, f"Lemma 1 with a zero column at {label(alpha)}")
    if reading == "paper":
        former, latter = a * p[2] == q[2], p[2] == a * q[2]  # p_2 = alpha q_2; p_2 = q_2 / alpha
        good = z3.And(z3.Or(former, latter), z3.Implies(former, t2 == 0), z3.Implies(latter, t2 == 1))
    else:
        ratio = z3.RealVal(1)  # 0/0 read as 1
        good = z3.Or(a * ratio == 1, ratio == a)  # ratio = alpha or ratio = 1/alpha
    out = decide([*premises, z3.Not(good)], timeout_s)
    if out.unsat:
        return None, witness
    m = out.model
    cols = [(model_value(m, p[j]), model_value(m, q[j]), model_value(m, t[j])) for j in range(3)]
    why = (
        "column 2 is zero, so p_2 = alpha q_2 and p_2 = q_2/alpha both hold (0 = 0), and the lemma's 't_j = 0 in "
        "the former case, and t_j = 1 in the latter case' asks t_2 = 0 and t_2 = 1 (any t_2 in [0, 1] derives the "
        "same B t)"
        if reading == "paper"
        else "column 2 is zero, its ratio 0/0 = 1 lies in [1/alpha, alpha] but is neither alpha nor 1/alpha"
    )
    return f"{at_model(alpha, m, a)}: columns (p_j, q_j, t_j) = {cols}; {why}", witness


@checks("zlcn2013.lemma1")
def lemma1(ctx: Context, target: Vector = lemma1_target, flip: bool = False, zero_reading: str = "paper") -> Findings:
    """zlcn2013 Lemma 1 and Corollary 1: if a DP 2 x m matrix (p; q) derives (1/(A+1), A/(A+1)) (zlcn's A > 1) then
    every non-zero column has p_j/q_j in {A, 1/A}, with t_j = 0 when p_j/q_j = A and t_j = 1 when it is 1/A;
    Corollary 1 applies this to the row pairs (0,1) and (2,3) of x-hat and (1,2) of y-hat.

    The printed class ("0 <= p_j, q_j <= 1") has zero columns p_j = q_j = 0, where the printed ratio p_j/q_j is
    0/0: the parts NONZERO_COLUMNS (the instances above) and ZERO_COLUMNS, decided by
    :func:`zero_column_counterexample` with the privacy constraint read as the paper defines it (``zero_reading``
    "paper"; "0/0=1" reads grs2011's convention)."""
    rec = Findings("zlcn2013.lemma1")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=1,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat (3-column reduction)",
            covers="every DP 2 x m matrix (p; q), every m, and t in [0,1]^m deriving Lemma 1's vector",
            region=NONZERO_COLUMNS,
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
            region=NONZERO_COLUMNS,
            pair=name,
        )
    for al in alphas_for(ctx):
        with rec.deciding(
            n=1,
            alpha=label(al),
            kind=BOUNDED,
            method=f"z3 (zero column, reading {zero_reading})",
            covers="a DP 2 x 3 matrix with a zero column deriving Lemma 1's vector: the conclusion at that column",
            region=ZERO_COLUMNS,
        ) as d:
            cex, witness = zero_column_counterexample(al, ctx.solver_timeout, target, zero_reading)
            rec.value(**{f"zero-column premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(cex)
    rec.value(
        zero_columns="p_j = q_j = 0 is in the printed class ('0 <= p_j, q_j <= 1'); its ratio 0/0 is not defined "
        "in zlcn2013, whose differential privacy is multiplied out ('x_(tau',r)/alpha <= x_(tau,r) <= alpha "
        "x_(tau',r)'), so a zero column meets the privacy constraint and is in both cases p_j = alpha q_j and p_j = "
        "q_j/alpha; the lemma's 't_j = 0 in the former case, and t_j = 1 in the latter' then fails (any t_j gives "
        "the same B t), and the proof's 'In the former case, clearly p_j/q_j != 1/alpha' is where it breaks. Read "
        "with 0/0 = 1 (grs2011's convention) the conclusion 'p_j/q_j = alpha or 1/alpha' fails; only a reading "
        "where 0/0 makes the premise false (no zero column allowed) keeps the lemma, which the printed "
        "'0 <= p_j, q_j <= 1' does not say. Zero columns add nothing to B t, so Lemma 2 and Corollary 1's use of "
        "the lemma (non-zero columns) are unaffected"
    )
    rec.note(
        "n=1 stands for Lemma 1's two rows (two neighbouring counts); the number m of columns is arbitrary: the "
        "3-column reduction (lemma1_counterexample's docstring) is a hand argument, not computed, so each alpha is a "
        "bounded instance (not all-n); z3 unsat for each rational zlcn alpha (at a = 1/alpha) and for symbolic "
        "internal a in (0, 1) (nlsat), i.e. every zlcn alpha > 1. Corollary 1 (n = 3) by sympy identities in a. "
        "Zero columns (the part ZERO_COLUMNS): decided at each alpha with the privacy constraint read as the paper "
        f"defines it (reading {zero_reading!r}): see the value zero_columns"
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
def lemma2(ctx: Context, x: Vector = xhat, y: Vector = yhat, printed_sum: str | None = None) -> Findings:
    """zlcn2013 Lemma 2: no alpha-DP matrix A (4 x m, any m) derives both x-hat and y-hat (n = 3, theta = (1,2)),
    for every zlcn alpha > 1 (every internal a in (0, 1)).

    The printed scope (Section 3.2.2 characterises A as a 4 x m matrix, outputs 1..m, entries with
    1/alpha <= a_ij/a_(i+1)j <= alpha) is the two fixed vectors at n = 3, every m and every alpha > 1.  Every m:
    the split-and-merge reduction, its steps decided by :func:`reduction_failures`; every alpha > 1: z3 with the
    internal a a variable.  When both hold, the symbolic instance covers the whole statement (all-n kind, as
    zlcn2013.xhat's).  The proof's printed sum_{j<=l} a_2j (item lemma2.sum, or ``printed_sum``) is compared with
    its value from the proof's two displayed equations; a difference is an erratum."""
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
    # The proof's intermediate value sum_{j<=l} a_2j, printed, against its value from the two displayed equations.
    item = printed("zlcn2013", "lemma2.sum")
    text = item.values if printed_sum is None else printed_sum
    same, s1 = lemma2_sum_check(text, x)
    rec.value(**{"proof: sum_{j<=l} a_2j": f"{ratio_str(s1)} (internal a = 1/alpha)"})
    if not same:
        rec.errata.extend(declared_errata(item, [("value", text, f"{ratio_str(s1)} in the internal a = 1/alpha")]))
    rec.decide(
        True,
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="sympy identity in a",
        covers=f"{item.where} ({item.key}): the printed sum against its value from the two displayed equations",
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


def printed_extra(key: str, field: str) -> object:
    """A field of a printed item beside its values (thm3.tables' "raw"), verbatim from
    paper_tables/printed/zlcn2013.json."""
    data = json.loads((PRINTED / "zlcn2013.json").read_text(encoding="utf-8"))
    return data["items"][key][field]


def declared_errata(item: PrintedItem, wrong: Sequence[tuple[str, str, str]]) -> list[Erratum]:
    """One erratum per (entry, printed, correct), classed as paper_tables/printed/zlcn2013.json declares it for
    that entry and printed text (udpm.tables.mismatch_errata: undeclared, or declared for another text, is
    unclassified)."""
    return mismatch_errata(item, [Mismatch(e, p, c) for e, p, c in wrong])


def _array_rows(raw: str) -> list[tuple[str, list[str]]]:
    """The body rows of a printed LaTeX array: (the row after its label, verbatim; its '&'-separated cells)."""
    body = raw.split("\\hline", 1)[1].rsplit("\\end{array}", 1)[0]
    rows = [row.split("&", 1)[1].strip() for row in body.split("\\\\") if "&" in row]
    return [(row, [c.strip() for c in row.split("&")]) for row in rows]


def forced_cell(mu: int, i: int, j: int, t: sp.Expr, x: Vector = xhat, y: Vector = yhat) -> sp.Expr:
    """The only value of Theorem 3's t_(mu,i,j) (internal a) when t_(mu,1,1) = t, the table sums to 1 and its
    marginals are x_mu (row i = 1) and y_mu (column j = 1)."""
    xm, ym = x(a_sym)[mu], y(a_sym)[mu]
    return {(1, 1): t, (1, 0): xm - t, (0, 1): ym - t, (0, 0): 1 - xm - ym + t}[(i, j)]


def thm3_tables_check(
    values: Sequence | None = None, raw: str | None = None
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """zlcn2013 Theorem 3, proof sketch, the two printed tables of t_(mu,i,j) (item thm3.tables, cells in the
    order (mu, j) = (0,0), (0,1), (1,0), (1,1), (2,0), (2,1) per row i).

    Every cell is compared: in the first table cell (mu, i, j) is named t_{mu,i,j}; in the second, the sketch's
    "Let t_{mu,1,1} = t_mu" with total 1 and the marginals x-hat_mu (row i = 1) and y-hat_mu (column j = 1) fix
    every cell (:func:`forced_cell`), and each printed cell is that value identically in alpha and t_0, t_1, t_2.
    Returns (the (entry, printed, correct) of each cell that differs, correct in zlcn's alpha; the same for each
    row of the extracted array ``raw`` whose '&'-separated cells are not the 6 cells of the second table)."""
    values = printed("zlcn2013", "thm3.tables").values if values is None else values
    raw = printed_extra("thm3.tables", "raw") if raw is None else raw
    names, param = values
    ts = [sp.Symbol(f"t{mu}") for mu in range(3)]
    wrong = []
    for i in range(2):
        for mu in range(3):
            for j in range(2):
                c = 2 * mu + j
                name = f"t_{{{mu},{i},{j}}}"
                if names[i][c].replace(" ", "") != name:
                    wrong.append((f"[0][{i}][{c}]", names[i][c], name))
                want = forced_cell(mu, i, j, ts[mu])
                if sp.simplify(printed_internal(param[i][c], {str(t): t for t in ts}) - want) != 0:
                    zlcn = sp.factor(sp.together(want.subs(a_sym, 1 / A_SYM)), *ts)
                    wrong.append((f"[1][{i}][{c}]", param[i][c], str(zlcn)))
    rows = _array_rows(raw)
    damaged = [
        (f"[raw][{i}]", rows[i][0] if i < len(rows) else "", " & ".join(param[i]))
        for i in range(2)
        if i >= len(rows) or rows[i][1] != list(param[i])
    ]
    return wrong, damaged


_RELATION = re.compile(r"\\leq|\\geq|\\le\b|\\ge\b|<|>|=")
_OPS = {"\\leq": "<=", "\\le": "<=", "\\geq": ">=", "\\ge": ">=", "<": "<", ">": ">", "=": "="}


def relation_terms(text: str) -> tuple[list[sp.Expr], list[str]]:
    """A printed chain 'e0 op1 e1 op2 e2 ...' (ops =, \\leq, \\geq, <, >) as (terms in the internal a and
    t0, t1, t2; ops)."""
    ts = {f"t{i}": sp.Symbol(f"t{i}") for i in range(3)}
    ops = [_OPS[m] for m in _RELATION.findall(text)]
    terms = [printed_internal(part.strip(), ts) for part in _RELATION.split(text)]
    if not ops or len(terms) != len(ops) + 1:
        raise ExpectationsError(f"zlcn2013 thm3.bounds: {text!r} is not a chain of relations")
    return terms, ops


def relation_z3(text: str, names: dict[sp.Symbol, z3.ArithRef]) -> tuple[z3.BoolRef, list[z3.ArithRef]]:
    """The printed chain as one z3 conjunction of polynomial sign conditions (each side difference cleared of its
    positive denominator), and its terms."""
    terms, ops = relation_terms(text)
    rel = {"<=": lambda d: d <= 0, ">=": lambda d: d >= 0, "<": lambda d: d < 0, ">": lambda d: d > 0}
    rel["="] = lambda d: d == 0
    conj = [rel[op](z3_of(cleared(terms[k] - terms[k + 1]), names)) for k, op in enumerate(ops)]
    return z3.And(conj), [z3_of(sp.together(t), names) for t in terms]


#: zlcn2013 Theorem 3, proof sketch: what the sketch derives each relation of thm3.bounds (by position) from,
#: as (the blocks of neighbouring counts whose DP joint mechanism with the marginals x-hat, y-hat it uses, a block
#: of one count being that count's table alone; the positions of the earlier relations it cites).
#: [0] "By differential privacy, t_1 <= alpha t_0, and (1/(alpha+1) - t_1 <= alpha(...)) ... Therefore t_1 = alpha t_0"
#: [1] "Similarly, we can prove that t_2 = alpha t_1"
#: [2] "By differential privacy, t_0 + (alpha-1)/alpha <= alpha t_1 = alpha^2 t_0" (cells (0,0) of counts 0, 1)
#: [3] "Then, t_0 >= 1/(alpha(alpha + 1))"
#: [4] "By differential privacy, (alpha/(alpha+1) - t_1 <= alpha(...)). Since t_2 = alpha^2 t_0 and t_1 = alpha t_0,
#:     t_0 <= 1/(alpha + 1)^2": counts 1, 2, count 0's table, and t_1 = alpha t_0.
#: Counts 0, 1, 2 together have no DP joint mechanism (the theorem), so each step is decided on the counts it
#: uses, whose premises are shown satisfiable first.
BOUNDS_BASIS: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...] = (
    (((0, 1),), ()),
    (((1, 2),), ()),
    (((0, 1),), ()),
    (((0, 1),), ()),
    (((0,), (1, 2)), (0,)),
)


def marginals_cleared(mat, types, rows: Sequence[int], targets: Sequence[Vector], a: z3.ArithRef) -> list:
    """:func:`derivation_problem`'s goal (the joint mechanism's marginals are the targets), each equation times
    the positive denominator of its target entry, so that no division is left for the solvers."""
    out = []
    for r, i in enumerate(rows):
        for k, target in enumerate(targets):
            num, den = sp.fraction(sp.factor(sp.together(target(a_sym)[i])))
            if not den.is_positive:
                raise ExpectationsError(f"zlcn2013 Theorem 3: the denominator {den} of a target entry is not positive")
            total = z3.Sum([mat[r][c] for c, s in enumerate(types) if s[k] == 1])
            out.append(z3_of(sp.expand(den), {a_sym: a}) * total == z3_of(sp.expand(num), {a_sym: a}))
    return out


def bounds_failures(
    bounds: Sequence[str], x: Vector, y: Vector, alpha: Alpha, timeout_s: float
) -> tuple[list[tuple[int, str]], dict[str, str]]:
    """Each printed relation of Theorem 3's sketch (thm3.bounds) decided at ``alpha`` (SYMBOLIC: every zlcn
    alpha > 1, z3 nlsat) over the joint mechanism t_(mu,i,j) of :func:`derivation_problem` (m_mu_ij,
    t_mu = m_mu_11) on the counts :data:`BOUNDS_BASIS` names, with the relations it cites: the premises are
    shown satisfiable, then premises and not-relation is unsat.  Returns ([(position, where it fails)],
    {position: premise witness})."""
    if len(bounds) != len(BOUNDS_BASIS):
        raise ExpectationsError(f"zlcn2013 thm3.bounds: {len(bounds)} relations, the sketch displays 5")
    fails, witnesses = [], {}
    for k, (blocks, cites) in enumerate(BOUNDS_BASIS):
        premises: list = []
        for rows in blocks:
            pr, _, _, mat, types, a = derivation_problem([x, y], alpha, rows)
            premises += [*pr, *marginals_cleared(mat, types, rows, [x, y], a)]
        names = {a_sym: a, **{sp.Symbol(f"t{mu}"): z3.Real(f"m_{mu}_11") for mu in range(3)}}
        premises += [relation_z3(bounds[c], names)[0] for c in cites]
        pins = pin_alpha(alpha, a)
        witnesses[str(k)] = premises_hold(premises, pins, timeout_s, f"Theorem 3 sketch, relation {k}, {label(alpha)}")
        goal, terms = relation_z3(bounds[k], names)
        out = decide([*premises, z3.Not(goal)], timeout_s)
        if not out.unsat:
            m = out.model
            at = ", ".join(f"t{mu}={model_value(m, names[sp.Symbol(f't{mu}')])}" for mu in range(3))
            vals = " ; ".join(str(model_value(m, t)) for t in terms)
            fails.append(
                (
                    k,
                    f"{at_model(alpha, m, a)}, a DP joint mechanism on counts {list(blocks)} with {at}: the sides "
                    f"are {vals}",
                )
            )
    return fails, witnesses


def printed_vectors_check(
    ctx: Context, vectors: dict[str, Sequence[str]] | None = None, rho: Sequence[str] | None = None
) -> list[tuple[str, str, str, str]]:
    """zlcn2013 Sections 3.2.1-3.2.2 (repeated in Theorem 3's sketch): the printed x-hat is the only optimum of
    the consumer with uniform error penalty and prior, the printed y-hat that of uniform penalty and the printed
    rho, for every zlcn alpha > 1 (:func:`proofs.countrange_lemma3.printed_optimum_failure`; items xhat, yhat,
    rho, or ``vectors`` and ``rho``).  Returns (item key, printed, correct, where it fails) per failure, correct
    being the certified only optimum at zlcn alpha = 2."""
    texts = {k: list(printed("zlcn2013", k).values) for k in PRINTED_CONSUMERS}
    texts.update(vectors or {})
    weights = {"xhat": [sp.Integer(1)] * 4, "yhat": printed_rho_weights(rho)}
    rhos = {"xhat": [F(1, 4)] * 4, "yhat": paper_rho(F(1, 2), rho)}
    out = []
    for key, consumer in PRINTED_CONSUMERS.items():
        vec = [printed_internal(t) for t in texts[key]]
        why = printed_optimum_failure(vec, weights[key], ctx.solver_timeout)
        if why:
            c = CountRangeConsumer.of([1] * 4, rhos[key], 1, 2)
            _, cert, _ = lp_optimum(c, F(2), ctx)
            correct = f"at zlcn alpha=2 the only optimum is ({', '.join(map(str, cert.x))}) (unique={cert.unique})"
            out.append((key, ", ".join(texts[key]), correct, f"{consumer}: {why}"))
    return out


def lemma2_sum_check(text: str, x: Vector = xhat) -> tuple[bool, sp.Expr]:
    """zlcn2013 Lemma 2, proof: from (1/alpha) S1 + alpha S2 = x-hat_1 and S1 + S2 = x-hat_2 (the two displayed
    equations), S1 = sum_{j<=l} a_2j; in the internal a = 1/alpha: a S1 + S2 / a = x_1, S1 + S2 = x_2.
    (printed ``text`` = S1 identically, S1)."""
    s1, s2 = sp.symbols("S1 S2")
    xs = x(a_sym)
    sol = sp.solve([a_sym * s1 + s2 / a_sym - xs[1], s1 + s2 - xs[2]], [s1, s2])
    return sp.simplify(sol[s1] - printed_internal(text)) == 0, sol[s1]


@checks("zlcn2013.thm3")
def thm3(
    ctx: Context,
    x: Vector = xhat,
    y: Vector = yhat,
    rows: tuple[int, ...] = (0, 1, 2),
    n_max: int | None = None,
    bounds: Sequence[str] | None = None,
    tables: Sequence | None = None,
    raw: str | None = None,
    vectors: dict[str, Sequence[str]] | None = None,
    rho: Sequence[str] | None = None,
    chain: Chain = paper_chain,
    db_n_max: int = 4,
) -> Findings:
    """zlcn2013 Theorem 3 (n = 3, theta = (1,2)): no DP joint mechanism t_(mu,i,j) on counts mu = 0, 1, 2 has the
    marginals x-hat (first consumer) and y-hat (second), for every zlcn alpha > 1; also, beyond the paper's n = 3,
    for Lemma 3's x and y at general n (a bounded cross-check at a few alphas).

    The proof sketch's printed objects are compared as table instances: its two tables (item thm3.tables, or
    ``tables``, and the extracted array ``raw``; :func:`thm3_tables_check`) and its displayed relations t_1 =
    alpha t_0, ..., t_0 <= 1/(alpha + 1)^2 (item thm3.bounds, or ``bounds``; :func:`bounds_failures`), each
    decided for every zlcn alpha > 1; and the x-hat and y-hat it repeats with the prior rho of Section 3.2.2
    (items xhat, yhat, rho, or ``vectors`` and ``rho``; :func:`printed_vectors_check`).  A printed relation that
    is false, a printed vector that is not the optimum, or an array row damaged in extraction is an erratum,
    classed as paper_tables/printed/zlcn2013.json declares it.

    The printed class has two parts (udpm/statements/zlcn2013.toml): count-oriented joint mechanisms (everything
    above, region CO_REGION) and joint mechanisms on databases t_(tau,i,j) ("Then for all tau in D^n ... let
    t_(tau,i,j) be the probability of outputting i for the first consumer, and j for the second"; "This will be
    generalized later"), decided by :func:`proofs.countrange_lemma3.decide_databases` (region DB_REGION): a joint
    mechanism is a mechanism with the four outputs (i, j) and its marginals are derived by the transformations
    t = i, u = j, so the reduction through tau_0..tau_n and the conclusion on D^n are those of Theorem 2, with
    x-hat and y-hat at n = 3 (``x``, ``y``) and Lemma 3's x and y at n = 4..``db_n_max``; ``chain`` changes tau."""
    rec = Findings("zlcn2013.thm3")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=3,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat",
            covers=f"{JOINT} with marginals x-hat, y-hat",
            region=CO_REGION,
            counts=",".join(map(str, rows)),
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout, rows)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(f"counts {list(rows)}: {cex}")
    tab_item = printed("zlcn2013", "thm3.tables")
    wrong, damaged = thm3_tables_check(tables, raw)
    rec.errata.extend(declared_errata(tab_item, [*wrong, *damaged]))
    rec.decide(
        True,
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="sympy identity in alpha and t_0, t_1, t_2 per cell; the extracted array's '&' cells per row",
        covers=f"{tab_item.where} ({tab_item.key}): every cell of both tables (the second's fixed by t_(mu,1,1) = "
        "t_mu, total 1 and the marginals x-hat, y-hat) and the array as extracted ('raw')",
        region=CO_REGION,
        table="thm3.tables",
    )
    b_item = printed("zlcn2013", "thm3.bounds")
    b_values = list(b_item.values if bounds is None else bounds)
    with rec.deciding(
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="z3 unsat (nlsat, internal a a variable in (0, 1)) over the joint mechanism",
        covers=f"{b_item.where} ({b_item.key}): each printed relation on the counts and earlier relations the "
        "sketch derives it from (BOUNDS_BASIS), every zlcn alpha > 1",
        region=CO_REGION,
        table="thm3.bounds",
    ):
        fails, witnesses = bounds_failures(b_values, x, y, SYMBOLIC, ctx.solver_timeout)
        rec.value(**{f"thm3.bounds[{k}] premise witness": w for k, w in witnesses.items()})
        wrong = [(f"[{k}]", b_values[k], f"not implied ({why})") for k, why in fails]
        rec.errata.extend(declared_errata(b_item, wrong))
        # the sketch's "We have thus obtained a contradiction": the printed bounds [3] and [4] exclude each other
        a_z = z3.Real("a")
        lo, hi = (relation_terms(b_values[k])[0][-1] for k in (3, 4))
        apart = decide([a_z > 0, a_z < 1, z3_of(cleared(lo - hi), {a_sym: a_z}) <= 0], ctx.solver_timeout).unsat
        rec.value(**{"printed bounds [3], [4] contradict for every zlcn alpha > 1": "yes" if apart else "no"})
    with rec.deciding(
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="z3 unsat (nlsat, internal a a variable in (0, 1)), denominators cleared",
        covers="the printed x-hat, y-hat (repeated in the sketch) and rho (items xhat, yhat, rho): x-hat the only "
        "optimum for the uniform prior, y-hat for the printed rho, every zlcn alpha > 1",
        region=CO_REGION,
        table="xhat, yhat, rho",
    ):
        for key, text, correct, why in printed_vectors_check(ctx, vectors, rho):
            rec.errata.extend(declared_errata(printed("zlcn2013", key), [("value", text, f"{correct}; {why}")]))
    two, _ = derivation([x, y], F(2), ctx.solver_timeout, rows=(0, 1))
    rec.value(**{f"counts 0,1 alone ({label(F(2))})": "a joint mechanism exists" if two else "none"})
    n_max = n_max or (5 if ctx.quick else 8)
    general_alphas = ZLCN_ALPHAS[:3] if ctx.quick else ZLCN_ALPHAS
    count = decide_general(rec, range(3, n_max + 1), general_alphas, ctx.solver_timeout, region=CO_REGION)
    rec.value(**{"general n: (n, theta, alpha) instances with no joint mechanism": count})

    def xf(n, t1, t2, a):
        return x(a) if n == 3 else lemma3_x(n, t1, t2, a)

    def yf(n, t1, t2, a):
        return y(a) if n == 3 else lemma3_y(n, t1, t2, a)

    db_ns = range(3, min(n_max, db_n_max) + 1)
    db_alphas = general_alphas[:2] if ctx.quick else general_alphas[:3]
    db = decide_databases(
        rec, range(1, db_n_max + 1), db_ns, count_range_thetas, db_alphas, ctx.solver_timeout, xf, yf, chain
    )
    rec.value(**{"mechanisms on databases: instances": db})
    rec.note(
        f"the paper's n = 3 (counts {list(rows)}): every rational zlcn alpha and symbolic internal a in (0, 1); "
        f"beyond the paper, Lemma 3's x and y at n = 3..{n_max}, 1 <= theta1 < theta2 <= n-1, only at zlcn alphas "
        f"{', '.join(map(str, general_alphas))}; the sketch's printed tables, relations (each on the counts it "
        "uses, with the relations it cites) and the x-hat, y-hat, rho it rests on compared for every zlcn alpha > 1 "
        "as table instances. Joint mechanisms on databases (the outputs (i, j) as four columns, the marginals as the "
        "transformations i and j): "
        + DATABASES_NOTE
        + f" (n = {db_ns.start}..{db_ns.stop - 1}, x-hat and y-hat at n = 3, zlcn alphas "
        f"{', '.join(map(str, db_alphas))})"
    )
    return rec
