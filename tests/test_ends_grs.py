"""The closed ends of the printed alpha ranges of grs2011 Example 2.3, grs2009 Example 2.2, grs2009 Section 6.1,
grs2011 Theorem A.2 (proofs/geometric/rounded_laplace.py) and grs2009 Theorems 3.1, 6.1
(proofs/boundary/universality.py):
each end is decided by an instance at that alpha; where it holds, a false variant at that end (through the check's own
parameters) is refuted there; where it fails, the exact witness is recorded."""

from __future__ import annotations

from fractions import Fraction as F

import sympy as sp

from proofs.boundary.universality import (
    grs2009_geometric_at_one,
    grs2011_one_geometric,
    range_n_uniqueness_at_one,
    theorem_3_1_at_one,
    uniform_binary_loss_at_one,
)
from proofs.geometric import laplace_vs_geometric as lvg
from proofs.geometric import post_processing_example as ppe
from proofs.geometric import rounded_laplace as rl
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Status

CTX = Context(quick=True)


def _at(rec, alpha, part=None):
    """The decisions at one end (and one part), as {(kind, n, part): outcome}."""
    out = {}
    for d in rec.decisions:
        p = dict(d.instance.params).get("part")
        if d.instance.alpha == alpha and (part is None or p == part):
            out[(str(d.instance.kind), d.instance.n, p)] = d
    return out


def _only_at_zero(printed):
    """A false variant of a printed formula: equal to it inside (0, 1) (and at 1), wrong only at alpha = 0."""
    return lambda al, *n: sp.Integer(1) if al == 0 else printed(al, *n)


# ---------------------------------------------------------------- grs2011 Example 2.3 / grs2009 Example 2.2


def test_ex23_holds_at_zero_for_every_odd_n_and_is_refuted_at_one_by_the_face_value():
    rec = ppe.post_processing_grs2011(CTX)
    res = rec.result()
    assert res.status is Status.REFUTED
    assert res.coverage.undecided == []  # at alpha = 1 the remapped loss holds; the face value refutes
    zero = _at(rec, "0")
    assert {k for k in zero if k[0] == str(ALL_N)} == {
        ("all-n", None, "face value"),
        ("all-n", None, "after the 0/n remap"),
    }
    assert all(d.outcome is Outcome.HOLDS for d in zero.values()) and len(zero) == 6  # all-n + n = 1, 3
    one = _at(rec, "1")
    face = one[("all-n", None, "face value")]
    assert face.outcome is Outcome.COUNTEREXAMPLE
    assert "1-geometric mechanism (always the answer 0)" in face.detail and "loss is 1/2, stated 1" in face.detail
    assert one[("all-n", None, "after the 0/n remap")].outcome is Outcome.HOLDS  # 1/2 as printed
    assert one[("bounded", 3, "face value")].outcome is Outcome.COUNTEREXAMPLE
    assert "alpha=1" in rec.counterexample and "face value" in rec.counterexample
    assert rec.values["corrected_statement"].startswith("alpha in [0, 1)")


def test_ex23_false_variant_wrong_only_at_zero_is_refuted_at_zero():
    face = ppe._printed_loss("grs2011", "ex2.3.face-value")
    rec = ppe.post_processing_grs2011(CTX, face=_only_at_zero(face))
    zero = _at(rec, "0", "face value")
    assert zero[("all-n", None, "face value")].outcome is Outcome.COUNTEREXAMPLE
    assert "loss is 0, stated 1" in zero[("all-n", None, "face value")].detail
    assert zero[("bounded", 1, "face value")].outcome is Outcome.COUNTEREXAMPLE
    # inside (0, 1) the variant is the printed formula: nothing else changes there
    inside = [d for d in rec.decisions if d.instance.alpha not in ("0", "1")]
    assert all(d.outcome is Outcome.HOLDS for d in inside)


def test_ex23_a_remapped_loss_wrong_at_one_is_refuted_there():
    remapped = ppe._printed_loss("grs2011", "ex2.3.remapped")
    rec = ppe.post_processing_grs2011(CTX, remapped=lambda al, n: sp.Integer(1) if al == 1 else remapped(al, n))
    d = _at(rec, "1")[("all-n", None, "after the 0/n remap")]
    assert d.outcome is Outcome.COUNTEREXAMPLE and "loss is 1/2, stated 1" in d.detail


