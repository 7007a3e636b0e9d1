"""zlcn2013 Section 3.1: the integer k of equation (2), checked like any other claim.

In zlcn2013's alpha > 1 (written A; the harness's internal alpha is 1/A, through proofs/countrange/alpha.py).

* zlcn2013.eq2.k: "let k be the unique integer between 1 and n - 1" (closed intervals).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from proofs.countrange.alpha import ZLCN_ALPHAS, zlcn_label
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks

F = Fraction


def k_interval(k: int, a: Fraction) -> tuple[Fraction, Fraction]:
    """[1/(A^k (A+1)), A/(A^k (A+1))], as printed."""
    return F(1) / (a**k * (a + 1)), a / (a**k * (a + 1))


@checks("zlcn2013.eq2.k")
def unique_k(
    ctx: Context, unique: bool = True, k_top: Callable[[int], int] = lambda n: n - 1, n_min: int = 1
) -> Findings:
    """zlcn2013 Section 3.1: for beta1 in [1/(A^(n-1)(A+1)), 1/(A+1)] there is a unique integer k, 1 <= k <= n-1,
    with beta1 in [1/(A^k(A+1)), A/(A^k(A+1))].  Exact per (n, A): the number of k containing beta1 is constant
    between consecutive interval ends, so the ends and the midpoints between them decide every beta1.
    ``unique=False`` asks only that some k exists; ``k_top`` is the largest k (false variants)."""
    rec = Findings("zlcn2013.eq2.k")
    for n in range(n_min, 7):
        for a in ZLCN_ALPHAS:
            with rec.deciding(
                n=n,
                alpha=zlcn_label(a),
                kind=BOUNDED,
                method="exact interval count",
                covers="every beta1 in [1/(A^(n-1)(A+1)), 1/(A+1)]",
            ) as d:
                lo, hi = F(1) / (a ** (n - 1) * (a + 1)), F(1) / (a + 1)
                ks = range(1, k_top(n) + 1)
                ends = sorted({lo, hi, *(e for k in ks for e in k_interval(k, a) if lo <= e <= hi)})
                points = ends + [(u + v) / 2 for u, v in itertools.pairwise(ends)]
                for b in sorted(points):
                    found = [k for k in ks if k_interval(k, a)[0] <= b <= k_interval(k, a)[1]]
                    if (len(found) != 1) if unique else not found:
                        d.counterexample(
                            f"beta1 = {b} (zlcn alpha = {a}, n = {n}) lies in the intervals of k = {found or 'none'} "
                            f"among k = 1..{k_top(n)}"
                        )
                        break
    rec.note(
        "as printed the intervals are closed, so an interior end 1/(A^k(A+1)), 1 <= k <= n-2, lies in the intervals "
        "of k and k+1 (n >= 3), and at n = 1 the range is the point 1/(A+1) with no integer k between 1 and 0; the "
        "closed forms of the two k agree at a shared end (zlcn2013.eq2), so only the word 'unique' fails"
    )
    return rec
