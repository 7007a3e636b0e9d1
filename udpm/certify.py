"""Exactly certified linear programming: propose with floats, decide with exact arithmetic.

``solve(lp, timeout_s=..., candidate=None)`` returns a :class:`Certified`
optimum of a :class:`udpm.programs.LinearProgram` or raises.  Nothing it
returns rests on a float tolerance:

1. *Propose.*  A candidate point (e.g. the theory's remap of the truncated
   geometric mechanism) or, failing that, a HiGHS basis.
2. *Rebuild exactly.*  The LP is put in standard form ``A z = b, z >= 0``
   (one slack per inequality row).  A basis B (m columns with A_B
   nonsingular) is chosen: the candidate's positive support, completed by
   independent columns when the vertex is degenerate, or HiGHS's basis.
   ``z_B = A_B^-1 b`` and the dual ``y = A_B^-T c_B`` are solved exactly by
   sparse Gaussian elimination over FLINT rationals (fmpq).
3. *Check exactly.*  Primal feasibility (z >= 0, A z = b), dual feasibility
   (every reduced cost ``d_j = c_j - A_j·y >= 0``, slack columns included),
   complementary slackness and equal objectives ``c·z = b·y``.  By weak
   duality this proves optimality.  Each failure names its condition.
4. *Repair.*  If the reduced costs are not all >= 0 the exact primal simplex
   (Bland's rule, so it terminates on degenerate vertices) pivots on to a
   dual-feasible basis; if the proposed basis is not even primal feasible
   (HiGHS's tolerance), an exact two-phase simplex starts from scratch.  A
   time bound raises :class:`SolverTimeout`; a failed check raises
   :class:`CertificationFailed`.  No uncertified answer is ever returned.

Irrational objectives.  Objective coefficients may be sympy numbers such as
``2*sqrt(2)`` (|i-j|^1.5).  Each coefficient is split as a rational
combination ``sum_k q_k theta_k`` of sympy "atoms" theta_k (1, sqrt(2), ...).
Because the dual is linear in c, y and the reduced costs are computed
exactly per component, and a sign of ``sum_k d_k theta_k`` is decided by
rigorous interval arithmetic (mpmath.iv) with an exact zero test
(``sympy.minimal_polynomial``) when the interval contains 0.

Uniqueness (``Certified.unique``).  For an optimal dual y with reduced costs
d >= 0, a feasible z is optimal iff ``d·z = 0`` (complementary slackness),
so the optimal face is ``F = {z feasible : z_j = 0 for every j with d_j > 0}``.
If every nonbasic reduced cost is > 0, F contains only the basic solution:
unique.  Otherwise let Z be the nonbasic columns with d_j = 0; on F the basic
variables are determined by z_Z (``z_B = A_B^-1(b - A_Z z_Z)``), so F is a
single point iff ``max sum_{j in Z} z_j`` over F is 0.  That auxiliary LP is
solved and certified by this module as well (a rational objective); its dual
u is kept as the uniqueness witness (``Certified.extra["uniqueness_dual"]``)
and the claim is re-proved from y and u alone (:func:`_check_unique`), which
is what the standard-library checker in udpm.certificates repeats.
:func:`check_certified` re-checks every condition of a Certified result.

>>> from fractions import Fraction as F
>>> from udpm.programs import LinearProgram, Constraint
>>> lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))),
...     (Constraint(((0, F(1)), (1, F(2))), ">=", F(2)), Constraint(((0, F(2)), (1, F(1))), ">=", F(2))))
>>> c = solve(lp, timeout_s=10)
>>> c.objective, c.x, c.unique
(Fraction(4, 3), (Fraction(2, 3), Fraction(2, 3)), True)
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import sympy

from .errors import CertificationFailed, InvalidInput, SolverTimeout
from .programs import LinearProgram

Q = flint.fmpq
ZERO = Q(0)
ONE_ATOM = sympy.S.One


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


# ---------------------------------------------------------------- exact signs of sympy numbers


def split_coefficient(v: object) -> dict[sympy.Expr, Fraction]:
    """v as {atom: rational}: 3/2 -> {1: 3/2}; 2*sqrt(2) + 1 -> {sqrt(2): 2, 1: 1}."""
    if isinstance(v, (int, Fraction)):
        return {ONE_ATOM: Fraction(v)} if v else {}
    e = sympy.expand(sympy.sympify(v))
    out: dict[sympy.Expr, Fraction] = {}
    for term in sympy.Add.make_args(e):
        coeff, atom = term.as_coeff_Mul()
        if not coeff.is_Rational or not atom.is_real or atom.free_symbols:
            raise InvalidInput(f"objective coefficient {v} is not an exact real number")
        out[atom] = out.get(atom, Fraction(0)) + Fraction(int(coeff.p), int(coeff.q))
    return {a: q for a, q in out.items() if q}


def _interval(atom: sympy.Expr, prec: int):
    import mpmath

    iv = mpmath.iv
    iv.prec = prec
    if atom.is_Rational:
        return iv.mpf(int(atom.p)) / iv.mpf(int(atom.q))
    if atom.is_Pow and atom.exp.is_Rational and atom.base.is_Rational and atom.base > 0:
        base = _interval(atom.base, prec)
        e = atom.exp
        return iv.exp(iv.log(base) * iv.mpf(int(e.p)) / iv.mpf(int(e.q)))
    if atom.is_Mul:
        r = iv.mpf(1)
        for a in atom.args:
            r = r * _interval(a, prec)
        return r
    if atom.is_Add:
        r = iv.mpf(0)
        for a in atom.args:
            r = r + _interval(a, prec)
        return r
    return None


def sign_of(combo: dict[sympy.Expr, Fraction]) -> int:
    """The exact sign of sum_k q_k * atom_k (interval bounds, exact zero test when they straddle 0)."""
    combo = {a: q for a, q in combo.items() if q}
    if not combo:
        return 0
    if set(combo) == {ONE_ATOM}:
        q = combo[ONE_ATOM]
        return (q > 0) - (q < 0)
    for prec in (80, 300, 1200):
        total = None
        for atom, q in combo.items():
            iv_atom = _interval(atom, prec)
            if iv_atom is None:
                total = None
                break
            import mpmath

            term = iv_atom * (mpmath.iv.mpf(q.numerator) / mpmath.iv.mpf(q.denominator))
            total = term if total is None else total + term
        if total is None:
            break
        if total.a > 0:
            return 1
        if total.b < 0:
            return -1
    expr = sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * a for a, q in combo.items()))
    if expr == 0:
        return 0
    x = sympy.Dummy("x")
    if sympy.minimal_polynomial(expr, x) == x:
        return 0
    s = expr.is_positive
    if s is True:
        return 1
    if expr.is_negative is True:
        return -1
    raise CertificationFailed(f"could not decide the sign of {expr} exactly")


def combo_value(combo: dict[sympy.Expr, Fraction]) -> Fraction | sympy.Expr:
    """A component combination as a Fraction (rational) or a sympy number."""
    combo = {a: q for a, q in combo.items() if q}
    if set(combo) <= {ONE_ATOM}:
        return combo.get(ONE_ATOM, Fraction(0))
    return sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * a for a, q in combo.items()))


# ---------------------------------------------------------------- sparse exact elimination


def _eliminate(rows: list[dict[int, flint.fmpq]], rhs: list[list[flint.fmpq]] | None, clock: _Clock):
    """Gaussian elimination with a minimum-degree pivot order; modifies rows/rhs in place.

    Returns the pivots [(row, col)] in order; every later row has the earlier pivot columns removed.
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
    ncomp = len(rhs[0]) if rhs else 0
    pivots = _eliminate(rows, rhs, clock)
    if len(pivots) != nvars or len(rows) != nvars:
        raise Singular(f"basis matrix is singular (rank {len(pivots)} < {nvars})")
    x: dict[int, list[flint.fmpq]] = {}
    for p, c in reversed(pivots):
        row = rows[p]
        vals = list(rhs[p])
        for k, v in row.items():
            if k != c:
                xk = x[k]
                for t in range(ncomp):
                    if xk[t] != 0:
                        vals[t] = vals[t] - v * xk[t]
        piv = row[c]
        x[c] = [val / piv for val in vals]
    return [x[c] for c in range(nvars)]


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


