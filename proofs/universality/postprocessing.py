"""All-n proofs of the post-processing lemmas, each by induction with SMT-decided obligations
(udpm.induction.obligations).

* grs2011 Lemma 5.2: a remap keeps the ratio bounds.  For rows x, x' of an alpha-DP mechanism and a
  stochastic Y, (xY)_r = sum_k x_k Y_kr.  Invariant over the number of inputs k summed:
  alpha S' <= S <= S' / alpha.  Also: a product of stochastic matrices is stochastic (row sums,
  invariant sum_k Y_jk (row sum of Y' at k) = sum_k Y_jk).
* grs2011 Lemma 5.3: (a) in a feasible X a zero entry forces its column to zero (alpha x_i <= x_{i+1}
  <= x_i / alpha; invariant over the rows: all zero, or all positive); (b) no signature row is all down/0
  (or all up/0): x_{i+1,r} = alpha x_ir in every column gives sum_r x_{i+1,r} = alpha sum_r x_ir
  (invariant over the columns), and 1 = alpha contradicts alpha < 1.
* grs2011 Section 2.3 (the Bayes remap): for any costs c_1..c_m and any y in the simplex,
  sum_j y_j c_j >= min_j c_j (invariant: S >= Y mu for mu below every c_j), so the remap LP, which splits
  per output into minimising a linear form over a simplex, is solved by a deterministic choice.

The variables are symbolic reals (alpha in (0, 1) included): one proof per lemma covers every n and
every alpha.  Each ``*_all_n`` function records one ALL_N instance per obligation pair on ``rec``.
"""

from __future__ import annotations

import z3

from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings
from udpm.induction.obligations import Obligation, Proof, by_induction, discharge

SYMBOLIC = "symbolic alpha in (0,1)"


def _alpha() -> tuple[z3.ArithRef, tuple[z3.BoolRef, ...]]:
    a = z3.Real("alpha")
    return a, (a > 0, a < 1)


def ratio_bounds_kept(upper: bool = True) -> tuple[Obligation, Obligation]:
    """Lemma 5.2: alpha S' <= S <= S'/alpha survives adding x_k Y_kr, x'_k Y_kr (Y_kr >= 0).

    ``upper=False`` drops the upper DP bound on the added term: a false variant."""
    a, range_a = _alpha()
    s, s2, x, x2, y = z3.Reals("S S_next x x_next y")
    inv = z3.And(a * s2 <= s, s <= s2 / a)
    term = (x >= 0, x2 >= 0, a * x2 <= x, *((x <= x2 / a,) if upper else ()), y >= 0)
    base = Obligation("ratio bounds: base (empty sums)", range_a, z3.And(a * 0 <= 0, 0 <= 0 / a))
    step = Obligation(
        "ratio bounds: step (one more input)",
        (*range_a, s >= 0, s2 >= 0, inv, *term),
        z3.And(a * (s2 + x2 * y) <= s + x * y, s + x * y <= (s2 + x2 * y) / a),
    )
    return base, step


def stochastic_product() -> tuple[Obligation, Obligation]:
    """Row j of Y·Y' sums to sum_k Y_jk: the invariant T = P (partial sums of Y_jk (Y' row k's sum) and of Y_jk)."""
    t, p, y, rowsum = z3.Reals("T P y rowsum")
    base = Obligation("stochastic product: base", (), z3.RealVal(0) == 0)
    step = Obligation("stochastic product: step (one more k)", (t == p, y >= 0, rowsum == 1), t + y * rowsum == p + y)
    return base, step


def zero_propagation(lower: bool = True) -> tuple[Obligation, Obligation]:
    """Lemma 5.3(a): a column is all zero or all positive, by induction down the rows.

    ``lower=False`` drops the lower DP bound alpha x_i <= x_{i+1}: a false variant."""
    a, range_a = _alpha()
    x, x2 = z3.Reals("x_i x_next")
    first = z3.Real("x_0")
    base = Obligation("zero propagation: base (row 0)", (first >= 0,), z3.Or(first == 0, first > 0))
    dp = (x2 <= x / a, *((a * x <= x2,) if lower else ()))
    step = Obligation(
        "zero propagation: step (row i to i+1)",
        (*range_a, x >= 0, x2 >= 0, *dp),
        z3.And(z3.Implies(x == 0, x2 == 0), z3.Implies(x > 0, x2 > 0)),
    )
    return base, step


