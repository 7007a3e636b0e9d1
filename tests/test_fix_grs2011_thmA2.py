"""grs2011 Theorem A.2: the theorem's own guarantee (Laplace loss <= F x optimum, F the printed factor) is decided,
and a printed factor changed to a false one is refuted by the same check, at Example A.1's user."""

from __future__ import annotations

import sympy as sp

from proofs.geometric import approximation_guarantee as ag
from proofs.geometric import rounded_laplace as rl
from proofs.geometric import symbolic as sy
from udpm.claims.evidence import Status
from udpm.claims.registry import Context, restrict
from udpm.induction.obligations import discharge

CTX = Context()


def _guarantee_parts(r) -> dict[str, str]:
    return {dict(d.instance.params).get("part", ""): d.outcome.value for d in r.decisions}


def test_printed_factor_is_the_exact_guarantee():
    r = rl.rounded_laplace(CTX).result()
    parts = _guarantee_parts(rl.rounded_laplace(CTX))
    assert {"guarantee: f is attained", "guarantee: printed factor >= the exact f", "guarantee: termwise sum"} <= set(
        parts
    )
    assert r.status is Status.REFUTED and r.counterexample.startswith("n=all alpha=1 ")  # eps = 0: no mechanism
    assert all(v == "holds" for k, v in parts.items() if k.startswith("guarantee")), parts
    assert r.values["guarantee: f as alpha -> 0+"] == "oo"


def test_a_smaller_printed_factor_is_refuted_at_example_a1_user():
    half_exponent = lambda al: (1 + al) / (2 * al ** sp.Rational(1, 4))  # noqa: E731  exponent 1/2 -> 1/4
    for wrong in (lambda al: (1 + al) / 2, half_exponent, lambda al: sp.Integer(1)):
        r = rl.rounded_laplace(CTX, factor=wrong).result()
        assert r.status is Status.REFUTED, r.status
        assert "Example A.1's user" in r.counterexample and "printed factor >= the exact f" in r.counterexample


def test_a_larger_factor_is_a_true_weaker_statement():
    found = rl.rounded_laplace(CTX, factor=lambda al: (1 + al) / (2 * al))
    assert restrict("grs2011.thmA.2.corrected", found).result().status is not Status.REFUTED  # inside (0, 1)


def test_guarantee_covers_is_exact():
    f = rl.theorem_a2_factor(sy.a)
    assert ag.guarantee_covers(f, f, 10)[0]
    holds, how, at = ag.guarantee_covers((1 + sy.a) / 2, f, 10)
    assert not holds and at == sp.Rational(1, 4) and "s = 1/2" in how


def test_termwise_sum_needs_nonnegative_losses_and_factor_at_least_one():
    assert discharge(ag.termwise_bound(), 10).holds
    assert "termwise: step" in discharge(ag.termwise_bound(nonnegative_loss=False), 10).counterexample
    assert "termwise: step" in discharge(ag.termwise_bound(factor_at_least_one=False), 10).counterexample
