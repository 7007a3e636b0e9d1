"""gs2010 Algorithm 1 (proofs/release/multilevel.py): the symbolic instance decides Lemma 3's own stages
G_(a_i)^-1 G_(a_(i+1)) on ordered levels, so levels out of order are refuted there, with an exact negative entry."""

from __future__ import annotations

import sympy as sp

from proofs.release import multilevel as ml
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context

CTX = Context(quick=True)
SYMBOLIC = "symbolic alphas a1, a2, a3"


def _symbolic(rec):
    return [d for d in rec.decisions if d.instance.alpha == SYMBOLIC]


def test_ordered_stages_are_stochastic_by_certificate():
    assert ml.symbolic_stage_failure(3) is None
    rec = ml.multi_level_release(CTX)
    assert [d.outcome for d in _symbolic(rec)] == [Outcome.HOLDS, Outcome.HOLDS]


def test_closed_inverse_and_stage_rows():
    x, y = sp.symbols("x y")
    t = ml.lemma3_symbolic(2)
    assert all(sp.cancel(e) == 0 for e in t * sp.ones(3, 1) - sp.ones(3, 1))
    assert sp.cancel(t.subs({x: sp.Rational(1, 2), y: sp.Rational(1, 4)})[0, 1]) < 0  # beta < alpha: not stochastic


def test_levels_out_of_order_are_refuted_symbolically():
    for order in (lambda c: sorted(c, reverse=True), lambda c: [*sorted(c)[1::-1], *sorted(c)[2:]]):
        rec = ml.multi_level_release(CTX, order=order)
        sym = _symbolic(rec)
        assert sym and all(d.outcome is Outcome.COUNTEREXAMPLE for d in sym)
        assert all("< 0" in d.detail and "not a mechanism" in d.detail for d in sym)
        assert rec.status.value == "refuted"


def test_sign_certificate_is_not_vacuous():
    u1, u2, _ = ml.GAPS
    assert ml.sign_certificate(u1 / (1 + u2)) and not ml.sign_certificate((u1 - u2) / (1 + u2))
    assert ml.negative_point((u1 - 2 * u2) / (1 + u2)) is not None
