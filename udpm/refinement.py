"""Iterative refinement of HiGHS's optimal basis (placeholder)."""

from __future__ import annotations

from .exact_lp import _Std


def refined_basis(std: _Std, timeout_s: float) -> list[int] | None:
    import highspy
    import numpy as np

    h = highspy.Highs()
    h.silent()
    h.setOptionValue("time_limit", float(timeout_s))
    h.setOptionValue("presolve", "off")
    cost = np.zeros(std.nx)
    for t, atom in enumerate(std.atoms):
        av = float(atom)
        for j, v in std.c[t].items():
            cost[j] += float(v) * av
    h.addCols(
        std.nx,
        cost,
        np.zeros(std.nx),
        np.full(std.nx, highspy.kHighsInf),
        0,
        np.zeros(0, dtype=np.int32),
        np.zeros(0, dtype=np.int32),
        np.zeros(0),
    )
    starts, idx, val, lo, hi = [], [], [], [], []
    row_entries: list[list[tuple[int, float]]] = [[] for _ in range(std.m)]
    for j in range(std.nx):
        for k, a in std.cols[j].items():
            row_entries[k].append((j, float(a)))
    for k, row in enumerate(std.lp.rows):
        starts.append(len(idx))
        for j, a in row_entries[k]:
            idx.append(j)
            val.append(a)
        bk = float(std.b[k])
        lo.append(bk if row.sense in ("=", ">=") else -highspy.kHighsInf)
        hi.append(bk if row.sense in ("=", "<=") else highspy.kHighsInf)
    h.addRows(
        std.m,
        np.array(lo),
        np.array(hi),
        len(idx),
        np.array(starts, dtype=np.int32),
        np.array(idx, dtype=np.int32),
        np.array(val),
    )
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    basis = h.getBasis()
    basic = highspy.HighsBasisStatus.kBasic
    col_status, row_status = list(basis.col_status), list(basis.row_status)  # one conversion each, not per index
    chosen = [j for j in range(std.nx) if col_status[j] == basic]
    chosen += [std.slack_of_row[k] for k in range(std.m) if row_status[k] == basic and std.slack_of_row[k] is not None]
    return chosen


