"""cvc5, the second solver of :func:`udpm.smt.solvers.decide`, on an exported SMT-LIB 2 file, in a helper process.

cvc5 is bounded by a *resource* limit (``rlimit-per``: a count of solver steps), not by a clock, so that
its answer on a file is the same on every machine and under any load: an ``unknown`` because the
limit ran out (``resourceout``) happens on every run or on none.  The budget of a query is given in
seconds of work at a reference rate, :data:`RLIMIT_PER_S` steps a second (measured on the reference
machine, see below).

Some of cvc5's procedures spend no resource while they work (cylindrical algebraic coverings, ``nl-cov``,
ran past 2 minutes on a query z3 answers unsat in 0.04 s, ignoring rlimit-per and tlimit-per alike; its
alternative, incremental linearisation, does the same on other queries).  So the helper is also bounded
by its *CPU time* (:func:`cpu_s`, a SIGPROF timer whose default action ends the helper): CPU time does not
depend on the machine's load, so this stop is reproducible on one machine, and is reported as
``unknown (cpu limit ...)``, a second solver that gave no answer.  A wall clock bounds it only as a last
resort: :func:`wall_clock_s` of the budget, set as ``tlimit-per``, and the helper is killed :data:`GRACE_S`
after it.  An answer stopped by the clock (:func:`stopped_by_clock`) depends on the machine's load, so
:func:`udpm.smt.solvers.decide` reports it as undecided (a :class:`~udpm.errors.SolverTimeout`), never as a
second opinion.

cvc5 runs in a child process (``python -m udpm.smt.cvc5_process``), started once per process, so that a
cvc5 that overruns its bounds can be stopped.  It decides each distinct (file, budget) once per
process; the answer is deterministic, so a query met again reuses it.

Calibration (2 cores, cvc5 1.4.2, the ~1600 queries then in build/smt, nl-cov on): cvc5 spends 110 000
to 660 000 steps a second, median about 480 000; every query it decides takes under 330 000 steps
(3 s), but one that spends no step for minutes.  :data:`RLIMIT_PER_S` = 150 000 is about the slowest
rate measured, so a budget of 4 s is 600 000 steps.  Some queries spend steps more slowly still: one of
zlcn2013.yhat's takes 7.1 s of CPU to spend 600 000 steps (about 85 000 a second), and a CPU bound of 7 s
stopped it on one run and not on another.  So the CPU bound is far from the resource limit (3 times the budget
plus 2 s: 14 s for a budget of 4 s), and the record does not say which of the two bounds stopped cvc5
(:func:`budget_spent`): both mean that cvc5 spent its budget without an answer.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

SAT, UNSAT, UNKNOWN, ERROR = "sat", "unsat", "unknown", "error"

# cvc5 steps per second of budget (module docstring).
RLIMIT_PER_S = 150_000
# The CPU-time bound of the helper: CPU_FACTOR times the budget, plus CPU_SLACK_S.
CPU_FACTOR = 3.0
CPU_SLACK_S = 2.0
# The last-resort clock: WALL_FACTOR times the budget, plus WALL_SLACK_S; the helper is killed GRACE_S later.
WALL_FACTOR = 5.0
WALL_SLACK_S = 5.0
GRACE_S = 0.5

# Cylindrical algebraic coverings: cvc5's complete procedure for nonlinear real arithmetic (without it,
# cvc5 answers unknown on a sat query as plain as x*x = 2, and runs past any resource limit on others).
CVC5_OPTIONS = {"nl-cov": "true"}

# cvc5's reasons for an unknown that come from a clock, not from the query: never reproducible.
CLOCK_REASONS = ("timeout", "killed after")
# cvc5's reasons for an unknown when it spent its budget: the resource limit, or the helper's CPU-time bound.
BUDGET_REASONS = ("resourceout", "cpu limit")
BUDGET_SPENT = "budget spent"


def rlimit(budget_s: float) -> int:
    """cvc5's resource limit for a budget of ``budget_s`` seconds of work."""
    return max(1, int(budget_s * RLIMIT_PER_S))


def cpu_s(budget_s: float) -> float:
    """The helper's CPU-time bound for a budget of ``budget_s`` seconds of work (module docstring)."""
    return budget_s * CPU_FACTOR + CPU_SLACK_S


def wall_clock_s(budget_s: float) -> float:
    """The last-resort clock for a budget of ``budget_s`` seconds of work (module docstring)."""
    return budget_s * WALL_FACTOR + WALL_SLACK_S


def stopped_by_clock(answer: str, reason: str) -> bool:
    """Whether an answer is a clock's (cvc5's tlimit-per or the helper's kill): it depends on the machine's load."""
    return answer == UNKNOWN and reason.startswith(CLOCK_REASONS)


def budget_spent(reason: str) -> bool:
    """Whether an unknown's reason is cvc5's budget running out (which of its two bounds stopped it may vary).

    >>> budget_spent("resourceout"), budget_spent("cpu limit 14 s"), budget_spent("incomplete")
    (True, True, False)
    """
    return reason.startswith(BUDGET_REASONS)


