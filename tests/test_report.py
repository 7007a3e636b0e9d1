"""The reproduction report (udpm.notebook): build/report.html from `reproduce.py --report`, and the README block.

Report runs happen in a temporary copy of the project, so build/ and README.md of the
real tree are never touched.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from udpm import notebook
from udpm.claims import Claim, Erratum, Evidence, Result, Scope, Status
from udpm.report import Outcome

ROOT = Path(__file__).resolve().parent.parent
IDS = ["grs2011.fig1a", "grs2011.fig1b", "gs2010.appB", "zlcn2013.def6"]
FAST = [x for cid in IDS for x in ("--only", cid)]
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*https?://""", re.IGNORECASE)


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(cwd / "reproduce.py"), *args], cwd=cwd, capture_output=True, text=True, timeout=300
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
    pages = []
    for _ in range(2):
        proc = run(*FAST, "--report", cwd=project)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "wrote" in proc.stdout and "report.html" in proc.stdout
        pages.append((project / "build" / "report.html").read_text(encoding="utf-8"))
    return project, pages


def test_report_shows_every_claim_with_status_and_evidence(reports):
    project, (page, _) = reports
    doc = json.loads((project / "build" / "results.json").read_text())
    assert [c["id"] for c in doc["claims"]] == IDS
    for c in doc["claims"]:
        card = re.search(rf'<section class="claim" id="{re.escape(c["id"])}">(.*?)</section>', page, re.DOTALL)
        assert card, f"no card for {c['id']}"
        assert f"status-{c['status']}" in card.group(1) and f"<dd>{c['evidence']}</dd>" in card.group(1)
        row = re.search(rf'<tr><td><a href="#{re.escape(c["id"])}">.*?</tr>', page)
        assert row and c["status"] in row.group(0) and c["evidence"] in row.group(0)
    assert 'id="summary-table"' in page and 'id="claims-table"' in page
    assert "reproduced" in page and "proved" in page
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
    bad.write_text('{"schema": 2, "claims": []}')
    with pytest.raises(notebook.ReportFailed, match="schema-1"):
        notebook.load_results(bad)
    with pytest.raises(notebook.ReportFailed, match="missing"):
        notebook.load_results(tmp_path / "nope.json")


# ----------------------------------------------------------------------------------------------------------------------
# Helpers the notebook uses


def doc_of(*claims: dict) -> dict:
    base = {
        "paper": "",
        "where": "",
        "statement": "",
        "aim": "",
        "status": "proved",
        "evidence": "all-n",
        "scope": {"n_max": None, "alphas": [], "samples": None},
        "values": {},
        "counterexample": None,
        "certificate": None,
        "errata": [],
        "notes": "",
        "expected": None,
        "seconds": 0.0,
        "problems": [],
    }
    out = []
    for c in claims:
        row = {**base, **c}
        row["paper"] = row["id"].split(".")[0]
        out.append(row)
    return {"schema": 1, "run": {"quick": True, "seed": 0}, "claims": out, "summary": {}}


def test_thm4_ratios_reads_alpha_n_ratio_values():
    doc = doc_of(
        {
            "id": "zlcn2013.thm4",
            "values": {
                "worst_ratio[alpha=1/2,n=3]": "4/3",
                "worst_ratio[alpha=1/2,n=2]": "5/4",
                "worst_ratio[alpha=2/3,n=2]": "7/5",
                "consumer[alpha=1/2,n=3]": "omega=(1,0)",
                "ratio_bound": "2",
            },
        }
    )
    claim, rows = notebook.thm4_ratios(doc)
    assert claim["id"] == "zlcn2013.thm4"
    assert [(r["alpha"], r["n"], r["ratio"]) for r in rows] == [("1/2", 2, "5/4"), ("1/2", 3, "4/3"), ("2/3", 2, "7/5")]
    assert notebook.thm4_ratios(doc_of({"id": "gs2010.def1"})) == (None, [])


