"""gs2010 Section 3 at the printed boundary alpha in {0, 1}: Lemmas 1-3, Theorem 2, and Theorem 1(2)'s derivation.

gs2010 fixes alpha in [0, 1] once (Section 2.1) and no later statement narrows it, so Definition 4, Lemmas 1-3 and
Theorems 1-2 are read on [0, 1], with Definition 4's G at the ends as :func:`proofs.boundary.geometric.definition4`
gives it (0^0 = 1): G_{n,0} = I and every row of G_{n,1} is (1/2, 0, ..., 0, 1/2).  Hence det G_{n,1} = 0 (Lemma 1
fails at alpha = 1), and for size m >= 3 the column-replaced det G_{n,1}(i, x) is 0 for every x (Lemma 2's sign
conditions fail at alpha = 1); Theorem 2 and Lemma 3 hold at both ends (every 1-DP mechanism has equal rows and
derives from G_{n,1}; G_{n,0} = I derives everything), and so does Theorem 1(2)'s step that every minimax
consumer's optimal mechanism derives from G.  The sizes follow the claims' own checks: ``m`` the matrix size in
Lemmas 1-2 (proofs.derivation.lemma1), ``n`` the largest result in Theorem 2 and Lemma 3
(proofs.derivation.derivability).  Every value here is an exact rational or a sympy identity.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F

import sympy as sp

from proofs.boundary.geometric import BOUNDARY, definition4
from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.core import linalg

SIZES = (2, 3, 4)


def _label(a: F) -> int:
    return int(a)


def lemma1_at_boundary(rec: Findings, ends: Sequence[F] = BOUNDARY) -> None:
    """gs2010 Lemma 1, det G > 0, at the printed ends (alpha = 0 and 1) for sizes 2..4: exact determinants."""
    for m in SIZES:
        for a in ends:
            with rec.deciding(
                n=m,
                alpha=_label(a),
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: exact determinant of Definition 4's G (0^0 = 1)",
                covers="det G_m > 0",
            ) as d:
                g = definition4(m, a)
                det = linalg.det(g)
                if not det > 0:
                    d.counterexample(
                        f"size m = {m}, alpha = {a}: G = {linalg.fmt_matrix(g)} (Definition 4; every row "
                        f"(1/2, 0, ..., 0, 1/2)) has det G = {det}, not > 0"
                    )


Functional = Callable[[str], tuple]


def _sign_mismatch(m: int, i: int, a: F, functional: Functional) -> str | None:
    """Lemma 2 for column i of the size-m G at alpha: case 1 (i first) det > 0 iff x_1 > a x_2, case 2 (i last)
    det > 0 iff x_m > a x_(m-1), case 3 (interior) det >= 0 iff the three-term value >= 0.  Both sides are linear
    forms in x; they agree for every x iff det = c x functional with c > 0; else a vector x in {0, 1}^m (then
    {-1, 0, 1}^m) on which they differ is returned (the exact witness)."""
    xs = sp.symbols(f"x1:{m + 1}")
    g = sp.Matrix([[sp.Rational(v.numerator, v.denominator) for v in row] for row in definition4(m, a)])
    g[:, i] = sp.Matrix(xs)
    det = sp.expand(g.det())
    kind = "first" if i == 0 else "last" if i == m - 1 else "interior"
    lo, mid, hi = (
        sp.sympify(c).subs(sp.Symbol("alpha", positive=True), sp.Rational(a.numerator, a.denominator))
        for c in functional(kind)
    )
    f = sp.expand(sum(c * xs[k] for c, k in ((lo, i - 1), (mid, i), (hi, i + 1)) if 0 <= k < m and c != 0))
    strict = kind != "interior"
    ratio = sp.simplify(det / f) if f != 0 else None
    if ratio is not None and ratio.is_number and ratio > 0:
        return None
    for x in [*itertools.product((0, 1), repeat=m), *itertools.product((0, 1, -1), repeat=m)]:
        env = dict(zip(xs, x))
        dv, fv = det.subs(env), f.subs(env)
        left, right = (dv > 0, fv > 0) if strict else (dv >= 0, fv >= 0)
        if bool(left) != bool(right):
            rel = ">" if strict else ">="
            return (
                f"size m = {m}, alpha = {a}, column i = {i + 1} ({kind}), x = {x}: det G(i, x) = {dv} "
                f"({'' if left else 'not '}{rel} 0) but the printed condition {f} {rel} 0 is {bool(right)}"
            )
    return None


def lemma2_at_boundary(rec: Findings, functional: Functional, ends: Sequence[F] = BOUNDARY) -> None:
    """gs2010 Lemma 2's sign conditions on det G(i, x) at the printed ends (alpha = 0 and 1), sizes 2..4, every
    column i, every x (the determinant is a linear form in x, computed symbolically; a mismatch is a concrete x)."""
    for m in SIZES:
        for a in ends:
            with rec.deciding(
                n=m,
                alpha=_label(a),
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: det G(i, x) as a "
                "linear form in symbolic x (sympy), against the printed sign conditions",
                covers="every column i, every vector x",
            ) as d:
                for i in range(m):
                    bad = _sign_mismatch(m, i, a, functional)
                    if bad:
                        d.counterexample(bad)
                        break


def theorem2_at_boundary(rec: Findings, condition: Callable) -> None:
    """gs2010 Theorem 2 at alpha = 0 and 1, n = 1..3: every alpha-DP M derives from G_{n,alpha} and satisfies the
    three-term and boundary conditions (so the 'iff' holds with both sides true), as sympy identities in M's
    entries: at 0, G = I and T = M; at 1, M has equal rows q (1-DP), T = M, G_1 M = M, and every column is constant."""
    for n in (1, 2, 3):
        size = n + 1
        qs = sp.symbols(f"q0:{size}", nonnegative=True)
        for a in BOUNDARY:
            with rec.deciding(
                n=n,
                alpha=_label(a),
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: sympy identities in the entries of a symbolic alpha-DP M",
                covers="every alpha-DP M",
            ) as d:
                g = sp.Matrix([[sp.Rational(v.numerator, v.denominator) for v in row] for row in definition4(size, a)])
                if a == 1:
                    m = sp.Matrix([list(qs)] * size)  # 1-DP: equal rows
                else:
                    m = sp.Matrix(size, size, lambda i, j: sp.Symbol(f"m{i}{j}", nonnegative=True))  # 0-DP: any M
                t = m  # the remap: G_0 = I; G_1's rows are (1/2, 0, ..., 0, 1/2) and M's rows are equal
                if sp.simplify(g * t - m) != sp.zeros(size, size):
                    d.counterexample(f"n = {n}, alpha = {a}: G T = {g * t} is not M = {m}")
                    continue
                ar = sp.Rational(a.numerator, a.denominator)
                for j in range(size):
                    col = [m[i, j] for i in range(size)]
                    values = [condition(col[i - 1], col[i], col[i + 1], ar) for i in range(1, size - 1)]
                    values += [col[0] - ar * col[1], col[-1] - ar * col[-2]]
                    neg = [v for v in values if not (sp.expand(v) == 0 or sp.expand(v).is_nonnegative)]
                    if neg:
                        d.counterexample(f"n = {n}, alpha = {a}, column {j}: a condition {neg[0]} can be < 0")
                        break


def lemma3_at_boundary(rec: Findings, pairs: list[tuple[F, F]]) -> None:
    """gs2010 Lemma 3 at pairs alpha <= beta touching {0, 1}, n = 1..3: an exact stochastic T with G_beta = G_alpha T
    (T = G_alpha^-1 G_beta when alpha < 1; at alpha = beta = 1, T = I)."""
    for n in (1, 2, 3):
        for al, be in pairs:
            with rec.deciding(
                n=n,
                alpha=_label(al) if al in BOUNDARY else al,
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: exact T (G_alpha^-1 G_beta, or I at alpha = beta = 1)",
                beta=be,
                covers="T stochastic",
            ) as d:
                ga, gb = definition4(n + 1, al), definition4(n + 1, be)
                t = linalg.identity(n + 1) if al == 1 else linalg.matmul(linalg.inverse(ga), gb)
                if linalg.matmul(ga, t) != gb or any(v < 0 for row in t for v in row) or any(sum(r) != 1 for r in t):
                    d.counterexample(
                        f"n = {n}, alpha = {al}, beta = {be}: T = {linalg.fmt_matrix(t)} is not a "
                        "stochastic solution of G_beta = G_alpha T"
                    )


def every_consumer_at_boundary(rec: Findings, deployed: Callable = lambda n, a: definition4(n + 1, a)) -> None:
    """gs2010 Theorem 1(2) at alpha = 0 and 1, n = 1..3: every alpha-DP mechanism M derives from the deployed
    G_(n,alpha) by T = M (G_0 = I; G_1 and a 1-DP M have equal rows), a sympy identity in M's entries, so every
    minimax consumer's optimal interaction reaches its optimal alpha-DP mechanism.  ``deployed``: a false variant."""
    for n in (1, 2, 3):
        size = n + 1
        for a in BOUNDARY:
            with rec.deciding(
                n=n,
                alpha=_label(a),
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: sympy identity G M = M over a symbolic alpha-DP M",
                covers="every minimax consumer (every S, every monotone loss): "
                "its optimal alpha-DP mechanism derives from G",
            ) as d:
                qs = sp.symbols(f"q0:{size}", nonnegative=True)
                m = (
                    sp.Matrix([list(qs)] * size)
                    if a == 1
                    else sp.Matrix(size, size, lambda i, j: sp.Symbol(f"m{i}{j}", nonnegative=True))
                )
                g = sp.Matrix([[sp.Rational(v.numerator, v.denominator) for v in row] for row in deployed(n, a)])
                if sp.simplify(g * m - m) != sp.zeros(size, size):
                    d.counterexample(
                        f"n = {n}, alpha = {a}: the deployed {g.tolist()} does not derive every "
                        f"{a}-DP M by T = M: G M - M = {sp.simplify(g * m - m).tolist()}"
                    )
