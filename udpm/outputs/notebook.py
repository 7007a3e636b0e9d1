"""The reproduction report (``build/report.html``), and the entry points of the README's results block.

``python reproduce.py --report`` calls :func:`render_report`.  It writes the run's
results document (schema 2, :func:`udpm.outputs.results.document`) to ``build/results.json``,
executes ``experiments/report.ipynb`` headlessly with nbclient and exports one
self-contained ``build/report.html`` with nbconvert: no input cells, no scripts,
images inlined as base64, no external URLs.  The notebook reads only that JSON,
the status baseline (``paper_tables/status_baseline.json``), the verbatim printed
values (``paper_tables/printed``) and the regenerated figure PNGs
(``paper_tables/figures``); it recomputes nothing the run already has.

The kernel is the running interpreter: a throwaway kernelspec pointing at
``sys.executable -m ipykernel_launcher`` (ipykernel is a dependency of the
project), so no globally installed ``python3`` kernelspec is needed or used.
Each cell has a time bound.  A failing cell, a timeout or a dead kernel raises
:class:`ReportFailed` with one line naming the cell and its error;
``reproduce.py`` prints it and exits 1.

The HTML pieces the notebook displays are built in :mod:`udpm.report.html`, so they
can be tested without a kernel.  Everything in the page is deterministic except
timings, which are fenced by :data:`TIMING_START` / :data:`TIMING_END` (see
:func:`strip_timings`).

:func:`refresh_readme` (:mod:`udpm.outputs.readme_block`) regenerates the text between
``<!-- results:start -->`` and ``<!-- results:end -->`` in README.md on full runs;
it is byte-identical when the results do not change.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from udpm.claims.tables import PAPER_TABLES, ROOT
from udpm.outputs.readme_block import (
    README,
    README_END,
    README_START,
    readme_results,
    refresh_readme,
    replace_readme_block,
)
from udpm.report.html import BASELINE, STATUS_COLOURS, TIMING_END, TIMING_START, ReportFailed

__all__ = [
    "README",
    "README_END",
    "README_START",
    "TIMING_END",
    "TIMING_START",
    "ReportFailed",
    "execute_notebook",
    "export_html",
    "external_references",
    "inject_parameters",
    "readme_results",
    "refresh_readme",
    "render_report",
    "replace_readme_block",
    "strip_timings",
]

BUILD = ROOT / "build"
NOTEBOOK = ROOT / "experiments" / "report.ipynb"
FIGURES = PAPER_TABLES / "figures"
PRINTED = PAPER_TABLES / "printed"
CELL_TIMEOUT = 180  # seconds per notebook cell
STARTUP_TIMEOUT = 120  # seconds for the kernel to start

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
    from udpm.internal.files import atomic_write
    from udpm.outputs.results import document

    results = build / "results.json"
    atomic_write(results, document(outcomes, run_info))
    params = {
        "RESULTS": str(results),
        "ROOT": str(ROOT),
        "FIGURES": str(FIGURES),
        "PRINTED": str(PRINTED),
        "BASELINE": str(BASELINE),
    }
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
