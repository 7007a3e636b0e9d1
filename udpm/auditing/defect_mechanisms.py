"""Exact constructions of defective count-query mechanisms, for the fixtures of :mod:`udpm.auditing.defect_corpus`.

Each function builds the exact matrix (rows: the true count i = 0..n; columns: the outputs) of one way DP
code goes wrong: noise clamped at the wrong place, a folded instead of a truncated range, a rounded
Laplace posing as a geometric, a randomized response with the wrong probability.  One is a sampler, not
a formula: :func:`textbook_geometric_sample` draws a bounded number of random bits from a source passed
in, and :func:`enumerated_matrix` runs it on every value of that source for its exact distribution.

>>> folded_geometric(1, Fraction(1, 2))[0]
[Fraction(3, 5), Fraction(2, 5)]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from udpm.core.validate import Matrix


def clamp_noise(
    n: int, pmf: Callable[[int], Fraction], tail: Callable[[int], Fraction], lo: int, hi: int, inputs: int | None = None
) -> Matrix:
    """Rows i = 0..n of clamp(c(i) + Z, lo, hi), columns lo..hi; Z symmetric with ``pmf`` and ``tail(m) = Pr[Z >= m]``.

    ``inputs`` (an upper bound c) clamps the true count first: c(i) = min(i, inputs); None leaves it.
    """

    def entry(i: int, j: int) -> Fraction:
        x = i if inputs is None else min(i, inputs)
        if j == lo:
            return tail(x - lo)  # Pr[x + Z <= lo] = Pr[Z >= x - lo] (Z symmetric)
        if j == hi:
            return tail(hi - x)
        return pmf(j - x)

    return [[entry(i, j) for j in range(lo, hi + 1)] for i in range(n + 1)]


def rounded_laplace_quarter(k: int) -> Fraction:
    """Pr[round(L) = k], L Laplace with eps = ln 4 (alpha = 1/4, sqrt(alpha) = 1/2 rational).

    From grs2011 Theorem A.2's closed form: 1 - sqrt(a) at 0, a^|k| (1/sqrt(a) - sqrt(a)) / 2 elsewhere;
    tests/test_defect_corpus.py checks it against :func:`udpm.core.mechanisms.rounded_laplace_pmf`, which integrates.
    """
    return Fraction(1, 2) if k == 0 else Fraction(3, 4) * Fraction(1, 4) ** abs(k)


def rounded_laplace_quarter_tail(m: int) -> Fraction:
    """Pr[round(L) >= m] for the noise of :func:`rounded_laplace_quarter`."""
    if m >= 1:
        return Fraction(1, 4) ** m  # sum_{k >= m} 3/4 (1/4)^k
    return 1 - rounded_laplace_quarter_tail(1 - m)


def geometric_noise(a: Fraction) -> tuple[Callable[[int], Fraction], Callable[[int], Fraction]]:
    def pmf(k: int) -> Fraction:
        return (1 - a) / (1 + a) * a ** abs(k)

    def tail(m: int) -> Fraction:
        return a**m / (1 + a) if m >= 1 else 1 - a ** (1 - m) / (1 + a)

    return pmf, tail


def censored_noise_unclamped_input(n: int, a: Fraction, bound: int) -> Matrix:
    """clamp(i + Z, 0, bound) with Z the geometric censored at +-bound, the count i in 0..n NOT clamped first.

    Pr[Z = k] = (1-a)/(1+a) a^|k| for |k| < bound and Pr[Z = +-bound] = a^bound/(1+a) (the tail bins).
    """
    pmf, tail = geometric_noise(a)

    def z(k: int) -> Fraction:
        if abs(k) > bound:
            return Fraction(0)
        return tail(bound) if abs(k) == bound else pmf(k)

    rows = []
    for i in range(n + 1):
        row = [Fraction(0)] * (bound + 1)
        for k in range(-bound, bound + 1):
            row[min(max(i + k, 0), bound)] += z(k)
        rows.append(row)
    return rows


def folded_geometric(n: int, a: Fraction) -> Matrix:
    """diffprivlib's GeometricFolded(lower=-0.5, upper=n+0.5): i + Z reflected about -1/2 and n + 1/2 until inside.

    Reflection about -1/2 and n + 1/2 has period P = 2(n + 1): output j gets every k = j or k = -1 - j (mod P),
    and sum_{m in Z} a^|d + mP| = (a^d + a^(P-d)) / (1 - a^P) for 0 <= d < P (d = 0: (1 + a^P) / (1 - a^P)).
    """
    p = 2 * (n + 1)
    c = (1 - a) / (1 + a)

    def s(d: int) -> Fraction:
        d %= p
        return (a**d + a ** (p - d)) / (1 - a**p) if d else (1 + a**p) / (1 - a**p)

    return [[c * (s(j - i) + s(-1 - j - i)) for j in range(n + 1)] for i in range(n + 1)]


def k_ary_randomized_response(n: int, keep: Fraction) -> Matrix:
    """Report the true count with probability ``keep``, else each other value with (1 - keep) / n."""
    return [[keep if i == j else (1 - keep) / n for j in range(n + 1)] for i in range(n + 1)]


def textbook_geometric_sample(i: int, n: int, alpha: float, bits: Callable[[int], int], width: int) -> int:
    """One draw of a textbook floating-point geometric sampler, clamped to [0, n].

    The inverse-CDF code of diffprivlib's ``Geometric.randomise`` (u = (U - 1/2)(1 + a), i + sign(u)
    floor(ln|u| / ln a)), with U made of ``width`` random bits from ``bits`` (U = (k + 1/2) / 2^width, never 1/2)
    instead of 53: a sampler with a bounded number of random bits.
    """
    k = bits(width)
    u = ((k + 0.5) / 2**width - 0.5) * (1 + alpha)
    sgn = -1 if u < 0 else 1
    noisy = i + sgn * math.floor(math.log(sgn * u) / math.log(alpha))
    return min(max(noisy, 0), n)


def enumerated_matrix(
    sample: Callable[[int, Callable[[int], int]], int], n: int, width: int, outputs: int | None = None
) -> Matrix:
    """The exact output distribution of ``sample(i, bits)`` for i = 0..n, over every value of its ``width`` bits.

    ``sample`` must draw exactly once from ``bits`` and return an output in 0..outputs - 1 (default n), both
    checked; each of the 2^width values has probability 2^-width.
    """
    size = 2**width
    rows = []
    for i in range(n + 1):
        counts: dict[int, int] = {}
        for k in range(size):
            calls = []

            def bits(w: int, k: int = k, calls: list = calls) -> int:
                calls.append(w)
                return k

            out = sample(i, bits)
            if calls != [width]:
                raise ValueError(f"the sampler drew {calls} bits, not once {width}")
            counts[out] = counts.get(out, 0) + 1
        cols = (n + 1) if outputs is None else outputs
        if any(not 0 <= j < cols for j in counts):
            raise ValueError(f"the sampler returned {sorted(counts)}, outside the outputs 0..{cols - 1}")
        rows.append([Fraction(counts.get(j, 0), size) for j in range(cols)])
    return rows


#: binary64 alphas of two float defects (exact binary values of the doubles)
ALPHA_LN3_FLOAT = Fraction(math.exp(-math.log(3)))  # just below 1/3
ALPHA_LN5_FLOAT = Fraction(math.exp(-math.log(5)))  # just above 1/5
ALPHA_TWO_THIRDS_NEAREST = Fraction(2 / 3)  # round to nearest: just below 2/3
MIRONOV_BITS = 5


__all__ = [
    "ALPHA_LN3_FLOAT",
    "ALPHA_LN5_FLOAT",
    "ALPHA_TWO_THIRDS_NEAREST",
    "MIRONOV_BITS",
    "censored_noise_unclamped_input",
    "clamp_noise",
    "enumerated_matrix",
    "folded_geometric",
    "geometric_noise",
    "k_ary_randomized_response",
    "rounded_laplace_quarter",
    "rounded_laplace_quarter_tail",
    "textbook_geometric_sample",
]
