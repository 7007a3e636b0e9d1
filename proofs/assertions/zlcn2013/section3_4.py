"""zlcn2013 Section 3.4: the intuition it gives for the mechanism of formula (6).

* zlcn2013.sec3.4.intuition: (6) has its mode at i and decreases in |j - i| (exact rationals).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.legal_lp import fmt
from proofs.geometric.range_restricted import zlcn2013_formula6
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks

F = Fraction
INTUITION_ALPHAS = (F(3, 2), F(101, 100), F(10, 9), F(2), F(3), F(10))  # below 2 first


@checks("zlcn2013.sec3.4.intuition")
def mode_and_decay(ctx: Context, alphas: Sequence[Fraction] = INTUITION_ALPHAS, shift: int = 0) -> Findings:
    """zlcn2013 Section 3.4: "given an output i, the most likely output should still be i, and the probability of
    outputting j decreases with the increasing in |j - i|.  The range-restricted geometric mechanism exactly
    reflects that intuition."  Per (n, zlcn alpha), every row i of (6): Pr[Z(i) = j] is largest at j = i + shift
    (only there) and strictly decreasing in |j - i|; exact."""
    rec = Findings("zlcn2013.sec3.4.intuition")
    for n in range(1, 6):
        for al in alphas:
            with rec.deciding(
                n=n,
                alpha=zlcn_label(al),
                kind=BOUNDED,
                method="exact (6)",
                covers="every count i and output j of (6)",
            ) as d:
                m = zlcn2013_formula6(n, al)
                for i, row in enumerate(m):
                    mode = i + shift
                    bad = [j for j in range(n + 1) if j != mode and (not 0 <= mode <= n or row[j] >= row[mode])]
                    pairs = [
                        (j, k)
                        for j in range(n + 1)
                        for k in range(n + 1)
                        if abs(j - i) < abs(k - i) and not row[j] > row[k]
                    ]
                    if bad or pairs:
                        j, k = pairs[0] if pairs else (mode, bad[0])
                        d.counterexample(
                            f"n = {n}, zlcn alpha = {al}, count i = {i}: "
                            f"Pr[Z(i) = {j}] = {row[j] if 0 <= j <= n else '-'}"
                            f" but Pr[Z(i) = {k}] = {row[k]} (row {fmt(row)})"
                        )
                        break
    rec.note(
        "the boundary outputs 0 and n carry A/(A+1) A^-d against (A-1)/(A+1) A^-d inside: for A < 2 the boundary "
        "output beats the nearer interior one (from count 1 the mode is 0 once n >= 2); at A = 2 they tie; for A > 2 "
        "the intuition holds"
    )
    return rec
