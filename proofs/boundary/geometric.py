"""gs2010 Sections 3-4 at the printed boundary alpha in {0, 1}.

gs2010 fixes its privacy parameter once, in Section 2.1: "alpha in [0, 1]", and says "when alpha = 0 the definition is
vacuous ... when alpha = 1 ... distributions over perturbed results [are] identical for neighboring databases".  No
later statement narrows it, so Definition 4, Lemmas 1-3 and Theorem 2 are read on [0, 1].

Definition 4's G_{n,alpha} is defined at both ends (0^0 = 1): G_{n,0} = I and every row of G_{n,1} is
(1/2, 0, ..., 0, 1/2).  Hence det G_{n,1} = 0 (Lemma 1 fails at alpha = 1), and for size m >= 3 the column-replaced
det G_{n,1}(i, x) is 0 for every x (Lemma 2's sign conditions fail at alpha = 1); Theorem 2 and Lemma 3 hold at both
ends (every 1-DP mechanism has equal rows and derives from G_{n,1}; G_{n,0} = I derives everything).  The sizes
follow the claims' own checks: ``m`` the matrix size in Lemmas 1-2 (proofs.derivation.lemma1), ``n`` the largest
result in
Theorem 2 and Lemma 3 (proofs.derivation.derivability).  Every value here is an exact rational or a sympy identity.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F

import sympy as sp

from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.core import linalg

Matrix = list[list[F]]
BOUNDARY = (F(0), F(1))
SIZES = (2, 3, 4)

#: The reading of the boundary stated in each record that decides it.
GS2010_RANGE = (
    "gs2010 fixes alpha in [0, 1] once (Section 2.1; alpha = 0 'vacuous', alpha = 1 equal rows), and no later "
    "statement narrows it; Definition 4 at the ends, with 0^0 = 1: G_{n,0} = I, every row of G_{n,1} is "
    "(1/2, 0, ..., 0, 1/2)"
)


def definition4(m: int, a: F) -> Matrix:
    """Definition 4's G on results 0..m-1 (an m x m matrix) at any alpha in [0, 1], 0^0 = 1 (Python's F(0) ** 0).

    >>> definition4(3, F(1))[1], definition4(2, F(0)) == [[1, 0], [0, 1]]
    ([Fraction(1, 2), Fraction(0, 1), Fraction(1, 2)], True)
    """
    n = m - 1
    return [[(1 if z in (0, n) else 1 - a) / (1 + a) * a ** abs(z - k) for z in range(m)] for k in range(m)]


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


# --- the geometric mechanisms themselves at the ends (grs2011 Example 2.1, gs2010 Definitions 1 and 4) ---------


def in_band(u: F, v: F, a: F) -> bool:
    """u / v in [a, 1/a] with 0/0 = 1, u/0 = infinity (u > 0) and 1/0 = infinity: the papers' ratio condition."""
    if u == v == 0:
        return True
    if v == 0:
        return a == 0
    return a <= u / v and (a == 0 or u / v <= 1 / a)


def point_mass_pmf_at_zero(rec: Findings) -> None:
    """gs2010 Definition 1 at alpha = 0, 0^0 = 1: (1 - 0)/(1 + 0) 0^|z| is 1 at z = 0 and 0 elsewhere, a
    distribution (sum 1) whose mechanism (the identity on Z) is 0-DP."""
    with rec.deciding(
        n=None,
        alpha=0,
        kind=ALL_N,
        method="the printed boundary: the pmf at alpha = 0 exactly (0^0 = 1)",
        covers="every z in Z: the pmf sums to 1 and its mechanism is 0-DP",
    ) as d:
        a = F(0)
        pmf = {z: (1 - a) / (1 + a) * a ** abs(z) for z in (-1, 0, 1)}  # |z| >= 1 gives 0^|z| = 0 for every z
        if pmf != {-1: 0, 0: 1, 1: 0}:
            d.counterexample(f"the pmf at alpha = 0 is {pmf} near 0, not the point mass at 0")
        elif not all(in_band(u, v, a) for u in (F(0), F(1)) for v in (F(0), F(1))):
            d.counterexample("a ratio of the identity on Z leaves [0, 1/0]")


def definition4_at_zero(rec: Findings, build: Callable[[int, F], Matrix] = definition4) -> None:
    """gs2010 Definition 4 at alpha = 0, n = 1..3: G_{n,0} = I, and the 0-geometric pmf is the point mass at 0, so
    each derives the other by the identity on N (outputs outside N have probability 0).  ``build``: Definition 4's
    matrix on m results at alpha (a false variant)."""
    for n in (1, 2, 3):
        with rec.deciding(
            n=n,
            alpha=0,
            kind=BOUNDED,
            method="the printed boundary: exact G_{n,0} (0^0 = 1)",
            covers="G_{n,0} and the 0-geometric mechanism derive each other",
        ) as d:
            g = build(n + 1, F(0))
            if g != linalg.identity(n + 1):
                d.counterexample(f"n = {n}: G_(n,0) = {linalg.fmt_matrix(g)} is not I")


