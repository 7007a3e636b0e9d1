"""The printed boundary alpha = 1 of grs2011's Section 3 statements (Definition 3.1, Theorem 3.2, Corollaries
3.3-3.4 fix "alpha in [0, 1]"; Section 5 proves Theorem 3.2 for alpha in (0, 1) only, calling alpha = 0, 1 trivial).

At alpha = 1 differential privacy forces equal rows: x_ir / x_(i+1)r in [1, 1].  grs2011 Example 2.1 defines the
1-geometric mechanism as the one that always returns 0, so the truncated 1-geometric mechanism T(n, 1) has every
row e_0; Example 2.2's formula, read at alpha = 1, gives rows (1/2, 0, ..., 0, 1/2) instead.  Both readings are
checked.

Every 1-DP direct mechanism Z has equal rows q, so a user with weights w_ir = p_i l(i, r) loses
sum_r q_r c_r >= min_r c_r, c_r = sum_i w_ir; remapping every output of ANY mechanism X to one result r gives
the constant mechanism E_r with loss c_r.  So every 1-DP mechanism with range N is universally
utility-maximizing, and Corollary 3.4's "only if" fails at alpha = 1 for any 1-DP X that is not pi o T.  The
universal optimality of the candidate is decided by one SMT query per n (every user, every 1-DP Z; premises
shown satisfiable first), its privacy and "not pi o T" exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F

import z3

from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings
from udpm.core import linalg
from udpm.core.remaps import compose, deterministic_remap
from udpm.errors import HarnessError
from udpm.smt.solvers import decide, model_value, premise_witness

Matrix = list[list[F]]

#: The two readings of T(n, 1): Example 2.1's 1-geometric mechanism (always 0) truncated, and Example 2.2's
#: formula alpha^f(d) / (1 + alpha) at the two ends, (1 - alpha) / (1 + alpha) alpha^|delta| inside, at alpha = 1.
READINGS = ("Example 2.1: the 1-geometric mechanism always returns 0", "Example 2.2's formula at alpha = 1")


def truncated_geometric_at_one(n: int, reading: str) -> Matrix:
    """T(n, 1) under one of :data:`READINGS`.

    >>> truncated_geometric_at_one(2, READINGS[0])[1], truncated_geometric_at_one(2, READINGS[1])[1]
    ([Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)], [Fraction(1, 2), Fraction(0, 1), Fraction(1, 2)])
    """
    if reading == READINGS[0]:
        row = [F(int(j == 0)) for j in range(n + 1)]
    else:
        row = [F(1, 2) if j in (0, n) else F(0) for j in range(n + 1)]
    return [list(row) for _ in range(n + 1)]


def constant_rows(q: Sequence[F]) -> Matrix:
    """The mechanism whose every row is q (range and result set N = {0..len(q)-1})."""
    return [list(q) for _ in q]


def is_one_dp(x: Matrix) -> bool:
    """alpha = 1 differential privacy: every ratio x_ir / x_(i+1)r in [1, 1] (0/0 = 1), i.e. equal rows."""
    return all(x[i] == x[i + 1] for i in range(len(x) - 1))


def permuted_forms(t: Matrix) -> list[Matrix]:
    """pi o T for every permutation pi of the range N (grs2011: the remap that permutes T's outputs)."""
    size = len(t[0])
    return [compose(t, deterministic_remap(list(p), size)) for p in itertools.permutations(range(size))]


def beating_user(
    x: Matrix, targets: Sequence[int], timeout_s: float, rec: Findings, extra: Callable = lambda w, q: []
) -> str | None:
    """A user and a 1-DP direct mechanism Z that beats every remap of x to a constant result in ``targets``
    (all of N: the argument of the module docstring), or None when there is none (SMT unsat).

    The query ranges over every user (w_ir >= 0, which contains every prior times every legal loss) and every
    1-DP Z (rows equal to q, q in the simplex): sum_r q_r c_r < c_j for every j in targets.  Its premises are
    shown satisfiable first and the witness recorded as a value of ``rec``; ``extra(w, q)`` adds premises (a
    contradictory one raises VacuousPremise: the tests)."""
    size = len(x)
    w = [[z3.Real(f"w_{i}_{r}") for r in range(size)] for i in range(size)]
    q = [z3.Real(f"q_{r}") for r in range(size)]
    c = [z3.Sum([w[i][r] for i in range(size)]) for r in range(size)]
    premises = [v >= 0 for row in w for v in row] + [v >= 0 for v in q] + [z3.Sum(q) == 1, *extra(w, q)]
    witness = premise_witness(premises, timeout_s, "alpha = 1: users and 1-DP mechanisms")
    rec.value(**{f"premise witness (alpha = 1, n = {size - 1})": ", ".join(f"{k}={v}" for k, v in witness.items())})
    z_loss = z3.Sum([q[r] * c[r] for r in range(size)])
    out = decide([*premises, *(z_loss < c[j] for j in targets)], timeout_s)
    if out.unsat:
        return None
    shown = [[model_value(out.model, w[i][r]) for r in range(size)] for i in range(size)]
    return f"user weights w = {shown}, 1-DP rows q = {[model_value(out.model, v) for v in q]}"


def _row(row: Sequence[F]) -> str:
    return "(" + ", ".join(map(str, row)) + ")"


def decide_alpha_one(rec: Findings, ctx: Context, candidate: Sequence[F], n_max: int, targets=None) -> None:
    """One BOUNDED instance per n <= n_max at alpha = 1: the candidate X (every row ``candidate`` padded with
    zeros to N) refutes Corollary 3.4 there when it is 1-DP, universally utility-maximizing (no user beats its
    remaps to constants, :func:`beating_user`) and not pi o T under either reading of T(n, 1).  A candidate that
    fails any of the three leaves its instance inconclusive: the search is over one mechanism, not every X.
    ``targets`` (default: every result) restricts the remaps tried: a false variant for the tests."""
    for n in range(1, n_max + 1):
        row = [F(v) for v in candidate] + [F(0)] * (n + 1 - len(candidate))
        x = constant_rows(row[: n + 1])
        with rec.deciding(
            n=n,
            alpha=1,
            kind=BOUNDED,
            method="the printed boundary alpha in [0, 1]: a 1-DP range-N mechanism, universally utility-maximizing "
            "(SMT unsat over every user and every 1-DP mechanism), not pi o T (every permutation, both readings "
            "of T(n, 1))",
            covers="one candidate counterexample X at alpha = 1 (Definition 3.1, Corollary 3.4: alpha in [0, 1])",
            part="alpha = 1",
        ) as d:
            where = f"alpha = 1, n = {n}, X = {linalg.fmt_matrix(x)}"
            if sum(row[: n + 1]) != 1 or any(v < 0 for v in row) or not is_one_dp(x):
                d.inconclusive(f"{where} is not a 1-DP mechanism")
                continue
            beaten = beating_user(x, range(n + 1) if targets is None else targets, ctx.solver_timeout, rec)
            if beaten is not None:
                d.inconclusive(f"{where}: its remaps to constants are beaten: {beaten}")
                continue
            equal = [r for r in READINGS if x in permuted_forms(truncated_geometric_at_one(n, r))]
            if equal:
                d.inconclusive(f"{where} is pi o T(n, 1) under {equal[0]}")
                continue
            d.counterexample(
                f"{where} is 1-DP (equal rows) and universally utility-maximizing (every 1-DP direct mechanism has "
                "equal rows q and loses sum_r q_r c_r >= min_r c_r, which remapping every output of X to the best "
                "r attains; SMT unsat over every user and every 1-DP mechanism), but it is not pi o T for any "
                f"permutation pi, whether T(n, 1) has rows {_row(truncated_geometric_at_one(n, READINGS[0])[0])} "
                f"({READINGS[0]}) or {_row(truncated_geometric_at_one(n, READINGS[1])[0])} ({READINGS[1]})"
            )


def constant_beaten(n: int, targets: Sequence[int], timeout_s: float, rec: Findings, one_dp: bool = True) -> str | None:
    """A user and a deterministic 1-DP direct mechanism Z that beat every remap to a constant result in ``targets``,
    or None (SMT unsat).  The linear form of :func:`beating_user` (grs2011 Definition 3.1 at the printed alpha = 1).

    The user is any weights w_ir >= 0 (every prior times every legal loss); remapping every output of a mechanism
    X to j loses c_j = sum_i w_ij.  Z is any 0/1 matrix with one 1 per row, constrained only by 1-DP as written in
    the definition (z_ir = z_(i+1)r: every ratio in [1, 1]); its loss sum_i sum_r z_ir w_ir is not written as
    some c_k, so the solver must derive from the privacy constraint that Z is constant.  The loss is linear in Z
    and the 1-DP direct mechanisms (equal rows q, q in the simplex) have the constant mechanisms as vertices, so
    the deterministic ones cover every 1-DP mechanism.  ``one_dp=False`` drops the privacy constraint on Z: a false
    variant (the identity then beats the constants for the binary-loss user)."""
    size = n + 1
    w = [[z3.Real(f"w_{i}_{r}") for r in range(size)] for i in range(size)]
    z = [[z3.Bool(f"z_{i}_{r}") for r in range(size)] for i in range(size)]
    c = [z3.Sum([w[i][j] for i in range(size)]) for j in range(size)]
    premises = [v >= 0 for row in w for v in row]
    premises += [z3.PbEq([(z[i][r], 1) for r in range(size)], 1) for i in range(size)]
    if one_dp:
        premises += [z[i][r] == z[i + 1][r] for i in range(n) for r in range(size)]
    witness = premise_witness(premises, timeout_s, "alpha = 1: users and deterministic 1-DP mechanisms")
    shown_witness = ", ".join(f"{a}={b}" for a, b in witness.items())
    rec.value(**{f"premise witness (alpha = 1, deterministic, n = {n})": shown_witness})
    z_loss = z3.Sum([z3.If(z[i][r], w[i][r], 0) for i in range(size) for r in range(size)])
    out = decide([*premises, *(z_loss < c[j] for j in targets)], timeout_s)
    if out.unsat:
        return None
    ww = [[F(model_value(out.model, w[i][r])) for r in range(size)] for i in range(size)]
    zz = [[int(z3.is_true(out.model.eval(z[i][r], model_completion=True))) for r in range(size)] for i in range(size)]
    cc = [sum(ww[i][j] for i in range(size)) for j in range(size)]
    loss = sum(ww[i][r] for i in range(size) for r in range(size) if zz[i][r])
    if not all(loss < cc[j] for j in targets):
        raise HarnessError(f"an SMT model does not re-check exactly: w = {ww}, Z = {zz}")
    private = is_one_dp([[F(v) for v in row] for row in zz])
    return (
        f"user weights w = {[[str(e) for e in row] for row in ww]}, Z = {zz} ({'1-DP' if private else 'not 1-DP'}) "
        f"loses {loss} < every constant remap's {[str(cc[j]) for j in targets]}"
    )
