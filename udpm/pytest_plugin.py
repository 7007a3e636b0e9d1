"""pytest plugin: the papers' claims as pytest items, so that a project building on them keeps them green.

Installed with the harness (entry point ``pytest11``, name ``udpm``)::

    pytest --udpm 'grs2011.*'                  # those claims only, one item per claim, node id = the claim id
    pytest tests/ --udpm 'gs2010.thm2'         # your own tests, plus that claim
    pytest --udpm 'gs2010.*' --udpm-expected none
    pytest --udpm '*' --udpm-jobs 4            # the checks' tasks on a Dask LocalCluster of 4 workers

Without ``--udpm`` the plugin does nothing at all (the harness's own test suite loads it too).  With
``--udpm`` and no test paths on the command line, only the claims are collected; with paths, the claims
are added to the tests found there.  ``--udpm`` is a glob on claim ids and repeatable; a pattern that
matches nothing is a usage error.

**When an item passes.**  Claims run in dependency order (a dependency that was not chosen still runs,
without an item, because it caps its dependents' status) through the same code path as ``reproduce.py``
(:func:`udpm.claims.registry.run_check`, :func:`udpm.run.shards.judge_in_order`), and the item's verdict is the
one ``reproduce.py --junit`` gives the claim (:func:`udpm.outputs.junit.verdict`):

- with golden expectations (``--udpm-expected PATH``; by default this checkout's
  ``paper_tables/expected.json`` when it exists), an item passes when the claim's record equals its
  expectation: status, exact values, errata and grid, exactly as ``reproduce.py`` exits 0 for it.  A
  claim the papers get wrong passes when it is *expected* refuted: the item guards the harness's
  finding, not the paper;
- without them (``--udpm-expected none``, or no golden file), an item passes when the claim is
  proved, verified, tested, reproduced, or erratum with every erratum classified; it fails when the
  claim is refuted (with the counterexample), errored, or has an unclassified erratum.

In both cases a failure is the one-line reason; an inconclusive claim (a timeout, a solver's unknown)
or a pending one is *skipped* with its reason, never a pass, and the terminal summary lists every
skipped claim with its reason (no ``-rs`` needed).  The status, evidence and scope are attached to each
item as ``user_properties`` (so they reach ``pytest --junitxml``).

**Where the checks run.**  Through :func:`udpm.run.executor.run`, as ``reproduce.py`` runs them: with the
cache of decided tasks (``--udpm-cache-dir``, default ``.udpm-cache/`` or ``$UDPM_CACHE``, off in CI
unless given, ``--udpm-no-cache``), so that a claim decided before is read back, not decided again.
With ``--udpm-jobs N`` (N > 1) every chosen claim is decided on a Dask LocalCluster of N workers when
the first item runs; the items then report the verdicts.  Under pytest-xdist each worker decides its
own items' claims (and their dependencies) in its own process, serially, sharing the cache.
"""

from __future__ import annotations

import inspect
import warnings
from pathlib import Path

import pytest

from udpm.errors import HarnessError

STASH_NAME = "udpm-claims"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("udpm", "udpm: the papers' claims as test items")
    group.addoption(
        "--udpm",
        action="append",
        default=[],
        metavar="PATTERN",
        help="run the claims whose id matches this glob as test items (repeatable), e.g. --udpm 'grs2011.*'",
    )
    group.addoption(
        "--udpm-expected",
        default="auto",
        metavar="PATH|none",
        help="golden expectations the claims must equal (default: paper_tables/expected.json of the harness "
        "when present); 'none': pass unless refuted, error, inconclusive or pending",
    )
    group.addoption(
        "--udpm-jobs",
        type=int,
        default=1,
        metavar="N",
        help="decide the chosen claims on a Dask LocalCluster of N workers (default 1: one by one, in process)",
    )
    group.addoption(
        "--udpm-cache-dir",
        type=Path,
        metavar="DIR",
        help="cache of decided tasks (default .udpm-cache/ or $UDPM_CACHE; off in CI unless given)",
    )
    group.addoption("--udpm-no-cache", action="store_true", help="neither read nor write the cache of decided tasks")
    group.addoption(
        "--udpm-claim-timeout",
        type=float,
        default=600.0,
        metavar="S",
        help="wall-clock bound on each claim's check; a claim that exceeds it is skipped as inconclusive",
    )


