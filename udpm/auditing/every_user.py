"""Optimality for every user at one (n, alpha), decided exactly: the finite form of grs2011 Theorem 3.2.

A user (prior p, loss l) enters a mechanism's expected loss only through the weight matrix
W[i][r] = p_i l(i, r).  The users of a loss class form a polyhedral cone of such W (:data:`LEGAL`,
grs2011 Section 2.2: l(i, j) depends on i and |j - i| and is nondecreasing in |j - i|; any prior,
zeros allowed; losses need not be strictly monotone; a loss shifted by a constant c_i in row i changes
every mechanism's loss by sum_i p_i c_i, rows summing to 1, so l >= 0 loses no generality).  So "X is
optimal for every legal user"
quantifies over a polyhedral cone, and for fixed (n, alpha) it is a finite, exact question:

* **The feasible set.**  An alpha-DP mechanism with range N is a matrix whose columns lie in the
  cone K = {x : alpha x_{i+1} <= x_i <= x_{i+1} / alpha} and whose rows sum to 1.  K has exactly
  2^n extreme rays, one per column signature of DOWN/UP symbols (:func:`ray`).  Writing every
  column as a combination of rays, the optimum of a user is
  lambda(W) = min { sum_s lam_s phi_s(W) : sum_s lam_s g_s = 1, lam >= 0 }, where
  phi_s(W) = min_r sum_i g_s(i) W[i][r] (each ray goes to its best output).
* **A square mechanism M** (outputs 0..n, invertible, alpha-DP) with its best remap loses
  value_M(W) = sum_k phi_{m_k}(W) over its columns m_k.  Let c_s = M^-1 g_s.  If for every ray s and
  every output r, sum_i g_s(i) W[i][r] >= sum_k c_{s,k} phi_{m_k}(W), then y = M^-T phi_M(W) is a
  feasible dual solution of the LP above with value 1.y = value_M(W) (M 1 = 1), so M attains
  lambda(W) (LP duality).  A ray with c_s >= 0 meets this for every W (a minimum of sums is at least
  the sum of minima), so only rays with a negative coordinate are asked: one SMT query per (ray,
  output), linear arithmetic with one disjunction per negative coordinate, over the whole cone.
  Every query unsat = M is optimal for **every** user of the cone at this (n, alpha).
* **A counterexample.**  A sat gives an exact rational W, which is turned into a user and
  re-checked exactly: M's best-remap loss against the certified optimum of LP (3)-(7)
  (:func:`udpm.lp.certify.solve`).  For T(n, alpha) the columns are rays with positive weights (a
  nondegenerate basis), so a negative reduced cost always means a strictly better mechanism; for
  another M a sat the re-check does not confirm raises :class:`Undecided`, never a pass.
* **Any mechanism against T** (:func:`user_preferring`): one query asks for a user in the cone for
  whom value_M(W) > value_T(W).  Unsat: M is at least as good as T for every user of the cone.

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> v = optimal_for_every_user(truncated_geometric(3, F(1, 2)), F(1, 2), timeout_s=30)
>>> v.holds, v.queries
(True, 16)
>>> rr = [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 4), F(1, 4), F(1, 2)]]
>>> bad = user_preferring(truncated_geometric(2, F(1, 2)), rr, F(1, 2), timeout_s=30)
>>> bad.mechanism_loss > bad.optimum
True
>>> optimal_for_every_user(rr, F(3, 4), timeout_s=30)
Traceback (most recent call last):
...
udpm.errors.InvalidMatrix: M is not 3/4-DP: x[0][0]=1/2, x[1][0]=1/4, ratio 2
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import z3

from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.users import BayesianUser, Loss
from udpm.core.validate import alpha_in_unit_interval, matrix
from udpm.errors import CertificationFailed, HarnessError, InvalidMatrix, SolverTimeout
from udpm.lp.certify import solve
from udpm.lp.programs import bayesian_lp
from udpm.smt.reports import reported_queries, smt_query
from udpm.smt.solvers import decide, premise_witness

Matrix = list[list[Fraction]]
Weights = list[list[z3.ArithRef]]

LEGAL = "legal"  # grs2011 Section 2.2: l(i, j) = g_i(|j - i|), g_i nondecreasing, >= 0
SIDED = "sided"  # nondecreasing on each side of i separately: wider than the theorem's class
NONNEGATIVE = "nonnegative"  # any l >= 0: not legal (grs2011 Appendix B's loss is of this kind)
CONES = (LEGAL, SIDED, NONNEGATIVE)


class Undecided(SolverTimeout):
    """The dual test failed at a user for whom the mechanism is nevertheless optimal, or that user's optimum could
    not be certified: no verdict.  A SolverTimeout, so a deciding block records its instance as inconclusive."""


@dataclass(frozen=True)
class Counterexample:
    """A user of the cone for whom the mechanism's best remap loses strictly more than ``optimum``."""

    user: BayesianUser
    mechanism_loss: Fraction
    optimum: Fraction  # the certified optimum of LP (3)-(7) for that user
    detail: str

    def __str__(self) -> str:
        prior = linalg.fmt_vector(list(self.user.prior))
        loss = linalg.fmt_matrix([list(r) for r in self.user.loss.values])
        return (
            f"{self.detail}: prior {prior}, loss {loss}; the best remap loses {self.mechanism_loss} > "
            f"{self.optimum}, the certified optimum"
        )


