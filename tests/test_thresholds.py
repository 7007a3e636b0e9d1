"""zlcn2013 Theorem 7 (proofs/countrange/thresholds.py) and (2)/(3) (proofs/countrange/recurrences.py, signs by
proofs/countrange/rational_alpha.py):
the real statements pass, false variants are refuted."""

from __future__ import annotations

import sympy as sp

from proofs.countrange import rational_alpha as ra
from proofs.countrange import recurrences as rc
from proofs.countrange import thresholds as th
from udpm.claims.evidence import grid_text
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Status

CTX = Context(quick=True)
A = ra.A_SYM


def test_thm7_refuted_at_n_0_only_and_grid_is_what_ran():
    r = th.threshold_universality(CTX)
    assert r.status is Status.REFUTED and "n = 0, zlcn alpha = 2: (6) gives M = [2/3]" in r.counterexample
    assert all(x.instance.n == 0 for x in r.decided(outcome=Outcome.COUNTEREXAMPLE))
    assert r.values["all-n case 1"] == "interior i = k-1-p: t = 0"
    assert r.values["(2) pieces"] == "n+1" and r.values["(2) n=3 t at mid of piece 1"] == "0, 0, 1/2, 1"
    res = r.result()
    assert grid_text(res.grid[str(SAMPLED)]) == "alpha=zlcn alpha=2 (internal 1/2), zlcn alpha=3 (internal 1/3): n<=5"
    assert grid_text(res.grid[str(BOUNDED)]).endswith(": n=0")  # (6) at n = 0, per zlcn alpha
    assert {dict(d.instance.params)["recurrence"] for d in r.decided(ALL_N)} == {"(2)", "(3)"}
    assert "zlcn alpha in 2, 3." in " ".join(r.notes)  # the quick run sweeps two alphas, and says so


def test_thm7_illegal_recurrence_refuted():
    bad = rc.Recurrence("min{A psi, 1}", (sp.Integer(0), A), (sp.Integer(1), sp.Integer(0)), "min")
    r = th.threshold_universality(CTX, recurrences=(bad,))
    assert r.status is Status.REFUTED and "t_i <= 1 fails for i=1, e.g. at zlcn alpha=64" in r.counterexample
    assert any("leaves [0, 1]" in d.detail for d in r.decided(SAMPLED))  # the exact sweep refutes it too
    assert not r.decided(ALL_N)


def test_thm7_wrong_combine_refuted():
    flipped = rc.Recurrence("(2) with max", rc.EQ2.first, rc.EQ2.second, "max")  # exceeds the DP bound
    r = th.threshold_universality(CTX, recurrences=(flipped,))
    assert r.status is Status.REFUTED and "t_i >= 0 fails for i=0, e.g. at zlcn alpha=64" in r.counterexample
    assert any("beta=" in d.detail for d in r.decided(SAMPLED))
    assert rc.relation_to_eq2(flipped) is None


def test_thm7_only_one_recurrence_records_only_it():
    r = th.threshold_universality(CTX, recurrences=(rc.EQ2,))
    assert {dict(d.instance.params)["recurrence"] for d in r.decisions} == {"(2)"}


def test_eq2_verified_with_grid():
    r = rc.recurrence_closed_form(CTX)
    assert r.status is Status.VERIFIED  # the all-n argument starts at n = 1, the printed class at n = 0
    assert r.values["interval ends (n=3)"] == "1/(A**2*(A + 1)), 1/(A*(A + 1)), 1/(A + 1), 1"
    parts = sorted((dict(d.instance.params)["part"], d.instance.n) for d in r.decided(BOUNDED))
    assert parts == [("(2)", n) for n in range(1, 7)] + [("(3)", n) for n in range(1, 7)]
    assert sorted(dict(d.instance.params)["part"] for d in r.decided(ALL_N)) == ["(2)", "(3)"]


def test_eq2_wrong_breakpoint_refuted():
    r = rc.recurrence_closed_form(CTX, breakpoint=lambda k: 1 / A ** (k + 1))
    assert r.status is Status.REFUTED and "psi1(1) = 3/4 by (2), printed closed form 1" in r.counterexample
    assert any("interval end 1" in d.detail for d in r.decided(BOUNDED))


def test_eq2_off_by_one_exponent_refuted():
    def wrong(mu, k, beta):
        return A**mu * beta if k is None or mu <= k else 1 - (1 - beta * A**k) / A ** (mu - k + 1)

    r = rc.recurrence_closed_form(CTX, closed_form=wrong)
    assert r.status is Status.REFUTED and "printed closed form" in r.counterexample


def test_eq2_closed_form_wrong_only_for_large_n_refuted_by_all_n():
    """Right on every piece up to n = 6 (the quick bound), wrong for a saturating step mu >= 8."""

    def late(mu, k, beta):
        right = rc.printed_closed_form(mu, k, beta)
        return right + (sp.Integer(0) if not (k is not None and mu >= 8 and mu > k) else sp.Rational(1, 10**6))

    r = rc.recurrence_closed_form(CTX, closed_form=late)
    assert r.status is Status.REFUTED and r.evidence.value == "all-n" and "psi1(8)" in r.counterexample


def test_eq3_wrong_recurrence_refuted():
    bad3 = rc.Recurrence("(3) with 1 - A", (sp.Integer(0), 1 / A), (1 - A, A + 1), "max")
    r = rc.recurrence_closed_form(CTX, eq3=bad3)
    assert r.status is Status.REFUTED and "(3)" in r.counterexample


def test_sign_certificate():
    x = ra.R.of(ra.X)
    assert ra.nonneg_on_unit(ra.ONE - x, 5) and not ra.nonneg_on_unit(x - ra.R.of(ra.P([1]), ra.P([2])), 5)
