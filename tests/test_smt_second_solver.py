"""udpm.smt.solvers's second solver: every query is exported as SMT-LIB 2 and decided by cvc5 too (issue 11, section
4)."""

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import z3

from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.errors import SolverDisagreement, SolverTimeout, VacuousPremise
from udpm.smt import cvc5_process as smt_cvc5
from udpm.smt import export as smt_export
from udpm.smt import solvers as smt

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def export_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(smt_export, "EXPORT_DIR", tmp_path / "smt")
    monkeypatch.setattr(smt_cvc5, "ANSWERS", {})
    return tmp_path / "smt"


def cvc5_says(monkeypatch, answer, reason=""):
    """Replace cvc5 by a fixed answer; returns the list of files it was asked about."""
    asked = []

    def fake(path, timeout_s):
        asked.append(path)
        return lambda: (answer, reason)

    monkeypatch.setattr(smt, "start_cvc5", fake)
    return asked


def test_both_solvers_agree_on_unsat():
    x = z3.Real("x")
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.unsat is True and out.model is None
    assert out.solvers == ("z3", "cvc5")
    assert out.second_opinion == "cvc5 unsat"


@pytest.fixture
def on_sat(monkeypatch):
    monkeypatch.setattr(smt, "CVC5_ON_SAT", True)


def test_by_default_a_sat_is_not_sent_to_cvc5_and_says_so(monkeypatch):
    x = z3.Real("x")
    asked = cvc5_says(monkeypatch, "unsat")  # would disagree, were it asked
    out = smt.decide([x > 1], timeout_s=10)
    assert out.unsat is False and out.model is not None and asked == []
    assert out.solvers == ("z3",)
    assert out.second_opinion == "cvc5 not run (z3 sat: the caller re-checks z3's model exactly)"


def test_both_solvers_agree_on_sat_and_z3s_model_is_kept(on_sat, monkeypatch):
    x, y = z3.Reals("x y")
    out = smt.decide([x * y == 1, x > y, y > 0], timeout_s=10)  # nonlinear
    assert out.unsat is False and out.model is not None
    assert out.solvers == ("z3", "cvc5") and out.second_opinion == "cvc5 sat" and out.record == "sat: z3+cvc5"
    cvc5_says(monkeypatch, "sat")
    out = smt.decide([x * x == 2, x > 0], timeout_s=10)  # an irrational model: z3's is kept
    assert smt.model_value(out.model, x).endswith("(algebraic)")


def test_nonlinear_unsat_and_an_integer_query_are_decided_by_both():
    a, n = z3.Real("a"), z3.Int("n")
    assert smt.decide([a > 0, a < 1, a * a * a > a], timeout_s=10).solvers == ("z3", "cvc5")
    out = smt.decide([n > 2, n * n < 9], timeout_s=10)
    assert out.unsat and out.second_opinion == "cvc5 unsat"


def test_a_disagreement_is_an_error_naming_both_answers_and_the_file(monkeypatch, export_dir, on_sat):
    x = z3.Real("x")
    asked = cvc5_says(monkeypatch, "sat")
    with pytest.raises(SolverDisagreement) as e:
        smt.decide([x > 1, x < 0], timeout_s=10)
    assert re.fullmatch(r"z3 answered unsat, cvc5 answered sat on (\S+/)?smt/[0-9a-f]{16}\.smt2", str(e.value))
    assert str(asked[0]) in str(e.value) or asked[0].name in str(e.value)
    cvc5_says(monkeypatch, "unsat")
    with pytest.raises(SolverDisagreement, match="z3 answered sat, cvc5 answered unsat"):
        smt.decide([x > 1], timeout_s=10)
    # premise_witness goes through decide as well
    with pytest.raises(SolverDisagreement):
        smt.premise_witness([x > 1], timeout_s=10, what="demo")


