"""Witness users: a legal user for whom a mechanism M, after its best remap, loses more than T(n, alpha).

T(n, alpha) is alpha-DP (checked exactly), so such a user shows directly, without grs2011 Theorem 3.2,
that M is not optimal for that user.  The search is the optional second step of an audit, cheapest first,
each candidate re-checked exactly (both best-remap losses in exact arithmetic, via FLINT):

1. named users: the uniform prior with the zero-one, absolute and squared losses, and Lemma 5.12's users;
2. a user proposed by one floating-point LP over the whole legal cone (HiGHS): maximise M's best-remap
   loss minus T's loss under its identity remap; the proposal is rounded to an exactly legal user;
3. the SMT search over every legal user at once (:func:`udpm.auditing.every_user.user_preferring`).

When the budget allows, the user's certified optimum (:func:`udpm.auditing.optimum.optimal_for`) is added.

>>> from fractions import Fraction as F
>>> rr = [[F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]]
>>> w = find_witness(rr, F(1, 2))
>>> w.label, w.mechanism_loss, w.t_loss
('uniform prior, zero-one loss', Fraction(2, 5), Fraction(1, 3))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint

from udpm.auditing.every_user import LEGAL, user_of, user_preferring
from udpm.auditing.optimum import optimal_for
from udpm.auditing.readable import decimal, readable
from udpm.auditing.time_budget import Budget
from udpm.auditing.user_inputs import make_user
from udpm.core import linalg
from udpm.core.mechanisms import fast_truncated_geometric
from udpm.core.users import BayesianUser, Loss
from udpm.core.validate import Matrix
from udpm.errors import HarnessError, SolverTimeout

#: Share of the witness budget the float LP proposal may use.
LP_SHARE = 0.5
#: Bound on each solver call of the search when the budget is unbounded.
SOLVER_CAP = 60.0


def weights_of(user: BayesianUser) -> Matrix | None:
    """W[i][j] = p_i l(i, j), or None when a loss value is not rational."""
    if any(not isinstance(v, Fraction | int) for row in user.loss.values for v in row):
        return None
    return [[p * Fraction(v) for v in row] for p, row in zip(user.prior, user.loss.values)]


def fast_best_remap(x: Matrix, w: Matrix) -> tuple[Fraction, list[int]]:
    """M's loss under its best (Bayes) remap for weights W, and that remap (ties to the smallest j); FLINT."""
    c = linalg.to_flint(x).transpose() * linalg.to_flint(w)
    total, mapping = flint.fmpq(0), []
    for r in range(c.nrows()):
        best_j, best = 0, c[r, 0]
        for j in range(1, c.ncols()):
            if c[r, j] < best:
                best_j, best = j, c[r, j]
        mapping.append(best_j)
        total += best
    return Fraction(int(total.p), int(total.q)), mapping


@dataclass(frozen=True)
class Witness:
    """A user for whom M's best remap loses ``mechanism_loss`` > ``t_loss``, T(n, alpha)'s best-remap loss."""

    label: str
    user: BayesianUser
    mechanism_loss: Fraction
    best_remap: list[int]
    t_loss: Fraction
    found_by: str
    optimum: object | None = None  # udpm.auditing.optimum.Optimum when certified within the budget

    @property
    def reference(self) -> Fraction:
        """The certified optimum when known, else T's loss (>= the optimum)."""
        return self.optimum.loss if self.optimum is not None else self.t_loss

    @property
    def gap(self) -> Fraction:
        return self.mechanism_loss - self.reference

    def summary(self, k: int = 3) -> str:
        """Support of the prior and the largest weights, readably (the full user is in the JSON)."""
        prior = self.user.prior
        support = [i for i, p in enumerate(prior) if p]
        top = sorted(support, key=lambda i: (-prior[i], i))[:k]
        span = f"{len(support)} of {len(prior)} results" if len(support) > k else f"results {support}"
        weights = ", ".join(f"p({i}) = {readable(prior[i])}" for i in top)
        loss_rows = {tuple(self.user.loss.values[i]) for i in support}
        kind = "one loss row shape" if len(loss_rows) == 1 else f"{len(loss_rows)} loss row shapes"
        return f"prior on {span}; largest {weights}; {kind}"

    def to_json(self) -> dict:
        out = {
            "label": self.label,
            "found_by": self.found_by,
            "prior": [str(p) for p in self.user.prior],
            "loss": [[str(v) for v in r] for r in self.user.loss.values],
            "mechanism_loss": str(self.mechanism_loss),
            "mechanism_loss_decimal": decimal(self.mechanism_loss),
            "best_remap": self.best_remap,
            "T_loss": str(self.t_loss),
            "optimum": None if self.optimum is None else str(self.optimum.loss),
            "gap": str(self.gap),
            "gap_decimal": decimal(self.gap),
        }
        if self.optimum is not None:
            out["optimal_mechanism"] = [[str(v) for v in r] for r in self.optimum.mechanism]
            out["certificate"] = self.optimum.certificate(f"witness user {self.label}")
        return out


def _lemma512(n: int, gamma: Fraction) -> BayesianUser:
    return BayesianUser.of(
        [Fraction(1, n + 1)] * (n + 1), Loss.from_function(n, lambda i, j: 0 if i == j else 1 + gamma * abs(i - j))
    )


def named_users(n: int) -> list[tuple[str, BayesianUser]]:
    users = [(f"uniform prior, {name} loss", make_user("uniform", name, n)) for name in ("zero-one", "abs", "squared")]
    users += [(f"Lemma 5.12 user, gamma = {g}", _lemma512(n, g)) for g in (Fraction(1, 1000), Fraction(1, 100))]
    return users


