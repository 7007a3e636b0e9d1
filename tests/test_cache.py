"""udpm.run.cache: entries round-trip, a rerun reuses them, corrupt or truncated entries are detected and recomputed."""

from __future__ import annotations

import json

import pytest

from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.claims.records import canonical
from udpm.claims.registry import Context, load_checkers
from udpm.run import executor
from udpm.run.cache import Cache, cacheable, code_hash, from_payload, to_payload

CLAIM = "grs2011.lemma5.5"  # planned: one task per (n, alpha), a few seconds in all at the quick scope


def _findings() -> Findings:
    rec = Findings("demo")
    with rec.deciding(n=2, alpha="1/2", kind=BOUNDED, method="m", covers="c", user="u1") as d:
        d.counterexample("witness")
    rec.decide(True, n=1, alpha="1/3", kind=BOUNDED, method="m")
    rec.value(x="1/2")
    rec.erratum("Table 1", "0.5", "1/3", "typo", "why")
    rec.certificate = {"a": [1, "2"]}
    rec.note("note")
    return rec


def test_findings_round_trip_exactly():
    rec = _findings()
    back = from_payload(json.loads(json.dumps(to_payload(rec))))
    assert back == rec


def test_inconclusive_findings_are_not_cached(tmp_path):
    rec = Findings("demo")
    rec.decide(None, n=1, alpha="1/2", kind=BOUNDED, method="m")
    assert not cacheable(rec)
    assert not Cache(tmp_path).put("k" * 64, rec)


def test_corrupt_and_truncated_entries_are_reported_removed_and_missed(tmp_path):
    cache = Cache(tmp_path)
    key = cache.key("demo", [1, "1/2"], {}, "udpm")
    assert cache.put(key, _findings())
    assert cache.get(key) == _findings()
    path = next(tmp_path.rglob(f"{key}.json"))
    text = path.read_text()
    path.write_text(text.replace("witness", "wITness"))  # the payload edited: the HMAC no longer verifies
    assert cache.get(key) is None and not path.exists()
    assert "not authenticated" in cache.problems[-1]
    cache.put(key, _findings())
    path.write_text(text[: len(text) // 2])  # truncated
    assert cache.get(key) is None and "not a cache entry" in cache.problems[-1]
    assert (tmp_path / ".gitignore").exists()


def test_code_hash_follows_the_check_module_and_its_imports(tmp_path):
    for d in ("udpm", "proofs"):
        (tmp_path / d).mkdir()
    (tmp_path / "udpm" / "core.py").write_text("X = 1\n")
    (tmp_path / "proofs" / "a.py").write_text("from proofs.b import f\n")
    (tmp_path / "proofs" / "b.py").write_text("def f(): return 1\n")
    (tmp_path / "proofs" / "c.py").write_text("# unrelated\n")
    before = code_hash("proofs.a", tmp_path)
    (tmp_path / "proofs" / "c.py").write_text("# unrelated, changed\n")
    code_hash.cache_clear()
    assert code_hash("proofs.a", tmp_path) == before
    (tmp_path / "proofs" / "b.py").write_text("def f(): return 2\n")  # the deciding code changed
    code_hash.cache_clear()
    assert code_hash("proofs.a", tmp_path) != before
    changed = code_hash("proofs.a", tmp_path)
    (tmp_path / "udpm" / "core.py").write_text("X = 2\n")
    code_hash.cache_clear()
    assert code_hash("proofs.a", tmp_path) != changed
    code_hash.cache_clear()


@pytest.mark.parametrize("statement", ["from .b import f", "from . import b", "from proofs import b"])
def test_code_hash_follows_relative_imports_too(tmp_path, statement):
    for d in ("udpm", "proofs"):
        (tmp_path / d).mkdir()
    (tmp_path / "proofs" / "a.py").write_text(statement + "\n")
    (tmp_path / "proofs" / "b.py").write_text("def f(): return 1\n")
    code_hash.cache_clear()
    before = code_hash("proofs.a", tmp_path)
    (tmp_path / "proofs" / "b.py").write_text("def f(): return 2\n")
    code_hash.cache_clear()
    assert code_hash("proofs.a", tmp_path) != before
    code_hash.cache_clear()


def test_a_rerun_reuses_every_task_and_a_corrupted_entry_is_recomputed(tmp_path):
    load_checkers()
    ctx = Context()
    first_cache = Cache(tmp_path)
    first = executor.run([CLAIM], ctx, cache=first_cache)[CLAIM][0]
    assert first_cache.writes >= 2 and first_cache.hits == 0
    # drop the claim-level entry so that the rerun goes through its tasks, and corrupt one task entry
    (tmp_path / executor.claim_key(first_cache, CLAIM, ctx)[:2]).joinpath(
        executor.claim_key(first_cache, CLAIM, ctx) + ".json"
    ).unlink()
    tasks = executor.plan_of(CLAIM).tasks(ctx)
    key = executor.task_key(first_cache, CLAIM, tasks[-1], ctx)
    path = tmp_path / key[:2] / f"{key}.json"
    path.write_bytes(path.read_bytes()[:-40])
    again = Cache(tmp_path)
    second = executor.run([CLAIM], ctx, cache=again)[CLAIM][0]
    assert again.hits == len(tasks) - 1 and len(again.problems) == 1
    assert canonical(to_payload(second)) == canonical(to_payload(first))
    third = Cache(tmp_path)
    # the whole claim, with the time it took to decide when it was stored
    assert executor.run([CLAIM], ctx, cache=third)[CLAIM][1] > 0.0 and third.hits == 1