def test_ex22_holds_at_zero_and_is_refuted_at_one_where_the_printed_pmf_is_zero():
    rec = ppe.post_processing_grs2009(CTX)
    res = rec.result()
    assert res.status is Status.REFUTED
    zero = _at(rec, "0")  # proofs.boundary.geometric.post_processing_at_zero: n = 1, 3
    assert set(zero) == {("bounded", 1, None), ("bounded", 3, None)}
    assert all(d.outcome is Outcome.HOLDS for d in zero.values())
    one = _at(rec, "1")
    assert set(one) == {("all-n", None, "face value"), ("all-n", None, "after the 0/n remap")}
    assert all(d.outcome is Outcome.COUNTEREXAMPLE for d in one.values())
    assert "face value loss is 0, stated 1" in one[("all-n", None, "face value")].detail
    assert "loss is 0, stated 1/2" in one[("all-n", None, "after the 0/n remap")].detail
    assert "no distribution" in one[("all-n", None, "face value")].detail


def test_ex22_false_variant_wrong_only_at_zero_is_refuted_at_zero():
    remapped = ppe._printed_loss("grs2009", "ex2.2.remapped")
    rec = ppe.post_processing_grs2009(CTX, remapped=_only_at_zero(remapped))
    zero = _at(rec, "0")
    assert [d.outcome for d in zero.values()] == [Outcome.COUNTEREXAMPLE] * 2
    assert all("stated (0, 1)" in d.detail for d in zero.values())


def test_the_symbolic_odd_n_losses_at_zero_for_grs2009_formula():
    """The all-odd-n form at alpha = 0 (the identity, 0^0 = 1), reusable for grs2009: both losses 0 as printed."""
    rec = Findings("grs2009.ex2.2")
    face, remapped = ppe._printed_loss("grs2009", "ex2.2.face-value"), ppe._printed_loss("grs2009", "ex2.2.remapped")
    ppe.post_processing_at_ends(rec, face, remapped, ppe.GRS2009_AT_ZERO)
    assert {d.instance.kind for d in rec.decisions} == {ALL_N, BOUNDED}
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions)


# ---------------------------------------------------------------- grs2011 Theorem A.2


def test_thmA2_is_refuted_at_alpha_one_where_the_laplace_density_vanishes():
    rec = rl.rounded_laplace(CTX)
    assert rec.status is Status.REFUTED
    one = _at(rec, "1")
    exists = one[("all-n", None, "the ln(1/alpha)-Laplace mechanism is a distribution")]
    assert exists.outcome is Outcome.COUNTEREXAMPLE and "integrates to 0 over R" in exists.detail
    zero_cell = one[("all-n", None, "Pr[Delta'=0] < Pr[Delta=0]")]
    assert zero_cell.outcome is Outcome.COUNTEREXAMPLE
    assert "Pr[Delta' = 0] = 0" in zero_cell.detail and "Pr[Delta = 0] = 0" in zero_cell.detail
    assert rec.values["corrected_statement"].startswith("alpha in (0, 1)")
    # inside (0, 1) every instance holds: the refutation is the end alone
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions if d.instance.alpha != "1")


def test_thmA2_end_instances_name_the_printed_factor_at_one():
    rec = Findings("grs2011.thmA.2")
    rl.laplace_at_one(rec, factor=lambda al: 2 * al)
    assert "it is 2-approximately" in rec.decisions[0].detail


# ---------------------------------------------------------------- grs2009 Section 6.1


def test_sec61_geometric_side_holds_at_zero_laplace_undefined_there_and_both_refuted_at_one():
    rec = lvg.laplace_vs_geometric(CTX)
    assert rec.status is Status.REFUTED
    zero, one = _at(rec, "0"), _at(rec, "1")
    assert zero[("all-n", None, "geometric optimal loss")].outcome is Outcome.HOLDS
    lap0 = zero[("all-n", None, "Laplace optimal loss")]
    assert lap0.outcome is Outcome.COUNTEREXAMPLE and "loss is undefined, stated 0" in lap0.detail
    assert "ln(1/0) is no real number" in lap0.detail
    for name in ("geometric", "Laplace"):
        d = one[("all-n", None, f"{name} optimal loss")]
        assert d.outcome is Outcome.COUNTEREXAMPLE and "loss is 0, stated 1/2" in d.detail
    # inside (0, 1) nothing changed: every symbolic instance holds
    assert all(d.outcome is Outcome.HOLDS for d in rec.decisions if d.instance.alpha not in ("0", "1"))


