"""Guard rails of udpm.claims.coverage: each test gives the coverage a decision that is wrong for a part (outside its
alpha, at another region, at another n, an all-n argument starting too late, a label it cannot read) and sees the
part left undecided, the claim partial, or the decision dropped from a narrower class."""

from __future__ import annotations

import pytest

from udpm.claims.coverage import Coverage, coverage, parts_of, restricted_to, within
from udpm.claims.evidence import Status, derive
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, Kind
from udpm.claims.statements import AlphaRange, NRange, PrintedClass

OPEN = AlphaRange.parse("(0, 1)")
NO_ALPHA = PrintedClass(None, "", None)
NO_ALPHA_REGIONS = PrintedClass(None, "", None, parts=("A", "B"))
AT_1_AND_3 = PrintedClass(OPEN, "", NRange(1, 3, values=(1, 3)))
AT_3_REGIONS = PrintedClass(OPEN, "", NRange(3, 3), parts=("A", "B"))


def _rec(*decisions: dict) -> Findings:
    r = Findings("t.claim")
    for d in decisions:
        holds = d.pop("holds", True)
        r.decide(holds, "witness" if holds is False else "", **{"kind": BOUNDED, "method": "m", **d})
    return r


def _cov(printed: PrintedClass, *decisions: dict) -> Coverage:
    return coverage(_rec(*decisions).decisions, printed)


# ---------------------------------------------------------------- a class without a printed alpha range


def test_a_class_without_alpha_is_one_part_the_class_whole():
    assert [(p.name, p.point, p.region) for p in parts_of(NO_ALPHA)] == [("the class whole", None, "")]
    assert [p.name for p in parts_of(NO_ALPHA_REGIONS)] == ["A", "B"]


def test_any_decision_reaches_a_class_without_alpha_and_none_leaves_it_undecided():
    assert _cov(NO_ALPHA, {"n": 2, "alpha": "1/2"}).parts == (("the class whole", Kind.BOUNDED),)
    assert _cov(NO_ALPHA, {"n": 2, "alpha": "an unreadable label"}).undecided == []
    assert coverage([], NO_ALPHA).undecided == ["the class whole"]
    got = derive(_rec({"n": 2, "alpha": "1/2", "region": "A"}), printed=NO_ALPHA_REGIONS)
    assert got.status is Status.PARTIAL and got.coverage.undecided == ["B"]


# ---------------------------------------------------------------- printed n


def test_an_all_n_argument_reaches_each_printed_n_from_its_first_n_on():
    argument = {"n": None, "alpha": "symbolic alpha in (0,1)", "kind": ALL_N}
    assert _cov(AT_1_AND_3, argument).undecided == []
    from_3 = _cov(AT_1_AND_3, {**argument, "n_from": 3})
    assert from_3.undecided == ["n = 1 (a printed n)"]
    from_4 = _cov(AT_1_AND_3, {**argument, "n_from": 4})
    assert "n = 3 (a printed n)" in from_4.undecided


def test_a_printed_n_is_reached_only_inside_the_printed_alpha_range():
    assert _cov(AT_1_AND_3, {"n": 1, "alpha": "1"}, {"n": 3, "alpha": "1/2"}).undecided == ["n = 1 (a printed n)"]


def test_a_printed_n_part_keeps_its_region():
    names = [p.name for p in parts_of(AT_3_REGIONS)]
    assert names == ["alpha in (0, 1); A", "n = 3 (a printed n); A", "alpha in (0, 1); B", "n = 3 (a printed n); B"]
    assert [p.region for p in parts_of(AT_3_REGIONS)] == ["A", "A", "B", "B"]
    cov = _cov(AT_3_REGIONS, {"n": 3, "alpha": "1/2", "region": "A"})
    assert cov.undecided == ["alpha in (0, 1); B", "n = 3 (a printed n); B"]


# ---------------------------------------------------------------- alpha ranges meeting a part


