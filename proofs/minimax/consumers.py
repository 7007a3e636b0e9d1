"""gs2010 minimax consumers: universal optimality of G, randomized interactions, Lemma 6 (Lemma 5: minimax_lemma5).

Theorem 1(2) is decided per (n, alpha) for every consumer at once (LP duality to
the Bayesian users of udpm.auditing.every_user).  Every optimum here is an exactly certified
LP optimum (udpm.lp.certify.solve: exact primal, exact dual, equal objectives).
Consumers are sampled from ``ctx.rng`` on a fixed (n, alpha) grid and cover side
information with gaps, singletons, losses nondecreasing in |i - r| with ties, and
alphas near 0 and near 1; each sampled consumer is one identified instance.
Lemma 6 is proved for every n by the averaging argument of proofs.databases.averaging (bounded per (D^n, alpha) too).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable
from fractions import Fraction

from proofs.boundary.derivation import every_consumer_at_boundary
from proofs.boundary.geometric import GS2010_RANGE
from proofs.databases.averaging import (
    FULL_SPACES,
    SPACES,
    averaging_all_n,
    decide_averaged,
    decide_farkas,
    digest,
    row_count_erratum,
    space_label,
)
from proofs.universality.sample_users import legal_loss, random_legal_g
from udpm.auditing.every_user import LEGAL, SIDED, Undecided, mechanism_for_every_user
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import Loss, MinimaxUser, absolute_error, binary_loss, squared_error
from udpm.errors import InvalidMatrix, SolverTimeout
from udpm.induction.databases import MINIMAX
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.database import DatabaseSpace, mechanism_rows, minimax_lp, random_dp_database_mechanism
from udpm.lp.minimax import optimal_interaction_lp, optimal_mechanism_lp

ALPHAS = (Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(2, 3), Fraction(99, 100))
#: Sampled consumers at alpha = 1/100 stop here: beyond, the optimal mechanism's entries reach 1/100^n and its exact
#: LP can exceed the 60 s bound (n = 12: 15-60+ s), so the --full samples at n = 8..12 use the other four alphas.
SMALL_ALPHA_N_MAX = 7


def random_monotone_loss(rng: random.Random, n: int) -> Loss:
    """l(i, r) = g_i(|i - r|), g_i nondecreasing with ties likely: the paper's class (gs2010 Section 2.4)."""
    return legal_loss(random_legal_g(rng, n))


def random_consumer(rng: random.Random, n: int) -> MinimaxUser:
    k = rng.randint(1, n + 1)
    s = sorted(rng.sample(range(n + 1), k))
    kind = rng.random()
    loss = random_monotone_loss(rng, n) if kind < 0.7 else rng.choice((absolute_error, binary_loss, squared_error))(n)
    return MinimaxUser.of(s, loss)


def describe(u: MinimaxUser) -> str:
    return f"S={list(u.side_information)}, l={[[str(v) for v in row] for row in u.loss.values]}"


def mechanism_optimum(u: MinimaxUser, a: Fraction, ctx: Context):
    return solve(optimal_mechanism_lp(u, a), timeout_s=ctx.solver_timeout)


def interaction_optimum(u: MinimaxUser, y, ctx: Context):
    return solve(optimal_interaction_lp(u, y), timeout_s=ctx.solver_timeout)


Case = tuple[int, Fraction, MinimaxUser, str]


def case_id(n: int, a: Fraction, u: MinimaxUser) -> str:
    return digest(f"n={n}, alpha={a}, {describe(u)}")


