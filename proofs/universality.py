"""Universal optimality for Bayesian users (grs2011 Sections 2.3, 3, 5; grs2009 Theorems 3.1, 6.1).

Every verdict compares two exact numbers for a user u = (prior p, loss l):

* lambda(u): the optimum of the user-specific LP (3)-(7) over all alpha-DP
  mechanisms with range N, certified by :func:`udpm.certify.solve` (primal
  vertex, exact dual, equal objectives; HiGHS only proposes a basis);
* mu_X(u): the loss of mechanism X under its best remap, computed exactly
  output by output (the Bayes remap: for each output r, the j minimising
  sum_i p_i x_ir l(i, j); ties to the smallest j).

X is optimal for u iff mu_X(u) = lambda(u).  Users are adversarial (priors
with zeros and point masses, losses with ties, binary loss, squared error,
per-i different loss profiles g_i, 0/1 threshold losses), exhaustive on
finite grids where those exist, and sampled from ``ctx.rng``.  Alphas include
1/100 and 99/100.  Scopes are bounded: every n <= n_max at the listed alphas.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction as F
from functools import lru_cache

import sympy

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import Certified, column_label, is_vertex, sign_of, solve, split_coefficient, vertex_reduced_costs
from udpm.claims import Context, Result, Scope, Status, checks, exact_values, refuted_at, verified
from udpm.mechanisms import geometric_tail, geometric_window, truncated_geometric
from udpm.privacy import dp_violations
from udpm.programs import (
    Constraint,
    LinearProgram,
    bayesian_lp,
    objective_value,
    violated_constraint,
)
from udpm.remaps import compose, deterministic_remap, posterior_loss
from udpm.users import BayesianUser, Loss, absolute_error, binary_loss, power_loss, squared_error, weighted

Matrix = list[list[F]]
ALPHAS = (F(1, 100), F(1, 3), F(1, 2), F(99, 100))
ALPHAS_FULL = (*ALPHAS, F(1, 10), F(2, 3), F(9, 10))


def alphas(ctx: Context) -> tuple[F, ...]:
    return ALPHAS if ctx.quick else ALPHAS_FULL


# ---------------------------------------------------------------- users


def legal_loss(g: Sequence[Sequence[object]]) -> Loss:
    """l(i, j) = g_i(|j - i|): legal when each g_i is nondecreasing (grs2011 Section 2.2)."""
    n = len(g) - 1
    return Loss.from_function(n, lambda i, j: g[i][abs(i - j)])


def random_prior(rng, n: int, zeros: bool = True) -> list[F]:
    while True:
        w = [rng.randint(0 if zeros else 1, 4) for _ in range(n + 1)]
        if sum(w):
            return [F(x, sum(w)) for x in w]


def random_legal_g(rng, n: int) -> list[list[int]]:
    """Per-i nondecreasing profiles with many ties (increments 0 are likely)."""
    g = []
    for _ in range(n + 1):
        v = rng.choice((0, 0, 1))
        row = [v]
        for _ in range(n):
            v += rng.choice((0, 0, 1, 2, 5))
            row.append(v)
        g.append(row)
    return g


def adversarial_users(n: int) -> list[tuple[str, BayesianUser]]:
    """Boundary cases: zeros in the prior, ties in the loss, non-strict and per-i different losses."""
    uni = [F(1, n + 1)] * (n + 1)
    ends = [F(1, 2) if i in (0, n) else F(0) for i in range(n + 1)]
    alt = [F(1) if i % 2 == 0 else F(0) for i in range(n + 1)]
    alt = [x / sum(alt) for x in alt]
    point = [F(int(i == n // 2)) for i in range(n + 1)]
    step = legal_loss([[0] + [1 if d < 2 else 3 for d in range(1, n + 1)] for _ in range(n + 1)])
    per_i = legal_loss([[0] + [(i + 1) * d * d if i % 2 else d for d in range(1, n + 1)] for i in range(n + 1)])
    flat_far = legal_loss(
        [[0] + [min(d, 1) for d in range(1, n + 1)] if i == 0 else list(range(n + 1)) for i in range(n + 1)]
    )
    out = [
        ("uniform, |i-j|", BayesianUser.of(uni, absolute_error(n))),
        ("uniform, (i-j)^2", BayesianUser.of(uni, squared_error(n))),
        ("uniform, binary", BayesianUser.of(uni, binary_loss(n))),
        ("p_0=p_n=1/2, binary", BayesianUser.of(ends, binary_loss(n))),
        ("alternating zeros, |i-j|", BayesianUser.of(alt, absolute_error(n))),
        ("point mass, (i-j)^2", BayesianUser.of(point, squared_error(n))),
        ("uniform, step loss with ties", BayesianUser.of(uni, step)),
        ("alternating zeros, per-i losses", BayesianUser.of(alt, per_i)),
        ("uniform, row 0 flat beyond 1", BayesianUser.of(uni, flat_far)),
        ("uniform, zero loss", BayesianUser.of(uni, legal_loss([[0] * (n + 1)] * (n + 1)))),
    ]
    return out


def irrational_loss_user() -> tuple[str, BayesianUser]:
    """n = 2, uniform prior, l(i, j) = |i-j|^1.5: a legal loss with irrational values (exact sympy arithmetic)."""
    return ("uniform, |i-j|^1.5", BayesianUser.of([F(1, 3)] * 3, power_loss(2, sympy.Rational(3, 2))))


def random_users(rng, n: int, k: int) -> list[tuple[str, BayesianUser]]:
    return [
        (f"random #{t}", BayesianUser.of(random_prior(rng, n), legal_loss(random_legal_g(rng, n)))) for t in range(k)
    ]


def prior_grid(n: int, denom: int) -> Iterator[list[F]]:
    """Every prior on 0..n with entries in (1/denom)Z, zeros included."""
    for c in itertools.product(range(denom + 1), repeat=n + 1):
        if sum(c) == denom:
            yield [F(x, denom) for x in c]


def threshold_losses(n: int) -> Iterator[Loss]:
    """Every 0/1 legal loss: l(i, j) = [|j-i| >= t_i], t_i in 0..n+1."""
    for ts in itertools.product(range(n + 2), repeat=n + 1):
        yield legal_loss([[int(d >= ts[i]) for d in range(n + 1)] for i in range(n + 1)])


def describe(user: BayesianUser) -> str:
    p = linalg.fmt_vector(user.prior)
    rows = "[" + ", ".join("[" + ", ".join(str(v) for v in r) + "]" for r in user.loss.values) + "]"
    return f"prior {p}, loss {rows}"


# ---------------------------------------------------------------- lambda and mu


def _less(a: object, b: object) -> bool:
    if isinstance(a, F) and isinstance(b, F):
        return a < b
    return sign_of(split_coefficient(sympy.sympify(a) - sympy.sympify(b))) < 0


def best_remap(x: Sequence[Sequence[F]], user: BayesianUser) -> tuple[object, list[int]]:
    """mu_X(u) and the Bayes remap (grs2011 Section 2.3), exactly; ties go to the smallest j."""
    n = user.n
    total: object = F(0)
    mapping = []
    for r in range(len(x[0])):
        best_j, best = 0, None
        for j in range(n + 1):
            c = posterior_loss(x, user, r, j)
            if best is None or _less(c, best):
                best_j, best = j, c
        mapping.append(best_j)
        total = total + best
    return (sympy.expand(total) if isinstance(total, sympy.Expr) else total), mapping


def expected_loss(user: BayesianUser, z: Sequence[Sequence[F]]) -> object:
    """(2) with the identity remap, exactly (sympy.expand for irrational losses, never nsimplify)."""
    total: object = F(0)
    for i, row in enumerate(z):
        for j, v in enumerate(row):
            w = user.prior[i] * v
            if w:
                total = total + weighted(w, user.loss(i, j))
    return sympy.expand(total) if isinstance(total, sympy.Expr) else total


@lru_cache(maxsize=4096)
def optimum(user: BayesianUser, alpha: F, timeout_s: float, unique: bool = False) -> Certified:
    """lambda(u): the certified optimum of the user-specific LP (3)-(7)."""
    return solve(bayesian_lp(user, alpha), timeout_s=timeout_s, decide_unique=unique)


def same(a: object, b: object) -> bool:
    return not _less(a, b) and not _less(b, a)


def flat(x: Sequence[Sequence[F]]) -> list[F]:
    return [v for row in x for v in row]


# ---------------------------------------------------------------- mechanisms with a remap to T


def geometric_lumped(n: int, a: F, k: int = 2) -> Matrix:
    """The alpha-geometric mechanism on outputs -k..n+k with the two tails lumped into end outputs.

    For outputs r <= -k-1 the posterior is proportional to p_i a^i for every r (the same for all
    such r), likewise for r >= n+k+1, so the Bayes remap is constant on each tail: lumping the
    tails changes no user's best loss.  Columns: [tail<-k, -k..n+k, tail>n+k]."""
    w = geometric_window(n, a, -k, n + k)
    return [[geometric_tail(k + 1 + i, a)] + w[i] + [geometric_tail(n + k + 1 - i, a)] for i in range(n + 1)]


