"""Exactly certified linear programming: propose with floats, decide with exact arithmetic.

``solve(lp, timeout_s=..., candidate=None)`` returns a :class:`Certified`
optimum of a :class:`udpm.lp.programs.LinearProgram` or raises.  Nothing it
returns rests on a float tolerance:

1. *Propose.*  A candidate point (e.g. the theory's remap of the truncated
   geometric mechanism) or, failing that, a HiGHS basis, iteratively refined
   (udpm.lp.refinement: scaled residual problems re-solved by HiGHS until one exact factorisation
   accepts the basis; its exact solutions are reused below).
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
unique.  If some nonbasic j with d_j = 0 has an edge z + t (e_j - A_B^-1 A_j) that stays >= 0 for a
t > 0 (always at a nondegenerate vertex), that is a second optimum: not unique (:func:`_second_optimum`).
Otherwise let Z be the nonbasic columns with d_j = 0; on F the basic
variables are determined by z_Z (``z_B = A_B^-1(b - A_Z z_Z)``), so F is a
single point iff ``max sum_{j in Z} z_j`` over F is 0.  That auxiliary LP is
solved and certified by this module as well (a rational objective; an unbounded face is shown by an
exact ray, :func:`_exact_ray`, checked from HiGHS's basis, before any exact simplex); its dual
u is kept as the uniqueness witness (``Certified.extra["uniqueness_dual"]``)
and the claim is re-proved from y and u alone (:func:`_check_unique`), which
is what the standard-library checker in udpm.lp.certificates repeats.
:func:`check_certified` re-checks every condition of a Certified result.

>>> from fractions import Fraction as F
>>> from udpm.lp.programs import LinearProgram, Constraint
>>> lp = LinearProgram(("x", "y"), ((0, F(1)), (1, F(1))),
...     (Constraint(((0, F(1)), (1, F(2))), ">=", F(2)), Constraint(((0, F(2)), (1, F(1))), ">=", F(2))))
>>> c = solve(lp, timeout_s=10)
>>> c.objective, c.x, c.unique
(Fraction(4, 3), (Fraction(2, 3), Fraction(2, 3)), True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import flint
import sympy  # noqa: F401  (udpm.lp.certify.sympy: tests patch sympy through it)

from udpm.errors import CertificationFailed, InvalidInput
from udpm.lp import refinement
from udpm.lp.exact_lp import (  # noqa: F401  (_eliminate and sparse_solve are re-exported)
    ZERO,
    Q,
    Singular,
    Unbounded,
    _Clock,
    _eliminate,
    _f,
    _full_point,
    _q,
    _Std,
    sparse_rank,
    sparse_solve,
    standard_form,
)
from udpm.lp.exact_signs import ONE_ATOM, _interval, combo_value, sign_of, split_coefficient  # noqa: F401
from udpm.lp.exact_simplex import _Basis, _complete_basis, _dual_simplex, _iterate, _simplex, _two_phase  # noqa: F401
from udpm.lp.programs import LinearProgram
from udpm.lp.refinement import refined_basis

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


def _highs_basis(std: _Std, timeout_s: float) -> list[int] | None:
    """HiGHS's optimal basis of ``std``, refined (udpm.lp.refinement); None when HiGHS finds no optimum."""
    return refined_basis(std, timeout_s)


def _exact_ray(std: _Std, clock: _Clock) -> int | None:
    """A column j whose edge from HiGHS's last basis is an exact ray of an unbounded LP, or None.

    HiGHS (udpm.lp.refinement, ``LAST[..]["unbounded"]``) proposes its basis B and a float ray.  For the
    ray's nonbasic columns j, w = A_B^-1 A_j is solved exactly: if w <= 0 and the reduced cost
    c_j - c_B·w < 0, then r = e_j - w has r >= 0, A r = 0 and c·r < 0, so from any feasible point
    the objective decreases without bound along r."""
    proposal = next((st["unbounded"] for st in refinement.LAST if "unbounded" in st), None)
    if proposal is None:
        return None
    hb, ray = proposal
    try:
        basis = _complete_basis(std, hb, clock) if len(hb) < std.m else list(hb)
        in_basis = set(basis)
        cand = sorted((j for j in range(std.ncols) if j not in in_basis and ray[j] > 0), key=lambda j: -ray[j])
        cand = cand[:SECOND_OPTIMUM_BATCH]
        if not cand:
            return None
        # _Basis factors lazily: a singular proposal raises Singular here
        w = _Basis(std, basis, clock)._solve([[std.cols[j].get(k, ZERO) for j in cand] for k in range(std.m)])
    except CertificationFailed:
        return None
    for t, j in enumerate(cand):
        if any(w[pos][t] > 0 for pos in range(std.m)):
            continue
        d = {}
        for a, atom in enumerate(std.atoms):
            v = std.c[a].get(j, ZERO) - sum((std.c[a].get(bj, ZERO) * w[pos][t] for pos, bj in enumerate(basis)), ZERO)
            if v != 0:
                d[atom] = _f(v)
        if sign_of(d) < 0:
            return j
    return None


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
        reduced[j] = B.reduced_sign(y, j)
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


