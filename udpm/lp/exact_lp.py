"""Exact linear algebra for the certified LP solver: FLINT rationals, a time bound, sparse Gaussian
elimination (minimum-degree pivot order) and the standard form ``A z = b, z >= 0`` of a LinearProgram
(one slack column per inequality row; the objective split per sympy atom).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import sympy

from udpm.errors import CertificationFailed, InvalidInput, SolverTimeout
from udpm.lp.exact_signs import ONE_ATOM, split_coefficient
from udpm.lp.programs import LinearProgram

Q = flint.fmpq
ZERO = Q(0)


class Singular(CertificationFailed):
    """A proposed basis matrix is singular."""


class Unbounded(CertificationFailed):
    """The LP's objective is unbounded below (an exact improving ray was found)."""


def _q(v: object) -> flint.fmpq:
    if isinstance(v, flint.fmpq):
        return v
    f = Fraction(v) if not isinstance(v, Fraction) else v
    return Q(f.numerator, f.denominator)


def _f(v: flint.fmpq) -> Fraction:
    return Fraction(int(v.p), int(v.q))


class _Clock:
    def __init__(self, timeout_s: float):
        if not timeout_s > 0:
            raise InvalidInput(f"timeout_s must be > 0, got {timeout_s}")
        self.timeout_s = timeout_s
        self.deadline = time.perf_counter() + timeout_s

    def tick(self, what: str) -> None:
        if time.perf_counter() > self.deadline:
            raise SolverTimeout(f"certified LP solve ({what}) exceeded {self.timeout_s:g} s")


# ---------------------------------------------------------------- sparse exact elimination


def _eliminate(rows: list[dict[int, flint.fmpq]], rhs: list[list[flint.fmpq]] | None, clock: _Clock, ops=None):
    """Gaussian elimination with a minimum-degree pivot order; modifies rows/rhs in place.

    Returns the pivots [(row, col)] in order; every later row has the earlier pivot columns removed.
    ``ops``, a list, receives every row operation (q, p, f): row q -= f * row p, in order (see SparseLU).
    """
    col_rows: dict[int, set[int]] = {}
    for r, row in enumerate(rows):
        for c in row:
            col_rows.setdefault(c, set()).add(r)
    heap = [(len(rs), c) for c, rs in col_rows.items()]
    heapq.heapify(heap)
    done_cols: set[int] = set()
    pivots: list[tuple[int, int]] = []
    steps = 0
    while heap:
        deg, c = heapq.heappop(heap)
        if c in done_cols or deg != len(col_rows[c]):
            continue
        if deg == 0:
            done_cols.add(c)
            continue
        steps += 1
        if steps % 16 == 0 or len(col_rows[c]) > 64:
            clock.tick("elimination")
        p = min(col_rows[c], key=lambda r: (len(rows[r]), r))
        prow = rows[p]
        piv = prow[c]
        changed: set[int] = set()
        for q in list(col_rows[c]):
            if q == p:
                continue
            if len(prow) > 64:
                clock.tick("elimination")
            qrow = rows[q]
            f = qrow[c] / piv
            if ops is not None:
                ops.append((q, p, f))
            for k, v in prow.items():
                nv = qrow.get(k, ZERO) - f * v
                if nv == 0:
                    if k in qrow:
                        del qrow[k]
                        col_rows[k].discard(q)
                        changed.add(k)
                else:
                    if k not in qrow:
                        col_rows.setdefault(k, set()).add(q)
                        changed.add(k)
                    qrow[k] = nv
            if rhs is not None:
                rq, rp = rhs[q], rhs[p]
                for t in range(len(rq)):
                    if rp[t] != 0:
                        rq[t] = rq[t] - f * rp[t]
        for k in prow:
            col_rows[k].discard(p)
            changed.add(k)
        done_cols.add(c)
        pivots.append((p, c))
        for k in changed:
            if k not in done_cols:
                heapq.heappush(heap, (len(col_rows[k]), k))
    return pivots


def sparse_solve(rows: list[dict[int, flint.fmpq]], rhs: list[list[flint.fmpq]], nvars: int, clock: _Clock):
    """The unique solution of a square sparse system (one list of values per right-hand side)."""
    rows = [dict(r) for r in rows]
    rhs = [list(r) for r in rhs]
    pivots = _eliminate(rows, rhs, clock)
    if len(pivots) != nvars or len(rows) != nvars:
        raise Singular(f"basis matrix is singular (rank {len(pivots)} < {nvars})")
    return _back_substitute(rows, pivots, rhs, nvars, clock)


def _back_substitute(
    rows: list[dict[int, flint.fmpq]], pivots: list[tuple[int, int]], r: list[list[flint.fmpq]], nvars: int, clock
) -> list[list[flint.fmpq]]:
    """x from the eliminated rows (upper triangular in pivot order) and the eliminated right-hand sides r."""
    ncomp = len(r[0]) if r else 0
    x: dict[int, list[flint.fmpq]] = {}
    for i, (p, c) in enumerate(reversed(pivots)):
        if i % 1024 == 0:
            clock.tick("exact solve")
        row = rows[p]
        vals = r[p]
        for k, v in row.items():
            if k != c:
                xk = x[k]
                for t in range(ncomp):
                    if xk[t] != 0:
                        vals[t] = vals[t] - v * xk[t]
        piv = row[c]
        x[c] = [val / piv for val in vals]
    return [x[c] for c in range(nvars)]