def test_cvc5_unknown_leaves_z3s_verdict_standing_and_says_so(monkeypatch, on_sat):
    x = z3.Real("x")
    cvc5_says(monkeypatch, "unknown", "resourceout")
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.unsat is True
    assert out.solvers == ("z3",)
    assert out.second_opinion == "cvc5 unknown (budget spent)"
    assert out.record == "unsat: z3 only (cvc5 unknown: budget spent)"
    out = smt.decide([x > 1], timeout_s=10)
    assert out.unsat is False and out.model is not None and out.solvers == ("z3",)
    with pytest.raises(VacuousPremise):  # an unsat premise is still refused on z3's word alone
        smt.premise_witness([x > 1, x < 0], timeout_s=10, what="demo")


@pytest.mark.parametrize("reason", ["resourceout", "cpu limit 14 s"])
def test_cvc5s_two_budget_bounds_give_one_record(monkeypatch, reason):
    # which bound stops a cvc5 that spends its steps slowly depends on the load (CI saw both on one zlcn2013.yhat
    # query); the record says only that cvc5 spent its budget, so it is the same on every run
    x = z3.Real("x")
    cvc5_says(monkeypatch, "unknown", reason)
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.record == "unsat: z3 only (cvc5 unknown: budget spent)"
    assert out.second_opinion == "cvc5 unknown (budget spent)"


def test_the_cpu_bound_leaves_room_for_a_slow_spender_to_reach_its_resource_limit():
    # a query spending steps at 85 000 a second (zlcn2013.yhat's slowest) reaches 4 s of work before the CPU bound
    steps = smt_cvc5.rlimit(smt.CVC5_BUDGET_S)
    assert steps / 85_000 * 1.5 < smt_cvc5.cpu_s(smt.CVC5_BUDGET_S)


class UnknownZ3:
    def __init__(self, *args, **kwargs):
        pass

    def set(self, *args):
        pass

    def add(self, *args):
        pass

    def check(self):
        return z3.unknown

    reason = "canceled"  # z3's reason when its resource limit ran out

    def reason_unknown(self):
        return self.reason


def test_z3_unknown_rests_on_cvc5s_unsat_but_never_on_its_sat(monkeypatch):
    x = z3.Real("x")
    monkeypatch.setattr(smt.z3, "Solver", UnknownZ3)
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.unsat is True and out.solvers == ("cvc5",)
    assert out.second_opinion == "cvc5 unsat; z3 answered unknown (resource limit) within 10 s of work"
    assert out.record == "unsat: cvc5 only (z3 unknown: resource limit)"
    with pytest.raises(SolverTimeout, match="cvc5 answered sat, but a sat needs a z3 model"):
        smt.decide([x > 1], timeout_s=10)
    cvc5_says(monkeypatch, "unknown", "resourceout")
    with pytest.raises(SolverTimeout) as e:
        smt.decide([x > 1], timeout_s=10)
    assert re.fullmatch(
        r"z3 answered unknown \(resource limit\) within 10 s of work; cvc5 unknown \(budget spent\) on \S+\.smt2",
        str(e.value),
    )


def test_z3_stopped_by_its_clock_is_undecided_never_an_answer(monkeypatch):
    x = z3.Real("x")
    monkeypatch.setattr(UnknownZ3, "reason", "timeout")  # z3's reason when its (last-resort) clock ran out
    monkeypatch.setattr(smt.z3, "Solver", UnknownZ3)
    asked = cvc5_says(monkeypatch, "unsat")
    with pytest.raises(SolverTimeout, match=r"z3 stopped by its last-resort clock .* depends on the machine's load"):
        smt.decide([x > 1, x < 0], timeout_s=10)
    assert asked == []  # not even cvc5's unsat: whether z3 was stopped depends on the load


def pigeonhole(n):
    """n pigeons in n-1 holes: unsat, and hard for both solvers' resolution."""
    p = [[z3.Bool(f"p{i}_{j}") for j in range(n - 1)] for i in range(n)]
    rows = [z3.Or(r) for r in p]
    return rows + [z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])) for j in range(n - 1) for i in range(n) for k in range(i)]