def split_output(x: Matrix, r: int, q: F) -> Matrix:
    """X with output r split into two outputs with probabilities q and 1-q (merging them restores X)."""
    return [[*row[:r], row[r] * q, row[r] * (1 - q), *row[r + 1 :]] for row in x]


def mechanisms_with_remap_to_t(n: int, a: F) -> list[tuple[str, Matrix]]:
    t = truncated_geometric(n, a)
    perm = deterministic_remap([(j + 1) % (n + 1) for j in range(n + 1)], n + 1)
    return [
        ("T", t),
        ("geometric (tails lumped)", geometric_lumped(n, a)),
        ("T with output 0 split 1/3:2/3", split_output(t, 0, F(1, 3))),
        ("T with outputs cyclically permuted", compose(t, perm)),
    ]


# ---------------------------------------------------------------- the universality core


def check_universal(
    mechs: Sequence[tuple[str, Matrix]], users: Sequence[tuple[str, BayesianUser]], a: F, ctx: Context
) -> tuple[str | None, list[tuple[str, Certified]], int]:
    """For each mechanism and user: mu_X(u) = lambda(u).  Returns (counterexample, certificates, count)."""
    certs: list[tuple[str, Certified]] = []
    count = 0
    for ulabel, user in users:
        lam = optimum(user, a, ctx.solver_timeout)
        if len(certs) < 2:
            certs.append((f"{ulabel}, n={user.n}, alpha={a}", lam))
        for mlabel, x in mechs:
            mu, mapping = best_remap(x, user)
            count += 1
            if not same(mu, lam.objective):
                return (
                    (
                        f"n={user.n}, alpha={a}, mechanism {mlabel}: best remap {mapping} loses {mu} but the "
                        f"certified optimum is {lam.objective}; user {ulabel}: {describe(user)}"
                    ),
                    certs,
                    count,
                )
    return None, certs, count


