"""The range-restricted geometric mechanisms: gs2010 Definition 4 and zlcn2013 Definition 6, for all n.

gs2010 Definition 4: G_{n,alpha} and the geometric mechanism derive each other (all n, alpha in (0, 1), and the
printed ends 0 and 1).  zlcn2013 Definition 6, (6) in its alpha > 1: the truncated geometric mechanism
T(n, 1/alpha), n = 0 included.  Each by the case split of :mod:`proofs.geometric.case_split`, with the exact
cross-checks of the library.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import GS2010_RANGE, definition4, definition4_at_one, definition4_at_zero
from proofs.geometric.case_split import (
    BOUNDED_N,
    A,
    Expr,
    Pmf,
    a,
    decide_parts,
    is_zero,
    k,
    p,
    q,
    series,
)
from proofs.geometric.noise import geometric_pmf
from proofs.geometric.truncated import clamp_remap_matches
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.conventions import alpha_from_zlcn2013
from udpm.core.mechanisms import truncated_geometric, truncated_geometric_zlcn2013


def spreading_weight(r: Expr) -> Expr:
    """Probability that the remap sends boundary output 0 to r <= 0 (|r| = r here): (1-a) a^|r|."""
    return (1 - a) * a**r


@checks("gs2010.def4")
def range_restricted_equivalent_to_geometric(
    ctx: Context,
    weight: Callable[[Expr], Expr] = spreading_weight,
    g_at_end: Callable[[int, Fraction], list[list[Fraction]]] = definition4,
    pmf: Pmf = geometric_pmf,
    at_one: bool = True,
    claim: str = "gs2010.def4",
) -> Findings:
    """gs2010 Definition 4: the range-restricted geometric G is derivable from the geometric
    mechanism and vice versa, for all n >= 1 and alpha in (0, 1), and at the printed ends alpha = 0 and 1
    (``g_at_end``: Definition 4's matrix there; ``pmf``: Definition 1's, both for false variants).

    G from geometric: the clamp remap, proved for all n in grs2011.ex2.2 (a declared dependency
    of this claim in udpm.claims.catalog, so this claim's status is capped by that one's).  Geometric from G: keep
    outputs 1..n-1, send output 0 to r <= 0 with probability (1-a) a^|r| and
    output n to r >= n with probability (1-a) a^(r-n).  This remap is
    stochastic and reproduces every column of the geometric mechanism.
    """
    parts: list[tuple[bool | None, str]] = []
    spread = series(weight(p), p, 0, sp.oo)
    parts.append((is_zero(spread - 1), f"the spreading remap's rows sum to {spread}"))
    # Column r = -p <= 0 of the geometric mechanism at result i = k: G[i][0] * y[0][r].
    lhs = a**k / (1 + a) * weight(p)
    parts.append((is_zero(lhs - geometric_pmf(-p - k)), "G[i][0] (1-a) a^|r| = Pr[Delta = r - i] for r <= 0"))
    # Column r = n + p >= n at result i = n - q (q >= 0).
    lhs = a**q / (1 + a) * weight(p)
    parts.append((is_zero(lhs - geometric_pmf(p + q)), "G[i][n] (1-a) a^(r-n) = Pr[Delta = r - i] for r >= n"))
    rec = decide_parts(claim, parts, lambda rec: clamp_remap_matches(rec, truncated_geometric))
    definition4_at_zero(rec, g_at_end)
    if not at_one:
        return rec
    definition4_at_one(rec, pmf)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; alpha = 0 holds (both mechanisms are the identity); at alpha = 1 "
        "G_{n,1} is a mechanism (rows (1/2, 0, ..., 0, 1/2)) but Definition 1's pmf is 0 at every z, so the "
        "1-geometric mechanism's rows sum to 0 and no stochastic remap turns either into the other: refuted at "
        "alpha = 1 as printed"
    )
    rec.value(
        corrected_statement="G_{n,alpha} and the alpha-geometric mechanism derive each other for alpha in [0, 1) "
        "(the claim gs2010.def4.corrected)",
    )
    return rec


def zlcn2013_formula6(n: int, alpha_zlcn: Fraction) -> list[list[Fraction]]:
    """zlcn2013 (6), literally, in its alpha > 1: alpha/(alpha+1) alpha^-|z-mu| at z in {0, n},
    (alpha-1)/(alpha+1) alpha^-|z-mu| inside."""
    al = Fraction(alpha_zlcn)
    return [
        [(al / (al + 1) if z in (0, n) else (al - 1) / (al + 1)) * al ** -abs(z - mu) for z in range(n + 1)]
        for mu in range(n + 1)
    ]


ZLCN_ALPHAS = (Fraction(2), Fraction(3), Fraction(3, 2), Fraction(10, 9), Fraction(10))


@checks("zlcn2013.def6")
def zlcn_range_restricted_is_truncated(ctx: Context, formula=zlcn2013_formula6) -> Findings:
    """zlcn2013 Definition 6, (6): for alpha > 1 it is the truncated geometric mechanism T(n, 1/alpha), for every
    number n of rows, n = 0 included (one count, 0, in {0, n})."""
    parts: list[tuple[bool | None, str]] = []
    d = p  # |z - mu|
    boundary = (A / (A + 1) * A**-d).subs(A, 1 / a) - a**d / (1 + a)
    interior = ((A - 1) / (A + 1) * A**-d).subs(A, 1 / a) - geometric_pmf(d)
    parts.append((is_zero(boundary), "boundary z in {0,n}: A/(A+1) A^-d = a^d/(1+a) at A = 1/a"))
    parts.append((is_zero(interior), "interior: (A-1)/(A+1) A^-d = (1-a)/(1+a) a^d at A = 1/a"))

    def bounded(rec: Findings) -> None:
        for al in ZLCN_ALPHAS:  # n = 0: one result, so the only mechanism is [[1]] (a row sums to 1)
            row = formula(0, al)[0]
            rec.decide(
                row == [1],
                f"at n = 0, (6) gives Pr[Z(0) = 0] = {row[0]} (z = 0 is in {{0, n}}): a distribution on the one "
                f"output 0 must give it 1",
                n=0,
                alpha=f"zlcn alpha={al} (internal {alpha_from_zlcn2013(al)})",
                kind=BOUNDED,
                method="exact matrix identity",
                covers="(6) literally against the only mechanism on the single count 0",
            )
        for n in range(1, BOUNDED_N + 1):
            for al in ZLCN_ALPHAS:
                lit, conv = formula(n, al), truncated_geometric_zlcn2013(n, al)
                witness = ""
                if lit != conv:
                    i, j = next((i, j) for i in range(n + 1) for j in range(n + 1) if lit[i][j] != conv[i][j])
                    witness = f"(6) gives {lit[i][j]} at [{i}][{j}], T gives {conv[i][j]}"
                rec.decide(
                    lit == conv,
                    witness,
                    n=n,
                    alpha=f"zlcn alpha={al} (internal {alpha_from_zlcn2013(al)})",
                    kind=BOUNDED,
                    method="exact matrix identity",
                    covers="(6) literally against the library's T(n, 1/alpha)",
                )

    rec = decide_parts("zlcn2013.def6", parts, bounded)
    rec.value(**{"T(2, zlcn alpha=2)": linalg.fmt_matrix(truncated_geometric_zlcn2013(2, 2))})
    return rec
