"""The audit's HTML page in a real browser (headless Chromium, offline): the verdict line first, the heat maps of M
and T(n, alpha), the privacy ratios with the binding pair, each user's loss against its optimum; nothing fetched."""

from __future__ import annotations

import importlib.util
import re
from fractions import Fraction as F
from pathlib import Path

import pytest

from udpm import audit

# the offline Chromium runner and its fixture, from the reproduction report's browser test
_spec = importlib.util.spec_from_file_location("_report_browser", Path(__file__).with_name("test_report_browser.py"))
_browser = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_browser)
chromium = _browser.chromium
headless = _browser.headless


def boundary_rr(n: int) -> list[list[F]]:
    beta = 1 / (1 + n * F(1, 2))
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


@pytest.mark.parametrize(("n", "users"), [(4, None), (200, [])])
def test_the_audit_page_renders_offline_with_its_pictures(chromium, tmp_path, n, users):
    report = audit(boundary_rr(n), "1/2", users=users, witness=n < 10)
    page = tmp_path / "audit.html"
    page.write_text(report.to_html(), encoding="utf-8")
    html = page.read_text()
    assert "<script" not in html and "http" not in html and "<link" not in html  # one self-contained file
    proc, requests = headless(chromium, page, tmp_path / "dom", "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert requests == []
    dom = proc.stdout
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", dom, re.DOTALL)
    assert h1 and h1.group(1).startswith("DP at alpha = 1/2 (eps = ln 2 ≈ 0.6931); NOT universally optimal")
    maps = re.findall(r"<svg[^>]*aria-label=\"([^\"]*)\"[^>]*>(.*?)</svg>", dom, re.DOTALL)
    labels = [label for label, _ in maps]
    assert labels[:3] == ["M", f"T({n}, 1/2)", "privacy ratios"]
    for _, body in maps[:2]:
        assert 0 < body.count("<rect") <= 120 * 120  # block means past 120 rows
    assert "#000" in maps[2][1]  # the binding pair is marked
    if users is None:
        assert "each user's loss against the certified optimum" in dom
        assert "20% above the optimum" not in dom or "≈" in dom


def test_the_page_shows_a_decimal_beside_every_long_fraction(tmp_path):
    import math

    from udpm.auditing.adapters import opendp as odp

    report = audit(odp.geometric_bounded(5, 1 / math.log(2)), "1/2")
    for text in (report.to_text(), report.to_html()):
        assert "suboptimal by 2.436e-16 (exactly 649974…993/266784…832)" in text
        assert not re.search(r"\d{13,}", text.replace("1.4426950408889634", "")), re.findall(r"\d{13,}", text)


def test_a_library_mechanism_with_an_irrational_ratio_is_drawn_too(chromium, tmp_path):
    import math

    from udpm.auditing.adapters import diffprivlib as dpl

    page = tmp_path / "lib.html"
    page.write_text(audit(dpl.geometric_truncated(6, math.log(2)), "1/2").to_html(), encoding="utf-8")
    proc, requests = headless(chromium, page, tmp_path / "dom", "--dump-dom")
    assert proc.returncode == 0 and requests == []
    assert "drawn in floating point; every verdict above is exact" in proc.stdout
    labels = re.findall(r"<svg[^>]*aria-label=\"([^\"]*)\"", proc.stdout)
    assert labels[:3] == ["M", "T(6, 1/2)", "privacy ratios"]
