"""zlcn2013 Section 3.1 and Section 4: the recurrences (2)/(3), the closed form of psi1, and Theorem 7.

Convention.  zlcn2013's alpha = e^eps > 1 is written A here; the harness's
alpha = e^-eps is a = 1/A in (0, 1).  Concrete values enter only through
``udpm.conventions.alpha_from_zlcn2013``; symbolically every function of A
is a rational function of a after the one substitution A = 1/a
(:func:`in_internal_alpha`).  The range-restricted mechanism M of Theorem 7 is
T(n, a) (zlcn2013.def6).

Method (symbolic in a, for each n <= N).  psi(0) = beta ranges over [0, 1].
Starting from the single piece [0, 1], each step of the recurrence is a min
(or max) of two linear maps, so psi(mu) is linear in beta on each piece; a
piece is split where the two branches cross.  The sign of each branch
difference at a piece's endpoints is decided uniformly for all a in (0, 1):
a rational function P/Q of a is >= 0 on (0, 1) when, after a = s/(1+s), the
polynomial P Q (1+s)^deg has no negative coefficient (else z3 decides the
univariate polynomial inequality, time-bounded).  On each piece z = psi is
linear in beta, so t = M^-1 z is too, and 0 <= t <= 1 at both endpoints
proves it on the whole piece.  t is certified by checking M t = z as an
identity of rational functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import flint
import sympy as sp
import z3

from udpm import linalg
from udpm.claims import Context, Findings, checks
from udpm.conventions import alpha_from_zlcn2013, alpha_to_zlcn2013
from udpm.errors import CertificationFailed
from udpm.instances import ALL_N, BOUNDED, SAMPLED
from udpm.mechanisms import truncated_geometric_zlcn2013
from udpm.remaps import transformation_vector
from udpm.smt import decide, premise_witness

A_SYM = sp.Symbol("A", positive=True)  # zlcn2013's alpha > 1
a_sym = sp.Symbol("a", positive=True)  # internal alpha = 1/A
ZLCN_ALPHAS = (Fraction(2), Fraction(3), Fraction(3, 2), Fraction(10, 9), Fraction(10))
SYMBOLIC = "symbolic zlcn alpha > 1 (internal a = 1/alpha in (0,1))"


def in_internal_alpha(expr: sp.Expr) -> sp.Expr:
    """The one symbolic conversion: zlcn2013's A becomes 1/a."""
    return sp.sympify(expr).subs(A_SYM, 1 / a_sym)


# --- rational functions of a over Q (python-flint) -------------------------------------------

P = flint.fmpq_poly
X = P([0, 1])


@dataclass(frozen=True)
class R:
    """num/den, both fmpq_poly in a, den != 0, reduced."""

    num: flint.fmpq_poly
    den: flint.fmpq_poly

    @staticmethod
    def of(num: object, den: object = 1) -> R:
        n, d = P(num) if not isinstance(num, P) else num, P(den) if not isinstance(den, P) else den
        g = n.gcd(d) if n != 0 else d
        n, d = n // g, d // g
        lc = d.coeffs()[-1]
        return R(n / lc, d / lc)

    def __add__(self, o: R) -> R:
        return R.of(self.num * o.den + o.num * self.den, self.den * o.den)

    def __sub__(self, o: R) -> R:
        return R.of(self.num * o.den - o.num * self.den, self.den * o.den)

    def __mul__(self, o: R) -> R:
        return R.of(self.num * o.num, self.den * o.den)

    def __truediv__(self, o: R) -> R:
        return R.of(self.num * o.den, self.den * o.num)

    def __neg__(self) -> R:
        return R(-self.num, self.den)

    def is_zero(self) -> bool:
        return self.num == 0

    def at(self, al: Fraction) -> Fraction:
        return _peval(self.num, al) / _peval(self.den, al)

    def sympy(self) -> sp.Expr:
        return sp.factor(_psym(self.num) / _psym(self.den))

    def in_zlcn(self) -> str:
        return str(sp.factor(sp.cancel((_psym(self.num) / _psym(self.den)).subs(a_sym, 1 / A_SYM))))


def _peval(p: flint.fmpq_poly, x: Fraction) -> Fraction:
    return sum((Fraction(int(c.p), int(c.q)) * x**k for k, c in enumerate(p.coeffs())), Fraction(0))


def _psym(p: flint.fmpq_poly) -> sp.Expr:
    return sum((sp.Rational(int(c.p), int(c.q)) * a_sym**k for k, c in enumerate(p.coeffs())), sp.Integer(0))


def _to_poly(e: sp.Expr) -> flint.fmpq_poly:
    coeffs = sp.Poly(sp.expand(e), a_sym).all_coeffs()
    return P([flint.fmpq(int(sp.Rational(c).p), int(sp.Rational(c).q)) for c in reversed(coeffs)])


