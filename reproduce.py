#!/usr/bin/env python3
"""Check every claim of the four papers and regression-check every printed example.

    python reproduce.py                 # the CI-sized run (--quick)
    python reproduce.py --full          # larger n, longer sweeps
    python reproduce.py --list          # every claim id, and whether it is implemented
    python reproduce.py --only 'gs2010.*' --json out.json
    python reproduce.py --shard 2/5 --json b.json   # every 5th claim, from the 2nd (udpm.run.shards)
    python reproduce.py --jobs 4        # tasks on a Dask LocalCluster of 4 workers (udpm.run.executor)
    python reproduce.py --scheduler tcp://host:8786 --cache-dir /shared/udpm-cache   # on a Dask cluster
    python reproduce.py merge a.json b.json ... --json all.json

Exit status:
  0    every claim's status, values, errata and grid equal paper_tables/expected.json;
  1    a regression: a difference from the expectations, a check that errored, an unclassified erratum;
  2    bad input: an unknown claim or pattern, a malformed file, an unusable output path (one line);
  3    inconclusive: some claim timed out or a solver answered unknown, and nothing regressed;
  130  interrupted (Ctrl-C / SIGINT): the run stops and writes nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from udpm.claims import expectations
from udpm.claims.registry import Context, Status, catalog, dependency_order, load_checkers, select
from udpm.claims.tables import PAPER_TABLES
from udpm.errors import HarnessError
from udpm.internal import files as outputs
from udpm.internal.arguments import OneLineParser
from udpm.lp.certificates import export_certificates
from udpm.outputs.annotations import emit as emit_annotations
from udpm.outputs.console import print_digest, print_summary, problem_line, verdict
from udpm.outputs.junit import write_junit
from udpm.outputs.results import PAPERS, Outcome, document, errata_markdown, schema_problems, summary
from udpm.run.cache import Cache, CacheKeyError, default_dir, in_ci
from udpm.run.cache import clear as clear_cache
from udpm.run.shards import golden_problems, judge_in_order, parse_shard, run_metadata, shard_of, with_metadata

EXIT_OK, EXIT_REGRESSION, EXIT_BAD_INPUT, EXIT_INCONCLUSIVE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
ERRATA_MD = PAPER_TABLES / "ERRATA.md"
ROOT = PAPER_TABLES.parent


#: The name a message starts with: reproduce.py, or udpm check (udpm.cli runs this module's main).
PROG = "reproduce.py"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = OneLineParser(
        prog=PROG,
        description=__doc__.split("\n\n")[0],
        epilog="Exit status:\n" + __doc__.split("Exit status:\n", 1)[1].rstrip(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--list", action="store_true", help="list every claim and exit")
    p.add_argument("--only", action="append", default=[], metavar="PATTERN", help="glob on claim ids (repeatable)")
    p.add_argument("--paper", choices=PAPERS, metavar="KEY", help=f"one paper: {', '.join(PAPERS)}")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the results document (schema 2)")
    p.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="this run's certificates/, smt/ and report (default build/ for a run of every claim, "
        "build/runs/<selection>/ for --only, --paper or --shard; udpm.internal.files)",
    )
    p.add_argument("--junit", type=Path, metavar="PATH", help="write JUnit XML, one test case per claim (for CI)")
    p.add_argument(
        "--shard",
        metavar="K/N",
        help="run shard K of N: every N-th selected claim from the K-th (dependencies are run, not written); "
        "merge the documents with 'reproduce.py merge'",
    )
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", dest="quick", action="store_true", default=True, help="CI-sized scopes (default)")
    size.add_argument("--full", dest="quick", action="store_false", help="larger n and longer sweeps")
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="worker processes of a Dask LocalCluster (default 1: serial)"
    )
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="run the tasks on an existing Dask cluster")
    p.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="cache of decided tasks (default .udpm-cache/ or $UDPM_CACHE; off in CI unless given)",
    )
    p.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    p.add_argument("--clear-cache", action="store_true", help="empty the cache first")
    p.add_argument("--seed", type=int, default=0, help="seed for sampled checks (default 0)")
    p.add_argument("--solver-timeout", type=float, default=60.0, metavar="S", help="bound on each solver call")
    p.add_argument("--claim-timeout", type=float, default=600.0, metavar="S", help="wall-clock bound on each check")
    p.add_argument("--update-expected", action="store_true", help="store this run's statuses and values as expected")
    p.add_argument("--report", action="store_true", help="also render report.html in the output directory")
    args = p.parse_args(argv)
    if args.shard is not None:
        try:
            args.shard = parse_shard(args.shard)
        except HarnessError as exc:
            p.error(str(exc))
    if args.jobs < 1:
        p.error("--jobs must be >= 1")
    if args.update_expected and not args.quick:
        p.error("--update-expected stores the quick (CI) run's golden values; it cannot be combined with --full")
    if args.solver_timeout <= 0 or args.claim_timeout <= 0:
        p.error("--solver-timeout and --claim-timeout must be > 0")
    return args


def open_cache(args: argparse.Namespace) -> Cache | None:
    """The cache of decided tasks (udpm.run.cache), or None: --no-cache, or CI without an explicit --cache-dir.

    Its directory is tried for writing first: an unusable one is one line and exit 2, before any work."""
    root = args.cache_dir or default_dir()
    flag = "--cache-dir" if args.cache_dir else "the cache directory ($UDPM_CACHE or .udpm-cache/)"
    if args.clear_cache:
        clear_cache(root)
        print(f"cleared the cache {root}", file=sys.stderr)
    if args.no_cache or (in_ci() and args.cache_dir is None):
        return None
    outputs.check_dir(root, flag)
    try:
        return Cache(root)
    except CacheKeyError as exc:  # entries that cannot be authenticated are neither read nor written
        print(f"{PROG}: the cache is off: {exc}", file=sys.stderr)
        return None


def run_checks(
    ids: list[str], ctx: Context, jobs: int, scheduler: str | None = None, cache: Cache | None = None
) -> dict[str, tuple[object, float]]:
    """Every check of ``ids`` (dependencies included): serially, or task by task on Dask; Ctrl-C stops all."""
    from udpm.run.executor import run as execute
    from udpm.run.progress import listener

    found = execute(ids, ctx, jobs=jobs, scheduler=scheduler, cache=cache, listener=listener(sys.stderr))
    if cache is not None:
        for line in cache.problems:  # corrupt entries: removed and recomputed, never trusted
            print(f"{PROG}: {line}", file=sys.stderr)
        print(f"cache {cache.root}: {cache.hits} task(s) reused, {cache.writes} stored", file=sys.stderr)
    return found


def _class_line(c) -> str:
    """The printed class in one line: alpha's range and n as printed, then the other dimensions."""
    p = c.printed
    head = [f"alpha {p.alpha.text()}" if p.alpha else "", p.n.text() if p.n else ""]
    return "; ".join(x for x in [*head, *(d.text() for d in p.dimensions)] if x)


