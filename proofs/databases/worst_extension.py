"""grs2011 Proposition 6.1 and grs2009 Proposition 6.2: an oblivious mechanism is optimal under the worst extension.

Under the worst-extension objective (9), averaging an alpha-DP mechanism on D^n over the databases with the same
count gives an oblivious alpha-DP mechanism that is no worse.  Each claim runs the averaging argument of
:mod:`proofs.databases.averaging` (all n, the degree formulas against enumeration, Farkas multipliers per
(space, alpha)) with (9) as its loss step, then per (space, alpha) drawn legal users (the certified database-level
optimum of (9) equals the oblivious one of (3)-(7)) and drawn mechanisms averaged exactly.
"""

from __future__ import annotations

import functools
import random
from fractions import Fraction

from proofs.databases.averaging import (
    FULL_SPACES,
    SPACES,
    averaging_all_n,
    decide_averaged,
    decide_farkas,
    degrees_cross_check,
    digest,
    row_count_erratum,
    space_label,
)
from udpm.claims.instances import SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.users import BayesianUser, Loss, absolute_error, binary_loss, squared_error
from udpm.induction.databases import WORST_EXTENSION, derived_degrees, hamming, outside_the_hypotheses
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.database import DatabaseSpace, mechanism_rows, random_dp_database_mechanism, worst_extension_lp
from udpm.lp.programs import bayesian_lp

F = Fraction
ALPHAS = (F(1, 4), F(1, 2), F(2, 3))  # the fixed alpha grid of the averaging claims


def random_legal_loss(rng: random.Random, n: int) -> Loss:
    """A legal loss (grs2011: l(i, j) depends on i and |j - i|, nondecreasing in |j - i|, ties allowed)."""
    if rng.randrange(3) == 0:
        return rng.choice((absolute_error, squared_error, binary_loss))(n)
    steps = [[F(rng.choice((0, 1, 2, 3)), rng.choice((1, 2))) for _ in range(n + 1)] for _ in range(n + 1)]
    return Loss.from_function(n, lambda i, j: sum(steps[i][: abs(i - j)], F(0)))


def random_prior(rng: random.Random, n: int) -> list[Fraction]:
    raw = [F(rng.choice((0, 0, 1, 2, 3))) for _ in range(n + 1)]
    if not any(raw):
        raw[rng.randrange(n + 1)] = F(1)
    return [v / sum(raw) for v in raw]


def worst_extension_value(space: DatabaseSpace, x, prior, loss: Loss) -> Fraction:
    """(9): sum_i p_i max_{f(d)=i} sum_j x_dj l(i, j) (the worst prior over databases puts p_i on one database)."""
    total = F(0)
    for i, p in enumerate(prior):
        if p:
            total += p * max(sum((x[d][j] * loss(i, j) for j in range(space.n + 1)), F(0)) for d in space.with_count(i))
    return total


