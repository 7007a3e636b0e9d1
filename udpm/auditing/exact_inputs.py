# ruff: noqa: E501  (doctests show one-line error messages in full)
"""Exact mechanism inputs: a matrix converted to exact rationals, or refused in one line.

A mechanism is a row-stochastic matrix: row i is the query result i = 0..n, column r an output.
Inputs are Fractions, ints or strings such as ``"1/3"``; floats and numpy arrays are accepted only
through the explicit ``exact="rationalize"``, which replaces each float by the simplest rational
within a stated relative tolerance and says so (:class:`Conversion`).  alpha = e^-eps is given as
``alpha="1/2"`` or as ``eps="ln 2"`` (exact where e^-eps is rational, refused otherwise).  A user is
a prior and a loss (:func:`make_user`); :func:`parse_users` reads the ``users=`` argument of
:func:`udpm.auditing.report.audit`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from udpm.core.validate import Matrix, float_like, is_numpy, rational, show, stochastic
from udpm.errors import InvalidInput, InvalidMatrix

#: The default relative tolerance of ``exact="rationalize"``: |q - x| <= tolerance * |x| per entry.
TOLERANCE = Fraction(1, 10**9)


class NotRationalizable(InvalidMatrix):
    """``exact="rationalize"`` found no exact row-stochastic matrix within the stated tolerance."""


@dataclass(frozen=True)
class Conversion:
    """How a mechanism's entries became exact: ``exact`` (as given) or ``rationalize`` (floats replaced).

    ``tolerance`` is the relative tolerance used, ``replaced`` the number of float entries replaced,
    ``max_deviation`` the largest relative change |q - x| / |x| among them (exactly, from the binary float).
    """

    mode: str = "exact"
    tolerance: Fraction | None = None
    replaced: int = 0
    max_deviation: Fraction = Fraction(0)

    def __str__(self) -> str:
        if self.mode == "exact":
            return "exact input"
        if self.mode == "sampled":
            return (
                "SAMPLED: counts of the sampler's outputs; every verdict is statistical, at the stated confidence "
                "(udpm.auditing.sampled: Clopper-Pearson intervals, Bonferroni over the cells)"
            )
        if self.mode == "estimated":
            return (
                f"ESTIMATED: the verdicts are about the estimate, not the mechanism it estimates: {self.replaced} "
                "float entries taken at their exact binary values, each row divided by its exact sum (largest "
                f"row-sum correction {float(self.max_deviation):.3g}); stated estimation tolerance {self.tolerance}, "
                "not used in any decision (for a statistical decision give the sample counts: exact='sampled')"
            )
        return (
            f"rationalized: {self.replaced} float entr{'y' if self.replaced == 1 else 'ies'} replaced by the simplest "
            f"rational within relative tolerance {self.tolerance} (largest relative change {float(self.max_deviation):.3g})"
        )

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "tolerance": None if self.tolerance is None else str(self.tolerance),
            "replaced": self.replaced,
            "max_relative_deviation": str(self.max_deviation),
        }


def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in [lo, hi] (continued fractions, exact).

    >>> simplest_between(Fraction(3, 10), Fraction(7, 20)), simplest_between(Fraction(-1, 3), Fraction(1, 3))
    (Fraction(1, 3), Fraction(0, 1))
    """
    if lo > hi:
        lo, hi = hi, lo
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest_between(-hi, -lo)
    fl = math.floor(lo)
    if fl == lo:
        return Fraction(fl)
    if fl + 1 <= hi:
        return Fraction(fl + 1)
    return fl + 1 / simplest_between(1 / (hi - fl), 1 / (lo - fl))


