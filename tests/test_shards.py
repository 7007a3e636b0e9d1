"""reproduce.py --shard K/N and merge (udpm.run.shards): shards partition the selection, a shard runs the dependencies
it needs from other shards but writes only its own claims, and merged shards equal a serial run byte for byte."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import jsonschema
import pytest

from udpm.claims.records import canonical
from udpm.claims.registry import catalog
from udpm.errors import InvalidInput
from udpm.run import shards

ROOT = Path(__file__).resolve().parent.parent
# gs2010.def4 (shard 1) depends on grs2011.ex2.2, which falls in shard 2: the cross-shard dependency case.
FAST = ["--only", "grs2011.ex2.[12]", "--only", "gs2010.def4", "--only", "gs2010.appB"]


def reproduce(*args: str) -> subprocess.CompletedProcess:
    if args[:1] != ("merge",):  # a run in the checkout itself writes its outputs to a temporary directory
        args = (*args, "--out", tempfile.mkdtemp(prefix="udpm-test-out-"))
    return subprocess.run(
        [sys.executable, str(ROOT / "reproduce.py"), *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_shards_partition_the_selection_deterministically():
    ids = list(catalog())
    for count in range(1, 7):
        parts = [shards.shard_of(ids, k, count) for k in range(1, count + 1)]
        assert sorted(c for part in parts for c in part) == sorted(ids)  # disjoint, and together the whole selection
        assert max(map(len, parts)) - min(map(len, parts)) <= 1
        assert parts == [shards.shard_of(ids, k, count) for k in range(1, count + 1)]
    assert shards.shard_of(["a", "b"], 3, 3) == []  # more shards than claims: an empty shard, not an error


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "2", "a/b", "-1/2", "1/2/3", ""])
def test_a_malformed_shard_is_refused(text):
    with pytest.raises(InvalidInput, match="--shard"):
        shards.parse_shard(text)


def test_metadata_names_versions_and_no_commit_outside_a_checkout(monkeypatch, tmp_path):
    meta = shards.run_metadata()
    assert set(meta) == {"harness_version", "git_commit", "python", "solvers"}
    assert set(meta["solvers"]) == {"z3", "cvc5", "highspy", "sympy", "python-flint"}
    assert meta["solvers"]["z3"] and meta["python"].count(".") == 2
    monkeypatch.setattr(shards, "ROOT", tmp_path)  # not a git checkout
    assert shards.git_commit() is None


def record(cid: str, status: str = "proved") -> dict:
    return {"id": cid, "paper": cid.split(".")[0], "status": status, "errata": [], "problems": []}


def doc(*ids: str, shard: tuple[int, int] | None = None, seed: int = 0, **meta) -> dict:
    out = {
        "schema": 2,
        "run": {"quick": True, "seed": seed, "selection": None, "paper": None},
        "claims": [record(c) for c in ids],
        "summary": {},
        "seconds": {c: 0.5 for c in ids},
        "metadata": {"harness_version": "0.1.0", "git_commit": "abc", "python": "3.11.7", "solvers": {"z3": "4"}},
    }
    out["metadata"].update(meta)
    if shard:
        out["shard"] = {"index": shard[0], "count": shard[1]}
    return out


def test_merge_orders_by_catalog_and_recomputes_the_summary():
    a, b = doc("gs2010.lemma2", shard=(2, 2)), doc("grs2011.ex2.1", "gs2010.appB", shard=(1, 2))
    merged = shards.merge_documents([("a", a), ("b", b)])
    assert [r["id"] for r in merged["claims"]] == ["grs2011.ex2.1", "gs2010.lemma2", "gs2010.appB"]
    assert merged["summary"]["claims"] == 3
    assert merged["summary"]["by_paper"] == {"grs2011": {"proved": 1}, "gs2010": {"proved": 2}}
    assert "shard" not in merged and merged["metadata"] == a["metadata"] and merged["run"] == a["run"]


@pytest.mark.parametrize(
    ("docs", "message"),
    [
        ([doc("grs2011.ex2.1"), doc("grs2011.ex2.1")], "claim grs2011.ex2.1 is in both d0 and d1"),
        ([doc("a.x"), doc("b.y", harness_version="0.2.0")], "differ in harness_version '0.2.0' vs '0.1.0'"),
        ([doc("a.x"), doc("b.y", git_commit=None)], "differ in git_commit None vs 'abc'"),
        ([doc("a.x"), doc("b.y", solvers={"z3": "5"})], "differ in solvers.z3 '5' vs '4'"),
        ([doc("a.x"), doc("b.y", seed=1)], "differ in run.seed: 1 vs 0"),
        ([doc("a.x", shard=(1, 3)), doc("b.y", shard=(2, 3))], "shard(s) 3/3 missing"),
        ([doc("a.x", shard=(1, 2)), doc("b.y", shard=(1, 2))], "shard 1/2 twice: d0 and d1"),
        ([doc("a.x", shard=(1, 2)), doc("b.y", shard=(2, 3))], "shards of different counts"),
        ([doc("a.x", shard=(1, 2)), doc("b.y")], "cannot merge shards with documents that are not shards"),
        ([doc("a.x"), {k: v for k, v in doc("b.y").items() if k != "metadata"}], "d1 has no run metadata"),
    ],
)
def test_merge_refuses(docs, message):
    with pytest.raises(shards.MergeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        shards.merge_documents([(f"d{k}", d) for k, d in enumerate(docs)])


def test_shards_of_different_selections_are_refused():
    a, b = doc("a.x", shard=(1, 2)), doc("b.y", shard=(2, 2))
    b["run"]["selection"] = ["b.*"]
    with pytest.raises(shards.MergeError, match="shards of different runs"):
        shards.merge_documents([("a", a), ("b", b)])


def test_per_paper_runs_merge_with_the_union_of_their_filters():
    a, b = doc("grs2011.ex2.1"), doc("gs2010.appB")
    a["run"]["paper"], b["run"]["selection"] = "grs2011", ["gs2010.app*"]
    run = shards.merge_documents([("a", a), ("b", b)])["run"]
    assert run == {"quick": True, "seed": 0, "selection": ["grs2011.*", "gs2010.app*"], "paper": None}


def test_two_shards_merged_equal_a_serial_run_byte_for_byte(tmp_path):
    serial, one, two, merged = (tmp_path / f"{n}.json" for n in ("serial", "one", "two", "merged"))
    assert reproduce(*FAST, "--json", serial).returncode == 0
    first = reproduce(*FAST, "--shard", "1/2", "--json", one)
    second = reproduce(*FAST, "--shard", "2/2", "--json", two)
    assert first.returncode == 0 and second.returncode == 0, first.stdout + second.stdout
    # shard 1 owns gs2010.def4 and runs grs2011.ex2.2 (shard 2's) for its cap, but does not write it
    assert "shard 1/2: checking 2 claims and 1 they depend on" in first.stderr
    docs = {p: json.loads(p.read_text()) for p in (serial, one, two)}
    assert [c["id"] for c in docs[one]["claims"]] == ["grs2011.ex2.1", "gs2010.def4"]
    assert [c["id"] for c in docs[two]["claims"]] == ["grs2011.ex2.2", "gs2010.appB"]
    assert docs[one]["shard"] == {"index": 1, "count": 2} and "shard" not in docs[serial]
    schema = json.loads((ROOT / "udpm" / "outputs" / "results.schema.json").read_text())
    for path, d in docs.items():
        jsonschema.Draft202012Validator(schema).validate(d)
        # a commit may land between the three runs in a shared checkout; merge refusing that is tested above
        d["metadata"]["git_commit"] = docs[serial]["metadata"]["git_commit"]
        path.write_text(json.dumps(d, indent=1, ensure_ascii=False) + "\n")
        assert d["metadata"] == docs[serial]["metadata"]

    junit = tmp_path / "merged.xml"
    proc = reproduce("merge", two, one, "--json", merged, "--junit", junit)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "merged 4 claim records from 2 documents" in proc.stdout
    assert proc.stdout.splitlines()[-1].startswith("4 claims: all as expected (")
    assert junit.read_text().count("<testcase ") == 4
    out = json.loads(merged.read_text())
    jsonschema.Draft202012Validator(schema).validate(out)
    assert [canonical(r) for r in out["claims"]] == [canonical(r) for r in docs[serial]["claims"]]
    strip = {k: v for k, v in docs[serial].items() if k != "seconds"}
    assert {k: v for k, v in out.items() if k != "seconds"} == strip  # the whole document, but wall-clock times
    assert list(out) == list(docs[serial])  # same key order as a serial run's document

    # refusals, through both entry points: one line on stderr, exit 2, nothing written
    overlap = reproduce("merge", serial, one, "--json", tmp_path / "x.json")
    assert overlap.returncode == 2 and overlap.stderr.count("\n") == 1
    assert "reproduce.py merge: error: claim grs2011.ex2.1 is in both" in overlap.stderr
    bumped = copy.deepcopy(docs[two])
    bumped["metadata"]["harness_version"] = "9.9"
    (tmp_path / "bumped.json").write_text(json.dumps(bumped))
    proc = subprocess.run(
        [sys.executable, "-m", "udpm.run.shards", "merge", str(one), str(tmp_path / "bumped.json"), "--json", "y.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "differ in harness_version '9.9' vs " in proc.stderr
    assert proc.stderr.count("\n") == 1 and not (tmp_path / "x.json").exists()


def test_merge_usage_and_unreadable_documents_exit_2(tmp_path):
    assert shards.main([]) == 2
    (tmp_path / "bad.json").write_text("{")
    out = str(tmp_path / "out.json")
    assert shards.main(["merge", str(tmp_path / "bad.json"), "--json", out]) == 2
    assert shards.main(["merge", str(tmp_path / "missing.json"), "--json", out]) == 2


def full_doc(*claims: tuple[str, str, list[str]], shard: tuple[int, int] | None = None) -> dict:
    """A document whose records carry what the JUnit writer and the verdict read."""
    out = doc(*(cid for cid, _, _ in claims), shard=shard)
    for rec, (_, status, problems) in zip(out["claims"], claims, strict=True):
        rec.update(status=status, problems=problems, where="Theorem 1", statement="s", notes="", evidence="bounded")
        rec["scope"] = "alpha=1/2: n<=3"
    return out


@pytest.fixture
def merge_files(tmp_path, monkeypatch):
    """Write documents; the schema check is udpm.outputs.results's own business (tested with real runs above)."""
    import udpm.outputs.results

    monkeypatch.setattr(udpm.outputs.results, "schema_problems", lambda doc: [])

    def write(*docs: dict) -> list[str]:
        paths = []
        for k, d in enumerate(docs):
            (tmp_path / f"d{k}.json").write_text(json.dumps(d))
            paths.append(str(tmp_path / f"d{k}.json"))
        return paths

    return write


