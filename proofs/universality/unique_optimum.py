"""grs2011 Lemma 5.12 (claim grs2011.lemma5.12): for the 1-parameter family of users (uniform prior,
l(i, j) = 1 + gamma|j-i| off the diagonal) the set of gamma >= 0 where T is the unique optimum is computed exactly at
each (n, alpha) by parametric reduced costs at the nondegenerate vertex T: one BOUNDED instance per (n, alpha)
covering every gamma.  Certified solves at a few gammas are SAMPLED cross-checks.

Its users witness the 'only if' of Theorem 3.2 (:mod:`proofs.universality.characterization`) and of
Corollary 3.4 (:mod:`proofs.universality.range_n_permutations`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.universality.optimality import Matrix, alphas, expected_loss, flat, optimum
from proofs.universality.sample_users import describe
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import truncated_geometric
from udpm.core.users import BayesianUser, Loss
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, column_label, vertex_reduced_costs
from udpm.lp.programs import bayesian_lp

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


def t_is_unique(opt: Certified, t: Matrix) -> bool:
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
                    if not t_is_unique(opt, t):
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
