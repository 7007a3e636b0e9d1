"""The reproduction report (udpm.outputs.notebook): build/report.html from `reproduce.py --report`, and the README
block.

Report runs happen in a temporary copy of the project, so build/ and README.md of the
real tree are never touched.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from udpm.claims.evidence import Evidence, Result, Status, grid_text, scope_text
from udpm.claims.instances import Erratum
from udpm.claims.registry import Claim
from udpm.outputs import notebook, readme_block
from udpm.outputs.results import Outcome
from udpm.report import html as report_html

ROOT = Path(__file__).resolve().parent.parent
# Ported claims of every kind: tables (fig1a, fig1b), a bounded check (appB), an all-n proof with a bounded cross-check.
IDS = ["grs2011.fig1a", "grs2011.fig1b", "grs2011.appB", "zlcn2013.def6"]
FAST = [x for cid in IDS for x in ("--only", cid)]
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*https?://""", re.IGNORECASE)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(cwd / "reproduce.py"), *args, "--out", "build"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def copy_project(dest: Path) -> Path:
    """A throwaway copy of the code, paper_tables/ (with the figures) and README.md."""
    for name in ("udpm", "proofs", "experiments", "paper_tables"):
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("reproduce.py", "README.md"):
        shutil.copy(ROOT / name, dest / name)
    return dest


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Two `--report` runs of the same selection in one project copy: (project, [html of run 1, html of run 2])."""
    project = copy_project(tmp_path_factory.mktemp("project"))
    out = ["--out", str(project / "build")]  # the report goes where the run's outputs go
    pages = []
    for _ in range(2):
        proc = run(*FAST, "--report", *out, cwd=project)
        # Exit 1 may also mean a golden difference (paper_tables/expected.json), which is not the report's business;
        # the report itself must have been written, and no report failure printed.
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        assert "report failed" not in proc.stderr, proc.stderr
        assert "wrote" in proc.stdout and "report.html" in proc.stdout, proc.stdout + proc.stderr
        pages.append((project / "build" / "report.html").read_text(encoding="utf-8"))
    return project, pages


def test_report_shows_every_claim_with_status_and_evidence(reports):
    project, (page, _) = reports
    doc = json.loads((project / "build" / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == IDS
    claims_table = re.search(r'<table id="claims-table">.*?</table>', page, re.DOTALL).group(0)
    for c in doc["claims"]:
        card = re.search(rf'<section class="claim" id="{re.escape(c["id"])}">(.*?)</section>', page, re.DOTALL)
        assert card, f"no card for {c['id']}"
        assert f"status-{c['status']}" in card.group(1) and f"<dd>{c['evidence']}</dd>" in card.group(1)
        for kind, rows in c["grid"].items():  # one grid line per kind decided, with evidence.grid_text
            assert f"<b>{kind}</b>: {html.escape(grid_text(rows))}" in card.group(1), kind
        assert f"<dt>instances</dt><dd>{c['instances']['decided']} decided" in card.group(1)
        row = re.search(rf'<tr><td><a href="#{re.escape(c["id"])}">.*?</tr>', claims_table)
        assert row and c["status"] in row.group(0) and c["evidence"] in row.group(0)
        assert f"<td>{html.escape(c['scope'])}</td>" in row.group(0)
    assert 'id="summary-table"' in page and 'id="claims-table"' in page and 'id="status-legend"' in page
    assert "reproduced" in page and "proved" in page
    assert 'id="reach-table"' in page and "grs2011.appB</a> (3)" in page  # reach from grid["bounded"]
    assert "changed status since" in page or "No claim of this run changed status" in page
    assert page.count('src="data:image/png;base64,') >= 2  # the plots, inlined


def test_report_is_self_contained_with_no_external_urls(reports):
    _, (page, _) = reports
    assert not EXTERNAL.search(page), EXTERNAL.search(page).group(0)
    assert notebook.external_references(page) == []
    assert "<script" not in page and "<link" not in page  # no scripts, no stylesheets to fetch
    assert "cdnjs" not in page and "mathjax" not in page.lower()


def test_two_runs_give_the_same_report_except_timings(reports):
    _, (first, second) = reports
    assert notebook.TIMING_START in first  # timings are there, fenced
    assert notebook.strip_timings(first) == notebook.strip_timings(second)


def test_strip_timings_removes_only_the_fenced_part():
    page = f"a{notebook.TIMING_START}1.23 s{notebook.TIMING_END}b{notebook.TIMING_START}x\ny{notebook.TIMING_END}c"
    assert notebook.strip_timings(page) == "abc"
    other = page.replace("1.23", "4.56")
    assert notebook.strip_timings(other) == notebook.strip_timings(page)
    # a difference outside the fences is not hidden
    assert notebook.strip_timings(page.replace("b", "B")) != notebook.strip_timings(page)


@pytest.mark.parametrize(
    "bad",
    [
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>',
        "<link rel=stylesheet href=http://example.org/x.css>",
        '<img src="//example.org/x.png">',
        "<style>@font-face { src: url('https://fonts.example/x.woff') }</style>",
        "<style>@import 'http://example.org/y.css';</style>",
    ],
)
def test_external_reference_check_catches_network_loads(bad):
    """False variants of the offline check: each of these would fetch something."""
    assert notebook.external_references(f"<html>{bad}</html>"), bad
    assert not notebook.external_references('<a href="#grs2011.fig3">x</a><img src="data:image/png;base64,AAAA">')


def test_failing_cell_fails_with_a_one_line_error(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("RESULTS = ''")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [
        params,
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("raise ValueError('boom\\nsecond')"),
    ]
    path = tmp_path / "bad.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(notebook.ReportFailed) as info:
        notebook.execute_notebook(path, {"RESULTS": "r.json"}, timeout=60)
    msg = str(info.value)
    assert "\n" not in msg and "cell 3" in msg and "ValueError: boom" in msg


def test_a_cell_that_runs_too_long_fails_with_its_time_bound(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell("RESULTS = ''")
    params.metadata["tags"] = ["parameters"]
    nb.cells = [params, nbformat.v4.new_code_cell("import time\ntime.sleep(30)")]
    path = tmp_path / "slow.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(notebook.ReportFailed, match=r"cell 2 \[import time\] exceeded its 1 s time bound"):
        notebook.execute_notebook(path, {"RESULTS": "r.json"}, timeout=1)


def test_notebook_without_parameters_cell_is_rejected(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1")]
    with pytest.raises(notebook.ReportFailed, match="parameters"):
        notebook.inject_parameters(nb, {"RESULTS": "r.json"})


def test_failing_report_cell_makes_reproduce_exit_1(tmp_path):
    """End to end: a cell that raises fails the run (exit 1) with the cell's error on one line, no traceback."""
    import nbformat

    project = copy_project(tmp_path)
    path = project / "experiments" / "report.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell("raise RuntimeError('deliberately broken report cell')"))
    nbformat.write(nb, path)
    proc = run("--only", "zlcn2013.def6", "--report", cwd=project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if "report failed" in ln]
    assert len(lines) == 1 and "RuntimeError: deliberately broken report cell" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr and not (project / "build" / "report.html").exists()


