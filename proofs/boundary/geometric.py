"""The geometric mechanisms at the printed boundary alpha in {0, 1}, as the papers define them there.

gs2010 fixes its privacy parameter once, in Section 2.1: "alpha in [0, 1]", and says "when alpha = 0 the definition is
vacuous ... when alpha = 1 ... distributions over perturbed results [are] identical for neighboring databases"; grs2011
and grs2009 print the same range (Section 2.1).  Here, each decided on what the papers define at the ends
(0^0 = 1): Definition 1's pmf (1 - alpha)/(1 + alpha) alpha^|z| (the point mass at 0 for alpha = 0, 0 everywhere
for alpha = 1: :func:`pmf_at_end`), Definition 4's G_{n,alpha} (:func:`definition4`: G_{n,0} = I, every row of
G_{n,1} is (1/2, 0, ..., 0, 1/2)) and its equivalence with the geometric mechanism at each end, grs2011 Example
2.1's 0- and 1-geometric mechanisms and their privacy (:func:`end_mechanisms_private`), and grs2009 Example 2.2 at
alpha = 0.  The ratio condition at the ends is :func:`in_band` (0/0 = 1, x/0 = infinity).  gs2010's Section 3
results at the ends are in :mod:`proofs.boundary.derivation`.  Every value here is an exact rational or a sympy
identity.
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
