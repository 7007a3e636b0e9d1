"""udpm.run.executor: a LocalCluster run gives the serial records byte for byte, a killed worker's tasks are
recomputed, and a task past its bound on a worker thread is inconclusive (never a pass)."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from udpm.claims.evidence import Status, unresolved
from udpm.claims.records import canonical
from udpm.claims.registry import Context, load_checkers
from udpm.errors import CheckTimeout
from udpm.run import executor
from udpm.run.cache import to_payload

PLANNED, WHOLE = "grs2011.lemma5.5", "grs2011.ex2.1"  # one task per (n, alpha); one task for the claim


def _text(found: dict) -> dict[str, str]:
    return {cid: canonical(to_payload(f)) for cid, (f, _) in found.items()}


@pytest.fixture(scope="module")
def serial() -> dict[str, str]:
    load_checkers()
    return _text(executor.run([PLANNED, WHOLE], Context()))


def test_the_plan_splits_the_claim_into_its_instances():
    load_checkers()
    tasks = executor.plan_of(PLANNED).tasks(Context())
    assert len(tasks) == len(set(tasks)) > 4 and all(isinstance(n, int) and isinstance(a, str) for n, a in tasks)
    assert executor.plan_of(WHOLE) is None


def test_a_local_cluster_run_gives_the_serial_records(serial):
    assert _text(executor.run([PLANNED, WHOLE], Context(), jobs=2)) == serial


def test_a_killed_worker_loses_no_task(serial):
    killed: list[int] = []

    def kill_one_busy_worker(client) -> None:
        def later() -> None:
            pids = client.run(os.getpid)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                busy = [w for w, keys in client.processing().items() if any("task-" in str(k) for k in keys)]
                if busy:
                    time.sleep(0.5)  # mid-task
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.1)

        threading.Thread(target=later, daemon=True).start()

    found = executor.run([PLANNED, WHOLE], Context(), jobs=2, on_client=kill_one_busy_worker)
    assert killed, "no worker was killed mid-task"
    assert _text(found) == serial


def test_a_task_past_its_bound_on_a_worker_thread_is_inconclusive(monkeypatch):
    from udpm.internal import deadline

    monkeypatch.setattr(deadline, "GRACE_S", 0.1)  # the spin reaches no safe point: stopped after the grace
    out: list[object] = []

    def spin() -> None:
        try:
            with executor.bound(0.3):
                while True:
                    sum(range(1000))
        except CheckTimeout as exc:
            out.append(exc)

    t = threading.Thread(target=spin)
    t.start()
    t.join(10)
    assert out and "0.3 s" in str(out[0])


def test_a_failed_task_makes_its_claim_inconclusive_not_passed():
    load_checkers()
    bad = unresolved(Status.INCONCLUSIVE, "no answer within the bound: demo")
    found, _ = executor.check_task(PLANNED, Context(), {(1, "1/2"): (bad, 1.0)})
    assert found is bad