GEOMETRIC_UNDEFINED_AT_ONE = (
    "alpha = 1 is not decided: the two-sided geometric pmf (1 - alpha)/(1 + alpha) alpha^|z| is 0 for every z at "
    "alpha = 1 (it sums to 0), so the printed object is no distribution there"
)


def post_processing_at_zero(rec: Findings, face: Callable, remapped: Callable, losses: Callable) -> None:
    """grs2009 Example 2.2 at alpha = 0, odd n = 1, 3: the 0-geometric mechanism (the identity, 0^0 = 1) loses
    ``losses(n)`` = (face value, after the 0/n remap), exactly; each is compared with the printed formula at 0."""
    for n in (1, 3):
        with rec.deciding(
            n=n,
            alpha=0,
            kind=BOUNDED,
            method="the printed boundary: exact expected losses of the identity",
            covers="the example's user (prior 1/2 on 0 and n, binary loss) and the 0/n remap",
        ) as d:
            got = losses(n)
            zero, size = sp.Integer(0), sp.Integer(n)
            want = (sp.simplify(face(zero, size)), sp.simplify(remapped(zero, size)))
            if any(sp.Rational(str(g)) != w for g, w in zip(got, want)):
                d.counterexample(f"n = {n}, alpha = 0: the identity loses {got} (face value, remapped), stated {want}")


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


# --- the printed pmf and mechanisms at the ends, decided on what the papers define ------------------------------

#: The two ends of the printed range alpha in [0, 1] (gs2010 Section 2.1, grs2011 Section 2.1).
ENDS = (F(0), F(1))


def _pmf_values_at(pmf: Callable, e: F) -> dict[str, sp.Expr]:
    """The printed pmf (a sympy function of delta in the symbol alpha) at alpha = e, over a case split of Z that
    covers every integer: delta = 0, +-1 and +-(2 + q) for a symbol q >= 0 (0^0 = 1 by sympy's 0**0)."""
    alpha = sp.Symbol("alpha", positive=True)
    q = sp.Symbol("q", integer=True, nonnegative=True)
    ev = sp.Rational(e.numerator, e.denominator)
    cases = {"0": sp.Integer(0), "1": sp.Integer(1), "-1": sp.Integer(-1), "2+q": 2 + q, "-(2+q)": -(2 + q)}
    return {name: sp.simplify(pmf(d).subs(alpha, ev)) for name, d in cases.items()}


def pmf_at_end(rec: Findings, pmf: Callable, e: F) -> None:
    """gs2010 Definition 1 at the end alpha = e of the printed [0, 1], as printed ((1-alpha)/(1+alpha) alpha^|z|,
    0^0 = 1): the pmf sums to 1 over Z and adding it is e-DP (ratios of neighbouring values in [e, 1/e], 0/0 = 1,
    x/0 = infinity).  Every value is exact; the tail delta = +-(2+q) is one symbolic case."""
    with rec.deciding(
        n=None,
        alpha=e,
        kind=ALL_N,
        method="the printed boundary: the printed pmf at this alpha, exactly, over a case split of Z (0, +-1, +-(2+q))",
        covers="every z in Z: the pmf sums to 1 and adding it is alpha-DP",
    ) as d:
        vals = _pmf_values_at(pmf, e)
        q = sp.Symbol("q", integer=True, nonnegative=True)
        tail = vals["2+q"] + vals["-(2+q)"]
        if tail.free_symbols - {q}:
            d.inconclusive(f"the pmf at alpha = {e} keeps symbols {tail.free_symbols}")
            return
        tail_sum = sp.summation(tail, (q, 0, sp.oo)) if q in tail.free_symbols else (0 if tail == 0 else sp.oo)
        total = sp.simplify(vals["0"] + vals["1"] + vals["-1"] + tail_sum)
        shown = ", ".join(f"Pr[Z = {k}] = {v}" for k, v in vals.items())
        if total != 1:
            d.counterexample(
                f"alpha = {e}: the printed pmf (1 - alpha)/(1 + alpha) alpha^|z| gives {shown}; it sums "
                f"to {total} over Z, not 1, so it is no distribution there"
            )
            return
        if q in tail.free_symbols:
            d.inconclusive(f"alpha = {e}: DP not decided for a tail depending on q: {tail}")
            return
        neighbours = [("1", "0"), ("0", "-1"), ("2+q", "1"), ("-1", "-(2+q)"), ("2+q", "2+q"), ("-(2+q)", "-(2+q)")]
        for u, v in neighbours:  # (2+q, 2+q): the tail is constant here, so neighbours inside it are equal
            fu, fv = F(str(vals[u])), F(str(vals[v]))
            if not (in_band(fu, fv, e) and in_band(fv, fu, e)):
                d.counterexample(
                    f"alpha = {e}: Pr[Z = {u}] = {fu} and Pr[Z = {v}] = {fv} have a ratio outside [{e}, 1/{e}]"
                )
                return


