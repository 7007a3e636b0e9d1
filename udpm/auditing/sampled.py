"""Audit a mechanism from samples of its sampler, with a stated confidence level.

``counts[i][r]`` is how often the sampler, run on the true count i = 0..n, returned output r.  Each cell
gets a Clopper-Pearson interval for M[i][r]; the intervals are simultaneous by a Bonferroni correction
over all cells and both tests below: each is a two-sided interval at level (1 - confidence) / (2 cells),
so all of them cover their true value at once with probability >= 1 - (1 - confidence) / 2.  Every
decision is a function of those intervals only: when the sampler is alpha-DP, "not alpha-DP" is reported
with probability <= 1 - confidence, and when it is exactly the reference mechanism (T(n, alpha) by
default), "not alpha-DP or not consistent with it" likewise.  (The union bound would hold with the cells
alone; the factor 2 for the two tests is conservative, and it keeps the measured rate of the
combined verdict clearly below the level: the cells of different rows are independent, so the bound
over the cells alone is nearly attained.)

* A violation of alpha-DP is reported only where the intervals exclude the bound:
  lower(M[i][r]) > upper(M[i'][r]) / alpha for adjacent rows i, i' (either order).
* Consistency with the reference: every cell of it lies inside its interval.

The bounds are exact rationals on the outer side of the Clopper-Pearson bounds, each certified by an arb
ball (:mod:`udpm.auditing.clopper_pearson`).  The comparisons with alpha are exact (Fractions), or, for an
irrational alpha = e^-r (a library's float epsilon), decided by arb balls; no float decides anything.

>>> audit_samples([[670, 160, 170], [330, 340, 330], [170, 165, 665]], "1/2", confidence="0.95").verdict
'consistent with 1/2-DP and with T(2, 1/2)'
>>> v = audit_samples([[340, 330, 330]] * 3, "1/2", confidence="0.95")
>>> v.verdict
'consistent with 1/2-DP; NOT consistent with T(2, 1/2) at confidence 19/20: 6 cells outside their intervals'
>>> v.outside
((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2))
>>> v = audit_samples([[900, 100], [100, 900]], "1/2", confidence="0.95")
>>> v.verdict
'NOT 1/2-DP at confidence 19/20: 2 violations (lower(M[0][0]) > upper(M[1][0]) / alpha, ...)'
>>> audit_samples([[3, -1], [1, 1]], "1/2")
Traceback (most recent call last):
    ...
udpm.errors.InvalidInput: counts[0][1] = -1 is not a non-negative int
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from udpm.auditing.alpha_inputs import exact_alpha
from udpm.auditing.clopper_pearson import MAX_PREC, START_PREC, ball, lower_bound, miss_probability, upper_bound
from udpm.core.validate import show, stochastic
from udpm.errors import HarnessError, InvalidAlpha, InvalidInput

#: The default confidence level of :func:`audit_samples`.
CONFIDENCE = Fraction(95, 100)
METHOD = "Clopper-Pearson, Bonferroni over all cells and both tests, bounds rounded outward and certified (arb)"
TESTS = 2  # the DP-violation test and the consistency test share the level


class InconclusiveSample(HarnessError):
    """A certified comparison stayed undecided at every precision tried; no verdict is given."""


# ---------------------------------------------------------------- alpha, exact or e^-r


@dataclass(frozen=True)
class Ratio:
    """alpha = e^-eps, either a Fraction (``value``) or the irrational e^-``rate`` (``rate`` rational > 0)."""

    value: Fraction | None = None
    rate: Fraction | None = None

    def __str__(self) -> str:
        if self.value is not None:
            return str(self.value)
        assert self.rate is not None
        shown = repr(float(self.rate)) if Fraction(float(self.rate)) == self.rate else str(self.rate)
        return f"e^-{shown}"

    def ball(self, prec: int):  # -> flint.arb, computed at ``prec`` bits
        import flint

        if self.value is not None:
            return ball(self.value, prec)
        assert self.rate is not None
        old = flint.ctx.prec
        try:
            flint.ctx.prec = prec
            return (-ball(self.rate, prec)).exp()
        finally:
            flint.ctx.prec = old

    def exceeds(self, x: Fraction) -> bool:
        """alpha > x, exactly (e^-r is irrational, so it never equals a rational x)."""
        if self.value is not None:
            return self.value > x
        if x <= 0:
            return True
        if x >= 1:
            return False
        from udpm.auditing.adapters import compare_exp_neg

        assert self.rate is not None
        return compare_exp_neg(self.rate, x) > 0


def ratio_of(alpha: object = None, eps: object = None) -> Ratio:
    """alpha as a :class:`Ratio`: ``alpha``/``eps`` as :func:`udpm.auditing.alpha_inputs.exact_alpha` takes them, or a
    numeric ``eps`` (int, Fraction or float, the float at its exact binary value), or ``alpha`` = sympy exp(-r)."""
    if isinstance(alpha, Ratio) and eps is None:
        return alpha
    if alpha is None and eps is not None and not isinstance(eps, str):
        if isinstance(eps, bool) or not isinstance(eps, int | float | Fraction) or not math.isfinite(eps) or eps <= 0:
            raise InvalidAlpha(f"eps={show(eps)} must be a positive finite number or a string such as 'ln 2'")
        return Ratio(rate=Fraction(eps))
    if eps is None and alpha is not None and type(alpha).__module__.startswith("sympy"):
        import sympy

        if isinstance(alpha, sympy.exp) and alpha.args[0].is_Rational and alpha.args[0] < 0:
            r = -alpha.args[0]
            return Ratio(rate=Fraction(int(r.p), int(r.q)))
        if isinstance(alpha, sympy.Rational):
            alpha = Fraction(int(alpha.p), int(alpha.q))
    return Ratio(value=exact_alpha(alpha, eps))


# ---------------------------------------------------------------- the verdict


@dataclass(frozen=True)
class CellInterval:
    """The simultaneous confidence interval [lower, upper] of M[row][column] from count / total draws."""

    row: int
    column: int
    count: int
    total: int
    lower: Fraction
    upper: Fraction

    def to_json(self) -> dict:
        return {"count": self.count, "total": self.total, "lower": str(self.lower), "upper": str(self.upper)}


@dataclass(frozen=True)
class SampledViolation:
    """lower(M[row][column]) > upper(M[other][column]) / alpha, rows adjacent: alpha-DP is excluded there."""

    row: int
    other: int
    column: int
    lower: Fraction
    upper: Fraction

    def __str__(self) -> str:
        return f"lower(M[{self.row}][{self.column}]) > upper(M[{self.other}][{self.column}]) / alpha"

    def to_json(self) -> dict:
        return {"row": self.row, "other": self.other, "column": self.column, "lower": str(self.lower),
                "upper": str(self.upper), "text": str(self)}  # fmt: skip


@dataclass(frozen=True)
class SampledVerdict:
    """The statistical audit of one sampler; ``violations`` empty means consistent with alpha-DP.

    ``outside`` lists the cells (row, column) of the reference mechanism that lie outside their intervals;
    it is None when no reference applies (counts with other than n + 1 columns and no reference given).
    """

    method: str
    confidence: Fraction
    alpha: Ratio
    reference_name: str
    cells: int
    intervals: tuple[tuple[CellInterval, ...], ...]
    violations: tuple[SampledViolation, ...]
    outside: tuple[tuple[int, int], ...] | None = field(default=None)

    @property
    def level(self) -> Fraction:
        """The stated false-alarm level, 1 - confidence."""
        return 1 - self.confidence

    @property
    def per_cell_level(self) -> Fraction:
        """The two-sided level of each cell's interval: the level over all cells and both tests."""
        return self.level / (TESTS * self.cells)

    @property
    def consistent_with_dp(self) -> bool:
        return not self.violations

    @property
    def consistent_with_reference(self) -> bool | None:
        return None if self.outside is None else not self.outside

    @property
    def verdict(self) -> str:
        a, c = self.alpha, self.confidence
        if self.violations:
            more = ", ..." if len(self.violations) > 1 else ""
            k = len(self.violations)
            return f"NOT {a}-DP at confidence {c}: {k} violation{'s' if k > 1 else ''} ({self.violations[0]}{more})"
        if self.outside is None:
            return f"consistent with {a}-DP at confidence {c} (no reference mechanism to compare with)"
        if not self.outside:
            return f"consistent with {a}-DP and with {self.reference_name}"
        k = len(self.outside)
        return (
            f"consistent with {a}-DP; NOT consistent with {self.reference_name} at confidence {c}: {k} "
            f"cell{'s' if k > 1 else ''} outside {'their intervals' if k > 1 else 'its interval'}"
        )

    def __str__(self) -> str:
        return self.verdict

    def to_dict(self) -> dict:
        return {
            "format": "udpm-sampled-audit/1",
            "method": self.method,
            "confidence": str(self.confidence),
            "level": str(self.level),
            "per_cell_level": str(self.per_cell_level),
            "alpha": str(self.alpha),
            "verdict": self.verdict,
            "consistent_with_dp": self.consistent_with_dp,
            "reference": self.reference_name,
            "consistent_with_reference": self.consistent_with_reference,
            "outside": None if self.outside is None else [list(c) for c in self.outside],
            "violations": [v.to_json() for v in self.violations],
            "intervals": [[c.to_json() for c in row] for row in self.intervals],
        }


