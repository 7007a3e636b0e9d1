"""The questions of an audit for a library mechanism whose ratio e^-r is irrational, decided exactly.

A library mechanism (:class:`udpm.auditing.adapters.LibraryMechanism`) with a float epsilon or scale has the ratio
alpha_lib = e^-r, r the exact rational the library computes with; e^-r is irrational (Lindemann).  Its matrix
is the family matrix of the adapter with A = alpha_lib, so the questions are decided on that family:

* **privacy**: every adjacent ratio of the family with a symbol A is A, 1/A or 1 (sympy), so M is alpha-DP
  iff alpha <= alpha_lib, decided by arb balls (:func:`udpm.auditing.adapters.compare_exp_neg`), never by floats;
* **universal optimality at a rational alpha < alpha_lib**: no.  Every remap of M is alpha_lib-DP
  (post-processing), and T(n, alpha) is not: its adjacent ratio alpha is below alpha_lib;
* **universal optimality at alpha_lib itself**: the clamp remap Y (outputs below 0 to 0, above n to n)
  gives M·Y = T(n, A) as an identity of rational functions of A (sympy), hence at A = alpha_lib;
* **a user's loss**: M's best-remap loss as an arb ball (each entry evaluated from the ball of e^-r),
  compared with the user's certified optimum; the sign of the gap is stated only when the ball excludes 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import flint
import sympy

from udpm.auditing.adapters import LibraryMechanism, compare_exp_neg
from udpm.auditing.privacy_level import PrivacyLevel, level_of_library
from udpm.auditing.questions import PrivacyVerdict, Universality
from udpm.auditing.readable import approx, compact
from udpm.core.privacy import Violation
from udpm.core.users import BayesianUser

PREC = 256


def t_family(n: int, a: sympy.Expr) -> list[list[sympy.Expr]]:
    """T(n, A) of grs2011 Example 2.2, written out for a symbol A."""

    def entry(i: int, j: int) -> sympy.Expr:
        if j == 0:
            return a**i / (1 + a)
        if j == n:
            return a ** (n - i) / (1 + a)
        return (1 - a) / (1 + a) * a ** abs(i - j)

    return [[entry(i, j) for j in range(n + 1)] for i in range(n + 1)]


def clamp_remap(m: LibraryMechanism) -> list[list[int]]:
    """Y sending each output label to the nearest count in 0..n ('<0' -> 0, '>n' -> n)."""
    n, out = m.n, []
    for label in m.outputs:
        k = -1 if label == "<0" else n + 1 if label == f">{n}" else int(label)
        j = min(max(k, 0), n)
        out.append([int(c == j) for c in range(n + 1)])
    return out


def remap_identity_holds(m: LibraryMechanism) -> bool:
    """M_A·Y = T(n, A) for the clamp remap Y, as rational functions of A (sympy cancel)."""
    a = sympy.Symbol("A", positive=True)
    x, y, t = m.family(a), clamp_remap(m), t_family(m.n, a)
    for i in range(m.n + 1):
        for j in range(m.n + 1):
            s = sum((x[i][r] for r in range(len(y)) if y[r][j]), sympy.Integer(0))
            if sympy.cancel(s - t[i][j]) != 0:
                return False
    return True


def gap_text(m: LibraryMechanism, alpha: Fraction) -> str:
    """alpha_lib - alpha readably, from an arb ball (the sign is decided separately, by compare_exp_neg)."""
    old = flint.ctx.prec
    try:
        flint.ctx.prec = PREC
        d = (-(flint.arb(m.rate.numerator) / m.rate.denominator)).exp() - flint.arb(alpha.numerator) / alpha.denominator
        return f"alpha_lib - {alpha} ≈ {d.mid().str(3, radius=False)}"
    finally:
        flint.ctx.prec = old


@dataclass(frozen=True)
class LibraryAnswers:
    privacy: PrivacyVerdict
    universality: Universality


def answers(m: LibraryMechanism, alpha: Fraction | None, level: PrivacyLevel | None = None) -> LibraryAnswers:
    """Privacy and universal optimality of an irrational-ratio library mechanism at ``alpha`` (None: at alpha_lib)."""
    level = level or level_of_library(m)
    n = m.n
    if alpha is None:
        ok = remap_identity_holds(m)
        privacy = PrivacyVerdict(m.alpha, ())
        if ok:
            reason = (
                f"M·Y = T({n}, {approx(m.alpha, m.rate)}) for the clamp remap Y, an identity of rational "
                "functions of A = alpha_lib (sympy)"
            )
            return LibraryAnswers(privacy, Universality(True, n, m.alpha, reason, remap=None, method="symbolic"))
        return LibraryAnswers(
            privacy,
            Universality(
                False, n, m.alpha, "not decided: the clamp remap does not give T symbolically", method="undecided"
            ),
        )
    sign = compare_exp_neg(m.rate, alpha)  # +1: alpha_lib > alpha
    if sign < 0:
        i, k = level.pair
        p, q = level.p, level.q
        v = Violation(i, k, level.output, p, q, sympy.simplify(p / q) if p != q else sympy.Integer(1))
        privacy = PrivacyVerdict(alpha, (v,))
        reason = (
            f"M is not {alpha}-DP: rows {i}, {k} at output {level.output} differ by the factor 1/alpha_lib, "
            f"and alpha_lib = {approx(m.alpha, m.rate)} < {alpha} ({gap_text(m, alpha)}, arb balls)"
        )
        return LibraryAnswers(privacy, Universality(False, n, alpha, reason, violations=(v,), method="not DP"))
    reason = (
        f"no remap Y with M·Y = T({n}, {compact(alpha)}): every remap of M is alpha_lib-DP (post-processing) "
        f"and T({n}, {compact(alpha)}) is not, as {compact(alpha)} < alpha_lib = {approx(m.alpha, m.rate)} "
        f"({gap_text(m, alpha)}, arb balls)"
    )
    return LibraryAnswers(
        PrivacyVerdict(alpha, ()), Universality(False, n, alpha, reason, method="privacy level", witness_status="off")
    )


def loss_ball(m: LibraryMechanism, user: BayesianUser) -> flint.arb:
    """M's best-remap loss for ``user`` as an arb ball containing the exact value."""
    old = flint.ctx.prec
    try:
        flint.ctx.prec = PREC
        a = (-(flint.arb(m.rate.numerator) / m.rate.denominator)).exp()
        x = m.family(a)
        w = [
            [flint.arb(p.numerator) / p.denominator * (flint.arb(v.numerator) / v.denominator) for v in row]
            for p, row in zip(user.prior, (tuple(Fraction(v) for v in r) for r in user.loss.values))
        ]
        total = flint.arb(0)
        for r in range(len(x[0])):
            best = None
            for j in range(m.n + 1):
                c = sum((x[i][r] * w[i][j] for i in range(m.n + 1)), flint.arb(0))
                best = c if best is None else best.min(c)
            total += best
        return total
    finally:
        flint.ctx.prec = old


__all__ = ["LibraryAnswers", "answers", "clamp_remap", "loss_ball", "remap_identity_holds", "t_family"]
