"""Which mechanisms are universally utility-maximizing (grs2011 Lemma 5.12, Theorem 3.2, Corollary 3.4;
grs2009 Theorem 6.1).

* grs2011.lemma5.12: for the 1-parameter family of users (uniform prior,
  l(i, j) = 1 + gamma|j-i| off the diagonal) the set of gamma >= 0 where T is
  the unique optimum is computed exactly at each (n, alpha) by parametric
  reduced costs at the nondegenerate vertex T: one BOUNDED instance per
  (n, alpha) covering every gamma.  Certified solves at a few gammas are
  SAMPLED cross-checks.
* grs2011.thm3.2: per (n, alpha), over every mechanism and every legal user
  (BOUNDED, :func:`decide_characterization_for_every_x`); the finite lists of
  mechanisms and users stay as SAMPLED cross-checks.
* cor3.4, grs2009.thm6.1: the mechanisms are a finite list
  (and every deterministic remap of T), the users a finite sample: SAMPLED.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.boundary.alpha_one import decide_alpha_one
from proofs.boundary.universality import range_n_uniqueness_at_one, range_n_uniqueness_at_zero, theorem_3_2_at_boundary
from proofs.universality.bayesian import (
    Matrix,
    _less,
    alphas,
    best_remap,
    decide_users,
    every_user_reach,
    expected_loss,
    flat,
    mechanisms_with_remap_to_t,
    optimum,
    rr_mechanism,
)
from proofs.universality.sample_users import adversarial_users, describe, irrational_loss_user, random_users
from udpm.auditing.every_user import LEGAL, optimal_for_every_user
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import geometric_window, truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, Loss
from udpm.errors import InvalidMatrix
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, column_label, solve, vertex_reduced_costs
from udpm.lp.programs import bayesian_lp, remap_existence_lp

# ---------------------------------------------------------------- grs2011.lemma5.12


def gamma_user(n: int, gamma: F) -> BayesianUser:
    """grs2011 Lemma 5.12's user: uniform prior, l(i, j) = 0 if i = j, else 1 + gamma |j - i|."""
    return BayesianUser.of(
        [F(1, n + 1)] * (n + 1), Loss.from_function(n, lambda i, j: 0 if i == j else 1 + gamma * abs(i - j))
    )


def _objective(user: BayesianUser, a: F) -> dict[int, F]:
    c: dict[int, F] = {}
    for j, v in bayesian_lp(user, a).objective:
        c[j] = c.get(j, F(0)) + F(v)
    return c


def gamma_interval(
    n: int, a: F, timeout_s: float, family: Callable[[int, F], BayesianUser] = gamma_user
) -> tuple[F | None, F | None, list[str]]:
    """Exact parametric analysis at the nondegenerate vertex T for the users family(n, gamma), whose objective is
    affine in gamma (c0 + gamma c1): reduced costs are d0 + gamma d1, so T is optimal iff gamma in [L, U] and
    uniquely optimal iff gamma in (L, U) (at an end a nonbasic column with zero reduced cost can enter with a
    positive step, since every basic value of T is positive).  None = unbounded; ``stuck`` lists columns with
    reduced cost <= 0 for every gamma."""
    lp = bayesian_lp(family(n, F(0)), a)
    c0, c_one = _objective(family(n, F(0)), a), _objective(family(n, F(1)), a)
    obj0 = sorted(c0.items())
    obj1 = [(j, c_one.get(j, F(0)) - c0.get(j, F(0))) for j in sorted(set(c0) | set(c_one))]
    nonbasic, (d0, d1) = vertex_reduced_costs(lp, flat(truncated_geometric(n, a)), [obj0, obj1], timeout_s=timeout_s)
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


def _t_unique(opt: Certified, t: Matrix) -> bool:
    return bool(opt.unique) and list(opt.x) == flat(t)


