"""zlcn2013 Section 3.1 / Theorems 1, 5, 6: the (beta1, beta2) family min{psi1(beta1), psi2(beta2)}, exactly.

psi1 (recurrence (2)) and psi2 (recurrence (3)) are piecewise linear in their start values beta1 = psi1(0) and
beta2 = psi2(0) (breakpoints udpm.lp.countrange.psi1_breakpoints, psi2_breakpoints).  On each cell of the
arrangement of the lines beta1 = breakpoint, beta2 = breakpoint and psi1(mu) = psi2(mu) in [0,1]^2 every
min{psi1, psi2}(mu) is affine, so a consumer's error is linear there, and its minimum over (beta1, beta2), with
or without the crossing condition (5) (:func:`condition5`), is attained at a vertex of the arrangement
(:func:`arrangement_points`, :func:`two_variable_minimum`); over one recurrence alone it is attained at a
breakpoint (:func:`one_variable_minimum`).  Used by the all-consumers criterion (proofs/countrange/cones.py) and
the sampled cross-check of the claims (proofs/countrange/consumers.py).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from udpm.core.users import CountRangeConsumer, is_legal_function
from udpm.lp.countrange import psi1, psi1_breakpoints, psi2, psi2_breakpoints

F = Fraction


def _pieces(breaks: list[Fraction], f, n: int):
    """For each interval [b_k, b_k+1]: per mu the affine form (p, q) with f(beta)[mu] = p + q beta."""
    out = []
    for lo, hi in zip(breaks, breaks[1:]):
        vlo, vhi = f(lo), f(hi)
        out.append([(vlo[m] - (vhi[m] - vlo[m]) / (hi - lo) * lo, (vhi[m] - vlo[m]) / (hi - lo)) for m in range(n + 1)])
    return out


@functools.cache
def arrangement_points(n: int, A: Fraction) -> list[tuple[Fraction, Fraction]]:
    """All vertices in [0,1]^2 of the arrangement: beta1 = breakpoint, beta2 = breakpoint, psi1(mu) = psi2(mu).
    err(min{psi1, psi2}) is linear on each cell, so its minimum over a closed union of cells is at one of them."""
    b1, b2 = psi1_breakpoints(n, A), psi2_breakpoints(n, A)
    lines = {(F(1), F(0), b) for b in b1} | {(F(0), F(1), b) for b in b2}  # u beta1 + v beta2 = w
    p1 = _pieces(b1, lambda b: psi1(b, n, A), n)
    p2 = _pieces(b2, lambda b: psi2(b, n, A), n)
    for k1, k2 in itertools.product(range(len(p1)), range(len(p2))):
        for m in range(n + 1):
            (c1, s1), (c2, s2) = p1[k1][m], p2[k2][m]
            if s1 or s2:
                g = s1 if s1 else -s2
                lines.add((s1 / g, -s2 / g, (c2 - c1) / g))
    lines_l = sorted(lines)
    pts = set()
    for (u1, v1, w1), (u2, v2, w2) in itertools.combinations(lines_l, 2):
        det = u1 * v2 - u2 * v1
        if det:
            x, y = (w1 * v2 - w2 * v1) / det, (u1 * w2 - u2 * w1) / det
            if 0 <= x <= 1 and 0 <= y <= 1:
                pts.add((x, y))
    return sorted(pts)


@functools.cache
def psi_at_points(n: int, A: Fraction):
    """(beta1, beta2, psi1, psi2) at every vertex of the arrangement."""
    return tuple((b1, b2, psi1(b1, n, A), psi2(b2, n, A)) for b1, b2 in arrangement_points(n, A))


def condition5(s1, s2, t1: int, t2: int, flip5: bool = False) -> bool:
    """zlcn2013 (5): psi1(theta1) <= psi2(theta1) and psi1(theta2) >= psi2(theta2) (``flip5``: both reversed)."""
    if flip5:
        return s1[t1] >= s2[t1] and s1[t2] <= s2[t2]
    return s1[t1] <= s2[t1] and s1[t2] >= s2[t2]


def two_variable_minimum(
    c: CountRangeConsumer,
    A: Fraction,
    with5: bool,
    pts=None,
    flip5: bool = False,
    use_psi2: bool = True,
    legal_at: Fraction | None = None,
):
    """min over (beta1, beta2) of err(min{psi1, psi2}) (optionally subject to (5)), with its argmin, or None when
    no (beta1, beta2) is admissible.  ``A`` is the alpha of the recurrences.  ``flip5`` reverses both
    inequalities of (5) and ``use_psi2=False`` drops psi2 (false variants).  ``legal_at``: skip the functions
    that are not legal at that alpha (only the false variant with a larger alpha has any)."""
    n = c.n
    best = None
    t2 = n if c.theta2 is None else c.theta2
    pairs = psi_at_points(n, A) if pts is None else ((b1, b2, psi1(b1, n, A), psi2(b2, n, A)) for b1, b2 in pts)
    for b1, b2, s1, s2 in pairs:
        if with5 and not condition5(s1, s2, c.theta1, t2, flip5):
            continue
        phi = [min(u, v) for u, v in zip(s1, s2)] if use_psi2 else s1
        if legal_at is not None and not is_legal_function(phi, legal_at):
            continue
        e = c.weighted_error(phi)
        if best is None or e < best[0]:
            best = (e, b1, b2, phi)
    return best


def one_variable_minimum(c: CountRangeConsumer, A: Fraction, rec, legal_at: Fraction | None = None):
    """min over beta of err(rec(beta)): piecewise linear in beta, so attained at a breakpoint or an end.
    ``legal_at``: only the functions legal at that alpha (None when there is none at a breakpoint)."""
    breaks = psi1_breakpoints(c.n, A) if rec is psi1 else psi2_breakpoints(c.n, A)
    cands = [(c.weighted_error(rec(b, c.n, A)), b) for b in breaks]
    if legal_at is not None:
        cands = [(e, b) for e, b in cands if is_legal_function(rec(b, c.n, A), legal_at)]
    return min(cands) if cands else (None, None)
