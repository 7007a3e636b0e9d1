"""udpm.smt.solvers pinned as its docstrings describe it (mutation-run kills): what decide() answers, reports and
tallies for every combination of z3's and cvc5's answers, the budgets it gives each solver, what
second_opinion_summary() says of each, and the command line's output and exit codes.

z3 is faked where its answer must be chosen (FakeSolver), cvc5 always (start_cvc5 / run_cvc5), so every test is
in-process and fast; the file export is real.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import ClassVar

import pytest
import z3

from udpm.errors import SolverDisagreement, SolverTimeout
from udpm.smt import cvc5_process as smt_cvc5
from udpm.smt import export as smt_export
from udpm.smt import solvers as smt
from udpm.smt.reports import reported_queries

NOT_RUN = "cvc5 not run (z3 sat: the caller re-checks z3's model exactly)"
CLOCK = "an answer that depends on the machine's load is no verdict"


class FakeModel:
    """A z3 model stand-in that remembers the context it was translated into."""

    def __init__(self, target=None):
        self.target = target

    def translate(self, target):
        return FakeModel(target)


class FakeSolver:
    """Records what decide() sets and answers a fixed verdict."""

    made: ClassVar[list[FakeSolver]] = []
    answer: ClassVar[z3.CheckSatResult] = z3.unsat
    reason: ClassVar[str] = "canceled"

    def __init__(self, logic=None, ctx=None):
        self.logic, self.ctx, self.settings = logic, ctx, {}
        FakeSolver.made.append(self)

    def set(self, key, value):
        self.settings[key] = value

    def add(self, *assertions):
        pass

    def check(self):
        return FakeSolver.answer

    def reason_unknown(self):
        return FakeSolver.reason

    def model(self):
        return FakeModel()


@dataclass
class Cvc5:
    """cvc5 faked: ``first`` answers the request started with start_cvc5, ``rerun`` the one run with run_cvc5."""

    first: tuple[str, str] = ("unsat", "")
    rerun: tuple[str, str] | None = None

    def __post_init__(self):
        self.started: list[tuple[Path, float]] = []
        self.ran: list[tuple[Path, float]] = []

    def start(self, path, budget_s):
        self.started.append((path, budget_s))
        return lambda: self.first

    def run(self, path, budget_s):
        self.ran.append((path, budget_s))
        assert self.rerun is not None, "cvc5 re-run unexpectedly"
        return self.rerun


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setattr(smt_export, "EXPORT_DIR", tmp_path / "smt")
    monkeypatch.setattr(smt_cvc5, "ANSWERS", {})
    smt.reset_second_opinions()
    yield
    smt.reset_second_opinions()


@pytest.fixture
def fake_z3(monkeypatch):
    FakeSolver.made, FakeSolver.answer, FakeSolver.reason = [], z3.unsat, "canceled"
    monkeypatch.setattr(smt.z3, "Solver", lambda ctx=None: FakeSolver(ctx=ctx))
    monkeypatch.setattr(smt.z3, "SolverFor", lambda logic, ctx=None: FakeSolver(logic=logic, ctx=ctx))
    monkeypatch.setattr(smt.signal, "getsignal", lambda sig: signal.default_int_handler)
    return FakeSolver


@pytest.fixture
def cvc5(monkeypatch):
    fake = Cvc5()
    monkeypatch.setattr(smt, "start_cvc5", fake.start)
    monkeypatch.setattr(smt, "run_cvc5", fake.run)
    return fake


Z3_ANSWERS = {"sat": (z3.sat, ""), "unsat": (z3.unsat, ""), "unknown": (z3.unknown, "canceled")}

# z3's answer, cvc5 on sat queries, cvc5's first answer, cvc5's re-run (full budget), then what decide() gives:
# (unsat, model?, solvers, second_opinion, record) or (exception, message, record); the budget cvc5 was started
# with (None: never started), the tally key, and second_opinion_summary() after two such queries (None: not pinned).
# Budget 10 s of work throughout: cvc5 gets min(10, 4) = 4 s while z3 has an answer, else 10.
CASES = {
    "both unsat": (
        "unsat", False, ("unsat", ""), None,
        (True, False, ("z3", "cvc5"), "cvc5 unsat", "unsat: z3+cvc5"),
        4.0, "z3 unsat, cvc5 unsat", "2 SMT queries, cvc5 agreed on 2 (2 unsat)",
    ),
    "unsat, cvc5 out of budget": (
        "unsat", False, ("unknown", "resourceout"), None,
        (True, False, ("z3",), "cvc5 unknown (budget spent)", "unsat: z3 only (cvc5 unknown: budget spent)"),
        4.0, "z3 unsat, cvc5 unknown (budget spent)",
        "2 SMT queries, cvc5 agreed on 0; 2 on z3 alone (cvc5 unknown (budget spent))",
    ),
    "unsat, cvc5 past its cpu bound": (
        "unsat", False, ("unknown", "cpu limit 14 s"), None,
        (True, False, ("z3",), "cvc5 unknown (budget spent)", "unsat: z3 only (cvc5 unknown: budget spent)"),
        4.0, "z3 unsat, cvc5 unknown (budget spent)",
        "2 SMT queries, cvc5 agreed on 0; 2 on z3 alone (cvc5 unknown (budget spent))",
    ),
    "unsat, cvc5 incomplete": (
        "unsat", False, ("unknown", "incomplete"), None,
        (True, False, ("z3",), "cvc5 unknown (incomplete)", "unsat: z3 only (cvc5 unknown: incomplete)"),
        4.0, "z3 unsat, cvc5 unknown (incomplete)",
        "2 SMT queries, cvc5 agreed on 0; 2 on z3 alone (cvc5 unknown (incomplete))",
    ),
    "unsat, cvc5 fails on the file": (
        "unsat", False, ("unknown", "error: parse error, line 3"), None,
        (True, False, ("z3",), "cvc5 unknown (error: parse error, line 3)",
         "unsat: z3 only (cvc5 error: parse error, line 3)"),
        4.0, "z3 unsat, cvc5 unknown (error: parse error, line 3)",
        "2 SMT queries, cvc5 agreed on 0; 2 on z3 alone (cvc5 unknown (error: parse error, line 3))",
    ),
    "sat, cvc5 not run": (
        "sat", False, ("unsat", ""), None,
        (False, True, ("z3",), NOT_RUN, "sat: z3 (cvc5 not run)"),
        None, f"z3 sat, {NOT_RUN}", "2 SMT queries, cvc5 agreed on 0; 2 sat on z3 alone (cvc5 not run on a sat)",
    ),
    "both sat": (
        "sat", True, ("sat", ""), None,
        (False, True, ("z3", "cvc5"), "cvc5 sat", "sat: z3+cvc5"),
        4.0, "z3 sat, cvc5 sat", "2 SMT queries, cvc5 agreed on 2 (2 sat)",
    ),
    "sat, cvc5 out of budget": (
        "sat", True, ("unknown", "resourceout"), None,
        (False, True, ("z3",), "cvc5 unknown (budget spent)", "sat: z3 only (cvc5 unknown: budget spent)"),
        4.0, "z3 sat, cvc5 unknown (budget spent)",
        "2 SMT queries, cvc5 agreed on 0; 2 on z3 alone (cvc5 unknown (budget spent))",
    ),
    "z3 unknown, cvc5 unsat": (
        "unknown", False, ("unsat", ""), None,
        (True, False, ("cvc5",), "cvc5 unsat; z3 answered unknown (resource limit) within 10 s of work",
         "unsat: cvc5 only (z3 unknown: resource limit)"),
        10.0, "z3 unknown, cvc5 unsat", "2 SMT queries, cvc5 agreed on 0; 2 on cvc5 alone (z3 unknown, cvc5 unsat)",
    ),
    "z3 unknown, cvc5 sat": (
        "unknown", False, ("sat", ""), None,
        (SolverTimeout, "z3 answered unknown (resource limit) within 10 s of work; cvc5 answered sat, but a sat "
         "needs a z3 model to be re-checked", None),
        10.0, "z3 unknown, cvc5 sat", "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unknown, cvc5 sat)",
    ),
    "both unknown": (
        "unknown", False, ("unknown", "resourceout"), None,
        (SolverTimeout, "z3 answered unknown (resource limit) within 10 s of work; cvc5 unknown (budget spent)", None),
        10.0, "z3 unknown, cvc5 unknown (budget spent)",
        "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unknown, cvc5 unknown (budget spent))",
    ),
    "z3 unsat, cvc5 sat": (
        "unsat", False, ("sat", ""), None,
        (SolverDisagreement, "z3 answered unsat, cvc5 answered sat", "disagreement: z3 unsat, cvc5 sat"),
        4.0, "z3 unsat, cvc5 sat", "2 SMT queries, cvc5 agreed on 0; 2 disagreed (z3 unsat, cvc5 sat)",
    ),
    "z3 sat, cvc5 unsat": (
        "sat", True, ("unsat", ""), None,
        (SolverDisagreement, "z3 answered sat, cvc5 answered unsat", "disagreement: z3 sat, cvc5 unsat"),
        4.0, "z3 sat, cvc5 unsat", "2 SMT queries, cvc5 agreed on 0; 2 disagreed (z3 sat, cvc5 unsat)",
    ),
    "unsat, cvc5 stopped by its clock": (
        "unsat", False, ("unknown", "timeout"), None,
        (SolverTimeout, f"z3 answered unsat; cvc5 stopped by its last-resort clock (timeout, 25 s) before its "
         f"resource limit (4 s of work): {CLOCK}", None),
        4.0, "z3 unsat, cvc5 stopped by its clock",
        "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unsat, cvc5 stopped by its clock)",
    ),
    "unsat, cvc5 killed by its clock": (
        "unsat", True, ("unknown", "killed after 25.5 s"), None,
        (SolverTimeout, f"z3 answered unsat; cvc5 stopped by its last-resort clock (killed after 25.5 s, 25 s) "
         f"before its resource limit (4 s of work): {CLOCK}", None),
        4.0, "z3 unsat, cvc5 stopped by its clock",
        "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unsat, cvc5 stopped by its clock)",
    ),
    # cvc5 started beside z3 with the capped budget; z3 unknown: cvc5 again with z3's full budget
    "z3 unknown, cvc5 unsat on the full budget": (
        "unknown", True, ("unknown", "resourceout"), ("unsat", ""),
        (True, False, ("cvc5",), "cvc5 unsat; z3 answered unknown (resource limit) within 10 s of work",
         "unsat: cvc5 only (z3 unknown: resource limit)"),
        4.0, "z3 unknown, cvc5 unsat", "2 SMT queries, cvc5 agreed on 0; 2 on cvc5 alone (z3 unknown, cvc5 unsat)",
    ),
    "z3 unknown, cvc5 out of its full budget": (
        "unknown", True, ("unknown", "cpu limit 14 s"), ("unknown", "resourceout"),
        (SolverTimeout, "z3 answered unknown (resource limit) within 10 s of work; cvc5 unknown (budget spent)", None),
        4.0, "z3 unknown, cvc5 unknown (budget spent)",
        "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unknown, cvc5 unknown (budget spent))",
    ),
    "z3 unknown, cvc5 stopped by its clock on the full budget": (
        "unknown", True, ("unknown", "resourceout"), ("unknown", "killed after 55.5 s"),
        (SolverTimeout, f"z3 answered unknown; cvc5 stopped by its last-resort clock (killed after 55.5 s, 55 s) "
         f"before its resource limit (10 s of work): {CLOCK}", None),
        4.0, "z3 unknown, cvc5 stopped by its clock", "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unknown, "
        "cvc5 stopped by its clock)",
    ),
    # a clock's answer is never re-run: it says nothing of the query
    "z3 unknown, cvc5 stopped by its clock beside z3": (
        "unknown", True, ("unknown", "timeout"), None,
        (SolverTimeout, f"z3 answered unknown; cvc5 stopped by its last-resort clock (timeout, 25 s) before its "
         f"resource limit (4 s of work): {CLOCK}", None),
        4.0, "z3 unknown, cvc5 stopped by its clock",
        "2 SMT queries, cvc5 agreed on 0; 2 undecided (z3 unknown, cvc5 stopped by its clock)",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_decide_for_every_pair_of_answers(case, fake_z3, cvc5, monkeypatch):
    z3_answer, on_sat, cvc5.first, cvc5.rerun, expected, budget, key, summary = CASES[case]
    fake_z3.answer, fake_z3.reason = Z3_ANSWERS[z3_answer]
    monkeypatch.setattr(smt, "CVC5_ON_SAT", on_sat)
    query = [z3.Bool("p"), z3.Not(z3.Bool("q"))]
    path = smt_export.export(query)
    for count in (1, 2):
        with reported_queries() as reported:
            if isinstance(expected[0], type):
                kind, message, record = expected
                with pytest.raises(kind) as err:
                    smt.decide(query, timeout_s=10)
                assert type(err.value) is kind
                assert str(err.value) == f"{message} on smt/{path.name}"
                assert reported == {(path.stem, record or f"undecided: {message}")}
            else:
                unsat, has_model, solvers, said, record = expected
                out = smt.decide(query, timeout_s=10)
                assert (out.unsat, out.model is not None, out.solvers) == (unsat, has_model, solvers)
                assert (out.second_opinion, out.file, out.record) == (said, str(path), record)
                assert reported == {(path.stem, record)}
                if has_model:  # z3's model, translated back into the query's own context
                    assert out.model.target is z3.main_ctx()
        assert cvc5.started == ([(path, budget)] * count if budget is not None else [])
        assert cvc5.ran == ([(path, 10)] * count if cvc5.rerun else [])
        assert smt.second_opinions() == {key: count}
    if summary is not None:
        assert smt.second_opinion_summary() == summary


def test_a_single_query_and_a_mix_are_summed_up_in_one_line(fake_z3, cvc5, monkeypatch):
    assert smt.second_opinions() == {} and smt.second_opinion_summary() == "no SMT queries"
    smt.decide([z3.Bool("p")], timeout_s=10)
    assert smt.second_opinions() == {"z3 unsat, cvc5 unsat": 1}
    assert smt.second_opinion_summary() == "1 SMT query, cvc5 agreed on 1 (1 unsat)"
    monkeypatch.setattr(smt, "CVC5_ON_SAT", True)
    fake_z3.answer, cvc5.first = z3.sat, ("sat", "")
    smt.decide([z3.Bool("p")], timeout_s=10)
    fake_z3.answer, cvc5.first = z3.unknown, ("unsat", "")
    smt.decide([z3.Bool("p")], timeout_s=10)
    fake_z3.answer, cvc5.first = z3.unsat, ("unknown", "error: parse error, line 3")
    smt.decide([z3.Bool("p")], timeout_s=10)
    monkeypatch.setattr(smt, "CVC5_ON_SAT", False)
    fake_z3.answer = z3.sat
    smt.decide([z3.Bool("p")], timeout_s=10)
    fake_z3.answer, cvc5.first = z3.unsat, ("sat", "")
    with pytest.raises(SolverDisagreement):
        smt.decide([z3.Bool("p")], timeout_s=10)
    assert smt.second_opinion_summary() == (
        "6 SMT queries, cvc5 agreed on 2 (1 unsat, 1 sat); 1 sat on z3 alone (cvc5 not run on a sat); "
        "1 on cvc5 alone (z3 unknown, cvc5 unsat); 1 disagreed (z3 unsat, cvc5 sat); "
        "1 on z3 alone (cvc5 unknown (error: parse error, line 3))"
    )
    assert list(smt.second_opinions()) == sorted(smt.second_opinions())
    smt.reset_second_opinions()
    assert smt.second_opinions() == {} and smt.second_opinion_summary() == "no SMT queries"


def test_no_agreement_gives_no_parenthesis(fake_z3, cvc5):
    cvc5.first = ("unknown", "resourceout")
    smt.decide([z3.Bool("p")], timeout_s=10)
    assert smt.second_opinion_summary() == "1 SMT query, cvc5 agreed on 0; 1 on z3 alone (cvc5 unknown (budget spent))"


def test_z3_stopped_by_its_clock_is_undecided_and_cvc5_is_not_asked(fake_z3, cvc5):
    fake_z3.answer, fake_z3.reason = z3.unknown, "timeout"
    query = [z3.Bool("p")]
    path = smt_export.export(query)
    with reported_queries() as reported, pytest.raises(SolverTimeout) as err:
        smt.decide(query, timeout_s=2.5)
    why = f"z3 stopped by its last-resort clock (17.5 s) before its resource limit (2.5 s of work): {CLOCK}"
    assert type(err.value) is SolverTimeout and str(err.value) == f"{why} on smt/{path.name}"
    assert reported == {(path.stem, f"undecided: {why}")}
    assert cvc5.started == [] and smt.second_opinions() == {}


def test_with_cvc5_on_sat_it_is_started_beside_z3_on_the_capped_budget(fake_z3, cvc5, monkeypatch):
    monkeypatch.setattr(smt, "CVC5_ON_SAT", True)
    fake_z3.answer = z3.unsat
    path = smt_export.export([z3.Bool("p")])
    assert smt.decide([z3.Bool("p")], timeout_s=2.5).solvers == ("z3", "cvc5")
    assert cvc5.started == [(path, 2.5)]  # a budget below the cap is z3's own


def test_the_export_names_the_logic(fake_z3, cvc5):
    q = z3.Bool("q")
    out = smt.decide([q], timeout_s=1, logic="QF_LRA")
    assert fake_z3.made[-1].logic == "QF_LRA"
    assert "(set-logic QF_LRA)" in Path(out.file).read_text()
    assert Path(out.file) == smt_export.export([q], "QF_LRA") != smt_export.export([q])


@pytest.mark.parametrize("left, clock_ms", [(None, 55_000), (60.0, 55_000), (2.0, 2000), (0.0005, 1), (0.0, 1)])
def test_z3s_clock_ends_at_the_checks_bound(fake_z3, cvc5, monkeypatch, left, clock_ms):
    monkeypatch.setattr(smt.deadline, "remaining", lambda: left)
    monkeypatch.setattr(smt.deadline, "check", lambda: None)
    smt.decide([z3.Bool("p")], timeout_s=10)
    assert fake_z3.made[-1].settings == {"rlimit": 30_000_000, "timeout": clock_ms}


def test_the_model_is_translated_back_into_the_querys_context(fake_z3, cvc5):
    fake_z3.answer = z3.sat
    own = z3.Context()
    out = smt.decide([z3.Bool("p", own)], timeout_s=1)
    assert out.model.target is own and fake_z3.made[-1].ctx not in (own, z3.main_ctx())
    out = smt.decide([], timeout_s=1)  # no term to take a context from: the main one
    assert out.model.target is z3.main_ctx()


def test_real_z3_models_come_back_in_the_querys_context(monkeypatch, cvc5):
    own = z3.Context()
    x = z3.Real("x", own)
    out = smt.decide([x > 1, x < 2], timeout_s=5)
    assert out.model.ctx is own and z3.is_true(out.model.eval(z3.And(x > 1, x < 2)))
    assert smt.decide([], timeout_s=5).model.ctx is z3.main_ctx()
    monkeypatch.setattr(smt, "CVC5_ON_SAT", True)
    cvc5.first = ("sat", "")
    out = smt.decide([x > 1, x < 2], timeout_s=5)
    assert out.solvers == ("z3", "cvc5") and out.model.ctx is own and z3.is_true(out.model.eval(z3.And(x > 1, x < 2)))


# --- the command line: python -m udpm.smt.solvers FILE... ---------------------------------------------------------

PROG = "python -m udpm.smt.solvers"


class RecordingSolver(z3.Solver):
    settings: ClassVar[list[tuple]] = []

    def set(self, *args, **keys):
        RecordingSolver.settings.append(args)
        super().set(*args, **keys)


@pytest.fixture
def cli(monkeypatch, cvc5):
    RecordingSolver.settings = []
    monkeypatch.setattr(smt.z3, "Solver", RecordingSolver)
    ticks = iter(range(100, 10_000, 3))
    monkeypatch.setattr(smt, "time", SimpleNamespace(monotonic=lambda: next(ticks) / 4))  # each file: 0.75 s
    x = z3.Real("x")
    return SimpleNamespace(
        cvc5=cvc5, unsat=smt_export.export([x > 1, x < 0]), sat=smt_export.export([x > 1, x < 2]), x=x
    )


def test_the_command_line_prints_both_answers_per_file(cli, capsys):
    cli.cvc5.rerun = ("unsat", "")
    assert smt.main([str(cli.unsat), "--budget", "10"]) == 0
    assert capsys.readouterr() == (f"{cli.unsat}: z3 unsat, cvc5 unsat  (0.75 s)\n", "")
    assert cli.cvc5.ran == [(cli.unsat, 10.0)] and type(cli.cvc5.ran[0][0]) is type(cli.unsat)
    assert RecordingSolver.settings == [("rlimit", 30_000_000), ("timeout", 55_000)]


def test_the_command_lines_default_budget_and_its_two_names(cli, capsys):
    cli.cvc5.rerun = ("sat", "")
    assert smt.main([str(cli.sat)]) == 0
    assert cli.cvc5.ran == [(cli.sat, 60.0)]
    assert RecordingSolver.settings == [("rlimit", 180_000_000), ("timeout", 305_000)]
    assert capsys.readouterr().out == f"{cli.sat}: z3 sat, cvc5 sat  (0.75 s)\n"
    for name in ("--budget", "--timeout"):
        RecordingSolver.settings = []
        assert smt.main([name, "2.5", str(cli.sat)]) == 0
        assert RecordingSolver.settings == [("rlimit", 7_500_000), ("timeout", 17_500)]
        assert cli.cvc5.ran[-1] == (cli.sat, 2.5)
    # no budget left still bounds z3: never 0, which z3 reads as "no bound"
    RecordingSolver.settings = []
    assert smt.main(["--budget", "-1", str(cli.sat)]) == 0
    assert RecordingSolver.settings == [("rlimit", 1), ("timeout", 1)]


def test_the_command_line_says_why_an_answer_is_unknown(cli, capsys):
    a, b, c = z3.Ints("a b c")
    hard = smt_export.export([a * a * a + b * b * b + c * c * c == 33])
    cli.cvc5.rerun = ("unknown", "resourceout")
    assert smt.main(["--budget", "0.0001", str(hard)]) == 0
    assert capsys.readouterr().out == f"{hard}: z3 unknown (canceled), cvc5 unknown (resourceout)  (0.75 s)\n"


@pytest.mark.parametrize(
    "answers, code",
    [
        ([("unsat", ""), ("sat", "")], 0),  # z3 says unsat on the first file, sat on the others
        ([("sat", ""), ("sat", "")], 1),
        ([("unsat", ""), ("unsat", ""), ("unknown", "resourceout")], 1),
        ([("sat", ""), ("unsat", "")], 1),
        ([("unknown", "resourceout"), ("unknown", "resourceout")], 0),
    ],
)
def test_the_exit_code_is_1_when_any_file_is_disagreed_on(cli, capsys, monkeypatch, answers, code):
    files = [cli.unsat, cli.sat, cli.sat][: len(answers)]
    said = iter(answers)
    monkeypatch.setattr(smt, "run_cvc5", lambda path, budget_s: next(said))
    assert smt.main([*map(str, files), "--budget", "5"]) == code
    z3_said = ["unsat", "sat", "sat"]
    assert capsys.readouterr().out.splitlines() == [
        f"{f}: z3 {z}, cvc5 {a}{f' ({w})' if w else ''}  (0.75 s)" for f, z, (a, w) in zip(files, z3_said, answers)
    ]


def test_the_command_line_without_files_does_nothing(cli, capsys, monkeypatch):
    monkeypatch.setattr(smt.sys, "argv", ["prog", "--bogus"])  # never read: main's own argv is []
    assert smt.main([]) == 0
    assert capsys.readouterr() == ("", "")
    assert cli.cvc5.ran == []


@pytest.mark.parametrize(
    "argv, error",
    [
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--budget", "ten"], "argument --budget/--timeout: invalid float value: 'ten'"),
        (["--budget"], "argument --budget/--timeout: expected one argument"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_code_2(cli, capsys, argv, error):
    assert smt.main(argv) == 2
    assert capsys.readouterr() == ("", f"{PROG}: error: {error} (see {PROG} --help)\n")
    assert cli.cvc5.ran == []


def test_the_command_lines_help(capsys):
    with pytest.raises(SystemExit) as done:
        smt.main(["--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith(f"usage: {PROG} [-h] [--budget S] [files ...]")
    for part in (
        " ".join(smt.main.__doc__.split()),
        "files SMT-LIB 2 files, e.g. build/smt/*.smt2",
        "--budget S, --timeout S seconds of work per solver and file (60)",
    ):
        assert part in text
    assert re.search(r"positional arguments: files ", text)