def _confidence(confidence: object) -> Fraction:
    """A confidence level in (0, 1); a float is read as the decimal it prints as (0.95 is 19/20)."""
    try:
        c = Fraction(repr(confidence)) if isinstance(confidence, float) else Fraction(confidence)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError):
        raise InvalidInput(
            f"confidence={show(confidence)} is not a number such as '0.95' or Fraction(19, 20)"
        ) from None
    if isinstance(confidence, bool) or not 0 < c < 1:
        raise InvalidInput(f"confidence={show(confidence)} must be strictly between 0 and 1")
    return c


def _counts(counts: object) -> list[list[int]]:
    if isinstance(counts, (str, bytes)) or not hasattr(counts, "__len__"):
        raise InvalidInput(f"counts must be rows of non-negative ints, got {show(counts)}")
    rows: list[list[int]] = []
    for i, row in enumerate(counts):  # type: ignore[attr-defined]
        if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
            raise InvalidInput(f"counts[{i}] must be a row of non-negative ints, got {show(row)}")
        out = []
        for r, v in enumerate(row):
            if isinstance(v, bool) or not hasattr(v, "__index__") or int(v) < 0:
                raise InvalidInput(f"counts[{i}][{r}] = {show(v)} is not a non-negative int")
            out.append(int(v))
        rows.append(out)
    if len(rows) < 2:
        raise InvalidInput(f"counts needs rows for the results 0..n with n >= 1; got {len(rows)} row(s)")
    for i, row in enumerate(rows):
        if len(row) != len(rows[0]) or not row:
            raise InvalidInput(f"counts is ragged or empty: row {i} has {len(row)} entries, row 0 has {len(rows[0])}")
        if sum(row) == 0:
            raise InvalidInput(f"counts[{i}] has no draws")
    return rows


