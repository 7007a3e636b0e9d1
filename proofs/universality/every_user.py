"""Universality over every Bayesian user at once, one BOUNDED instance per (n, alpha).

The users are the cone W = p_i l(i, r) (legal l, any prior; :mod:`udpm.auditing.every_user`): a listed mechanism is
optimal for all of them iff no ray of the DP cone has a negative reduced cost (grs2011 Corollary 3.3, Lemma 5.11;
grs2009 Theorem 3.1).  :func:`every_user_plan` makes each (n, alpha) of :func:`every_user_reach` a task of the
claim's plan; :func:`every_user_scan` decides (or merges) them in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.universality.optimality import ALPHAS, ALPHAS_FULL, Matrix
from udpm.auditing.every_user import LEGAL, geometric_for_every_user, mechanism_for_every_user
from udpm.claims.instances import BOUNDED, Outcome
from udpm.claims.registry import Context, Findings, Plan, absorb
from udpm.claims.registry import part as planned_part
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations


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