def test_load_results_rejects_other_documents(tmp_path):
    bad = tmp_path / "r.json"
    bad.write_text('{"schema": 1, "claims": []}')
    with pytest.raises(notebook.ReportFailed, match="schema-2"):
        report_html.load_results(bad)
    with pytest.raises(notebook.ReportFailed, match="missing"):
        report_html.load_results(tmp_path / "nope.json")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(doc_of({"id": "gs2010.def1"})))
    assert report_html.load_results(good)["schema"] == 2


# ----------------------------------------------------------------------------------------------------------------------
# Helpers the notebook uses


def doc_of(*claims: dict, seconds: dict | None = None) -> dict:
    """A schema-2 results document; each claim defaults to a proved all-n claim of one symbolic instance."""
    base = {
        "paper": "",
        "where": "",
        "statement": "",
        "quote": "printed",
        "printed": {},
        "coverage": None,
        "status": "proved",
        "evidence": "all-n",
        "grid": {"all-n": [{"alphas": ["symbolic alpha in (0,1)"], "n": [None]}]},
        "samples": 0,
        "symbolic_alpha": True,
        "instances": {"decided": 1, "holds": 1, "counterexample": 0, "inconclusive": 0},
        "depends_on": [],
        "capped_by": None,
        "values": {},
        "counterexample": None,
        "certificate": None,
        "errata": [],
        "notes": "",
        "decisions": [],
        "expected": None,
        "problems": [],
    }
    out = []
    for c in claims:
        row = {**base, **c}
        row["paper"] = row["id"].split(".")[0]
        row.setdefault("scope", scope_text(row))
        out.append(row)
    return {
        "schema": 2,
        "run": {"quick": True, "seed": 0},
        "claims": out,
        "summary": {},
        "seconds": seconds if seconds is not None else {c["id"]: 0.0 for c in out},
    }


