"""The two-sided geometric noise Delta of the alpha-geometric mechanism, Pr[Delta = d] = (1-a)/(1+a) a^|d|
(grs2011 Example 2.1, grs2009 Example 2.1), and its tails Pr[Delta >= lo] in closed form, symbolic alpha in (0, 1).
"""

from __future__ import annotations

import sympy as sp

from proofs.geometric.symbolic import a, below_one, k


def geometric_pmf(delta: sp.Expr) -> sp.Expr:
    """grs2011 (1), gs2010 Definition 1: Pr[Delta = delta] = (1-a)/(1+a) a^|delta|."""
    return (1 - a) / (1 + a) * a ** sp.Abs(delta)


def tail(lo: sp.Expr) -> sp.Expr:
    """Pr[Delta >= lo] for lo >= 1 (a symbolic non-negative shift allowed): sum of the pmf, closed form."""
    return below_one(sp.summation(((1 - a) / (1 + a) * a**k).subs(k, k + lo), (k, 0, sp.oo)))
