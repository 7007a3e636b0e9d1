"""grs2011 Appendices A and B: assertions of the appendices, checked like any other claim.

* grs2011.thmA.2.factor: Theorem A.2's proof, the remapped Laplace mechanism's loss is at most
  (1 + alpha) / (2 sqrt(alpha)) times the optimal one.
* grs2011.appA.limits: Appendix A, the factor is unbounded at alpha = 0 and approaches 1 as alpha -> 1.
* grs2011.appB.symmetric: Appendix B, the loss of Figure 5(b) drops monotonicity alone (it is symmetric).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp

from proofs.assertions.grs2011.common import HALF, SYMBOLIC_ALPHA, al, printed_matrix
from udpm.claims.instances import ALL_N, BOUNDED, TABLE
from udpm.claims.registry import Context, Findings, checks
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, Loss
from udpm.lp.exact_signs import sign_of, split_coefficient

F = Fraction
FACTOR = (1 + al) / (2 * sp.sqrt(al))  # Theorem A.2's approximation factor


def _asymmetry(loss: Sequence[Sequence[object]]) -> str | None:
    """The first (i, d) with l(i, i - d) != l(i, i + d): the loss does not depend on i and |j - i| alone."""
    m = len(loss)
    for i in range(m):
        for d in range(1, m):
            if i - d >= 0 and i + d < m and loss[i][i - d] != loss[i][i + d]:
                return f"l({i}, {i - d}) = {loss[i][i - d]} but l({i}, {i + d}) = {loss[i][i + d]} (|j - i| = {d} both)"
    return None


@checks("grs2011.appB.symmetric")
def appendix_b_only_monotonicity_dropped(ctx: Context, loss: list[list[object]] | None = None) -> Findings:
    """grs2011 Appendix B: 'Figure 5 demonstrates that Theorem 3.2 does not hold if the restriction to monotone
    loss functions is dropped.'  Legal = symmetric (l depends only on i and |j - i|) and monotone; the example
    shows what it says only if its loss drops monotonicity alone, i.e. is symmetric.  Decided on the printed
    Figure 5(b) (rows i = true result, columns j), and on its transpose, so that the reading of the table's
    orientation does not matter."""
    rec = Findings("grs2011.appB.symmetric")
    table = loss if loss is not None else printed_matrix("fig5b")
    transpose = [list(col) for col in zip(*table, strict=True)]
    for label, mat in (("rows = true result i", table), ("columns = true result i", transpose)):
        with rec.deciding(
            n=len(table) - 1,
            alpha=HALF,
            kind=TABLE,
            method="exact comparison of the printed table",
            covers=f"Figure 5(b) read with {label}: symmetric (drops monotonicity only)",
        ) as d:
            bad = _asymmetry(mat)
            if bad:
                d.counterexample(
                    f"Figure 5(b) {[list(map(str, r)) for r in table]} read with {label}: {bad}; the loss is not "
                    "symmetric, so Figure 5 drops symmetry as well as monotonicity"
                )
    rec.value(monotone=str(Loss.from_matrix(table).is_legal()))
    rec.note(
        "Section 7 lists 'whether or not Theorem 3.2 holds for asymmetric loss functions' as open; the "
        "Appendix B example is itself asymmetric, so it does not isolate monotonicity"
    )
    return rec


@checks("grs2011.thmA.2.factor")
def theorem_a2_factor(ctx: Context, shift: int = -1, alpha: Fraction = HALF, factor: sp.Expr | None = None) -> Findings:
    """grs2011 Theorem A.2, proof: 'the user's expected loss (2) under the above remap of the Laplace mechanism is
    at most (1+alpha)/(2 sqrt alpha) times that of an optimal remap of the truncated alpha-geometric mechanism.'
    Legal losses carry no sign condition (Section 2.2).  n = 1, uniform prior, the strictly legal loss
    l(i, j) = |j - i| + shift: Laplace noise rounded, then the geometric's optimal remap (threshold: output
    <= 0 -> 0, >= 1 -> 1) errs with probability e = sqrt(alpha)/2; T's optimal remap errs with alpha/(1+alpha)
    (the identity; any other remap is worse for this user).  Compared exactly in sympy."""
    rec = Findings("grs2011.thmA.2.factor")
    a = sp.Rational(alpha.numerator, alpha.denominator)
    c = (1 + a) / (2 * sp.sqrt(a)) if factor is None else sp.sympify(factor)
    right, wrong = sp.Integer(shift), sp.Integer(1 + shift)
    e_lap = sp.sqrt(a) / 2
    lap = (1 - e_lap) * right + e_lap * wrong
    t = truncated_geometric(1, alpha)
    remaps = [deterministic_remap(list(m), 2) for m in itertools.product(range(2), repeat=2)]
    user = BayesianUser.of([HALF, HALF], Loss.from_matrix([[abs(j - i) + shift for j in range(2)] for i in range(2)]))
    best_t = min(user.expected_loss(compose(t, y)) for y in remaps)
    best_t = sp.Rational(best_t.numerator, best_t.denominator)
    rec.value(laplace=str(sp.nsimplify(lap)), truncated=str(best_t), factor=str(sp.nsimplify(c)))
    with rec.deciding(
        n=1,
        alpha=alpha,
        kind=BOUNDED,
        method="exact sympy comparison over every deterministic remap",
        covers=f"the user: uniform prior, legal loss |j - i| + ({shift})",
    ) as d:
        if sign_of(split_coefficient(lap - c * best_t)) > 0:  # certified interval bounds, exact at 0
            d.counterexample(
                f"n=1, alpha={alpha}, uniform prior, strictly legal loss l(i,j) = |j - i| + ({shift}): the rounded "
                f"Laplace remap loses {sp.nsimplify(lap)} ~ {sp.N(lap, 6)}, the optimal remap of T loses {best_t}; "
                f"{sp.N(lap, 6)} > {sp.nsimplify(c)} * {best_t} = {sp.N(c * best_t, 6)}.  The factor bound "
                "needs nonnegative losses, which 'legal' does not require"
            )
    return rec


@checks("grs2011.appA.limits")
def appendix_a_limits(ctx: Context, factor: sp.Expr = FACTOR, at_zero: object = sp.oo, at_one: object = 1) -> Findings:
    """grs2011 Appendix A: 'The approximation factor in Theorem A.2 is unbounded at alpha = 0 but rapidly
    approaches 1 as alpha approaches 1.'  sympy limits of (1+alpha)/(2 sqrt alpha) at 0+ and 1-, and its
    derivative's sign on (0, 1) (decreasing towards 1)."""
    rec = Findings("grs2011.appA.limits")
    lim0 = sp.limit(factor, al, 0, "+")
    lim1 = sp.limit(factor, al, 1, "-")
    deriv = sp.simplify(sp.diff(factor, al))
    rec.value(limit_at_0=str(lim0), limit_at_1=str(lim1), derivative=str(deriv))
    with rec.deciding(
        n=None,
        alpha=SYMBOLIC_ALPHA,
        kind=ALL_N,
        method="sympy limits",
        covers="the factor at alpha -> 0+ and alpha -> 1-",
    ) as d:
        if lim0 != at_zero or lim1 != at_one:
            d.counterexample(f"limits of {factor}: {lim0} at 0+, {lim1} at 1- (printed: unbounded, 1)")
    with rec.deciding(n=None, alpha=F(1), kind=ALL_N, method="exact value", covers="the factor at alpha = 1") as d:
        if factor.subs(al, 1) != at_one:
            d.counterexample(f"the factor at alpha = 1 is {factor.subs(al, 1)}, not {at_one}")
    return rec