def decision(kind: str, n: int | None, alpha: str, method: str = "smt-unsat", outcome: str = "holds") -> dict:
    return {
        "n": n,
        "alpha": alpha,
        "kind": kind,
        "method": method,
        "covers": "every mechanism",
        "params": {},
        "outcome": outcome,
        "detail": "",
    }


BOUNDED = [{"alphas": ["1/2"], "n": [1, 2, 3, 4]}, {"alphas": ["1/3", "2/3", "1/10", "9/10"], "n": [1, 2, 3]}]
LEMMA = {
    "id": "grs2011.lemma5.3",
    "status": "verified",
    "evidence": "bounded",
    "grid": {"bounded": BOUNDED, "sampled": [{"alphas": ["1/2"], "n": [3]}]},
    "samples": 30,
    "symbolic_alpha": False,
    "instances": {"decided": 46, "holds": 45, "counterexample": 0, "inconclusive": 1},
    "decisions": [decision("bounded", 1, "1/2"), decision("bounded", 2, "1/2"), decision("sampled", 3, "1/2", "exact")],
    "depends_on": [{"id": "grs2011.lemma5.2", "status": "verified"}],
    "capped_by": "grs2011.lemma5.2",
}


def test_thm4_ratios_reads_the_structured_worst_ratios_value():
    rows = [
        {"alpha": "2", "n": 3, "ratio": "4/3"},
        {"alpha": "101/100", "n": 2, "ratio": "101/100"},
        {"alpha": "2", "n": 2, "ratio": "5/4"},
    ]
    doc = doc_of(
        {
            "id": "zlcn2013.thm4",
            # prose-named values are not parsed: only worst_ratios counts
            "values": {"worst_ratios": json.dumps(rows), "worst ratio at alpha=10": "20/11", "worst_ratio": "20/11"},
        }
    )
    claim, got = report_html.thm4_ratios(doc)
    assert claim["id"] == "zlcn2013.thm4"
    want = [("101/100", 2, "101/100"), ("2", 2, "5/4"), ("2", 3, "4/3")]
    assert [(r["alpha"], r["n"], r["ratio"]) for r in got] == want
    assert report_html.thm4_ratios(doc_of({"id": "gs2010.def1"})) == (None, [])
    assert report_html.thm4_ratios(doc_of({"id": "zlcn2013.thm4", "values": {}}))[1] == []


def test_family_groups_lemmas_by_section():
    assert report_html.family("grs2011.lemma5.3") == "grs2011.lemma5"
    assert report_html.family("gs2010.lemma1") == "gs2010.lemma1"
    assert report_html.family("grs2011.bayes-remap") == "grs2011.bayes-remap"


