"""Clopper-Pearson confidence bounds for a binomial proportion, as exact rationals certified by arb balls.

A bound is proposed in floating point (scipy's ``betaincinv`` when scipy is installed, else bisection on
the certified function), rounded outward, and kept only when python-flint's ball for the regularized
incomplete beta function proves it: a lower bound L for k successes in N draws only when
Pr[Bin(N, L) >= k] <= tail, an upper bound U only when Pr[Bin(N, U) <= k] <= tail.  So the bounds lie
on the outer side of the exact Clopper-Pearson bounds, never inside them.

>>> from fractions import Fraction as F
>>> lo, hi = lower_bound(3, 10, F(1, 40)), upper_bound(3, 10, F(1, 40))
>>> 0.0667 < float(lo) < 0.0668 and 0.6524 < float(hi) < 0.6525
True
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

START_PREC = 64  # arb working precision of the first try; doubled until a certificate is decided
MAX_PREC = 4096


def ball(q: Fraction, prec: int):  # -> flint.arb
    """The rational q as an arb ball at ``prec`` bits."""
    import flint

    old = flint.ctx.prec
    try:
        flint.ctx.prec = prec
        return flint.arb(flint.fmpq(q.numerator, q.denominator))
    finally:
        flint.ctx.prec = old


def _tail_ball(k: int, total: int, p: Fraction, prec: int):  # -> flint.arb: Pr[Bin(total, p) >= k], k >= 1
    import flint

    old = flint.ctx.prec
    try:
        flint.ctx.prec = prec
        return flint.arb(flint.fmpq(p.numerator, p.denominator)).beta_lower(k, total - k + 1, regularized=True)
    finally:
        flint.ctx.prec = old


def _at_least(k: int, total: int, p: Fraction, tail: Fraction) -> bool | None:
    """Is Pr[Bin(total, p) >= k] <= tail (True), > tail (False), or undecided at every precision (None)?"""

    prec = START_PREC
    while prec <= MAX_PREC:
        t = ball(tail, prec)
        b = _tail_ball(k, total, p, prec)
        if b <= t:
            return True
        if b > t:
            return False
        prec *= 2
    return None  # pragma: no cover (equality at a dyadic p: not met by the outward proposals)


def _propose(k: int, total: int, q: float, upper: bool) -> float:
    """A float near the p with Pr[Bin(total, p) >= k] = q (the Beta(k, total - k + 1) quantile)."""
    try:
        from scipy.special import betaincinv
    except ImportError:  # bisection on the certified function; slower, same answer after certification
        lo, hi = Fraction(0), Fraction(1)
        for _ in range(60):
            mid = (lo + hi) / 2
            if _at_least(k, total, mid, Fraction(q)):
                lo = mid
            else:
                hi = mid
        return float(hi if upper else lo)
    return float(betaincinv(k, total - k + 1, q))


def lower_bound(k: int, total: int, tail: Fraction) -> Fraction:
    """A rational L <= the Clopper-Pearson lower bound (one-sided level ``tail``), certified by arb."""
    if k == 0:
        return Fraction(0)
    x = _propose(k, total, float(tail), upper=False)
    for shift in (2**-30, 2**-20, 2**-10, 2**-4, 1.0):
        cand = Fraction(x * (1 - shift))  # a float proposal, rounded down; the certificate decides
        if cand <= 0:
            return Fraction(0)
        if _at_least(k, total, cand, tail):
            return cand
    return Fraction(0)  # pragma: no cover (shift 1 gives 0 above)


def upper_bound(k: int, total: int, tail: Fraction) -> Fraction:
    """A rational U >= the Clopper-Pearson upper bound (one-sided level ``tail``), certified by arb.

    Pr[Bin(N, U) <= k] <= tail is Pr[Bin(N, 1 - U) >= N - k] <= tail: the lower bound of the complement.
    """
    if k == total:
        return Fraction(1)
    return 1 - lower_bound(total - k, total, tail)


# ---------------------------------------------------------------- the probability that an interval misses


def _upper(b) -> Fraction:  # b: flint.arb -> a Fraction >= every point of the ball
    m, e = b.upper().man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def _first(pred: Callable[[int], bool], lo: int, hi: int) -> int:
    """The least k in lo..hi with pred(k) (pred monotone: False then True), or hi + 1."""
    while lo <= hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid - 1
        else:
            lo = mid + 1
    return lo


def miss_probability(p: Fraction, total: int, tail: Fraction) -> Fraction:
    """An exact upper bound on Pr[the interval of k ~ Bin(total, p) misses p], for the bounds of this module.

    The lower bound L(k) and the upper bound U(k) grow with k, so the interval misses p exactly when
    k >= k1 (the least k with L(k) > p) or k <= k0 (the largest k with U(k) < p); the two binomial tails
    are evaluated as arb balls and their upper ends taken.
    """
    if p in (0, 1):
        return Fraction(0)  # k is 0 (or total) surely, and L(0) = 0, U(total) = 1
    import flint

    k1 = _first(lambda k: lower_bound(k, total, tail) > p, 0, total)
    k0 = _first(lambda k: upper_bound(k, total, tail) >= p, 0, total) - 1
    old = flint.ctx.prec
    try:
        flint.ctx.prec = 128
        x = flint.arb(flint.fmpq(p.numerator, p.denominator))
        above = x.beta_lower(k1, total - k1 + 1, regularized=True) if k1 <= total else flint.arb(0)
        below = 1 - x.beta_lower(k0 + 1, total - k0, regularized=True) if k0 >= 0 else flint.arb(0)
        return _upper(above) + _upper(below)
    finally:
        flint.ctx.prec = old


__all__ = ["MAX_PREC", "START_PREC", "ball", "lower_bound", "miss_probability", "upper_bound"]
