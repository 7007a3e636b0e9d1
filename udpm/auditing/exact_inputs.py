# ruff: noqa: E501  (doctests show one-line error messages in full)
"""Exact inputs: a mechanism, alpha (or eps) and the users, converted to exact values or refused.

A mechanism is a row-stochastic matrix: row i is the query result i = 0..n, column r an output.
Inputs are Fractions, ints or strings such as ``"1/3"``; floats and numpy arrays are accepted only
through the explicit ``exact="rationalize"``, which replaces each float by the simplest rational
within a stated relative tolerance and says so (:class:`Conversion`).  alpha = e^-eps is given as
``alpha="1/2"`` or as ``eps="ln 2"`` (exact where e^-eps is rational, refused otherwise).  A user is
a prior and a loss (:func:`make_user`); :func:`parse_users` reads the ``users=`` argument of
:func:`udpm.auditing.report.audit`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from udpm.core import linalg
from udpm.core.users import BayesianUser, Loss, absolute_error, binary_loss, squared_error
from udpm.core.validate import Matrix, alpha_in_unit_interval, distribution, rational, show, stochastic
from udpm.errors import InvalidAlpha, InvalidInput, InvalidMatrix

#: The default relative tolerance of ``exact="rationalize"``: |q - x| <= tolerance * |x| per entry.
TOLERANCE = Fraction(1, 10**9)
#: Named losses (``--loss`` on the command line).
LOSSES = {
    "abs": absolute_error,
    "zero-one": binary_loss,
    "squared": squared_error,
}
_LOSS_ALIASES = {"absolute": "abs", "|i-j|": "abs", "binary": "zero-one", "0-1": "zero-one", "square": "squared"}


class IrrationalAlpha(InvalidAlpha):
    """eps was given, but alpha = e^-eps is not a rational number (never approximated by a float)."""


class NotRationalizable(InvalidMatrix):
    """``exact="rationalize"`` found no exact row-stochastic matrix within the stated tolerance."""


@dataclass(frozen=True)
class Conversion:
    """How a mechanism's entries became exact: ``exact`` (as given) or ``rationalize`` (floats replaced).

    ``tolerance`` is the relative tolerance used, ``replaced`` the number of float entries replaced,
    ``max_deviation`` the largest relative change |q - x| / |x| among them (exactly, from the binary float).
    """

    mode: str = "exact"
    tolerance: Fraction | None = None
    replaced: int = 0
    max_deviation: Fraction = Fraction(0)

    def __str__(self) -> str:
        if self.mode == "exact":
            return "exact input"
        if self.mode == "sampled":
            return (
                "SAMPLED: counts of the sampler's outputs; every verdict is statistical, at the stated confidence "
                "(udpm.auditing.sampled: Clopper-Pearson intervals, Bonferroni over the cells)"
            )
        if self.mode == "estimated":
            return (
                f"ESTIMATED: the verdicts are about the estimate, not the mechanism it estimates: {self.replaced} "
                "float entries taken at their exact binary values, each row divided by its exact sum (largest "
                f"row-sum correction {float(self.max_deviation):.3g}); stated estimation tolerance {self.tolerance}, "
                "not used in any decision (for a statistical decision give the sample counts: exact='sampled')"
            )
        return (
            f"rationalized: {self.replaced} float entr{'y' if self.replaced == 1 else 'ies'} replaced by the simplest "
            f"rational within relative tolerance {self.tolerance} (largest relative change {float(self.max_deviation):.3g})"
        )

    def to_json(self) -> dict:
        return {
            "mode": self.mode,
            "tolerance": None if self.tolerance is None else str(self.tolerance),
            "replaced": self.replaced,
            "max_relative_deviation": str(self.max_deviation),
        }


def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator in [lo, hi] (continued fractions, exact).

    >>> simplest_between(Fraction(3, 10), Fraction(7, 20)), simplest_between(Fraction(-1, 3), Fraction(1, 3))
    (Fraction(1, 3), Fraction(0, 1))
    """
    if lo > hi:
        lo, hi = hi, lo
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest_between(-hi, -lo)
    fl = math.floor(lo)
    if fl == lo:
        return Fraction(fl)
    if fl + 1 <= hi:
        return Fraction(fl + 1)
    return fl + 1 / simplest_between(1 / (hi - fl), 1 / (lo - fl))