@dataclass(frozen=True)
class EveryUser:
    """The verdict for one mechanism, one (n, alpha) and one cone of users."""

    n: int
    alpha: Fraction
    cone: str
    queries: int  # SMT queries asked (each unsat when ``holds``)
    premise: str  # a nonzero user of the cone (the hypotheses are satisfiable)
    counterexample: Counterexample | None = None

    @property
    def holds(self) -> bool:
        return self.counterexample is None


# ---------------------------------------------------------------- the cone of users


def weights(n: int) -> Weights:
    return [[z3.Real(f"w_{i}_{r}") for r in range(n + 1)] for i in range(n + 1)]


def cone(w: Weights, kind: str) -> list[z3.BoolRef]:
    """W[i][r] = p_i l(i, r) for a user of the class ``kind`` (a polyhedral cone, zero rows allowed)."""
    if kind not in CONES:
        raise ValueError(f"unknown cone {kind!r}; one of {', '.join(CONES)}")
    n = len(w) - 1
    out = [w[i][r] >= 0 for i in range(n + 1) for r in range(n + 1)]
    if kind == NONNEGATIVE:
        return out
    for i in range(n + 1):
        for r in range(n):  # consecutive outputs on the same side of i
            near, far = (r, r + 1) if r >= i else (r + 1, r)
            out.append(w[i][near] <= w[i][far])
        if kind == LEGAL:
            out += [w[i][i - d] == w[i][i + d] for d in range(1, min(i, n - i) + 1)]
    return out


def in_cone(values: Sequence[Sequence[Fraction]], kind: str) -> bool:
    """Exact membership, the same conditions as :func:`cone`."""
    n = len(values) - 1
    if any(v < 0 for row in values for v in row):
        return False
    if kind == NONNEGATIVE:
        return True
    for i in range(n + 1):
        for r in range(n):
            near, far = (r, r + 1) if r >= i else (r + 1, r)
            if values[i][near] > values[i][far]:
                return False
        if kind == LEGAL and any(values[i][i - d] != values[i][i + d] for d in range(1, min(i, n - i) + 1)):
            return False
    return True


def user_of(values: Sequence[Sequence[Fraction]]) -> BayesianUser:
    """The user with p_i proportional to row i's sum and l(i, .) = row i / its sum (zero rows: zero loss)."""
    sums = [sum(row, Fraction(0)) for row in values]
    total = sum(sums, Fraction(0))
    loss = [[v / s if s else Fraction(0) for v in row] for row, s in zip(values, sums)]
    return BayesianUser.of([s / total for s in sums], Loss.from_matrix(loss))


def _model_weights(model: z3.ModelRef, w: Weights) -> Matrix:
    def value(v: z3.ArithRef) -> Fraction:
        x = model.eval(v, model_completion=True)
        return Fraction(x.numerator_as_long(), x.denominator_as_long())

    return [[value(v) for v in row] for row in w]


def nonzero_user(w: Weights, kind: str, timeout_s: float) -> str:
    """premise_witness of the cone with total weight 1: a user exists, so an unsat is not vacuous."""
    model = premise_witness([*cone(w, kind), z3.Sum([v for row in w for v in row]) == 1], timeout_s, f"{kind} users")
    return "W = " + linalg.fmt_matrix([[Fraction(model.get(str(v), "0")) for v in row] for row in w])


# ---------------------------------------------------------------- the feasible set


