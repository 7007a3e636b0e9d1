"""Pins udpm.core.mechanisms' fast truncated geometric mechanism (one table of powers) to its definition,
:func:`truncated_geometric` (grs2011 Example 2.2), entry by entry."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from udpm.core.mechanisms import fast_truncated_geometric, truncated_geometric


@pytest.mark.parametrize("n", [1, 2, 3, 5])
@pytest.mark.parametrize("alpha", [F(1, 2), F(1, 3), F(3, 4)])
def test_the_fast_truncated_geometric_is_t(n: int, alpha: F) -> None:
    assert fast_truncated_geometric(n, alpha) == truncated_geometric(n, alpha)


def test_the_fast_truncated_geometric_takes_any_exact_alpha() -> None:
    assert fast_truncated_geometric(2, "1/2") == truncated_geometric(2, F(1, 2))
