# ruff: noqa: E501  (doctests show one-line error messages in full)
"""Exact alpha inputs: alpha itself, or eps with alpha = e^-eps, exact where e^-eps is rational and refused
(:class:`IrrationalAlpha`) otherwise.  ``eps="ln 2"`` gives alpha = 1/2.
"""

from __future__ import annotations

import re
from fractions import Fraction

from udpm.core.validate import alpha_in_unit_interval, float_like, rational, show
from udpm.errors import InvalidAlpha, InvalidMatrix


class IrrationalAlpha(InvalidAlpha):
    """eps was given, but alpha = e^-eps is not a rational number (never approximated by a float)."""


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
    udpm.auditing.alpha_inputs.IrrationalAlpha: eps=1/2 ln 2 gives alpha = 2^(-1/2), which is irrational; give eps as ln(p/q) (then alpha = q/p), e.g. eps='ln 2' for alpha = 1/2, or pass alpha itself
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
    if isinstance(eps, bool) or float_like(eps):
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


__all__ = ["IrrationalAlpha", "alpha_from_eps", "exact_alpha"]