# ---------------------------------------------------------------- grs2011.lp


def rr_mechanism(n: int, beta: F) -> Matrix:
    """Randomized response on 0..n: the true result with probability beta, the others uniformly."""
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


def lp_test_points(n: int, a: F, rng) -> list[tuple[str, Matrix]]:
    t = truncated_geometric(n, a)
    edge = 1 / (1 + n * a)  # randomized response is a-DP exactly up to beta = 1/(1 + n a)
    pts = [
        ("T", t),
        ("identity", linalg.identity(n + 1)),
        ("RR at the DP boundary", rr_mechanism(n, edge)),
        ("RR just past the DP boundary", rr_mechanism(n, edge + (1 - edge) / 1000)),
        ("RR(alpha^2 boundary)", rr_mechanism(n, 1 / (1 + n * a * a))),
    ]
    for s in range(4):
        y = [[F(rng.randint(0, 3)) for _ in range(n + 1)] for _ in range(n + 1)]
        for row in y:
            if not sum(row):
                row[0] = F(1)
        y = [[v / sum(row) for v in row] for row in y]
        pts.append((f"T·Y random #{s}", compose(t, y)))
    return pts


@checks("grs2011.lp")
def user_specific_lp(ctx: Context, builder: Callable[[BayesianUser, F], LinearProgram] = bayesian_lp) -> Result:
    """grs2011 Section 5.2, LP (3)-(7): its feasible points are exactly the alpha-DP mechanisms with range N,
    its objective is the expected loss (2), and its optimal solutions are direct mechanisms."""
    rng = ctx.rng("grs2011.lp")
    n_max = 4 if ctx.quick else 6
    checked = 0
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            users = adversarial_users(n)[:4] + random_users(rng, n, 2)
            lp = builder(users[0][1], a)
            for label, x in lp_test_points(n, a, rng):
                checked += 1
                feasible = violated_constraint(lp, flat(x)) is None
                dp = not dp_violations(x, a)
                if feasible != dp:
                    why = "LP-feasible but not alpha-DP" if feasible else "alpha-DP but LP-infeasible"
                    v = dp_violations(x, a)
                    return refuted_at(
                        f"n={n}, alpha={a}: {label} {linalg.fmt_matrix(x)} is {why}" + (f" ({v[0]})" if v else ""), n, a
                    )
                for ulabel, user in users:
                    ulp = builder(user, a)
                    if objective_value(ulp, flat(x)) != expected_loss(user, x):
                        return refuted_at(
                            f"n={n}, alpha={a}: LP objective at {label} differs from (2) for {ulabel}", n, a
                        )
            for ulabel, user in users:
                opt = solve(builder(user, a), timeout_s=ctx.solver_timeout, decide_unique=False)
                if len(certs) < 2:
                    certs.append((f"{ulabel}, n={n}, alpha={a}", opt))
                z = opt.matrix(n + 1, n + 1)
                mu, mapping = best_remap(z, user)
                if mu != expected_loss(user, z):
                    return refuted_at(
                        f"n={n}, alpha={a}: LP optimum for {ulabel} is not direct: remap {mapping} "
                        f"gives {mu} < {expected_loss(user, z)}",
                        n,
                        a,
                    )
    return verified(
        Scope.of(n_max, alphas(ctx), checked),
        exact_values(mechanisms_checked=checked),
        notes="feasible <=> alpha-DP and stochastic on T, identity, randomized response on both sides "
        "of the DP boundary and random remaps of T; objective = (2); certified optima are direct",
        certificate=certificate_of({"claim": "user_specific_lp"}, certs[:2]),
    )


# ---------------------------------------------------------------- grs2011.bayes-remap


def remap_lp(x: Matrix, user: BayesianUser) -> LinearProgram:
    """The optimal (randomized) remap of X for u as an LP in y_rj: min sum_r sum_j y_rj sum_i p_i x_ir l(i,j)."""
    n, rr = user.n, len(x[0])
    names = tuple(f"y[{r},{j}]" for r in range(rr) for j in range(n + 1))
    obj = []
    for r in range(rr):
        for j in range(n + 1):
            c = posterior_loss(x, user, r, j)
            if c != 0:
                obj.append((r * (n + 1) + j, c))
    rows = tuple(
        Constraint(tuple((r * (n + 1) + j, F(1)) for j in range(n + 1)), "=", F(1), f"row {r}") for r in range(rr)
    )
    return LinearProgram(names, tuple(obj), rows, "optimal remap")


def map_remap(x: Matrix, user: BayesianUser) -> tuple[object, list[int]]:
    """A wrong rule for the false variant: remap r to the maximum-posterior result (ignores the loss)."""
    mapping = [max(range(user.n + 1), key=lambda i: (user.prior[i] * x[i][r], -i)) for r in range(len(x[0]))]
    y = deterministic_remap(mapping, user.n + 1)
    return expected_loss(user, compose(x, y)), mapping