def from_sympy(expr: sp.Expr) -> R:
    """A rational function of a (given as a sympy expression) as an R."""
    num, den = sp.fraction(sp.together(sp.sympify(expr)))
    return R.of(_to_poly(num), _to_poly(den))


ZERO, ONE, ALPHA = R.of(0), R.of(1), R.of(X)
GRID = [Fraction(k, 64) for k in range(1, 64)]


class Undecided(Exception):
    """The sign of a rational function is not uniform on (0, 1)."""


def nonneg_on_unit(f: R, timeout: float) -> bool:
    """Is f(a) >= 0 for every a in (0, 1)?  Exact: Bernstein-style certificate, else z3 (time-bounded)."""
    if f.is_zero():
        return True
    p = f.num * f.den
    deg = p.degree()
    s, one_s = P([0, 1]), P([1, 1])
    q = sum((p.coeffs()[k] * s**k * one_s ** (deg - k) for k in range(deg + 1)), P([0]))
    if all(c >= 0 for c in q.coeffs()):
        return True
    if any(_peval(p, g) < 0 for g in GRID):
        return False
    av = z3.Real("a")
    poly = sum((z3.RealVal(f"{int(c.p)}/{int(c.q)}") * av**k for k, c in enumerate(p.coeffs())), z3.RealVal(0))
    return decide([av > 0, av < 1, poly < 0], timeout).unsat


def sign_on_unit(f: R, timeout: float) -> int:
    """+1 if f >= 0 on (0,1), -1 if f <= 0, else Undecided (0 counts as either)."""
    if nonneg_on_unit(f, timeout):
        return 1
    if nonneg_on_unit(-f, timeout):
        return -1
    raise Undecided(f"sign of {f.sympy()} changes on 0 < a < 1")


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


def _val(cd: tuple[R, R], beta: R) -> R:
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


# --- M^-1 z, certified ---------------------------------------------------------------------


def m_matrix(n: int) -> list[list[R]]:
    """T(n, a) = zlcn2013 (6) with A = 1/a: a^d/(1+a) in columns 0, n; (1-a)/(1+a) a^d inside."""
    return [
        [R.of(X ** abs(i - j) * (1 if j in (0, n) else P([1, -1])), P([1, 1])) for j in range(n + 1)]
        for i in range(n + 1)
    ]


def m_inverse_apply(z: Sequence[R]) -> list[R]:
    """t = M^-1 z by the tridiagonal inverse (gs2010 Lemma 2); certified by :func:`certify`."""
    n = len(z) - 1
    oma, t = R.of(P([1, -1])), []
    for i in range(n + 1):
        if i in (0, n):
            t.append((z[i] - ALPHA * z[1 if i == 0 else n - 1]) / oma)
        else:
            t.append((R.of(P([1, 0, 1])) * z[i] - ALPHA * (z[i - 1] + z[i + 1])) / (oma * oma))
    return t


def certify(t: Sequence[R], z: Sequence[R]) -> bool:
    m = m_matrix(len(z) - 1)
    return all((sum((m[i][j] * t[j] for j in range(len(t))), ZERO) - z[i]).is_zero() for i in range(len(z)))


def rational_sweep(n: int, rec: Recurrence, A: Fraction, validity: Callable[[Sequence[Fraction]], str | None]):
    """Exact check at one zlcn alpha: beta on a grid plus every point where the branches cross."""
    al = alpha_from_zlcn2013(A)
    betas = sorted(
        {Fraction(k, 16) for k in range(17)}
        | {1 / (A**k * (A + 1)) for k in range(n + 1)}
        | {1 - 1 / (A**k * (A + 1)) for k in range(n + 1)}
    )
    m = truncated_geometric_zlcn2013(n, A)
    for beta in betas:
        z = [beta]
        for _ in range(n):
            z.append(rec.step_exact(z[-1], A))
        t = transformation_vector(z, m)
        bad = validity(z) or (f"t = M^-1 z = {linalg.fmt_vector(list(t.t))} leaves [0, 1]" if not t.valid else None)
        if bad:
            return (
                f"n={n}, zlcn alpha={A} (internal a={al}), recurrence {rec.name}, beta={beta}: "
                f"z = {linalg.fmt_vector(z)}; {bad}"
            )
    return None


def _legal(z: Sequence[Fraction]) -> str | None:
    return None if all(0 <= v <= 1 for v in z) else "z leaves [0, 1]"