def test_the_solvers_are_bounded_by_resources_so_their_unknown_is_reproducible():
    # 13 pigeons: out of reach of 0.2 s of work; both solvers stop on their resource limits, on every run
    path = smt_export.export(pigeonhole(13))
    assert smt.run_cvc5(path, 0.2) == ("unknown", "resourceout")
    with pytest.raises(SolverTimeout) as e:
        smt.decide(pigeonhole(13), timeout_s=0.2)
    assert str(e.value) == (
        f"z3 answered unknown (resource limit) within 0.2 s of work; cvc5 unknown (budget spent) on smt/{path.name}"
    )


def test_cvc5_past_its_cpu_bound_is_a_reproducible_unknown(monkeypatch, export_dir):
    a, b, c = z3.Ints("a b c")
    monkeypatch.setattr(smt_cvc5, "RLIMIT_PER_S", 10**12)  # the resource limit out of reach: the CPU bound stops cvc5
    monkeypatch.setattr(smt_cvc5, "CPU_FACTOR", 0.0)
    monkeypatch.setattr(smt_cvc5, "CPU_SLACK_S", 0.3)
    path = smt_export.export([a * a * a + b * b * b + c * c * c == 33])
    answer = smt.run_cvc5(path, 1)
    assert answer == ("unknown", "cpu limit 0.3 s") and not smt_cvc5.stopped_by_clock(*answer)
    assert list(smt_cvc5.ANSWERS.values()) == [answer]  # the query's answer at that budget: reused
    x = z3.Real("x")
    assert smt.run_cvc5(smt_export.export([x > 1, x < 0]), 10) == ("unsat", "")  # a new helper


def test_cvc5_stopped_by_its_clock_is_undecided_and_the_helper_restarts(monkeypatch, export_dir):
    a, b, c = z3.Ints("a b c")
    monkeypatch.setattr(smt_cvc5, "RLIMIT_PER_S", 10**12)  # the resource limit out of reach: the clock stops cvc5
    monkeypatch.setattr(smt_cvc5, "WALL_FACTOR", 1.0)
    monkeypatch.setattr(smt_cvc5, "WALL_SLACK_S", 0.0)
    monkeypatch.setattr(smt_cvc5, "GRACE_S", 0.3)
    path = smt_export.export([a * a * a + b * b * b + c * c * c == 33])
    answer, reason = smt.run_cvc5(path, 0.2)
    assert smt_cvc5.stopped_by_clock(answer, reason)  # "timeout" (tlimit-per), or "killed after 0.5 s"
    assert smt_cvc5.ANSWERS == {}  # a clock's answer is not the query's: never reused
    # the helper is restarted for the next query
    x = z3.Real("x")
    assert smt.run_cvc5(smt_export.export([x > 1, x < 0]), 10) == ("unsat", "")
    cvc5_says(monkeypatch, "unknown", "killed after 4.5 s")
    rec = Findings("demo")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
        smt.decide([x > 1, x < 0], timeout_s=10)  # z3 unsat, but cvc5 was stopped by the clock
    d = rec.decisions[0].to_json()
    assert d["outcome"] == "inconclusive" and "cvc5 stopped by its last-resort clock" in d["detail"]
    assert d["smt"]["agreement"] == "no unsat answer; undecided on 1"


def test_an_answer_never_read_does_not_answer_the_next_query():
    a, b, c = z3.Ints("a b c")
    smt.start_cvc5(smt_export.export([a * a * a + b * b * b + c * c * c == 33]), 30)  # abandoned, as when z3 raises
    x = z3.Real("x")
    assert smt.run_cvc5(smt_export.export([x > 1]), 10) == ("sat", "")
    assert smt.run_cvc5(smt_export.export([x > 1, x < 0]), 10) == ("unsat", "")


