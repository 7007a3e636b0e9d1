"""Guard rails of udpm.claims.tables (mutation-run kills): printed files refused with one line, the exact and
decimal matching rules at their boundaries, shapes, errata per entry, and the rounding classification."""

import json
from fractions import Fraction as F

import pytest
import sympy

from udpm.claims import tables
from udpm.claims.findings import Findings
from udpm.claims.instances import TABLE, UNCLASSIFIED, Erratum
from udpm.claims.tables import (
    UNDECLARED,
    Mismatch,
    PrintedItem,
    approximates,
    compare_printed,
    decimal_matches_real,
    diff,
    mismatch_errata,
    parse_exact,
    printed,
    printed_matches,
)
from udpm.errors import ExpectationsError


@pytest.fixture
def paper_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "PRINTED", tmp_path / "printed")
    (tmp_path / "printed").mkdir()
    tables._load.cache_clear()
    yield tmp_path / "printed"
    tables._load.cache_clear()


def test_a_missing_printed_file_is_named(paper_dir):
    with pytest.raises(ExpectationsError) as e:
        printed("nopaper", "x")
    assert str(e.value) == "printed/nopaper.json is missing"


def test_invalid_json_is_named_with_its_line(paper_dir):
    (paper_dir / "p.json").write_text('{"items":\n\n }', encoding="utf-8")
    with pytest.raises(ExpectationsError) as e:
        printed("p", "x")
    assert str(e.value) == "printed/p.json is not valid JSON: line 3: Expecting value"


def test_a_float_in_a_printed_file_is_refused(paper_dir):
    (paper_dir / "p.json").write_text('{"items": {"x": {"where": "T", "values": [0.35]}}}')
    with pytest.raises(ExpectationsError) as e:
        printed("p", "x")
    assert str(e.value) == "printed/p.json: the number 0.35 is a float; printed values are strings, kept verbatim"


@pytest.mark.parametrize("doc", [[], {"items": []}, {"paper": "p"}])
def test_the_file_must_have_an_items_object(paper_dir, doc):
    (paper_dir / "p.json").write_text(json.dumps(doc))
    with pytest.raises(ExpectationsError) as e:
        printed("p", "x")
    assert str(e.value) == "printed/p.json must be an object with an 'items' object"


@pytest.mark.parametrize("item", [None, [], {"where": "T"}, {"values": ["1"]}])
def test_an_item_needs_where_and_values(paper_dir, item):
    items = {"ok": {"where": "T", "values": ["1"]}}
    if item is not None:
        items["x"] = item
    (paper_dir / "p.json").write_text(json.dumps({"items": items}), encoding="utf-8")
    with pytest.raises(ExpectationsError) as e:
        printed("p", "x")
    assert str(e.value) == "paper_tables/printed/p.json has no item 'x' with 'where' and 'values'"


def test_printed_reads_every_field_verbatim(paper_dir):
    items = {
        "full": {
            "where": "Table 1",
            "values": [["1/2", "≈ .35"]],
            "note": "n",
            "errata": {"[0][1]": {"class": "typo"}},
        },
        "bare": {"where": "Fig 2", "values": "3"},
    }
    (paper_dir / "p.json").write_text(json.dumps({"items": items}, ensure_ascii=False), encoding="utf-8")
    assert printed("p", "full") == PrintedItem(
        "p", "full", "Table 1", [["1/2", "≈ .35"]], "n", {"[0][1]": {"class": "typo"}}
    )
    assert printed("p", "bare") == PrintedItem("p", "bare", "Fig 2", "3", "", {})


def test_parse_exact_integers_and_quotients_only():
    assert parse_exact(" -3 ") == F(-3)
    assert parse_exact("1/6") == F(1, 6)
    assert parse_exact("-0.75/9") == F(-1, 12)
    assert parse_exact(".5/2") == F(1, 4)
    assert parse_exact("3 / 1.5") == F(2)
    assert parse_exact("1/.5") == F(2)
    assert parse_exact("0.5") is None
    assert parse_exact("1/6x") is None
    assert parse_exact("x1/6") is None
    assert parse_exact("1/-6") is None
    assert parse_exact("S") is None


