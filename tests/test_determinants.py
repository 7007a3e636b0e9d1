"""gs2010 Table 2, Lemma 1, Lemma 2: the real statements pass, false variants are refuted with a counterexample."""

from __future__ import annotations

import sympy as sp

from proofs.derivation import column_replacement as cr
from proofs.derivation import lemma1 as d
from proofs.derivation.table2 import table2
from udpm.claims.evidence import grid_text
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Status

CTX = Context(quick=True)


def _grid(rec, kind):
    return grid_text(rec.result().grid[str(kind)])


def test_table2_verified_and_grid():
    rec = table2(CTX)  # all-n inside (0, 1); the printed ends 0 and 1 at sizes 2..4
    assert rec.status is Status.VERIFIED
    assert _grid(rec, BOUNDED) == "alpha=1/2, 1/3, 9/10, 1/100: n=2..8; 0, 1: n=2..4"
    assert len(rec.decided(ALL_N, Outcome.HOLDS)) == 5  # 4 symbolic cases + the printed cells


def test_table2_dropped_boundary_factor_refuted():
    wrong = lambda i, j, boundary: (1 - d.a) / (1 + d.a) * d.a ** sp.Abs(i - j)  # noqa: E731  no 1/(1-a) in cols 1, n
    r = table2(CTX, printed_g=wrong)
    assert r.status is Status.REFUTED and "alpha=1/2, distance 0" in r.counterexample


def test_lemma1_proved_inside_refuted_at_its_printed_boundary_alpha_1_with_indexing_erratum():
    r = d.det_g_prime(CTX)
    assert r.status is Status.REFUTED and "size m = 2, alpha = 1" in r.counterexample
    assert "det G = 0" in r.counterexample
    inside = [dd for dd in r.decisions if dd.instance.alpha not in ("0", "1")]
    assert inside and all(dd.outcome is Outcome.HOLDS for dd in inside)
    # all-n from size 2, sizes 2..4, and size 1 decided apart
    assert [dd.outcome for dd in r.decisions if dd.instance.alpha == "0"] == [Outcome.HOLDS] * 5
    assert any(e.cls == "typo" for e in r.errata)
    assert _grid(r, BOUNDED) == "alpha=symbolic alpha in (0,1): n<=12; 0, 1: n<=4"
    assert "rsolve" in r.values["all-n step"] and "[0, 1)" in r.values["corrected_statement"]


def test_lemma1_wrong_exponent_refuted():
    r = d.det_g_prime(CTX, exponent=lambda m: m)  # off by one: Definition 4 size read as Table 2 size
    assert r.status is Status.REFUTED and "m=2" in r.counterexample


def test_lemma1_wrong_only_above_32_refuted():
    """A claimed exponent right for every size the bounded check reaches, wrong from m = 33: the all-n step
    (the solved recurrence at symbolic m) refutes it, with the exact determinant at m = 33."""
    late = lambda m: sp.Piecewise((m - 1, m <= 32), (m, True))  # noqa: E731
    r = d.det_g_prime(Context(quick=False), exponent=late)
    assert r.status is Status.REFUTED and r.evidence.value == "all-n" and "size m=33" in r.counterexample
    inside = [x for x in r.decided(BOUNDED, Outcome.COUNTEREXAMPLE) if x.instance.alpha not in ("0", "1")]
    assert not inside  # the bounded sizes 2..32 all pass (alpha = 1 fails as printed: det G = 0)
    plain = lambda m: m - 1 if m <= 32 else m  # noqa: E731  a Python branch, no symbolic m: found by search
    r = d.det_g_prime(CTX, exponent=plain)
    assert r.status is Status.REFUTED and "size m=33" in r.counterexample


