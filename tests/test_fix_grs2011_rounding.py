"""udpm.claims.tables.approximates: a printed fraction is 'rounding' only as strictly as the papers round (gs2010 Table
1):
the closest fraction of its denominator, a continued-fraction convergent (Legendre), within 2% of the exact value."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from udpm.claims.findings import Findings
from udpm.claims.tables import ROUNDING_RELATIVE_GAP, UNCLASSIFIED, PrintedItem, approximates, compare_printed

#: gs2010 Table 1(a) and 1(c): every printed fraction and the exact value it stands for (paper_tables/ERRATA.md).
GS2010_TABLE_1 = [
    ("2/3", F(272, 415)),
    ("5/17", F(489, 1660)),
    ("1/25", F(33, 830)),
    ("1/98", F(17, 1660)),
    ("1/6", F(68, 415)),
    ("7/11", F(264, 415)),
    ("7/44", F(66, 415)),
    ("2/49", F(17, 415)),
    ("9/11", F(68, 83)),
    ("2/11", F(15, 83)),
]


@pytest.mark.parametrize(("text", "exact"), GS2010_TABLE_1)
def test_every_gs2010_table_1_fraction_is_a_rounding(text, exact):
    assert approximates(text, exact)


@pytest.mark.parametrize(
    ("text", "exact", "why"),
    [
        ("1/2", F(131, 200), "closest with denominator <= 2, but 24% off and q^2 gap 0.62 >= 1/2"),
        ("1/2", F(272, 415), "the same for gs2010's own 0.6554"),
        ("5/6", F(272, 415), "not the closest fraction with denominator <= 6 (2/3 is)"),
        ("1", F(7, 5), "the closest integer to 1.4, 29% off"),
        ("1", F(21, 20), "the closest integer, 5% off"),
        ("3/10", F(489, 1660), "within 2%, but q^2 gap 0.54 >= 1/2 (the paper printed 5/17)"),
    ],
)
def test_coarser_fractions_are_not_roundings(text, exact, why):
    assert not approximates(text, exact), why


def test_the_relative_bound_and_the_convergent_bound_each_reject_on_their_own():
    assert abs(F(489, 1660) - F(3, 10)) <= ROUNDING_RELATIVE_GAP * F(489, 1660)  # 3/10: only Legendre rejects
    assert F(5, 100) * 2 * 1 < 1  # 1 for 21/20: only the relative bound rejects
    assert not approximates("3/10", F(489, 1660)) and not approximates("1", F(21, 20))


def test_compare_printed_leaves_a_coarse_fraction_unclassified():
    item = PrintedItem("p", "k", "T", ["1/2", "2/3"], "", {})
    rec = Findings("c")
    compare_printed(rec, item, [F(131, 200), F(272, 415)], n=1, alpha=F(1, 2), approximations_of="")
    assert [e.cls for e in rec.errata] == [UNCLASSIFIED, "rounding"]
