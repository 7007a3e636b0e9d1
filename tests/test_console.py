"""The console prints every value of a record verbatim: brackets, backslashes and markup-like text included."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from udpm.evidence import Evidence, Result, Status
from udpm.instances import Erratum
from udpm.report import Outcome
from udpm.statements import Statement

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
