"""The HTML pieces of the reproduction report, built from the --json results document (schema 2).

:mod:`udpm.notebook` runs ``experiments/report.ipynb``, whose cells display these fragments; they are
plain functions of the document so they can be tested without a kernel.  Everything here is
deterministic except timings, which are fenced by :data:`TIMING_START` / :data:`TIMING_END`.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from .errors import HarnessError
from .evidence import grid_text, scope_text
from .tables import PAPER_TABLES

PAPERS = ("grs2011", "grs2009", "gs2010", "zlcn2013")
STATUSES = ("proved", "verified", "tested", "reproduced", "erratum", "refuted", "inconclusive", "error", "pending")
EVIDENCE = ("all-n", "bounded", "sampled", "table", "none")
STATUS_COLOURS = {
    "proved": "#116329",
    "verified": "#1a7f37",
    "tested": "#0a6b74",
    "reproduced": "#0550ae",
    "erratum": "#9a6700",
    "refuted": "#cf222e",
    "inconclusive": "#8250df",
    "error": "#82071e",
    "pending": "#6e7781",
}
TIMING_START = "<!--timing-->"
TIMING_END = "<!--/timing-->"
REPORT_LINK = "build/report.html"
VALUE_CHARS = 600  # longer values are cut in the report (the JSON has them whole)
SCHEMA = 2  # the version of the results document this report reads (udpm.report.SCHEMA)
BASELINE = PAPER_TABLES / "status_baseline.json"
NO_REASON = "reason not recorded"

#: What each status means (the legend of the report and the README block), strongest passing status first.
STATUS_MEANING = {
    "proved": "an all-n argument (symbolic in n and alpha) ran in this run and holds for every n",
    "verified": "every (n, alpha) in the grid was decided for the whole class the claim quantifies over "
    "(LP certificate, SMT unsat, exhaustive enumeration); nothing is claimed beyond the grid",
    "tested": "instances drawn out of a continuum (a prior, a loss, a mechanism) were checked exactly; "
    "no counterexample among the K samples, which is not a proof",
    "reproduced": "a printed object (table, figure, value) equals its exact recomputation, "
    "exactly or after the paper's rounding",
    "erratum": "printed objects were compared and some printed value differs from the exact one, whatever "
    "else was decided (class and correct value in the errata)",
    "refuted": "the claim as stated is false: a concrete counterexample is attached",
    "inconclusive": "some instance was not decided (a solver timeout or unknown), or a claim it rests on "
    "did not pass; never a pass",
    "error": "the check crashed or decided no instance",
    "pending": "declared in the catalog, not implemented yet",
}
#: What the grid is (the legend of the report and the README block).
GRID_MEANING = (
    "The grid lists, per kind of evidence (all-n, bounded, sampled, table), the n decided at each alpha: "
    "'alpha=1/2: n<=4; 1/3, 2/3: n<=3' means every n from 1 to 4 at alpha=1/2, and 1 to 3 at 1/3 and 2/3; "
    "'all n' is a symbolic argument; '(K=30)' counts the sampled instances. "
    "A claim's scope is the grid of the kind that set its status. "
    "A claim whose argument rests on other claims is capped by the weakest of them."
)


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
    for kind in _ordered(grid, EVIDENCE):
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


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _ordered(keys: Iterable[str], order: Sequence[str]) -> list[str]:
    keys = set(keys)
    return [k for k in order if k in keys] + sorted(keys - set(order))


def _table(
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


# ----------------------------------------------------------------------------------------------------------------------
# The report's sections (each returns an HTML fragment)


def header_html(doc: Mapping) -> str:
    run = doc.get("run", {})
    mode = "quick (CI-sized) scopes" if run.get("quick", True) else "full scopes (--full)"
    sel = run.get("selection")
    selection = (
        "all claims"
        if not sel and not run.get("paper")
        else "selection "
        + ", ".join(
            [
                *(f"<code>{esc(s)}</code>" for s in (sel or [])),
                *([f"paper <code>{esc(run['paper'])}</code>"] if run.get("paper") else []),
            ]
        )
    )
    s = doc.get("summary", {})
    failures = s.get("failures", 0)
    verdict = (
        '<span class="problem">'
        f"{failures} claim(s) differ from paper_tables/expected.json or did not finish (see the claim cards)</span>"
        if failures
        else "every claim matches its stored expectation (paper_tables/expected.json)"
    )
    return (
        f'<p class="run">Run: {mode}, seed {esc(run.get("seed", 0))}, {selection}: '
        f"{_plural(len(doc['claims']), 'claim')}; {esc(errata_summary(doc))}; {verdict}.</p>"
    )


def legend_html() -> str:
    """What each status means, and what the grid is."""
    rows = ([badge(s), esc(meaning)] for s, meaning in STATUS_MEANING.items())
    return (
        _table(["status", "meaning"], rows, id="status-legend", cls="legend")
        + '<p class="legend">'
        + re.sub("&#x27;(.*?)&#x27;", r"<code>\1</code>", esc(GRID_MEANING))
        + "</p>"
    )


def summary_html(doc: Mapping) -> str:
    """Counts per paper and status (with totals), and per paper and evidence kind."""
    claims = doc["claims"]
    papers = _ordered({c["paper"] for c in claims}, PAPERS)
    statuses = _ordered({c["status"] for c in claims}, STATUSES)
    by = Counter((c["paper"], c["status"]) for c in claims)
    rows = []
    for p in papers:
        counts = [by[p, s] for s in statuses]
        rows.append([esc(p), *(str(n) if n else "" for n in counts), str(sum(counts))])
    totals = [sum(by[p, s] for p in papers) for s in statuses]
    rows.append(('class="total"', ["total", *(str(n) for n in totals), str(sum(totals))]))
    head = ["paper", *(badge(s) for s in statuses), "claims"]
    table1 = _table(head, rows, id="summary-table", cls="summary", num=range(1, len(head)))

    evidences = _ordered({c["evidence"] for c in claims}, EVIDENCE)
    byev = Counter((c["paper"], c["evidence"]) for c in claims)
    rows2 = [[esc(p), *(str(byev[p, e]) if byev[p, e] else "" for e in evidences)] for p in papers]
    rows2.append(('class="total"', ["total", *(str(sum(byev[p, e] for p in papers)) for e in evidences)]))
    table2 = _table(
        ["paper", *(esc(e) for e in evidences)], rows2, id="evidence-table", num=range(1, len(evidences) + 1)
    )
    return (
        "<h3>Claims per paper and status</h3>"
        + table1
        + "<h3>What the statuses and the grid mean</h3>"
        + legend_html()
        + "<h3>Claims per paper and kind of evidence</h3>"
        + '<p class="note">The kind of evidence that set each status: all-n: a symbolic argument, every n; '
        "bounded: every decided (n, alpha) exhausted for the whole class the claim quantifies over; sampled: "
        "instances drawn out of a continuum, checked exactly; table: printed objects recomputed exactly; "
        "none: no verdict (refuted claims keep the kind of their counterexample).</p>" + table2
    )


def claims_table_html(doc: Mapping) -> str:
    """One row per claim: id (link to its card), place in the paper, status, evidence, scope, golden check."""
    rows = []
    claims = doc["claims"]
    for p in _ordered({c["paper"] for c in claims}, PAPERS):
        rows.append(('class="paper"', [esc(p), "", "", "", "", ""]))
        for c in (c for c in claims if c["paper"] == p):
            check = '<span class="problem">✗ differs</span>' if c.get("problems") else "✓"
            if c.get("expected") is None and not c.get("problems"):
                check = "—"
            rows.append(
                [
                    claim_link(c["id"]),
                    esc(c.get("where", "")),
                    badge(c["status"]),
                    esc(c["evidence"]),
                    esc(scope_of(c)),
                    check,
                ]
            )
    return _table(["claim", "where", "status", "evidence", "scope", "expected"], rows, id="claims-table")


def _value_html(v: object, limit: int = VALUE_CHARS) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    if len(s) > limit:
        s = s[:limit] + f" … ({len(s) - limit} more characters; whole value in build/results.json)"
    return f"<code>{esc(s)}</code>"


def _grid_html(claim: Mapping) -> str:
    lines = grid_lines(claim)
    if not lines:
        return "none"
    return "<br>".join(f"<b>{esc(kind)}</b>: {esc(text)}" for kind, text in lines)


def _methods_html(claim: Mapping) -> str:
    rows = (
        [
            esc(m["kind"]),
            esc(m["method"]),
            esc(m["covers"]),
            str(m["instances"]),
            esc(", ".join(f"{n} {o}" for o, n in m["outcomes"].items())),
        ]
        for m in methods(claim)
    )
    return _table(["kind", "method", "covers", "instances", "outcomes"], rows, cls="methods", num=(3,))


def claim_cards_html(doc: Mapping, paper: str | None = None) -> str:
    """A card per claim (anchor = claim id): statement, status, evidence, grid, instances, dependencies, values..."""
    out = []
    for c in doc["claims"]:
        if paper is not None and c["paper"] != paper:
            continue
        items = [
            ("statement", esc(c.get("statement", ""))),
            (
                "status",
                badge(c["status"])
                + (f" (expected {esc(c['expected'])})" if c.get("expected") not in (None, c["status"]) else ""),
            ),
            ("evidence", esc(c["evidence"])),
            ("scope", esc(scope_of(c))),
            ("grid", _grid_html(c)),
            ("instances", esc(instances_text(c))),
        ]
        if c.get("decisions"):
            items.append(("methods", _methods_html(c)))
        if c.get("depends_on"):
            deps = ", ".join(f"{claim_link(d['id'])} ({esc(d['status'])})" for d in c["depends_on"])
            items.append(("depends on", deps))
        if c.get("capped_by"):
            items.append(
                (
                    "capped by",
                    f"{claim_link(c['capped_by'])}: the status is lowered to what this dependency reaches",
                )
            )
        items.append(("aim (catalog)", esc(c.get("aim", ""))))
        if c.get("counterexample"):
            items.append(("counterexample", f"<pre>{esc(c['counterexample'])}</pre>"))
        values = c.get("values") or {}
        if values:
            items.append(
                ("values", _table(["name", "exact value"], ([esc(k), _value_html(v)] for k, v in values.items())))
            )
        if c.get("certificate"):
            items.append(("certificate", _value_html(c["certificate"])))
        if c.get("errata"):
            items.append(
                (
                    "errata",
                    _table(
                        ["location", "printed", "correct", "class", "explanation"],
                        (
                            [
                                esc(e["entry"]),
                                _value_html(e["printed"]),
                                _value_html(e["correct"]),
                                esc(e["cls"]),
                                esc(e["explanation"]),
                            ]
                            for e in c["errata"]
                        ),
                    ),
                )
            )
        if c.get("notes"):
            items.append(("notes", f"<pre>{esc(c['notes'])}</pre>"))
        if c.get("problems"):
            items.append(("run problems", "".join(f'<div class="problem">{esc(p)}</div>' for p in c["problems"])))
        body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
        out.append(
            f'<section class="claim" id="{esc(c["id"])}"><h4>{esc(c["id"])} {badge(c["status"])} '
            f"<small>{esc(c.get('where', ''))}</small></h4><dl>{body}</dl></section>"
        )
    return "".join(out) or '<p class="note">No claims in this run.</p>'


def errata(doc: Mapping) -> list[tuple[dict, dict]]:
    """(claim, erratum) pairs in paper order."""
    order = {p: k for k, p in enumerate(PAPERS)}
    claims = sorted(doc["claims"], key=lambda c: (order.get(c["paper"], len(PAPERS)), c["id"]))
    return [(c, e) for c in claims for e in c.get("errata") or []]


def errata_summary(doc: Mapping) -> str:
    """'29 errata in 6 claims; 1 claim has status erratum' (errata also appear in claims of other statuses).

    >>> doc = {"claims": [{"status": "erratum", "errata": [{}, {}]}, {"status": "proved", "errata": [{}]}]}
    >>> errata_summary(doc)
    '3 errata in 2 claims; 1 claim has status erratum'
    >>> errata_summary({"claims": [{"status": "proved", "errata": [{}]}]})
    '1 erratum in 1 claim; no claim has status erratum'
    >>> errata_summary({"claims": [{"status": "proved", "errata": []}]})
    'no errata'
    """
    per_claim = [len(c.get("errata") or []) for c in doc["claims"]]
    if not any(per_claim):
        return "no errata"
    status = sum(c["status"] == "erratum" for c in doc["claims"])
    has = "no claim has" if not status else f"{_plural(status, 'claim')} {'has' if status == 1 else 'have'}"
    claims = sum(k > 0 for k in per_claim)
    return f"{_plural(sum(per_claim), 'erratum', 'errata')} in {_plural(claims, 'claim')}; {has} status erratum"


def errata_html(doc: Mapping) -> str:
    pairs = errata(doc)
    if not pairs:
        return '<p class="note">No errata in this run: every checked printed value equals its exact recomputation.</p>'
    rows = (
        [
            claim_link(c["id"]),
            esc(_location(c, e)),
            _value_html(e["printed"], 200),
            _value_html(e["correct"], 200),
            esc(e["cls"]),
            esc(e["explanation"]),
        ]
        for c, e in pairs
    )
    counts = Counter(e["cls"] for _, e in pairs)
    head = (
        f"<p>{esc(errata_summary(doc))} (a claim whose status rests on other evidence may record errata in passing). "
        "By class: " + ", ".join(f"{n} {esc(k)}" for k, n in sorted(counts.items())) + ".</p>"
    )
    return head + _table(
        ["claim", "location", "printed", "correct (exact)", "class", "explanation"], rows, id="errata-table"
    )


# ----------------------------------------------------------------------------------------------------------------------
# Status changes since the baseline (paper_tables/status_baseline.json)


def load_baseline(path: str | os.PathLike = BASELINE) -> dict | None:
    """The status baseline {"label", "statuses": {id: status}, "reasons": {id: why}}, or None when absent."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except json.JSONDecodeError as exc:
        raise ReportFailed(f"{path} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("statuses"), dict):
        raise ReportFailed(f"{path} has no 'statuses' object")
    return data


def status_changes(doc: Mapping, baseline: Mapping | None) -> list[dict]:
    """Claims of the run whose status differs from the baseline's, in run order: id, before, now, why.

    A claim absent from the baseline counts as changed ("before" is "(new)").  A missing reason reads
    "reason not recorded".

    >>> doc = {"claims": [{"id": "a", "status": "proved"}, {"id": "b", "status": "tested"}, {"id": "c", "status": "x"}]}
    >>> base = {"label": "L", "statuses": {"a": "proved", "b": "verified"}, "reasons": {"c": "new check"}}
    >>> [(r["id"], r["before"], r["now"], r["why"]) for r in status_changes(doc, base)]
    [('b', 'verified', 'tested', 'reason not recorded'), ('c', '(new)', 'x', 'new check')]
    """
    if not baseline:
        return []
    before = baseline.get("statuses") or {}
    reasons = baseline.get("reasons") or {}
    return [
        {
            "id": c["id"],
            "before": before.get(c["id"], "(new)"),
            "now": c["status"],
            "why": reasons.get(c["id"]) or NO_REASON,
        }
        for c in doc["claims"]
        if before.get(c["id"]) != c["status"]
    ]


def transitions(changes: Sequence[Mapping]) -> list[tuple[str, str, int]]:
    """(before, now, count) of the changes, most frequent first, then alphabetical."""
    counts = Counter((r["before"], r["now"]) for r in changes)
    return sorted(((b, n, k) for (b, n), k in counts.items()), key=lambda t: (-t[2], t[0], t[1]))


def changes_html(doc: Mapping, baseline: Mapping | None) -> str:
    if not baseline:
        return '<p class="note">No status baseline (paper_tables/status_baseline.json) to compare with.</p>'
    changes = status_changes(doc, baseline)
    label = esc(baseline.get("label", "the baseline"))
    if not changes:
        return f"<p>No claim of this run changed status since {label}.</p>"
    tally = ", ".join(f"{esc(b)} → {esc(n)}: {k}" for b, n, k in transitions(changes))
    rows = ([claim_link(r["id"]), badge(r["before"]), badge(r["now"]), esc(r["why"])] for r in changes)
    return f"<p>{_plural(len(changes), 'claim')} changed status since {label} ({tally}).</p>" + _table(
        ["claim", "before", "now", "why"], rows, id="changes-table"
    )


def _location(claim: Mapping, erratum: Mapping) -> str:
    """The erratum's entry, prefixed with the claim's place in the paper when the entry is only an index like [0][2]."""
    entry = str(erratum.get("entry", ""))
    return f"{claim.get('where', '')} {entry}".strip() if not entry or entry.startswith("[") else entry


# ----------------------------------------------------------------------------------------------------------------------
# Figures: the regenerated PNGs next to the printed values


_FIGURE_NAME = re.compile(r"^(grs2009|grs2011|gs2010|zlcn2013)[._-]+([A-Za-z]+\d*(?:\.\d+)?)")


def figure_item(name: str) -> tuple[str, str] | None:
    """('grs2011', 'fig3') from a figure file name like grs2011_fig3.png or grs2011.fig3-heatmap.png."""
    m = _FIGURE_NAME.match(Path(name).stem.lower())
    return (m.group(1), m.group(2)) if m else None


def _printed_items(printed_dir: Path, paper: str, item: str) -> list[tuple[str, dict]]:
    path = Path(printed_dir) / f"{paper}.json"
    try:
        items = json.loads(path.read_text(encoding="utf-8")).get("items", {})
    except (OSError, json.JSONDecodeError):
        return []
    pat = re.compile(rf"^{re.escape(item)}(?:[a-z]|[._-]|$)")
    return [(k, v) for k, v in sorted(items.items()) if pat.match(k) and isinstance(v, dict)]


def printed_html(key: str, item: Mapping) -> str:
    """A printed item exactly as transcribed (strings verbatim)."""
    vals = item.get("values")
    if isinstance(vals, list) and vals and all(isinstance(r, list) for r in vals):
        width = max(len(r) for r in vals)
        body = _table(
            [""] + [str(j) for j in range(width)],
            ([str(i), *(f"<code>{esc(x)}</code>" for x in r)] for i, r in enumerate(vals)),
            cls="printed",
        )
    elif isinstance(vals, list):
        body = _table([str(j) for j in range(len(vals))], [[f"<code>{esc(x)}</code>" for x in vals]], cls="printed")
    else:
        body = _value_html(vals, 1500)
    parts = [f"<h4>printed: <code>{esc(key)}</code> — {esc(item.get('where', ''))}</h4>"]
    if item.get("caption"):
        parts.append(f"<p>{esc(item['caption'])}</p>")
    if item.get("rows") or item.get("columns"):
        parts.append(
            f'<p class="note">rows: {esc(item.get("rows", "—"))}; columns: {esc(item.get("columns", "—"))}</p>'
        )
    parts.append(body)
    if item.get("note"):
        parts.append(f'<p class="note">transcription note: {esc(item["note"])}</p>')
    return "".join(parts)


def png_html(png: bytes, anchor: str, caption: str, alt: str | None = None) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure id="{esc(anchor)}"><img alt="{esc(alt or caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def figures_html(doc: Mapping, figures_dir: str | os.PathLike, printed_dir: str | os.PathLike) -> str:
    """Each regenerated figure PNG beside the printed values of its item and the status of its claim."""
    fdir = Path(figures_dir)
    pngs = sorted(fdir.glob("*.png")) if fdir.is_dir() else []
    claims = {c["id"]: c for c in doc["claims"]}
    pictured: set[str] = set()
    out = []
    for png in pngs:
        found = figure_item(png.name)
        caption = f"<code>paper_tables/figures/{esc(png.name)}</code>"
        side = '<p class="note">No printed item matches this figure\'s name.</p>'
        if found:
            paper, item = found
            ids = [cid for cid in claims if cid == f"{paper}.{item}" or cid.startswith(f"{paper}.{item}")]
            pictured.update(ids)
            if ids:
                caption += " — " + ", ".join(f"{claim_link(i)} {badge(claims[i]['status'])}" for i in ids)
            items = _printed_items(Path(printed_dir), paper, item)
            if items:
                side = "".join(printed_html(k, v) for k, v in items)
        out.append(
            f'<div class="pair">{png_html(png.read_bytes(), f"figure-{png.stem}", caption, png.stem)}'
            f"<div>{side}</div></div>"
        )
    if not pngs:
        out.append(
            '<p class="note">No regenerated figures found in paper_tables/figures/ (they are written by '
            "<code>python -m experiments.figures</code>).</p>"
        )
    missing = [cid for cid in claims if re.match(r"fig\d", cid.partition(".")[2]) and cid not in pictured]
    if missing:
        out.append(
            '<p class="note">No regenerated picture for '
            + ", ".join(claim_link(cid) for cid in missing)
            + "; their printed and exact values are in the claim cards.</p>"
        )
    return "".join(out)


def figure_png(fig: object, dpi: int = 100) -> bytes:
    """Deterministic PNG bytes of a matplotlib figure (no software/date metadata); closes the figure."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def plot_html(fig: object, anchor: str, caption: str, *, timing: bool = False) -> str:
    """A matplotlib figure inlined as a base64 PNG; ``timing`` fences it as run-dependent."""
    out = png_html(figure_png(fig), anchor, caption, alt=re.sub("<[^>]+>", "", caption))
    return f"{TIMING_START}{out}{TIMING_END}" if timing else out


# ----------------------------------------------------------------------------------------------------------------------
# Data for the plots (read from the results document, nothing recomputed)


def laplace_factor(a: float) -> float:
    """grs2011 Theorem A.2's approximation factor (1+a)/(2 sqrt a) of the Laplace mechanism (for plotting)."""
    return (1 + a) / (2 * math.sqrt(a))


def family(cid: str) -> str:
    """The lemma family of a claim id: paper plus the item kind and section, e.g. grs2011.lemma5.3 -> grs2011.lemma5."""
    paper, _, local = cid.partition(".")
    m = re.match(r"[A-Za-z-]+\d*", local)
    return f"{paper}.{m.group(0) if m else local}"


def reach(doc: Mapping) -> list[dict]:
    """Claims with a bounded grid: id, family, n_max (the largest bounded n), status, evidence (run order).

    Read from ``grid["bounded"]``, whatever kind set the status: a bounded cross-check beside an all-n proof counts.
    """
    out = []
    for c in doc["claims"]:
        n_max = bounded_n_max(c)
        if n_max is not None:
            out.append(
                {
                    "id": c["id"],
                    "family": family(c["id"]),
                    "n_max": n_max,
                    "status": c["status"],
                    "evidence": c["evidence"],
                }
            )
    return out


def reach_html(doc: Mapping) -> str:
    rows = reach(doc)
    if not rows:
        return '<p class="note">No claim in this run decided a bounded instance.</p>'
    fams: dict[str, list[dict]] = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    table = (
        [
            esc(f),
            str(min(r["n_max"] for r in rs)),
            str(max(r["n_max"] for r in rs)),
            ", ".join(f"{claim_link(r['id'])} ({r['n_max']})" for r in rs),
        ]
        for f, rs in fams.items()
    )
    return _table(
        ["family", "smallest bounded n", "largest bounded n", "claims (largest bounded n)"],
        table,
        id="reach-table",
        num=(1, 2),
    )


_NUM = r"(\d+(?:/\d+)?|\d*\.\d+)"
_ALPHA_KEY = re.compile(r"(?<![A-Za-z])(?:alpha|a)\s*[=:]\s*" + _NUM, re.IGNORECASE)
_N_KEY = re.compile(r"(?<![A-Za-z])n\s*[=:]\s*(\d+)(?![\d/.])", re.IGNORECASE)


def _number(s: str) -> Fraction | None:
    """An exact number from a value string ('4/3', '2', '1.25'), else None."""
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):
        return None


