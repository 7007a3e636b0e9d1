"""udpm audit's messages and exit codes: one line, the documented code, before any work."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from udpm.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def rr(tmp_path: Path) -> Path:
    path = tmp_path / "rr.json"
    path.write_text('[["3/5", "2/5"], ["2/5", "3/5"]]')
    return path


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--eps", "-ln 2", "udpm audit: error: eps=-ln 2: epsilon must be positive (alpha = e^-eps must be in (0, 1))"),
        ("--eps", "ln(1/2)", "udpm audit: error: eps=ln(1/2): epsilon must be positive"),
        ("--eps", "-1", "udpm audit: error: eps=-1: epsilon must be positive"),
        (
            "--alpha",
            "0",
            "udpm audit: error: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 0; "
            "alpha = e^-eps is positive for every eps",
        ),
        (
            "--alpha",
            "-1",
            "udpm audit: error: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got -1; "
            "alpha = e^-eps is positive for every eps",
        ),
        (
            "--alpha",
            "1",
            "udpm audit: error: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 1: eps = 0 is no privacy",
        ),
    ],
)
def test_alpha_and_eps_messages(rr, capsys, flag, value, message):
    assert main(["audit", str(rr), f"{flag}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1
    assert "zlcn2013" not in err


def test_an_alpha_above_one_still_names_the_zlcn2013_convention(rr, capsys):
    assert main(["audit", str(rr), "--alpha", "2"]) == 2
    assert "zlcn2013" in capsys.readouterr().err


def test_help_describes_the_file_formats_and_the_exit_codes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["audit", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for needle in (
        ".json  a list of rows",
        '"mechanism" list of rows',
        ".csv   one row per line",
        "lines starting\n                                      with # are comments",
        "exit status:",
        "  0  the audit ran",
        "  1  it ran and the mechanism does not meet --fail-unless",
        "  2  bad input or an unwritable output",
        "  3  inconclusive",
        "130 interrupted",
        "diffprivlib:GeometricTruncated",
    ):
        assert needle in out, needle


@pytest.mark.parametrize("target", ["/proc/udpm-audit.json", "/proc/no/such/dir/o.json", "/proc"])
def test_an_unwritable_output_is_one_line_and_exit_2_before_any_work(rr, target):
    proc = subprocess.run(
        [sys.executable, "-m", "udpm.cli", "audit", str(rr), "--alpha", "1/2", "--json", target],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"udpm audit: error: --json {target}") and proc.stderr.count("\n") == 1
    assert proc.stdout == ""  # nothing was audited
    assert "Traceback" not in proc.stderr


def test_html_output_too_and_outputs_are_written_whole(rr, tmp_path, capsys):
    assert main(["audit", str(rr), "--alpha", "1/2", "--html", "/proc/x.html"]) == 2
    assert capsys.readouterr().err.startswith("udpm audit: error: --html /proc/x.html: cannot be written")
    out = tmp_path / "o.json"
    out.write_text("old")
    assert main(["audit", str(rr), "--alpha", "1/2", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "udpm-audit/2" and not list(tmp_path.glob(".o.json.*"))
