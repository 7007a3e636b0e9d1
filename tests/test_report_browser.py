"""build/report.html in a real browser: headless Chromium renders it offline, with the summary table and figures.

The set-up installs Debian's ``chromium`` with apt-get when it is missing and we are
root.  Where that is impossible (not root, no apt-get, no package source) the tests
are skipped with the reason; they never pass without having looked at the page.

Chromium runs with its host resolver mapped to nothing, so no request can leave the
machine, and with a network log: a request the page itself starts (its network
isolation key is the file:// site) is a failure, whatever its scheme or host.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IDS = ["grs2011.fig1a", "gs2010.appB", "zlcn2013.def6"]
TIMEOUT = 90


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def chromium() -> str:
    """The chromium binary, installed from Debian's packages when missing and possible; else a clear skip."""
    path = find_chromium()
    if path:
        return path
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        pytest.skip("Chromium is not installed and this user is not root, so apt-get cannot install it")
    if not shutil.which("apt-get"):
        pytest.skip("Chromium is not installed and there is no apt-get to install Debian's chromium package")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
        except subprocess.TimeoutExpired:
            pytest.skip(f"`{' '.join(cmd)}` did not finish within 900 s; cannot install Chromium")
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            pytest.skip(f"`{' '.join(cmd)}` failed ({last}); cannot install Chromium")
    path = find_chromium()
    if not path:
        pytest.skip("apt-get installed chromium but no chromium binary is on PATH")
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """build/report.html of a small selection, rendered in a throwaway copy of the project."""
    project = tmp_path_factory.mktemp("project")
    for name in ("udpm", "proofs", "experiments", "paper_tables"):
        shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "reproduce.py", project / "reproduce.py")
    args = [x for cid in IDS for x in ("--only", cid)]
    proc = subprocess.run(
        [sys.executable, "reproduce.py", *args, "--report", "--out", "build"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
    )
    # Exit 1 may also be a golden difference (paper_tables/expected.json), not this test's concern.
    assert proc.returncode in (0, 1) and "report failed" not in proc.stderr, proc.stdout + proc.stderr
    assert (project / "build" / "report.html").exists(), proc.stdout + proc.stderr
    return project / "build" / "report.html"


def headless(chromium: str, page: Path, tmp: Path, *mode: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run Chromium on ``page`` offline; return the process and the URLs that the page itself asked the network for."""
    tmp.mkdir(parents=True, exist_ok=True)
    netlog = tmp / "netlog.json"
    cmd = [
        chromium,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        f"--user-data-dir={tmp / 'profile'}",
        f"--log-net-log={netlog}",
        *mode,
        page.resolve().as_uri(),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    return proc, page_requests(netlog)


def page_requests(netlog: Path) -> list[str]:
    """URLs of network requests started on behalf of a file:// page (Chromium's own update pings are not)."""
    if not netlog.exists():
        return ["<no network log was written>"]
    text = netlog.read_text(encoding="utf-8", errors="replace").rstrip()
    if not text.endswith("}"):  # a log cut short by the browser's exit: close it
        text = text.rstrip(",\n") + "]}"
    data = json.loads(text)
    start = data["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    out = []
    for event in data.get("events", []):
        params = event.get("params") or {}
        if event.get("type") == start and "file://" in str(params.get("network_isolation_key", "")):
            out.append(str(params.get("url")))
    return out


def rendered_problems(dom: str) -> list[str]:
    """What the rendered report lacks: the summary table with a total row, a figure with an inline image, cards."""
    problems = []
    table = re.search(r'<table[^>]*id="summary-table"[^>]*>(.*?)</table>', dom, re.DOTALL)
    if not table:
        problems.append("no summary table")
    elif 'class="total"' not in table.group(1):
        problems.append("the summary table has no total row")
    if not re.search(r'<figure[^>]*>\s*<img[^>]*src="data:image/png;base64,[A-Za-z0-9+/=]{200,}"', dom):
        problems.append("no figure with an inline PNG")
    for cid in IDS:
        if f'<section class="claim" id="{cid}">' not in dom:
            problems.append(f"no card for {cid}")
    if 'id="status-legend"' not in dom:
        problems.append("no legend of the statuses")
    return problems


def test_report_renders_offline_with_summary_table_and_figures(chromium, report, tmp_path):
    proc, requests = headless(chromium, report, tmp_path / "dom", "--dump-dom")
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert rendered_problems(dom) == []
    assert dom.count("<figure") >= 2  # the plots (and the regenerated figures when present)
    for cid in IDS:
        assert re.search(
            rf'<a href="#{re.escape(cid)}">{re.escape(cid)}</a></td><td>[^<]*</td><td><span class="status', dom
        )
    assert requests == [], f"the report asked the network for {requests}"


def test_screenshot_shows_the_page(chromium, report, tmp_path):
    import matplotlib.image as mpimg
    import numpy as np

    shot = tmp_path / "report.png"
    proc, requests = headless(chromium, report, tmp_path / "shot", f"--screenshot={shot}", "--window-size=1280,2400")
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = mpimg.imread(shot)[..., :3]
    assert pixels.shape[:2] == (2400, 1280)
    ink = (pixels.mean(axis=2) < 0.9).mean()  # share of pixels that are not (near) white
    colours = len(np.unique((pixels[::4, ::4] * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    assert ink > 0.02 and colours > 50, f"the screenshot looks blank: ink {ink:.3f}, {colours} colours"
    assert requests == []
    keep = os.environ.get("UDPM_SCREENSHOT")
    if keep:  # to look at it: UDPM_SCREENSHOT=/tmp/report.png pytest tests/test_report_browser.py
        shutil.copy(shot, keep)


def test_the_checks_catch_a_broken_or_online_page(chromium, report, tmp_path):
    """False variants: a page without the summary table and with an external image must fail both checks."""
    page = report.read_text(encoding="utf-8")
    broken = page.replace('id="summary-table"', 'id="something-else"', 1)
    broken = re.sub(r'src="data:image/png;base64,[^"]*"', 'src="http://127.0.0.1:9/figure.png"', broken)
    bad = tmp_path / "broken.html"
    bad.write_text(broken, encoding="utf-8")
    proc, requests = headless(chromium, bad, tmp_path / "broken", "--dump-dom")
    problems = rendered_problems(proc.stdout)
    assert "no summary table" in problems and "no figure with an inline PNG" in problems
    assert any(u.startswith("http://127.0.0.1:9/figure.png") for u in requests), requests
