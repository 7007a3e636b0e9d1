"""The udpm command line: audit from JSON and CSV, the same verdict as the API, one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from udpm.auditing.report import audit
from udpm.cli import main
from udpm.core.mechanisms import truncated_geometric
from udpm.lp.certificates import check_file

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def files(tmp_path: Path) -> Path:
    t = truncated_geometric(2, F(1, 2))
    (tmp_path / "t.json").write_text(json.dumps({"mechanism": [[str(v) for v in r] for r in t]}))
    (tmp_path / "rr.csv").write_text("3/5,2/5\n2/5,3/5\n")
    (tmp_path / "rr_decimal.json").write_text("[[0.6, 0.4], [0.4, 0.6]]")
    (tmp_path / "ragged.csv").write_text("1/2,1/2\n1\n")
    (tmp_path / "loss.json").write_text(json.dumps([[0, 1], [3, 0]]))
    (tmp_path / "bad.json").write_text("[[1/2, 1/2]]")
    (tmp_path / "m.txt").write_text("1")
    return tmp_path


def udpm(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "udpm.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_audit_json_matches_the_api_and_writes_json_and_html(files, capsys):
    assert (
        main(
            [
                "audit",
                str(files / "t.json"),
                "--alpha",
                "1/2",
                "--json",
                str(files / "o.json"),
                "--html",
                str(files / "o.html"),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    api = audit(
        truncated_geometric(2, F(1, 2)),
        "1/2",
        users={
            "uniform, abs": ("uniform", "abs"),
            "uniform, zero-one": ("uniform", "zero-one"),
            "uniform, squared": ("uniform", "squared"),
        },
    )
    assert out.startswith(api.to_text())
    doc = json.loads((files / "o.json").read_text())
    assert doc["universally_optimal"] is True and doc["verdict"] == api.verdict
    assert (files / "o.html").read_text().startswith("<!DOCTYPE html>")
    assert check_file(files / "o.json") == []  # its LP certificates re-check with the standard library


def test_audit_csv_with_eps_prior_and_loss_file(files, capsys):
    code = main(
        [
            "audit",
            str(files / "rr.csv"),
            "--eps",
            "ln 2",
            "--prior",
            "1/4,3/4",
            "--loss",
            "zero-one",
            "--loss",
            str(files / "loss.json"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("verdict: DP at eps = ln 2 (alpha = 1/2); NOT universally optimal: T(1, 1/2) is not a remap")
    assert "  witness user (named user): uniform prior, zero-one loss: " in out
    assert out.count("  user ") == 2


def test_fail_unless_optimal_exits_1(files, capsys):
    assert main(["audit", str(files / "rr.csv"), "--alpha", "1/2", "--fail-unless", "optimal"]) == 1
    assert main(["audit", str(files / "rr.csv"), "--alpha", "1/2", "--fail-unless", "private"]) == 0


def test_decimals_only_on_request(files, capsys):
    assert main(["audit", str(files / "rr_decimal.json"), "--alpha", "1/2"]) == 2
    assert "is a decimal" in capsys.readouterr().err
    assert main(["audit", str(files / "rr_decimal.json"), "--alpha", "1/2", "--exact", "decimal"]) == 0
    assert "exact input" in capsys.readouterr().out
    assert main(["audit", str(files / "rr_decimal.json"), "--alpha", "1/2", "--exact", "rationalize"]) == 0
    assert "rationalized: 4 float entries" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["audit", "{d}/t.json"], "exactly one of --alpha"),
        (["audit", "{d}/t.json", "--alpha", "1/2", "--eps", "ln 2"], "exactly one of --alpha"),
        (["audit", "{d}/t.json", "--eps", "1"], "irrational"),
        (["audit", "{d}/t.json", "--alpha", "2"], "0 < alpha < 1"),
        (["audit", "{d}/missing.json", "--alpha", "1/2"], "cannot read"),
        (["audit", "{d}/bad.json", "--alpha", "1/2"], "not valid JSON"),
        (["audit", "{d}/m.txt", "--alpha", "1/2"], "use a .json or .csv"),
        (["audit", "{d}/ragged.csv", "--alpha", "1/2"], "ragged"),
        (["audit", "{d}/rr.csv", "--alpha", "1/2", "--loss", "hinge"], "unknown loss"),
        (["audit", "{d}/rr.csv", "--alpha", "1/2", "--prior", "1/2,1/3"], "sum to 1"),
        (["audit", "{d}/rr.csv", "--alpha", "1/2", "--json", "{d}/no/such/dir/o.json"], "does not exist"),
        (["audit", "{d}/rr.csv", "--alpha", "1/2", "--frobnicate"], "unrecognized arguments"),
        (["frobnicate"], "unknown command"),
        ([], "usage"),
    ],
)
def test_bad_input_one_line_exit_2(files, capsys, args, needle):
    assert main([a.format(d=files) for a in args]) == 2
    err = capsys.readouterr().err
    assert needle in err
    if args:
        assert err.strip().count("\n") == 0


def test_check_and_certificates_subcommands(files):
    proc = udpm("check", "--list", cwd=files)
    assert proc.returncode == 0 and "grs2011.thm3.2" in proc.stdout
    proc = udpm("check", "--only", "no.such.claim", cwd=files)
    assert proc.returncode == 2 and proc.stderr.strip().count("\n") == 0
    proc = udpm("audit", str(files / "t.json"), "--alpha", "1/2", "--json", str(files / "o.json"), cwd=files)
    assert proc.returncode == 0, proc.stderr
    proc = udpm("certificates", str(files / "o.json"), cwd=files)
    assert proc.returncode == 0 and "verify" in proc.stdout
    assert udpm("certificates", cwd=files).returncode == 2


def test_console_script_is_declared():
    text = (ROOT / "pyproject.toml").read_text()
    assert '[project.scripts]\nudpm = "udpm.cli:main"' in text


def test_readme_example_runs_as_written_and_agrees_with_the_cli(tmp_path):
    text = (ROOT / "README.md").read_text()
    section = text.split("## Audit your own mechanism", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert len(code.strip().splitlines()) == 5
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    verdict = next(line for line in proc.stdout.splitlines() if line.startswith("verdict: "))
    assert verdict == (
        "verdict: DP at eps = ln 2 (alpha = 1/2); NOT universally optimal: T(1, 1/2) is not a remap of it; "
        "the largest loss gap found is 1/15 ≈ 0.06667 (20% above the optimum), for the user uniform, abs"
    )
    assert verdict.replace("\n", " ") in " ".join(section.split())
    assert (tmp_path / "audit.html").is_file()
    (tmp_path / "M.json").write_text('[["3/5", "2/5"], ["2/5", "3/5"]]')
    cli = udpm("audit", "M.json", "--eps", "ln 2", cwd=tmp_path)
    assert cli.returncode == 0 and verdict in cli.stdout.splitlines()


def test_an_empirical_matrix_is_audited_as_an_estimate_and_says_so(files, capsys):
    (files / "freq.csv").write_text("0.6667,0.3333\n0.334,0.665\n")  # frequencies: rows need not sum to 1
    args = ["audit", str(files / "freq.csv"), "--alpha", "1/2", "--exact", "estimated", "--tolerance", "1/100"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "ESTIMATED: the verdicts are about the estimate" in out and "stated estimation tolerance 1/100" in out


def test_the_estimated_mode_takes_the_binary_values_and_renormalises():
    from udpm.auditing.exact_inputs import exact_matrix
    from udpm.errors import InvalidMatrix

    m, conv = exact_matrix([[0.5, 0.25], [0.25, 0.5]], exact="estimated")
    assert m == [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]] and conv.replaced == 4 and conv.max_deviation == F(1, 4)
    with pytest.raises(InvalidMatrix, match="estimate needs non-negative"):
        exact_matrix([[0.0, 0.0], [0.5, 0.5]], exact="estimated")