def test_reach_is_the_largest_n_of_the_bounded_grid():
    cross_checked = {  # an all-n proof with a bounded cross-check to n=8 counts; a sampled n=9 does not
        "id": "gs2010.def4",
        "grid": {
            "all-n": [{"alphas": ["symbolic alpha in (0,1)"], "n": [None]}],
            "bounded": [{"alphas": ["1/2"], "n": [2, 8]}, {"alphas": ["1/3"], "n": [None, 5]}],
            "sampled": [{"alphas": ["1/2"], "n": [9]}],
        },
    }
    doc = doc_of(LEMMA, {"id": "grs2011.ex2.1"}, cross_checked)
    assert [(r["id"], r["family"], r["n_max"]) for r in report_html.reach(doc)] == [
        ("grs2011.lemma5.3", "grs2011.lemma5", 4),
        ("gs2010.def4", "gs2010.def4", 8),
    ]
    page = report_html.reach_html(doc)
    assert "grs2011.lemma5.3</a> (4)" in page and "gs2010.def4</a> (8)" in page and "ex2.1" not in page
    assert "No claim in this run decided a bounded instance" in report_html.reach_html(doc_of({"id": "gs2010.def1"}))


def test_timings_come_from_the_document_seconds():
    doc = doc_of({"id": "gs2010.def1"}, {"id": "gs2010.def2"}, seconds={"gs2010.def1": 0.5, "gs2010.def2": 2.25})
    assert report_html.timings(doc) == [("gs2010.def1", 0.5), ("gs2010.def2", 2.25)]
    page = report_html.timing_table_html(doc)
    assert "Total check time 2.8 s" in page and page.index("gs2010.def2") < page.index("gs2010.def1")
    assert page.startswith(report_html.TIMING_START) and page.endswith(report_html.TIMING_END)


def test_claims_table_shows_the_scope_text():
    doc = doc_of(LEMMA, {"id": "grs2011.ex2.1"})
    page = report_html.claims_table_html(doc)
    assert "<td>alpha=1/2: n&lt;=4; 1/3, 2/3, 1/10, 9/10: n&lt;=3</td>" in page
    assert "<td>alpha=symbolic alpha in (0,1): all n</td>" in page
    sampled = doc_of(
        {
            "id": "gs2010.def1",
            "status": "tested",
            "evidence": "sampled",
            "samples": 30,
            "grid": {"sampled": [{"alphas": ["1/2"], "n": [1, 2, 3]}]},
        }
    )
    assert "<td>alpha=1/2: n&lt;=3 (K=30)</td>" in report_html.claims_table_html(sampled)


def test_card_shows_grid_per_kind_instances_dependencies_and_cap():
    card = report_html.claim_cards_html(doc_of(LEMMA))
    assert "<dt>grid</dt><dd><b>bounded</b>: alpha=1/2: n&lt;=4; 1/3, 2/3, 1/10, 9/10: n&lt;=3<br>" in card
    assert "<b>sampled</b>: alpha=1/2: n=3 (K=30)</dd>" in card
    assert "<dt>instances</dt><dd>46 decided: 45 hold, 1 inconclusive</dd>" in card
    assert '<dt>depends on</dt><dd><a href="#grs2011.lemma5.2">grs2011.lemma5.2</a> (verified)</dd>' in card
    assert '<dt>capped by</dt><dd><a href="#grs2011.lemma5.2">grs2011.lemma5.2</a>' in card
    assert '<td>bounded</td><td>smt-unsat</td><td>every mechanism</td><td class="num">2</td><td>2 holds</td>' in card
    plain = report_html.claim_cards_html(doc_of({"id": "grs2011.ex2.1", "instances": {"decided": 0}, "grid": {}}))
    assert "<dt>instances</dt><dd>none decided</dd>" in plain and "<dd>none</dd>" in plain
    assert "depends on" not in plain and "capped by" not in plain and "methods" not in plain


def test_legend_explains_every_status_and_the_grid():
    page = report_html.summary_html(doc_of(LEMMA))
    legend = re.search(r'<table id="status-legend".*?</table>', page, re.DOTALL).group(0)
    for status in report_html.STATUSES:
        assert f"status-{status}" in legend, status
    assert "<code>alpha=1/2: n&lt;=4; 1/3, 2/3: n&lt;=3</code> means" in page