def pytest_configure(config: pytest.Config) -> None:
    patterns = config.getoption("udpm")
    if not patterns:
        return  # without --udpm the plugin does nothing
    config.pluginmanager.register(ClaimsPlugin(config, patterns), STASH_NAME)


class ClaimsPlugin:
    """The hooks that are active only with ``--udpm``."""

    def __init__(self, config: pytest.Config, patterns: list[str]) -> None:
        from udpm.claims import expectations
        from udpm.claims.registry import Context, catalog, dependency_order, select

        try:
            chosen = select(list(catalog()), patterns)
            self.ids = [cid for cid in dependency_order(chosen) if cid in set(chosen)]
            self.golden, self.stored = self._expectations(config.getoption("udpm_expected"), expectations)
        except HarnessError as exc:
            raise pytest.UsageError(f"--udpm: {exc}") from None
        timeout = config.getoption("udpm_claim_timeout")
        if timeout <= 0:
            raise pytest.UsageError("--udpm-claim-timeout must be > 0")
        jobs = config.getoption("udpm_jobs")
        if jobs < 1:
            raise pytest.UsageError("--udpm-jobs must be >= 1")
        if hasattr(config, "workerinput"):  # a pytest-xdist worker: its items only, in its own process
            jobs = 1
        cache = self._cache(config.getoption("udpm_cache_dir"), config.getoption("udpm_no_cache"))
        self.runner = ClaimRunner(Context(quick=True, claim_timeout=timeout), self.stored, cache=cache, jobs=jobs)
        self.skipped: list[tuple[str, str]] = []
        # `pytest --udpm X` alone runs the claims only; `pytest PATHS --udpm X` adds them to those tests.
        self.claims_only = config.args_source is not pytest.Config.ArgsSource.ARGS

    @staticmethod
    def _expectations(option: str, expectations: object) -> tuple[str, dict | None]:
        if option == "none":
            return "none", None
        if option == "auto":
            path = expectations.EXPECTED
            if not path.exists():
                return "none (no paper_tables/expected.json)", None
        else:
            path = Path(option)
            if not path.is_file():
                raise HarnessError(f"--udpm-expected {option}: no such file")
        return str(path), expectations.load(path)

    @staticmethod
    def _cache(directory: Path | None, off: bool) -> object:
        from udpm.run.cache import Cache, CacheKeyError, default_dir, in_ci

        if off or (directory is None and in_ci()):
            return None
        try:
            return Cache(directory or default_dir())
        except CacheKeyError as exc:  # as in reproduce.py: entries that cannot be authenticated are not used
            warnings.warn(f"udpm: the cache is off: {exc}", stacklevel=1)
            return None

    def pytest_report_header(self) -> list[str]:
        cache = self.runner.cache
        where = f"cache {cache.root}" if cache is not None else "no cache"
        jobs = f"{self.runner.jobs} Dask workers" if self.runner.jobs > 1 else "in process"
        return [f"udpm: {len(self.ids)} claim(s), golden expectations: {self.golden}", f"udpm: {where}; {jobs}"]

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        # what --udpm-jobs decides at once: the claims that survived -k / -m
        self.runner.batch = [item.name for item in session.items if isinstance(item, ClaimItem)]

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped and report.nodeid in self.ids and isinstance(report.longrepr, tuple):
            self.skipped.append((report.nodeid, str(report.longrepr[2]).removeprefix("Skipped: ")))

    def pytest_terminal_summary(self, terminalreporter: object) -> None:
        """The skipped claims with their reasons (never a pass), and what the cache gave."""
        write = terminalreporter.write_line
        if self.skipped:
            terminalreporter.section("udpm: claims not decided (skipped, never a pass)")
            for cid, why in self.skipped:
                write(f"{cid}: {why}")
        cache = self.runner.cache
        if cache is not None and (cache.hits or cache.writes or cache.problems):
            for line in cache.problems:
                write(f"udpm: {line}")
            write(f"udpm: cache {cache.root}: {cache.hits} task(s) reused, {cache.writes} stored")

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        return True if self.claims_only else None

    @pytest.hookimpl(tryfirst=True)  # before -k / -m deselect, so that they apply to claims too
    def pytest_collection_modifyitems(self, session: pytest.Session, items: list[pytest.Item]) -> None:
        claims = [ClaimItem.from_parent(session, name=cid, nodeid=cid, runner=self.runner) for cid in self.ids]
        items.extend(claims)
        # reported as collected, like any other item (the terminal's "collected N items", --collect-only)
        session.ihook.pytest_collectreport(report=pytest.CollectReport("udpm", "passed", None, claims))


