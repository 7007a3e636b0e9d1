"""grs2011 (journal version): regenerate each printed table and example and diff it.

Each function recomputes one item exactly from its definition and compares it
with the verbatim transcription in paper_tables/printed/grs2011.json.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from udpm import linalg
from udpm.claims import Context, Result, Scope, checks
from udpm.mechanisms import geometric_window, truncated_geometric
from udpm.signatures import render, signature
from udpm.tables import printed, table_result

HALF = Fraction(1, 2)


@checks("grs2011.fig1a")
def figure_1a(ctx: Context, window: Callable = geometric_window) -> Result:
    """grs2011 Figure 1(a): the 1/2-geometric mechanism, n = 5, outputs -1..6."""
    m = window(5, HALF, -1, 6)
    return table_result(printed("grs2011", "fig1a"), m, {"X": linalg.fmt_matrix(m)}, Scope.of(5, [HALF]))


@checks("grs2011.fig1b")
def figure_1b(ctx: Context, mechanism: Callable = truncated_geometric) -> Result:
    """grs2011 Figure 1(b): the truncated 1/2-geometric mechanism, n = 5."""
    m = mechanism(5, HALF)
    return table_result(printed("grs2011", "fig1b"), m, {"T": linalg.fmt_matrix(m)}, Scope.of(5, [HALF]))


@checks("grs2011.fig4")
def figure_4(ctx: Context, mechanism: Callable = truncated_geometric) -> Result:
    """grs2011 Figure 4: the signature of the truncated 1/2-geometric mechanism, n = 5."""
    sig = signature(mechanism(5, HALF), HALF)
    return table_result(printed("grs2011", "fig4"), sig, {"signature": render(sig).replace("\n", "/")}, Scope.of(5, [HALF]))
