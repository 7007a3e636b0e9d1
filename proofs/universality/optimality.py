"""Optimality for one Bayesian user, exactly: lambda(u), mu_X(u), and the alpha grid of the universality checks.

Every universality verdict (grs2011 Section 3, Lemma 5.11; grs2009 Theorem 3.1) compares two exact numbers for a
user u = (prior p, loss l):

* lambda(u): the optimum of the user-specific LP (3)-(7) over all alpha-DP
  mechanisms with range N, certified by :func:`udpm.lp.certify.solve` (primal
  vertex, exact dual, equal objectives; HiGHS only proposes a basis): :func:`optimum`;
* mu_X(u): the loss of mechanism X under its best remap, computed exactly
  output by output (the Bayes remap, grs2011 Section 2.3: for each output r, the j minimising
  sum_i p_i x_ir l(i, j); ties to the smallest j): :func:`best_remap`.

X is optimal for u iff mu_X(u) = lambda(u) (:func:`same`, exact also for irrational losses).  For ONE user the
certificate covers every mechanism; the claims quantify over every user (a continuum of priors and losses): the
mechanisms they list are in :mod:`proofs.universality.mechanisms`, the users decided all at once per (n, alpha) in
:mod:`proofs.universality.every_user`, the sampled users and the scan over both in :mod:`proofs.universality.scan`,
the checks of grs2011 Corollary 3.3, Lemma 5.11 and grs2009 Theorem 3.1 in
:mod:`proofs.universality.geometric_optimality`.

The other universality claims live in :mod:`proofs.universality.user_lp` (LP (3)-(7)),
:mod:`proofs.universality.bayes_remap` (the Bayes remap), :mod:`proofs.universality.direct_mechanisms`
(Lemma 5.2), :mod:`proofs.universality.optimal_vertex` (Lemma 5.7) and
:mod:`proofs.universality.unique_optimum` (Lemma 5.12), :mod:`proofs.universality.characterization` (Theorem 3.2)
and :mod:`proofs.universality.range_n_permutations` (Corollary 3.4, grs2009 Theorem 6.1).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction as F
from functools import lru_cache

import sympy

from udpm.claims.registry import Context
from udpm.core.remaps import posterior_loss
from udpm.core.users import BayesianUser, weighted
from udpm.lp.certify import Certified, sign_of, solve, split_coefficient
from udpm.lp.programs import bayesian_lp

Matrix = list[list[F]]
ALPHAS = (F(1, 100), F(1, 3), F(1, 2), F(99, 100))
ALPHAS_FULL = (*ALPHAS, F(1, 10), F(2, 3), F(9, 10))


def alphas(ctx: Context) -> tuple[F, ...]:
    return ALPHAS if ctx.quick else ALPHAS_FULL


def less(a: object, b: object) -> bool:
    """a < b exactly: rationals directly, sympy numbers by the sign of their exact difference."""
    if isinstance(a, F) and isinstance(b, F):
        return a < b
    return sign_of(split_coefficient(sympy.sympify(a) - sympy.sympify(b))) < 0


def best_remap(x: Sequence[Sequence[F]], user: BayesianUser) -> tuple[object, list[int]]:
    """mu_X(u) and the Bayes remap (grs2011 Section 2.3), exactly; ties go to the smallest j."""
    n = user.n
    total: object = F(0)
    mapping = []
    for r in range(len(x[0])):
        best_j, best = 0, None
        for j in range(n + 1):
            c = posterior_loss(x, user, r, j)
            if best is None or less(c, best):
                best_j, best = j, c
        mapping.append(best_j)
        total = total + best
    return (sympy.expand(total) if isinstance(total, sympy.Expr) else total), mapping


def expected_loss(user: BayesianUser, z: Sequence[Sequence[F]]) -> object:
    """(2) with the identity remap, exactly (sympy.expand for irrational losses, never nsimplify)."""
    total: object = F(0)
    for i, row in enumerate(z):
        for j, v in enumerate(row):
            w = user.prior[i] * v
            if w:
                total = total + weighted(w, user.loss(i, j))
    return sympy.expand(total) if isinstance(total, sympy.Expr) else total


@lru_cache(maxsize=4096)
def optimum(user: BayesianUser, alpha: F, timeout_s: float, unique: bool = False) -> Certified:
    """lambda(u): the certified optimum of the user-specific LP (3)-(7)."""
    return solve(bayesian_lp(user, alpha), timeout_s=timeout_s, decide_unique=unique)


def same(a: object, b: object) -> bool:
    return not less(a, b) and not less(b, a)


def flat(x: Sequence[Sequence[F]]) -> list[F]:
    return [v for row in x for v in row]
