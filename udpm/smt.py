"""Time-bounded SMT calls, decided by two solvers, whose only passing answer is ``unsat``.

Every solver call in the harness goes through :func:`decide`.  It sets the
time bound on the solver itself and turns ``unknown`` (a timeout, or a
fragment z3 gave up on) into :class:`SolverTimeout`, which the registry
reports as ``inconclusive``.  So no path reads "no answer" as a proof.
z3 catches Ctrl-C itself and answers unknown; :func:`decide` turns that
back into :class:`KeyboardInterrupt`, so an interrupt stops the run.

A second solver.  :func:`decide` exports every query, before solving it, as one
SMT-LIB 2 file ``build/smt/<hash>.smt2`` (``(set-logic ALL)``, z3's declarations
and assertions, ``(check-sat)``; z3's one-term ``(+ t)``, ``(* t)``, ``(and t)``,
``(or t)``, which SMT-LIB does not allow, are written ``t``; the name is the first 16 hex digits of the
SHA-256 of that text, which depends on the query alone, so a query has the same
name in every run).  cvc5 decides that same file with its own parser, in a helper
process started once per process, after z3 has answered the in-memory query.
Which queries are double-checked: **every query z3 answers unsat** (the verdicts;
a premise_witness's unsat too) **and every query z3 answers unknown**.  A query z3
answers sat is exported but not sent to cvc5 (:data:`CVC5_ON_SAT` is off): a sat is
never a verdict, its z3 model is re-checked exactly by the caller, and cvc5 on the
sat queries would cost the quick run about 7 s more; ``second_opinion`` says so
(:data:`NOT_RUN`).  With :data:`CVC5_ON_SAT` on, cvc5 decides them too, side by side
with z3.  Then:

* both answer the same (sat or unsat): the outcome rests on both
  (``Outcome.solvers == ("z3", "cvc5")``, ``second_opinion == "cvc5 unsat"``);
* one answers sat and the other unsat: :class:`SolverDisagreement`, naming both
  answers and the file (the claim becomes ``error``);
* cvc5 answers unknown, or fails on the file: the outcome rests on z3 alone and says
  so (``solvers == ("z3",)``, ``second_opinion == "cvc5 unknown (timeout)"``);
* z3 answers unknown and cvc5 unsat: the outcome rests on cvc5 alone
  (``solvers == ("cvc5",)``); z3 unknown and cvc5 sat stays a :class:`SolverTimeout`,
  since callers re-check a ``sat`` through a z3 model, which there is none of;
  both unknown is a :class:`SolverTimeout` naming both.

cvc5's time bound is z3's, capped at :data:`CVC5_TIMEOUT_S` while z3 has an answer
(else z3's full bound), set as ``tlimit-per``; cvc5 does not always honour it, so
the helper is killed :data:`GRACE_S` after it.  The only shortcut: cvc5 decides
each distinct file once per process, and a query met again (the same text, the same
bound) reuses that answer; z3 decides every call.  In the quick run cvc5 agrees on
every unsat query but one (it cannot decide it in 4 s; it rests on z3 alone).
:func:`second_opinions` and :func:`second_opinion_summary` tally, per process, what
both said.  ``python -m udpm.smt build/smt/*.smt2`` re-decides exported files with
both solvers and prints both answers.

:func:`premise_witness` shows that a check's hypotheses are satisfiable,
with a model, before an ``unsat`` of their conjunction with a negated
conclusion is trusted (a contradictory premise proves anything):

>>> import z3
>>> x = z3.Real("x")
>>> premise_witness([x > 1, x < 3], timeout_s=5, what="demo")["x"]
'2'
>>> premise_witness([x > 1, x < 0], timeout_s=5, what="demo")
Traceback (most recent call last):
...
udpm.errors.VacuousPremise: demo: the hypotheses have no model, so any conclusion would follow

>>> out = decide([x > 1, x < 0], timeout_s=5)
>>> out.unsat, out.solvers, out.second_opinion
(True, ('z3', 'cvc5'), 'cvc5 unsat')
>>> decide([x > 1], timeout_s=5).model is not None
True
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import hashlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import z3

from .errors import SolverDisagreement, SolverTimeout, VacuousPremise

# z3's reason when it caught SIGINT itself.
KEYBOARD = "interrupted from keyboard"

# Where every query is exported; tests point it elsewhere.
EXPORT_DIR = Path(__file__).resolve().parent.parent / "build" / "smt"

# cvc5's time bound: z3's, but at most CVC5_TIMEOUT_S (a query cvc5 cannot do would otherwise cost the whole
# bound on top of z3's answer), and z3's full bound when z3 answered unknown (then the verdict is cvc5's).
# cvc5 does not always honour its own bound (tlimit-per): its helper is killed GRACE_S later.
CVC5_TIMEOUT_S = 4.0
GRACE_S = 0.5

# Cylindrical algebraic coverings: cvc5's complete procedure for nonlinear real arithmetic (without it,
# cvc5 answers unknown on a sat query as plain as x*x = 2).
CVC5_OPTIONS = {"nl-cov": "true"}

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"

# Whether cvc5 also decides the queries z3 answers sat.  A sat is never a verdict: callers re-check z3's
# model exactly (a counterexample, a premise witness).  Off, because cvc5 on the ~1250 sat queries of the
# quick run costs about 7 s more (too slow for the run's budget); they are exported all the same, and
# ``python -m udpm.smt build/smt/*.smt2`` decides them with both solvers.
CVC5_ON_SAT = False
NOT_RUN = "cvc5 not run (z3 sat: the caller re-checks z3's model exactly)"


@dataclass(frozen=True)
class Outcome:
    """unsat (the negation is impossible, so the claim holds) or a model of the negation.

    ``solvers`` names the solvers the answer rests on (both when they agree); ``second_opinion`` is what
    the other solver said ("cvc5 unsat", "cvc5 unknown (timeout)"); ``file`` is the exported query.
    """

    unsat: bool
    model: z3.ModelRef | None = None
    solvers: tuple[str, ...] = ("z3",)
    second_opinion: str = ""
    file: str = ""


# What cvc5 said, per process: "z3 unsat, cvc5 unsat" -> count (see second_opinion_summary).
_TALLY: Counter[str] = Counter()


def decide(assertions: Iterable[z3.BoolRef], timeout_s: float, logic: str | None = None) -> Outcome:
    """Check the conjunction of ``assertions`` with z3, then cvc5 on the exported file (module docstring).

    Unknown from both raises SolverTimeout; sat against unsat raises SolverDisagreement.
    """
    assertions = list(assertions)
    path = export(assertions, logic)
    solver = z3.SolverFor(logic) if logic else z3.Solver()
    solver.set("timeout", max(1, int(timeout_s * 1000)))
    solver.add(*assertions)
    bound = min(timeout_s, CVC5_TIMEOUT_S)
    cvc5_answer = start_cvc5(path, bound) if CVC5_ON_SAT else None  # then cvc5 solves while z3 does
    answer = solver.check()
    first = UNSAT if answer == z3.unsat else SAT if answer == z3.sat else UNKNOWN
    reason = ""
    if first == UNKNOWN:
        reason = solver.reason_unknown()
        if KEYBOARD in reason:
            _HELPER.stop()
            raise KeyboardInterrupt
    if first == SAT and cvc5_answer is None:
        _TALLY[f"z3 sat, {NOT_RUN}"] += 1
        return Outcome(False, solver.model(), ("z3",), NOT_RUN, str(path))
    if cvc5_answer is None:
        bound = bound if first == UNSAT else timeout_s  # z3 unknown: the verdict is cvc5's, give it z3's bound
        cvc5_answer = start_cvc5(path, bound)
    second, why = cvc5_answer()
    if first == UNKNOWN and second == UNKNOWN and bound < timeout_s:
        second, why = run_cvc5(path, timeout_s)
    said = f"cvc5 {second}" + (f" ({why})" if second == UNKNOWN else "")
    _TALLY[f"z3 {first}, {said}"] += 1
    if {first, second} == {SAT, UNSAT}:
        raise SolverDisagreement(f"z3 answered {first}, cvc5 answered {second} on {_shown(path)}")
    if first == UNKNOWN:
        z3_said = f"z3 answered unknown ({reason}) within {timeout_s:g} s"
        if second == UNSAT:
            return Outcome(True, None, ("cvc5",), f"{said}; {z3_said}", str(path))
        if second == SAT:
            raise SolverTimeout(f"{z3_said}; cvc5 answered sat, but a sat needs a z3 model to be re-checked")
        raise SolverTimeout(f"{z3_said}; {said}")
    solvers = ("z3", "cvc5") if second == first else ("z3",)
    model = None if first == UNSAT else solver.model()
    return Outcome(first == UNSAT, model, solvers, said, str(path))


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is under it."""
    with contextlib.suppress(ValueError):
        return str(path.relative_to(Path.cwd()))
    return str(path)