def sample(ctx: Context, claim: str, per_cell: int, n_max: int) -> list[Case]:
    """Fixed boundary consumers first (S = {0, n}, S a singleton with the binary loss, S = N with the squared
    error), then ``per_cell`` random consumers in every cell of the grid n = 1..n_max x ALPHAS (alpha = 1/100 up
    to n = SMALL_ALPHA_N_MAX).  Every consumer
    is distinct (a repeated draw is drawn again) and carries its label: 'fixed: ...' or 'random #k'."""
    rng = ctx.rng(claim)
    cases: list[Case] = []
    seen: set[str] = set()

    def add(n: int, a: Fraction, u: MinimaxUser, label: str) -> bool:
        key = case_id(n, a, u)
        if key in seen:
            return False
        seen.add(key)
        cases.append((n, a, u, label))
        return True

    for n in range(1, n_max + 1):
        add(n, Fraction(1, 2), MinimaxUser.of([0, n], absolute_error(n)), "fixed: S={0,n}, |i-r|")
        add(n, Fraction(99, 100), MinimaxUser.of([n], binary_loss(n)), "fixed: S={n}, binary")
        add(n, Fraction(1, 100), MinimaxUser.of(range(n + 1), squared_error(n)), "fixed: S=N, (i-r)^2")
    k = 0
    for _ in range(per_cell):
        for n in range(1, n_max + 1):
            for a in ALPHAS if n <= SMALL_ALPHA_N_MAX else ALPHAS[1:]:
                for _attempt in range(20):
                    if add(n, a, random_consumer(rng, n), f"random #{k}"):
                        k += 1
                        break
    return cases


def consumer_instance(n: int, a: Fraction, u: MinimaxUser, label: str) -> dict:
    """The parameters that identify one sampled consumer's instance."""
    return {"n": n, "alpha": a, "sample": case_id(n, a, u), "consumer": label, "S": str(list(u.side_information))}


def every_consumer_reach(ctx: Context) -> list[tuple[int, Fraction]]:
    """(n, alpha) decided over every consumer: n <= 3 at the five alphas; --full n <= 4."""
    return [(n, a) for n in range(1, 4 if ctx.quick else 5) for a in ALPHAS]


#: The paper's consumers (gs2010 Section 2.4: l(i, r) nondecreasing in |i - r| for every i) and a wider class.
CONSUMER_LOSSES = {
    LEGAL: "every side information S and every loss nondecreasing in |i - r| (gs2010 Section 2.4)",
    SIDED: "every side information S and every loss nondecreasing on each side of i (wider than the paper's class)",
}


def consumer_counterexample(n: int, a: Fraction, y, cone: str, ctx: Context) -> str | None:
    """A consumer of the cone for whom the optimal interaction with ``y`` is strictly worse than the optimal
    alpha-DP mechanism (both certified), or None when there is none.

    A consumer (S, l) minimises max_{i in S} sum_r l(i, r) x_ir.  By LP duality (von Neumann's minimax theorem
    for a bilinear function over two polytopes) its optimum over a polytope A of mechanisms is
    max over priors q on S of min_{x in A} sum_i q_i sum_r l(i, r) x_ir, a Bayesian user q_i l(i, r) of the
    cone.  With A the alpha-DP mechanisms or the remaps of ``y``, the two optima agree for every consumer when
    ``y`` is optimal for every user of the cone (udpm.auditing.every_user, SMT unsat).  A Bayesian user that beats it is
    turned into the consumer S = its support, l = its loss, and both minimax optima are certified.  Raises
    InvalidMatrix when ``y`` is not alpha-DP, and Undecided (a SolverTimeout) when that consumer shows no gap."""
    cex = mechanism_for_every_user(y, a, cone, ctx.solver_timeout).counterexample
    if cex is None:
        return None
    u = MinimaxUser.of([i for i, p in enumerate(cex.user.prior) if p], cex.user.loss)
    best, got = mechanism_optimum(u, a, ctx).objective, interaction_optimum(u, y, ctx).objective
    if best < got:
        return (
            f"n={n}, alpha={a}, {describe(u)}: optimal interaction with the deployed mechanism loses {got}, "
            f"the optimal alpha-DP mechanism loses {best} (both certified)"
        )
    raise Undecided(f"n={n}, alpha={a}: beaten for the Bayesian user {cex}, not for its consumer {describe(u)}")