SECOND_OPTIMUM_BATCH = 64  # free columns whose edge directions are solved in one elimination


def _second_optimum(std: _Std, z, basis, free: list[int], clock: _Clock) -> int | None:
    """A free column j (nonbasic, reduced cost 0) along whose simplex edge the optimum moves, or None.

    With w = A_B^-1 A_j, the points z + t (e_j - w) satisfy A z = b and have the same objective
    (d_j = 0); for t > 0 small they stay >= 0 exactly when no basic entry with w > 0 is 0.  Such a
    point is a second optimum, so the optimum is not unique (exactly, from one solve with the basis).
    When every free column's edge is blocked at t = 0 (a degenerate vertex) this decides nothing and
    the optimal-face LP decides."""
    if any(j >= std.ncols for j in basis):
        return None  # an artificial left basic at 0 by the two-phase simplex: the face LP decides
    B = _Basis(std, basis, clock)
    zero_basic = [pos for pos, j in enumerate(basis) if z[j] == 0]
    start, size = 0, 4  # 4 columns first, then batches growing to SECOND_OPTIMUM_BATCH
    while start < len(free):
        batch = free[start : start + size]
        start, size = start + size, min(4 * size, SECOND_OPTIMUM_BATCH)
        if not zero_basic:
            return batch[0]  # nondegenerate: every edge leaves the vertex with t > 0
        w = B._solve([[std.cols[j].get(k, ZERO) for j in batch] for k in range(std.m)])
        for t, j in enumerate(batch):
            if all(w[pos][t] <= 0 for pos in zero_basic):
                return j
    return None


def _decide_unique(std: _Std, z, basis, reduced, clock: _Clock) -> tuple[bool, tuple[Fraction, ...] | None]:
    """(unique?, witness u): u is the certified dual of the optimal-face LP when one was needed."""
    in_basis = set(basis)
    free = [j for j in range(std.ncols) if j not in in_basis and reduced[j] == 0]
    if not free:
        return True, None
    if _second_optimum(std, z, basis, free, clock) is not None:
        return False, None
    from udpm.lp.programs import Constraint, LinearProgram

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
        aux = _solve(face, clock, start, decide_unique=False, repair_candidate=False)
    except Unbounded:
        return False, None  # an unbounded optimal face is not a point
    if aux.objective != 0:
        return False, None
    return True, aux.y_components[0]


def _check_unique(
    std: _Std, reduced: dict[int, int], witness: Sequence[object] | None, clock: _Clock, factored=()
) -> None:
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
    if set(free) <= set(factored):
        return  # columns of a basis this solve factored exactly (SparseLU raises Singular otherwise)
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


def _solve(
    lp: LinearProgram, clock: _Clock, candidate, decide_unique: bool, repair_candidate: bool = True
) -> Certified:
    """``repair_candidate`` False: a candidate that is not optimal is dropped for the HiGHS proposal
    (refined) instead of being pivoted on by the exact simplex."""
    std = standard_form(lp)
    basis = z = y = reduced = None
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
    fallback = None  # a feasible candidate basis set aside for the HiGHS proposal, kept for the repair
    if basis is not None and not repair_candidate:
        try:
            reduced = _check(std, z, y, basis, clock)
        except CertificationFailed:
            fallback, basis, z, y = (basis, z, y), None, None, None
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
        if basis is None and fallback is not None and _exact_ray(std, clock) is not None:
            raise Unbounded("the LP is unbounded below (a feasible candidate and an exact ray)")
        if basis is None and fallback is not None:
            # HiGHS proposed nothing usable (e.g. an unbounded optimal-face LP): the exact simplex from the
            # feasible candidate, not the two-phase simplex from scratch (was 0.3 s vs 49 s on a grs2011 (9) LP)
            basis, z, y = fallback
            proposer = "candidate"
    if basis is not None and reduced is not None and proposer == "candidate":
        pass  # checked above
    elif basis is not None:
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
        # the claim as exported: re-provable from y and the witness (the basis was factored exactly)
        _check_unique(std, reduced, witness, clock, factored=basis)
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
