"""grs2011 Lemma 5.2 (claim grs2011.lemma5.2): for every alpha-DP X and user u, Z = Y o X (Y an optimal remap) is
alpha-DP with range N, direct for u, and has the same loss as X; for every mechanism by post-processing
(:mod:`proofs.universality.postprocessing`), and per sampled (n, alpha, user) over a list of mechanisms.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

from proofs.universality.mechanisms import geometric_lumped, rr_mechanism
from proofs.universality.optimality import Matrix, alphas, best_remap, expected_loss
from proofs.universality.postprocessing import post_processing_all_n
from proofs.universality.sample_users import (
    adversarial_users,
    describe,
    distinct_users,
    random_users,
    user_digest,
)
from udpm.claims.instances import SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser

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
