"""grs2011 Section 5.2, LP (3)-(7), the user-specific LP (claim grs2011.lp): its feasible set is exactly the set of
alpha-DP stochastic matrices -- decided for EVERY matrix at one (n, alpha) by certified containment LPs in both
directions -- and, per sampled user, its objective is the expected loss (2) and its certified optimum is a direct
mechanism.

Users are samples out of a continuum (see :mod:`proofs.universality.scan`): one SAMPLED instance per
(n, alpha, user), the user identified by a digest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.universality.mechanisms import rr_mechanism
from proofs.universality.optimality import Matrix, alphas, best_remap, expected_loss, flat, same
from proofs.universality.sample_users import (
    adversarial_users,
    describe,
    distinct_users,
    random_users,
    user_digest,
)
from udpm.claims.instances import SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import compose
from udpm.core.users import BayesianUser, weighted
from udpm.errors import HarnessError
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, solve
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp, mechanism_var, violated_constraint

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
    """The alpha-DP stochastic matrices, written from the definition (not from udpm.lp.programs): for neighbours
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
