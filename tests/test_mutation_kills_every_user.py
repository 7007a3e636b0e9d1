"""Pins udpm.auditing.every_user's exact membership of the legal cone at the symmetry condition: row i of a legal
user's W is symmetric about i (W[i][i - d] = W[i][i + d] for every d up to the nearer end)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from udpm.auditing.every_user import LEGAL, SIDED, in_cone


def with_row_2(row: list[int]) -> list[list[F]]:
    """W for n = 4, zero except row 2 (a zero row is in every cone)."""
    return [[F(v) for v in (row if i == 2 else [0] * 5)] for i in range(5)]


@pytest.mark.parametrize(
    "row, legal",
    [
        ([2, 1, 0, 1, 2], True),
        ([3, 1, 0, 1, 2], False),  # asymmetric at d = 2 only, the nearer end
        ([2, 1, 0, 2, 2], False),  # asymmetric at d = 1 only
    ],
)
def test_a_legal_row_is_symmetric_about_its_true_count(row: list[int], legal: bool) -> None:
    assert in_cone(with_row_2(row), SIDED)  # each row rises away from i: sided either way
    assert in_cone(with_row_2(row), LEGAL) is legal
