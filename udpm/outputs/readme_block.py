"""The README's results block, regenerated between its markers on full runs (byte-identical when nothing changes),
and the CHANGELOG's list of status changes against the status baseline, regenerated on request::

    python -m udpm.outputs.readme_block changelog RESULTS.json     # a full run's --json document

The README says what the papers' claims are now; how statuses moved is history, and goes in CHANGELOG.md.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from udpm.claims.tables import ROOT
from udpm.report.errata import errata, errata_groups, errata_summary
from udpm.report.html import (
    BASELINE,
    PAPERS,
    REPORT_LINK,
    STATUSES,
    ReportFailed,
    load_baseline,
    ordered,
    plural,
    status_changes,
)

README = ROOT / "README.md"
README_START = "<!-- results:start -->"
README_END = "<!-- results:end -->"
CHANGELOG = ROOT / "CHANGELOG.md"
CHANGES_START = "<!-- status-changes:start -->"
CHANGES_END = "<!-- status-changes:end -->"


def _cell(s: object, limit: int = 80) -> str:
    s = " ".join(str(s).split())
    s = s if len(s) <= limit else s[: limit - 1] + "…"
    return s.replace("|", "\\|")


def _link(cid: str) -> str:
    return f"[`{cid}`]({REPORT_LINK}#{cid})"


def changes_lines(doc: Mapping, baseline: Mapping | None) -> list[str]:
    """'N claims changed status since <label>:' and a table id | before | now | why ([] without a baseline)."""
    if not baseline:
        return []
    label = _cell(baseline.get("label", "the baseline"), 120)
    changes = status_changes(doc, baseline)
    if not changes:
        return [f"No claim changed status since {label}."]
    lines = [
        f"{plural(len(changes), 'claim')} changed status since {label}:",
        "",
        "| claim | before | now | why |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {_link(r['id'])} | {_cell(r['before'])} | {_cell(r['now'])} | {_cell(r['why'], 200)} |" for r in changes
    ]
    return lines


def refuted_only_at_an_end(claim: Mapping) -> str:
    """Where a claim is refuted when that is only at an end of its printed range: 'alpha = 1' or 'alpha = 0, 1'
    when every counterexample lies at alpha = 0 or 1, the ends of a printed alpha range; 'n = 0' when every
    counterexample lies at the smallest n of the claim's printed class and the claim held at a larger n; ''
    otherwise.

    >>> refuted_only_at_an_end({"decisions": [{"alpha": "1", "outcome": "counterexample"}]})
    'alpha = 1'
    >>> refuted_only_at_an_end({"decisions": [{"alpha": "1/2", "outcome": "counterexample"}]})
    ''
    >>> at_n0, at_n1 = {"alpha": "2", "n": 0, "outcome": "counterexample"}, {"alpha": "2", "n": 1, "outcome": "holds"}
    >>> refuted_only_at_an_end({"id": "zlcn2013.thm7", "decisions": [at_n0, at_n1]})
    'n = 0'
    >>> refuted_only_at_an_end({"id": "zlcn2013.thm7", "decisions": [at_n0]})  # decided nowhere else
    ''
    """
    alpha = _alpha_ends(claim)
    if alpha:
        return f"alpha = {alpha}"
    first = _first_n(claim.get("id"))
    decisions = claim.get("decisions", [])
    refuted_at = {d.get("n") for d in decisions if d["outcome"] == "counterexample"}
    regions = {d.get("region", "") for d in decisions if d["outcome"] == "counterexample"}
    # held at a larger n in the same part of the class; an all-n argument covers n from its n_from (absent: 1)
    held_above = any(
        d["outcome"] == "holds"
        and d.get("region", "") in regions
        and (d["n"] if d.get("n") is not None else d.get("n_from", 1)) > first
        for d in decisions
        if first is not None
    )
    return f"n = {first}" if first is not None and refuted_at == {first} and held_above else ""


def _alpha_ends(claim: Mapping) -> str:
    """'1' or '0, 1' when every counterexample lies at alpha = 0 or 1; '' otherwise (or at no exact alpha)."""
    from fractions import Fraction

    from udpm.claims.coverage import alpha_span

    ends: set[Fraction] = set()
    for d in claim.get("decisions", []):
        if d["outcome"] != "counterexample":
            continue
        points, _ = alpha_span(d["alpha"])
        if not points or not points <= {Fraction(0), Fraction(1)}:
            return ""
        ends |= points
    return ", ".join(str(e) for e in sorted(ends))


def _first_n(claim_id: object) -> int | None:
    """The smallest n of a catalogued claim's printed class (None: not catalogued, or no n range)."""
    from udpm.claims.registry import catalog

    claim = catalog().get(claim_id) if isinstance(claim_id, str) else None
    n = claim.printed.n if claim is not None and claim.printed is not None else None
    return n.min if n is not None else None