def test_sec61_false_variant_geometric_wrong_only_at_zero_is_refuted_at_zero():
    printed = lvg._printed_formula("sec6.1.geometric")
    rec = lvg.laplace_vs_geometric(CTX, geometric_loss=lambda al: sp.Integer(1) if al == 0 else printed(al))
    d = _at(rec, "0")[("all-n", None, "geometric optimal loss")]
    assert d.outcome is Outcome.COUNTEREXAMPLE and "loss is 0, stated 1" in d.detail


# ---------------------------------------------------------------- grs2009 Theorems 3.1 and 6.1 at alpha = 1


def test_grs2009_geometric_at_one_is_zero_and_every_one_dp_mechanism_loses_n_over_n_plus_1():
    assert all(v == 0 for row in grs2009_geometric_at_one(2, range(-4, 7)) for v in row)
    assert [uniform_binary_loss_at_one(n) for n in (1, 2, 3)] == [F(1, 2), F(2, 3), F(3, 4)]


def test_theorem_3_1_is_refuted_at_one_with_the_printed_x_g():
    rec = Findings("grs2009.thm3.1")
    theorem_3_1_at_one(rec, CTX)
    assert [d.instance.n for d in rec.decisions] == [1, 2, 3]
    assert all(d.instance.alpha == "1" and d.instance.kind is BOUNDED for d in rec.decisions)
    assert all(d.outcome is Outcome.COUNTEREXAMPLE for d in rec.decisions)
    assert "rows sum to 0, not 1" in rec.decisions[0].detail and "loses exactly 1/2" in rec.decisions[0].detail


def test_theorem_3_1_at_one_holds_for_a_mechanism_that_is_a_distribution():
    """The variant: x^G read as grs2011's 1-geometric mechanism (always 0) holds at alpha = 1 (SMT unsat)."""
    rec = Findings("grs2009.thm3.1")
    theorem_3_1_at_one(rec, CTX, grs2011_one_geometric)
    assert [d.outcome for d in rec.decisions] == [Outcome.HOLDS] * 3


def test_theorem_3_1_at_one_refutes_a_mechanism_that_is_not_one_dp():
    identity_on_z = lambda n, window: [[F(int(r == i)) for r in window] for i in range(n + 1)]  # noqa: E731
    rec = Findings("grs2009.thm3.1")
    theorem_3_1_at_one(rec, CTX, identity_on_z)
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "not 1-DP" in d.detail for d in rec.decisions)


def test_theorem_6_1_is_refuted_at_one_under_every_reading_of_x_g():
    sums = {}
    for geometric in (grs2009_geometric_at_one, grs2011_one_geometric):
        rec = Findings("grs2009.thm6.1")
        range_n_uniqueness_at_one(rec, CTX, geometric_at_one=geometric)
        assert [d.outcome for d in rec.decisions] == [Outcome.COUNTEREXAMPLE] * 3
        assert "meets the hypothesis" in rec.decisions[0].detail and "(2/3, 1/3)" in rec.decisions[0].detail
        sums[geometric] = rec.decisions[0].detail
    assert "rows summing to 0" in sums[grs2009_geometric_at_one]  # the printed formula: no mechanism
    assert "rows summing to 1)" in sums[grs2011_one_geometric]  # grs2011's reading: a mechanism, still not p o x


def test_theorem_6_1_at_one_is_not_refuted_by_a_candidate_that_meets_the_conclusion():
    rec = Findings("grs2009.thm6.1")
    range_n_uniqueness_at_one(rec, CTX, candidate=(F(1), F(0)), geometric_at_one=grs2011_one_geometric)
    assert [d.outcome for d in rec.decisions] == [Outcome.INCONCLUSIVE] * 3
    assert "some p o x is x^G" in rec.decisions[0].detail
