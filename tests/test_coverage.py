"""Coverage of the printed class: a claim passes only where every part of it was decided."""

from __future__ import annotations

from fractions import Fraction

import pytest

from udpm.coverage import alpha_span, coverage, parts_of
from udpm.evidence import Status, derive
from udpm.instances import ALL_N, BOUNDED, SAMPLED, Findings
from udpm.statements import AlphaRange, PrintedClass

CLOSED = PrintedClass(AlphaRange.parse("[0, 1]"), "", None)
OPEN = PrintedClass(AlphaRange.parse("(0, 1)"), "", None)
USERS = PrintedClass(AlphaRange.parse("(0, 1)"), "", None, parts=("full-support priors", "priors with zeros"))


def rec(*decisions):
    r = Findings("t.claim")
    for alpha, kind, region in decisions:
        r.decide(True, n=None if kind is ALL_N else 2, alpha=alpha, kind=kind, method="m", region=region)
    return r


@pytest.mark.parametrize(
    "label, points, symbolic",
    [
        ("1/2", {Fraction(1, 2)}, None),
        ("0", {Fraction(0)}, None),
        ("zlcn alpha=3 (internal 1/3)", {Fraction(1, 3)}, None),
        ("chain 0<1/2", {Fraction(0), Fraction(1, 2)}, None),
        ("symbolic alpha in [0,1)", set(), "[0, 1)"),
        ("symbolic zlcn alpha > 1 (n >= 3)", set(), "(0, 1)"),
        ("symbolic alphas a1, a2, a3", set(), None),
    ],
)
def test_alpha_labels_are_read_by_their_grammar(label, points, symbolic):
    got_points, got_range = alpha_span(label)
    assert got_points == points
    assert (got_range.text() if got_range else None) == symbolic


def test_a_closed_range_has_its_ends_as_parts():
    assert [p.name for p in parts_of(CLOSED)] == [
        "alpha in (0, 1)",
        "alpha = 0 (an end of the printed [0, 1])",
        "alpha = 1 (an end of the printed [0, 1])",
    ]
    assert [p.name for p in parts_of(OPEN)] == ["alpha in (0, 1)"]


def test_an_undecided_closed_end_leaves_the_claim_partial():
    r = derive(rec(("symbolic alpha in (0,1)", ALL_N, ""), ("0", BOUNDED, "")), printed=CLOSED)
    assert r.status is Status.PARTIAL
    assert r.coverage.undecided == ["alpha = 1 (an end of the printed [0, 1])"]
    assert "alpha = 1" in r.notes


def test_the_same_record_passes_the_open_range():
    assert derive(rec(("symbolic alpha in (0,1)", ALL_N, "")), printed=OPEN).status is Status.PROVED


def test_the_claim_is_as_strong_as_its_weakest_part():
    r = derive(rec(("symbolic alpha in (0,1)", ALL_N, ""), ("0", BOUNDED, ""), ("1", BOUNDED, "")), printed=CLOSED)
    assert r.status is Status.VERIFIED  # the ends are decided at one n only: not an all-n argument there
    r = derive(rec(("0", BOUNDED, ""), ("1", BOUNDED, ""), ("1/2", SAMPLED, "")), printed=CLOSED)
    assert r.status is Status.TESTED  # inside the range only samples


def test_a_region_the_checks_never_decided_is_named():
    r = derive(rec(("1/2", BOUNDED, "full-support priors")), printed=USERS)
    assert r.status is Status.PARTIAL
    assert r.coverage.undecided == ["alpha in (0, 1); priors with zeros"]
    r = derive(rec(("1/2", BOUNDED, "full-support priors"), ("1/2", SAMPLED, "priors with zeros")), printed=USERS)
    assert r.status is Status.TESTED


def test_an_instance_without_region_decides_the_class_whole():
    assert derive(rec(("1/2", BOUNDED, "")), printed=USERS).status is Status.VERIFIED


def test_a_counterexample_anywhere_refutes_whatever_the_coverage():
    r = Findings("t.claim")
    r.decide(False, "X", n=2, alpha="1", kind=BOUNDED, method="m")
    assert derive(r, printed=OPEN).status is Status.REFUTED


def test_a_statement_at_fixed_alphas_needs_each_of_them():
    at = PrintedClass(AlphaRange.parse("{1/4, 1/2}"), "", None)
    cov = coverage(rec(("1/4", BOUNDED, "")).decisions, at)
    assert cov.undecided == ["alpha = 1/2 (the printed value)"]


def test_a_claim_resting_on_a_partial_claim_is_partial():
    from udpm.evidence import cap

    r = derive(rec(("1/2", BOUNDED, "")), printed=OPEN)
    r = cap(r, {"dep": Status.PARTIAL})
    assert r.status is Status.PARTIAL and r.capped_by == "dep"


def test_a_narrower_class_keeps_the_instances_inside_it():
    from udpm.coverage import restricted_to

    r = Findings("t.claim")
    r.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m")
    r.decide(True, n=2, alpha="0", kind=BOUNDED, method="m")
    r.decide(False, "the pmf sums to 0", n=2, alpha="1", kind=BOUNDED, method="m")
    half_open = PrintedClass(AlphaRange.parse("[0, 1)"), "", None)
    kept = restricted_to(r.decisions, half_open)
    assert [d.instance.alpha for d in kept] == ["symbolic alpha in (0,1)", "0"]
    assert derive(r, printed=CLOSED).status is Status.REFUTED
    kept_rec = Findings("t.claim")
    kept_rec.decisions = kept
    assert derive(kept_rec, printed=half_open).status is Status.VERIFIED


def test_a_corrected_claim_is_decided_by_the_printed_check_restricted():
    from udpm.claims import Context, load_checkers, run_claim

    load_checkers()
    printed, _ = run_claim("gs2010.def1", Context())
    corrected, _ = run_claim("gs2010.def1.corrected", Context())
    assert printed.status is Status.REFUTED and corrected.status is Status.PROVED
    assert all(d.instance.alpha != "1" for d in corrected.decisions)
