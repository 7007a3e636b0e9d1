"""The printed boundaries alpha = 0 and alpha = 1 of the universality statements: grs2011 Theorem 3.2 and Corollary
3.3 (Section 3: alpha in [0, 1]), grs2009 Theorem 3.1 and Theorem 6.1 (alpha in [0, 1]).  One BOUNDED instance per
(n, part), n <= 3, appended at the end of each claim's check.

alpha = 0 (:mod:`proofs.boundary.alpha_zero`): every mechanism is 0-DP and T(n, 0) = I.
alpha = 1 (:mod:`proofs.boundary.alpha_one`): 1-DP means equal rows, T(n, 1) has equal rows under both readings, so
every mechanism derives it, and every 1-DP mechanism is universally utility-maximizing (its remaps to constants).
grs2009 defines x^G only by the pmf (1 - alpha)/(1 + alpha) alpha^|z|, which is 0 everywhere at alpha = 1: taken as the
formula gives it, x^G is no mechanism, and grs2009's Theorems 3.1 and 6.1 are refuted there (Theorem 3.1: y o x^G has
rows summing to 0, so it is no minimizer over the mechanisms with range N; Theorem 6.1: a 1-DP x meets the hypothesis
and no p o x is x^G, nor the truncated T(n, 1) under either reading).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.boundary.alpha_one import (
    READINGS,
    constant_beaten,
    constant_rows,
    is_one_dp,
    permuted_forms,
    truncated_geometric_at_one,
)
from proofs.boundary.alpha_zero import (
    ZERO_DP_READING,
    binary_user_second_optimum,
    formula_at_zero,
    identity,
    identity_beaten,
    non_permutation_deriving_identity,
)
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings

N_MAX = 3


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
    its remaps to constants (:func:`proofs.boundary.alpha_one.constant_beaten`, SMT unsat).  ``mechanisms(n)``: the
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
    identity_optimal_at_zero(
        rec,
        ctx,
        "every X with a remap to T(n, 0) = I (every mechanism is 0-DP): it has "
        "every remap of I, and I is optimal for every prior and every legal loss",
        part="if",
    )
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
    every_one_dp_universal(
        rec,
        ctx,
        "every 1-DP X, whatever its range (so every X with a remap to T(n, 1)), every prior and every legal loss",
        part="if",
    )
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
    identity_optimal_at_zero(
        rec,
        ctx,
        "the 0-geometric mechanism (the identity on Z) and the truncated 0-geometric "
        "mechanism (I), every prior and every legal loss",
    )

    def printed(n: int) -> list[tuple[str, list[list[F]]]]:
        always_zero = constant_rows([F(1)] + [F(0)] * n)  # the 1-geometric mechanism on the outputs it uses
        return [("the 1-geometric mechanism (always 0)", always_zero), *_readings_at_one(n)]

    every_one_dp_universal(
        rec,
        ctx,
        "the 1-geometric mechanism (always 0) and the truncated 1-geometric mechanism "
        "under both readings, every prior and every legal loss",
        mechanisms=printed,
    )
    rec.note(
        f"the printed boundary alpha in [0, 1] holds for n <= {N_MAX}: at alpha = 0 ({ZERO_DP_READING}) both "
        "mechanisms are the identity, optimal for every legal user; at alpha = 1 they have equal rows, and every 1-DP "
        "mechanism is universally utility-maximizing"
    )


def theorem_3_1_at_boundary(rec: Findings, ctx: Context, geometric_at_one: GeometricAtOne | None = None) -> None:
    """grs2009 Theorem 3.1 at alpha = 0 (x^G = the identity on Z, 0^0 = 1) and alpha = 1 (:func:`theorem_3_1_at_one`:
    x^G as the printed formula gives it, 0 everywhere: refuted)."""
    identity_optimal_at_zero(
        rec,
        ctx,
        "x^G at alpha = 0 (the identity: (1 - 0)/(1 + 0) 0^|z| with 0^0 = 1) after its "
        "identity remap, every prior and every monotone loss",
    )
    theorem_3_1_at_one(rec, ctx, geometric_at_one or grs2009_geometric_at_one)
    rec.note(f"alpha = 0 decided for n <= {N_MAX} ({ZERO_DP_READING}); {GRS2009_AT_ONE}")


# --- grs2009 at alpha = 1: x^G as the printed formula gives it ------------------------------------------------------

#: grs2009's x^G at alpha = 1: what is decided there.
GRS2009_AT_ONE = (
    "alpha = 1 (printed range alpha in [0, 1]) is refuted: grs2009 defines x^G only by the pmf (1 - alpha)/(1 + alpha) "
    "alpha^|z| (Example 2.1), which is 0 for every z at alpha = 1, so x^G and every remap y o x^G are 0 (rows summing "
    "to 0): no mechanism with range N, so it minimizes nothing over the oblivious 1-DP mechanisms with range N (its "
    "formal loss (1) is 0, below the loss of every such mechanism).  Under grs2011 Example 2.1's convenience "
    "definition (the 1-geometric mechanism always answers 0) the statement would hold (grs2011.cor3.3 at alpha = 1)"
)

#: x^G at alpha = 1 on results 0..n and the outputs of a window of Z: its rows.
GeometricAtOne = Callable[[int, range], list[list[F]]]


def grs2009_geometric_at_one(n: int, window: range) -> list[list[F]]:
    """grs2009 Example 2.1's x^G at alpha = 1, as printed: x_ir = (1 - 1)/(1 + 1) 1^|r - i| = 0 for every output."""
    a = F(1)
    return [[(1 - a) / (1 + a) * a ** abs(r - i) for r in window] for i in range(n + 1)]


