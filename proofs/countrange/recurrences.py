"""zlcn2013 Section 3.1: the recurrences (2) and (3) and the closed form of psi1 (claim zlcn2013.eq2).

(2) psi(mu+1) = min(A psi(mu), (A-1+psi(mu))/A) and (3) its mirror with max,
zlcn2013's alpha = A > 1 (internal a = 1/A, :mod:`proofs.countrange.rational_alpha`).
psi(0) = beta ranges over [0, 1].  Starting from the single piece [0, 1],
each step of the recurrence is a min (or max) of two linear maps, so psi(mu)
is linear in beta on each piece (:func:`pieces`); a piece is split where the
two branches cross, the sign of each branch difference at a piece's endpoints
decided uniformly for all a in (0, 1).

The check compares (2)'s pieces with the printed interval ends
1/(alpha^k (alpha+1)) and closed forms (bounded, symbolic in alpha), proves the
closed form for every n (z3 branch conditions, sympy step identities at
symbolic k, mu), and (3) as the mirror of (2).  Theorem 7, which rests on
these pieces, is :mod:`proofs.countrange.thresholds`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import sympy as sp
import z3

from proofs.countrange.rational_alpha import A_SYM, ONE, ZERO, R, a_sym, from_sympy, in_internal_alpha, sign_on_unit
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.smt.solvers import decide, premise_witness

SYMBOLIC = "symbolic zlcn alpha > 1 (internal a = 1/alpha in (0,1))"

# --- the recurrences -----------------------------------------------------------------------

Linear = tuple[sp.Expr, sp.Expr]  # psi -> p + q psi, p and q functions of zlcn's A


@dataclass(frozen=True)
class Recurrence:
    """psi(mu+1) = combine(p1 + q1 psi(mu), p2 + q2 psi(mu)); combine is min (2) or max (3)."""

    name: str
    first: Linear
    second: Linear
    combine: str  # "min" or "max"

    def step_exact(self, psi: Fraction, A: Fraction) -> Fraction:
        vals = [p + q * psi for p, q in _coefficients(self, A)]
        return min(vals) if self.combine == "min" else max(vals)


@cache
def _coefficients(rec: Recurrence, A: Fraction) -> tuple[tuple[Fraction, Fraction], ...]:
    """The two branches' (p, q) at a rational zlcn alpha, exactly."""

    def exact(e: sp.Expr) -> Fraction:
        r = sp.Rational(sp.sympify(e).subs(A_SYM, sp.Rational(A.numerator, A.denominator)))
        return Fraction(int(r.p), int(r.q))

    return tuple((exact(p), exact(q)) for p, q in (rec.first, rec.second))


EQ2 = Recurrence("(2)", (sp.Integer(0), A_SYM), ((A_SYM - 1) / A_SYM, 1 / A_SYM), "min")
EQ3 = Recurrence("(3)", (sp.Integer(0), 1 / A_SYM), (1 - A_SYM, A_SYM), "max")


@dataclass
class Piece:
    lo: R
    hi: R
    z: list[tuple[R, R]]  # psi(mu) = c + d beta on this piece


def _lin(rec: Recurrence) -> tuple[tuple[R, R], tuple[R, R]]:
    return tuple(
        (from_sympy(in_internal_alpha(p)), from_sympy(in_internal_alpha(q)))  # type: ignore[return-value]
        for p, q in (rec.first, rec.second)
    )


def affine_value(cd: tuple[R, R], beta: R) -> R:
    return cd[0] + cd[1] * beta


