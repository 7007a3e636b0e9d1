"""Mutation run (mutmut) over the guard-rail modules; too slow for CI.

    .venv/bin/python benchmarks/mutation.py                 # every module (tens of minutes)
    .venv/bin/python benchmarks/mutation.py smt remaps      # some modules; the others keep their last result
    .venv/bin/python benchmarks/mutation.py --reuse smt     # re-attribute after editing tests, no new mutmut run
    .venv/bin/python benchmarks/mutation.py --table         # the recorded run as benchmarks/README.md's table

Run it from a separate checkout (``git worktree add /tmp/mut HEAD``): it copies that tree, never the one others
edit.  Per module it:

1. copies the working tree (tracked files plus the untracked ``tests/test_guardrails_*.py`` /
   ``tests/test_mutation_kills_*.py``) to ``/tmp/mutrun/<module>``, appends a ``[tool.mutmut]`` section
   that mutates the module's file only (:data:`SOURCES`) and selects the module's pre-existing targeted tests
   (plus the module's own doctests), and runs ``mutmut run --max-children 1``; the progress output goes
   to ``/tmp/mutrun/<module>/mutmut.log``;
2. reads the verdict of every mutant from ``mutants/<its file>.meta``;
3. runs every mutant the pre-existing tests did not kill (survived, no tests, suspicious) against the
   new guard-rail tests (``tests/test_guardrails_<module>.py``, ``tests/test_mutation_kills_<module>.py``,
   and those of ``SHARED_NEW_TESTS``), in one pytest process per module with ``MUTANT_UNDER_TEST`` set per
   mutant, and records the first test that fails ("killed by <test>");
4. merges ``benchmarks/mutation_equivalents.json`` (mutant name -> reason), kept by hand;
5. writes ``benchmarks/results/mutation.json``: per module the counts, score = killed / (total -
   equivalent), and every mutant the pre-existing tests let through with its one-line diff and
   its verdict.

Timeouts count as killed (the mutant was detected: the tests did not pass).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "mutation.json"
EQUIVALENTS = ROOT / "benchmarks" / "mutation_equivalents.json"
WORK = Path("/tmp/mutrun")
PYTHON = sys.executable
MUTMUT = str(Path(sys.executable).with_name("mutmut"))
#: The machine is shared: mutmut and its test runs yield to everyone else.
NICE = ["nice", "-n", "15"]

#: module -> the pre-existing unit-test files that exercise it in-process (the module's doctests are added).
#: Slow integration files (test_first_claims, test_report, test_cli: whole claims, reproduce.py subprocesses,
#: which mutmut's in-process trampolines do not see) are left out: with them one module takes hours on the
#: shared 2-core machine.  So "killed by existing tests" means killed by these files or the doctests.
MODULES: dict[str, list[str]] = {
    "smt": [],
    "remaps": ["tests/test_core_properties.py", "tests/test_certify.py"],
    "privacy": ["tests/test_core_properties.py", "tests/test_validation.py"],
    "expectations": [],
    "mechanisms": ["tests/test_core_properties.py", "tests/test_validation.py"],
    "evidence": ["tests/test_evidence.py", "tests/test_coverage.py"],
    "coverage": ["tests/test_coverage.py", "tests/test_evidence.py"],
    "tables": ["tests/test_tables.py"],
    "instances": ["tests/test_evidence.py", "tests/test_coverage.py"],
    "findings": ["tests/test_evidence.py", "tests/test_coverage.py"],
    "records": [],  # its pre-existing tests (test_cache, test_executor, test_shards) run whole claims or clusters
    "certificates": ["tests/test_certificates.py"],
    "certify": ["tests/test_certify.py", "tests/test_certificates.py"],
    "exact_signs": ["tests/test_certify.py"],
    "exact_lp": ["tests/test_certify.py", "tests/test_refinement.py", "tests/test_lp_factorisation.py"],
    "exact_simplex": [
        "tests/test_certify.py",
        "tests/test_refinement.py",
        "tests/test_lp_factorisation.py",
        "tests/test_lp_uniqueness.py",
    ],
    "refinement": ["tests/test_refinement.py", "tests/test_lp_factorisation.py"],
    "every_user": ["tests/test_every_user.py"],
    "induction": ["tests/test_postprocessing.py"],
    "claims": [],  # no pre-existing test reaches udpm.claims.registry in-process (test_evidence.py does not)
}

#: Guard-rail test files that pin a module besides its own ``tests/test_guardrails_<module>.py``: the exact LP
#: modules were split out of udpm/lp/certify.py, whose guard rails still test them through its re-exports, and
#: the refinement loop's steps have their own file.
SHARED_NEW_TESTS: dict[str, list[str]] = {
    **{m: ["tests/test_guardrails_certify.py"] for m in ("exact_signs", "exact_lp", "exact_simplex")},
    "refinement": ["tests/test_guardrails_certify.py", "tests/test_refinement_steps.py"],
    "findings": ["tests/test_guardrails_instances.py"],  # Findings records instances: its guard rails pin both
}

STATUS = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    36: "timeout",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "segfault",
    -9: "segfault",
    None: "not checked",
    37: "caught by type check",
}


#: Where each module lives in the package layout (udpm/<layer>/<module>.py).
SOURCES = {
    "smt": "udpm/smt/solvers.py",
    "expectations": "udpm/claims/expectations.py",
    "evidence": "udpm/claims/evidence.py",
    "coverage": "udpm/claims/coverage.py",
    "tables": "udpm/claims/tables.py",
    "instances": "udpm/claims/instances.py",
    "findings": "udpm/claims/findings.py",
    "records": "udpm/claims/records.py",
    "claims": "udpm/claims/registry.py",
    "every_user": "udpm/auditing/every_user.py",
    "induction": "udpm/induction/obligations.py",
    **{m: f"udpm/core/{m}.py" for m in ("remaps", "privacy", "mechanisms")},
    **{
        m: f"udpm/lp/{m}.py"
        for m in ("certificates", "certify", "exact_signs", "exact_lp", "exact_simplex", "refinement")
    },
}


def source(module: str) -> str:
    """The file of ``module`` (a key of MODULES), relative to the checkout."""
    return SOURCES[module]


def code_digest(text: str) -> str:
    """sha256 of a module's code as mutmut sees it: its syntax tree without docstrings and imports, so that
    formatting, documentation and moved imports keep a recorded run current, and any other edit makes it stale."""
    tree = ast.parse(text)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            body[:] = [
                n
                for n in body
                if not isinstance(n, (ast.Import, ast.ImportFrom))
                and not (
                    isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)
                )
            ] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def new_tests(module: str, root: Path = ROOT) -> list[str]:
    own = [f"tests/{p}_{module}.py" for p in ("test_guardrails", "test_mutation_kills")]
    return [t for t in (*own, *SHARED_NEW_TESTS.get(module, [])) if (root / t).exists()]


def copy_tree(dest: Path) -> None:
    """The working tree's tracked files plus the new guard-rail tests, into ``dest``."""
    subprocess.run(["rm", "-rf", str(dest)], check=True)
    dest.mkdir(parents=True)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    extra = [
        str(p.relative_to(ROOT))
        for pat in ("test_guardrails_*.py", "test_mutation_kills_*.py")
        for p in (ROOT / "tests").glob(pat)
    ]
    names = [n for n in files.decode().split("\0") if n and (ROOT / n).exists()] + extra
    tar = subprocess.Popen(["tar", "-c", "--null", "-T", "-"], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    untar = subprocess.Popen(["tar", "-x", "-C", str(dest)], stdin=tar.stdout)
    tar.stdin.write("\0".join(sorted(set(names))).encode())
    tar.stdin.close()
    if untar.wait() or tar.wait():
        raise SystemExit("copying the working tree failed")


def failing_on_clean_tree(dest: Path, module: str) -> list[str]:
    """Pre-existing selected tests that fail on the unmutated tree (other work in progress): deselected,
    since mutmut needs a green baseline.  They are listed in the result."""
    sel = [*MODULES[module], source(module)]
    if untested(module):
        return []
    r = subprocess.run(
        [*NICE, PYTHON, "-m", "pytest", *sel, "-q", "-rfE", "-p", "no:cacheprovider"],
        cwd=dest,
        capture_output=True,
        text=True,
    )
    out = []
    for line in r.stdout.splitlines():
        for tag in ("FAILED ", "ERROR "):
            if line.startswith(tag):
                out.append(line[len(tag) :].split(" - ", 1)[0].strip())
    return out


def untested(module: str) -> bool:
    """No pre-existing in-process test and no doctest: mutmut then runs the new tests (it needs a test to run),
    and every mutant counts as let through by the pre-existing tests."""
    return not MODULES[module] and ">>>" not in (ROOT / source(module)).read_text()


def configure(dest: Path, module: str, deselect: list[str]) -> None:
    sel = [*MODULES[module], source(module)] + [a for d in deselect for a in ("--deselect", d)]
    if untested(module):
        sel = new_tests(module)
    toml = "\n".join(
        [
            "",
            "[tool.mutmut]",
            f'source_paths = ["{source(module)}"]',
            f"pytest_add_cli_args_test_selection = {json.dumps(sel)}",
            # the whole package: otherwise `udpm` is a namespace of the one mutated file, and its other modules
            # come from wherever the editable install points (a checkout others are editing)
            'also_copy = ["udpm", "proofs", "experiments", "paper_tables", "reproduce.py"]',
            "",
        ]
    )
    with open(dest / "pyproject.toml", "a", encoding="utf-8") as f:
        f.write(toml)


def run_mutmut(dest: Path) -> float:
    t0 = time.monotonic()
    with open(dest / "mutmut.log", "w") as log:
        rc = subprocess.run(
            [*NICE, MUTMUT, "run", "--max-children", "1"], cwd=dest, stdout=log, stderr=subprocess.STDOUT
        ).returncode
    if rc:
        raise SystemExit(f"mutmut run failed (rc {rc}); see {dest / 'mutmut.log'}")
    return time.monotonic() - t0


def verdicts(dest: Path, module: str) -> dict[str, str]:
    meta = json.loads((dest / "mutants" / f"{source(module)}.meta").read_text())
    return {k: STATUS.get(v, "suspicious") for k, v in sorted(meta["exit_code_by_key"].items())}


# ---------------------------------------------------------------- runs inside the mutants directory


def attribute(names_file: str, tests: list[str], out_file: str, per_mutant_s: int = 60) -> None:
    """For each mutant, the first of ``tests`` that fails with it active (None: all pass)."""
    import signal

    import pytest

    sys.path.insert(0, os.getcwd())

    class First:
        def __init__(self):
            self.failed: str | None = None

        def pytest_runtest_logreport(self, report):
            if report.failed and self.failed is None:
                self.failed = report.nodeid

        def pytest_collectreport(self, report):
            if report.failed and self.failed is None:
                self.failed = f"collection of {report.nodeid}"

    def alarm(signum, frame):
        raise TimeoutError(f"mutant ran longer than {per_mutant_s} s")

    signal.signal(signal.SIGALRM, alarm)
    args = [
        *tests,
        "-x",
        "-q",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:randomly",
        "--no-header",
        "-o",
        "addopts=--import-mode=importlib",
    ]

    def run(name: str) -> str | None:
        os.environ["MUTANT_UNDER_TEST"] = name
        probe = First()
        signal.alarm(per_mutant_s)
        try:
            with open(os.devnull, "w") as devnull:
                old = sys.stdout
                sys.stdout = devnull
                try:
                    pytest.main(args, plugins=[probe])
                finally:
                    sys.stdout = old
        except TimeoutError:
            return probe.failed or "timeout"
        finally:
            signal.alarm(0)
        return probe.failed

    baseline = run("")
    if baseline is not None:
        raise SystemExit(f"the new tests fail without any mutant: {baseline}")
    names = json.loads(Path(names_file).read_text())
    out = {n: run(n) for n in names}
    Path(out_file).write_text(json.dumps(out, indent=1))


def diffs(module: str, names: list[str]) -> dict[str, str]:
    """One line per mutant: '-old / +new' of the changed lines of its function."""
    from difflib import unified_diff

    import libcst as cst
    from mutmut.mutation.diff_apply import read_mutant_function, read_original_function

    mod = cst.parse_module((Path("mutants") / source(module)).read_text())
    out = {}
    for n in names:
        a, b = (
            cst.Module([f]).code.strip().split("\n")
            for f in (read_original_function(mod, n), read_mutant_function(mod, n))
        )
        minus = [
            ln.strip() for ln in unified_diff(a, b, lineterm="", n=0) if ln.startswith("-") and not ln.startswith("---")
        ]
        plus = [
            ln.strip() for ln in unified_diff(a, b, lineterm="", n=0) if ln.startswith("+") and not ln.startswith("+++")
        ]
        out[n] = f"{' | '.join(minus)}  ->  {' | '.join(plus)}"
    return out


# ---------------------------------------------------------------- driver


def module_result(module: str, reuse: bool) -> dict:
    dest = WORK / module
    seconds = None
    if not reuse or not (dest / "mutants" / f"{source(module)}.meta").exists():
        copy_tree(dest)
        deselected = failing_on_clean_tree(dest, module)
        (dest / "deselected.json").write_text(json.dumps(deselected))
        configure(dest, module, deselected)
        seconds = run_mutmut(dest)
        (dest / "seconds.json").write_text(json.dumps(seconds))
    elif (dest / "seconds.json").exists():
        seconds = json.loads((dest / "seconds.json").read_text())
    for t in new_tests(module):  # the new tests as they are now (they may have been edited during the run)
        (dest / "mutants" / t).write_bytes((ROOT / t).read_bytes())
    status = verdicts(dest, module)
    deselected = json.loads((dest / "deselected.json").read_text())
    if untested(module):
        status = {n: "no tests" for n in status}
    open_ = [n for n, s in status.items() if s in ("survived", "no tests", "suspicious", "not checked")]
    tests = new_tests(module)
    equivalents = json.loads(EQUIVALENTS.read_text()) if EQUIVALENTS.exists() else {}
    killed_by: dict[str, str | None] = {n: None for n in open_}
    (dest / "open.json").write_text(json.dumps(open_))
    to_run = [n for n in open_ if n not in equivalents]  # an equivalent passes every test: running it is slow
    if to_run and tests:
        (dest / "to_run.json").write_text(json.dumps(to_run))
        r = subprocess.run(
            [
                *NICE,
                PYTHON,
                str(Path(__file__).resolve()),
                "--attribute",
                str(dest / "to_run.json"),
                str(dest / "killed_by.json"),
                *tests,
            ],
            cwd=dest / "mutants",
            capture_output=True,
            text=True,
        )
        if r.returncode:
            raise SystemExit(f"attribution failed for {module}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
        killed_by.update(json.loads((dest / "killed_by.json").read_text()))
    r = (
        subprocess.run(
            [
                PYTHON,
                str(Path(__file__).resolve()),
                "--diffs",
                module,
                str(dest / "open.json"),
                str(dest / "diffs.json"),
            ],
            cwd=dest,
            capture_output=True,
            text=True,
        )
        if open_
        else None
    )
    if r is not None and r.returncode:
        raise SystemExit(f"diffs failed for {module}:\n{r.stderr[-3000:]}")
    diff = json.loads((dest / "diffs.json").read_text()) if open_ else {}

    counts = {
        "total": len(status),
        "killed": 0,
        "killed_by_existing_tests": 0,
        "killed_by_new_tests": 0,
        "timeout": 0,
        "survived": 0,
        "no_tests": 0,
        "equivalent": 0,
    }
    survivors = []
    for n, s in status.items():
        if s in ("killed", "timeout", "segfault", "caught by type check"):
            counts["killed"] += 1
            counts["killed_by_existing_tests"] += 1
            counts["timeout"] += s == "timeout"
            continue
        entry = {"name": n, "diff": diff.get(n, ""), "mutmut": s}
        if killed_by.get(n):
            counts["killed"] += 1
            counts["killed_by_new_tests"] += 1
            entry["verdict"] = f"killed by {killed_by[n]}"
        elif n in equivalents:
            counts["equivalent"] += 1
            entry["verdict"] = f"equivalent: {equivalents[n]}"
        else:
            counts["survived" if s != "no tests" else "no_tests"] += 1
            entry["verdict"] = "survived" if s != "no tests" else "not covered by any test"
        survivors.append(entry)
    scored = counts["total"] - counts["equivalent"]
    counts["score"] = round(counts["killed"] / scored, 4) if scored else None
    mutated = dest / source(module)
    return {
        **counts,
        "source": source(module),
        "code_sha256": code_digest(mutated.read_text()) if mutated.exists() else None,
        "existing_tests": MODULES[module],
        "new_tests": tests,
        "deselected_failing_on_clean_tree": deselected,
        "mutmut_seconds": round(seconds, 1) if seconds else None,
        "survivors": survivors,
    }


def table(doc: dict) -> str:
    """The Markdown table of a recorded run, as benchmarks/README.md shows it."""
    rows = [
        "| module | file | mutants | killed (existing / new tests) | equivalent | surviving | score |",
        "|---|---|---|---|---|---|---|",
    ]

    def row(name: str, path: str, m: dict) -> str:
        killed = f"{m['killed']} ({m['killed_by_existing_tests']} / {m['killed_by_new_tests']})"
        score = "-" if m["score"] is None else f"{100 * m['score']:.1f}%"
        open_ = m["survived"] + m["no_tests"]
        return f"| {name} | {path} | {m['total']} | {killed} | {m['equivalent']} | {open_} | {score} |"

    rows += [row(k, f"`{m['source']}`", m) for k, m in doc["modules"].items()]
    rows.append(row("**total**", "", doc["total"]))
    return "\n".join(rows)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--table":
        print(table(json.loads(RESULTS.read_text())))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--attribute":
        attribute(sys.argv[2], sys.argv[4:], sys.argv[3])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--diffs":
        Path(sys.argv[4]).write_text(json.dumps(diffs(sys.argv[2], json.loads(Path(sys.argv[3]).read_text()))))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("modules", nargs="*", help=f"some of: {', '.join(MODULES)}")
    ap.add_argument("--reuse", action="store_true", help="keep an existing mutmut run; only re-attribute")
    args = ap.parse_args()
    unknown = set(args.modules) - set(MODULES)
    if unknown:
        ap.error(f"unknown module(s) {sorted(unknown)}; choose from {list(MODULES)}")
    doc = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"modules": {}}
    for module in args.modules or list(MODULES):
        print(f"{module}: mutmut ...", flush=True)
        res = module_result(module, args.reuse)
        doc = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"modules": {}}  # another run may have written
        doc["modules"][module] = res
        print(
            f"{module}: {res['killed']}/{res['total']} killed, {res['equivalent']} equivalent, "
            f"{res['survived'] + res['no_tests']} open, score {res['score']}",
            flush=True,
        )
        write(doc)


def write(doc: dict) -> None:
    mods = doc["modules"]
    keys = (
        "total",
        "killed",
        "killed_by_existing_tests",
        "killed_by_new_tests",
        "timeout",
        "survived",
        "no_tests",
        "equivalent",
    )
    tot = {k: sum(m[k] for m in mods.values()) for k in keys}
    scored = tot["total"] - tot["equivalent"]
    tot["score"] = round(tot["killed"] / scored, 4) if scored else None
    import importlib.metadata

    out = {
        "tool": f"mutmut {importlib.metadata.version('mutmut')}",
        "score": "killed / (total - equivalent); timeouts count as killed",
        "total": tot,
        "modules": {m: mods[m] for m in MODULES if m in mods},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
