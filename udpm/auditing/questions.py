# ruff: noqa: E501  (doctests show one-line error messages in full)
"""The papers' questions, asked of any count-query mechanism: is_private, derive, optimal_for,
is_universally_optimal (grs2011 Theorem 3.2), and the exact helpers that answer them.

A mechanism is a row-stochastic matrix: row i is the query result i = 0..n, column r an output.
Every answer is exact.  Inputs are Fractions, ints or strings such as ``"1/3"``; floats and numpy
arrays are accepted only through the explicit ``exact="rationalize"``, which replaces each float by
the simplest rational within a stated relative tolerance and says so in the answer.  alpha = e^-eps
is given as ``alpha="1/2"`` or as ``eps="ln 2"`` (exact where e^-eps is rational, refused otherwise).

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> T = truncated_geometric(2, F(1, 2))
>>> bool(is_private(T, "1/2")), bool(is_universally_optimal(T, eps="ln 2"))
(True, True)
>>> rr = [["3/5", "2/5"], ["2/5", "3/5"]]        # randomized response: 2/3-DP, hence 1/2-DP
>>> v = is_universally_optimal(rr, "1/2")
>>> bool(v), v.witness_user["label"], v.witness_user["mechanism_loss"], v.witness_user["optimum"]
(False, 'uniform prior, zero-one loss', '2/5', '1/3')
>>> derive(from_=T, to=[["1"], ["1"], ["1"]])      # every mechanism derives the constant one
[[Fraction(1, 1)], [Fraction(1, 1)], [Fraction(1, 1)]]
>>> derive(from_=rr, to=truncated_geometric(1, F(1, 2))) is None
True

Errors are one line, typed (subclasses of :class:`udpm.errors.InvalidInput`):

>>> is_private([[0.5, 0.5], [0.5, 0.5]], "1/2")
Traceback (most recent call last):
    ...
udpm.errors.InvalidMatrix: mechanism[0][0]=0.5 is a float; pass exact rationals (Fraction(1, 3), '1/3') or exact='rationalize' to convert within a stated tolerance
>>> is_private(rr, eps=1)
Traceback (most recent call last):
    ...
udpm.auditing.alpha_inputs.IrrationalAlpha: eps=1 gives alpha = e^-1, which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from udpm.auditing.alpha_inputs import exact_alpha
from udpm.auditing.exact_inputs import TOLERANCE, Conversion, exact_matrix
from udpm.auditing.optimum import TIMEOUT_S, Optimum, best_remap, optimal_for, remap_lp
from udpm.auditing.privacy_level import PrivacyLevel, privacy_level
from udpm.auditing.universal_optimality import Universality, decide_universality, is_universally_optimal
from udpm.core import linalg
from udpm.core.mechanisms import fast_truncated_geometric
from udpm.core.privacy import Violation, dp_violations
from udpm.core.validate import Matrix
from udpm.errors import CertificationFailed, InvalidMatrix
from udpm.lp.certify import Certified

# ---------------------------------------------------------------- exact helpers


def _derive(
    t: Matrix, x: Matrix, timeout_s: float, names: tuple[str, str] = ("T", "X")
) -> tuple[Matrix | None, str, Certified | None]:
    """The remap (or None), a one-line proof, and the LP certificate when one was solved."""
    tn, xn = names
    if len(t) != len(x):
        raise InvalidMatrix(
            f"from_ has {len(t)} rows and to has {len(x)}; a post-processing keeps the inputs (rows) of from_"
        )
    if len(t) == len(t[0]) and linalg.det(t) != 0:
        y = linalg.solve(t, x)  # T invertible: Y = T^-1 X is the only candidate (gs2010 Section 3)
        neg = [(r, j, v) for r, row in enumerate(y) for j, v in enumerate(row) if v < 0]
        if neg:
            r, j, v = neg[0]
            return None, f"the only solution Y = {tn}^-1 {xn} has Y[{r}][{j}] = {v} < 0 ({tn} is invertible)", None
        return y, f"Y = {tn}^-1 {xn} is stochastic ({tn} is invertible)", None
    y, cert = remap_lp(t, x, timeout_s)
    if y is None:
        return None, f"every stochastic Y has sum |{tn} Y - {xn}| >= {cert.objective} > 0 (certified LP)", cert
    return y, f"certified LP: sum |{tn} Y - {xn}| = 0", cert


def _check_remap(t: Matrix, y: Matrix, x: Matrix) -> None:
    if linalg.matmul(t, y) != x or any(v < 0 for r in y for v in r) or any(sum(r) != 1 for r in y):
        raise CertificationFailed("a remap returned does not satisfy T·Y = X with Y stochastic")  # pragma: no cover


# ---------------------------------------------------------------- the public questions


@dataclass(frozen=True)
class PrivacyVerdict:
    """Whether a mechanism is alpha-DP; true exactly when ``violations`` is empty.

    Each :class:`~udpm.core.privacy.Violation` names adjacent results i, i+1 and an output r whose
    probabilities differ by more than the factor 1/alpha.
    """

    alpha: Fraction
    violations: tuple[Violation, ...]
    conversion: Conversion = field(default_factory=Conversion)

    def __bool__(self) -> bool:
        return not self.violations

    @property
    def private(self) -> bool:
        return not self.violations

    def __str__(self) -> str:
        if not self.violations:
            return f"{self.alpha}-DP"
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        return f"not {self.alpha}-DP: {self.violations[0]}{more}"


def is_private(
    m: object, alpha: object = None, *, eps: object = None, exact: str | None = None, tolerance: object = TOLERANCE
) -> PrivacyVerdict:
    """Is the count-query mechanism ``m`` alpha-differentially private?

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (query results), columns the outputs; exact row-stochastic entries.
    alpha, eps : rational or str
        Exactly one: alpha = e^-eps in (0, 1), e.g. ``"1/2"``, or eps such as ``"ln 2"``.
    exact : None, "rationalize" or "estimated"
        ``"rationalize"`` accepts floats and numpy arrays (see :func:`exact_matrix`).

    Returns
    -------
    PrivacyVerdict
        True when private; ``.violations`` lists every (i, i+1, output) that breaks alpha-DP.

    Examples
    --------
    >>> v = is_private([["1/2", "1/2"], ["1", "0"]], "1/2")
    >>> bool(v), str(v)
    (False, 'not 1/2-DP: x[0][1]=1/2, x[1][1]=0, ratio inf')
    >>> is_private([["1/2", "1/2"], ["1"]], "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: mechanism is ragged: row 1 has 1 entries, row 0 has 2
    >>> is_private([["1/2", "1/2"]], 2)
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidAlpha: alpha must satisfy 0 < alpha < 1 (alpha = e^-eps), got 2; for the zlcn2013 convention (alpha > 1) use conventions.alpha_from_zlcn2013
    """
    a = exact_alpha(alpha, eps)
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    return PrivacyVerdict(a, tuple(dp_violations(x, a)), conv)


def derive(
    *, from_: object, to: object, exact: str | None = None, tolerance: object = TOLERANCE, timeout_s: float = TIMEOUT_S
) -> Matrix | None:
    """Is ``to`` a post-processing of ``from_``?  The remap Y with from_·Y = to exactly, or None.

    Both are mechanisms with the same inputs (rows); Y is row-stochastic, from the outputs of
    ``from_`` to the outputs of ``to``.  When ``from_`` is square and invertible Y = from_^-1·to is
    the only candidate; otherwise an exactly certified LP decides (None only when it proves
    that no stochastic Y exists).

    Parameters
    ----------
    from_ : matrix
        The mechanism that is run (e.g. T, the truncated geometric mechanism).
    to : matrix
        The mechanism asked about.
    exact : None, "rationalize" or "estimated"
        As in :func:`exact_matrix`, for both matrices.

    Returns
    -------
    list of list of Fraction, or None

    Examples
    --------
    >>> from udpm.core.mechanisms import truncated_geometric
    >>> T = truncated_geometric(1, "1/2")
    >>> derive(from_=T, to=[["1/2", "1/2"], ["1/2", "1/2"]])
    [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]]
    >>> derive(from_=[["1/2", "1/2"], ["1/2", "1/2"]], to=T) is None
    True
    >>> derive(T, T)
    Traceback (most recent call last):
        ...
    TypeError: derive() takes 0 positional arguments but 2 were given
    >>> derive(from_=T, to=[["1"], ["1"], ["1"]])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidMatrix: from_ has 2 rows and to has 3; a post-processing keeps the inputs (rows) of from_
    """
    t, _ = exact_matrix(from_, exact=exact, tolerance=tolerance, what="from_")
    x, _ = exact_matrix(to, exact=exact, tolerance=tolerance, what="to")
    y, _, _ = _derive(t, x, timeout_s)
    if y is not None:
        _check_remap(t, y, x)
    return y


__all__ = [
    "TIMEOUT_S",
    "Optimum",
    "PrivacyLevel",
    "PrivacyVerdict",
    "Universality",
    "best_remap",
    "decide_universality",
    "derive",
    "fast_truncated_geometric",
    "is_private",
    "is_universally_optimal",
    "optimal_for",
    "privacy_level",
]
