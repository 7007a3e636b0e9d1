"""A claim read from the cache shows the time it took to decide, and that it came from the cache."""

from __future__ import annotations

import io

from udpm.claims.registry import Context, load_checkers
from udpm.run.cache import Cache
from udpm.run.executor import run
from udpm.run.progress import Lines

FAST = "grs2011.ex2.1"  # a symbolic all-n check, well under a second


def test_a_cached_claim_keeps_the_time_it_took_to_decide(tmp_path, monkeypatch):
    monkeypatch.setenv("UDPM_CACHE_KEY", "a key for this test only")
    load_checkers()
    ctx = Context(quick=True)
    fresh = io.StringIO()
    decided = run([FAST], ctx, cache=Cache(tmp_path / "cache"), listener=Lines(fresh))[FAST][1]
    assert decided > 0 and "from the cache" not in fresh.getvalue()
    again = io.StringIO()
    cached = run([FAST], ctx, cache=Cache(tmp_path / "cache"), listener=Lines(again))[FAST][1]
    assert cached == round(decided, 3)  # the run's document and console show the time it took, not 0
    assert f"[  1/1] {FAST}  ({cached:.2f} s, from the cache)" in again.getvalue().splitlines()
    off = io.StringIO()
    run([FAST], ctx, cache=None, listener=Lines(off))
    assert "from the cache" not in off.getvalue()