def rationalize(x: float, tolerance: Fraction = TOLERANCE) -> Fraction:
    """The simplest rational q with |q - x| <= tolerance·|x|: the exact value a float was rounded from.

    >>> rationalize(1 / 3), rationalize(0.1), rationalize(2 ** -20 / 3), rationalize(0.0)
    (Fraction(1, 3), Fraction(1, 10), Fraction(1, 3145728), Fraction(0, 1))
    >>> rationalize(float("nan"))
    Traceback (most recent call last):
        ...
    udpm.auditing.exact_inputs.NotRationalizable: nan is not a finite number; nothing to rationalize
    """
    if not math.isfinite(x):
        raise NotRationalizable(f"{x} is not a finite number; nothing to rationalize")
    f = Fraction(x)
    return simplest_between(f - abs(f) * tolerance, f + abs(f) * tolerance)


def _tolerance(tolerance: object) -> Fraction:
    if isinstance(tolerance, float):
        tolerance = Fraction(str(tolerance))  # a stated tolerance is a decimal literal, not a measurement
    try:
        t = rational(tolerance, "tolerance")
    except InvalidMatrix as exc:
        raise InvalidInput(str(exc)) from None
    if not 0 <= t < 1:
        raise InvalidInput(f"tolerance must satisfy 0 <= tolerance < 1 (relative), got {t}")
    return t


def _library_matrix(m: object, what: str) -> object:
    """A library mechanism's own exact matrix: an object with a ``udpm_exact_matrix(what)`` method
    (:class:`udpm.auditing.adapters.LibraryMechanism`) gives it, or says in one line why it has none."""
    own = getattr(m, "udpm_exact_matrix", None)
    return own(what) if callable(own) else m


def _sympy_rationals(row: object, i: int, what: str) -> object:
    """sympy Rationals as Fractions; an irrational sympy entry refused with the way to audit it exactly."""
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
        return row
    out = []
    for j, v in enumerate(row):
        if isinstance(v, sympy.Basic):
            if v.is_Rational:
                v = Fraction(int(v.p), int(v.q))
            else:
                raise InvalidMatrix(
                    f"{what}[{i}][{j}] = {show(v)} is irrational; for a DP library's mechanism pass the "
                    "LibraryMechanism itself (udpm.auditing.adapters) to udpm.audit, which decides an irrational ratio exactly"
                )
        out.append(v)
    return out


