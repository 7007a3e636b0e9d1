"""The user-specific LP and optimal remaps (grs2011 Sections 2.3 and 5.2, Lemmas 5.2 and 5.7).

* grs2011.lp: the feasible set of LP (3)-(7) is exactly the set of alpha-DP
  stochastic matrices -- decided for EVERY matrix at one (n, alpha) by
  certified containment LPs in both directions (bounded) -- and, per sampled
  user, its objective is the expected loss (2) and its certified optimum is a
  direct mechanism (sampled).
* grs2011.bayes-remap, grs2011.lemma5.2: per sampled (n, alpha, user), over
  a list of mechanisms.
* grs2011.lemma5.7: per sampled user whose optimum is not unique, the proof of
  the lemma is run on an optimal mechanism that is NOT a vertex (the midpoint
  of two certified optimal vertices): walking along the optimal face, each
  step making one more constraint tight, ends at a point that the rank test
  shows to be a vertex, with the certified optimal objective.

Users are samples out of a continuum (see :mod:`proofs.universality`): one
SAMPLED instance per (n, alpha, user), the user identified by a digest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

import flint

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import Certified, is_vertex, solve
from udpm.claims import Context, Findings, checks
from udpm.errors import HarnessError
from udpm.instances import SAMPLED
from udpm.mechanisms import truncated_geometric
from udpm.privacy import dp_violations
from udpm.programs import (
    Constraint,
    LinearProgram,
    bayesian_lp,
    mechanism_var,
    objective_value,
    violated_constraint,
)
from udpm.remaps import compose, deterministic_remap, posterior_loss
from udpm.users import BayesianUser, binary_loss, weighted

from .postprocessing import post_processing_all_n, simplex_minimum_all_n
from .sample_users import adversarial_users, describe, distinct_users, irrational_loss_user, random_users, user_digest
from .universality import (
    Matrix,
    alphas,
    best_remap,
    expected_loss,
    flat,
    geometric_lumped,
    mechanisms_with_remap_to_t,
    optimum,
    rr_mechanism,
    same,
)

# ---------------------------------------------------------------- grs2011.lp


def lp_test_points(n: int, a: F, rng) -> list[tuple[str, Matrix]]:
    """Mechanisms on both sides of the DP boundary, and random remaps of T."""
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


def dp_definition_rows(lp: LinearProgram, n: int, a: F) -> list[Constraint]:
    """The alpha-DP stochastic matrices, written from the definition (not from udpm.programs): for neighbours
    i, i+1 and every output j, a x[i][j] <= x[i+1][j] and a x[i+1][j] <= x[i][j]; rows sum to 1 (x >= 0 is
    every LinearProgram's bound)."""
    v = {(i, j): lp.index(mechanism_var(i, j)) for i in range(n + 1) for j in range(n + 1)}
    rows = []
    for i in range(n):
        for j in range(n + 1):
            rows.append(
                Constraint(((v[i + 1, j], F(1)), (v[i, j], -a)), ">=", F(0), f"a x[{i}][{j}] <= x[{i + 1}][{j}]")
            )
            rows.append(
                Constraint(((v[i, j], F(1)), (v[i + 1, j], -a)), ">=", F(0), f"a x[{i + 1}][{j}] <= x[{i}][{j}]")
            )
    for i in range(n + 1):
        rows.append(Constraint(tuple((v[i, j], F(1)) for j in range(n + 1)), "=", F(1), f"row {i} sums to 1"))
    return rows


def escape(
    outer: Sequence[Constraint], inner: Sequence[Constraint], names: tuple[str, ...], timeout_s: float
) -> tuple[str, tuple[F, ...], Certified] | None:
    """A point of {inner} that violates a row of {outer}, or None when {inner} lies in {outer}: per outer row,
    the certified optimum of its left-hand side over {inner} (minimum for >=, maximum for <=, both for =)."""
    for row in outer:
        senses = {">=": (1,), "<=": (-1,), "=": (1, -1)}[row.sense]
        for s in senses:
            obj = tuple((j, s * c) for j, c in row.coeffs if c)
            cert = solve(
                LinearProgram(names, obj, tuple(inner), "containment"), timeout_s=timeout_s, decide_unique=False
            )
            if s * cert.objective < s * row.rhs:
                return row.name, cert.x, cert
    return None


def feasible_set_is_dp(lp: LinearProgram, n: int, a: F, timeout_s: float) -> tuple[str | None, Certified]:
    """For every (n+1)x(n+1) matrix: feasible for lp <=> alpha-DP and stochastic; else a concrete matrix."""
    dp = dp_definition_rows(lp, n, a)
    for outer, inner, why in (
        (dp, lp.rows, "LP-feasible but not alpha-DP"),
        (lp.rows, dp, "alpha-DP but LP-infeasible"),
    ):
        out = escape(outer, inner, lp.names, timeout_s)
        if out:
            name, x, cert = out
            m = [list(x[i * (n + 1) : (i + 1) * (n + 1)]) for i in range(n + 1)]
            shown = dp_violations(m, a)[:1] if inner is lp.rows else [violated_constraint(lp, x)]
            return f"n={n}, alpha={a}: X = {linalg.fmt_matrix(m)} is {why} ({name}; {shown})", cert
    # a witness that both sets are nonempty (the statement is not vacuous): T
    if violated_constraint(lp, flat(truncated_geometric(n, a))) is not None:
        raise HarnessError(f"n={n}, alpha={a}: T is not feasible although the sets are equal")
    return None, solve(lp, timeout_s=timeout_s, decide_unique=False)


def objective_mismatch(lp: LinearProgram, user: BayesianUser) -> str | None:
    """The LP objective's coefficient of x[i][j] must be p_i l(i, j) for every i, j: then c·x = (2) for every X."""
    c: dict[int, object] = {}
    for j, v in lp.objective:
        c[j] = c.get(j, F(0)) + v
    n = user.n
    for i in range(n + 1):
        for j in range(n + 1):
            want = weighted(user.prior[i], user.loss(i, j)) if user.prior[i] else F(0)
            got = c.get(lp.index(mechanism_var(i, j)), F(0))
            if not same(got, want):
                return f"coefficient of x[{i}][{j}] is {got}, (2) has p_{i} l({i},{j}) = {want}"
    return None


@checks("grs2011.lp")
def user_specific_lp(ctx: Context, builder: Callable[[BayesianUser, F], LinearProgram] = bayesian_lp) -> Findings:
    """grs2011 Section 5.2, LP (3)-(7): its feasible points are exactly the alpha-DP mechanisms with range N,
    its objective is the expected loss (2), and its optimal solutions are direct mechanisms."""
    rec = Findings("grs2011.lp")
    rng = ctx.rng("grs2011.lp")
    n_max = 4 if ctx.quick else 6
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            users = distinct_users(adversarial_users(n)[:4] + random_users(rng, n, 2))
            # (4)-(7) do not involve the user: decide the feasible set once per distinct constraint system.
            # (4)-(7) do not involve the user: the feasible set is decided once per distinct constraint system.
            systems: dict[tuple, tuple[str | None, Certified]] = {}
            for ulabel, user in users:
                lp = builder(user, a)
                if lp.rows not in systems:
                    systems[lp.rows] = feasible_set_is_dp(lp, n, a, ctx.solver_timeout)
                    if len(certs) < 1:
                        certs.append((f"containment LP (3)-(7), n={n}, alpha={a}", systems[lp.rows][1]))
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="certified containment LPs + exact objective coefficients + certified optimum",
                    covers="this user's LP: feasible set = alpha-DP matrices and objective = (2) for every "
                    "matrix; its certified optimum is direct",
                    user=user_digest(user),
                ) as d:
                    wrong = objective_mismatch(lp, user)
                    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
                    if len(certs) < 2:
                        certs.append((f"{ulabel}, n={n}, alpha={a}", opt))
                    z = opt.matrix(n + 1, n + 1)
                    mu, mapping = best_remap(z, user)
                    if systems[lp.rows][0]:
                        d.counterexample(systems[lp.rows][0])
                    elif wrong:
                        d.counterexample(f"n={n}, alpha={a}, user {ulabel} ({describe(user)}): {wrong}")
                    elif not same(mu, expected_loss(user, z)):
                        d.counterexample(
                            f"n={n}, alpha={a}: LP optimum {linalg.fmt_matrix(z)} for {ulabel} is not direct: "
                            f"remap {mapping} gives {mu} < {expected_loss(user, z)}; {describe(user)}"
                        )
                if rec.counterexample:
                    return rec
    rec.note(
        "one sampled instance per (n, alpha, user).  Within it the feasible set is decided for every matrix: "
        "certified LPs optimise each alpha-DP/stochastic inequality over (4)-(7) and each row of (4)-(7) over the "
        "alpha-DP set written from the definition (T witnesses that both are nonempty); the objective is compared "
        "coefficient by coefficient with (2).  'Optimal solutions are direct' quantifies over users: sampled."
    )
    rec.certificate = certificate_of({"claim": "user_specific_lp"}, certs[:2])
    return rec


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
def bayes_remap_optimal(ctx: Context, rule: Callable = best_remap) -> Findings:
    """grs2011 Section 2.3: the deterministic Bayes-posterior remap is optimal among all randomized remaps
    (the remap LP's certified optimum equals the Bayes remap's loss).  Per (n, alpha, sampled user), over a list
    of mechanisms; the remap LP covers every randomized remap of that mechanism for that user."""
    rec = Findings("grs2011.bayes-remap")
    simplex_minimum_all_n(rec, ctx)
    rng = ctx.rng("grs2011.bayes-remap")
    n_max = 3 if ctx.quick else 5
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            mechs = list(mechanisms_with_remap_to_t(n, a)) + lp_test_points(n, a, rng)[1:3]
            users = adversarial_users(n) + random_users(rng, n, 3) + ([irrational_loss_user()] if n == 2 else [])
            for ulabel, user in distinct_users(users):
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="certified remap LP vs the rule",
                    covers="every randomized remap of: " + ", ".join(m for m, _ in mechs),
                    user=user_digest(user),
                ) as d:
                    for mlabel, x in mechs:
                        opt = solve(remap_lp(x, user), timeout_s=ctx.solver_timeout, decide_unique=False)
                        got, mapping = rule(x, user)
                        if len(certs) < 2:
                            certs.append((f"remap LP: {mlabel}, {ulabel}, n={n}, alpha={a}", opt))
                        if not same(got, opt.objective):
                            d.counterexample(
                                f"n={n}, alpha={a}, mechanism {mlabel}: remap {mapping} loses {got}, the "
                                f"optimal randomized remap {opt.objective}; user {ulabel}: {describe(user)}"
                            )
                            break
                if rec.counterexample:
                    return rec
    rec.note(
        "mechanisms: T, lumped geometric, split and permuted T, identity, randomized response; users adversarial "
        "+ random (+ |i-j|^1.5 at n=2), one sampled instance per distinct user"
    )
    rec.certificate = certificate_of({"claim": "bayes_remap_optimal"}, certs[:2])
    return rec


