"""diffprivlib (IBM) 0.6.6: ``mechanisms.GeometricTruncated`` and ``mechanisms.Geometric``, exactly.

Where the distribution is defined (diffprivlib 0.6.6, file ``diffprivlib/mechanisms/geometric.py``):

* line 52: ``self._scale = - self.epsilon / self.sensitivity``; so the ratio per unit of the count is
  a = e^(-epsilon/sensitivity) (``sensitivity`` must be an integer, lines 55-62).
* lines 107-113 (``Geometric.randomise``): u = (U - 1/2)(1 + a) with U uniform on [0, 1); s = sign(u)
  (s = +1 for u = 0); returns value + s * floor(ln|u| / ln a).  |u| <= (1 + a)/2 < 1, and for k >= 1
  floor(ln|u|/ln a) = k exactly when a^(k+1) < |u| <= a^k, an interval of length a^k (1 - a) on each
  side, of probability a^k (1 - a)/(1 + a); k = 0 gets a < |u| < (1 + a)/2 on each side, (1 - a)/(1 + a)
  in all.  So the noise is the two-sided geometric Pr[Z = k] = (1 - a)/(1 + a) a^|k| on all of Z
  (the class docstring cites grs2009, arXiv:0811.2841).
* lines 168-172 (``GeometricTruncated.randomise``) and ``diffprivlib/mechanisms/base.py`` lines 217-223
  (``TruncationAndFoldingMixin._truncate``): the noisy value is clamped, value > upper -> upper, value <
  lower -> lower.  So the tails Pr[Z >= upper - i] and Pr[Z <= lower - i] pile up on the two ends; with
  lower = 0, upper = n this is exactly T(n, a) of grs2011 Example 2.2.
* Defaults: the mechanisms have none for epsilon (a required keyword); the tools that use
  ``GeometricTruncated`` (``tools.histogram``, ``tools.count_nonzero``) default to epsilon = 1.0, and
  ``tools/histograms.py`` line 143 builds ``GeometricTruncated(epsilon, sensitivity=1, lower=0,
  upper=maxsize)``, so a histogram cell is clamped below only.

Floating point: the sampler computes in binary64 (``np.exp``, ``np.log``, ``np.floor``, and ``U`` has 53
random bits), so it realises the distribution above only up to rounding (and U = 1/2 exactly, of
probability 2^-53, raises ``OverflowError``).  The matrices below are the documented distribution; the
statistical test in tests/test_adapters.py cannot see deviations of that size.

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> geometric_truncated(4, "ln 2").matrix == truncated_geometric(4, F(1, 2))
True
>>> geometric(1, "ln 2").outputs
('<0', '0', '1', '>1')
>>> geometric_truncated(2, 1.0).alpha
exp(-1)
"""

from __future__ import annotations

from udpm.auditing.adapters import LibraryMechanism, alpha_of, installed_version

LIBRARY = "diffprivlib"
#: epsilon of diffprivlib's tools (histogram, count_nonzero, ...), which call GeometricTruncated.
DEFAULT_EPSILON = 1.0
SOURCE = "diffprivlib/mechanisms/geometric.py lines 52, 107-113, 168-172; mechanisms/base.py lines 217-223"


def geometric_truncated(
    n: int, epsilon: object, *, sensitivity: int = 1, lower: int = 0, upper: int | None = None
) -> LibraryMechanism:
    """``GeometricTruncated(epsilon=epsilon, sensitivity=sensitivity, lower=lower, upper=upper)`` on counts 0..n.

    ``upper`` defaults to n.  Columns are the outputs lower..upper.
    """
    upper = n if upper is None else upper
    a, rate = alpha_of(epsilon, sensitivity)
    return LibraryMechanism.clamped(
        LIBRARY,
        "GeometricTruncated",
        n,
        a,
        rate,
        (lower, upper),
        {"epsilon": str(epsilon), "sensitivity": sensitivity, "lower": lower, "upper": upper},
        SOURCE,
    )


def geometric(n: int, epsilon: object, *, sensitivity: int = 1) -> LibraryMechanism:
    """``Geometric(epsilon=epsilon, sensitivity=sensitivity)`` on counts 0..n, tails lumped (range Z)."""
    a, rate = alpha_of(epsilon, sensitivity)
    return LibraryMechanism.lumped(
        LIBRARY,
        "Geometric",
        n,
        a,
        rate,
        {"epsilon": str(epsilon), "sensitivity": sensitivity},
        "diffprivlib/mechanisms/geometric.py lines 52, 107-113",
    )


def version() -> str | None:
    """The installed diffprivlib's version, or None."""
    return installed_version("diffprivlib")


__all__ = ["DEFAULT_EPSILON", "geometric", "geometric_truncated", "version"]