def decide_every_consumer(rec: Findings, n: int, a: Fraction, deployed: Callable, ctx: Context) -> bool:
    """One BOUNDED instance: the optimal interaction with the deployed mechanism is optimal for EVERY consumer of
    the paper's class (:func:`consumer_counterexample` over the legal cone)."""
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="LP duality to the Bayesian users q_i l(i, r), q on S; the deployed mechanism optimal for every "
        "one of them (SMT unsat over the cone)",
        covers=f"every consumer: {CONSUMER_LOSSES[LEGAL]}",
    ) as d:
        try:
            cex = consumer_counterexample(n, a, deployed(n, a), LEGAL, ctx)
        except InvalidMatrix as e:
            cex = f"n={n}, alpha={a}: the deployed mechanism is not alpha-DP: {e}"
        if cex is not None:
            d.counterexample(cex)
            return False
    return True


def sided_extension(reach: list[tuple[int, Fraction]], deployed: Callable, ctx: Context) -> str:
    """Beyond the claim: whether the deployed mechanism also serves every consumer whose loss is only
    nondecreasing on each side of i, on the same grid (a value of the record; it decides nothing)."""
    for n, a in reach:
        try:
            cex = consumer_counterexample(n, a, deployed(n, a), SIDED, ctx)
        except (InvalidMatrix, SolverTimeout) as e:
            return f"undecided at n={n}, alpha={a}: {e}"
        if cex is not None:
            return f"no: {cex}"
    return "yes, at every (n, alpha) of the every-consumer grid (SMT unsat)"


@checks("gs2010.thm1")
def universal_optimality(ctx: Context, deployed: Callable = truncated_geometric) -> Findings:
    """gs2010 Theorem 1(2), Section 4.2: for every minimax consumer the optimal interaction with the
    deployed G_{n,alpha} reaches the optimum of the optimal-mechanism LP (Section 2.5).  Every consumer per
    (n, alpha) (:func:`decide_every_consumer`); the sampled consumers stay as cross-checks."""
    rec = Findings("gs2010.thm1")
    reach = every_consumer_reach(ctx)
    for n, a in reach:
        if not decide_every_consumer(rec, n, a, deployed, ctx):
            return rec
    rec.value(
        **{
            "beyond the paper: every consumer with a loss nondecreasing on each side of i": sided_extension(
                reach, deployed, ctx
            )
        }
    )
    per_cell, n_max = (2, 5) if ctx.quick else (6, 12)
    for n, a, u, label in sample(ctx, "gs2010.thm1", per_cell, n_max):
        best = mechanism_optimum(u, a, ctx).objective
        got = interaction_optimum(u, deployed(n, a), ctx)
        rec.decide(
            got.objective == best,
            f"n={n}, alpha={a}, {describe(u)}: optimal interaction with the deployed mechanism loses "
            f"{got.objective}, the optimal alpha-DP mechanism loses {best}",
            kind=SAMPLED,
            method="certified LP optima: interaction with G = optimal mechanism",
            covers="one drawn minimax consumer (S, monotone loss)",
            **consumer_instance(n, a, u, label),
        )
    n, a, u = 3, Fraction(1, 4), MinimaxUser.of(range(4), absolute_error(3))
    best = mechanism_optimum(u, a, ctx)
    inter = interaction_optimum(u, deployed(n, a), ctx)
    rec.value(example_optimum=best.objective, example_interaction_optimum=inter.objective)
    rec.value(**{"example (n=3, a=1/4, |i-r|, S=N) optimal T": linalg.fmt_matrix(inter.matrix(4, 4))})
    rec.certificate = certificate_of(
        {"consumers": len(rec.decisions)},
        [("Table 1 consumer: optimal mechanism", best), ("Table 1 consumer: optimal interaction with G", inter)],
    )
    rec.note(
        "every consumer per (n, alpha): LP duality reduces a consumer to Bayesian users q_i l(i, r) with l "
        "nondecreasing in |i - r| (the paper's class), and the deployed mechanism is optimal for all of them (SMT "
        "unsat); the same test over losses merely nondecreasing on each side of i is a value, not part of the claim; "
        "sampled: each consumer's pair of optima certified exactly (udpm.lp.certify); consumers include S with gaps, "
        "singletons, losses with ties, alpha in {1/100, 99/100}, on the grid n <= n_max x the alpha grid"
    )
    every_consumer_at_boundary(rec)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Theorem 1(2) holds at alpha = 0 and 1 for n = 1..3: every alpha-DP "
        "mechanism derives from G_(n,alpha) (T = M), so every consumer's optimal interaction reaches its optimum"
    )
    return rec