def inventory_lines(doc: Mapping) -> list[str]:
    """Per paper, the assertions of the inventory (paper_tables/assertions/): how many, how many a claim checks,
    how many of those its claim refutes or finds an erratum in, and how many are definitions or not checkable."""
    from udpm.claims.assertions import COLUMNS, counts, load_inventory

    statuses = {c["id"]: c["status"] for c in doc["claims"]}
    table = counts(load_inventory(), statuses)
    cols = tuple(COLUMNS)
    lines = [
        "Every assertion of the four papers, quoted verbatim in `paper_tables/assertions/` "
        "(theorems, footnotes, remarks, captions, displayed proof steps), and what became of it:",
        "",
        "| paper | " + " | ".join(COLUMNS.values()) + " |",
        "|---|" + "---:|" * len(cols),
    ]
    for paper, row in table.items():
        lines.append(f"| `{paper}` | " + " | ".join(str(row[c]) for c in cols) + " |")
    total = {c: sum(r[c] for r in table.values()) for c in cols}
    lines.append("| **total** | " + " | ".join(f"**{total[c]}**" for c in cols) + " |")
    return lines


def _ids(claims: Sequence[Mapping]) -> str:
    return ", ".join(f"`{c['id']}`" for c in claims)


def errata_by_claim(claims: Sequence[Mapping]) -> str:
    """One entry per claim with errata (in the order of ``claims``), its errata counted by class, the most frequent
    first: "`gs2010.table1` (22 rounding, 1 typo)".

    >>> errata_by_claim([{"id": "t", "errata": [{"cls": c} for c in ("typo", "rounding", "typo")]}, {"id": "u"}])
    '`t` (2 typo, 1 rounding)'
    """
    by: dict[str, list[tuple[int, str]]] = {}
    for cid, cls, entries in errata_groups(claims):
        by.setdefault(cid, []).append((len(entries), cls))
    return "; ".join(
        f"`{cid}` (" + ", ".join(f"{k} {cls}" for k, cls in sorted(n, key=lambda x: (-x[0], x[1]))) + ")"
        for cid, n in by.items()
    )


def readme_results(doc: Mapping) -> str:
    """The README text between the results markers, short enough for a front page: counts per paper and status,
    the assertion inventory, the refuted claims by id, and the errata counted by claim and class (each entry in
    full is in the report and paper_tables/ERRATA.md)."""
    claims = doc["claims"]
    run = doc.get("run", {})
    papers = ordered({c["paper"] for c in claims}, PAPERS)
    statuses = ordered({c["status"] for c in claims}, STATUSES)
    by = Counter((c["paper"], c["status"]) for c in claims)
    mode = "quick" if run.get("quick", True) else "full (`--full`)"
    lines = [
        f"Last full run: {len(claims)} claims, {mode} scopes, seed {run.get('seed', 0)}. "
        "Generated by `reproduce.py`; do not edit between the markers.",
        "",
        "| paper | " + " | ".join(statuses) + " | total |",
        "|---|" + "---:|" * (len(statuses) + 1),
    ]
    for p in papers:
        counts = [by[p, s] for s in statuses]
        lines.append(f"| `{p}` | " + " | ".join(str(n) if n else "" for n in counts) + f" | {sum(counts)} |")
    totals = [sum(by[p, s] for p in papers) for s in statuses]
    lines.append("| **total** | " + " | ".join(f"**{n}**" for n in totals) + f" | **{sum(totals)}** |")
    lines += ["", "What each status means: the table above, and [docs/verdicts.md](docs/verdicts.md)."]
    lines += ["", *inventory_lines(doc)]
    partial = [c for c in claims if c["status"] == "partial"]
    if partial:
        lines += ["", f"Decided on part of the printed class only ({len(partial)}): {_ids(partial)}."]
    refuted = [c for c in claims if c["status"] == "refuted"]
    inside = [c for c in refuted if not refuted_only_at_an_end(c)]
    at_end = [c for c in refuted if refuted_only_at_an_end(c)]
    if inside:
        lines += ["", f"Refuted as stated, inside the printed range ({len(inside)}): {_ids(inside)}."]
    if at_end:
        ends = ", ".join(f"`{c['id']}` ({refuted_only_at_an_end(c)})" for c in at_end)
        lines += ["", f"Refuted only at an end of the printed range, of alpha or of n ({len(at_end)}): {ends}."]
    pairs = errata(doc)
    if pairs:
        in_paper_order = list({c["id"]: c for c, _ in pairs}.values())
        lines += ["", f"{errata_summary(doc)}: {errata_by_claim(in_paper_order)}."]
    else:
        lines += ["", "No errata in this run."]
    lines += [
        "",
        "Every counterexample, erratum (location, printed and correct value) and grid: "
        f"`python reproduce.py --report`, then `{REPORT_LINK}`; the errata also in "
        "[paper_tables/ERRATA.md](paper_tables/ERRATA.md), status changes with their reasons in "
        "[CHANGELOG.md](CHANGELOG.md#status-changes).",
    ]
    return "\n".join(lines)


