"""Universal optimality for Bayesian users (grs2011 Section 3, Lemma 5.11; grs2009 Theorem 3.1): shared machinery.

Every verdict compares two exact numbers for a user u = (prior p, loss l):

* lambda(u): the optimum of the user-specific LP (3)-(7) over all alpha-DP
  mechanisms with range N, certified by :func:`udpm.lp.certify.solve` (primal
  vertex, exact dual, equal objectives; HiGHS only proposes a basis);
* mu_X(u): the loss of mechanism X under its best remap, computed exactly
  output by output (the Bayes remap: for each output r, the j minimising
  sum_i p_i x_ir l(i, j); ties to the smallest j).

X is optimal for u iff mu_X(u) = lambda(u).  For ONE user the certificate
covers every mechanism; but the claims here quantify over every user (a
continuum of priors and losses), and the users are a finite list (adversarial
boundary cases, finite grids, random draws from ``ctx.rng``).  So each user
is one SAMPLED instance per (n, alpha), identified by a digest of its exact
prior and loss (:func:`user_digest`): the cross-check.

Every user at once, per (n, alpha): :func:`decide_every_user` decides the
claim over the whole cone of users W = p_i l(i, r) (:mod:`udpm.auditing.every_user`),
one BOUNDED instance per (n, alpha) of :func:`every_user_reach`.

The other universality claims live in :mod:`proofs.universality.user_lp` (LP (3)-(7)),
:mod:`proofs.universality.bayes_remap` (the Bayes remap), :mod:`proofs.universality.direct_mechanisms`
(Lemma 5.2), :mod:`proofs.universality.optimal_vertex` (Lemma 5.7) and
:mod:`proofs.universality.unique_optimum` (Lemma 5.12), :mod:`proofs.universality.characterization` (Theorem 3.2)
and :mod:`proofs.universality.range_n_permutations` (Corollary 3.4, grs2009 Theorem 6.1).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F
from functools import lru_cache

import sympy

from proofs.boundary.universality import corollary_3_3_at_boundary, theorem_3_1_at_boundary
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
from udpm.auditing.every_user import LEGAL, SIDED, geometric_for_every_user, mechanism_for_every_user
from udpm.claims.instances import BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Findings, Plan, absorb, checks
from udpm.claims.registry import part as planned_part
from udpm.core import linalg
from udpm.core.mechanisms import geometric_tail, geometric_window, truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import compose, deterministic_remap, posterior_loss
from udpm.core.users import BayesianUser, weighted
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, sign_of, solve, split_coefficient
from udpm.lp.programs import bayesian_lp

Matrix = list[list[F]]
ALPHAS = (F(1, 100), F(1, 3), F(1, 2), F(99, 100))
ALPHAS_FULL = (*ALPHAS, F(1, 10), F(2, 3), F(9, 10))


def alphas(ctx: Context) -> tuple[F, ...]:
    return ALPHAS if ctx.quick else ALPHAS_FULL


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


def rr_mechanism(n: int, beta: F) -> Matrix:
    """Randomized response on 0..n: the true result with probability beta, the others uniformly."""
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


# ---------------------------------------------------------------- the universality core


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


# ---------------------------------------------------------------- every user, for each (n, alpha)


def every_user_reach(ctx: Context) -> list[tuple[int, F]]:
    """(n, alpha) decided over every user: n <= 3 at the quick alphas; --full n <= 4 at all, n = 5 at 1/2."""
    if ctx.quick:
        return [(n, a) for n in (1, 2, 3) for a in ALPHAS]
    return [(n, a) for n in (1, 2, 3, 4) for a in ALPHAS_FULL] + [(5, F(1, 2))]


def decide_every_user(
    rec: Findings, mechs: Sequence[tuple[str, Matrix]], n: int, a: F, ctx: Context, users: str = LEGAL, **params: object
) -> bool:
    """One BOUNDED instance: every listed mechanism is optimal for EVERY user of the cone at (n, alpha).

    Each listed mechanism (and T) through udpm.auditing.every_user.mechanism_for_every_user: alpha-DP, then a square
    invertible one by the reduced costs of its own columns (one SMT query per ray with a negative coordinate and
    output), any other by T's and one query that no user of the cone prefers T's best remap to its own.  A sat
    is re-checked exactly into a certified user.
    Returns False at the first counterexample."""
    t = truncated_geometric(n, a)
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="reduced costs of T's columns over the user cone (SMT unsat, z3 and cvc5)",
        covers=f"every prior (zeros allowed) and every {users} loss",
        users=users,
        **params,
    ) as d:
        for label, x in [("T", t), *((label, x) for label, x in mechs if x != t)]:
            bad = dp_violations(x, a)
            if bad:
                d.counterexample(f"n={n}, alpha={a}, mechanism {label} is not {a}-DP: {bad[0]}")
                return False
            verdict = mechanism_for_every_user(x, a, users, ctx.solver_timeout)
            if verdict.counterexample:
                d.counterexample(f"mechanism {label} is not optimal for every user: {verdict.counterexample}")
                return False
    return True


def every_user_instance(
    claim: str, ctx: Context, mechs_of: Callable[[int, F], list[tuple[str, Matrix]]], n: int, a: F, users: str = LEGAL
) -> Findings:
    """decide_every_user at one (n, alpha), as its own findings (one task of the claim's plan).
    udpm.auditing.every_user
    caches T(n, alpha) per process and reports its SMT queries again on a hit, so the record is the same in a
    serial run as on a fresh worker."""
    rec = Findings(claim)
    decide_every_user(rec, mechs_of(n, a), n, a, ctx, users)
    return rec


def every_user_plan(claim: str, mechs_of: Callable[[int, F], list[tuple[str, Matrix]]]) -> Plan:
    """One task per (n, alpha) of :func:`every_user_reach` (udpm.claims.registry.Plan): descriptors (n, "alpha")."""
    return Plan(
        tasks=lambda ctx: [(n, str(a)) for n, a in every_user_reach(ctx)],
        decide=lambda ctx, task: every_user_instance(claim, ctx, mechs_of, task[0], F(task[1])),
    )


def every_user_scan(
    rec: Findings,
    ctx: Context,
    mechs_of: Callable[[int, F], list[tuple[str, Matrix]]],
    users: str = LEGAL,
    planned: bool = False,
) -> bool:
    """decide_every_user at every (n, alpha) of :func:`every_user_reach`; records the cone's premise witness.

    ``planned``: the claim's own run; each (n, alpha) comes from udpm.claims.registry.part (an executor may have decided
    it as a separate task), merged in the same order, up to the first counterexample as when decided here."""
    for n, a in every_user_reach(ctx):
        if planned:
            one = planned_part(rec.claim, ctx, (n, str(a)))
        else:
            one = every_user_instance(rec.claim, ctx, mechs_of, n, a, users)
        absorb(rec, one)
        if any(d.outcome is Outcome.COUNTEREXAMPLE for d in one.decisions):
            return False
    rec.value(every_user_premise=geometric_for_every_user(2, F(1, 2), users, ctx.solver_timeout).premise)
    rec.note(
        "every user, per (n, alpha): the users are the cone W = p_i l(i, r) (legal l, any prior); T is optimal for "
        "all of them iff no ray of the DP cone has a negative reduced cost in T's basis, one SMT query per (ray, "
        "output), each unsat; every other listed mechanism: no user of the cone prefers T to it (one unsat)"
    )
    return True


# ---------------------------------------------------------------- grs2011.cor3.3 / lemma5.11 / grs2009.thm3.1


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


def cor33_mechanisms(n: int, a: F) -> list[tuple[str, Matrix]]:
    return [("T", truncated_geometric(n, a)), ("geometric (tails lumped)", geometric_lumped(n, a))]


#: The mechanisms each every-user claim's own run lists; its (n, alpha) tasks are planned with them.
DEFAULT_MECHANISMS: dict[str, Callable[[int, F], list[tuple[str, Matrix]]]] = {
    "grs2011.cor3.3": cor33_mechanisms,
    "grs2011.lemma5.11": mechanisms_with_remap_to_t,
    "grs2009.thm3.1": cor33_mechanisms,
}


@checks("grs2011.cor3.3", plan=every_user_plan("grs2011.cor3.3", cor33_mechanisms))
def geometric_universal(
    ctx: Context,
    mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = cor33_mechanisms,
    users: str = LEGAL,
) -> Findings:
    """grs2011 Corollary 3.3: the alpha-geometric and truncated alpha-geometric mechanisms are universally
    utility-maximizing: for every user their best remap attains the optimum of LP (3)-(7)."""
    rec = universality_scan(ctx, "grs2011.cor3.3", mechanisms, grids=True, users=users)
    corollary_3_3_at_boundary(rec, ctx)
    return rec


@checks("grs2011.lemma5.11", plan=every_user_plan("grs2011.lemma5.11", mechanisms_with_remap_to_t))
def remap_to_t_universal(
    ctx: Context,
    mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = mechanisms_with_remap_to_t,
    users: str = LEGAL,
) -> Findings:
    """grs2011 Lemma 5.11: if Y o X = T then X is universally utility-maximizing, for ALL priors (zeros allowed)
    and all legal (not necessarily strict) losses -- exactly where the limit argument is needed."""
    return universality_scan(ctx, "grs2011.lemma5.11", mechanisms, grids=True, users=users)


def sided_loss_probe(ctx: Context) -> tuple[str | None, list[tuple[int, F]]]:
    """Outside the theorem: every loss nondecreasing on each side of i but not a function of |r-i| (gs2010-style).
    Decided over EVERY such user at small (n, alpha) (udpm.auditing.every_user, the "sided" cone); recorded as a value,
    not
    as an instance of the claim.  Returns the first counterexample (or None) and the (n, alpha) decided."""
    reach = [(n, a) for n in (2, 3) for a in alphas(ctx)]
    for n, a in reach:
        verdict = geometric_for_every_user(n, a, SIDED, ctx.solver_timeout)
        if verdict.counterexample:
            return str(verdict.counterexample), reach
    return None, reach


@checks("grs2009.thm3.1", plan=every_user_plan("grs2009.thm3.1", cor33_mechanisms))
def geometric_minimizes_every_loss(
    ctx: Context,
    mechanisms: Callable[[int, F], list[tuple[str, Matrix]]] = cor33_mechanisms,
    users: str = LEGAL,
) -> Findings:
    """grs2009 Theorem 3.1: y^u o x^G minimizes u's expected loss over all oblivious alpha-DP mechanisms with
    range N, for every prior and loss monotone in |i-r| (the paper's reading, Section 5)."""
    rec = universality_scan(ctx, "grs2009.thm3.1", mechanisms, grids=False, users=users)
    if rec.counterexample:
        return rec
    found, reach = sided_loss_probe(ctx)
    rec.value(sided_loss_counterexample=found or "none")
    rec.note(
        "outside the theorem (grs2009 fixes l monotone in |i-r|): over every user whose loss is nondecreasing on "
        f"each side of i, asymmetric allowed, at n in 2..3 and {len(reach) // 2} alphas, "
        + (f"T is NOT optimal for some user: {found}" if found else "T is optimal for every such user (SMT unsat)")
    )
    theorem_3_1_at_boundary(rec, ctx)
    if rec.counterexample:
        rec.value(
            corrected_statement="alpha in [0, 1) instead of [0, 1]: at alpha = 1 grs2009's x^G (pmf 0 everywhere) is "
            "no mechanism, so y^u o x^G minimizes nothing over the mechanisms with range N",
            corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: every legal user, n <= 3)",
        )
    return rec