class SparseLU:
    """One exact factorisation of a square sparse matrix, for any number of solves with it and its transpose.

    The elimination's row operations E_t (row q -= f row p) give M B = U with M = E_T ... E_1 and U the
    eliminated rows, upper triangular in pivot order.  B x = r: U x = M r (the operations on r, then back
    substitution).  B^T y = r: U^T w = r (forward substitution in pivot order), then y = M^T w (the
    transposed operations in reverse: w_p -= f w_q).  Raises Singular when B is singular."""

    def __init__(self, rows: list[dict[int, flint.fmpq]], nvars: int, clock: _Clock):
        self.rows = [dict(r) for r in rows]
        self.ops: list[tuple[int, int, flint.fmpq]] = []
        self.pivots = _eliminate(self.rows, None, clock, self.ops)
        self.nvars, self.clock = nvars, clock
        if len(self.pivots) != nvars or len(self.rows) != nvars:
            raise Singular(f"basis matrix is singular (rank {len(self.pivots)} < {nvars})")

    def solve(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B x = rhs (rhs[row] = one value per right-hand side); x[col]."""
        r = [list(v) for v in rhs]
        ncomp = len(r[0]) if r else 0
        for q, p, f in self.ops:
            rp = r[p]
            if any(v != 0 for v in rp):
                rq = r[q]
                for t in range(ncomp):
                    if rp[t] != 0:
                        rq[t] = rq[t] - f * rp[t]
        return _back_substitute(self.rows, self.pivots, r, self.nvars, self.clock)

    def solve_transposed(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B^T y = rhs (rhs[col] = one value per right-hand side); y[row]."""
        ncomp = len(rhs[0]) if rhs else 0
        acc = [list(v) for v in rhs]  # acc[col]: rhs minus the contributions of the pivots solved so far
        w: dict[int, list[flint.fmpq]] = {}
        for i, (p, c) in enumerate(self.pivots):
            if i % 1024 == 0:
                self.clock.tick("exact solve")
            row = self.rows[p]
            piv = row[c]
            wp = [v / piv for v in acc[c]]
            w[p] = wp
            if any(v != 0 for v in wp):
                for k, v in row.items():
                    if k != c:
                        ak = acc[k]
                        for t in range(ncomp):
                            if wp[t] != 0:
                                ak[t] = ak[t] - v * wp[t]
        y = [w[p] for p in range(self.nvars)]
        for q, p, f in reversed(self.ops):
            yq = y[q]
            if any(v != 0 for v in yq):
                yp = y[p]
                for t in range(ncomp):
                    if yq[t] != 0:
                        yp[t] = yp[t] - f * yq[t]
        return y


def sparse_rank(rows: list[dict[int, object]], clock: _Clock | None = None) -> int:
    rows_q = [{k: _q(v) for k, v in r.items() if v} for r in rows]
    return len(_eliminate(rows_q, None, clock or _Clock(3600)))


# ---------------------------------------------------------------- standard form


@dataclass
class _Std:
    lp: LinearProgram
    nx: int
    ncols: int
    m: int
    cols: list[dict[int, flint.fmpq]]  # column j -> {row: coeff}
    b: list[flint.fmpq]
    slack_of_row: list[int | None]
    atoms: list[sympy.Expr]
    c: list[dict[int, flint.fmpq]]  # per atom: {col: coeff}
    known: dict = field(default_factory=dict)  # basis (tuple) -> its exact (z, y), when already solved
    factor: tuple | None = None  # (basis tuple, SparseLU) of the last basis factored (udpm.lp.exact_simplex)


def standard_form(lp: LinearProgram, objective=None) -> _Std:
    nx = len(lp.names)
    cols: list[dict[int, flint.fmpq]] = [dict() for _ in range(nx)]
    b, slack_of_row = [], []
    for k, row in enumerate(lp.rows):
        if row.sense not in ("<=", "=", ">="):
            raise InvalidInput(f"constraint {row.name or k} has sense {row.sense!r}")
        for j, a in row.coeffs:
            if a:
                cols[j][k] = cols[j].get(k, ZERO) + _q(a)
        b.append(_q(row.rhs))
        if row.sense == "=":
            slack_of_row.append(None)
        else:
            slack_of_row.append(len(cols))
            cols.append({k: Q(1) if row.sense == "<=" else Q(-1)})
    atoms: list[sympy.Expr] = [ONE_ATOM]
    c: list[dict[int, flint.fmpq]] = [{}]
    for j, v in objective if objective is not None else lp.objective:
        for atom, q in split_coefficient(v).items():
            if atom not in atoms:
                atoms.append(atom)
                c.append({})
            t = atoms.index(atom)
            c[t][j] = c[t].get(j, ZERO) + _q(q)
    return _Std(lp, nx, len(cols), len(lp.rows), cols, b, slack_of_row, atoms, c)


def _full_point(std: _Std, x: Sequence[object]) -> list[flint.fmpq] | None:
    """Candidate x with its exact slacks; None when x has the wrong length."""
    if len(x) != std.nx:
        return None
    z = [_q(v) for v in x] + [ZERO] * (std.ncols - std.nx)
    act = [ZERO] * std.m
    for j in range(std.nx):
        if z[j] != 0:
            for k, a in std.cols[j].items():
                act[k] += a * z[j]
    for k, s in enumerate(std.slack_of_row):
        if s is not None:
            z[s] = (std.b[k] - act[k]) * std.cols[s][k]  # coefficient is +-1
    return z
