"""Validation helpers, called at the top of every public function.

The harness works in exact arithmetic only.  A float alpha is refused
outright: ``0.1`` is not one tenth, and a verdict computed from it would be a
verdict about a different number.  Every refusal is an :class:`InvalidInput`
subclass with a one-line message.

>>> alpha_in_unit_interval(Fraction(1, 2))
Fraction(1, 2)
>>> alpha_in_unit_interval("1/4")
Fraction(1, 4)
>>> alpha_in_unit_interval(0.5)
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: alpha=0.5 is a float; pass an exact rational such as Fraction(1, 2) or the string '1/2'
>>> alpha_in_unit_interval(float("nan"))
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: alpha=nan is a float (not a finite number);
    pass an exact rational such as Fraction(1, 2) or the string '1/2'
>>> size(0)
Traceback (most recent call last):
    ...
udpm.errors.InvalidSize: n must be an integer >= 1, got 0
>>> stochastic([[1, 0], [Fraction(1, 2), Fraction(1, 3)]])
Traceback (most recent call last):
    ...
udpm.errors.NotStochastic: mechanism is not row-stochastic: row 1 sums to 5/6, not 1
>>> matrix([[1, 0], [1]])
Traceback (most recent call last):
    ...
udpm.errors.InvalidMatrix: matrix is ragged: row 1 has 1 entries, row 0 has 2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from numbers import Integral, Rational

from udpm.errors import InvalidAlpha, InvalidDistribution, InvalidInteger, InvalidMatrix, InvalidSize, NotStochastic

Matrix = list[list[Fraction]]


def show(x: object, limit: int = 60) -> str:
    """repr(x) on one line, shortened: fit for a one-line error message."""
    r = " ".join(repr(x).split())
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _is_numpy_array(x: object) -> bool:
    return is_numpy(x) and hasattr(x, "shape")


def rational(x: object, what: str = "value") -> Fraction:
    """Return ``x`` as a Fraction; refuse floats and anything inexact."""
    if isinstance(x, bool):
        raise InvalidMatrix(f"{what}={x!r} is a bool, not a number")
    if isinstance(x, float):
        raise InvalidMatrix(f"{what}={x!r} is a float; pass an exact rational such as Fraction(1, 3) or '1/3'")
    if isinstance(x, (Fraction, int, Rational)):
        try:
            return Fraction(x)  # type: ignore[arg-type]
        except (TypeError, ValueError, ZeroDivisionError):
            raise InvalidMatrix(f"{what}={show(x)} ({type(x).__name__}) is not an exact rational") from None
    if isinstance(x, str):
        try:
            return Fraction(x.strip())
        except (ValueError, ZeroDivisionError):
            raise InvalidMatrix(f"{what}={show(x)} is not a rational number") from None
    if _is_numpy_array(x):
        raise InvalidMatrix(
            f"{what} is a numpy {type(x).__name__}; pass an exact rational such as Fraction(1, 3) or '1/3'"
        )
    raise InvalidMatrix(f"{what}={show(x)} ({type(x).__name__}) is not an exact rational")


def integer(k: object, what: str) -> int:
    """``k`` as an int (bools and floats refused: an offset or index must be exact)."""
    if isinstance(k, bool) or not isinstance(k, Integral):
        hint = " (alpha is a separate argument: a Fraction or a string like '1/2')" if isinstance(k, float) else ""
        raise InvalidInteger(f"{what} must be an int, got {show(k)} ({type(k).__name__}){hint}")
    return int(k)


def _alpha(alpha: object) -> Fraction:
    if isinstance(alpha, float) and not math.isfinite(alpha):
        raise InvalidAlpha(
            f"alpha={alpha!r} is a float (not a finite number); pass an exact rational such as "
            "Fraction(1, 2) or the string '1/2'"
        )
    if isinstance(alpha, float):
        raise InvalidAlpha(
            f"alpha={alpha!r} is a float; pass an exact rational such as "
            f"Fraction({Fraction(alpha).limit_denominator(1000).numerator}, "
            f"{Fraction(alpha).limit_denominator(1000).denominator}) or the string "
            f"'{Fraction(alpha).limit_denominator(1000)}'"
        )
    try:
        return rational(alpha, "alpha")
    except InvalidMatrix as exc:
        raise InvalidAlpha(str(exc)) from None


def alpha_in_unit_interval(alpha: object) -> Fraction:
    """alpha = e^-eps as an exact rational with 0 < alpha < 1 (the internal convention)."""
    a = _alpha(alpha)
    if not 0 < a < 1:
        raise InvalidAlpha(
            f"alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got {a}; "
            "for the zlcn2013 convention (alpha > 1) use conventions.alpha_from_zlcn2013"
        )
    return a


def alpha_above_one(alpha: object) -> Fraction:
    """zlcn2013's alpha = e^eps as an exact rational > 1 (boundary convention only)."""
    a = _alpha(alpha)
    if not a > 1:
        raise InvalidAlpha(f"zlcn2013 alpha must be > 1 (alpha = e^eps), got {a}")
    return a


