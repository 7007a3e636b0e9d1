"""Outputs: an unusable path is one line and exit 2 before any work; a run writes into its own output directory
(udpm.internal.files), names every file it wrote, keeps only its own SMT queries, and never replaces the full run's
certificates with a partial run's."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from udpm.internal.files import default_out

ROOT = Path(__file__).resolve().parent.parent
FAST = "grs2011.ex2.1"


def _strerror(path: str, directory: bool = False) -> str:
    """What the system says when ``path`` is created (the message quotes it)."""
    try:
        if directory:
            os.mkdir(path)
        else:
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY))
    except OSError as exc:
        return exc.strerror
    raise AssertionError(f"{path} was writable")


def _reproduce(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(ROOT / "reproduce.py"), *args]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)


def _udpm_check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "udpm.cli", "check", *args]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


CASES = [
    (["--json", "/proc/x.json"], "--json /proc/x.json: cannot be written ({})", "/proc/x.json", False),
    (["--junit", "/proc/j.xml"], "--junit /proc/j.xml: cannot be written ({})", "/proc/j.xml", False),
    (["--cache-dir", "/proc/c"], "--cache-dir /proc/c: cannot be created or written ({})", "/proc/c", True),
    (["--out", "/proc/o"], "--out /proc/o: cannot be created or written ({})", "/proc/o", True),
]


@pytest.mark.parametrize("args, message, path, directory", CASES)
@pytest.mark.parametrize("command", ["reproduce.py", "udpm check"])
def test_an_unwritable_output_is_one_line_and_exit_2_before_any_work(tmp_path, args, message, path, directory, command):
    started = time.monotonic()
    run = _reproduce if command == "reproduce.py" else _udpm_check
    proc = run("--only", FAST, *args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr == f"{command}: error: {message.format(_strerror(path, directory))}\n"
    assert proc.stdout == "" and time.monotonic() - started < 30
    assert not (tmp_path / "build").exists()


def test_a_partial_run_writes_under_build_runs_and_names_every_file(tmp_path):
    proc = _reproduce("--only", FAST, "--json", "r.json", "--no-cache", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    wrote = lines[lines.index("wrote:") + 1 :]
    assert wrote[:3] == [
        "  r.json",
        f"  build/runs/{FAST}/certificates/ (0 certificate file(s))",
        f"  build/runs/{FAST}/smt/ (0 SMT-LIB queries asked by this run)",
    ]
    assert (tmp_path / "r.json").is_file() and (tmp_path / "build" / "runs" / FAST / "smt").is_dir()
    assert not (tmp_path / "build" / "certificates").exists()


def test_udpm_check_from_another_directory_writes_there(tmp_path):
    proc = _udpm_check("--only", FAST, "--no-cache", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"  build/runs/{FAST}/certificates/ (0 certificate file(s))" in proc.stdout.splitlines()
    assert (tmp_path / "build" / "runs" / FAST / "certificates").is_dir()


def test_the_default_output_directory_of_a_selection():
    assert default_out([], None, None) == Path("build")
    assert default_out(["grs2011.lemma5.*"], "grs2011", None) == Path("build/runs/grs2011.lemma5._+paper-grs2011")
    assert default_out([], None, (2, 5)) == Path("build/runs/shard-2of5")


def test_smt_holds_only_the_current_runs_queries(tmp_path):
    out = tmp_path / "o"
    args = ["--only", "grs2011.lemma5.5", "--no-cache", "--out", str(out)]
    assert _reproduce(*args, cwd=tmp_path).returncode == 0
    first = sorted(p.name for p in (out / "smt").iterdir())
    assert first and all(name.endswith(".smt2") for name in first)
    (out / "smt" / "stale.smt2").write_text("(check-sat)\n")  # a query of an earlier run
    proc = _reproduce(*args, cwd=tmp_path)
    assert proc.returncode == 0
    assert sorted(p.name for p in (out / "smt").iterdir()) == first
    assert f"  o/smt/ ({len(first)} SMT-LIB queries asked by this run)" in proc.stdout.splitlines()
    assert sorted(p.name for p in out.iterdir()) == ["certificates", "smt"]  # no staging directory is left


def test_cvc5_reads_the_queries_of_a_run_whose_output_directory_is_relative(tmp_path):
    """The default output directory is relative to where the run is; cvc5's helper process is elsewhere."""
    proc = _reproduce("--only", "gs2010.lemma6", "--no-cache", "--json", "r.json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (tmp_path / "r.json").read_text()
    assert "Couldn't open" not in text and '"agreement": "z3+cvc5"' in text
