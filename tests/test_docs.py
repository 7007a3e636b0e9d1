"""The documentation: the command-line page is current, and the site builds with warnings as errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from udpm.outputs import cli_reference

ROOT = Path(__file__).resolve().parent.parent


def test_the_cli_page_is_each_commands_own_help():
    assert cli_reference.PAGE.read_text(encoding="utf-8") == cli_reference.page(), (
        "docs/cli.md is stale: run python -m udpm.outputs.cli_reference"
    )


def test_no_command_in_the_cli_page_fails_on_help():
    text = cli_reference.PAGE.read_text(encoding="utf-8")
    assert "Traceback" not in text and "cannot read" not in text and "error:" not in text


def test_the_site_builds_strict(tmp_path):
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).with_name("mkdocs"))
    if not Path(mkdocs).exists():
        pytest.skip("mkdocs is not installed (it comes with the '[docs]' extra)")
    done = subprocess.run(
        [mkdocs, "build", "--strict", "-q", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def test_the_cli_page_names_no_path_of_this_checkout():
    assert str(cli_reference.ROOT) not in cli_reference.PAGE.read_text(encoding="utf-8")
