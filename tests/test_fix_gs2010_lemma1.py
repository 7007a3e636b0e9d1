"""gs2010 Lemma 1, det G > 0 (proofs/derivation/lemma1.py): the all-n instance reads G's column scales off G's own
entries and multiplies the solved det G'; a sign typo in G's entries, or the reversed inequality, is refuted."""

from __future__ import annotations

from proofs.derivation import lemma1 as d
from udpm.claims.instances import ALL_N, Outcome
from udpm.claims.registry import Context

CTX = Context(quick=True)


def _det_g_all_n(rec, alpha=d.SYMBOLIC):
    return [x for x in rec.decided(ALL_N) if x.instance.covers == "det G_m > 0" and x.instance.alpha == alpha]


def test_det_g_positive_for_all_sizes():
    rec = d.det_g_positive_below_one(CTX)
    assert [x.outcome for x in _det_g_all_n(rec)] == [Outcome.HOLDS]
    assert d.column_scales(d.definition4) == (1 / (1 + d.a), (1 - d.a) / (1 + d.a))


def test_sign_typo_in_g_is_refuted():
    typo = lambda dist, boundary: (1 if boundary else d.a - 1) / (1 + d.a) * d.a**dist  # noqa: E731
    rec = d.det_g_prime(CTX, g_entry=typo, ends=())
    (dec,) = _det_g_all_n(rec)
    assert dec.outcome is Outcome.COUNTEREXAMPLE and "size m=3" in dec.detail and "not > 0" in dec.detail


def test_reversed_inequality_is_refuted():
    rec = d.det_g_prime(CTX, positive=False, ends=())
    (dec,) = _det_g_all_n(rec)
    assert dec.outcome is Outcome.COUNTEREXAMPLE and "det G_m = 1/3" in dec.detail


def test_g_that_is_no_column_scaling_is_decided_on_its_entries():
    assert d.column_scales(lambda dist, boundary: d.a ** (2 * dist)) is None
    solved, _ = d.det_gprime_solved()
    assert d.det_g_sign_failure(solved, lambda dist, boundary: d.a ** (2 * dist)).startswith("undecided")


def test_the_ends_for_every_size():
    rec = d.det_g_prime(CTX)
    (zero,) = _det_g_all_n(rec, "0")
    (one,) = _det_g_all_n(rec, "1")
    assert zero.outcome is Outcome.HOLDS and one.outcome is Outcome.COUNTEREXAMPLE
    assert "size m = 2, alpha = 1: det G = 0" in one.detail
    rec = d.det_g_prime(CTX, positive=False, ends=(d.Fraction(0),))
    (zero,) = _det_g_all_n(rec, "0")
    assert zero.outcome is Outcome.COUNTEREXAMPLE and "det G = 1, not < 0" in zero.detail


def test_the_proofs_display_of_det_g_prime_over_det_g_is_decided():
    rec = d.det_g_prime(CTX)
    shown = [x for x in rec.decisions if "the proof's display" in x.instance.covers]
    assert len(shown) == 1 and shown[0].outcome is Outcome.HOLDS
    wrong = d.det_g_prime(CTX, display_factor=lambda m: (1 + d.a) ** 2 * ((1 + d.a) / (1 - d.a)) ** (m - 1))
    assert any("the display gives" in x.detail for x in wrong.decisions)
