"""The errata of a run: every printed value that differs from its exact recomputation, counted and tabulated."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from udpm.report.document import PAPERS, claim_link, esc, html_table, plural, value_html


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
    has = "no claim has" if not status else f"{plural(status, 'claim')} {'has' if status == 1 else 'have'}"
    claims = sum(k > 0 for k in per_claim)
    return f"{plural(sum(per_claim), 'erratum', 'errata')} in {plural(claims, 'claim')}; {has} status erratum"


def errata_html(doc: Mapping) -> str:
    pairs = errata(doc)
    if not pairs:
        return '<p class="note">No errata in this run: every checked printed value equals its exact recomputation.</p>'
    rows = (
        [
            claim_link(c["id"]),
            esc(location(c, e)),
            value_html(e["printed"], 200),
            value_html(e["correct"], 200),
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
    return head + html_table(
        ["claim", "location", "printed", "correct (exact)", "class", "explanation"], rows, id="errata-table"
    )


def location(claim: Mapping, erratum: Mapping) -> str:
    """The erratum's entry, prefixed with the claim's place in the paper when the entry is only an index like [0][2]."""
    entry = str(erratum.get("entry", ""))
    return f"{claim.get('where', '')} {entry}".strip() if not entry or entry.startswith("[") else entry


def errata_groups(claims: Sequence[Mapping]) -> list[tuple[str, str, list[Mapping]]]:
    """(claim id, class, entries) in run order, classes in order of first appearance within a claim."""
    groups: dict[tuple[str, str], list[Mapping]] = {}
    for c in claims:
        for e in c.get("errata") or []:
            groups.setdefault((c["id"], e["cls"]), []).append(e)
    return [(cid, cls, entries) for (cid, cls), entries in groups.items()]