def _t_entry_ball(n: int, i: int, j: int, a, prec: int):  # -> flint.arb: T(n, alpha)[i][j]
    import flint

    old = flint.ctx.prec
    try:
        flint.ctx.prec = prec
        p = a ** abs(j - i)
        return p / (1 + a) if j in (0, n) else p * (1 - a) / (1 + a)
    finally:
        flint.ctx.prec = old


def _inside(cell: CellInterval, value: Fraction | None, n: int, ratio: Ratio) -> bool:
    if value is not None:
        return cell.lower <= value <= cell.upper
    prec = START_PREC
    while prec <= MAX_PREC:
        lo, hi = ball(cell.lower, prec), ball(cell.upper, prec)
        b = _t_entry_ball(n, cell.row, cell.column, ratio.ball(prec), prec)
        if b < lo or b > hi:
            return False
        if b >= lo and b <= hi:
            return True
        prec *= 2
    raise InconclusiveSample(f"could not place T[{cell.row}][{cell.column}] against its interval")  # pragma: no cover


def audit_samples(
    counts: object,
    alpha: object = None,
    *,
    eps: object = None,
    confidence: object = CONFIDENCE,
    reference: object = None,
) -> SampledVerdict:
    """Audit a sampler from its sample counts at a stated confidence (see the module docstring).

    Parameters
    ----------
    counts : rows of non-negative ints
        counts[i][r]: how often output r was drawn with the true count i = 0..n; rows may differ in size.
    alpha, eps :
        Exactly one: alpha as :func:`udpm.auditing.alpha_inputs.exact_alpha` takes it (or sympy ``exp(-r)``), or eps
        as ``"ln 2"`` or a number (a float at its exact binary value: alpha = e^-eps, irrational).
    confidence : Fraction, str or float
        The probability that all the intervals hold at once; the false-alarm level is 1 - confidence.
    reference : exact matrix, optional
        The mechanism the sampler claims to be; default T(n, alpha) when there are n + 1 outputs.

    Returns
    -------
    SampledVerdict
        ``.verdict``, ``.violations``, ``.intervals``, ``.outside``, ``.to_dict()``.
    """
    ratio = ratio_of(alpha, eps)
    conf = _confidence(confidence)
    rows = _counts(counts)
    n, width = len(rows) - 1, len(rows[0])
    cells = len(rows) * width
    tail = (1 - conf) / (TESTS * cells) / 2  # each of the two sides of each cell's interval
    intervals = tuple(
        tuple(
            CellInterval(i, r, k, sum(row), lower_bound(k, sum(row), tail), upper_bound(k, sum(row), tail))
            for r, k in enumerate(row)
        )
        for i, row in enumerate(rows)
    )
    violations = []
    for i in range(n):
        for r in range(width):
            for a, b in ((i, i + 1), (i + 1, i)):
                lo, hi = intervals[a][r].lower, intervals[b][r].upper
                # lower > upper / alpha  <=>  alpha > upper / lower (lower > 0)
                if lo > 0 and ratio.exceeds(hi / lo):
                    violations.append(SampledViolation(a, b, r, lo, hi))
    ref_values: list[list[Fraction | None]] | None
    if reference is not None:
        ref = stochastic(reference, "reference")
        if len(ref) != len(rows) or len(ref[0]) != width:
            raise InvalidInput(f"reference is {len(ref)}x{len(ref[0])}, the counts are {len(rows)}x{width}")
        ref_values, name = [list(r) for r in ref], "the reference mechanism"
    elif width == n + 1:
        if ratio.value is not None:
            from udpm.core.mechanisms import truncated_geometric

            ref_values = [list(r) for r in truncated_geometric(n, ratio.value)]
        else:
            ref_values = [[None] * width for _ in rows]
        name = f"T({n}, {ratio})"
    else:
        ref_values, name = None, "no reference"
    outside = None
    if ref_values is not None:
        outside = tuple(
            (i, r)
            for i in range(len(rows))
            for r in range(width)
            if not _inside(intervals[i][r], ref_values[i][r], n, ratio)
        )
    return SampledVerdict(METHOD, conf, ratio, name, cells, intervals, tuple(violations), outside)


# ---------------------------------------------------------------- the false-alarm probability, bounded exactly


def false_alarm_bound(m: Sequence[Sequence[object]], draws: int, confidence: object = CONFIDENCE) -> Fraction:
    """An exact upper bound on the probability that :func:`audit_samples` reports anything but consistency,
    for ``draws`` exact draws per row of the rational mechanism ``m`` audited against ``m`` itself.

    The union bound over the cells of each cell's exact miss probability (:func:`miss_probability`): the
    alarm needs some interval to miss its true value.  It is at most (1 - confidence) / 2 by construction.
    """
    x = stochastic(m, "mechanism")
    conf = _confidence(confidence)
    cells = len(x) * len(x[0])
    tail = (1 - conf) / (TESTS * cells) / 2
    return sum((miss_probability(p, draws, tail) for row in x for p in row), Fraction(0))


__all__ = [
    "CONFIDENCE",
    "METHOD",
    "CellInterval",
    "InconclusiveSample",
    "Ratio",
    "SampledVerdict",
    "SampledViolation",
    "audit_samples",
    "false_alarm_bound",
    "lower_bound",
    "miss_probability",
    "ratio_of",
    "upper_bound",
]
