"""Data for the report's plots and tables of reach and timings, read from the results document (nothing
recomputed): the Laplace factor curve, the largest bounded n per claim and lemma family, and the check times
(fenced as run-dependent by :data:`udpm.report.document.TIMING_START` / ``TIMING_END``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

# ----------------------------------------------------------------------------------------------------------------------
# Data for the plots (read from the results document, nothing recomputed)
from udpm.report.document import TIMING_END, TIMING_START, bounded_n_max, claim_link, esc, html_table


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
    return html_table(
        ["family", "smallest bounded n", "largest bounded n", "claims (largest bounded n)"],
        table,
        id="reach-table",
        num=(1, 2),
    )


def timings(doc: Mapping) -> list[tuple[str, float]]:
    """(claim id, wall-clock seconds) in run order, from the document's top-level "seconds"."""
    seconds = doc.get("seconds") or {}
    return [(c["id"], float(seconds.get(c["id"]) or 0.0)) for c in doc["claims"]]


def timing_table_html(doc: Mapping, top: int = 10) -> str:
    rows = sorted(timings(doc), key=lambda t: -t[1])[:top]
    total = sum(t for _, t in timings(doc))
    body = html_table(["claim", "seconds"], ([claim_link(c), f"{t:.2f}"] for c, t in rows), num=(1,))
    return f"{TIMING_START}<p>Total check time {total:.1f} s; the {len(rows)} slowest claims:</p>{body}{TIMING_END}"