@checks("grs2011.bayes-remap")
def bayes_remap_optimal(ctx: Context, rule: Callable = best_remap) -> Result:
    """grs2011 Section 2.3: the deterministic Bayes-posterior remap is optimal among all randomized remaps
    (the remap LP's certified optimum equals the Bayes remap's loss)."""
    rng = ctx.rng("grs2011.bayes-remap")
    n_max = 3 if ctx.quick else 5
    count = 0
    certs = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            mechs = [(m, x) for m, x in mechanisms_with_remap_to_t(n, a)] + lp_test_points(n, a, rng)[1:3]
            users = adversarial_users(n) + random_users(rng, n, 3)
            if n == 2:
                users.append(irrational_loss_user())
            for mlabel, x in mechs:
                for ulabel, user in users:
                    count += 1
                    lp = remap_lp(x, user)
                    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
                    got, mapping = rule(x, user)
                    if len(certs) < 2:
                        certs.append((f"remap LP: {mlabel}, {ulabel}, n={n}, alpha={a}", opt))
                    if not same(got, opt.objective):
                        return refuted_at(
                            f"n={n}, alpha={a}, mechanism {mlabel}: remap {mapping} loses {got}, the "
                            f"optimal randomized remap {opt.objective}; user {ulabel}: {describe(user)}",
                            n,
                            a,
                        )
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(pairs_checked=count),
        certificate=certificate_of({"pairs": count}, certs[:2]),
        notes="mechanisms: T, lumped geometric, split and permuted T, identity, randomized response; "
        "users adversarial + random (+ |i-j|^1.5 at n=2)",
    )


# ---------------------------------------------------------------- grs2011.lemma5.2


def truncate_remap(x: Matrix, user: BayesianUser) -> tuple[object, list[int]]:
    """A wrong remap for the false variant: clamp outputs into 0..n (columns are read as -k..n+k for wide X)."""
    n = user.n
    k = (len(x[0]) - (n + 1)) // 2
    mapping = [min(max(r - k, 0), n) for r in range(len(x[0]))]
    return expected_loss(user, compose(x, deterministic_remap(mapping, n + 1))), mapping


@checks("grs2011.lemma5.2")
def direct_mechanisms_suffice(ctx: Context, remap_rule: Callable = best_remap) -> Result:
    """grs2011 Lemma 5.2: for every alpha-DP X and user u, Z = Y o X (Y an optimal remap) is alpha-DP with range
    N, direct for u (its identity remap is optimal), and has the same loss as X."""
    rng = ctx.rng("grs2011.lemma5.2")
    n_max = 3 if ctx.quick else 5
    count = 0
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            t = truncated_geometric(n, a)
            wide = [[F(rng.randint(0, 2)) for _ in range(n + 4)] for _ in range(n + 1)]
            for row in wide:
                row[0] += 1
            wide = [[v / sum(row) for v in row] for row in wide]
            mechs = [
                ("geometric window -1..n+1 (lumped)", geometric_lumped(n, a, 1)),
                ("T·W, W random (n+1)x(n+4)", compose(t, wide)),
                ("randomized response", rr_mechanism(n, 1 / (1 + n * a))),
            ]
            for mlabel, x in mechs:
                for ulabel, user in adversarial_users(n) + random_users(rng, n, 3):
                    count += 1
                    mu, _ = best_remap(x, user)
                    _, mapping = remap_rule(x, user)
                    z = compose(x, deterministic_remap(mapping, n + 1))
                    mu_z, zmap = best_remap(z, user)
                    where = f"n={n}, alpha={a}, X={mlabel}, user {ulabel}: {describe(user)}"
                    if dp_violations(z, a):
                        return refuted_at(f"{where}: Z = Y o X is not alpha-DP", n, a)
                    if expected_loss(user, z) != mu or mu_z != mu:
                        return refuted_at(
                            f"{where}: Z = Y o X with Y={mapping} has identity loss "
                            f"{expected_loss(user, z)} but X's optimal loss is {mu} (Z's best remap "
                            f"{zmap} gives {mu_z}): Z is not direct",
                            n,
                            a,
                        )
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(pairs_checked=count),
        notes="X ranges over the geometric mechanism (tails lumped), random remaps of T to wider ranges "
        "and randomized response; Z is checked alpha-DP, direct and loss-preserving exactly",
    )


# ---------------------------------------------------------------- grs2011.lemma5.7


