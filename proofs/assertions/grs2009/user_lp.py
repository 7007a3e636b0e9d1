"""grs2009 Section 5: assertions about the user-specific LP (2)-(6) and its vertices, checked like any other claim.

Each check decides the statement as printed; its parameters carry the printed values, so that a test can feed a
changed statement through them.

* grs2009.lp: the user-specific LP (2)-(6) with its privacy rows (3), (4) quantified as printed.
* grs2009.sec5.wd: the LP's constraint matrix is well defined (a zero entry empties its column).
* grs2009.fn4: footnote 4, vertices that are not remaps of G are optimal for no user.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import z3

from proofs.assertions.footnotes import FN3_ALPHA, FN3_N, FN3_USER, FN3_X
from proofs.assertions.grs2009.common import NIL, ONE, SYMBOLIC_ALPHA, Matrix, square_matrix, witnessed
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.users import BayesianUser, binary_loss
from udpm.lp.certify import is_vertex, solve
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp, mechanism_var
from udpm.smt.solvers import decide

F = Fraction
PRINTED_R: Callable[[int], range] = lambda n: range(n)  # noqa: E731  r in N \ {n}, as printed in (3), (4)
PRINTED_I: Callable[[int], range] = lambda n: range(n + 1)  # noqa: E731  i in N, as printed
READINGS = ("drop", "zero")  # x_{(n+1)r} does not exist: drop the row, or read the missing variable as 0


def printed_lp(user: BayesianUser, a: Fraction, rs: Sequence[int], is_: Sequence[int], beyond: str) -> LinearProgram:
    """LP (2)-(6) with privacy rows (3), (4) for r in ``rs`` and i in ``is_``; a row naming x_{(n+1)r} is dropped
    (``beyond='drop'``) or has that variable read as 0 (``'zero'``).  Nonnegativity (6) is the LP's x >= 0."""
    n = user.n
    names = tuple(mechanism_var(i, j) for i in range(n + 1) for j in range(n + 1))
    v = {nm: k for k, nm in enumerate(names)}
    rows: list[Constraint] = []
    for r in rs:
        for i in is_:
            x0 = v[mechanism_var(i, r)]
            if i + 1 <= n:
                x1 = v[mechanism_var(i + 1, r)]
                c3, c4 = ((x0, F(1)), (x1, -a)), ((x0, a), (x1, F(-1)))
            elif beyond == "drop":
                continue
            else:
                c3, c4 = ((x0, F(1)),), ((x0, a),)
            rows.append(Constraint(c3, ">=", F(0), f"(3) r={r} i={i}"))
            rows.append(Constraint(c4, "<=", F(0), f"(4) r={r} i={i}"))
    for i in range(n + 1):
        rows.append(Constraint(tuple((v[mechanism_var(i, j)], F(1)) for j in range(n + 1)), "=", F(1), f"(5) i={i}"))
    return LinearProgram(names, bayesian_lp(user, a).objective, tuple(rows), "grs2009 (2)-(6) as printed")


def _row_key(c: Constraint) -> tuple:
    return (tuple(sorted(c.coeffs)), c.sense, c.rhs)


def _implied(rows_of: LinearProgram, row: Constraint, ctx: Context) -> bool:
    """Every point of ``rows_of``'s polytope satisfies ``row`` (min of its slack >= 0, an exact LP optimum)."""
    sign = F(1) if row.sense == ">=" else F(-1)
    lp = LinearProgram(rows_of.names, tuple((j, sign * c) for j, c in row.coeffs), rows_of.rows, "slack")
    return solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False).objective >= sign * row.rhs


@checks("grs2009.lp")
def user_specific_lp(
    ctx: Context,
    r_of: Callable[[int], Sequence[int]] = PRINTED_R,
    i_of: Callable[[int], Sequence[int]] = PRINTED_I,
    readings: Sequence[str] = READINGS,
) -> Findings:
    """grs2009 Section 5: "the following LP whose solution is an optimal mechanism for this user", with the privacy
    rows (3), (4) quantified as printed: for all r in N minus {n} and all i in N.  Per (n, alpha) and reading of the
    missing x_{(n+1)r}: if the printed rows are exactly alpha-DP's rows (Section 2.1: every r in N, i in N minus
    {n}) the LP is the right one for every user; otherwise the uniform-prior, binary-loss user's certified optimum
    of the printed LP is compared with the certified optimum over alpha-DP mechanisms, and its solution is tested
    for alpha-DP; where that user shows nothing, the two polytopes are compared row by row (exact LPs)."""
    rec = Findings("grs2009.lp")
    for n in range(1, 4):
        for a in (F(1, 2), F(1, 3)):
            user = BayesianUser.of([F(1, n + 1)] * (n + 1), binary_loss(n))
            right = bayesian_lp(user, a)
            for beyond in readings:
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=BOUNDED,
                    method="exact LP optima and row-by-row polytope comparison",
                    covers="every user: the printed LP's polytope against the alpha-DP mechanisms with range N",
                    reading=beyond,
                ) as d:
                    lp = printed_lp(user, a, r_of(n), i_of(n), beyond)
                    if {_row_key(c) for c in lp.rows} == {_row_key(c) for c in right.rows}:
                        continue  # the same LP for every user
                    got = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
                    best = solve(right, timeout_s=ctx.solver_timeout, decide_unique=False)
                    x = square_matrix(got.x, n)
                    bad = dp_violations(x, a)
                    if got.objective != best.objective or bad:
                        d.counterexample(
                            f"n={n}, alpha={a}, reading '{beyond}' of x_(n+1)r, uniform prior, binary loss: the "
                            f"printed LP's certified optimum is {got.objective} at X = {linalg.fmt_matrix(x)}"
                            + (f", which is not {a}-DP ({bad[0]})" if bad else "")
                            + f"; the optimum over {a}-DP mechanisms with range N is {best.objective}"
                        )
                        continue
                    same = all(_implied(lp, c, ctx) for c in right.rows) and all(
                        _implied(right, c, ctx) for c in lp.rows
                    )
                    if not same:
                        d.counterexample(f"n={n}, alpha={a}: the printed LP's polytope differs from alpha-DP's")
    rec.note(
        "as printed, (3) and (4) run over r in N minus {n} and i in N: column n has no privacy row, and i = n names "
        "x_(n+1)r, which does not exist (reading 'drop': the row is absent; 'zero': x_(n+1)r = 0, which forces "
        "columns 0..n-1 to 0); Section 2.1's constraint is r in R, i in N minus {n}, the quantifiers swapped"
    )
    return rec


