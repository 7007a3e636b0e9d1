"""Guard rails of udpm.smt.solvers (mutation-run kills): the time bound, unknown never read as a proof, exact model
values."""

import signal
from typing import ClassVar

import pytest
import z3

from udpm.errors import SolverTimeout, VacuousPremise
from udpm.smt import export as smt_export
from udpm.smt import solvers as smt


class FakeSolver:
    """Records what decide() sets and answers a fixed verdict."""

    made: ClassVar[list] = []

    def __init__(self, answer=z3.unknown, reason="timeout", logic=None, ctx=None):
        self.answer, self.reason, self.logic, self.ctx = answer, reason, logic, ctx
        self.settings, self.assertions = {}, []
        FakeSolver.made.append(self)

    def set(self, key, value):
        self.settings[key] = value

    def add(self, *assertions):
        self.assertions.extend(assertions)

    def check(self):
        return self.answer

    def reason_unknown(self):
        return self.reason

    def model(self):
        return FakeModel("model")


class FakeModel(str):
    def translate(self, ctx):  # back into the query's own context
        return self


@pytest.fixture
def fake(monkeypatch, tmp_path):
    FakeSolver.made = []
    answer = {"answer": z3.unknown, "reason": "timeout"}
    # z3 is faked here: the second solver (tests/test_smt_second_solver.py) says unknown, so z3's answer stands
    monkeypatch.setattr(smt_export, "EXPORT_DIR", tmp_path)
    monkeypatch.setattr(smt, "start_cvc5", lambda path, timeout_s: lambda: ("unknown", "stubbed"))
    monkeypatch.setattr(smt.z3, "Solver", lambda ctx=None: FakeSolver(ctx=ctx, **answer))
    monkeypatch.setattr(smt.z3, "SolverFor", lambda logic, ctx=None: FakeSolver(logic=logic, ctx=ctx, **answer))
    return answer


def test_the_budget_is_a_resource_limit_and_the_clock_a_last_resort(fake, monkeypatch):
    # as in a run started from a terminal (a shell's background job inherits SIGINT ignored: see the next test)
    monkeypatch.setattr(smt.signal, "getsignal", lambda sig: signal.default_int_handler)
    fake["answer"] = z3.unsat
    assert smt.Z3_RLIMIT_PER_S == 3_000_000
    smt.decide([z3.Bool("p")], timeout_s=2.5)
    # rlimit: 2.5 s of work; the clock (ms): 5 times the budget plus 5 s
    assert FakeSolver.made[-1].settings == {"rlimit": 7_500_000, "timeout": 17_500}
    smt.decide([z3.Bool("p")], timeout_s=0.0001)
    assert FakeSolver.made[-1].settings == {"rlimit": 300, "timeout": 5000}
    smt.decide([z3.Bool("p")], timeout_s=0)
    assert FakeSolver.made[-1].settings == {"rlimit": 1, "timeout": 5000}  # never 0, which z3 reads as "no bound"


def test_where_sigint_is_ignored_z3_does_not_catch_ctrl_c(fake, monkeypatch):
    """A Dask worker (and a background job) ignores SIGINT: the run's own process handles Ctrl-C, so z3 must not
    turn it into an interrupted query there."""
    monkeypatch.setattr(smt.signal, "getsignal", lambda sig: signal.SIG_IGN)
    fake["answer"] = z3.unsat
    smt.decide([z3.Bool("p")], timeout_s=2.5)
    assert FakeSolver.made[-1].settings == {"rlimit": 7_500_000, "timeout": 17_500, "ctrl_c": False}


def test_a_logic_picks_a_solver_for_it_and_every_assertion_is_added(fake):
    fake["answer"] = z3.unsat
    p, q = z3.Bools("p q")
    assert smt.decide([p, q], timeout_s=1, logic="QF_LRA").unsat is True
    assert FakeSolver.made[-1].logic == "QF_LRA"
    assert [str(a) for a in FakeSolver.made[-1].assertions] == ["p", "q"]
    # a copy in a fresh context, so that z3's search depends on the query alone
    made = FakeSolver.made[-1]
    assert made.ctx is not None and made.ctx != z3.main_ctx() and all(a.ctx == made.ctx for a in made.assertions)
    smt.decide([p], timeout_s=1)
    assert FakeSolver.made[-1].logic is None


def test_unknown_is_a_timeout_with_its_reason_never_a_verdict(fake):
    fake["reason"] = "canceled"
    try:  # a KeyboardInterrupt here would stop the whole test session: catch it and fail instead
        smt.decide([z3.Bool("p")], timeout_s=2.5)
    except BaseException as exc:
        err = exc
    else:
        pytest.fail("unknown was read as an answer")
    assert type(err) is SolverTimeout
    assert str(err).startswith("z3 answered unknown (resource limit) within 2.5 s of work; cvc5 unknown (stubbed) on ")
    fake["reason"] = "smt tactic failed"  # z3 gave up: its own reason
    with pytest.raises(SolverTimeout, match=r"^z3 answered unknown \(smt tactic failed\) within 1 s of work"):
        smt.decide([z3.Bool("p")], timeout_s=1)