def test_merge_writes_junit_and_ends_in_a_verdict_line(tmp_path, merge_files, capsys):
    paths = merge_files(
        full_doc(("grs2011.ex2.1", "proved", []), shard=(1, 2)), full_doc(("gs2010.appB", "refuted", []), shard=(2, 2))
    )
    junit = tmp_path / "all.xml"
    assert shards.main(["merge", *paths, "--junit", str(junit)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "2 claims: all as expected (1 proved, 1 refuted); 0 regressions"
    assert lines[-4:-1] == [  # the digest, as a run prints it
        "refuted: 1 claim, each with what refutes it (the counterexample in full in --json and the report):",
        "  gs2010.appB  no counterexample recorded",
        "no errata",
    ]
    xml = junit.read_text()
    assert xml.count("<testcase ") == 2 and 'name="gs2010.appB"' in xml and "<failure" not in xml


def test_merge_names_the_regressions_and_exits_as_the_run_would(tmp_path, merge_files, capsys):
    bad = ["grs2011.ex2.1: status tested != expected proved"]
    paths = merge_files(
        full_doc(("grs2011.ex2.1", "tested", bad), shard=(1, 2)),
        full_doc(("gs2010.appB", "inconclusive", ["status inconclusive: z3 timeout"]), shard=(2, 2)),
    )
    junit = tmp_path / "all.xml"
    assert shards.main(["merge", *paths, "--junit", str(junit), "--json", str(tmp_path / "all.json")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "  grs2011.ex2.1: status tested != expected proved" in lines
    assert "  gs2010.appB: status inconclusive: z3 timeout" in lines
    assert lines[-1] == "2 claims: 1 regression(s), 1 not decided (1 tested, 1 inconclusive)"
    assert '<failure message="grs2011.ex2.1: status tested != expected proved"' in junit.read_text()
    undecided = merge_files(full_doc(("gs2010.appB", "inconclusive", ["status inconclusive: z3 timeout"])))
    assert shards.main(["merge", *undecided, "--json", str(tmp_path / "u.json")]) == 3
    assert "FAILED" not in capsys.readouterr().out


def test_merge_without_an_output_is_refused_in_one_line(tmp_path, merge_files, capsys):
    paths = merge_files(full_doc(("grs2011.ex2.1", "proved", [])))
    assert shards.main(["merge", *paths]) == 2
    err = capsys.readouterr().err
    assert err == "python -m udpm.run.shards merge: error: nothing to write: give --json PATH and/or --junit PATH\n"
    assert shards.main(["merge", *paths, "--junit", str(tmp_path / "no" / "x.xml")]) == 2
    assert "--junit" in capsys.readouterr().err and not (tmp_path / "no").exists()
