"""reproduce.py end to end: exit codes, one-line errors, golden diffs, atomic writes, the JSON schema.

Runs that mutate paper_tables/ do so in a temporary copy of the project, so the
real golden files are never touched.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--only", "grs2011.fig1*", "--only", "gs2010.appB", "--only", "zlcn2013.def6"]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """reproduce.py in ``cwd``; a run in the checkout itself writes its outputs to a temporary --out."""
    if cwd == ROOT and "--out" not in args:
        args = (*args, "--out", tempfile.mkdtemp(prefix="udpm-test-out-"))
    return subprocess.run(
        [sys.executable, str(cwd / "reproduce.py"), *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def schema() -> dict:
    return json.loads((ROOT / "udpm" / "outputs" / "results.schema.json").read_text())


def test_list_names_every_claim_in_claims_md():
    out = run("--list").stdout
    ids = {line.split()[0] for line in out.splitlines() if line[:1].isalpha() and "." in line.split()[0]}
    claims_md = ROOT.parent / "shared" / "CLAIMS.md"
    if claims_md.exists():
        wanted = {
            cells[1].strip()
            for cells in (ln.split("|") for ln in claims_md.read_text().splitlines())
            if len(cells) > 2 and cells[1].strip().count(".") >= 1 and cells[1].strip()[:3] in ("grs", "gs2", "zlc")
        }
        assert wanted <= ids
    assert "pending" in out.lower() or "0 pending" in out


def test_fast_claims_pass_and_json_has_the_schema(tmp_path):
    out = tmp_path / "out.json"
    proc = run(*FAST, "--json", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc = json.loads(out.read_text())
    jsonschema.Draft202012Validator(schema()).validate(doc)
    assert doc["schema"] == 2 and set(doc["summary"]) >= {"by_status", "by_paper", "errata"}
    row = next(c for c in doc["claims"] if c["id"] == "grs2011.fig1b")
    assert row["status"] == "reproduced" and row["grid"]["table"] == [{"alphas": ["1/2"], "n": [5]}]
    assert row["values"]["T"].startswith("[[2/3, 1/6, 1/12")


def test_the_schema_rejects_a_declared_verdict_without_instances(tmp_path):
    out = tmp_path / "out.json"
    assert run("--only", "zlcn2013.def6*", "--json", str(out)).returncode == 0
    doc = json.loads(out.read_text())
    assert [c["status"] for c in doc["claims"]] == ["refuted", "proved"]  # as printed (n = 0), and over n >= 1
    for k in range(2):
        forged = json.loads(out.read_text())
        forged["claims"][k]["instances"]["decided"] = 0
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft202012Validator(schema()).validate(forged)
    doc["claims"][0]["instances"]["counterexample"] = 0  # a refutation no instance shows
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(schema()).validate(doc)


def test_two_runs_write_identical_claim_records(tmp_path):
    docs = []
    for k in range(2):
        path = tmp_path / f"run{k}.json"
        assert run(*FAST, "--json", str(path)).returncode == 0
        docs.append(json.loads(path.read_text())["claims"])
    assert docs[0] == docs[1]


def test_unknown_id_is_a_one_line_error():
    proc = run("--only", "nonexistent")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "no claim matches 'nonexistent'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_perturbed_printed_entry_fails_the_run_and_names_it(project):
    path = project / "paper_tables" / "printed" / "grs2011.json"
    data = json.loads(path.read_text())
    data["items"]["fig1b"]["values"][2][3] = "1/7"
    path.write_text(json.dumps(data))
    before = (project / "paper_tables" / "expected.json").read_bytes()
    proc = run("--only", "grs2011.fig1b", cwd=project)
    assert proc.returncode == 1
    assert "Figure 1(b)[2][3]" in proc.stdout and "1/7" in proc.stdout
    assert (project / "paper_tables" / "expected.json").read_bytes() == before


def test_malformed_expectations_are_a_one_line_error(project):
    (project / "paper_tables" / "expected.json").write_text('{"schema": 1, "claims": [')
    proc = run("--only", "grs2011.fig1b", cwd=project)
    assert proc.returncode == 2 and "expected.json is not valid JSON" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_changed_golden_value_fails_and_update_prints_the_diff(project):
    path = project / "paper_tables" / "expected.json"
    data = json.loads(path.read_text())
    data["claims"]["grs2011.fig1b"]["values"]["T"] = "[[1]]"
    path.write_text(json.dumps(data))
    proc = run("--only", "grs2011.fig1b", cwd=project)
    assert proc.returncode == 1 and "grs2011.fig1b: value T" in proc.stdout
    proc = run("--only", "grs2011.fig1b", "--update-expected", cwd=project)
    assert proc.returncode == 0 and "value T" in proc.stdout
    assert run("--only", "grs2011.fig1b", cwd=project).returncode == 0


def test_bad_arguments_exit_2():
    assert run("--jobs", "0").returncode == 2
    assert run("--paper", "nope").returncode == 2


def test_jobs_and_filters_give_byte_identical_claim_records(tmp_path):
    """A serial run, a --jobs 2 run, and filtered runs merged by claim: the same records, byte for byte."""
    serial, parallel = tmp_path / "a.json", tmp_path / "b.json"
    assert run(*FAST, "--json", str(serial)).returncode == 0
    assert run(*FAST, "--jobs", "2", "--json", str(parallel)).returncode == 0
    parts = []
    for k, pattern in enumerate(("grs2011.fig1*", "gs2010.appB", "zlcn2013.def6")):
        parts.append(tmp_path / f"part{k}.json")
        assert run("--only", pattern, "--json", str(parts[-1])).returncode == 0
    records = [sys.executable, "-m", "udpm.claims.records", "same"]
    for other in ([parallel], parts):
        proc = subprocess.run([*records, str(serial), *map(str, other)], cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


def test_a_check_that_runs_out_of_time_is_inconclusive_and_exits_3():
    proc = run("--only", "grs2011.ex2.2", "--claim-timeout", "0.01")
    assert proc.returncode == 3
    assert "inconclusive" in proc.stdout and "wall-clock bound" in proc.stdout


def test_malformed_transcription_is_a_one_line_error(project):
    (project / "paper_tables" / "printed" / "grs2011.json").write_text("{not json")
    proc = run("--only", "grs2011.fig1b", cwd=project)
    assert proc.returncode == 2 and "printed/grs2011.json is not valid JSON" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_full_runs_compare_statuses_not_quick_golden_values(project):
    path = project / "paper_tables" / "expected.json"
    data = json.loads(path.read_text())
    data["claims"]["grs2011.fig1b"]["values"]["T"] = "[[1]]"  # a quick-mode golden value a full run ignores
    path.write_text(json.dumps(data))
    assert run("--only", "grs2011.fig1b", "--full", cwd=project).returncode == 0
    data["claims"]["grs2011.fig1b"]["status"] = "erratum"
    path.write_text(json.dumps(data))
    assert run("--only", "grs2011.fig1b", "--full", cwd=project).returncode == 1
    assert run("--only", "grs2011.fig1b", "--full", "--update-expected", cwd=project).returncode == 2


def test_a_solver_timeout_is_inconclusive_and_exits_3():
    proc = run("--only", "grs2011.lemma5.9", "--solver-timeout", "0.001")
    assert proc.returncode == 3
    assert "status inconclusive" in proc.stdout and "z3 answered unknown" in proc.stdout


def test_update_expected_refuses_undecided_claims_and_writes_nothing(project):
    golden = project / "paper_tables" / "expected.json"
    before = golden.read_bytes()
    proc = run("--only", "grs2011.ex2.2", "--claim-timeout", "0.01", "--update-expected", cwd=project)
    assert proc.returncode == 2 and "refusing to store" in proc.stderr and "grs2011.ex2.2" in proc.stderr
    assert golden.read_bytes() == before


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda d: d, "is a directory"),
        (lambda d: d / "missing" / "out.json", "does not exist"),
    ],
)
def test_an_unusable_json_path_is_refused_before_any_check_runs(tmp_path, make, message):
    started = time.perf_counter()
    proc = run("--only", "grs2011.ex2.2", "--json", str(make(tmp_path)))
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    assert "checking" not in proc.stderr and time.perf_counter() - started < 60


def test_every_only_pattern_must_match():
    proc = run("--only", "grs2011.fig1b", "--only", "grs2011.typo")
    assert proc.returncode == 2 and "'grs2011.typo'" in proc.stderr and proc.stderr.count("\n") == 1


def test_a_float_in_a_printed_transcription_is_bad_input(project):
    path = project / "paper_tables" / "printed" / "grs2011.json"
    data = json.loads(path.read_text())
    data["items"]["fig1b"]["values"][0][0] = 0.6667
    path.write_text(json.dumps(data))
    proc = run("--only", "grs2011.fig1b", cwd=project)
    assert proc.returncode == 2 and "0.6667 is a float" in proc.stderr and "Traceback" not in proc.stderr


def test_written_files_keep_their_mode_and_certificates_are_this_runs_only(project):
    out = project / "out.json"
    out.write_text("{}")
    out.chmod(0o644)
    stale = project / "build" / "runs" / "zlcn2013.def6" / "certificates" / "stale.cert.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    full = project / "build" / "certificates" / "full.cert.json"  # the full run's, which a partial run leaves
    full.parent.mkdir(parents=True)
    full.write_text("{}")
    proc = run("--only", "zlcn2013.def6", "--json", str(out), cwd=project)
    assert proc.returncode == 0
    assert out.stat().st_mode & 0o777 == 0o644
    assert not stale.exists() and stale.parent.is_dir()  # this run's certificates only (it has none)
    assert full.read_text() == "{}" and sorted(p.name for p in full.parent.iterdir()) == ["full.cert.json"]
    assert "  build/runs/zlcn2013.def6/certificates/ (0 certificate file(s))" in proc.stdout.splitlines()
    assert "  out.json" in proc.stdout.splitlines()


SLOW_Z3_CHECK = """
import os, pathlib
import z3
from udpm.claims.registry import checks
from udpm.smt.solvers import decide

