"""The first n of each all-n argument, read off its own code, and the small n its printed class has below it.

An all-n instance names the first n it covers (``n_from``, default 1); udpm.claims.coverage counts it as all-n only from
the smallest printed n.  The arguments below start later than n = 1 (a recurrence from d_2, rows i..i+2, displayed
positions that must be distinct); the n they leave out of their printed class are decided apart, or refute it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
import sympy as sp

from proofs.assertions.grs2009 import lemma5_proofs as g09
from proofs.assertions.grs2011 import lemma5_proofs as g11
from proofs.assertions.gs2010.derivation_proofs import lemma3_case2
from proofs.assertions.gs2010.section3 import neither_implies_the_other
from proofs.assertions.gs2010.theorem1_proof import theorem1_algebra
from proofs.assertions.zlcn2013.common import A
from proofs.assertions.zlcn2013.section3_2 import derived_is_private
from proofs.assertions.zlcn2013.section4 import m_invertible, step_function_legal
from proofs.countrange import thresholds as th
from proofs.countrange.recurrences import EQ2
from proofs.derivation import column_replacement as cr
from proofs.derivation import lemma1 as d
from proofs.derivation.table2 import table2
from proofs.geometric.range_restricted import zlcn2013_formula6
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, Outcome
from udpm.claims.registry import Context, Status, restrict

CTX = Context(quick=True)


def _first_ns(rec: Findings) -> set[int | None]:
    return {x.instance.first_n for x in rec.decided(ALL_N)}


@pytest.mark.parametrize(
    ("check", "first"),
    [
        (cr.column_replacement_determinants, {2}),  # gs2010 Lemma 2: Tri's first and last rows, d_2
        (d.det_g_prime, {2}),  # gs2010 Lemma 1: rsolve from d_2, two boundary columns
        (table2, {1, 4}),  # the case split from size 1; the displayed cells 0, 1, 2, n-1 from n = 4
        (neither_implies_the_other, {2}),  # three consecutive entries of a column
        (lemma3_case2, {2}),  # an interior row of G
        (theorem1_algebra, {2}),  # rows i, i+1, i+2
        (g11.lemma_5_6_chain, {2}),  # rows i, i+1 with i < n - 1
        (g09.lemma_5_6_proof, {2}),  # rows i, i+1 of C, i <= n - 2
    ],
    ids=lambda v: getattr(v, "__name__", str(v)),
)
def test_an_argument_names_the_first_n_its_code_covers(check: Callable[[Context], Findings], first: set[int]):
    assert _first_ns(check(CTX)) == first


def test_lemma1_size_one_is_decided_apart_and_a_wrong_statement_fails_there():
    rec = Findings("gs2010.lemma1")
    d.size_one(rec, d.lemma1_exponent, d.definition4, True, (d.SYMBOLIC, Fraction(0), Fraction(1)))
    assert [(x.instance.n, x.instance.kind, x.outcome) for x in rec.decisions] == [(1, BOUNDED, Outcome.HOLDS)] * 3
    wrong_exponent = Findings("gs2010.lemma1")
    d.size_one(wrong_exponent, lambda m: m, d.definition4, True, (d.SYMBOLIC,))
    assert "det G'_1 = 1, claimed (1-a^2)^1" in wrong_exponent.counterexample
    negative = Findings("gs2010.lemma1")
    d.size_one(negative, d.lemma1_exponent, lambda dist, boundary: -d.definition4(dist, boundary), True, (Fraction(1),))
    assert "size m=1, alpha=1: det G_1 = -1/2" in negative.counterexample


def test_lemma1_corrected_is_proved_by_an_argument_from_size_two_and_size_one_for_every_alpha():
    rec = d.det_g_positive_below_one(CTX)
    assert rec.status is Status.PROVED
    size_one = [x for x in rec.decided(BOUNDED) if x.instance.n == 1]
    assert {x.instance.alpha for x in size_one} >= {"symbolic alpha in (0,1)", "0"}
    rec.decisions = [x for x in rec.decisions if x.instance.n != 1]  # without size 1, the argument from 2 is not all n
    assert rec.status is Status.VERIFIED


def test_thm7_at_n_0_is_refuted_by_6_as_printed_and_holds_for_the_one_mechanism():
    printed = Findings("zlcn2013.thm7")
    th.at_one_count(printed, (EQ2,), (Fraction(2),))
    (x,) = printed.decisions
    assert x.instance.n == 0 and x.outcome is Outcome.COUNTEREXAMPLE
    assert "M = [2/3]" in x.detail and "t = M^-1 z = 3/2 > 1" in x.detail
    assert zlcn2013_formula6(0, Fraction(2)) == [[Fraction(2, 3)]]

    def one_mechanism(n: int, a: Fraction) -> list[list[Fraction]]:
        return [[Fraction(1)]] if n == 0 else zlcn2013_formula6(n, a)

    fixed = Findings("zlcn2013.thm7")
    th.at_one_count(fixed, (EQ2,), (Fraction(2), Fraction(10)), formula=one_mechanism)
    assert [y.outcome for y in fixed.decisions] == [Outcome.HOLDS] * 2
    empty = Findings("zlcn2013.thm7")
    th.at_one_count(empty, (EQ2,), (Fraction(2),), formula=lambda n, a: [[Fraction(0)]])
    assert empty.decisions[0].outcome is Outcome.INCONCLUSIVE


def test_thm7_corrected_keeps_n_from_1_and_passes():
    """Over n >= 1 the all-n argument covers the class (the catalog caps the claim by zlcn2013.eq2, verified)."""
    rec = restrict("zlcn2013.thm7.corrected", th.threshold_universality(CTX))
    assert rec.status is Status.PROVED
    assert all(x.instance.n != 0 for x in rec.decisions) and rec.decided(ALL_N)


def test_m_invertible_and_the_step_function_decide_n_0():
    inv = m_invertible(CTX, n_max=1)
    zero = [x for x in inv.decisions if x.instance.n == 0]
    assert [x.outcome for x in zero] == [Outcome.HOLDS]
    assert sp.simplify(sp.sympify(inv.values["det M, n=0"], locals={"A": A}) - A / (A + 1)) == 0
    broken = m_invertible(CTX, boundary=sp.Integer(0), n_max=0)  # the one column is a boundary column
    assert broken.status is Status.REFUTED and "n = 0: det M = 0" in broken.counterexample
    legal = step_function_legal(CTX)
    assert [x.outcome for x in legal.decisions if x.instance.n == 0] == [Outcome.HOLDS]


def test_thm4_at_n_0_is_refuted_by_6_as_printed_and_holds_for_the_one_mechanism():
    from proofs.countrange import approximation_ratio as ar

    printed = Findings("zlcn2013.thm4")
    ar.at_one_count(printed, (Fraction(2),), 2)
    (x,) = printed.decisions
    assert x.instance.n == 0 and x.outcome is Outcome.COUNTEREXAMPLE and "error 1 - 2/3 = 1/3" in x.detail
    fixed = Findings("zlcn2013.thm4")
    ar.at_one_count(fixed, (Fraction(2), Fraction(100)), 2, formula=lambda n, a: [[Fraction(1)]])
    assert [y.outcome for y in fixed.decisions] == [Outcome.HOLDS] * 2
    rec = restrict("zlcn2013.thm4.corrected", ar.two_approximation(CTX))
    assert rec.status is Status.VERIFIED and all(y.instance.n != 0 for y in rec.decisions)


def test_linearity_decides_n_0():
    rec = derived_is_private(CTX, m_max=2)
    assert [x.outcome for x in rec.decisions if x.instance.n == 0] == [Outcome.HOLDS] * 4  # 2 alphas x m = 1, 2
