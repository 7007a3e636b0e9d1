"""Fixtures shared by the test modules."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A throwaway copy of the code and paper_tables/ (reproduce.py puts its own directory first on sys.path)."""
    for name in ("udpm", "proofs", "experiments", "paper_tables"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "figures"))
    for name in ("reproduce.py", "README.md"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path