def list_claims() -> int:
    claims, bound = catalog(), load_checkers()
    width = max(len(c) for c in claims)
    for cid, c in claims.items():
        state = "implemented" if cid in bound else "PENDING"
        print(f"{cid:<{width}}  {state:<11}  {c.where}  [{_class_line(c)}]")
    print(f"\n{len(claims)} claims, {len(bound)} implemented, {len(claims) - len(bound)} pending")
    return 0


def run(args: argparse.Namespace) -> int:
    claims = catalog()
    ids = select(list(claims), args.only, args.paper)
    if args.shard:
        ids = shard_of(ids, *args.shard)
    full_run = not args.only and args.paper is None and args.shard is None
    out = args.out or outputs.default_out(args.only, args.paper, args.shard)
    # every output is tried before any work: an unusable one is one line and exit 2
    outputs.check_file(args.json, "--json")
    outputs.check_file(args.junit, "--junit")
    cache = open_cache(args)
    created = not out.exists()
    outputs.check_dir(out, "--out")
    done = False
    try:
        status = _check_and_conclude(args, ids, out, full_run, cache)
        done = True
        return status
    finally:
        if created and not done:  # an interrupted or failed run leaves no directory it made
            with contextlib.suppress(OSError):
                os.removedirs(out)


def _check_and_conclude(
    args: argparse.Namespace, ids: list[str], out: Path, full_run: bool, cache: Cache | None
) -> int:
    load_checkers()
    ctx = Context(args.quick, args.seed, args.solver_timeout, args.claim_timeout)
    stored = expectations.load()

    started = time.perf_counter()
    order = dependency_order(ids)
    extra = len(order) - len(ids)
    shard = f"shard {args.shard[0]}/{args.shard[1]}: " if args.shard else ""
    print(
        f"{shard}checking {len(ids)} claims{f' and {extra} they depend on' if extra else ''}"
        f" ({'quick' if args.quick else 'full'}, seed {args.seed})",
        file=sys.stderr,
    )
    # this run's SMT queries and certificates are staged, and replace the previous ones only when it completes
    staged_smt, staged_certs = outputs.staging(out / "smt"), outputs.staging(out / "certificates")
    try:
        with _smt_export_to(staged_smt):
            found = run_checks(order, ctx, args.jobs, args.scheduler, cache)
        return _conclude(args, ids, order, found, stored, out, full_run, started, staged_smt, staged_certs)
    finally:
        outputs.discard(staged_smt)
        outputs.discard(staged_certs)