Entry = Callable[[sp.Expr, sp.Expr], sp.Expr]  # (true result i, output r) -> Pr[output r | result i]


def zero_geometric(i: sp.Expr, r: sp.Expr) -> sp.Expr:
    """grs2011 Example 2.1's 0-geometric mechanism, 'which always returns the true query result f(d)':
    Pr[r | i] = 1 if r = i, else 0 (i, r integers, numeric or symbolic)."""
    return sp.Piecewise((1, sp.Eq(r, i)), (0, True))


def one_geometric(i: sp.Expr, r: sp.Expr) -> sp.Expr:
    """grs2011 Example 2.1's 1-geometric mechanism, 'which always results the answer 0 (say), independent of the
    input database': Pr[r | i] = 1 if r = 0, else 0."""
    return sp.Piecewise((1, sp.Eq(r, 0)), (0, True))


#: The mechanisms Example 2.1 defines at the ends, by alpha.
END_MECHANISMS: dict[F, Entry] = {F(0): zero_geometric, F(1): one_geometric}


def built(entry: Entry, n: int, window: range) -> Matrix:
    """The mechanism's matrix on results 0..n and the outputs of ``window``, exactly."""
    return [[F(str(sp.nsimplify(entry(sp.Integer(i), sp.Integer(r))))) for r in window] for i in range(n + 1)]


def _split(entry_of: Callable[[sp.Expr], sp.Expr]) -> dict[str, sp.Expr] | None:
    """A function of one integer on the cases d = -(2+p), -1, 0, 1, 2+p (p >= 0 symbolic), which cover Z; None
    unless every value is a number (free of p)."""
    p = sp.Symbol("p", integer=True, nonnegative=True)
    cases = {"-(2+p)": -(2 + p), "-1": sp.Integer(-1), "0": sp.Integer(0), "1": sp.Integer(1), "2+p": 2 + p}
    vals = {k: sp.simplify(entry_of(d)) for k, d in cases.items()}
    return vals if all(not v.free_symbols for v in vals.values()) else None


def _identically_zero(e: sp.Expr) -> bool:
    """e = 0 as a sympy identity; False when sympy does not show it (some Piecewise differences make simplify
    raise), which leaves the case undecided rather than passed."""
    if e == 0:
        return True
    try:
        return bool(sp.simplify(e) == 0)
    except (AttributeError, TypeError):
        return False


def end_mechanism_all_n(entry: Entry, e: F) -> tuple[bool | None, str]:
    """For every n: is the mechanism Pr[r | i] = entry(i, r) a mechanism and e-DP?  Decided symbolically (i, r
    symbolic integers) when its rows do not depend on i (entry(i+1, r) = entry(i, r): every adjacent pair is equal,
    ratio 1 or 0/0 = 1) or it is a translation (entry(i+1, r+1) = entry(i, r): the pairs are (f(d), f(d-1)), f = row
    0); the row sums and the pairs on the cases of :func:`_split`.  (None, why) when neither applies."""
    i, r = sp.symbols("i r", integer=True)
    same_rows = _identically_zero(entry(i + 1, r) - entry(i, r))
    shifted = _identically_zero(entry(i + 1, r + 1) - entry(i, r))
    if not (same_rows or shifted):
        return None, "the rows are neither equal nor translates: not decided for every n"
    f = _split(lambda d: entry(sp.Integer(0), d))
    if f is None:
        return None, "row 0 is not a number on every case of Z"
    tails = [f["-(2+p)"], f["2+p"]]
    if any(t != 0 for t in tails):
        return None, f"row 0 has a non-zero tail {tails}: its sum over Z is not decided here"
    total = f["-1"] + f["0"] + f["1"]
    if total != 1:
        return False, f"row 0 sums to {total} over Z, not 1: not a mechanism"
    if same_rows:
        return True, "every row is row 0 (a distribution), so every adjacent pair is equal: ratio 1 or 0/0 = 1"
    pairs = [(f["-1"], f["-(2+p)"]), (f["0"], f["-1"]), (f["1"], f["0"]), (f["2+p"], f["1"]), (f["2+p"], f["2+p"])]
    for u, v in pairs:
        fu, fv = F(str(u)), F(str(v))
        if not (in_band(fu, fv, e) and in_band(fv, fu, e)):
            return False, f"adjacent results give Pr = {fu} and {fv} at the same output: ratio outside [{e}, 1/{e}]"
    return True, "rows are translates of row 0 (a distribution); every pair (f(d), f(d-1)) is inside the band"


