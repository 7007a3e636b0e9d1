"""Each printed-table claim: the real check gets its expected status and grid; a false variant is
caught (refuted with a concrete counterexample, or an unclassified erratum naming the entry)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from experiments import figures
from experiments import grs2009 as ex09
from experiments import grs2011 as ex11
from experiments import gs2010 as ex10
from experiments import zlcn2013 as exz
from udpm.claims import tables
from udpm.claims.registry import UNCLASSIFIED, Context, Status

CTX = Context()
F = Fraction


@pytest.mark.parametrize(
    "check, status",
    [
        (ex11.figure_3, Status.VERIFIED),
        (ex11.appendix_b, Status.VERIFIED),
        (ex11.example_a1, Status.REPRODUCED),
        (ex09.figures_2_3, Status.VERIFIED),
        (ex10.table_1, Status.REFUTED),  # as printed: (a) is no mechanism, (a) != (b)(c); corrected, all hold
        (ex10.figure_1, Status.REPRODUCED),
        (exz.theorem_7_matrix, Status.REFUTED),  # 'a symmetric matrix M' is false as printed
    ],
)
def test_claim_gets_expected_status(check, status):
    res = check(CTX)
    assert res.status is status
    assert all(e.cls != UNCLASSIFIED for e in res.errata)


def test_fig3_is_the_unique_certified_optimum_with_lemma_5_10_remap():
    res = ex11.figure_3(CTX)
    assert res.values["X* unique"] == "True"
    assert res.values["Lemma 5.10 remap of T"] == "[0, 2, 2, 3, 4, 5]"
    assert res.values["optimal expected loss"] == "5*sqrt(5)/96 + 9*sqrt(3)/64 + 1/3 + 17*sqrt(2)/48"


@pytest.mark.parametrize(
    "knobs",
    [
        {"exponent": sympy.Integer(2)},
        {"exponent": sympy.Integer(1)},
        {"prior": (F(1, 4), F(1, 4), F(1, 4), 0, F(1, 4), 0)},
    ],
)
def test_fig3_wrong_user_is_refuted(knobs):
    res = ex11.figure_3(CTX, **knobs)
    assert res.status is Status.REFUTED and "> the certified optimum" in res.counterexample


def test_fig3_perturbed_mechanism_is_refuted():
    x = ex11.parsed(ex11.printed("grs2011", "fig3a").values)
    x[2][2], x[2][3] = x[2][3], x[2][2]
    res = ex11.figure_3(CTX, figure=x)
    assert res.status is Status.REFUTED and res.counterexample


APPB_OTHER_OPTIMUM = [
    [F(1, 3), F(1, 3), F(1, 3), F(0)],
    [F(2, 3), F(1, 6), F(1, 6), F(0)],
    [F(7, 12), F(1, 12), F(1, 3), F(0)],
    [F(7, 24), F(1, 24), F(2, 3), F(0)],
]


def test_appB_facts_and_non_uniqueness():
    res = ex11.appendix_b(CTX)
    assert res.values["vertex of (4)-(7)"] == "True"
    assert res.values["certified optimum"] == "1/3" and res.values["optimum unique"] == "False"
    assert res.values["negative entries of T^-1 X"]


def test_appB_best_remap_of_T_is_strictly_worse():
    res = ex11.appendix_b(CTX)
    assert res.values["best remap of T: expected loss (certified)"] == "17/48"
    assert res.values["best remap of T: Bayes remap loss"] == "17/48"
    assert res.values["best remap of T minus optimum"] == "1/48"
    (d,) = [d for d in res.decisions if "loses more than Figure 5(a)" in d.instance.covers]
    assert str(d.instance.kind) == "bounded" and str(d.outcome) == "holds"
    assert "best remap of T" in str(res.certificate)


def test_appB_legal_loss_is_refuted_where_T_is_as_good():
    res = ex11.appendix_b(CTX, loss_matrix=[[F(abs(i - j)) for j in range(4)] for i in range(4)])
    assert res.status is Status.REFUTED
    failed = {d.instance.covers for d in res.decisions if str(d.outcome) == "counterexample"}
    assert "every remap Y of T loses more than Figure 5(a) for this user" in failed
    assert "Figure 5(b) is an illegal loss function" in failed


def test_appB_midpoint_of_two_optima_is_not_a_vertex():
    x = ex11.parsed(ex11.printed("grs2011", "fig5a").values)
    mid = [[(a + b) / 2 for a, b in zip(r1, r2)] for r1, r2 in zip(x, APPB_OTHER_OPTIMUM)]
    res = ex11.appendix_b(CTX, figure=mid)
    assert res.status is Status.REFUTED and "not a vertex" in res.counterexample


def test_appB_truncated_geometric_is_derivable_hence_refuted():
    from udpm.core.mechanisms import truncated_geometric

    res = ex11.appendix_b(CTX, figure=truncated_geometric(3, F(1, 2)))
    assert res.status is Status.REFUTED and res.counterexample


def test_appB_non_dp_variant_is_refuted():
    x = ex11.parsed(ex11.printed("grs2011", "fig5a").values)
    x[1] = [F(5, 6), F(1, 12), F(1, 12), F(0)]
    res = ex11.appendix_b(CTX, figure=x)
    assert res.status is Status.REFUTED and "not 1/2-DP" in res.counterexample


def test_appB_non_mechanism_is_refuted():
    x = ex11.parsed(ex11.printed("grs2011", "fig5a").values)
    x[3] = [F(1, 6), F(1, 6), F(1, 6), F(0)]
    res = ex11.appendix_b(CTX, figure=x)
    assert res.status is Status.REFUTED and "is not a mechanism" in res.counterexample


def test_table1_part_that_is_not_a_mechanism_is_refuted():
    import dataclasses

    def fake(p, k):
        item = tables.printed(p, k)
        if k == "table1c":
            values = [list(r) for r in item.values]
            values[1] = ["0", "1/2", "0", "0"]
            return dataclasses.replace(item, values=values)
        return item

    res = ex10.table_1(CTX, source=fake)
    assert res.status is Status.REFUTED
    failed = [d.detail for d in res.decisions if str(d.outcome) == "counterexample"]
    assert any("Table 1(c) corrected (errata applied) is not an interaction" in d for d in failed)


# ---------------------------------------------------------------- the grid: what ran, per claim

GRIDS = [
    (ex11.figure_3, {"bounded": [(["1/2"], [5])], "table": [(["1/2"], [5])]}),
    (ex11.appendix_b, {"bounded": [(["1/2"], [3])], "table": [(["1/2"], [3])]}),
    (ex11.example_a1, {"table": [(["1/2"], [1])]}),
    (ex09.figures_2_3, {"bounded": [(["1/2"], [5])], "table": [(["1/2"], [5])]}),
    (ex10.table_1, {"bounded": [(["1/4"], [3])], "table": [(["1/4"], [3])]}),
    (ex10.appendix_b, {"bounded": [(["1/2"], [3])], "table": [(["1/2"], [3])]}),
    (ex10.figure_1, {"table": [(["1/5"], [None])]}),
    (ex11.figure_1a, {"table": [(["1/2"], [5])]}),
    (ex11.figure_1b, {"table": [(["1/2"], [5])]}),
    (ex11.figure_4, {"table": [(["1/2"], [5])]}),
    (exz.theorem_7_matrix, {"table": [([exz.ZLCN_ALPHA], [None])]}),
]


@pytest.mark.parametrize("check, grid", GRIDS, ids=[g[0].__name__ + "/" + g[0].__module__ for g in GRIDS])
def test_grid_matches_what_ran(check, grid):
    got = check(CTX).result().grid
    assert {k: [(r["alphas"], r["n"]) for r in rows] for k, rows in got.items()} == grid


@pytest.mark.parametrize("check", [g[0] for g in GRIDS], ids=[g[0].__name__ + "/" + g[0].__module__ for g in GRIDS])
def test_every_printed_matrix_property_is_an_instance(check):
    res = check(CTX)
    props = [d for d in res.decisions if "property" in d.instance.method or "remap" in d.instance.covers]
    assert props, "the check decides no property of a printed object"


def test_exA1_exact_laplace_loss():
    res = ex11.example_a1(CTX)
    assert res.values["Laplace: expected loss"] == "sqrt(2)/4"
    assert res.values["Laplace: Bayes threshold"] == "1/2"


def test_exA1_wrong_alpha_is_caught():
    res = ex11.example_a1(CTX, alpha=F(1, 3))
    assert res.status is Status.ERRATUM
    assert (res.errata[0].printed, res.errata[0].correct, res.errata[0].cls) == ("1/3", "1/4", UNCLASSIFIED)


def test_exA1_wrong_laplace_loss_is_caught():
    res = ex11.example_a1(CTX, laplace=lambda a: (sympy.Integer(0), sympy.sqrt(a)))
    assert res.status is Status.ERRATUM
    assert any(e.printed == "≈ .35" and e.cls == UNCLASSIFIED for e in res.errata)


def test_exA1_laplace_not_worse_is_refuted():
    res = ex11.example_a1(CTX, laplace=lambda a: (sympy.Integer(0), sympy.Rational(1, 4)))
    assert res.status is Status.REFUTED and "is not above the geometric loss" in res.counterexample


def test_grs2009_wrong_remap_is_refuted():
    rule = [["<0", "0"], ["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], [">5", "5"]]
    res = ex09.figures_2_3(CTX, rule=rule)
    assert res.status is Status.REFUTED and "not Figure 2" in res.counterexample
    assert any(e.entry == "Figure 2[0][1]" and e.cls == UNCLASSIFIED for e in res.errata)


def test_table1_classifies_every_difference():
    res = ex10.table_1(CTX)
    classes = {e.entry: e.cls for e in res.errata}
    assert classes["Table 1(a)[0][0]"] == "rounding"
    assert classes["Table 1(b), alpha in the label G_{3,alpha}, value"] == "typo"
    assert classes["Table 1(c)[0][3]"] == "extraction damage"
    assert res.values["G C* = X*"] == "True" and res.values["X* unique"] == "True"
    assert res.values["optimal worst-case loss"] == "168/415"


def test_table1_wrong_alpha_leaves_unclassified_differences():
    res = ex10.table_1(CTX, alpha=F(1, 2))
    assert any(e.cls == UNCLASSIFIED for e in res.errata)


def test_table1_wrong_loss_leaves_unclassified_differences():
    from udpm.core.users import squared_error

    res = ex10.table_1(CTX, loss=squared_error)
    assert any(e.cls == UNCLASSIFIED for e in res.errata)
    # with the loss changed, the printed table (errata applied) is no longer optimal
    assert res.status is Status.REFUTED and "bounded exact LP certificate" in res.counterexample


def test_fig1_caption_alpha_one_is_refuted():
    res = ex10.figure_1(CTX, caption=["1", "5"])  # Definition 1's pmf at alpha = 1 is 0 everywhere
    assert res.status is Status.REFUTED and "sum to 0, not 1" in res.counterexample


def test_exact_decimal():
    assert [ex10.exact_decimal(F(*p)) for p in ((1, 5), (1, 4), (5, 1), (-3, 40), (1, 3))] == [
        "0.2",
        "0.25",
        "5",
        "-0.075",
        "1/3",
    ]


def test_fig1_caption_alpha_outside_the_range_is_refuted():
    res = ex10.figure_1(CTX, caption=["1.2", "5"])
    assert res.status is Status.REFUTED and "outside gs2010's range [0, 1]" in res.counterexample


def test_fig1_pmf_with_a_wrong_constant_is_refuted():
    res = ex10.figure_1(CTX, pmf=lambda z, a: (1 - a) / (2 + a) * a ** abs(z))
    assert res.status is Status.REFUTED and "by the library" in res.counterexample


def test_fig1_values_are_computed_at_the_printed_constants():
    res = ex10.figure_1(CTX)
    assert res.values["realised alpha"] == "1/5" and res.values["mode"] == "5"
    assert res.values["Pr[output = 5]"] == "2/3" and res.values["total mass"] == "1"


def test_thm7_matrix_wrong_exponent_is_caught():
    res = exz.theorem_7_matrix(CTX, mechanism=lambda i, j, d: exz.range_restricted(i, j, d + 1))
    assert res.status is Status.REFUTED
    assert any("sums to" in d.detail for d in res.decisions if str(d.outcome) == "counterexample")
    assert any(e.entry.endswith("[0][0]") and e.cls == UNCLASSIFIED for e in res.errata)


def test_thm7_matrix_symmetry_is_refuted_and_a_false_claim_erratum():
    res = exz.theorem_7_matrix(CTX)
    (e,) = res.errata
    assert e.cls == "false claim" and e.printed == "symmetric" and "centrosymmetric" in e.correct
    assert res.status is Status.REFUTED and "M[0][1]" in res.counterexample and "M[1][0]" in res.counterexample


def test_thm7_matrix_not_centrosymmetric_is_refuted():
    def lopsided(i, j, d):
        v = exz.range_restricted(i, j, d)
        return 2 * v if (i, j) == (0, 0) else v

    res = exz.theorem_7_matrix(CTX, mechanism=lopsided)
    assert res.status is Status.REFUTED and res.counterexample


def test_latex_reader():
    a = exz.A
    assert exz.latex_value("\\frac{\\alpha}{\\alpha-1} \\cdot \\alpha^{-n+1}") == a / (a - 1) * a ** (1 - exz.N)
    with pytest.raises(Exception, match="cannot read"):
        exz.latex_value("\\sqrt{\\alpha}")


def test_figures_are_byte_deterministic(tmp_path):
    first = [p.read_bytes() for p in figures.render_all(tmp_path / "a")]
    second = [p.read_bytes() for p in figures.render_all(tmp_path / "b")]
    assert first == second and all(b.startswith(b"\x89PNG") for b in first)


def test_fig1_plotted_values_for_another_alpha_are_refuted():
    res = ex10.figure_1(CTX, values=lambda: ex10.figure_1_values(F(1, 4)))
    assert res.status is Status.REFUTED and "by the library" in res.counterexample


def test_fig1_plotted_values_that_are_not_geometric_are_refuted():
    def skewed():
        pmf = ex10.figure_1_values()
        pmf[7] *= 2
        return pmf

    res = ex10.figure_1(CTX, values=skewed)
    assert res.status is Status.REFUTED and "Pr[output = 7]" in res.counterexample
