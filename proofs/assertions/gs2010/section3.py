"""gs2010 Section 3: assertions about the three-term condition and deriving mechanisms from G.

Everything is exact: rationals, sympy identities, univariate sign tests by exact real-root isolation, and
exactly certified LPs; each check decides the ends alpha = 0 and 1 as well as the open interval.

- ``gs2010.sec3.neither``: neither the alpha-DP condition nor the three-term condition implies the other.
- ``gs2010.sec3.convex-hull``: deriving M from G means each column of M is in the convex hull of G's columns.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.assertions.gs2010.common import ALPHA, ENDS_AND_INSIDE, INTERIOR, sign_inside
from proofs.boundary.geometric import definition4
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.remaps import compose
from udpm.lp.certify import solve
from udpm.lp.programs import Constraint, LinearProgram

F = Fraction


def section3_condition(x1: object, x2: object, x3: object, a: object) -> object:
    """Section 3's three-term condition as printed: (x2 - a x3) >= a (x1 - a x2); the value must be >= 0."""
    return (x2 - a * x3) - a * (x1 - a * x2)


def _dp_forms(x1: object, x2: object, x3: object, a: object) -> list:
    """Definition 2 on three consecutive entries, each form >= 0 (products, so alpha = 0 is allowed)."""
    return [x2 - a * x1, x1 - a * x2, x3 - a * x2, x2 - a * x3]


def _lp_minimum(objective: sp.Expr, constraints: list[sp.Expr], xs: tuple, timeout: float) -> tuple[Fraction, list]:
    """The exact minimum of a linear form over x >= 0, x1 + x2 + x3 = 1 and each constraint >= 0."""

    def coeffs(e: sp.Expr) -> tuple[tuple[int, Fraction], ...]:
        e = sp.expand(e)
        if e.subs({v: 0 for v in xs}) != 0:
            raise ValueError(f"{e} is not a homogeneous linear form")
        return tuple((k, F(str(e.coeff(v)))) for k, v in enumerate(xs) if e.coeff(v) != 0)

    rows = [Constraint(coeffs(c), ">=", F(0), f"form {k}") for k, c in enumerate(constraints)]
    rows.append(Constraint(tuple((k, F(1)) for k in range(3)), "=", F(1), "x1 + x2 + x3 = 1"))
    lp = LinearProgram(("x1", "x2", "x3"), coeffs(objective), tuple(rows), "gs2010 Section 3")
    got = solve(lp, timeout_s=timeout, decide_unique=False)
    return F(got.objective), list(got.x)