@pytest.mark.parametrize(
    "label, reached",
    [
        ("symbolic alpha in [1,1]", False),  # touches the open range at its excluded end only
        ("symbolic alpha in [0,0]", False),
        ("symbolic alpha in [0,1/2]", True),
        ("symbolic alpha in (1/2,1)", True),
    ],
)
def test_a_symbolic_range_reaches_the_inside_only_when_it_overlaps_it(label, reached):
    printed = PrintedClass(OPEN, "", None)
    assert (_cov(printed, {"n": None, "alpha": label, "kind": ALL_N}).undecided == []) is reached


@pytest.mark.parametrize(
    "label, inside",
    [
        ("symbolic alpha in [1,1]", False),
        ("symbolic alpha in [0,0]", False),
        ("symbolic alpha in [0,1/2]", True),
        ("1/2", True),
        ("1", False),
        ("chain 0<1/2", False),
        ("an unreadable label", False),
    ],
)
def test_within_an_open_range(label, inside):
    assert within(label, OPEN) is inside


# ---------------------------------------------------------------- restriction to a narrower class


def _ids(decisions) -> list[tuple]:
    return [(d.instance.alpha, d.instance.n, d.instance.region, str(d.outcome)) for d in decisions]


def test_a_restriction_drops_the_other_regions_and_keeps_the_whole_class_instances():
    r = _rec(
        {"n": 2, "alpha": "1/2", "region": "A"},
        {"n": 2, "alpha": "1/2", "region": "C"},
        {"n": 2, "alpha": "1/3"},
        {"n": 3, "alpha": "1/2", "region": "B"},
    )
    narrow = PrintedClass(OPEN, "", None, parts=("A", "B"))
    assert _ids(restricted_to(r.decisions, narrow)) == [
        ("1/2", 2, "A", "holds"),
        ("1/3", 2, "", "holds"),
        ("1/2", 3, "B", "holds"),
    ]
    # a class without declared parts keeps every region
    assert len(restricted_to(r.decisions, PrintedClass(OPEN, "", None))) == 4


def test_a_restriction_keeps_counterexamples_inside_it_and_those_it_cannot_place():
    r = _rec(
        {"n": 2, "alpha": "1", "holds": False},  # outside (0, 1): dropped
        {"n": 2, "alpha": "1/2", "holds": False},  # inside: kept
        {"n": 3, "alpha": "chain 1/2<1", "holds": False},  # one alpha outside: dropped
        {"n": None, "alpha": "symbolic alpha in [0,1]", "kind": ALL_N, "holds": False},  # names no alpha: kept
        {"n": 4, "alpha": "an unreadable label", "holds": False},  # cannot be placed: kept
    )
    kept = restricted_to(r.decisions, PrintedClass(OPEN, "", None))
    assert [d.instance.alpha for d in kept] == ["1/2", "symbolic alpha in [0,1]", "an unreadable label"]


def test_a_restriction_keeps_holding_instances_inside_it_only():
    r = _rec(
        {"n": 2, "alpha": "1"},
        {"n": 2, "alpha": "1/2"},
        {"n": None, "alpha": "symbolic alpha in [1,1]", "kind": ALL_N},
        {"n": None, "alpha": "symbolic alpha in [0,1]", "kind": ALL_N},
        {"n": 3, "alpha": "an unreadable label"},
    )
    kept = restricted_to(r.decisions, PrintedClass(OPEN, "", None))
    assert [d.instance.alpha for d in kept] == ["1/2", "symbolic alpha in [0,1]"]


def test_a_class_without_alpha_keeps_every_alpha():
    r = _rec({"n": 2, "alpha": "1"}, {"n": 2, "alpha": "7/3", "holds": False}, {"n": 2, "alpha": "unreadable"})
    assert len(restricted_to(r.decisions, NO_ALPHA)) == 3


# ---------------------------------------------------------------- the JSON of a coverage


def test_coverage_json_names_every_part_and_the_undecided_ones():
    cov = _cov(AT_1_AND_3, {"n": 1, "alpha": "1/2"})
    assert cov.to_json() == {
        "parts": [
            {"part": "alpha in (0, 1)", "decided": "bounded"},
            {"part": "n = 1 (a printed n)", "decided": "bounded"},
            {"part": "n = 3 (a printed n)", "decided": None},
        ],
        "undecided": ["n = 3 (a printed n)"],
    }
