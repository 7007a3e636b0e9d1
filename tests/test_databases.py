"""Database-level claims (grs2011 Section 6 / Appendix C, grs2009 Section 6): derived statuses, recorded grids,
false variants refuted with concrete counterexamples, vacuous premises refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from proofs import databases as dbs
from udpm.claims import Context
from udpm.errors import InvalidInput, VacuousPremise
from udpm.evidence import Status, grid_text
from udpm.instances import BOUNDED, SAMPLED, TABLE, Outcome
from udpm.programs_database import DatabaseSpace, average_by_count

CTX = Context()
F = Fraction


@pytest.fixture(scope="module", params=[dbs.prop_6_1, dbs.prop_6_2], ids=["grs2011.prop6.1", "grs2009.prop6.2"])
def averaging(request):
    return request.param, request.param(CTX)


def test_averaging_verified_by_farkas_with_sampled_cross_checks(averaging):
    _, rec = averaging
    res = rec.result()
    assert res.status is Status.VERIFIED
    # the grid is what ran: every space n = 1..3 at the fixed alpha grid, bounded and sampled alike
    want = "alpha=1/4, 1/2, 2/3: n<=3"
    assert grid_text(res.grid[str(BOUNDED)]) == want and grid_text(res.grid[str(SAMPLED)]) == want
    bounded = rec.decided(BOUNDED)
    assert len(bounded) == len(dbs.SPACES) * len(dbs.ALPHAS)
    assert {d.instance.n for d in bounded} == {1, 2, 3} and {d.instance.alpha for d in bounded} == {"1/4", "1/2", "2/3"}
    sampled = rec.decided(SAMPLED)
    assert any(d.instance.n == 1 for d in sampled)
    samples = [dict(d.instance.params)["sample"] for d in sampled]
    assert len(samples) == len(sampled)  # every sampled instance is identified


def test_averaging_stricter_alpha_is_refuted_with_a_mechanism(averaging):
    check, _ = averaging
    bad = check(CTX, alpha_claimed=F(3, 4))
    assert bad.status is Status.REFUTED
    assert "averages to" in bad.counterexample and "not 3/4-DP" in bad.counterexample


def test_farkas_multipliers_and_their_failure():
    space = DatabaseSpace.of(3, 2, (1,))
    assert dbs.averaging_farkas(space, F(1, 2), F(1, 2))[0] is True
    ok, witness = dbs.averaging_farkas(space, F(1, 2), F(2, 3))
    assert ok is False and "0: ['1/4'" in witness


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
