"""What a terminal shows after a run: the long tables of every claim, then the digest of the findings.

The order is chosen for the screen a terminal (or the end of a CI log) shows when the run is over: the tables
scroll past first; the digest (what was refuted and why, what only fails at an end of a printed range, the
errata by claim and class) comes last, just before the regressions and the verdict line.

Everything is rendered from the claim records of the results document (:func:`udpm.outputs.results.document`), the
same text ``--json`` writes, and every value is printed verbatim (rich ``Text``, never markup; long words are
folded, never cut).  A line of the digest that would not fit on one line of the terminal ends in ``…``: what
it shows is then a prefix of the record's value, never another text.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence

from udpm.claims.evidence import Status
from udpm.outputs.results import Outcome, document
from udpm.report.errata import errata_groups

#: The console width: fixed, so that a CI log and a terminal show the same lines.
WIDTH = 120
#: Where every erratum is listed in full.
ERRATA_FILE = "paper_tables/ERRATA.md"


def console(file: object | None = None, *, record: bool = False) -> object:
    """A rich console of :data:`WIDTH` columns on stdout (or ``file``); no colour under NO_COLOR."""
    from rich.console import Console

    return Console(width=WIDTH, file=file, record=record, color_system=None if os.environ.get("NO_COLOR") else "auto")


def run_document(outcomes: Sequence[Outcome]) -> dict:
    """The claim records and seconds exactly as ``--json`` writes them (the same function, read back)."""
    return json.loads(document(outcomes, {}))


# --- the long tables ----------------------------------------------------------------------------------------------


def print_summary(outcomes: Sequence[Outcome], seconds: float) -> None:
    """The status table, the table of every claim, the partial claims and the errata by claim and class."""
    print_tables(run_document(outcomes), seconds)


def print_tables(doc: Mapping, seconds: float, out: object | None = None) -> None:
    """:func:`print_summary` on a results document (``out``: a rich console; default stdout)."""
    from rich.table import Table
    from rich.text import Text  # every value from a record is printed verbatim, never read as markup

    out = out or console()
    claims = doc["claims"]
    by_status = Counter(c["status"] for c in claims)
    statuses = [str(st) for st in Status if by_status[str(st)]]
    per_paper: dict[str, Counter] = {}
    for c in claims:
        per_paper.setdefault(c["paper"], Counter())[c["status"]] += 1
    table = Table(title=f"{len(claims)} claims by status ({seconds:.1f} s)")
    table.add_column("paper")
    for st in statuses:
        table.add_column(st, justify="right")
    for paper, counts in per_paper.items():
        table.add_row(paper, *[str(counts[st] or "") for st in statuses])
    table.add_row("total", *[str(by_status[st]) for st in statuses], style="bold")
    out.print(table)

    times = doc.get("seconds", {})
    detail = Table(title="claims (seconds: the time each check took to decide, kept for a claim read from the cache)")
    for col in ("id", "status", "capped by", "evidence", "scope", "seconds"):
        detail.add_column(col, overflow="fold")
    for c in claims:
        cells = (
            c["id"],
            c["status"],
            c["capped_by"] or "",
            c["evidence"],
            c["scope"],
            seconds_text(times.get(c["id"])),
        )
        detail.add_row(*map(Text, cells))
    out.print(detail)

    partial = [c for c in claims if c["status"] == str(Status.PARTIAL)]
    if partial:
        pt = Table(title="decided on part of the printed class only (never a pass for the statement as printed)")
        pt.add_column("claim", overflow="fold")
        pt.add_column("left undecided", overflow="fold")
        for c in partial:
            pt.add_row(Text(c["id"]), Text(partial_reason(c)))
        out.print(pt)

    groups = errata_groups(claims)
    if groups:
        from udpm.report.errata import errata_summary

        et = Table(
            title=f"printed values that differ: {errata_summary(doc)}; one row per claim and class, with its first "
            f"entry (every entry in {ERRATA_FILE} and the report)"
        )
        for col in ("claim", "class", "entries", "location", "printed", "correct"):
            et.add_column(col, overflow="fold")
        for cid, cls, entries in groups:
            first = entries[0]
            et.add_row(*map(Text, (cid, cls, str(len(entries)), first["entry"], first["printed"], first["correct"])))
        out.print(et)


def seconds_text(seconds: object) -> str:
    """The document's seconds of a claim as JSON writes them ('' when absent)."""
    return "" if seconds is None else json.dumps(seconds)


def partial_reason(claim: Mapping) -> str:
    """The parts of a partial claim's printed class left undecided, or the claim it rests on."""
    undecided = (claim.get("coverage") or {}).get("undecided") or []
    return "; ".join(undecided) or f"rests on {claim['capped_by']}, decided on part of its printed class"


# --- the digest -----------------------------------------------------------------------------------------------------


