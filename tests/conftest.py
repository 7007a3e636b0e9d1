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


@pytest.fixture(autouse=True, scope="session")
def _smt_queries_under_tmp(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The SMT queries of the checks the suite runs in this process go to a temporary directory."""
    from udpm.smt import export as smt_export

    smt_export.EXPORT_DIR = tmp_path_factory.mktemp("smt")


@pytest.fixture(autouse=True)
def _cache_under_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test's runs use a cache of their own, in a temporary directory (inherited by every reproduce.py it
    starts), authenticated by a test key: the user's cache and key file are neither read nor written."""
    monkeypatch.setenv("UDPM_CACHE", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("UDPM_CACHE_KEY", "the test suite's cache key")
