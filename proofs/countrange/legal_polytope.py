"""The vertices of zlcn2013's legal-function polytope (Definition 2 plus 0 <= phi), exactly, by its chain structure
(:func:`legal_vertices`), and the direct enumeration over every n+1 rows that cross-checks it in tests
(:func:`legal_vertices_by_subsets`).

Shared by Theorem 4's worst ratio (proofs/countrange/worst_ratio.py) and the cones of optimal consumers
(proofs/countrange/cones.py).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import flint

from proofs.countrange.alpha import internal
from proofs.countrange.legal_lp import F, fmt
from udpm.lp.countrange import definition2_rows, satisfies_rows
from udpm.lp.programs import Constraint


@functools.cache
def legal_vertices(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """Every vertex of the legal-function polytope (Definition 2 plus 0 <= phi), exactly, by its chain structure.

    Each row of Definition 2 involves phi(m), phi(m+1) only, and every edge row has non-zero coefficients on both,
    so at a vertex the variables split into maximal runs linked by tight edge rows (one line per edge: the two
    parallel lines of an edge cannot both be tight), and a run of k variables with k-1 tight edge lines is fixed
    exactly when one more row is tight in it: a bound phi = 0 or 1, or a second, non-parallel line on one of its
    edges (their intersections are (0, 0), (1, 1), (1/(1+a), a/(1+a)) and its mirror).  So the vertices are the
    concatenations of such runs (propagated from the seed through the four tight lines, in [0, 1] and feasible
    on their edge) whose junction edges are feasible; every candidate is then checked against every row exactly.
    :func:`legal_vertices_by_subsets` is the direct enumeration (every n+1 rows), the cross-check of tests."""
    a = internal(A)
    rows = definition2_rows(n, a)
    runs = {k: _runs(k, a) for k in range(1, n + 2)}
    out: set[tuple[Fraction, ...]] = set()

    def extend(prefix: tuple[Fraction, ...]) -> None:
        if len(prefix) == n + 1:
            out.add(prefix)
            return
        for k in range(1, n + 2 - len(prefix)):
            for run in runs[k]:
                if not prefix or _edge_feasible(prefix[-1], run[0], a):
                    extend(prefix + run)

    extend(())
    bad = [v for v in out if satisfies_rows(rows, v) is not None]
    if bad:  # cannot happen: every edge and bound is checked during the construction
        raise AssertionError(f"legal_vertices: {fmt(bad[0])} violates {satisfies_rows(rows, bad[0])}")
    return sorted(out)


def _tight_lines(a: Fraction):
    """phi(m+1) as a function of phi(m) on the four edge lines of Definition 2 (internal a = 1/alpha)."""
    return (lambda x: a * x, lambda x: x / a, lambda x: a * x + 1 - a, lambda x: (x - 1 + a) / a)


def _edge_feasible(x: Fraction, y: Fraction, a: Fraction) -> bool:
    return y - a * x >= 0 and x - a * y >= 0 and y - a * x <= 1 - a and x - a * y <= 1 - a


def _runs(k: int, a: Fraction) -> set[tuple[Fraction, ...]]:
    """Every point of [0,1]^k with a tight line on each of its k-1 edges and one more tight row fixing it."""
    lines = _tight_lines(a)
    back = (lambda x: x / a, lambda x: a * x, lambda x: (x - 1 + a) / a, lambda x: a * x + 1 - a)  # inverses
    h = 1 / (1 + a)
    seeds = [(p, (F(v),)) for p in range(k) for v in (0, 1)]
    seeds += [(p, pair) for p in range(k - 1) for pair in ((h, a * h), (a * h, h))]
    out: set[tuple[Fraction, ...]] = set()
    for p, seed in seeds:
        parts = [seed]
        for _ in range(p + len(seed), k):
            parts = [(*s, y) for s in parts for f in lines for y in (f(s[-1]),) if _in_box_edge(s[-1], y, a)]
        for _ in range(p):
            parts = [(y, *s) for s in parts for f in back for y in (f(s[0]),) if _in_box_edge(y, s[0], a)]
        out.update(parts)
    return out


def _in_box_edge(x: Fraction, y: Fraction, a: Fraction) -> bool:
    return 0 <= x <= 1 and 0 <= y <= 1 and _edge_feasible(x, y, a)


def legal_vertices_by_subsets(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """Every vertex of the legal-function polytope by brute force: every n+1 of its rows, solved exactly
    (python-flint's exact rational matrices: a non-zero determinant, the solution, then every row checked).
    C(6n+2, n+1) systems: the cross-check of :func:`legal_vertices` for small n."""
    rows = definition2_rows(n, internal(A)) + [Constraint(((m, F(1)),), ">=", F(0), "") for m in range(n + 1)]
    dense = [[F(0)] * (n + 1) for _ in rows]
    for r, row in enumerate(rows):
        for i, cf in row.coeffs:
            dense[r][i] = cf
    every = flint.fmpq_mat([[fmpq_of(v) for v in r] for r in dense])
    rhs = [fmpq_of(row.rhs) for row in rows]
    out = set()
    for subset in itertools.combinations(range(len(rows)), n + 1):
        mat = flint.fmpq_mat([[fmpq_of(v) for v in dense[k]] for k in subset])
        if mat.det() == 0:
            continue
        x = mat.solve(flint.fmpq_mat([[rhs[k]] for k in subset]))
        act = every * x
        if all(
            {"<=": act[k, 0] <= rhs[k], ">=": act[k, 0] >= rhs[k], "=": act[k, 0] == rhs[k]}[row.sense]
            for k, row in enumerate(rows)
        ) and all(x[i, 0] >= 0 for i in range(n + 1)):
            out.add(tuple(F(int(x[i, 0].p), int(x[i, 0].q)) for i in range(n + 1)))
    return sorted(out)


def fmpq_of(v: Fraction) -> flint.fmpq:
    return flint.fmpq(v.numerator, v.denominator)
