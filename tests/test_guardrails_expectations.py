"""Guard rails of udpm.claims.expectations (mutation-run kills): what is golden, malformed golden files refused
with one line, every kind of difference named, undecided claims never stored, atomic writes that keep
the file's mode."""

import json
import os
import stat

import pytest

from udpm.claims import expectations as ex
from udpm.claims.evidence import Result, Status
from udpm.claims.instances import Erratum
from udpm.errors import ExpectationsError
from udpm.internal import files as out


def result(status=Status.VERIFIED, values=None, errata=(), grid=None):
    return Result(status, values=values or {}, errata=list(errata), grid=grid or {})


def test_record_keeps_status_sorted_values_errata_and_grid():
    e1 = Erratum("T1[0][2]", "0.3", "1/3", "rounding", "why")
    e0 = Erratum("T1[0][1]", "0.5", "1/2", "typo", "why")
    grid = {"bounded": [{"alphas": ["1/2"], "n": [1, 2]}]}
    rec = ex.record(result(Status.ERRATUM, {"b": "2", "a": "1"}, [e1, e0], grid))
    assert rec == {
        "status": "erratum",
        "values": {"a": "1", "b": "2"},
        "errata": [["T1[0][1]", "0.5", "1/2", "typo"], ["T1[0][2]", "0.3", "1/3", "rounding"]],
        "grid": grid,
    }
    assert list(rec["values"]) == ["a", "b"]
    assert type(rec["status"]) is str


def test_undecided_statuses_are_never_stored():
    assert set(ex.UNSETTLED) == {Status.ERROR, Status.INCONCLUSIVE, Status.PENDING}
    ex.refuse_unsettled({c: {"status": s} for c, s in [("a", "proved"), ("b", "refuted"), ("c", "erratum")]})
    with pytest.raises(ExpectationsError) as e:
        ex.refuse_unsettled({"z": {"status": "error"}, "a": {"status": "pending"}, "m": {"status": "proved"}})
    assert str(e.value) == "refusing to store 2 undecided claim(s) as golden (a, z); rerun them first"
    with pytest.raises(ExpectationsError, match=r"\(x\)"):
        ex.refuse_unsettled({"x": {"status": "inconclusive"}})


def test_load_missing_file_is_empty(tmp_path):
    assert ex.load(tmp_path / "nope.json") == {}


def test_load_refuses_invalid_json_with_its_line(tmp_path):
    p = tmp_path / "e.json"
    p.write_text('{"schema": 2,\n "claims": }')
    with pytest.raises(ExpectationsError) as e:
        ex.load(p)
    assert str(e.value) == f"{p} is not valid JSON: line 2: Expecting value"


def test_load_names_the_file_relative_to_the_repository():
    p = ex.ROOT / "paper_tables" / ".guardrails_test_expected.json"
    try:
        p.write_text("[]")
        with pytest.raises(ExpectationsError) as e:
            ex.load(p)
        assert str(e.value) == 'paper_tables/.guardrails_test_expected.json must be {"schema": 2, "claims": {...}}'
    finally:
        p.unlink()


@pytest.mark.parametrize(
    "doc",
    [[], {"schema": 1, "claims": {}}, {"claims": {}}, {"schema": 2}, {"schema": 2, "claims": []}],
    ids=["list", "old schema", "no schema", "no claims", "claims not an object"],
)
def test_load_refuses_the_wrong_shape(tmp_path, doc):
    p = tmp_path / "e.json"
    p.write_text(json.dumps(doc))
    with pytest.raises(ExpectationsError) as e:
        ex.load(p)
    assert str(e.value) == f'{p} must be {{"schema": 2, "claims": {{...}}}}'


@pytest.mark.parametrize(
    "rec",
    [[], {"values": {}}, {"status": 1, "values": {}}, {"status": "proved"}, {"status": "proved", "values": []}],
    ids=["not an object", "no status", "status not a string", "no values", "values not an object"],
)
def test_load_refuses_a_malformed_entry(tmp_path, rec):
    p = tmp_path / "e.json"
    good = {"status": "proved", "values": {}}
    p.write_text(json.dumps({"schema": 2, "claims": {"a.ok": good, "b.bad": rec}}))
    with pytest.raises(ExpectationsError) as e:
        ex.load(p)
    assert str(e.value) == f"{p}: entry 'b.bad' needs a 'status' string and a 'values' object"


def test_load_returns_the_claims(tmp_path):
    p = tmp_path / "e.json"
    claims = {"a": {"status": "proved", "values": {"x": "1"}}}
    p.write_text(json.dumps({"schema": 2, "claims": claims}), encoding="utf-8")
    assert ex.load(p) == claims


def test_differences_name_every_kind_of_change():
    grid = {"bounded": [{"alphas": ["1/2"], "n": [1, 2, 3]}]}
    want = {"status": "proved", "values": {"a": "1", "b": "2"}, "errata": [["e1", "1", "2", "typo"]], "grid": grid}
    assert ex.differences("c", dict(want), want) == []
    got = {
        "status": "verified",
        "values": {"a": "1", "b": "3", "c": "4"},
        "errata": [["e2", "5", "6", "rounding"]],
        "grid": {"bounded": [{"alphas": ["1/2"], "n": [1, 2]}]},
    }
    assert ex.differences("c", got, want) == [
        "c: status verified != expected proved",
        "c: value b = '3', expected '2'",
        "c: value c = '4', expected None",
        "c: erratum at e2: printed '5', correct '6', class rounding is not expected",
        "c: expected erratum at e1: printed '1', correct '2', class typo is gone",
        "c: decided grid bounded: alpha=1/2: n<=2 != expected bounded: alpha=1/2: n<=3",
    ]


