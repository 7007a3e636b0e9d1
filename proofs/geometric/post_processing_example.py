"""Post-processing the geometric mechanism: grs2011 Example 2.3 = grs2009 Example 2.2.  For odd n, binary loss
and prior 1/2 on 0 and n, the loss 2a/(1+a) at face value and a^((n+1)/2)/(1+a) after the 0/n remap, for
symbolic n = 2h+1 (geometric tail sums), with an exact bounded cross-check through udpm, and at the printed ends
alpha = 0 and 1, where each paper's geometric mechanism is what its Example 2.1 makes of it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import post_processing_at_zero
from proofs.geometric.noise import geometric_pmf, tail
from proofs.geometric.symbolic import GRID, SYMBOLIC, a, h, latex_expr, nn, same
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import printed
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.users import BayesianUser, binary_loss

Formula = Callable[[sp.Expr, sp.Expr], sp.Expr]  # (alpha, n) -> value


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
                method="exact expected loss (udpm.core.users)",
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
#: :func:`proofs.boundary.geometric.post_processing_at_zero` (n = 1, 3); the symbolic all-odd-n form, for reuse.
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
                    method=f"the printed boundary alpha = {end}: exact expected loss (udpm.core.users) of the "
                    "mechanism as a matrix on N",
                    covers=f"{what_mech}; the example's user and the 0/n remap",
                    part=what,
                ) as dec:
                    if sp.Rational(str(lib[what])) != claimed:
                        dec.counterexample(
                            f"n = {n}, alpha = {end}: {what_mech} has rows "
                            f"{[[str(v) for v in row] for row in x]}; the {what} loss is {lib[what]}, stated {claimed}"
                        )
