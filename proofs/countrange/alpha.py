"""Count-range alpha convention (zlcn2013 Section 3.2-3.3): the one place zlcn2013's alpha becomes the internal a.

zlcn2013 writes alpha = e^eps > 1 and alpha-DP as a_(i+1)j / alpha <= a_ij <= alpha a_(i+1)j.
Here every computation uses the harness's a = 1/alpha = e^-eps in (0, 1), with DP in the internal form
a x <= y <= x / a (udpm.core.privacy).  zlcn2013's values (2, 3, 3/2, ...) remain the labels in scopes, values
and counterexamples ("zlcn alpha=2"); a concrete label enters the computation only through
``udpm.core.conventions.alpha_from_zlcn2013`` (:func:`internal`), and the printed LaTeX, written in alpha, is
read through the one symbolic substitution alpha = 1/a (:func:`in_internal_alpha`).  In code, ``alpha`` is
a zlcn label (or SYMBOLIC) and ``a`` the internal value.  Shared by the count-range proof modules
(proofs/countrange*.py).
"""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from udpm.core.conventions import alpha_from_zlcn2013
from udpm.errors import ExpectationsError

F = Fraction
A_SYM = sp.Symbol("alpha", positive=True)  # zlcn2013's alpha > 1: only in the printed LaTeX and the paper's formulas
a_sym = sp.Symbol("a", positive=True)  # the internal alpha = 1/A_SYM in (0, 1)
ZLCN_ALPHAS = (F(2), F(3), F(3, 2), F(10, 9), F(10), F(101, 100))  # labels, zlcn2013's convention
SYMBOLIC = "symbolic zlcn alpha > 1"  # an instance label: every zlcn alpha > 1, internal a = 1/alpha in (0, 1)
Alpha = Fraction | str  # a zlcn2013 alpha > 1 (a label), or SYMBOLIC


def internal(alpha: Fraction) -> Fraction:
    """The internal a in (0, 1) of a zlcn2013 label: the one place a concrete alpha is converted."""
    return alpha_from_zlcn2013(alpha)


def zlcn_label(alpha: Alpha) -> str:
    """The label of a zlcn2013 alpha in instances and messages, shared by the count-range checks:
    'zlcn alpha=2 (internal 1/2)', or SYMBOLIC."""
    if isinstance(alpha, str):
        if alpha != SYMBOLIC:
            raise ExpectationsError(f"unknown alpha label {alpha!r}")
        return SYMBOLIC
    return f"zlcn alpha={alpha} (internal {internal(alpha)})"


label = zlcn_label


def in_internal_alpha(expr: sp.Expr) -> sp.Expr:
    """The one symbolic conversion: zlcn2013's alpha becomes 1/a."""
    return sp.sympify(expr).subs(A_SYM, 1 / a_sym)
