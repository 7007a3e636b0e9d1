"""grs2011 Sections 1-3: assertions about the model (privacy, the geometric mechanism, losses, composition).

Each check decides the assertion as printed, with exact rationals or sympy only.  The inventory
(paper_tables/assertions/grs2011.toml) points each quoted sentence at the claim id here.

* grs2011.sec1.trivial: Section 1, data-independent random noise achieves any level of differential privacy.
* grs2011.sec2.1.oblivious: Section 2.1, for oblivious mechanisms, neighbouring databases = adjacent results.
* grs2011.ex2.2.wrong: Example 2.2, the alpha-geometric mechanism outputs a result outside N with non-zero
  probability.
* grs2011.sec2.2.legal: Section 2.2, the example losses (mean error, squared error, binary loss) are legal.
* grs2011.sec3.composition: Section 3, answering a query in a different ways degrades alpha to alpha^a.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.assertions.grs2011.common import SYMBOLIC_ALPHA, al
from proofs.boundary.geometric import definition4
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.users import Loss

F = Fraction
ENDS_AND_MIDDLE = (F(0), F(1, 2), F(1))


def outside_mass(n: int, i: int, a: Fraction) -> Fraction:
    """Pr[f(d) + Delta not in N] for the alpha-geometric mechanism of Example 2.1 at true result i, alpha in
    [0, 1]: (alpha^(i+1) + alpha^(n-i+1))/(1 + alpha) in (0, 1); 0 for the 0-geometric (always f(d)) and the
    1-geometric (always 0) mechanisms Example 2.1 also defines."""
    if a in (0, 1):
        return F(0)
    return (a ** (i + 1) + a ** (n - i + 1)) / (1 + a)


def _zero(n: int, i: int, a: Fraction) -> Fraction:
    return F(0)


@checks("grs2011.ex2.2.wrong")
def geometric_outputs_wrong(
    ctx: Context,
    lower: Callable[[int, int, Fraction], Fraction] | None = None,
    alphas: Sequence[Fraction] = (F(0), F(1, 3), F(1, 2), F(9, 10), F(1)),
) -> Findings:
    """grs2011 Example 2.2: 'The alpha-geometric mechanism outputs an obviously wrong output f(d) + Delta - one
    less than 0 or greater than n - with non-zero probability.'  All n, alpha in (0, 1): sympy sums (1) over
    delta < -i and delta > n - i in closed form, alpha^(i+1)/(1+alpha) + alpha^(n-i+1)/(1+alpha) > 0.  Bounded:
    every true result i at n = 1..5 and each alpha, exactly, including the 0- and 1-geometric mechanisms that
    Example 2.1 defines for alpha = 0 and 1 (the printed [0, 1] of Section 2.1)."""
    lower = lower if lower is not None else _zero
    rec = Findings("grs2011.ex2.2.wrong")
    if lower is _zero:
        i, k = sp.symbols("i k", integer=True, nonnegative=True)
        series = sp.summation(al**k, (k, i + 1, sp.oo))  # Piecewise: alpha^(i+1)/(1-alpha) for alpha < 1
        tail = series.args[0][0] if isinstance(series, sp.Piecewise) else series
        below = sp.simplify((1 - al) / (1 + al) * tail)  # Pr[Delta < -i] = Pr[Delta > n - (n - i)]
        ok = sp.simplify(below - al ** (i + 1) / (1 + al)) == 0 and below.is_positive
        rec.decide(
            bool(ok),
            f"Pr[Delta < -i] = {below} is not the positive alpha^(i+1)/(1+alpha)",
            n=None,
            alpha=SYMBOLIC_ALPHA,
            kind=ALL_N,
            method="sympy series of (1) beyond 0 and n",
            covers="every n, every true result i: mass alpha^(i+1)/(1+alpha) + alpha^(n-i+1)/(1+alpha) > 0",
        )
    for nn in range(1, 6):
        for a in alphas:
            with rec.deciding(
                n=nn,
                alpha=a,
                kind=BOUNDED,
                method="exact mass outside N per true result",
                covers="every true result i in N",
            ) as d:
                masses = [(ii, outside_mass(nn, ii, a)) for ii in range(nn + 1)]
                bad = [(ii, m) for ii, m in masses if not m > lower(nn, ii, a)]
                if bad:
                    what = {
                        F(0): "the 0-geometric mechanism always outputs f(d)",
                        F(1): "the 1-geometric mechanism always outputs 0",
                    }.get(F(a), "")
                    d.counterexample(
                        f"n={nn}, alpha={a}: true result i={bad[0][0]} gives an output outside N with probability "
                        f"{bad[0][1]}, not > {lower(nn, bad[0][0], a)}"
                        + (f" ({what}, defined in Example 2.1)" if what else "")
                    )
    return rec


def _ratio_ok(p: Fraction, q: Fraction, a: Fraction) -> bool:
    """p/q in [a, 1/a] with 0/0 = 1 and 1/0 = infinity (a = 0 admits every pair)."""
    if p == q or a == 0:
        return True
    if p == 0 or q == 0:
        return False
    return a <= p / q <= 1 / a


def _private(x: Sequence[Sequence[Fraction]], a: Fraction) -> bool:
    return all(_ratio_ok(x[i][r], x[i + 1][r], a) for i in range(len(x) - 1) for r in range(len(x[0])))


def _constant_noise(n: int) -> list[list[Fraction]]:
    """A data-independent mechanism on N: every row the same distribution (with a zero entry)."""
    row = [F(1, 2)] + [F(0)] * (n - 1) + [F(1, 2)] if n >= 1 else [F(1)]
    return [list(row) for _ in range(n + 1)]


@checks("grs2011.sec1.trivial")
def trivial_privacy(
    ctx: Context,
    mechanism: Callable[[int], list[list[Fraction]]] = _constant_noise,
    alphas: Sequence[Fraction] = (F(0), F(1, 3), F(1, 2), F(1)),
) -> Findings:
    """grs2011 Section 1: 'It is trivial to achieve any level of differential privacy, for instance by always
    returning (data-independent) random noise.'  A data-independent mechanism (equal rows, here with zero
    entries) is checked alpha-DP exactly at every alpha of the printed [0, 1] (0/0 = 1).  Every data-independent
    mechanism has equal rows, so every ratio is 1 or 0/0: the instance covers the class."""
    rec = Findings("grs2011.sec1.trivial")
    for n in range(1, 5):
        x = mechanism(n)
        for a in alphas:
            with rec.deciding(
                n=n,
                alpha=a,
                kind=BOUNDED,
                method="exact ratio check (0/0 = 1)",
                covers="every data-independent mechanism (equal rows: every ratio is 1 or 0/0)",
            ) as d:
                if any(row != x[0] for row in x):
                    d.counterexample(f"n={n}: the mechanism {linalg.fmt_matrix(x)} is not data-independent")
                elif not _private(x, a):
                    d.counterexample(f"n={n}, alpha={a}: {linalg.fmt_matrix(x)} is not alpha-DP")
    return rec


def _neighbour_result_pairs(size: int, t: int, n: int) -> set[tuple[int, int]]:
    """(f(d1), f(d2)) over neighbours d1 != d2 of D^n, |D| = size, predicate true on the first t elements."""
    out = set()
    for d in itertools.product(range(size), repeat=n):
        f1 = sum(v < t for v in d)
        for row in range(n):
            for v in range(size):
                if v != d[row]:
                    f2 = f1 - (d[row] < t) + (v < t)
                    out.add((f1, f2))
    return out


@checks("grs2011.sec2.1.oblivious")
def oblivious_adjacent(ctx: Context, step: int = 1) -> Findings:
    """grs2011 Section 2.1: for an oblivious mechanism and a count query, 'alpha-differential privacy is then
    equivalent to the constraint that the ratios x_ir/x_(i+1)r lie in [alpha, 1/alpha] for every r and
    i in N minus {n}.'  Exhaustive over D^n: the pairs (f(d1), f(d2)) of distinct neighbours are exactly the
    pairs of results at distance ``step`` (and equal results, which an oblivious mechanism satisfies trivially),
    for every non-trivial predicate (t of |D| elements, 0 < t < |D|); then the neighbour constraints of an
    oblivious mechanism are exactly the adjacent-row constraints, for every alpha."""
    rec = Findings("grs2011.sec2.1.oblivious")
    for n, a in itertools.product(range(1, 4), ENDS_AND_MIDDLE):
        with rec.deciding(
            n=n,
            alpha=a,
            kind=BOUNDED,
            method="exhaustive enumeration of D^n",
            covers="|D| = 2, 3, 4, every non-trivial predicate (the pairs do not depend on alpha)",
        ) as d:
            for size in (2, 3, 4):
                for t in range(1, size):
                    got = {(p, q) for p, q in _neighbour_result_pairs(size, t, n) if p != q}
                    want = {(i, j) for i in range(n + 1) for j in range(n + 1) if abs(i - j) == step}
                    if got != want:
                        d.counterexample(
                            f"n={n}, |D|={size}, t={t}: neighbours realize result pairs {sorted(got)}, the stated "
                            f"constraints cover {sorted(want)}"
                        )
                        return rec
    return rec


def _example_losses(n: int) -> dict[str, list[list[int]]]:
    m = range(n + 1)
    return {
        "|j - i|": [[abs(j - i) for j in m] for i in m],
        "(j - i)^2": [[(j - i) ** 2 for j in m] for i in m],
        "l_bin": [[0 if i == j else 1 for j in m] for i in m],
    }


@checks("grs2011.sec2.2.legal")
def example_losses_legal(
    ctx: Context, losses: Callable[[int], dict[str, list[list[int]]]] = _example_losses
) -> Findings:
    """grs2011 Section 2.2: the examples after the definition of a legal loss - mean error |j - i|, squared
    error (j - i)^2 and the binary loss l_bin - are legal (depend on i and |j - i| only, nondecreasing in
    |j - i|).  All n: each is a function of |j - i| alone, and |j - i| -> d, d^2, [d > 0] are nondecreasing on
    d >= 0 (sympy); bounded: the matrices at n = 1..6, exactly."""
    rec = Findings("grs2011.sec2.2.legal")
    d = sp.Symbol("d", nonnegative=True, integer=True)
    mono = all(sp.simplify(f.subs(d, d + 1) - f) >= 0 for f in (d, d**2)) and losses is _example_losses
    for a in (SYMBOLIC_ALPHA, F(0), F(1)):  # legality does not involve alpha
        rec.decide(
            mono,
            "a printed example is not nondecreasing in |j - i|",
            n=None,
            alpha=a,
            kind=ALL_N,
            method="sympy: f(d+1) - f(d) >= 0 for f = d, d^2; l_bin = [d > 0]",
            covers="the three printed losses, every n",
        )
    for n, a in itertools.product(range(1, 7), ENDS_AND_MIDDLE):
        with rec.deciding(
            n=n,
            alpha=a,
            kind=BOUNDED,
            method="exact legality test",
            covers="the three printed losses (legality does not involve alpha)",
        ) as dd:
            bad = [name for name, mat in losses(n).items() if not Loss.from_matrix(mat).is_legal()]
            if bad:
                dd.counterexample(f"n={n}: {', '.join(bad)} is not legal: {losses(n)[bad[0]]}")
    return rec


def _product(mechs: Sequence[Sequence[Sequence[Fraction]]]) -> list[list[Fraction]]:
    """The mechanism answering with every one of ``mechs`` independently (outputs: tuples)."""
    rows = []
    for i in range(len(mechs[0])):
        row = []
        for outs in itertools.product(*(range(len(m[i])) for m in mechs)):
            p = F(1)
            for m, o in zip(mechs, outs, strict=True):
                p *= m[i][o]
            row.append(p)
        rows.append(row)
    return rows


@checks("grs2011.sec3.composition")
def composition_level(ctx: Context, level: Callable[[Fraction, int], Fraction] = lambda a, k: a**k) -> Findings:
    """grs2011 Section 3: answering the same query in a different ways 'degrades its differential privacy
    guarantee (to alpha^a, where a is the number of different answers).'  Exactly, for a independent answers of
    alpha-DP mechanisms (the truncated geometric mechanism T and remaps of it): the product mechanism is
    level(alpha, a)-DP and no better - its largest neighbouring ratio is 1/level."""
    rec = Findings("grs2011.sec3.composition")
    for n in (1, 2, 3):
        for a in (F(0), F(1, 3), F(1, 2), F(1)):
            t = definition4(n + 1, a)  # T at every alpha in [0, 1] (0^0 = 1): the identity at 0, (1/2, .., 1/2) at 1
            for k in (1, 2, 3):
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="exact ratios of the product mechanism",
                    covers=f"{k} independent answers from T",
                    answers=k,
                ) as d:
                    x = _product([t] * k)
                    ratios = [
                        max(x[i][r] / x[i + 1][r], x[i + 1][r] / x[i][r])
                        for i in range(n)
                        for r in range(len(x[0]))
                        if x[i][r] and x[i + 1][r]
                    ]
                    worst = max(ratios, default=F(1))
                    exact = _private(x, level(a, k)) and (a in (0, 1) or worst == 1 / level(a, k))
                    if not exact:
                        d.counterexample(
                            f"n={n}, alpha={a}, {k} answers from T: the largest neighbouring ratio is {worst}, so "
                            f"the guarantee is alpha' = {1 / worst}, not {level(a, k)}"
                        )
    return rec
