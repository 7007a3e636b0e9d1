"""Each printed-table claim: the real check gets its expected status; a false variant is caught
(refuted or erratum) with a concrete counterexample."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from experiments import figures
from experiments import grs2009 as ex09
from experiments import grs2011 as ex11
from experiments import gs2010 as ex10
from experiments import zlcn2013 as exz
from udpm.claims import UNCLASSIFIED, Context, Status

CTX = Context()
F = Fraction


@pytest.mark.parametrize(
    "check, status",
    [
        (ex11.figure_3, Status.REPRODUCED),
        (ex11.appendix_b, Status.REPRODUCED),
        (ex11.example_a1, Status.REPRODUCED),
        (ex09.figures_2_3, Status.REPRODUCED),
        (ex10.table_1, Status.ERRATUM),
        (ex10.figure_1, Status.REPRODUCED),
        (exz.theorem_7_matrix, Status.REPRODUCED),
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
    assert res.status is Status.REFUTED and "> certified optimum" in res.counterexample


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


def test_appB_midpoint_of_two_optima_is_not_a_vertex():
    x = ex11.parsed(ex11.printed("grs2011", "fig5a").values)
    mid = [[(a + b) / 2 for a, b in zip(r1, r2)] for r1, r2 in zip(x, APPB_OTHER_OPTIMUM)]
    res = ex11.appendix_b(CTX, figure=mid)
    assert res.status is Status.REFUTED and "not a vertex" in res.counterexample


def test_appB_truncated_geometric_is_derivable_hence_refuted():
    from udpm.mechanisms import truncated_geometric

    res = ex11.appendix_b(CTX, figure=truncated_geometric(3, F(1, 2)))
    assert res.status is Status.REFUTED and res.counterexample


def test_appB_non_dp_variant_is_refuted():
    x = ex11.parsed(ex11.printed("grs2011", "fig5a").values)
    x[1] = [F(5, 6), F(1, 12), F(1, 12), F(0)]
    res = ex11.appendix_b(CTX, figure=x)
    assert res.status is Status.REFUTED and "not 1/2-DP" in res.counterexample


def test_exA1_exact_laplace_loss():
    res = ex11.example_a1(CTX)
    assert res.values["Laplace: expected loss"] == "sqrt(2)/4"
    assert res.values["Laplace: Bayes threshold"] == "1/2"


def test_exA1_wrong_alpha_is_caught():
    res = ex11.example_a1(CTX, alpha=F(1, 3))
    assert res.status is Status.ERRATUM and "printed 1/3, exact 1/4" in res.counterexample


def test_exA1_wrong_laplace_loss_is_caught():
    res = ex11.example_a1(CTX, laplace=lambda a: (sympy.Integer(0), sympy.sqrt(a)))
    assert res.status is Status.ERRATUM and ".35" in res.counterexample


def test_grs2009_wrong_remap_is_refuted():
    rule = [["<0", "0"], ["0", "0"], ["1", "1"], ["2", "2"], ["3", "3"], ["4", "4"], ["5", "5"], [">5", "5"]]
    res = ex09.figures_2_3(CTX, rule=rule)
    assert res.status is Status.REFUTED and "is not the (unique) optimal mechanism" in res.counterexample


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
    assert res.status is Status.ERRATUM and res.counterexample
    assert any(e.cls == UNCLASSIFIED for e in res.errata)


def test_table1_wrong_loss_leaves_unclassified_differences():
    from udpm.users import squared_error

    res = ex10.table_1(CTX, loss=squared_error)
    assert any(e.cls == UNCLASSIFIED for e in res.errata) and res.counterexample


def test_fig1_wrong_alpha_is_caught():
    res = ex10.figure_1(CTX, alpha=F(1, 4))
    assert res.status is Status.ERRATUM and res.counterexample == "printed 0.2, regenerated 1/4"


def test_thm7_matrix_wrong_exponent_is_caught():
    res = exz.theorem_7_matrix(CTX, mechanism=lambda i, j, d: exz.range_restricted(i, j, d + 1))
    assert res.status is Status.ERRATUM and "[0][0]" in res.counterexample


def test_latex_reader():
    a = exz.A
    assert exz.latex_value("\\frac{\\alpha}{\\alpha-1} \\cdot \\alpha^{-n+1}") == a / (a - 1) * a ** (1 - exz.N)
    with pytest.raises(Exception, match="cannot read"):
        exz.latex_value("\\sqrt{\\alpha}")


def test_figures_are_byte_deterministic(tmp_path):
    first = [p.read_bytes() for p in figures.render_all(tmp_path / "a")]
    second = [p.read_bytes() for p in figures.render_all(tmp_path / "b")]
    assert first == second and all(b.startswith(b"\x89PNG") for b in first)