# ---------------------------------------------------------------- the certified result


@dataclass
class Certified:
    """An exactly certified optimum: primal vertex, dual, objective, basis, uniqueness."""

    lp: LinearProgram
    x: tuple[Fraction, ...]  # the primal vertex, one value per lp.names
    y: tuple[object, ...]  # one dual value per lp.rows (Fraction or sympy number)
    objective: object  # Fraction, or a sympy number for an irrational objective
    basis: tuple[int, ...]  # standard-form columns (0..nx-1: variables, then slacks in row order)
    unique: bool | None
    atoms: tuple[str, ...] = ("1",)
    y_components: tuple[tuple[Fraction, ...], ...] = ()  # per atom: the dual for that objective component
    proposer: str = ""
    simplex_pivots: int = 0
    notes: str = ""
    extra: dict = field(default_factory=dict)

    def value(self, name: str) -> Fraction:
        return self.x[self.lp.index(name)]

    def matrix(self, rows: int, cols: int) -> list[list[Fraction]]:
        """x reshaped row-major (for LPs whose variables are a mechanism x[i,j])."""
        return [list(self.x[i * cols : (i + 1) * cols]) for i in range(rows)]

    def summary(self) -> dict:
        return {
            "lp": self.lp.name,
            "variables": len(self.x),
            "constraints": len(self.lp.rows),
            "objective": str(self.objective),
            "unique": self.unique,
            "proposer": self.proposer,
        }


