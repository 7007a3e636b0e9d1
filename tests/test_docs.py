"""The documentation: the command-line page is current, and the site builds with warnings as errors."""

from __future__ import annotations

import ast
import re
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


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).with_name("mkdocs"))
    if not Path(mkdocs).exists():
        pytest.skip("mkdocs is not installed (it comes with the '[docs]' extra)")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [mkdocs, "build", "--strict", "-q", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return out


def test_the_site_builds_strict(site):
    assert (site / "index.html").is_file()


def public_names() -> set[str]:
    """Every public top-level function and class of every module of udpm/ (names not starting with _)."""
    names = set()
    for path in sorted((ROOT / "udpm").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and not node.name.startswith(
                "_"
            ):
                names.add(f"{module}.{node.name}")
    return names


def test_every_public_function_and_class_is_in_the_api_reference(site):
    documented = set()
    for page in (site / "api").rglob("*.html"):
        documented |= set(re.findall(r'id="(udpm(?:\.\w+)+)"', page.read_text(encoding="utf-8")))
    missing = sorted(public_names() - documented)
    assert not missing, f"not in docs/api/*.md: {missing[:20]}"


def test_the_api_reference_check_sees_a_missing_name():
    """The check above fires: a public name nobody documents is reported."""
    assert "udpm.core.mechanisms.truncated_geometric" in public_names()
    assert "udpm.core.mechanisms._no_such_private" not in public_names()


def test_the_cli_page_names_no_path_of_this_checkout():
    assert str(cli_reference.ROOT) not in cli_reference.PAGE.read_text(encoding="utf-8")
