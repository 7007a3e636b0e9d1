"""zlcn2013 Theorem 7 and (2)/(3): the real statements pass, false variants are refuted."""

from __future__ import annotations

import sympy as sp

from proofs import thresholds as th
from udpm.claims import Context, Status

CTX = Context(quick=True)
A = th.A_SYM


def test_thm7_proved():
    r = th.threshold_universality(CTX)
    assert r.status is Status.PROVED and r.values["all-n case 1"] == "interior i = k-1-p: t = 0"
    assert r.values["(2) pieces"] == "n+1" and r.values["(2) n=3 t at mid of piece 1"] == "0, 0, 1/2, 1"


def test_thm7_illegal_recurrence_refuted():
    bad = th.Recurrence("min{A psi, 1}", (sp.Integer(0), A), (sp.Integer(1), sp.Integer(0)), "min")
    r = th.threshold_universality(CTX, recurrences=(bad,))
    assert r.status is Status.REFUTED and "leaves [0, 1]" in r.counterexample


def test_thm7_wrong_combine_refuted():
    flipped = th.Recurrence("(2) with max", th.EQ2.first, th.EQ2.second, "max")  # exceeds the DP bound
    r = th.threshold_universality(CTX, recurrences=(flipped,))
    assert r.status is Status.REFUTED and "beta=" in r.counterexample


def test_eq2_proved():
    r = th.recurrence_closed_form(CTX)
    assert r.status is Status.PROVED
    assert r.values["interval ends (n=3)"] == "1/(A**2*(A + 1)), 1/(A*(A + 1)), 1/(A + 1), 1"


def test_eq2_wrong_breakpoint_refuted():
    r = th.recurrence_closed_form(CTX, breakpoint=lambda k: 1 / A ** (k + 1))
    assert r.status is Status.REFUTED and "interval end" in r.counterexample


def test_eq2_off_by_one_exponent_refuted():
    def wrong(mu, k, beta):
        return A**mu * beta if k is None or mu <= k else 1 - (1 - beta * A**k) / A ** (mu - k + 1)

    r = th.recurrence_closed_form(CTX, closed_form=wrong)
    assert r.status is Status.REFUTED and "printed closed form" in r.counterexample


def test_sign_certificate():
    x = th.R.of(th.X)
    assert th.nonneg_on_unit(th.ONE - x, 5) and not th.nonneg_on_unit(x - th.R.of(th.P([1]), th.P([2])), 5)


def test_thm7_only_one_recurrence_is_bounded():
    r = th.threshold_universality(CTX, recurrences=(th.EQ2,))
    assert r.status is Status.VERIFIED and r.scope.n_max == 5
