"""A cache entry that is corrupt, foreign or forged is never trusted: it is reported in one line, removed and
recomputed (udpm.run.cache).  Entries are authenticated by an HMAC under a key kept outside the cache directory."""

from __future__ import annotations

import hashlib
import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.run.cache import Cache, CacheKeyError, key_file, secret

FAST = "grs2011.ex2.1"  # a symbolic all-n check, well under a second, cached as one entry


def _findings(outcome: bool = True) -> Findings:
    rec = Findings("demo")
    rec.decide(outcome, n=1, alpha="1/3", kind=BOUNDED, method="m")
    rec.value(x="1/2")
    return rec


def _stored(root: Path, key_bytes: bytes = b"k") -> tuple[Cache, str, Path]:
    cache = Cache(root, key_bytes=key_bytes)
    key = cache.key("demo", [1, "1/2"], {}, "udpm")
    assert cache.put(key, _findings())
    return cache, key, root / key[:2] / f"{key}.json"


def test_a_non_utf8_byte_is_reported_removed_and_recomputed(tmp_path):
    cache, key, path = _stored(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:20] + b"\xff" + data[21:])
    assert cache.get(key) is None and not path.exists()
    assert cache.problems == [f"cache entry {path.name}: not UTF-8 (byte 20); removed and recomputed"]
    assert cache.put(key, _findings()) and cache.get(key) == _findings()


def test_an_entry_forged_with_a_recomputed_checksum_is_refused(tmp_path):
    cache, key, path = _stored(tmp_path)
    entry = json.loads(path.read_text())
    payload = json.loads(entry["payload"])
    payload["decisions"][0]["outcome"] = "counterexample"  # what a forger would change: the verdict
    entry["payload"] = json.dumps(payload, sort_keys=True)
    entry["hmac"] = hashlib.sha256(entry["payload"].encode()).hexdigest()  # all a forger without the key can do
    entry["sha256"] = entry["hmac"]
    path.write_text(json.dumps(entry))
    assert cache.get(key) is None and not path.exists()
    why = "not authenticated (its HMAC does not verify under this cache key)"
    assert cache.problems == [f"cache entry {path.name}: {why}; removed and recomputed"]


def test_an_entry_written_under_another_key_is_foreign_and_refused(tmp_path):
    _, key, path = _stored(tmp_path, key_bytes=b"another host's key")
    mine = Cache(tmp_path, key_bytes=b"my key")
    assert mine.get(key) is None and not path.exists() and "not authenticated" in mine.problems[0]


def test_an_entry_of_the_previous_format_is_refused(tmp_path):
    cache, key, path = _stored(tmp_path)
    payload = json.loads(path.read_text())["payload"]
    old = {"format": 1, "key": key, "sha256": hashlib.sha256(payload.encode()).hexdigest(), "payload": payload}
    path.write_text(json.dumps(old))
    assert cache.get(key) is None and "format or key does not match" in cache.problems[0]


def test_the_key_is_made_on_first_use_with_mode_0600_outside_the_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("UDPM_CACHE_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    first = Cache(tmp_path / "cache")
    path = key_file()
    assert path == tmp_path / "config" / "udpm" / "cache.key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and len(path.read_text().strip()) == 64
    key = first.key("demo", [1], {}, "udpm")
    first.put(key, _findings())
    assert Cache(tmp_path / "cache").get(key) == _findings()  # the same key, read back
    assert not list((tmp_path / "cache").rglob("*.key"))


def test_a_shared_key_from_the_environment_lets_hosts_share_a_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("UDPM_CACHE_KEY", "cluster secret")
    assert secret() == b"cluster secret"
    _, key, _ = _stored(tmp_path, key_bytes=secret())
    assert Cache(tmp_path).get(key) == _findings()
    monkeypatch.setenv("UDPM_CACHE_KEY", "another secret")
    assert Cache(tmp_path).get(key) is None


def test_an_unusable_key_file_is_one_error(tmp_path, monkeypatch):
    monkeypatch.delenv("UDPM_CACHE_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/proc/no-config")
    with pytest.raises(CacheKeyError, match=r"^the cache key /proc/no-config/udpm/cache.key can be neither"):
        secret()


def _reproduce(project: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "reproduce.py", "--only", FAST, "--cache-dir", str(project / "c"), *args]
    return subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=300)


