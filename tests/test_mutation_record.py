"""The recorded mutation run (benchmarks/results/mutation.json) against the tree: every guard-rail module's run is of
today's code, every survivor of the pre-existing tests is killed by a test that exists, or equivalent with the reason
kept in benchmarks/mutation_equivalents.json, and the counts and scores follow from the verdicts.  A record that an
edit, a renamed test or a dropped reason left stale fails here, without re-running mutmut."""

from __future__ import annotations

import copy
import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORD = json.loads((ROOT / "benchmarks" / "results" / "mutation.json").read_text())
EQUIVALENTS = json.loads((ROOT / "benchmarks" / "mutation_equivalents.json").read_text())
_spec = importlib.util.spec_from_file_location("mutation_script", ROOT / "benchmarks" / "mutation.py")
MUTATION = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(MUTATION)
KILLED_BY = re.compile(r"killed by (tests/[\w/]+\.py)::(\w+)")


def problems(record: dict, equivalents: dict[str, str]) -> list[str]:
    """What in ``record`` does not follow from its verdicts, the tests on disk and ``equivalents``."""
    out = []
    for module, m in record["modules"].items():
        source = ROOT / MUTATION.SOURCES[module]
        if m.get("code_sha256") != MUTATION.code_digest(source.read_text()):
            out.append(f"{module}: the run is stale (its code is not today's {MUTATION.SOURCES[module]})")
        killed_new = equivalent = open_ = 0
        for s in m["survivors"]:
            verdict = s["verdict"]
            if verdict.startswith("killed by "):
                hit = KILLED_BY.fullmatch(verdict.split("[", 1)[0])
                path = ROOT / hit.group(1) if hit else None
                if path is None or not path.exists() or f"def {hit.group(2)}(" not in path.read_text():
                    out.append(f"{s['name']}: no such test ({verdict})")
                killed_new += 1
            elif verdict.startswith("equivalent: "):
                if equivalents.get(s["name"]) != verdict.removeprefix("equivalent: "):
                    out.append(f"{s['name']}: its reason is not the one in mutation_equivalents.json")
                equivalent += 1
            else:
                out.append(f"{s['name']}: open ({verdict})")
                open_ += 1
        if (m["killed_by_new_tests"], m["equivalent"], m["survived"] + m["no_tests"]) != (
            killed_new,
            equivalent,
            open_,
        ):
            out.append(f"{module}: the counts do not follow from the verdicts")
        if m["killed"] != m["killed_by_existing_tests"] + m["killed_by_new_tests"]:
            out.append(f"{module}: killed is not existing + new")
        if m["score"] != round(m["killed"] / (m["total"] - m["equivalent"]), 4):
            out.append(f"{module}: the score is not killed / (total - equivalent)")
    return out


def test_every_module_is_recorded_and_every_survivor_is_killed_by_a_test_that_exists_or_explained() -> None:
    assert list(RECORD["modules"]) == list(MUTATION.MODULES)
    assert problems(RECORD, EQUIVALENTS) == []


def test_the_readme_shows_the_recorded_run() -> None:
    assert MUTATION.table(RECORD) in (ROOT / "benchmarks" / "README.md").read_text()


def test_the_code_digest_ignores_layout_docstrings_and_imports_only() -> None:
    code = 'import a\n\n\ndef f(x):\n    """Doc."""\n    return x + 1\n'
    same = "from b import a\ndef f(x):  # why\n    return (x + 1)\n"
    assert MUTATION.code_digest(code) == MUTATION.code_digest(same)
    assert MUTATION.code_digest(code) != MUTATION.code_digest(code.replace("+ 1", "+ 2"))


def doctored(change: str) -> dict:
    record = copy.deepcopy(RECORD)
    m = record["modules"]["refinement"]
    killed = next(s for s in m["survivors"] if s["verdict"].startswith("killed by "))
    explained = next(s for s in m["survivors"] if s["verdict"].startswith("equivalent: "))
    if change == "a renamed test":
        killed["verdict"] = killed["verdict"].replace("::test_", "::test_renamed_")
    elif change == "a survivor left open":
        killed["verdict"] = "survived"
    elif change == "a reason not on file":
        explained["verdict"] = "equivalent: because"
    elif change == "code edited since the run":
        m["code_sha256"] = "0" * 64
    elif change == "a wrong score":
        m["score"] = 1.0 if m["score"] != 1.0 else 0.5
    return record


@pytest.mark.parametrize(
    "change",
    ["a renamed test", "a survivor left open", "a reason not on file", "code edited since the run", "a wrong score"],
)
def test_a_stale_record_is_seen(change: str) -> None:
    assert problems(doctored(change), EQUIVALENTS)
