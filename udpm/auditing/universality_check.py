"""Is T(n, alpha) a remap of M?  Decided exactly, cheapest certificate first, within a time budget.

grs2011 Theorem 3.2: an alpha-DP mechanism M is universally optimal iff M·Y = T(n, alpha) for a
row-stochastic Y.  :func:`decide_remap` answers "does such a Y exist?" with one exact certificate:

* **yes**: Y itself, checked by exact multiplication (M·Y = T, Y >= 0, rows summing to 1).  Tried
  first: M = T (Y = I); every column of M a positive multiple of a column of T (Y merges them:
  the lumped and the split geometric, permutations); a square invertible M (Y = M^-1 T).
* **no**:
  - a square invertible M whose only candidate Y = M^-1 T has a negative entry Y[r][j]: column j
    alone is solved exactly (M y = t_j); floats only say which column to solve;
  - rank(M) < n + 1: a vector z with z·M = 0 and z·T != 0 (z·M·Y = z·T for any Y);
  - otherwise the certified phase-1 LP (:func:`udpm.auditing.optimum.remap_lp`): sum |M·Y - T| > 0 for
    every stochastic Y.

Large exact solves run in a child process killed at the budget (:func:`udpm.auditing.time_budget.run_within`).

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> t = truncated_geometric(2, F(1, 2))
>>> decide_remap(t, t).method
'equal'
>>> rr = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)]]
>>> v = decide_remap(rr, t); v.remap is None, v.method, v.negative
(True, 'negative entry', (0, 2, Fraction(-1, 2)))
>>> decide_remap([[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]], t).proof
'rank(M) <= 2 < 3 = rank T(2, ·): M has 2 outputs'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint

from udpm.auditing.optimum import remap_lp
from udpm.auditing.readable import readable
from udpm.auditing.time_budget import Budget, bounded, run_within
from udpm.core import linalg
from udpm.core.validate import Matrix
from udpm.errors import SolverTimeout

#: Matrices up to this many rows are solved exactly in this process (milliseconds).
SMALL = 64
#: Bound on the certified LP when the budget is unbounded (every solver call has a bound).
LP_CAP = 60.0
#: Negative-entry candidates proposed by floats that are solved exactly before the full solve.
CANDIDATES = 3


@dataclass(frozen=True)
class RemapDecision:
    """The answer to "M·Y = T for a stochastic Y?" and its exact certificate."""

    remap: Matrix | None
    proof: str
    method: str  # equal | proportional columns | inverse | negative entry | rank | certified LP
    negative: tuple[int, int, Fraction] | None = None
    null_vector: list[Fraction] | None = None
    lp: object | None = None  # udpm.lp.certify.Certified of the phase-1 LP

    @property
    def exists(self) -> bool:
        return self.remap is not None


def _pairs(m: flint.fmpq_mat) -> list[list[tuple[int, int]]]:
    return [[(int(m[i, j].p), int(m[i, j].q)) for j in range(m.ncols())] for i in range(m.nrows())]


def _fractions(rows: list[list[tuple[int, int]]]) -> Matrix:
    return [[Fraction(p, q) for p, q in r] for r in rows]


def checked(m: Matrix, y: Matrix, t: Matrix) -> Matrix:
    """Y after the exact check M·Y = T, Y >= 0, rows summing to 1 (else AssertionError: a defect, not an answer).

    A deterministic Y (0/1 rows) is checked by summing the columns of M it merges, any other Y by FLINT.
    """
    if any(v < 0 for r in y for v in r) or any(sum(r) != 1 for r in y):
        raise AssertionError("a remap proposed is not stochastic")
    if all(v in (0, 1) for r in y for v in r):
        target = [r.index(1) for r in y]
        rows, width = len(m), len(t[0])
        got = [[Fraction(0)] * width for _ in range(rows)]
        for c, j in enumerate(target):
            for i in range(rows):
                got[i][j] += m[i][c]
        ok = got == [list(r) for r in t]
    else:
        ok = linalg.to_flint(m) * linalg.to_flint(y) == linalg.to_flint(t)
    if not ok:
        raise AssertionError("a remap proposed does not satisfy M·Y = T")
    return y


def _proportional(m: Matrix, t: Matrix) -> Matrix | None:
    """Y merging each column of M into the column of T it is a positive multiple of, when that gives T."""
    rows, cols = len(m), len(m[0])
    y = [[Fraction(0)] * rows for _ in range(cols)]
    sums = [[Fraction(0)] * rows for _ in range(rows)]  # sums[j] = the columns of M sent to j
    for c in range(cols):
        col = [m[i][c] for i in range(rows)]
        if not any(col):
            y[c][0] = Fraction(1)  # an all-zero column goes anywhere
            continue
        j = max(range(rows), key=lambda i: (col[i], -i))  # T's column j peaks at row j
        k = next(i for i in range(rows) if t[i][j])
        lam = col[k] / t[k][j]
        if lam <= 0 or any(col[i] != lam * t[i][j] for i in range(rows)):
            return None
        y[c][j] = Fraction(1)
        for i in range(rows):
            sums[j][i] += col[i]
    if any(sums[j][i] != t[i][j] for j in range(rows) for i in range(rows)):
        return None
    return y


def _rank_certificate(m: Matrix, t: Matrix) -> tuple[list[Fraction], str] | None:
    """A z with z·M = 0 and z·T != 0, or None when M has full row rank."""
    rows = len(m)
    den = 1
    for row in m:
        for v in row:
            den = math.lcm(den, v.denominator)
    # z·M = 0  <=>  M^T z = 0, over the integers after clearing denominators
    mt = flint.fmpz_mat([[int(m[i][c] * den) for i in range(rows)] for c in range(len(m[0]))])
    null, nullity = mt.nullspace()
    if nullity == 0:
        return None
    z = [int(null[i, 0]) for i in range(rows)]
    g = math.gcd(*z)
    z = [Fraction(v // g) for v in z]
    zt = [sum((z[i] * t[i][j] for i in range(rows)), Fraction(0)) for j in range(len(t[0]))]
    zm = [sum((z[i] * m[i][c] for i in range(rows)), Fraction(0)) for c in range(len(m[0]))]
    if any(zm) or not any(zt):  # pragma: no cover (FLINT's nullspace; T is invertible)
        raise AssertionError("the null vector does not certify rank(M) < rank(T)")
    j = next(j for j, v in enumerate(zt) if v)
    shown = linalg.fmt_vector(z) if rows <= 8 else "z (in the JSON)"
    return z, f"z·M = 0 but (z·T)[{j}] = {readable(zt[j])} != 0 for z = {shown}"


def _solve_pairs(m: Matrix, rhs: Matrix) -> list[list[tuple[int, int]]]:
    return _pairs(linalg.to_flint(m).solve(linalg.to_flint(rhs)))


def _float_proposal(m: Matrix, t: Matrix) -> list[tuple[int, int]] | None:
    """Entries (r, j) that floats say are negative in M^-1 T (row-major order); None when floats see it singular."""
    import numpy as np

    mf = np.array([[float(v) for v in r] for r in m])
    tf = np.array([[float(v) for v in r] for r in t])
    try:
        yf = np.linalg.solve(mf, tf)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(yf)):
        return None
    scale = max(1.0, float(np.abs(yf).max()))
    return [(int(r), int(j)) for r, j in zip(*np.nonzero(yf < -1e-9 * scale))]


def _square(m: Matrix, t: Matrix, budget: Budget, name: str) -> RemapDecision | None:
    """The invertible square case (None when M is singular)."""
    n1 = len(m)
    try:
        if n1 <= SMALL:
            y = _fractions(_solve_pairs(m, t))
        else:
            proposal = _float_proposal(m, t)
            for r, j in [] if proposal is None else _first_columns(proposal):
                col = run_within(
                    lambda j=j: _solve_pairs(m, [[row[j]] for row in t]), budget.left(), f"column {j} of {name}^-1 T"
                )
                v = Fraction(*col[r][0])
                if v < 0:
                    return RemapDecision(
                        None,
                        f"the only solution Y = {name}^-1 T has Y[{r}][{j}] = {readable(v)} < 0 ({name} is invertible)",
                        "negative entry",
                        negative=(r, j, v),
                    )
            y = _fractions(run_within(lambda: _solve_pairs(m, t), budget.left(), f"{name}^-1 T"))
    except ZeroDivisionError:
        return None
    neg = next(((r, j, v) for r, row in enumerate(y) for j, v in enumerate(row) if v < 0), None)
    if neg is not None:
        r, j, v = neg
        return RemapDecision(
            None,
            f"the only solution Y = {name}^-1 T has Y[{r}][{j}] = {readable(v)} < 0 ({name} is invertible)",
            "negative entry",
            negative=neg,
        )
    return RemapDecision(checked(m, y, t), f"Y = {name}^-1 T is stochastic ({name} is invertible)", "inverse")


def _first_columns(proposal: list[tuple[int, int]]) -> list[tuple[int, int]]:
    seen, out = set(), []
    for r, j in proposal:
        if j not in seen:
            seen.add(j)
            out.append((r, j))
        if len(out) == CANDIDATES:
            break
    return out


def decide_remap(m: Matrix, t: Matrix, budget: Budget | None = None, name: str = "M") -> RemapDecision:
    """Whether M·Y = T for a row-stochastic Y (T square invertible), with its certificate.

    Raises SolverTimeout when the budget ends first (never a guess).
    """
    budget = budget or Budget(None)
    n1, cols = len(m), len(m[0])
    if m == t:
        return RemapDecision(linalg.identity(n1), f"{name} = T (Y = I)", "equal")
    y = _proportional(m, t)
    if y is not None:
        return RemapDecision(
            checked(m, y, t),
            f"every column of {name} is a positive multiple of a column of T; merged, they give T",
            "proportional columns",
        )
    if cols < n1:
        return RemapDecision(
            None, f"rank({name}) <= {cols} < {n1} = rank T({n1 - 1}, ·): {name} has {cols} outputs", "rank"
        )
    if cols == n1:
        got = _square(m, t, budget, name)
        if got is not None:
            return got
    if budget.expired:
        raise SolverTimeout("the remap question: no time left in the budget")
    rank = (
        run_within(lambda: _rank_certificate(m, t), budget.left(), f"rank of {name}")
        if n1 > SMALL
        else (_rank_certificate(m, t))
    )
    if rank is not None:
        z, text = rank
        return RemapDecision(None, f"rank({name}) < {n1} = rank T: {text}", "rank", null_vector=z)

    if budget.expired:
        raise SolverTimeout("the remap question: no time left in the budget")
    y, cert = bounded(lambda: remap_lp(m, t, budget.left(LP_CAP)), budget, "the remap LP", n1 > SMALL)
    if y is None:
        return RemapDecision(
            None,
            f"every stochastic Y has sum |{name} Y - T| >= {readable(cert.objective)} > 0 (certified LP)",
            "certified LP",
            lp=cert,
        )
    return RemapDecision(checked(m, y, t), f"certified LP: sum |{name} Y - T| = 0", "certified LP", lp=cert)


__all__ = ["RemapDecision", "checked", "decide_remap"]