def thm4_ratios(doc: Mapping, claim_id: str = "zlcn2013.thm4") -> tuple[dict | None, list[dict]]:
    """The worst count-range approximation ratios that zlcn2013.thm4 reported, per alpha (and per n when given).

    A value counts when its name mentions a ratio (not a threshold ratio, which Theorem 7 makes 1) and an alpha
    (``alpha=2``), optionally an n (``n=3``), and the value is an exact number.  Several values for the same
    (alpha, n), e.g. one per theta, are reduced to their maximum.  Alpha is kept as the check printed it (the
    claim reports zlcn2013's alpha = e^eps > 1).  Rows: alpha, alpha_value, n (or None), ratio, ratio_value, name.
    """
    claim = next((c for c in doc["claims"] if c["id"] == claim_id), None)
    if claim is None:
        return None, []
    best: dict[tuple[str, int | None], dict] = {}
    for name, value in (claim.get("values") or {}).items():
        low = name.lower()
        if "ratio" not in low or "threshold" in low or not isinstance(value, str):
            continue
        alpha, n, ratio = _ALPHA_KEY.search(name), _N_KEY.search(name), _number(value)
        a = _number(alpha.group(1)) if alpha else None
        if a is None or ratio is None:
            continue
        row = {
            "name": name,
            "alpha": alpha.group(1),
            "alpha_value": float(a),
            "n": int(n.group(1)) if n else None,
            "ratio": value,
            "ratio_value": float(ratio),
        }
        key = (row["alpha"], row["n"])
        if key not in best or ratio > _number(best[key]["ratio"]):
            best[key] = row
    out = sorted(best.values(), key=lambda r: (r["alpha_value"], -1 if r["n"] is None else r["n"]))
    return claim, out


def timings(doc: Mapping) -> list[tuple[str, float]]:
    """(claim id, wall-clock seconds) in run order, from the document's top-level "seconds"."""
    seconds = doc.get("seconds") or {}
    return [(c["id"], float(seconds.get(c["id"]) or 0.0)) for c in doc["claims"]]


def timing_table_html(doc: Mapping, top: int = 10) -> str:
    rows = sorted(timings(doc), key=lambda t: -t[1])[:top]
    total = sum(t for _, t in timings(doc))
    body = _table(["claim", "seconds"], ([claim_link(c), f"{t:.2f}"] for c, t in rows), num=(1,))
    return f"{TIMING_START}<p>Total check time {total:.1f} s; the {len(rows)} slowest claims:</p>{body}{TIMING_END}"
