"""proofs/countrange.py: the zlcn2013 impossibility results hold, and each false variant is refuted."""

from __future__ import annotations

import inspect
from fractions import Fraction as F

import pytest
import sympy as sp

from proofs import countrange as c
from udpm.claims import Context, Status

CTX = Context()


@pytest.mark.parametrize(
    "fn, status",
    [
        (c.lemma1, Status.PROVED),
        (c.lemma2, Status.PROVED),
        (c.thm3, Status.VERIFIED),
        (c.lemma3, Status.VERIFIED),
        (c.thm2, Status.VERIFIED),
    ],
)
def test_claim_holds(fn, status):
    kw = {"n_max": 4} if "n_max" in inspect.signature(fn).parameters else {}
    res = fn(CTX, **kw)
    assert res.status is status, (res.notes, res.counterexample)
    assert len([a for a in res.scope.alphas if a != c.SYMBOLIC]) >= 5
    if fn in (c.lemma1, c.lemma2, c.thm3):
        assert c.SYMBOLIC in res.scope.alphas


def test_lemma1_with_another_target_is_refuted():
    res = c.lemma1(CTX, target=lambda a: [F(1, 2), F(1, 2)])
    assert res.status is Status.REFUTED and "not tight" in res.counterexample and "alpha=2" in res.counterexample


def test_lemma1_with_flipped_transformation_is_refuted():
    res = c.lemma1(CTX, flip=True)
    assert res.status is Status.REFUTED and "(p_j, q_j, t_j)" in res.counterexample


def test_lemma2_when_both_consumers_want_x_hat_is_refuted():
    res = c.lemma2(CTX, y=c.xhat)
    assert res.status is Status.REFUTED and "the DP matrix" in res.counterexample


def test_thm3_with_only_two_counts_is_refuted():
    res = c.thm3(CTX, rows=(0, 1), n_max=3)
    assert res.status is Status.REFUTED and "counts [0, 1]" in res.counterexample


def test_lemma3_with_an_off_by_one_exponent_is_refuted():
    def x_wrong(n, t1, t2, al):
        k = c.lemma3_k(t1, t2)
        return [
            1 / (al ** (k - 1 - i) * (al + 1)) if i <= k else 1 / (al ** (i - k - 1) * (al + 1)) for i in range(n + 1)
        ]

    res = c.lemma3(CTX, xf=x_wrong, n_max=4)
    assert res.status is Status.REFUTED and "n=3, theta=(1, 2)" in res.counterexample


def test_thm2_with_equal_consumers_is_refuted():
    res = c.thm2(CTX, yf=c.lemma3_x, n_max=4)
    assert res.status is Status.REFUTED and res.counterexample


def test_derivation_of_both_is_found_when_it_exists():
    # The same vector twice is derived by any matrix with a 0/1 column split; the checker must find it.
    assert c.derivation([c.xhat, c.xhat], F(3), 10) is not None
    assert c.derivation([c.xhat, c.yhat], F(3), 10) is None


def test_consumer_certificate_is_unique_and_found_for_x_hat():
    consumer, why = c.unique_optimum_consumer(3, (1, 2), c.xhat(F(2)), F(2), 10)
    assert consumer is not None, why
    assert c.is_unique_optimum(consumer, c.xhat(F(2)), F(2), 10)
    # a legal function that is not a vertex is the unique optimum of nobody
    consumer, why = c.unique_optimum_consumer(3, (1, 2), [F(1, 2)] * 4, F(2), 10)
    assert consumer is None and "not a vertex" in why


def test_latex_of_the_printed_vectors():
    assert sp.simplify(c.printed_vector("yhat")[0] - 1 / ((c.A + 1) * c.A)) == 0
