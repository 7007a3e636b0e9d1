"""paper_tables/printed/zlcn2013.json: every transcribed value is compared, and a false printed value is caught.

Each comparison is fed a false variant of the printed text through the check's parameters (zlcn2013 Theorem 3's
proof sketch, Lemma 2's proof, Sections 3.2.1-3.2.2); the printed text itself gives only the declared errata.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from proofs.countrange import lemma2 as c
from proofs.countrange import printed_consumers as pc
from proofs.countrange import theorem3 as t3
from udpm.claims.instances import TABLE, UNCLASSIFIED
from udpm.claims.registry import Context, Status
from udpm.claims.tables import printed
from udpm.errors import ExpectationsError

CTX = Context()
BOUNDS = list(printed("zlcn2013", "thm3.bounds").values)
SYMBOLIC = c.SYMBOLIC


def test_every_printed_relation_of_theorem_3_holds_for_every_alpha():
    fails, witnesses = t3.bounds_failures(BOUNDS, t3.xhat, t3.yhat, SYMBOLIC, CTX.solver_timeout)
    assert fails == [] and sorted(witnesses) == ["0", "1", "2", "3", "4"]
    assert witnesses["4"].startswith("a=1/2")  # the premises of the last step are satisfiable


@pytest.mark.parametrize(
    "k, false",
    [
        (0, "t_1 = \\alpha^2 t_0"),
        (1, "t_2 = t_1"),
        (2, "t_0 + \\frac{\\alpha - 1}{\\alpha} \\leq \\alpha t_1 = \\alpha t_0"),
        (3, "t_0 \\geq 1/(\\alpha + 1)"),
        (4, "t_0 \\leq 1/(\\alpha + 1)^3"),
    ],
)
def test_a_false_relation_is_caught(k, false):
    bounds = [*BOUNDS[:k], false, *BOUNDS[k + 1 :]]
    fails, _ = t3.bounds_failures(bounds, t3.xhat, t3.yhat, SYMBOLIC, CTX.solver_timeout)
    assert [f[0] for f in fails] == [k] and "a DP joint mechanism on counts" in fails[0][1]


def test_theorem_3_records_a_false_relation_as_an_unclassified_erratum():
    rec = t3.thm3(CTX, n_max=3, bounds=[*BOUNDS[:3], "t_0 \\geq 1/(\\alpha + 1)", BOUNDS[4]])
    bad = [e for e in rec.errata if e.entry == "Theorem 3, proof sketch (running text)[3]"]
    assert rec.status is Status.ERRATUM and len(bad) == 1 and bad[0].cls == UNCLASSIFIED
    assert bad[0].printed == "t_0 \\geq 1/(\\alpha + 1)" and bad[0].correct.startswith("not implied")


def test_theorem_3_as_printed_has_only_the_extraction_damage():
    rec = t3.thm3(CTX, n_max=3)
    assert rec.status is Status.ERRATUM, rec.counterexample
    assert [(e.entry, e.cls) for e in rec.errata] == [
        ("Theorem 3, proof sketch[raw][0]", "extraction damage"),
        ("Theorem 3, proof sketch[raw][1]", "extraction damage"),
    ]
    assert {d.instance.params for d in rec.decided(TABLE)} == {
        (("table", "thm3.tables"),),
        (("table", "thm3.bounds"),),
        (("table", "xhat, yhat, rho"),),
    }
    assert rec.values["printed bounds [3], [4] contradict for every zlcn alpha > 1"] == "yes"


def test_a_relation_the_declaration_does_not_name_is_unclassified():
    # a declaration classifies one printed text; a false relation elsewhere stays unclassified
    item = printed("zlcn2013", "thm3.bounds")
    (e,) = c.declared_errata(item, [("[3]", "t_0 \\geq 1", "x")])
    assert e.cls == UNCLASSIFIED


def test_the_tables_as_printed_match_every_cell():
    wrong, damaged = t3.thm3_tables_check()
    assert wrong == [] and [d[0] for d in damaged] == ["[raw][0]", "[raw][1]"]


def test_a_wrong_cell_or_name_in_the_tables_is_caught():
    values = copy.deepcopy(printed("zlcn2013", "thm3.tables").values)
    values[1][0][0] = "t_0 + \\frac{\\alpha-1}{\\alpha+1}"  # mu = 0, cell (0, 0)
    values[1][1][3] = "\\alpha t_1"  # mu = 1, cell (1, 1) is t_1
    values[0][1][3] = "t_{1,0,1}"
    wrong, _ = t3.thm3_tables_check(values)
    assert [w[0] for w in wrong] == ["[1][0][0]", "[0][1][3]", "[1][1][3]"]
    assert wrong[0][2] == "(alpha*t0 + alpha - 1)/alpha" and wrong[2][2] == "t1"


def test_an_undamaged_array_gives_no_extraction_errata():
    values = printed("zlcn2013", "thm3.tables").values
    rows = " \\\\ ".join(f"{i} & " + " & ".join(values[1][i]) for i in range(2))
    raw = "\\begin{array}{c|cc|cc|cc} & 0 & 1 & 0 & 1 & 0 & 1 \\\\ \\hline " + rows + " \\end{array}"
    assert t3.thm3_tables_check(raw=raw) == ([], [])


def test_lemma2_sum_is_compared():
    assert c.lemma2_sum_check(printed("zlcn2013", "lemma2.sum").values)[0]
    assert not c.lemma2_sum_check("\\frac{\\alpha}{(\\alpha+1)^2}")[0]


def test_lemma2_records_a_false_sum_as_an_erratum():
    rec = c.lemma2(CTX, printed_sum="\\frac{\\alpha}{(\\alpha+1)^2}")
    (e,) = rec.errata
    assert rec.status is Status.ERRATUM and e.cls == UNCLASSIFIED and e.correct.startswith("1/(a + 1)**2")


def test_printed_vectors_are_the_only_optima():
    assert t3.printed_vectors_check(CTX) == []


def test_swapped_vectors_are_caught():
    xh, yh = (list(printed("zlcn2013", k).values) for k in ("xhat", "yhat"))
    out = t3.printed_vectors_check(CTX, vectors={"xhat": yh, "yhat": xh})
    assert [o[0] for o in out] == ["xhat", "yhat"]
    assert out[0][2].startswith("at zlcn alpha=2 the only optimum is (1/3, 2/3, 2/3, 1/3)")


def test_a_false_rho_is_caught():
    rho = list(printed("zlcn2013", "rho").values)
    out = t3.printed_vectors_check(CTX, rho=["\\rho(0)/\\rho(1) = 1", "\\rho(2)/\\rho(1) = 1", rho[2]])  # uniform
    assert [o[0] for o in out] == ["yhat"] and "the printed prior rho" in out[0][3]


def test_rho_from_the_printed_relations():
    assert pc.paper_rho(F(1, 2)) == [F(4, 9), F(1, 9), F(2, 9), F(2, 9)]  # (A^2, 1, A, A)/(A+1)^2 at A = 2
    with pytest.raises(ExpectationsError, match="do not fix rho"):
        pc.printed_rho_weights(["\\rho(0)/\\rho(1) = \\alpha^2", "\\rho(3) = \\rho(2)"])