def endpoint_failure(n: int, rec: Recurrence, ps: Sequence[Piece], timeout: float) -> str | None:
    """On every piece, at both ends: t = M^-1 z certified (M t = z) and 0 <= t_i <= 1 for all a; else a witness."""
    for k, pc in enumerate(ps):
        for beta in (pc.lo, pc.hi):
            z = [_val(cd, beta) for cd in pc.z]
            t = m_inverse_apply(z)
            if not certify(t, z):
                raise CertificationFailed(f"M t = z failed for n={n}, piece {k}")
            for i, ti in enumerate(t):
                for what, f in (("t_i >= 0", ti), ("t_i <= 1", ONE - ti)):
                    if not nonneg_on_unit(f, timeout):
                        al = next((g for g in GRID if f.at(g) < 0), None)
                        at = (
                            f"e.g. at zlcn alpha={alpha_to_zlcn2013(al)}: t_{i} = {ti.at(al)}"
                            if al is not None
                            else f"t_{i} = {ti.in_zlcn()} (z3 found an alpha)"
                        )
                        return (
                            f"n={n}, recurrence {rec.name}, piece {k} endpoint beta = {beta.in_zlcn()}: "
                            f"{what} fails for i={i}, {at}"
                        )
    return None


def symbolic_reach(n: int, rec: Recurrence, timeout: float) -> int:
    """The symbolic proof of Theorem 7 for one n (benchmarks): the number of pieces; raises on failure."""
    ps = pieces(n, rec, timeout)
    cex = endpoint_failure(n, rec, ps, timeout)
    if cex:
        raise CertificationFailed(cex)
    return len(ps)


def theorem7_cases() -> tuple[bool, list[str]]:
    """All n, recurrence (2): t = M^-1 z on every piece, from the closed form of (2) (zlcn2013.eq2, a dependency).

    On the piece with kink k (z_mu = v a^(k-mu) for mu <= k, z_mu = 1 - (1-v) a^(mu-k) for mu >= k, v = A^k beta;
    v in [a/(1+a), 1/(1+a)] for 0 < k < n, [a/(1+a), 1] for k = 0, [0, 1/(1+a)] for k = n) and with
    M^-1 = S^-1 Tri/(1-a) (gs2010 Lemma 2), every t_i is one of seven symbolic cases (p >= 0 a distance):
    0, 1, or linear in v with values 0 and 1 at the two ends of v's interval.  So t is a threshold
    transformation (0, .., 0, t_k, 1, .., 1) with t_k in [0, 1].
    """
    a, v = a_sym, sp.Symbol("v", nonnegative=True)
    p = sp.Symbol("p", integer=True, nonnegative=True)
    grow = lambda j: v * a**j  # noqa: E731  z_(k-j)
    sat = lambda j: 1 - (1 - v) * a**j  # noqa: E731  z_(k+j)
    inner = lambda x1, x2, x3: ((1 + a**2) * x2 - a * (x1 + x3)) / (1 - a) ** 2  # noqa: E731
    edge = lambda x_end, x_next: (x_end - a * x_next) / (1 - a)  # noqa: E731
    lo_mid, hi_mid = a / (1 + a), 1 / (1 + a)
    cases = [  # (name, t_i, expected, v-interval or None)
        ("interior i = k-1-p", inner(grow(p + 2), grow(p + 1), grow(p)), 0, None),
        ("interior i = k+1+p", inner(sat(p), sat(p + 1), sat(p + 2)), 1, None),
        ("interior i = k, 0 < k < n", inner(grow(1), grow(0), sat(1)), None, (lo_mid, hi_mid)),
        ("i = 0, k = 1+p", edge(grow(p + 1), grow(p)), 0, None),
        ("i = 0, k = 0", edge(sat(0), sat(1)), None, (lo_mid, 1)),
        ("i = n, k = n-1-p", edge(sat(p + 1), sat(p)), 1, None),
        ("i = n, k = n", edge(grow(0), grow(1)), None, (0, hi_mid)),
    ]
    out, ok = [], True
    for name, t, want, interval in cases:
        t = sp.simplify(sp.powsimp(sp.expand(t), force=True))
        if want is not None:
            good = sp.simplify(t - want) == 0
            out.append(f"{name}: t = {t}")
        else:
            ends = [sp.simplify(t.subs(v, e)) for e in interval]
            good = sp.Poly(t, v).degree() <= 1 and ends == [0, 1]
            out.append(f"{name}: t = {sp.factor(t)}, 0 -> 1 over v in [{interval[0]}, {interval[1]}]")
        ok = ok and good
    return ok, out


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


def _alpha_label(A: Fraction) -> str:
    return f"zlcn alpha={A} (internal {alpha_from_zlcn2013(A)})"