def signatures(n: int) -> list[tuple[int, ...]]:
    """Every DOWN (+1) / UP (-1) column of length n: one extreme ray of K each."""
    return list(itertools.product((1, -1), repeat=n))


def ray(signature: Sequence[int], a: Fraction) -> list[Fraction]:
    """g_s with g_s(0) = 1 and g_s(i+1) = g_s(i) * alpha (DOWN) or / alpha (UP)."""
    g = [Fraction(1)]
    for s in signature:
        g.append(g[-1] * a if s == 1 else g[-1] / a)
    return g


def best_output_value(column: Sequence[Fraction], values: Sequence[Sequence[Fraction]]) -> Fraction:
    """phi_column(W) = min_r sum_i column_i W[i][r]: the loss of a column sent to its best output."""
    n = len(values) - 1
    return min(sum((column[i] * values[i][r] for i in range(n + 1)), Fraction(0)) for r in range(n + 1))


def remapped_loss(m: Sequence[Sequence[Fraction]], values: Sequence[Sequence[Fraction]]) -> Fraction:
    """value_M(W) = sum over M's columns of phi_column(W): M's loss under its best remap."""
    return sum((best_output_value([row[k] for row in m], values) for k in range(len(m[0]))), Fraction(0))


def _dot(column: Sequence[Fraction], w: Weights, r: int) -> z3.ArithRef:
    return z3.Sum([column[i] * w[i][r] for i in range(len(w)) if column[i]])


def _at_most_phi(v: z3.ArithRef, column: Sequence[Fraction], w: Weights) -> list[z3.BoolRef]:
    return [v <= _dot(column, w, r) for r in range(len(w))]


def _at_least_phi(v: z3.ArithRef, column: Sequence[Fraction], w: Weights) -> z3.BoolRef:
    return z3.Or([v >= _dot(column, w, r) for r in range(len(w))])


def _checked_mechanism(m: object, a: Fraction) -> Matrix:
    x = matrix(m)
    bad = dp_violations(x, a)
    if bad:
        raise InvalidMatrix(f"M is not {a}-DP: {bad[0]}")
    return x


# ---------------------------------------------------------------- the two questions


def optimal_for_every_user(
    m: object, alpha: object, kind: str = LEGAL, timeout_s: float = 60.0, witness_s: float = 60.0
) -> EveryUser:
    """Is the square alpha-DP mechanism M optimal (after its best remap) for every user of the cone?

    Decided by the reduced costs of M's columns (module docstring): one SMT query per ray with a negative
    coordinate in M's basis and per output.  Raises SolverTimeout on an unknown, Undecided when a sat is not
    confirmed by the exact re-check, InvalidMatrix when M is not square, invertible and alpha-DP.
    """
    a = alpha_in_unit_interval(alpha)
    x = _checked_mechanism(m, a)
    n = len(x) - 1
    if len(x[0]) != n + 1 or linalg.det(x) == 0:
        raise InvalidMatrix("the dual test needs a square invertible mechanism (outputs 0..n)")
    w = weights(n)
    premises = cone(w, kind)
    premise = nonzero_user(w, kind, witness_s)
    cols = [[row[k] for row in x] for k in range(n + 1)]
    phi = [z3.Real(f"phi_{k}") for k in range(n + 1)]
    queries = 0
    for s in signatures(n):
        g = ray(s, a)
        c = [row[0] for row in linalg.solve(x, [[v] for v in g])]
        if all(v >= 0 for v in c):
            continue  # the dual inequality holds for every W by concavity
        bounds = []
        for k, ck in enumerate(c):
            if ck > 0:
                bounds += _at_most_phi(phi[k], cols[k], w)  # phi[k] <= phi_{m_k}(W)
            elif ck < 0:
                bounds.append(_at_least_phi(phi[k], cols[k], w))  # phi[k] >= phi_{m_k}(W)
        rhs = z3.Sum([ck * phi[k] for k, ck in enumerate(c) if ck])
        for r in range(n + 1):
            queries += 1
            out = decide([*premises, *bounds, _dot(g, w, r) < rhs], timeout_s)
            if not out.unsat:
                cex = _certified_counterexample(
                    x, _model_weights(out.model, w), a, kind, timeout_s, f"ray {_show(s)} to output {r}"
                )
                return EveryUser(n, a, kind, queries, premise, cex)
    return EveryUser(n, a, kind, queries, premise)


def _show(s: Sequence[int]) -> str:
    return "".join("↓" if v == 1 else "↑" for v in s)


