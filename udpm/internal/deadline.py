"""A wall-clock bound on one check that stops it only at a safe point.

A check past its bound (``--claim-timeout``) raises :class:`~udpm.errors.CheckTimeout`, but never inside z3:
an exception raised in z3's Python layer (a constructor half done, a ``__del__``) leaves solver objects half
built, and every one of them later prints "Exception ignored in ...".  The bound is enforced

* at every solver call (:func:`udpm.smt.solvers.decide`): before it starts, and by z3's own clock, which is capped at
  the time the check has left (:func:`remaining`); a solver stopped by that clock ends the check;
* at every instance a check decides (:meth:`udpm.claims.findings.Findings.instance`);
* in the main thread, also between them: a SIGALRM handler raises at the instruction the check is at, when no
  frame of z3 or of the cvc5 helper's client, no ``__del__`` and no frame of this module is on the stack
  (:func:`safe`), and otherwise tries again :data:`RETRY_S` later.  A handler runs only between two
  instructions of the frame it is given, so the test is exact.

In a worker thread (a Dask worker) no signal arrives, and an exception raised in a thread from outside lands
wherever the thread is when it next runs, which the watcher cannot know: so the bound is cooperative there (the
first two points).  Only a check that reaches none of them for :data:`GRACE_S` past its bound is interrupted
from outside, as a last resort, when it is seen outside z3.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
from types import FrameType

from udpm.errors import CheckTimeout

#: How soon an expiry that found the check at an unsafe point is tried again, and a swallowed one repeated.
RETRY_S = 0.01

#: How long past its bound a check in a worker thread may run without reaching a safe point.
GRACE_S = 30.0

#: Modules (and their submodules) in which an exception would leave solver state half built: z3's objects, and
#: the cvc5 helper's request in flight.
UNSAFE_MODULES = ("z3", "udpm.smt.cvc5_process")

_local = threading.local()


def _expired(seconds: float) -> CheckTimeout:
    return CheckTimeout(f"the check exceeded its wall-clock bound of {seconds:g} s")


def safe(frame: FrameType | None) -> bool:
    """Whether raising in ``frame`` (and the frames that called it) leaves no solver state half built."""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if (
            frame.f_code.co_name == "__del__"
            or any(module == m or module.startswith(f"{m}.") for m in UNSAFE_MODULES)
            or frame.f_code.co_filename == __file__
        ):
            return False
        frame = frame.f_back
    return True


def remaining() -> float | None:
    """Seconds left to the innermost bound of this thread, or None when no bound is set (never below 0)."""
    stack = getattr(_local, "deadlines", None)
    if not stack:
        return None
    return max(0.0, stack[-1][0] - time.monotonic())


def check() -> None:
    """Raise CheckTimeout when this thread's bound has passed (a safe point: call it outside solver code)."""
    stack = getattr(_local, "deadlines", None)
    if stack and time.monotonic() >= stack[-1][0]:
        raise _expired(stack[-1][1])


class bound:
    """Stop the enclosed code with CheckTimeout at a safe point once ``seconds`` have passed.

    A class, not a generator: its ``__exit__`` runs in this module, where no expiry is ever raised.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.main = threading.current_thread() is threading.main_thread()
        self.active = False

    def __enter__(self) -> None:
        _local.__dict__.setdefault("deadlines", []).append((time.monotonic() + self.seconds, self.seconds))
        self.active = True
        if self.main:
            self.previous = signal.signal(signal.SIGALRM, self._expire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        else:  # SIGALRM reaches the main thread only: a watcher raises in this thread
            self.tid, self.done, self.lock = threading.get_ident(), threading.Event(), threading.Lock()
            self.kind = type(
                "Expired",
                (CheckTimeout,),
                {"__init__": lambda e: CheckTimeout.__init__(e, str(_expired(self.seconds)))},
            )
            threading.Thread(target=self._watch, daemon=True, name="udpm-deadline").start()

    def __exit__(self, *exc: object) -> None:
        self.active = False
        if self.main:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        else:
            with self.lock:
                self.done.set()
        _local.deadlines.pop()

    def _expire(self, signum: int, frame: FrameType | None) -> None:
        if not self.active:
            return
        signal.setitimer(signal.ITIMER_REAL, RETRY_S)  # again soon: unsafe now, or the exception is swallowed
        if safe(frame):
            raise _expired(self.seconds)

    def _watch(self) -> None:
        if self.done.wait(self.seconds + GRACE_S):
            return
        while True:
            with self.lock:
                if self.done.is_set():
                    return
                frame = sys._current_frames().get(self.tid)
                if frame is None:
                    return
                if safe(frame):
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), ctypes.py_object(self.kind))
            if self.done.wait(RETRY_S):
                return
