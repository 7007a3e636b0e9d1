"""gs2010 minimax consumers: universal optimality of G, randomized interactions, Lemmas 5 and 6.

Every optimum here is an exactly certified LP optimum (udpm.certify.solve: exact primal,
exact dual, equal objectives).  Consumers are sampled from ``ctx.rng`` and cover side
information with gaps, singletons, non-symmetric monotone losses with ties, and alphas near
0 and near 1.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import Context, Evidence, Result, Scope, checks, exact_values, refuted, refuted_at, tested, verified
from udpm.mechanisms import truncated_geometric
from udpm.privacy import dp_violations
from udpm.programs_database import (
    DatabaseSpace,
    average_by_count,
    mechanism_rows,
    minimax_lp,
    random_dp_database_mechanism,
)
from udpm.programs_minimax import lexicographic_lp, matrix_of, optimal_interaction_lp, optimal_mechanism_lp
from udpm.remaps import compose, deterministic_remap
from udpm.users import Loss, MinimaxUser, absolute_error, binary_loss, squared_error

ALPHAS = (Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(2, 3), Fraction(99, 100))


def random_monotone_loss(rng: random.Random, n: int) -> Loss:
    """l(i, r) nondecreasing in |i - r| on each side of i, left and right sides independent (so not
    symmetric), with zero increments allowed (ties)."""
    rows = []
    for i in range(n + 1):
        row = [Fraction(0)] * (n + 1)
        for step in (-1, 1):
            v, r = Fraction(0), i + step
            while 0 <= r <= n:
                v += Fraction(rng.choice((0, 0, 1, 2, 3, 5)), rng.choice((1, 2)))
                row[r] = v
                r += step
        rows.append(row)
    return Loss.from_matrix(rows)


def random_consumer(rng: random.Random, n: int) -> MinimaxUser:
    k = rng.randint(1, n + 1)
    s = sorted(rng.sample(range(n + 1), k))
    kind = rng.random()
    loss = random_monotone_loss(rng, n) if kind < 0.7 else rng.choice((absolute_error, binary_loss, squared_error))(n)
    return MinimaxUser.of(s, loss)


def describe(u: MinimaxUser) -> str:
    return f"S={list(u.side_information)}, l={[[str(v) for v in row] for row in u.loss.values]}"


def mechanism_optimum(u: MinimaxUser, a: Fraction, ctx: Context):
    return solve(optimal_mechanism_lp(u, a), timeout_s=ctx.solver_timeout)


def interaction_optimum(u: MinimaxUser, y, ctx: Context):
    return solve(optimal_interaction_lp(u, y), timeout_s=ctx.solver_timeout)


def sample(ctx: Context, claim: str, k: int, n_max: int):
    """Fixed boundary consumers first (S a singleton, S = {0, n}, the binary loss), then random ones."""
    rng = ctx.rng(claim)
    cases = []
    for n in range(1, n_max + 1):
        cases.append((n, Fraction(1, 2), MinimaxUser.of([0, n], absolute_error(n))))
        cases.append((n, Fraction(99, 100), MinimaxUser.of([n], binary_loss(n))))
        cases.append((n, Fraction(1, 100), MinimaxUser.of(range(n + 1), squared_error(n))))
    while len(cases) < k:
        n = rng.randint(1, n_max)
        cases.append((n, rng.choice(ALPHAS), random_consumer(rng, n)))
    return cases[:k]


@checks("gs2010.thm1")
def universal_optimality(ctx: Context, deployed: Callable = truncated_geometric) -> Result:
    """gs2010 Theorem 1(2), Section 4.2: for every minimax consumer the optimal interaction with the
    deployed G_{n,alpha} reaches the optimum of the optimal-mechanism LP (Section 2.5)."""
    k, n_max = (60, 5) if ctx.quick else (600, 7)
    cases = sample(ctx, "gs2010.thm1", k, n_max)
    scope = Scope.of(n_max, ALPHAS, k)
    for n, a, u in cases:
        best = mechanism_optimum(u, a, ctx).objective
        got = interaction_optimum(u, deployed(n, a), ctx)
        if got.objective != best:
            return refuted(
                f"n={n}, alpha={a}, {describe(u)}: optimal interaction with the deployed mechanism loses "
                f"{got.objective}, the optimal alpha-DP mechanism loses {best}",
                Evidence.SAMPLED,
                scope,
                interaction=got.objective,
                optimum=best,
            )
    n, a, u = 3, Fraction(1, 4), MinimaxUser.of(range(4), absolute_error(3))
    best = mechanism_optimum(u, a, ctx)
    inter = interaction_optimum(u, deployed(n, a), ctx)
    values = exact_values(consumers=k, example_optimum=best.objective, example_interaction_optimum=inter.objective)
    values["example (n=3, a=1/4, |i-r|, S=N) optimal T"] = linalg.fmt_matrix(inter.matrix(4, 4))
    return tested(
        scope,
        values,
        certificate=certificate_of(
            {"consumers": k},
            [("Table 1 consumer: optimal mechanism", best), ("Table 1 consumer: optimal interaction with G", inter)],
        ),
        notes="each pair of optima certified exactly (udpm.certify); consumers include S with gaps, singletons, "
        "non-symmetric monotone losses with ties, alpha in {1/100, 99/100}",
    )


def best_deterministic(u: MinimaxUser, y) -> tuple[Fraction, tuple[int, ...]]:
    """The minimum worst-case loss over all (n+1)^(n+1) deterministic remaps of y, exhaustively."""
    n = u.loss.n
    best: tuple[Fraction, tuple[int, ...]] | None = None
    for mapping in itertools.product(range(n + 1), repeat=len(y[0])):
        v = u.worst_case_loss(compose(y, deterministic_remap(mapping, n + 1)))
        if best is None or v < best[0]:
            best = (v, mapping)
    assert best is not None
    return best


@checks("gs2010.randomized")
def randomized_post_processing(
    ctx: Context,
    n: int = 3,
    alpha: Fraction = Fraction(1, 4),
    side_information: tuple[int, ...] = (0, 1, 2, 3),
    loss: Callable[[int], Loss] = absolute_error,
) -> Result:
    """gs2010 Sections 2.7, 4.2 (Table 1's consumer): a minimax consumer for whom every deterministic remap
    of G_{n,alpha} is strictly worse than the optimal randomized interaction."""
    u = MinimaxUser.of(side_information, loss(n))
    g = truncated_geometric(n, alpha)
    opt = interaction_optimum(u, g, ctx)
    det, mapping = best_deterministic(u, g)
    scope = Scope.of(n, [alpha])
    values = exact_values(randomized_optimum=opt.objective, best_deterministic=det, gap=det - opt.objective)
    values["best deterministic remap"] = str(list(mapping))
    values["optimal randomized T"] = linalg.fmt_matrix(opt.matrix(n + 1, n + 1))
    if det <= opt.objective:
        return refuted(
            f"n={n}, alpha={alpha}, {describe(u)}: the deterministic remap {list(mapping)} already reaches "
            f"{det} <= randomized optimum {opt.objective}",
            Evidence.BOUNDED,
            scope,
            **{k: v for k, v in values.items() if k in ("randomized_optimum", "best_deterministic")},
        )
    return verified(
        scope,
        values,
        certificate=certificate_of({"deterministic remaps": (n + 1) ** (n + 1)}, [("optimal interaction", opt)]),
        notes=f"all {(n + 1) ** (n + 1)} deterministic remaps enumerated exactly; the randomized optimum is certified",
    )


def adjacent_row_violation(x, a: Fraction, flip: bool = False) -> str | None:
    """gs2010 Lemma 5's pattern for rows i, i+1: a prefix of columns with a x_ij = x_{i+1,j}, a suffix with
    x_ij = a x_{i+1,j}, and at most one column between.  ``flip`` swaps the two equalities (a false variant)."""
    n = len(x) - 1
    for i in range(n):
        lo = [a * x[i][j] == x[i + 1][j] for j in range(n + 1)]
        hi = [x[i][j] == a * x[i + 1][j] for j in range(n + 1)]
        if flip:
            lo, hi = hi, lo
        p = 0
        while p <= n and lo[p]:
            p += 1
        s = n + 1
        while s > 0 and hi[s - 1]:
            s -= 1
        if s - p > 1:
            return f"rows {i},{i + 1}: columns {list(range(p, s))} lie between the two tight blocks"
    return None


@checks("gs2010.lemma5")
def adjacent_rows(ctx: Context, flip: bool = False) -> Result:
    """gs2010 Lemma 5: some optimal minimax mechanism (the lexicographic (L, L') optimum of its proof) has,
    for every adjacent row pair, a prefix with a x_ij = x_{i+1,j}, a suffix with x_ij = a x_{i+1,j}, and at
    most one column between."""
    k, n_max = (30, 5) if ctx.quick else (400, 7)
    cases = sample(ctx, "gs2010.lemma5", k, n_max)
    scope = Scope.of(n_max, ALPHAS, k)
    certs = []
    for n, a, u in cases:
        first = mechanism_optimum(u, a, ctx)
        best = first.objective
        lex = solve(lexicographic_lp(u, a, best), timeout_s=ctx.solver_timeout)
        if not certs:
            certs = [(f"L* (n={n}, alpha={a})", first), ("(L, L') optimum", lex)]
        x = matrix_of(lex.lp.names, lex.x, n + 1)
        bad = adjacent_row_violation(x, a, flip)
        if bad:
            return refuted(
                f"n={n}, alpha={a}, {describe(u)}: the (L, L') optimum {linalg.fmt_matrix(x)} "
                f"breaks the pattern: {bad}",
                Evidence.SAMPLED,
                scope,
                L=best,
                L_prime=lex.objective,
            )
    return tested(
        scope,
        exact_values(consumers=k),
        certificate=certificate_of({"consumers": k}, certs),
        notes="for each consumer: L* certified, then L' minimised over {L <= L*} and certified; the pattern is "
        "checked on that certified vertex with exact equalities",
    )


def minimax_value(space: DatabaseSpace, x, s, loss: Loss) -> Fraction:
    """gs2010 (5): max over databases d with f(d) in S of sum_r x_dr l(f(d), r)."""
    return max(
        sum((x[d][r] * loss(space.count(d), r) for r in range(space.n + 1)), Fraction(0))
        for d in space.databases
        if space.count(d) in s
    )


SPACES = ((2, 2, (1,)), (2, 3, (1,)), (3, 2, (1,)), (3, 2, (1, 2)))


@checks("gs2010.lemma6")
def oblivious_suffices(ctx: Context, alpha_claimed: Fraction | None = None) -> Result:
    """gs2010 Lemma 6, Appendix A: for objective (5) over D^n some optimal alpha-DP mechanism is oblivious;
    averaging over databases with the same count keeps alpha-DP and does not increase (5).
    ``alpha_claimed`` (default alpha) is the privacy level asserted for the averaged mechanism."""
    rng = ctx.rng("gs2010.lemma6")
    spaces = SPACES if ctx.quick else (*SPACES, (2, 4, (1,)), (3, 3, (1,)))
    trials = 0
    certs: list = []
    for dom, n, pred in spaces:
        space = DatabaseSpace.of(dom, n, pred)
        for _ in range(3 if ctx.quick else 10):
            a = rng.choice(ALPHAS[1:4])
            ac = a if alpha_claimed is None else alpha_claimed
            u = random_consumer(rng, n)
            s = u.side_information
            db = solve(minimax_lp(space, s, u.loss, a), timeout_s=ctx.solver_timeout)
            obl = solve(optimal_mechanism_lp(u, ac), timeout_s=ctx.solver_timeout)
            if not certs:
                certs = [("database-level (5)", db), ("oblivious", obl)]
            where = f"D={dom} values, predicate {list(pred)}, n={n}, alpha={a}, {describe(u)}"
            if obl.objective != db.objective:
                return refuted_at(
                    f"{where}: best database-level (5) is {db.objective} < best oblivious {obl.objective} "
                    f"at alpha={ac}",
                    n,
                    a,
                    database_optimum=db.objective,
                    oblivious_optimum=obl.objective,
                )
            mechanisms = [mechanism_rows(space, db.lp.names, db.x)]
            mechanisms += [random_dp_database_mechanism(rng, space, a) for _ in range(2)]
            for x in mechanisms:
                trials += 1
                xa = average_by_count(space, x)
                bad = dp_violations(xa, ac)
                if bad:
                    return refuted_at(f"{where}: the averaged mechanism is not {ac}-DP: {bad[0]}", n, a)
                before = minimax_value(space, x, s, u.loss)
                after = u.worst_case_loss(xa)
                if after > before:
                    return refuted_at(f"{where}: averaging raised (5) from {before} to {after}", n, a)
    n_max = max(n for _, n, _ in spaces)
    return verified(
        Scope.of(n_max, ALPHAS[1:4], trials),
        exact_values(mechanisms_averaged=trials, database_spaces=len(spaces)),
        certificate=certificate_of({"mechanisms averaged": trials}, certs),
        notes="D^n with |D| in {2, 3} and predicates of 1 or 2 values; database-level LP optimum of (5) equals the "
        "oblivious LP optimum (both certified); averaging the LP optimum and random alpha-DP database mechanisms "
        "keeps alpha-DP and never increases (5)",
    )
