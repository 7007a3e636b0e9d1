"""Iterative refinement of HiGHS's optimal basis (the SoPlex method), so that the exact check needs few
or no simplex pivots.  Floats only propose a basis here; udpm.lp.certify decides.

HiGHS solves ``min c z, A z = b, z >= 0`` (the standard form: one slack column per inequality row) in
double precision with tolerances near 1e-7, so a basis whose exact basic solution has entries of order
alpha^n (below the tolerance) is often not exactly optimal.  Refinement keeps an exact rational primal
``x_k`` and dual ``y_k`` and re-solves, warm-started from the last basis, the *residual problem*

    min  Delta_D * d_k . dz   s.t.  A dz = Delta_P * (b - A x_k),  dz >= -Delta_P * x_k,

where ``d_k = c - A^T y_k`` are the exact reduced costs and Delta_P, Delta_D are powers of 2 that scale
the largest primal violation (a row residual or a negative entry of x_k) and the largest dual violation
(a negative reduced cost) to about 1.  Then ``x_{k+1} = x_k + dz / Delta_P`` and
``y_{k+1} = y_k + dy / Delta_D``: every round resolves about as many bits as HiGHS's tolerance, at a
scale where the tiny entries are of order 1 (Gleixner, Steffy and Wolter, "Iterative refinement for
linear programming", INFORMS J. Computing 28(3), 2016).  The residuals are computed exactly (FLINT
rationals); only the residual problem is rounded to floats.

The loop stops at the first basis whose exact basic solution ``z_B = A_B^-1 b`` and dual
``y = A_B^-T c_B`` are feasible (checked exactly, :func:`exactly_optimal`); a basis that fails this
check supplies its exact solutions as the next ``x_k``, ``y_k`` (their violations are exactly the
negative basic entries and reduced costs, so the next residual problem is scaled to them).  The
exact solutions of the accepted basis are kept in ``std.known`` so that udpm.lp.certify does not
recompute them.  Statistics of the last call are in :data:`LAST`.

HiGHS is first run once, cold, on the LP with its inequality rows as row bounds (no slack columns; devex
pricing), which takes about half the time of the standard form.  Up to :data:`QUICK_CHECK_ROWS` rows that
basis is checked exactly at once (small LPs are usually done there); otherwise every attempt (option set)
starts its standard-form model warm from it.  An unbounded first solve leaves HiGHS's basis and ray in
``LAST[..]["unbounded"]`` for udpm.lp.certify's exact ray check.
"""

from __future__ import annotations

import time

import flint

from udpm.errors import CertificationFailed, SolverTimeout
from udpm.lp.exact_lp import ZERO, Q, Singular, _Clock, _Std

MAX_ROUNDS = 40  # refinement rounds (residual re-solves); 0 = HiGHS's basis as it is (the unrefined path)
MAX_EXACT_CHECKS = 6  # exact factorisations of a candidate basis during refinement
GROWTH_BITS = 60  # the scaling factors grow by at most 2^GROWTH_BITS per round
CLIP = 2.0**40  # scaled positive reduced costs above this are clipped to it (see the residual problem below)
INF_BOUND = 1e30  # a scaled lower bound below -INF_BOUND is passed to HiGHS as -inf
# HiGHS option sets tried in turn until one refines to an exactly optimal basis, each warm-started from the
# same first basis (measured on the grs2011 LP U and M at n = 100, warm: tolerances 1e-9 converge for both,
# the defaults stall on U with a solve error; at n <= 70 both converge).
ATTEMPTS: tuple[dict, ...] = (
    {"primal_feasibility_tolerance": 1e-9, "dual_feasibility_tolerance": 1e-9},
    {},
)  # scaled bounds below -CLIP and scaled costs above CLIP are clipped to it (see below)

HIGHS_OPTIONS = {"presolve": "off"}
# devex pricing for the first (cold) solve: on the grs2011 LP at n = 100 it takes 30-40% less time than HiGHS's
# default (dual steepest edge); the warm residual re-solves keep the default (with devex they fail more often)
FIRST_OPTIONS = {"simplex_dual_edge_weight_strategy": 1}
QUICK_CHECK_ROWS = 1000  # up to this many rows, the first solve's basis is checked exactly before any refinement
WARM_START = True  # every attempt starts from the basis of one HiGHS solve with inequality rows (_native_start)
LAST: list[dict] = []  # statistics of each attempt of the last refined_basis call (rounds, exact checks, ...)


def _fq(v: float) -> flint.fmpq:
    n, d = float(v).as_integer_ratio()
    return Q(n, d)


def _log2(v: flint.fmpq) -> int:
    """floor-ish log2 of a positive rational (within 1)."""
    return int(v.p).bit_length() - int(v.q).bit_length()