@checks("zlcn2013.thm7")
def threshold_universality(ctx: Context, recurrences: Sequence[Recurrence] = (EQ2, EQ3)) -> Findings:
    """zlcn2013 Theorem 7 and Corollary 3 (with Theorem 6): for every vector z satisfying recurrence (2)
    (threshold queries <p, theta, +inf>; resp. (3) for <p, 0, theta>) with z_0 in [0, 1], t = M^-1 z lies
    in [0, 1]^(n+1), M the range-restricted geometric mechanism; so M derives every such optimum."""
    rec = Findings("zlcn2013.thm7")
    n_max = 5 if ctx.quick else 14
    swept = ZLCN_ALPHAS[: 2 if ctx.quick else 5]
    for r in recurrences:
        for n in range(1, n_max + 1):
            for A in swept:
                with rec.deciding(
                    n=n,
                    alpha=_alpha_label(A),
                    kind=SAMPLED,
                    method="exact sweep of beta",
                    covers="beta on a 1/16 grid plus the printed breakpoints",
                    recurrence=r.name,
                ) as dec:
                    cex = rational_sweep(n, r, A, _legal)
                    if cex:
                        dec.counterexample(cex)
    shapes: dict[str, str] = {}
    for r in recurrences:
        for n in range(1, n_max + 1):
            with rec.deciding(
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="pieces of beta from the recurrence, t certified at both ends",
                covers="every beta in [0, 1]",
                recurrence=r.name,
            ) as dec:
                try:
                    ps = pieces(n, r, ctx.solver_timeout)
                except Undecided as exc:
                    dec.inconclusive(f"symbolic pieces undecided for {r.name}, n={n}: {exc}")
                    continue
                cex = endpoint_failure(n, r, ps, ctx.solver_timeout)
                if cex:
                    dec.counterexample(cex)
                    continue
                if n == 3:
                    ends = [pc.hi for pc in ps]
                    z_mid = [_val(cd, (ps[1].lo + ps[1].hi) / R.of(2)) for cd in ps[1].z]
                    shapes[f"{r.name} n=3 piece ends"] = ", ".join(e.in_zlcn() for e in ends)
                    shapes[f"{r.name} n=3 t at mid of piece 1"] = ", ".join(v.in_zlcn() for v in m_inverse_apply(z_mid))
                shapes[f"{r.name} pieces"] = "n+1" if len(ps) == n + 1 else f"{len(ps)} at n={n}"
    ok, cases = theorem7_cases()
    all_n = []
    for r in recurrences:
        how = relation_to_eq2(r)
        if how is None:
            rec.note(f"recurrence {r.name} is neither (2) nor its mirror: no all-n argument applies to it")
            continue
        all_n.append(r.name)
        rec.decide(
            ok,
            "the seven cases of t = M^-1 z on the closed form of (2) did not all hold",
            n=None,
            alpha=SYMBOLIC,
            kind=ALL_N,
            method="seven symbolic cases on the closed form of (2)" + (", (3) its mirror" if how == "mirror" else ""),
            recurrence=r.name,
        )
    shapes.update({f"all-n case {i + 1}": c for i, c in enumerate(cases)})
    rec.value(**shapes)
    rec.note(
        f"bounded: symbolic in alpha for every n = 1..{n_max}, per recurrence: pieces of beta derived from the "
        "recurrence, 0 <= t <= 1 at both ends of every piece (t linear in beta there), M t = z certified as "
        f"rational functions.  Sampled: an exact sweep of beta at zlcn alpha in {', '.join(map(str, swept))}.  "
        + (
            f"All n for {', '.join(all_n)}: seven symbolic cases of t = M^-1 z on the closed form of (2) "
            "(zlcn2013.eq2, a dependency) with M^-1 from gs2010 Lemma 2; (3) is the mirror of (2) (if psi obeys "
            "(2) then 1 - psi obeys (3), and M^-1 (1 - z) = 1 - M^-1 z because M is stochastic), decided from the "
            "recurrence's branches.  "
            if all_n
            else ""
        )
        + "Corollary 3 adds nothing to check: (2) does not depend on theta, so the same M serves all thresholds."
    )
    return rec


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
                if not (_val(cd, beta) - want).is_zero():
                    return (
                        f"n={n}, piece {idx} (k={k}), beta={beta.in_zlcn()}: psi1({mu}) = "
                        f"{_val(cd, beta).in_zlcn()} by (2), printed closed form {want.in_zlcn()}"
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
                got, want = _val(cd3, beta2), ONE - _val(cd2, ONE - beta2)
                if not (got - want).is_zero():
                    return (
                        f"n={n}, beta2={beta2.in_zlcn()}: psi2({mu}) = {got.in_zlcn()} by (3), "
                        f"1 - psi1(1 - beta2) = {want.in_zlcn()}"
                    )
    return None
