"""zlcn2013 Section 4, Theorem 7 (and Corollary 3): the range-restricted geometric mechanism derives every
optimum of a threshold query (claim zlcn2013.thm7).

Convention.  zlcn2013's alpha = e^eps > 1 is written A here; the harness's
alpha = e^-eps is a = 1/A in (0, 1).  Concrete values enter only through
``udpm.core.conventions.alpha_from_zlcn2013``; symbolically every function of A
is a rational function of a after the one substitution A = 1/a
(:func:`proofs.countrange.rational_alpha.in_internal_alpha`).  The range-restricted mechanism M of Theorem 7 is
T(n, a) (zlcn2013.def6).

Method (symbolic in a, for each n <= N; the pieces are :mod:`proofs.countrange.recurrences`, the signs
:mod:`proofs.countrange.rational_alpha`).  psi(0) = beta ranges over [0, 1].
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
from fractions import Fraction

import sympy as sp

from proofs.countrange.rational_alpha import ALPHA, GRID, ONE, ZERO, P, R, Undecided, X, a_sym, nonneg_on_unit
from proofs.countrange.recurrences import EQ2, EQ3, SYMBOLIC, Piece, Recurrence, affine_value, pieces, relation_to_eq2
from proofs.geometric.range_restricted import zlcn2013_formula6
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.conventions import alpha_from_zlcn2013, alpha_to_zlcn2013
from udpm.core.mechanisms import truncated_geometric_zlcn2013
from udpm.core.remaps import transformation_vector
from udpm.errors import CertificationFailed

ZLCN_ALPHAS = (Fraction(2), Fraction(3), Fraction(3, 2), Fraction(10, 9), Fraction(10))


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


def at_one_count(
    rec: Findings, recurrences: Sequence[Recurrence], alphas: Sequence[Fraction], formula: Callable = zlcn2013_formula6
) -> None:
    """Theorem 7 at n = 0 (the database has no row; the one count is 0): M is (6) at n = 0 (``formula``, the
    statement's (6) literally), a 1x1 matrix.  The consumer of the threshold query <p, 0, +oo> (every count in
    range, so the true answer is always yes) has the unique optimum z = (1) (error 0), which (2) and (3) allow (no
    step at n = 0); t = M^-1 z must lie in [0, 1].  Exact at each zlcn alpha, per recurrence."""
    for r in recurrences:
        for A in alphas:
            with rec.deciding(
                n=0,
                alpha=_alpha_label(A),
                kind=BOUNDED,
                method="(6) at n = 0 literally, exact 1x1 inverse",
                covers="the optimum z = (1) of <p, 0, +oo>, the only consumer's optimum that every beta in [0, 1] "
                "reaches at beta = 1",
                recurrence=r.name,
            ) as dec:
                m = formula(0, A)
                if len(m) != 1 or len(m[0]) != 1 or m[0][0] == 0:
                    dec.inconclusive(f"(6) at n = 0 is {m}: no invertible 1x1 matrix")
                    continue
                t = 1 / m[0][0]  # M^-1 (1)
                if not 0 <= t <= 1:
                    dec.counterexample(
                        f"n = 0, zlcn alpha = {A}: (6) gives M = [{m[0][0]}] (z = 0 is in {{0, n}}: A/(A+1)), not the "
                        f"mechanism [1]; the consumer of <p, 0, +oo> has the optimum z = (1) and t = M^-1 z = {t} > 1: "
                        "no transformation of (6) derives it"
                    )


def _legal(z: Sequence[Fraction]) -> str | None:
    return None if all(0 <= v <= 1 for v in z) else "z leaves [0, 1]"


def endpoint_failure(n: int, rec: Recurrence, ps: Sequence[Piece], timeout: float) -> str | None:
    """On every piece, at both ends: t = M^-1 z certified (M t = z) and 0 <= t_i <= 1 for all a; else a witness."""
    for k, pc in enumerate(ps):
        for beta in (pc.lo, pc.hi):
            z = [affine_value(cd, beta) for cd in pc.z]
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


def _alpha_label(A: Fraction) -> str:
    return f"zlcn alpha={A} (internal {alpha_from_zlcn2013(A)})"


@checks("zlcn2013.thm7")
def threshold_universality(
    ctx: Context, recurrences: Sequence[Recurrence] = (EQ2, EQ3), formula: Callable = zlcn2013_formula6
) -> Findings:
    """zlcn2013 Theorem 7 and Corollary 3 (with Theorem 6): for every vector z satisfying recurrence (2)
    (threshold queries <p, theta, +inf>; resp. (3) for <p, 0, theta>) with z_0 in [0, 1], t = M^-1 z lies
    in [0, 1]^(n+1), M the range-restricted geometric mechanism; so M derives every such optimum.  At n = 0 (the
    printed class has n >= 0) M is (6) literally (``formula``), :func:`at_one_count`."""
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
                    z_mid = [affine_value(cd, (ps[1].lo + ps[1].hi) / R.of(2)) for cd in ps[1].z]
                    shapes[f"{r.name} n=3 piece ends"] = ", ".join(e.in_zlcn() for e in ends)
                    shapes[f"{r.name} n=3 t at mid of piece 1"] = ", ".join(v.in_zlcn() for v in m_inverse_apply(z_mid))
                shapes[f"{r.name} pieces"] = "n+1" if len(ps) == n + 1 else f"{len(ps)} at n={n}"
    at_one_count(rec, recurrences, swept, formula)
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
        + "Corollary 3 adds nothing to check: (2) does not depend on theta, so the same M serves all thresholds.  "
        "n = 0 (one count): (6) as printed gives M = [A/(A+1)], the reading zlcn2013.def6 is refuted under, so t = "
        "M^-1 (1) = (A+1)/A > 1 for the consumer who is always right to say yes; over n >= 1 the claim "
        "zlcn2013.thm7.corrected."
    )
    return rec
