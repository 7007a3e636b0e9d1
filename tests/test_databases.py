"""Database-level claims (grs2011 Section 6 / Appendix C, grs2009 Section 6): real statuses, false variants."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs import databases as dbs
from udpm.claims import Context, Status
from udpm.errors import InvalidInput
from udpm.programs_database import DatabaseSpace, average_by_count

CTX = Context()


@pytest.mark.parametrize("check", [dbs.prop_6_1, dbs.prop_6_2])
def test_averaging_and_a_stricter_alpha(check):
    assert check(CTX).status is Status.VERIFIED
    bad = check(CTX, alpha_claimed=Fraction(3, 4))
    assert bad.status is Status.REFUTED
    assert "oblivious optimum" in bad.counterexample or "-DP: x[" in bad.counterexample


@pytest.mark.parametrize("check", [dbs.appendix_c, dbs.theorem_6_3])
def test_figures_reproduced_and_false_variants(check):
    res = check(CTX)
    assert res.status is Status.REPRODUCED
    assert "0 <= eps < 1/8" in res.values["user 1 eps range"]
    big_eps = check(CTX, eps=Fraction(1, 5))
    assert big_eps.status is Status.REFUTED and "not unique" in big_eps.counterexample
    weak = check(CTX, alpha_smt=Fraction(1, 8))
    assert weak.status is Status.REFUTED and "(1, 0, 0): (" in weak.counterexample


def test_space_and_averaging():
    space = DatabaseSpace.of(3, 2, (1, 2))
    assert len(space.databases) == 9 and len(space.with_count(1)) == 4
    x = {d: [Fraction(1, 3)] * 3 for d in space.databases}
    assert average_by_count(space, x) == [[Fraction(1, 3)] * 3] * 3
    with pytest.raises(InvalidInput):
        DatabaseSpace.of(2, 2, (0, 1))


def test_latex_parser_reads_figure5_cells():
    e = dbs.parse_latex("\\frac{1}{12}(8 - \\delta_1)")
    assert e == (8 - dbs.D1) / 12
    assert dbs.parse_latex("3 + \\delta_1 \\leq 4\\delta_2") == 4 * dbs.D2 - 3 - dbs.D1