@checks("grs2011.lemma5.12")
def unique_optimum_user(
    ctx: Context,
    loss_of: Callable[[int, F], BayesianUser] = gamma_user,
    gammas: Sequence[F] = (F(0), F(1, 1000), F(1, 10), F(1), F(10)),
) -> Findings:
    """grs2011 Lemma 5.12: for the uniform prior and l(i,j) = 1 + gamma|j-i| (i != j), gamma small, T is the unique
    optimal direct mechanism.  Per (n, alpha), exactly for every gamma >= 0: the interval [0, gamma_max) where T is
    the unique optimum (bounded); certified solves at sample gammas inside it (sampled), and at gamma_max and
    beyond (consistency of the analysis: T optimal, not unique, at gamma_max; beaten beyond)."""
    rec = Findings("grs2011.lemma5.12")
    n_max = 4 if ctx.quick else 7
    failures: list[str] = []
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            t = truncated_geometric(n, a)
            key = f"n={n},alpha={a}"
            with rec.deciding(
                n=n,
                alpha=a,
                kind=BOUNDED,
                method="exact parametric reduced costs at the vertex T",
                covers="every gamma >= 0 of the family: T uniquely optimal iff 0 <= gamma < gamma_max, gamma_max > 0",
            ) as d:
                lo, hi, stuck = gamma_interval(n, a, ctx.solver_timeout, loss_of)
                if stuck or not (lo is not None and lo < 0) or (hi is not None and hi <= 0):
                    small = (hi / 2) if hi is not None and hi > 0 else F(1, 1000)
                    d.counterexample(
                        f"{key}: T is not the unique optimum for any small gamma > 0 (T uniquely optimal exactly on "
                        f"({lo}, {hi}); {stuck[:1]}); e.g. gamma={small}: {describe(loss_of(n, small))}"
                    )
                    return rec
                rec.value(**{f"gamma_max[{key}]": "oo" if hi is None else hi})
                for g in [g for g in gammas if hi is not None and g > hi] + ([hi] if hi is not None else []):
                    opt = optimum(loss_of(n, g), a, ctx.solver_timeout, unique=True)
                    t_loss = expected_loss(loss_of(n, g), t)
                    at_end = g == hi
                    if (at_end and (opt.objective != t_loss or opt.unique)) or (
                        not at_end and not opt.objective < t_loss
                    ):
                        d.inconclusive(
                            f"{key}, gamma={g}: the parametric analysis (T optimal iff gamma <= {hi}, unique iff <) "
                            f"disagrees with the certified optimum {opt.objective}, unique={opt.unique}"
                        )
                        break
                    failures.append(
                        f"{key}, gamma={g}: T optimal, not unique"
                        if at_end
                        else f"{key}, gamma={g} > {hi}: optimum {opt.objective} < T's {t_loss}"
                    )
            for g in gammas:
                if hi is not None and g >= hi:
                    continue
                user = loss_of(n, g)
                with rec.deciding(
                    n=n, alpha=a, kind=SAMPLED, method="certified unique optimum", covers="one gamma", gamma=g
                ) as d:
                    opt = optimum(user, a, ctx.solver_timeout, unique=True)
                    if len(certs) < 2 and opt.unique:
                        certs.append((f"Lemma 5.12 user, gamma={g}, n={n}, alpha={a}", opt))
                    if not _t_unique(opt, t):
                        d.counterexample(
                            f"{key}, gamma={g}: T (loss {expected_loss(user, t)}) is not the unique optimum: "
                            f"certified optimum {opt.objective}, unique={opt.unique}; user {describe(user)}"
                        )
            if rec.counterexample:
                return rec
    rec.value(gammas_failing_T=len(failures), gamma_max_n2_closed_form=closed_form_n2(ctx))
    rec.note(
        "Lemma holds (gamma in [0, gamma_max) works for every (n, alpha) checked; the binary loss gamma=0 "
        "included), decided for every gamma >= 0 at each (n, alpha).  'Small' is essential and depends on alpha: "
        "T is the unique optimal direct mechanism iff 0 <= gamma < gamma_max(n, alpha); gamma_max = oo at small "
        "alpha but finite for alpha near 1, tending to 0 as alpha -> 1 (values gamma_max[...]).  At n = 2: "
        "gamma_max = (1-alpha)/(alpha^2+alpha-1) for alpha > (sqrt(5)-1)/2 and oo below (value "
        f"gamma_max_n2_closed_form).  Beyond gamma_max: {'; '.join(failures[:4])}"
    )
    rec.certificate = certificate_of({"claim": "unique_optimum_user"}, certs[:2])
    return rec


def closed_form_n2(ctx: Context) -> str:
    """gamma_max at n = 2 against (1-a)/(a^2+a-1) (oo when a^2+a-1 <= 0), at alpha = k/100 and 999/1000."""
    grid = [F(k, 100) for k in range(1, 100)] + [F(999, 1000)]
    for a in grid:
        hi = gamma_interval(2, a, ctx.solver_timeout)[1]
        formula = (1 - a) / (a * a + a - 1) if a * a + a - 1 > 0 else None
        if hi != formula:
            return f"differs at alpha={a}: gamma_max = {hi}, the closed form gives {formula}"
    return f"matches at {len(grid)} alphas"


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


def is_permutation(d: Sequence[int]) -> bool:
    return len(set(d)) == len(d)


