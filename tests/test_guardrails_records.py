"""Guard rails of the byte-identical comparison of claim records (``python -m udpm.claims.records same``): two documents
that differ in any one field of a claim record, at any depth (the decided instances above all), are reported
different; documents that differ only outside the claim records, or in layout, are the same."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from udpm.claims import records
from udpm.claims.evidence import derive
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED
from udpm.claims.registry import Context, catalog
from udpm.outputs.results import SCHEMA_FILE, Outcome, document

ROOT = Path(__file__).resolve().parent.parent


def _outcome(found: Findings, seconds: float = 1.0) -> Outcome:
    claim = catalog()[found.claim]
    result = derive(found)
    return Outcome(claim, result, seconds, str(result.status), [])


def _real_findings() -> Findings:
    """A claim decided by its real check: grs2011 Lemma 5.2 (all-n induction and sampled cross-checks)."""
    from proofs.universality.direct_mechanisms import direct_mechanisms_suffice

    return direct_mechanisms_suffice(Context())


def _refuted_findings() -> Findings:
    """A record with every optional part filled: a counterexample, values, errata, a certificate, notes."""
    rec = Findings("gs2010.def1")
    rec.decide(True, n=None, alpha="symbolic alpha in (0,1)", kind=ALL_N, method="m", covers="c", part="p")
    with rec.deciding(n=2, alpha="1/2", kind=BOUNDED, method="lp", covers="every user", user="u1") as d:
        d.counterexample("x = [1/2]")
    rec.decide(True, n=3, alpha="1/3", kind=SAMPLED, method="s", covers="sampled users", seed="7")
    rec.value(x="1/2", y="[1, 2]")
    rec.erratum("Table 1", "0.5", "1/3", "typo", "why")
    rec.certificate = {"dual": ["1/2", "0"], "basis": [0, 2]}
    rec.note("a note")
    return rec


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    return [_outcome(_real_findings()), _outcome(_refuted_findings())]


@pytest.fixture(scope="module")
def claim_records(outcomes) -> list[dict]:
    return json.loads(document(outcomes, {"quick": False}))["claims"]


def _leaves(value: object, path: tuple = ()) -> Iterator[tuple]:
    """Every path to a leaf (and to every empty container) of a JSON value."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list) and value:
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path