def no_all_down_row(factor_up: bool = False) -> tuple[Obligation, Obligation, Obligation]:
    """Lemma 5.3(b): if x_{i+1,r} = alpha x_ir (or 0 = 0) in every column, the row sums are alpha apart, and
    both being 1 contradicts alpha < 1.  ``factor_up`` proves the all-up case (x_{i+1,r} = x_ir / alpha)."""
    a, range_a = _alpha()
    s, s2, x, x2 = z3.Reals("S S_next x x_next")
    rel = (lambda u, v: v * a == u) if factor_up else (lambda u, v: v == a * u)
    base = Obligation("row sums: base (no columns)", range_a, rel(z3.RealVal(0), z3.RealVal(0)))
    step = Obligation("row sums: step (one more column)", (*range_a, rel(s, s2), rel(x, x2)), rel(s + x, s2 + x2))
    close = Obligation("row sums: both 1 is impossible", (*range_a, rel(s, s2), s == 1), s2 != 1)
    return base, step, close


def simplex_minimum(bounded_below: bool = True) -> tuple[Obligation, Obligation]:
    """Bayes remap: S >= Y mu survives adding y c (y >= 0, c >= mu); at the end Y = 1 gives S >= mu = min c.

    ``bounded_below=False`` drops c >= mu: a false variant."""
    s, yy, mu, y, c = z3.Reals("S Y mu y c")
    base = Obligation("simplex minimum: base (no outputs)", (), 0 >= 0 * mu)
    step = Obligation(
        "simplex minimum: step (one more output)",
        (s >= yy * mu, y >= 0, *((c >= mu,) if bounded_below else ())),
        s + y * c >= (yy + y) * mu,
    )
    return base, step


def _record(rec: Findings, proof: Proof, method: str, covers: str, part: str) -> bool:
    rec.decide(
        proof.holds,
        proof.counterexample or f"{len(proof.obligations)} obligations unsat: " + "; ".join(proof.obligations),
        n=None,
        alpha=SYMBOLIC,
        kind=ALL_N,
        method=method,
        covers=covers,
        part=part,
    )
    return proof.holds


INDUCTION = "induction on the number of terms, base and step SMT unsat (z3 and cvc5)"


def post_processing_all_n(rec: Findings, ctx: Context, upper: bool = True) -> bool:
    """grs2011 Lemma 5.2 for every n, alpha and remap: X·Y alpha-DP, and remaps of X·Y are remaps of X."""
    ok = _record(
        rec,
        by_induction(*ratio_bounds_kept(upper), ctx.solver_timeout),
        INDUCTION,
        "every alpha-DP X, every stochastic Y, any number of outputs: X·Y is alpha-DP",
        "ratio bounds",
    )
    return ok and _record(
        rec,
        by_induction(*stochastic_product(), ctx.solver_timeout),
        INDUCTION,
        "every pair of stochastic matrices: the product is stochastic (a remap of X·Y is a remap of X)",
        "remaps compose",
    )


def zero_propagation_all_n(rec: Findings, ctx: Context, lower: bool = True) -> bool:
    """grs2011 Lemma 5.3 (a) and (b) for every n and alpha."""
    ok = _record(
        rec,
        by_induction(*zero_propagation(lower), ctx.solver_timeout),
        INDUCTION,
        "every feasible X: each column all zero or all positive",
        "(a)",
    )
    return ok and rows_not_all_down_all_n(rec, ctx, "(b) ")


def rows_not_all_down_all_n(rec: Findings, ctx: Context, label: str = "") -> bool:
    """grs2011 Lemma 5.3(b) = grs2009 Lemma 5.4 for every n and alpha: no row all down/0, none all up/0."""
    ok = True
    for up in (False, True):
        ok = ok and _record(
            rec,
            discharge(no_all_down_row(up), ctx.solver_timeout),
            INDUCTION,
            f"every feasible X: no signature row all {'up' if up else 'down'}/0",
            f"{label}{'up' if up else 'down'}",
        )
    return ok


def simplex_minimum_all_n(rec: Findings, ctx: Context, bounded_below: bool = True) -> bool:
    """grs2011 Section 2.3 for every mechanism and user: a deterministic remap attains the remap LP's optimum."""
    return _record(
        rec,
        by_induction(*simplex_minimum(bounded_below), ctx.solver_timeout),
        INDUCTION + "; the remap LP splits per output into min over a simplex",
        "every mechanism, every user, any number of outputs",
        "per-output simplex",
    )
