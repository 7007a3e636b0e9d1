"""The printed boundaries alpha = 0 and alpha = 1 of the universality statements: grs2011 Theorem 3.2 and Corollary
3.3 (Section 3: alpha in [0, 1]), grs2009 Theorem 3.1 and Theorem 6.1 (alpha in [0, 1]).  One BOUNDED instance per
(n, part), n <= 3, appended at the end of each claim's check.

alpha = 0 (:mod:`proofs.degenerate_zero`): every mechanism is 0-DP and T(n, 0) = I.
alpha = 1 (:mod:`proofs.degenerate_alpha`): 1-DP means equal rows, T(n, 1) has equal rows under both readings, so
every mechanism derives it, and every 1-DP mechanism is universally utility-maximizing (its remaps to constants).
grs2009's geometric distribution (1 - alpha)/(1 + alpha) alpha^|z| is 0 everywhere at alpha = 1: no mechanism, so
grs2009's statements are undefined there (a note, nothing decided).
"""

from __future__ import annotations

from fractions import Fraction as F

from udpm.claims import Context, Findings
from udpm.instances import BOUNDED

from .degenerate_alpha import READINGS, constant_beaten, constant_rows, is_one_dp, truncated_geometric_at_one
from .degenerate_zero import (
    ZERO_DP_READING,
    binary_user_second_optimum,
    formula_at_zero,
    identity,
    identity_beaten,
    non_permutation_deriving_identity,
)

N_MAX = 3

#: grs2009's x^G at alpha = 1: why nothing is decided there.
GRS2009_UNDEFINED_AT_ONE = (
    "alpha = 1 (printed range alpha in [0, 1]) is not decided: grs2009's geometric distribution "
    "(1 - alpha)/(1 + alpha) alpha^|z| is 0 for every z at alpha = 1, so x^G is not a mechanism there (the paper "
    "defines no 1-geometric mechanism, unlike grs2011 Example 2.1)"
)


def _readings_at_one(n: int) -> list[tuple[str, list[list[F]]]]:
    return [(r, truncated_geometric_at_one(n, r)) for r in READINGS]


def identity_optimal_at_zero(rec: Findings, ctx: Context, covers: str, **params: object) -> None:
    """alpha = 0, n <= 3: I (T(n, 0) under both readings; the 0-geometric mechanism after its identity remap) is optimal
    for every legal user over every 0-DP mechanism with range N."""
    for n in range(1, N_MAX + 1):
        with rec.deciding(
            n=n,
            alpha=F(0),
            kind=BOUNDED,
            method="the printed boundary alpha = 0: linear SMT over every legal user and every deterministic direct "
            "mechanism (unsat)",
            covers=covers,
            **params,
        ) as d:
            if formula_at_zero(n) != identity(n):
                d.counterexample(f"n = {n}: Example 2.2's formula at alpha = 0 is not I: {formula_at_zero(n)}")
                continue
            beaten = identity_beaten(n, ctx.solver_timeout, rec)
            if beaten is not None:
                d.counterexample(f"alpha = 0, n = {n}: a legal user for whom I is not optimal: {beaten}")


def every_one_dp_universal(
    rec: Findings, ctx: Context, covers: str, mechanisms=lambda n: [], targets=None, **params: object
) -> None:
    """alpha = 1, n <= 3: every 1-DP mechanism (equal rows) is optimal for every user: no user and 1-DP Z beat all of
    its remaps to constants (:func:`proofs.degenerate_alpha.constant_beaten`, SMT unsat).  ``mechanisms(n)``: the
    printed mechanisms, each checked 1-DP exactly.  ``targets``: restricted remaps (a false variant)."""
    for n in range(1, N_MAX + 1):
        with rec.deciding(
            n=n,
            alpha=1,
            kind=BOUNDED,
            method="the printed boundary alpha = 1: linear SMT over every user and every deterministic 1-DP mechanism "
            "(the vertices of the equal-row mechanisms; unsat) against the remaps to constants",
            covers=covers,
            **params,
        ) as d:
            bad = [label for label, x in mechanisms(n) if not is_one_dp(x)]
            if bad:
                d.counterexample(f"alpha = 1, n = {n}: {bad[0]} is not 1-DP (its rows differ)")
                continue
            beaten = constant_beaten(n, range(n + 1) if targets is None else targets, ctx.solver_timeout, rec)
            if beaten is not None:
                d.counterexample(f"alpha = 1, n = {n}: a 1-DP mechanism beats the remaps to constants: {beaten}")


