"""The printed boundary alpha = 0 of grs2011 Section 3 and grs2009 Theorems 3.1, 6.1 (all print alpha in [0, 1]).

Reading of 0-DP.  grs2011/grs2009 Section 2.1 ask x_ir / x_(i+1)r in [alpha, 1/alpha] with 0/0 = 1.  At alpha = 0 the
interval is [0, 1/0]; it is read as [0, infinity] (x/0 = infinity for x > 0 is inside), so EVERY mechanism is 0-DP.
The papers support this reading: grs2011 Example 2.1 calls the 0-geometric mechanism (always the true result, the
identity, whose ratios are 1/0) 0-DP, and gs2010 Section 2.1 says "when alpha = 0, the above definition is vacuous".

The truncated 0-geometric mechanism T(n, 0) is the identity I under both readings: Example 2.1's 0-geometric mechanism
truncated, and Example 2.2's formula at alpha = 0 with 0^0 = 1 (:func:`formula_at_zero`).  So for legal losses
(l(i, i) <= l(i, j)) I is optimal for every user, the uniform binary-loss user has I as its unique optimum (loss 0),
and a range-N mechanism that derives I is a permutation matrix.  Each fact is one linear SMT query per n over every
user and every mechanism (premises shown satisfiable first, witness recorded as a value).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

import z3

from udpm.claims.findings import Findings
from udpm.errors import HarnessError
from udpm.smt.solvers import decide, model_value, premise_witness

Matrix = list[list[F]]

#: The reading of alpha = 0 stated in every record that decides it.
ZERO_DP_READING = (
    "alpha = 0: the ratio interval [0, 1/0] read as [0, infinity] (0/0 = 1), so every mechanism is 0-DP (grs2011 "
    "Example 2.1's 0-geometric mechanism is the identity; gs2010 Section 2.1: the definition is 'vacuous' at 0)"
)

NoExtra = Callable[..., list]


def _none(*_: object) -> list:
    return []


def identity(n: int) -> Matrix:
    return [[F(int(i == j)) for j in range(n + 1)] for i in range(n + 1)]


def formula_at_zero(n: int) -> Matrix:
    """grs2011 Example 2.2's truncated-geometric formula at alpha = 0, 0^0 = 1: alpha^f/(1+alpha) at the two ends,
    (1-alpha)/(1+alpha) alpha^|delta| inside.

    >>> formula_at_zero(2) == identity(2)
    True
    """
    a = F(0)
    rows = []
    for i in range(n + 1):
        row = [(1 - a) / (1 + a) * a ** abs(j - i) for j in range(n + 1)]
        row[0] = a**i / (1 + a)
        row[n] = a ** (n - i) / (1 + a)
        if n == 0:
            row[0] = F(1)
        rows.append(row)
    return rows


def _stochastic(prefix: str, size: int) -> tuple[list[list[z3.ArithRef]], list[z3.BoolRef]]:
    x = [[z3.Real(f"{prefix}_{i}_{r}") for r in range(size)] for i in range(size)]
    return x, [v >= 0 for row in x for v in row] + [z3.Sum(row) == 1 for row in x]


def _exact(model: z3.ModelRef, term: z3.ExprRef) -> F:
    return F(model_value(model, term))


def _recheck(holds: bool, what: str) -> None:
    if not holds:
        raise HarnessError(f"an SMT model does not re-check exactly: {what}")


def _witness(rec: Findings, premises: list, timeout_s: float, what: str, n: int) -> None:
    w = premise_witness(premises, timeout_s, what)
    rec.value(**{f"premise witness ({what}, n = {n})": ", ".join(f"{k}={v}" for k, v in w.items())})


def identity_beaten(n: int, timeout_s: float, rec: Findings, extra: NoExtra = _none, legal: bool = True) -> str | None:
    """A legal user and a direct mechanism beating I, or None (SMT unsat).

    The users: v_(i,k) = p_i l(i, i+-k), nondecreasing in k (every prior, every legal loss, negative losses too).  The
    mechanisms: every deterministic one (row i answers c_i); the loss is linear in the mechanism and every stochastic
    matrix is a convex combination of deterministic ones, so this covers every 0-DP mechanism with range N.
    ``legal=False`` drops the monotonicity (a false variant: the tests).  A model is re-checked exactly."""
    size = n + 1
    v = [[z3.Real(f"v_{i}_{k}") for k in range(size)] for i in range(size)]
    c = [z3.Int(f"c_{i}") for i in range(size)]
    premises = [v[i][k] <= v[i][k + 1] for i in range(size) for k in range(n)] if legal else []
    premises += [z3.And(0 <= ci, ci <= n) for ci in c] + extra(v, c)
    _witness(rec, premises, timeout_s, "alpha = 0: legal users and deterministic mechanisms", n)
    loss = z3.Sum([z3.If(c[i] == j, v[i][abs(j - i)], 0) for i in range(size) for j in range(size)])
    out = decide([*premises, loss < z3.Sum([v[i][0] for i in range(size)])], timeout_s)
    if out.unsat:
        return None
    vv = [[_exact(out.model, e) for e in row] for row in v]
    cc = [int(_exact(out.model, e)) for e in c]
    _recheck(sum(vv[i][abs(cc[i] - i)] for i in range(size)) < sum(row[0] for row in vv), "I beaten")
    return f"weights v_(i,|j-i|) = {[[str(e) for e in row] for row in vv]}, row i answers c_i = {cc}"


def binary_user_second_optimum(
    n: int, timeout_s: float, rec: Findings, extra: NoExtra = _none, miss: int = 1
) -> str | None:
    """A stochastic Z other than I with the uniform binary-loss user's loss 0 (sum_i miss (1 - z_ii) / (n+1)), or
    None (SMT unsat: I is that user's unique optimum over every 0-DP mechanism with range N).  ``miss = 0``: the
    zero loss, a false variant for the tests.  A model is re-checked exactly."""
    size = n + 1
    z, premises = _stochastic("z", size)
    premises += extra(z)
    _witness(rec, premises, timeout_s, "alpha = 0: direct mechanisms", n)
    off = z3.Or([z[i][j] > 0 for i in range(size) for j in range(size) if i != j])
    out = decide([*premises, z3.Sum([miss * (1 - z[i][i]) for i in range(size)]) <= 0, off], timeout_s)
    if out.unsat:
        return None
    zz = [[_exact(out.model, e) for e in row] for row in z]
    _recheck(zz != identity(n) and sum(miss * (1 - zz[i][i]) for i in range(size)) <= 0, "second optimum")
    return f"Z = {[[str(e) for e in row] for row in zz]} (loss {sum(miss * (1 - zz[i][i]) for i in range(size))})"


def non_permutation_deriving_identity(
    n: int, timeout_s: float, rec: Findings, extra: NoExtra = _none, target: Matrix | None = None
) -> str | None:
    """A range-N mechanism X, not a permutation matrix, and a deterministic remap D (output r read as d_r) with
    X·D = I, or None (SMT unsat).  Deterministic remaps suffice: an optimal remap can be taken deterministic (the
    Bayes remap, grs2011 Section 2.3, grs2009 Section 2.3).  ``target`` replaces I (a false variant for the tests).
    A model is re-checked exactly."""
    target = identity(n) if target is None else target
    size = n + 1
    x, premises = _stochastic("x", size)
    d = [z3.Int(f"d_{r}") for r in range(size)]
    premises += [z3.And(0 <= dr, dr <= n) for dr in d] + extra(x, d)
    _witness(rec, premises, timeout_s, "alpha = 0: range-N mechanisms and deterministic remaps", n)
    derived = [
        z3.Sum([z3.If(d[r] == j, x[i][r], 0) for r in range(size)]) == z3.Q(*target[i][j].as_integer_ratio())
        for i in range(size)
        for j in range(size)
    ]
    # a stochastic X is a permutation matrix iff every entry is 0 or 1 and every column sums to 1
    fractional = [z3.And(e > 0, e < 1) for row in x for e in row]
    not_onto = [z3.Sum([x[i][r] for i in range(size)]) != 1 for r in range(size)]
    out = decide([*premises, *derived, z3.Or(fractional + not_onto)], timeout_s)
    if out.unsat:
        return None
    xx = [[_exact(out.model, e) for e in row] for row in x]
    dd = [int(_exact(out.model, e)) for e in d]
    derived = [[sum(xx[i][r] for r in range(size) if dd[r] == j) for j in range(size)] for i in range(size)]
    permutation = all(e in (0, 1) for row in xx for e in row) and all(sum(col) == 1 for col in zip(*xx))
    _recheck(derived == target and not permutation, "a non-permutation deriving the target")
    return f"X = {[[str(e) for e in row] for row in xx]}, D = {dd}"
