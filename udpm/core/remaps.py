"""Remaps (post-processing) and derivability.

A remap Y from range R to N turns a mechanism X into Y o X with
z_ij = sum_r x_ir y_rj (grs2011 Section 2.2); as matrices that is the product
X·Y.  X is derivable from a mechanism T with range N when X = T·Y for a
row-stochastic Y; with T invertible, Y = T^-1 X is the only candidate
(gs2010 Section 3).

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> t = truncated_geometric(3, F(1, 2))
>>> derive(t, t).stochastic
True
>>> [[int(v) for v in row] for row in deterministic_remap([0, 0, 2], 3)]
[[1, 0, 0], [1, 0, 0], [0, 0, 1]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from udpm.core import linalg
from udpm.core.users import BayesianUser, LossValue, weighted
from udpm.core.validate import Matrix, matrix, stochastic
from udpm.errors import InvalidInput


def compose(x: Sequence[Sequence[object]], y: Sequence[Sequence[object]]) -> Matrix:
    """Y o X: run mechanism x, then remap its output with y (the matrix product x·y)."""
    return linalg.matmul(matrix(x, "mechanism"), matrix(y, "remap"))


def deterministic_remap(mapping: Sequence[int], n_out: int) -> Matrix:
    """The 0/1 remap sending output r to mapping[r], with n_out possible results."""
    if any(not 0 <= j < n_out for j in mapping):
        raise InvalidInput(f"a remap target lies outside 0..{n_out - 1}: {list(mapping)}")
    return [[Fraction(int(j == target)) for j in range(n_out)] for target in mapping]


def posterior_loss(x: Sequence[Sequence[Fraction]], user: BayesianUser, r: int, j: int) -> LossValue:
    """Unnormalised posterior expected loss of answering j after output r: sum_i p_i x_ir l(i, j)."""
    total: LossValue = Fraction(0)
    for i, p in enumerate(user.prior):
        if p and x[i][r]:
            total = total + weighted(p * x[i][r], user.loss(i, j))
    return total


def bayes_remap(x: Sequence[Sequence[object]], user: BayesianUser) -> list[int]:
    """grs2011 Section 2.3: map each output r to a result minimising posterior expected loss.

    Ties go to the smallest j, so the remap is deterministic and reproducible.
    """
    m = stochastic(x)
    if len(m) != user.n + 1:
        raise InvalidInput(f"mechanism has {len(m)} rows, the user's N has {user.n + 1}")
    out = []
    for r in range(len(m[0])):
        losses = [sympy.sympify(posterior_loss(m, user, r, j)) for j in range(user.n + 1)]
        best = 0
        for j in range(1, len(losses)):
            if bool(losses[j] < losses[best]):
                best = j
        out.append(best)
    return out


@dataclass(frozen=True)
class Derivation:
    """The unique Y with T·Y = X; X is derivable from T exactly when Y is stochastic."""

    remap: Matrix
    negative_entries: tuple[tuple[int, int, Fraction], ...]

    @property
    def stochastic(self) -> bool:
        return not self.negative_entries


def derive(x: Sequence[Sequence[object]], t: Sequence[Sequence[object]]) -> Derivation:
    """Solve T·Y = X exactly for an invertible mechanism T with range N (gs2010 Theorem 2)."""
    xm, tm = matrix(x, "mechanism"), matrix(t, "deployed mechanism")
    y = linalg.solve(tm, xm)
    neg = tuple((r, j, v) for r, row in enumerate(y) for j, v in enumerate(row) if v < 0)
    return Derivation(y, neg)


@dataclass(frozen=True)
class Transformation:
    """zlcn2013 Definition 4: t_r = Pr[yes | output r]; valid when every t_r is in [0, 1]."""

    t: tuple[Fraction, ...]

    @property
    def out_of_range(self) -> tuple[tuple[int, Fraction], ...]:
        return tuple((r, v) for r, v in enumerate(self.t) if not 0 <= v <= 1)

    @property
    def valid(self) -> bool:
        return not self.out_of_range


def transformation_vector(x: Sequence[object], m: Sequence[Sequence[object]]) -> Transformation:
    """The unique t with M·t = x for an invertible deployed mechanism M (zlcn2013 Theorem 7)."""
    col = [[v] for v in matrix([list(x)], "x")[0]]
    sol = linalg.solve(matrix(m, "deployed mechanism"), col)
    return Transformation(tuple(r[0] for r in sol))
