"""One budget for an audit: each step in time or reported as timeout (never raised); the remap question by its
cheapest exact certificate; the witness user as an optional second step; the tightest privacy level."""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction as F

import pytest

from udpm import audit
from udpm.auditing import witness_users
from udpm.auditing.privacy_level import privacy_level
from udpm.auditing.questions import is_universally_optimal
from udpm.auditing.time_budget import Budget, run_within
from udpm.auditing.universality_check import decide_remap
from udpm.auditing.witness_users import fast_best_remap, find_witness, lp_proposal, weights_of
from udpm.cli import main
from udpm.core import linalg
from udpm.core.mechanisms import fast_truncated_geometric, truncated_geometric
from udpm.errors import InvalidInput, SolverTimeout


def rr(n: int, beta: F) -> list[list[F]]:
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


def boundary_rr(n: int, a: F = F(1, 2)) -> list[list[F]]:
    return rr(n, 1 / (1 + n * a))


def test_fast_truncated_geometric_is_t():
    for n in (1, 2, 7):
        for a in (F(1, 3), F(1, 2), F(9, 10)):
            assert fast_truncated_geometric(n, a) == truncated_geometric(n, a)


def test_privacy_level_is_the_smallest_adjacent_ratio_and_where_it_binds():
    m = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 8), F(1, 4), F(5, 8)]]
    level = privacy_level(m)
    assert level.alpha == F(2, 5) and level.pair == (1, 2) and level.output == 2  # 1/4 vs 5/8
    assert level.private_at(F(2, 5)) and not level.private_at(F(401, 1000))
    assert str(level).startswith("alpha* = 2/5 ≈ 0.4, eps* = ln(5/2) ≈ 0.9163: bound by rows 1, 2 at output 2")
    t = truncated_geometric(4, F(1, 3))
    assert privacy_level(t).alpha == F(1, 3)
    assert privacy_level([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]]).pair is None
    zero = privacy_level([[1, 0], [F(1, 2), F(1, 2)]])
    assert zero.alpha == 0 and zero.epsilon == "inf" and not zero.private_at("1/1000")
    with pytest.raises(InvalidInput):
        privacy_level([[0.5, 0.5], [0.5, 0.5]])


def test_the_remap_certificates_are_exact():
    a = F(1, 2)
    t = fast_truncated_geometric(70, a)  # past SMALL: floats propose the column, one column is solved exactly
    d = decide_remap(boundary_rr(70), t, Budget(60))
    assert d.method == "negative entry" and d.negative[2] < 0
    r, j, v = d.negative
    col = linalg.solve(boundary_rr(70), [[row[j]] for row in t])
    assert col[r][0] == v
    permuted = [row[1:] + row[:1] for row in t]
    d = decide_remap(permuted, t, Budget(60))
    assert d.method == "proportional columns" and linalg.matmul(permuted, d.remap) == t


def test_a_defective_remap_is_refused_by_the_check():
    from udpm.auditing.universality_check import checked

    t = truncated_geometric(2, F(1, 2))
    with pytest.raises(AssertionError):
        checked(t, [[0, 1, 0], [1, 0, 0], [0, 0, 1]], t)  # a permutation that does not give T
    with pytest.raises(AssertionError):
        checked(t, [[F(1, 2), F(1, 2), 0], [F(1, 2), F(1, 2), 0], [0, 0, 1]], t)


def test_a_step_out_of_budget_is_reported_as_timeout_never_raised():
    m = boundary_rr(80)
    t0 = time.perf_counter()
    r = audit(m, "1/2", budget=0.001)
    assert time.perf_counter() - t0 < 30
    assert r.universality is None and r.privacy  # privacy was decided before the budget ran out
    assert {s.name: s.status for s in r.steps}["universality"] == "timeout"
    assert all(u.status == "timeout" and u.optimum is None for u in r.users)
    assert r.headline.endswith("universal optimality NOT DECIDED: the remap question ran out of the budget")
    doc = json.loads(r.to_json())
    assert doc["universally_optimal"] is None and doc["method"] == "timeout"