# ---------------------------------------------------------------- grs2011.lemma5.2


def truncate_remap(x: Matrix, user: BayesianUser) -> tuple[object, list[int]]:
    """A wrong remap for the false variant: clamp outputs into 0..n (columns are read as -k..n+k for wide X)."""
    n = user.n
    k = (len(x[0]) - (n + 1)) // 2
    mapping = [min(max(r - k, 0), n) for r in range(len(x[0]))]
    return expected_loss(user, compose(x, deterministic_remap(mapping, n + 1))), mapping


@checks("grs2011.lemma5.2")
def direct_mechanisms_suffice(ctx: Context, remap_rule: Callable = best_remap) -> Findings:
    """grs2011 Lemma 5.2: for every alpha-DP X and user u, Z = Y o X (Y an optimal remap) is alpha-DP with range
    N, direct for u (its identity remap is optimal), and has the same loss as X."""
    rec = Findings("grs2011.lemma5.2")
    post_processing_all_n(rec, ctx)
    rng = ctx.rng("grs2011.lemma5.2")
    n_max = 3 if ctx.quick else 5
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
            for ulabel, user in distinct_users(adversarial_users(n) + random_users(rng, n, 3)):
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="exact remap, DP and loss",
                    covers="Z = Y o X for X in: " + ", ".join(m for m, _ in mechs),
                    user=user_digest(user),
                ) as d:
                    for mlabel, x in mechs:
                        mu, _ = best_remap(x, user)
                        _, mapping = remap_rule(x, user)
                        z = compose(x, deterministic_remap(mapping, n + 1))
                        mu_z, zmap = best_remap(z, user)
                        where = f"n={n}, alpha={a}, X={mlabel}, user {ulabel}: {describe(user)}"
                        if dp_violations(z, a):
                            d.counterexample(f"{where}: Z = Y o X is not alpha-DP")
                            break
                        if expected_loss(user, z) != mu or mu_z != mu:
                            d.counterexample(
                                f"{where}: Z = Y o X with Y={mapping} has identity loss {expected_loss(user, z)} "
                                f"but X's optimal loss is {mu} (Z's best remap {zmap} gives {mu_z}): Z is not direct"
                            )
                            break
                if rec.counterexample:
                    return rec
    rec.note(
        "X: the geometric mechanism (tails lumped), a random remap of T to a wider range, randomized response; "
        "Z checked alpha-DP, direct and loss-preserving exactly, one sampled instance per distinct user"
    )
    return rec