def test_errata_summary_counts_errata_and_claims_plainly():
    e = {"entry": "[0][0]", "printed": "1", "correct": "2", "cls": "rounding", "explanation": ""}
    doc = doc_of(
        {"id": "gs2010.table1", "status": "erratum", "evidence": "table", "errata": [e] * 3},
        {"id": "gs2010.lemma1", "errata": [e]},
        {"id": "gs2010.lemma2", "errata": [e, e]},
    )
    assert report_html.errata_summary(doc) == "6 errata in 3 claims; 1 claim has status erratum"
    assert "6 errata in 3 claims; 1 claim has status erratum" in report_html.errata_html(doc)
    assert "6 errata in 3 claims; 1 claim has status erratum" in report_html.header_html(doc)
    two = doc_of(*(dict(c, status="erratum") for c in doc["claims"][:2]))
    assert report_html.errata_summary(two) == "4 errata in 2 claims; 2 claims have status erratum"
    assert report_html.errata_summary(doc_of({"id": "gs2010.def1"})) == "no errata"


def test_status_changes_since_the_baseline():
    doc = doc_of(LEMMA, {"id": "grs2011.ex2.1"}, {"id": "grs2011.new", "status": "tested"})
    baseline = {
        "label": "before X",
        "statuses": {"grs2011.lemma5.3": "proved", "grs2011.ex2.1": "proved", "grs2011.gone": "verified"},
        "reasons": {"grs2011.lemma5.3": "rests on lemma 5.2, now verified"},
    }
    rows = report_html.status_changes(doc, baseline)
    assert [(r["id"], r["before"], r["now"], r["why"]) for r in rows] == [
        ("grs2011.lemma5.3", "proved", "verified", "rests on lemma 5.2, now verified"),
        ("grs2011.new", "(new)", "tested", "reason not recorded"),
    ]
    page = report_html.changes_html(doc, baseline)
    assert "2 claims changed status since before X" in page and 'id="changes-table"' in page
    assert "No claim of this run changed status" in report_html.changes_html(doc_of({"id": "grs2011.ex2.1"}), baseline)
    assert "No status baseline" in report_html.changes_html(doc, None)


def test_the_real_baseline_loads():
    base = report_html.load_baseline()
    assert base is not None and base["label"] and base["statuses"]
    assert report_html.load_baseline(ROOT / "nope.json") is None


def test_figure_names_map_to_printed_items():
    assert report_html.figure_item("grs2011_fig3.png") == ("grs2011", "fig3")
    assert report_html.figure_item("gs2010.fig1-distribution.png") == ("gs2010", "fig1")
    assert report_html.figure_item("unrelated.png") is None


def test_values_and_statements_are_escaped():
    doc = doc_of({"id": "gs2010.def1", "statement": "<script>alert(1)</script>", "values": {"x": "a<b"}})
    page = report_html.claim_cards_html(doc)
    assert "<script>" not in page and "&lt;script&gt;" in page and "a&lt;b" in page


# ----------------------------------------------------------------------------------------------------------------------
# README results block


def outcome(cid: str, status: Status, errata: list[Erratum] = (), evidence: Evidence = Evidence.TABLE) -> Outcome:
    claim = Claim(cid, f"Where {cid}", "statement")
    grid = {str(evidence): [{"alphas": ["1/2"], "n": [3]}]}
    return Outcome(claim, Result(status, evidence, grid, errata=list(errata)), 1.5, str(status), [])


OUTCOMES = [
    outcome(
        "gs2010.table1",
        Status.ERRATUM,
        [
            Erratum("Table 1(a)[0][2]", "0.35", "7/20 | x", "rounding", "why"),
            Erratum("Table 1(b), scalar", "", "3/5", "extraction damage", "lost `scalar`"),
        ],
    ),
    outcome("grs2011.fig1a", Status.REPRODUCED),
    outcome("zlcn2013.thm4", Status.REFUTED, evidence=Evidence.BOUNDED),
    outcome("grs2011.ex2.1", Status.PROVED, evidence=Evidence.ALL_N),
]
BASELINE = {
    "label": "before the evidence was derived, commit 8b1995e",
    "statuses": {"gs2010.table1": "erratum", "grs2011.fig1a": "reproduced", "zlcn2013.thm4": "verified"},
    "reasons": {"zlcn2013.thm4": "the bounded search now covers n=4 | and finds a consumer"},
}


