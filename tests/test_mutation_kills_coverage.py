"""Pins how udpm.claims.coverage reads an all-n argument that starts after the smallest printed n at a printed
alpha point: the printed n below its start are decided by exact decisions at that point (a fixed alpha is the
whole part there), whether the argument decides the part whole or as one piece of it."""

from __future__ import annotations

import pytest

from udpm.claims.coverage import coverage, strength
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, Kind
from udpm.claims.statements import AlphaRange, NRange, PrintedClass

AT_HALF = PrintedClass(AlphaRange.parse("{1/2}"), "", NRange(1))
PART = "alpha = 1/2 (the printed value)"


def decisions(piece: dict[str, str], at_1: bool = True) -> list:
    rec = Findings("c")
    rec.decide(True, "", n=None, alpha="1/2", kind=ALL_N, method="induction from n = 2", n_from=2, **piece)
    if at_1:
        rec.decide(True, "", n=1, alpha="1/2", kind=BOUNDED, method="enumeration")
    return rec.decisions


@pytest.mark.parametrize("piece", [{}, {"case": "a"}], ids=["whole", "a piece"])
def test_an_argument_from_n_2_with_n_1_decided_at_the_point_is_all_n(piece: dict[str, str]) -> None:
    assert coverage(decisions(piece), AT_HALF).parts == ((PART, Kind.ALL_N),)
    assert coverage(decisions(piece, at_1=False), AT_HALF).parts == ((PART, Kind.BOUNDED),)


def test_without_a_part_only_a_symbolic_alpha_decides_the_n_below_the_start() -> None:
    argument, at_1 = decisions({})
    assert strength(argument, AT_HALF, [argument, at_1]) is Kind.BOUNDED
