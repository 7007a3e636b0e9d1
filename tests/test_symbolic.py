"""grs2011 Example 2.3 / grs2009 Example 2.2, grs2011 Theorem A.2, grs2009 Section 6.1: real statements are
proved, false variants are refuted with a concrete counterexample."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp
import z3

from proofs.geometric import laplace_vs_geometric as lvg
from proofs.geometric import post_processing_example as ppe
from proofs.geometric import rounded_laplace as rl
from proofs.geometric import symbolic as sy
from udpm.claims.evidence import grid_text
from udpm.claims.instances import ALL_N, BOUNDED, TABLE
from udpm.claims.registry import Context, Status
from udpm.claims.tables import printed
from udpm.errors import VacuousPremise

CTX = Context(quick=True)


def test_latex_reader():
    assert sy.latex_expr("\\frac{1+\\alpha}{2\\sqrt{\\alpha}}") == (1 + sy.a) / (2 * sp.sqrt(sy.a))
    e = sy.latex_expr("\\alpha^{(n+1)/2}/(1 + \\alpha)")
    assert e.subs({sy.a: sp.Rational(1, 2), sy.nn: 3}) == sp.Rational(1, 6)


def test_ex23_and_ex22_proved_inside_refuted_at_alpha_one_with_grid():
    """Inside (0, 1) both are proved for every odd n (every instance there holds); the printed [0, 1] ends:
    alpha = 0 holds (all-n), alpha = 1 is refuted (tests/test_ends_grs.py), so the status is refuted."""
    for check in (ppe.post_processing_grs2011, ppe.post_processing_grs2009):
        rec = check(CTX)
        assert rec.status is Status.REFUTED and "alpha=1" in rec.counterexample
        assert all(str(d.outcome) == "holds" for d in rec.decisions if d.instance.alpha != "1")
        inside = [d for d in rec.decided(ALL_N) if d.instance.alpha == sy.SYMBOLIC]
        assert len(inside) == 2
        ends = "; 0: n in {1, 3}" if check is ppe.post_processing_grs2009 else "; 0, 1: n in {1, 3}"
        inside = "alpha=1/2, 1/3, 1/4, 9/10, 1/100: n in {1, 3, 5, 7, 9}"
        assert grid_text(rec.result().grid[str(BOUNDED)]) == inside + ends
        ends = ", 1" if check is ppe.post_processing_grs2009 else ", 0, 1"  # grs2009's alpha = 0: n = 1, 3
        assert grid_text(rec.result().grid[str(ALL_N)]) == f"alpha=symbolic alpha in (0,1){ends}: all n"


def test_ex23_wrong_exponent_refuted():
    r = ppe.post_processing_grs2011(CTX, remapped=lambda al, n: al ** ((n - 1) / 2) / (1 + al))
    assert r.status is Status.REFUTED and "alpha=1/2, n=1" in r.counterexample


def test_ex22_wrong_face_value_refuted():
    r = ppe.post_processing_grs2009(CTX, face=lambda al, n: al / (1 + al))
    assert r.status is Status.REFUTED and "face value" in r.counterexample


def test_thmA2_factor_derived_and_printed_decimal_matches():
    r = rl.rounded_laplace(CTX)
    # alpha = 1 (eps = 0) ends the printed (0, 1]: the Laplace density is 0 there, refuted (tests/test_ends_grs.py)
    assert r.status is Status.REFUTED and r.counterexample.startswith("n=all alpha=1 ")
    assert all(str(d.outcome) == "holds" for d in r.decisions if d.instance.alpha != "1")
    derived = sp.sympify(r.values["Pr[Delta'=i]/Pr[Delta=i], i != 0 (derived)"], locals={"alpha": sy.a})
    assert sp.simplify(derived - rl.theorem_a2_factor(sy.a)) == 0
    assert [d.instance.alpha for d in r.decided(TABLE)] == ["1/2"]
    assert r.values["zero cell: premise witness"].startswith("s = ")


def test_thmA2_factor_at_least_one_exact():
    ok, why = rl.factor_at_least_one(rl.theorem_a2_factor(sy.a))
    assert ok and "(s - 1)**2" in why
    assert not rl.factor_at_least_one(sy.a)[0]  # alpha itself is < 1 on (0, 1)


def test_thmA2_wrong_factor_refuted():
    r = rl.rounded_laplace(CTX, ratio=lambda al: (1 + al) / (2 * al))
    assert r.status is Status.REFUTED and "alpha=1/2" in r.counterexample


def test_thmA2_printed_decimal_checked(monkeypatch):
    from udpm.claims.tables import PrintedItem, printed

    def altered(paper, key):
        item = printed(paper, key)
        return (
            PrintedItem(item.paper, item.key, item.where, "1.07", item.note, item.errata)
            if key.endswith("factor")
            else item
        )

    monkeypatch.setattr(rl, "printed", altered)
    r = rl.rounded_laplace(CTX)
    table = r.decided(TABLE)
    assert r.status is Status.REFUTED and [str(d.outcome) for d in table] == ["counterexample"]
    assert "printed factor 1.07" in table[0].detail


def test_thmA2_zero_cell_vacuous_premise():
    s = sp.Symbol("s", positive=True)
    assert rl.decide_gap(1 - s, s, 5)[0]
    with pytest.raises(VacuousPremise):
        rl.premise_witness([z3.Real("s") > 1, z3.Real("s") < 0], 5, "contradiction")


def test_sec61_proved_inside_with_the_loss_name_as_erratum():
    r = lvg.laplace_vs_geometric(CTX)
    # every instance inside (0, 1) holds; the one erratum is the undefined name l_err for the binary loss l_bin (a
    # typo); the printed ends alpha = 0 (Laplace undefined) and alpha = 1 (both densities 0) refute the claim
    # (tests/test_ends_grs.py)
    assert r.status is Status.REFUTED
    assert all(str(d.outcome) == "holds" for d in r.decisions if d.instance.alpha not in ("0", "1"))
    assert [(e.printed, e.correct, e.cls) for e in r.errata] == [("l_{err}", "l_{bin}", "typo")]
    assert r.values["Laplace, optimal remap (threshold 1/2)"] == "sqrt(alpha)/2"
    parts = {dict(d.instance.params)["part"] for d in r.decided(ALL_N)}
    assert {"Laplace: best remap", "Laplace: threshold 1/2 attains it"} <= parts
    assert "alpha=" in r.values["DP premise witness"]


def test_sec61_threshold_loss_minimised_at_half():
    loss, ok, _ = lvg.threshold_loss()
    t = sp.Symbol("t", nonnegative=True)
    assert ok
    q = sp.Rational(1, 4)
    assert loss.subs({t: sp.Rational(1, 3), sy.a: q}) > loss.subs({t: sp.Rational(1, 2), sy.a: q})


def test_sec61_face_value_laplace_refuted():
    r = lvg.laplace_vs_geometric(CTX, laplace_loss=lambda al: sp.sqrt(al))
    assert r.status is Status.REFUTED and "alpha=1/4" in r.counterexample


def test_sec61_wrong_geometric_refuted():
    r = lvg.laplace_vs_geometric(CTX, geometric_loss=lambda al: 2 * al / (1 + al))
    assert r.status is Status.REFUTED and "alpha=1/4" in r.counterexample


@pytest.mark.parametrize("name, errata", [("l_{bin}", []), ("l_{sq}", [("l_{sq}", "l_{bin}", "unclassified")])])
def test_sec61_printed_loss_name_is_compared(name, errata):
    item = dataclasses.replace(printed("grs2009", "sec6.1.loss"), values=name)
    r = lvg.laplace_vs_geometric(CTX, loss_item=item)
    assert [(e.printed, e.correct, e.cls) for e in r.errata] == errata
    assert r.status is Status.REFUTED  # at the printed ends, whatever the loss name (tests/test_ends_grs.py)