def _changed(value: object) -> object:
    """A different JSON value of the same shape where there is one."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return "x"
    if isinstance(value, list):
        return ["x"]
    return {"x": 1}


def _edit(record: dict, path: tuple, fn) -> dict:
    out = copy.deepcopy(record)
    target = out
    for p in path[:-1]:
        target = target[p]
    fn(target, path[-1])
    return out


def _doc(claims: list[dict], **extra: object) -> dict:
    return {"schema": 2, "run": {}, "claims": claims, **extra}


def _same(tmp_path: Path, ref: dict, *parts: dict) -> int:
    paths = []
    for i, doc in enumerate((ref, *parts)):
        paths.append(tmp_path / f"doc{i}.json")
        paths[-1].write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return records.main(["same", *map(str, paths)])


def _variants(record: dict) -> Iterator[tuple[str, dict]]:
    """(where, record) for every one-field change of ``record``: each leaf changed, each key removed, a key added.

    Of a list of decisions only the first three are enumerated (the others have the same fields)."""
    paths = [p for p in _leaves(record) if p and not (p[0] == "decisions" and len(p) > 1 and p[1] >= 3)]
    for path in paths:

        def change(t, k):
            t[k] = _changed(t[k])

        yield "/".join(map(str, path)) + " changed", _edit(record, path, change)
    keys = sorted({p[:d] for p in paths for d in range(1, len(p) + 1) if isinstance(p[d - 1], str)}, key=str)
    for sub in keys:
        yield "/".join(map(str, sub)) + " removed", _edit(record, sub, lambda t, k: t.pop(k))
    yield "a field added", {**record, "extra": None}


def test_the_records_cover_every_top_level_field_of_the_schema(claim_records):
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    text = json.dumps(schema)
    keys = set().union(*(r.keys() for r in claim_records))
    for field in ("instances", "decisions", "status", "evidence", "grid", "values", "counterexample", "errata"):
        assert field in keys and field in text
    assert all(r["instances"]["decided"] >= 1 and r["decisions"] for r in claim_records)


def test_a_document_is_the_same_as_itself_in_any_layout_and_order(tmp_path, claim_records):
    ref = _doc(claim_records, seconds={"a": 1.0})
    shuffled = _doc([json.loads(json.dumps(r, sort_keys=True)) for r in reversed(claim_records)], seconds={"a": 9.0})
    assert _same(tmp_path, ref, shuffled) == 0
    assert _same(tmp_path, ref, _doc(claim_records[:1]), _doc(claim_records[1:])) == 0


def test_every_one_field_change_of_a_claim_record_is_reported(tmp_path, claim_records, capsys):
    checked = 0
    for record in claim_records:
        for where, variant in _variants(record):
            others = [r for r in claim_records if r is not record]
            code = _same(tmp_path, _doc(claim_records), _doc([*others, variant]))
            out = capsys.readouterr().out
            assert code != 0, f"{record['id']}: {where} was not reported"
            if code == 1:  # the id itself unchanged: the claim is named
                assert record["id"] in out or "id" in where, where
            checked += 1
    assert checked > 300


@pytest.mark.parametrize("field", ["decided", "holds", "counterexample", "inconclusive"])
def test_the_decided_instances_alone_differing_is_reported(tmp_path, claim_records, field):
    """Only the instance counts differ (the decisions are kept as they are): the CLI exits 1 naming the claim."""
    record = claim_records[0]
    assert field in record["instances"]
    changed = _edit(record, ("instances", field), lambda t, k: t.__setitem__(k, t[k] + 1))
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(_doc(claim_records)), encoding="utf-8")
    b.write_text(json.dumps(_doc([changed, *claim_records[1:]])), encoding="utf-8")
    r = subprocess.run(
        [sys.executable, "-m", "udpm.claims.records", "same", str(a), str(b)], capture_output=True, text=True, cwd=ROOT
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert r.stdout.strip() == f"udpm.claims.records: 1 claim record(s) differ: {record['id']}"


@pytest.mark.parametrize("field", ["n", "alpha", "kind", "method", "covers", "params", "outcome", "detail"])
def test_one_decision_differing_is_reported(tmp_path, claim_records, field):
    record = claim_records[1]
    changed = _edit(record, ("decisions", 1, field), lambda t, k: t.__setitem__(k, _changed(t[k])))
    assert _same(tmp_path, _doc(claim_records), _doc([claim_records[0], changed])) == 1


def test_a_decision_dropped_or_reordered_is_reported(tmp_path, claim_records):
    record = claim_records[1]
    assert len(record["decisions"]) >= 2
    dropped = {**record, "decisions": record["decisions"][1:]}
    swapped = {**record, "decisions": record["decisions"][::-1]}
    for variant in (dropped, swapped):
        assert _same(tmp_path, _doc(claim_records), _doc([claim_records[0], variant])) == 1


def test_a_missing_or_extra_claim_is_reported(tmp_path, claim_records, capsys):
    assert _same(tmp_path, _doc(claim_records), _doc(claim_records[:1])) == 1
    assert claim_records[1]["id"] in capsys.readouterr().out
    assert _same(tmp_path, _doc(claim_records[:1]), _doc(claim_records)) == 1
    assert claim_records[1]["id"] in capsys.readouterr().out


def test_parts_that_disagree_on_one_claim_are_an_error(tmp_path, claim_records, capsys):
    record = claim_records[0]
    other = {**record, "status": _changed(record["status"])}
    assert _same(tmp_path, _doc(claim_records), _doc(claim_records), _doc([other])) == 2
    err = capsys.readouterr().err
    assert err.startswith("udpm.claims.records: error: claim ") and record["id"] in err


def test_the_reference_claiming_one_id_twice_is_an_error(tmp_path, claim_records):
    record = claim_records[0]
    twice = _doc([record, {**record, "notes": record["notes"] + "x"}])
    assert _same(tmp_path, twice, _doc(claim_records)) == 2


@pytest.mark.parametrize("text", ["{", "[]", '{"claims": {}}', '{"schema": 2}'])
def test_an_unreadable_or_foreign_document_is_one_line_and_exit_2(tmp_path, claim_records, capsys, text):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_doc(claim_records)), encoding="utf-8")
    bad.write_text(text, encoding="utf-8")
    for args in ([good, bad], [bad, good]):
        assert records.main(["same", *map(str, args)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"udpm.claims.records: error: {bad}: ")
    assert records.main(["same", str(good), str(tmp_path / "absent.json")]) == 2


@pytest.mark.parametrize("argv", [[], ["same"], ["same", "a.json"], ["differ", "a.json", "b.json"]])
def test_a_wrong_command_line_is_the_usage_and_exit_2(argv, capsys):
    assert records.main(argv) == 2
    assert capsys.readouterr().err.startswith("usage: python -m udpm.claims.records same ")


def test_canonical_text_is_independent_of_key_order_and_exact_on_values():
    assert records.canonical({"b": 1, "a": "é"}) == records.canonical({"a": "é", "b": 1}) == '{"a":"é","b":1}'
    assert records.canonical({"a": 1}) != records.canonical({"a": 1.0})
    assert records.canonical({"a": [1, 2]}) != records.canonical({"a": [2, 1]})


@pytest.mark.parametrize("claims", [[{"status": "proved"}], [{"id": 3}], ["gs2010.def1"], [None]])
def test_a_claim_record_without_an_id_is_one_line_and_exit_2(tmp_path, claim_records, capsys, claims):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(_doc(claim_records)), encoding="utf-8")
    bad.write_text(json.dumps(_doc(claims)), encoding="utf-8")
    for args in ([good, bad], [bad, good]):
        assert records.main(["same", *map(str, args)]) == 2
        err = capsys.readouterr().err
        assert err == f"udpm.claims.records: error: {bad}: claim record 0 is not an object with a string 'id'\n"


def test_a_reference_without_claim_records_compares_nothing_and_is_refused(tmp_path, capsys):
    assert _same(tmp_path, _doc([]), _doc([])) == 2
    assert (
        capsys.readouterr().err
        == f"udpm.claims.records: error: {tmp_path / 'doc0.json'}: no claim records to compare\n"
    )


def test_the_command_line_is_read_from_sys_argv_by_default(tmp_path, claim_records, monkeypatch, capsys):
    a = tmp_path / "a.json"
    a.write_text(json.dumps(_doc(claim_records)), encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["udpm.claims.records", "same", str(a), str(a)])
    assert records.main() == 0
    assert capsys.readouterr().out == f"udpm.claims.records: {len(claim_records)} claim records identical\n"
    monkeypatch.setattr(sys, "argv", ["udpm.claims.records", "same", str(a)])
    assert records.main() == 2
    assert capsys.readouterr().err == (
        "usage: python -m udpm.claims.records same REFERENCE.json PART.json [PART.json ...]\n"
    )


def test_the_first_ten_differing_claims_are_named_in_order(tmp_path, claim_records, capsys):
    record = claim_records[1]
    many = [{**record, "id": f"t.claim{k:02d}"} for k in range(12)]
    changed = [{**r, "notes": r["notes"] + "x"} for r in many]
    assert _same(tmp_path, _doc(many), _doc(changed[::-1])) == 1
    named = ", ".join(f"t.claim{k:02d}" for k in range(10))
    assert capsys.readouterr().out == f"udpm.claims.records: 12 claim record(s) differ: {named}\n"