# z3 names let-bound subterms after their term ids (?x11, $x42), which depend on every term built before.
_LET_NAME = re.compile(r"(?<![\w|])([?$]x)(\d+)\b")


def smt2_text(assertions: list[z3.BoolRef], logic: str | None = None) -> str:
    """The query as an SMT-LIB 2 script: set-logic, declarations, one assert each, check-sat.

    The text depends on the query alone: let names are renumbered in order of first appearance.
    """
    ctx = next((a.ctx for a in assertions if z3.is_expr(a)), None) or z3.main_ctx()
    terms = [a if z3.is_expr(a) else z3.BoolVal(bool(a), ctx) for a in assertions] or [z3.BoolVal(True, ctx)]
    *rest, last = terms
    vec = (z3.Ast * len(rest))(*(t.as_ast() for t in rest))
    text = z3.Z3_benchmark_to_smtlib_string(
        ctx.ref(), "udpm.smt.decide", logic or "ALL", "unknown", "", len(rest), vec, last.as_ast()
    )
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        return names.setdefault(m.group(0), f"{m.group(1)}{len(names) + 1}")

    return _standard_arities(_LET_NAME.sub(rename, text))


_TOKEN = re.compile(r"\|[^|]*\||;[^\n]*|[()]|[^\s()|;]+")
# z3 prints a sum, product, conjunction or disjunction of one term as (+ t); SMT-LIB (and cvc5) want >= 2.
_VARIADIC = frozenset({"+", "*", "and", "or"})


