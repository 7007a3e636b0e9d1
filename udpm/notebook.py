"""The reproduction report (``build/report.html``) and the README's results block.

``python reproduce.py --report`` calls :func:`render_report`.  It writes the run's
results document (schema 1, :func:`udpm.report.document`) to ``build/results.json``,
executes ``experiments/report.ipynb`` headlessly with nbclient and exports one
self-contained ``build/report.html`` with nbconvert: no input cells, no scripts,
images inlined as base64, no external URLs.  The notebook reads only that JSON,
the verbatim printed values (``paper_tables/printed``) and the regenerated figure
PNGs (``paper_tables/figures``); it recomputes nothing the run already has.

The kernel is the running interpreter: a throwaway kernelspec pointing at
``sys.executable -m ipykernel_launcher`` (ipykernel is a dependency of the
project), so no globally installed ``python3`` kernelspec is needed or used.
Each cell has a time bound.  A failing cell, a timeout or a dead kernel raises
:class:`ReportFailed` with one line naming the cell and its error;
``reproduce.py`` prints it and exits 1.

The HTML pieces the notebook displays are built here, so they can be tested
without a kernel.  Everything in the page is deterministic except timings, which
are fenced by :data:`TIMING_START` / :data:`TIMING_END` (see :func:`strip_timings`).

:func:`refresh_readme` regenerates the text between ``<!-- results:start -->`` and
``<!-- results:end -->`` in README.md on full runs; it is byte-identical when the
results do not change.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import os
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

from .errors import HarnessError
from .tables import PAPER_TABLES, ROOT

BUILD = ROOT / "build"
NOTEBOOK = ROOT / "experiments" / "report.ipynb"
FIGURES = PAPER_TABLES / "figures"
PRINTED = PAPER_TABLES / "printed"
README = ROOT / "README.md"
CELL_TIMEOUT = 180  # seconds per notebook cell
STARTUP_TIMEOUT = 120  # seconds for the kernel to start

PAPERS = ("grs2011", "grs2009", "gs2010", "zlcn2013")
STATUSES = ("proved", "verified", "tested", "reproduced", "erratum", "refuted", "inconclusive", "error", "pending")
EVIDENCE = ("all-n", "bounded", "sampled", "table", "none")
STATUS_COLOURS = {
    "proved": "#116329",
    "verified": "#1a7f37",
    "tested": "#0a6b74",
    "reproduced": "#0550ae",
    "erratum": "#9a6700",
    "refuted": "#cf222e",
    "inconclusive": "#8250df",
    "error": "#82071e",
    "pending": "#6e7781",
}
TIMING_START = "<!--timing-->"
TIMING_END = "<!--/timing-->"
README_START = "<!-- results:start -->"
README_END = "<!-- results:end -->"
REPORT_LINK = "build/report.html"
VALUE_CHARS = 600  # longer values are cut in the report (the JSON has them whole)


class ReportFailed(HarnessError):
    """The report notebook could not be executed or exported; the message names the cell and its error."""


# ----------------------------------------------------------------------------------------------------------------------
# render_report: results.json -> executed notebook -> report.html


def render_report(
    outcomes: Sequence[object],
    run_info: Mapping[str, object],
    *,
    build: Path = BUILD,
    notebook: Path = NOTEBOOK,
    timeout: int = CELL_TIMEOUT,
) -> Path:
    """Write build/results.json, execute the report notebook on it and export build/report.html; return its path."""
    from .expectations import atomic_write
    from .report import document

    results = build / "results.json"
    atomic_write(results, document(outcomes, run_info))
    params = {"RESULTS": str(results), "ROOT": str(ROOT), "FIGURES": str(FIGURES), "PRINTED": str(PRINTED)}
    executed = execute_notebook(notebook, params, timeout=timeout)
    import nbformat

    atomic_write(build / "report.ipynb", nbformat.writes(executed))
    page = export_html(executed)
    path = build / "report.html"
    atomic_write(path, page)
    for written in (results, build / "report.ipynb", path):
        written.chmod(0o644)
    return path


def execute_notebook(path: Path, params: Mapping[str, str], *, timeout: int = CELL_TIMEOUT) -> object:
    """Run the notebook at ``path`` in a fresh kernel of this interpreter, with ``params`` injected; return it."""
    try:
        import nbformat
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
    except ImportError as exc:
        raise ReportFailed(f"the report needs nbclient and ipykernel ({exc}); run: pip install -e .") from None
    try:
        import ipykernel  # noqa: F401
    except ImportError:
        raise ReportFailed("ipykernel is not installed for this interpreter; run: pip install -e .") from None
    try:
        nb = nbformat.read(str(path), as_version=4)
    except FileNotFoundError:
        raise ReportFailed(f"the report notebook {path} is missing") from None
    except Exception as exc:
        raise ReportFailed(f"the report notebook {path} is not a valid notebook: {_one_line(exc)}") from None
    inject_parameters(nb, params)

    with tempfile.TemporaryDirectory(prefix="udpm-kernel-") as tmp:
        kernels = Path(tmp) / "kernels"
        spec = kernels / "udpm"
        spec.mkdir(parents=True)
        env = {
            "PYTHONHASHSEED": "0",
            "MPLBACKEND": "Agg",
            "IPYTHONDIR": str(Path(tmp) / "ipython"),  # no user startup files or profiles
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            "JUPYTER_PLATFORM_DIRS": "1",
        }
        kernel = {
            "argv": [sys.executable, "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "udpm (this interpreter)",
            "language": "python",
            "env": env,
        }
        (spec / "kernel.json").write_text(json.dumps(kernel), encoding="utf-8")
        ksm = KernelSpecManager(kernel_dirs=[str(kernels)], ensure_native_kernel=False)
        # IPC sockets in the temporary directory: nothing listens on TCP, nothing is left in the project.
        sockets = {"transport": "ipc", "ip": str(Path(tmp) / "ipc")} if os.name == "posix" else {}
        # The async manager: with a blocking one nbclient's per-cell timeout never fires (its waits block the loop).
        km = AsyncKernelManager(kernel_name="udpm", kernel_spec_manager=ksm, **sockets)
        client = NotebookClient(
            nb,
            km=km,
            kernel_name="udpm",
            timeout=timeout,
            startup_timeout=STARTUP_TIMEOUT,
            allow_errors=False,
            record_timing=False,
            resources={"metadata": {"path": str(ROOT)}},
        )
        try:
            client.execute(cleanup_kc=True)  # shut the kernel down even though we made its manager
        except CellTimeoutError:
            raise ReportFailed(f"report notebook cell {_failed_cell(nb)} exceeded its {timeout} s time bound") from None
        except CellExecutionError as exc:
            raise ReportFailed(
                f"report notebook cell {_failed_cell(nb)} failed: {exc.ename}: {_one_line(exc.evalue)}"
            ) from None
        except DeadKernelError as exc:
            raise ReportFailed(f"the report kernel died: {_one_line(exc)}") from None
        except (RuntimeError, OSError, TimeoutError) as exc:
            raise ReportFailed(f"the report kernel could not run: {type(exc).__name__}: {_one_line(exc)}") from None
    return nb


def inject_parameters(nb: object, params: Mapping[str, str]) -> None:
    """Papermill-style: insert a cell assigning ``params`` right after the cell tagged ``parameters``."""
    import nbformat

    cells = nb.cells
    at = next((k for k, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", [])), None)
    if at is None:
        raise ReportFailed("the report notebook has no cell tagged 'parameters'")
    source = "\n".join(f"{k} = {v!r}" for k, v in params.items())
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]})
    cell.id = "injected-parameters"
    cells.insert(at + 1, cell)


def _failed_cell(nb: object) -> str:
    """'<k> [<first line of its source>]' for the first code cell (k counts code cells of the file) that failed."""
    code = 0
    for cell in nb.cells:
        if cell.cell_type != "code" or "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            continue
        code += 1
        if any(o.get("output_type") == "error" for o in cell.get("outputs", [])) or cell.get("execution_count") is None:
            first = next((ln for ln in cell.source.splitlines() if ln.strip() and not ln.startswith("#")), "")
            return f"{code} [{first.strip()[:60]}]"
    return "?"


def _one_line(x: object) -> str:
    lines = [ln.strip() for ln in str(x).strip().splitlines() if ln.strip()]
    return lines[0][:300] if lines else type(x).__name__


def export_html(nb: object) -> str:
    """One self-contained HTML page: nbconvert's ``basic`` body (outputs only) inside a fixed page with inline CSS."""
    import nbconvert
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    config = Config()
    config.TagRemovePreprocessor.remove_cell_tags = {"parameters", "injected-parameters"}
    config.TagRemovePreprocessor.enabled = True
    # nbconvert's templates are data files under <prefix>/share/jupyter; name the prefix nbconvert was installed
    # into as well, for interpreters whose sys.prefix differs from it (a --user install, a venv sharing packages).
    from jupyter_core.paths import jupyter_path

    installed = Path(nbconvert.__file__).resolve().parents[4] / "share" / "jupyter"
    searched = [Path(d).resolve() for d in jupyter_path()]
    saved = os.environ.get("JUPYTER_PATH")
    if (installed / "nbconvert" / "templates").is_dir() and installed not in searched:
        os.environ["JUPYTER_PATH"] = os.pathsep.join(x for x in (str(installed), saved) if x)
    try:
        exporter = HTMLExporter(
            config=config,
            template_name="basic",
            exclude_input=True,
            exclude_input_prompt=True,
            exclude_output_prompt=True,
            anchor_link_text="¶",
        )
        body, _ = exporter.from_notebook_node(nb)
    except Exception as exc:  # a missing template, a broken output: one line, no traceback
        raise ReportFailed(f"nbconvert could not export the report: {type(exc).__name__}: {_one_line(exc)}") from None
    finally:
        if saved is None:
            os.environ.pop("JUPYTER_PATH", None)
        else:
            os.environ["JUPYTER_PATH"] = saved
    page = _PAGE.format(css=_CSS, body=body.strip())
    problems = external_references(page)
    if problems:
        raise ReportFailed(f"the report would load external resources: {', '.join(problems[:3])}")
    return page


