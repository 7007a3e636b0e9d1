"""gs2010 Algorithm 1 and Lemma 4 on chains touching the printed ends 0 and 1 (proofs.release.boundary): they hold
for n <= 3; a wrong coalition level and stages that re-perturb the true result are refuted exactly."""

from __future__ import annotations

from fractions import Fraction as F

from proofs.boundary.geometric import definition4
from proofs.release.boundary import CHAINS, algorithm1_at_boundary, boundary_stages, lemma4_at_boundary
from udpm.claims.findings import Findings
from udpm.claims.instances import Outcome
from udpm.core.linalg import identity


def test_stages_at_the_ends():
    ts = boundary_stages(2, (F(0), F(1, 2), F(1)))
    assert ts[0] == definition4(3, F(0)) and all(row == [F(1, 2), 0, F(1, 2)] for row in ts[2])


def test_algorithm1_and_lemma4_hold_on_the_boundary_chains():
    for check in (algorithm1_at_boundary, lemma4_at_boundary):
        rec = Findings("gs2010")
        check(rec)
        assert rec.decisions and {d.outcome for d in rec.decisions} == {Outcome.HOLDS}
    assert {c[0] for c in CHAINS} >= {F(0)} and {c[-1] for c in CHAINS} >= {F(1)}


def test_false_variants_are_refuted():
    rec = Findings("gs2010.lemma4")
    lemma4_at_boundary(rec, level=lambda chain, coal: max(chain[c] for c in coal))  # the most private member's level
    assert any(d.outcome is Outcome.COUNTEREXAMPLE and "not 1-DP" in d.detail for d in rec.decisions)
    rec = Findings("gs2010.alg1")
    lazy = lambda n, chain: boundary_stages(n, chain)[:1] + [identity(n + 1)] * (len(chain) - 1)  # noqa: E731
    algorithm1_at_boundary(rec, stages=lazy)  # later levels never perturbed again
    assert all(d.outcome is Outcome.COUNTEREXAMPLE and "not G_(n," in d.detail for d in rec.decisions)