def _standard_arities(text: str) -> str:
    """``text`` with every (+ t), (* t), (and t), (or t) replaced by t, z3's layout kept otherwise.

    >>> _standard_arities("(assert (> (+ (* x)) 0.0))")
    '(assert (>   x 0.0))'
    """
    if not re.search(r"\((?:[+*]|and|or)\s", text):
        return text
    drop: list[tuple[int, int]] = []
    # per open parenthesis: its span, its number of elements, its head and the head's span
    stack: list[list] = []
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok.startswith(";"):
            continue
        if tok == "(":
            if stack:
                stack[-1][1] += 1
            stack.append([m.span(), 0, None, None])
        elif tok == ")":
            opened, count, head, head_span = stack.pop()
            if count == 2 and head in _VARIADIC:
                drop += [opened, head_span, m.span()]
        elif stack:
            top = stack[-1]
            if top[1] == 0:
                top[2], top[3] = tok, m.span()
            top[1] += 1
    if not drop:
        return text
    parts, at = [], 0
    for begin, end in sorted(drop):
        parts.append(text[at:begin])
        at = end
    parts.append(text[at:])
    return "".join(parts)


def export(assertions: list[z3.BoolRef], logic: str | None = None) -> Path:
    """Write the query to ``EXPORT_DIR/<sha256[:16]>.smt2`` (atomically; an existing file is the same text)."""
    text = smt2_text(assertions, logic)
    path = EXPORT_DIR / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.smt2"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    return path


def cvc5_decide_file(path: str | os.PathLike[str], timeout_ms: int) -> tuple[str, str]:
    """cvc5 on one SMT-LIB file, in this process: ("sat" | "unsat" | "unknown" | "error", reason)."""
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(max(1, int(timeout_ms))))
    for key, value in CVC5_OPTIONS.items():
        solver.setOption(key, value)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    answer: tuple[str, str] = ("error", "the file has no check-sat")
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
    except RuntimeError as exc:  # cvc5's parse and API errors
        return "error", " ".join(str(exc).split())
    return answer