_EXTERNAL = re.compile(
    r"""(?:\b(?:src|href|action|poster|srcset|data|xlink:href)\s*=\s*["']?\s*(?:https?:)?//[^\s"'>]*)"""
    r"""|(?:url\(\s*["']?\s*(?:https?:)?//[^)]*\))|(?:@import\s+["']?(?:https?:)?//[^\s;]*)""",
    re.IGNORECASE,
)


def external_references(page: str) -> list[str]:
    """Every attribute or CSS reference in ``page`` that would fetch something over the network."""
    return _EXTERNAL.findall(page)


def strip_timings(page: str) -> str:
    """``page`` without its timing fences (the only part that may differ between two identical runs)."""
    return re.sub(re.escape(TIMING_START) + ".*?" + re.escape(TIMING_END), "", page, flags=re.DOTALL)


_CSS = (
    """
body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; font-size: 14px; line-height: 1.45;
       color: #1f2328; margin: 0 auto; max-width: 1180px; padding: 1em 2em 4em; }
h1 { font-size: 1.9em; border-bottom: 2px solid #d0d7de; padding-bottom: .2em; }
h2 { font-size: 1.45em; border-bottom: 1px solid #d0d7de; margin-top: 2em; padding-bottom: .15em; }
h3 { font-size: 1.15em; margin-top: 1.5em; }
a { color: #0550ae; text-decoration: none; } a:hover { text-decoration: underline; }
a.anchor-link { display: none; }
table { border-collapse: collapse; margin: .6em 0 1em; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: bold; background: #f6f8fa; }
tr.paper td { background: #eaeef2; font-weight: bold; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .92em; }
pre { white-space: pre-wrap; word-break: break-word; background: #f6f8fa; padding: .5em; margin: .3em 0; }
.status { display: inline-block; color: #fff; border-radius: 3px; padding: 0 .45em; font-size: .9em; }
"""
    + "".join(f".status-{s} {{ background: {c}; }}\n" for s, c in STATUS_COLOURS.items())
    + """
.note { color: #57606a; font-style: italic; }
.problem { color: #cf222e; font-weight: bold; }
section.claim { border: 1px solid #d0d7de; border-radius: 6px; padding: .4em 1em .6em; margin: .8em 0; }
section.claim:target { border-color: #0969da; box-shadow: 0 0 0 3px #b6e3ff; }
section.claim h4 { margin: .3em 0; font-size: 1.05em; }
section.claim dl { display: grid; grid-template-columns: 11em 1fr; gap: .15em .8em; margin: .4em 0; }
section.claim dt { color: #57606a; } section.claim dd { margin: 0; overflow-x: auto; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eaeef2; }
figcaption { color: #57606a; font-size: .92em; }
.pair { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
.pair > * { flex: 1 1 420px; min-width: 0; }
nav.toc ul { columns: 2; }
"""
)

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>udpm reproduction report</title>
<style>{css}</style>
</head>
<body>
<main id="report">
{body}
</main>
</body>
</html>
"""


# ----------------------------------------------------------------------------------------------------------------------
# Reading the results document


def load_results(path: str | os.PathLike) -> dict:
    """The results document written by reproduce.py (schema 1)."""
    p = Path(path)
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ReportFailed(f"{p} is missing; run: python reproduce.py --report") from None
    except json.JSONDecodeError as exc:
        raise ReportFailed(f"{p} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(doc, dict) or doc.get("schema") != 1 or not isinstance(doc.get("claims"), list):
        raise ReportFailed(f"{p} is not a schema-1 results document")
    return doc


def esc(x: object) -> str:
    return html.escape(str(x), quote=True)


def badge(status: str) -> str:
    return f'<span class="status status-{esc(status)}">{esc(status)}</span>'


def claim_link(cid: str, href_prefix: str = "") -> str:
    return f'<a href="{esc(href_prefix)}#{esc(cid)}">{esc(cid)}</a>'


def scope_text(scope: Mapping[str, object] | None) -> str:
    """'n ≤ 5, α ∈ {1/2, 1/3}, K = 200', or '—' when the claim has no scope (e.g. all-n)."""
    scope = scope or {}
    parts = []
    if scope.get("n_max") is not None:
        parts.append(f"n ≤ {scope['n_max']}")
    if scope.get("alphas"):
        parts.append("α ∈ {" + ", ".join(str(a) for a in scope["alphas"]) + "}")
    if scope.get("samples") is not None:
        parts.append(f"K = {scope['samples']}")
    return ", ".join(parts) or "—"


def _ordered(keys: Iterable[str], order: Sequence[str]) -> list[str]:
    keys = set(keys)
    return [k for k in order if k in keys] + sorted(keys - set(order))


def _table(
    head: Sequence[str], rows: Iterable[Sequence[str]], *, id: str = "", cls: str = "", num: Iterable[int] = ()
) -> str:
    """An HTML table from already-escaped cells; columns in ``num`` are right-aligned."""
    num = set(num)
    attrs = (f' id="{esc(id)}"' if id else "") + (f' class="{esc(cls)}"' if cls else "")
    out = [f"<table{attrs}>", "<thead><tr>"]
    right = ' class="num"'
    out += [f"<th{right if k in num else ''}>{h}</th>" for k, h in enumerate(head)]
    out.append("</tr></thead><tbody>")
    for row in rows:
        tr_cls = ""
        if isinstance(row, tuple) and len(row) == 2 and isinstance(row[0], str) and row[0].startswith("class="):
            tr_cls, row = f" {row[0]}", row[1]
        cells = "".join(f"<td{right if k in num else ''}>{c}</td>" for k, c in enumerate(row))
        out.append(f"<tr{tr_cls}>{cells}</tr>")
    out.append("</tbody></table>")
    return "".join(out)


# ----------------------------------------------------------------------------------------------------------------------
# The report's sections (each returns an HTML fragment)


def header_html(doc: Mapping) -> str:
    run = doc.get("run", {})
    mode = "quick (CI-sized) scopes" if run.get("quick", True) else "full scopes (--full)"
    sel = run.get("selection")
    selection = (
        "all claims"
        if not sel and not run.get("paper")
        else "selection "
        + ", ".join(
            [
                *(f"<code>{esc(s)}</code>" for s in (sel or [])),
                *([f"paper <code>{esc(run['paper'])}</code>"] if run.get("paper") else []),
            ]
        )
    )
    s = doc.get("summary", {})
    failures = s.get("failures", 0)
    verdict = (
        '<span class="problem">'
        f"{failures} claim(s) differ from paper_tables/expected.json or did not finish (see the claim cards)</span>"
        if failures
        else "every claim matches its stored expectation (paper_tables/expected.json)"
    )
    return (
        f'<p class="run">Run: {mode}, seed {esc(run.get("seed", 0))}, {selection}: '
        f"{len(doc['claims'])} claims, {s.get('errata', 0)} errata; {verdict}.</p>"
    )


def summary_html(doc: Mapping) -> str:
    """Counts per paper and status (with totals), and per paper and evidence kind."""
    claims = doc["claims"]
    papers = _ordered({c["paper"] for c in claims}, PAPERS)
    statuses = _ordered({c["status"] for c in claims}, STATUSES)
    by = Counter((c["paper"], c["status"]) for c in claims)
    rows = []
    for p in papers:
        counts = [by[p, s] for s in statuses]
        rows.append([esc(p), *(str(n) if n else "" for n in counts), str(sum(counts))])
    totals = [sum(by[p, s] for p in papers) for s in statuses]
    rows.append(('class="total"', ["total", *(str(n) for n in totals), str(sum(totals))]))
    head = ["paper", *(badge(s) for s in statuses), "claims"]
    table1 = _table(head, rows, id="summary-table", cls="summary", num=range(1, len(head)))

    evidences = _ordered({c["evidence"] for c in claims}, EVIDENCE)
    byev = Counter((c["paper"], c["evidence"]) for c in claims)
    rows2 = [[esc(p), *(str(byev[p, e]) if byev[p, e] else "" for e in evidences)] for p in papers]
    rows2.append(('class="total"', ["total", *(str(sum(byev[p, e] for p in papers)) for e in evidences)]))
    table2 = _table(
        ["paper", *(esc(e) for e in evidences)], rows2, id="evidence-table", num=range(1, len(evidences) + 1)
    )
    return (
        "<h3>Claims per paper and status</h3>"
        + table1
        + "<h3>Claims per paper and kind of evidence</h3>"
        + '<p class="note">all-n: symbolic, every n; bounded: every n ≤ n_max at the listed α; sampled: K random '
        "instances checked exactly; table: a printed table recomputed exactly; none: not implemented or no verdict.</p>"
        + table2
    )


def claims_table_html(doc: Mapping) -> str:
    """One row per claim: id (link to its card), place in the paper, status, evidence, scope, golden check."""
    rows = []
    claims = doc["claims"]
    for p in _ordered({c["paper"] for c in claims}, PAPERS):
        rows.append(('class="paper"', [esc(p), "", "", "", "", ""]))
        for c in (c for c in claims if c["paper"] == p):
            check = '<span class="problem">✗ differs</span>' if c.get("problems") else "✓"
            if c.get("expected") is None and not c.get("problems"):
                check = "—"
            rows.append(
                [
                    claim_link(c["id"]),
                    esc(c.get("where", "")),
                    badge(c["status"]),
                    esc(c["evidence"]),
                    esc(scope_text(c.get("scope"))),
                    check,
                ]
            )
    return _table(["claim", "where", "status", "evidence", "scope", "expected"], rows, id="claims-table")


def _value_html(v: object, limit: int = VALUE_CHARS) -> str:
    s = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    if len(s) > limit:
        s = s[:limit] + f" … ({len(s) - limit} more characters; whole value in build/results.json)"
    return f"<code>{esc(s)}</code>"


def claim_cards_html(doc: Mapping, paper: str | None = None) -> str:
    """A card per claim (anchor = claim id): statement, status, evidence, scope, values, counterexample, errata."""
    out = []
    for c in doc["claims"]:
        if paper is not None and c["paper"] != paper:
            continue
        items = [
            ("statement", esc(c.get("statement", ""))),
            (
                "status",
                badge(c["status"])
                + (f" (expected {esc(c['expected'])})" if c.get("expected") not in (None, c["status"]) else ""),
            ),
            ("evidence", esc(c["evidence"])),
            ("scope", esc(scope_text(c.get("scope")))),
            ("aim (catalog)", esc(c.get("aim", ""))),
        ]
        if c.get("counterexample"):
            items.append(("counterexample", f"<pre>{esc(c['counterexample'])}</pre>"))
        values = c.get("values") or {}
        if values:
            items.append(
                ("values", _table(["name", "exact value"], ([esc(k), _value_html(v)] for k, v in values.items())))
            )
        if c.get("certificate"):
            items.append(("certificate", _value_html(c["certificate"])))
        if c.get("errata"):
            items.append(
                (
                    "errata",
                    _table(
                        ["location", "printed", "correct", "class", "explanation"],
                        (
                            [
                                esc(e["entry"]),
                                _value_html(e["printed"]),
                                _value_html(e["correct"]),
                                esc(e["cls"]),
                                esc(e["explanation"]),
                            ]
                            for e in c["errata"]
                        ),
                    ),
                )
            )
        if c.get("notes"):
            items.append(("notes", f"<pre>{esc(c['notes'])}</pre>"))
        if c.get("problems"):
            items.append(("run problems", "".join(f'<div class="problem">{esc(p)}</div>' for p in c["problems"])))
        body = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
        out.append(
            f'<section class="claim" id="{esc(c["id"])}"><h4>{esc(c["id"])} {badge(c["status"])} '
            f"<small>{esc(c.get('where', ''))}</small></h4><dl>{body}</dl></section>"
        )
    return "".join(out) or '<p class="note">No claims in this run.</p>'


def errata(doc: Mapping) -> list[tuple[dict, dict]]:
    """(claim, erratum) pairs in paper order."""
    order = {p: k for k, p in enumerate(PAPERS)}
    claims = sorted(doc["claims"], key=lambda c: (order.get(c["paper"], len(PAPERS)), c["id"]))
    return [(c, e) for c in claims for e in c.get("errata") or []]


def errata_html(doc: Mapping) -> str:
    pairs = errata(doc)
    if not pairs:
        return '<p class="note">No errata in this run: every checked printed value equals its exact recomputation.</p>'
    rows = (
        [
            claim_link(c["id"]),
            esc(_location(c, e)),
            _value_html(e["printed"], 200),
            _value_html(e["correct"], 200),
            esc(e["cls"]),
            esc(e["explanation"]),
        ]
        for c, e in pairs
    )
    counts = Counter(e["cls"] for _, e in pairs)
    head = f"<p>{len(pairs)} errata: " + ", ".join(f"{n} {esc(k)}" for k, n in sorted(counts.items())) + ".</p>"
    return head + _table(
        ["claim", "location", "printed", "correct (exact)", "class", "explanation"], rows, id="errata-table"
    )


# ----------------------------------------------------------------------------------------------------------------------
# Figures: the regenerated PNGs next to the printed values


_FIGURE_NAME = re.compile(r"^(grs2009|grs2011|gs2010|zlcn2013)[._-]+([A-Za-z]+\d*(?:\.\d+)?)")


def figure_item(name: str) -> tuple[str, str] | None:
    """('grs2011', 'fig3') from a figure file name like grs2011_fig3.png or grs2011.fig3-heatmap.png."""
    m = _FIGURE_NAME.match(Path(name).stem.lower())
    return (m.group(1), m.group(2)) if m else None


def _printed_items(printed_dir: Path, paper: str, item: str) -> list[tuple[str, dict]]:
    path = Path(printed_dir) / f"{paper}.json"
    try:
        items = json.loads(path.read_text(encoding="utf-8")).get("items", {})
    except (OSError, json.JSONDecodeError):
        return []
    pat = re.compile(rf"^{re.escape(item)}(?:[a-z]|[._-]|$)")
    return [(k, v) for k, v in sorted(items.items()) if pat.match(k) and isinstance(v, dict)]


def printed_html(key: str, item: Mapping) -> str:
    """A printed item exactly as transcribed (strings verbatim)."""
    vals = item.get("values")
    if isinstance(vals, list) and vals and all(isinstance(r, list) for r in vals):
        width = max(len(r) for r in vals)
        body = _table(
            [""] + [str(j) for j in range(width)],
            ([str(i), *(f"<code>{esc(x)}</code>" for x in r)] for i, r in enumerate(vals)),
            cls="printed",
        )
    elif isinstance(vals, list):
        body = _table([str(j) for j in range(len(vals))], [[f"<code>{esc(x)}</code>" for x in vals]], cls="printed")
    else:
        body = _value_html(vals, 1500)
    parts = [f"<h4>printed: <code>{esc(key)}</code> — {esc(item.get('where', ''))}</h4>"]
    if item.get("caption"):
        parts.append(f"<p>{esc(item['caption'])}</p>")
    if item.get("rows") or item.get("columns"):
        parts.append(
            f'<p class="note">rows: {esc(item.get("rows", "—"))}; columns: {esc(item.get("columns", "—"))}</p>'
        )
    parts.append(body)
    if item.get("note"):
        parts.append(f'<p class="note">transcription note: {esc(item["note"])}</p>')
    return "".join(parts)


def png_html(png: bytes, anchor: str, caption: str, alt: str | None = None) -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure id="{esc(anchor)}"><img alt="{esc(alt or caption)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{caption}</figcaption></figure>"
    )


def figures_html(doc: Mapping, figures_dir: str | os.PathLike, printed_dir: str | os.PathLike) -> str:
    """Each regenerated figure PNG beside the printed values of its item and the status of its claim."""
    fdir = Path(figures_dir)
    pngs = sorted(fdir.glob("*.png")) if fdir.is_dir() else []
    claims = {c["id"]: c for c in doc["claims"]}
    pictured: set[str] = set()
    out = []
    for png in pngs:
        found = figure_item(png.name)
        caption = f"<code>paper_tables/figures/{esc(png.name)}</code>"
        side = '<p class="note">No printed item matches this figure\'s name.</p>'
        if found:
            paper, item = found
            ids = [cid for cid in claims if cid == f"{paper}.{item}" or cid.startswith(f"{paper}.{item}")]
            pictured.update(ids)
            if ids:
                caption += " — " + ", ".join(f"{claim_link(i)} {badge(claims[i]['status'])}" for i in ids)
            items = _printed_items(Path(printed_dir), paper, item)
            if items:
                side = "".join(printed_html(k, v) for k, v in items)
        out.append(
            f'<div class="pair">{png_html(png.read_bytes(), f"figure-{png.stem}", caption, png.stem)}'
            f"<div>{side}</div></div>"
        )
    if not pngs:
        out.append(
            '<p class="note">No regenerated figures found in paper_tables/figures/ (they are written by '
            "<code>python -m experiments.figures</code>).</p>"
        )
    missing = [cid for cid in claims if re.match(r"fig\d", cid.partition(".")[2]) and cid not in pictured]
    if missing:
        out.append(
            '<p class="note">No regenerated picture for '
            + ", ".join(claim_link(cid) for cid in missing)
            + "; their printed and exact values are in the claim cards.</p>"
        )
    return "".join(out)


def figure_png(fig: object, dpi: int = 100) -> bytes:
    """Deterministic PNG bytes of a matplotlib figure (no software/date metadata); closes the figure."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def plot_html(fig: object, anchor: str, caption: str, *, timing: bool = False) -> str:
    """A matplotlib figure inlined as a base64 PNG; ``timing`` fences it as run-dependent."""
    out = png_html(figure_png(fig), anchor, caption, alt=re.sub("<[^>]+>", "", caption))
    return f"{TIMING_START}{out}{TIMING_END}" if timing else out


