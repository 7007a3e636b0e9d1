"""zlcn2013 legal-function LP claims: real statuses, the grids that ran, and refuted false variants."""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3

from proofs.countrange import approximation_ratio as ar
from proofs.countrange import definition2 as d2
from proofs.countrange import legal_polytope as lpoly
from proofs.countrange import oblivious_step as ob
from proofs.countrange import worst_ratio as wr
from proofs.countrange import xhat_yhat as xy
from proofs.countrange.alpha import SYMBOLIC, zlcn_label
from proofs.countrange.legal_lp import ALPHAS_Z, theta_pairs
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, Outcome
from udpm.claims.registry import Context, Status
from udpm.core.users import CountRangeConsumer
from udpm.errors import InvalidInput, VacuousPremise
from udpm.lp.countrange import legal_function_lp, psi1, psi2

CTX = Context()
ZL = [zlcn_label(a) for a in ALPHAS_Z]


def grid(rec, kind):
    out: dict[str, set] = {}
    for d in rec.decided(kind):
        out.setdefault(d.instance.alpha, set()).add(d.instance.n)
    return {k: sorted(v) for k, v in out.items()}


def test_def2_region_bounded_and_dropped_constraints():
    rec = d2.legal_region(CTX)
    assert rec.status is Status.VERIFIED, rec.counterexample
    assert grid(rec, BOUNDED) == {a: [1, 2] for a in ZL}
    assert set(grid(rec, SAMPLED)) == set(ZL)
    assert rec.values["premise witness n=2"] == "phi0=1/2, phi1=1/2, phi2=1/2"
    for drop in ("1-phi", "phi"):
        bad = d2.legal_region(CTX, drop=drop)
        assert bad.status is Status.REFUTED and "legal by Definition 2" in bad.counterexample
        assert bad.evidence.value == "bounded" and "phi=(" in bad.counterexample


@pytest.mark.parametrize("fn", [xy.x_hat_unique, xy.y_hat_unique])
def test_xhat_yhat_proved_at_n3_for_every_alpha(fn):
    """Stated at n = 3 only: the symbolic-alpha unsat covers the whole claim (all-n kind); rationals cross-check."""
    rec = fn(CTX)
    assert rec.status is Status.PROVED, rec.counterexample
    assert grid(rec, BOUNDED) == {a: [3] for a in ZL}
    assert grid(rec, ALL_N) == {SYMBOLIC: [3]}
    assert rec.values["premise witness (alpha > 1)"] == "alpha=2"


def test_xhat_yhat_swapped_are_refuted():
    assert xy.x_hat_unique(CTX, vector=xy.y_hat).status is Status.REFUTED
    bad = xy.y_hat_unique(CTX, rho_of=xy.uniform_rho)
    assert bad.status is Status.REFUTED and "has err <= err(v)" in bad.counterexample  # the all-alpha instance
    rational = [d.detail for d in bad.decisions if d.outcome is Outcome.COUNTEREXAMPLE and d.instance.kind == BOUNDED]
    assert rational and all("not optimal" in t for t in rational)


def test_xhat_symbolic_vacuity_guard(monkeypatch):
    # a legality predicate that no phi satisfies makes the premise "phi legal" contradictory
    monkeypatch.setattr(xy, "z3_legal", lambda p, A: [p[0] >= 1, p[0] <= 0])
    with pytest.raises(VacuousPremise):
        xy.x_hat_unique(CTX)


def test_def2_vacuity_guard(monkeypatch):
    real = d2.premises_hold
    monkeypatch.setattr(d2, "premises_hold", lambda prem, pins, t, what: real([z3.BoolVal(False)], pins, t, what))
    with pytest.raises(VacuousPremise):
        d2.legal_region(CTX)