def cvc5_decide_file(path: str | os.PathLike[str], steps: int, wall_ms: int) -> tuple[str, str]:
    """cvc5 on one SMT-LIB file, in this process: ("sat" | "unsat" | "unknown" | "error", reason).

    ``steps`` is the resource limit (rlimit-per), ``wall_ms`` the last-resort clock (tlimit-per).  The
    reason of an unknown is cvc5's explanation in lower case ("resourceout", "incomplete", "timeout").
    """
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("rlimit-per", str(max(1, int(steps))))
    solver.setOption("tlimit-per", str(max(1, int(wall_ms))))
    for key, value in CVC5_OPTIONS.items():
        solver.setOption(key, value)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    answer: tuple[str, str] = (ERROR, "the file has no check-sat")
    try:
        parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, str(path))
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if cmd.getCommandName() != "check-sat":
                cmd.invoke(solver, sm)
                continue
            result = solver.checkSat()
            if result.isUnsat():
                answer = (UNSAT, "")
            elif result.isSat():
                answer = (SAT, "")
            else:
                answer = (UNKNOWN, str(result.getUnknownExplanation()).removeprefix("UnknownExplanation.").lower())
    except RuntimeError as exc:  # cvc5's parse and API errors; the file's name alone, so that the text is stable
        return ERROR, " ".join(str(exc).replace(str(path), Path(path).name).split())
    return answer


class _Helper:
    """cvc5 in a child process (``python -m udpm.smt.cvc5_process``), so that a run-away cvc5 can be killed.

    :meth:`send` starts a request (possibly before z3 starts on the same query, so the two solve side by
    side); :meth:`receive` waits for the answer.  A request whose answer is never read (z3 raised, Ctrl-C)
    leaves the helper mid-query: the next :meth:`send` replaces it.
    """

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.owner = 0
        self.deadline: float | None = None  # of the request in flight
        self.bound = 0.0
        self.cpu = 0.0

    def send(self, path: Path, steps: int, cpu: float, wall_s: float) -> str | None:
        """Start cvc5 on ``path``; None, or why the helper failed."""
        if self.deadline is not None or self.proc is None or self.owner != os.getpid() or self.proc.poll() is not None:
            self.stop()
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            request = {"file": str(path), "rlimit": steps, "cpu": cpu, "ms": max(1, int(wall_s * 1000))}
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            self.stop()
            return f"the cvc5 helper failed: {exc}"
        self.bound = wall_s + GRACE_S
        self.cpu = cpu
        self.deadline = time.monotonic() + self.bound
        return None

    def receive(self) -> tuple[str, str]:
        """The answer to the request in flight, or unknown when it is not in by its deadline (then killed)."""
        assert self.proc is not None and self.proc.stdout is not None and self.deadline is not None
        try:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, self.deadline - time.monotonic()))
            line = self.proc.stdout.readline() if ready else None
        except OSError as exc:
            self.stop()
            return ERROR, f"the cvc5 helper failed: {exc}"
        except BaseException:  # Ctrl-C, a check's wall-clock bound: the helper is mid-query, drop it
            self.stop()
            raise
        self.deadline = None
        if line is None:
            self.stop()
            return UNKNOWN, f"killed after {self.bound:g} s"
        if not line:
            code = self.proc.wait()
            self.stop()
            if code == -signal.SIGPROF:  # the helper's CPU-time bound: reproducible whatever the load
                return UNKNOWN, f"cpu limit {self.cpu:g} s"
            return ERROR, "the cvc5 helper died"
        reply = json.loads(line)
        return reply["answer"], reply["reason"]

    def start(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "udpm.smt.cvc5_process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=root,
            start_new_session=True,  # Ctrl-C reaches this process alone, which kills the helper
        )
        self.owner = os.getpid()

    def stop(self) -> None:
        if self.proc is not None and self.owner == os.getpid():
            with contextlib.suppress(OSError):
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.deadline = None


HELPER = _Helper()
atexit.register(HELPER.stop)


# cvc5's answers in this process, by (file, resource limit): a query met again (the same text) is not re-solved.
# An answer stopped by a clock is not kept (it is not the query's answer).
ANSWERS: dict[tuple[str, int], tuple[str, str]] = {}


def start_cvc5(path: Path, budget_s: float) -> Callable[[], tuple[str, str]]:
    """Start cvc5 on the exported file with a budget of ``budget_s`` seconds of work; call the result for its answer.

    The answer is ("sat" | "unsat" | "unknown", reason); a file cvc5 fails on is unknown ("error: ...").
    """
    key = (path.name, rlimit(budget_s))
    if key in ANSWERS:
        return lambda: ANSWERS[key]
    failed = HELPER.send(path, key[1], cpu_s(budget_s), wall_clock_s(budget_s))

    def answer() -> tuple[str, str]:
        said, reason = (ERROR, failed) if failed else HELPER.receive()
        out = (UNKNOWN, f"error: {reason}") if said == ERROR else (said, reason)
        if not stopped_by_clock(*out):
            ANSWERS[key] = out
        return out

    return answer


def run_cvc5(path: Path, budget_s: float) -> tuple[str, str]:
    """cvc5's answer on the exported file (:func:`start_cvc5`, waited for)."""
    return start_cvc5(path, budget_s)()


def serve() -> None:
    """The helper's loop: one JSON request per line in, one JSON answer per line out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles an interrupt and kills this process
    for line in sys.stdin:
        request = json.loads(line)
        # A hard bound if cvc5 ignores tlimit-per and the parent is gone: SIGALRM's default action ends the process.
        signal.alarm(int(request["ms"] / 1000 + GRACE_S) + 2)
        # The CPU-time bound: SIGPROF's default action ends the process, which the parent reads as "cpu limit".
        signal.setitimer(signal.ITIMER_PROF, request["cpu"])
        answer, reason = cvc5_decide_file(request["file"], request["rlimit"], request["ms"])
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        sys.stdout.write(json.dumps({"answer": answer, "reason": reason}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve()
