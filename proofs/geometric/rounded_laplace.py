"""grs2011 Theorem A.2: the ln(1/alpha)-Laplace mechanism is (1+a)/(2 sqrt a)-approximately universally
utility-maximizing, alpha in (0, 1], decided as its proof argues, through the rounded Laplace noise: its pmf ratio
to the geometric noise is derived and compared with the printed one, its zero cell and total mass are decided, the
printed decimal at alpha = 1/2 is checked, and the printed end alpha = 1 is decided.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.geometric.approximation_guarantee import guarantee_instances
from proofs.geometric.laplace_noise import EPS, T, laplace_cell
from proofs.geometric.noise import geometric_pmf
from proofs.geometric.symbolic import F_ONE, GRID, SYMBOLIC, a, below_one, k, latex_expr, same
from udpm.claims.instances import ALL_N, BOUNDED, TABLE
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import decimal_matches_real, printed
from udpm.core.mechanisms import ALPHA, rounded_laplace_pmf
from udpm.smt.solvers import decide, premise_witness


def theorem_a2_factor(al: sp.Expr) -> sp.Expr:
    """(1+a)/(2 sqrt a), as a formula (the tests' reference)."""
    return (1 + al) / (2 * sp.sqrt(al))


def _sqrt_rational_bounds(x: Fraction, digits: int = 6) -> tuple[Fraction, Fraction]:
    """Rationals lo <= sqrt(x) <= hi, hi - lo = 10^-digits, exactly."""
    scale = 10**digits
    r = int((x * scale * scale).numerator // (x * scale * scale).denominator)
    lo = int(r**0.5)
    while (lo + 1) ** 2 <= x * scale * scale:
        lo += 1
    while lo**2 > x * scale * scale:
        lo -= 1
    return Fraction(lo, scale), Fraction(lo + 1, scale)


def derived_factor() -> tuple[sp.Expr, dict[str, sp.Expr]]:
    """Pr[Delta' = i]/Pr[Delta = i] from the rounded ln(1/a)-Laplace pmf, for i = k+1 >= 1 and its mirror
    i = -(k+1) (k >= 0 symbolic), simplified: the approximation factor of Theorem A.2, derived."""
    kk = k + 1
    ratios = {
        "i >= 1": laplace_cell(kk - sp.Rational(1, 2), kk + sp.Rational(1, 2), 1) / geometric_pmf(kk),
        "i <= -1": laplace_cell(-kk - sp.Rational(1, 2), -kk + sp.Rational(1, 2), -1) / geometric_pmf(-kk),
    }
    ratios = {c: sp.factor(sp.simplify(sp.powsimp(r, force=True))) for c, r in ratios.items()}
    return ratios["i >= 1"], ratios


def _printed_factor(al: sp.Expr) -> sp.Expr:
    """The printed ratio of the proof of Theorem A.2, read from its LaTeX."""
    return latex_expr(printed("grs2011", "thmA.2.ratio").values).subs(a, al)


def factor_at_least_one(f: sp.Expr) -> tuple[bool, str]:
    """f(a) >= 1 on (0, 1), exactly.  With s = sqrt a > 0, f - 1 is written num/den: num must be a positive
    constant times even powers of its square-free factors (so >= 0) and den positive.  For (1+a)/(2 sqrt a)
    this is (1+a)^2 - 4a = (1-a)^2: f - 1 = (1-s)^2/(2s)."""
    s = sp.Symbol("s", positive=True)
    gap = sp.factor(sp.simplify((f - 1).subs(a, s**2)))
    num, den = sp.fraction(gap)
    lead, factors = sp.Poly(num, s).sqf_list()
    square = lead > 0 and all(e % 2 == 0 for _, e in factors)
    return bool(square and den.is_positive), f"f - 1 = {gap} with s = sqrt(alpha): a square over a positive"


def _printed_theorem_factor(al: sp.Expr) -> sp.Expr:
    """The approximation factor printed in the statement of Theorem A.2, read from its LaTeX."""
    return latex_expr(printed("grs2011", "thmA.2.factor.symbolic").values).subs(a, al)


@checks("grs2011.thmA.2")
def rounded_laplace(
    ctx: Context,
    ratio: Callable[[sp.Expr], sp.Expr] = _printed_factor,
    factor: Callable[[sp.Expr], sp.Expr] = _printed_theorem_factor,
) -> Findings:
    """grs2011 Theorem A.2, alpha in (0, 1]: the ln(1/a)-Laplace mechanism is F-approximately universally
    utility-maximizing, F = ``factor`` (printed (1+a)/(2 sqrt a)): for every n and user, its expected loss is
    at most F times the optimum over alpha-DP mechanisms.

    Decided as the proof argues, for symbolic alpha in (0, 1): the rounded Laplace noise has
    Pr[Delta' = i] = ``ratio`` x Pr[Delta = i] for i != 0 (printed (1+a)/(2 sqrt a), derived from the pmf) and
    Pr[Delta' = 0] <= Pr[Delta = 0]; the factor f derived so is >= 1; F >= f on (0, 1) (z3); the termwise sum
    (induction) then bounds the rounded remap's loss by F times the geometric mechanism's optimal loss, which is
    the optimum by Theorem 3.2 (its Corollary 3.3, a dependency).  Example A.1's user (n = 1, uniform, binary)
    has loss ratio exactly f for every alpha, so f is the exact guarantee and a smaller F is refuted there.
    The printed value 1.06 at a = 1/2 is compared with f(1/2)."""
    rec = Findings("grs2011.thmA.2")
    derived, ratios = derived_factor()
    allk = dict(n=None, alpha=SYMBOLIC, kind=ALL_N)
    for case, got in ratios.items():
        with rec.deciding(**allk, method="Laplace cell integrals, symbolic i", part=f"ratio {case}") as dec:
            if k in got.free_symbols:
                dec.counterexample(f"{case}: the ratio {got} depends on i")
            elif not same(got, ratio(a)):
                dec.counterexample(_factor_point(got, ratio, case))
    with rec.deciding(**allk, method="exact: (1+a)^2 - 4a = (1-a)^2", part="factor >= 1") as dec:
        ok, why = factor_at_least_one(derived)
        if not ok:
            dec.counterexample(why)
    guarantee_instances(rec, ctx, derived, factor)
    zero = laplace_cell(0, sp.Rational(1, 2), 1) + laplace_cell(-sp.Rational(1, 2), 0, -1)
    s = sp.Symbol("s", positive=True)  # s = sqrt(a)
    gap = sp.factor(sp.simplify((geometric_pmf(0) - zero).subs(a, s**2)))
    with rec.deciding(**allk, method="z3 NRA unsat in s = sqrt(alpha)", part="Pr[Delta'=0] <= Pr[Delta=0]") as dec:
        holds, witness = decide_gap(gap, s, ctx.solver_timeout)
        rec.value(**{"zero cell: premise witness": witness})
        if not holds:
            dec.counterexample(f"Pr[Delta=0] - Pr[Delta'=0] = {gap} is not > 0 for some s in (0,1)")
    kk = k + 1
    total = below_one(zero + 2 * below_one(sp.summation(sp.simplify(derived * geometric_pmf(kk)), (k, 0, sp.oo))))
    rec.decide(
        same(total, 1), f"total mass {total}", **allk, method="series in closed form", part="rounded pmf sums to 1"
    )
    # cross-check against the library's own symbolic integration (udpm.core.mechanisms), cells -3..3
    for i in (-3, -2, -1, 1, 2, 3):
        lib = rounded_laplace_pmf(i, ALPHA).subs(ALPHA, a)
        rec.decide(
            same(lib, derived * geometric_pmf(sp.Integer(i))),
            f"udpm.core.mechanisms.rounded_laplace_pmf({i}) = {lib}, derived factor x geometric pmf differs",
            n=None,
            alpha=SYMBOLIC,
            kind=BOUNDED,
            method="udpm.core.mechanisms.rounded_laplace_pmf vs the derived factor",
            cell=i,
        )
    # the printed decimal at a = 1/2 against the derived factor there, exactly
    item = printed("grs2011", "thmA.2.factor")
    at_half = sp.nsimplify(derived.subs(a, sp.Rational(1, 2)))
    rec.decide(
        decimal_matches_real(item.values, at_half),
        f"printed factor {item.values} at alpha=1/2, derived {at_half}",
        n=None,
        alpha=Fraction(1, 2),
        kind=TABLE,
        method="printed decimal vs the derived factor (exact sign tests)",
        covers=f"{item.where} ({item.key})",
    )
    lo, hi = _sqrt_rational_bounds(Fraction(9, 8))
    rec.value(
        **{
            "Pr[Delta'=i]/Pr[Delta=i], i != 0 (derived)": str(derived),
            "Pr[Delta=0] - Pr[Delta'=0]": f"{gap} with s = sqrt(alpha): > 0 on (0,1)",
            "Pr[Delta'=0]": str(sp.simplify(zero)),
            "rounded Laplace total mass": str(total),
            "factor at alpha=1/2": f"{at_half} in [{lo}, {hi}]; printed {item.values}",
        }
    )
    rec.note(
        "the factor is derived from the rounded Laplace pmf (cells [i-1/2, i+1/2], i = k+1 and its mirror, k >= 0 "
        "symbolic) and compared with the printed ratio; f >= 1 exactly ((1+a)^2 - 4a = (1-a)^2); zero cell by z3 "
        "on the factored gap in s = sqrt(alpha); alpha = 1 (allowed by the theorem's (0, 1]) is degenerate: "
        "eps = 0 and the Laplace density vanishes."
    )
    rec.note(
        "the guarantee: every pmf ratio Pr[Delta'=d]/Pr[Delta=d] <= F, so with the same remap (round, then an "
        "optimal remap of the geometric mechanism) the Laplace loss is <= F x the geometric's optimal loss, the "
        "optimum over alpha-DP mechanisms by Theorem 3.2 / Corollary 3.3 (not decided here).  'At most F times' "
        "reads the losses as non-negative: a legal loss as defined in Section 2.2 may be negative (l = -1 gives "
        "every mechanism loss -1 > F x (-1)).  Example A.1's user attains F = (1+a)/(2 sqrt a) for every alpha: "
        "the printed factor is the exact guarantee; f -> oo as alpha -> 0+ (alpha = 0 is outside the printed range)"
    )
    laplace_at_one(rec, factor)
    return rec


def laplace_at_one(rec: Findings, factor: Callable[[sp.Expr], sp.Expr] = _printed_theorem_factor) -> None:
    """grs2011 Theorem A.2 at the printed end alpha = 1 of (0, 1]: epsilon = ln(1/1) = 0, and the Laplace density
    epsilon/2 e^(-epsilon|t|) is 0 for every t.  Two ALL_N instances (every n, every user): the ln(1/alpha)-Laplace
    mechanism the theorem calls F-approximately universally utility-maximizing (F = ``factor`` at 1) is a
    distribution (total mass 1), and the proof's '(Delta' is less likely to be 0 than Delta)'.  Both are refuted
    exactly: the mass is 0, and Pr[Delta' = 0] = 0 = Pr[Delta = 0]."""
    one = sp.Integer(1)
    eps_at_one = sp.log(1 / one)
    density = (EPS / 2 * sp.exp(-EPS * sp.Abs(T))).subs(EPS, eps_at_one)
    mass = sp.integrate(density, (T, -sp.oo, sp.oo))
    f_one = sp.simplify(factor(one))
    with rec.deciding(
        n=None,
        alpha=F_ONE,
        kind=ALL_N,
        method="the printed boundary alpha = 1: the Laplace density at epsilon = ln(1/1), integrated exactly",
        covers="every n and every user: the ln(1/alpha)-Laplace mechanism the theorem is about",
        part="the ln(1/alpha)-Laplace mechanism is a distribution",
    ) as dec:
        if mass != 1:
            dec.counterexample(
                f"alpha = 1 (in the printed (0, 1]): epsilon = ln(1/1) = {eps_at_one}, the density epsilon/2 "
                f"e^(-epsilon |t|) is {density} for every t and integrates to {mass} over R: the ln(1/alpha)-Laplace "
                f"mechanism is no distribution (every output has probability 0), so 'it is {f_one}-approximately "
                "universally utility-maximizing' states a property of a mechanism that does not exist"
            )
    half = sp.Rational(1, 2)
    lap_zero = sp.simplify((laplace_cell(0, half, 1) + laplace_cell(-half, 0, -1)).subs(a, one))
    geo_zero = sp.simplify(geometric_pmf(sp.Integer(0)).subs(a, one))
    with rec.deciding(
        n=None,
        alpha=F_ONE,
        kind=ALL_N,
        method="the printed boundary alpha = 1: both zero cells exactly",
        covers="the proof's comparison of the rounded Laplace noise Delta' with the geometric noise Delta",
        part="Pr[Delta'=0] < Pr[Delta=0]",
    ) as dec:
        if not lap_zero < geo_zero:
            dec.counterexample(
                f"alpha = 1: Pr[Delta' = 0] = {lap_zero} (the Laplace mass on [-1/2, 1/2]) and Pr[Delta = 0] = "
                f"{geo_zero} ((1 - 1)/(1 + 1) 1^0): Delta' is not less likely to be 0 than Delta"
            )
    rec.value(
        **{
            "at alpha = 1": f"epsilon = {eps_at_one}, Laplace total mass {mass}, Pr[Delta'=0] = {lap_zero}, "
            f"Pr[Delta=0] = {geo_zero}, printed factor {f_one}"
        }
    )
    rec.note(
        "the printed end alpha = 1 of (0, 1] is refuted: epsilon = ln(1/1) = 0, the Laplace density epsilon/2 "
        "e^(-epsilon |t|) is 0 for every t (total mass 0), so the ln(1/alpha)-Laplace mechanism does not exist there, "
        "and the proof's 'Delta' is less likely to be 0 than Delta' reads 0 < 0 (the geometric pmf is 0 too)"
    )
    rec.value(
        corrected_statement="alpha in (0, 1) instead of (0, 1]: at alpha = 1 the ln(1/alpha)-Laplace mechanism "
        "(density 0) and the geometric distribution (pmf 0) are no distributions",
        corrected_scope="the instances at alpha in (0, 1) of this record",
    )


def _factor_point(ratio: sp.Expr, factor: Callable[[sp.Expr], sp.Expr], case: str) -> str:
    """A rational alpha where the derived ratio and the claimed factor differ (both exact)."""
    i = "1" if case == "i >= 1" else "-1"
    for al in GRID:
        q = sp.Rational(al.numerator, al.denominator)
        got, claim = sp.simplify(ratio.subs({a: q, k: 0})), sp.simplify(factor(q))
        if sp.simplify(got - claim) != 0:
            return f"{case}, i = {i}, alpha={al}: Pr[Delta'=i]/Pr[Delta=i] = {got}, claimed factor {claim}"
    return f"{case}: derived {ratio}, claimed {factor(a)}: equal at every grid alpha, differ symbolically"


def decide_gap(expr: sp.Expr, s: sp.Symbol, timeout: float) -> tuple[bool, str]:
    """expr(s) > 0 for 0 < s < 1, by z3 on the polynomial numerator times the denominator (unsat of <= 0),
    after a premise witness shows 0 < s < 1 satisfiable."""
    import z3

    num, den = sp.fraction(sp.together(expr))
    sv = z3.Real("s")

    def to_z3(e):
        poly = sp.Poly(sp.expand(e), s)
        return sum((z3.RealVal(str(c)) * sv**i for (i,), c in poly.terms()), z3.RealVal(0))

    premises = [sv > 0, sv < 1]
    witness = premise_witness(premises, timeout, "0 < sqrt(alpha) < 1")
    return decide([*premises, to_z3(num) * to_z3(den) <= 0], timeout).unsat, f"s = {witness['s']}"
