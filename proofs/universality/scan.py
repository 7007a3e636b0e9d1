"""The universality scan of a claim: every user per (n, alpha), then sampled users, each against lambda(u).

:func:`universality_scan` first decides every user of the cone (:mod:`proofs.universality.every_user`), then one
SAMPLED instance per (n, alpha) and distinct user (adversarial, random, beyond the quick n, and at n = 2 finite
grids of priors and 0/1 losses), identified by a digest of its exact prior and loss
(:func:`proofs.universality.sample_users.user_digest`): the cross-check that every listed mechanism's best remap
attains the certified optimum (:mod:`proofs.universality.optimality`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.universality.every_user import every_user_scan
from proofs.universality.mechanisms import DEFAULT_MECHANISMS
from proofs.universality.optimality import Matrix, alphas, best_remap, optimum, same
from proofs.universality.sample_users import (
    BEYOND_ALPHAS,
    BEYOND_N,
    adversarial_users,
    beyond_users,
    describe,
    distinct_users,
    prior_grid,
    random_users,
    threshold_losses,
    user_digest,
)
from udpm.auditing.every_user import LEGAL
from udpm.claims.instances import SAMPLED
from udpm.claims.registry import Context, Findings
from udpm.core import linalg
from udpm.core.users import BayesianUser
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified


def universal_for(
    mechs: Sequence[tuple[str, Matrix]], user: BayesianUser, ulabel: str, a: F, ctx: Context
) -> str | None:
    """mu_X(u) = lambda(u) for every listed X; the first failure as a concrete counterexample, else None."""
    lam = optimum(user, a, ctx.solver_timeout)
    for mlabel, x in mechs:
        mu, mapping = best_remap(x, user)
        if not same(mu, lam.objective):
            return (
                f"n={user.n}, alpha={a}, mechanism {mlabel}: best remap {mapping} loses {mu} but the "
                f"certified optimum is {lam.objective}; user {ulabel}: {describe(user)}"
            )
    return None


def decided_before(rec: Findings, n: int, a: F, digest: str) -> bool:
    inst = rec.instance(n=n, alpha=a, kind=SAMPLED, method="")
    return any(
        d.instance.n == n and d.instance.alpha == inst.alpha and ("user", digest) in d.instance.params
        for d in rec.decisions
    )


def decide_users(
    rec: Findings,
    mechs: Sequence[tuple[str, Matrix]],
    users: Sequence[tuple[str, BayesianUser]],
    n: int,
    a: F,
    ctx: Context,
    certs: list[tuple[str, Certified]],
    **params: object,
) -> bool:
    """One SAMPLED instance per distinct user: every listed mechanism attains the certified optimum.
    Returns False at the first counterexample (the check stops there)."""
    if not mechs:
        return True
    covers = "best remaps of " + ", ".join(m for m, _ in mechs)
    for ulabel, user in distinct_users(users):
        if decided_before(rec, n, a, user_digest(user)):
            continue  # e.g. a grid user that is also an adversarial one
        with rec.deciding(
            n=n,
            alpha=a,
            kind=SAMPLED,
            method="certified LP optimum vs best remap",
            covers=covers,
            user=user_digest(user),
            **params,
        ) as d:
            if len(certs) < 2:
                certs.append((f"{ulabel}, n={n}, alpha={a}", optimum(user, a, ctx.solver_timeout)))
            cex = universal_for(mechs, user, ulabel, a, ctx)
            if cex:
                d.counterexample(cex)
                return False
    return True


def grid_users(n: int, denom: int) -> list[tuple[str, BayesianUser]]:
    """Every prior in (1/denom)Z on 0..n x every 0/1 legal loss: a finite grid of users (still a sample)."""
    return [
        (f"grid prior {linalg.fmt_vector(p)}", BayesianUser.of(p, loss))
        for p in prior_grid(n, denom)
        for loss in threshold_losses(n)
    ]


def universality_scan(
    ctx: Context, claim: str, mechs_of: Callable[[int, F], list[tuple[str, Matrix]]], grids: bool, users: str = LEGAL
) -> Findings:
    """Per (n, alpha) and per distinct user (adversarial, random, and at n = 2 the finite grids): one SAMPLED
    instance, holding when every listed mechanism's best remap attains the certified optimum lambda(u)."""
    rec = Findings(claim)
    planned = users == LEGAL and mechs_of is DEFAULT_MECHANISMS.get(claim)
    if not every_user_scan(rec, ctx, mechs_of, users, planned):
        return rec
    rng = ctx.rng(claim)
    n_max = 3 if ctx.quick else 5
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            users = adversarial_users(n) + random_users(rng, n, 4 if ctx.quick else 12)
            if not decide_users(rec, mechs_of(n, a), users, n, a, ctx, certs):
                return _with_certificate(rec, certs)
    for n in range(n_max + 1, 1 + (0 if ctx.quick else BEYOND_N)):  # --full: sampled users to n = 20
        for a in BEYOND_ALPHAS:
            if not decide_users(rec, mechs_of(n, a), beyond_users(rng, n), n, a, ctx, certs):
                return _with_certificate(rec, certs)
    if grids:
        n = 2
        users = grid_users(n, 2) + ([] if ctx.quick else grid_users(n, 3))
        for a in (F(1, 2), F(99, 100)) if ctx.quick else alphas(ctx):
            if not decide_users(rec, mechs_of(n, a), users, n, a, ctx, certs):
                return _with_certificate(rec, certs)
        rec.note(
            "n=2 grid: every prior with entries in {0,1/2,1}"
            + ("" if ctx.quick else " and in thirds")
            + " x all 64 0/1 legal losses, one sampled instance per user (a finite grid of a continuum of users)"
        )
    rec.note(
        "mu_X(u) = certified LP optimum lambda(u), one sampled instance per distinct user: adversarial users "
        "(zeros in the prior, ties, binary, squared, per-i losses) and random legal users"
    )
    return _with_certificate(rec, certs)


def _with_certificate(rec: Findings, certs: list[tuple[str, Certified]]) -> Findings:
    rec.value(users_decided=sum(d.instance.kind == SAMPLED for d in rec.decisions))
    rec.certificate = certificate_of({"claim": rec.claim, "instances": len(rec.decisions)}, certs[:2])
    return rec
