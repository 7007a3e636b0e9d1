"""A check past its wall-clock bound stops at a safe point (udpm.internal.deadline), never inside z3: in the main thread
between any two instructions outside z3, in a worker thread at its next solver call or decided instance; a run
reports it as one inconclusive claim, with no traceback."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import time

import pytest
import z3

from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.errors import CheckTimeout
from udpm.internal import deadline
from udpm.smt import solvers as smt

CLAIM = "grs2011.lemma5.5"  # planned: many small z3 queries, so a tiny bound lands inside z3 again and again


def _churn_z3(python_work: int = 0) -> None:
    """Build and drop z3 contexts and terms forever, with ``python_work`` steps of plain Python in between (a
    check's own code): without them, nearly all the time is spent inside z3's Python layer."""
    while True:
        ctx = z3.Context()
        x = z3.Int("x", ctx)
        z3.Solver(ctx=ctx).add(x > 0)
        sum(range(python_work))


@pytest.fixture
def unraisable(monkeypatch):
    """Every exception Python had to ignore (in a __del__, say) while the test ran."""
    seen: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", seen.append)
    return seen


def test_a_bound_in_the_main_thread_never_lands_inside_z3(unraisable):
    for _ in range(2):
        with pytest.raises(CheckTimeout, match=r"^the check exceeded its wall-clock bound of 0.02 s$"):
            with deadline.bound(0.02):
                _churn_z3()
    gc.collect()
    assert unraisable == []


def _in_thread(target) -> list[str]:
    """Run ``target`` in a worker thread; the messages of the CheckTimeouts it raised (not the exceptions: their
    frames would keep what they reference alive past the test's gc.collect())."""
    caught: list[str] = []

    def run() -> None:
        try:
            target()
        except CheckTimeout as exc:
            caught.append(str(exc))

    t = threading.Thread(target=run)
    t.start()
    t.join(60)
    gc.collect()
    return caught


def test_a_worker_thread_stops_at_its_next_decided_instance(unraisable):
    def check() -> None:
        rec = Findings("demo")
        with deadline.bound(0.05):
            for k in range(10**9):
                for _ in range(20):
                    ctx = z3.Context()
                    z3.Solver(ctx=ctx).add(z3.Int("x", ctx) > 0)
                rec.decide(True, n=k, alpha="1/2", kind=BOUNDED, method="m")

    started = time.monotonic()
    assert _in_thread(check) == ["the check exceeded its wall-clock bound of 0.05 s"]
    assert time.monotonic() - started < 10 and unraisable == []


def test_a_worker_thread_that_reaches_no_safe_point_is_stopped_after_the_grace(monkeypatch):
    monkeypatch.setattr(deadline, "GRACE_S", 0.2)

    def spin() -> None:
        with deadline.bound(0.05):
            while True:
                sum(range(1000))

    assert _in_thread(spin) == ["the check exceeded its wall-clock bound of 0.05 s"]


def test_an_unsafe_frame_is_one_in_z3_or_in_a_destructor():
    class Finalised:
        def __del__(self) -> None:
            frames.append(sys._getframe())

    frames: list[object] = []
    Finalised()
    assert not deadline.safe(frames[0])  # a __del__
    assert deadline.safe(sys._getframe())
    ctx = z3.Context()
    assert ctx.ref() is not None and not deadline.safe(_frame_inside_z3())


def test_a_frame_of_the_cvc5_helpers_client_is_unsafe():
    """A request sent but its answer not read would be read as the next query's answer."""
    space = {"__name__": "udpm.smt.cvc5_process", "sys": sys}
    exec("def here():\n    return sys._getframe()\n", space)
    assert not deadline.safe(space["here"]())
    space["__name__"] = "udpm.smt_cvc5_other"
    assert deadline.safe(space["here"]())


def _frame_inside_z3():
    """A frame whose caller chain passes through z3's Python layer (z3.z3.is_expr calls our __class__ lookup)."""
    got = []

    class Probe:
        @property
        def __class__(self):  # z3's isinstance checks read it, from inside z3
            got.append(sys._getframe())
            return object

    z3.is_expr(Probe())
    return got[0]


def test_a_solver_call_ends_at_the_checks_bound():
    pigeons = 13  # far beyond 60 s of work; the check's bound of 0.5 s stops z3's clock
    p = [[z3.Bool(f"p{i}_{j}") for j in range(pigeons - 1)] for i in range(pigeons)]
    holes = [z3.Or(r) for r in p]
    clash = [
        z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])) for j in range(pigeons - 1) for i in range(pigeons) for k in range(i)
    ]
    started = time.monotonic()
    with pytest.raises(CheckTimeout, match=r"wall-clock bound of 0.5 s"):
        with deadline.bound(0.5):
            smt.decide(holes + clash, timeout_s=60)
    assert time.monotonic() - started < 5
    assert deadline.remaining() is None  # no bound is left behind


def test_a_worker_thread_inside_z3_stops_at_its_next_solver_call(unraisable):
    x = z3.Int("x")

    def check() -> None:
        with deadline.bound(0.2):
            while True:
                _ = [z3.Int(f"y{k}") + 1 for k in range(200)]
                smt.decide([x > 0], timeout_s=5)

    started = time.monotonic()
    assert _in_thread(check) == ["the check exceeded its wall-clock bound of 0.2 s"]
    assert time.monotonic() - started < 10 and unraisable == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_tiny_claim_timeout_is_one_inconclusive_claim_without_tracebacks(project, jobs):
    cmd = [sys.executable, "reproduce.py", "--no-cache", "--only", CLAIM, "--claim-timeout", "0.01", "--jobs", jobs]
    proc = subprocess.run(cmd, cwd=project, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "Exception ignored" not in proc.stderr, proc.stderr
    reason = "no answer within the bound: the check exceeded its wall-clock bound of 0.01 s"
    assert sum(reason in line for line in proc.stdout.splitlines()) == 1, proc.stdout