# ----------------------------------------------------------------------------------------------------------------------
# Data for the plots (read from the results document, nothing recomputed)


def laplace_factor(a: float) -> float:
    """grs2011 Theorem A.2's approximation factor (1+a)/(2 sqrt a) of the Laplace mechanism (for plotting)."""
    return (1 + a) / (2 * math.sqrt(a))


def family(cid: str) -> str:
    """The lemma family of a claim id: paper plus the item kind and section, e.g. grs2011.lemma5.3 -> grs2011.lemma5."""
    paper, _, local = cid.partition(".")
    m = re.match(r"[A-Za-z-]+\d*", local)
    return f"{paper}.{m.group(0) if m else local}"


def reach(doc: Mapping) -> list[dict]:
    """Claims whose scope has an n_max: id, family, n_max, status, evidence (catalog order)."""
    return [
        {
            "id": c["id"],
            "family": family(c["id"]),
            "n_max": c["scope"]["n_max"],
            "status": c["status"],
            "evidence": c["evidence"],
        }
        for c in doc["claims"]
        if (c.get("scope") or {}).get("n_max") is not None
    ]


def reach_html(doc: Mapping) -> str:
    rows = reach(doc)
    if not rows:
        return '<p class="note">No claim in this run reports a bounded scope (n_max).</p>'
    fams: dict[str, list[dict]] = {}
    for r in rows:
        fams.setdefault(r["family"], []).append(r)
    table = (
        [
            esc(f),
            str(min(r["n_max"] for r in rs)),
            str(max(r["n_max"] for r in rs)),
            ", ".join(f"{claim_link(r['id'])} ({r['n_max']})" for r in rs),
        ]
        for f, rs in fams.items()
    )
    return _table(["family", "smallest n_max", "largest n_max", "claims (n_max)"], table, id="reach-table", num=(1, 2))


