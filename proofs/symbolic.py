"""All-n symbolic claims: post-processing (grs2011 Example 2.3 = grs2009 Example 2.2), the rounded
Laplace pmf (grs2011 Theorem A.2) and the Laplace-vs-geometric example (grs2009 Section 6.1).

The printed formulas are read from paper_tables/printed/*.json (LaTeX, verbatim) by :func:`latex_expr`
and compared with the exact symbolic value computed from the mechanism's pmf.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache

import sympy as sp
from sympy.parsing.sympy_parser import implicit_multiplication_application, parse_expr, standard_transformations

from proofs.degenerate_geometric import post_processing_at_zero
from udpm.claims import Context, Findings, checks
from udpm.induction import Obligation, discharge
from udpm.instances import ALL_N, BOUNDED, TABLE
from udpm.mechanisms import ALPHA, rounded_laplace_pmf, truncated_geometric
from udpm.remaps import compose, deterministic_remap
from udpm.smt import decide, model_value, premise_witness
from udpm.tables import PrintedItem, compare_printed, decimal_matches_real, printed
from udpm.users import BayesianUser, binary_loss

a = sp.Symbol("alpha", positive=True)
nn = sp.Symbol("n", integer=True, positive=True)
h, k = sp.symbols("h k", integer=True, nonnegative=True)
SYMBOLIC = "symbolic alpha in (0,1)"
F_ONE, F_ZERO = Fraction(1), Fraction(0)
GRID = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 4), Fraction(9, 10), Fraction(1, 100))

Formula = Callable[[sp.Expr, sp.Expr], sp.Expr]  # (alpha, n) -> value


# --- printed LaTeX ---------------------------------------------------------------------------


def _braced(s: str, i: int) -> tuple[str, int]:
    """The content of the {...} group starting at s[i] == '{', and the index after it."""
    depth = 0
    for j in range(i, len(s)):
        depth += {"{": 1, "}": -1}.get(s[j], 0)
        if depth == 0:
            return s[i + 1 : j], j + 1
    raise ValueError(f"unbalanced braces in {s!r}")


def latex_expr(text: str) -> sp.Expr:
    """A printed LaTeX formula in alpha and n (\\frac, \\sqrt, \\cdot, ^{...}) as a sympy expression."""
    s = text.replace("\\alpha", " alpha ").replace("\\cdot", "*").replace("\\left", "").replace("\\right", "")
    out, i = "", 0
    while i < len(s):
        if s.startswith("\\frac", i):
            num, i = _braced(s, i + 5)
            den, i = _braced(s, i)
            out += f"(({latex_expr(num)})/({latex_expr(den)}))"
        elif s.startswith("\\sqrt", i):
            arg, i = _braced(s, i + 5)
            out += f"sqrt({latex_expr(arg)})"
        elif s.startswith("^{", i):
            arg, i = _braced(s, i + 1)
            out += f"**({latex_expr(arg)})"
        elif s[i] == "^":
            out += "**"
            i += 1
        else:
            out += s[i]
            i += 1
    return parse_expr(
        out,
        local_dict={"alpha": a, "n": nn},
        transformations=(*standard_transformations, implicit_multiplication_application),
    )


def same(x: sp.Expr, y: sp.Expr) -> bool:
    return sp.simplify(sp.powsimp(sp.expand(x - y), force=True)) == 0


# --- geometric pmf sums ----------------------------------------------------------------------


def geometric_pmf(delta: sp.Expr) -> sp.Expr:
    return (1 - a) / (1 + a) * a ** sp.Abs(delta)


def tail(lo: sp.Expr) -> sp.Expr:
    """Pr[Delta >= lo] for lo >= 1 (a symbolic non-negative shift allowed): sum of the pmf, closed form."""
    return below_one(sp.summation(((1 - a) / (1 + a) * a**k).subs(k, k + lo), (k, 0, sp.oo)))


# --- grs2011 Example 2.3 / grs2009 Example 2.2 ----------------------------------------------


def _formula_point(exact: sp.Expr, claimed: sp.Expr) -> str | None:
    """A rational alpha and h (n = 2h+1) where a symbolically different claim differs, exactly."""
    for al in GRID:
        for hv in range(5):
            sub = {a: sp.Rational(al.numerator, al.denominator), h: hv}
            got, want = sp.simplify(exact.subs(sub)), sp.simplify(claimed.subs(sub))
            if sp.simplify(got - want) != 0:
                return f"at alpha={al}, n={2 * hv + 1}: exact {got}, stated {want}"
    return None


def _post_processing(
    paper: str, keys: tuple[str, str], face: Formula | None, remapped: Formula | None, ctx: Context
) -> Findings:
    rec = Findings(f"{paper}.{'ex2.3' if paper == 'grs2011' else 'ex2.2'}")
    face_item, remap_item = printed(paper, keys[0]), printed(paper, keys[1])
    face = face or (lambda al, n: latex_expr(face_item.values).subs(a, al))
    remapped = remapped or (lambda al, n: latex_expr(remap_item.values).subs({a: al, nn: n}))
    # face value: the user keeps the output; with prior 1/2 on 0 and n its loss is Pr[Delta != 0], any n
    face_exact = 2 * tail(sp.Integer(1))
    # remap: n = 2h + 1; true 0 errs iff Delta >= h+1, true n errs iff Delta <= -(h+1): both a^(h+1)/(1+a)
    remap_exact = tail(h + 1)
    n_odd = 2 * h + 1
    for what, exact, claimed in (
        ("face value", face_exact, face(a, n_odd)),
        ("after the 0/n remap", remap_exact, remapped(a, n_odd)),
    ):
        with rec.deciding(
            n=None, alpha=SYMBOLIC, kind=ALL_N, method="geometric tail sums in closed form", part=what
        ) as dec:
            if not same(exact, claimed):
                cex = _formula_point(exact, claimed)
                if cex:
                    dec.counterexample(f"{what}: {cex}")
                else:
                    dec.inconclusive(f"{what}: {exact} vs {claimed} not decided")
    # bounded exact cross-check through udpm: the remap of the truncated geometric, odd n <= N, rational alphas
    n_max = 9 if ctx.quick else 21
    for n in range(1, n_max + 1, 2):
        user = BayesianUser.of([Fraction(1, 2)] + [0] * (n - 1) + [Fraction(1, 2)], binary_loss(n))
        remap = deterministic_remap([0 if r < (n + 1) // 2 else n for r in range(n + 1)], n + 1)
        for al in GRID:
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact expected loss (udpm.users)",
                covers="the example's user (prior 1/2 on 0 and n, binary loss) and the 0/n remap",
            ) as dec:
                got = user.expected_loss(compose(truncated_geometric(n, al), remap))
                want = remapped(sp.Rational(al.numerator, al.denominator), sp.Integer(n))
                fv = face(sp.Rational(al.numerator, al.denominator), sp.Integer(n))
                fv_exact = 1 - (1 - al) / (1 + al)
                if sp.Rational(str(got)) != sp.simplify(want) or sp.simplify(fv) != sp.Rational(str(fv_exact)):
                    dec.counterexample(
                        f"n={n}, alpha={al}: face value Pr[Delta != 0] = {fv_exact} (stated {fv}); after the "
                        f"0/n remap the expected loss is {got} (stated {sp.simplify(want)})"
                    )
    rec.value(
        **{
            "face value": f"{sp.factor(face_exact)} (printed {face_item.values})",
            "after remap, n = 2h+1": f"{sp.factor(remap_exact)} (printed {remap_item.values})",
            "improvement factor": f"{sp.simplify(remap_exact / face_exact)} <= 1/2",
        }
    )
    rec.note(
        f"all odd n (n = 2h+1, h symbolic): geometric tail sums in closed form; exact cross-check with "
        f"udpm (BayesianUser, remap of T(n, a)) for odd n <= {n_max} at alpha in {', '.join(map(str, GRID))}"
    )
    return rec


@checks("grs2011.ex2.3")
def post_processing_grs2011(ctx: Context, face: Formula | None = None, remapped: Formula | None = None) -> Findings:
    """grs2011 Example 2.3: for odd n, binary loss and prior p_0 = p_n = 1/2, the geometric mechanism's loss is
    2a/(1+a) at face value and a^((n+1)/2)/(1+a) after remapping outputs >= (n+1)/2 to n and the rest to 0."""
    rec = _post_processing("grs2011", ("ex2.3.face-value", "ex2.3.remapped"), face, remapped, ctx)
    face = face or _printed_loss("grs2011", "ex2.3.face-value")
    remapped = remapped or _printed_loss("grs2011", "ex2.3.remapped")
    post_processing_at_ends(rec, face, remapped, GRS2011_END_MECHANISMS)
    rec.note(
        "the printed ends of alpha in [0, 1] (Example 2.1 defines the 0- and 1-geometric mechanisms 'for "
        "convenience'): at alpha = 0 the 0-geometric mechanism (the identity) loses 0 at face value and after the "
        "remap, as printed (every odd n); at alpha = 1 the 1-geometric mechanism (always 0) loses 1/2 at face "
        "value, not the printed 2 alpha/(1 + alpha) = 1 (refuted, every odd n), and 1/2 after the remap, as printed"
    )
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]: at alpha = 1 the face-value loss is 1/2, not "
        "2 alpha/(1 + alpha) = 1",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: all odd n, symbolic)",
    )
    return rec


@checks("grs2009.ex2.2")
def post_processing_grs2009(ctx: Context, face: Formula | None = None, remapped: Formula | None = None) -> Findings:
    """grs2009 Example 2.2 (the same example as grs2011 Example 2.3): losses 2a/(1+a) and a^((n+1)/2)/(1+a)."""
    rec = _post_processing("grs2009", ("ex2.2.face-value", "ex2.2.remapped"), face, remapped, ctx)
    face_item, remap_item = printed("grs2009", "ex2.2.face-value"), printed("grs2009", "ex2.2.remapped")
    face = face or (lambda al, n: latex_expr(face_item.values).subs(a, al))
    remapped = remapped or (lambda al, n: latex_expr(remap_item.values).subs({a: al, nn: n}))

    def identity_losses(n: int) -> tuple[object, object]:
        user = BayesianUser.of([Fraction(1, 2)] + [0] * (n - 1) + [Fraction(1, 2)], binary_loss(n))
        eye = [[Fraction(int(i == j)) for j in range(n + 1)] for i in range(n + 1)]
        remap = deterministic_remap([0 if r < (n + 1) // 2 else n for r in range(n + 1)], n + 1)
        return user.expected_loss(eye), user.expected_loss(compose(eye, remap))

    post_processing_at_zero(rec, face, remapped, identity_losses)
    post_processing_at_ends(rec, face, remapped, GRS2009_END_MECHANISMS)
    rec.note(
        "the printed boundary: grs2009 fixes alpha in [0, 1] (Section 2.1) and Example 2.1 does not narrow it; at "
        "alpha = 0 (0^0 = 1: the geometric mechanism is the identity) both losses are 0 as printed (n = 1, 3); "
        "at alpha = 1 the printed pmf (1 - alpha)/(1 + alpha) alpha^|z| is 0 for every z, so x^G and its remap are 0 "
        "(no distribution) and the loss (1) is 0, not the printed 2 alpha/(1 + alpha) = 1 and alpha^((n+1)/2)/(1 + "
        "alpha) = 1/2 (refuted: the example states losses of an object that is no mechanism)"
    )
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]: at alpha = 1 the printed geometric distribution is 0 "
        "everywhere and the stated losses 1 and 1/2 are not its loss (1), which is 0",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: n in {1, 3})",
    )
    return rec


# --- the printed ends alpha = 0 and alpha = 1 of Example 2.3 / Example 2.2 --------------------------------------


def _printed_loss(paper: str, key: str) -> Formula:
    item = printed(paper, key)
    return lambda al, n: latex_expr(item.values).subs({a: al, nn: n})


#: What the geometric mechanism is at each end, per paper: (description, output), ``output(i)`` the answer it gives
#: for true result i (deterministic at the ends), or ``None``: the printed pmf is 0 everywhere (no mass at all).
EndMechanism = tuple[str, Callable[[sp.Expr], sp.Expr] | None]


def _identity_output(i: sp.Expr) -> sp.Expr:
    return i  # the 0-geometric mechanism: always the true result (the identity on Z)


def _zero_output(i: sp.Expr) -> sp.Expr:
    return sp.Integer(0)  # the 1-geometric mechanism of grs2011 Example 2.1: always 0


#: grs2011 Example 2.1's convenience definitions: a deterministic output per true result.
GRS2011_END_MECHANISMS: dict[int, EndMechanism] = {
    0: ("Example 2.1's 0-geometric mechanism (always the true result f(d))", _identity_output),
    1: ("Example 2.1's 1-geometric mechanism (always the answer 0)", _zero_output),
}
#: grs2009 Example 2.1's formula (1 - alpha)/(1 + alpha) alpha^|z| at the ends, 0^0 = 1: the point mass at 0 at
#: alpha = 0 (the identity), and 0 for every z at alpha = 1 (None: no output has positive probability).
GRS2009_END_MECHANISMS: dict[int, EndMechanism] = {
    1: ("Example 2.1's formula at alpha = 1 ((1 - 1)/(1 + 1) 1^|z| = 0 for every z)", None),
}
#: grs2009 at alpha = 0 (the point mass at 0, 0^0 = 1: the identity) is decided by
#: :func:`proofs.degenerate_geometric.post_processing_at_zero` (n = 1, 3); the symbolic all-odd-n form, for reuse.
GRS2009_AT_ZERO: dict[int, EndMechanism] = {
    0: ("Example 2.1's formula at alpha = 0 (0^0 = 1: Pr[Z = 0] = 1, the identity)", _identity_output),
}


def _face_and_remapped_losses(output: Callable[[sp.Expr], sp.Expr] | None, n: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """The example's user (prior 1/2 on 0 and n, binary loss) with a deterministic mechanism (true i -> output(i)),
    symbolic odd n = 2h+1: at face value it errs iff output(i) != i; after the remap (outputs >= (n+1)/2 -> n, the
    rest -> 0) iff the remapped output != i.  ``None``: the printed pmf is 0 everywhere, so every term of (1) is 0."""
    if output is None:
        z = sp.Symbol("z", integer=True)
        mass = sp.simplify(geometric_pmf(z).subs(a, 1))  # the printed pmf at alpha = 1, every integer z at once
        if mass != 0:
            raise ArithmeticError(f"the printed pmf at alpha = 1 is {mass}, not 0")
        return 2 * sp.Rational(1, 2) * mass, 2 * sp.Rational(1, 2) * mass  # every term p_i x_ir l(i, r) of (1) is 0
    half = sp.Rational(1, 2)

    def remap(r: sp.Expr) -> sp.Expr:
        at_least = sp.Ge(r, (n + 1) / 2)
        if at_least not in (sp.true, sp.false):
            raise ArithmeticError(f"the remap of output {r} is not decided for n = {n}")
        return n if at_least == sp.true else sp.Integer(0)

    def errs(i: sp.Expr, got: sp.Expr) -> sp.Expr:
        eq = sp.Eq(got, i)
        if eq not in (sp.true, sp.false):
            raise ArithmeticError(f"whether {got} = {i} is not decided")
        return sp.Integer(0) if eq == sp.true else sp.Integer(1)

    face = half * errs(sp.Integer(0), output(sp.Integer(0))) + half * errs(n, output(n))
    remapped = half * errs(sp.Integer(0), remap(output(sp.Integer(0)))) + half * errs(n, remap(output(n)))
    return face, remapped


def post_processing_at_ends(
    rec: Findings, face: Formula, remapped: Formula, mechanisms: dict[int, EndMechanism]
) -> None:
    """grs2011 Example 2.3 / grs2009 Example 2.2 at the printed ends alpha = 0 and 1: one ALL_N instance per
    (end, loss), symbolic odd n = 2h+1, the exact loss of the paper's mechanism at that end against the printed
    formula there (``face``, ``remapped``: the printed formulas, or a false variant)."""
    n_odd = 2 * h + 1
    for end, (what_mech, output) in mechanisms.items():
        got = dict(zip(("face value", "after the 0/n remap"), _face_and_remapped_losses(output, n_odd)))
        for what, formula in (("face value", face), ("after the 0/n remap", remapped)):
            claimed = sp.simplify(formula(sp.Integer(end), n_odd))
            with rec.deciding(
                n=None,
                alpha=end,
                kind=ALL_N,
                method=f"the printed boundary alpha = {end}: exact expected loss for symbolic odd n = 2h+1",
                covers=f"{what_mech}; the example's user (prior 1/2 on 0 and n, binary loss)",
                part=what,
            ) as dec:
                if sp.simplify(got[what] - claimed) != 0:
                    why = (
                        "every pmf value is 0, so every term of the loss (1) is 0: the printed object is no "
                        "distribution (its rows sum to 0), and the stated loss is not its loss"
                        if output is None
                        else "decided exactly for every odd n"
                    )
                    dec.counterexample(
                        f"alpha = {end}, every odd n = 2h+1 (n = 1: {got[what]} vs {claimed.subs(h, 0)}): with "
                        f"{what_mech} the {what} loss is {got[what]}, stated {claimed} ({why})"
                    )
        if output is None:
            continue
        for n in (1, 3):  # exact cross-check through udpm: the mechanism as a matrix on N, BayesianUser's loss (2)
            user = BayesianUser.of([Fraction(1, 2)] + [0] * (n - 1) + [Fraction(1, 2)], binary_loss(n))
            x = [[Fraction(int(r == int(output(sp.Integer(i))))) for r in range(n + 1)] for i in range(n + 1)]
            remap = deterministic_remap([0 if r < (n + 1) // 2 else n for r in range(n + 1)], n + 1)
            lib = {"face value": user.expected_loss(x), "after the 0/n remap": user.expected_loss(compose(x, remap))}
            for what, formula in (("face value", face), ("after the 0/n remap", remapped)):
                claimed = sp.simplify(formula(sp.Integer(end), sp.Integer(n)))
                with rec.deciding(
                    n=n,
                    alpha=end,
                    kind=BOUNDED,
                    method=f"the printed boundary alpha = {end}: exact expected loss (udpm.users) of the mechanism "
                    "as a matrix on N",
                    covers=f"{what_mech}; the example's user and the 0/n remap",
                    part=what,
                ) as dec:
                    if sp.Rational(str(lib[what])) != claimed:
                        dec.counterexample(
                            f"n = {n}, alpha = {end}: {what_mech} has rows "
                            f"{[[str(v) for v in row] for row in x]}; the {what} loss is {lib[what]}, stated {claimed}"
                        )


# --- grs2011 Theorem A.2 ---------------------------------------------------------------------


EPS = sp.Symbol("epsilon", positive=True)
T = sp.Symbol("t", real=True)


@cache
def laplace_antiderivative(side: int) -> sp.Expr:
    """An antiderivative of eps/2 e^(-side eps t) (side = 1: t >= 0, side = -1: t <= 0), checked by differentiating."""
    density = EPS / 2 * sp.exp(-side * EPS * T)
    anti = sp.integrate(density, T)
    if sp.simplify(sp.diff(anti, T) - density) != 0:
        raise ArithmeticError("antiderivative check failed")
    return anti


def laplace_cell(lo: sp.Expr, hi: sp.Expr, side: int) -> sp.Expr:
    """Pr[lo <= L <= hi] for the Laplace density eps/2 e^(-eps|t|), eps = ln(1/a), on one side of 0
    (side = 1: 0 <= lo <= hi, side = -1: lo <= hi <= 0).  Exact with eps > 0 a symbol, then eps = ln(1/a)."""
    anti = laplace_antiderivative(side)
    val = sp.simplify(anti.subs(T, hi) - anti.subs(T, lo)).subs(EPS, sp.log(1 / a))
    return sp.simplify(sp.powsimp(sp.expand_log(sp.expand_power_exp(sp.simplify(val)), force=True), force=True))


def below_one(e: sp.Expr) -> sp.Expr:
    """Simplify under 0 < alpha < 1: Piecewise convergence branches resolved and alpha**oo = 0."""
    e = sp.refine(sp.sympify(e), sp.Q.lt(a, 1))
    if isinstance(e, sp.Piecewise):
        e = e.args[0][0]
    e = e.replace(lambda x: x.is_Pow and x.base == a and x.exp == sp.oo, lambda x: sp.Integer(0))
    return sp.simplify(e)


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
    # cross-check against the library's own symbolic integration (udpm.mechanisms), cells -3..3
    for i in (-3, -2, -1, 1, 2, 3):
        lib = rounded_laplace_pmf(i, ALPHA).subs(ALPHA, a)
        rec.decide(
            same(lib, derived * geometric_pmf(sp.Integer(i))),
            f"udpm.mechanisms.rounded_laplace_pmf({i}) = {lib}, derived factor x geometric pmf differs",
            n=None,
            alpha=SYMBOLIC,
            kind=BOUNDED,
            method="udpm.mechanisms.rounded_laplace_pmf vs the derived factor",
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
    rec.value(**{"at alpha = 1": f"epsilon = {eps_at_one}, Laplace total mass {mass}, Pr[Delta'=0] = {lap_zero}, "
                 f"Pr[Delta=0] = {geo_zero}, printed factor {f_one}"})
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


# --- grs2009 Section 6.1 ---------------------------------------------------------------------


def _printed_formula(key: str) -> Callable[[sp.Expr], sp.Expr]:
    return lambda al: latex_expr(printed("grs2009", key).values).subs(a, al)


def laplace_bayes_bound() -> tuple[bool, sp.Expr, str]:
    """The least loss of the Laplace mechanism on {0, 1} under any remap f: R -> [0, 1]: 1/2 int min(f0, f1).

    f0(y) = eps/2 e^(-eps|y|), f1(y) = f0(y-1).  On y <= 0 and 0 <= y = 1/2 - u <= 1/2, f1/f0 is computed and
    shown <= 1 (its log is eps times a non-positive expression); y >= 1/2 is the mirror.  So min = f1 left of
    1/2 and f0 right of it, and 1/2 int min = int_(1/2)^oo f0.
    """
    u = sp.Symbol("u", nonnegative=True)
    dens = lambda dist: EPS / 2 * sp.exp(-EPS * dist)  # noqa: E731  the density at |.| = dist
    segments = {  # (|y|, |y - 1|) on each segment, y written with u >= 0
        "y = -u <= 0": (u, 1 + u),
        "y = 1/2 - u in [0, 1/2]": (sp.Rational(1, 2) - u, sp.Rational(1, 2) + u),
    }
    ok, parts = True, []
    for name, (d0, d1) in segments.items():
        r = sp.simplify(dens(d1) / dens(d0))
        nonpos = sp.ask(sp.Q.nonpositive(sp.expand(sp.log(r), force=True)), sp.Q.positive(EPS) & sp.Q.nonnegative(u))
        ok = ok and bool(nonpos)
        parts.append(f"{name}: f1/f0 = {r} <= 1: {bool(nonpos)}")
    bound = sp.simplify(laplace_cell(sp.Rational(1, 2), sp.oo, 1))
    return ok, bound, "; ".join(parts) + f"; so 1/2 int min(f0, f1) = {bound}"


def threshold_loss() -> tuple[sp.Expr, bool, str]:
    """The loss of the Laplace mechanism remapped by a threshold t in [0, 1] (y >= t -> 1, else 0), as a
    function of t, and its exact minimum: 1/4 (a^t + a^(1-t)) - sqrt(a)/2 = 1/4 (a^(t/2) - a^((1-t)/2))^2."""
    t = sp.Symbol("t", nonnegative=True)
    v = sp.Symbol("v", nonnegative=True)  # v = 1 - t >= 0
    err0 = laplace_cell(t, sp.oo, 1)  # true 0, output >= t
    err1 = laplace_cell(-sp.oo, -v, -1)  # true 1, L + 1 < t, i.e. L < t - 1 = -v
    loss = sp.simplify(sp.Rational(1, 2) * (err0 + err1.subs(v, 1 - t)))
    square = sp.Rational(1, 4) * (a ** (t / 2) - a ** ((1 - t) / 2)) ** 2
    ok = same(loss - sp.sqrt(a) / 2, square) and same(loss.subs(t, sp.Rational(1, 2)), sp.sqrt(a) / 2)
    return loss, ok, f"loss(t) = {loss}; loss(t) - sqrt(a)/2 = 1/4 (a^(t/2) - a^((1-t)/2))^2 >= 0, 0 iff t = 1/2"


#: The loss grs2009 Section 6.1 is recomputed under, by its name in grs2009 Section 2.1 ("the binary loss function
#: l_bin(i, r), defined as 0 if i = r and 1 otherwise"): the lower bound below is (x01 + x10)/2, the binary loss of a
#: mechanism on {0, 1} under the prior (1/2, 1/2), and the Laplace loss 1/2 int min(f0, f1) is its continuous form.
SEC61_LOSS = "l_{bin}"


@checks("grs2009.sec6.1")
def laplace_vs_geometric(
    ctx: Context,
    geometric_loss: Callable[[sp.Expr], sp.Expr] | None = None,
    laplace_loss: Callable[[sp.Expr], sp.Expr] | None = None,
    loss_item: PrintedItem | None = None,
) -> Findings:
    """grs2009 Section 6.1: prior (1/2, 1/2) on {0, 1}, binary loss: the geometric mechanism's optimal loss is
    a/(1+a), the Laplace mechanism's (with the user's optimal remap) sqrt(a)/2; their ratio -> oo as a -> 0.
    The printed name of the loss (item sec6.1.loss, or ``loss_item``) is compared with :data:`SEC61_LOSS`."""
    rec = Findings("grs2009.sec6.1")
    compare_printed(
        rec,
        loss_item or printed("grs2009", "sec6.1.loss"),
        SEC61_LOSS,
        n=None,
        alpha=SYMBOLIC,
        method="the name grs2009 Section 2.1 gives the loss the check computes with",
    )
    geometric_loss = geometric_loss or _printed_formula("sec6.1.geometric")
    laplace_loss = laplace_loss or _printed_formula("sec6.1.laplace")
    allk = dict(n=None, alpha=SYMBOLIC, kind=ALL_N)
    # geometric: remap outputs <= 0 to 0 and >= 1 to 1 (Bayes-optimal); error Pr[Delta >= 1] on either side
    geo = tail(sp.Integer(1))
    # lower bound for every alpha-DP mechanism on {0, 1} (z3, symbolic alpha): loss >= a/(1+a)
    import z3

    al, x01, x10 = z3.Reals("alpha x01 x10")
    x00, x11 = 1 - x01, 1 - x10
    dp = [x01 >= 0, x10 >= 0, x01 <= 1, x10 <= 1, x00 >= al * x10, x10 >= al * x00, x01 >= al * x11, x11 >= al * x01]
    premises = [al > 0, al < 1, *dp]
    with rec.deciding(**allk, method="z3 NRA unsat", part="no alpha-DP mechanism on {0,1} beats a/(1+a)") as dec:
        witness = premise_witness(premises, ctx.solver_timeout, "alpha-DP mechanisms on {0,1}")
        rec.value(**{"DP premise witness": ", ".join(f"{k_}={v}" for k_, v in witness.items())})
        below = decide([*premises, (x01 + x10) / 2 < al / (1 + al)], ctx.solver_timeout)
        if not below.unsat:
            vals = {str(v): model_value(below.model, v) for v in (al, x01, x10)}
            dec.counterexample(f"an alpha-DP mechanism on {{0,1}} beats a/(1+a): {vals}")
    ok_bound, lap, bound_how = laplace_bayes_bound()
    rec.decide(ok_bound, bound_how, **allk, method="pointwise min of the densities", part="Laplace: best remap")
    loss_t, ok_t, t_how = threshold_loss()
    rec.decide(
        ok_t and same(loss_t.subs(sp.Symbol("t", nonnegative=True), sp.Rational(1, 2)), lap),
        t_how,
        **allk,
        method="threshold loss minimised exactly",
        part="Laplace: threshold 1/2 attains it",
    )
    for what, exact, claimed in (
        ("geometric optimal loss", geo, geometric_loss),
        ("Laplace optimal loss", lap, laplace_loss),
    ):
        with rec.deciding(**allk, method="closed form vs the printed formula", part=what) as dec:
            if not same(exact, claimed(a)):
                cex = next(
                    (
                        f"alpha={g}: {what} {sp.simplify(exact.subs(a, q))}, stated {sp.simplify(claimed(q))}"
                        for g in (Fraction(1, 4), Fraction(1, 9), Fraction(1, 16))
                        for q in [sp.Rational(g.numerator, g.denominator)]
                        if sp.simplify(exact.subs(a, q) - claimed(q)) != 0
                    ),
                    None,
                )
                if cex:
                    dec.counterexample(cex)
                else:
                    dec.inconclusive(f"{what}: {exact} vs {claimed(a)} not decided")
    ratio = sp.simplify(lap / geo)
    half = sp.Rational(1, 2)
    rounded_face = sp.simplify(1 - (laplace_cell(0, half, 1) + laplace_cell(-half, 0, -1)))
    rec.value(
        **{
            "geometric (optimal)": f"{geo}; no alpha-DP mechanism on {{0,1}} does better (z3: unsat)",
            "Laplace, optimal remap (threshold 1/2)": str(lap),
            "Laplace, threshold t in [0,1]": str(loss_t),
            "Laplace, rounded, at face value": str(rounded_face),
            "ratio Laplace/geometric": f"{ratio} -> oo as alpha -> 0 (limit {sp.limit(ratio, a, 0, '+')})",
        }
    )
    rec.note(
        "sqrt(a)/2 is the Laplace mechanism's least loss over every remap f: R -> [0, 1] (1/2 int min(f0, f1), "
        "computed), attained by the threshold 1/2 (the threshold loss as a function of t, minimised exactly); "
        "rounding and reading at face value would give sqrt(a).  The ratio equals Theorem A.2's factor "
        "(1+a)/(2 sqrt a), so that factor is tight.  The loss is the binary loss l_bin of Section 2.1."
    )
    sec61_at_ends(rec, geometric_loss, laplace_loss)
    return rec


def sec61_at_ends(rec: Findings, geometric_loss: Callable[[sp.Expr], sp.Expr],
                  laplace_loss: Callable[[sp.Expr], sp.Expr]) -> None:
    """grs2009 Section 6.1 at the printed ends alpha = 0 and 1 (Section 2.1: alpha in [0, 1], alpha = e^-epsilon):
    one ALL_N instance (n = 1 is the claim's only n) per (end, mechanism), the printed loss at that end
    (``geometric_loss``, ``laplace_loss``: the printed formulas or a false variant) against the loss of the object
    the paper's formula gives there.

    alpha = 0: the geometric pmf (1 - 0)/(1 + 0) 0^|z| (0^0 = 1) is the point mass at 0, the identity, which loses 0
    for the user (and no mechanism loses less: the binary loss is >= 0); epsilon = ln(1/0) has no value and the
    Laplace density is undefined (nan at t = 1).  alpha = 1: epsilon = 0, both the Laplace density and the geometric
    pmf are 0 everywhere, so each 'mechanism' and every remap of it has loss (1) equal to 0."""
    half = sp.Rational(1, 2)
    z = sp.Symbol("z", integer=True)
    lap_density = lambda al, t: (EPS / 2 * sp.exp(-EPS * sp.Abs(t))).subs(EPS, sp.log(1 / al))  # noqa: E731
    # alpha = 0, geometric: the point mass at 0 (0^0 = 1), whose remap (outputs <= 0 -> 0, >= 1 -> 1) never errs
    geo0 = {d: sp.simplify(geometric_pmf(sp.Integer(d)).subs(a, 0)) for d in (-1, 0, 1)}  # 0^0 = 1
    geo0_loss = half * sum(v for d, v in geo0.items() if d >= 1) + half * sum(v for d, v in geo0.items() if d <= -1)
    q = sp.Symbol("q", integer=True, nonnegative=True)  # every |delta| >= 1 is q + 1: 0^(q+1) = 0
    tail0 = sp.simplify((geometric_pmf(q + 1) + geometric_pmf(-(q + 1))).subs(a, 0))
    # alpha = 1: both densities are 0 everywhere, so every remap of either has loss 0
    geo1 = sp.simplify(geometric_pmf(z).subs(a, 1))
    lap1 = sp.simplify(lap_density(sp.Integer(1), T))
    lap0 = lap_density(sp.Integer(0), sp.Integer(1))
    cases = [
        (0, "geometric", geometric_loss, geo0_loss if tail0 == 0 else None,
         f"the geometric pmf at alpha = 0 is the point mass at 0 (pmf at -1, 0, 1: {list(geo0.values())}, 0 beyond), "
         "the identity: the remap never errs, and no mechanism loses less than 0"),
        (0, "Laplace", laplace_loss, None,
         f"epsilon = ln(1/alpha) = ln(1/0) is no real number (sympy: {sp.log(1 / sp.Integer(0))}) and the density "
         f"epsilon/2 e^(-epsilon |t|) at t = 1 is {lap0}: there is no Laplace mechanism at alpha = 0, so its stated "
         "expected loss is the loss of an undefined mechanism (sqrt(alpha)/2 -> 0 is a limit as alpha -> 0+, not a "
         "value at alpha = 0)"),
        (1, "geometric", geometric_loss, 2 * half * geo1,
         f"the pmf (1 - 1)/(1 + 1) 1^|z| is {geo1} for every integer z: the geometric mechanism is no distribution "
         "(rows sum to 0) and every remap of it has loss (1) equal to 0 (an alpha = 1 mechanism on {0, 1} that is a "
         "distribution has equal rows and loses exactly 1/2)"),
        (1, "Laplace", laplace_loss, 2 * half * lap1,
         f"epsilon = ln(1/1) = 0 and the density epsilon/2 e^(-epsilon |t|) is {lap1} for every t: the Laplace "
         "mechanism is no distribution and every remap of it has loss 1/2 int min(f0, f1) = 0"),
    ]
    for end, name, formula, exact, why in cases:
        claimed = sp.simplify(formula(sp.Integer(end)))
        with rec.deciding(
            n=None,
            alpha=end,
            kind=ALL_N,
            method=f"the printed boundary alpha = {end}: the paper's formula for the {name} mechanism at this alpha",
            covers="the user (prior (1/2, 1/2) on {0, 1}, binary loss), every remap",
            part=f"{name} optimal loss",
        ) as dec:
            if exact is None or sp.simplify(exact - claimed) != 0:
                got = "undefined" if exact is None else str(exact)
                dec.counterexample(f"alpha = {end}: the {name} mechanism's loss is {got}, stated {claimed}: {why}")
    rec.note(
        "the printed ends of alpha = e^-epsilon in [0, 1] are refuted: at alpha = 0 the geometric side holds (the "
        "identity loses 0 = alpha/(1 + alpha)) but epsilon = ln(1/0) is undefined, so the Laplace mechanism and its "
        "stated loss sqrt(0)/2 = 0 are undefined; at alpha = 1 (epsilon = 0) the Laplace density and the geometric "
        "pmf are 0 everywhere, so both objects have loss 0, not the stated 1/2"
    )
    rec.value(
        corrected_statement="alpha in (0, 1) instead of [0, 1]: the Laplace mechanism with epsilon = ln(1/alpha) "
        "exists only there (and grs2009's geometric pmf is 0 everywhere at alpha = 1)",
        corrected_scope="the instances at alpha in (0, 1) of this record; at alpha = 0 the geometric part holds",
    )