# ---------------------------------------------------------------- grs2011.lemma5.7


def _tight(lp: LinearProgram, x: Sequence[F]) -> list[dict[int, F]]:
    """The constraints tight at x (rows holding with equality, and x_j >= 0 where x_j = 0)."""
    out = []
    for row in lp.rows:
        if sum((c * x[j] for j, c in row.coeffs), F(0)) == row.rhs:
            out.append({j: F(c) for j, c in row.coeffs if c})
    out += [{j: F(1)} for j, v in enumerate(x) if v == 0]
    return out


def null_direction(rows: Sequence[dict[int, F]], nvars: int) -> list[F] | None:
    """A nonzero d with r·d = 0 for every row r (exact rref), or None when the rows have full column rank."""
    if not rows:
        return [F(1)] + [F(0)] * (nvars - 1)
    m = flint.fmpq_mat(len(rows), nvars)
    for k, r in enumerate(rows):
        for j, c in r.items():
            m[k, j] = flint.fmpq(c.numerator, c.denominator)
    red, rank = m.rref()
    if rank == nvars:
        return None
    pivots = []
    for k in range(rank):
        pivots.append(next(j for j in range(nvars) if red[k, j] != 0))
    free = next(j for j in range(nvars) if j not in pivots)
    d = [F(0)] * nvars
    d[free] = F(1)
    for k, p in enumerate(pivots):
        q = red[k, free]
        d[p] = -F(int(q.p), int(q.q))
    return d