# ---------------------------------------------------------------- the basis machinery


class _Basis:
    def __init__(self, std: _Std, basis: list[int], clock: _Clock):
        self.std, self.basis, self.clock = std, list(basis), clock
        if len(basis) != std.m or len(set(basis)) != std.m:
            raise Singular(f"a basis needs {std.m} distinct columns, got {len(set(basis))}")

    def _solve(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B w = rhs (B's basic columns as sparse rows: entry [k][pos] = a_(k, basis[pos]))."""
        rows: list[dict[int, flint.fmpq]] = [dict() for _ in range(self.std.m)]
        for pos, j in enumerate(self.basis):
            for k, a in self.std.cols[j].items():
                rows[k][pos] = a
        return sparse_solve(rows, rhs, self.std.m, self.clock)

    def solve_transposed(self, rhs: list[list[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """B^T v = rhs (row pos of B^T is basic column basis[pos])."""
        return sparse_solve([dict(self.std.cols[j]) for j in self.basis], rhs, self.std.m, self.clock)

    def primal(self) -> list[flint.fmpq]:
        std = self.std
        sol = self._solve([[v] for v in std.b])
        z = [ZERO] * std.ncols
        for pos, j in enumerate(self.basis):
            z[j] = sol[pos][0]
        return z

    def dual(self) -> list[list[flint.fmpq]]:
        """y per row, as a list of per-atom components."""
        std = self.std
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


def _highs_basis(std: _Std, timeout_s: float) -> list[int] | None:
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


# ---------------------------------------------------------------- the public entry points


def _label(std: _Std, j: int) -> str:
    return f"column {j} ({column_label(std.lp, j)})"


def _check(std: _Std, z: list[flint.fmpq], y: list[list[flint.fmpq]], basis: list[int], clock: _Clock):
    """Independent exact checks, in this order, each failure naming its condition:

    primal feasibility (z >= 0 on every standard-form column, A z = b), dual feasibility (every
    reduced cost d_j = c_j - A_j·y >= 0, slack columns included: that is the sign of y on each
    inequality row), complementary slackness (d_j > 0 only where z_j = 0) and equal objectives
    (c·z = b·y, atom by atom).  Returns {column: sign of d_j}.

    Given exact primal feasibility A z = b, c·z - b·y = d·z, so once complementary slackness holds
    the objectives are equal: no corruption can break equal objectives alone here (the check stays
    as a guard); :func:`check_certified` also compares the stated objective.
    """
    if len(z) < std.ncols or len(y) != std.m or any(len(yk) != len(std.atoms) for yk in y):
        raise CertificationFailed("malformed: primal or dual has the wrong length")
    for j in range(std.ncols):
        if z[j] < 0:
            raise CertificationFailed(f"primal feasibility: {_label(std, j)} is {_f(z[j])} < 0")
    act = [ZERO] * std.m
    for j in range(std.ncols):
        if z[j] != 0:
            for k, a in std.cols[j].items():
                act[k] += a * z[j]
    for k in range(std.m):
        if act[k] != std.b[k]:
            raise CertificationFailed(
                f"primal feasibility: row {k} ({std.lp.rows[k].name or k}) of the standard form gives "
                f"{_f(act[k])} != {_f(std.b[k])}"
            )
    B = _Basis.__new__(_Basis)
    B.std, B.basis, B.clock = std, basis, clock
    reduced = {}
    for j in range(std.ncols):
        if j % 512 == 0:
            clock.tick("dual check")
        reduced[j] = sign_of(B.reduced(y, j))
        if reduced[j] < 0:
            raise CertificationFailed(f"dual feasibility: reduced cost of {_label(std, j)} is negative")
    for j in range(std.ncols):
        if reduced[j] > 0 and z[j] != 0:
            raise CertificationFailed(
                f"complementary slackness: {_label(std, j)} has reduced cost > 0 and value {_f(z[j])} != 0"
            )
    for t in range(len(std.atoms)):
        primal = sum((std.c[t].get(j, ZERO) * z[j] for j in range(std.nx)), ZERO)
        dual = sum((std.b[k] * y[k][t] for k in range(std.m)), ZERO)
        if primal != dual:
            raise CertificationFailed(f"equal objectives: primal {_f(primal)} != dual {_f(dual)} (atom {std.atoms[t]})")
    return reduced


def _decide_unique(std: _Std, z, basis, reduced, clock: _Clock) -> tuple[bool, tuple[Fraction, ...] | None]:
    """(unique?, witness u): u is the certified dual of the optimal-face LP when one was needed."""
    in_basis = set(basis)
    free = [j for j in range(std.ncols) if j not in in_basis and reduced[j] == 0]
    if not free:
        return True, None
    from .programs import Constraint, LinearProgram

    # The optimal face as an LP over the standard-form columns, with z_j = 0 for d_j > 0.
    keep = [j for j in range(std.ncols) if not (reduced[j] > 0)]
    pos = {j: i for i, j in enumerate(keep)}
    coeffs: list[list[tuple[int, Fraction]]] = [[] for _ in range(std.m)]
    for j in keep:
        for k, a in std.cols[j].items():
            coeffs[k].append((pos[j], _f(a)))
    rows = [Constraint(tuple(coeffs[k]), "=", _f(std.b[k]), f"face {k}") for k in range(std.m)]
    face = LinearProgram(
        tuple(f"z{j}" for j in keep), tuple((pos[j], Fraction(-1)) for j in free), tuple(rows), "optimal face"
    )
    start = [_f(z[j]) for j in keep]
    try:
        aux = _solve(face, clock, start, decide_unique=False)
    except Unbounded:
        return False, None  # an unbounded optimal face is not a point
    if aux.objective != 0:
        return False, None
    return True, aux.y_components[0]


def _check_unique(std: _Std, reduced: dict[int, int], witness: Sequence[object] | None, clock: _Clock) -> None:
    """Exact check that the optimum certified by a dual with reduced-cost signs ``reduced`` is unique.

    Every optimal z lies on the face F = {z >= 0 : A z = b, z_j = 0 where d_j > 0}.  The witness u
    (one value per row; None means u = 0) must satisfy b·u = 0 and -A_j·u >= 0 for every column j
    with d_j = 0.  Then for z in F, sum_j (-A_j·u) z_j = -b·u = 0 forces z_j = 0 wherever
    -A_j·u > 0, so F lies in {A_R z_R = b} for R = {j : d_j = 0, A_j·u = 0}; if the columns R
    are linearly independent F is one point.  With u = 0 this is strict complementarity plus an
    independent support.  Raises CertificationFailed("uniqueness: ...") otherwise.
    """
    u = [ZERO] * std.m if witness is None else [_q(v) for v in witness]
    if len(u) != std.m:
        raise CertificationFailed(f"uniqueness: the witness has {len(u)} entries for {std.m} rows")
    bu = sum((std.b[k] * u[k] for k in range(std.m)), ZERO)
    if bu != 0:
        raise CertificationFailed(f"uniqueness: the witness has b·u = {_f(bu)} != 0")
    free = []
    for j in range(std.ncols):
        if reduced[j] != 0:
            continue
        au = sum((a * u[k] for k, a in std.cols[j].items()), ZERO)
        if au > 0:
            raise CertificationFailed(f"uniqueness: the witness has -A_j·u < 0 at {_label(std, j)} (reduced cost 0)")
        if au == 0:
            free.append(j)
    if sparse_rank([std.cols[j] for j in free], clock) != len(free):
        raise CertificationFailed(
            f"uniqueness: the optimum is not proved unique: the {len(free)} columns with reduced cost 0 "
            "that the witness does not pin to 0 are linearly dependent"
        )


def check_certified(c: Certified, *, timeout_s: float = 600) -> None:
    """Re-check a :class:`Certified` exactly, from its LP, x, dual components, objective and unique flag.

    Raises CertificationFailed whose message starts with the failed condition: primal feasibility,
    dual feasibility, complementary slackness, equal objectives or uniqueness (a claimed
    ``unique=True`` is re-proved with the witness in ``c.extra["uniqueness_dual"]``, see
    :func:`_check_unique`; ``unique`` False or None claims nothing).
    """
    clock = _Clock(timeout_s)
    std = standard_form(c.lp)
    if [str(a) for a in std.atoms] != list(c.atoms) or len(c.y_components) != len(std.atoms):
        raise CertificationFailed(f"malformed: atoms {list(c.atoms)} do not match the objective's")
    z = _full_point(std, c.x)
    if z is None:
        raise CertificationFailed(f"malformed: x has {len(c.x)} entries for {std.nx} variables")
    if any(len(comp) != std.m for comp in c.y_components):
        raise CertificationFailed(f"malformed: the dual needs {std.m} entries per atom")
    y = [[_q(c.y_components[t][k]) for t in range(len(std.atoms))] for k in range(std.m)]
    reduced = _check(std, z, y, list(c.basis), clock)
    stated = split_coefficient(c.objective)
    computed = {
        std.atoms[t]: _f(sum((std.c[t].get(j, ZERO) * z[j] for j in range(std.nx)), ZERO))
        for t in range(len(std.atoms))
    }
    if stated != {a: v for a, v in computed.items() if v}:
        raise CertificationFailed(f"equal objectives: stated objective {c.objective} != c·x = {combo_value(computed)}")
    if c.unique:
        _check_unique(std, reduced, c.extra.get("uniqueness_dual"), clock)


def solve(
    lp: LinearProgram, *, timeout_s: float, candidate: Sequence[object] | None = None, decide_unique: bool = True
) -> Certified:
    """An exactly certified optimum of ``lp`` (see the module docstring); raises, never guesses."""
    return _solve(lp, _Clock(timeout_s), candidate, decide_unique)


def _solve(lp: LinearProgram, clock: _Clock, candidate, decide_unique: bool) -> Certified:
    std = standard_form(lp)
    basis = z = y = None
    proposer, pivots = "", 0
    if candidate is not None:
        zc = _full_point(std, candidate)
        if zc is not None and all(v >= 0 for v in zc):
            support = [j for j in range(std.ncols) if zc[j] != 0]
            try:
                if len(support) == std.m:
                    basis = support
                else:
                    basis = _complete_basis(std, support, clock) if len(support) < std.m else None
                if basis is not None:
                    B = _Basis(std, basis, clock)
                    y = B.dual()
                    z = zc
                    proposer = "candidate"
                    if B.primal() != zc:
                        basis = None
            except Singular:
                basis = None
    if basis is None:
        hb = _highs_basis(std, max(1.0, clock.deadline - time.perf_counter()))
        if hb is not None:
            try:
                if len(hb) < std.m:
                    hb = _complete_basis(std, hb, clock)
                B = _Basis(std, hb, clock)
                zb = B.primal()
                if all(v >= 0 for v in zb):
                    basis, z, y, proposer = hb, zb, B.dual(), "highs"
                else:  # HiGHS's tolerance: repair primal feasibility exactly, keeping dual feasibility
                    basis, z, y, pivots = _dual_simplex(std, hb, clock)
                    proposer = "highs+exact dual simplex"
            except CertificationFailed:
                basis = None
    if basis is not None:
        try:
            reduced = _check(std, z, y, basis, clock)
        except CertificationFailed:
            basis, z, y, pivots = _simplex(std, basis, clock)
            proposer += "+exact simplex"
            reduced = _check(std, z, y, basis, clock)
    else:
        basis, z, y, pivots = _two_phase(std, clock)
        proposer = "exact two-phase simplex"
        reduced = _check(std, z, y, basis, clock)
    unique, witness = _decide_unique(std, z, basis, reduced, clock) if decide_unique else (None, None)
    if unique:
        _check_unique(std, reduced, witness, clock)  # the claim as exported: re-provable from y and the witness
    ncomp = len(std.atoms)
    y_comp = tuple(tuple(_f(y[k][t]) for k in range(std.m)) for t in range(ncomp))
    y_val = tuple(combo_value({std.atoms[t]: y_comp[t][k] for t in range(ncomp)}) for k in range(std.m))
    obj = combo_value(
        {
            std.atoms[t]: sum((_f(std.c[t].get(j, ZERO) * z[j]) for j in range(std.nx)), Fraction(0))
            for t in range(ncomp)
        }
    )
    return Certified(
        lp,
        tuple(_f(v) for v in z[: std.nx]),
        y_val,
        obj,
        tuple(basis),
        unique,
        tuple(str(a) for a in std.atoms),
        y_comp,
        proposer,
        pivots,
        extra={} if witness is None else {"uniqueness_dual": witness},
    )


def column_label(lp: LinearProgram, j: int) -> str:
    """Name of a standard-form column: a variable, or 'slack(<row name>)'."""
    if j < len(lp.names):
        return lp.names[j]
    k = [i for i, r in enumerate(lp.rows) if r.sense != "="][j - len(lp.names)]
    return f"slack({lp.rows[k].name or k})"


def vertex_reduced_costs(
    lp: LinearProgram, x: Sequence[object], objectives: Sequence[Sequence[tuple[int, object]]], *, timeout_s: float
) -> tuple[list[int], list[list[Fraction]]]:
    """For a nondegenerate vertex x (its positive support, slacks included, is a basis): the
    nonbasic standard-form columns and, per rational objective, their exact reduced costs.

    Reduced costs are linear in the objective, so for c(g) = c0 + g c1 they are d0 + g d1:
    parametric optimality/uniqueness analysis is exact.  Raises CertificationFailed when x is
    infeasible or degenerate."""
    clock = _Clock(timeout_s)
    std = standard_form(lp)
    z = _full_point(std, x)
    if z is None or any(v < 0 for v in z):
        raise CertificationFailed("point is not feasible")
    support = [j for j in range(std.ncols) if z[j] != 0]
    if len(support) != std.m:
        raise CertificationFailed(f"vertex is degenerate or not a vertex ({len(support)} positive of {std.m})")
    B = _Basis(std, support, clock)
    if B.primal() != z:
        raise CertificationFailed("support basis does not reproduce the point")
    nonbasic = [j for j in range(std.ncols) if z[j] == 0]
    out = []
    for obj in objectives:
        s2 = standard_form(lp, objective=obj)
        if s2.atoms != [ONE_ATOM]:
            raise InvalidInput("vertex_reduced_costs needs rational objectives")
        B2 = _Basis(s2, support, clock)
        y = B2.dual()
        out.append([B2.reduced(y, j).get(ONE_ATOM, Fraction(0)) for j in nonbasic])
    return nonbasic, out


def is_vertex(lp: LinearProgram, x: Sequence[object]) -> bool:
    """Whether feasible x is a vertex: the tight constraints (rows and x_j >= 0) have rank = #variables.

    Raises InvalidInput when x is not feasible."""
    xs = [_q(v) for v in x]
    if len(xs) != len(lp.names):
        raise InvalidInput(f"point has {len(xs)} entries, the LP has {len(lp.names)} variables")
    if any(v < 0 for v in xs):
        raise InvalidInput("point is infeasible: a negative variable")
    tight = []
    for k, row in enumerate(lp.rows):
        act = sum((_q(a) * xs[j] for j, a in row.coeffs), ZERO)
        rhs = _q(row.rhs)
        ok = {"<=": act <= rhs, ">=": act >= rhs, "=": act == rhs}[row.sense]
        if not ok:
            raise InvalidInput(f"point is infeasible: constraint {row.name or k}")
        if act == rhs:
            tight.append({j: _q(a) for j, a in row.coeffs if a})
    tight += [{j: Q(1)} for j, v in enumerate(xs) if v == 0]
    return sparse_rank(tight) == len(xs)


__all__ = [
    "Certified",
    "check_certified",
    "column_label",
    "is_vertex",
    "sign_of",
    "solve",
    "split_coefficient",
    "standard_form",
    "vertex_reduced_costs",
]