def averaging_check(ctx: Context, claim: str, alpha_claimed: Fraction | None, all_n: dict | None = None) -> Findings:
    """The papers' argument for every n (averaging_all_n, ALL_N instances; ``all_n`` its injectable variants),
    the degree and size formulas against enumeration per space (bounded), one bounded instance per (space, alpha)
    (Farkas: every mechanism, every user), then per (space, alpha) a drawn user (LP optima compared) and two drawn
    mechanisms (its LP optimum, a random alpha-DP one) averaged."""
    rec = Findings(claim)
    rng = ctx.rng(claim)
    spaces = SPACES if ctx.quick else FULL_SPACES
    opts = dict(all_n or {})
    if alpha_claimed is not None:
        opts.setdefault("claimed", lambda a: alpha_claimed)
        opts.setdefault("variant", {"claimed_alpha": alpha_claimed})
    averaging_all_n(rec, ctx, opts.pop("loss_step", WORST_EXTENSION), **opts)
    up, down, _ = derived_degrees(hamming)
    for dom, n, pred in spaces:
        degrees_cross_check(rec, DatabaseSpace.of(dom, n, pred), up, down)
    if claim == "grs2009.prop6.2":
        row_count_erratum(rec)
    rec.value(**{"outside the printed hypotheses": outside_the_hypotheses()})
    users_per_cell = 1 if ctx.quick else 3
    certs: list = []
    lps = 0
    for dom, n, pred in spaces:
        space = DatabaseSpace.of(dom, n, pred)
        where_space = space_label(space)
        for a in ALPHAS:
            ac = a if alpha_claimed is None else alpha_claimed
            variant = {} if ac == a else {"claimed_alpha": ac}
            step = "every user: averaging keeps alpha-DP, and (9) of the average = sum_i p_i mean <= sum_i p_i max"
            ok, text = decide_farkas(rec, space, n, a, ac, step, variant)
            if ok:
                rec.value(**{f"Farkas multipliers ({where_space}, n={n})": text})
            seen: set[str] = set()
            for _ in range(users_per_cell):
                loss, prior = random_legal_loss(rng, n), random_prior(rng, n)
                user_text = f"prior={[str(p) for p in prior]}, l={[[str(v) for v in r] for r in loss.values]}"
                if digest(user_text) in seen:
                    continue  # a repeated draw decides nothing new
                seen.add(digest(user_text))
                db = solve(worst_extension_lp(space, prior, loss, a), timeout_s=ctx.solver_timeout)
                user = BayesianUser.of(prior, loss)
                obl = solve(bayesian_lp(user, ac), timeout_s=ctx.solver_timeout)
                lps += 2
                if not certs:
                    certs = [("database-level (9)", db), ("oblivious (3)-(7)", obl)]
                where = f"{where_space}, n={n}, alpha={a}, {user_text}"
                rec.decide(
                    db.objective == obl.objective,
                    f"{where}: database-level optimum of (9) {db.objective} != oblivious optimum {obl.objective} "
                    f"at alpha={ac}",
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="certified LP optima: database-level (9) = oblivious",
                    covers="one drawn user (prior, legal loss)",
                    space=where_space,
                    sample=digest(user_text),
                    **variant,
                )
                drawn = [
                    ("the user's database-level LP optimum", mechanism_rows(space, db.lp.names, db.x)),
                    ("a random alpha-DP database mechanism", random_dp_database_mechanism(rng, space, a)),
                ]
                decide_averaged(
                    rec,
                    space,
                    (n, a, ac, variant),
                    user_text,
                    drawn,
                    seen,
                    (
                        "(9)",
                        functools.partial(worst_extension_value, space, prior=prior, loss=loss),
                        user.expected_loss,
                    ),
                    where,
                )
    rec.value(certified_lps=lps, database_spaces=len(spaces))
    rec.certificate = certificate_of({"certified LPs": lps}, certs)
    rec.note(
        "all n (averaging_all_n): the neighbours of a generic count-i database counted row by row give the printed "
        "degrees a = (n-i)t, b = (i+1)(|D|-t), double counting |E| = a|S_i| = b|S_(i+1)|, the multipliers 1/|E| "
        "leave exactly (alpha - alpha_c) x a class mean, and (9) is mean <= max (SMT, premises witnessed); "
        "bounded: those formulas against enumeration per D^n, and Farkas multipliers per (D^n, predicate, alpha); "
        "sampled: drawn legal users (database-level LP optimum of (9) = oblivious optimum, both certified) and "
        "drawn mechanisms averaged exactly.  The proofs start from an optimal X; the step they leave implicit is "
        "supplied by the shape of the argument: (9)(average of X) <= (9)(X) for EVERY X, so the infimum over all "
        "mechanisms is the one over oblivious ones, an LP over a non-empty (uniform rows) bounded polytope, which "
        "attains it.  Scope as printed: n >= 1, alpha in [0, 1], neighbours differ in one row, a non-trivial "
        "predicate (both papers, Section 2.1); the record says what fails without it"
    )
    return rec


@checks("grs2011.prop6.1")
def prop_6_1(ctx: Context, alpha_claimed: Fraction | None = None, all_n: dict | None = None) -> Findings:
    """grs2011 Proposition 6.1: averaging an alpha-DP mechanism over the databases with the same count gives an
    oblivious alpha-DP mechanism with no larger worst-extension loss (9); an oblivious mechanism is optimal."""
    return averaging_check(ctx, "grs2011.prop6.1", alpha_claimed, all_n)


@checks("grs2009.prop6.2")
def prop_6_2(ctx: Context, alpha_claimed: Fraction | None = None, all_n: dict | None = None) -> Findings:
    """grs2009 Proposition 6.2: some alpha-DP mechanism minimising (9) is oblivious (the averaging argument)."""
    return averaging_check(ctx, "grs2009.prop6.2", alpha_claimed, all_n)
