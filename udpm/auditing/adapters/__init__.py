"""Exact pmf matrices of the geometric / discrete-Laplace mechanisms of DP libraries.

One module per library: :mod:`udpm.auditing.adapters.diffprivlib`, :mod:`udpm.auditing.adapters.opendp`,
:mod:`udpm.auditing.adapters.tumult`.  Each builds, from the library's documented distribution and its source
(cited line by line in the function's docstring), the exact matrix of the mechanism on a count query:
row i = 0..n is the true count, a column is an output.  No adapter imports its library or samples: the
libraries are needed only by the statistical tests (tests/test_adapters.py) and for their versions.

alpha is a Fraction where e^-eps is rational (eps given as ``"ln 2"``), and otherwise the exact
symbolic ``exp(-r)`` with r rational (a float parameter is taken as the exact binary value the library
receives); comparisons of such an alpha with a rational are decided by ball arithmetic (python-flint's
arb), never by a float (:func:`compare_exp_neg`).

A mechanism whose outputs range over all the integers (the untruncated geometric) is given as its
*tail lumping*: outputs 0..n, plus one column for every output < 0 and one for every output > n.  That is
lossless: for every input i in 0..n, Pr[i + Z = k | i + Z < 0] = (1 - a) a^(-k-1) does not depend on i
(and likewise above n), so the full mechanism is derived back from the lumped one by a remap that draws
k inside the tail.  The lumped matrix therefore has the same privacy and the same utility for every
user as the library's mechanism, and the questions of udpm ask it in its place.

>>> from fractions import Fraction as F
>>> [[str(x) for x in row] for row in lumped_geometric(1, F(1, 2))]
[['1/3', '1/3', '1/6', '1/6'], ['1/6', '1/6', '1/3', '1/3']]
>>> clamped_geometric(1, F(1, 2), 0, 1) == [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]
True
>>> compare_exp_neg(F(6931471805599453, 10**16), F(1, 2))   # e^-0.6931471805599453 > 1/2
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from udpm.auditing.alpha_inputs import alpha_from_eps
from udpm.errors import InvalidInput, InvalidMatrix

Number = Fraction | sympy.Expr


def exp_neg(r: Fraction) -> Number:
    """e^-r exactly: a Fraction when r == 0, else the sympy expression exp(-r) (irrational, Lindemann)."""
    if r < 0:
        raise InvalidInput(f"rate r={r} must be >= 0 (alpha = e^-r <= 1)")
    if r == 0:
        return Fraction(1)
    return sympy.exp(-sympy.Rational(r.numerator, r.denominator))


def compare_exp_neg(r: Fraction, alpha: Fraction) -> int:
    """The sign of e^-r - alpha (r > 0 rational, alpha a rational in (0, 1)), decided by arb balls.

    e^-r is irrational for rational r != 0 (Lindemann), so it never equals alpha and the sign is
    decided once the ball excludes 0; the precision doubles until it does.
    """
    import flint

    if not 0 < alpha < 1 or r <= 0:
        raise InvalidInput(f"need r > 0 and 0 < alpha < 1, got r={r}, alpha={alpha}")
    old = flint.ctx.prec
    try:
        prec = 128
        while prec <= 1 << 16:
            flint.ctx.prec = prec
            # e^-r - alpha has the sign of ln(1/alpha) - r
            d = (flint.arb(alpha.denominator) / alpha.numerator).log() - flint.arb(r.numerator) / r.denominator
            if d > 0:
                return 1
            if d < 0:
                return -1
            prec *= 2
    finally:
        flint.ctx.prec = old
    raise InvalidInput(f"could not separate e^-{r} from {alpha}")  # pragma: no cover (impossible: Lindemann)


def upper_tail(m: int, a: Number) -> Number:
    """Pr[Z >= m] for the two-sided geometric Z, Pr[Z = k] = (1-a)/(1+a) a^|k|."""
    one = a**0  # 1 of a's kind: Fraction, sympy, or an arb ball
    if m >= 0:
        return a**m / (1 + a)
    return one - a ** (1 - m) / (1 + a)


def two_sided_geometric(k: int, a: Number) -> Number:
    """Pr[Z = k] = (1-a)/(1+a) a^|k| (grs2009 / grs2011's geometric noise)."""
    return (1 - a) / (1 + a) * a ** abs(k)


def clamped_geometric(n: int, a: Number, lower: int, upper: int) -> list[list[Number]]:
    """Rows i = 0..n of clamp(i + Z, lower, upper): columns lower..upper, the ends take the tails."""
    if lower > upper:
        raise InvalidInput(f"lower={lower} > upper={upper}")
    if lower == upper:
        return [[Fraction(1)] for _ in range(n + 1)]

    def entry(i: int, j: int) -> Number:
        if j == lower:
            return upper_tail(i - lower, a)  # Pr[i + Z <= lower] = Pr[Z >= i - lower] (Z symmetric)
        if j == upper:
            return upper_tail(upper - i, a)
        return two_sided_geometric(j - i, a)

    return [[entry(i, j) for j in range(lower, upper + 1)] for i in range(n + 1)]


def lumped_geometric(n: int, a: Number) -> list[list[Number]]:
    """Rows i = 0..n of i + Z lumped into '<0', 0, ..., n, '>n' (lossless, see the module docstring)."""
    return [
        [upper_tail(i + 1, a), *(two_sided_geometric(j - i, a) for j in range(n + 1)), upper_tail(n + 1 - i, a)]
        for i in range(n + 1)
    ]


def lumped_labels(n: int) -> tuple[str, ...]:
    return ("<0", *(str(j) for j in range(n + 1)), f">{n}")


@dataclass(frozen=True)
class LibraryMechanism:
    """A library's mechanism on counts 0..n, as an exact matrix.

    ``alpha`` is the ratio of the noise (Fraction, or sympy exp(-rate) with ``rate`` rational);
    ``outputs`` labels the columns; ``kind`` is "clamped" (outputs exactly those labels) or "lumped"
    (range Z, tails lumped losslessly); ``source`` cites the lines that define the distribution.
    """

    library: str
    name: str
    n: int
    alpha: Number
    rate: Fraction | None
    kind: str
    outputs: tuple[str, ...]
    matrix: list[list[Number]] = field(repr=False)
    params: dict = field(default_factory=dict)
    source: str = ""
    conformance: str = ""

    @property
    def bounds(self) -> tuple[int, int]:
        """(lower, upper) of a clamped mechanism's outputs; (0, n) for a lumped one."""
        return (int(self.outputs[0]), int(self.outputs[-1])) if self.kind == "clamped" else (0, self.n)

    def family(self, a: object) -> list[list[object]]:
        """The same mechanism with ratio ``a`` (a sympy symbol, an arb ball, a Fraction)."""
        lower, upper = self.bounds
        return clamped_geometric(self.n, a, lower, upper) if self.kind == "clamped" else lumped_geometric(self.n, a)

    @property
    def rational(self) -> bool:
        return isinstance(self.alpha, Fraction)

    def udpm_exact_matrix(self, what: str) -> list[list[Number]]:
        """The exact matrix, for the questions that need rational entries (udpm.auditing.exact_inputs)."""
        if self.rational:
            return self.matrix
        raise InvalidMatrix(
            f"{what} is {self.library} {self.name}, whose ratio e^-{float(self.rate)!r} is irrational; "
            "udpm.audit(mechanism) and udpm.auditing.questions.privacy_level(mechanism) decide it exactly "
            "(arb balls), this question needs rational entries"
        )

    def pmf(self, i: int) -> dict[str, Number]:
        """Output label -> exact probability, for the true count i."""
        return dict(zip(self.outputs, self.matrix[i]))

    @classmethod
    def clamped(
        cls,
        library: str,
        name: str,
        n: int,
        alpha: Number,
        rate: Fraction | None,
        bounds: tuple[int, int],
        params: dict,
        source: str,
    ) -> LibraryMechanism:
        """The two-sided geometric noise with ratio ``alpha`` on counts 0..n, clamped to ``bounds`` (lower, upper)."""
        lower, upper = bounds
        outputs = tuple(str(j) for j in range(lower, upper + 1))
        matrix = clamped_geometric(n, alpha, lower, upper)
        return cls(library, name, n, alpha, rate, "clamped", outputs, matrix, params, source)

    @classmethod
    def lumped(
        cls, library: str, name: str, n: int, alpha: Number, rate: Fraction | None, params: dict, source: str
    ) -> LibraryMechanism:
        """The two-sided geometric noise with ratio ``alpha`` on counts 0..n, range Z, its tails lumped."""
        matrix = lumped_geometric(n, alpha)
        return cls(library, name, n, alpha, rate, "lumped", lumped_labels(n), matrix, params, source)


def installed_version(*distributions: str) -> str | None:
    """The installed version of the first of ``distributions`` that is installed, or None."""
    from importlib.metadata import PackageNotFoundError, version

    for name in distributions:
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return None


def alpha_of(eps: object, sensitivity: int = 1) -> tuple[Number, Fraction | None]:
    """(alpha, rate) for a per-unit ratio e^(-eps/sensitivity).

    ``eps`` as a string such as ``"ln 2"`` or ``"ln(3/2)"`` gives a rational alpha = (1/2)^(1/sensitivity)
    when that is rational; an int, Fraction or float gives rate = eps/sensitivity exactly (a float is its
    exact binary value, which is what the library receives) and alpha = exp(-rate).
    """
    if sensitivity < 1:
        raise InvalidInput(f"sensitivity={sensitivity} must be a positive integer")
    if isinstance(eps, str) and "ln" in eps:
        base = alpha_from_eps(eps)
        root = sympy.root(sympy.Rational(base.numerator, base.denominator), sensitivity)
        if not root.is_Rational:
            raise InvalidInput(f"e^-({eps})/{sensitivity} = {root} is irrational; give eps as a number instead")
        return Fraction(int(root.p), int(root.q)), None
    if isinstance(eps, bool) or not isinstance(eps, int | float | Fraction | str):
        raise InvalidInput(f"eps={eps!r}: give 'ln p/q', an int, a Fraction or a float")
    r = Fraction(eps) / sensitivity
    if r <= 0:
        raise InvalidInput(f"eps={eps!r} must be > 0")
    return exp_neg(r), r