def test_thm4_bounded_grid_worst_ratio_below_two():
    rec = ar.two_approximation(CTX)
    # (6) as printed is no mechanism at n = 0 (zlcn2013.def6): refuted there only; over n >= 1 the ratio stays below 2
    assert rec.status is Status.REFUTED and "n = 0, zlcn alpha = 101/100: (6) gives M" in rec.counterexample
    assert {d.instance.n for d in rec.decided(outcome=Outcome.COUNTEREXAMPLE)} == {0}
    assert Fraction(rec.values["worst_ratio"]) < 2
    assert grid(rec, BOUNDED) == {zlcn_label(a): [0, 1, 2, 3] for a in (Fraction(101, 100), Fraction(2), Fraction(100))}
    bad = ar.two_approximation(CTX, factor=1)
    assert bad.status is Status.REFUTED and "> 1" in bad.counterexample


def test_oblivious_refuted_at_n1_corrected_form_as_values():
    rec = ob.oblivious_step(CTX)
    assert rec.status is Status.REFUTED and "step function" in rec.counterexample
    (d,) = rec.decisions  # the printed statement's one decided instance: the n = 1 counterexample
    assert d.instance.n == 1 and d.instance.kind is BOUNDED and d.outcome is Outcome.COUNTEREXAMPLE
    assert rec.values["corrected_holds_on_grid"] == "yes" and int(rec.values["corrected_step_functions"]) > 0
    # false variant of the corrected statement: phi = Phi itself never strictly dominates
    bad = ob.oblivious_step(CTX, recurrence=lambda b2, theta, n, A: [b2] * (n + 1))
    assert bad.values["corrected_holds_on_grid"].startswith("no: (2,")


def test_recurrences_and_lp_basics():
    assert psi2(Fraction(2, 3), 3, 2) == [1 - v for v in psi1(Fraction(1, 3), 3, 2)]
    c = CountRangeConsumer.of([1] * 4, [Fraction(1, 4)] * 4, 1, 2)
    assert legal_function_lp(c, 2).error(xy.x_hat(Fraction(2))) == Fraction(1, 3)
    with pytest.raises(InvalidInput):
        legal_function_lp(c, Fraction(1, 2))  # zlcn2013's alpha must exceed 1
    with pytest.raises(InvalidInput):
        psi1(Fraction(3, 2), 3, 2)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_legal_vertices_chain_enumeration_equals_every_subset_of_rows(n):
    """The run-by-run enumeration gives exactly the vertices of the brute force over every n+1 rows."""
    alphas = (*ALPHAS_Z, Fraction(100)) if n < 4 else (Fraction(3, 2),)
    for A in alphas:
        assert lpoly.legal_vertices(n, A) == lpoly.legal_vertices_by_subsets(n, A)
    assert [len(lpoly.legal_vertices(k, Fraction(2))) for k in range(1, 7)] == [4, 8, 20, 48, 122, 296]


def test_legal_vertices_missing_seed_is_caught(monkeypatch):
    """A run enumeration without the (1/(1+a), a/(1+a)) seeds misses vertices the brute force finds."""
    real = lpoly._runs

    def no_pair_seeds(k, a):
        return {r for r in real(k, a) if 0 in r or 1 in r}

    lpoly.legal_vertices.cache_clear()
    monkeypatch.setattr(lpoly, "_runs", no_pair_seeds)
    try:
        assert set(lpoly.legal_vertices(2, Fraction(2))) < set(lpoly.legal_vertices_by_subsets(2, Fraction(2)))
    finally:
        lpoly.legal_vertices.cache_clear()


def test_thm4_minimal_profiles_change_no_ratio(monkeypatch):
    """Dropping dominated legal vertices and implied derivable rows leaves every worst ratio as it was."""
    assert wr.minimal_profiles([(1, 2), (2, 2), (2, 1), (1, 2)]) == [(1, 2), (2, 1)]
    thetas = [(n, t) for n in (2, 3) for t in theta_pairs(n) if t[0] > 0 or t[1] not in (None, n)]
    pruned = {(n, t): wr.worst_ratio(n, Fraction(3, 2), *t, CTX)[0] for n, t in thetas}
    monkeypatch.setattr(wr, "minimal_profiles", lambda ps: sorted({tuple(p) for p in ps}))
    for (n, t), r in pruned.items():
        assert wr.worst_ratio(n, Fraction(3, 2), *t, CTX)[0] == r