def theorem_3_2_at_boundary(rec: Findings, ctx: Context) -> None:
    """grs2011 Theorem 3.2 at alpha = 0 and alpha = 1 (X ranges over alpha-DP mechanisms, Definition 3.1)."""
    identity_optimal_at_zero(rec, ctx, "every X with a remap to T(n, 0) = I (every mechanism is 0-DP): it has "
                             "every remap of I, and I is optimal for every prior and every legal loss", part="if")
    for n in range(1, N_MAX + 1):
        with rec.deciding(
            n=n,
            alpha=F(0),
            kind=BOUNDED,
            method="the printed boundary alpha = 0: the uniform binary-loss user's unique optimum I (linear SMT unsat)",
            covers="every X optimal for every legal user: its best remap attains that user's unique optimum, so "
            "Y o X = I = T(n, 0)",
            part="only if",
        ) as d:
            other = binary_user_second_optimum(n, ctx.solver_timeout, rec)
            if other is not None:
                d.counterexample(f"alpha = 0, n = {n}: the binary-loss user has a second optimum {other}")
    every_one_dp_universal(rec, ctx, "every 1-DP X, whatever its range (so every X with a remap to T(n, 1)), every "
                           "prior and every legal loss", part="if")
    for n in range(1, N_MAX + 1):
        with rec.deciding(
            n=n,
            alpha=1,
            kind=BOUNDED,
            method="the printed boundary alpha = 1: exact, T(n, 1) has equal rows t under both readings",
            covers="every X: the remap Y_rj = t_j gives Y o X = T(n, 1)",
            part="only if",
        ) as d:
            for reading, t in _readings_at_one(n):
                if not is_one_dp(t) or any(sum(row) != 1 or min(row) < 0 for row in t):
                    d.counterexample(f"alpha = 1, n = {n}: T(n, 1) under {reading} has unequal or invalid rows {t}")
                    break
    rec.note(
        f"the printed boundary alpha in [0, 1] holds for n <= {N_MAX}: at alpha = 0 ({ZERO_DP_READING}) T(n, 0) = I "
        "is optimal for every legal user and is the binary-loss user's unique optimum; at alpha = 1 every 1-DP "
        "mechanism is universally utility-maximizing and every mechanism derives T(n, 1) (equal rows, under both "
        f"readings: {'; '.join(READINGS)})"
    )


def corollary_3_3_at_boundary(rec: Findings, ctx: Context) -> None:
    """grs2011 Corollary 3.3 at alpha = 0 (0-geometric = identity on Z, truncated = I) and alpha = 1 (Example 2.1's
    1-geometric returns 0; the truncated one under both readings)."""
    identity_optimal_at_zero(rec, ctx, "the 0-geometric mechanism (the identity on Z) and the truncated 0-geometric "
                             "mechanism (I), every prior and every legal loss")

    def printed(n: int) -> list[tuple[str, list[list[F]]]]:
        always_zero = constant_rows([F(1)] + [F(0)] * n)  # the 1-geometric mechanism on the outputs it uses
        return [("the 1-geometric mechanism (always 0)", always_zero), *_readings_at_one(n)]

    every_one_dp_universal(rec, ctx, "the 1-geometric mechanism (always 0) and the truncated 1-geometric mechanism "
                           "under both readings, every prior and every legal loss", mechanisms=printed)
    rec.note(
        f"the printed boundary alpha in [0, 1] holds for n <= {N_MAX}: at alpha = 0 ({ZERO_DP_READING}) both "
        "mechanisms are the identity, optimal for every legal user; at alpha = 1 they have equal rows, and every 1-DP "
        "mechanism is universally utility-maximizing"
    )


def theorem_3_1_at_boundary(rec: Findings, ctx: Context) -> None:
    """grs2009 Theorem 3.1 at alpha = 0 (x^G = the identity on Z, 0^0 = 1); alpha = 1 is undefined (a note)."""
    identity_optimal_at_zero(rec, ctx, "x^G at alpha = 0 (the identity: (1 - 0)/(1 + 0) 0^|z| with 0^0 = 1) after its "
                             "identity remap, every prior and every monotone loss")
    rec.note(f"alpha = 0 decided for n <= {N_MAX} ({ZERO_DP_READING}); {GRS2009_UNDEFINED_AT_ONE}")


def range_n_uniqueness_at_zero(rec: Findings, ctx: Context, covers: str) -> None:
    """alpha = 0, n <= 3: a range-N mechanism optimal for every user (after its best remap) is a permutation matrix:
    it attains the binary-loss user's unique optimum I, so X·D = I for a deterministic D, and then X is a permutation
    (two SMT queries, each unsat).  For grs2009 Theorem 6.1 (and grs2011 Corollary 3.4's alpha = 0)."""
    for n in range(1, N_MAX + 1):
        with rec.deciding(
            n=n,
            alpha=F(0),
            kind=BOUNDED,
            method="the printed boundary alpha = 0: the binary-loss user's unique optimum I, then every range-N X "
            "with a deterministic remap to I (linear SMT, both unsat)",
            covers=covers,
        ) as d:
            other = binary_user_second_optimum(n, ctx.solver_timeout, rec)
            if other is not None:
                d.counterexample(f"alpha = 0, n = {n}: the binary-loss user has a second optimum {other}")
                continue
            x = non_permutation_deriving_identity(n, ctx.solver_timeout, rec)
            if x is not None:
                d.counterexample(f"alpha = 0, n = {n}: a range-N mechanism derives I but is no permutation: {x}")