def _max_step(lp: LinearProgram, x: Sequence[F], d: Sequence[F]) -> F | None:
    """The largest t with x + t d feasible (None: unbounded along d)."""
    bounds = [x[j] / -d[j] for j in range(len(x)) if d[j] < 0]
    for row in lp.rows:
        ad = sum((c * d[j] for j, c in row.coeffs), F(0))
        act = sum((c * x[j] for j, c in row.coeffs), F(0))
        if row.sense == ">=" and ad < 0:
            bounds.append((act - row.rhs) / -ad)
        elif row.sense == "<=" and ad > 0:
            bounds.append((row.rhs - act) / ad)
        elif row.sense == "=" and ad != 0:
            raise HarnessError("a direction in the null space of the tight rows moves an equality")
    return min(bounds) if bounds else None


def walk_to_vertex(lp: LinearProgram, x: Sequence[F]) -> tuple[list[F], int]:
    """The proof of Lemma 5.7 (every LP with a bounded nonempty feasible region has an optimal vertex), run: from
    feasible x, while the tight constraints have rank < #variables, move along a direction d in their null space
    (sign chosen so that c·d <= 0) until one more constraint is tight.  Returns the end point and the step count.
    From an optimal x, c·d = 0 on every step (both +-d are feasible directions), so the objective is unchanged."""
    c = [F(0)] * len(x)
    for j, v in lp.objective:
        c[j] += F(v)
    x = list(x)
    for step in range(len(x) + 1):
        d = null_direction(_tight(lp, x), len(x))
        if d is None:
            return x, step
        if sum((cj * dj for cj, dj in zip(c, d)), F(0)) > 0:
            d = [-v for v in d]
        t = _max_step(lp, x, d)
        if t is None:
            d = [-v for v in d]
            t = _max_step(lp, x, d)
        if t is None:
            raise HarnessError("the feasible region is unbounded along a tight-constraint direction")
        x = [xi + t * di for xi, di in zip(x, d)]
    raise HarnessError("the walk did not reach a vertex within #variables steps")


def second_optimal_vertex(lp: LinearProgram, opt: Certified, timeout_s: float) -> tuple[F, ...] | None:
    """A certified optimal vertex other than opt.x, or None when opt.x is the unique optimum.

    Over the optimal face {feasible, c·x = lambda}, maximise the total slack of the constraints tight at opt.x
    (x_j >= 0 and inequality rows).  A maximum of 0 means every optimal point has all of them tight, and opt.x
    (a vertex) is the only point with that: the optimum is unique."""
    x = opt.x
    obj: dict[int, F] = {j: F(-1) for j, v in enumerate(x) if v == 0}
    for row in lp.rows:
        if row.sense != "=" and sum((c * x[j] for j, c in row.coeffs), F(0)) == row.rhs:
            s = -1 if row.sense == ">=" else 1  # minimise -slack
            for j, c in row.coeffs:
                obj[j] = obj.get(j, F(0)) + s * c
    rows = (*lp.rows, Constraint(tuple(lp.objective), "=", F(opt.objective), "c·x = lambda"))
    face = LinearProgram(lp.names, tuple((j, v) for j, v in sorted(obj.items()) if v), rows, "optimal face")
    cert = solve(face, timeout_s=timeout_s, decide_unique=False)
    return None if cert.objective == 0 else cert.x