def test_the_exported_file_is_named_by_its_text_and_gives_z3_the_same_answer(export_dir):
    x, y = z3.Reals("x y")
    for query, answer in [([x > 1, x < 0], z3.unsat), ([x * y == 1, x > y, y > 0], z3.sat)]:
        out = smt.decide(query, timeout_s=10)
        path = export_dir / out.file.rsplit("/", 1)[-1]
        text = path.read_text()
        assert path.name == hashlib.sha256(text.encode()).hexdigest()[:16] + ".smt2"
        assert text.count("(set-logic ALL)") == 1 and text.rstrip().endswith("(check-sat)")
        parsed = z3.Solver()
        parsed.from_file(str(path))  # parses back
        assert len(parsed.assertions()) == len(query)
        assert parsed.check() == answer
        assert smt_cvc5.cvc5_decide_file(path, 10**6, 10_000) == (str(answer), "")


def test_the_file_name_depends_on_the_query_alone():
    def build():
        a = z3.Real("a")
        return smt_export.smt2_text([a > 0, (a + 1) * (a + 1) < a * (a + 1)])

    first = build()
    z3.Reals("u v w")  # other terms first: other term ids, hence other let names in z3's printout
    z3.Real("a") * 7 + 3
    second = build()
    assert first == second


def test_unary_sums_and_products_are_written_as_their_term():
    x, y = z3.Reals("x y")
    text = smt_export.smt2_text([z3.Sum([x]) > 0, z3.Product([y]) > 0, z3.And([x > y])])
    assert "(+ x)" not in text and "(* y)" not in text and "(and" not in text
    out = smt.decide([z3.Sum([x]) > 0, z3.Product([y]) < 0, z3.And([x < y])], timeout_s=10)
    assert out.unsat and out.solvers == ("z3", "cvc5")


def test_summary_counts_what_both_solvers_said(monkeypatch):
    x = z3.Real("x")
    smt.reset_second_opinions()
    assert smt.second_opinion_summary() == "no SMT queries"
    smt.decide([x > 1, x < 0], timeout_s=10)
    smt.decide([x > 1], timeout_s=10)
    monkeypatch.setattr(smt, "CVC5_ON_SAT", True)
    smt.decide([x > 3], timeout_s=10)
    cvc5_says(monkeypatch, "unknown", "resourceout")
    smt.decide([x > 2, x < 0], timeout_s=10)
    assert smt.second_opinions() == {
        "z3 sat, cvc5 not run (z3 sat: the caller re-checks z3's model exactly)": 1,
        "z3 sat, cvc5 sat": 1,
        "z3 unsat, cvc5 unknown (budget spent)": 1,
        "z3 unsat, cvc5 unsat": 1,
    }
    assert smt.second_opinion_summary() == (
        "4 SMT queries, cvc5 agreed on 2 (1 unsat, 1 sat); 1 sat on z3 alone (cvc5 not run on a sat); "
        "1 on z3 alone (cvc5 unknown (budget spent))"
    )
    smt.reset_second_opinions()