def grs2011_one_geometric(n: int, window: range) -> list[list[F]]:
    """grs2011 Example 2.1's 1-geometric mechanism (always the answer 0): a distribution, for the tests' variant."""
    return [[F(int(r == 0)) for r in window] for _ in range(n + 1)]


def _window(n: int) -> range:
    return range(-n - 2, 2 * n + 3)


def _fmt(rows: list[list[F]]) -> str:
    return "[" + ", ".join("(" + ", ".join(str(v) for v in row) + ")" for row in rows) + "]"


def uniform_binary_loss_at_one(n: int) -> F:
    """The loss of every 1-DP mechanism with range N (equal rows q) for the uniform prior and the binary loss:
    sum_r q_r c_r with c_r = sum_i p_i [i != r] = n/(n+1) for every r, so n/(n+1) whatever q is."""
    c = [sum(F(1, n + 1) * (i != r) for i in range(n + 1)) for r in range(n + 1)]
    if len(set(c)) != 1:
        raise ArithmeticError(f"the constant remaps' losses differ: {c}")
    return c[0]


def theorem_3_1_at_one(
    rec: Findings, ctx: Context, geometric_at_one: GeometricAtOne = grs2009_geometric_at_one
) -> None:
    """grs2009 Theorem 3.1 at alpha = 1, n <= 3, with x^G = ``geometric_at_one`` (default: the printed formula).

    If x^G's rows do not sum to 1 on the window -n-2..2n+2 (the printed formula: every entry 0 for every z, so every
    row sums to 0), then for every remap y, y o x^G has the same row sums, so it is no mechanism with range N and
    does not minimize over the oblivious 1-DP mechanisms with range N: counterexample, with the exact rows and the
    uniform binary-loss user, whom every such mechanism costs n/(n+1) and y o x^G formally 0.  If they do (a
    variant: grs2011's 1-geometric mechanism), x^G must be 1-DP and every user's optimal remap to a constant must
    be optimal over every 1-DP mechanism (SMT unsat, :func:`proofs.boundary.alpha_one.constant_beaten`)."""
    for n in range(1, N_MAX + 1):
        window = _window(n)
        x = geometric_at_one(n, window)
        with rec.deciding(
            n=n,
            alpha=1,
            kind=BOUNDED,
            method="the printed boundary alpha = 1: x^G's rows exactly on a window of Z (every entry of the "
            "printed formula carries the factor 1 - alpha = 0), then y o x^G against the 1-DP mechanisms with range N",
            covers="x^G and every remap y of it, every prior and every monotone loss",
        ) as d:
            sums = sorted({sum(row) for row in x})
            if sums != [F(1)]:
                optimum = uniform_binary_loss_at_one(n)
                d.counterexample(
                    f"alpha = 1, n = {n}: x^G = {_fmt(x)} on outputs {window.start}..{window.stop - 1} (the pmf "
                    "(1 - 1)/(1 + 1) 1^|z| is 0 for every integer z, so no output outside has mass either): its rows "
                    f"sum to {', '.join(map(str, sums))}, not 1, and so do the rows of y o x^G for every remap y "
                    "(a stochastic y keeps row sums): y o x^G is no mechanism with range N, so it does not minimize "
                    "the loss over the oblivious 1-DP mechanisms with range N (for the uniform prior and the binary "
                    f"loss every such mechanism has equal rows and loses exactly {optimum}, while y o x^G's formal "
                    "loss (1) is 0)"
                )
                continue
            if not all(x[i] == x[i + 1] for i in range(n)):
                d.counterexample(f"alpha = 1, n = {n}: x^G = {_fmt(x)} is not 1-DP (its rows differ)")
                continue
            beaten = constant_beaten(n, range(n + 1), ctx.solver_timeout, rec)
            if beaten is not None:
                d.counterexample(f"alpha = 1, n = {n}: a 1-DP mechanism beats y^u o x^G: {beaten}")


