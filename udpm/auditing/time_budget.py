"""One time budget for a whole audit, and exact computations bounded by it.

:class:`Budget` is a deadline shared by the steps of :func:`udpm.auditing.report.audit`; each step asks
for ``budget.left(cap)`` seconds.  :func:`run_within` runs one long exact computation (a FLINT solve
of a large matrix cannot be interrupted from Python) in a forked child process that is killed at its
bound, so a step never overruns the budget by more than the child's start-up.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import pickle
import time
from collections.abc import Callable
from typing import TypeVar

from udpm.errors import InvalidInput, SolverTimeout

R = TypeVar("R")


class Budget:
    """A deadline ``seconds`` from now (None or inf: no deadline).

    >>> b = Budget(None); b.left(5.0), b.expired
    (5.0, False)
    >>> Budget(0).expired
    True
    >>> Budget(-1)
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: budget must be a number of seconds >= 0, got -1
    """

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float)):
            raise InvalidInput(f"budget must be a number of seconds >= 0, got {seconds!r}")
        if seconds is not None and (math.isnan(seconds) or seconds < 0):
            raise InvalidInput(f"budget must be a number of seconds >= 0, got {seconds!r}")
        self.seconds = math.inf if seconds is None else float(seconds)
        self.start = time.perf_counter()
        self.deadline = self.start + self.seconds

    def remaining(self) -> float:
        return max(0.0, self.deadline - time.perf_counter())

    def left(self, cap: float = math.inf) -> float:
        """The seconds a step may use: its own cap, within what remains."""
        return min(cap, self.remaining())

    @property
    def expired(self) -> bool:
        return self.remaining() <= 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _child(fn: Callable[[], object], conn) -> None:  # pragma: no cover (runs in the forked child)
    try:
        payload = pickle.dumps(("ok", fn()))
    except BaseException as exc:
        payload = pickle.dumps(("error", exc))
    conn.send_bytes(payload)
    conn.close()
    os._exit(0)


def bounded(fn: Callable[[], R], budget: Budget, what: str, large: bool) -> R:
    """``fn()`` in a child killed at the budget when the problem is ``large``, else here (no fork for small ones)."""
    if budget.expired:
        raise SolverTimeout(f"{what}: no time left in the budget")
    return run_within(fn, budget.remaining(), what) if large else fn()


def run_within(fn: Callable[[], R], seconds: float, what: str) -> R:
    """``fn()`` computed in a forked child, killed after ``seconds``: its (picklable) result, or SolverTimeout.

    An exception of ``fn`` is raised again here.  Without ``fork`` (not Linux), ``fn`` runs in this process.
    """
    if seconds <= 0:
        raise SolverTimeout(f"{what}: no time left in the budget")
    if "fork" not in multiprocessing.get_all_start_methods():  # pragma: no cover
        return fn()
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(fn, send), daemon=True)
    proc.start()
    send.close()
    try:
        if not recv.poll(None if math.isinf(seconds) else seconds):
            raise SolverTimeout(f"{what}: not decided within {seconds:.3g} s")
        kind, value = pickle.loads(recv.recv_bytes())
    except EOFError:
        raise SolverTimeout(f"{what}: the bounded computation ended without an answer") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    if kind == "error":
        raise value
    return value


__all__ = ["Budget", "bounded", "run_within"]
