"""Linear programs as exact data (the contract between LP builders and the certifier).

A :class:`LinearProgram` is ``minimize c·x subject to a_k·x (<=, =, >=) b_k,
x >= 0``, with exact rational coefficients.  Objective coefficients may be
sympy numbers (irrational losses such as |i-j|^1.5); constraint data is
always rational.  Builders in this package produce LinearPrograms; the
certifier (udpm.lp.certify) solves and certifies them exactly.

>>> from fractions import Fraction as F
>>> from udpm.core.users import BayesianUser, absolute_error
>>> lp = bayesian_lp(BayesianUser.of([F(1, 2), F(1, 2)], absolute_error(1)), F(1, 2))
>>> len(lp.names), len(lp.rows)
(4, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from udpm.core.users import BayesianUser, LossValue, weighted
from udpm.core.validate import alpha_in_unit_interval
from udpm.errors import InvalidInput

SENSES = ("<=", "=", ">=")


@dataclass(frozen=True)
class Constraint:
    coeffs: tuple[tuple[int, Fraction], ...]  # sparse (variable index, coefficient)
    sense: str
    rhs: Fraction
    name: str = ""


@dataclass(frozen=True)
class LinearProgram:
    names: tuple[str, ...]
    objective: tuple[tuple[int, LossValue], ...]  # sparse (variable index, coefficient)
    rows: tuple[Constraint, ...]
    name: str = ""

    def index(self, name: str) -> int:
        return self.names.index(name)


def violated_constraint(lp: LinearProgram, x: Sequence[object]) -> str | None:
    """The name of the first constraint (or 'x[k] >= 0') that x violates, exactly; None if x is feasible."""
    v = [Fraction(t) for t in x]
    if len(v) != len(lp.names):
        raise InvalidInput(f"point has {len(v)} entries, the LP has {len(lp.names)} variables")
    for j, t in enumerate(v):
        if t < 0:
            return f"{lp.names[j]} >= 0"
    for k, row in enumerate(lp.rows):
        if not row_holds(row, v):
            return row.name or f"row {k}"
    return None


def row_holds(row: Constraint, x: Sequence[Fraction]) -> bool:
    """a·x (<=, =, >=) b, exactly."""
    act = sum((a * x[j] for j, a in row.coeffs), Fraction(0))
    return {"<=": act <= row.rhs, ">=": act >= row.rhs, "=": act == row.rhs}[row.sense]


def objective_value(lp: LinearProgram, x: Sequence[object]) -> LossValue:
    """c·x exactly (a Fraction, or a sympy number for irrational objectives)."""
    total: LossValue = Fraction(0)
    for j, c in lp.objective:
        xj = Fraction(x[j])
        if xj:
            total = total + weighted(xj, c)
    return total


def mechanism_var(i: int, j: int) -> str:
    return f"x[{i},{j}]"


def bayesian_lp(user: BayesianUser, alpha: object) -> LinearProgram:
    """grs2011 user-specific LP (3)-(7): minimise sum_i p_i sum_j x_ij l(i,j) over alpha-DP
    mechanisms with range N.  Variables x[i,j] in row-major order."""
    a = alpha_in_unit_interval(alpha)
    n = user.n
    names = tuple(mechanism_var(i, j) for i in range(n + 1) for j in range(n + 1))
    v = {nm: k for k, nm in enumerate(names)}
    objective = tuple(
        (v[mechanism_var(i, j)], user.prior[i] * user.loss(i, j))
        for i in range(n + 1)
        for j in range(n + 1)
        if user.prior[i] and user.loss(i, j) != 0
    )
    rows: list[Constraint] = []
    for i in range(n):
        for j in range(n + 1):
            x0, x1 = v[mechanism_var(i, j)], v[mechanism_var(i + 1, j)]
            rows.append(Constraint(((x0, Fraction(1)), (x1, -a)), ">=", Fraction(0), f"(4) i={i} j={j}"))
            rows.append(Constraint(((x0, a), (x1, Fraction(-1))), "<=", Fraction(0), f"(5) i={i} j={j}"))
    for i in range(n + 1):
        coeffs = tuple((v[mechanism_var(i, j)], Fraction(1)) for j in range(n + 1))
        rows.append(Constraint(coeffs, "=", Fraction(1), f"(6) i={i}"))
    return LinearProgram(names, objective, tuple(rows), "grs2011 (3)-(7)")


def remap_existence_lp(x: Sequence[Sequence[Fraction]], target: Sequence[Sequence[Fraction]]) -> LinearProgram:
    """Phase 1 for "is target a post-processing of x": min sum |x·Y - target| over stochastic Y.

    Variables: Y's entries y[r,j] first (row-major), then the deviations s+ and s-.  Optimum 0 gives a Y
    exactly; an optimum > 0 proves that no stochastic Y exists.
    """
    rows_n, rr, cols = len(x), len(x[0]), len(target[0])
    names = [f"y[{r},{j}]" for r in range(rr) for j in range(cols)]
    dev = len(names)
    names += [f"s+[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    names += [f"s-[{i},{j}]" for i in range(rows_n) for j in range(cols)]
    one = Fraction(1)
    rows = [Constraint(tuple((r * cols + j, one) for j in range(cols)), "=", one, f"Y row {r}") for r in range(rr)]
    for i in range(rows_n):
        for j in range(cols):
            k = i * cols + j
            coeffs = (
                *((r * cols + j, Fraction(x[i][r])) for r in range(rr) if x[i][r]),
                (dev + k, one),
                (dev + rows_n * cols + k, -one),
            )
            rows.append(Constraint(coeffs, "=", Fraction(target[i][j]), f"(XY)[{i},{j}]"))
    objective = tuple((j, one) for j in range(dev, len(names)))
    return LinearProgram(tuple(names), objective, tuple(rows), "remap existence: min sum |X Y - target|")
