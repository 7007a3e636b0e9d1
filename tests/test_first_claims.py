"""The foundation's first claims: each holds as stated, and each false variant is refuted with a counterexample."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from experiments import grs2011 as ex_grs2011
from experiments import gs2010 as ex_gs2010
from proofs.geometric import case_split as cs
from proofs.geometric import range_restricted, truncated, two_sided
from udpm.claims.registry import Context, Status, restrict
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import compose, deterministic_remap

CTX = Context()


@pytest.mark.parametrize(
    "check, status",
    [
        (two_sided.geometric_is_private, Status.PROVED),
        # refuted at alpha = 1, a closed end of the printed [0, 1]; their corrected claims are checked below
        (two_sided.geometric_is_distribution_and_private, Status.REFUTED),
        (truncated.truncated_geometric_example, Status.REFUTED),
        (range_restricted.range_restricted_equivalent_to_geometric, Status.REFUTED),
        (range_restricted.zlcn_range_restricted_is_truncated, Status.REFUTED),  # at n = 0 (the corrected claim: below)
        (ex_grs2011.figure_1a, Status.REPRODUCED),
        (ex_grs2011.figure_1b, Status.REPRODUCED),
        (ex_grs2011.figure_4, Status.REPRODUCED),
        (ex_gs2010.appendix_b, Status.VERIFIED),
    ],
)
def test_claim_holds(check, status):
    assert check(CTX).status is status


@pytest.mark.parametrize(
    "claim, status",
    [
        ("gs2010.def1.corrected", Status.PROVED),
        ("grs2011.ex2.2.corrected", Status.VERIFIED),  # alpha = 0 decided for n <= 3
        ("gs2010.def4.corrected", Status.VERIFIED),
    ],
)
def test_the_statements_over_zero_to_one_half_open_hold(claim, status):
    from udpm.claims.registry import load_checkers, run_claim

    load_checkers()
    assert run_claim(claim, CTX)[0].status is status


def test_wrong_exponent_in_geometric_pmf_is_refuted():
    res = two_sided.geometric_is_private(CTX, pmf=lambda d: (1 - cs.a) / (1 + cs.a) * cs.a ** (2 * sp.Abs(d)))
    assert res.status is Status.REFUTED and "alpha=" in res.counterexample


def test_unnormalised_geometric_pmf_is_refuted():
    res = two_sided.geometric_is_distribution_and_private(CTX, pmf=lambda d: (1 - cs.a) * cs.a ** sp.Abs(d))
    assert res.status is Status.REFUTED and "sum over Z" in res.counterexample


def test_wrong_stated_boundary_probability_is_refuted():
    def stated(i, j, n):
        return cs.a ** (i + 1) / (1 + cs.a) if j == "first" else truncated.stated_truncated(i, j, n)

    res = truncated.truncated_geometric_example(CTX, stated=stated)
    assert res.status is Status.REFUTED and "Pr[Delta <= -i]" in res.counterexample


def buggy_truncated(n, a):
    t = truncated_geometric(n, a)
    if n >= 3:
        t[2][1], t[2][2] = t[2][2], t[2][1]
    return t


def test_injected_bug_in_truncated_geometric_is_caught_by_the_proof():
    res = truncated.truncated_geometric_example(CTX, mechanism=buggy_truncated)
    assert res.status is Status.REFUTED and "n=3" in res.counterexample and "T[2][1]" in res.counterexample


def test_injected_bug_in_truncated_geometric_breaks_figure_1b():
    res = ex_grs2011.figure_1b(CTX, mechanism=buggy_truncated)
    assert res.status is Status.ERRATUM
    assert [e.entry for e in res.errata] == ["Figure 1(b)[2][1]", "Figure 1(b)[2][2]"]
    assert all(e.cls == "unclassified" for e in res.errata)


def test_wrong_spreading_remap_is_refuted():
    res = range_restricted.range_restricted_equivalent_to_geometric(CTX, weight=lambda r: (1 - cs.a**2) * cs.a**r)
    assert res.status is Status.REFUTED


def test_wrong_zlcn_formula_is_refuted():
    def formula(n, al):
        m = range_restricted.zlcn2013_formula6(n, al)
        m[0][0] += Fraction(1, 1000)
        return m

    res = restrict("zlcn2013.def6.corrected", range_restricted.zlcn_range_restricted_is_truncated(CTX, formula=formula))
    assert res.status is Status.REFUTED and "[0][0]" in res.counterexample


def test_definition_6_holds_from_one_row_on_and_fails_at_zero_rows():
    printed = range_restricted.zlcn_range_restricted_is_truncated(CTX)
    assert printed.status is Status.REFUTED and "at n = 0, (6) gives Pr[Z(0) = 0] = 2/3" in printed.counterexample
    assert restrict("zlcn2013.def6.corrected", printed).status is Status.PROVED


def test_derivable_matrix_in_place_of_appendix_b_is_refuted():
    res = ex_gs2010.appendix_b(CTX, m=truncated_geometric(3, Fraction(1, 2)))
    assert res.status is Status.REFUTED and "derivable" in res.counterexample


def test_signature_of_another_mechanism_breaks_figure_4():
    def merged(n, a):  # a DP remap of T: output 1 is sent to 2, so column 1 becomes a zero column
        return compose(truncated_geometric(n, a), deterministic_remap([0, 2, 2, 3, 4, 5], 6))

    res = ex_grs2011.figure_4(CTX, mechanism=merged)
    assert res.status is Status.ERRATUM and res.errata[0].entry.startswith("Figure 4[0][1]")
