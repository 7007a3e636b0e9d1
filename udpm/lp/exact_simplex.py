"""The exact simplex repair: a basis factored exactly, the exact primal simplex (Bland's rule), the exact
dual simplex (from a dual-feasible basis, e.g. HiGHS's whose x_B is off by its tolerance), basis completion
and the exact two-phase simplex from scratch.  Every step is exact FLINT rational arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import sympy

from udpm.errors import CertificationFailed
from udpm.lp.exact_lp import ZERO, Q, Singular, SparseLU, Unbounded, _Clock, _f, _Std
from udpm.lp.exact_signs import ONE_ATOM, sign_of


class _Basis:
    def __init__(self, std: _Std, basis: list[int], clock: _Clock):
        self.std, self.basis, self.clock = std, list(basis), clock
        if len(basis) != std.m or len(set(basis)) != std.m:
            raise Singular(f"a basis needs {std.m} distinct columns, got {len(set(basis))}")

    def lu(self) -> SparseLU:
        """The exact factorisation of B (one per basis: kept on std for the last basis factored)."""
        std, key = self.std, tuple(self.basis)
        if std.factor is not None and std.factor[0] == key:
            std.factor[1].clock = self.clock
            return std.factor[1]
        rows: list[dict[int, flint.fmpq]] = [dict() for _ in range(std.m)]
        for pos, j in enumerate(self.basis):
            for k, a in std.cols[j].items():
                rows[k][pos] = a
        lu = SparseLU(rows, std.m, self.clock)
        std.factor = (key, lu)
        return lu

    def _solve(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B w = rhs (B's basic columns as sparse rows: entry [k][pos] = a_(k, basis[pos]))."""
        return self.lu().solve(rhs)

    def solve_transposed(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B^T v = rhs (row pos of B^T is basic column basis[pos])."""
        return self.lu().solve_transposed(rhs)

    def primal(self) -> list[flint.fmpq]:
        std = self.std
        if tuple(self.basis) in std.known:
            return list(std.known[tuple(self.basis)][0])
        sol = self._solve([[v] for v in std.b])
        z = [ZERO] * std.ncols
        for pos, j in enumerate(self.basis):
            z[j] = sol[pos][0]
        return z

    def dual(self) -> list[list[flint.fmpq]]:
        """y per row, as a list of per-atom components."""
        std = self.std
        if tuple(self.basis) in std.known:
            return [list(v) for v in std.known[tuple(self.basis)][1]]
        return self.solve_transposed([[std.c[t].get(j, ZERO) for t in range(len(std.atoms))] for j in self.basis])

    def reduced(self, y: list[list[flint.fmpq]], j: int) -> dict[sympy.Expr, Fraction]:
        std = self.std
        out = {}
        for t, atom in enumerate(std.atoms):
            d = std.c[t].get(j, ZERO)
            for k, a in std.cols[j].items():
                if y[k][t] != 0:
                    d -= a * y[k][t]
            if d != 0:
                out[atom] = _f(d)
        return out

    def reduced_sign(self, y: list[list[flint.fmpq]], j: int) -> int:
        """sign_of(self.reduced(y, j)), in FLINT rationals when the objective is rational (no Fractions)."""
        std = self.std
        if len(std.atoms) != 1:
            return sign_of(self.reduced(y, j))
        d = std.c[0].get(j, ZERO)
        for k, a in std.cols[j].items():
            yk = y[k][0]
            if yk != 0:
                d -= a * yk
        return (d > 0) - (d < 0)

    def direction(self, j: int) -> list[flint.fmpq]:
        std = self.std
        return [v[0] for v in self._solve([[std.cols[j].get(k, ZERO)] for k in range(std.m)])]


def _iterate(std: _Std, basis: list[int], clock: _Clock, what: str):
    """One simplex iteration's start: the basis factored, its primal z and dual y, and the basic set."""
    clock.tick(what)
    B = _Basis(std, basis, clock)
    return B, B.primal(), B.dual(), set(basis)


def _dual_simplex(std: _Std, basis: list[int], clock: _Clock):
    """Exact dual simplex from a dual-feasible basis (e.g. HiGHS's, whose x_B is off by its tolerance).

    Leaving: the basic variable with the smallest column index among the negative ones; entering: the minimum
    ratio d_j / -alpha_rj over alpha_rj < 0, ties to the smallest j (Bland's rule for the dual, so it terminates).
    Returns (basis, z, y, pivots); raises CertificationFailed when the basis is not dual feasible."""
    pivots = 0
    while True:
        B, z, y, in_basis = _iterate(std, basis, clock, "exact dual simplex")
        reduced = {j: B.reduced(y, j) for j in range(std.ncols) if j not in in_basis}
        if any(sign_of(d) < 0 for d in reduced.values()):
            raise CertificationFailed("basis is not dual feasible")
        negative = [(bj, pos) for pos, bj in enumerate(basis) if z[bj] < 0]
        if not negative:
            return basis, z, y, pivots
        _, pos = min(negative)
        rho = [v[0] for v in B.solve_transposed([[Q(int(i == pos))] for i in range(std.m)])]
        best = None
        for j, d in reduced.items():
            a_rj = sum((a * rho[k] for k, a in std.cols[j].items()), ZERO)
            if a_rj < 0:
                ratio = {atom: q / _f(-a_rj) for atom, q in d.items()}
                if (
                    best is None
                    or sign_of(
                        {
                            **{
                                t: ratio.get(t, Fraction(0)) - best[0].get(t, Fraction(0))
                                for t in set(ratio) | set(best[0])
                            }
                        }
                    )
                    < 0
                ):
                    best = (ratio, j)
        if best is None:
            raise CertificationFailed("the LP is infeasible (dual ray)")
        basis = list(basis)
        basis[pos] = best[1]
        pivots += 1


def _simplex(std: _Std, basis: list[int], clock: _Clock, forbidden: set[int] = frozenset(), zero_pinned=frozenset()):
    """Exact primal simplex with Bland's rule from a primal-feasible basis.

    ``forbidden`` columns never enter; basic ``zero_pinned`` columns (artificials) block every
    step in which they would move.  Returns (basis, z, y, pivots)."""
    pivots = 0
    while True:
        B, z, y, in_basis = _iterate(std, basis, clock, "exact simplex")
        entering = None
        for j in range(std.ncols):
            if j in in_basis or j in forbidden:
                continue
            if sign_of(B.reduced(y, j)) < 0:
                entering = j
                break
        if entering is None:
            return basis, z, y, pivots
        w = B.direction(entering)
        best = None
        for pos, bj in enumerate(basis):
            if bj in zero_pinned and w[pos] != 0:
                ratio = ZERO
            elif w[pos] > 0:
                ratio = z[bj] / w[pos]
            else:
                continue
            key = (ratio, bj)
            if best is None or key < best[0]:
                best = (key, pos)
        if best is None:
            raise Unbounded("the LP is unbounded below")
        basis = list(basis)
        basis[best[1]] = entering
        pivots += 1


def _complete_basis(std: _Std, support: list[int], clock: _Clock) -> list[int]:
    """Extend independent columns ``support`` to a basis (slacks preferred, then other columns)."""
    chosen: list[int] = []
    reduced: dict[int, dict[int, flint.fmpq]] = {}  # pivot row -> reduced vector with that leading row

    def try_add(j: int) -> bool:
        v = dict(std.cols[j])
        while v:
            clock.tick("basis completion")
            lead = min(v)
            if lead in reduced:
                r = reduced[lead]
                f = v[lead] / r[lead]
                for k, a in r.items():
                    nv = v.get(k, ZERO) - f * a
                    if nv == 0:
                        v.pop(k, None)
                    else:
                        v[k] = nv
            else:
                reduced[lead] = v
                chosen.append(j)
                return True
        return False

    for j in support:
        if not try_add(j):
            raise Singular("the candidate's support columns are linearly dependent: not a vertex")
    order = [s for s in std.slack_of_row if s is not None] + list(range(std.nx))
    for j in order:
        if len(chosen) == std.m:
            break
        if j not in chosen:
            clock.tick("basis completion")
            try_add(j)
    if len(chosen) != std.m:
        raise Singular("the constraint matrix has dependent rows; no basis exists")
    return chosen


def _two_phase(std: _Std, clock: _Clock):
    """Exact two-phase simplex from scratch (the fallback when no proposed basis is feasible)."""
    # Phase 1 on an extended copy: artificial a_k with sign of b_k, minimise their sum.
    cols = [dict(c) for c in std.cols]
    arts = []
    for k in range(std.m):
        arts.append(len(cols))
        cols.append({k: Q(1) if std.b[k] >= 0 else Q(-1)})
    c1 = [{a: Q(1) for a in arts}]
    ph1 = _Std(std.lp, std.nx, len(cols), std.m, cols, std.b, std.slack_of_row, [ONE_ATOM], c1)
    basis, z, _, p1 = _simplex(ph1, arts, clock)
    if any(z[a] != 0 for a in arts):
        raise CertificationFailed("the LP is infeasible")
    ph2 = _Std(std.lp, std.nx, len(cols), std.m, cols, std.b, std.slack_of_row, std.atoms, std.c)
    basis, z, y, p2 = _simplex(ph2, basis, clock, forbidden=set(arts), zero_pinned=set(arts))
    return basis, z[: std.ncols], y, p1 + p2
