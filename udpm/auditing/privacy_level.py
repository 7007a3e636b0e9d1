# ruff: noqa: E501  (doctests show one-line reports in full)
"""The tightest privacy level of a count-query mechanism, exactly, and the rows and output that bind it.

M is alpha-DP when every ratio of adjacent rows, x[i][r] / x[i+1][r] and its inverse, is at least alpha
(0/0 read as 1).  So M is alpha-DP exactly for the alpha <= alpha*, where alpha* is the smallest such ratio:
the largest epsilon, eps* = ln(1/alpha*), that any adjacent pair of rows shows at any output.  For an exact
matrix alpha* is a ratio of two rationals, hence rational.  A library mechanism whose ratio is e^-r
(:class:`udpm.auditing.adapters.LibraryMechanism`, r rational) has alpha* = e^-r exactly when every adjacent ratio
of its family matrix, with a symbol A for the ratio, is A, 1/A or 1 (checked by sympy, not by floats).

>>> from fractions import Fraction as F
>>> level = privacy_level([[F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]])
>>> level.alpha, level.pair, level.output, str(level)
(Fraction(2, 3), (0, 1), 0, 'alpha* = 2/3 ≈ 0.6667, eps* = ln(3/2) ≈ 0.4055: bound by rows 0, 1 at output 0 (3/5 ≈ 0.6 vs 2/5 ≈ 0.4)')
>>> privacy_level([[1, 0], [0, 1]]).alpha
Fraction(0, 1)
>>> bool(level.private_at(F(1, 2))), bool(level.private_at(F(3, 4)))
(True, False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from udpm.auditing.exact_inputs import exact_matrix
from udpm.auditing.readable import approx, decimal, readable, short_exact
from udpm.core.validate import alpha_in_unit_interval
from udpm.errors import InvalidInput

Number = Fraction | sympy.Expr


@dataclass(frozen=True)
class PrivacyLevel:
    """alpha* (the largest alpha at which M is alpha-DP) and where it binds.

    ``alpha`` is a Fraction, or the exact ``exp(-rate)`` of a library mechanism (``rate`` rational);
    0 when some output has probability 0 in one row and > 0 in the next (no alpha > 0 holds), 1 when
    adjacent rows are equal.  ``pair`` = (i, i + 1) and ``output`` bind it, ``p`` and ``q`` are the
    two probabilities (None for alpha* = 1).
    """

    alpha: Number
    pair: tuple[int, int] | None
    output: int | None
    p: Number | None = None
    q: Number | None = None
    rate: Fraction | None = None

    @property
    def rational(self) -> bool:
        return isinstance(self.alpha, Fraction)

    @property
    def epsilon(self) -> str:
        """eps* = ln(1/alpha*) written exactly: 'ln(3/2)', 'ln 2', '0.69314718...' (a rate), 'inf'."""
        if self.rate is not None:
            return repr(float(self.rate)) if Fraction(float(self.rate)) == self.rate else short_exact(self.rate)
        a = self.alpha
        if a == 0:
            return "inf"
        if a == 1:
            return "0"
        inv = 1 / a
        return f"ln {short_exact(inv)}" if inv.denominator == 1 else f"ln({short_exact(inv)})"

    @property
    def epsilon_value(self) -> float:
        """eps* as a float, for reading only."""
        if self.rate is not None:
            return float(self.rate)
        if self.alpha == 0:
            return math.inf
        return math.log(self.alpha.denominator) - math.log(self.alpha.numerator)

    def private_at(self, alpha: object) -> bool:
        """Is M alpha-DP?  Exactly alpha <= alpha* (an irrational alpha* is compared by arb balls)."""
        a = alpha_in_unit_interval(alpha)
        if self.rational:
            return a <= self.alpha
        from udpm.auditing.adapters import compare_exp_neg

        return compare_exp_neg(self.rate, a) > 0  # e^-rate > a (never equal: e^-rate is irrational)

    def __str__(self) -> str:
        a = "0" if self.alpha == 0 else approx(self.alpha, self.rate)
        eps = "inf" if self.alpha == 0 else f"{self.epsilon} ≈ {self.epsilon_value:.4g}"
        head = f"alpha* = {a}, eps* = {eps}"
        if self.pair is None:
            return head + ": adjacent rows are equal (DP at every level)"
        i, k = self.pair
        p, q = (
            (readable(self.p), readable(self.q)) if self.rational else (f"≈ {decimal(self.p)}", f"≈ {decimal(self.q)}")
        )
        return f"{head}: bound by rows {i}, {k} at output {self.output} ({p} vs {q})"

    def to_json(self) -> dict:
        return {
            "alpha": str(self.alpha),
            "alpha_decimal": float(sympy.N(self.alpha, 17)) if not self.rational else float(self.alpha),
            "epsilon": self.epsilon if self.rate is not None or self.alpha in (0, 1) else f"ln({1 / self.alpha})",
            "epsilon_decimal": self.epsilon_value if math.isfinite(self.epsilon_value) else "inf",
            "pair": None if self.pair is None else list(self.pair),
            "output": self.output,
            "p": None if self.p is None else str(self.p),
            "q": None if self.q is None else str(self.q),
        }


def level_of_matrix(x: list[list[Fraction]]) -> PrivacyLevel:
    """alpha* of an exact row-stochastic matrix: the smallest ratio of adjacent rows (first in row-major order).

    Compared by integer cross-multiplication (no Fraction is built per entry: fast for large n).
    """
    bn, bd, where = 1, 1, None  # the best ratio so far, bn/bd
    for i in range(len(x) - 1):
        for r, (p, q) in enumerate(zip(x[i], x[i + 1])):
            if p == q:
                continue
            lo, hi = (p, q) if p < q else (q, p)
            if lo == 0:
                return PrivacyLevel(Fraction(0), (i, i + 1), r, p, q)
            # lo/hi = (lo.n * hi.d) / (lo.d * hi.n) < bn / bd ?
            num, den = lo.numerator * hi.denominator, lo.denominator * hi.numerator
            if num * bd < bn * den:
                bn, bd, where = num, den, (i, r, p, q)
    if where is None:
        return PrivacyLevel(Fraction(1), None, None)
    i, r, p, q = where
    return PrivacyLevel(Fraction(bn, bd), (i, i + 1), r, p, q)


@lru_cache(maxsize=64)
def _family_ratios(kind: str, n: int, lower: int, upper: int) -> tuple[tuple[int, int, int], ...] | None:
    """For the family matrix with symbol A: each (i, r) with ratio x[i][r]/x[i+1][r] in {A, 1/A} and its
    sign (+1 for A, -1 for 1/A); None when some ratio is not A, 1/A or 1."""
    from udpm.auditing.adapters import clamped_geometric, lumped_geometric

    a = sympy.Symbol("A", positive=True)
    x = clamped_geometric(n, a, lower, upper) if kind == "clamped" else lumped_geometric(n, a)
    out = []
    for i in range(n):
        for r in range(len(x[0])):
            ratio = sympy.cancel(x[i][r] / x[i + 1][r])
            if ratio == a:
                out.append((i, r, 1))
            elif ratio == 1 / a:
                out.append((i, r, -1))
            elif ratio != 1:
                return None
    return tuple(out)


def level_of_library(m: object) -> PrivacyLevel:
    """alpha* of a :class:`~udpm.auditing.adapters.LibraryMechanism`: exact for a rational ratio, e^-rate otherwise."""
    if m.rational:
        x, _ = exact_matrix(m.matrix)
        return level_of_matrix(x)
    lower, upper = (int(m.outputs[0]), int(m.outputs[-1])) if m.kind == "clamped" else (0, m.n)
    ratios = _family_ratios(m.kind, m.n, lower, upper)
    if ratios is None:
        raise InvalidInput(f"{m.library} {m.name}: its adjacent ratios are not all e^-r, e^r or 1; no exact level")
    if not ratios:
        return PrivacyLevel(Fraction(1), None, None)
    i, r, _ = ratios[0]
    return PrivacyLevel(m.alpha, (i, i + 1), r, m.matrix[i][r], m.matrix[i + 1][r], m.rate)


def privacy_level(mechanism: object, *, exact: str | None = None) -> PrivacyLevel:
    """The tightest privacy level of ``mechanism``: alpha* exactly, with the pair of rows and the output binding it.

    Parameters
    ----------
    mechanism : matrix or LibraryMechanism
        Rows i = 0..n; exact entries (or floats with ``exact="rationalize"``), or a library mechanism.

    Returns
    -------
    PrivacyLevel
        M is alpha-DP exactly for alpha <= ``.alpha`` (:meth:`PrivacyLevel.private_at`).
    """
    from udpm.auditing.adapters import LibraryMechanism

    if isinstance(mechanism, LibraryMechanism):
        return level_of_library(mechanism)
    x, _ = exact_matrix(mechanism, exact=exact)
    return level_of_matrix(x)


__all__ = ["PrivacyLevel", "level_of_library", "level_of_matrix", "privacy_level"]