@checks("grs2009.sec5.wd")
def constraint_matrix_well_defined(ctx: Context, lower: Fraction = NIL, upper: Fraction = ONE) -> Findings:
    """grs2009 Section 5: for alpha in (``lower``, ``upper``) = (0, 1), (i) alpha x = y and x = alpha y force x = y
    = 0, and (ii) an alpha-DP pair (x, y) (alpha x <= y <= x / alpha) with one entry 0 has both 0, so a zero entry
    empties its column.  z3 with symbolic alpha (nonlinear), each part one unsat."""
    rec = Findings("grs2009.sec5.wd")
    al, x, y = z3.Reals("alpha x y")
    rng = [al > z3.RealVal(str(lower)), al < z3.RealVal(str(upper)), x >= 0, y >= 0]
    for part, premises, negation in (
        ("down and up at once", [al * x == y, x == al * y], z3.Or(x > 0, y > 0)),
        ("a zero entry forces its neighbour to 0", [al * x <= y, al * y <= x, z3.Or(x == 0, y == 0)], x + y > 0),
    ):
        with rec.deciding(
            n=None,
            alpha=SYMBOLIC_ALPHA,
            kind=ALL_N,
            method="z3 unsat (NRA)",
            part=part,
            covers="every pair of adjacent entries of every feasible mechanism",
        ) as d:
            witnessed(rec, [*rng, *premises], part, ctx.solver_timeout)
            res = decide([*rng, *premises, negation], ctx.solver_timeout)
            if not res.unsat:
                d.counterexample(f"{part}: alpha={res.model[al]}, x={res.model[x]}, y={res.model[y]}")
    return rec


@checks("grs2009.fn4")
def footnote_4(ctx: Context, x: Matrix = FN3_X, user: BayesianUser = FN3_USER) -> Findings:
    """grs2009 footnote 4: some vertices of the user-specific LP are not derivable from G by remapping, and
    "these vertices are not optimal for any user".  G = T(n, alpha) is invertible and T 1 = 1, so X = G Y for a
    stochastic Y iff G^-1 X >= 0 (exact).  The vertex test is the exact rank test, optimality a certified LP
    optimum.  One vertex that is not a remap of G and is optimal for a user with a monotone loss (Section 2.2's
    class) refutes the second sentence at (n, alpha) = (2, 1/2); the same vertex shows the first."""
    rec = Findings("grs2009.fn4")
    n, a = FN3_N, FN3_ALPHA
    g = truncated_geometric(n, a)
    y = linalg.matmul(linalg.inverse(g), x)
    lp = bayesian_lp(user, a)
    vertex = not dp_violations(x, a) and is_vertex(lp, [v for row in x for v in row])
    derivable = all(v >= 0 for row in y for v in row)
    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
    optimal = user.expected_loss(x) == opt.objective
    rec.value(
        **{
            "G^-1 X": linalg.fmt_matrix(y),
            "vertex": str(vertex),
            "optimal": str(optimal),
            "legal loss": str(user.loss.is_legal()),
            "optimum": str(opt.objective),
        }
    )
    covers = "every vertex of the user-specific LP and every user with a monotone loss (one user refutes)"
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="exact G^-1 X, rank test, certified optimum",
        covers="a vertex that is not a remap of G exists",
        part="first sentence",
    ) as d:
        if not (vertex and not derivable):
            d.inconclusive("the candidate is no witness of a non-derivable vertex")
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="exact G^-1 X, rank test, certified optimum",
        covers=covers,
        part="second sentence",
    ) as d:
        if vertex and not derivable and optimal and user.loss.is_legal():
            d.counterexample(
                f"n={n}, alpha={a}: X = {linalg.fmt_matrix(x)} is a vertex of the LP (exact rank test) and no remap of "
                f"G (G^-1 X = {linalg.fmt_matrix(y)} has a negative entry), yet it is optimal (loss {opt.objective}, "
                f"the certified optimum) for the user with prior {list(map(str, user.prior))} and the monotone loss "
                f"{[list(map(str, r)) for r in user.loss.values]}"
            )
        else:
            d.inconclusive("the candidate does not refute the footnote (one instance cannot show it holds)")
    rec.note("grs2011 Appendix B corrects this: its non-derivable vertex is optimal only for an illegal loss")
    return rec
