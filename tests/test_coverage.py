"""Coverage of the printed class: a claim passes only where every part of it was decided."""

from __future__ import annotations

from fractions import Fraction

import pytest

from udpm.claims.coverage import alpha_span, coverage, parts_of
from udpm.claims.evidence import Status, derive
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED
from udpm.claims.statements import AlphaRange, PrintedClass

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
    from udpm.claims.evidence import cap

    r = derive(rec(("1/2", BOUNDED, "")), printed=OPEN)
    r = cap(r, {"dep": Status.PARTIAL})
    assert r.status is Status.PARTIAL and r.capped_by == "dep"


def test_a_narrower_class_keeps_the_instances_inside_it():
    from udpm.claims.coverage import restricted_to

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
    from udpm.claims.registry import Context, load_checkers, run_claim

    load_checkers()
    printed, _ = run_claim("gs2010.def1", Context())
    corrected, _ = run_claim("gs2010.def1.corrected", Context())
    assert printed.status is Status.REFUTED and corrected.status is Status.PROVED
    assert all(d.instance.alpha != "1" for d in corrected.decisions)


# --- n: an all-n argument reaches the printed n only from its own first n on ------------------------

from udpm.claims.coverage import restricted_to  # noqa: E402
from udpm.claims.statements import NRange  # noqa: E402
from udpm.errors import CatalogError, HarnessError  # noqa: E402

FROM_ZERO = PrintedClass(AlphaRange.parse("(0, 1)"), "", NRange(0))
FROM_ONE = PrintedClass(AlphaRange.parse("(0, 1)"), "", NRange(1))
AT_1_AND_3 = PrintedClass(AlphaRange.parse("(0, 1)"), "", NRange(1, 3, values=(1, 3)))


def all_n(n_from=None):
    r = Findings("t.claim")
    r.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m", n_from=n_from)
    return r


def test_an_all_n_argument_from_1_proves_a_statement_from_1_only():
    assert derive(all_n(), printed=FROM_ONE).status is Status.PROVED
    weaker = derive(all_n(), printed=FROM_ZERO)  # n = 0, the empty database, is left out
    assert (weaker.status, str(weaker.evidence)) == (Status.VERIFIED, "bounded")


def test_an_argument_that_names_its_first_n_is_read_so():
    assert derive(all_n(n_from=0), printed=FROM_ZERO).status is Status.PROVED
    assert derive(all_n(n_from=2), printed=FROM_ONE).status is Status.VERIFIED
    assert all_n(n_from=1).decisions[0].instance == all_n().decisions[0].instance  # 1 is the default, same key
    assert "n_from" not in all_n().decisions[0].instance.to_json()
    assert all_n(n_from=0).decisions[0].instance.to_json()["n_from"] == 0


def test_n_from_belongs_to_an_all_n_argument_only():
    with pytest.raises(HarnessError, match="n_from is the first n of an all-n argument"):
        Findings("t").instance(n=2, alpha="1/2", kind=BOUNDED, method="m", n_from=0)


def test_each_printed_n_of_a_finite_statement_is_a_part():
    assert [p.name for p in parts_of(AT_1_AND_3)] == ["alpha in (0, 1)", "n = 1 (a printed n)", "n = 3 (a printed n)"]
    r = Findings("t.claim")
    for n in (1, 2):  # n = 2 is not printed; n = 3 is left undecided
        r.decide(True, n=n, alpha="1/2", kind=BOUNDED, method="m")
    got = derive(r, printed=AT_1_AND_3)
    assert got.status is Status.PARTIAL and got.coverage.undecided == ["n = 3 (a printed n)"]
    r.decide(True, n=3, alpha="1/2", kind=BOUNDED, method="m")
    assert derive(r, printed=AT_1_AND_3).status is Status.VERIFIED


def test_a_restriction_keeps_the_decisions_at_its_n():
    r = Findings("t.claim")
    r.decide(False, "fails at the empty database", n=0, alpha="1/2", kind=BOUNDED, method="m")
    r.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="m")
    r.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m")
    kept = restricted_to(r.decisions, FROM_ONE)
    assert [d.instance.n for d in kept] == [1, None]
    assert [d.instance.n for d in restricted_to(r.decisions, FROM_ZERO)] == [0, 1, None]


@pytest.mark.parametrize(
    "n, message",
    [
        ({"values": [3, 1]}, "values must be increasing integers"),
        ({"values": [1, 3], "min": 1}, "give either values or min and max"),
    ],
)
def test_a_malformed_n_is_refused(n, message):
    from udpm.claims.statements import _claim as parse_claim

    entry = {"id": "grs2011.c", "where": "here", "summary": "s", "quote": "q", "n": {**n, "quote": ""}}
    with pytest.raises(CatalogError, match=message):
        parse_claim(entry, "grs2011", "t")


def test_a_part_is_as_strong_as_the_weakest_piece_of_its_argument():
    """Fact (a) for every n and facts (b), (c) at n = 2 decide the part at n = 2, not for every n."""
    r = Findings("t.claim")
    r.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m", fact="a")
    for fact in "bc":
        r.decide(True, n=2, alpha="1/2", kind=BOUNDED, method="m", fact=fact)
    got = derive(r, printed=FROM_ONE)
    assert (got.status, str(got.evidence)) == (Status.VERIFIED, "bounded")
    r.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m")  # one argument for the whole
    assert derive(r, printed=FROM_ONE).status is Status.PROVED


def test_an_argument_from_2_with_size_1_decided_for_every_alpha_proves_the_statement_from_1():
    r = all_n(n_from=2)
    r.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="exact")
    assert derive(r, printed=FROM_ONE).status is Status.VERIFIED  # size 1 at one alpha only
    r.decide(True, n=1, alpha="symbolic alpha in (0,1)", kind=BOUNDED, method="exact in symbolic alpha")
    assert derive(r, printed=FROM_ONE).status is Status.PROVED
    sampled = all_n(n_from=2)
    sampled.decide(True, n=1, alpha="symbolic alpha in (0,1)", kind=SAMPLED, method="a drawn user")
    assert derive(sampled, printed=FROM_ONE).status is Status.VERIFIED


def test_size_one_over_part_of_the_alphas_does_not_complete_an_argument_from_2():
    r = all_n(n_from=2)
    r.decide(True, n=1, alpha="symbolic alpha in (0,1/2)", kind=BOUNDED, method="exact on half the range")
    assert derive(r, printed=FROM_ONE).status is Status.VERIFIED