def pieces(n: int, rec: Recurrence, timeout: float) -> list[Piece]:
    """The pieces of [0, 1] on which psi(0..n) is linear in beta = psi(0), derived from the recurrence."""
    (p1, q1), (p2, q2) = _lin(rec)
    todo = [Piece(ZERO, ONE, [(ZERO, ONE)])]
    for _ in range(n):
        nxt = []
        for pc in todo:
            c, d = pc.z[-1]
            # g(beta) = branch1 - branch2 at psi = c + d beta, linear in beta
            gc, gd = p1 + q1 * c - p2 - q2 * c, q1 * d - q2 * d
            s_lo, s_hi = sign_on_unit(gc + gd * pc.lo, timeout), sign_on_unit(gc + gd * pc.hi, timeout)
            parts = (
                [(pc.lo, pc.hi, s_lo)]
                if s_lo == s_hi or (gc + gd * pc.lo).is_zero() or (gc + gd * pc.hi).is_zero()
                else None
            )
            if parts is None:
                root = -gc / gd
                parts = [(pc.lo, root, s_lo), (root, pc.hi, s_hi)]
            elif (gc + gd * pc.lo).is_zero():
                parts = [(pc.lo, pc.hi, s_hi)]
            for lo, hi, sg in parts:
                # min picks the smaller branch: branch 2 when branch1 - branch2 >= 0
                use_second = (sg > 0) if rec.combine == "min" else (sg < 0)
                pp, qq = (p2, q2) if use_second else (p1, q1)
                nxt.append(Piece(lo, hi, [*pc.z, (pp + qq * c, qq * d)]))
        todo = nxt
    return todo


def _branches(rec: Recurrence) -> set[tuple[sp.Expr, sp.Expr]]:
    return {(sp.simplify(in_internal_alpha(p)), sp.simplify(in_internal_alpha(q))) for p, q in (rec.first, rec.second)}


def relation_to_eq2(rec: Recurrence) -> str | None:
    """'(2)' if rec has the branches and combine of (2), 'mirror' if psi -> 1 - psi(1 - .) maps (2) onto it
    (branch p + q psi becomes (1 - p - q) + q psi, min becomes max), else None.  Symbolic in alpha."""
    eq2 = _branches(EQ2)
    if rec.combine == EQ2.combine and _branches(rec) == eq2:
        return "(2)"
    mirrored = {(sp.simplify(1 - p - q), q) for p, q in eq2}
    if rec.combine != EQ2.combine and _branches(rec) == mirrored:
        return "mirror"
    return None


# --- zlcn2013 (2), (3) and the closed form of psi1 -------------------------------------------


def printed_breakpoint(k: int) -> sp.Expr:
    """The printed interval ends 1/(alpha^k (alpha+1)), k = 0..n-1 (k = 0 is 1/(alpha+1))."""
    return 1 / (A_SYM**k * (A_SYM + 1))


def printed_closed_form(mu: int, k: int | None, beta: sp.Expr) -> sp.Expr:
    """psi1(mu) on the piece with index k (k = n: beta <= 1/(A^(n-1)(A+1)); k = 0: beta >= 1/(A+1))."""
    if k is None or mu <= k:
        return A_SYM**mu * beta
    return 1 - (1 - beta * A_SYM**k) / A_SYM ** (mu - k)


