"""reproduce.py --junit and GitHub annotations: JUnit XML that junitparser reads, one case per claim."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace as NS

import pytest

junitparser = pytest.importorskip("junitparser")
from junitparser import Error, Failure, JUnitXml, Skipped  # noqa: E402
from junitparser.cli import verify  # noqa: E402

from udpm.claims.evidence import Status  # noqa: E402
from udpm.outputs.annotations import annotation, emit  # noqa: E402
from udpm.outputs.junit import junit_xml, verdict  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FAST = ["--only", "grs2011.fig1*", "--only", "gs2010.appB"]


def outcome(cid: str, status: Status, problems=(), notes: str = "") -> NS:
    claim = NS(id=cid, paper=cid.split(".")[0], where="Theorem 1", summary="a <statement> & more")
    result = NS(status=status, notes=notes, evidence="bounded", scope_text="alpha=1/2: n<=3")
    return NS(claim=claim, result=result, seconds=0.25, problems=list(problems))


SYNTHETIC = [
    outcome("grs2011.thm3.2", Status.TESTED),
    outcome("grs2011.fig1b", Status.REFUTED, ["status refuted, expected reproduced"]),
    outcome("gs2010.lemma3", Status.ERROR, ["status error: ZeroDivisionError"], "ZeroDivisionError"),
    outcome("gs2010.thm2", Status.INCONCLUSIVE, ["status inconclusive: z3 timeout"], "z3 timeout"),
    outcome("zlcn2013.def6", Status.PENDING),
]


def cases(xml: JUnitXml) -> dict[str, object]:
    return {case.name: case for suite in xml for case in suite}


def test_each_status_maps_to_its_junit_result(tmp_path):
    path = tmp_path / "out.xml"
    path.write_text(junit_xml(SYNTHETIC))
    xml = JUnitXml.fromfile(str(path))
    got = cases(xml)
    assert list(got) == [o.claim.id for o in SYNTHETIC]
    assert got["grs2011.thm3.2"].is_passed
    assert [type(r) for r in got["grs2011.fig1b"].result] == [Failure]
    assert got["grs2011.fig1b"].result[0].message == "status refuted, expected reproduced"
    assert [type(r) for r in got["gs2010.lemma3"].result] == [Error]
    assert [type(r) for r in got["gs2010.thm2"].result] == [Skipped]
    assert got["gs2010.thm2"].result[0].message == "inconclusive: z3 timeout"
    assert got["zlcn2013.def6"].result[0].message.startswith("pending")
    suites = {s.name: s for s in xml}
    assert set(suites) == {"grs2011", "gs2010", "zlcn2013"}
    assert (suites["gs2010"].tests, suites["gs2010"].errors, suites["gs2010"].skipped) == (2, 1, 1)
    assert verify([str(path)]) == 1  # a failure and an error: junitparser's own verdict fails the run


def test_verdict_order_error_before_failure_inconclusive_is_never_a_failure():
    assert verdict(SYNTHETIC[2])[0] == "error"
    assert verdict(SYNTHETIC[3])[0] == "skipped"
    assert verdict(outcome("a.b", Status.VERIFIED, ["status verified, expected proved"]))[0] == "failure"


def test_annotations_only_on_github_actions_and_point_at_the_checks_source():
    lines: list[str] = []
    stream = NS(write=lambda s: lines.append(s), flush=lambda: None)
    assert emit(SYNTHETIC, stream=stream, env={}) == 0 and not lines
    assert emit(SYNTHETIC, stream=stream, env={"GITHUB_ACTIONS": "true"}) == 3
    text = "".join(lines)
    assert "::error file=experiments/grs2011.py,line=" in text and "title=grs2011.fig1b::" in text
    assert "::error file=proofs/" in text and "title=gs2010.lemma3" in text
    assert "::warning file=proofs/" in text and "title=gs2010.thm2" in text
    assert ".json" not in text  # never a transcription or a results file
    assert annotation(SYNTHETIC[0]) is None


@pytest.mark.parametrize("cid", ["grs2011.fig1b", "gs2010.lemma3", "zlcn2013.lemma1.corrected"])
def test_an_annotation_is_at_the_line_of_the_function_that_checks_the_claim(cid):
    import inspect

    from udpm.claims.registry import catalog, load_checkers

    checks = load_checkers()
    fn = checks[cid]
    if getattr(fn, "restricts", None):  # a restricted claim: the printed claim's check decides it
        fn = checks[catalog()[cid].restates]
    source = Path(inspect.getsourcefile(fn)).resolve().relative_to(ROOT).as_posix()
    first = inspect.getsourcelines(fn)[1]
    line = annotation(outcome(cid, Status.TESTED, [f"{cid}: status tested != expected proved"]))
    head, message = line.split("::")[1:]
    props = dict(p.split("=", 1) for p in head.split(" ", 1)[1].split(","))
    assert props["file"] == source and props["title"] == cid
    assert int(props["line"]) == first and source.startswith(("proofs/", "experiments/"))
    lines = (ROOT / source).read_text().splitlines()[first - 1 : first + 3]
    assert any(ln.lstrip().startswith("def ") for ln in lines)
    assert message == "status tested != expected proved"  # the claim is named once, in the title


def test_a_claim_without_a_check_has_no_file():
    line = annotation(outcome("nope.unknown", Status.ERROR, ["nope.unknown: status error: no check"]))
    assert line == "::error title=nope.unknown::status error: no check"


def run(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    if cwd == ROOT:  # a run in the checkout itself writes its outputs to a temporary directory
        args = (*args, "--out", tempfile.mkdtemp(prefix="udpm-test-out-"))
    return subprocess.run(
        [sys.executable, str(cwd / "reproduce.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **(env or {})},
    )


def test_reproduce_junit_passes_junitparser_validation(tmp_path):
    path = tmp_path / "junit.xml"
    proc = run(*FAST, "--junit", str(path), env={"GITHUB_ACTIONS": "false"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    xml = JUnitXml.fromfile(str(path))
    got = cases(xml)
    assert set(got) == {"grs2011.fig1a", "grs2011.fig1b", "gs2010.appB"}
    assert all(c.is_passed for c in got.values())
    assert verify([str(path)]) == 0
    assert "::" not in proc.stdout


def test_unusable_junit_path_is_refused_up_front(tmp_path):
    proc = run("--only", "gs2010.appB", "--junit", str(tmp_path / "missing" / "j.xml"))
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--junit" in proc.stderr


def test_a_regression_is_a_failed_case_and_a_github_error(project):
    expected = project / "paper_tables" / "expected.json"
    data = json.loads(expected.read_text())
    data["claims"]["grs2011.fig1b"]["status"] = "erratum"
    expected.write_text(json.dumps(data, indent=1))
    path = project / "junit.xml"
    proc = run(*FAST, "--junit", str(path), cwd=project, env={"GITHUB_ACTIONS": "true"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    got = cases(JUnitXml.fromfile(str(path)))
    assert [type(r) for r in got["grs2011.fig1b"].result] == [Failure]
    assert got["grs2011.fig1a"].is_passed and got["gs2010.appB"].is_passed
    assert "::error file=experiments/grs2011.py,line=" in proc.stdout  # the check's source, in the project
    assert "title=grs2011.fig1b::status reproduced != expected erratum" in proc.stdout  # the claim named once