def rationalize(x: float, tolerance: Fraction = TOLERANCE) -> Fraction:
    """The simplest rational q with |q - x| <= tolerance·|x|: the exact value a float was rounded from.

    >>> rationalize(1 / 3), rationalize(0.1), rationalize(2 ** -20 / 3), rationalize(0.0)
    (Fraction(1, 3), Fraction(1, 10), Fraction(1, 3145728), Fraction(0, 1))
    >>> rationalize(float("nan"))
    Traceback (most recent call last):
        ...
    udpm.auditing.exact_inputs.NotRationalizable: nan is not a finite number; nothing to rationalize
    """
    if not math.isfinite(x):
        raise NotRationalizable(f"{x} is not a finite number; nothing to rationalize")
    f = Fraction(x)
    return simplest_between(f - abs(f) * tolerance, f + abs(f) * tolerance)


def _tolerance(tolerance: object) -> Fraction:
    if isinstance(tolerance, float):
        tolerance = Fraction(str(tolerance))  # a stated tolerance is a decimal literal, not a measurement
    try:
        t = rational(tolerance, "tolerance")
    except InvalidMatrix as exc:
        raise InvalidInput(str(exc)) from None
    if not 0 <= t < 1:
        raise InvalidInput(f"tolerance must satisfy 0 <= tolerance < 1 (relative), got {t}")
    return t


def _is_numpy(x: object) -> bool:
    return type(x).__module__.split(".")[0] == "numpy"


def _float_like(v: object) -> bool:
    return isinstance(v, float) or (_is_numpy(v) and getattr(getattr(v, "dtype", None), "kind", "") == "f")


def _library_matrix(m: object, what: str) -> object:
    """A library mechanism's own exact matrix: an object with a ``udpm_exact_matrix(what)`` method
    (:class:`udpm.auditing.adapters.LibraryMechanism`) gives it, or says in one line why it has none."""
    own = getattr(m, "udpm_exact_matrix", None)
    return own(what) if callable(own) else m


def _sympy_rationals(row: object, i: int, what: str) -> object:
    """sympy Rationals as Fractions; an irrational sympy entry refused with the way to audit it exactly."""
    if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
        return row
    out = []
    for j, v in enumerate(row):
        if isinstance(v, sympy.Basic):
            if v.is_Rational:
                v = Fraction(int(v.p), int(v.q))
            else:
                raise InvalidMatrix(
                    f"{what}[{i}][{j}] = {show(v)} is irrational; for a DP library's mechanism pass the "
                    "LibraryMechanism itself (udpm.auditing.adapters) to udpm.audit, which decides an irrational ratio exactly"
                )
        out.append(v)
    return out


