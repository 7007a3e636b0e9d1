"""Averaging over databases with the same count (grs2011 Proposition 6.1, grs2009 Proposition 6.2).

Under the worst-extension objective (9) averaging an alpha-DP mechanism on D^n over the databases with the same
count gives an oblivious alpha-DP mechanism that is no worse.  For one database space D^n (|D|, predicate) and
one alpha, Farkas multipliers show that every averaged DP inequality is a non-negative combination of the
database-level DP inequalities and x >= 0, so averaging keeps alpha-DP for EVERY alpha-DP mechanism; (9) of the
average is sum_i p_i mean_{S_i} <= sum_i p_i max_{S_i}, for every prior and loss.  Users and mechanisms are also
sampled (certified LP optima, random DP mechanisms) as a cross-check.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import Context, Findings, checks
from udpm.instances import BOUNDED, SAMPLED
from udpm.privacy import database_dp_violations, dp_violations
from udpm.programs import bayesian_lp
from udpm.programs_database import (
    Database,
    DatabaseSpace,
    average_by_count,
    mechanism_rows,
    random_dp_database_mechanism,
    worst_extension_lp,
)
from udpm.users import BayesianUser, Loss, absolute_error, binary_loss, squared_error

F = Fraction
ALPHAS = (F(1, 4), F(1, 2), F(2, 3))  # the fixed alpha grid of the averaging claims
# (|D|, n, predicate): n = 1 (the papers' smallest database size) to 3; the full run adds n = 4 and |D| = 4.
SPACES = ((2, 1, (1,)), (3, 1, (1, 2)), (2, 2, (1,)), (3, 2, (1,)), (3, 2, (1, 2)), (2, 3, (1,)))
FULL_SPACES = (*SPACES, (3, 1, (1,)), (2, 4, (1,)), (3, 3, (1,)), (4, 2, (1, 3)))

def digest(text: str) -> str:
    """A short, stable identifier of a drawn object's exact text."""
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def space_label(space: DatabaseSpace) -> str:
    return f"|D|={space.domain}, P={sorted(space.predicate)}"


def mechanism_text(x: Mapping[Database, Sequence[Fraction]]) -> str:
    return "; ".join(f"{''.join(map(str, d))}: {[str(v) for v in x[d]]}" for d in sorted(x))


# ---------------------------------------------------------------- averaging keeps alpha-DP: Farkas multipliers


def decide_farkas(
    rec: Findings, space: DatabaseSpace, n: int, a: Fraction, ac: Fraction, loss_step: str, variant: dict
) -> tuple[bool, str]:
    """One bounded instance per (D^n, alpha): averaging keeps alpha-DP for every mechanism (Farkas), and the
    objective's step ``loss_step`` holds for every user; (holds, the multipliers or the failure)."""
    ok, text = averaging_farkas(space, a, ac)
    rec.decide(
        ok,
        text,
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="Farkas multipliers, exact",
        covers=f"every alpha-DP mechanism on D^n and {loss_step}",
        space=space_label(space),
        **variant,
    )
    return ok, text


def decide_averaged(
    rec: Findings,
    space: DatabaseSpace,
    cell: tuple[int, Fraction, Fraction, dict],
    who: str,
    drawn: list[tuple[str, list[list[Fraction]]]],
    seen: set[str],
    objective: tuple[str, Callable, Callable],
    where: str,
) -> None:
    """One sampled instance per drawn database mechanism x: its average by count is ac-DP and the
    objective (name, value of x, value of the oblivious average) does not go up."""
    n, a, ac, variant = cell
    name, before_of, after_of = objective
    for what, x in drawn:
        key = digest(f"{who} / {mechanism_text(x)}")
        if key in seen:
            continue  # a repeated draw decides nothing new
        seen.add(key)
        with rec.deciding(
            n=n,
            alpha=a,
            kind=SAMPLED,
            method="averaging, exact",
            covers=what,
            space=space_label(space),
            sample=key,
            **variant,
        ) as d:
            xa = average_by_count(space, x)
            bad = dp_violations(xa, ac)
            before, after = before_of(x), after_of(xa)
            if bad:
                d.counterexample(f"{where}: the average {linalg.fmt_matrix(xa)} is not {ac}-DP: {bad[0]}")
            elif after > before:
                d.counterexample(f"{where}: averaging {mechanism_text(x)} raised {name} from {before} to {after}")


