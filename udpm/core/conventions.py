"""The one place where zlcn2013's alpha convention meets the harness's.

Inside the harness alpha lies in (0, 1) and alpha = e^-eps (grs2009, grs2011,
gs2010).  zlcn2013 writes alpha = e^eps > 1.  Every zlcn2013 value enters
through :func:`alpha_from_zlcn2013` and nothing else converts.

>>> alpha_from_zlcn2013(2)
Fraction(1, 2)
>>> alpha_to_zlcn2013(Fraction(1, 3))
Fraction(3, 1)
>>> alpha_from_zlcn2013(Fraction(1, 2))
Traceback (most recent call last):
    ...
udpm.errors.InvalidAlpha: zlcn2013 alpha must be > 1 (alpha = e^eps), got 1/2
"""

from __future__ import annotations

from fractions import Fraction

from udpm.core.validate import alpha_above_one, alpha_in_unit_interval


def alpha_from_zlcn2013(alpha_zlcn: object) -> Fraction:
    """Convert zlcn2013's alpha = e^eps > 1 into the internal alpha = e^-eps in (0, 1)."""
    return 1 / alpha_above_one(alpha_zlcn)


def alpha_to_zlcn2013(alpha: object) -> Fraction:
    """Inverse of :func:`alpha_from_zlcn2013`, for printing values in zlcn2013's terms."""
    return 1 / alpha_in_unit_interval(alpha)


def alpha_end_from_zlcn2013(end: Fraction | None) -> Fraction:
    """An end of a range zlcn2013 prints, in the harness's convention: 1 stays 1 (eps = 0), infinity (None)
    becomes 0 (eps = infinity), and every other end crosses through :func:`alpha_from_zlcn2013`.

    >>> alpha_end_from_zlcn2013(None), alpha_end_from_zlcn2013(Fraction(1)), alpha_end_from_zlcn2013(4)
    (Fraction(0, 1), Fraction(1, 1), Fraction(1, 4))
    """
    if end is None:
        return Fraction(0)
    if end == 1:
        return Fraction(1)
    return alpha_from_zlcn2013(end)
