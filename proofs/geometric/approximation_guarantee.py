"""The guarantee of grs2011 Theorem A.2 from the proof's pmf ratio f = Pr[Delta'=i]/Pr[Delta=i]: the ln(1/alpha)-
Laplace mechanism is F-approximately universally utility-maximizing when the printed factor F covers f on (0, 1)
(z3, exactly), by the termwise sum (induction); Example A.1's user (n = 1, uniform prior, binary loss) attains f,
so f is the exact guarantee and a smaller F is refuted there.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.geometric.laplace_vs_geometric import laplace_bayes_bound
from proofs.geometric.noise import tail
from proofs.geometric.symbolic import SYMBOLIC, a, same
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings
from udpm.induction.obligations import Obligation, discharge
from udpm.smt.solvers import decide, premise_witness


def _root_exponent(*exprs: sp.Expr) -> int:
    """The least m with every power of alpha in ``exprs`` an integer power of alpha^(1/m)."""
    m = 1
    for e in exprs:
        for p in sp.sympify(e).atoms(sp.Pow):
            if p.base == a and p.exp.is_Rational:
                m = sp.ilcm(m, sp.Rational(p.exp).q)
    return int(m)


def factor_gap(claimed: sp.Expr, exact: sp.Expr) -> tuple[int, sp.Symbol, sp.Expr, sp.Expr]:
    """claimed - exact as num/den, polynomials in s = alpha^(1/m) (alpha = s^m): (m, s, num, den)."""
    m = _root_exponent(claimed, exact)
    s = sp.Symbol("s", positive=True)
    num, den = sp.fraction(sp.together(sp.expand(sp.powsimp((claimed - exact).subs(a, s**m), force=True))))
    sp.Poly(num, s), sp.Poly(den, s)  # raises unless both are polynomials in s
    return m, s, num, den


def guarantee_covers(claimed: sp.Expr, exact: sp.Expr, timeout: float) -> tuple[bool, str, Fraction | None]:
    """claimed(alpha) >= exact(alpha) for every alpha in (0, 1), exactly: z3 on sign(num den) in s = alpha^(1/m).
    Returns (holds, how, a rational alpha where claimed < exact, or None)."""
    import z3

    m, s, num, den = factor_gap(claimed, exact)
    sv = z3.Real("s")

    def to_z3(e: sp.Expr) -> z3.ArithRef:
        return sum((z3.RealVal(str(c)) * sv**i for (i,), c in sp.Poly(sp.expand(e), s).terms()), z3.RealVal(0))

    premises = [sv > 0, sv < 1]
    premise_witness(premises, timeout, "0 < alpha^(1/m) < 1")
    how = f"claimed - exact = ({sp.factor(num)})/({sp.factor(den)}) with s = alpha^(1/{m})"
    if decide([*premises, to_z3(num) * to_z3(den) < 0], timeout).unsat:
        return True, how + ": >= 0 on (0, 1)", None
    for q in (Fraction(i, 2**e) for e in range(1, 7) for i in range(1, 2**e, 2)):  # 1/2, 1/4, 3/4, ...
        if sp.expand(num * den).subs(s, sp.Rational(q.numerator, q.denominator)) < 0:  # a rational, exactly
            return False, how + f": < 0 at s = {q}", q**m
    return False, how + ": < 0 somewhere in (0, 1) (z3 sat), no grid point s = i/64", None


def termwise_bound(nonnegative_loss: bool = True, factor_at_least_one: bool = True) -> tuple[Obligation, ...]:
    """The proof's 'at most F times': with the same remap Y (rounding, then an optimal remap of the geometric
    mechanism), E_Laplace = sum over (i, delta) of p_i Pr[Delta'=delta] l(i, Y(i+delta)) and E_geometric the
    same with Pr[Delta=delta].  Induction on the number of terms: S' <= F S survives a term w d', w d with
    w = p_i l >= 0 and d' <= F d (delta != 0: d' = f d, f <= F; delta = 0: d' <= d, F >= 1); the series of
    non-negative terms keeps the bound in the limit.  ``nonnegative_loss=False`` drops w >= 0 (a legal loss as
    defined in Section 2.2 may be negative); ``factor_at_least_one=False`` drops F >= 1: false variants."""
    import z3

    s1, s0, w, d1, d0, f, big_f = z3.Reals("S_laplace S_geometric w d_laplace d_geometric f F")
    cell = z3.Or(
        z3.And(d1 == f * d0, f <= big_f),  # delta != 0, the proof's ratio f
        z3.And(d1 <= d0, *((big_f >= 1,) if factor_at_least_one else ())),  # delta = 0
    )
    return (
        Obligation("termwise: base (no terms)", (big_f >= 0,), 0 <= big_f * 0),
        Obligation(
            "termwise: step (one more (i, delta))",
            (s1 <= big_f * s0, d0 >= 0, d1 >= 0, f >= 1, *((w >= 0,) if nonnegative_loss else ()), cell),
            s1 + w * d1 <= big_f * (s0 + w * d0),
        ),
    )


def tight_user_ratio() -> tuple[sp.Expr, str]:
    """Example A.1's user for every alpha (n = 1, uniform prior, binary loss): the Laplace mechanism's least
    loss over all remaps (:func:`laplace_bayes_bound`, pointwise minimum of the densities) over the optimum
    a/(1+a) = Pr[Delta >= 1] of the geometric mechanism remapped to {0, 1}, simplified."""
    ok, lap, how = laplace_bayes_bound()
    if not ok:
        raise ArithmeticError(f"the Laplace best remap for Example A.1's user was not derived: {how}")
    geo = tail(sp.Integer(1))
    return sp.simplify(sp.powsimp(lap / geo, force=True)), f"Laplace {lap}, geometric {geo}"


def guarantee_instances(
    rec: Findings, ctx: Context, derived: sp.Expr, factor: Callable[[sp.Expr], sp.Expr], nonnegative_loss: bool = True
) -> None:
    """The guarantee of Theorem A.2 from the pmf ratio f = ``derived``: the claimed factor covers f on (0, 1)
    (else Example A.1's user at a rational alpha is the counterexample), the termwise sum bounds the Laplace
    loss by F times the geometric's, and Example A.1's user attains f (so f is exact)."""
    allk = dict(n=None, alpha=SYMBOLIC, kind=ALL_N)
    claimed = sp.sympify(factor(a))
    tight, how_tight = tight_user_ratio()
    with rec.deciding(**allk, method="exact: sympy simplification", part="guarantee: f is attained") as dec:
        if not same(tight, derived):
            dec.counterexample(f"Example A.1's user: Laplace/geometric = {tight}, the pmf ratio is {derived}")
    with rec.deciding(
        **allk, method="z3 NRA unsat in s = alpha^(1/m)", part="guarantee: printed factor >= the exact f"
    ) as dec:
        try:
            holds, how, at = guarantee_covers(claimed, derived, ctx.solver_timeout)
        except sp.PolynomialError as exc:  # not algebraic in a root of alpha: no exact sign test here
            dec.inconclusive(f"the factor {claimed} is not a rational function of a root of alpha: {exc}")
        else:
            rec.value(**{"guarantee: printed factor - exact f": how})
            if not holds:
                dec.counterexample(_guarantee_refuted(claimed, at, how))
    with rec.deciding(
        **allk, method="induction on the terms, SMT unsat (z3 and cvc5)", part="guarantee: termwise sum"
    ) as dec:
        proof = discharge(termwise_bound(nonnegative_loss), ctx.solver_timeout)
        if not proof.holds:
            dec.counterexample(proof.counterexample)
    rec.value(
        **{
            "guarantee: exact factor f (Example A.1's user attains it)": f"{derived} ({how_tight})",
            "guarantee: f as alpha -> 0+": str(sp.limit(derived, a, 0, "+")),
            "guarantee: f at alpha = 1 (the formula; the mechanism is undefined there)": str(derived.subs(a, 1)),
        }
    )


def _guarantee_refuted(claimed: sp.Expr, at: Fraction | None, how: str) -> str:
    """Example A.1's user at alpha = at: the Laplace loss (best remap) exceeds claimed x the optimum."""
    if at is None:
        return f"the printed factor {claimed} is below the exact f somewhere in (0, 1): {how}"
    q = sp.Rational(at.numerator, at.denominator)
    lap, geo = sp.sqrt(q) / 2, tail(sp.Integer(1)).subs(a, q)
    bound = sp.simplify(claimed.subs(a, q) * geo)
    excess = sp.simplify(lap - bound)  # alpha = s^m with s rational: every term is rational
    if not (excess.is_Rational and excess > 0):
        raise ArithmeticError(f"alpha={at}: {lap} does not exceed {bound} exactly")
    return (
        f"alpha={at}: Example A.1's user (n=1, uniform prior, binary loss) loses {lap} with the Laplace mechanism's "
        f"best remap, but {claimed.subs(a, q)} x (the truncated geometric's optimal {geo}) = {bound}; {how}"
    )