def test_z3_catching_ctrl_c_is_turned_back_into_keyboard_interrupt(fake):
    assert smt.KEYBOARD == "interrupted from keyboard"
    fake["reason"] = "(interrupted from keyboard)"
    with pytest.raises(KeyboardInterrupt):
        smt.decide([z3.Bool("p")], timeout_s=1)


def test_sat_returns_the_model_and_unsat_none(fake):
    fake["answer"] = z3.sat
    out = smt.decide([z3.Bool("p")], timeout_s=1)
    assert (out.unsat, out.model, out.solvers) == (False, "model", ("z3",))
    fake["answer"] = z3.unsat
    out = smt.decide([z3.Bool("p")], timeout_s=1)
    assert (out.unsat, out.model, out.solvers, out.second_opinion) == (True, None, ("z3",), "cvc5 unknown (stubbed)")


def test_real_z3_unsat_and_sat():
    x = z3.Real("x")
    out = smt.decide([x > 1, x < 0], timeout_s=5)
    assert out.unsat is True and out.model is None
    out = smt.decide([x > 1, x < 2], timeout_s=5)
    assert out.unsat is False and out.model is not None


def test_premise_witness_is_sorted_exact_and_skips_functions():
    x, y, a = z3.Real("x"), z3.Int("y"), z3.Real("a")
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    w = smt.premise_witness(iter([x == z3.RealVal("3/4"), y == 5, a == 2, f(y) == 1]), timeout_s=5, what="w")
    assert w == {"a": "2", "x": "3/4", "y": "5"}
    assert list(w) == ["a", "x", "y"]


def test_a_vacuous_premise_is_refused_with_its_name():
    x = z3.Real("x")
    with pytest.raises(VacuousPremise) as e:
        smt.premise_witness(iter([x > 1, x < 0]), timeout_s=5, what="lemma 3")
    assert str(e.value) == "lemma 3: the hypotheses have no model, so any conclusion would follow"


def test_model_values_are_exact_strings():
    x, n, s, b = z3.Real("x"), z3.Int("n"), z3.Real("s"), z3.Bool("b")
    solver = z3.Solver()
    solver.add(x == z3.RealVal("-7/3"), n == -4, s * s == 2, s > 0, b)
    assert solver.check() == z3.sat
    m = solver.model()
    assert smt.model_value(m, x) == "-7/3"
    assert smt.model_value(m, n) == "-4"
    assert smt.model_value(m, x * 3) == "-7"
    # an irrational value is a rational within 1e-20 of it, labelled as such
    assert smt.model_value(m, s) == "3419358580004036860274167/2417851639229258349412352 (algebraic)"
    assert smt.model_value(m, b) == "True"
    # an unconstrained term is completed, not left symbolic
    assert smt.model_value(m, z3.Real("free")) == "0"


def test_model_values_do_not_depend_on_z3s_printer_settings():
    x = z3.Real("x")
    solver = z3.Solver()
    solver.add(x == z3.RealVal("1/3"))
    assert solver.check() == z3.sat
    z3.set_option(rational_to_decimal=True)
    try:
        assert smt.model_value(solver.model(), x) == "1/3"
    finally:
        z3.set_option(rational_to_decimal=False)


def test_a_model_depends_on_the_query_alone_not_on_the_terms_built_before_it():
    """Every query is solved in a translated copy in a new context, so z3's model is a function of the query."""

    def model() -> tuple[str, str]:
        x, y = z3.Reals("x y")
        out = smt.decide([x + y > 1, x < 3, y < 5, x > -2, x * y < 7], timeout_s=5)
        return smt.model_value(out.model, x), smt.model_value(out.model, y)

    first = model()
    z3.Reals("p q r s")
    _ = [z3.Real(f"junk{i}") * i + z3.Real("y") for i in range(50)]  # other terms, other ids in the context
    assert model() == first


def test_the_exported_text_depends_on_the_query_alone_not_on_other_references():
    """z3 lets-binds a subterm with more than one reference, and z3 hash-conses: an equal term held elsewhere in the
    process (an earlier claim's) used to change the file, and so its name, between a serial run and a worker."""
    import z3

    from udpm.smt.export import smt2_text

    x, a = z3.Reals("x alpha")
    alone = smt2_text([x >= 0, x <= x / a])
    held = x / a  # another reference to an equal subterm
    assert smt2_text([x >= 0, x <= x / a]) == alone and "let" not in alone
    assert held.num_args() == 2


def test_a_sat_model_depends_on_the_query_alone_not_on_terms_built_before():
    def query():
        w = [z3.Real(f"det_w{i}") for i in range(4)]
        q = [z3.Sum(w) == 1, *(v >= 0 for v in w), z3.Or(w[0] > w[1], w[2] > w[3]), z3.Or(w[1] >= 1 / 3, w[3] >= 1 / 4)]
        return w, q

    w, q = query()
    first = smt.decide(q, timeout_s=5).model
    before = [smt.model_value(first, v) for v in w]
    junk = [z3.Real(f"det_w{i}") * z3.Real(f"junk{k}") for k in range(50) for i in (3, 2, 1, 0)]  # other terms, ids
    w, q = query()
    again = smt.decide(q, timeout_s=5).model
    assert junk and [smt.model_value(again, v) for v in w] == before
