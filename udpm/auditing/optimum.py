"""The certified optimal alpha-DP mechanism for one Bayesian user (grs2011 LP (3)-(7)), the user's Bayes
remap of a mechanism, and the certified LP that decides whether one mechanism remaps to another.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import sympy

from udpm.auditing.alpha_inputs import exact_alpha
from udpm.auditing.user_inputs import make_user
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import posterior_loss
from udpm.core.users import BayesianUser, LossValue
from udpm.core.validate import Matrix, show
from udpm.errors import InvalidInput
from udpm.lp.certificates import to_certificate
from udpm.lp.certify import Certified, solve
from udpm.lp.programs import bayesian_lp, remap_existence_lp

#: The default bound, in seconds, on each certified LP solve.
TIMEOUT_S = 60.0


def _less(a: LossValue, b: LossValue) -> bool:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return a < b
    return bool(sympy.sympify(a) < sympy.sympify(b))


def best_remap(x: Matrix, user: BayesianUser) -> tuple[LossValue, list[int]]:
    """mu_X(u): the loss of ``x`` under the user's best (Bayes) remap, and that remap; ties to the smallest j."""
    total: LossValue = Fraction(0)
    mapping = []
    for r in range(len(x[0])):
        best_j, best = 0, None
        for j in range(user.n + 1):
            c = posterior_loss(x, user, r, j)
            if best is None or _less(c, best):
                best_j, best = j, c
        mapping.append(best_j)
        total = total + best
    return total, mapping


def remap_lp(t: Matrix, x: Matrix, timeout_s: float) -> tuple[Matrix | None, Certified]:
    """Certified phase-1 LP: min sum |T·Y - X| over stochastic Y; 0 gives Y exactly, > 0 proves no Y exists."""
    cols = len(x[0])
    cert = solve(remap_existence_lp(t, x), timeout_s=timeout_s, decide_unique=False)
    if cert.objective != 0:
        return None, cert
    y = [list(cert.x[r * cols : (r + 1) * cols]) for r in range(len(t[0]))]
    return y, cert


@dataclass(frozen=True)
class Optimum:
    """A user's certified optimal alpha-DP mechanism (grs2011 LP (3)-(7), range N).

    ``mechanism`` is an optimal vertex, ``loss`` its exact expected loss (the LP optimum), ``certified``
    the exact certificate (primal, dual, equal objectives); :meth:`certificate` exports it in the
    format that ``python -m udpm.lp.certificates`` re-checks with the standard library alone.
    """

    alpha: Fraction
    user: BayesianUser
    mechanism: Matrix
    loss: LossValue
    unique: bool | None
    certified: Certified

    def certificate(self, label: str = "") -> dict:
        return to_certificate(self.certified, label or f"optimum for one user, n={self.user.n}, alpha={self.alpha}")


def optimal_for(
    user: object, alpha: object = None, *, eps: object = None, unique: bool = False, timeout_s: float = TIMEOUT_S
) -> Optimum:
    """The certified optimal alpha-DP mechanism for one Bayesian user.

    Parameters
    ----------
    user : BayesianUser or (prior, loss)
        prior a probability vector or 'uniform'; loss a Loss, a square matrix or 'abs', 'zero-one', 'squared'.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    unique : bool
        Also decide, exactly, whether the optimum is unique.

    Returns
    -------
    Optimum
        The mechanism, its expected loss and the exact LP certificate.

    Examples
    --------
    >>> opt = optimal_for((["1/2", "1/2"], "zero-one"), "1/2", unique=True)
    >>> opt.loss, opt.mechanism, opt.unique
    (Fraction(1, 3), [[Fraction(2, 3), Fraction(1, 3)], [Fraction(1, 3), Fraction(2, 3)]], True)
    >>> optimal_for((["1/2", "1/3"], "abs"), "1/2")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidDistribution: prior must be non-negative and sum to 1, got sum 5/6
    """
    a = exact_alpha(alpha, eps)
    if isinstance(user, tuple) and len(user) == 2:
        user = make_user(user[0], user[1])
    if not isinstance(user, BayesianUser):
        raise InvalidInput(f"user must be a BayesianUser or (prior, loss), got {show(user)}")
    t = truncated_geometric(user.n, a)
    _, mapping = best_remap(t, user)
    candidate = [v for row in t for v in row]
    cand = [[Fraction(0)] * (user.n + 1) for _ in range(user.n + 1)]
    for i in range(user.n + 1):
        for r, j in enumerate(mapping):
            cand[i][j] += t[i][r]
    candidate = [v for row in cand for v in row]  # the theory's candidate (grs2011 Thm 3.1); the certificate decides
    cert = solve(bayesian_lp(user, a), timeout_s=timeout_s, candidate=candidate, decide_unique=unique)
    return Optimum(a, user, cert.matrix(user.n + 1, user.n + 1), cert.objective, cert.unique, cert)


def describe_user(user: BayesianUser) -> dict:
    return {
        "prior": [str(p) for p in user.prior],
        "loss": [[str(v) for v in r] for r in user.loss.values],
    }


__all__ = ["TIMEOUT_S", "Optimum", "best_remap", "describe_user", "optimal_for", "remap_lp"]
