"""Which mechanisms are universally utility-maximizing: grs2011 Theorem 3.2 (claim grs2011.thm3.2), per (n, alpha),
over every mechanism and every legal user (BOUNDED, :func:`decide_characterization_for_every_x`); the finite lists
of mechanisms and users stay as SAMPLED cross-checks.

The range-N consequences (grs2011 Corollary 3.4, grs2009 Theorem 6.1) are
:mod:`proofs.universality.range_n_permutations`; Lemma 5.12's users are :mod:`proofs.universality.unique_optimum`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

from proofs.boundary.universality import theorem_3_2_at_boundary
from proofs.universality.every_user import every_user_reach
from proofs.universality.mechanisms import mechanisms_with_remap_to_t, rr_mechanism
from proofs.universality.optimality import Matrix, alphas, best_remap, less, optimum
from proofs.universality.sample_users import adversarial_users, describe, irrational_loss_user, random_users
from proofs.universality.scan import decide_users
from proofs.universality.unique_optimum import gamma_user
from udpm.auditing.every_user import LEGAL, optimal_for_every_user
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser
from udpm.errors import InvalidMatrix
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, solve
from udpm.lp.programs import remap_existence_lp

# ---------------------------------------------------------------- grs2011.thm3.2 / cor3.4 / grs2009.thm6.1


def remap_exists(x: Matrix, target: Matrix, timeout_s: float) -> tuple[bool, Certified]:
    """Is there a stochastic Y with X·Y = target?  Certified phase-1 LP: min sum |X·Y - target| (> 0: no)."""
    cert = solve(remap_existence_lp(x, target), timeout_s=timeout_s, decide_unique=False)
    return cert.objective == 0, cert


def witness_user(x: Matrix, a: F, ctx: Context) -> tuple[BayesianUser, object, object] | None:
    """A user (lemma-5.12 users first, then adversarial ones) for whom X is strictly suboptimal."""
    n = len(x) - 1
    cands = [gamma_user(n, F(0)), gamma_user(n, F(1, 1000))] + [u for _, u in adversarial_users(n)]
    for user in cands:
        lam = optimum(user, a, ctx.solver_timeout).objective
        mu, _ = best_remap(x, user)
        if less(lam, mu):
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


def decide_beaten(rec: Findings, mlabel: str, x: Matrix, n: int, a: F, ctx: Context, **params: object) -> None:
    """'Only if' for one mechanism with no remap to T (certified): a user for whom it is strictly suboptimal."""
    with rec.deciding(
        n=n,
        alpha=a,
        kind=SAMPLED,
        method="certified no-remap LP + exhibited user",
        covers="one mechanism with no remap to T",
        part="only if",
        mechanism=mlabel,
        **params,
    ) as d:
        w = witness_user(x, a, ctx)
        if w is None:
            d.inconclusive(f"{mlabel} has no remap to T and no candidate user shows it suboptimal")


def decide_characterization_for_every_x(rec: Findings, n: int, a: F, target: Matrix, ctx: Context) -> bool:
    """Theorem 3.2 at one (n, alpha) over EVERY mechanism X and every legal user, two BOUNDED instances.

    'If': the target is optimal for every legal user (udpm.auditing.every_user, SMT unsat over the user cone); an X
    with a
    remap Y o X = target has every remap of the target among its own, so it loses no more for any user.
    'Only if': the uniform-prior binary-loss user (Lemma 5.12, gamma = 0) has a certified UNIQUE optimum U; a
    universally optimal X attains it after its best remap, so X derives U; U is the target or derives it."""
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="reduced costs of the target's columns over the legal-user cone (SMT unsat, z3 and cvc5)",
        covers="every X with a remap to the target, every prior and every legal loss",
        part="if",
    ) as d:
        try:
            v = optimal_for_every_user(target, a, LEGAL, ctx.solver_timeout)
        except InvalidMatrix as e:
            d.counterexample(f"n={n}, alpha={a}: the target is not an alpha-DP mechanism: {e}")
            return False
        if v.counterexample:
            d.counterexample(f"the target is not optimal for every legal user: {v.counterexample}")
            return False
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="certified unique optimum of the uniform-prior binary-loss user",
        covers="every alpha-DP X optimal for every legal user",
        part="only if",
    ) as d:
        user = gamma_user(n, F(0))
        opt = optimum(user, a, ctx.solver_timeout, unique=True)
        u = opt.matrix(n + 1, n + 1)
        if not opt.unique:
            d.inconclusive(f"n={n}, alpha={a}: the binary-loss user's optimum is not unique; no 'only if' argument")
        elif u != target and not remap_exists(u, target, ctx.solver_timeout)[0]:
            d.counterexample(
                f"n={n}, alpha={a}: every universally optimal X derives the unique optimum U of {describe(user)}, "
                f"U = {linalg.fmt_matrix(u)}, and U has no remap to the target (certified)"
            )
            return False
    return True


@checks("grs2011.thm3.2")
def main_characterization(ctx: Context, target_alpha: Callable[[F], F] = lambda a: a) -> Findings:
    """grs2011 Theorem 3.2: X is universally utility-maximizing iff some remap Y gives Y o X = T.  'If': the
    mechanisms with an exact remap to T attain the certified optimum for every sampled user (one instance per
    user); 'only if': each mechanism with no remap to T (certified infeasibility) is strictly beaten for an
    exhibited user (one instance per mechanism)."""
    rec = Findings("grs2011.thm3.2")
    for n, a in every_user_reach(ctx):
        if not decide_characterization_for_every_x(rec, n, a, truncated_geometric(n, target_alpha(a)), ctx):
            return rec
    rng = ctx.rng("grs2011.thm3.2")
    n_max = 3 if ctx.quick else 4
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            target = truncated_geometric(n, target_alpha(a))
            users = adversarial_users(n) + random_users(rng, n, 3)
            if n == 2 and a == F(1, 2):
                users.append(irrational_loss_user())
            with_remap = []
            for mlabel, x in mechanisms_with_remap_to_t(n, a) + non_universal_mechanisms(n, a):
                has, cert = remap_exists(x, target, ctx.solver_timeout)
                if has:
                    with_remap.append((mlabel, x))
                else:
                    if len(certs) < 1:
                        certs.append((f"no remap of {mlabel} to T, n={n}, alpha={a}", cert))
                    decide_beaten(rec, mlabel, x, n, a, ctx)
            if not decide_users(rec, with_remap, users, n, a, ctx, certs, part="if"):
                return rec
    rec.note(
        "every X and every legal user, per (n, alpha): 'if' by T's optimality over the whole user cone, 'only if' "
        "by the certified unique optimum of the uniform binary-loss user; cross-checks: "
        "'if' (one sampled instance per user): T, the lumped geometric mechanism, split/permuted T have a certified "
        "remap to T and attain lambda(u); 'only if' (one per mechanism): merged-output T, T(n, (1+alpha)/2), "
        "(T + reversed T)/2, randomized response have no remap (certified phase-1 LP > 0) and a user with "
        "mu_X > lambda is exhibited"
    )
    rec.certificate = certificate_of({"claim": "main_characterization"}, certs[:2])
    theorem_3_2_at_boundary(rec, ctx)
    return rec
