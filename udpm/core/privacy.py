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

A mechanism must be row-stochastic and exact; anything else is refused with
one line, never answered:

>>> is_dp([[F(2, 3), F(2, 3)], [F(1, 3), F(2, 3)]], F(1, 2))
Traceback (most recent call last):
    ...
udpm.errors.NotStochastic: mechanism is not row-stochastic: row 0 sums to 4/3, not 1
>>> is_dp([[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]], 0.5)
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: alpha=0.5 is a float; pass an exact rational such as Fraction(1, 2) or the string '1/2'
>>> is_dp([[F(1)], [F(1, 2), F(1, 2)]], F(1, 2))
Traceback (most recent call last):
    ...
udpm.errors.InvalidMatrix: mechanism is ragged: row 1 has 2 entries, row 0 has 1
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from udpm.core.validate import alpha_in_unit_interval, show, stochastic
from udpm.errors import InvalidInput


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
    """Every (adjacent rows, column) where the oblivious mechanism x is not alpha-DP.

    x must be an exact row-stochastic matrix (rows i = 0..n, any number of
    columns) and 0 < alpha < 1; otherwise an InvalidInput subclass is raised.
    """
    a = alpha_in_unit_interval(alpha)
    m = stochastic(x, "mechanism")
    out: list[Violation] = []
    for i in range(len(m) - 1):
        out += _pair_violations(i, i + 1, m[i], m[i + 1], a)
    return out


def is_dp(x: Sequence[Sequence[object]], alpha: object) -> bool:
    """Whether the oblivious mechanism x is alpha-DP (the same validation as :func:`dp_violations`)."""
    return not dp_violations(x, alpha)


def database_dp_violations(
    x: Mapping[Hashable, Sequence[object]],
    neighbours: Iterable[tuple[Hashable, Hashable]],
    alpha: object,
) -> list[Violation]:
    """The same check for a non-oblivious mechanism: rows are databases, pairs are neighbours.

    Every row must be an exact probability vector, all of one length, and every
    neighbour must be a key of x; otherwise an InvalidInput subclass is raised.
    """
    a = alpha_in_unit_interval(alpha)
    if not isinstance(x, Mapping) or not x:
        raise InvalidInput(f"x must be a non-empty mapping database -> row, got {show(x)} ({type(x).__name__})")
    keys = list(x)
    m = stochastic([x[d] for d in keys], "mechanism")
    rows = dict(zip(keys, m))
    if isinstance(neighbours, (str, bytes)) or not isinstance(neighbours, Iterable):
        raise InvalidInput(f"neighbours must be pairs of databases, got {show(neighbours)}")
    out: list[Violation] = []
    for pair in neighbours:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise InvalidInput(f"neighbours must be pairs (d1, d2), got {show(pair)}")
        d1, d2 = pair
        for d in pair:
            if d not in rows:
                raise InvalidInput(f"neighbour {show(d)} is not a database of x")
        out += _pair_violations(d1, d2, rows[d1], rows[d2], a)
    return out


def hamming_neighbours(databases: Iterable[tuple[int, ...]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Pairs of databases (tuples of rows) that differ in exactly one row.

    Databases must be tuples of one common length.
    """
    if isinstance(databases, (str, bytes)) or not isinstance(databases, Iterable):
        raise InvalidInput(f"databases must be tuples of rows, got {show(databases)}")
    dbs = list(databases)
    for d in dbs:
        if not isinstance(d, tuple):
            raise InvalidInput(f"a database must be a tuple of rows, got {show(d)} ({type(d).__name__})")
        if len(d) != len(dbs[0]):
            raise InvalidInput(f"databases differ in length: {show(dbs[0])} and {show(d)}")
    try:
        dbs = sorted(set(dbs))
    except TypeError:
        raise InvalidInput("databases must be tuples of comparable rows (e.g. ints)") from None
    return [(d1, d2) for k, d1 in enumerate(dbs) for d2 in dbs[k + 1 :] if sum(u != v for u, v in zip(d1, d2)) == 1]
