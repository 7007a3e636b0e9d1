"""gs2010's two linear programs for a minimax consumer (side information S, monotone loss l).

- :func:`optimal_mechanism_lp` (gs2010 Section 2.5): minimise d subject to
  d >= sum_r x_ir l(i, r) for i in S, x alpha-DP (Definition 2) and row-stochastic.
- :func:`optimal_interaction_lp` (gs2010 Section 2.4.3): for a deployed mechanism y,
  minimise d subject to d >= sum_r' l(i, r') sum_r y_ir T_rr' for i in S, T row-stochastic.
- :func:`lexicographic_lp` (gs2010 Lemma 5's proof): among mechanisms with L(x) <= L*, minimise
  L'(x) = sum_i sum_r x_ir |i - r|.

Variables: ``x[i,j]`` (or ``T[r,j]``) in row-major order, then ``d``.  Loss values must be
rational here: they enter constraint rows, and constraint data is rational by contract.

>>> from fractions import Fraction as F
>>> from udpm.core.users import MinimaxUser, absolute_error
>>> lp = optimal_mechanism_lp(MinimaxUser.of([0, 2], absolute_error(2)), F(1, 2))
>>> len(lp.names), lp.names[-1], len(lp.rows)
(10, 'd', 17)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from udpm.core.users import MinimaxUser
from udpm.core.validate import Matrix, alpha_in_unit_interval, stochastic
from udpm.errors import InvalidInput
from udpm.lp.programs import Constraint, LinearProgram, mechanism_var

ONE = Fraction(1)


def rational_loss(user: MinimaxUser) -> list[list[Fraction]]:
    """The loss matrix as Fractions; an irrational loss cannot enter a constraint row."""
    out = []
    for i, row in enumerate(user.loss.values):
        r = []
        for j, v in enumerate(row):
            if not isinstance(v, Fraction):
                if getattr(v, "is_Rational", False):
                    v = Fraction(int(v.p), int(v.q))
                else:
                    raise InvalidInput(f"l({i},{j}) = {v} is irrational; the minimax LPs need a rational loss")
            r.append(v)
        out.append(r)
    return out


def dp_rows(n: int, a: Fraction, var: dict[str, int], prefix: str = "x") -> list[Constraint]:
    """gs2010 Definition 2: a x_{i,r} <= x_{i+1,r} <= x_{i,r} / a for i = 0..n-1."""
    rows = []
    for i in range(n):
        for r in range(n + 1):
            x0, x1 = var[f"{prefix}[{i},{r}]"], var[f"{prefix}[{i + 1},{r}]"]
            rows.append(Constraint(((x1, ONE), (x0, -a)), ">=", Fraction(0), f"DP a x[{i},{r}] <= x[{i + 1},{r}]"))
            rows.append(Constraint(((x0, ONE), (x1, -a)), ">=", Fraction(0), f"DP a x[{i + 1},{r}] <= x[{i},{r}]"))
    return rows


def stochastic_rows(k: int, var: dict[str, int], prefix: str = "x") -> list[Constraint]:
    return [
        Constraint(tuple((var[f"{prefix}[{i},{r}]"], ONE) for r in range(k)), "=", ONE, f"row {i} sums to 1")
        for i in range(k)
    ]


def optimal_mechanism_lp(user: MinimaxUser, alpha: object) -> LinearProgram:
    """gs2010 Section 2.5: the optimal alpha-DP mechanism for a minimax consumer."""
    a = alpha_in_unit_interval(alpha)
    n = user.loss.n
    loss = rational_loss(user)
    names = (*tuple(mechanism_var(i, j) for i in range(n + 1) for j in range(n + 1)), "d")
    var = {nm: k for k, nm in enumerate(names)}
    d = var["d"]
    rows = [
        Constraint(
            ((d, ONE), *((var[mechanism_var(i, r)], -loss[i][r]) for r in range(n + 1) if loss[i][r])),
            ">=",
            Fraction(0),
            f"d >= loss of row {i}",
        )
        for i in user.side_information
    ]
    rows += dp_rows(n, a, var)
    rows += stochastic_rows(n + 1, var)
    return LinearProgram(names, ((d, ONE),), tuple(rows), "gs2010 Section 2.5")


def optimal_interaction_lp(user: MinimaxUser, deployed: Sequence[Sequence[object]]) -> LinearProgram:
    """gs2010 Section 2.4.3: the best stochastic post-processing T of a deployed mechanism y."""
    y = stochastic(deployed, "deployed mechanism")
    n = user.loss.n
    if len(y) != n + 1:
        raise InvalidInput(f"deployed mechanism has {len(y)} rows, the consumer's N has {n + 1}")
    m = len(y[0])
    loss = rational_loss(user)
    names = (*tuple(f"T[{r},{j}]" for r in range(m) for j in range(n + 1)), "d")
    var = {nm: k for k, nm in enumerate(names)}
    d = var["d"]
    rows = []
    for i in user.side_information:
        coeffs = [(d, ONE)]
        for r in range(m):
            for j in range(n + 1):
                c = y[i][r] * loss[i][j]
                if c:
                    coeffs.append((var[f"T[{r},{j}]"], -c))
        rows.append(Constraint(tuple(coeffs), ">=", Fraction(0), f"d >= induced loss of row {i}"))
    rows += [
        Constraint(tuple((var[f"T[{r},{j}]"], ONE) for j in range(n + 1)), "=", ONE, f"T row {r} sums to 1")
        for r in range(m)
    ]
    return LinearProgram(names, ((d, ONE),), tuple(rows), "gs2010 Section 2.4.3")


def lexicographic_lp(user: MinimaxUser, alpha: object, bound: object) -> LinearProgram:
    """gs2010 Lemma 5's tie-break: minimise L'(x) = sum |i-r| x_ir over optimal mechanisms (d <= bound)."""
    base = optimal_mechanism_lp(user, alpha)
    n = user.loss.n
    var = {nm: k for k, nm in enumerate(base.names)}
    b = Fraction(bound) if isinstance(bound, (int, Fraction)) else None
    if b is None:
        raise InvalidInput(f"the bound on L must be an exact rational, got {bound!r}")
    objective = tuple(
        (var[mechanism_var(i, r)], Fraction(abs(i - r))) for i in range(n + 1) for r in range(n + 1) if i != r
    )
    rows = (*base.rows, Constraint(((var["d"], ONE),), "<=", b, "L(x) <= L*"))
    return LinearProgram(base.names, objective, rows, "gs2010 Lemma 5 (L, L')")


def matrix_of(
    names: Sequence[str], x: Sequence[Fraction], k: int, prefix: str = "x", cols: int | None = None
) -> Matrix:
    """Read the k x cols block ``prefix[i,j]`` out of a solution vector."""
    var = {nm: idx for idx, nm in enumerate(names)}
    cols = k if cols is None else cols
    return [[Fraction(x[var[f"{prefix}[{i},{j}]"]]) for j in range(cols)] for i in range(k)]
