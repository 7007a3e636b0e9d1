"""reproduce.py end to end: exit codes, one-line errors, golden diffs, atomic writes, the JSON schema.

Runs that mutate paper_tables/ do so in a temporary copy of the project, so the
real golden files are never touched.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--only", "grs2011.fig1*", "--only", "gs2010.appB", "--only", "zlcn2013.def6"]


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(cwd / "reproduce.py"), *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A throwaway copy of the code and paper_tables/ (reproduce.py puts its own directory first on sys.path)."""
    for name in ("udpm", "proofs", "experiments", "paper_tables"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "figures"))
    shutil.copy(ROOT / "reproduce.py", tmp_path / "reproduce.py")
    return tmp_path


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
    assert doc["schema"] == 1 and set(doc["summary"]) >= {"by_status", "by_paper", "errata"}
    row = next(c for c in doc["claims"] if c["id"] == "grs2011.fig1b")
    assert {"id", "paper", "where", "status", "expected", "evidence", "scope", "seconds", "values"} <= set(row)
    assert row["status"] == "reproduced" and row["scope"] == {"n_max": 5, "alphas": ["1/2"], "samples": None}
    assert row["values"]["T"].startswith("[[2/3, 1/6, 1/12")


def test_two_runs_write_identical_json_apart_from_timings(tmp_path):
    docs = []
    for k in range(2):
        path = tmp_path / f"run{k}.json"
        assert run(*FAST, "--json", str(path)).returncode == 0
        doc = json.loads(path.read_text())
        for c in doc["claims"]:
            c.pop("seconds")
        docs.append(doc)
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


def test_parallel_jobs_give_the_same_statuses(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run(*FAST, "--json", str(a)).returncode == 0
    assert run(*FAST, "--jobs", "2", "--json", str(b)).returncode == 0
    strip = lambda p: [(c["id"], c["status"], c["values"]) for c in json.loads(p.read_text())["claims"]]  # noqa: E731
    assert strip(a) == strip(b)


def test_a_check_that_runs_out_of_time_is_inconclusive_and_fails_the_run():
    proc = run("--only", "grs2011.ex2.2", "--claim-timeout", "0.01")
    assert proc.returncode == 1
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


def test_a_solver_timeout_is_inconclusive_and_fails_the_run():
    proc = run("--only", "grs2011.lemma5.9", "--solver-timeout", "0.001")
    assert proc.returncode == 1
    assert "status inconclusive" in proc.stdout and "z3 answered unknown" in proc.stdout
