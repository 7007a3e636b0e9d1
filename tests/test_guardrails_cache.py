"""Guard rails of the cache key (udpm.run.cache.code_hash): an edit anywhere in the code that decides a task gives new
keys, so that no stale entry stays valid.  Each test edits one file the key must cover, at any depth of udpm/ and
of the proofs/experiments packages a check imports, and sees the hash change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from udpm.run.cache import ROOT, Cache, code_hash


def _hash(module: str, root: Path) -> str:
    """The code hash as computed afresh (code_hash memoises per (module, root))."""
    code_hash.cache_clear()
    try:
        return code_hash(module, root)
    finally:
        code_hash.cache_clear()


def _write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small harness layout: udpm with a subpackage two levels deep, a check in proofs importing a proofs
    subpackage and an experiments module."""
    files = {
        "udpm/__init__.py": "",
        "udpm/core.py": "X = 1\n",
        "udpm/auditing/adapters/__init__.py": "",
        "udpm/auditing/adapters/opendp.py": "Y = 1\n",
        "udpm/auditing/adapters/deep/__init__.py": "",
        "udpm/auditing/adapters/deep/inner.py": "Z = 1\n",
        "proofs/__init__.py": "",
        "proofs/check.py": "from proofs.sub.helper import f\nimport experiments.tables\n",
        "proofs/sub/__init__.py": "",
        "proofs/sub/helper.py": "from .leaf import g\ndef f(): return g()\n",
        "proofs/sub/leaf.py": "def g(): return 1\n",
        "proofs/lazy.py": "def run():\n    from proofs.sub import leaf\n    return leaf.g()\n",
        "experiments/__init__.py": "",
        "experiments/tables.py": "T = [1]\n",
    }
    for rel, text in files.items():
        _write(tmp_path, rel, text)
    return tmp_path


@pytest.mark.parametrize(
    "rel",
    [
        "udpm/core.py",
        "udpm/auditing/adapters/opendp.py",
        "udpm/auditing/adapters/__init__.py",
        "udpm/auditing/adapters/deep/inner.py",
        "proofs/check.py",
        "proofs/sub/helper.py",
        "proofs/sub/leaf.py",
        "experiments/tables.py",
    ],
)
def test_an_edit_to_any_deciding_file_changes_the_code_hash(tree, rel):
    before = _hash("proofs.check", tree)
    assert _hash("proofs.check", tree) == before  # deterministic
    path = tree / rel
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert _hash("proofs.check", tree) != before, f"an edit to {rel} left the code hash unchanged"


@pytest.mark.parametrize(
    "rel", ["udpm/auditing/adapters/tumult.py", "udpm/auditing/adapters/deep/more.py", "udpm/newpkg/m.py"]
)
def test_a_new_file_in_a_udpm_subpackage_changes_the_code_hash(tree, rel):
    before = _hash("proofs.check", tree)
    _write(tree, rel, "W = 1\n")
    assert _hash("proofs.check", tree) != before


def test_an_import_inside_a_function_is_followed(tree):
    before = _hash("proofs.lazy", tree)
    path = tree / "proofs/sub/leaf.py"
    path.write_text("def g(): return 2\n", encoding="utf-8")
    assert _hash("proofs.lazy", tree) != before


def test_a_module_the_check_does_not_import_leaves_the_hash(tree):
    before = _hash("proofs.check", tree)
    _write(tree, "proofs/lazy.py", "# unrelated, edited\n")
    _write(tree, "experiments/unrelated.py", "U = 1\n")
    assert _hash("proofs.check", tree) == before


def test_an_edit_in_the_real_adapters_subpackage_changes_the_key(tmp_path):
    """The harness's own udpm/ (copied): an edit to udpm/auditing/adapters/ gives every task a new cache key."""
    shutil.copytree(ROOT / "udpm", tmp_path / "udpm", ignore=shutil.ignore_patterns("__pycache__"))
    adapters = sorted((tmp_path / "udpm" / "auditing" / "adapters").glob("*.py"))
    assert len(adapters) >= 2, "udpm/auditing/adapters/ holds the adapter modules"
    before = _hash("udpm.claims.evidence", tmp_path)
    for path in adapters:
        text = path.read_text(encoding="utf-8")
        path.write_text(text + "\n# edited\n", encoding="utf-8")
        assert _hash("udpm.claims.evidence", tmp_path) != before, (
            f"an edit to {path.relative_to(tmp_path)} was not seen"
        )
        path.write_text(text, encoding="utf-8")
        assert _hash("udpm.claims.evidence", tmp_path) == before


def test_the_cache_key_follows_the_code_hash(tree, monkeypatch):
    """Cache.key hashes the code of the check's module: an edit in a subpackage it depends on changes the key."""
    import udpm.run.cache as cache_module

    monkeypatch.setattr(cache_module, "code_hash", lambda module: _hash(module, tree))
    cache = Cache(tree / "cache")
    before = cache.key("demo", ["task", 1], {"seed": 0}, "proofs.check")
    assert cache.key("demo", ["task", 1], {"seed": 0}, "proofs.check") == before
    _write(tree, "udpm/auditing/adapters/deep/inner.py", "Z = 2\n")
    assert cache.key("demo", ["task", 1], {"seed": 0}, "proofs.check") != before
