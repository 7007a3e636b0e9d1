"""The report's figures: the regenerated PNGs next to the papers' printed values, and matplotlib figures
inlined as base64 PNGs.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

# ----------------------------------------------------------------------------------------------------------------------
# Figures: the regenerated PNGs next to the printed values
from udpm.report.document import TIMING_END, TIMING_START, badge, claim_link, esc, html_table, value_html

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
        body = html_table(
            [""] + [str(j) for j in range(width)],
            ([str(i), *(f"<code>{esc(x)}</code>" for x in r)] for i, r in enumerate(vals)),
            cls="printed",
        )
    elif isinstance(vals, list):
        body = html_table([str(j) for j in range(len(vals))], [[f"<code>{esc(x)}</code>" for x in vals]], cls="printed")
    else:
        body = value_html(vals, 1500)
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
