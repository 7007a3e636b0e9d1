"""The layout's rules hold: udpm/'s layers import only downwards, no two modules or packages import each other,
and the library never imports the checks ([tool.importlinter] in pyproject.toml, checked by import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def lint_imports(cwd: Path, *args: str, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (it comes with the '[test]' extra)")
    env = {"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(pythonpath or cwd)}
    return subprocess.run([exe, "--no-cache", *args], cwd=cwd, capture_output=True, text=True, env=env)


def test_the_layers_and_families_of_the_harness_hold():
    proc = lint_imports(ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert "Contracts: 3 kept, 0 broken." in proc.stdout


def _tree(base: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


CONFIG = """
[importlinter]
root_packages =
    lib

[importlinter:contract:layers]
name = layers
type = layers
layers =
    lib.high
    lib.low

[importlinter:contract:acyclic]
name = acyclic
type = acyclic_siblings
ancestors =
    lib
"""


@pytest.mark.parametrize(
    ("files", "broken"),
    [
        ({"lib/low/a.py": "import lib.high.b\n"}, "layers BROKEN"),  # a lower layer imports a higher one
        (
            {"lib/high/b.py": "import lib.high.c\n", "lib/high/c.py": "def f():\n    import lib.high.b\n"},
            "acyclic BROKEN",
        ),
    ],
)
def test_the_contracts_catch_a_lower_layer_importing_upwards_and_a_cycle(tmp_path, files, broken):
    """The same contract types, on a small tree that breaks each one: a guard with a case where it must fire."""
    _tree(
        tmp_path,
        {"lib/__init__.py": "", "lib/high/__init__.py": "", "lib/low/__init__.py": "", ".importlinter": CONFIG},
    )
    _tree(tmp_path, {"lib/high/b.py": "", "lib/high/c.py": "", "lib/low/a.py": "", **files})
    proc = lint_imports(tmp_path)
    assert proc.returncode == 1 and broken in proc.stdout, proc.stdout