def _certified_counterexample(x: Matrix, values: Matrix, a: Fraction, kind: str, timeout_s: float, where: str):
    """The solver's W as a user, and M's best-remap loss against the certified optimum (exact)."""
    if not in_cone(values, kind):
        raise HarnessError(f"the solver's user is not in the {kind} cone: {values}")
    user = user_of(values)
    total = sum((v for row in values for v in row), Fraction(0))
    mech = remapped_loss(x, values) / total
    try:
        opt = solve(bayesian_lp(user, a), timeout_s=timeout_s).objective
    except CertificationFailed as e:
        raise Undecided(f"no certified optimum for the user found at {where}: {e}") from e
    if not opt < mech:
        raise Undecided(f"the solver's user at {where} does not beat M once re-checked exactly ({mech} = {opt})")
    return Counterexample(user, mech, opt, f"n={len(x) - 1}, alpha={a}, {kind} user from {where}")


def user_preferring(
    t: object, m: object, alpha: object, kind: str = LEGAL, timeout_s: float = 60.0
) -> Counterexample | None:
    """A user of the cone for whom M's best remap loses strictly more than T's, or None (z3 and cvc5 unsat).

    M may have any number of outputs; T is square.  With T optimal for every user of the cone
    (:func:`optimal_for_every_user`), None means M is optimal for every such user too.
    """
    a = alpha_in_unit_interval(alpha)
    tm, x = matrix(t), matrix(m)
    n = len(tm) - 1
    if len(x) != n + 1:
        raise InvalidMatrix(f"M has {len(x)} rows, T has {n + 1}")
    w = weights(n)
    zm = [z3.Real(f"m_{k}") for k in range(len(x[0]))]
    zt = [z3.Real(f"t_{k}") for k in range(len(tm[0]))]
    query = list(cone(w, kind))
    for k, v in enumerate(zm):
        query += _at_most_phi(v, [row[k] for row in x], w)
    query += [_at_least_phi(v, [row[k] for row in tm], w) for k, v in enumerate(zt)]
    query.append(z3.Sum(zm) > z3.Sum(zt))
    out = decide(query, timeout_s)
    if out.unsat:
        return None
    values = _model_weights(out.model, w)
    total = sum((v for row in values for v in row), Fraction(0))
    if not remapped_loss(tm, values) / total < remapped_loss(x, values) / total:
        raise HarnessError(f"the solver's user does not separate M from T exactly: {values}")
    return _certified_counterexample(x, values, a, kind, timeout_s, "a user preferring T")


def geometric_for_every_user(n: int, alpha: Fraction, kind: str = LEGAL, timeout_s: float = 60.0) -> EveryUser:
    """T(n, alpha) against every user of the cone, cached per process (several claims ask the same (n, alpha)).

    A cache hit reports the SMT queries the verdict rests on again, so that a decision's record names the same
    files whatever ran before it in the process (udpm.smt.reports.reported_queries)."""
    verdict, queries = _geometric_for_every_user(n, alpha, kind, timeout_s)
    for file, rests_on in sorted(queries):
        smt_query(file, rests_on)
    return verdict


@lru_cache(maxsize=256)
def _geometric_for_every_user(
    n: int, alpha: Fraction, kind: str, timeout_s: float
) -> tuple[EveryUser, frozenset[tuple[str, str]]]:
    with reported_queries() as got:
        verdict = optimal_for_every_user(truncated_geometric(n, alpha), alpha, kind, timeout_s)
    return verdict, frozenset(got)


def mechanism_for_every_user(m: object, alpha: object, kind: str = LEGAL, timeout_s: float = 60.0) -> EveryUser:
    """Any alpha-DP mechanism M against every user of the cone.

    Square and invertible: :func:`optimal_for_every_user`.  Otherwise: T(n, alpha) is optimal for every user
    (:func:`geometric_for_every_user`) and no user prefers T's best remap to M's (:func:`user_preferring`).
    """
    a = alpha_in_unit_interval(alpha)
    x = _checked_mechanism(m, a)
    n = len(x) - 1
    if len(x[0]) == n + 1 and linalg.det(x) != 0:
        return optimal_for_every_user(x, a, kind, timeout_s)
    t = geometric_for_every_user(n, a, kind, timeout_s)
    if t.counterexample:
        return t
    cex = user_preferring(truncated_geometric(n, a), x, a, kind, timeout_s)
    return EveryUser(n, a, kind, t.queries + 1, t.premise, cex)
