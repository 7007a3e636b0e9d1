"""gs2010 Algorithm 1 as printed: its stages, the joint release of r_1..r_k, and a coalition's view of it.

Shared by the checks at interior alphas (:mod:`proofs.release.multilevel`) and at the printed boundary
(:mod:`proofs.release.boundary`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import derive

Release = Callable[[int, Sequence[Fraction]], list[list[list[Fraction]]]]


def algorithm1_stages(n: int, alphas: Sequence[Fraction]) -> list[list[list[Fraction]]]:
    """Algorithm 1 as printed: T_1 = G_{alpha_1}; T_(i+1) with G_(alpha_(i+1)) = G_(alpha_i) T_(i+1).

    The printed loop runs i = 1..k, so its last pass asks for alpha_(k+1), which does not exist; only
    T_1..T_k are ever used by the release loop, so the extra pass is dropped here.
    """
    stages = [truncated_geometric(n, alphas[0])]
    for i in range(len(alphas) - 1):
        stages.append(derive(truncated_geometric(n, alphas[i + 1]), truncated_geometric(n, alphas[i])).remap)
    return stages


def joint_release(n: int, alphas: Sequence[Fraction], stages: Release = algorithm1_stages) -> dict:
    """Pr[r_1 = o_1, ..., r_k = o_k | r] for the chain r_0 = r, r_i = T_i(r_(i-1)): {r: {(o_1..o_k): p}}."""
    ts = stages(n, alphas)
    joint = {}
    for r in range(n + 1):
        dist = {(): Fraction(1)}
        last = {(): r}
        for t in ts:
            new, new_last = {}, {}
            for path, pr in dist.items():
                for o in range(n + 1):
                    q = pr * t[last[path]][o]
                    if q:
                        new[(*path, o)] = q
                        new_last[(*path, o)] = o
            dist, last = new, new_last
        joint[r] = dist
    return joint


def coalition_matrix(joint: dict, coalition: Sequence[int], n: int) -> tuple[list[tuple[int, ...]], list[list]]:
    outs = sorted({tuple(path[c] for c in coalition) for r in joint for path in joint[r]})
    index = {o: k for k, o in enumerate(outs)}
    mat = [[Fraction(0)] * len(outs) for _ in range(n + 1)]
    for r in joint:
        for path, pr in joint[r].items():
            mat[r][index[tuple(path[c] for c in coalition)]] += pr
    return outs, mat