def averaging_farkas(space: DatabaseSpace, alpha: Fraction, alpha_claimed: Fraction) -> tuple[bool | None, str]:
    """Does averaging over equal counts turn EVERY alpha-DP mechanism on ``space`` into an alpha_claimed-DP one?

    alpha-DP constrains each output column c separately: c >= 0 and c_d >= alpha c_d' for neighbours d, d'.
    For counts i, i+1 and each direction the averaged inequality mean_{S_i} c - alpha_claimed mean_{S_{i+1}} c
    >= 0 (and its mirror) is written as sum_e c_e/E (c_d - alpha c_d') over the E neighbour pairs e = (d, d')
    between S_i and S_{i+1} (the paper's equal-degree argument) plus a residual sum_d mu_d c_d; the residual's
    coefficients mu_d are computed exactly and must all be >= 0 (Farkas multipliers: the inequality then holds
    on the whole cone).  Otherwise the oblivious columns alpha^i and alpha^(n-i), completed to a mechanism, are
    tried as a concrete counterexample.  Returns (True, certificate), (False, witness) or (None, why)."""
    n = space.n
    edges_per_step = []
    for i in range(n):
        lo, hi = set(space.with_count(i)), set(space.with_count(i + 1))
        edges = [(d1, d2) if d1 in lo else (d2, d1) for d1, d2 in space.neighbours if {d1, d2} & lo and {d1, d2} & hi]
        edges_per_step.append(len(edges))
        for src, dst, pairs in ((lo, hi, edges), (hi, lo, [(e, d) for d, e in edges])):
            residual = {d: F(1, len(src)) for d in src} | {d: -alpha_claimed / len(dst) for d in dst}
            for d, e in pairs:  # weight 1/E on c_d - alpha c_e >= 0
                residual[d] -= F(1, len(pairs))
                residual[e] += alpha / len(pairs)
            if any(v < 0 for v in residual.values()):
                return _averaging_counterexample(space, alpha, alpha_claimed, i)
    return True, f"multipliers 1/E on the E neighbour pairs between counts i, i+1: E = {edges_per_step}; residual >= 0"


def _averaging_counterexample(space: DatabaseSpace, alpha: Fraction, alpha_claimed: Fraction, i: int):
    t = (1 - alpha) / 2  # 1 - t c keeps every neighbour ratio >= 1 - t >= alpha
    for column in (lambda d: alpha ** space.count(d), lambda d: alpha ** (space.n - space.count(d))):
        x = {d: [t * column(d), 1 - t * column(d)] + [F(0)] * (space.n - 1) for d in space.databases}
        if database_dp_violations(x, space.neighbours, alpha):
            continue
        bad = dp_violations(average_by_count(space, x), alpha_claimed)
        if bad:
            return False, (
                f"{space_label(space)}, n={space.n}: the {alpha}-DP mechanism {mechanism_text(x)} averages to "
                f"{linalg.fmt_matrix(average_by_count(space, x))}, not {alpha_claimed}-DP: {bad[0]}"
            )
    return None, f"counts {i}, {i + 1}: the equal-degree multipliers leave a negative residual, no counterexample found"


# ---------------------------------------------------------------- Propositions 6.1 / 6.2


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


def averaging_check(ctx: Context, claim: str, alpha_claimed: Fraction | None) -> Findings:
    """One bounded instance per (space, alpha) (Farkas: every mechanism, every user), then per (space, alpha) a
    drawn user (LP optima compared) and two drawn mechanisms (its LP optimum, a random alpha-DP one) averaged."""
    rec = Findings(claim)
    rng = ctx.rng(claim)
    spaces = SPACES if ctx.quick else FULL_SPACES
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
        "bounded per (D^n, predicate, alpha): Farkas multipliers (weight 1/E per neighbour pair, residual >= 0) "
        "show every averaged DP inequality is implied by the database-level ones, for every mechanism; the loss "
        "step is mean <= max for every prior and loss; sampled: drawn legal users (database-level LP optimum of "
        "(9) = oblivious optimum, both certified) and drawn mechanisms averaged exactly"
    )
    return rec


@checks("grs2011.prop6.1")
def prop_6_1(ctx: Context, alpha_claimed: Fraction | None = None) -> Findings:
    """grs2011 Proposition 6.1: averaging an alpha-DP mechanism over the databases with the same count gives an
    oblivious alpha-DP mechanism with no larger worst-extension loss (9); an oblivious mechanism is optimal."""
    return averaging_check(ctx, "grs2011.prop6.1", alpha_claimed)


@checks("grs2009.prop6.2")
def prop_6_2(ctx: Context, alpha_claimed: Fraction | None = None) -> Findings:
    """grs2009 Proposition 6.2: some alpha-DP mechanism minimising (9) is oblivious (the averaging argument)."""
    return averaging_check(ctx, "grs2009.prop6.2", alpha_claimed)