def _all_n_closed_form(
    breakpoint: Callable[[int], sp.Expr], closed_form: Callable[[int, int | None, sp.Expr], sp.Expr], timeout: float
) -> tuple[bool, str]:
    """All n: the given closed form obeys (2) on the pieces with the given ends (so it IS psi1, the recurrence
    being deterministic).  Symbolic in the kink k, the step mu and zlcn's A.

    Pieces, by the kink k: k = n (beta in [0, breakpoint(n-1)], growth only), 0 < k < n (beta in
    [breakpoint(k), breakpoint(k-1)]) and k = 0 (beta in [breakpoint(0), 1], saturation only).  The ends must
    scale to y = A^(k-1) beta in [0, 1/(A+1)] and v = A^k beta in [1/(A+1), 1] on the piece (sympy, symbolic k).
    Growth steps mu <= k-1: psi(mu) = w y with w = A^-(k-1-mu) in (0, 1], must be <= 1/(A+1) so that (2)
    multiplies by A.  Saturating steps mu >= k: psi(mu) = 1 - (1-v) w with w = A^-(mu-k) in (0, 1], must be
    >= 1/(A+1) so that (2) takes (A-1+psi)/A.  Both by z3 (unsat of the negation, nonlinear real arithmetic,
    after a premise witness); the step identities of the given closed form by sympy with symbolic mu, k.
    """
    Av, w, y, v = z3.Reals("A w y v")
    base = [Av > 1, w > 0, w <= 1]
    grow_hyp, sat_hyp = [*base, y >= 0, y <= 1 / (Av + 1)], [*base, v >= 1 / (Av + 1), v <= 1]
    wit = [
        premise_witness(h, timeout, f"zlcn2013 (2), {what} steps")
        for h, what in ((grow_hyp, "growth"), (sat_hyp, "saturating"))
    ]
    below = decide([*grow_hyp, w * y > 1 / (Av + 1)], timeout).unsat
    above = decide([*sat_hyp, 1 - (1 - v) * w < 1 / (Av + 1)], timeout).unsat
    j = sp.Symbol("j", integer=True, nonnegative=True)
    k = sp.Symbol("k", integer=True, positive=True)
    beta = sp.Symbol("psi", positive=True)
    A = A_SYM
    ends = [  # (scaled end, its required value)
        (A ** (k - 1) * breakpoint(k - 1), 1 / (A + 1)),  # y at the top of a middle piece (and of the k = n piece)
        (A**k * breakpoint(k), 1 / (A + 1)),  # v at the bottom of a middle piece (and of the k = 0 piece)
        (A**k * breakpoint(k - 1), A / (A + 1)),  # v at the top of a middle piece (<= 1)
    ]
    ends_ok = all(sp.simplify(x - y_) == 0 for x, y_ in ends)
    try:
        start = sp.simplify(closed_form(0, k, beta) - beta) == 0  # psi(0) = beta
        mu_g = k - 1 - j  # a growth step mu -> mu + 1 <= k
        id1 = sp.simplify(closed_form(mu_g + 1, k, beta) - A * closed_form(mu_g, k, beta)) == 0
        saturating = [  # a saturating step from mu = k (the kink) and from mu = k+1+j > k
            sp.simplify(closed_form(mu + 1, k, beta) - (A - 1 + closed_form(mu, k, beta)) / A) == 0
            for mu in (k, k + 1 + j)
        ]
        id2 = all(saturating)
    except TypeError:  # the closed form branches on mu in a way sympy cannot decide for symbolic mu, k
        start = id1 = id2 = False
    branch = sp.factor(sp.simplify((A - 1 + beta) / A - A * beta))
    ok = below and above and id1 and id2 and ends_ok and start
    return ok, (
        f"branch difference (A-1+psi)/A - A psi = {branch} (>= 0 iff psi <= 1/(A+1)); "
        f"z3: growth branch below 1/(A+1): {'unsat' if below else 'sat'}, saturating branch above: "
        f"{'unsat' if above else 'sat'} (premise witnesses {wit[0]}; {wit[1]}); piece ends scale to "
        f"y <= 1/(A+1), v in [1/(A+1), 1]: {ends_ok}; psi(0) = beta: {start}; step identities: {id1 and id2}"
    )


def _closed_form_point(
    breakpoint: Callable[[int], sp.Expr], closed_form: Callable[[int, int | None, sp.Expr], sp.Expr], n_top: int = 40
) -> str | None:
    """A concrete (n, k, mu, beta) at zlcn alpha = 2 where the given ends or closed form disagree with (2)."""
    A = Fraction(2)
    two = sp.Integer(2)
    for n in range(1, n_top + 1):
        ends = [Fraction(str(sp.nsimplify(breakpoint(k).subs(A_SYM, two)))) for k in range(n - 1, -1, -1)]
        bounds = [Fraction(0), *ends, Fraction(1)]
        for idx in range(n + 1):
            k = None if idx == 0 else n - idx
            for beta in (bounds[idx], bounds[idx + 1], (bounds[idx] + bounds[idx + 1]) / 2):
                z = beta
                for mu in range(n + 1):
                    printed = Fraction(
                        str(
                            sp.nsimplify(
                                closed_form(mu, k, sp.Rational(beta.numerator, beta.denominator)).subs(A_SYM, two)
                            )
                        )
                    )
                    if printed != z:
                        return (
                            f"n={n}, zlcn alpha=2, piece {idx} (k={k}), beta={beta}: psi1({mu}) = {z} by (2), "
                            f"printed closed form {printed}"
                        )
                    z = EQ2.step_exact(z, A)
    return None