def two_optimal_points(n: int, a: F) -> tuple[BayesianUser, Matrix, Matrix]:
    """A user with two distinct optimal mechanisms: p_0 = p_n = 1/2, binary loss, n even -- the middle
    output of T can be remapped to 0 or to n at equal loss."""
    user = BayesianUser.of([F(1, 2) if i in (0, n) else F(0) for i in range(n + 1)], binary_loss(n))
    t = truncated_geometric(n, a)
    lo = [0 if r <= n // 2 else n for r in range(n + 1)]
    hi = [0 if r < n // 2 else n for r in range(n + 1)]
    return user, compose(t, deterministic_remap(lo, n + 1)), compose(t, deterministic_remap(hi, n + 1))


@checks("grs2011.lemma5.7")
def optimal_vertex_exists(
    ctx: Context,
    walk: Callable[[LinearProgram, Sequence[F]], tuple[list[F], int]] = walk_to_vertex,
    every_optimum: bool = False,
) -> Findings:
    """grs2011 Lemma 5.7: for every user some optimal (direct) mechanism is a vertex of (3)-(7).

    Per sampled user with more than one optimal mechanism: start from the midpoint of two certified optimal
    vertices (an optimal mechanism that is not a vertex), run the lemma's proof (:func:`walk_to_vertex`), and
    check exactly that the end point is feasible, a vertex by the rank test and has the certified optimal
    loss.  Users with a unique optimum are counted, not recorded: there the lemma is only the solver's output.
    (False variant ``every_optimum``: "every optimal mechanism is a vertex", which the midpoint contradicts.)"""
    rec = Findings("grs2011.lemma5.7")
    rng = ctx.rng("grs2011.lemma5.7")
    n_max = 4 if ctx.quick else 6
    certs: list[tuple[str, Certified]] = []
    unique = steps_max = 0
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            users = adversarial_users(n) + random_users(rng, n, 2)
            if n % 2 == 0:
                users.append(("p_0=p_n=1/2, binary (two optima)", two_optimal_points(n, a)[0]))
            for ulabel, user in distinct_users(users):
                lp = bayesian_lp(user, a)
                opt = optimum(user, a, ctx.solver_timeout)
                other = second_optimal_vertex(lp, opt, ctx.solver_timeout)
                if other is None:
                    unique += 1
                    continue
                start = [(u + v) / 2 for u, v in zip(opt.x, other)]
                if is_vertex(lp, start):
                    raise HarnessError(f"the midpoint of two distinct optimal vertices is a vertex ({ulabel})")
                if len(certs) < 2:
                    certs.append((f"{ulabel}, n={n}, alpha={a}", opt))
                m = [start[i * (n + 1) : (i + 1) * (n + 1)] for i in range(n + 1)]
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="every optimum a vertex" if every_optimum else "walk along the optimal face (the proof)",
                    covers="a user with several optimal mechanisms, started from a non-vertex optimum",
                    user=user_digest(user),
                ) as d:
                    if every_optimum:
                        d.counterexample(
                            f"n={n}, alpha={a}: user {describe(user)}: the optimal mechanism "
                            f"{linalg.fmt_matrix(m)} (loss {opt.objective}) is not a vertex"
                        )
                        return rec
                    end, steps = walk(lp, start)
                    steps_max = max(steps_max, steps)
                    where = (
                        f"n={n}, alpha={a}, user {ulabel} ({describe(user)}), from the optimum {linalg.fmt_matrix(m)}"
                    )
                    if violated_constraint(lp, end) is not None:
                        d.counterexample(
                            f"{where}: the walk ends at an infeasible point ({violated_constraint(lp, end)})"
                        )
                    elif not is_vertex(lp, end):
                        d.counterexample(f"{where}: the walk ends at {linalg.fmt_vector(end)}, which is not a vertex")
                    elif objective_value(lp, end) != opt.objective:
                        d.counterexample(
                            f"{where}: the vertex reached has loss {objective_value(lp, end)}, "
                            f"the optimum is {opt.objective}"
                        )
                if rec.counterexample:
                    return rec
    rec.value(users_with_unique_optimum=unique, walk_steps_max=steps_max)
    rec.note(
        "one sampled instance per user with several optimal mechanisms: from the midpoint of two certified optimal "
        "vertices, the proof's walk along the optimal face ends at a vertex (rank of tight constraints = "
        f"#variables) with the certified optimal loss; {unique} users with a unique optimum are not counted"
    )
    rec.certificate = certificate_of({"claim": "optimal_vertex_exists"}, certs[:2])
    return rec
