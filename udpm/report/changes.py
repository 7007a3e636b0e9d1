"""The report's status changes: each claim of the run whose status differs from the status baseline
(``paper_tables/status_baseline.json``: a label, the statuses, and why each one changed).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

# ----------------------------------------------------------------------------------------------------------------------
# Status changes since the baseline (paper_tables/status_baseline.json)
from udpm.report.document import BASELINE, NO_REASON, ReportFailed, badge, claim_link, esc, html_table, plural


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


def coverage_reason(claim: Mapping) -> str:
    """The reason a claim's coverage of its printed class gives for its status: the parts left undecided, or the
    parts decided only by a weaker kind of evidence than the rest ('' when every part is decided alike).

    >>> coverage_reason({"coverage": {"parts": [{"part": "alpha in (0, 1)", "decided": "all-n"},
    ...     {"part": "alpha = 1 (an end of the printed [0, 1])", "decided": None}], "undecided": ["alpha = 1 ..."]}})
    'printed class read as printed; undecided: alpha = 1 ...'
    """
    cov = claim.get("coverage") or {}
    if cov.get("undecided"):
        return "printed class read as printed; undecided: " + "; ".join(cov["undecided"])
    kinds = ("all-n", "bounded", "sampled", "table")
    parts = [p for p in cov.get("parts", []) if p["decided"] in kinds]
    if not parts:
        return ""
    weakest = max(kinds.index(p["decided"]) for p in parts)
    strongest = min(kinds.index(p["decided"]) for p in parts)
    if weakest == strongest:
        return ""
    weak = [p["part"] for p in parts if kinds.index(p["decided"]) == weakest]
    return f"printed class read as printed; decided only by {kinds[weakest]} evidence: " + "; ".join(weak)


def _derived_reason(claim: Mapping, known: bool) -> str:
    """What the record itself says about a change: a new claim's place and statement (and what refutes it), or
    its coverage of the printed class."""
    if not known:
        if not claim.get("where") and not claim.get("statement"):
            return ""
        added = f"adds: {claim['hypothesis']}" if claim.get("hypothesis") else "new"
        why = f"{added} ({claim.get('where', '')}: {claim.get('statement', '')})"
        if claim.get("status") == "refuted" and claim.get("counterexample"):
            why += f"; counterexample: {claim['counterexample']}"
        return why
    if claim.get("status") == "refuted" and claim.get("counterexample"):
        return f"refuted as printed: {claim['counterexample']}"
    return coverage_reason(claim) or record_reason(claim)


def record_reason(claim: Mapping) -> str:
    """What else the record says of its status: the claim that caps it, a printed value that differs, where its
    all-n arguments start, or every part decided by an all-n argument.

    >>> record_reason({"status": "verified", "capped_by": "x.lemma"})
    'capped by x.lemma, which it rests on'
    >>> record_reason({"status": "verified", "evidence": "bounded", "decisions": [{"kind": "all-n", "n": None,
    ...     "outcome": "holds"}], "coverage": {"parts": [{"part": "alpha in (0, 1)", "decided": "bounded"}]}})
    'its all-n arguments start at n = 1, after the smallest printed n: decided by bounded evidence there'
    """
    if claim.get("capped_by"):
        return f"capped by {claim['capped_by']}, which it rests on"
    errata = claim.get("errata") or []
    if claim.get("status") == "erratum" and errata:
        classes = sorted({e["cls"] for e in errata})
        return f"{len(errata)} printed value(s) differ ({', '.join(classes)}), e.g. {errata[0]['entry']}"
    all_n = [d for d in claim.get("decisions") or [] if d.get("kind") == "all-n" and d.get("n") is None]
    holding = [d for d in all_n if d.get("outcome") == "holds"]
    if holding and claim.get("evidence") != "all-n":
        first = min(d.get("n_from", 1) for d in holding)
        return (
            f"its all-n arguments start at n = {first}, after the smallest printed n: decided by "
            f"{claim.get('evidence')} evidence there"
        )
    parts = (claim.get("coverage") or {}).get("parts") or []
    if claim.get("status") == "proved" and parts and all(p["decided"] == "all-n" for p in parts):
        return "every part of the printed class decided by an all-n argument: " + "; ".join(p["part"] for p in parts)
    return ""


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
            "why": reasons.get(c["id"]) or _derived_reason(c, c["id"] in before) or NO_REASON,
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
    return f"<p>{plural(len(changes), 'claim')} changed status since {label} ({tally}).</p>" + html_table(
        ["claim", "before", "now", "why"], rows, id="changes-table"
    )
