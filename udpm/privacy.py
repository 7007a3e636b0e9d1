"""Exact alpha-differential privacy checks that return counterexamples.

A mechanism is alpha-DP when for every output r and neighbouring inputs d1, d2
the ratio x_{d1 r} / x_{d2 r} lies in [alpha, 1/alpha], with 0/0 read as 1
(grs2011 Section 2.1).  For oblivious mechanisms of a count query the
neighbours are the adjacent results i, i+1.

>>> from fractions import Fraction as F
>>> dp_violations([[F(1), F(0)], [F(1, 2), F(1, 2)]], F(1, 2))
[Violation(row=1, other=0, column=1, p=Fraction(1, 2), q=Fraction(0, 1), ratio=None)]
>>> is_dp([[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]], F(1, 2))
True
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .validate import alpha_in_unit_interval, matrix


@dataclass(frozen=True)
class Violation:
    """Output ``column`` breaks alpha-DP between inputs ``row`` and ``other``.

    ``p`` and ``q`` are the two probabilities; ``ratio`` = p/q, or None when
    q = 0 < p (an infinite ratio).
    """

    row: Hashable
    other: Hashable
    column: int
    p: Fraction
    q: Fraction
    ratio: Fraction | None

    def __str__(self) -> str:
        r = "inf" if self.ratio is None else str(self.ratio)
        return f"x[{self.row}][{self.column}]={self.p}, x[{self.other}][{self.column}]={self.q}, ratio {r}"


def _pair_violations(
    d1: Hashable, d2: Hashable, r1: Sequence[Fraction], r2: Sequence[Fraction], a: Fraction
) -> list[Violation]:
    out = []
    for j, (p, q) in enumerate(zip(r1, r2)):
        # p >= a q and q >= a p is the whole condition, zeros included.
        if p < a * q:
            out.append(Violation(d2, d1, j, q, p, q / p if p else None))
        elif q < a * p:
            out.append(Violation(d1, d2, j, p, q, p / q if q else None))
    return out


def dp_violations(x: Sequence[Sequence[object]], alpha: object) -> list[Violation]:
    """Every (adjacent rows, column) where the oblivious mechanism x is not alpha-DP."""
    a = alpha_in_unit_interval(alpha)
    m = matrix(x)
    out: list[Violation] = []
    for i in range(len(m) - 1):
        out += _pair_violations(i, i + 1, m[i], m[i + 1], a)
    return out


def is_dp(x: Sequence[Sequence[object]], alpha: object) -> bool:
    return not dp_violations(x, alpha)


def database_dp_violations(
    x: Mapping[Hashable, Sequence[object]],
    neighbours: Iterable[tuple[Hashable, Hashable]],
    alpha: object,
) -> list[Violation]:
    """The same check for a non-oblivious mechanism: rows are databases, pairs are neighbours."""
    a = alpha_in_unit_interval(alpha)
    rows = {d: matrix([r], f"x[{d}]")[0] for d, r in x.items()}
    out: list[Violation] = []
    for d1, d2 in neighbours:
        out += _pair_violations(d1, d2, rows[d1], rows[d2], a)
    return out


def hamming_neighbours(databases: Iterable[tuple[int, ...]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Pairs of databases (tuples of rows) that differ in exactly one row."""
    dbs = sorted(set(databases))
    return [(d1, d2) for k, d1 in enumerate(dbs) for d2 in dbs[k + 1 :] if sum(u != v for u, v in zip(d1, d2)) == 1]