@contextlib.contextmanager
def _smt_export_to(directory: Path) -> Iterator[None]:
    """udpm.smt.solvers exports into ``directory``, in this process and in the LocalCluster workers it starts."""
    from udpm.smt import export as smt_export

    before, env = smt_export.EXPORT_DIR, os.environ.get("UDPM_SMT_DIR")
    smt_export.EXPORT_DIR = directory.resolve()  # the cvc5 helper opens the files from another directory
    os.environ["UDPM_SMT_DIR"] = str(smt_export.EXPORT_DIR)
    try:
        yield
    finally:
        smt_export.EXPORT_DIR = before
        if env is None:
            os.environ.pop("UDPM_SMT_DIR", None)
        else:
            os.environ["UDPM_SMT_DIR"] = env


def _conclude(args, ids, order, found, stored, out, full_run, started, staged_smt, staged_certs) -> int:
    """Judge, print and write: everything after the checks ran."""
    claims = catalog()
    # Verdicts are judged in dependency order, whatever order the checks finished in; a shard judges the
    # dependencies it ran for another shard exactly as a serial run does, and writes only its own claims.
    verdicts = judge_in_order(order, {cid: f for cid, (f, _) in found.items()})

    outcomes = []
    for cid in ids:
        result, seconds, want = verdicts[cid], found[cid][1], stored.get(cid)
        # --update-expected: no golden diff, this run becomes the golden record
        problems = golden_problems(cid, result, want, args.quick, compare=not args.update_expected)
        outcomes.append(Outcome(claims[cid], result, seconds, want["status"] if want else None, problems))
    if args.update_expected:  # refuse before anything is written
        expectations.refuse_unsettled({o.claim.id: expectations.record(o.result) for o in outcomes})

    print_summary(outcomes, time.perf_counter() - started)
    run_info = {
        "quick": args.quick,
        "seed": args.seed,
        "selection": args.only or None,
        "paper": args.paper,
    }
    text = with_metadata(document(outcomes, run_info), run_metadata(), args.shard)
    broken = schema_problems(json.loads(text))
    if broken:  # a record the published schema does not describe is a regression of the harness itself
        print("FAILED: the results document does not match udpm/results.schema.json:")
        for line in broken:
            print(f"  {line}")
        return EXIT_REGRESSION
    written: list[str] = []  # every file this run writes, as the user can use its path
    if args.json:
        outputs.atomic_write(args.json, text)
        written.append(outputs.shown(args.json))
    if args.junit:
        write_junit(args.junit, outcomes)
        written.append(outputs.shown(args.junit))
    emit_annotations(outcomes)  # GitHub Actions workflow annotations, only when GITHUB_ACTIONS=true
    certificates = export_certificates({o.claim.id: o.result for o in outcomes}, staged_certs)
    queries = len(list(staged_smt.glob("*.smt2")))
    outputs.publish(staged_certs, out / "certificates")
    outputs.publish(staged_smt, out / "smt")
    written.append(f"{outputs.shown(out / 'certificates')}/ ({len(certificates)} certificate file(s))")
    written.append(f"{outputs.shown(out / 'smt')}/ ({queries} SMT-LIB queries asked by this run)")
    if full_run:
        outputs.atomic_write(ERRATA_MD, errata_markdown(outcomes))
        written.append(outputs.shown(ERRATA_MD))
        from experiments.figures import render_all

        figures = render_all()
        written.append(f"{outputs.shown(PAPER_TABLES / 'figures')}/ ({len(figures)} figure(s))")
        from udpm.outputs.notebook import refresh_readme

        if refresh_readme(outcomes, run_info):
            written.append(f"{outputs.shown(ROOT / 'README.md')} (its results section)")
    if args.update_expected:
        changes = expectations.update({o.claim.id: expectations.record(o.result) for o in outcomes})
        print(f"updated {outputs.shown(expectations.EXPECTED)}: {len(changes)} change(s)")
        for line in changes:
            print(f"  {line}")
        written.append(outputs.shown(expectations.EXPECTED))
    if args.report:
        from udpm.outputs.notebook import ReportFailed, render_report

        try:
            path = render_report(outcomes, run_info, build=out)
        except ReportFailed as exc:  # a failing notebook cell fails the run (exit 1), with the cell's error
            print(f"{PROG}: report failed: {exc}", file=sys.stderr)
            _print_written(written)
            return EXIT_REGRESSION
        written += [outputs.shown(out / "results.json"), outputs.shown(out / "report.ipynb"), outputs.shown(path)]
    _print_written(written)
    return exit_status(outcomes)


