"""zlcn2013 Theorem 4's worst ratio, exactly, per (n, theta, alpha): over every consumer, the best error derivable
from the range-restricted geometric mechanism over the optimal error, as a finite family of certified LPs over the
legal polytope's vertices (proofs/countrange/legal_polytope.py); only minimal error profiles enter.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from proofs.countrange.legal_lp import F
from proofs.countrange.legal_polytope import legal_vertices
from udpm.claims.registry import Context
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric_zlcn2013
from udpm.lp.certify import solve
from udpm.lp.programs import Constraint, LinearProgram


@functools.cache
def derivable_vertices(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """M t for t in {0,1}^(n+1): the derivable set {M t : t in [0,1]^(n+1)} is their convex hull."""
    m = truncated_geometric_zlcn2013(n, A)
    return sorted({tuple(linalg.matvec(m, list(map(F, t)))) for t in itertools.product((0, 1), repeat=n + 1)})


def error_profile(phi, t1: int, t2: int | None) -> list[Fraction]:
    return [(1 - v) if (t1 <= i and (t2 is None or i <= t2)) else v for i, v in enumerate(phi)]


def minimal_profiles(profiles) -> list[tuple[Fraction, ...]]:
    """The componentwise-minimal members of a set of error profiles (duplicates once), in a stable order."""
    keep: list[tuple[Fraction, ...]] = []
    for p in sorted(set(map(tuple, profiles)), key=lambda q: (sum(q), q)):
        if not any(all(x <= y for x, y in zip(q, p)) for q in keep):
            keep.append(p)
    return keep


def worst_ratio(n: int, A: Fraction, t1: int, t2: int | None, ctx: Context):
    """max over weights w = omega*rho >= 0 of min_derivable err_w / min_legal err_w, exactly:
    = 1 / min over legal vertices u of min {w.e(u) : w.e(g) >= 1 for every derivable vertex g, w >= 0}.

    Exact reductions (w >= 0): a vertex u whose error profile e(u) is componentwise >= another's has an LP value no
    smaller, and the row of a g whose profile is componentwise >= another's is implied by it; so only the minimal
    profiles of each side enter (with the legal vertices' minimal profiles, one LP each)."""
    rows = tuple(
        Constraint(tuple((i, e[i]) for i in range(n + 1) if e[i]), ">=", F(1), f"g{k}")
        for k, e in enumerate(minimal_profiles(error_profile(g, t1, t2) for g in derivable_vertices(n, A)))
    )
    by_profile: dict[tuple[Fraction, ...], tuple[Fraction, ...]] = {}
    for u in legal_vertices(n, A):
        by_profile.setdefault(tuple(error_profile(u, t1, t2)), u)
    best = None
    for eu in minimal_profiles(by_profile):
        u = by_profile[eu]
        lp = LinearProgram(
            tuple(f"w[{i}]" for i in range(n + 1)),
            tuple((i, eu[i]) for i in range(n + 1) if eu[i]),
            rows,
            "zlcn2013 Theorem 4 ratio",
        )
        cert = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
        if best is None or cert.objective < best[0]:
            best = (cert.objective, cert.x, u, cert)
    value, w, u, cert = best
    return (None if value == 0 else 1 / value), w, u, cert
