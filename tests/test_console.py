"""The console prints every value of a record verbatim: brackets, backslashes and markup-like text included."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from udpm.claims.evidence import Evidence, Result, Status
from udpm.claims.instances import Erratum
from udpm.claims.statements import Statement
from udpm.outputs.results import Outcome

ROOT = Path(__file__).resolve().parent.parent


def reproduce_module():
    spec = importlib.util.spec_from_file_location("reproduce_for_console_test", ROOT / "reproduce.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_brackets_and_markup_in_a_record_print_verbatim(capsys):
    correct = "centrosymmetric (m[i][j] = m[n-i][n-j]) [bold]x[/bold] a\\b"
    erratum = Erratum("Theorem 7 [sketch]", "symmetric", correct, "false claim", "")
    result = Result(Status.ERRATUM, Evidence.TABLE, grid={"table": [{"alphas": ["[1/2]"], "n": [3]}]}, errata=[erratum])
    reproduce_module().print_summary([Outcome(Statement("zlcn2013.thm7.M", "w", "s"), result, 0.1, None, [])], 1.0)
    out = capsys.readouterr().out.replace("\n", " ")
    for text in ("m[i][j]", "m[n-i][n-j])", "[bold]x[/bold]", "a\\b", "Theorem 7 [sketch]", "[1/2]"):
        assert text in out or text.replace(" ", "") in out.replace(" ", ""), text


def test_every_run_ends_in_one_verdict_line(capsys):
    rp = reproduce_module()

    def outcome(cid: str, status: Status, problems: list[str]) -> Outcome:
        return Outcome(Statement(cid, "w", "s"), Result(status, Evidence.BOUNDED), 0.1, str(status), problems)

    ok = [outcome("grs2011.a", Status.VERIFIED, []), outcome("grs2011.b", Status.REFUTED, [])]
    assert rp.exit_status(ok) == rp.EXIT_OK
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == "2 claims: all as expected (1 verified, 1 refuted); 0 regressions"
    assert "FAILED" not in "".join(out)

    undecided = [*ok, outcome("grs2011.c", Status.INCONCLUSIVE, ["grs2011.c: status inconclusive"])]
    assert rp.exit_status(undecided) == rp.EXIT_INCONCLUSIVE
    out = capsys.readouterr().out
    assert "FAILED" not in out and "not decided: 1 claim(s)" in out
    assert out.strip().splitlines()[-1].startswith("3 claims: 0 regression(s), 1 not decided")

    regressed = [*ok, outcome("grs2011.d", Status.TESTED, ["grs2011.d: status tested != expected verified"])]
    assert rp.exit_status(regressed) == rp.EXIT_REGRESSION
    out = capsys.readouterr().out
    assert "FAILED: 1 claim(s)" in out and "  grs2011.d: status tested != expected verified" in out
    assert out.strip().splitlines()[-1].startswith("3 claims: 1 regression(s), 0 not decided")


def test_the_digest_comes_after_the_tables_and_before_the_regressions_and_the_verdict(capsys):
    rp = reproduce_module()
    refuted = Result(
        Status.REFUTED,
        Evidence.BOUNDED,
        counterexample="n=1 alpha=1/2 bounded exact: [bold]X[/bold] breaks it",
    )
    outcomes = [
        Outcome(Statement("grs2011.a", "w", "s"), refuted, 0.1, "refuted", []),
        Outcome(
            Statement("grs2011.d", "w", "s"),
            Result(Status.TESTED, Evidence.SAMPLED),
            0.1,
            "verified",
            ["grs2011.d: status tested != expected verified"],
        ),
    ]
    rp.print_summary(outcomes, 1.0)
    assert rp.exit_status(outcomes) == rp.EXIT_REGRESSION
    lines = capsys.readouterr().out.rstrip("\n").splitlines()
    claims_table = lines.index(next(ln for ln in lines if ln.strip().startswith("claims (seconds")))
    digest = lines.index(
        "refuted: 1 claim, each with what refutes it (the counterexample in full in --json and the report):"
    )
    failed = lines.index("FAILED: 1 claim(s) differ from paper_tables/expected.json:")
    assert claims_table < digest < failed < len(lines) - 1
    assert "  grs2011.a  n=1 alpha=1/2 bounded exact: [bold]X[/bold] breaks it" in lines
    assert lines[-1] == "2 claims: 1 regression(s), 0 not decided (1 tested, 1 refuted)"


def test_each_regression_is_one_line_naming_its_claim_once(capsys):
    rp = reproduce_module()
    problems = ["grs2011.d: status tested != expected verified", "grs2011.d: value x: 1 != 2", "unclassified erratum"]
    bad = Outcome(Statement("grs2011.d", "w", "s"), Result(Status.TESTED, Evidence.SAMPLED), 0.1, "verified", problems)
    assert rp.exit_status([bad]) == rp.EXIT_REGRESSION
    lines = capsys.readouterr().out.splitlines()
    at = lines.index("FAILED: 1 claim(s) differ from paper_tables/expected.json:")
    assert lines[at + 1 :] == [
        "  grs2011.d: status tested != expected verified; value x: 1 != 2; unclassified erratum",
        "1 claims: 1 regression(s), 0 not decided (1 tested)",
    ]
