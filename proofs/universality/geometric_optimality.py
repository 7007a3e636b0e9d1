"""grs2011 Corollary 3.3, Lemma 5.11 and grs2009 Theorem 3.1: the geometric mechanisms are universally optimal.

Corollary 3.3 (the geometric and truncated geometric mechanisms), Lemma 5.11 (every X with a remap Y o X = T) and
Theorem 3.1 (y^u o x^G minimizes every monotone loss): each decided over every user per (n, alpha) and over
sampled users (:mod:`proofs.universality.scan`), and at the printed boundary alpha in {0, 1}
(:mod:`proofs.boundary.universality`).  Theorem 3.1 also records, outside the theorem, the losses nondecreasing
on each side of i (:func:`sided_loss_probe`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

from proofs.boundary.universality import corollary_3_3_at_boundary, theorem_3_1_at_boundary
from proofs.universality.every_user import every_user_plan
from proofs.universality.mechanisms import cor33_mechanisms, mechanisms_with_remap_to_t
from proofs.universality.optimality import Matrix, alphas
from proofs.universality.scan import universality_scan
from udpm.auditing.every_user import LEGAL, SIDED, geometric_for_every_user
from udpm.claims.registry import Context, Findings, checks


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
