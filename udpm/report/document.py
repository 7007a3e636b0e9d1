"""The results document as the report reads it (schema 2), and the HTML primitives the report is built from.

Constants shared by every part of the report (papers, statuses and their colours, the timing fence), loading
the --json document (:func:`load_results`), per-claim accessors (scope, grid, instances, methods) and the
escaping, badge, link and table helpers.  The report's sections are :mod:`udpm.report.html`.
"""

from __future__ import annotations

import html
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from udpm.claims.evidence import grid_text, scope_text
from udpm.claims.tables import PAPER_TABLES
from udpm.errors import HarnessError

PAPERS = ("grs2011", "grs2009", "gs2010", "zlcn2013")
STATUSES = (
    "proved",
    "verified",
    "tested",
    "reproduced",
    "erratum",
    "partial",
    "refuted",
    "inconclusive",
    "error",
    "pending",
)
EVIDENCE = ("all-n", "bounded", "sampled", "table", "none")
STATUS_COLOURS = {
    "proved": "#116329",
    "verified": "#1a7f37",
    "tested": "#0a6b74",
    "reproduced": "#0550ae",
    "erratum": "#9a6700",
    "partial": "#bc4c00",
    "refuted": "#cf222e",
    "inconclusive": "#8250df",
    "error": "#82071e",
    "pending": "#6e7781",
}
TIMING_START = "<!--timing-->"
TIMING_END = "<!--/timing-->"
REPORT_LINK = "build/report.html"
VALUE_CHARS = 600  # longer values are cut in the report (the JSON has them whole)
SCHEMA = 2  # the version of the results document this report reads (udpm.outputs.results.SCHEMA)
BASELINE = PAPER_TABLES / "status_baseline.json"
NO_REASON = "reason not recorded"


class ReportFailed(HarnessError):
    """The report notebook could not be executed or exported; the message names the cell and its error."""


# ----------------------------------------------------------------------------------------------------------------------
# Reading the results document


def load_results(path: str | os.PathLike) -> dict:
    """The results document written by reproduce.py (schema 2)."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportFailed(f"{p} is missing; run: python reproduce.py --report") from None
    except json.JSONDecodeError as exc:
        raise ReportFailed(f"{p} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or not isinstance(doc.get("claims"), list):
        raise ReportFailed(f"{p} is not a schema-{SCHEMA} results document")
    return doc


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def badge(status: str) -> str:
    return f'<span class="status status-{esc(status)}">{esc(status)}</span>'


def claim_link(cid: str, href_prefix: str = "") -> str:
    return f'<a href="{esc(href_prefix)}#{esc(cid)}">{esc(cid)}</a>'


def scope_of(claim: Mapping) -> str:
    """The claim's scope text (the grid of its status's evidence kind), or '—' when it decided nothing."""
    return claim.get("scope") or scope_text(claim) or "—"


def grid_lines(claim: Mapping) -> list[tuple[str, str]]:
    """(kind, grid text) for every kind of evidence the claim decided, strongest first; K for sampled."""
    grid = claim.get("grid") or {}
    out = []
    for kind in ordered(grid, EVIDENCE):
        if not grid[kind]:
            continue
        text = grid_text(grid[kind], kind)
        if kind == "sampled":
            text += f" (K={claim.get('samples', 0)})"
        out.append((kind, text))
    return out


def bounded_n_max(claim: Mapping) -> int | None:
    """The largest n of the claim's bounded grid (None: no bounded instance with a concrete n)."""
    ns = [n for row in (claim.get("grid") or {}).get("bounded") or [] for n in row.get("n") or [] if n is not None]
    return max(ns) if ns else None


def instances_text(claim: Mapping) -> str:
    """'43 decided: 43 hold', '12 decided: 11 hold, 1 counterexample', or 'none decided'."""
    counts = claim.get("instances") or {}
    decided = counts.get("decided", 0)
    if not decided:
        return "none decided"
    parts = [f"{counts.get('holds', 0)} hold"]
    for key, one, many in (
        ("counterexample", "counterexample", "counterexamples"),
        ("inconclusive", "inconclusive", "inconclusive"),
    ):
        k = counts.get(key, 0)
        if k:
            parts.append(f"{k} {one if k == 1 else many}")
    return f"{decided} decided: " + ", ".join(parts)


def methods(claim: Mapping) -> list[dict]:
    """The decided instances grouped by (kind, method, covers), in first-seen order, with their count and outcomes."""
    groups: dict[tuple[str, str, str], Counter] = {}
    for d in claim.get("decisions") or []:
        key = (d.get("kind", ""), d.get("method", ""), d.get("covers", ""))
        groups.setdefault(key, Counter())[d.get("outcome", "")] += 1
    return [
        {"kind": k, "method": m, "covers": c, "instances": sum(n.values()), "outcomes": dict(sorted(n.items()))}
        for (k, m, c), n in groups.items()
    ]


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def ordered(keys: Iterable[str], order: Sequence[str]) -> list[str]:
    keys = set(keys)
    return [k for k in order if k in keys] + sorted(keys - set(order))


def html_table(
    head: Sequence[str], rows: Iterable[Sequence[str]], *, id: str = "", cls: str = "", num: Iterable[int] = ()
) -> str:
    """An HTML table from already-escaped cells; columns in ``num`` are right-aligned."""
    num = set(num)
    attrs = (f' id="{esc(id)}"' if id else "") + (f' class="{esc(cls)}"' if cls else "")
    out = [f"<table{attrs}>", "<thead><tr>"]
    right = ' class="num"'
    out += [f"<th{right if k in num else ''}>{h}</th>" for k, h in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for row in rows:
        tr_cls = ""
        if isinstance(row, tuple) and len(row) == 2 and isinstance(row[0], str) and row[0].startswith("class="):
            tr_cls, row = f" {row[0]}", row[1]
        cells = "".join(f"<td{right if k in num else ''}>{c}</td>" for k, c in enumerate(row))
        out.append(f"<tr{tr_cls}>{cells}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def value_html(v: object, limit: int = VALUE_CHARS) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    if len(s) > limit:
        s = s[:limit] + f" … ({len(s) - limit} more characters; whole value in build/results.json)"
    return f"<code>{esc(s)}</code>"