class _Helper:
    """cvc5 in a child process (``python -m udpm.smt --serve``), so that a run-away cvc5 can be killed.

    A request is sent (:meth:`send`) before z3 starts on the same query, so the two solve side by side;
    :meth:`receive` waits for the answer.  A request whose answer is never read (z3 raised, Ctrl-C)
    leaves the helper mid-query: the next :meth:`send` replaces it.
    """

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.owner = 0
        self.deadline: float | None = None  # of the request in flight
        self.bound = 0.0

    def send(self, path: Path, timeout_s: float) -> str | None:
        """Start cvc5 on ``path``; None, or why the helper failed."""
        if self.deadline is not None or self.proc is None or self.owner != os.getpid() or self.proc.poll() is not None:
            self.stop()
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps({"file": str(path), "ms": max(1, int(timeout_s * 1000))}) + "\n")
            self.proc.stdin.flush()
        except OSError as exc:
            self.stop()
            return f"the cvc5 helper failed: {exc}"
        self.bound = timeout_s + GRACE_S
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
            return "error", f"the cvc5 helper failed: {exc}"
        except BaseException:  # Ctrl-C, a check's wall-clock bound: the helper is mid-query, drop it
            self.stop()
            raise
        self.deadline = None
        if line is None:
            self.stop()
            return UNKNOWN, f"killed after {self.bound:g} s"
        if not line:
            self.stop()
            return "error", "the cvc5 helper died"
        reply = json.loads(line)
        return reply["answer"], reply["reason"]

    def start(self) -> None:
        root = str(Path(__file__).resolve().parent.parent)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "udpm.smt", "--serve"],
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


_HELPER = _Helper()
atexit.register(_HELPER.stop)


# cvc5's answers in this process, by (file, time bound): a query met again (the same text) is not re-solved.
_ANSWERS: dict[tuple[str, int], tuple[str, str]] = {}


def start_cvc5(path: Path, timeout_s: float) -> Callable[[], tuple[str, str]]:
    """Start cvc5 on the exported file, within ``timeout_s`` (+ GRACE_S); call the result for its answer.

    The answer is ("sat" | "unsat" | "unknown", reason); a file cvc5 fails on is unknown ("error: ...").
    """
    key = (path.name, max(1, int(timeout_s * 1000)))
    if key in _ANSWERS:
        return lambda: _ANSWERS[key]
    failed = _HELPER.send(path, timeout_s)

    def answer() -> tuple[str, str]:
        said, reason = ("error", failed) if failed else _HELPER.receive()
        _ANSWERS[key] = (UNKNOWN, f"error: {reason}") if said == "error" else (said, reason)
        return _ANSWERS[key]

    return answer


def run_cvc5(path: Path, timeout_s: float) -> tuple[str, str]:
    """cvc5's answer on the exported file (:func:`start_cvc5`, waited for)."""
    return start_cvc5(path, timeout_s)()