def _row_sum_is_one(row: list[Fraction]) -> bool:
    den = math.lcm(*(x.denominator for x in row))
    return sum(x.numerator * (den // x.denominator) for x in row) == den


def _fractions_stochastic(m: Sequence) -> Matrix | None:
    """The matrix itself when it is already rows of Fractions, rectangular and exactly row-stochastic
    (checked with integer arithmetic, fast for large n); None to take the general path (which explains)."""
    if not m or not all(type(r) is list for r in m):
        return None
    width = len(m[0])
    if not width or any(len(r) != width for r in m):
        return None
    if not all(type(x) is Fraction for r in m for x in r):
        return None
    if any(x.numerator < 0 for r in m for x in r) or not all(_row_sum_is_one(r) for r in m):
        return None
    return [list(r) for r in m]


def exact_matrix(
    m: object, *, exact: str | None = None, tolerance: object = TOLERANCE, what: str = "mechanism"
) -> tuple[Matrix, Conversion]:
    """A row-stochastic exact matrix from ``m``, and how it was obtained.

    ``exact=None`` accepts exact entries only (Fraction, int, strings such as '1/3' or '0.25');
    ``exact="rationalize"`` also accepts floats and numpy arrays, each float replaced by the
    simplest rational within relative ``tolerance``; the result must then be exactly stochastic.
    ``exact="estimated"`` is for empirical matrices (frequencies, a solver's floats): each float is
    taken at its exact binary value and each row divided by its exact sum; the Conversion then says
    that every verdict is about that estimate, and carries ``tolerance`` as the stated estimation
    error (it is reported, not used: no verdict is widened to the matrices within it).

    >>> exact_matrix([[2 / 3, 1 / 3], [1 / 3, 2 / 3]], exact="rationalize")[0][0]
    [Fraction(2, 3), Fraction(1, 3)]
    >>> exact_matrix([[0.7, 0.2], [0.2, 0.8]], exact="rationalize")
    Traceback (most recent call last):
        ...
    udpm.auditing.exact_inputs.NotRationalizable: mechanism: row 0 of the rationalized matrix sums to 9/10, not 1 (relative tolerance 1/1000000000); no exact stochastic matrix is that close, pass exact values
    >>> m, conv = exact_matrix([[0.7, 0.2], [0.2, 0.8]], exact="estimated", tolerance="1/100")
    >>> total = Fraction(0.7) + Fraction(0.2)  # the binary values, exactly
    >>> m[0] == [Fraction(0.7) / total, Fraction(0.2) / total], conv.mode, str(conv.tolerance)
    (True, 'estimated', '1/100')
    >>> exact_matrix([["1/2", "1/2"]], exact="round")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: exact must be None (exact input only), 'rationalize' or 'estimated', got 'round'
    """
    if exact not in (None, "rationalize", "estimated"):
        raise InvalidInput(f"exact must be None (exact input only), 'rationalize' or 'estimated', got {show(exact)}")
    m = _library_matrix(m, what)
    if is_numpy(m) and hasattr(m, "tolist"):
        if exact is None:
            raise InvalidMatrix(
                f"{what} is a numpy array; pass exact rationals (Fraction(1, 3), '1/3') or exact='rationalize' "
                "to convert its floats within a stated tolerance"
            )
        m = m.tolist()
    if isinstance(m, (str, bytes)) or not isinstance(m, Sequence):
        raise InvalidMatrix(f"{what} must be a list of rows, got {show(m)} ({type(m).__name__})")
    if exact is None:
        fast = _fractions_stochastic(m)
        if fast is not None:
            return fast, Conversion()
        m = [_sympy_rationals(row, i, what) for i, row in enumerate(m)]
        for i, row in enumerate(m):
            if isinstance(row, Sequence) and not isinstance(row, (str, bytes)):
                for j, v in enumerate(row):
                    if float_like(v):
                        raise InvalidMatrix(
                            f"{what}[{i}][{j}]={v!r} is a float; pass exact rationals (Fraction(1, 3), '1/3') "
                            "or exact='rationalize' to convert within a stated tolerance"
                        )
        return stochastic(m, what), Conversion()
    tol = _tolerance(tolerance)
    replaced, worst = 0, Fraction(0)
    rows = []
    for i, row in enumerate(m):
        if is_numpy(row) and hasattr(row, "tolist"):
            row = row.tolist()
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise InvalidMatrix(f"{what}[{i}] must be a list of entries, got {show(row)}")
        out = []
        for v in row:
            if float_like(v) and exact == "estimated":
                out.append(Fraction(float(v)))  # its exact binary value
                replaced += 1
            elif float_like(v):
                v = float(v)
                q = rationalize(v, tol)
                replaced += 1
                if v:
                    worst = max(worst, abs(q - Fraction(v)) / abs(Fraction(v)))
                out.append(q)
            else:
                out.append(v.item() if is_numpy(v) and hasattr(v, "item") else v)
        rows.append(out)
    from udpm.core.validate import matrix

    if exact == "estimated":
        estimate = matrix(rows, what)
        if any(x < 0 for r in estimate for x in r) or any(sum(r) == 0 for r in estimate):
            raise InvalidMatrix(f"{what}: an estimate needs non-negative entries and no all-zero row")
        sums = [sum(r, Fraction(0)) for r in estimate]
        normalised = [[x / t for x in r] for r, t in zip(estimate, sums)]
        return stochastic(normalised, what), Conversion("estimated", tol, replaced, max(abs(t - 1) for t in sums))
    conv = Conversion("rationalize", tol, replaced, worst)

    exact_rows = matrix(rows, what)
    for i, r in enumerate(exact_rows):
        if sum(r) != 1 and all(x >= 0 for x in r):
            raise NotRationalizable(
                f"{what}: row {i} of the rationalized matrix sums to {sum(r)}, not 1 (relative tolerance {tol}); "
                "no exact stochastic matrix is that close, pass exact values"
            )
    return stochastic(exact_rows, what), conv


__all__ = ["TOLERANCE", "Conversion", "NotRationalizable", "exact_matrix", "rationalize", "simplest_between"]