def two_optimal_points(n: int, a: F) -> tuple[BayesianUser, Matrix, Matrix]:
    """A user with two distinct optimal mechanisms: p_0 = p_n = 1/2, binary loss, n even -- the middle
    output of T can be remapped to 0 or to n at equal loss."""
    user = BayesianUser.of([F(1, 2) if i in (0, n) else F(0) for i in range(n + 1)], binary_loss(n))
    t = truncated_geometric(n, a)
    lo = [0 if r <= n // 2 else n for r in range(n + 1)]
    hi = [0 if r < n // 2 else n for r in range(n + 1)]
    return user, compose(t, deterministic_remap(lo, n + 1)), compose(t, deterministic_remap(hi, n + 1))


@checks("grs2011.lemma5.7")
def optimal_vertex_exists(ctx: Context, every_optimum: bool = False) -> Result:
    """grs2011 Lemma 5.7: for every user some optimal (direct) mechanism is a vertex of (3)-(7); the certified
    optimum is checked to be a vertex by the rank of its tight constraints.  (False variant ``every_optimum``:
    "every optimal mechanism is a vertex", refuted by a midpoint of two optima.)"""
    rng = ctx.rng("grs2011.lemma5.7")
    n_max = 4 if ctx.quick else 6
    count = 0
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            for ulabel, user in adversarial_users(n) + random_users(rng, n, 2):
                lp = bayesian_lp(user, a)
                opt = optimum(user, a, ctx.solver_timeout)
                if len(certs) < 2:
                    certs.append((f"{ulabel}, n={n}, alpha={a}", opt))
                count += 1
                if not is_vertex(lp, opt.x):
                    return refuted_at(f"n={n}, alpha={a}: the certified optimum for {ulabel} is not a vertex", n, a)
            if every_optimum and n % 2 == 0:
                user, z1, z2 = two_optimal_points(n, a)
                lam = optimum(user, a, ctx.solver_timeout).objective
                mid = [[(u + v) / 2 for u, v in zip(r1, r2)] for r1, r2 in zip(z1, z2)]
                if expected_loss(user, mid) == lam and not is_vertex(bayesian_lp(user, a), flat(mid)):
                    return refuted_at(
                        f"n={n}, alpha={a}: user {describe(user)}: the optimal mechanism "
                        f"{linalg.fmt_matrix(mid)} (loss {lam}) is not a vertex",
                        n,
                        a,
                    )
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(users_checked=count),
        notes="certified optimal basic solutions are vertices (rank of tight constraints = #variables)",
        certificate=certificate_of({"claim": "optimal_vertex_exists"}, certs[:2]),
    )


# ---------------------------------------------------------------- grs2011.cor3.3 / lemma5.11 / grs2009.thm3.1


def universality_scan(
    ctx: Context, claim: str, mechs_of: Callable[[int, F], list[tuple[str, Matrix]]], grids: bool
) -> Result:
    rng = ctx.rng(claim)
    n_max = 3 if ctx.quick else 5
    total, certs = 0, []
    grid_note = ""
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            users = adversarial_users(n) + random_users(rng, n, 4 if ctx.quick else 12)
            cex, cs, cnt = check_universal(mechs_of(n, a), users, a, ctx)
            total += cnt
            certs += cs
            if cex:
                return refuted_at(cex, n, a)
    if grids:
        # Exhaustive finite grids: every prior in (1/2)Z on {0,1,2} x every 0/1 legal loss (n = 2).
        n, a = 2, F(1, 2)
        users = [
            (f"grid prior {linalg.fmt_vector(p)}", BayesianUser.of(p, loss))
            for p in prior_grid(n, 2)
            for loss in threshold_losses(n)
        ]
        if not ctx.quick:
            users += [
                (f"grid prior {linalg.fmt_vector(p)}", BayesianUser.of(p, loss))
                for p in prior_grid(n, 3)
                for loss in threshold_losses(n)
            ]
        for a in (F(1, 2), F(99, 100)) if ctx.quick else alphas(ctx):
            cex, _, cnt = check_universal(mechs_of(n, a), users, a, ctx)
            total += cnt
            if cex:
                return refuted_at(cex, n, a)
        grid_note = (
            f"; exhaustive grid at n=2: every prior with entries in {{0,1/2,1}}"
            f"{' and thirds' if not ctx.quick else ''} x all 64 0/1 legal losses"
        )
    return verified(
        Scope.of(n_max, alphas(ctx), total),
        exact_values(user_mechanism_pairs=total),
        certificate=certificate_of({"pairs": total}, certs[:2]),
        notes="mu_X(u) = certified LP optimum for adversarial users (zeros in the prior, ties, binary, "
        f"squared, per-i losses) and random legal users{grid_note}",
    )


def cor33_mechanisms(n: int, a: F) -> list[tuple[str, Matrix]]:
    return [("T", truncated_geometric(n, a)), ("geometric (tails lumped)", geometric_lumped(n, a))]


@checks("grs2011.cor3.3")
def geometric_universal(
    ctx: Context, mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = cor33_mechanisms
) -> Result:
    """grs2011 Corollary 3.3: the alpha-geometric and truncated alpha-geometric mechanisms are universally
    utility-maximizing: for every user their best remap attains the optimum of LP (3)-(7)."""
    return universality_scan(ctx, "grs2011.cor3.3", mechanisms, grids=True)


@checks("grs2011.lemma5.11")
def remap_to_t_universal(
    ctx: Context, mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = mechanisms_with_remap_to_t
) -> Result:
    """grs2011 Lemma 5.11: if Y o X = T then X is universally utility-maximizing, for ALL priors (zeros allowed)
    and all legal (not necessarily strict) losses -- exactly where the limit argument is needed."""
    return universality_scan(ctx, "grs2011.lemma5.11", mechanisms, grids=True)


@checks("grs2009.thm3.1")
def geometric_minimizes_every_loss(
    ctx: Context, mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = cor33_mechanisms
) -> Result:
    """grs2009 Theorem 3.1: y^u o x^G minimizes u's expected loss over all oblivious alpha-DP mechanisms with
    range N, for every prior and monotone loss (nondecreasing in |i-r|, read as depending on |i-r|)."""
    res = universality_scan(ctx, "grs2009.thm3.1", mechanisms, grids=False)
    if res.status is not Status.VERIFIED:
        return res
    # The asymmetric reading (monotone on each side of i, gs2010-style) is outside grs2011's legal losses.
    rng = ctx.rng("grs2009.thm3.1/asymmetric")
    found = None
    tried = 0
    for n in (2, 3):
        for a in alphas(ctx):
            for _ in range(12 if ctx.quick else 40):
                g_left, g_right = random_legal_g(rng, n), random_legal_g(rng, n)
                loss = Loss.from_matrix(
                    [
                        [gl[i - j] if j < i else gr[j - i] for j in range(n + 1)]
                        for i, (gl, gr) in enumerate(zip(g_left, g_right))
                    ]
                )
                user = BayesianUser.of(random_prior(rng, n), loss)
                tried += 1
                lam = optimum(user, a, ctx.solver_timeout).objective
                mu, mapping = best_remap(truncated_geometric(n, a), user)
                if mu != lam:
                    found = f"n={n}, alpha={a}: T's best remap {mapping} loses {mu} > optimum {lam}; {describe(user)}"
                    break
            if found:
                break
        if found:
            break
    res.values["asymmetric_monotone_losses_tried"] = str(tried)
    res.values["asymmetric_counterexample"] = found or "none"
    res.notes += "; asymmetric reading (l monotone on each side of i, not symmetric): " + (
        f"T is NOT optimal for some such user: {found}" if found else f"no counterexample in {tried}"
    )
    return res


# ---------------------------------------------------------------- grs2011.lemma5.12


def gamma_user(n: int, gamma: F) -> BayesianUser:
    """grs2011 Lemma 5.12's user: uniform prior, l(i, j) = 0 if i = j, else 1 + gamma |j - i|."""
    return BayesianUser.of(
        [F(1, n + 1)] * (n + 1), Loss.from_function(n, lambda i, j: 0 if i == j else 1 + gamma * abs(i - j))
    )


def gamma_interval(n: int, a: F, timeout_s: float) -> tuple[F | None, F | None, list[str]]:
    """Exact parametric analysis at the nondegenerate vertex T: reduced costs are d0 + gamma d1, so T is optimal
    iff gamma in [L, U] and uniquely optimal iff gamma in (L, U) (at an end a nonbasic column with zero reduced
    cost can enter with a positive step, since every basic value of T is positive).  None = unbounded."""
    N = n + 1
    user = gamma_user(n, F(0))
    lp = bayesian_lp(user, a)
    c0 = [(i * N + j, F(1, N)) for i in range(N) for j in range(N) if i != j]
    c1 = [(i * N + j, F(abs(i - j), N)) for i in range(N) for j in range(N) if i != j]
    nonbasic, (d0, d1) = vertex_reduced_costs(lp, flat(truncated_geometric(n, a)), [c0, c1], timeout_s=timeout_s)
    lo = hi = None
    stuck = []
    for j, x0, x1 in zip(nonbasic, d0, d1):
        if x1 > 0:
            lo = -x0 / x1 if lo is None else max(lo, -x0 / x1)
        elif x1 < 0:
            hi = -x0 / x1 if hi is None else min(hi, -x0 / x1)
        elif x0 <= 0:
            stuck.append(f"{column_label(lp, j)} (reduced cost {x0} for every gamma)")
    return lo, hi, stuck


@checks("grs2011.lemma5.12")
def unique_optimum_user(
    ctx: Context,
    loss_of: Callable[[int, F], BayesianUser] = gamma_user,
    gammas: Sequence[F] = (F(0), F(1, 1000), F(1, 10), F(1), F(10)),
) -> Result:
    """grs2011 Lemma 5.12: for the uniform prior and l(i,j) = 1 + gamma|j-i| (i != j), gamma small, T is the unique
    optimal direct mechanism.  Exactly: the set of gamma where T is uniquely optimal, per (n, alpha), cross-checked
    by certified solves at sample gammas (some not small)."""
    n_max = 4 if ctx.quick else 7
    vals: dict[str, object] = {}
    failures = []
    count = 0
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            lo, hi, stuck = gamma_interval(n, a, ctx.solver_timeout)
            key = f"n={n},alpha={a}"
            if stuck or not (lo is not None and lo < 0) or (hi is not None and hi <= 0):
                return refuted_at(
                    f"{key}: T is not the unique optimum for any small gamma > 0 (interval ({lo}, {hi}), {stuck[:1]})",
                    n,
                    a,
                )
            vals[f"gamma_max[{key}]"] = "oo" if hi is None else hi
            t = truncated_geometric(n, a)
            for g in (*gammas, hi) if hi is not None else gammas:  # gamma_max itself: optimal, not unique
                user = loss_of(n, g)
                opt = optimum(user, a, ctx.solver_timeout, unique=True)
                if len(certs) < 2 and opt.unique:
                    certs.append((f"Lemma 5.12 user, gamma={g}, n={n}, alpha={a}", opt))
                count += 1
                t_loss = expected_loss(user, t)
                inside = hi is None or g < hi
                t_unique = opt.unique and list(opt.x) == flat(t)
                if inside and not t_unique:
                    return refuted_at(
                        f"{key}, gamma={g}: T (loss {t_loss}) is not the unique optimum: certified optimum "
                        f"{opt.objective}, unique={opt.unique}; user {describe(user)}",
                        n,
                        a,
                    )
                if not inside:
                    failures.append(
                        f"{key}, gamma={g} >= {hi}: optimum {opt.objective} < T's {t_loss}"
                        if opt.objective != t_loss
                        else f"{key}, gamma={g}: T optimal, not unique"
                    )
                    if (g > hi and not opt.objective < t_loss) or (g == hi and (opt.objective != t_loss or opt.unique)):
                        return refuted_at(
                            f"{key}, gamma={g}: the parametric analysis (T optimal iff gamma <= {hi}, unique iff <) "
                            f"disagrees with the certified optimum {opt.objective}, unique={opt.unique}",
                            n,
                            a,
                        )
    vals["gammas_failing_T"] = str(len(failures))
    # n = 2 in closed form: gamma_max = (1-a)/(a^2+a-1) when a^2+a-1 > 0 (a > (sqrt 5 - 1)/2), else oo.
    grid = [F(k, 100) for k in range(1, 100)] + [F(999, 1000)]
    for a in grid:
        hi = gamma_interval(2, a, ctx.solver_timeout)[1]
        formula = (1 - a) / (a * a + a - 1) if a * a + a - 1 > 0 else None
        if hi != formula:
            return refuted_at(
                f"n=2, alpha={a}: gamma_max = {hi}, the closed form (1-a)/(a^2+a-1) gives {formula}",
                2,
                a,
            )
    vals["gamma_max_n2_closed_form_alphas"] = str(len(grid))
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(**vals),
        notes="Lemma holds (gamma in [0, gamma_max) works for every (n, alpha) checked; the binary loss "
        "gamma=0 included).  'Small' is essential and depends on alpha: corrected statement -- T is "
        "the unique optimal direct mechanism iff 0 <= gamma < gamma_max(n, alpha); gamma_max = oo (T unique "
        "for every gamma >= 0) at small alpha (every alpha <= 1/2 checked) but finite for alpha near 1 (the threshold "
        "in alpha depends on n), tending to 0 as alpha -> 1 (values gamma_max[...]).  "
        "At n = 2 exactly: gamma_max = (1-alpha)/(alpha^2+alpha-1) for alpha > "
        "(sqrt(5)-1)/2 and oo below (checked at alpha = k/100, k = 1..99, and 999/1000).  Non-small gammas "
        f"where T fails: {'; '.join(failures[:4])}",
        certificate=certificate_of({"claim": "unique_optimum_user"}, certs[:2]),
    )