def best_deterministic(u: MinimaxUser, y) -> tuple[Fraction, tuple[int, ...]]:
    """The minimum worst-case loss over all (n+1)^(n+1) deterministic remaps of y, exhaustively."""
    n = u.loss.n
    best: tuple[Fraction, tuple[int, ...]] | None = None
    for mapping in itertools.product(range(n + 1), repeat=len(y[0])):
        v = u.worst_case_loss(compose(y, deterministic_remap(mapping, n + 1)))
        if best is None or v < best[0]:
            best = (v, mapping)
    assert best is not None
    return best


@checks("gs2010.randomized")
def randomized_post_processing(
    ctx: Context,
    n: int = 3,
    alpha: Fraction = Fraction(1, 4),
    side_information: tuple[int, ...] = (0, 1, 2, 3),
    loss: Callable[[int], Loss] = absolute_error,
) -> Findings:
    """gs2010 Sections 2.7, 4.2 (Table 1's consumer): a minimax consumer for whom every deterministic remap
    of G_{n,alpha} is strictly worse than the optimal randomized interaction."""
    rec = Findings("gs2010.randomized")
    u = MinimaxUser.of(side_information, loss(n))
    g = truncated_geometric(n, alpha)
    opt = interaction_optimum(u, g, ctx)
    det, mapping = best_deterministic(u, g)
    rec.decide(
        det > opt.objective,
        f"n={n}, alpha={alpha}, {describe(u)}: the deterministic remap {list(mapping)} already reaches "
        f"{det} <= randomized optimum {opt.objective}",
        n=n,
        alpha=alpha,
        kind=BOUNDED,
        method="exhaustive enumeration of deterministic remaps + certified LP",
        covers=f"all {(n + 1) ** (n + 1)} deterministic remaps of G_(n,alpha) for the example consumer",
        consumer=describe(u),
    )
    rec.value(randomized_optimum=opt.objective, best_deterministic=det, gap=det - opt.objective)
    rec.value(**{"best deterministic remap": str(list(mapping))})
    rec.value(**{"optimal randomized T": linalg.fmt_matrix(opt.matrix(n + 1, n + 1))})
    rec.certificate = certificate_of({"deterministic remaps": (n + 1) ** (n + 1)}, [("optimal interaction", opt)])
    rec.note(
        "the claim is existential (deterministic remaps are strictly worse for SOME minimax consumer): one "
        "certified example decides it outright; it is recorded as one bounded instance at the example's (n, alpha) "
        "because it exhausts every deterministic remap there (the harness has no existential kind); the claim "
        "says nothing about other (n, alpha), so no grid beyond the example is implied"
    )
    return rec


def minimax_value(space: DatabaseSpace, x, s, loss: Loss) -> Fraction:
    """gs2010 (5): max over databases d with f(d) in S of sum_r x_dr l(f(d), r)."""
    return max(
        sum((x[d][r] * loss(space.count(d), r) for r in range(space.n + 1)), Fraction(0))
        for d in space.databases
        if space.count(d) in s
    )


LEMMA6_ALPHAS = ALPHAS[1:4]  # the fixed alpha grid: 1/4, 1/2, 2/3