def _serve() -> None:
    """The helper's loop: one JSON request per line in, one JSON answer per line out."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles an interrupt and kills this process
    for line in sys.stdin:
        request = json.loads(line)
        # A hard bound if cvc5 ignores tlimit-per and the parent is gone: SIGALRM's default action ends the process.
        signal.alarm(int(request["ms"] / 1000 + GRACE_S) + 2)
        answer, reason = cvc5_decide_file(request["file"], request["ms"])
        signal.alarm(0)
        sys.stdout.write(json.dumps({"answer": answer, "reason": reason}) + "\n")
        sys.stdout.flush()


def second_opinions() -> dict[str, int]:
    """What both solvers said on every decide() of this process since reset_second_opinions(), counted."""
    return dict(sorted(_TALLY.items()))


def reset_second_opinions() -> None:
    _TALLY.clear()


def second_opinion_summary() -> str:
    """One line for a claim record of what cvc5 said, e.g.
    '3 SMT queries, cvc5 agreed on 2 (2 unsat); 1 on z3 alone (cvc5 unknown (timeout))'.

    Counts are per process since reset_second_opinions(): call reset before a check and this after it.
    """
    total = sum(_TALLY.values())
    if not total:
        return "no SMT queries"
    agreed = {a: sum(c for k, c in _TALLY.items() if k == f"z3 {a}, cvc5 {a}") for a in (UNSAT, SAT)}
    parts = [f"{total} SMT quer{'y' if total == 1 else 'ies'}, cvc5 agreed on {agreed[UNSAT] + agreed[SAT]}"]
    parts[0] += " (" + ", ".join(f"{c} {a}" for a, c in agreed.items() if c) + ")" if any(agreed.values()) else ""
    for key, count in sorted(_TALLY.items()):
        z3_said, cvc5_said = key.split(", ", 1)
        if cvc5_said == NOT_RUN:
            parts.append(f"{count} sat on z3 alone (cvc5 not run on a sat)")
        elif key.startswith("z3 unknown"):
            parts.append(f"{count} {'on cvc5 alone' if cvc5_said == 'cvc5 unsat' else 'undecided'} ({key})")
        elif cvc5_said.startswith("cvc5 unknown"):
            parts.append(f"{count} on z3 alone ({cvc5_said})")
        elif z3_said.removeprefix("z3 ") != cvc5_said.removeprefix("cvc5 "):
            parts.append(f"{count} disagreed ({key})")
    return "; ".join(parts)


@contextlib.contextmanager
def fresh_context() -> Iterator[None]:
    """Build and solve every z3 term of the block in a new z3 context.

    z3's models depend on the ids of its terms, hence on every term the process created before; in a
    fresh context a search's models are a function of the query alone, whatever ran earlier (run order,
    filters, workers).  z3's Python API builds terms in its default context, so that is swapped in.
    """
    old = z3.z3._main_ctx
    z3.z3._main_ctx = z3.Context()
    try:
        yield
    finally:
        z3.z3._main_ctx = old


def premise_witness(premises: Iterable[z3.BoolRef], timeout_s: float, what: str) -> dict[str, str]:
    """A model of ``premises`` as {name: exact value}, sorted; VacuousPremise when they have none."""
    premises = list(premises)
    out = decide(premises, timeout_s)
    if out.unsat:
        raise VacuousPremise(f"{what}: the hypotheses have no model, so any conclusion would follow")
    model = out.model
    return {d.name(): model_value(model, d()) for d in sorted(model.decls(), key=lambda d: d.name()) if d.arity() == 0}


def model_value(model: z3.ModelRef, term: z3.ExprRef) -> str:
    """A model value as an exact string ('3/4'), never a float."""
    v = model.eval(term, model_completion=True)
    if z3.is_rational_value(v):
        return (
            f"{v.numerator_as_long()}/{v.denominator_as_long()}"
            if v.denominator_as_long() != 1
            else str(v.numerator_as_long())
        )
    if z3.is_algebraic_value(v):
        return str(v.approx(20)) + " (algebraic)"
    return str(v)


def main(argv: list[str] | None = None) -> int:
    """``python -m udpm.smt FILE...``: decide exported files with z3 and cvc5; exit 1 if any two disagree."""
    p = argparse.ArgumentParser(prog="python -m udpm.smt", description=main.__doc__)
    p.add_argument("files", nargs="*", type=Path, help="SMT-LIB 2 files, e.g. build/smt/*.smt2")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per solver and file (60)")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.serve:
        _serve()
        return 0
    disagreements = 0
    for path in args.files:
        solver = z3.Solver()
        solver.set("timeout", max(1, int(args.timeout * 1000)))
        started = time.monotonic()
        solver.from_file(str(path))
        first = str(solver.check())
        second, why = run_cvc5(path, args.timeout)
        disagreements += {first, second} == {SAT, UNSAT}
        said = f"{second} ({why})" if why else second
        print(f"{path}: z3 {first}, cvc5 {said}  ({time.monotonic() - started:.2f} s)")
    _HELPER.stop()
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
