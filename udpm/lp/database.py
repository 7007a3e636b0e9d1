"""Database-level (non-oblivious) programs: mechanisms x[d, j] over explicit databases D^n.

A database is a tuple of n rows from the domain {0..|D|-1}; the count query counts rows in
``predicate``; neighbours differ in exactly one row (:func:`udpm.core.privacy.hamming_neighbours`).

- :func:`expected_loss_lp`: grs2011 (8) / grs2009 (10), a prior over databases.
- :func:`worst_extension_lp`: grs2011 (9) / grs2009 (9), the worst prior over databases consistent
  with a prior over results: sum_i p_i max_{f(d)=i} sum_j x_dj l(i, j), written with epigraph
  variables t[i].
- :func:`minimax_lp`: gs2010 (5), max over databases with f(d) in S of sum_r x_dr l(f(d), r).

>>> from fractions import Fraction as F
>>> from udpm.core.users import absolute_error
>>> space = DatabaseSpace.of(2, 2)
>>> len(space.databases), len(space.neighbours), space.count((1, 1))
(4, 4, 2)
>>> lp = worst_extension_lp(space, [F(1, 3)] * 3, absolute_error(2), F(1, 2))
>>> len(lp.names)
15
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from udpm.core.privacy import hamming_neighbours
from udpm.core.users import Loss, weighted
from udpm.core.validate import alpha_in_unit_interval, distribution, rational, size
from udpm.errors import InvalidInput
from udpm.lp.programs import Constraint, LinearProgram

ONE = Fraction(1)
ZERO = Fraction(0)
Database = tuple[int, ...]


@dataclass(frozen=True)
class DatabaseSpace:
    """D^n with a count query (rows whose value lies in ``predicate``) and the Hamming neighbours."""

    domain: int
    n: int
    predicate: frozenset[int]
    databases: tuple[Database, ...]
    neighbours: tuple[tuple[Database, Database], ...]

    @classmethod
    def of(cls, domain: int, n: int, predicate: Sequence[int] = (1,)) -> DatabaseSpace:
        size(n)
        if domain < 2:
            raise InvalidInput(f"the row domain needs at least 2 values, got {domain}")
        pred = frozenset(predicate)
        if not pred or not pred < frozenset(range(domain)):
            raise InvalidInput(f"the predicate must be a non-empty proper subset of 0..{domain - 1}")
        dbs = tuple(itertools.product(range(domain), repeat=n))
        return cls(domain, n, pred, dbs, tuple(hamming_neighbours(dbs)))

    def count(self, d: Database) -> int:
        return sum(v in self.predicate for v in d)

    def with_count(self, i: int) -> list[Database]:
        return [d for d in self.databases if self.count(d) == i]


def x_var(d: Database, j: int) -> str:
    return f"x[{''.join(map(str, d))},{j}]"


def _rational_loss(loss: Loss, allow_irrational: bool = False) -> list[list[object]]:
    """Loss values as Fractions; with ``allow_irrational`` (objective-only use) sympy numbers pass through."""
    out = []
    for i, row in enumerate(loss.values):
        r = []
        for j, v in enumerate(row):
            if not isinstance(v, Fraction):
                if allow_irrational and not getattr(v, "is_Rational", False):
                    r.append(v)
                    continue
                if not getattr(v, "is_Rational", False):
                    raise InvalidInput(f"l({i},{j}) = {v} is irrational; the database LPs need a rational loss")
                v = Fraction(int(v.p), int(v.q))
            r.append(v)
        out.append(r)
    return out


def _base(space: DatabaseSpace, alpha: object, extra: Sequence[str]) -> tuple[tuple[str, ...], dict, list]:
    a = alpha_in_unit_interval(alpha)
    n = space.n
    names = tuple(x_var(d, j) for d in space.databases for j in range(n + 1)) + tuple(extra)
    var = {nm: k for k, nm in enumerate(names)}
    rows: list[Constraint] = []
    for d1, d2 in space.neighbours:
        for j in range(n + 1):
            u, v = var[x_var(d1, j)], var[x_var(d2, j)]
            rows.append(Constraint(((u, ONE), (v, -a)), ">=", ZERO, f"DP {x_var(d1, j)} >= a {x_var(d2, j)}"))
            rows.append(Constraint(((v, ONE), (u, -a)), ">=", ZERO, f"DP {x_var(d2, j)} >= a {x_var(d1, j)}"))
    for d in space.databases:
        rows.append(Constraint(tuple((var[x_var(d, j)], ONE) for j in range(n + 1)), "=", ONE, f"row {d} sums to 1"))
    return names, var, rows


def expected_loss_lp(
    space: DatabaseSpace, prior: Mapping[Database, object], loss: Loss, alpha: object
) -> LinearProgram:
    """grs2011 (8): minimise sum_d p_d sum_j x_dj l(f(d), j) over alpha-DP direct mechanisms on D^n.
    The loss enters only the objective, so irrational values (|i-j|^(1-delta)) are allowed."""
    lv = _rational_loss(loss, allow_irrational=True)
    p = {d: rational(v, f"p[{d}]") for d, v in prior.items()}
    if any(d not in space.databases for d in p):
        raise InvalidInput("the prior names a database outside D^n")
    distribution(list(p.values()), what="prior over databases")
    names, var, rows = _base(space, alpha, ())
    objective = tuple(
        (var[x_var(d, j)], weighted(w, lv[space.count(d)][j]))
        for d, w in p.items()
        if w
        for j in range(space.n + 1)
        if lv[space.count(d)][j]
    )
    return LinearProgram(names, objective, tuple(rows), "grs2011 (8)")


def worst_extension_lp(space: DatabaseSpace, prior: Sequence[object], loss: Loss, alpha: object) -> LinearProgram:
    """grs2011 (9): minimise sum_i p_i max_{f(d)=i} sum_j x_dj l(i, j) (epigraph variables t[i])."""
    lv = _rational_loss(loss)
    p = distribution(prior, space.n + 1)
    names, var, rows = _base(space, alpha, [f"t[{i}]" for i in range(space.n + 1)])
    for d in space.databases:
        i = space.count(d)
        coeffs = ((var[f"t[{i}]"], ONE), *((var[x_var(d, j)], -lv[i][j]) for j in range(space.n + 1) if lv[i][j]))
        rows.append(Constraint(coeffs, ">=", ZERO, f"t[{i}] >= loss of {d}"))
    objective = tuple((var[f"t[{i}]"], p[i]) for i in range(space.n + 1) if p[i])
    return LinearProgram(names, objective, tuple(rows), "grs2011 (9)")


def minimax_lp(space: DatabaseSpace, side_information: Sequence[int], loss: Loss, alpha: object) -> LinearProgram:
    """gs2010 (5): minimise max_{d: f(d) in S} sum_r x_dr l(f(d), r) over alpha-DP mechanisms on D^n."""
    lv = _rational_loss(loss)
    s = set(side_information)
    names, var, rows = _base(space, alpha, ["d"])
    for db in space.databases:
        i = space.count(db)
        if i in s:
            coeffs = ((var["d"], ONE), *((var[x_var(db, j)], -lv[i][j]) for j in range(space.n + 1) if lv[i][j]))
            rows.append(Constraint(coeffs, ">=", ZERO, f"d >= loss of {db}"))
    return LinearProgram(names, ((var["d"], ONE),), tuple(rows), "gs2010 (5)")


def mechanism_rows(space: DatabaseSpace, names: Sequence[str], x: Sequence[Fraction]) -> dict[Database, list[Fraction]]:
    var = {nm: k for k, nm in enumerate(names)}
    return {d: [Fraction(x[var[x_var(d, j)]]) for j in range(space.n + 1)] for d in space.databases}


def average_by_count(space: DatabaseSpace, x: Mapping[Database, Sequence[Fraction]]) -> list[list[Fraction]]:
    """grs2011 Prop 6.1 / gs2010 Lemma 6: x'_{ij} = average of x_dj over databases with f(d) = i."""
    out = []
    for i in range(space.n + 1):
        group = space.with_count(i)
        out.append([sum((Fraction(x[d][j]) for d in group), ZERO) / len(group) for j in range(space.n + 1)])
    return out


def random_dp_database_mechanism(
    rng: random.Random, space: DatabaseSpace, a: Fraction
) -> dict[Database, list[Fraction]]:
    """x_d ∝ w_d with w_dj in [1, c], c^2 <= 1/a: every ratio of two rows (not only neighbours) lies in
    [a, 1/a], so the mechanism is alpha-DP; weights drawn from a grid (steps of 1/8), so exact."""
    c = ONE
    while (c + Fraction(1, 8)) ** 2 <= 1 / a:
        c += Fraction(1, 8)
    steps = int((c - 1) * 8)
    out = {}
    for d in space.databases:
        w = [1 + Fraction(rng.randint(0, steps), 8) for _ in range(space.n + 1)]
        s = sum(w)
        out[d] = [v / s for v in w]
    return out