def test_a_witness_search_out_of_time_is_reported_and_the_verdict_stands(monkeypatch):
    monkeypatch.setattr(witness_users, "named_users", lambda n: [])
    monkeypatch.setattr(witness_users, "lp_proposal", lambda *a, **k: None)

    def slow(*args, **kwargs):
        raise SolverTimeout("z3 gave up")

    monkeypatch.setattr(witness_users, "user_preferring", slow)
    u = is_universally_optimal(boundary_rr(3), "1/2")
    assert not u and u.method == "negative entry" and u.witness_status == "timeout" and u.witness is None
    assert is_universally_optimal(boundary_rr(3), "1/2", witness=False).witness_status == "off"


def test_run_within_kills_at_the_bound_and_passes_results_and_errors():
    t0 = time.perf_counter()
    with pytest.raises(SolverTimeout, match="not decided within"):
        run_within(lambda: time.sleep(30), 0.5, "a sleep")
    assert time.perf_counter() - t0 < 10
    assert run_within(lambda: F(1, 3), 30, "x") == F(1, 3)
    with pytest.raises(InvalidInput, match="boom"):
        run_within(lambda: (_ for _ in ()).throw(InvalidInput("boom")), 30, "x")
    with pytest.raises(SolverTimeout):
        run_within(lambda: 1, 0, "x")


def test_every_witness_path_gives_an_exactly_rechecked_user(monkeypatch):
    a = F(1, 2)
    m = boundary_rr(3)
    t = fast_truncated_geometric(3, a)
    w = lp_proposal(m, t, 10)  # floats propose a legal W; the witness is re-checked exactly
    assert w is not None
    from udpm.auditing.every_user import LEGAL, in_cone

    assert in_cone(w, LEGAL)
    monkeypatch.setattr(witness_users, "named_users", lambda n: [])
    found = find_witness(m, a)
    assert found.found_by.startswith("LP over the legal cone")
    monkeypatch.setattr(witness_users, "lp_proposal", lambda *a, **k: None)
    found = find_witness(m, a)
    assert found.found_by == "SMT over every legal user"
    for w in (found,):
        weights = weights_of(w.user)
        assert fast_best_remap(m, weights)[0] == w.mechanism_loss > fast_best_remap(t, weights)[0] == w.t_loss
        assert w.optimum is not None and w.optimum.loss <= w.t_loss


def test_fast_best_remap_agrees_with_the_reference():
    from udpm.auditing.optimum import best_remap
    from udpm.auditing.user_inputs import make_user

    m = boundary_rr(4)
    for loss in ("abs", "zero-one", "squared"):
        user = make_user([F(1, 10), F(2, 10), F(3, 10), F(1, 10), F(3, 10)], loss)
        assert fast_best_remap(m, weights_of(user)) == best_remap(m, user)


def test_cli_budget_exit_3_and_progress_only_on_a_terminal(tmp_path, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps([[str(v) for v in r] for r in boundary_rr(80)]))
    assert main(["audit", str(path), "--alpha", "1/2", "--budget", "0.001"]) == 3
    captured = capsys.readouterr()
    assert "universal optimality NOT DECIDED" in captured.out.splitlines()[0]
    assert captured.err == ""  # not a terminal: no progress lines
    assert main(["audit", str(path), "--alpha", "1/2", "--budget", "0"]) == 2
    assert "--budget must be > 0 seconds" in capsys.readouterr().err


def test_progress_lines_on_a_terminal(tmp_path, capsys, monkeypatch):
    path = tmp_path / "m.json"
    path.write_text('[["3/5", "2/5"], ["2/5", "3/5"]]')
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    assert main(["audit", str(path), "--alpha", "1/2", "--loss", "abs"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == ["udpm audit: privacy ...", err[1]] and err[1].startswith("udpm audit: privacy decided (")
    assert any(line.startswith("udpm audit: user uniform, abs decided (") for line in err)


def test_a_witness_that_fails_its_exact_recheck_changes_nothing(monkeypatch):
    from udpm.errors import HarnessError

    def unconfirmed(*args, **kwargs):
        raise HarnessError("the solver's user does not separate M from T exactly")

    monkeypatch.setattr(witness_users, "named_users", lambda n: [])
    monkeypatch.setattr(witness_users, "lp_proposal", lambda *a, **k: None)
    monkeypatch.setattr(witness_users, "user_preferring", unconfirmed)
    u = is_universally_optimal(boundary_rr(3), "1/2")
    assert not u and u.method == "negative entry" and u.witness_status == "undecided" and u.witness is None


def test_privacy_level_is_part_of_the_questions():
    from udpm.auditing import questions

    assert questions.privacy_level is privacy_level and "privacy_level" in questions.__all__