@checks("gs2010.sec3.neither")
def neither_implies_the_other(
    ctx: Context, condition: Callable[..., object] = section3_condition, alphas: Sequence[Fraction] = ENDS_AND_INSIDE
) -> Findings:
    """gs2010 Section 3: "Neither condition implies the other" -- alpha-DP on two consecutive entries of a column
    and the three-term condition on three.  Over non-negative triples (a column of a mechanism), both conditions
    are homogeneous and linear, so at a rational alpha each implication is decided by exactly certified LPs over
    x1 + x2 + x3 = 1; for symbolic alpha in (0, 1) by witness triples whose signs are decided by exact
    real-root isolation."""
    rec = Findings("gs2010.sec3.neither")
    xs = sp.symbols("x1 x2 x3", nonnegative=True)
    # symbolic alpha in (0, 1): a triple each way, entries in {0, 1, a, a^2}
    pool = (sp.Integer(0), sp.Integer(1), ALPHA, ALPHA**2)
    dp_not_cond = cond_not_dp = None
    for tr in itertools.product(pool, repeat=3):
        dp = [sign_inside(f) for f in _dp_forms(*tr, ALPHA)]
        cond = sign_inside(condition(*tr, ALPHA))
        if dp_not_cond is None and all(s in ("0", "+") for s in dp) and cond == "-":
            dp_not_cond = tr
        if cond_not_dp is None and cond in ("0", "+") and "-" in dp:
            cond_not_dp = tr
    with rec.deciding(
        n=None,
        alpha=INTERIOR,
        kind=ALL_N,
        method="witness triples, exact real-root isolation",
        covers="every alpha in (0,1), every n >= 2",
        n_from=2,
    ) as d:  # three consecutive results
        if dp_not_cond is None or cond_not_dp is None:
            d.inconclusive("no witness triple with entries in {0, 1, a, a^2} for one of the two directions")
    if dp_not_cond and cond_not_dp:
        rec.value(
            **{"alpha-DP but not the condition": str(dp_not_cond), "the condition but not alpha-DP": str(cond_not_dp)}
        )
    timeout = ctx.solver_timeout
    for al in alphas:
        dp_at = _dp_forms(*xs, al)
        cond_at = sp.expand(condition(*xs, al))
        with rec.deciding(
            n=None,
            alpha=al,
            kind=ALL_N,
            method="exactly certified LPs over x1 + x2 + x3 = 1",
            covers="every non-negative triple (x1, x2, x3), every n >= 2",
            n_from=2,
        ) as d:
            low, _ = _lp_minimum(cond_at, dp_at, xs, timeout)
            if low >= 0:
                d.counterexample(
                    f"alpha = {al}: alpha-DP implies the condition: over every non-negative triple with "
                    f"x1 + x2 + x3 = 1 that is alpha-DP, the least value of the condition is {low} >= 0 "
                    f"(certified LP; both conditions are homogeneous)"
                )
                continue
            lows = [_lp_minimum(f, [cond_at], xs, timeout)[0] for f in dp_at]
            if min(lows) >= 0:
                d.counterexample(
                    f"alpha = {al}: the condition implies alpha-DP: over every non-negative triple with "
                    f"x1 + x2 + x3 = 1 that meets the condition, the least value of each alpha-DP form is "
                    f"{', '.join(map(str, lows))} >= 0 (certified LPs)"
                )
    rec.note(
        "gs2010 fixes alpha in [0, 1] (Section 2.1); at alpha = 0 every non-negative triple is 0-DP, so the "
        "condition implies privacy; at alpha = 1 privacy forces x1 = x2 = x3, where the condition holds"
    )
    return rec


@checks("gs2010.sec3.convex-hull")
def convex_hull(
    ctx: Context,
    hull: str = "convex",
    sizes: Sequence[int] = (1, 2, 3, 4),
    alphas: Sequence[Fraction] = (F(0), F(1, 4), F(1, 2), F(1)),
) -> Findings:
    """gs2010 Section 3: "deriving M from G_{n,alpha} amounts to proving that each column of M lies in the convex
    hull of the columns of G_{n,alpha}" (and, in Theorem 2's proof, "each column of M is actually a convex
    combination of columns of G").  M = G T with T stochastic puts column j of M at G t_j with t_j >= 0, a point
    of the cone of G's columns; t_j sums to 1 only by chance.  Witness: T re-reads every output as 0, so M = G T
    answers 0 always, derivable, and its column 0 is all ones; a convex combination of G's columns has entry sum at
    most G's largest column sum, which is below n + 1 (exact).  ``hull="cone"`` decides the cone instead."""
    rec = Findings("gs2010.sec3.convex-hull")
    for n in sizes:
        for al in alphas:
            g = definition4(n + 1, al)
            t = [[F(int(c == 0)) for c in range(n + 1)] for _ in range(n + 1)]
            m = compose(g, t)
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact column sums (Farkas: the sum of the rows)",
                covers="the derivable mechanism that always answers 0",
            ) as d:
                column = [row[0] for row in m]
                if hull == "cone":
                    if linalg.matmul(g, [[r[0]] for r in t]) != [[v] for v in column]:
                        d.inconclusive("G t_0 differs from column 0")
                    continue
                sums = [sum(g[i][j] for i in range(n + 1)) for j in range(n + 1)]
                if max(sums) < n + 1 and all(v == 1 for v in column):
                    d.counterexample(
                        f"n = {n}, alpha = {al}: M = G T with T = every output re-read as 0 (stochastic) always "
                        f"answers 0, so M is derivable and its column 0 is all ones (entry sum {n + 1}); every "
                        f"convex combination of G's columns has entry sum at most max column sum {max(sums)} < {n + 1}"
                    )
    return rec
