"""Users and consumers: Bayesian (grs), minimax (gs2010), count-range (zlcn2013).

Loss values are exact: Fractions, or sympy numbers for irrational losses such
as |i-j|^1.5 (grs2011 Figure 3).  Comparisons of sympy numbers are decided by
sympy, never by floats.

>>> loss = absolute_error(3)
>>> loss.is_legal(), loss.is_strictly_legal()
(True, True)
>>> binary_loss(3).is_strictly_legal()
False
>>> Loss.from_matrix([[0, 1], [1, 0]]).is_legal()
True
>>> Loss.from_matrix([[0, 1, 0], [1, 0, 1], [0, 1, 0]]).is_legal()
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from udpm.core.conventions import alpha_from_zlcn2013
from udpm.core.privacy import dp_violations
from udpm.core.validate import distribution, rational, size, stochastic
from udpm.errors import InvalidInput

LossValue = Fraction | sympy.Expr


def _exact(v: object, what: str) -> LossValue:
    if isinstance(v, sympy.Expr):
        if not v.is_real:
            raise InvalidInput(f"{what}={v} is not a real number")
        return sympy.Rational(v) if v.is_Rational else v
    return rational(v, what)


@dataclass(frozen=True)
class Loss:
    """A loss function l(i, j) on N x N: true result i, believed result j."""

    values: tuple[tuple[LossValue, ...], ...]

    @classmethod
    def from_matrix(cls, rows: Sequence[Sequence[object]]) -> Loss:
        if not rows or any(len(r) != len(rows) for r in rows):
            raise InvalidInput("a loss matrix must be square")
        return cls(tuple(tuple(_exact(v, f"l({i},{j})") for j, v in enumerate(r)) for i, r in enumerate(rows)))

    @classmethod
    def from_function(cls, n: int, f: Callable[[int, int], object]) -> Loss:
        size(n)
        return cls.from_matrix([[f(i, j) for j in range(n + 1)] for i in range(n + 1)])

    @property
    def n(self) -> int:
        return len(self.values) - 1

    def __call__(self, i: int, j: int) -> LossValue:
        return self.values[i][j]

    def _by_distance(self, i: int) -> dict[int, list[LossValue]] | None:
        groups: dict[int, list[LossValue]] = {}
        for j, v in enumerate(self.values[i]):
            groups.setdefault(abs(j - i), []).append(v)
        if any(len(set(vs)) > 1 for vs in groups.values()):
            return None  # depends on more than i and |j - i|
        return groups

    def is_legal(self) -> bool:
        """grs2011 Section 2.2: l(i, j) depends only on i and |j-i|, nondecreasing in |j-i|."""
        return self._monotone(strict=False)

    def is_strictly_legal(self) -> bool:
        """grs2011 Section 5.3: legal, and strictly increasing in |j-i| for each i."""
        return self._monotone(strict=True)

    def _monotone(self, strict: bool) -> bool:
        for i in range(self.n + 1):
            groups = self._by_distance(i)
            if groups is None:
                return False
            seq = [groups[d][0] for d in sorted(groups)]
            for u, v in zip(seq, seq[1:]):
                if bool(v < u) or (strict and bool(sympy.Eq(sympy.sympify(u), sympy.sympify(v)))):
                    return False
        return True

    def is_monotone_minimax(self) -> bool:
        """gs2010 Section 2.3: nondecreasing in |i-r| for each i (symmetry not required)."""
        for i in range(self.n + 1):
            left = [self.values[i][j] for j in range(i, -1, -1)]
            right = [self.values[i][j] for j in range(i, self.n + 1)]
            for seq in (left, right):
                if any(bool(v < u) for u, v in zip(seq, seq[1:])):
                    return False
        return True


def absolute_error(n: int) -> Loss:
    return Loss.from_function(n, lambda i, j: abs(i - j))


def squared_error(n: int) -> Loss:
    return Loss.from_function(n, lambda i, j: (i - j) ** 2)


def binary_loss(n: int) -> Loss:
    return Loss.from_function(n, lambda i, j: int(i != j))


def power_loss(n: int, exponent: sympy.Expr) -> Loss:
    """l(i, j) = |i-j|^exponent as exact sympy numbers (irrational for exponent 1.5)."""
    e = sympy.nsimplify(exponent)
    return Loss.from_function(n, lambda i, j: sympy.Integer(abs(i - j)) ** e)


def weighted(w: Fraction, v: LossValue) -> LossValue:
    """w·v exactly: Fraction arithmetic for a rational v, sympy for an irrational one (never a float)."""
    return w * v if isinstance(v, Fraction) else sympy.Rational(w.numerator, w.denominator) * v


def _dot(row: Sequence[Fraction], losses: Sequence[LossValue]) -> LossValue:
    total: LossValue = Fraction(0)
    for x, lv in zip(row, losses):
        if x:
            total = total + weighted(x, lv)
    return total


@dataclass(frozen=True)
class BayesianUser:
    """grs2011 Section 2.2: a prior p over N and a loss l."""

    prior: tuple[Fraction, ...]
    loss: Loss

    @classmethod
    def of(cls, prior: Sequence[object], loss: Loss) -> BayesianUser:
        return cls(tuple(distribution(prior, loss.n + 1)), loss)

    @property
    def n(self) -> int:
        return self.loss.n

    def expected_loss(self, z: Sequence[Sequence[object]]) -> LossValue:
        """grs2011 (2): sum_i p_i sum_j z_ij l(i, j), for a mechanism with range N."""
        m = stochastic(z)
        total: LossValue = Fraction(0)
        for i, row in enumerate(m):
            if self.prior[i]:
                total = total + self.prior[i] * _dot(row, self.loss.values[i])
        return total  # exact: a Fraction, or a sympy sum of surds (never nsimplify'd)


@dataclass(frozen=True)
class MinimaxUser:
    """gs2010 Section 2.3: side information S (a subset of N) and a loss l."""

    side_information: tuple[int, ...]
    loss: Loss

    @classmethod
    def of(cls, side_information: Sequence[int], loss: Loss) -> MinimaxUser:
        s = tuple(sorted(set(side_information)))
        if not s or s[0] < 0 or s[-1] > loss.n:
            raise InvalidInput(f"side information must be a non-empty subset of 0..{loss.n}")
        return cls(s, loss)

    def worst_case_loss(self, x: Sequence[Sequence[object]]) -> LossValue:
        """gs2010 (1): max over i in S of sum_r l(i, r) x_ir."""
        m = stochastic(x)
        return max((_dot(m[i], self.loss.values[i]) for i in self.side_information), key=sympy.sympify)


@dataclass(frozen=True)
class CountRangeConsumer:
    """zlcn2013 Section 2.3: penalty omega, prior rho over counts 0..n, range [theta1, theta2].

    zlcn2013 requires 0 <= theta1 < theta2; a threshold query has theta1 = 0 or
    theta2 = +infinity, which over counts 0..n is theta2 >= n (pass theta2=None).
    """

    omega: tuple[Fraction, ...]
    rho: tuple[Fraction, ...]
    theta1: int
    theta2: int | None

    @classmethod
    def of(cls, omega: Sequence[object], rho: Sequence[object], theta1: int, theta2: int | None) -> CountRangeConsumer:
        w = tuple(rational(v, f"omega[{i}]") for i, v in enumerate(omega))
        r = tuple(distribution(rho, len(w), "rho"))
        if any(v < 0 for v in w):
            raise InvalidInput("omega must be non-negative")
        if theta1 < 0 or (theta2 is not None and theta2 <= theta1):
            raise InvalidInput(f"need 0 <= theta1 < theta2, got theta1={theta1}, theta2={theta2}")
        return cls(w, r, theta1, theta2)

    @property
    def n(self) -> int:
        return len(self.rho) - 1

    def in_range(self, mu: int) -> bool:
        return self.theta1 <= mu and (self.theta2 is None or mu <= self.theta2)

    def weighted_error(self, phi: Sequence[object]) -> Fraction:
        """zlcn2013 (1): false positives weigh phi(i), false negatives 1 - phi(i)."""
        v = [rational(x, f"phi[{i}]") for i, x in enumerate(phi)]
        return sum(
            (self.omega[i] * self.rho[i] * ((1 - v[i]) if self.in_range(i) else v[i]) for i in range(len(v))),
            Fraction(0),
        )


def is_legal_function(phi: Sequence[object], alpha_zlcn: object) -> bool:
    """zlcn2013 Definition 2: phi in [0, 1], and the yes/no mechanism rows (phi(mu), 1 - phi(mu)) are DP.

    zlcn2013 states it for its alpha > 1 (phi and 1 - phi change by at most a factor alpha between
    neighbouring counts); that is exactly alpha-DP, in the internal convention, of the two-column mechanism.

    >>> is_legal_function([Fraction(1, 3), Fraction(2, 3)], 2), is_legal_function([Fraction(1, 4), Fraction(3, 4)], 2)
    (True, False)
    """
    a = alpha_from_zlcn2013(alpha_zlcn)
    v = [rational(x, f"phi[{i}]") for i, x in enumerate(phi)]
    if any(not 0 <= x <= 1 for x in v):
        return False
    return not dp_violations([[x, 1 - x] for x in v], a)


__all__ = [
    "BayesianUser",
    "CountRangeConsumer",
    "Loss",
    "MinimaxUser",
    "absolute_error",
    "binary_loss",
    "is_legal_function",
    "power_loss",
    "squared_error",
]
