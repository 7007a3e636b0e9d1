"""gs2010 Section 4.2: what it says of all optimal mechanisms, checked like any other claim.

- ``gs2010.sec4.2.optimal-derivable``: all optimal mechanisms derive from G; the non-derivable ones are
  optimal for no consumer; every two adjacent rows of every optimal mechanism have Lemma 5's pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from proofs.assertions.gs2010.common import Matrix, first_violation
from proofs.boundary.geometric import definition4
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.remaps import derive
from udpm.core.users import MinimaxUser, absolute_error
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.minimax import optimal_mechanism_lp

F = Fraction


#: An optimal mechanism for the consumer with loss |i - r| and S = {0, 1} at n = 3, alpha = 1/2 (found by an exact
#: LP minimising the three-term value at rows 0-2, column 0 over that consumer's optimal mechanisms).
OPT_N, OPT_ALPHA, OPT_S = 3, F(1, 2), (0, 1)
OPT_M = [
    [F(2, 3), F(1, 3), F(0), F(0)],
    [F(1, 3), F(2, 3), F(0), F(0)],
    [F(2, 3), F(1, 3), F(0), F(0)],
    [F(1, 3), F(2, 3), F(0), F(0)],
]


def lemma5_pattern(x: Sequence[Sequence[Fraction]], a: Fraction, i: int) -> bool:
    """Lemma 5's pattern for rows i, i+1: columns 0..c1 with a x[i][j] = x[i+1][j], columns c2.. with x[i][j] =
    a x[i+1][j], and c2 - c1 in {1, 2} (c1 = -1: no such column; c2 = n+1: none)."""
    k = len(x[i])
    down = [a * x[i][j] == x[i + 1][j] for j in range(k)]
    up = [x[i][j] == a * x[i + 1][j] for j in range(k)]
    for c1 in range(-1, k):
        for c2 in (c1 + 1, c1 + 2):
            if c2 <= k and all(down[: c1 + 1]) and all(up[c2:]):
                return True
    return False


@checks("gs2010.sec4.2.optimal-derivable")
def optimal_not_derivable(
    ctx: Context,
    m: Matrix = OPT_M,
    side_information: Sequence[int] = OPT_S,
    loss: Callable = absolute_error,
    alpha: Fraction = OPT_ALPHA,
) -> Findings:
    """gs2010 Section 4.2: "Our result proves that all optimal mechanisms can be derived from the geometric
    mechanism"; the non-derivable DP mechanisms are "not optimal for any information consumer"; and "every two
    adjacent rows of every optimal mechanism must satisfy" Lemma 5's pattern.  Refuted by one exact instance: M is
    alpha-DP, its worst-case loss equals the exactly certified optimum of a legal consumer (loss |i - r|, a
    strictly monotone one), G_{n,alpha}^-1 M has a negative entry (not derivable) and rows 1, 2 of M break Lemma 5's
    pattern."""
    rec = Findings("gs2010.sec4.2.optimal-derivable")
    n = len(m) - 1
    user = MinimaxUser.of(side_information, loss(n))
    lp = optimal_mechanism_lp(user, alpha)
    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
    rec.certificate = certificate_of({"claim": "optimal_not_derivable"}, [(f"S={list(side_information)}", opt)])
    g = definition4(n + 1, alpha)
    y = derive(m, g)
    value = user.worst_case_loss(m)
    broken = [i for i in range(n) if not lemma5_pattern(m, alpha, i)]
    facts = {
        "alpha-DP": first_violation(m, alpha) is None,
        "rows sum to 1": all(sum(r) == 1 for r in m),
        "non-negative": all(v >= 0 for r in m for v in r),
        "optimal": value == opt.objective,
        "derivable from G": y.stochastic,
    }
    rec.value(
        optimum=opt.objective,
        loss_of_M=value,
        **{k: str(v) for k, v in facts.items()},
        **{"G^-1 M": linalg.fmt_matrix(y.remap), "rows breaking Lemma 5's pattern": str(broken)},
    )
    with rec.deciding(
        n=n,
        alpha=alpha,
        kind=BOUNDED,
        method="exactly certified LP optimum, exact solve G Y = M",
        covers="every consumer and every optimal mechanism at this (n, alpha)",
    ) as d:
        if all(facts[k] for k in ("alpha-DP", "rows sum to 1", "non-negative", "optimal")) and not y.stochastic:
            d.counterexample(
                f"n = {n}, alpha = {alpha}, loss |i - r|, S = {set(side_information)}: M = {linalg.fmt_matrix(m)} is "
                f"alpha-DP with worst-case loss {value} = the certified optimum, yet G^-1 M = "
                f"{linalg.fmt_matrix(y.remap)} has negative entries {list(y.negative_entries)}: optimal and not "
                f"derivable from G; adjacent rows {broken} (i, i+1) break Lemma 5's pattern"
            )
        else:
            d.inconclusive("this mechanism is not an optimal, non-derivable one for this consumer")
    rec.note(
        "Lemma 5 asserts that SOME optimal mechanism has the pattern (gs2010.lemma5), and Theorem 1 that the "
        "optimal loss is reached through G (gs2010.thm1); both stand.  With S a proper subset, rows outside S "
        "are free within alpha-DP, so optimal mechanisms need not derive from G"
    )
    return rec