@checks("grs2011.lemma5.7")
def slow(ctx):
    pathlib.Path(os.environ["UDPM_TEST_MARKER"]).write_text("in z3")
    xs = [z3.Int(f"x{i}") for i in range(40)]
    decide([z3.Sum([x * x * x for x in xs]) == 12345678901, *[x > 0 for x in xs], z3.Distinct(xs)], timeout_s=300)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigint_during_a_z3_call_stops_the_run_with_130_and_writes_nothing(project, jobs):
    (project / "proofs" / "universality" / "optimal_vertex.py").write_text(
        SLOW_Z3_CHECK
    )  # a module no other module imports
    marker, out = project / "marker", project / "out.json"
    readme = (project / "README.md").read_bytes()
    env = {**os.environ, "UDPM_TEST_MARKER": str(marker)}
    cmd = [sys.executable, "reproduce.py", "--only", "grs2011.lemma5.7", "--jobs", jobs, "--json", str(out)]
    # Ctrl-C on a terminal reaches the whole foreground process group: the run and its Dask workers alike.  The
    # run starts as a terminal's foreground job does, with SIGINT at its default (a shell's background job, as CI
    # may be, inherits SIGINT ignored, and a program started so is meant to ignore it).
    proc = subprocess.Popen(
        cmd,
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while not marker.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    assert marker.exists(), "the check never reached its z3 call"
    time.sleep(1.0)
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    try:
        stdout, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run hung after SIGINT")
    assert time.monotonic() - sent < 10, "the run (and its cluster) took too long to stop"
    assert proc.returncode == 130, stdout + stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert stderr.strip().splitlines()[-1] == "reproduce.py: interrupted; nothing written", stderr
    assert "Exception" not in stderr and "Error" not in stderr  # no Dask tracebacks or log lines either
    assert not out.exists()
    assert not list(project.glob("build/**/certificates")) and not list(project.glob("build/**/smt"))
    assert not list(project.glob("build/**/.*staging*"))  # the staged outputs are removed too
    assert (project / "README.md").read_bytes() == readme
