"""udpm.smt's second solver: every query is exported as SMT-LIB 2 and decided by cvc5 too (issue 11, section 4)."""

import re

import pytest
import z3

from udpm import smt
from udpm.errors import SolverDisagreement, SolverTimeout, VacuousPremise


@pytest.fixture(autouse=True)
def export_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(smt, "EXPORT_DIR", tmp_path / "smt")
    monkeypatch.setattr(smt, "_ANSWERS", {})
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


def test_both_solvers_agree_on_sat_and_z3s_model_is_kept(on_sat):
    x = z3.Real("x")
    out = smt.decide([x * x == 2, x > 0], timeout_s=10)  # nonlinear, irrational model
    assert out.unsat is False
    assert smt.model_value(out.model, x).endswith("(algebraic)")
    assert out.solvers == ("z3", "cvc5") and out.second_opinion == "cvc5 sat"


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
    assert re.fullmatch(r"z3 answered unsat, cvc5 answered sat on \S+/smt/[0-9a-f]{16}\.smt2", str(e.value))
    assert str(asked[0]) in str(e.value) or asked[0].name in str(e.value)
    cvc5_says(monkeypatch, "unsat")
    with pytest.raises(SolverDisagreement, match="z3 answered sat, cvc5 answered unsat"):
        smt.decide([x > 1], timeout_s=10)
    # premise_witness goes through decide as well
    with pytest.raises(SolverDisagreement):
        smt.premise_witness([x > 1], timeout_s=10, what="demo")


def test_cvc5_unknown_leaves_z3s_verdict_standing_and_says_so(monkeypatch, on_sat):
    x = z3.Real("x")
    cvc5_says(monkeypatch, "unknown", "timeout")
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.unsat is True
    assert out.solvers == ("z3",)
    assert out.second_opinion == "cvc5 unknown (timeout)"
    out = smt.decide([x > 1], timeout_s=10)
    assert out.unsat is False and out.model is not None and out.solvers == ("z3",)
    with pytest.raises(VacuousPremise):  # an unsat premise is still refused on z3's word alone
        smt.premise_witness([x > 1, x < 0], timeout_s=10, what="demo")


class UnknownZ3:
    def __init__(self, *args):
        pass

    def set(self, *args):
        pass

    def add(self, *args):
        pass

    def check(self):
        return z3.unknown

    def reason_unknown(self):
        return "timeout"


def test_z3_unknown_rests_on_cvc5s_unsat_but_never_on_its_sat(monkeypatch):
    x = z3.Real("x")
    monkeypatch.setattr(smt.z3, "Solver", UnknownZ3)
    out = smt.decide([x > 1, x < 0], timeout_s=10)
    assert out.unsat is True and out.solvers == ("cvc5",)
    assert out.second_opinion == "cvc5 unsat; z3 answered unknown (timeout) within 10 s"
    with pytest.raises(SolverTimeout, match="cvc5 answered sat, but a sat needs a z3 model"):
        smt.decide([x > 1], timeout_s=10)
    cvc5_says(monkeypatch, "unknown", "timeout")
    with pytest.raises(SolverTimeout) as e:
        smt.decide([x > 1], timeout_s=10)
    assert str(e.value) == "z3 answered unknown (timeout) within 10 s; cvc5 unknown (timeout)"


def test_a_real_cvc5_timeout_is_unknown(monkeypatch, export_dir):
    a, b, c = z3.Ints("a b c")
    # sum of three cubes = 33: out of reach in 0.2 s, cvc5 does not honour tlimit-per on it and is killed
    monkeypatch.setattr(smt, "GRACE_S", 0.3)
    path = smt.export([a * a * a + b * b * b + c * c * c == 33])
    answer, reason = smt.run_cvc5(path, 0.2)
    assert answer == "unknown" and reason  # "timeout", or "killed after 0.5 s"
    # the helper is restarted for the next query
    x = z3.Real("x")
    assert smt.run_cvc5(smt.export([x > 1, x < 0]), 10) == ("unsat", "")


def test_an_answer_never_read_does_not_answer_the_next_query():
    a, b, c = z3.Ints("a b c")
    smt.start_cvc5(smt.export([a * a * a + b * b * b + c * c * c == 33]), 30)  # abandoned, as when z3 raises
    x = z3.Real("x")
    assert smt.run_cvc5(smt.export([x > 1]), 10) == ("sat", "")
    assert smt.run_cvc5(smt.export([x > 1, x < 0]), 10) == ("unsat", "")


def test_the_exported_file_is_named_by_its_text_and_gives_z3_the_same_answer(export_dir):
    x, y = z3.Reals("x y")
    for query, answer in [([x > 1, x < 0], z3.unsat), ([x * y == 1, x > y, y > 0], z3.sat)]:
        out = smt.decide(query, timeout_s=10)
        path = export_dir / out.file.rsplit("/", 1)[-1]
        text = path.read_text()
        assert path.name == smt.hashlib.sha256(text.encode()).hexdigest()[:16] + ".smt2"
        assert text.count("(set-logic ALL)") == 1 and text.rstrip().endswith("(check-sat)")
        parsed = z3.Solver()
        parsed.from_file(str(path))  # parses back
        assert len(parsed.assertions()) == len(query)
        assert parsed.check() == answer
        assert smt.cvc5_decide_file(path, 10_000) == (str(answer), "")


def test_the_file_name_depends_on_the_query_alone():
    def build():
        a = z3.Real("a")
        return smt.smt2_text([a > 0, (a + 1) * (a + 1) < a * (a + 1)])

    first = build()
    with smt.fresh_context():
        z3.Reals("u v w")  # other terms first: other term ids, hence other let names in z3's printout
        z3.Real("a") * 7 + 3
        second = build()
    assert first == second


def test_unary_sums_and_products_are_written_as_their_term():
    x, y = z3.Reals("x y")
    text = smt.smt2_text([z3.Sum([x]) > 0, z3.Product([y]) > 0, z3.And([x > y])])
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
    cvc5_says(monkeypatch, "unknown", "timeout")
    smt.decide([x > 2, x < 0], timeout_s=10)
    assert smt.second_opinions() == {
        "z3 sat, cvc5 not run (z3 sat: the caller re-checks z3's model exactly)": 1,
        "z3 sat, cvc5 sat": 1,
        "z3 unsat, cvc5 unknown (timeout)": 1,
        "z3 unsat, cvc5 unsat": 1,
    }
    assert smt.second_opinion_summary() == (
        "4 SMT queries, cvc5 agreed on 2 (1 unsat, 1 sat); 1 sat on z3 alone (cvc5 not run on a sat); "
        "1 on z3 alone (cvc5 unknown (timeout))"
    )
    smt.reset_second_opinions()


def test_the_command_line_re_decides_files_with_both(export_dir, capsys):
    x = z3.Real("x")
    unsat = smt.export([x > 1, x < 0])
    sat = smt.export([x > 1])
    assert smt.main([str(unsat), str(sat), "--timeout", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{unsat}: z3 unsat, cvc5 unsat")
    assert lines[1].startswith(f"{sat}: z3 sat, cvc5 sat")
