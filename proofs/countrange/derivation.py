"""Count-range derivation problem (zlcn2013 Section 3.2-3.3): no DP matrix derives the given vectors, as one z3 query.

The reduction to finitely many output columns (used for Lemma 2, Corollary 2
and Theorem 3).  Suppose a DP matrix A (rows = counts, m columns, any m) and
transformations t^1..t^K in [0,1]^m derive the vectors z^1..z^K.  Split each
column j into the 2^K columns w_s(j) a_j, s in {0,1}^K, with the product
weights w_s(j) = prod_k (t^k_j if s_k = 1 else 1 - t^k_j) (they sum to 1), and
give the copy s the 0/1 transformation values s.  Scaling keeps a column DP,
sum_s w_s(j) s_k = t^k_j keeps every derived vector, and rows still sum to 1.
Then merge all columns with the same s: a sum of DP columns is DP.  So a
derivation exists for some m iff one exists with exactly 2^K columns indexed by
s in {0,1}^K with 0/1 transformations, which is a linear feasibility problem in
the matrix entries: "no DP matrix derives them" is its z3 unsat, for every m.
For K = 2 that 4-column matrix is exactly Theorem 3's joint mechanism
t_(mu,i,j) (first consumer says i, second says j), so Lemma 2 and the
count-oriented Theorem 3 are the same linear problem.

Symbolic alpha: the same problem with a a z3 real variable, 0 < a < 1 (nonlinear
real arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.

The z3 helpers here (the vacuity guard, the internal a as a z3 term, DP columns) serve every z3 query of
the count-range proof modules (proofs/countrange*.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import z3

from proofs.countrange.alpha import SYMBOLIC, ZLCN_ALPHAS, Alpha, internal, label
from udpm.claims.registry import Context
from udpm.errors import VacuousPremise
from udpm.smt.solvers import decide, model_value, premise_witness

F = Fraction


# --- z3 helpers ---------------------------------------------------------------------------------


def premises_hold(premises: Sequence, pins: Sequence, timeout_s: float, what: str) -> str:
    """The vacuity guard of every z3 query here: the hypotheses have a model (udpm.smt.solvers.premise_witness), else
    VacuousPremise.  ``pins`` name a canonical point (the paper's own vectors, say) tried first, so that the
    recorded witness does not depend on z3's internal term order; the pins only narrow the premises, so a model
    with them is a model of the premises.  Returns the witness as text (zero entries left out)."""
    try:
        w = premise_witness([*premises, *pins], timeout_s, what)
    except VacuousPremise:
        w = premise_witness(premises, timeout_s, what)  # raises when the premises themselves are contradictory
    return ", ".join(f"{k}={v}" for k, v in w.items() if v != "0") or "every variable 0"


def z3_alpha(alpha: Alpha) -> tuple[z3.ArithRef, list]:
    """The internal a as a z3 term, and its side conditions: the constant internal(alpha), or a variable in (0, 1)."""
    if alpha == SYMBOLIC:
        v = z3.Real("a")
        return v, [v > 0, v < 1]
    return z3.RealVal(str(internal(alpha))), []


def z3_power(t: z3.ArithRef, e: int) -> z3.ArithRef:
    out = z3.RealVal(1)
    for _ in range(abs(e)):
        out = out * t
    return out if e >= 0 else 1 / out


class _Z3Alpha:
    """The internal a as a z3 term that also supports integer powers (z3 has no ** with negative exponents)."""

    def __init__(self, t: z3.ArithRef) -> None:
        self.t = t

    def _w(self, o):
        return o.t if isinstance(o, _Z3Alpha) else o

    def __add__(self, o):
        return _Z3Alpha(self.t + self._w(o))

    __radd__ = __add__

    def __sub__(self, o):
        return _Z3Alpha(self.t - self._w(o))

    def __rsub__(self, o):
        return _Z3Alpha(self._w(o) - self.t)

    def __mul__(self, o):
        return _Z3Alpha(self.t * self._w(o))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return _Z3Alpha(self.t / self._w(o))

    def __rtruediv__(self, o):
        return _Z3Alpha(self._w(o) / self.t)

    def __pow__(self, e: int):
        return _Z3Alpha(z3_power(self.t, int(e)))


def _unwrap(v):
    return v.t if isinstance(v, _Z3Alpha) else v


def vector_terms(vector: Callable[[object], list], alpha: Alpha, a: z3.ArithRef) -> list:
    """The vector at the zlcn label alpha as z3 terms: symbolic in the z3 variable a, or exact at internal(alpha)."""
    if alpha == SYMBOLIC:
        return [_unwrap(v) if isinstance(v, _Z3Alpha) else z3.RealVal(str(v)) for v in vector(_Z3Alpha(a))]
    return [z3.RealVal(str(F(v))) for v in vector(internal(alpha))]


def dp_column(col: Sequence[z3.ArithRef], a: z3.ArithRef) -> list:
    """alpha-DP of one column over neighbouring counts, internal form a x <= y <= x / a, and non-negativity."""
    out = [v >= 0 for v in col]
    for x, y in zip(col, col[1:]):
        out += [a * x <= y, a * y <= x]
    return out


def at_model(alpha: Alpha, m: z3.ModelRef, a: z3.ArithRef) -> str:
    """The alpha of a z3 model, for messages: the zlcn label, or the internal a the solver chose."""
    return label(alpha) if alpha != SYMBOLIC else f"internal a={model_value(m, a)} (zlcn alpha = 1/a)"


def pin_alpha(alpha: Alpha, a: z3.ArithRef) -> list:
    """The canonical point of a symbolic alpha for a premise witness: zlcn alpha = 2 (a = 1/2)."""
    return [a == z3.RealVal("1/2")] if alpha == SYMBOLIC else []


# --- the finite derivation problem ---------------------------------------------------------------


def derivation_problem(targets: Sequence[Callable[[object], list]], alpha: Alpha, rows: Sequence[int] | None = None):
    """The 2^K-column problem of the module docstring: a DP matrix with columns s in {0,1}^K deriving
    targets[k] with the 0/1 transformation s_k.  Returns (premises, goal, pins, matrix terms, types, internal a):
    the premises say the matrix is a DP mechanism, the goal that it derives every target, and the pins are a
    canonical model of the premises (every row on the column s = 0...0)."""
    a, side = z3_alpha(alpha)
    vecs = [vector_terms(t, alpha, a) for t in targets]
    idx = list(range(len(vecs[0]))) if rows is None else list(rows)
    types = list(itertools.product((0, 1), repeat=len(vecs)))
    mat = [[z3.Real(f"m_{i}_{''.join(map(str, s))}") for s in types] for i in idx]
    premises, goal = list(side), []
    for r in range(len(idx)):
        premises.append(z3.Sum(mat[r]) == 1)
    for c in range(len(types)):
        premises += dp_column([mat[r][c] for r in range(len(idx))], a)
    for r, i in enumerate(idx):
        for k, vec in enumerate(vecs):
            goal.append(z3.Sum([mat[r][c] for c, s in enumerate(types) if s[k] == 1]) == vec[i])
    pins = pin_alpha(alpha, a) + [v == (1 if c == 0 else 0) for row in mat for c, v in enumerate(row)]
    return premises, goal, pins, mat, types, a


def derivation(targets, alpha: Alpha, timeout_s: float, rows: Sequence[int] | None = None) -> tuple[str | None, str]:
    """(None if no DP matrix (any number of columns) derives every target, else the derivation found; the
    premise witness).  alpha is a zlcn2013 label (> 1) or SYMBOLIC."""
    premises, goal, pins, mat, types, a = derivation_problem(targets, alpha, rows)
    witness = premises_hold(premises, pins, timeout_s, f"DP matrix at {label(alpha)}")
    out = decide([*premises, *goal], timeout_s)
    if out.unsat:
        return None, witness
    m = out.model
    entries = [[model_value(m, v) for v in row] for row in mat]
    cols = ", ".join("t=" + "".join(map(str, s)) for s in types)
    return (
        f"{at_model(alpha, m, a)}: the DP matrix {entries} (columns {cols}) derives every target "
        "with 0/1 transformations"
    ), witness


def alphas_for(ctx: Context) -> list[Alpha]:
    return [*ZLCN_ALPHAS, SYMBOLIC]


JOINT = "every DP joint mechanism t_(mu,i,j) (any number of outputs, by the 4-column reduction)"
