"""Resource-bounded SMT calls, decided by two solvers, whose only passing answer is ``unsat``.

Every solver call in the harness goes through :func:`decide`.  Its ``timeout_s`` is a budget of work,
set on each solver as a *resource* limit (z3's ``rlimit``: :data:`Z3_RLIMIT_PER_S` steps a second;
cvc5's ``rlimit-per``: :data:`udpm.smt.cvc5_process.RLIMIT_PER_S`), so that an answer, ``unknown`` included,
is the same on every run whatever the machine's load, ``--jobs`` or order (cvc5 is also bounded by its
CPU time, where it spends no resource: reproducible on one machine whatever its load; its answer is then
``unknown (cpu limit ...)``).  A clock bounds each solver only as a last resort
(:func:`udpm.smt.cvc5_process.wall_clock_s`: five times the budget, plus 5 s); a solver
stopped by it gives an answer that depends on the load, so :func:`decide` reports it as undecided
(:class:`SolverTimeout`, naming the clock), never as an answer.  ``unknown`` (the resource limit ran
out, or a fragment z3 gave up on) is a :class:`SolverTimeout` too, which the registry reports as
``inconclusive``.  So no path reads "no answer" as a proof.  z3 catches Ctrl-C itself and answers
unknown; :func:`decide` turns that back into :class:`KeyboardInterrupt`, so an interrupt stops the run.

A second solver.  :func:`decide` exports every query, before solving it, as one
SMT-LIB 2 file ``<out>/smt/<hash>.smt2`` (``build/smt/`` by default; udpm.internal.files)
(``(set-logic ALL)``, z3's declarations
and assertions, ``(check-sat)``; z3's one-term ``(+ t)``, ``(* t)``, ``(and t)``,
``(or t)``, which SMT-LIB does not allow, are written ``t``; the name is the first 16 hex digits of the
SHA-256 of that text, which depends on the query alone, so a query has the same
name in every run).  cvc5 decides that same file with its own parser, in a helper
process (:mod:`udpm.smt.cvc5_process`), after z3 has answered the in-memory query.
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
* cvc5 answers unknown (its resource limit or its CPU-time bound), or fails on the file: the outcome rests
  on z3 alone and says so (``solvers == ("z3",)``, ``second_opinion == "cvc5 unknown (budget spent)"``);
* z3 answers unknown and cvc5 unsat: the outcome rests on cvc5 alone
  (``solvers == ("cvc5",)``); z3 unknown and cvc5 sat stays a :class:`SolverTimeout`,
  since callers re-check a ``sat`` through a z3 model, which there is none of;
  both unknown is a :class:`SolverTimeout` naming both.

cvc5's budget is z3's, capped at :data:`CVC5_BUDGET_S` while z3 has an answer (else z3's full budget).
cvc5 decides each distinct (file, budget) once per process, and a query met again reuses that answer
(it is deterministic); z3 decides every call.

Every answer is reported to the claim record (:func:`udpm.smt.reports.smt_query`): a decision decided in
a ``Findings.deciding`` block lists its queries' files and the solvers each answer rests on
("unsat: z3+cvc5", "unsat: z3 only (cvc5 unknown: budget spent)", "sat: z3 (cvc5 not run)").
:func:`second_opinions` and :func:`second_opinion_summary` tally, per process, what both said.
``python -m udpm.smt.solvers build/smt/*.smt2`` re-decides exported files with both solvers and prints both
answers.

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

import signal
import sys
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import z3

from udpm.errors import InvalidInput, SolverDisagreement, SolverTimeout, VacuousPremise
from udpm.internal import deadline
from udpm.smt.cvc5_process import (
    BUDGET_SPENT,
    SAT,
    UNKNOWN,
    UNSAT,
    budget_spent,
    run_cvc5,
    start_cvc5,
    stopped_by_clock,
    wall_clock_s,
)
from udpm.smt.cvc5_process import HELPER as _HELPER
from udpm.smt.export import export, shown, translated
from udpm.smt.reports import AGREED, SAT_NOT_RUN, smt_query

# z3's reason when it caught SIGINT itself.
KEYBOARD = "interrupted from keyboard"
# z3's reason when its resource limit ran out; when its (last-resort) clock ran out.
Z3_RLIMIT_REASON, Z3_CLOCK_REASON = "canceled", "timeout"

# z3's resource limit: Z3_RLIMIT_PER_S steps per second of budget (about 3.4 million a second on the reference
# machine; the median over the quick run's queries).  The clock (udpm.smt.cvc5_process.wall_clock_s) is a last resort.
Z3_RLIMIT_PER_S = 3_000_000

# cvc5's budget: z3's, but at most CVC5_BUDGET_S (a query cvc5 cannot do would otherwise cost the whole
# budget on top of z3's answer), and z3's full budget when z3 answered unknown (then the verdict is cvc5's).
CVC5_BUDGET_S = 4.0

# Whether cvc5 also decides the queries z3 answers sat.  A sat is never a verdict: callers re-check z3's
# model exactly (a counterexample, a premise witness).  Off, because cvc5 on the ~1250 sat queries of the
# quick run costs about 7 s more (too slow for the run's budget); they are exported all the same, and
# ``python -m udpm.smt.solvers build/smt/*.smt2`` decides them with both solvers.
CVC5_ON_SAT = False
NOT_RUN = "cvc5 not run (z3 sat: the caller re-checks z3's model exactly)"


@dataclass(frozen=True)
class Outcome:
    """unsat (the negation is impossible, so the claim holds) or a model of the negation.

    ``solvers`` names the solvers the answer rests on (both when they agree); ``second_opinion`` is what
    the other solver said ("cvc5 unsat", "cvc5 unknown (budget spent)"); ``file`` is the exported query;
    ``record`` is what the claim record says of it ("unsat: z3+cvc5", "unsat: z3 only (cvc5 unknown:
    budget spent)").
    """

    unsat: bool
    model: z3.ModelRef | None = None
    solvers: tuple[str, ...] = ("z3",)
    second_opinion: str = ""
    file: str = ""
    record: str = ""


# What cvc5 said, per process: "z3 unsat, cvc5 unsat" -> count (see second_opinion_summary).
_TALLY: Counter[str] = Counter()


def z3_rlimit(budget_s: float) -> int:
    return max(1, int(budget_s * Z3_RLIMIT_PER_S))


def _outcome(path: Path, unsat: bool, model, solvers: tuple[str, ...], said: str, record: str) -> Outcome:
    smt_query(path.stem, record)
    return Outcome(unsat, model, solvers, said, str(path), record)


def _undecided(path: Path, why: str) -> SolverTimeout:
    smt_query(path.stem, f"undecided: {why}")
    return SolverTimeout(f"{why} on {shown(path)}")


def decide(assertions: Iterable[z3.BoolRef], timeout_s: float, logic: str | None = None) -> Outcome:
    """Check the conjunction of ``assertions`` with z3, then cvc5 on the exported file (module docstring).

    ``timeout_s`` is a budget of work, set as each solver's resource limit.  Unknown from both raises
    SolverTimeout, and so does a solver stopped by its last-resort clock; sat against unsat raises
    SolverDisagreement.  Every answer is reported to the open deciding blocks (udpm.smt.reports.smt_query).
    """
    deadline.check()  # a safe point: the check's wall-clock bound may have passed between solver calls
    assertions = list(assertions)
    path = export(assertions, logic)
    # z3 solves a copy in a fresh context: its search, and so its model, then depends on the query alone, not on
    # the terms the process built before (run order, filters, workers); the model is translated back.
    home = next((a.ctx for a in assertions if z3.is_expr(a)), z3.main_ctx())
    ctx = z3.Context()
    solver = z3.SolverFor(logic, ctx=ctx) if logic else z3.Solver(ctx=ctx)
    solver.set("rlimit", z3_rlimit(timeout_s))
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # a Dask worker: the run's own process handles Ctrl-C
        solver.set("ctrl_c", False)
    clock_s, left = wall_clock_s(timeout_s), deadline.remaining()
    if left is not None and left < clock_s:  # z3's clock also ends at the check's bound
        clock_s = left
    solver.set("timeout", max(1, int(clock_s * 1000)))
    solver.add(*translated(assertions, ctx))
    bound = min(timeout_s, CVC5_BUDGET_S)
    cvc5_answer = start_cvc5(path, bound) if CVC5_ON_SAT else None  # then cvc5 solves while z3 does
    answer = solver.check()
    first = UNSAT if answer == z3.unsat else SAT if answer == z3.sat else UNKNOWN
    reason = ""
    if first == UNKNOWN:
        reason = solver.reason_unknown()
        if KEYBOARD in reason:
            _HELPER.stop()
            raise KeyboardInterrupt
        if reason == Z3_CLOCK_REASON:
            deadline.check()  # stopped by the check's bound: the check ends here, at a safe point
            raise _undecided(
                path,
                f"z3 stopped by its last-resort clock ({wall_clock_s(timeout_s):g} s) before its resource limit "
                f"({timeout_s:g} s of work): an answer that depends on the machine's load is no verdict",
            )
        reason = "resource limit" if reason == Z3_RLIMIT_REASON else reason
    if first == SAT and cvc5_answer is None:
        _TALLY[f"z3 sat, {NOT_RUN}"] += 1
        return _outcome(path, False, solver.model().translate(home), ("z3",), NOT_RUN, SAT_NOT_RUN)
    if cvc5_answer is None:
        bound = bound if first == UNSAT else timeout_s  # z3 unknown: the verdict is cvc5's, give it z3's budget
        cvc5_answer = start_cvc5(path, bound)
    second, why = cvc5_answer()
    deadline.check()
    if first == UNKNOWN and second == UNKNOWN and bound < timeout_s and not stopped_by_clock(second, why):
        bound = timeout_s
        second, why = run_cvc5(path, timeout_s)
    if stopped_by_clock(second, why):
        _TALLY[f"z3 {first}, cvc5 stopped by its clock"] += 1
        raise _undecided(
            path,
            f"z3 answered {first}; cvc5 stopped by its last-resort clock ({why}, {wall_clock_s(bound):g} s) before "
            f"its resource limit ({bound:g} s of work): an answer that depends on the machine's load is no verdict",
        )
    if second == UNKNOWN and budget_spent(why):
        # which of cvc5's two bounds stopped it varies between runs; that it spent its budget does not
        why = BUDGET_SPENT
    said = f"cvc5 {second}" + (f" ({why})" if second == UNKNOWN else "")
    _TALLY[f"z3 {first}, {said}"] += 1
    if {first, second} == {SAT, UNSAT}:
        smt_query(path.stem, f"disagreement: z3 {first}, cvc5 {second}")
        raise SolverDisagreement(f"z3 answered {first}, cvc5 answered {second} on {shown(path)}")
    if first == UNKNOWN:
        z3_said = f"z3 answered unknown ({reason}) within {timeout_s:g} s of work"
        if second == UNSAT:
            rests_on = f"{UNSAT}: cvc5 only (z3 unknown: {reason})"
            return _outcome(path, True, None, ("cvc5",), f"{said}; {z3_said}", rests_on)
        if second == SAT:
            raise _undecided(path, f"{z3_said}; cvc5 answered sat, but a sat needs a z3 model to be re-checked")
        raise _undecided(path, f"{z3_said}; {said}")
    model = None if first == UNSAT else solver.model().translate(home)
    if second == first:
        return _outcome(path, first == UNSAT, model, ("z3", "cvc5"), said, f"{first}: {AGREED}")
    record = f"{first}: z3 only (cvc5 {why if why.startswith('error') else f'unknown: {why}'})"
    return _outcome(path, first == UNSAT, model, ("z3",), said, record)


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
        elif key.startswith("z3 unknown") or cvc5_said == "cvc5 stopped by its clock":  # no answer from that run
            parts.append(f"{count} {'on cvc5 alone' if cvc5_said == 'cvc5 unsat' else 'undecided'} ({key})")
        elif cvc5_said.startswith("cvc5 unknown"):
            parts.append(f"{count} on z3 alone ({cvc5_said})")
        elif z3_said.removeprefix("z3 ") != cvc5_said.removeprefix("cvc5 "):
            parts.append(f"{count} disagreed ({key})")
    return "; ".join(parts)


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
    """``python -m udpm.smt.solvers FILE...``: decide exported files with z3 and cvc5; exit 1 if any two disagree."""
    from udpm.internal.arguments import OneLineParser

    p = OneLineParser(prog="python -m udpm.smt.solvers", description=main.__doc__)
    p.add_argument("files", nargs="*", type=Path, help="SMT-LIB 2 files, e.g. build/smt/*.smt2")
    p.add_argument(
        "--budget", "--timeout", type=float, default=60.0, metavar="S", help="seconds of work per solver and file (60)"
    )
    try:
        args = p.parse_args(argv)
    except InvalidInput as exc:
        print(f"python -m udpm.smt.solvers: error: {exc}", file=sys.stderr)
        return 2
    disagreements = 0
    for path in args.files:
        solver = z3.Solver()
        solver.set("rlimit", z3_rlimit(args.budget))
        solver.set("timeout", max(1, int(wall_clock_s(args.budget) * 1000)))
        started = time.monotonic()
        solver.from_file(str(path))
        first = str(solver.check())
        if first == UNKNOWN:
            first += f" ({solver.reason_unknown()})"
        second, why = run_cvc5(path, args.budget)
        disagreements += {first, second} == {SAT, UNSAT}
        said = f"{second} ({why})" if why else second
        print(f"{path}: z3 {first}, cvc5 {said}  ({time.monotonic() - started:.2f} s)")
    _HELPER.stop()
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
