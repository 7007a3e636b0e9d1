"""zlcn2013's legal-function LP and its recurrences, for count-range and threshold consumers.

zlcn2013 writes alpha > 1; it is converted ONCE, by :func:`udpm.core.conventions.alpha_from_zlcn2013`,
into the internal a = 1/alpha in (0, 1).  Definition 2 then reads, for mu = 0..n-1:

    a phi(mu) <= phi(mu+1),  a phi(mu+1) <= phi(mu)                       (phi changes by <= 1/a)
    a (1 - phi(mu)) <= 1 - phi(mu+1),  a (1 - phi(mu+1)) <= 1 - phi(mu)  (so does 1 - phi)

and 0 <= phi(mu) <= 1.  The weighted error (1) is ``offset + sum_mu c_mu phi(mu)`` with
c_mu = -omega rho inside [theta1, theta2] and +omega rho outside; the LP minimises the sum and
:class:`LegalFunctionLP` keeps the offset.

>>> from fractions import Fraction as F
>>> from udpm.core.users import CountRangeConsumer
>>> c = CountRangeConsumer.of([1] * 4, [F(1, 4)] * 4, 1, 2)
>>> p = legal_function_lp(c, 2)
>>> p.error([F(1, 3), F(2, 3), F(2, 3), F(1, 3)])
Fraction(1, 3)
>>> psi1(F(1, 3), 3, 2)
[Fraction(1, 3), Fraction(2, 3), Fraction(5, 6), Fraction(11, 12)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from udpm.core.conventions import alpha_from_zlcn2013
from udpm.core.users import CountRangeConsumer
from udpm.core.validate import rational, size
from udpm.errors import InvalidInput
from udpm.lp.programs import Constraint, LinearProgram, row_holds

ONE = Fraction(1)
ZERO = Fraction(0)


def phi_var(mu: int) -> str:
    return f"phi[{mu}]"


def definition2_rows(n: int, a: Fraction, drop: str = "") -> list[Constraint]:
    """zlcn2013 Definition 2 as LP rows in the internal a = 1/alpha.  ``drop`` ('phi', '1-phi', 'box')
    leaves one family out: a deliberately wrong region for false-variant tests."""
    rows = []
    if drop != "box":
        rows += [Constraint(((mu, ONE),), "<=", ONE, f"phi({mu}) <= 1") for mu in range(n + 1)]
    for mu in range(n):
        if drop != "phi":
            rows.append(Constraint(((mu + 1, ONE), (mu, -a)), ">=", ZERO, f"phi({mu})/alpha <= phi({mu + 1})"))
            rows.append(Constraint(((mu, ONE), (mu + 1, -a)), ">=", ZERO, f"phi({mu + 1}) <= alpha phi({mu})"))
        if drop != "1-phi":
            rows.append(Constraint(((mu + 1, ONE), (mu, -a)), "<=", 1 - a, f"(1-phi({mu}))/alpha <= 1-phi({mu + 1})"))
            rows.append(Constraint(((mu, ONE), (mu + 1, -a)), "<=", 1 - a, f"1-phi({mu + 1}) <= alpha (1-phi({mu}))"))
    return rows


def error_coefficients(consumer: CountRangeConsumer) -> tuple[Fraction, list[Fraction]]:
    """(offset, c) with err(phi) = offset + sum_mu c_mu phi(mu): zlcn2013 (1)."""
    offset = ZERO
    coeffs = []
    for mu in range(consumer.n + 1):
        w = consumer.omega[mu] * consumer.rho[mu]
        if consumer.in_range(mu):
            offset += w
            coeffs.append(-w)
        else:
            coeffs.append(w)
    return offset, coeffs


@dataclass(frozen=True)
class LegalFunctionLP:
    lp: LinearProgram
    offset: Fraction
    a: Fraction  # internal alpha in (0, 1)

    def error(self, phi: Sequence[object]) -> Fraction:
        v = [rational(x, f"phi[{i}]") for i, x in enumerate(phi)]
        return self.offset + sum((Fraction(c) * v[i] for i, c in self.lp.objective), ZERO)

    def objective_to_error(self, value: Fraction) -> Fraction:
        return self.offset + value


def legal_function_lp(consumer: CountRangeConsumer, alpha_zlcn: object, drop: str = "") -> LegalFunctionLP:
    """zlcn2013 Section 3.1: minimise the weighted error (1) over legal functions (Definition 2)."""
    a = alpha_from_zlcn2013(alpha_zlcn)
    n = consumer.n
    size(n)
    offset, coeffs = error_coefficients(consumer)
    names = tuple(phi_var(mu) for mu in range(n + 1))
    objective = tuple((mu, c) for mu, c in enumerate(coeffs) if c)
    lp = LinearProgram(names, objective, tuple(definition2_rows(n, a, drop)), "zlcn2013 (1) over Definition 2")
    return LegalFunctionLP(lp, offset, a)


def satisfies_rows(rows: Sequence[Constraint], x: Sequence[Fraction]) -> Constraint | None:
    """The first row x violates (x >= 0 included as a row-less bound), else None."""
    if any(v < 0 for v in x):
        return Constraint((), ">=", ZERO, f"x[{next(i for i, v in enumerate(x) if v < 0)}] >= 0")
    return next((row for row in rows if not row_holds(row, x)), None)


def _A(alpha_zlcn: object) -> Fraction:
    """zlcn2013's alpha > 1, recovered from the single conversion (A = 1/a)."""
    return 1 / alpha_from_zlcn2013(alpha_zlcn)


def _recurrence(beta: object, name: str, n: int, step: Callable[[Fraction], Fraction]) -> list[Fraction]:
    """[beta, step(beta), step(step(beta)), ...] up to index n; beta must lie in [0, 1]."""
    b = rational(beta, name)
    if not 0 <= b <= 1:
        raise InvalidInput(f"{name} must lie in [0, 1], got {b}")
    out = [b]
    for _ in range(n):
        out.append(step(out[-1]))
    return out


def psi1(beta: object, n: int, alpha_zlcn: object) -> list[Fraction]:
    """zlcn2013 (2): psi1(mu+1) = min{alpha psi1(mu), (alpha - 1 + psi1(mu)) / alpha}, psi1(0) = beta."""
    A = _A(alpha_zlcn)
    return _recurrence(beta, "beta1", n, lambda p: min(A * p, (A - 1 + p) / A))


def psi2(beta: object, n: int, alpha_zlcn: object) -> list[Fraction]:
    """zlcn2013 (3): psi2(mu+1) = max{psi2(mu) / alpha, 1 - alpha + alpha psi2(mu)}, psi2(0) = beta."""
    A = _A(alpha_zlcn)
    return _recurrence(beta, "beta2", n, lambda p: max(p / A, 1 - A + A * p))


def psi1_breakpoints(n: int, alpha_zlcn: object) -> list[Fraction]:
    """Values of beta1 where some psi1(mu) changes linear piece: 1/(alpha^k (alpha+1)), k = 0..n-1."""
    A = _A(alpha_zlcn)
    return sorted({ONE / (A**k * (A + 1)) for k in range(n)} | {ZERO, ONE})


def psi2_breakpoints(n: int, alpha_zlcn: object) -> list[Fraction]:
    """psi2 is psi1 mirrored (psi2(beta) = 1 - psi1(1 - beta)): breakpoints 1 - 1/(alpha^k (alpha+1))."""
    return sorted({1 - b for b in psi1_breakpoints(n, alpha_zlcn)})
