"""The polytope (4)-(7) of alpha-DP mechanisms on 0..n, exactly (grs2011 Section 5.2, Lemmas 5.7-5.10): the
rows binding at a mechanism, the vertex test (their rank is (n+1)^2, FLINT), a vertex of the minimal face
through a point (:func:`purify`), and the cuts that exclude a non-vertex model and only non-vertices
(:func:`vertex_cuts`: for each vector d of a basis of the null space of x's binding rows, some constraint c
with c.d != 0 must bind).  Used by the signature searches (proofs/signatures/encoding.py) and by the remaps of
T (proofs/signatures/vertex_remaps.py).
"""

from __future__ import annotations

from fractions import Fraction

import z3

from udpm.core import linalg

F = Fraction


def inequality_rows(n: int, a: Fraction) -> list[list[Fraction]]:
    """Coefficient rows of the inequalities (7), (4), (5), in the order of Encoding.binding_terms."""
    size = (n + 1) ** 2

    def unit(pairs):
        row = [F(0)] * size
        for (i, j), v in pairs:
            row[i * (n + 1) + j] += v
        return row

    rows = [unit([((i, j), F(1))]) for i in range(n + 1) for j in range(n + 1)]
    for i in range(n):
        for j in range(n + 1):
            rows.append(unit([((i, j), F(1)), ((i + 1, j), -a)]))
            rows.append(unit([((i + 1, j), F(1)), ((i, j), -a)]))
    return rows


def row_sum_rows(n: int) -> list[list[Fraction]]:
    size = (n + 1) ** 2
    return [[F(1) if k // (n + 1) == i else F(0) for k in range(size)] for i in range(n + 1)]


def _flat(x: list[list[Fraction]]) -> list[Fraction]:
    return [v for r in x for v in r]


def binds(x: list[list[Fraction]], a: Fraction) -> list[bool]:
    """Which inequalities bind at x (order of inequality_rows)."""
    n, v = len(x) - 1, _flat(x)
    return [sum((c * w for c, w in zip(row, v) if c), F(0)) == 0 for row in inequality_rows(n, a)]


def binding_rows(x: list[list[Fraction]], a: Fraction) -> list[list[Fraction]]:
    """Coefficient rows (over the (n+1)^2 variables, row-major) of every constraint binding at x."""
    n = len(x) - 1
    return row_sum_rows(n) + [r for r, b in zip(inequality_rows(n, a), binds(x, a)) if b]


def is_vertex(x: list[list[Fraction]], a: Fraction) -> bool:
    return linalg.rank(binding_rows(x, a)) == (len(x)) ** 2


def null_basis(rows: list[list[Fraction]], size: int) -> list[list[Fraction]]:
    """A basis of {d : r.d = 0 for every row r}, from the reduced row echelon form (sparse vectors)."""
    if not rows:
        return [[F(int(k == m)) for k in range(size)] for m in range(size)]
    red, rank = linalg.to_flint(rows).rref()
    m = linalg.from_flint(red)[:rank]
    pivots = [next(k for k, v in enumerate(r) if v != 0) for r in m]
    basis = []
    for free in (k for k in range(size) if k not in pivots):
        d = [F(0)] * size
        d[free] = F(1)
        for r, p in zip(m, pivots):
            d[p] = -r[free]
        basis.append(d)
    return basis


def purify(x: list[list[Fraction]], a: Fraction) -> list[list[Fraction]]:
    """A vertex of the minimal face containing x, reached exactly by moving along null directions of the binding
    rows until one more constraint binds.  If x is optimal, the whole face is, and x's dual certificate certifies
    the result (its binding set contains x's and its support lies in x's)."""
    n = len(x) - 1
    size = (n + 1) ** 2
    ineq = inequality_rows(n, a)
    v = _flat(x)
    while True:
        basis = null_basis(row_sum_rows(n) + [r for r, b in zip(ineq, binds(_unflat(v, n), a)) if b], size)
        if not basis:
            return _unflat(v, n)
        d = basis[0]
        # step t > 0 along d (or -d) to the first inequality that becomes tight; the polytope is bounded.
        for sign in (1, -1):
            steps = []
            for row in ineq:
                rd = sign * sum((c * w for c, w in zip(row, d) if c), F(0))
                if rd < 0:
                    steps.append(sum((c * w for c, w in zip(row, v) if c), F(0)) / -rd)
            if steps:
                t = min(steps)
                v = [w + sign * t * dd for w, dd in zip(v, d)]
                break


def _unflat(v: list[Fraction], n: int) -> list[list[Fraction]]:
    return [v[i * (n + 1) : (i + 1) * (n + 1)] for i in range(n + 1)]


def vertex_cuts(x: list[list[Fraction]], a: Fraction, terms: list) -> list:
    """Clauses that exclude x and only non-vertices (module docstring): per null direction d of x's binding rows,
    some inequality c with c.d != 0 binds."""
    n = len(x) - 1
    ineq = inequality_rows(n, a)
    basis = null_basis(binding_rows(x, a), (n + 1) ** 2)
    cuts = []
    for d in basis:
        moved = [t for t, row in zip(terms, ineq) if sum((c * w for c, w in zip(row, d) if c), F(0)) != 0]
        cuts.append(z3.Or(moved))
    return cuts