def test_differences_of_a_new_claim_and_of_missing_fields():
    assert ex.differences("c", {"status": "tested", "values": {}}, None) == ["c: no stored expectation (status tested)"]
    got = {"status": "tested", "values": {"a": "1"}, "grid": {"sampled": [{"alphas": ["1/3"], "n": [2]}]}}
    assert ex.differences("c", got, {"status": "tested"}) == [
        "c: value a = '1', expected None",
        "c: decided grid sampled: alpha=1/3: n=2 != expected (none)",
    ]
    assert ex.differences("c", {"status": "tested", "values": {}}, {"status": "tested", "grid": {}}) == [
        "c: decided grid (none) != expected (none)"
    ]


def test_grid_text_joins_kinds():
    g = {"all-n": [{"alphas": ["symbolic"], "n": [None]}], "bounded": [{"alphas": ["1/2", "1/3"], "n": [2, 3]}]}
    assert ex._grid(g) == "all-n: alpha=symbolic: all n; bounded: alpha=1/2, 1/3: n=2..3"
    assert ex._grid({}) == "(none)"
    assert ex._grid(None) == "(none)"


def test_atomic_write_creates_parents_and_leaves_no_temporary(tmp_path):
    p = tmp_path / "sub" / "dir" / "f.json"
    out.atomic_write(p, "héllo\n")
    assert p.read_bytes() == "héllo\n".encode()
    assert sorted(os.listdir(p.parent)) == ["f.json"]


def test_atomic_write_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    p = tmp_path / "f.json"
    p.write_text("old")
    os.chmod(p, 0o640)
    out.atomic_write(p, "new")
    assert p.read_text() == "new"
    assert stat.S_IMODE(p.stat().st_mode) == 0o640


@pytest.mark.parametrize("umask, mode", [(0o027, 0o640), (0o022, 0o644), (0o002, 0o664)])
def test_a_new_file_gets_the_umasks_default_mode(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        out.atomic_write(tmp_path / "f.json", "x")
        assert stat.S_IMODE((tmp_path / "f.json").stat().st_mode) == mode
        assert os.umask(umask) == umask  # the umask is restored
    finally:
        os.umask(old)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    p = tmp_path / "f.json"
    p.write_text("old")

    def boom(*a):
        raise OSError("disk full")

    monkeypatch.setattr(out.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        out.atomic_write(p, "new")
    assert p.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.json"]


def test_locked_takes_an_exclusive_lock_beside_the_file(tmp_path, monkeypatch):
    calls = []
    real = ex.fcntl.flock
    monkeypatch.setattr(ex.fcntl, "flock", lambda fh, op: (calls.append(op), real(fh, op)))
    with ex.locked(tmp_path / "e.json"):
        assert (tmp_path / ".e.json.lock").exists()
        assert calls == [ex.fcntl.LOCK_EX]
    assert calls == [ex.fcntl.LOCK_EX, ex.fcntl.LOCK_UN]


def test_update_merges_sorts_and_reports_changes(tmp_path):
    p = tmp_path / "e.json"
    p.write_text(json.dumps({"schema": 2, "claims": {"b": {"status": "proved", "values": {}}}}))
    changes = ex.update({"c": {"status": "tested", "values": {"v": "é"}}, "a": {"status": "proved", "values": {}}}, p)
    assert changes == ["a: no stored expectation (status proved)", "c: no stored expectation (status tested)"]
    text = p.read_text(encoding="utf-8")
    assert text.endswith("}\n") and "é" in text
    doc = json.loads(text)
    assert doc["schema"] == 2 and list(doc["claims"]) == ["a", "b", "c"]
    assert text.startswith('{\n "schema": 2,\n "claims": {\n  "a": {')
    assert ex.update({"b": {"status": "proved", "values": {}}}, p) == []
    with pytest.raises(ExpectationsError):
        ex.update({"d": {"status": "error", "values": {}}}, p)
    assert "d" not in ex.load(p)


def test_the_temporary_file_is_hidden_beside_the_target(tmp_path, monkeypatch):
    seen = []
    real = out.os.replace

    def spy(src, dst):
        seen.append((src, dst))
        real(src, dst)

    monkeypatch.setattr(out.os, "replace", spy)
    p = tmp_path / "f.json"
    out.atomic_write(p, "x")
    ((src, dst),) = seen
    src = os.fspath(src)
    assert os.path.dirname(src) == str(tmp_path) and dst == p
    name = os.path.basename(src)
    assert name.startswith(".f.json.") and name.endswith(".tmp") and len(name) > len(".f.json..tmp")


def test_a_vanished_temporary_file_does_not_hide_the_error(tmp_path, monkeypatch):
    def vanish(src, dst):
        os.unlink(src)
        raise OSError("replace failed")

    monkeypatch.setattr(out.os, "replace", vanish)
    with pytest.raises(OSError, match="replace failed"):
        out.atomic_write(tmp_path / "f.json", "x")
    assert os.listdir(tmp_path) == []


def test_grid_texts_follow_each_kind():
    got = {"status": "reproduced", "values": {}, "grid": {"table": [{"alphas": ["1/5"], "n": [None]}]}}
    assert ex.differences("c", got, {"status": "reproduced", "values": {}}) == [
        "c: decided grid table: alpha=1/5 != expected (none)"
    ]