def test_lemma1_perturbed_matrix_refuted():
    def perturbed(m):
        g = d.g_prime(m)
        g[0][m - 1] = g[0][m - 1] * d.A  # one corner entry a^m instead of a^(m-1)
        return g

    r = d.det_g_prime(CTX, gprime=perturbed, ends=(d.Fraction(0),))  # alpha = 1 fails anyway; the variant is inside
    assert r.status is Status.REFUTED and "det G'_m" in r.counterexample


def test_lemma2_proved_inside_refuted_at_its_printed_boundary_alpha_1_from_size_3():
    r = cr.column_replacement_determinants(CTX)
    assert r.status is Status.REFUTED and "size m = 3, alpha = 1" in r.counterexample
    assert "x = (1, 0, 0): det G(i, x) = 0" in r.counterexample
    refuted = {(dd.instance.n, dd.instance.alpha) for dd in r.decided(outcome=Outcome.COUNTEREXAMPLE)}
    assert refuted == {(3, "1"), (4, "1")}  # size 2 holds at alpha = 1, every size at alpha = 0
    assert "consistent" in r.values["printed 3x3 step"]
    rows = r.result().grid[str(BOUNDED)]
    assert rows[0] == {"alphas": ["symbolic alpha in (0,1)"], "n": list(range(2, 13))}
    assert {dd.instance.method for dd in r.decided(BOUNDED) if dd.instance.n == 7} == {
        "certificate G' Tri = (1-a^2) I, then Cramer"
    }  # the direct Bareiss determinants stop at n = 6 in the quick run


def test_lemma2_power_n_minus_3_refuted():
    r = cr.column_replacement_determinants(CTX, power=lambda m: m - 3)
    assert r.status is Status.REFUTED and "size m=2" in r.counterexample


def test_lemma2_power_wrong_only_above_32_refuted():
    late = lambda m: sp.Piecewise((m - 2, m <= 32), (m - 3, True))  # noqa: E731
    r = cr.column_replacement_determinants(Context(quick=False), power=late)
    assert r.status is Status.REFUTED and "size m=33" in r.counterexample and "alpha=1/2" in r.counterexample
    assert not [x for x in r.decided(BOUNDED, Outcome.COUNTEREXAMPLE) if x.instance.alpha not in ("0", "1")]


def test_lemma2_flipped_sign_refuted():
    def flipped(kind):
        prev, self_, nxt = cr.lemma2_functional(kind)
        return (-prev, self_, -nxt)  # +a instead of -a

    r = cr.column_replacement_determinants(CTX, functional=flipped)
    assert r.status is Status.REFUTED and "alpha=1/2" in r.counterexample


def test_table2_transcription_cell_changed_refuted(monkeypatch):
    from udpm.claims.tables import PrintedItem, printed

    def altered(paper, key):
        item = printed(paper, key)
        if key != "table2":
            return item
        left, right = item.values
        right = [list(r) for r in right]
        right[0][2] = "\\alpha^3"  # G'[0][2] printed as a^3 instead of a^2
        return PrintedItem(item.paper, item.key, item.where, [left, right], item.note, item.errata)

    monkeypatch.setattr("proofs.derivation.table2.printed", altered)
    r = table2(CTX)
    assert r.status is Status.REFUTED and "alpha**3" in r.counterexample


def test_the_corrected_lemmas_drop_only_the_failing_end_and_pass():
    from proofs.derivation import column_replacement as cr_mod

    for check, claim, want in (
        (d.det_g_positive_below_one, "gs2010.lemma1.corrected", Status.PROVED),
        (cr_mod.column_replacement_below_one, "gs2010.lemma2.corrected", Status.VERIFIED),
    ):
        rec = check(CTX)
        # lemma1's all-n argument starts at size 2, and size 1 is decided for every alpha of [0, 1); lemma2's end
        # alpha = 0 is decided for bounded sizes
        assert rec.claim == claim and rec.status is want and not rec.errata
        ends = {x.instance.alpha for x in rec.decisions if x.instance.alpha in ("0", "1")}
        assert ends == {"0"}  # alpha = 0 still decided, alpha = 1 (refuted as printed) left out