@checks("gs2010.lemma6")
def oblivious_suffices(ctx: Context, alpha_claimed: Fraction | None = None) -> Findings:
    """gs2010 Lemma 6, Appendix A: for objective (5) over D^n some optimal alpha-DP mechanism is oblivious;
    averaging over databases with the same count keeps alpha-DP and does not increase (5).
    ``alpha_claimed`` (default alpha) is the privacy level asserted for the averaged mechanism."""
    rec = Findings("gs2010.lemma6")
    claimed = {} if alpha_claimed is None else {"claimed": lambda a: alpha_claimed}
    variant = {} if alpha_claimed is None else {"variant": {"claimed_alpha": alpha_claimed}}
    # gs2010's count queries allow a predicate true on no value or on every value (step 3')
    averaging_all_n(rec, ctx, MINIMAX, trivial_predicates=True, **claimed, **variant)
    row_count_erratum(rec, "Lemma 6, proof")
    rng = ctx.rng("gs2010.lemma6")
    spaces = SPACES if ctx.quick else FULL_SPACES
    per_cell = 1 if ctx.quick else 3
    certs: list = []
    for dom, n, pred in spaces:
        space = DatabaseSpace.of(dom, n, pred)
        where_space = space_label(space)
        for a in LEMMA6_ALPHAS:
            ac = a if alpha_claimed is None else alpha_claimed
            variant = {} if ac == a else {"claimed_alpha": ac}
            step = "every consumer: averaging keeps alpha-DP, and (5) of the average = max_{i in S} mean <= max"
            decide_farkas(rec, space, n, a, ac, step, variant)
            seen: set[str] = set()
            for _ in range(per_cell):
                u = random_consumer(rng, n)
                if case_id(n, a, u) in seen:
                    continue  # a repeated draw decides nothing new
                seen.add(case_id(n, a, u))
                s = u.side_information
                db = solve(minimax_lp(space, s, u.loss, a), timeout_s=ctx.solver_timeout)
                obl = solve(optimal_mechanism_lp(u, ac), timeout_s=ctx.solver_timeout)
                if not certs:
                    certs = [("database-level (5)", db), ("oblivious", obl)]
                where = f"{where_space}, n={n}, alpha={a}, {describe(u)}"
                rec.decide(
                    obl.objective == db.objective,
                    f"{where}: best database-level (5) is {db.objective} < best oblivious {obl.objective} "
                    f"at alpha={ac}",
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="certified LP optima: database-level (5) = oblivious",
                    covers="one drawn minimax consumer (S, monotone loss)",
                    space=where_space,
                    sample=case_id(n, a, u),
                    **variant,
                )
                drawn = [
                    ("the consumer's database-level LP optimum", mechanism_rows(space, db.lp.names, db.x)),
                    ("a random alpha-DP database mechanism", random_dp_database_mechanism(rng, space, a)),
                ]
                decide_averaged(
                    rec,
                    space,
                    (n, a, ac, variant),
                    describe(u),
                    drawn,
                    seen,
                    ("(5)", functools.partial(minimax_value, space, s=s, loss=u.loss), u.worst_case_loss),
                    where,
                )
    rec.value(database_spaces=len(spaces))
    rec.certificate = certificate_of({"database spaces": len(spaces)}, certs)
    rec.note(
        "all n: the averaging argument of proofs.databases.averaging (degrees, edge count, Farkas multipliers "
        "1/|E|, and "
        "(5)'s loss step: max over S of class means <= max over S of class maxima), for every non-empty S; S empty "
        "makes (5) a maximum over nothing, the same for every mechanism, so any oblivious mechanism is optimal; "
        "bounded per (D^n, predicate, alpha): the Farkas multipliers per space, for every mechanism; sampled: drawn "
        "consumers (database-level LP optimum of (5) = oblivious optimum, both certified) and drawn mechanisms "
        "averaged"
    )
    for dom, n, pred in spaces:  # the printed boundary alpha in {0, 1}: the same Farkas multipliers
        for a in (Fraction(0), Fraction(1)):  # the level claimed is the printed one (alpha_claimed: the grid only)
            step = "every consumer: averaging keeps alpha-DP, and (5) of the average = max_{i in S} mean <= max"
            decide_farkas(rec, DatabaseSpace.of(dom, n, pred), n, a, a, step, {})
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Lemma 6 ('privacy level alpha') holds at alpha = 0 and 1 on every "
        "space: the DP constraints alpha x_dr <= x_d'r are linear (at 0 nonnegativity, the 'vacuous' definition; at "
        "1 equality) and the same Farkas multipliers 1/E carry them to the average"
    )
    return rec