def test_printed_matches_exact_rationals_only_identically():
    assert printed_matches("1/6", F(1, 6)) and printed_matches("2", 2)
    assert not printed_matches("1/6", F(1, 7)) and not printed_matches("3", 2)
    assert not printed_matches("1/6", F(1, 6) + F(1, 10**9))


def test_the_decimal_rule_is_closed_at_half_a_unit():
    assert printed_matches("0.35", F(355, 1000)) and printed_matches("0.35", F(345, 1000))
    assert not printed_matches("0.35", F(3551, 10000)) and not printed_matches("0.35", F(3449, 10000))
    assert printed_matches("-.25", F(-1, 4)) and not printed_matches("-.25", F(1, 4))
    assert printed_matches("~ -1.5", F(-3, 2)) and printed_matches("about 2.0", 2)
    assert printed_matches("≈.35", F(35, 100)) and printed_matches(" 3.0 ", 3)
    assert not printed_matches("1.2.3", F(1)) and not printed_matches("", F(0)) and not printed_matches("S", F(0))
    assert printed_matches("0.125", F(1, 8)) and not printed_matches("0.125", F(1, 8) + F(6, 10**4))


def test_symbols_match_by_string():
    assert printed_matches(" ↑ ", "↑")
    assert printed_matches("S", "S ")
    assert not printed_matches("S", "T")
    assert not printed_matches("1/2", "1/2 x")


def test_diff_flattens_and_names_each_entry():
    item = PrintedItem("p", "k", "Table 1", [["1/2", "1/3"], ["0.25", "S"]], "", {})
    assert diff(item, [[F(1, 2), F(1, 3)], [F(1, 4), "S"]]) == []
    assert diff(item, [[F(1, 2), F(1, 4)], [F(1, 4), "T"]]) == [
        Mismatch("[0][1]", "1/3", "1/4"),
        Mismatch("[1][1]", "S", "T"),
    ]
    scalar = PrintedItem("p", "s", "Eq. 3", "1/3", "", {})
    assert diff(scalar, F(1, 3)) == [] and diff(scalar, F(1, 2)) == [Mismatch("value", "1/3", "1/2")]
    assert diff(PrintedItem("p", "t", "T", ("1", ("2",)), "", {}), [F(1), [F(2)]]) == []


def test_a_shape_mismatch_is_refused():
    item = PrintedItem("p", "k", "T", [["1", "2"], ["3", "4"]], "", {})
    with pytest.raises(ExpectationsError) as e:
        diff(item, [[1, 2], [3]])
    assert str(e.value) == "p k: printed shape ['[0][0]', '[0][1]', '[1][0]']... does not match computed shape"
    with pytest.raises(ExpectationsError):
        diff(item, [[2, 1], [3, 4], [5, 6]])


def test_mismatch_errata_take_the_declared_class_of_the_declared_text():
    decl = {
        "[0][1]": {"class": "typo", "explanation": "swapped", "printed": "1/3"},
        "[1][1]": {"class": "typo", "explanation": "old", "printed": "5"},
    }
    item = PrintedItem("p", "k", "Table 1", [], "", decl)
    ms = [Mismatch("[0][1]", "1/3", "1/4"), Mismatch("[1][0]", "2", "3"), Mismatch("[1][1]", "6", "7")]
    assert mismatch_errata(item, ms) == [
        Erratum("Table 1[0][1]", "1/3", "1/4", "typo", "swapped"),
        Erratum("Table 1[1][0]", "2", "3", UNCLASSIFIED, UNDECLARED),
        Erratum("Table 1[1][1]", "6", "7", UNCLASSIFIED, "the printed value changed from the declared '5'"),
    ]
    assert UNDECLARED == "not yet classified: the printed entry differs from the exact value"


def test_a_declaration_must_name_its_printed_text():
    item = PrintedItem("p", "k", "T", [], "", {"[0]": {"class": "typo", "explanation": "e"}})
    with pytest.raises(ExpectationsError) as e:
        mismatch_errata(item, [Mismatch("[0]", "1", "2")])
    assert str(e.value) == (
        "paper_tables/printed/p.json: the erratum declared at k [0] must name the printed text "
        "it classifies ('printed')"
    )
    assert mismatch_errata(item, []) == []