def range_n_scan(ctx: Context, claim: str, witness_gamma: F, claimed: Callable[[Sequence[int]], bool]) -> Findings:
    """Range-N mechanisms: X = T·D for every deterministic D : N -> N, plus randomized ones.  'If': every X with
    claimed(D) (the theorem: D a permutation) attains lambda(u) for each sampled user; 'only if': every other T·D,
    and each randomized X with no remap to T, is strictly beaten by the lemma-5.12 user (T its unique optimum)."""
    rec = Findings(claim)
    rng = ctx.rng(claim)
    n_max = 3 if ctx.quick else 4
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            t = truncated_geometric(n, a)
            user = gamma_user(n, witness_gamma)
            lam = optimum(user, a, ctx.solver_timeout, unique=True)
            if len(certs) < 2:
                certs.append((f"witness user gamma={witness_gamma}, n={n}, alpha={a}", lam))
            ds = list(itertools.product(range(n + 1), repeat=n + 1))
            others = [d for d in ds if not claimed(d)]
            if others:
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="best remap vs the witness user's certified unique optimum",
                    covers=f"the {len(others)} mechanisms T·D, D deterministic, outside the claimed class",
                    part="only if",
                    family="T·D",
                ) as d:
                    if not _t_unique(lam, t):
                        d.inconclusive(
                            f"n={n}, alpha={a}: T is not the unique optimum of the witness {describe(user)} "
                            f"(certified optimum {lam.objective}, unique={lam.unique})"
                        )
                    else:
                        for dd in others:
                            mu, _ = best_remap(compose(t, deterministic_remap(list(dd), n + 1)), user)
                            if not _less(lam.objective, mu):
                                d.inconclusive(f"n={n}, alpha={a}: T·{list(dd)} is not beaten by the witness user")
                                break
            mine = [(f"T·{list(dd)}", compose(t, deterministic_remap(list(dd), n + 1))) for dd in ds if claimed(dd)]
            users = adversarial_users(n)[:4] + random_users(rng, n, 2)
            if not decide_users(rec, mine, users, n, a, ctx, certs, part="if"):
                return rec
            for mlabel, x in non_universal_mechanisms(n, a):
                has, _ = remap_exists(x, t, ctx.solver_timeout)
                if has:
                    permuted = any(
                        compose(t, deterministic_remap(list(p), n + 1)) == x
                        for p in itertools.permutations(range(n + 1))
                    )
                    with rec.deciding(
                        n=n,
                        alpha=a,
                        kind=SAMPLED,
                        method="certified remap LP",
                        covers="one range-N mechanism with a remap to T",
                        part="only if",
                        mechanism=mlabel,
                    ) as d:
                        if not permuted:
                            d.counterexample(
                                f"n={n}, alpha={a}: range-N {mlabel} {linalg.fmt_matrix(x)} has a remap to T "
                                "(so it is universal) but is not a permutation of T"
                            )
                            return rec
                else:
                    decide_beaten(rec, mlabel, x, n, a, ctx)
    rec.note(
        f"all (n+1)^(n+1) deterministic remaps D of T: the non-permutations are beaten by the user with T as "
        f"certified unique optimum (uniform prior, loss 1+gamma|j-i| with gamma={witness_gamma}), one instance per "
        "(n, alpha); each permuted T attains lambda(u) for each sampled user (one instance per user); randomized "
        "range-N mechanisms with no remap to T are beaten (one instance per mechanism)"
    )
    rec.certificate = certificate_of({"claim": "range_n_scan"}, certs[:2])
    return rec


@checks("grs2011.cor3.4")
def permutations_of_t(
    ctx: Context, witness_gamma: F = F(0), claimed: Callable[[Sequence[int]], bool] = is_permutation
) -> Findings:
    """grs2011 Corollary 3.4: for n >= 1 and alpha in [0, 1], a mechanism with range N is universally
    utility-maximizing iff it is pi o T for a permutation pi; the 'only if' direction through the Lemma 5.12 user
    for alpha in (0, 1), and the printed boundary alpha = 1 (proofs.boundary.alpha_one), checked for small n."""
    rec = range_n_scan(ctx, "grs2011.cor3.4", witness_gamma, claimed)
    decide_alpha_one(rec, ctx, ALPHA_ONE_CANDIDATE, 3 if ctx.quick else 4)
    range_n_uniqueness_at_zero(
        rec,
        ctx,
        "every range-N mechanism X optimal for every user after its best remap: X = pi o T with T(n, 0) = I "
        "under both readings (0^0 = 1)",
    )
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]; at alpha = 1 every 1-DP mechanism (equal rows) "
        "is universally utility-maximizing (the SMT query of each alpha = 1 instance does not depend on X)",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: the 'only if' for every range-N "
        "mechanism, n <= 3)",
    )
    return rec