class ClaimRunner:
    """Runs claims on demand through the executor, each check once per session, dependencies first; with
    ``jobs`` > 1, every claim of ``batch`` at the first request."""

    def __init__(self, ctx: object, stored: dict | None, *, cache: object = None, jobs: int = 1) -> None:
        self.ctx, self.stored, self.cache, self.jobs = ctx, stored, cache, jobs
        self.batch: list[str] = []
        self.found: dict[str, object] = {}
        self.loaded = False
        self.unloadable: str | None = None  # why the check modules could not be imported, if they could not

    def load(self) -> str | None:
        """Import every check once; a module that fails to import makes every claim an error, not a crash."""
        from udpm.claims.registry import load_checkers

        if not self.loaded:
            self.loaded = True
            try:
                load_checkers()
            except Exception as exc:
                self.unloadable = f"the checks could not be imported: {type(exc).__name__}: {exc}"
        return self.unloadable

    def verdict(self, cid: str) -> tuple[str, str, object]:
        """('pass' | 'failure' | 'error' | 'skipped', the one-line reason, the claim's Result or None)."""
        from types import SimpleNamespace

        from udpm.claims.registry import catalog, dependency_order
        from udpm.run.executor import run as execute
        from udpm.run.shards import judge_in_order

        if self.load():
            return "error", self.unloadable, None
        order = dependency_order([cid])
        wanted = dependency_order(list(dict.fromkeys([*self.batch, cid]))) if self.jobs > 1 else order
        missing = [dep for dep in wanted if dep not in self.found]
        if missing:
            try:
                found = execute(missing, self.ctx, jobs=self.jobs if len(missing) > 1 else 1, cache=self.cache)
            except HarnessError as exc:
                return "error", f"the checks could not run: {exc}", None
            self.found.update({dep: f for dep, (f, _) in found.items()})
        result = judge_in_order(order, self.found)[cid]
        problems = decide(cid, result, self.stored)
        from udpm.outputs.junit import verdict

        kind, why = verdict(SimpleNamespace(claim=catalog()[cid], result=result, problems=problems))
        return kind, why, result


def decide(cid: str, result: object, stored: dict | None) -> list[str]:
    """Why the claim fails: its golden difference, or without golden expectations a refutation."""
    from udpm.claims.evidence import Status
    from udpm.run.shards import golden_problems

    if stored is not None:
        return golden_problems(cid, result, stored.get(cid))
    problems = golden_problems(cid, result, None, compare=False)
    if result.status is Status.REFUTED:
        problems.insert(0, f"{cid}: refuted: {result.counterexample or result.notes}")
    return problems


class ClaimItem(pytest.Item):
    """One claim of the papers as a test item."""

    def __init__(self, *, runner: ClaimRunner, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.runner = runner

    def runtest(self) -> None:
        kind, why, result = self.runner.verdict(self.name)
        if result is not None:
            self.user_properties += [
                ("status", str(result.status)),
                ("evidence", str(result.evidence)),
                ("scope", result.scope_text),
            ]
        if kind == "skipped":
            pytest.skip(why)
        if kind != "pass":
            pytest.fail(why.splitlines()[0] if why else kind, pytrace=False)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        from udpm.claims.registry import catalog, load_checkers

        where = f"udpm claim {self.name} ({catalog()[self.name].where})"
        try:
            fn = None if self.runner.load() else load_checkers().get(self.name)
            if fn is not None:  # the check's source, where a failure points
                return Path(inspect.getsourcefile(fn)), inspect.getsourcelines(fn)[1] - 1, where
        except (OSError, TypeError, HarnessError):
            pass
        return self.path, None, where