_NUM = r"(\d+(?:/\d+)?|\d*\.\d+)"
_ALPHA_KEY = re.compile(r"(?<![A-Za-z])(?:alpha|a)\s*[=:]\s*" + _NUM, re.IGNORECASE)
_N_KEY = re.compile(r"(?<![A-Za-z])n\s*[=:]\s*(\d+)(?![\d/.])", re.IGNORECASE)


def _number(s: str) -> Fraction | None:
    """An exact number from a value string ('4/3', '2', '1.25'), else None."""
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):
        return None


def thm4_ratios(doc: Mapping, claim_id: str = "zlcn2013.thm4") -> tuple[dict | None, list[dict]]:
    """The worst count-range approximation ratios that zlcn2013.thm4 reported, per alpha (and per n when given).

    A value counts when its name mentions a ratio (not a threshold ratio, which Theorem 7 makes 1) and an alpha
    (``alpha=2``), optionally an n (``n=3``), and the value is an exact number.  Several values for the same
    (alpha, n), e.g. one per theta, are reduced to their maximum.  Alpha is kept as the check printed it (the
    claim reports zlcn2013's alpha = e^eps > 1).  Rows: alpha, alpha_value, n (or None), ratio, ratio_value, name.
    """
    claim = next((c for c in doc["claims"] if c["id"] == claim_id), None)
    if claim is None:
        return None, []
    best: dict[tuple[str, int | None], dict] = {}
    for name, value in (claim.get("values") or {}).items():
        low = name.lower()
        if "ratio" not in low or "threshold" in low or not isinstance(value, str):
            continue
        alpha, n, ratio = _ALPHA_KEY.search(name), _N_KEY.search(name), _number(value)
        a = _number(alpha.group(1)) if alpha else None
        if a is None or ratio is None:
            continue
        row = {
            "name": name,
            "alpha": alpha.group(1),
            "alpha_value": float(a),
            "n": int(n.group(1)) if n else None,
            "ratio": value,
            "ratio_value": float(ratio),
        }
        key = (row["alpha"], row["n"])
        if key not in best or ratio > _number(best[key]["ratio"]):
            best[key] = row
    out = sorted(best.values(), key=lambda r: (r["alpha_value"], -1 if r["n"] is None else r["n"]))
    return claim, out