#: Corollary 3.4's counterexample at alpha = 1: every row (2/3, 1/3, 0, ...), not pi o T under either reading.
ALPHA_ONE_CANDIDATE = (F(2, 3), F(1, 3))


def conclusion_x_g(rec: Findings, ns: range = range(1, 4), alphas: Sequence[F] = (F(1, 2), F(1, 3))) -> None:
    """grs2009 Theorem 6.1's printed conclusion p o x = x^G at alphas inside (0, 1): x = T(n, alpha), which meets the
    hypothesis (grs2009 Theorem 3.1, decided at these (n, alpha) by grs2009.thm3.1 and grs2011.cor3.3), has range N,
    and so has every p o x; x^G puts (1 - alpha)/(1 + alpha) alpha^(i+1) > 0 on the output -1 in row i."""
    for n in ns:
        for al in alphas:
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact: the output -1 of x^G",
                covers="the printed conclusion p o x = x^G, for x = T(n, alpha)",
            ) as d:
                t = truncated_geometric(n, al)
                below = geometric_window(n, al, -1, -1)[0][0]  # x^G(0, -1)
                if below > 0 and all(sum(row) == 1 for row in t):
                    d.counterexample(
                        f"x = T({n}, {al}) meets the hypothesis (Theorem 3.1) and every p o x has range N, while "
                        f"x^G puts probability {below} on the output -1 for the result 0: no permutation p gives "
                        "p o x = x^G (the conclusion holds for G = w o x^G, Section 5's range-N version)"
                    )


@checks("grs2009.thm6.1")
def uniqueness_up_to_permutation(
    ctx: Context,
    witness_gamma: F = F(0),
    claimed: Callable[[Sequence[int]], bool] = is_permutation,
    conclusion: str = "x^G",
) -> Findings:
    """grs2009 Theorem 6.1: among range-N mechanisms the geometric mechanism is the unique simultaneously optimal
    one up to a permutation; its proof's user (uniform prior, binary loss) is checked to have G as unique optimum.

    The printed conclusion is p o x = x^G, where x^G is the alpha-geometric mechanism (Theorem 3.1), with range Z;
    Section 5 names its range-N version G = w o x^G.  ``conclusion`` = "x^G" decides it as printed
    (:func:`conclusion_x_g`); "G" reads it as G, the statement of grs2009.thm6.1.corrected."""
    rec = range_n_scan(ctx, "grs2009.thm6.1", witness_gamma, claimed)
    if conclusion == "x^G":
        conclusion_x_g(rec)
    rec.note(
        "the printed range alpha in [0, 1] includes alpha = 1, where grs2009's geometric distribution "
        "(1 - alpha)/(1 + alpha) alpha^|z| is 0 everywhere: x^G is no mechanism, and the 1-DP x with every row "
        "(2/3, 1/3, 0, ...) meets the hypothesis while no p o x is x^G (nor the truncated T(n, 1) under grs2011's "
        "readings, as in grs2011 Corollary 3.4): refuted at alpha = 1 for n <= 3"
    )
    range_n_uniqueness_at_zero(
        rec,
        ctx,
        "every range-N mechanism x optimal for every user after its best remap: x = p^-1 for a permutation "
        "p, so p o x = x^G = I (grs2009's formula at alpha = 0, 0^0 = 1)",
    )
    range_n_uniqueness_at_one(rec, ctx, ALPHA_ONE_CANDIDATE)
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]: at alpha = 1 every 1-DP mechanism with range N (equal "
        "rows) meets the hypothesis and x^G (pmf 0 everywhere) is no mechanism",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: every range-N mechanism, n <= 3)",
    )
    return rec


@checks("grs2009.thm6.1.corrected")
def uniqueness_up_to_permutation_of_g(
    ctx: Context, witness_gamma: F = F(0), claimed: Callable[[Sequence[int]], bool] = is_permutation
) -> Findings:
    """grs2009 Theorem 6.1 with the conclusion read as p o x = G (Section 5's range-N version of x^G) and alpha in
    [0, 1): the printed check's instances, without the literal conclusion and the end alpha = 1."""
    from udpm.claims.registry import restrict

    found = uniqueness_up_to_permutation(ctx, witness_gamma, claimed, conclusion="G")
    return restrict("grs2009.thm6.1.corrected", found)
