"""Database-level claims (grs2011 Appendix C, grs2009 Theorem 6.3): derived statuses, recorded grids, false
variants refuted with concrete counterexamples, vacuous premises refused.  The averaging claims (Prop 6.1 / 6.2)
are tested in tests/test_averaging.py."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
import sympy

from proofs.databases import appendix_c as appc
from proofs.databases import theorem6_3 as thm63
from udpm.claims.evidence import Status, grid_text
from udpm.claims.instances import BOUNDED, TABLE, Outcome
from udpm.claims.registry import Context
from udpm.claims.tables import printed
from udpm.errors import InvalidInput, VacuousPremise
from udpm.lp.database import DatabaseSpace, average_by_count

CTX = Context()
F = Fraction


@pytest.fixture(scope="module", params=[appc.appendix_c, thm63.theorem_6_3], ids=["grs2011.appC", "grs2009.thm6.3"])
def figures(request):
    return request.param, request.param(CTX)


#: grs2009's proof of Theorem 6.3 refers to Figures 4 and 5 as 'Figure 6.2' and to rows {1,3}, {2,3} as
#: 'databases {3} and {4}' (item thm6.3.references): three typos, nothing else differs.
THM63_TYPOS = [
    ("Figure 6.2", "Figure 4", "typo"),
    ("Figure 6.2", "Figure 5", "typo"),
    ("\\{3\\} and \\{4\\}", "\\{1, 3\\} and \\{2, 3\\}", "typo"),
]


def test_figures_reproduced_and_impossibility_verified(figures):
    check, rec = figures
    res = rec.result()
    if check is appc.appendix_c:
        assert res.status is Status.VERIFIED and not res.errata
    else:
        assert res.status is Status.ERRATUM and [(e.printed, e.correct, e.cls) for e in res.errata] == THM63_TYPOS
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions)
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
    e = thm63.parse_latex("\\frac{1}{12}(8 - \\delta_1)")
    assert e == (8 - thm63.D1) / 12
    assert thm63.parse_latex("3 + \\delta_1 \\leq 4\\delta_2") == 4 * thm63.D2 - 3 - thm63.D1


def test_thm6_3_refuses_contradictory_delta_premises(monkeypatch):
    # Figure 5's rows {1}, {2} with an entry that no delta makes non-negative: the premises of the
    # "delta_1 = delta_2 = 1" entailment have no model, so its unsat must not be trusted
    rows_of = thm63.figure5_rows

    def broken(rows_a, rows_b):
        rows = rows_of(rows_a, rows_b)
        rows[0] = [thm63.sp.Integer(-1), *rows[0][1:]]
        return rows

    monkeypatch.setattr(thm63, "figure5_rows", broken)
    with pytest.raises(VacuousPremise, match="Figure 5 rows"):
        thm63.theorem_6_3(CTX)


# ---------------------------------------------------------------- printed priors, equations and references


def variant(paper: str, key: str, k: int, new: str) -> dict:
    """A copy of printed item ``key`` with entry ``k`` replaced, as the checks' ``items`` parameter takes it."""
    item = printed(paper, key)
    values = list(item.values)
    values[k] = new
    return {key: dataclasses.replace(item, values=values)}


def test_appC_priors_and_equations_are_compared():
    rec = appc.appendix_c(CTX)
    covered = {d.instance.covers for d in rec.decided(TABLE)}
    assert {"Appendix C, running text (appC.priors)", "Appendix C, running text (appC.equations)"} <= covered


@pytest.mark.parametrize(
    "key, k, new, correct",
    [
        ("appC.equations", 0, "x_{\\{1\\},11} + x_{\\{1\\},12} = \\frac{5}{6}", "x_{1},11 + x_{1},12 = 11/12"),
        ("appC.equations", 3, "x_{\\{2\\},12} = \\frac{1}{3} - x_{\\{2\\},22}", "x_{2},12 = 1/12 - x_{2},22"),
        ("appC.equations", 4, "x_{\\{1\\},12} \\leq 2x_{\\{2\\},12}", "not implied: x_{1},12 <= 2*x_{2},12"),
        ("appC.equations", 8, "x_{\\{1,3\\},22} = \\frac{1}{6}", "x_{1,3},22 = 0"),
        ("appC.priors", 2, "2\\epsilon", "epsilon"),
        ("appC.priors", 3, "\\frac{1}{2} + \\epsilon", "1/2 - epsilon"),
    ],
)
def test_appC_false_printed_value_is_caught(key, k, new, correct):
    res = appc.appendix_c(CTX, items=variant("grs2011", key, k, new)).result()
    assert res.status is Status.ERRATUM
    (e,) = res.errata
    assert e.entry.endswith(f"[{k}]") and e.printed == new and e.correct.startswith(correct)
    assert e.cls == "unclassified"


@pytest.mark.parametrize(
    "key, k, new, correct",
    [
        ("thm6.3.priors", 0, "\\frac{1}{3}", "1/4"),
        ("thm6.3.priors", 2, "\\frac{1}{2} - \\epsilon", "epsilon"),
        ("thm6.3.references", 1, "Figure 4", "Figure 5"),
        ("thm6.3.references", 2, "\\{1, 2\\} and \\{2, 3\\}", "\\{1, 3\\} and \\{2, 3\\}"),
    ],
)
def test_thm6_3_false_printed_value_is_caught(key, k, new, correct):
    res = thm63.theorem_6_3(CTX, items=variant("grs2009", key, k, new)).result()
    caught = [e for e in res.errata if e.printed == new]
    assert len(caught) == 1 and caught[0].entry.endswith(f"[{k}]")
    assert caught[0].correct == correct and caught[0].cls == "unclassified"
    assert len(res.errata) == (4 if key == "thm6.3.priors" else 3)  # the three declared typos stay


def test_thm6_3_a_corrected_reference_matches():
    res = thm63.theorem_6_3(CTX, items=variant("grs2009", "thm6.3.references", 0, "Figure 4")).result()
    assert [(e.printed, e.correct) for e in res.errata] == [t[:2] for t in THM63_TYPOS[1:]]


def test_thm6_3_the_similar_argument_is_decided():
    rec = thm63.theorem_6_3(CTX)
    steps = {dict(d.instance.params).get("step"): d.outcome for d in rec.decided(BOUNDED)}
    assert steps["delta_1 = delta_2 = 1"] is Outcome.HOLDS and steps["delta_3 = delta_4 = 1"] is Outcome.HOLDS


def test_chain_relation_reader():
    (link,) = appc.chain_relations("x_{\\{1\\},12} \\leq 4x_{\\{2\\},12}")
    assert link == (sympy.Symbol("x_{1},12"), "<=", 4 * sympy.Symbol("x_{2},12"))
    assert len(appc.chain_relations("x_{\\{1\\},22} = x_{\\{2\\},22} = 0")) == 2
    assert appc.chain_relations("x_{\\{1\\},22} \\geq 0") is None