def timings(doc: Mapping) -> list[tuple[str, float]]:
    return [(c["id"], float(c.get("seconds") or 0.0)) for c in doc["claims"]]


def timing_table_html(doc: Mapping, top: int = 10) -> str:
    rows = sorted(timings(doc), key=lambda t: -t[1])[:top]
    total = sum(t for _, t in timings(doc))
    body = _table(["claim", "seconds"], ([claim_link(c), f"{t:.2f}"] for c, t in rows), num=(1,))
    return f"{TIMING_START}<p>Total check time {total:.1f} s; the {len(rows)} slowest claims:</p>{body}{TIMING_END}"


# ----------------------------------------------------------------------------------------------------------------------
# README results block


def readme_results(doc: Mapping) -> str:
    """The README text between the results markers: counts per paper and status, the errata with report links."""
    claims = doc["claims"]
    run = doc.get("run", {})
    papers = _ordered({c["paper"] for c in claims}, PAPERS)
    statuses = _ordered({c["status"] for c in claims}, STATUSES)
    by = Counter((c["paper"], c["status"]) for c in claims)
    mode = "quick" if run.get("quick", True) else "full (`--full`)"
    lines = [
        f"Last full run: {len(claims)} claims, {mode} scopes, seed {run.get('seed', 0)}. "
        "Generated by `reproduce.py`; do not edit between the markers.",
        "",
        "| paper | " + " | ".join(statuses) + " | total |",
        "|---|" + "---:|" * (len(statuses) + 1),
    ]
    for p in papers:
        counts = [by[p, s] for s in statuses]
        lines.append(f"| `{p}` | " + " | ".join(str(n) if n else "" for n in counts) + f" | {sum(counts)} |")
    totals = [sum(by[p, s] for p in papers) for s in statuses]
    lines.append("| **total** | " + " | ".join(f"**{n}**" for n in totals) + f" | **{sum(totals)}** |")

    def cell(s: object, limit: int = 80) -> str:
        s = " ".join(str(s).split())
        s = s if len(s) <= limit else s[: limit - 1] + "…"
        return s.replace("|", "\\|")

    def code(s: object) -> str:
        text = cell(str(s).replace("`", "'"), 60)
        return f"`{text}`" if text.strip() else "(empty)"

    refuted = [c for c in claims if c["status"] == "refuted"]
    if refuted:
        lines += [
            "",
            "Refuted as stated (counterexample in the report): "
            + ", ".join(f"[`{c['id']}`]({REPORT_LINK}#{c['id']})" for c in refuted)
            + ".",
        ]
    pairs = errata(doc)
    lines += ["", f"Errata ({len(pairs)}):" if pairs else "Errata: none in this run.", ""]
    if pairs:
        lines += ["| claim | location | printed | correct | class |", "|---|---|---|---|---|"]
        for c, e in pairs:
            lines.append(
                f"| [`{c['id']}`]({REPORT_LINK}#{c['id']}) | {cell(_location(c, e))} | "
                f"{code(e['printed'])} | {code(e['correct'])} | {cell(e['cls'])} |"
            )
        lines.append("")
    lines.append(
        "The full report (every claim with its status, evidence, scope and values; the errata; figures and plots): "
        f"run `python reproduce.py --report`, then open `{REPORT_LINK}` in a browser (it works offline)."
    )
    return "\n".join(lines)


def _location(claim: Mapping, erratum: Mapping) -> str:
    """The erratum's entry, prefixed with the claim's place in the paper when the entry is only an index like [0][2]."""
    entry = str(erratum.get("entry", ""))
    return f"{claim.get('where', '')} {entry}".strip() if not entry or entry.startswith("[") else entry


def replace_readme_block(text: str, block: str) -> str:
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise ReportFailed(f"README.md has no '{README_START}' ... '{README_END}' block to fill")
    return text[: start + len(README_START)] + "\n" + block.strip("\n") + "\n" + text[end:]


def refresh_readme(outcomes: Sequence[object], run_info: Mapping[str, object], readme: Path = README) -> bool:
    """Rewrite README.md's results block from a full run; True when the file changed (absent README: False)."""
    from .expectations import atomic_write
    from .report import document

    if not readme.exists():
        return False
    text = readme.read_text(encoding="utf-8")
    new = replace_readme_block(text, readme_results(json.loads(document(outcomes, run_info))))
    if new == text:
        return False
    atomic_write(readme, new)
    return True
