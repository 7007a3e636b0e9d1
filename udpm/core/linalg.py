"""Exact rational matrices: lists of Fraction rows, with python-flint for the heavy steps.

Matrices are plain ``list[list[Fraction]]`` so that every other module, and a
reader, can index them as the papers do (row i = query result, column j =
output).  Inversion, solving and ranks go through FLINT's ``fmpq_mat``.

>>> from fractions import Fraction as F
>>> matmul([[F(1), F(2)]], [[F(3)], [F(4)]])
[[Fraction(11, 1)]]
>>> inverse([[F(2), F(0)], [F(0), F(4)]])
[[Fraction(1, 2), Fraction(0, 1)], [Fraction(0, 1), Fraction(1, 4)]]
>>> inverse([[F(1), F(1)], [F(1), F(1)]])
Traceback (most recent call last):
    ...
udpm.errors.InvalidMatrix: matrix is singular
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import flint

from udpm.errors import InvalidMatrix

Matrix = list[list[Fraction]]


def to_flint(m: Sequence[Sequence[Fraction]]) -> flint.fmpq_mat:
    rows, cols = len(m), len(m[0])
    return flint.fmpq_mat(rows, cols, [flint.fmpq(x.numerator, x.denominator) for r in m for x in r])


def from_flint(fm: flint.fmpq_mat) -> Matrix:
    return [[Fraction(int(fm[i, j].p), int(fm[i, j].q)) for j in range(fm.ncols())] for i in range(fm.nrows())]


def shape(m: Sequence[Sequence[object]]) -> tuple[int, int]:
    return len(m), len(m[0]) if m else 0


def identity(k: int) -> Matrix:
    return [[Fraction(int(i == j)) for j in range(k)] for i in range(k)]


def zeros(r: int, c: int) -> Matrix:
    return [[Fraction(0)] * c for _ in range(r)]


def transpose(m: Sequence[Sequence[Fraction]]) -> Matrix:
    return [list(col) for col in zip(*m)]


def matmul(a: Sequence[Sequence[Fraction]], b: Sequence[Sequence[Fraction]]) -> Matrix:
    """The exact product a·b."""
    if len(a[0]) != len(b):
        raise InvalidMatrix(f"cannot multiply {len(a)}x{len(a[0])} by {len(b)}x{len(b[0])}")
    bt = transpose(b)
    return [[sum((x * y for x, y in zip(row, col)), Fraction(0)) for col in bt] for row in a]


def matvec(a: Sequence[Sequence[Fraction]], v: Sequence[Fraction]) -> list[Fraction]:
    return [sum((x * y for x, y in zip(row, v)), Fraction(0)) for row in a]


def inverse(m: Sequence[Sequence[Fraction]]) -> Matrix:
    """The exact inverse; raises InvalidMatrix when m is singular."""
    try:
        return from_flint(to_flint(m).inv())
    except ZeroDivisionError:
        raise InvalidMatrix("matrix is singular") from None


def solve(a: Sequence[Sequence[Fraction]], b: Sequence[Sequence[Fraction]]) -> Matrix:
    """The unique exact X with a·X = b; raises InvalidMatrix when a is singular."""
    try:
        return from_flint(to_flint(a).solve(to_flint(b)))
    except ZeroDivisionError:
        raise InvalidMatrix("matrix is singular") from None


def det(m: Sequence[Sequence[Fraction]]) -> Fraction:
    d = to_flint(m).det()
    return Fraction(int(d.p), int(d.q))


def rank(m: Sequence[Sequence[Fraction]]) -> int:
    return int(to_flint(m).rank()) if m and m[0] else 0


def fmt(x: Fraction) -> str:
    """An exact value as the string the JSON and the tables use: '272/415', '0', '-3'."""
    return str(Fraction(x))


def fmt_matrix(m: Sequence[Sequence[Fraction]]) -> str:
    return "[" + ", ".join("[" + ", ".join(fmt(x) for x in r) + "]" for r in m) + "]"


def fmt_vector(v: Sequence[Fraction]) -> str:
    return "[" + ", ".join(fmt(x) for x in v) + "]"