@checks("zlcn2013.eq2")
def recurrence_closed_form(
    ctx: Context,
    breakpoint: Callable[[int], sp.Expr] = printed_breakpoint,
    closed_form: Callable[[int, int | None, sp.Expr], sp.Expr] = printed_closed_form,
    eq3: Recurrence = EQ3,
) -> Findings:
    """zlcn2013 (2), (3) and Section 3.1: psi1 from (2) is linear in beta1 on the n+1 intervals with ends
    0 < 1/(alpha^(n-1)(alpha+1)) < ... < 1/(alpha(alpha+1)) < 1/(alpha+1) < 1, with the printed closed forms;
    psi2 from (3) likewise (psi2 = 1 - psi1 evaluated at 1 - beta2)."""
    rec = Findings("zlcn2013.eq2")
    n_max = 6 if ctx.quick else 12
    for n in range(1, n_max + 1):
        ps = pieces(n, EQ2, ctx.solver_timeout)
        with rec.deciding(
            n=n, alpha=SYMBOLIC, kind=BOUNDED, method="pieces of (2) vs the printed ends and closed forms", part="(2)"
        ) as dec:
            cex = _eq2_pieces_failure(n, ps, breakpoint, closed_form)
            if cex:
                dec.counterexample(cex)
        with rec.deciding(
            n=n, alpha=SYMBOLIC, kind=BOUNDED, method="pieces of (3) vs the mirror of (2)'s", part="(3)"
        ) as dec:
            cex = _eq3_mirror_failure(n, ps, pieces(n, eq3, ctx.solver_timeout))
            if cex:
                dec.counterexample(cex)
    with rec.deciding(
        n=None, alpha=SYMBOLIC, kind=ALL_N, method="z3 branch conditions, sympy step identities", part="(2)"
    ) as dec:
        ok, msg = _all_n_closed_form(breakpoint, closed_form, ctx.solver_timeout)
        if not ok:
            cex = _closed_form_point(breakpoint, closed_form)
            if cex:
                dec.counterexample(cex)
            else:
                dec.inconclusive(f"all-n step not decided: {msg}")
    how = relation_to_eq2(eq3)
    mirror_cex = _eq3_mirror_failure(2, pieces(2, EQ2, ctx.solver_timeout), pieces(2, eq3, ctx.solver_timeout))
    rec.decide(
        how == "mirror",
        f"recurrence {eq3.name} is not the mirror psi -> 1 - psi(1 - .) of (2): {mirror_cex or 'branches differ'}",
        n=None,
        alpha=SYMBOLIC,
        kind=ALL_N,
        method="branches of (3) = 1 - branches of (2) at 1 - psi, min <-> max (sympy), then induction on mu",
        part="(3)",
    )
    rec.value(
        **{
            "interval ends (n=3)": ", ".join(pc.hi.in_zlcn() for pc in pieces(3, EQ2, ctx.solver_timeout)),
            "closed form": "matches (2) on every piece, including both ends of each interval",
            "(3)": "n+1 pieces at 1 - (the ends of (2)); psi2(beta2) = 1 - psi1(1 - beta2)",
            "all-n": msg,
        }
    )
    rec.note(
        f"bounded: pieces derived from (2) and (3), symbolic in alpha, for every n = 1..{n_max}: (2)'s compared "
        "with the printed ends and closed forms, (3)'s with the mirror of (2)'s (ends and values as rational "
        "functions of alpha).  All n: (2)'s branch conditions by z3 (nonlinear real arithmetic, unsat) with "
        "w = alpha^-j in (0, 1], and the printed closed form's step identities and ends by sympy at symbolic k, mu; "
        "(3) as the mirror of (2): its branches are 1 - (2)'s at 1 - psi with min and max swapped, so by induction "
        "psi2(mu; beta2) = 1 - psi1(mu; 1 - beta2).  The printed 'unique integer k' is not unique at the interval "
        "ends, where two k apply; both closed forms agree there (checked at both ends of every piece)."
    )
    return rec