def _print_written(written: list[str]) -> None:
    print("\nwrote:")
    for line in written:
        print(f"  {line}")


def exit_status(outcomes: list[Outcome]) -> int:
    """1 for any regression; else 3 when some claim is inconclusive; else 0.  Prints the digest of the findings,
    then names what fails, each in one line, and ends every run with one verdict line."""
    failing = [o for o in outcomes if o.problems]
    # An inconclusive claim differs from its golden record by nature; it is not a regression.
    regressions = [o for o in failing if o.result.status is not Status.INCONCLUSIVE]
    undecided = [o for o in failing if o.result.status is Status.INCONCLUSIVE]
    print_digest(outcomes)  # the findings, on the screen a terminal shows when the run is over
    if regressions:
        print(f"\nFAILED: {len(regressions)} claim(s) differ from paper_tables/expected.json:")
        for o in regressions:  # each in one line
            print(f"  {problem_line(o.claim.id, o.problems)}")
    if undecided:
        print(f"\nnot decided: {len(undecided)} claim(s) (a solver bound or a dependency; never a pass):")
        for o in undecided:
            print(f"  {problem_line(o.claim.id, o.problems)}")
    print(verdict_line(outcomes, len(regressions), len(undecided)))
    if regressions:
        return EXIT_REGRESSION
    return EXIT_INCONCLUSIVE if undecided else EXIT_OK


def verdict_line(outcomes: list[Outcome], regressions: int, undecided: int) -> str:
    """'140 claims: all as expected (26 proved, 54 verified, ...); 0 regressions', the last line of a run, right
    under the digest (udpm.outputs.console.verdict)."""
    return verdict(len(outcomes), summary(outcomes)["by_status"], regressions, undecided)


def main(argv: list[str] | None = None, prog: str = "reproduce.py") -> int:
    """Exit status as the module docstring says; bad input and interrupts are one line, prefixed by ``prog``."""
    global PROG
    PROG = prog
    try:
        argv = sys.argv[1:] if argv is None else argv
        if argv[:1] == ["merge"]:
            from udpm.run.shards import main as merge_main

            return merge_main(argv, prog=prog)
        args = parse_args(argv)
        if args.list:
            return list_claims()
        return run(args)
    except HarnessError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"{prog}: interrupted; nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
