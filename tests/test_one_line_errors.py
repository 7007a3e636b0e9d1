"""Every command answers a bad argument in one line naming --help, with exit status 2 and no usage block."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

UNKNOWN = "error: unrecognized arguments: --bogus"
COMMANDS = [
    (("reproduce.py", "--bogus"), f"reproduce.py: {UNKNOWN} (see reproduce.py --help)"),
    (("reproduce.py", "--only"), "reproduce.py: error: argument --only: expected one argument (see reproduce.py"),
    (("reproduce.py", "merge", "--bogus"), "reproduce.py merge: error: "),
    (("-m", "udpm.cli", "check", "--bogus"), f"udpm check: {UNKNOWN} (see udpm check --help)"),
    (("-m", "udpm.cli", "audit", "--bogus"), f"udpm audit: {UNKNOWN} (see udpm audit --help)"),
    (("-m", "udpm.cli", "certificates"), "python -m udpm.lp.certificates: error: the following arguments are required"),
    (("-m", "udpm.smt.solvers", "--bogus"), "python -m udpm.smt.solvers: error: unrecognized arguments: --bogus"),
    (("-m", "udpm.claims.variants", "a", "b"), "python -m udpm.claims.variants: error: unrecognized arguments: b"),
]


@pytest.mark.parametrize("argv, first", COMMANDS, ids=[" ".join(a) for a, _ in COMMANDS])
def test_a_bad_argument_is_one_line_and_exit_2(argv, first, tmp_path):
    done = subprocess.run([sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(first), done.stderr
    assert "usage:" not in done.stderr and "Traceback" not in done.stderr