def end_mechanisms_private(
    rec: Findings, mechanisms: dict[F, Entry] = END_MECHANISMS, sizes: Sequence[int] = (1, 2, 3, 4, 5)
) -> None:
    """grs2011 Example 2.1 at alpha in {0, 1}: the alpha-geometric mechanism, built from its definition, is a
    mechanism and alpha-DP (ratios in [alpha, 1/alpha], 0/0 = 1, x/0 = infinity).  All n: symbolically
    (:func:`end_mechanism_all_n`).  Bounded cross-check: the built matrix on results 0..n and outputs -n-2..2n+2,
    exactly; a row summing to 1 inside the window puts no mass outside it, so every column outside is 0/0 = 1."""
    for e, entry in mechanisms.items():
        with rec.deciding(
            n=None,
            alpha=e,
            kind=ALL_N,
            method="the printed boundary: the mechanism's entries at symbolic results "
            "and outputs (sympy), exact ratios",
            covers="every n and every output r in Z",
        ) as d:
            ok, why = end_mechanism_all_n(entry, e)
            if ok is None:
                d.inconclusive(f"alpha = {e}: {why}")
            elif not ok:
                d.counterexample(f"alpha = {e}: {why}")
        for n in sizes:
            window = range(-n - 2, 2 * n + 3)
            with rec.deciding(
                n=n,
                alpha=e,
                kind=BOUNDED,
                method="the printed boundary: the built mechanism, exact ratios over a window of outputs",
                covers="every output r in Z (no mass outside the window)",
            ) as d:
                x = built(entry, n, window)
                bad_row = next((i for i, row in enumerate(x) if min(row) < 0 or sum(row) != 1), None)
                if bad_row is not None:
                    d.counterexample(
                        f"n = {n}, alpha = {e}: row {bad_row} of the built mechanism is no distribution on the window"
                    )
                    continue
                for i, c in itertools.product(range(n), range(len(window))):
                    u, v = x[i][c], x[i + 1][c]
                    if not (in_band(u, v, e) and in_band(v, u, e)):
                        d.counterexample(
                            f"n = {n}, alpha = {e}: output r = {window[c]} has Pr[r | {i}] = {u}, "
                            f"Pr[r | {i + 1}] = {v}, ratio outside [{e}, 1/{e}]"
                        )
                        break


def definition4_at_one(rec: Findings, pmf: Callable) -> None:
    """gs2010 Definition 4's equivalence at alpha = 1, as printed: G_{n,1} (every row (1/2, 0, ..., 0, 1/2)) and the
    1-geometric mechanism of Definition 1 (entry pmf(z - k) at alpha = 1) derive each other.  Every row of G_{n,1}
    sums to 1 for every n; if every entry of the geometric mechanism is 0 at alpha = 1, its rows sum to 0, and a
    stochastic T keeps row sums (row sums of X T = those of X), so neither G = Geo T nor Geo = G T can hold."""
    with rec.deciding(
        n=None,
        alpha=F(1),
        kind=ALL_N,
        method="the printed boundary: row sums of G_{n,1} and of Definition 1's "
        "mechanism at alpha = 1, exactly (case split of Z)",
        covers="every n >= 1: G derives from the geometric mechanism and the geometric mechanism from G",
    ) as d:
        vals = _pmf_values_at(pmf, F(1))
        alpha, d0, dn, di, size = sp.symbols("alpha d0 dn di n", positive=True)
        entry = lambda c, dist: c / (1 + alpha) * alpha**dist  # noqa: E731  Definition 4, distance dist
        interior = sp.simplify(entry(1 - alpha, di).subs(alpha, 1))  # the same at every interior distance di
        g_row = sp.simplify((entry(1, d0) + entry(1, dn)).subs(alpha, 1) + (size - 1) * interior)
        if all(v == 0 for v in vals.values()) and g_row == 1:
            d.counterexample(
                "alpha = 1: Definition 1's pmf is 0 at every z ("
                + ", ".join(f"Pr[Z = {k}] = {v}" for k, v in vals.items())
                + "), so every row of the 1-geometric mechanism sums to 0, while every row of G_{n,1} = "
                "(1/2, 0, ..., 0, 1/2) sums to 1; a stochastic T keeps row sums, so G_{n,1} != Geo T and Geo != "
                "G_{n,1} T for every n: the two do not derive each other"
            )
        else:
            d.inconclusive(
                "alpha = 1: the pmf is not 0 everywhere (or G_{n,1}'s rows do not sum to 1); only that "
                "case is decided here"
            )
