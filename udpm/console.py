"""What a terminal shows after a run: the tables of every claim, then the digest of the findings.

Every value taken from a claim record is printed verbatim (rich ``Text``, never markup), so the console and
the results document agree character for character.
"""

from __future__ import annotations

import os

from udpm.evidence import Status
from udpm.report import Outcome, summary


def print_summary(outcomes: list[Outcome], seconds: float) -> None:
    """The status table, the table of every claim, the partial claims and the errata."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text  # every value from a record is printed verbatim, never read as markup

    console = Console(width=120, color_system=None if os.environ.get("NO_COLOR") else "auto")
    s = summary(outcomes)
    statuses = [str(st) for st in Status if any(str(o.result.status) == str(st) for o in outcomes)]
    table = Table(title=f"{s['claims']} claims by status ({seconds:.1f} s)")
    table.add_column("paper")
    for st in statuses:
        table.add_column(st, justify="right")
    for paper, counts in s["by_paper"].items():
        table.add_row(paper, *[str(counts.get(st, "")) for st in statuses])
    table.add_row("total", *[str(s["by_status"].get(st, "")) for st in statuses], style="bold")
    console.print(table)

    detail = Table(title="claims")
    for col in ("id", "status", "evidence", "scope", "seconds"):
        detail.add_column(col)
    for o in outcomes:
        status = str(o.result.status) + (f" (capped by {o.result.capped_by})" if o.result.capped_by else "")
        cells = (o.claim.id, status, str(o.result.evidence), o.result.scope_text, f"{o.seconds:.2f}")
        detail.add_row(*map(Text, cells))
    console.print(detail)

    partial = [o for o in outcomes if o.result.status is Status.PARTIAL]
    if partial:
        pt = Table(title="decided on part of the printed class only (never a pass for the statement as printed)")
        pt.add_column("claim")
        pt.add_column("left undecided")
        for o in partial:
            undecided = o.result.coverage.undecided if o.result.coverage else []
            why = "; ".join(undecided) or f"rests on {o.result.capped_by}, decided on part of its printed class"
            pt.add_row(Text(o.claim.id), Text(why))
        console.print(pt)

    errata = [(o.claim.id, e) for o in outcomes for e in o.result.errata]
    if errata:
        from udpm.report_html import errata_summary

        doc = {"claims": [{"status": str(o.result.status), "errata": o.result.errata} for o in outcomes]}
        et = Table(title=f"printed values that differ: {errata_summary(doc)}")
        for col in ("claim", "location", "printed", "correct", "class"):
            et.add_column(col)
        for cid, e in errata:
            et.add_row(*map(Text, (cid, e.entry, e.printed, e.correct, e.cls)))
        console.print(et)