def digest_lines(claims: Sequence[Mapping], width: int = WIDTH) -> list[str]:
    """The digest of the findings, line by line.  A refuted claim and what refutes it take one line each (cut to
    the terminal when printed, ending in ``…``); lists wrap between their items, so that no id is broken.

    >>> recs = [{"id": "a.x", "status": "refuted", "counterexample": "n=2 alpha=1/2 bounded: X breaks it",
    ...          "errata": [], "decisions": [{"alpha": "1/2", "outcome": "counterexample", "detail": "X breaks it"}]},
    ...         {"id": "a.y", "status": "refuted", "counterexample": "n=1 alpha=1: Y", "errata": [],
    ...          "decisions": [{"alpha": "1", "outcome": "counterexample"}]}]
    >>> for line in digest_lines(recs): print(line)
    refuted: 1 claim, each with what refutes it (the counterexample in full in --json and the report):
      a.x  X breaks it
    refuted only at an end of the printed range (1): alpha = 1: a.y
    no errata
    """
    from udpm.outputs.readme_block import refuted_only_at_an_end
    from udpm.report.html import plural

    lines: list[str] = []
    refuted = [c for c in claims if c["status"] == str(Status.REFUTED)]
    ends = {c["id"]: refuted_only_at_an_end(c) for c in refuted}
    inside = [c for c in refuted if not ends[c["id"]]]
    if inside:
        lines.append(
            f"refuted: {plural(len(inside), 'claim')}, each with what refutes it "
            "(the counterexample in full in --json and the report):"
        )
        pad = max(len(c["id"]) for c in inside)
        lines += [f"  {c['id']:<{pad}}  {refutation(c)}" for c in inside]
    by_end: dict[str, list[str]] = {}
    for c in refuted:
        if ends[c["id"]]:
            by_end.setdefault(ends[c["id"]], []).append(c["id"])
    if by_end:
        head = f"refuted only at an end of the printed range ({len(refuted) - len(inside)}):"
        groups = [
            [f"{end}:", *(f"{cid}{',' if k < len(ids) - 1 else ';'}" for k, cid in enumerate(ids))]
            for end, ids in by_end.items()
        ]
        words = [w for g in groups for w in g]
        words[-1] = words[-1][:-1]
        lines += _wrap(head, words, width)
    if not refuted:
        lines.append("no claim refuted")
    partial = [c["id"] for c in claims if c["status"] == str(Status.PARTIAL)]
    if partial:
        ids = [f"{cid}," for cid in partial]
        ids[-1] = ids[-1][:-1]
        lines += _wrap(f"decided on part of the printed class only ({len(partial)}):", ids, width)
    per_claim: dict[str, list[str]] = {}
    for cid, cls, entries in errata_groups(claims):
        per_claim.setdefault(cid, []).append(f"{len(entries)} {cls}" if len(entries) > 1 else cls)  # 'typo': one
    if per_claim:
        # wrap units: a claim id, then each of its classes with its count (never split)
        items = []
        for cid, v in per_claim.items():
            items += [f"{cid}:", *(f"{x}," for x in v[:-1]), f"{v[-1]};"]
        items[-1] = items[-1][:-1]
        total = sum(len(c.get("errata") or []) for c in claims)
        head = f"errata ({total} in {plural(len(per_claim), 'claim')}; each in {ERRATA_FILE}):"
        lines += _wrap(head, items, width)
    else:
        lines.append("no errata")
    return lines


def _wrap(head: str, items: Sequence[str], width: int) -> list[str]:
    """``head`` and ``items`` (each kept whole) on lines of at most ``width``, continued with an indent."""
    lines, line = [], head
    for item in items:
        if len(line) + 1 + len(item) > width and line.strip():
            lines.append(line)
            line = "  " + item
        else:
            line = f"{line} {item}"
    return [*lines, line]


def refutation(claim: Mapping) -> str:
    """What refutes a claim, in its own words: the detail of the refuting instance (the counterexample's text
    after the instance it names), else the whole counterexample (else the claim's notes).

    >>> refutation({"counterexample": "n=1 alpha=1 bounded exact: X breaks it",
    ...             "decisions": [{"outcome": "counterexample", "detail": "X breaks it"}]})
    'X breaks it'
    """
    text = claim.get("counterexample") or ""
    for d in claim.get("decisions") or []:
        if d.get("outcome") == "counterexample" and d.get("detail") and text.endswith(": " + d["detail"]):
            return d["detail"]
    return text or claim.get("notes") or "no counterexample recorded"


def print_digest(outcomes: Sequence[Outcome], out: object | None = None) -> None:
    """The digest of the findings (:func:`digest_lines`) of a run, printed verbatim."""
    print_digest_of(run_document(outcomes)["claims"], out)


def print_digest_of(claims: Sequence[Mapping], out: object | None = None) -> None:
    """The digest of claim records (a run's, or a merged run's) on ``out`` (default stdout), after a blank line."""
    from rich.text import Text

    out = out or console()
    out.print()
    for line in digest_lines(claims):
        out.print(Text(line), no_wrap=True, overflow="ellipsis")


# --- the verdict ----------------------------------------------------------------------------------------------------


def verdict(claims: int, by_status: Mapping[str, int], regressions: int, undecided: int) -> str:
    """The last line of a run: '140 claims: all as expected (26 proved, 54 verified, ...); 0 regressions', or
    '140 claims: 1 regression(s), 0 not decided (...)'.

    >>> verdict(2, {"verified": 1, "refuted": 1}, 0, 0)
    '2 claims: all as expected (1 verified, 1 refuted); 0 regressions'
    >>> verdict(3, {"verified": 2, "inconclusive": 1}, 0, 1)
    '3 claims: 0 regression(s), 1 not decided (2 verified, 1 inconclusive)'
    """
    by = ", ".join(f"{k} {st}" for st, k in by_status.items())
    if regressions or undecided:
        return f"{claims} claims: {regressions} regression(s), {undecided} not decided ({by})"
    return f"{claims} claims: all as expected ({by}); 0 regressions"


def problem_line(claim_id: str, problems: Sequence[str]) -> str:
    """A claim's problems in one line, the claim named once.

    >>> problem_line("a.b", ["a.b: status tested != expected verified", "value x: 1 != 2"])
    'a.b: status tested != expected verified; value x: 1 != 2'
    """
    return f"{claim_id}: " + "; ".join(p.removeprefix(f"{claim_id}: ") for p in problems)
