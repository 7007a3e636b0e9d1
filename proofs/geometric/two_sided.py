"""The two-sided geometric mechanism: grs2011 Example 2.1 and gs2010 Definition 1, for all n and alpha.

grs2011 Example 2.1: the alpha-geometric mechanism is alpha-DP, and the 0- and 1-geometric mechanisms it also
defines are 0- and 1-DP.  gs2010 Definition 1: the pmf sums to 1 over Z and adding it is alpha-DP.  Each on
(0, 1) by the case split of :mod:`proofs.geometric.case_split`, and at the printed ends 0 and 1 exactly
(:mod:`proofs.boundary.geometric`).
"""

from __future__ import annotations

from fractions import Fraction

from proofs.boundary.geometric import END_MECHANISMS, ENDS, GS2010_RANGE, end_mechanisms_private, pmf_at_end
from proofs.geometric.case_split import (
    Pmf,
    decide_parts,
    prove_sums_to_one,
    prove_translation_invariant_dp,
)
from proofs.geometric.noise import geometric_pmf
from udpm.claims.registry import Context, Findings, checks


@checks("grs2011.ex2.1")
def geometric_is_private(ctx: Context, pmf: Pmf = geometric_pmf, ends: dict = END_MECHANISMS) -> Findings:
    """grs2011 Example 2.1: the alpha-geometric mechanism is alpha-DP for every alpha in (0,1), and the 0- and
    1-geometric mechanisms it also defines (always f(d); always 0) are 0- and 1-DP.  ``ends``: the mechanism built
    at each end (alpha -> builder on results 0..n and a window of outputs), for false variants."""
    rec = decide_parts("grs2011.ex2.1", [prove_translation_invariant_dp(pmf)])
    end_mechanisms_private(rec, ends)
    rec.note(
        "Example 2.1 also defines the 0-geometric mechanism (always the true result) and the 1-geometric mechanism "
        "(always 0): each is built as a matrix on results 0..n (n = 1..5) and the outputs -n-2..2n+2, and decided "
        "exactly: its rows are distributions inside the window (so no mass lies outside it) and every adjacent "
        "ratio lies in [alpha, 1/alpha], read with 0/0 = 1 (grs2011 Section 2.1) and x/0 = infinity, so [0, 1/0] is "
        "[0, infinity] at alpha = 0"
    )
    return rec


@checks("gs2010.def1")
def geometric_is_distribution_and_private(
    ctx: Context, pmf: Pmf = geometric_pmf, ends: tuple[Fraction, ...] = ENDS, claim: str = "gs2010.def1"
) -> Findings:
    """gs2010 Definition 1: the two-sided geometric pmf sums to 1 over Z, and adding it is alpha-DP, for alpha in
    the printed [0, 1] (Section 2.1): symbolically on (0, 1), exactly at the ends 0 and 1 (0^0 = 1)."""
    rec = decide_parts(claim, [prove_sums_to_one(pmf), prove_translation_invariant_dp(pmf)])
    for e in ends:
        pmf_at_end(rec, pmf, e)
    if 1 not in ends:
        return rec
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; decided on the printed pmf at each end: at alpha = 0 it is the point "
        "mass at 0 (sum 1, 0-DP with x/0 = infinity); at alpha = 1 it is 0 at every z and sums to 0, so Definition "
        "1 as printed is false at alpha = 1 (the printed range [0, 1] would need to be [0, 1))"
    )
    rec.value(
        corrected_statement="Definition 1's pmf is a distribution and alpha-DP for alpha in [0, 1); at alpha = 1 "
        "(1 - alpha)/(1 + alpha) alpha^|z| = 0 for every z (the claim gs2010.def1.corrected)",
    )
    return rec