def range_n_uniqueness_at_one(
    rec: Findings,
    ctx: Context,
    candidate: Sequence[F] = (F(2, 3), F(1, 3)),
    geometric_at_one: GeometricAtOne = grs2009_geometric_at_one,
) -> None:
    """grs2009 Theorem 6.1 at alpha = 1, n <= 3: the 1-DP range-N mechanism x with every row ``candidate`` (padded
    with zeros) satisfies the hypothesis (for every user, remapping every output to the user's best constant
    result is optimal over every 1-DP mechanism: SMT unsat, :func:`proofs.boundary.alpha_one.constant_beaten`), and
    p o x != x^G for every permutation p: against ``geometric_at_one`` (the printed formula: every entry 0), and,
    so that the refutation does not rest on the formula alone, against both readings of the truncated T(n, 1)
    (grs2011 Example 2.1's always-0 mechanism, Example 2.2's formula).  A candidate that meets the conclusion
    leaves its instance inconclusive (one candidate, not every x)."""
    for n in range(1, N_MAX + 1):
        row = [F(v) for v in candidate][: n + 1] + [F(0)] * max(0, n + 1 - len(candidate))
        x = constant_rows(row)
        window = _window(n)
        xg = geometric_at_one(n, window)
        with rec.deciding(
            n=n,
            alpha=1,
            kind=BOUNDED,
            method="the printed boundary alpha = 1: a 1-DP range-N x meeting the hypothesis (linear SMT unsat over "
            "every user and every deterministic 1-DP mechanism), p o x against x^G for every permutation p (exact)",
            covers="one counterexample mechanism x with range N at alpha = 1",
        ) as d:
            where = f"alpha = 1, n = {n}, x = {_fmt(x)}"
            if sum(row) != 1 or min(row) < 0 or not is_one_dp(x):
                d.inconclusive(f"{where} is not a 1-DP mechanism")
                continue
            beaten = constant_beaten(n, range(n + 1), ctx.solver_timeout, rec)
            if beaten is not None:
                d.inconclusive(f"{where}: its remaps to constants are beaten: {beaten}")
                continue
            on_window = [[F(0)] * len(window) for _ in range(n + 1)]
            targets = [("x^G", xg)] + [
                (reading, [[t[i][r] if 0 <= r <= n else F(0) for r in window] for i in range(n + 1)])
                for reading, t in _readings_at_one(n)
            ]
            met = []
            for px in permuted_forms(x):
                for i in range(n + 1):
                    for r in range(n + 1):
                        on_window[i][window.index(r)] = px[i][r]
                met += [label for label, target in targets if target == on_window]
            if targets[0][0] in met:
                d.inconclusive(f"{where}: some p o x is x^G = {_fmt(xg)}")
                continue
            sums = sorted({sum(r) for r in xg})
            d.counterexample(
                f"{where} is 1-DP (equal rows) and every user's remap of it to the best constant is optimal over "
                "every oblivious 1-DP mechanism with range N (SMT unsat), so x meets the hypothesis; but no p o x "
                f"is x^G: x^G = {_fmt(xg)} on outputs {window.start}..{window.stop - 1} (rows summing to "
                f"{', '.join(map(str, sums))}) while p o x has rows summing to 1"
                + (
                    ""
                    if met
                    else "; nor is any p o x the truncated T(n, 1) under either reading ("
                    + "; ".join(f"{r}: rows {_fmt(t[:1])}" for r, t in _readings_at_one(n))
                    + ")"
                )
            )


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