def test_thm4_ratios_per_alpha_only_and_ignores_threshold_ratios():
    doc = doc_of(
        {
            "id": "zlcn2013.thm4",
            "values": {
                "worst ratio at alpha=10": "20/11",
                "worst ratio at alpha=101/100": "101/100",
                "worst_ratio": "20/11",
                "threshold ratio n=2 theta=(0,1) alpha=2": "3/2",
                "worst_consumer": "n=3, theta=(1, 2), alpha=10",
            },
        }
    )
    _, rows = notebook.thm4_ratios(doc)
    assert [(r["alpha"], r["n"], r["ratio"]) for r in rows] == [("101/100", None, "101/100"), ("10", None, "20/11")]
    # several values for one (alpha, n) reduce to their maximum
    doc = doc_of(
        {
            "id": "zlcn2013.thm4",
            "values": {"ratio n=2 theta=(1,1) alpha=2": "5/4", "ratio n=2 theta=(1,2) alpha=2": "3/2"},
        }
    )
    assert [r["ratio"] for r in notebook.thm4_ratios(doc)[1]] == ["3/2"]


def test_family_groups_lemmas_by_section():
    assert notebook.family("grs2011.lemma5.3") == "grs2011.lemma5"
    assert notebook.family("gs2010.lemma1") == "gs2010.lemma1"
    assert notebook.family("grs2011.bayes-remap") == "grs2011.bayes-remap"
    doc = doc_of(
        {"id": "grs2011.lemma5.3", "scope": {"n_max": 6, "alphas": ["1/2"], "samples": None}}, {"id": "grs2011.ex2.1"}
    )
    assert [(r["id"], r["n_max"]) for r in notebook.reach(doc)] == [("grs2011.lemma5.3", 6)]


def test_figure_names_map_to_printed_items():
    assert notebook.figure_item("grs2011_fig3.png") == ("grs2011", "fig3")
    assert notebook.figure_item("gs2010.fig1-distribution.png") == ("gs2010", "fig1")
    assert notebook.figure_item("unrelated.png") is None


def test_values_and_statements_are_escaped():
    doc = doc_of({"id": "gs2010.def1", "statement": "<script>alert(1)</script>", "values": {"x": "a<b"}})
    page = notebook.claim_cards_html(doc)
    assert "<script>" not in page and "&lt;script&gt;" in page and "a&lt;b" in page


# ----------------------------------------------------------------------------------------------------------------------
# README results block


def outcome(cid: str, status: Status, errata: list[Erratum] = (), evidence: Evidence = Evidence.TABLE) -> Outcome:
    claim = Claim(cid, f"Where {cid}", "statement", "aim")
    return Outcome(claim, Result(status, evidence, Scope.of(3, ["1/2"]), errata=list(errata)), 1.5, str(status), [])


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


def test_readme_block_counts_statuses_and_links_errata(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\n## Results\n\n{notebook.README_START}\nold\n{notebook.README_END}\n\ntail\n")
    assert notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    text = readme.read_text()
    block = text.split(notebook.README_START)[1].split(notebook.README_END)[0]
    assert text.startswith("# x\n\n## Results\n\n") and text.endswith(f"{notebook.README_END}\n\ntail\n")
    assert "old" not in block
    assert "| paper | proved | reproduced | erratum | refuted | total |" in block
    assert "| `grs2011` | 1 | 1 |  |  | 2 |" in block and "| `gs2010` |  |  | 1 |  | 1 |" in block
    assert "| **total** | **1** | **1** | **1** | **1** | **4** |" in block
    assert "[`gs2010.table1`](build/report.html#gs2010.table1)" in block
    assert "`0.35` | `7/20 \\| x` | rounding |" in block  # printed, correct (pipes escaped), class
    assert "| Table 1(b), scalar | (empty) | `3/5` | extraction damage |" in block
    assert "[`zlcn2013.thm4`](build/report.html#zlcn2013.thm4)" in block  # refuted claims are linked
    assert "python reproduce.py --report" in block and "build/report.html" in block
    assert "1.5" not in block  # no timings
    assert "| `0.35` |" in block and "`` " not in block
    # byte-identical when nothing changes
    assert not notebook.refresh_readme(OUTCOMES, {"quick": True, "seed": 0}, readme)
    assert readme.read_text() == text


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
    page = notebook.figures_html(doc, figures, printed)
    assert 'id="figure-grs2011_fig3"' in page and 'src="data:image/png;base64,iVBORw0KGgo' in page
    assert "Figure 3(a)" in page and "<code>2/3</code>" in page and "fig30" not in page  # fig3 is not fig30
    assert 'No regenerated picture for <a href="#grs2011.fig1a">' in page
    assert "grs2011.fig3</a>;" not in page  # the pictured claim is not listed as missing
    empty = notebook.figures_html(doc, tmp_path / "none", printed)
    assert "No regenerated figures found" in empty and "<img" not in empty
