"""zlcn2013 Lemma 2 (Section 3.2.2): no DP matrix derives both x-hat and y-hat (n = 3, theta = (1, 2)).

For every number of output columns by the split-and-merge reduction of proofs/countrange/derivation.py, whose
steps are decided here (:func:`reduction_failures`), and for every zlcn alpha > 1.  The proof's printed sum
(paper_tables/printed/zlcn2013.json, item lemma2.sum) is compared as a table instance; :func:`declared_errata`
classes such differences, here and for Theorem 3's printed objects (proofs/countrange/theorem3.py).  Lemma 1
and Corollary 1 are proofs/countrange/lemma1.py; Lemma 3, Corollary 2 and Theorem 2 proofs/countrange/lemma3.py.

Symbolic alpha: each z3 problem here is also decided with a a z3 real variable, 0 < a < 1 (nonlinear real
arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
import z3

from proofs.countrange.alpha import SYMBOLIC, a_sym, label
from proofs.countrange.derivation import alphas_for, derivation, dp_column, premises_hold, z3_alpha
from proofs.countrange.vectors import Vector, printed_internal, printed_vector, xhat, yhat
from udpm.claims.instances import ALL_N, BOUNDED, TABLE, Erratum
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import Mismatch, PrintedItem, mismatch_errata, printed
from udpm.smt.solvers import decide


def reduction_failures(timeout_s: float, rows: int = 4) -> list[str]:
    """The steps of the split-and-merge reduction (proofs/countrange/derivation.py) for K = 2 targets, decided for
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
        "n = 3 as stated; every m by the split-and-merge reduction of proofs/countrange/derivation.py, whose steps "
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


def declared_errata(item: PrintedItem, wrong: Sequence[tuple[str, str, str]]) -> list[Erratum]:
    """One erratum per (entry, printed, correct), classed as paper_tables/printed/zlcn2013.json declares it for
    that entry and printed text (udpm.claims.tables.mismatch_errata: undeclared, or declared for another text, is
    unclassified)."""
    return mismatch_errata(item, [Mismatch(e, p, c) for e, p, c in wrong])


def lemma2_sum_check(text: str, x: Vector = xhat) -> tuple[bool, sp.Expr]:
    """zlcn2013 Lemma 2, proof: from (1/alpha) S1 + alpha S2 = x-hat_1 and S1 + S2 = x-hat_2 (the two displayed
    equations), S1 = sum_{j<=l} a_2j; in the internal a = 1/alpha: a S1 + S2 / a = x_1, S1 + S2 = x_2.
    (printed ``text`` = S1 identically, S1)."""
    s1, s2 = sp.symbols("S1 S2")
    xs = x(a_sym)
    sol = sp.solve([a_sym * s1 + s2 / a_sym - xs[1], s1 + s2 - xs[2]], [s1, s2])
    return sp.simplify(sol[s1] - printed_internal(text)) == 0, sol[s1]
