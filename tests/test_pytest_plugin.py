"""The pytest plugin (udpm.pytest_plugin): `pytest --udpm PATTERN` runs claims as pytest items."""

from __future__ import annotations

import contextlib
import importlib.metadata
import json

import pytest

from udpm.claims.evidence import Status, unresolved
from udpm.claims.registry import load_checkers
from udpm.pytest_plugin import decide

pytest_plugins = ["pytester"]

ENTRY_POINT = [ep for ep in importlib.metadata.entry_points(group="pytest11") if ep.name == "udpm"]
# Through the installed entry point; before the package is reinstalled with it, loaded by name.
LOAD = [] if ENTRY_POINT else ["-p", "udpm.pytest_plugin"]
FAST = "grs2011.ex2.1"  # a symbolic all-n check, well under a second


@pytest.fixture(autouse=True, scope="module")
def _checks_loaded():
    """The in-process runs restore sys.modules afterwards; numpy & co. cannot be imported twice, so import them
    (every check module) once, here.  A module that fails to import fails the claims' items, with its reason."""
    with contextlib.suppress(Exception):
        load_checkers()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Each test's default cache is its own (never the checkout's .udpm-cache/)."""
    monkeypatch.setenv("UDPM_CACHE", str(tmp_path / "default-cache"))


def test_the_entry_point_names_the_plugin():
    assert [ep.value for ep in ENTRY_POINT] == ["udpm.pytest_plugin"]


def test_without_udpm_the_plugin_does_nothing(pytester, pytestconfig):
    assert pytestconfig.pluginmanager.get_plugin("udpm-claims") is None  # this very session loads the plugin
    pytester.makepyfile(test_mine="def test_one():\n    assert True\n")
    result = pytester.runpytest(*LOAD)
    result.assert_outcomes(passed=1)
    assert "udpm:" not in result.stdout.str()


def test_a_claim_is_one_item_whose_node_id_is_the_claim_id(pytester):
    pytester.makepyfile(test_mine="def test_one():\n    assert False\n")  # not collected: no paths were given
    result = pytester.runpytest(*LOAD, "--udpm", FAST, "-v")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["udpm: 1 claim(s), golden expectations: *expected.json", f"{FAST} PASSED*"])


def test_with_paths_the_claims_join_the_projects_own_tests(pytester):
    pytester.makepyfile(test_mine="def test_one():\n    assert True\n")
    result = pytester.runpytest(*LOAD, "test_mine.py", "--udpm", FAST, "--udpm", "gs2010.def4", "-v")
    result.assert_outcomes(passed=3)
    # gs2010.def4 depends on grs2011.ex2.2: that one runs for the cap, without an item of its own
    assert "grs2011.ex2.2" not in result.stdout.str()
    result.stdout.fnmatch_lines(["test_mine.py::test_one PASSED*", f"{FAST} PASSED*", "gs2010.def4 PASSED*"])


def test_a_golden_difference_fails_with_one_line(pytester):
    golden = pytester.path / "golden.json"
    record = {"status": "verified", "values": {}, "errata": [], "grid": {}}
    golden.write_text(json.dumps({"schema": 2, "claims": {FAST: record}}))
    result = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm-expected", str(golden))
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert f"{FAST}: status proved != expected verified" in out and "Traceback" not in out
    assert "def runtest" not in out  # the reason, not the plugin's code


def test_an_inconclusive_claim_is_skipped_with_its_reason(pytester):
    result = pytester.runpytest(*LOAD, "--udpm", "grs2011.ex2.2", "--udpm-claim-timeout", "0.0001", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(["SKIPPED*inconclusive: no answer within the bound*"])


def test_skip_reasons_are_shown_without_asking(pytester):
    result = pytester.runpytest(*LOAD, "--udpm", "grs2011.ex2.2", "--udpm-claim-timeout", "0.0001", "--udpm-no-cache")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*udpm: claims not decided (skipped, never a pass)*", "grs2011.ex2.2: *inconclusive: no answer within*"]
    )


def test_the_cache_decides_a_claim_once(pytester, tmp_path):
    cache = tmp_path / "cache"
    first = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm-cache-dir", str(cache))
    first.assert_outcomes(passed=1)
    first.stdout.fnmatch_lines([f"udpm: cache {cache}; in process", f"udpm: cache {cache}: 0 task(s) reused, * stored"])
    again = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm-cache-dir", str(cache))
    again.assert_outcomes(passed=1)
    again.stdout.fnmatch_lines([f"udpm: cache {cache}: 1 task(s) reused, 0 stored"])
    off = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm-no-cache")
    off.assert_outcomes(passed=1)
    assert "task(s) reused" not in off.stdout.str() and "udpm: no cache; in process" in off.stdout.str()


def test_udpm_jobs_decides_the_claims_on_the_executor(pytester, monkeypatch):
    import udpm.run.executor

    calls = []
    real = udpm.run.executor.run

    def spy(order, ctx, **kwargs):
        calls.append((list(order), kwargs.get("jobs")))
        return real(order, ctx, **{**kwargs, "jobs": 1})  # the cluster itself is tested in test_dask_cluster.py

    monkeypatch.setattr(udpm.run.executor, "run", spy)
    result = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm", "gs2010.def1", "--udpm-jobs", "2", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["udpm: * 2 Dask workers"])
    assert len(calls) == 1 and calls[0][1] == 2 and {FAST, "gs2010.def1"} <= set(calls[0][0])


def test_under_pytest_xdist_each_worker_decides_its_own_claims(pytester):
    pytest.importorskip("xdist")
    result = pytester.runpytest_subprocess(*LOAD, "--udpm", FAST, "--udpm", "gs2010.def1", "-n", "2")
    result.assert_outcomes(passed=2)


def test_a_check_module_that_cannot_be_imported_fails_every_claim_with_one_line(pytester, monkeypatch):
    import udpm.claims.registry

    def broken():
        raise ImportError("cannot import name 'x' from 'udpm.y'")

    monkeypatch.setattr(udpm.claims.registry, "load_checkers", broken)
    result = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm", "gs2010.lemma1")
    result.assert_outcomes(failed=2)
    out = result.stdout.str()
    # one line per claim's failure section; the short summary repeats it on a wide terminal (CI), so count whole lines
    reason = "the checks could not be imported: ImportError: cannot import name 'x' from 'udpm.y'"
    assert result.stdout.lines.count(reason) == 2
    assert "INTERNALERROR" not in out


def test_without_golden_expectations_a_decided_claim_passes(pytester):
    result = pytester.runpytest(*LOAD, "--udpm", FAST, "--udpm-expected", "none")
    result.assert_outcomes(passed=1)
    assert "golden expectations: none" in result.stdout.str()


def test_without_golden_expectations_refuted_fails_and_proved_passes():
    refuted = unresolved(Status.REFUTED, "n=3, alpha=1/2: the consumer (uniform, |i-j|) gains 1/7")
    assert decide("x.y", refuted, None) == ["x.y: refuted: n=3, alpha=1/2: the consumer (uniform, |i-j|) gains 1/7"]
    assert decide("x.y", unresolved(Status.ERROR, "boom"), None) == ["status error: boom"]
    # with golden expectations, an expected refutation is the harness's finding and passes
    golden = {"status": "refuted", "values": {}, "errata": [], "grid": {}}
    assert decide("x.y", refuted, {"x.y": golden}) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--udpm", "nope.*"], "--udpm: no claim matches 'nope.*'"),
        (["--udpm", FAST, "--udpm-expected", "missing.json"], "--udpm-expected missing.json: no such file"),
        (["--udpm", FAST, "--udpm-claim-timeout", "0"], "--udpm-claim-timeout must be > 0"),
        (["--udpm", FAST, "--udpm-jobs", "0"], "--udpm-jobs must be >= 1"),
    ],
)
def test_bad_options_are_usage_errors(pytester, args, message):
    result = pytester.runpytest(*LOAD, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()