def _legal_from_weights(wf: list[list[float]]) -> Matrix | None:
    """An exactly legal W near a float proposal: l(i, d) the running maximum over d of the rounded mean."""
    n = len(wf) - 1
    out = []
    for i in range(n + 1):
        level, by_d = Fraction(0), []
        for d in range(n + 1):
            vals = [wf[i][j] for j in (i - d, i + d) if 0 <= j <= n]
            if not vals:
                by_d.append(level)
                continue
            v = max(0.0, sum(vals) / len(vals))
            level = max(level, Fraction(v).limit_denominator(10**12))
            by_d.append(level)
        out.append([by_d[abs(j - i)] for j in range(n + 1)])
    return out if any(v for r in out for v in r) else None


def lp_proposal(x: Matrix, t: Matrix, timeout_s: float) -> Matrix | None:
    """Floats only propose: a legal W maximising M's best-remap loss minus T's identity-remap loss (HiGHS)."""
    import highspy
    import numpy as np

    n1, k = len(x), len(x[0])
    nw = n1 * n1
    h = highspy.Highs()
    h.silent()
    h.setOptionValue("time_limit", max(0.1, float(timeout_s)))
    inf = highspy.kHighsInf
    # columns: W[i][r] (i*n1 + r), then phi_c
    cost = [float(t[i][r]) for i in range(n1) for r in range(n1)] + [-1.0] * k  # minimise T·W - sum phi
    lower = [0.0] * nw + [-inf] * k
    h.addVars(nw + k, np.array(lower), np.full(nw + k, inf))
    h.changeColsCost(nw + k, np.arange(nw + k, dtype=np.int32), np.array(cost))
    rows_lo, rows_hi, starts, idx, val = [], [], [], [], []

    def row(lo: float, hi: float, entries: list[tuple[int, float]]) -> None:
        rows_lo.append(lo)
        rows_hi.append(hi)
        starts.append(len(idx))
        for j, v in entries:
            idx.append(j)
            val.append(v)

    for c in range(k):  # phi_c <= sum_i x[i][c] W[i][r] for every r
        col = [(i, float(x[i][c])) for i in range(n1) if x[i][c]]
        for r in range(n1):
            row(0.0, inf, [(nw + c, -1.0), *((i * n1 + r, v) for i, v in col)])
    for i in range(n1):  # the legal cone: symmetric in |r - i|, nondecreasing away from i
        for r in range(n1 - 1):
            near, far = (r, r + 1) if r >= i else (r + 1, r)
            row(0.0, inf, [(i * n1 + far, 1.0), (i * n1 + near, -1.0)])
        for d in range(1, min(i, n1 - 1 - i) + 1):
            row(0.0, 0.0, [(i * n1 + i - d, 1.0), (i * n1 + i + d, -1.0)])
    row(1.0, 1.0, [(j, 1.0) for j in range(nw)])
    h.addRows(
        len(rows_lo),
        np.array(rows_lo),
        np.array(rows_hi),
        len(idx),
        np.array(starts, np.int32),
        np.array(idx, np.int32),
        np.array(val),
    )
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal or not h.getInfo().objective_function_value < -1e-12:
        return None
    sol = list(h.getSolution().col_value)
    return _legal_from_weights([sol[i * n1 : (i + 1) * n1] for i in range(n1)])


def _check(x: Matrix, t: Matrix, label: str, user: BayesianUser, how: str) -> Witness | None:
    """The user as a witness when M's best remap loses more than T's, exactly (W = p_i l(i, j))."""
    w = weights_of(user)
    if w is None:
        return None
    mu_m, remap = fast_best_remap(x, w)
    mu_t, _ = fast_best_remap(t, w)
    return Witness(label, user, mu_m, remap, mu_t, how) if mu_m > mu_t else None


def find_witness(
    x: Matrix, a: Fraction, budget: Budget | None = None, *, t: Matrix | None = None, certify: bool = True
) -> Witness | None:
    """A legal user for whom M loses more than T(n, alpha), or None when every search ran and found none.

    Raises SolverTimeout when the budget ended before a user was found.
    """
    budget = budget or Budget(None)
    n = len(x) - 1
    t = t or fast_truncated_geometric(n, a)
    found = None
    for label, user in named_users(n):
        if budget.expired:
            raise SolverTimeout("witness user: the budget ended during the named users")
        found = _check(x, t, label, user, "named user")
        if found:
            break
    if found is None and budget.left() > 0:
        w = lp_proposal(x, t, budget.left(SOLVER_CAP) * LP_SHARE)
        if w is not None:
            found = _check(
                x, t, "legal user proposed by an LP", user_of(w), "LP over the legal cone, re-checked exactly"
            )
    if found is None:
        if budget.expired:
            raise SolverTimeout("witness user: the budget ended before a user was found")
        cex = user_preferring(t, x, a, LEGAL, budget.left(SOLVER_CAP))
        if cex is None:
            return None
        found = _check(x, t, "legal user found by SMT", cex.user, "SMT over every legal user")
        if found is None:  # pragma: no cover (user_preferring re-checks the separation exactly)
            raise HarnessError("the SMT user does not separate M from T once re-checked")
    if certify and budget.left() > 0:
        try:
            opt = optimal_for(found.user, a, timeout_s=budget.left(SOLVER_CAP))
        except (SolverTimeout, HarnessError):
            opt = None
        if opt is not None and math.isfinite(budget.seconds) and budget.expired:
            opt = None
        if opt is not None:
            found = Witness(
                found.label, found.user, found.mechanism_loss, found.best_remap, found.t_loss, found.found_by, opt
            )
    return found


__all__ = ["Witness", "fast_best_remap", "find_witness", "lp_proposal", "named_users", "weights_of"]