def _row_sum_is_one(row: list[Fraction]) -> bool:
    den = math.lcm(*(x.denominator for x in row))
    return sum(x.numerator * (den // x.denominator) for x in row) == den


def _fractions_stochastic(m: Sequence) -> Matrix | None:
    """The matrix itself when it is already rows of Fractions, rectangular and exactly row-stochastic
    (checked with integer arithmetic, fast for large n); None to take the general path (which explains)."""
    if not m or not all(type(r) is list for r in m):
        return None
    width = len(m[0])
    if not width or any(len(r) != width for r in m):
        return None
    if not all(type(x) is Fraction for r in m for x in r):
        return None
    if any(x.numerator < 0 for r in m for x in r) or not all(_row_sum_is_one(r) for r in m):
        return None
    return [list(r) for r in m]


def exact_matrix(
    m: object, *, exact: str | None = None, tolerance: object = TOLERANCE, what: str = "mechanism"
) -> tuple[Matrix, Conversion]:
    """A row-stochastic exact matrix from ``m``, and how it was obtained.

    ``exact=None`` accepts exact entries only (Fraction, int, strings such as '1/3' or '0.25');
    ``exact="rationalize"`` also accepts floats and numpy arrays, each float replaced by the
    simplest rational within relative ``tolerance``; the result must then be exactly stochastic.
    ``exact="estimated"`` is for empirical matrices (frequencies, a solver's floats): each float is
    taken at its exact binary value and each row divided by its exact sum; the Conversion then says
    that every verdict is about that estimate, and carries ``tolerance`` as the stated estimation
    error (it is reported, not used: no verdict is widened to the matrices within it).

    >>> exact_matrix([[2 / 3, 1 / 3], [1 / 3, 2 / 3]], exact="rationalize")[0][0]
    [Fraction(2, 3), Fraction(1, 3)]
    >>> exact_matrix([[0.7, 0.2], [0.2, 0.8]], exact="rationalize")
    Traceback (most recent call last):
        ...
    udpm.auditing.exact_inputs.NotRationalizable: mechanism: row 0 of the rationalized matrix sums to 9/10, not 1 (relative tolerance 1/1000000000); no exact stochastic matrix is that close, pass exact values
    >>> m, conv = exact_matrix([[0.7, 0.2], [0.2, 0.8]], exact="estimated", tolerance="1/100")
    >>> total = Fraction(0.7) + Fraction(0.2)  # the binary values, exactly
    >>> m[0] == [Fraction(0.7) / total, Fraction(0.2) / total], conv.mode, str(conv.tolerance)
    (True, 'estimated', '1/100')
    >>> exact_matrix([["1/2", "1/2"]], exact="round")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: exact must be None (exact input only), 'rationalize' or 'estimated', got 'round'
    """
    if exact not in (None, "rationalize", "estimated"):
        raise InvalidInput(f"exact must be None (exact input only), 'rationalize' or 'estimated', got {show(exact)}")
    m = _library_matrix(m, what)
    if _is_numpy(m) and hasattr(m, "tolist"):
        if exact is None:
            raise InvalidMatrix(
                f"{what} is a numpy array; pass exact rationals (Fraction(1, 3), '1/3') or exact='rationalize' "
                "to convert its floats within a stated tolerance"
            )
        m = m.tolist()
    if isinstance(m, (str, bytes)) or not isinstance(m, Sequence):
        raise InvalidMatrix(f"{what} must be a list of rows, got {show(m)} ({type(m).__name__})")
    if exact is None:
        fast = _fractions_stochastic(m)
        if fast is not None:
            return fast, Conversion()
        m = [_sympy_rationals(row, i, what) for i, row in enumerate(m)]
        for i, row in enumerate(m):
            if isinstance(row, Sequence) and not isinstance(row, (str, bytes)):
                for j, v in enumerate(row):
                    if _float_like(v):
                        raise InvalidMatrix(
                            f"{what}[{i}][{j}]={v!r} is a float; pass exact rationals (Fraction(1, 3), '1/3') "
                            "or exact='rationalize' to convert within a stated tolerance"
                        )
        return stochastic(m, what), Conversion()
    tol = _tolerance(tolerance)
    replaced, worst = 0, Fraction(0)
    rows = []
    for i, row in enumerate(m):
        if _is_numpy(row) and hasattr(row, "tolist"):
            row = row.tolist()
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise InvalidMatrix(f"{what}[{i}] must be a list of entries, got {show(row)}")
        out = []
        for v in row:
            if _float_like(v) and exact == "estimated":
                out.append(Fraction(float(v)))  # its exact binary value
                replaced += 1
            elif _float_like(v):
                v = float(v)
                q = rationalize(v, tol)
                replaced += 1
                if v:
                    worst = max(worst, abs(q - Fraction(v)) / abs(Fraction(v)))
                out.append(q)
            else:
                out.append(v.item() if _is_numpy(v) and hasattr(v, "item") else v)
        rows.append(out)
    from udpm.core.validate import matrix

    if exact == "estimated":
        estimate = matrix(rows, what)
        if any(x < 0 for r in estimate for x in r) or any(sum(r) == 0 for r in estimate):
            raise InvalidMatrix(f"{what}: an estimate needs non-negative entries and no all-zero row")
        sums = [sum(r, Fraction(0)) for r in estimate]
        normalised = [[x / t for x in r] for r, t in zip(estimate, sums)]
        return stochastic(normalised, what), Conversion("estimated", tol, replaced, max(abs(t - 1) for t in sums))
    conv = Conversion("rationalize", tol, replaced, worst)

    exact_rows = matrix(rows, what)
    for i, r in enumerate(exact_rows):
        if sum(r) != 1 and all(x >= 0 for x in r):
            raise NotRationalizable(
                f"{what}: row {i} of the rationalized matrix sums to {sum(r)}, not 1 (relative tolerance {tol}); "
                "no exact stochastic matrix is that close, pass exact values"
            )
    return stochastic(exact_rows, what), conv


def _root(k: int, b: int) -> int | None:
    r = round(k ** (1 / b)) if k else 0
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**b == k:
            return c
    return None


_RAT = r"[0-9]+(?:/[0-9]+)?"
_EPS = re.compile(rf"^(?:(?P<c>{_RAT})\s*\*?\s*)?(?:ln|log)\s*(?:\(\s*(?P<a>{_RAT})\s*\)|(?P<b>{_RAT}))$")


def alpha_from_eps(eps: object) -> Fraction:
    """alpha = e^-eps exactly, for eps written as ``c·ln(r)`` (c, r rational); refused when irrational.

    >>> alpha_from_eps("ln 2"), alpha_from_eps("ln(3/2)"), alpha_from_eps("2 ln 2"), alpha_from_eps("1/2*log(9)")
    (Fraction(1, 2), Fraction(2, 3), Fraction(1, 4), Fraction(1, 3))
    >>> alpha_from_eps("1/2 ln 2")
    Traceback (most recent call last):
        ...
    udpm.auditing.exact_inputs.IrrationalAlpha: eps=1/2 ln 2 gives alpha = 2^(-1/2), which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
    >>> alpha_from_eps(0.69)
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: eps=0.69 is a float; write eps as ln(p/q), e.g. eps='ln 2' (alpha = 1/2), or pass alpha itself
    >>> alpha_from_eps("ln 1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: eps=ln 1/2: epsilon must be positive (it is ln(1/2) <= 0, so alpha = e^-eps = 2 is not in (0, 1))
    >>> alpha_from_eps("-ln 2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: eps=-ln 2: epsilon must be positive (alpha = e^-eps must be in (0, 1))
    """
    hint = "give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself"
    if isinstance(eps, bool) or _float_like(eps):
        raise InvalidAlpha(
            f"eps={eps!r} is a float; write eps as ln(p/q), e.g. eps='ln 2' (alpha = 1/2), or pass alpha itself"
        )
    if isinstance(eps, (int, Fraction)):
        eps = str(eps)
    if not isinstance(eps, str):
        raise InvalidAlpha(f"eps={show(eps)} ({type(eps).__name__}) must be a string such as 'ln 2'")
    text = " ".join(eps.strip().lower().split())
    if text.startswith("-") and text[1:].strip() not in ("0", ""):
        raise InvalidAlpha(f"eps={eps}: epsilon must be positive (alpha = e^-eps must be in (0, 1))")
    mt = _EPS.match(text)
    if mt is None:
        try:
            q = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise InvalidAlpha(f"eps={show(eps)} is not understood; write it as c*ln(p/q), e.g. 'ln 2'") from None
        if q <= 0:
            raise InvalidAlpha(f"eps={eps}: epsilon must be positive (alpha = e^-eps must be in (0, 1))")
        raise IrrationalAlpha(f"eps={eps} gives alpha = e^-{q}, which is irrational; {hint}")
    c = Fraction(mt["c"]) if mt["c"] else Fraction(1)
    r = Fraction(mt["a"] or mt["b"])
    if c == 0 or r <= 0:
        raise InvalidAlpha(f"eps={eps}: epsilon must be positive (alpha = e^-eps must be in (0, 1))")
    base = 1 / r  # alpha = (1/r)^c
    num, den = _root(base.numerator, c.denominator), _root(base.denominator, c.denominator)
    if num is None or den is None:
        raise IrrationalAlpha(f"eps={eps} gives alpha = {r}^(-{c}), which is irrational; {hint}")
    alpha = Fraction(num, den) ** c.numerator
    if not 0 < alpha < 1:
        raise InvalidAlpha(
            f"eps={eps}: epsilon must be positive (it is ln({1 / alpha}) <= 0, so alpha = e^-eps = {alpha} "
            "is not in (0, 1))"
        )
    return alpha


def exact_alpha(alpha: object = None, eps: object = None) -> Fraction:
    """alpha in (0, 1) from exactly one of ``alpha`` (e.g. '1/2') and ``eps`` (e.g. 'ln 2').

    >>> exact_alpha("1/2"), exact_alpha(eps="ln 3")
    (Fraction(1, 2), Fraction(1, 3))
    >>> exact_alpha("1/2", eps="ln 2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: give alpha or eps, not both (alpha='1/2', eps='ln 2')
    """
    if alpha is not None and eps is not None:
        raise InvalidAlpha(f"give alpha or eps, not both (alpha={alpha!r}, eps={eps!r})")
    if alpha is None and eps is None:
        raise InvalidAlpha("give alpha (e.g. '1/2') or eps (e.g. 'ln 2'); alpha = e^-eps")
    return alpha_from_eps(eps) if eps is not None else _alpha(alpha)


def _alpha(alpha: object) -> Fraction:
    """alpha in (0, 1); the zlcn2013 convention (alpha = e^eps > 1) is suggested only for an alpha above 1."""
    try:
        return alpha_in_unit_interval(alpha)
    except InvalidAlpha as exc:
        try:
            a = rational(alpha, "alpha")
        except InvalidMatrix:
            raise exc from None
        if a <= 0:
            raise InvalidAlpha(
                f"alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got {a}; alpha = e^-eps is positive for every eps"
            ) from None
        if a == 1:
            raise InvalidAlpha(
                "alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 1: eps = 0 is no privacy"
            ) from None
        raise


def make_user(prior: object, loss: object, n: int | None = None) -> BayesianUser:
    """A Bayesian user (grs2011 Section 2.2): ``prior`` a probability vector or 'uniform'; ``loss`` a
    :class:`~udpm.core.users.Loss`, a square matrix, or a name: 'abs', 'zero-one', 'squared'.

    >>> make_user("uniform", "abs", n=2).prior
    (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    >>> make_user(["1/2", "1/2"], "hinge")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: unknown loss 'hinge'; use abs, zero-one, squared or a square matrix
    """
    if n is None:
        if isinstance(prior, Sequence) and not isinstance(prior, str):
            n = len(prior) - 1
        elif isinstance(loss, Loss):
            n = loss.n
        elif isinstance(loss, Sequence) and not isinstance(loss, str):
            n = len(loss) - 1
        else:
            raise InvalidInput("give n, or a prior or loss matrix that fixes it")
    if isinstance(loss, str):
        key = _LOSS_ALIASES.get(loss.strip().lower(), loss.strip().lower())
        if key not in LOSSES:
            raise InvalidInput(f"unknown loss {loss!r}; use abs, zero-one, squared or a square matrix")
        loss = LOSSES[key](n)
    elif not isinstance(loss, Loss):
        if _is_numpy(loss) or any(_float_like(v) for r in loss for v in r):
            raise InvalidInput("a loss matrix must be exact (Fraction, int or strings like '1/3'), not floats")
        loss = Loss.from_matrix(loss)
    if isinstance(prior, str):
        if prior.strip().lower() != "uniform":
            raise InvalidInput(f"prior must be 'uniform' or a probability vector, got {prior!r}")
        prior = [Fraction(1, loss.n + 1)] * (loss.n + 1)
    if _is_numpy(prior) or any(_float_like(v) for v in prior):
        raise InvalidInput("a prior must be exact (Fraction, int or strings like '1/3'), not floats")
    if len(prior) != loss.n + 1:
        raise InvalidInput(f"the prior has {len(prior)} entries, the loss is for results 0..{loss.n}")
    return BayesianUser(tuple(distribution(prior, loss.n + 1)), loss)


def parse_users(users: object, n: int) -> list[tuple[str, BayesianUser]]:
    """The labelled users of ``audit(users=...)``: None (uniform prior, each named loss), a loss name,
    (prior, loss), a BayesianUser, or a list or dict (label -> user) of them; all for results 0..n."""
    if users is None:
        users = ["abs", "zero-one", "squared"]
    if isinstance(users, (str, BayesianUser)) or (
        isinstance(users, tuple) and len(users) == 2 and not isinstance(users[0], (BayesianUser, tuple))
    ):
        users = [users]
    items = list(users.items()) if isinstance(users, Mapping) else [(None, u) for u in users]
    out = []
    for label, u in items:
        if isinstance(u, str):
            user, label = make_user("uniform", u, n), label or f"uniform, {u}"
        elif isinstance(u, BayesianUser):
            user = u
        elif isinstance(u, tuple) and len(u) == 2:
            user = make_user(u[0], u[1], n)
            label = label or f"{u[0] if isinstance(u[0], str) else linalg.fmt_vector(user.prior)}, " + (
                u[1] if isinstance(u[1], str) else "given loss"
            )
        else:
            raise InvalidInput(f"a user is a BayesianUser, (prior, loss) or a loss name, got {show(u)}")
        if user.n != n:
            raise InvalidInput(
                f"user {label or ''} is for results 0..{user.n}, the mechanism for 0..{n}".replace("  ", " ")
            )
        out.append((label or f"user {len(out) + 1}", user))
    return out


__all__ = [
    "LOSSES",
    "TOLERANCE",
    "Conversion",
    "IrrationalAlpha",
    "NotRationalizable",
    "alpha_from_eps",
    "exact_alpha",
    "exact_matrix",
    "make_user",
    "rationalize",
    "simplest_between",
]