def block_of(readme: Path) -> str:
    return readme.read_text().split(notebook.README_START)[1].split(notebook.README_END)[0]


def write_baseline(path: Path, baseline: dict = BASELINE) -> Path:
    path.write_text(json.dumps(baseline))
    return path


def test_readme_block_counts_statuses_and_links_errata(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n## Results\n\n{notebook.README_START}\nold\n{notebook.README_END}\n\ntail\n")
    assert notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    text = readme.read_text()
    block = block_of(readme)
    assert text.startswith("# x\n\n## Results\n\n") and text.endswith(f"{notebook.README_END}\n\ntail\n")
    assert "old" not in block
    assert "| paper | proved | reproduced | erratum | refuted | total |" in block
    assert "| `grs2011` | 1 | 1 |  |  | 2 |" in block and "| `gs2010` |  |  | 1 |  | 1 |" in block
    assert "| **total** | **1** | **1** | **1** | **1** | **4** |" in block
    # errata counted by claim and class; each entry in full is in the report and ERRATA.md
    assert (
        "\n2 errata in 1 claim; 1 claim has status erratum: `gs2010.table1` (1 extraction damage, 1 rounding).\n"
        in block
    )
    assert "paper_tables/ERRATA.md" in block
    assert "`zlcn2013.thm4`" in block  # refuted claims are named
    assert "python reproduce.py --report" in block and "build/report.html" in block
    assert "1.5" not in block  # no timings
    assert "`` " not in block
    # byte-identical when nothing changes
    assert not notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    assert readme.read_text() == text


def test_readme_block_points_at_the_verdict_table_instead_of_repeating_it():
    block = readme_block.readme_results(json.loads(document_of(OUTCOMES)))
    assert "docs/verdicts.md" in block and not [ln for ln in block.splitlines() if ln.startswith("- ")]
    front = (ROOT / "README.md").read_text().split(notebook.README_START)[0]
    for status in report_html.STATUSES:
        assert f"`{status}`" in front, status


def test_the_readme_is_a_front_page_of_at_most_about_8_kb():
    assert len((ROOT / "README.md").read_bytes()) <= 8 * 1024


def changelog_of(path: Path) -> str:
    return path.read_text().split(readme_block.CHANGES_START)[1].split(readme_block.CHANGES_END)[0]


def test_status_changes_since_the_baseline_go_in_the_changelog_not_the_readme(tmp_path):
    readme, changelog = tmp_path / "README.md", tmp_path / "CHANGELOG.md"
    readme.write_text(f"{notebook.README_START}\n{notebook.README_END}\n")
    changelog.write_text(
        f"# Changelog\n\n### Status changes\n\n{readme_block.CHANGES_START}\n{readme_block.CHANGES_END}\n"
    )
    notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    assert "changed status" not in block_of(readme) and "baseline" not in block_of(readme)
    doc = json.loads(document_of(OUTCOMES))
    assert readme_block.refresh_changelog(doc, changelog, write_baseline(tmp_path / "b.json"))
    block = changelog_of(changelog)
    assert "\n2 claims changed status since before the evidence was derived, commit 8b1995e:\n" in block
    assert "| claim | before | now | why |" in block
    assert (
        "| [`zlcn2013.thm4`](build/report.html#zlcn2013.thm4) | verified | refuted | "
        "the bounded search now covers n=4 \\| and finds a consumer |" in block
    )
    # a new claim without a recorded reason: its place and statement, read from the record
    new_row = (
        "| [`grs2011.ex2.1`](build/report.html#grs2011.ex2.1) | (new) | proved | new (Where grs2011.ex2.1: statement) |"
    )
    assert new_row in block
    assert "gs2010.table1) | erratum" not in block  # unchanged claims are not listed
    assert changelog.read_text().startswith("# Changelog\n\n### Status changes\n\n")
    assert not readme_block.refresh_changelog(doc, changelog, tmp_path / "b.json")  # byte-identical, unchanged
    # no change: one plain line; no baseline file: said so
    same = {**BASELINE, "statuses": {o.claim.id: str(o.result.status) for o in OUTCOMES}}
    readme_block.refresh_changelog(doc, changelog, write_baseline(tmp_path / "b.json", same))
    assert "No claim changed status since before the evidence was derived" in changelog_of(changelog)
    readme_block.refresh_changelog(doc, changelog, tmp_path / "absent.json")
    assert "No status baseline" in changelog_of(changelog)


def test_the_changelog_command_refuses_a_partial_run_in_one_line(tmp_path, capsys):
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({"run": {"selection": ["gs2010.*"]}, "claims": []}))
    assert readme_block.main(["changelog", str(partial)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert readme_block.main(["changelog"]) == 2


def test_the_real_changelog_has_the_markers():
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.count(readme_block.CHANGES_START) == 1 and text.count(readme_block.CHANGES_END) == 1


def test_readme_block_changes_when_a_status_changes(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"{notebook.README_START}\n{notebook.README_END}\n")
    notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    before = readme.read_text()
    changed = [*OUTCOMES[:3], outcome("grs2011.ex2.1", Status.REFUTED, evidence=Evidence.ALL_N)]
    assert notebook.refresh_readme(changed, {"quick": True, "seed": 0}, readme)
    assert readme.read_text() != before and "**2**" in readme.read_text()


def test_readme_without_markers_is_an_error(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no markers\n")
    with pytest.raises(notebook.ReportFailed, match="results:start"):
        notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    assert not notebook.refresh_readme(OUTCOMES, {}, tmp_path / "absent.md")


def test_the_real_readme_has_the_markers():
    text = (ROOT / "README.md").read_text()
    assert text.count(notebook.README_START) == 1 and text.count(notebook.README_END) == 1


def document_of(outcomes: list[Outcome]) -> str:
    from udpm.outputs.results import document

    return document(outcomes, {"quick": True, "seed": 0})


def test_figures_are_embedded_beside_printed_values_and_missing_ones_noted(tmp_path):
    figures, printed = tmp_path / "figures", tmp_path / "printed"
    figures.mkdir()
    printed.mkdir()
    (figures / "grs2011_fig3.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 300)
    items = {
        "fig3a": {"where": "Figure 3(a)", "values": [["2/3", "0"], ["1/3", "0"]]},
        "fig30": {"where": "x", "values": "9"},
    }
    (printed / "grs2011.json").write_text(json.dumps({"paper": "grs2011", "items": items}))
    doc = doc_of({"id": "grs2011.fig3", "status": "reproduced"}, {"id": "grs2011.fig1a", "status": "reproduced"})
    page = report_html.figures_html(doc, figures, printed)
    assert 'id="figure-grs2011_fig3"' in page and 'src="data:image/png;base64,iVBORw0KGgo' in page
    assert "Figure 3(a)" in page and "<code>2/3</code>" in page and "fig30" not in page  # fig3 is not fig30
    assert 'No regenerated picture for <a href="#grs2011.fig1a">' in page
    assert "grs2011.fig3</a>;" not in page  # the pictured claim is not listed as missing
    empty = report_html.figures_html(doc, tmp_path / "none", printed)
    assert "No regenerated figures found" in empty and "<img" not in empty


def test_the_status_history_is_at_the_end_of_the_report(reports):
    page = reports[1][0]
    assert page.index('id="Status-history"') > page.index('id="Claim-cards"')
    assert "baseline" not in page[: page.index('id="Status-history"')]  # nothing of the harness's history before it
    assert "issue" not in page.lower()
