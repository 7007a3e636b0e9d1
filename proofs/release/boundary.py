"""gs2010 Algorithm 1 and Lemma 4 (Theorem 1(1)) at the printed boundary: chains alpha_1 < ... < alpha_k in [0, 1]
(gs2010 Section 2.1) that start at 0 or end at 1.

Definition 4 at the ends (proofs.boundary.geometric.definition4, 0^0 = 1): G_0 = I, G_1 has every row
(1/2, 0, ..., 0, 1/2).  The stages stay well defined, because only alpha_k can be 1 and a stage inverts G_(alpha_i),
i < k: T_1 = G_(alpha_1), T_(i+1) = G_(alpha_i)^-1 G_(alpha_(i+1)).  The release is computed exactly by
proofs.release.algorithm's joint_release with these stages; 0-DP and 1-DP are read as in
proofs.boundary.geometric.in_band (0/0 = 1, x/0 = infinity).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction as F

from proofs.boundary.geometric import definition4, in_band
from proofs.release.algorithm import coalition_matrix, joint_release
from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.core import linalg

Matrix = list[list[F]]

#: Chains touching an end of [0, 1].
CHAINS = ((F(0), F(1, 2)), (F(1, 2), F(1)), (F(0), F(1, 2), F(1)), (F(0), F(1)))


def boundary_stages(n: int, chain: Sequence[F]) -> list[Matrix]:
    """Algorithm 1's stages for a chain that may start at 0 or end at 1 (alpha_i < 1 for every inverted G)."""
    gs = [definition4(n + 1, a) for a in chain]
    return [gs[0]] + [linalg.matmul(linalg.inverse(gs[i]), gs[i + 1]) for i in range(len(chain) - 1)]


def _label(chain: Sequence[F]) -> str:
    return "chain " + "<".join(map(str, chain))


def algorithm1_at_boundary(rec: Findings, stages=boundary_stages) -> None:
    """n = 1..3, each chain of :data:`CHAINS`: every stage is a mechanism and every level's marginal is G_(alpha_i)."""
    for n in (1, 2, 3):
        for chain in CHAINS:
            with rec.deciding(
                n=n,
                alpha=_label(chain),
                kind=BOUNDED,
                method="the printed boundary alpha in [0, 1]: exact stages and joint release (Definition 4 at 0 and 1)",
                covers="every level's marginal",
            ) as d:
                ts = stages(n, chain)
                neg = [(i, r) for i, t in enumerate(ts) for r in t if min(r) < 0 or sum(r) != 1]
                if neg:
                    d.counterexample(f"n = {n}, {_label(chain)}: stage T_{neg[0][0] + 1} has a row {neg[0][1]}")
                    continue
                joint = joint_release(n, chain, stages)
                for lvl, a in enumerate(chain):
                    marg = [
                        [sum((p for path, p in joint[r].items() if path[lvl] == o), F(0)) for o in range(n + 1)]
                        for r in range(n + 1)
                    ]  # every output 0..n, also those of probability 0
                    if marg != definition4(n + 1, a):
                        d.counterexample(
                            f"n = {n}, {_label(chain)}: r_{lvl + 1} ~ {linalg.fmt_matrix(marg)}, not G_(n,{a})"
                        )
                        break


def coalition_failure(n: int, chain: Sequence[F], coal: Sequence[int], mat: Matrix, lv: F) -> str | None:
    """The coalition's joint release is lv-DP (the lemma: lv = alpha_(c1)), tightly, and derivable from G_lv alone."""
    who = f"n = {n}, {_label(chain)}, coalition {[c + 1 for c in coal]}"
    pairs = [(mat[r][c], mat[r + 1][c]) for r in range(n) for c in range(len(mat[0]))]
    bad = [(u, v) for u, v in pairs if not (in_band(u, v, lv) and in_band(v, u, lv))]
    if bad:
        return f"{who}: the joint release is not {lv}-DP: adjacent entries {bad[0]}"
    tight = min((min(u / v, v / u) if u and v else F(int(u == v))) for u, v in pairs)
    if tight != lv:
        return f"{who}: the tightest ratio is {tight}, not the claimed level {lv}"
    if lv == 1:
        derivable = all(row == mat[0] for row in mat)  # T with every row the common row
    else:
        derivable = min(v for row in linalg.matmul(linalg.inverse(definition4(n + 1, lv)), mat) for v in row) >= 0
    if not derivable:
        return f"{who}: the joint release is not derivable from G_(n,{lv})"
    return None


def lemma4_at_boundary(rec: Findings, level=lambda chain, coal: chain[coal[0]], stages=boundary_stages) -> None:
    """n = 1..3, each chain of :data:`CHAINS`, every coalition: its joint release is alpha_(min C)-DP (tightly) and
    derivable from G_(alpha_(min C)) alone.  ``level``: the level claimed for a coalition (a false variant)."""
    import itertools

    for n in (1, 2, 3):
        for chain in CHAINS:
            joint = joint_release(n, chain, stages)
            for size in range(1, len(chain) + 1):
                for coal in itertools.combinations(range(len(chain)), size):
                    with rec.deciding(
                        n=n,
                        alpha=_label(chain),
                        kind=BOUNDED,
                        method="the printed boundary alpha in [0, 1]: exact joint release of the coalition",
                        covers="DP level, tightness and derivability from G_(alpha_(c1))",
                        coalition=",".join(str(c + 1) for c in coal),
                    ) as d:
                        mat = coalition_matrix(joint, list(coal), n)[1]
                        bad = coalition_failure(n, chain, coal, mat, level(chain, coal))
                        if bad:
                            d.counterexample(bad)
