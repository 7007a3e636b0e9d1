"""The HTML pieces of the reproduction report, built from the --json results document (schema 2).

:mod:`udpm.outputs.notebook` runs ``experiments/report.ipynb``, whose cells display these fragments; they are
plain functions of the document so they can be tested without a kernel.  Everything here is
deterministic except timings, which are fenced by :data:`TIMING_START` / :data:`TIMING_END`.

This module has the report's sections (header, legend, summary, claims table, claim cards) and zlcn2013
Theorem 4's ratios; the document reader and HTML primitives are :mod:`udpm.report.document`, the status changes
:mod:`udpm.report.changes`, the errata :mod:`udpm.report.errata`, the figures :mod:`udpm.report.figures`, the
reach and timing data :mod:`udpm.report.plots`.  Their public names are importable from here too (the notebook
reads them as ``nb.*``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from udpm.report.changes import changes_html, load_baseline, status_changes, transitions
from udpm.report.document import (
    BASELINE,
    EVIDENCE,
    NO_REASON,
    PAPERS,
    REPORT_LINK,
    SCHEMA,
    STATUS_COLOURS,
    STATUSES,
    TIMING_END,
    TIMING_START,
    VALUE_CHARS,
    ReportFailed,
    badge,
    bounded_n_max,
    claim_link,
    esc,
    grid_lines,
    html_table,
    instances_text,
    load_results,
    methods,
    ordered,
    plural,
    scope_of,
    value_html,
)
from udpm.report.errata import errata, errata_html, errata_summary, location
from udpm.report.figures import figure_item, figure_png, figures_html, plot_html, png_html, printed_html
from udpm.report.plots import family, laplace_factor, reach, reach_html, timing_table_html, timings

__all__ = [
    "BASELINE",
    "EVIDENCE",
    "GRID_MEANING",
    "NO_REASON",
    "PAPERS",
    "REPORT_LINK",
    "SCHEMA",
    "STATUSES",
    "STATUS_COLOURS",
    "STATUS_MEANING",
    "TIMING_END",
    "TIMING_START",
    "VALUE_CHARS",
    "ReportFailed",
    "badge",
    "bounded_n_max",
    "changes_html",
    "claim_cards_html",
    "claim_link",
    "claims_table_html",
    "errata",
    "errata_html",
    "errata_summary",
    "esc",
    "family",
    "figure_item",
    "figure_png",
    "figures_html",
    "grid_lines",
    "header_html",
    "instances_text",
    "laplace_factor",
    "legend_html",
    "load_baseline",
    "load_results",
    "location",
    "methods",
    "ordered",
    "plot_html",
    "plural",
    "png_html",
    "printed_html",
    "reach",
    "reach_html",
    "scope_of",
    "status_changes",
    "summary_html",
    "thm4_ratios",
    "timing_table_html",
    "timings",
    "transitions",
]

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
    "partial": "decided on a strict part of the printed class only (an end of the printed alpha range, a part of "
    "the users, mechanisms or queries it quantifies over); the part left undecided is named; never a pass",
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
        f"{plural(len(doc['claims']), 'claim')}; {esc(errata_summary(doc))}; {verdict}.</p>"
    )


def legend_html() -> str:
    """What each status means, and what the grid is."""
    rows = ([badge(s), esc(meaning)] for s, meaning in STATUS_MEANING.items())
    return (
        html_table(["status", "meaning"], rows, id="status-legend", cls="legend")
        + '<p class="legend">'
        + re.sub("&#x27;(.*?)&#x27;", r"<code>\1</code>", esc(GRID_MEANING))
        + "</p>"
    )


def summary_html(doc: Mapping) -> str:
    """Counts per paper and status (with totals), and per paper and evidence kind."""
    claims = doc["claims"]
    papers = ordered({c["paper"] for c in claims}, PAPERS)
    statuses = ordered({c["status"] for c in claims}, STATUSES)
    by = Counter((c["paper"], c["status"]) for c in claims)
    rows = []
    for p in papers:
        counts = [by[p, s] for s in statuses]
        rows.append([esc(p), *(str(n) if n else "" for n in counts), str(sum(counts))])
    totals = [sum(by[p, s] for p in papers) for s in statuses]
    rows.append(('class="total"', ["total", *(str(n) for n in totals), str(sum(totals))]))
    head = ["paper", *(badge(s) for s in statuses), "claims"]
    table1 = html_table(head, rows, id="summary-table", cls="summary", num=range(1, len(head)))

    evidences = ordered({c["evidence"] for c in claims}, EVIDENCE)
    byev = Counter((c["paper"], c["evidence"]) for c in claims)
    rows2 = [[esc(p), *(str(byev[p, e]) if byev[p, e] else "" for e in evidences)] for p in papers]
    rows2.append(('class="total"', ["total", *(str(sum(byev[p, e] for p in papers)) for e in evidences)]))
    table2 = html_table(
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


def inventory_html(doc: Mapping) -> str:
    """Per paper: the inventoried assertions, how many a claim checks, refutes, and how many are not checkable."""
    from udpm.claims.assertions import COLUMNS, counts, load_inventory

    statuses = {c["id"]: c["status"] for c in doc["claims"]}
    table = counts(load_inventory(), statuses)
    cols = tuple(COLUMNS)
    rows = [[esc(p), *(str(r[c]) for c in cols)] for p, r in table.items()]
    rows.append(('class="total"', ["total", *(str(sum(r[c] for r in table.values())) for c in cols)]))
    return html_table(["paper", *COLUMNS.values()], rows, id="inventory-table", num=range(1, len(cols) + 1))


def sensitivity_html(rows: list[Mapping]) -> str:
    """One row per false variant of a printed statement: what it changes, and what refuted it."""
    if not rows:
        return '<p class="note">No sensitivity table: python -m udpm.claims.variants writes it.</p>'
    body = (
        [
            claim_link(r["claim"]),
            esc(r["changes"]),
            esc(r["variant"]),
            badge(r["status"]),
            f"<code>{esc(r['by'][:VALUE_CHARS])}</code>",
        ]
        for r in rows
    )
    return html_table(["claim", "changes", "false variant", "verdict", "refuted by"], body, id="sensitivity-table")


def claims_table_html(doc: Mapping) -> str:
    """One row per claim: id (link to its card), place in the paper, status, evidence, scope, golden check."""
    rows = []
    claims = doc["claims"]
    for p in ordered({c["paper"] for c in claims}, PAPERS):
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
    return html_table(["claim", "where", "status", "evidence", "scope", "expected"], rows, id="claims-table")


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
    return html_table(["kind", "method", "covers", "instances", "outcomes"], rows, cls="methods", num=(3,))


def _printed_html(printed: Mapping) -> str:
    """The printed class: one row per dimension, what it admits as printed and the sentence that fixes it."""
    rows = []
    for dim, v in printed.items():
        if dim == "parts":
            rows.append([esc(dim), esc("; ".join(v)), ""])
            continue
        what = "; ".join(f"{k}: {x}" for k, x in v.items() if k not in ("quote", "printed"))
        rows.append([esc(dim), esc(what), esc(v.get("quote", ""))])
    return html_table(["dimension", "as printed", "fixed by"], rows) if rows else ""


def _coverage_html(cov: Mapping | None) -> str:
    """Each part of the printed class with the strongest kind that decided it; undecided parts stand out."""
    if not cov:
        return ""
    rows = ([esc(p["part"]), esc(p["decided"] or "UNDECIDED")] for p in cov["parts"])
    return html_table(["part of the printed class", "decided by"], rows)


def claim_cards_html(doc: Mapping, paper: str | None = None) -> str:
    """A card per claim (anchor = claim id): statement, status, evidence, grid, instances, dependencies, values..."""
    out = []
    for c in doc["claims"]:
        if paper is not None and c["paper"] != paper:
            continue
        items = [
            ("statement", esc(c.get("statement", ""))),
            ("as printed", f"<blockquote>{esc(c.get('quote', ''))}</blockquote>"),
            *([("adds", esc(f"{c['hypothesis']} (to {c['restates']})"))] if c.get("restates") else []),
            ("printed class", _printed_html(c.get("printed") or {})),
            ("coverage", _coverage_html(c.get("coverage"))),
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
        if c.get("counterexample"):
            items.append(("counterexample", f"<pre>{esc(c['counterexample'])}</pre>"))
        values = c.get("values") or {}
        if values:
            items.append(
                ("values", html_table(["name", "exact value"], ([esc(k), value_html(v)] for k, v in values.items())))
            )
        if c.get("certificate"):
            items.append(("certificate", value_html(c["certificate"])))
        if c.get("errata"):
            items.append(
                (
                    "errata",
                    html_table(
                        ["location", "printed", "correct", "class", "explanation"],
                        (
                            [
                                esc(e["entry"]),
                                value_html(e["printed"]),
                                value_html(e["correct"]),
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


def thm4_ratios(doc: Mapping, claim_id: str = "zlcn2013.thm4") -> tuple[dict | None, list[dict]]:
    """The worst count-range approximation ratios that zlcn2013.thm4 reported, per alpha and n.

    Read from the claim's structured value ``worst_ratios`` (a JSON list of {"alpha", "n", "ratio"}, each the
    maximum over theta; alpha is zlcn2013's alpha = e^eps > 1, exact text).  Rows, sorted by alpha then n:
    alpha, alpha_value, n, ratio, ratio_value (the floats only place points on a plot)."""
    claim = next((c for c in doc["claims"] if c["id"] == claim_id), None)
    if claim is None:
        return None, []
    rows = json.loads((claim.get("values") or {}).get("worst_ratios", "[]"))
    out = [{**r, "alpha_value": float(Fraction(r["alpha"])), "ratio_value": float(Fraction(r["ratio"]))} for r in rows]
    return claim, sorted(out, key=lambda r: (r["alpha_value"], r["n"]))