def replace_readme_block(
    text: str, block: str, start_marker: str = README_START, end_marker: str = README_END, name: str = "README.md"
) -> str:
    start, end = text.find(start_marker), text.find(end_marker)
    if start < 0 or end < start:
        raise ReportFailed(f"{name} has no '{start_marker}' ... '{end_marker}' block to fill")
    return text[: start + len(start_marker)] + "\n" + block.strip("\n") + "\n" + text[end:]


def refresh_readme(outcomes: Sequence[object], run_info: Mapping[str, object], readme: Path = README) -> bool:
    """Rewrite README.md's results block from a full run; True when the file changed (absent README: False)."""
    from udpm.outputs.results import document

    if not readme.exists():
        return False
    return _rewrite(readme, readme_results(json.loads(document(outcomes, run_info))), README_START, README_END)


def changelog_block(doc: Mapping, baseline: Mapping | None) -> str:
    """The CHANGELOG's status changes: each claim whose status differs from the baseline's, with its reason."""
    lines = changes_lines(doc, baseline) or ["No status baseline (paper_tables/status_baseline.json) to compare with."]
    return "\n".join(
        [
            *lines,
            "",
            "Generated by `python -m udpm.outputs.readme_block changelog RESULTS.json` from a full run's "
            "results document; "
            "do not edit between the markers.",
        ]
    )


def refresh_changelog(doc: Mapping, changelog: Path = CHANGELOG, baseline: Path = BASELINE) -> bool:
    """Rewrite CHANGELOG.md's status-changes block from a full run's document; True when the file changed."""
    block = changelog_block(doc, load_baseline(baseline))
    return _rewrite(changelog, block, CHANGES_START, CHANGES_END)


def _rewrite(path: Path, block: str, start: str, end: str) -> bool:
    from udpm.internal.files import atomic_write

    text = path.read_text(encoding="utf-8")
    new = replace_readme_block(text, block, start, end, path.name)
    if new == text:
        return False
    atomic_write(path, new)
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """``changelog RESULTS.json``: 0 written or unchanged, 2 bad input (one line)."""
    import sys

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] != "changelog":
        print("usage: python -m udpm.outputs.readme_block changelog RESULTS.json", file=sys.stderr)
        return 2
    try:
        doc = json.loads(Path(args[1]).read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
            raise ValueError("not a results document (no 'claims' list)")
        if doc.get("run", {}).get("selection") or doc.get("run", {}).get("paper") or "shard" in doc:
            raise ValueError("not a full run (a selection, a paper or a shard)")
        changed = refresh_changelog(doc)
    except (OSError, ValueError, ReportFailed) as exc:
        print(f"udpm.outputs.readme_block: error: {args[1]}: {exc}", file=sys.stderr)
        return 2
    print(f"{'updated' if changed else 'unchanged'}: the status changes in {CHANGELOG.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