def test_a_run_refuses_a_forged_entry_and_recomputes_it(project):
    assert _reproduce(project).returncode == 0
    entries = sorted((project / "c").rglob("*.json"))
    assert len(entries) == 1
    entry = json.loads(entries[0].read_text())
    payload = json.loads(entry["payload"])
    for d in payload["decisions"]:
        d["outcome"] = "counterexample"  # the forged verdict: refuted
    entry["payload"] = json.dumps(payload, sort_keys=True)
    entry["hmac"] = hashlib.sha256(entry["payload"].encode()).hexdigest()
    entries[0].write_text(json.dumps(entry))
    proc = _reproduce(project)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # recomputed: as expected, not refuted
    why = "not authenticated (its HMAC does not verify under this cache key)"
    assert f"reproduce.py: cache entry {entries[0].name}: {why}; removed and recomputed" in proc.stderr.splitlines()
    assert "0 task(s) reused, 1 stored" in proc.stderr


def test_a_run_with_a_non_utf8_entry_reports_it_and_goes_on(project):
    assert _reproduce(project).returncode == 0
    (entry,) = (project / "c").rglob("*.json")
    entry.write_bytes(b"\xff" + entry.read_bytes()[1:])
    line = f"reproduce.py: cache entry {entry.name}: not UTF-8 (byte 0); removed and recomputed"
    proc = _reproduce(project)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert line in proc.stderr.splitlines() and "0 task(s) reused, 1 stored" in proc.stderr
    proc = _reproduce(project)  # the run after it reads the recomputed entry
    assert proc.returncode == 0 and line not in proc.stderr and "1 task(s) reused" in proc.stderr


def test_an_edit_in_a_udpm_subpackage_invalidates_the_entries(project):
    assert _reproduce(project).returncode == 0
    assert "1 task(s) reused" in _reproduce(project).stderr
    adapter = project / "udpm" / "auditing" / "adapters" / "opendp.py"
    adapter.write_text(adapter.read_text() + "\n# edited\n")
    assert "0 task(s) reused, 1 stored" in _reproduce(project).stderr


def test_a_run_without_a_usable_key_goes_on_without_the_cache(project, monkeypatch):
    monkeypatch.delenv("UDPM_CACHE_KEY")
    monkeypatch.setenv("XDG_CONFIG_HOME", "/proc/no-config")
    proc = _reproduce(project, "--clear-cache")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == f"cleared the cache {project / 'c'}"
    assert lines[1].startswith(
        "reproduce.py: the cache is off: the cache key /proc/no-config/udpm/cache.key can be neither read nor created"
    )
    assert lines[1].endswith("; set $UDPM_CACHE_KEY") and "task(s) reused" not in proc.stderr


def test_an_authenticated_entry_whose_lp_certificate_fails_is_refused(tmp_path):
    """What can be re-checked is: even an entry a key holder signed is refused when its certificate is wrong."""
    from fractions import Fraction as F

    from udpm.core.users import BayesianUser, absolute_error
    from udpm.lp.certificates import to_certificate
    from udpm.lp.certify import solve
    from udpm.lp.programs import bayesian_lp

    user = BayesianUser.of([F(1, 4)] * 4, absolute_error(3))
    cert = to_certificate(solve(bayesian_lp(user, F(1, 3)), timeout_s=60), "uniform |i-j| n=3")
    cache = Cache(tmp_path, key_bytes=b"k")
    good, bad = _findings(), _findings()
    good.certificate = {"summary": {}, "lps": [cert]}
    bad.certificate = {"summary": {}, "lps": [{**cert, "objective_value": ["1/2"]}]}  # the optimum, misstated
    for name, found in (("good", good), ("bad", bad)):
        cache.put(cache.key(name, [1], {}, "udpm"), found)
    assert cache.get(cache.key("good", [1], {}, "udpm")) == good
    assert cache.get(cache.key("bad", [1], {}, "udpm")) is None
    assert len(cache.problems) == 1 and "its LP certificate uniform |i-j| n=3 does not verify" in cache.problems[0]


def test_the_pytest_plugin_turns_the_cache_off_when_no_key_can_be_made(monkeypatch, tmp_path):
    from udpm.pytest_plugin import ClaimsPlugin

    monkeypatch.delenv("UDPM_CACHE_KEY", raising=False)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", "/proc/no-config")
    with pytest.warns(UserWarning, match=r"^udpm: the cache is off: the cache key /proc/no-config/udpm/cache.key"):
        assert ClaimsPlugin._cache(tmp_path / "cache", off=False) is None