# ---------------------------------------------------------------- grs2011.thm3.2 / cor3.4 / grs2009.thm6.1


def remap_exists(x: Matrix, target: Matrix, timeout_s: float) -> tuple[bool, Certified]:
    """Is there a stochastic Y with X·Y = target?  Certified phase-1 LP: min sum |X·Y - target| (> 0: no)."""
    rows_n, rr, cols = len(x), len(x[0]), len(target[0])
    names = [f"y[{r},{j}]" for r in range(rr) for j in range(cols)]
    dev = len(names)
    names += [f"s+[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    names += [f"s-[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    rows = [Constraint(tuple((r * cols + j, F(1)) for j in range(cols)), "=", F(1), f"Y row {r}") for r in range(rr)]
    for i in range(rows_n):
        for j in range(cols):
            k = i * cols + j
            coeffs = (
                *tuple((r * cols + j, x[i][r]) for r in range(rr) if x[i][r]),
                (dev + k, F(1)),
                (dev + rows_n * cols + k, F(-1)),
            )
            rows.append(Constraint(coeffs, "=", target[i][j], f"(XY)[{i},{j}]"))
    obj = tuple((j, F(1)) for j in range(dev, len(names)))
    cert = solve(
        LinearProgram(tuple(names), obj, tuple(rows), "remap existence"), timeout_s=timeout_s, decide_unique=False
    )
    return cert.objective == 0, cert


def witness_user(x: Matrix, a: F, ctx: Context) -> tuple[BayesianUser, object, object] | None:
    """A user (lemma-5.12 users first, then adversarial ones) for whom X is strictly suboptimal."""
    n = len(x) - 1
    cands = [gamma_user(n, F(0)), gamma_user(n, F(1, 1000))] + [u for _, u in adversarial_users(n)]
    for user in cands:
        lam = optimum(user, a, ctx.solver_timeout).objective
        mu, _ = best_remap(x, user)
        if _less(lam, mu):
            return user, mu, lam
    return None


def non_universal_mechanisms(n: int, a: F) -> list[tuple[str, Matrix]]:
    t = truncated_geometric(n, a)
    merge = deterministic_remap([0, *list(range(n))], n + 1)  # outputs 0 and 1 merged
    mix = [
        [(u + v) / 2 for u, v in zip(r1, r2)]
        for r1, r2 in zip(t, compose(t, deterministic_remap(list(range(n, -1, -1)), n + 1)))
    ]
    more_private = truncated_geometric(n, (1 + a) / 2)
    return [
        ("T with outputs 0,1 merged", compose(t, merge)),
        ("T(n, (1+alpha)/2)", more_private),
        ("(T + reversed T)/2", mix),
        ("randomized response at the DP boundary", rr_mechanism(n, 1 / (1 + n * a))),
    ]


@checks("grs2011.thm3.2")
def main_characterization(ctx: Context, target_alpha: Callable[[F], F] = lambda a: a) -> Result:
    """grs2011 Theorem 3.2: X is universally utility-maximizing iff some remap Y gives Y o X = T.  'If': the
    mechanisms with an exact remap to T attain the certified optimum for every sampled user; 'only if': each
    mechanism with no remap to T (certified infeasibility) is strictly beaten for an exhibited user."""
    rng = ctx.rng("grs2011.thm3.2")
    n_max = 3 if ctx.quick else 4
    count = 0
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            target = truncated_geometric(n, target_alpha(a))
            users = adversarial_users(n) + random_users(rng, n, 3)
            if n == 2 and a == F(1, 2):
                users.append(irrational_loss_user())
            for mlabel, x in mechanisms_with_remap_to_t(n, a) + non_universal_mechanisms(n, a):
                has, cert = remap_exists(x, target, ctx.solver_timeout)
                count += 1
                if has:
                    cex, cs, _cnt = check_universal([(mlabel, x)], users, a, ctx)
                    certs += cs
                    if cex:
                        return refuted_at(
                            f"{mlabel} has a remap to T(n, {target_alpha(a)}) but is not universal: {cex}", n, a
                        )
                else:
                    if len(certs) < 3:
                        certs.append((f"no remap of {mlabel} to T, n={n}, alpha={a}", cert))
                    if witness_user(x, a, ctx) is None:
                        return refuted_at(
                            f"n={n}, alpha={a}: {mlabel} has no remap to T yet no user shows it suboptimal", n, a
                        )
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(mechanisms_checked=count),
        certificate=certificate_of({"mechanisms": count}, certs[:2]),
        notes="both directions on T, the lumped geometric mechanism, split/permuted T (remap exists) and "
        "merged-output T, T(n, (1+alpha)/2), (T + reversed T)/2, randomized response (no remap: "
        "certified phase-1 LP > 0, and a user with mu_X > lambda is exhibited)",
    )


def all_deterministic_remaps(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(n + 1), repeat=n + 1)


def range_n_scan(ctx: Context, claim: str, witness_gamma: F) -> Result:
    """Range-N mechanisms X = T·D for every deterministic D : N -> N, plus randomized ones: X is universally
    optimal iff D is a permutation; non-permutations are beaten by the lemma-5.12 user."""
    n_max = 3 if ctx.quick else 4
    count = 0
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            t = truncated_geometric(n, a)
            user = gamma_user(n, witness_gamma)
            lam_cert = optimum(user, a, ctx.solver_timeout, unique=True)
            if len(certs) < 2:
                certs.append((f"witness user gamma={witness_gamma}, n={n}, alpha={a}", lam_cert))
            if not (lam_cert.unique and list(lam_cert.x) == flat(t)):
                return refuted_at(
                    f"n={n}, alpha={a}: T is not the unique optimum for {describe(user)} (certified "
                    f"optimum {lam_cert.objective}, unique={lam_cert.unique})",
                    n,
                    a,
                )
            for d in all_deterministic_remaps(n):
                count += 1
                x = compose(t, deterministic_remap(list(d), n + 1))
                perm = len(set(d)) == n + 1
                mu, _ = best_remap(x, user)
                if perm:
                    cex, _, _ = check_universal([(f"T·{list(d)}", x)], adversarial_users(n)[:4], a, ctx)
                    if cex:
                        return refuted_at(cex, n, a)
                elif mu == lam_cert.objective:
                    return refuted_at(
                        f"n={n}, alpha={a}: X = T·{list(d)} (not a permutation of T) is optimal for {describe(user)}",
                        n,
                        a,
                    )
            for mlabel, x in non_universal_mechanisms(n, a):
                count += 1
                has, _ = remap_exists(x, t, ctx.solver_timeout)
                permuted = any(
                    compose(t, deterministic_remap(list(p), n + 1)) == x for p in itertools.permutations(range(n + 1))
                )
                if has and not permuted:
                    return refuted_at(
                        f"n={n}, alpha={a}: range-N {mlabel} {linalg.fmt_matrix(x)} has a remap to T "
                        "(so it is universal) but is not a permutation of T",
                        n,
                        a,
                    )
                if not has and witness_user(x, a, ctx) is None:
                    return refuted_at(
                        f"n={n}, alpha={a}: range-N {mlabel} is not a permuted T yet no user beats it", n, a
                    )
    return verified(
        Scope.of(n_max, alphas(ctx), count),
        exact_values(mechanisms_checked=count),
        notes=f"all (n+1)^(n+1) deterministic remaps D of T: X = T·D is optimal for the unique-optimum user "
        f"(uniform prior, loss 1+gamma|j-i| with gamma={witness_gamma}) iff D is a permutation; "
        "permuted T also optimal for adversarial users; randomized range-N mechanisms beaten",
        certificate=certificate_of({"claim": "range_n_scan"}, certs[:2]),
    )


@checks("grs2011.cor3.4")
def permutations_of_t(ctx: Context, witness_gamma: F = F(0)) -> Result:
    """grs2011 Corollary 3.4: a mechanism with range N is universally utility-maximizing iff it is pi o T for a
    permutation pi; the 'only if' direction through the Lemma 5.12 user, checked for small n."""
    return range_n_scan(ctx, "grs2011.cor3.4", witness_gamma)


@checks("grs2009.thm6.1")
def uniqueness_up_to_permutation(ctx: Context, witness_gamma: F = F(0)) -> Result:
    """grs2009 Theorem 6.1: among range-N mechanisms the geometric mechanism G is the unique simultaneously optimal
    one up to a permutation; its proof's user (uniform prior, binary loss) is checked to have G as unique optimum."""
    return range_n_scan(ctx, "grs2009.thm6.1", witness_gamma)
