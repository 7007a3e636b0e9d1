"""The console after a run: every value agrees with the JSON character for character, on every claim record; the
digest of the findings ends the output, on the first screen a terminal shows after the run, just before the
verdict line."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from udpm.outputs import console as con
from udpm.outputs.readme_block import refuted_only_at_an_end
from udpm.report.errata import errata_groups

ROOT = Path(__file__).resolve().parent.parent
#: The claim records of a full quick run, trimmed to the fields the console prints.
RUN = Path(__file__).with_name("data") / "run_records.json"
#: A terminal's first screen after a run: this many lines above the verdict line.
SCREEN = 40

HOSTILE = [
    "centrosymmetric (m[i][j] = m[n-i][n-j])",
    "[bold]x[/bold] [red]",
    "a\\b \\[escaped] \\",
    "[link=http://example.org]here[/link] :smile: $x^2$",
    "w" * 300,
    "ends with an ellipsis…",
]


def run_doc() -> dict:
    return json.loads(RUN.read_text(encoding="utf-8"))


def record(cid: str, status: str = "verified", **fields: object) -> dict:
    base = {
        "id": cid,
        "paper": cid.split(".")[0],
        "status": status,
        "capped_by": None,
        "evidence": "bounded",
        "scope": "alpha=1/2: n<=3",
        "counterexample": None,
        "errata": [],
        "coverage": None,
        "decisions": [],
    }
    return {**base, **fields}


def hostile_doc() -> dict:
    claims = []
    for k, text in enumerate(HOSTILE):
        cid = f"grs2011.weird{k}"
        errata = [{"entry": text, "printed": text[::-1], "correct": text, "cls": "typo", "explanation": text}]
        detail = f"{text} breaks it"
        claims.append(
            record(
                cid,
                "refuted",
                evidence="table",
                scope=text,
                capped_by=text,
                counterexample=f"n=1 alpha=1/2 bounded exact: {detail}",
                errata=errata,
                decisions=[{"alpha": "1/2", "outcome": "counterexample", "detail": detail}],
            )
        )
        claims.append(record(f"gs2010.partial{k}", "partial", coverage={"undecided": [text]}))
    return {"claims": claims, "seconds": {c["id"]: 0.125 for c in claims}}


def golden_doc() -> dict:
    """Every claim record of the golden file (paper_tables/expected.json), in the console's fields."""
    golden = json.loads((ROOT / "paper_tables" / "expected.json").read_text(encoding="utf-8"))["claims"]
    fields = ("entry", "printed", "correct", "cls")  # the golden file keeps no explanation
    claims = [
        record(cid, rec["status"], errata=[dict(zip(fields, e, strict=True)) for e in rec["errata"]], scope="")
        for cid, rec in golden.items()
    ]
    return {"claims": claims, "seconds": {c["id"]: 1.5 for c in claims}}


def render(doc: Mapping) -> str:
    out = con.console(file=io.StringIO(), record=True)
    con.print_tables(doc, 12.5, out=out)
    con.print_digest_of(doc["claims"], out=out)
    return out.export_text()


def tables(text: str) -> Iterator[tuple[str, list[str]]]:
    """(title, the text of each column top to bottom) of every table rich drew in ``text``."""
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if not line.startswith("┏"):
            continue
        bounds = [i for i, ch in enumerate(line) if ch in "┏┳┓"]
        columns = [""] * (len(bounds) - 1)
        for body in lines[k + 1 :]:
            if body.startswith("└"):
                break
            if body.startswith("│"):
                for c in range(len(columns)):
                    columns[c] += body[bounds[c] + 1 : bounds[c + 1]] + " "
        title, j = [], k - 1
        while j >= 0 and lines[j].strip() and lines[j][0] not in "└│┃":
            title.insert(0, lines[j].strip())
            j -= 1
        yield " ".join(title), columns


def squeeze(text: str) -> str:
    """The text without whitespace: where rich wraps a cell it only turns a space into a line break."""
    return re.sub(r"\s+", "", text)


def errata_rows(claims: Sequence[Mapping]) -> list[list[str]]:
    groups: dict[tuple[str, str], list[Mapping]] = {}
    for c in claims:
        for e in c["errata"]:
            groups.setdefault((c["id"], e["cls"]), []).append(e)
    return [
        [cid, cls, str(len(es)), es[0]["entry"], es[0]["printed"], es[0]["correct"]]
        for (cid, cls), es in groups.items()
    ]


def assert_columns_agree(columns: list[str], rows: list[list[str]], what: str) -> None:
    """Each column, read top to bottom, is its cells' values one after another, character for character (up to the
    whitespace where a cell wraps): nothing cut, nothing read as markup, nothing reordered."""
    assert len(columns) == len(rows[0]), what
    for c, column in enumerate(columns):
        want = squeeze("".join(row[c] for row in rows))
        assert squeeze(column) == want, f"{what}, column {c}"