def test_the_command_line_re_decides_files_with_both(export_dir, capsys):
    x = z3.Real("x")
    unsat = smt_export.export([x > 1, x < 0])
    sat = smt_export.export([x > 1])
    assert smt.main([str(unsat), str(sat), "--timeout", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{unsat}: z3 unsat, cvc5 unsat")
    assert lines[1].startswith(f"{sat}: z3 sat, cvc5 sat")


# --- the claim record -----------------------------------------------------------------------------


def test_a_decisions_record_names_its_files_and_what_each_answer_rests_on(monkeypatch, export_dir):
    x = z3.Real("x")
    rec = Findings("demo")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
        unsat = smt.decide([x > 1, x < 0], timeout_s=10)
        sat = smt.decide([x > 1], timeout_s=10)
        smt.decide([x > 1, x < 0], timeout_s=10)  # a query met again is named once
    with rec.deciding(n=2, alpha="1/2", kind=BOUNDED, method="smt"):
        cvc5_says(monkeypatch, "unknown", "resourceout")
        alone = smt.decide([x > 2, x < 0], timeout_s=10)
    with rec.deciding(n=3, alpha="1/2", kind=BOUNDED, method="exact"):
        pass
    first, second, third = (d.to_json() for d in rec.decisions)
    names = [Path(o.file).stem for o in (unsat, sat, alone)]
    assert first["smt"] == {
        "files": sorted(names[:2]),
        "answers": {"sat: z3 (cvc5 not run)": 1, "unsat: z3+cvc5": 1},
        "agreement": "z3+cvc5",
    }
    assert second["smt"] == {
        "files": [names[2]],
        "answers": {"unsat: z3 only (cvc5 unknown: budget spent)": 1},
        "agreement": "z3+cvc5 on 0 of 1 unsat; z3 only on 1",
        "one_solver": {names[2]: "unsat: z3 only (cvc5 unknown: budget spent)"},
    }
    assert "smt" not in third  # no query, no field
    for name in names:
        assert (export_dir / f"{name}.smt2").is_file()


def test_a_query_outside_any_block_goes_to_the_next_decision_of_its_check_only():
    x = z3.Real("x")
    stale = Findings("earlier")
    smt.decide([x > 5, x < 0], timeout_s=10)  # left over by an earlier check: never attached to a later one
    rec = Findings("demo")
    assert stale.claim == "earlier"
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    rec.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="smt")
    rec.decide(True, n=2, alpha="1/2", kind=BOUNDED, method="smt")
    first, second = (d.to_json() for d in rec.decisions)
    assert first["smt"]["files"] == [Path(out.file).stem] and "smt" not in second


def test_a_disagreement_inside_a_decision_is_an_error_not_an_instance(monkeypatch):
    x = z3.Real("x")
    cvc5_says(monkeypatch, "sat")
    rec = Findings("demo")
    with pytest.raises(SolverDisagreement, match="z3 answered unsat, cvc5 answered sat on "):
        with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
            smt.decide([x > 1, x < 0], timeout_s=10)
    assert rec.decisions == []


def test_the_record_is_the_same_whatever_ran_before():
    def run():
        a = z3.Real("a")
        rec = Findings("demo")
        with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
            smt.premise_witness([a > 0, a < 1], timeout_s=10, what="0 < a < 1")
            smt.decide([a > 0, a < 1, a * a * a > a], timeout_s=10)
        return json.dumps(rec.decisions[0].to_json(), sort_keys=True)

    first = run()
    x = z3.Real("x")
    smt.decide([x * x > 3, x < 1, x > -1], timeout_s=10)  # other queries, other cvc5 answers cached first
    smt_cvc5.ANSWERS.clear()
    assert run() == first


def test_an_exported_file_re_decides_from_the_command_line(export_dir):
    x = z3.Real("x")
    rec = Findings("demo")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
        smt.decide([x > 1, x < 0], timeout_s=10)
    (name,) = rec.decisions[0].to_json()["smt"]["files"]
    path = export_dir / f"{name}.smt2"
    done = subprocess.run(
        [sys.executable, "-m", "udpm.smt.solvers", str(path), "--budget", "10"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: z3 unsat, cvc5 unsat")


def test_the_smt_field_is_in_the_results_schema(monkeypatch):
    import jsonschema

    schema = json.loads((ROOT / "udpm" / "outputs" / "results.schema.json").read_text())
    decision = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/decision"})
    x = z3.Real("x")
    rec = Findings("demo")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="smt"):
        smt.decide([x > 1, x < 0], timeout_s=10)
        smt.decide([x > 1], timeout_s=10)
        cvc5_says(monkeypatch, "unknown", "resourceout")
        smt.decide([x > 2, x < 0], timeout_s=10)
    doc = rec.decisions[0].to_json()
    assert set(doc["smt"]) == {"files", "answers", "agreement", "one_solver"}
    assert list(decision.iter_errors(doc)) == []
    doc["smt"]["files"] = ["build/smt/x.smt2"]
    assert list(decision.iter_errors(doc))