def size(n: object) -> int:
    """n, the number of database rows, as an int >= 1 (results are indexed 0..n)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidSize(f"n must be an integer >= 1, got {show(n)}")
    return n


def _sequence(x: object, what: str, of: str) -> Sequence:
    if _is_numpy_array(x):
        raise InvalidMatrix(
            f"{what} is a numpy array; pass a list of lists of exact rationals (Fraction or strings like '1/2')"
        )
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence):
        raise InvalidMatrix(f"{what} must be a list of {of}, got {show(x)} ({type(x).__name__})")
    return x


def matrix(rows: Sequence[Sequence[object]], what: str = "matrix") -> Matrix:
    """A non-empty rectangular matrix (a list of equally long lists) of exact rationals."""
    rows = _sequence(rows, what, "rows")
    if not rows:
        raise InvalidMatrix(f"{what} must be a non-empty rectangular matrix, got no rows")
    rows = [_sequence(r, f"{what}[{i}]", "entries") for i, r in enumerate(rows)]
    if not rows[0]:
        raise InvalidMatrix(f"{what} must be a non-empty rectangular matrix, got an empty row 0")
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise InvalidMatrix(f"{what} is ragged: row {i} has {len(r)} entries, row 0 has {len(rows[0])}")
    return [[rational(x, f"{what}[{i}][{j}]") for j, x in enumerate(r)] for i, r in enumerate(rows)]


def stochastic(rows: Sequence[Sequence[object]], what: str = "mechanism") -> Matrix:
    """A row-stochastic exact matrix: entries >= 0, each row sums to exactly 1."""
    m = matrix(rows, what)
    for i, r in enumerate(m):
        if any(x < 0 for x in r):
            j = next(j for j, x in enumerate(r) if x < 0)
            raise NotStochastic(f"{what} is not row-stochastic: entry [{i}][{j}] = {r[j]} is negative")
        if sum(r) != 1:
            raise NotStochastic(f"{what} is not row-stochastic: row {i} sums to {sum(r)}, not 1")
    return m


def distribution(p: Sequence[object], length: int | None = None, what: str = "prior") -> list[Fraction]:
    """An exact probability vector (optionally of a given length)."""
    v = [rational(x, f"{what}[{i}]") for i, x in enumerate(p)]
    if length is not None and len(v) != length:
        raise InvalidDistribution(f"{what} has {len(v)} entries, expected {length}")
    if any(x < 0 for x in v) or sum(v) != 1:
        raise InvalidDistribution(f"{what} must be non-negative and sum to 1, got sum {sum(v)}")
    return v


def is_numpy(x: object) -> bool:
    """A numpy object: an array or a numpy scalar (such as ``np.float64(0.5)``)."""
    return type(x).__module__.split(".")[0] == "numpy"


def float_like(v: object) -> bool:
    """A float, or a numpy float scalar or array: a value that is refused unless ``exact="rationalize"``."""
    return isinstance(v, float) or (is_numpy(v) and getattr(getattr(v, "dtype", None), "kind", "") == "f")
