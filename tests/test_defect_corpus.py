"""udpm.auditing.defect_corpus: every fixture is diagnosed by the public API exactly as its data says."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from udpm.auditing import defect_corpus as dc
from udpm.auditing import defect_mechanisms as dm
from udpm.auditing.questions import is_private
from udpm.core.mechanisms import truncated_geometric
from udpm.core.validate import stochastic

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("defect", dc.CORPUS, ids=[d.key for d in dc.CORPUS])
def test_fixture_is_diagnosed_as_expected(defect: dc.Defect) -> None:
    m = defect.matrix()
    stochastic(m)  # an exact mechanism
    assert len(m) == defect.n + 1
    assert dc.diagnose(defect) == defect.expected


def _tightest_alpha(m: list[list[F]]) -> F | None:
    """Not privacy_level: min over adjacent rows, outputs of min(p/q, q/p), 0/0 = 1; None for 0 next to > 0."""
    best = F(1)
    for r1, r2 in zip(m, m[1:]):
        for p, q in zip(r1, r2):
            if (p == 0) != (q == 0):
                return None
            if p:
                best = min(best, p / q, q / p)
    return best


@pytest.mark.parametrize("defect", dc.CORPUS, ids=[d.key for d in dc.CORPUS])
def test_tightest_alpha_is_tight(defect: dc.Defect) -> None:
    """Private at the tightest alpha and at no larger one (by the public is_private); None: at no alpha."""
    m, tight = defect.matrix(), defect.expected.tightest_alpha
    assert _tightest_alpha(m) == tight
    if tight is None:
        assert not is_private(m, F(1, 10**9))
        return
    assert is_private(m, tight)
    assert not is_private(m, tight + (1 - tight) / 10**12)
    assert bool(is_private(m, defect.claimed_alpha)) == (tight >= defect.claimed_alpha) == defect.expected.private


def test_a_wrong_mechanism_is_not_given_the_expected_diagnosis() -> None:
    """The guard: the check compares, so a correct mechanism under a defect's data fails it."""
    d = dataclasses.replace(dc.CORPUS_BY_KEY["eps-doubled"], build=lambda: truncated_geometric(3, F(1, 2)))
    assert dc.diagnose(d) != d.expected


def test_the_corpus_covers_the_listed_defects() -> None:
    keys = [d.key for d in dc.CORPUS]
    assert len(set(keys)) == len(keys)
    for key in (
        "rounded-laplace",
        "tail-bin-inside",
        "clamped-before-noise",
        "folded",
        "alpha-rounded-nearest",
        "eps-doubled",
        "rr-lie-may-be-truth",
        "float-parameter-ln3",
    ):
        assert key in dc.CORPUS_BY_KEY
    assert all(d.inspiration and d.construction and d.user for d in dc.CORPUS)


def test_rounded_laplace_closed_form_matches_the_integral() -> None:
    from udpm.core.mechanisms import rounded_laplace_pmf

    for k in (0, 1, -2):
        assert rounded_laplace_pmf(k, F(1, 4)) == dm.rounded_laplace_quarter(k)
    assert dm.rounded_laplace_quarter_tail(1) == 1 - dm.rounded_laplace_quarter_tail(0)


def test_folded_matrix_matches_diffprivlibs_fold() -> None:
    """Sum the geometric pmf over |k| <= 80 through diffprivlib's own _fold: equal up to the omitted tail."""
    mech = pytest.importorskip("diffprivlib.mechanisms")
    g = mech.GeometricFolded(epsilon=math.log(2), lower=-0.5, upper=3.5)
    a = F(1, 2)
    exact = dm.folded_geometric(3, a)
    for i in range(4):
        row = [F(0)] * 4
        for k in range(-80, 81):
            row[round(g._fold(i + k))] += (1 - a) / (1 + a) * a ** abs(k)
        omitted = 2 * a**81 / (1 + a)  # Pr[|Z| > 80]
        assert all(0 <= e - r <= omitted for e, r in zip(exact[i], row))


def test_folded_fixture_is_consistent_with_diffprivlibs_sampler() -> None:
    """diffprivlib's GeometricFolded at eps = fl(ln 2) (alpha within 1e-16 of 1/2) against the fixture's matrix."""
    mech = pytest.importorskip("diffprivlib.mechanisms")
    from udpm.auditing.sampled import audit_samples

    g = mech.GeometricFolded(epsilon=math.log(2), lower=-0.5, upper=3.5, random_state=3)
    counts = [[0] * 4 for _ in range(4)]
    for i in range(4):
        for _ in range(1500):
            counts[i][g.randomise(i)] += 1
    v = audit_samples(counts, eps=math.log(2), confidence="0.99", reference=dm.folded_geometric(3, F(1, 2)))
    assert v.consistent_with_dp and v.consistent_with_reference


def test_enumeration_is_exact_and_checks_the_bits_drawn() -> None:
    m = dm.enumerated_matrix(lambda i, bits: min(i + bits(2) // 2, 2), 1, 2, outputs=3)
    assert m == [[F(1, 2), F(1, 2), F(0)], [F(0), F(1, 2), F(1, 2)]]
    with pytest.raises(ValueError, match="drew"):
        dm.enumerated_matrix(lambda i, bits: bits(2) + bits(2), 1, 2)
    with pytest.raises(ValueError, match="drew"):
        dm.enumerated_matrix(lambda i, bits: i, 1, 2)
    with pytest.raises(ValueError, match="outside the outputs"):
        dm.enumerated_matrix(lambda i, bits: min(i + bits(2) // 2, 2), 1, 2)


def test_the_textbook_sampler_has_holes() -> None:
    m = dc.CORPUS_BY_KEY["textbook-float-sampler"].matrix()
    assert all(v.denominator <= 2**dm.MIRONOV_BITS for r in m for v in r)
    assert m[0][4] == 0 < m[1][4]  # reachable from count 1, not from count 0


def test_the_page_is_current() -> None:
    assert (ROOT / dc.PAGE).read_text(encoding="utf-8") == dc.render_page()


def test_main_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert dc.main(["--bogus"]) == 2
    assert "usage" in capsys.readouterr().err
    assert dc.main([]) == 0
    assert capsys.readouterr().out == dc.render_page()
