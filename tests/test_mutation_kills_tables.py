"""Pins udpm.claims.tables' rounding rule (``approximates``) at each of its bounds, exactly: the closest fraction
with the printed denominator (an integer's is 1, a decimal has none), the convergent bound |x - p/q| < 1/(2 q^2)
and the relative bound |x - p/q| <= ROUNDING_RELATIVE_GAP |x|; and the rounding erratum of a printed integer."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from udpm.claims.findings import Findings
from udpm.claims.tables import PrintedItem, approximates, compare_printed


@pytest.mark.parametrize(
    "printed, exact, rounding",
    [
        ("2/1.0", F(201, 100), False),  # a decimal denominator: no closest-fraction rule, though 2 is 0.5% off
        ("30", F(304, 10), True),  # 30.4: the closest integer, gap 0.4 < 1/2, 1.3% off
        ("7/10", F(707, 1000), False),  # the closest with denominator <= 10, 1% off, but 2 x 10^2 x 0.007 = 1.4
        ("13/2", F(53, 8), False),  # the convergent bound met with equality: 2 x 2^2 x 1/8 = 1 is not < 1
        ("1", F(50, 49), True),  # the relative bound met with equality: 1/49 = (1/50)(50/49)
        ("1", F(51, 50), True),  # 2% off the other way: 1/50 <= (1/50)(51/50)
    ],
)
def test_approximates_at_its_bounds(printed: str, exact: F, rounding: bool) -> None:
    assert approximates(printed, exact) is rounding


def test_a_printed_integer_rounds_with_denominator_one() -> None:
    item = PrintedItem("p", "k", "Table 1", ["1"], "", {})
    rec = Findings("c")
    compare_printed(rec, item, [F(101, 100)], n=1, alpha=F(1, 2), approximations_of="")
    (e,) = rec.errata
    assert e.cls == "rounding"
    assert e.explanation == (
        "printed 1 only approximates the exact 101/100 (= 1.010000): it is the closest fraction with denominator "
        "<= 1, a convergent (gap < 1/(2 x 1^2)) within 1/50 of the exact value"
    )
