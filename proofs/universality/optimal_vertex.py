"""grs2011 Lemma 5.7: every user has an optimal mechanism that is a vertex of LP (3)-(7) (claim
grs2011.lemma5.7).

The lemma's proof is run (:func:`walk_to_vertex`): from a feasible point, while the
tight constraints have rank below the number of variables, move along a direction
in their null space (exact rref) until one more constraint is tight.  Per sampled
user whose optimum is not unique (:func:`second_optimal_vertex` decides that by an
LP over the optimal face), the walk starts at the midpoint of two certified
optimal vertices -- an optimal mechanism that is NOT a vertex -- and must end at a
point that the rank test shows to be a vertex, with the certified optimal
objective.  Users are samples out of a continuum (:mod:`proofs.universality.scan`): one
SAMPLED instance per (n, alpha, user), the user identified by a digest.  The LP
itself is :mod:`proofs.universality.user_lp`, the optimal remaps :mod:`proofs.universality.bayes_remap`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

import flint

from proofs.universality.optimality import Matrix, alphas, optimum
from proofs.universality.sample_users import adversarial_users, describe, distinct_users, random_users, user_digest
from udpm.claims.instances import SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, binary_loss
from udpm.errors import HarnessError
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, is_vertex, solve
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp, objective_value, violated_constraint


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
