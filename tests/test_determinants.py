"""gs2010 Table 2, Lemma 1, Lemma 2: the real statements pass, false variants are refuted with a counterexample."""

from __future__ import annotations

import sympy as sp

from proofs import determinants as d
from udpm.claims import Context, Status

CTX = Context(quick=True)


def test_table2_proved():
    assert d.table2(CTX).status is Status.PROVED


def test_table2_dropped_boundary_factor_refuted():
    wrong = lambda i, j, boundary: (1 - d.a) / (1 + d.a) * d.a ** sp.Abs(i - j)  # noqa: E731  no 1/(1-a) in cols 1, n
    r = d.table2(CTX, printed_g=wrong)
    assert r.status is Status.REFUTED and "[0][0]" in r.counterexample


def test_lemma1_proved_with_indexing_erratum():
    r = d.det_g_prime(CTX)
    assert r.status is Status.PROVED
    assert any(e.cls == "typo" for e in r.errata)


def test_lemma1_wrong_exponent_refuted():
    r = d.det_g_prime(CTX, exponent=lambda m: m)  # off by one: Definition 4 size read as Table 2 size
    assert r.status is Status.REFUTED and "m=2" in r.counterexample


def test_lemma1_perturbed_matrix_refuted():
    def perturbed(m):
        g = d.g_prime(m)
        g[0][m - 1] = g[0][m - 1] * d.A  # one corner entry a^m instead of a^(m-1)
        return g

    r = d.det_g_prime(CTX, gprime=perturbed)
    assert r.status is Status.REFUTED and "det G'_m" in r.counterexample


def test_lemma2_proved():
    r = d.column_replacement_determinants(CTX)
    assert r.status is Status.PROVED
    assert "consistent" in r.values["printed 3x3 step"]


def test_lemma2_power_n_minus_3_refuted():
    r = d.column_replacement_determinants(CTX, power=lambda m: m - 3 if m > 2 else 0)
    assert r.status is Status.REFUTED and "size m=3" in r.counterexample


def test_lemma2_flipped_sign_refuted():
    def flipped(m, i):
        row = d.tridiagonal(m)[i]
        return [-c if k != i else c for k, c in enumerate(row)]  # +a instead of -a

    r = d.column_replacement_determinants(CTX, functional=flipped)
    assert r.status is Status.REFUTED and "alpha=1/2" in r.counterexample


def test_table2_transcription_cell_changed_refuted(monkeypatch):
    from udpm.tables import PrintedItem, printed

    def altered(paper, key):
        item = printed(paper, key)
        if key != "table2":
            return item
        left, right = item.values
        right = [list(r) for r in right]
        right[0][2] = "\\alpha^3"  # G'[0][2] printed as a^3 instead of a^2
        return PrintedItem(item.paper, item.key, item.where, [left, right], item.note, item.errata)

    monkeypatch.setattr(d, "printed", altered)
    r = d.table2(CTX)
    assert r.status is Status.REFUTED and "alpha**3" in r.counterexample