@pytest.mark.parametrize("doc", [run_doc(), golden_doc(), hostile_doc()], ids=["run", "golden", "hostile"])
def test_every_value_the_console_prints_is_the_json_value(doc):
    text = render(doc)
    drawn = dict(tables(text))
    claims = doc["claims"]
    rows = [
        [c["id"], c["status"], c["capped_by"] or "", c["evidence"], c["scope"], json.dumps(doc["seconds"][c["id"]])]
        for c in claims
    ]
    title = next(t for t in drawn if t.startswith("claims (seconds"))
    assert_columns_agree(drawn[title], rows, "the claims table")
    partial = [c for c in claims if c["status"] == "partial"]
    if partial:
        title = next(t for t in drawn if t.startswith("decided on part"))
        rows = [[c["id"], "; ".join(c["coverage"]["undecided"])] for c in partial]
        assert_columns_agree(drawn[title], rows, "the partial claims")
    if any(c["errata"] for c in claims):
        title = next(t for t in drawn if t.startswith("printed values that differ"))
        assert_columns_agree(drawn[title], errata_rows(claims), "the errata table")


def test_the_errata_table_has_one_row_per_claim_and_class():
    doc = run_doc()
    table1 = [e for c in doc["claims"] if c["id"] == "gs2010.table1" for e in c["errata"] if e["cls"] == "rounding"]
    assert len(table1) >= 20  # the rounded entries of the printed Table 1
    drawn = dict(tables(render(doc)))
    columns = drawn[next(t for t in drawn if t.startswith("printed values that differ"))]
    assert squeeze(columns[0]).count("gs2010.table1") == len(
        {e["cls"] for c in doc["claims"] if c["id"] == "gs2010.table1" for e in c["errata"]}
    )
    assert "paper_tables/ERRATA.md" in "".join(drawn)


def digest_of(doc: Mapping) -> list[str]:
    out = con.console(file=io.StringIO(), record=True)
    con.print_digest_of(doc["claims"], out=out)
    return out.export_text().splitlines()


@pytest.mark.parametrize("doc", [run_doc(), hostile_doc()], ids=["run", "hostile"])
def test_the_digest_names_every_refuted_claim_with_what_refutes_it_verbatim(doc):
    lines = digest_of(doc)
    assert all(len(line) <= con.WIDTH for line in lines)
    text = "\n".join(lines)
    for c in doc["claims"]:
        if c["status"] != "refuted":
            continue
        end = refuted_only_at_an_end(c)
        if end:  # marked by the end it fails at, in the list of those refuted only there
            listing = text[text.index("refuted only at an end of the printed range") :]
            group = listing[listing.index(f"{end}:") :]
            assert re.search(rf"(^|\s){re.escape(c['id'])}[,;]?(\s|$)", group), c["id"]
            continue
        (line,) = [ln for ln in lines if ln.startswith(f"  {c['id']} ")]
        shown = line[len(c["id"]) + 2 :].lstrip()
        reason = con.refutation(c)
        assert reason and reason in c["counterexample"]  # the refuting instance's own words
        if shown.endswith("…") and not reason.endswith("…"):
            assert reason.startswith(shown[:-1]) and len(line) == con.WIDTH, c["id"]  # cut at the edge only
        else:
            assert shown == reason, c["id"]


def test_claims_refuted_only_at_an_end_are_marked_as_such():
    doc = run_doc()
    at_end = {c["id"]: refuted_only_at_an_end(c) for c in doc["claims"] if c["status"] == "refuted"}
    assert {e for e in at_end.values() if e} == {"alpha = 1", "alpha = 0, 1", "n = 0"}
    lines = digest_of(doc)
    inside = {ln.split()[0] for ln in lines if ln.startswith("  ") and not ln.startswith("   ")}
    for cid, end in at_end.items():
        assert (cid in inside) == (not end), cid


def test_the_digest_groups_errata_by_claim_and_class():
    doc = run_doc()
    text = " ".join(line.strip() for line in digest_of(doc))
    listing = text[text.index("errata (") :]
    for cid, cls, entries in errata_groups(doc["claims"]):
        count = f"{len(entries)} " if len(entries) > 1 else ""  # a class alone: one entry
        assert re.search(rf"{re.escape(cid)}: ((\d+ )?[a-z ]+, )*{count}{cls}[,;]?( |$)", listing), (cid, cls)
    assert "gs2010.table1: 20 rounding," in listing and "Table 1(a)" not in listing  # one row per claim and class


def test_the_first_screen_after_a_run_shows_the_whole_digest():
    """Long tables, the files written, the digest, then the verdict: the digest is within the last SCREEN lines."""
    doc = run_doc()
    out = con.console(file=io.StringIO(), record=True)
    con.print_tables(doc, 140.0, out=out)
    for k in range(8):  # what a run writes, named after the tables
        out.print(f"  build/file{k}")
    con.print_digest_of(doc["claims"], out=out)
    out.print("143 claims: all as expected (...); 0 regressions")
    lines = out.export_text().rstrip("\n").splitlines()
    digest = [ln for ln in digest_of(doc) if ln.strip()]
    screen = lines[-SCREEN - 1 : -1]
    assert screen[-len(digest) :] == digest
    assert lines[-1].startswith("143 claims: all as expected")
    assert any(ln.startswith("refuted: ") for ln in screen) and any(ln.startswith("errata (") for ln in screen)