def test_compare_printed_records_one_table_instance_and_the_errata():
    item = PrintedItem("p", "k", "Table 1", ["2/3", "1/2"], "", {})
    rec = Findings("c")
    assert compare_printed(rec, item, [F(2, 3), F(1, 2)], n=2, alpha=F(1, 2)) is True
    assert rec.errata == []
    (d,) = rec.decisions
    assert d.instance.kind is TABLE and d.instance.n == 2 and d.instance.alpha == "1/2"
    assert d.instance.method == "exact recomputation" and d.instance.covers == "Table 1 (k)"
    assert str(d.outcome) == "holds"
    rec = Findings("c")
    assert compare_printed(rec, item, [F(272, 415), F(1, 2)], n=None, alpha="1/2", method="m") is False
    assert rec.errata == [Erratum("Table 1[0]", "2/3", "272/415", UNCLASSIFIED, UNDECLARED)]
    assert rec.decisions[0].instance.method == "m"


def test_compare_printed_classes_closest_fractions_as_rounding():
    item = PrintedItem("p", "k", "Table 1", ["2/3", "3/5", "1"], "", {})
    rec = Findings("c")
    compare_printed(rec, item, [F(272, 415), F(272, 415), F(21, 20)], n=1, alpha=F(1, 2), approximations_of=" (LP)")
    a, b, c = rec.errata
    assert a == Erratum(
        "Table 1[0]",
        "2/3",
        "272/415",
        "rounding",
        "printed 2/3 only approximates the exact 272/415 (= 0.655422) (LP): "
        "it is the closest fraction with denominator <= 3, a convergent (gap < 1/(2 x 3^2)) within 1/50 of the "
        "exact value",
    )
    assert b.cls == UNCLASSIFIED  # 3/5 is not the closest fraction with denominator <= 5
    assert c.cls == UNCLASSIFIED  # 1 for 21/20: the closest integer, but 5% off (the papers stay within 2%)


def test_a_declared_class_is_not_overridden_by_rounding():
    item = PrintedItem("p", "k", "T", ["2/3"], "", {"[0]": {"class": "typo", "explanation": "e", "printed": "2/3"}})
    rec = Findings("c")
    compare_printed(rec, item, [F(272, 415)], n=1, alpha=F(1, 2), approximations_of="")
    assert rec.errata == [Erratum("T[0]", "2/3", "272/415", "typo", "e")]


def test_approximates_edge_cases():
    assert approximates("1", F(101, 100)) and not approximates("2", F(101, 100))
    assert not approximates("1", F(21, 20))  # the closest integer, but 5% off
    assert not approximates("0.5", F(1, 2) + F(1, 100))  # a decimal is not a quotient
    assert not approximates("1/2", "1/2")
    assert not approximates("1/2", 1) and approximates("1/1", F(101, 100))
    assert not approximates("1/2.0", F(51, 100))  # a non-integer denominator has no closest-fraction rule
    assert approximates("1/3", F(1, 3) + F(1, 1000)) and approximates(" 1 / 3 ", F(1, 3) + F(1, 1000))


def test_decimal_matches_real_boundaries():
    r = sympy.sqrt(2)  # 1.41421...
    assert decimal_matches_real("1.41", r) and decimal_matches_real("~1.414", r) and decimal_matches_real("1.4142", r)
    assert not decimal_matches_real("1.42", r) and not decimal_matches_real("1.40", r)
    assert not decimal_matches_real("1.415", r) and not decimal_matches_real("1.413", r)
    assert decimal_matches_real("-1.41", -r) and not decimal_matches_real("1.41", -r)
    assert not decimal_matches_real("141/100", r)
    # exactly half a unit away is inside
    assert decimal_matches_real("0.3", sympy.Rational(35, 100)) and decimal_matches_real("0.4", sympy.Rational(35, 100))
    assert not decimal_matches_real("0.3", sympy.Rational(351, 1000))
    assert decimal_matches_real(".5", sympy.Rational(1, 2)) and decimal_matches_real("0.50", F(1, 2))


def test_approximates_integers_and_non_integer_denominators():
    assert not approximates("1", F(7, 5))  # the closest integer to 1.4, but 29% off: not how the papers round
    assert approximates("1", F(99, 100))  # 1% off, gap 1/100 < 1/2
    assert not approximates("2", F(7, 5))
    assert not approximates("2/1.0", F(21, 10))  # a decimal denominator: no closest-fraction rule