def _eq2_pieces_failure(n: int, ps: list[Piece], breakpoint: Callable, closed_form: Callable) -> str | None:
    derived = [pc.hi for pc in ps[:-1]]  # interior ends, increasing in beta
    printed = [from_sympy(in_internal_alpha(breakpoint(k))) for k in range(n - 1, -1, -1)]
    if len(ps) != n + 1 or any(not (x - y).is_zero() for x, y in zip(derived, printed)):
        bad = next((i for i, (x, y) in enumerate(zip(derived, printed)) if not (x - y).is_zero()), None)
        what = (
            f"the recurrence gives {len(ps)} pieces"
            if bad is None
            else f"interval end {bad + 1}: the recurrence gives {derived[bad].in_zlcn()}, printed "
            f"{printed[bad].in_zlcn()} (at zlcn alpha=2: {derived[bad].at(Fraction(1, 2))} vs "
            f"{printed[bad].at(Fraction(1, 2))})"
        )
        return f"n={n}: {what}"
    for idx, pc in enumerate(ps):
        k = None if idx == 0 else n - idx  # piece 0: beta small (all growth); last piece: k = 0
        for beta in (pc.lo, pc.hi):
            for mu, cd in enumerate(pc.z):
                beta_zlcn = beta.sympy().subs(a_sym, 1 / A_SYM)
                want = from_sympy(in_internal_alpha(closed_form(mu, k, beta_zlcn)))
                if not (affine_value(cd, beta) - want).is_zero():
                    return (
                        f"n={n}, piece {idx} (k={k}), beta={beta.in_zlcn()}: psi1({mu}) = "
                        f"{affine_value(cd, beta).in_zlcn()} by (2), printed closed form {want.in_zlcn()}"
                    )
    return None


def _eq3_mirror_failure(n: int, ps2: list[Piece], ps3: list[Piece]) -> str | None:
    """(3)'s pieces are (2)'s mirrored: ends 1 - (2)'s, and psi2(beta2) = 1 - psi1(1 - beta2) at every end."""
    if len(ps3) != len(ps2):
        return f"n={n}: (3) gives {len(ps3)} pieces of beta2, (2) gives {len(ps2)}"
    for idx, pc3 in enumerate(ps3):
        pc2 = ps2[len(ps2) - 1 - idx]
        if not ((ONE - pc2.hi) - pc3.lo).is_zero() or not ((ONE - pc2.lo) - pc3.hi).is_zero():
            return f"n={n}, piece {idx} of (3): ends {pc3.lo.in_zlcn()}, {pc3.hi.in_zlcn()}; mirror of (2)'s: " + (
                f"{(ONE - pc2.hi).in_zlcn()}, {(ONE - pc2.lo).in_zlcn()}"
            )
        for beta2 in (pc3.lo, pc3.hi):
            for mu, (cd3, cd2) in enumerate(zip(pc3.z, pc2.z)):
                got, want = affine_value(cd3, beta2), ONE - affine_value(cd2, ONE - beta2)
                if not (got - want).is_zero():
                    return (
                        f"n={n}, beta2={beta2.in_zlcn()}: psi2({mu}) = {got.in_zlcn()} by (3), "
                        f"1 - psi1(1 - beta2) = {want.in_zlcn()}"
                    )
    return None
