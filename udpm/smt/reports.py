"""The SMT queries a check's decisions rest on: :func:`udpm.smt.solvers.decide` reports each answered query to
every open block, and a claim's record names them (:func:`smt_record`).

A block is opened by :class:`udpm.claims.findings.Findings` for each instance it decides, or by a caller that
caches a result (:func:`reported_queries`).  A query answered while no block is open is kept until the next
decision made outside a block takes it (:func:`take_loose`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

# The queries reported by udpm.smt.solvers.decide to each open deciding block (innermost last), and those
# reported while none was open.
_OPEN: list[set[tuple[str, str]]] = []
_LOOSE: set[tuple[str, str]] = set()

#: What a record says of a query that rests on both solvers, and of a sat not sent to cvc5 (udpm.smt.solvers).
AGREED, SAT_NOT_RUN = "z3+cvc5", "sat: z3 (cvc5 not run)"


def smt_query(file: str, rests_on: str) -> None:
    """udpm.smt.solvers.decide's report of one query: its file hash and "<answer>: <solvers>" ("unsat: z3+cvc5")."""
    for block in _OPEN or [_LOOSE]:
        block.add((file, rests_on))


def _close(block: set[tuple[str, str]]) -> None:
    """Remove this very block (list.remove would take the first EQUAL set: two empty blocks are equal)."""
    del _OPEN[next(k for k, b in enumerate(_OPEN) if b is block)]


@contextlib.contextmanager
def reported_queries() -> Iterator[set[tuple[str, str]]]:
    """Collect the SMT queries answered inside the block (they still reach the open decision as usual), so that a
    caller that caches a result can report them again on a cache hit (:func:`smt_query`)."""
    got: set[tuple[str, str]] = set()
    _OPEN.append(got)
    try:
        yield got
    finally:
        _close(got)


def smt_record(queries: tuple[tuple[str, str], ...]) -> dict:
    """The ``smt`` field of a decision's record: sorted and de-duplicated, so independent of order and timing.

    ``files``: every query's file hash (build/smt/<hash>.smt2); ``answers``: how many queries each answer
    and pair of solvers; ``agreement``: "z3+cvc5" when every unsat (every verdict) rests on both solvers,
    else how many rest on one; ``one_solver``: the files whose answer rests on one solver or none (only
    when there are some).  A sat z3 answers is never a verdict (its model is re-checked exactly); by
    default cvc5 is not asked about it (SAT_NOT_RUN).

    >>> smt_record((("b1", "unsat: z3+cvc5"), ("a0", "sat: z3 (cvc5 not run)")))["agreement"]
    'z3+cvc5'
    >>> r = smt_record((("b1", "unsat: z3+cvc5"), ("c2", "unsat: z3 only (cvc5 unknown: budget spent)")))
    >>> r["agreement"], r["one_solver"]
    ('z3+cvc5 on 1 of 2 unsat; z3 only on 1', {'c2': 'unsat: z3 only (cvc5 unknown: budget spent)'})
    """
    queries = tuple(sorted(set(queries)))
    answers: dict[str, int] = {}
    for _, rests_on in queries:
        answers[rests_on] = answers.get(rests_on, 0) + 1
    unsat = [r for _, r in queries if r.startswith("unsat: ")]
    both = sum(r == f"unsat: {AGREED}" for r in unsat)
    if not unsat:
        agreement = "no unsat answer"
    elif both == len(unsat):
        agreement = AGREED
    else:
        agreement = f"{AGREED} on {both} of {len(unsat)} unsat"
        for who in ("z3 only", "cvc5 only"):
            count = sum(r.startswith(f"unsat: {who}") for r in unsat)
            agreement += f"; {who} on {count}" if count else ""
    others = sum(not r.startswith("unsat: ") and not r.startswith("sat: ") for _, r in queries)
    agreement += f"; undecided on {others}" if others else ""
    one: dict[str, str] = {}
    for file, rests_on in queries:
        if not rests_on.endswith(f": {AGREED}") and rests_on != SAT_NOT_RUN:
            one[file] = f"{one[file]}; {rests_on}" if file in one else rests_on
    out: dict = {"files": sorted({f for f, _ in queries}), "answers": answers, "agreement": agreement}
    if one:
        out["one_solver"] = one
    return out


def take_loose() -> set[tuple[str, str]]:
    """The queries answered outside any block since the last call, when no block is open (then forgotten here);
    nothing while a block is open (those queries belong to it)."""
    if _OPEN:
        return set()
    got = set(_LOOSE)
    _LOOSE.clear()
    return got


def forget_loose() -> None:
    """Drop the queries answered outside any block (a new check starts: nothing crosses from the last one)."""
    _LOOSE.clear()
