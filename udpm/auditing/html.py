"""The HTML page of an audit: one self-contained file (no script, no external resource).

It opens with the verdict line, then the evidence as text (each exact number with its decimal), then
pictures: the mechanism beside T(n, alpha) as heat maps (blocks averaged past 120 rows or columns), the
adjacent-row privacy ratios against the bound alpha with the binding pair marked, and each user's loss
against its certified optimum.
"""

from __future__ import annotations

import html
import math
from fractions import Fraction

import sympy

from udpm.auditing.readable import decimal

CELLS = 120  # at most this many blocks per side in a heat map


def _blocks(m: list[list[Fraction]]) -> list[list[float]]:
    rows, cols = len(m), len(m[0])
    br, bc = math.ceil(rows / CELLS), math.ceil(cols / CELLS)
    out = []
    for i in range(0, rows, br):
        row = []
        for j in range(0, cols, bc):
            vals = [float(m[a][b]) for a in range(i, min(rows, i + br)) for b in range(j, min(cols, j + bc))]
            row.append(sum(vals) / len(vals))
        out.append(row)
    return out


def heat_map(m: list[list[Fraction]], title: str) -> str:
    """An SVG heat map of a stochastic matrix, on a log scale (probabilities span many orders of magnitude)."""
    b = _blocks(m)
    logs = [math.log10(v) for r in b for v in r if v > 0]
    lo = min(logs) if logs else 0.0
    size = 4 if len(b) > 60 else 12
    rects = []
    for i, r in enumerate(b):
        for j, v in enumerate(r):
            t = 0.0 if v <= 0 else (math.log10(v) - lo) / (-lo or 1.0)
            shade = int(255 * (1 - max(0.0, min(1.0, t))))
            rects.append(
                f'<rect x="{j * size}" y="{i * size}" width="{size}" height="{size}" fill="rgb({shade},{shade},255)"/>'
            )
    w, h = len(b[0]) * size, len(b) * size
    note = "" if len(m) <= CELLS and len(m[0]) <= CELLS else " (block means)"
    return (
        f"<figure><svg width='{w}' height='{h}' role='img' "
        f"aria-label='{html.escape(title)}'>{''.join(rects)}</svg><figcaption>{html.escape(title)}{note}; "
        f"log scale, white = 10^{lo:.0f} or 0, blue = 1</figcaption></figure>"
    )


def ratio_chart(m: list[list[object]], alpha: Fraction | float, binding: tuple[int, int] | None) -> str:
    """For each adjacent pair (i, i+1): the smallest ratio min(p, q)/max(p, q) over outputs, against alpha."""
    mins = []
    for i in range(len(m) - 1):
        best = 1.0
        for p, q in zip(m[i], m[i + 1]):
            if p != q:
                lo, hi = (p, q) if p < q else (q, p)
                best = min(best, float(lo) / float(hi) if isinstance(lo, float) else float(lo / hi))
        mins.append(best)
    width, height = max(200, 3 * len(mins)), 120
    step = width / max(1, len(mins))
    bars = []
    for i, v in enumerate(mins):
        colour = "#a00" if v < float(alpha) else "#4a4"
        if binding is not None and binding[0] == i:
            colour = "#000"
        bars.append(
            f'<rect x="{i * step:.1f}" y="{height * (1 - v):.1f}" width="{max(1.0, step - 1):.1f}" '
            f'height="{height * v:.1f}" fill="{colour}"/>'
        )
    y = height * (1 - float(alpha))
    bars.append(f'<line x1="0" x2="{width}" y1="{y:.1f}" y2="{y:.1f}" stroke="#00f" stroke-dasharray="4"/>')
    return (
        f"<figure><svg width='{width}' height='{height}' role='img' "
        f"aria-label='privacy ratios'>{''.join(bars)}</svg><figcaption>smallest ratio of rows i, i+1 per pair "
        f"(bars, 0 to 1), the bound alpha = {html.escape(decimal(Fraction(alpha)))} (dashed); the binding pair in "
        "black, a pair below the bound in red</figcaption></figure>"
    )


def render(report: object) -> str:
    """The report as one self-contained HTML page."""
    e = html.escape
    u = report.universality
    ok = bool(report.privacy) and bool(u)
    parts = [
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>udpm audit</title><style>"
        "body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto}"
        "table.m td{border:1px solid #ccc;padding:2px 6px;font-family:monospace}"
        "figure{display:inline-block;margin:1em}.ok{color:#060}.no{color:#a00}pre{white-space:pre-wrap}"
        "</style></head><body>",
        f"<h1 class={'ok' if ok else 'no'}>{e(report.headline)}</h1>",
        f"<p>udpm audit: n = {report.n}, alpha = {e(report.alpha_text)} ({e(report.alpha_given)}); "
        f"{e(str(report.conversion))}</p>",
        "<pre>" + e("\n".join(line.strip() for line in report.evidence_lines())) + "</pre>",
    ]
    if report.library is not None:
        from udpm.auditing.adapters.registry import conformance_of

        lib = report.library
        parts.append(
            f"<p>library: {e(lib.library)} {e(lib.name)} {e(str(lib.params))}; transcribed from {e(lib.source)}; "
            f"conformance test: {e(conformance_of(lib))}</p>"
        )
    x, note = report.mechanism, ""
    if x is None and report.library is not None:  # an irrational ratio: the pictures in floating point
        x = report.library.family(float(sympy.N(report.library.alpha, 20)))
        note = " (drawn in floating point; every verdict above is exact)"
    if x is not None:
        from udpm.core.mechanisms import fast_truncated_geometric

        parts.append(f"<h2>the mechanism beside T(n, alpha){e(note)}</h2>")
        parts.append(heat_map(x, "M"))
        if isinstance(report.alpha, Fraction):
            t = fast_truncated_geometric(report.n, report.alpha)
            parts.append(heat_map(t, f"T({report.n}, {report.alpha_text})"))
        lv = report.level
        bound = report.alpha if isinstance(report.alpha, Fraction) else float(sympy.N(report.alpha, 20))
        parts.append("<h2>privacy ratios of adjacent rows</h2>")
        parts.append(ratio_chart(x, bound, None if lv is None else lv.pair))
    rows = [r for r in report.users if r.optimum is not None and isinstance(r.mechanism_loss, Fraction)]
    if rows:
        parts.append("<h2>each user's loss against the certified optimum</h2><table class=m>")
        parts.append("<tr><td>user</td><td>M's loss</td><td>optimum</td><td>gap</td><td>bar</td></tr>")
        top = max(float(r.mechanism_loss) for r in rows) or 1.0
        for r in rows:
            bar = (
                f"<svg width='200' height='14'>"
                f"<rect width='{200 * float(r.mechanism_loss) / top:.1f}' height='6' fill='#a00'/>"
                f"<rect y='7' width='{200 * float(r.optimum.loss) / top:.1f}' height='6' fill='#060'/></svg>"
            )
            parts.append(
                f"<tr><td>{e(r.label)}</td><td>{e(decimal(r.mechanism_loss))}</td><td>{e(decimal(r.optimum.loss))}</td>"
                f"<td>{e(r.readable_verdict())}</td><td>{bar}</td></tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


__all__ = ["heat_map", "ratio_chart", "render"]
