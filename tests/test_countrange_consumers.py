"""zlcn2013 Theorem 1, the two-variable form and Theorems 5, 6 over ALL consumers: bounded grids, the sampled
cross-check, and false variants refuted with a counterexample consumer that re-checks exactly here."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
import z3

from proofs.countrange import cones
from proofs.countrange import consumers as cc
from proofs.countrange.alpha import zlcn_label
from proofs.countrange.family import condition5
from proofs.countrange.legal_lp import ALPHAS_Z
from proofs.countrange.legal_polytope import legal_vertices
from udpm.claims.instances import BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Status
from udpm.core.users import CountRangeConsumer, is_legal_function
from udpm.errors import VacuousPremise
from udpm.lp.certify import solve
from udpm.lp.countrange import legal_function_lp, psi1, psi2

CTX = Context()
ZL = [zlcn_label(a) for a in ALPHAS_Z]


def wrong_alpha(A):
    return (A + 1) / 2


def grid(rec, kind):
    out: dict[str, set] = {}
    for d in rec.decided(kind):
        out.setdefault(d.instance.alpha, set()).add(d.instance.n)
    return {k: sorted(v) for k, v in out.items()}


def _verified_over_all_consumers(rec, sampled_n_max):
    assert rec.status is Status.VERIFIED, rec.counterexample
    assert rec.evidence.value == "bounded"
    assert grid(rec, BOUNDED) == {a: [1, 2, 3] for a in ZL}
    assert all("every" in d.instance.covers for d in rec.decided(BOUNDED))
    sampled = rec.decided(SAMPLED)  # the cross-check stays in the grid
    assert sampled and max(d.instance.n for d in sampled) == sampled_n_max
    assert all(dict(d.instance.params).get("consumer") for d in sampled)
    assert 0 < int(rec.values["full_dimensional_vertex_instances"]) < int(rec.values["vertex_instances"])


def _bounded_counterexample(rec):
    assert rec.status is Status.REFUTED
    bad = [d for d in rec.decisions if d.outcome is Outcome.COUNTEREXAMPLE and d.instance.kind is BOUNDED]
    assert bad, "a certified consumer of the bounded (all-consumers) instances, not only a sampled one"
    return bad[0]


def consumer_of(d):
    """The counterexample consumer, parsed back from its text, and its zlcn alpha."""
    text = d.detail
    rho = [Fraction(x) for x in re.search(r"rho=\(([^)]*)\)", text).group(1).split(", ")]
    t1, t2 = re.search(r"theta=\((\d+), (\w+)\)", text).groups()
    A = next(a for a in ALPHAS_Z if zlcn_label(a) == d.instance.alpha)
    c = CountRangeConsumer.of([1] * len(rho), rho, int(t1), None if t2 == "inf" else int(t2))
    return c, A


def recheck(d, form_value):
    """Independently: the consumer's certified LP optimum is unique, and no (beta1, beta2) / beta on a fine grid
    gives a legal function of the (false) form with that error."""
    c, A = consumer_of(d)
    p = legal_function_lp(c, A)
    cert = solve(p.lp, timeout_s=60)
    assert cert.unique and all(x > 0 for x in c.rho)
    opt = p.objective_to_error(cert.objective)
    assert f"(err {opt})" in d.detail
    betas = [Fraction(k, 40) for k in range(41)]
    for b1 in betas:
        for b2 in betas:
            phi = form_value(b1, b2, c, A)
            if phi is not None and is_legal_function(phi, A):
                assert c.weighted_error(phi) > opt


def test_thm1_verified_over_all_consumers():
    rec = cc.min_of_recurrences(CTX)
    _verified_over_all_consumers(rec, 3)
    assert rec.values["premise_witnesses"] == "every variable 0"


def _min_form(flip5=False, Af=None):
    def f(b1, b2, c, A):
        n, a = c.n, Af(A) if Af else A
        s1, s2 = psi1(b1, n, a), psi2(b2, n, a)
        t2 = n if c.theta2 is None else c.theta2
        if not condition5(s1, s2, c.theta1, t2, flip5):
            return None
        return [min(u, v) for u, v in zip(s1, s2)]

    return f


def test_thm1_false_variants_give_certified_consumers():
    bad = cc.min_of_recurrences(CTX, flip5=True)
    d = _bounded_counterexample(bad)
    assert "z3 unsat, z3+cvc5" in d.detail and "not min{psi1,psi2} with (5)" in d.detail
    recheck(d, _min_form(flip5=True))
    d = _bounded_counterexample(cc.min_of_recurrences(CTX, form_alpha=wrong_alpha))
    recheck(d, _min_form(Af=wrong_alpha))


def test_twovar_verified_and_its_false_variants():
    rec = cc.two_variables(CTX)
    _verified_over_all_consumers(rec, 3)
    legal = [d for d in rec.decided(BOUNDED) if d.instance.method == "z3 unsat"]
    assert len(legal) == 12 and all(d.outcome is Outcome.HOLDS for d in legal)
    d = _bounded_counterexample(cc.two_variables(CTX, use_psi2=False))
    assert "it is not psi1" in d.detail
    recheck(d, lambda b1, b2, c, A: psi1(b1, c.n, A))
    d = _bounded_counterexample(cc.two_variables(CTX, form_alpha=wrong_alpha))
    recheck(d, lambda b1, b2, c, A: [min(u, v) for u, v in zip(psi1(b1, c.n, (A + 1) / 2), psi2(b2, c.n, (A + 1) / 2))])


def test_twovar_recurrences_at_a_larger_alpha_are_not_legal():
    bad = cc.two_variables(CTX, form_alpha=lambda A: A * A)
    d = _bounded_counterexample(bad)
    assert d.instance.method == "z3 unsat" and "is not legal" in d.detail
    b1, b2 = (Fraction(x) for x in re.search(r"beta=\(([^,]*), ([^)]*)\)", d.detail).groups())
    A = next(a for a in ALPHAS_Z if zlcn_label(a) == d.instance.alpha)
    phi = [min(u, v) for u, v in zip(psi1(b1, d.instance.n, A * A), psi2(b2, d.instance.n, A * A))]
    assert not is_legal_function(phi, A)


def test_thm5_verified_and_its_false_variants():
    rec = cc.threshold_recurrence(CTX)
    _verified_over_all_consumers(rec, 4)
    d = _bounded_counterexample(cc.threshold_recurrence(CTX, swap=True))
    assert "does not satisfy (3)" in d.detail
    recheck(d, lambda b1, b2, c, A: psi2(b1, c.n, A))
    d = _bounded_counterexample(cc.threshold_recurrence(CTX, form_alpha=wrong_alpha))
    recheck(d, lambda b1, b2, c, A: psi1(b1, c.n, (A + 1) / 2))


def test_membership_premise_vacuity_guard(monkeypatch):
    real = cones.premises_hold
    monkeypatch.setattr(cones, "premises_hold", lambda prem, pins, t, what: real([z3.BoolVal(False)], pins, t, what))
    with pytest.raises(VacuousPremise):
        cc.min_of_recurrences(CTX)


def test_normal_cone_lp_and_membership():
    # n = 1, threshold <1, +inf>: the vertex (1/(A+1), A/(A+1)) is the unique optimum of the uniform consumer
    A = Fraction(2)
    verts = legal_vertices(1, A)
    k = verts.index((Fraction(1, 3), Fraction(2, 3)))
    t, w, _ = cones.cone_interior(1, A, cones.error_signs(1, 1, None), k, 60)
    assert t > 0 and all(x > 0 for x in w) and sum(w) == 1
    beta, _ = cones.member_two(verts[k], 1, A, 1, 1, True, False, True, 60)
    assert beta is not None and min(psi1(beta[0], 1, A)[1], psi2(beta[1], 1, A)[1]) == Fraction(2, 3)
    # (2/3, 1/3) costs w0/3 + w1/3 more than (1/3, 2/3) for every consumer: it is never the unique optimum
    k0 = verts.index((Fraction(2, 3), Fraction(1, 3)))
    t0, _, _ = cones.cone_interior(1, A, cones.error_signs(1, 1, None), k0, 60)
    assert t0 <= 0
