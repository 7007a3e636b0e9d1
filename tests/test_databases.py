"""Database-level claims (grs2011 Appendix C, grs2009 Theorem 6.3): derived statuses, recorded grids, false
variants refuted with concrete counterexamples, vacuous premises refused.  The averaging claims (Prop 6.1 / 6.2)
are tested in tests/test_averaging.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs import databases as dbs
from udpm.claims import Context
from udpm.errors import InvalidInput, VacuousPremise
from udpm.evidence import Status, grid_text
from udpm.instances import BOUNDED, TABLE, Outcome
from udpm.programs_database import DatabaseSpace, average_by_count

CTX = Context()
F = Fraction


@pytest.fixture(scope="module", params=[dbs.appendix_c, dbs.theorem_6_3], ids=["grs2011.appC", "grs2009.thm6.3"])
def figures(request):
    return request.param, request.param(CTX)


def test_figures_reproduced_and_impossibility_verified(figures):
    _, rec = figures
    res = rec.result()
    assert res.status is Status.VERIFIED and not res.errata
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/2: n=3" and grid_text(res.grid[str(TABLE)]) == "alpha=1/2: n=3"
    assert "0 <= eps < 1/8" in res.values["user 1 eps range"]
    smt = [d for d in rec.decided(BOUNDED) if d.instance.method == "smt-unsat"]
    assert len(smt) == 1 and smt[0].outcome is Outcome.HOLDS
    assert res.values["premises: alpha-DP X with remap 1 = user 1's optimum"].startswith("satisfiable")


def test_figures_false_variants(figures):
    check, _ = figures
    big_eps = check(CTX, eps=F(1, 5))
    assert big_eps.status is Status.REFUTED and "not unique" in big_eps.counterexample
    weak = check(CTX, alpha_smt=F(1, 8))
    assert weak.status is Status.REFUTED and "(1, 0, 0): (" in weak.counterexample


def test_figures_refuse_a_contradictory_premise(figures):
    check, _ = figures
    with pytest.raises(VacuousPremise):  # alpha = 2: x >= 2y and y >= 2x force rows of zeros, never stochastic
        check(CTX, alpha_smt=F(2))


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


def test_thm6_3_refuses_contradictory_delta_premises(monkeypatch):
    # Figure 5's rows {1}, {2} with an entry that no delta makes non-negative: the premises of the
    # "delta_1 = delta_2 = 1" entailment have no model, so its unsat must not be trusted
    rows_of = dbs.figure5_rows

    def broken(rows_a, rows_b):
        rows = rows_of(rows_a, rows_b)
        rows[0] = [dbs.sp.Integer(-1), *rows[0][1:]]
        return rows

    monkeypatch.setattr(dbs, "figure5_rows", broken)
    with pytest.raises(VacuousPremise, match="Figure 5 rows"):
        dbs.theorem_6_3(CTX)