def _scaled_float(v: flint.fmpq, e: int) -> float:
    """float(v * 2^e), correctly rounded (Python's int / int); +-inf beyond the float range."""
    if v == 0:
        return 0.0
    p, q = int(v.p), int(v.q)
    if q == 1 and e == 0 and -(2**53) <= p <= 2**53:
        return float(p)
    if e >= 0:
        p <<= e
    else:
        q <<= -e
    try:
        return p / q
    except OverflowError:
        return float("inf") if p > 0 else float("-inf")


def _objective(std: _Std) -> list[flint.fmpq]:
    """The objective as rationals: exact when it is rational, else each atom rounded to ~120 bits."""
    if len(std.atoms) == 1:
        return [std.c[0].get(j, ZERO) for j in range(std.ncols)]
    import mpmath

    mpmath.mp.prec = 120
    vals = []
    for atom in std.atoms:
        man, exp = mpmath.mpf(str(atom.evalf(40))).man_exp
        vals.append(Q(int(man)) * Q(2) ** exp if exp >= 0 else Q(int(man), 2 ** (-exp)))
    c = [ZERO] * std.ncols
    for t, v in enumerate(vals):
        for j, q in std.c[t].items():
            c[j] += q * v
    return c


class _Model:
    """The standard form in HiGHS (equality rows; variables z >= 0), kept for warm-started re-solves."""

    def __init__(self, std: _Std, cost: list[flint.fmpq], timeout_s: float, options: dict):
        import highspy
        import numpy as np

        self.hs, self.np = highspy, np
        h = self.h = highspy.Highs()
        h.silent()
        h.setOptionValue("time_limit", float(timeout_s))
        for opt, v in {**HIGHS_OPTIONS, **options}.items():
            h.setOptionValue(opt, v)
        nc, m = std.ncols, std.m
        starts, idx, val = [], [], []
        for j in range(nc):
            starts.append(len(idx))
            for k, a in sorted(std.cols[j].items()):
                idx.append(k)
                val.append(_scaled_float(a, 0))
        b = np.array([_scaled_float(v, 0) for v in std.b])
        h.addRows(m, b, b, 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
        h.addCols(
            nc,
            np.array([_scaled_float(v, 0) for v in cost]),
            np.zeros(nc),
            np.full(nc, highspy.kHighsInf),
            len(idx),
            np.array(starts, np.int32),
            np.array(idx, np.int32),
            np.array(val),
        )
        self.all_cols = np.arange(nc, dtype=np.int32)
        self.all_rows = np.arange(m, dtype=np.int32)

    def warm(self, start) -> None:
        """Start from a basis (col_status, row_status) of the standard form."""
        b = self.hs.HighsBasis()
        b.col_status, b.row_status = start
        b.valid = True
        self.h.setBasis(b)

    def run(self, first: bool = False) -> bool:
        """Solve; True when HiGHS has a solution to propose.  A residual problem whose status is only
        'unknown' (HiGHS's unscaled tolerances not all met) still proposes its primal and dual values."""
        self.h.run()
        status = self.h.getModelStatus()
        if status == self.hs.HighsModelStatus.kOptimal:
            return True
        sol = self.h.getSolution()
        return not first and status == self.hs.HighsModelStatus.kUnknown and sol.value_valid and sol.dual_valid

    def iterations(self) -> int:
        return int(self.h.getInfo().simplex_iteration_count)

    def basis(self, std: _Std) -> list[int]:
        """HiGHS's basic columns; a basic logical of an inequality row k is its slack column (both are
        +-e_k and the logical of an equality row is fixed at 0, so the basic solution is the same)."""
        b = self.h.getBasis()
        col_status, row_status = list(b.col_status), list(b.row_status)
        basic = self.hs.HighsBasisStatus.kBasic
        out = [j for j in range(std.ncols) if col_status[j] == basic]
        in_basis = set(out)
        for k in range(std.m):
            s = std.slack_of_row[k]
            if row_status[k] == basic and s is not None and s not in in_basis:
                out.append(s)
                in_basis.add(s)
        return out

    def resolve(self, rhs: list[float], lower: list[float], cost: list[float]) -> bool:
        np, h = self.np, self.h
        r = np.array(rhs)
        h.changeRowsBounds(len(r), self.all_rows, r, r)
        nc = len(lower)
        h.changeColsBounds(nc, self.all_cols, np.array(lower), np.full(nc, self.hs.kHighsInf))
        h.changeColsCost(nc, self.all_cols, np.array(cost))
        if self.run():
            return True
        h.clearSolver()  # a numerical failure of the warm start: once more from a fresh factorisation
        return self.run()


def _native_start(std: _Std, cost: list[flint.fmpq], timeout_s: float, options: dict):
    """HiGHS's optimal basis of the LP with its inequality rows as row bounds (no slack columns: about half
    the simplex iterations of the standard form on the grs2011 LP), translated to the standard form's
    (col_status, row_status); None when that solve is not optimal (the standard form then starts cold)."""
    import highspy
    import numpy as np

    h = highspy.Highs()
    h.silent()
    h.setOptionValue("time_limit", float(timeout_s))
    for opt, v in {**HIGHS_OPTIONS, **FIRST_OPTIONS, **options}.items():
        h.setOptionValue(opt, v)
    nx, m = std.nx, std.m
    starts, idx, val = [], [], []
    for j in range(nx):
        starts.append(len(idx))
        for k, a in sorted(std.cols[j].items()):
            idx.append(k)
            val.append(_scaled_float(a, 0))
    inf = highspy.kHighsInf
    lo, hi = [], []
    for k in range(m):
        bk = _scaled_float(std.b[k], 0)
        s = std.slack_of_row[k]
        sign = 0 if s is None else int(std.cols[s][k])  # +1: a <= row, -1: a >= row
        lo.append(bk if sign <= 0 else -inf)
        hi.append(bk if sign >= 0 else inf)
    h.addRows(m, np.array(lo), np.array(hi), 0, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(0))
    h.addCols(
        nx,
        np.array([_scaled_float(v, 0) for v in cost[:nx]]),
        np.zeros(nx),
        np.full(nx, inf),
        len(idx),
        np.array(starts, np.int32),
        np.array(idx, np.int32),
        np.array(val),
    )
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    b = h.getBasis()
    basic, lower = highspy.HighsBasisStatus.kBasic, highspy.HighsBasisStatus.kLower
    col_status, row_status = list(b.col_status), list(b.row_status)
    cols = col_status + [lower] * (std.ncols - nx)
    rows = []
    for k in range(m):
        s = std.slack_of_row[k]
        if s is None:
            rows.append(basic if row_status[k] == basic else lower)
        else:  # the row's logical is the slack column; the standard form's row is an equality, nonbasic
            cols[s] = basic if row_status[k] == basic else lower
            rows.append(lower)
    return cols, rows


def exactly_optimal(std: _Std, basis: list[int], clock: _Clock):
    """(ok, z, y) for a basis: its exact basic solution z and dual y, ok when both are feasible."""
    from udpm.lp.exact_simplex import _Basis

    B = _Basis(std, basis, clock)
    y = B.dual()
    in_basis = set(basis)
    for j in range(std.ncols):
        if j not in in_basis and B.reduced_sign(y, j) < 0:
            return False, None, y  # not dual feasible: the primal solve is spared
    z = B.primal()
    return all(v >= 0 for v in z), z, y


def _complete(std: _Std, basis: list[int], clock: _Clock) -> list[int]:
    if len(basis) == std.m:
        return basis
    from udpm.lp.exact_simplex import _complete_basis

    return _complete_basis(std, basis, clock)


def refined_basis(std: _Std, timeout_s: float) -> list[int] | None:
    """An optimal basis of ``std`` proposed by HiGHS and refined; None when HiGHS finds no optimum.

    The basis returned is exactly optimal when refinement converged within its bounds (its exact
    solutions are then in ``std.known``); otherwise it is the first attempt's last basis, for the exact
    repair in udpm.lp.certify."""
    LAST.clear()
    deadline = time.perf_counter() + timeout_s
    first = None
    attempts = ATTEMPTS if MAX_ROUNDS else ATTEMPTS[:1]
    start = _native_start(std, _objective(std), timeout_s, {}) if WARM_START else None
    if start is not None and MAX_ROUNDS and std.m <= QUICK_CHECK_ROWS:
        quick = _first_basis_exact(std, start, timeout_s)
        if quick is not None:
            return quick
    for options in attempts:
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        stats = {"options": options, "rounds": 0, "exact_checks": 0, "converged": False}
        LAST.append(stats)
        try:
            basis = _attempt(std, left, options, stats, start)
        except SolverTimeout:
            break
        if basis is None:
            return first
        first = first or basis
        if stats["converged"] or not MAX_ROUNDS:
            return basis
    return first


def _first_basis_exact(std: _Std, start, timeout_s: float) -> list[int] | None:
    """The first solve's basis when one exact check accepts it as it is (no residual problem), else None."""
    import highspy

    stats = {"options": "first basis, exact check", "rounds": 0, "exact_checks": 1, "converged": False}
    LAST.append(stats)
    clock = _Clock(max(timeout_s, 1e-3))
    basic = highspy.HighsBasisStatus.kBasic
    try:
        full = _complete(std, [j for j in range(std.ncols) if start[0][j] == basic], clock)
        ok, z, y = exactly_optimal(std, full, clock)
    except (Singular, CertificationFailed):
        return None
    if not ok:
        return None
    std.known[tuple(full)] = (z, y)
    stats["converged"] = True
    return full


def _attempt(std: _Std, timeout_s: float, options: dict, LAST: dict, warm=None) -> list[int] | None:
    start = time.perf_counter()
    clock = _Clock(max(timeout_s, 1e-3))
    cost = _objective(std)
    model = _Model(std, cost, timeout_s, options)
    if warm is not None:
        model.warm(warm)
    if not model.run(first=True):
        if model.h.getModelStatus() == model.hs.HighsModelStatus.kUnbounded:
            has_ray, ray = model.h.getPrimalRay()[1:]
            if has_ray:  # proposals for an exact ray (udpm.lp.certify decides)
                LAST["unbounded"] = (model.basis(std), [float(v) for v in ray])
        return None
    basis = model.basis(std)
    LAST["iterations"] = [model.iterations()]
    if MAX_ROUNDS == 0:
        return basis
    sol = model.h.getSolution()
    x = [_fq(v) for v in sol.col_value]
    y = [_fq(v) for v in sol.row_dual]
    ep = ed = 0  # log2 of the scaling factors
    checked: set[tuple[int, ...]] = set()
    # a warm start ends in 0 iterations without being exact: its float solution is refined first, as a cold one
    last_iters = LAST["iterations"][0] if warm is None else -1
    for _ in range(MAX_ROUNDS + 1):
        # exact residuals of (x, y)
        res = list(std.b)
        for j, xj in enumerate(x):
            if xj != 0:
                for k, a in std.cols[j].items():
                    res[k] -= a * xj
        d = []
        for j in range(std.ncols):
            v = cost[j]
            for k, a in std.cols[j].items():
                if y[k] != 0:
                    v -= a * y[k]
            d.append(v)
        vp = max([abs(r) for r in res if r != 0] + [-v for v in x if v < 0] + [ZERO])
        vd = max([-v for v in d if v < 0] + [ZERO])
        key = tuple(sorted(basis))
        if (vp == 0 and vd == 0) or (last_iters == 0 and key not in checked):
            if len(checked) >= MAX_EXACT_CHECKS:
                break
            checked.add(key)
            LAST["exact_checks"] += 1
            try:
                full = _complete(std, basis, clock)
                ok, z, yy = exactly_optimal(std, full, clock)
            except (Singular, CertificationFailed):
                break
            if ok:
                std.known[tuple(full)] = (z, yy)
                LAST["converged"] = True
                basis = full
                break
            x = x if z is None else z
            y = [v[0] for v in yy] if len(std.atoms) == 1 else y
            continue  # rescale to the exact solutions' violations
        if LAST["rounds"] >= MAX_ROUNDS:
            break
        clock.tick("iterative refinement")
        ep = min(-_log2(vp), ep + GROWTH_BITS) if vp != 0 else ep + GROWTH_BITS
        ed = min(-_log2(vd), ed + GROWTH_BITS) if vd != 0 else ed + GROWTH_BITS
        ep, ed = max(ep, 0), max(ed, 0)
        rhs = [_scaled_float(r, ep) for r in res]
        # Clipping large positive reduced costs keeps HiGHS's absolute dual tolerance meaningful (a cost of
        # 1e12 leaves ~1e-4 of rounding); a lowered positive cost keeps every dy HiGHS returns improving y_k.
        lower = [_scaled_float(-v, ep) if v != 0 else 0.0 for v in x]
        lower = [lo if lo > -INF_BOUND else -model.hs.kHighsInf for lo in lower]
        obj = [min(_scaled_float(v, ed), CLIP) for v in d]
        LAST["rounds"] += 1
        LAST.setdefault("scales", []).append((ep, ed))
        if not model.resolve(rhs, lower, obj):
            LAST["status"] = model.h.modelStatusToString(model.h.getModelStatus())
            inf = model.h.getInfo()
            LAST["info"] = (inf.simplex_iteration_count, inf.max_primal_infeasibility, inf.max_dual_infeasibility)
            break
        last_iters = model.iterations()
        LAST["iterations"].append(last_iters)
        sol = model.h.getSolution()
        sp, sd = Q(2) ** ep, Q(2) ** ed
        x = [xj + _fq(v) / sp if v != 0 else xj for xj, v in zip(x, sol.col_value)]
        y = [yk + _fq(v) / sd if v != 0 else yk for yk, v in zip(y, sol.row_dual)]
        basis = model.basis(std)
    LAST["seconds"] = round(time.perf_counter() - start, 3)
    return basis


__all__ = ["LAST", "MAX_ROUNDS", "exactly_optimal", "refined_basis"]
