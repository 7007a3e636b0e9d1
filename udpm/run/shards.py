"""Splitting one run into shards, judging claims in dependency order, run metadata, and merging.

A run of the harness can be split over N machines (``reproduce.py --shard K/N``) and put back together
(``reproduce.py merge`` or ``python -m udpm.run.shards merge``)::

    python reproduce.py --shard 1/2 --json a.json      # on one machine
    python reproduce.py --shard 2/2 --json b.json      # on another
    python reproduce.py merge a.json b.json --json all.json --junit all.xml

**Selection.**  Shard K of N owns every N-th claim of the run's selection (``--only``/``--paper``, in
catalog order), starting at the K-th: the same claims on every machine, and shards of equal size to
within one claim.  Shards are disjoint and together cover the selection.

**Dependencies across shards.**  A claim's status is capped by the claims it depends on, so a shard
also *runs* every dependency of its own claims, whichever shard owns it, and judges it exactly as a
serial run does; it *writes* (JSON, JUnit, certificates, golden diff) only its own claims.  A dependency
in another shard is thus checked twice (once for the cap, once by its owner); that costs time, never
correctness, and keeps each shard's records byte-identical to those of a serial run.

**Merge.**  The merged document's claim records are byte-identical to a serial run's, in catalog
order, with the summary recomputed from them.  The merge refuses (exit 2, one line) a claim in two
documents, documents without run metadata or whose metadata differ (harness version, git commit,
Python, solver versions), documents of different run settings (quick/full, seed, selection), and
an incomplete or mixed set of shards: it merges either every shard 1/N..N/N of one run, or documents
none of which is a shard (per-paper runs, say).

**Run metadata** (:func:`run_metadata`) sits at the top level of a document, outside the claim
records, which therefore stay byte-identical across machines and times.

>>> shard_of(["a", "b", "c", "d", "e"], 2, 2)
['b', 'd']
>>> parse_shard("2/5")
(2, 5)
>>> parse_shard("6/5")
Traceback (most recent call last):
    ...
udpm.errors.InvalidInput: --shard 6/5: K must be between 1 and N
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import SimpleNamespace

from udpm.errors import HarnessError, InvalidInput
from udpm.internal.arguments import OneLineParser

ROOT = Path(__file__).resolve().parents[2]
#: Solver and exact-arithmetic packages whose versions a verdict may depend on: metadata key -> distribution.
SOLVERS = {"z3": "z3-solver", "cvc5": "cvc5", "highspy": "highspy", "sympy": "sympy", "python-flint": "python-flint"}


class MergeError(HarnessError):
    """Documents that cannot be merged into one run (overlap, mismatched versions or settings)."""


# ---------------------------------------------------------------------------------------------- selection


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` -> (K, N), 1 <= K <= N."""
    k, sep, n = text.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise InvalidInput(f"--shard {text}: expected K/N, e.g. 2/5")
    k_, n_ = int(k), int(n)
    if n_ < 1:
        raise InvalidInput(f"--shard {text}: N must be >= 1")
    if not 1 <= k_ <= n_:
        raise InvalidInput(f"--shard {text}: K must be between 1 and N")
    return k_, n_


def shard_of(ids: Sequence[str], index: int, count: int) -> list[str]:
    """The claims of shard ``index`` of ``count`` (1-based): every count-th id, from the index-th."""
    return list(ids[index - 1 :: count])


# ---------------------------------------------------------------------------------------------- judging


def judge_in_order(order: Sequence[str], found: Mapping[str, object]) -> dict:
    """Claim id -> verdict, judged in dependency ``order`` (whatever order the checks finished in)."""
    from udpm.claims.registry import judge

    statuses: dict = {}
    verdicts = {}
    for cid in order:
        verdicts[cid] = judge(cid, found[cid], statuses)
        statuses[cid] = verdicts[cid].status
    return verdicts


def golden_problems(
    cid: str, result: object, want: Mapping | None, quick: bool = True, *, compare: bool = True
) -> list[str]:
    """Why ``cid`` fails: a difference from its stored expectation ``want`` (its record in
    paper_tables/expected.json, None when it has none), a crash, a timeout, an unclassified erratum.

    A ``--full`` run widens grids, so only statuses and errata compare with the quick run's golden values.
    ``compare=False`` leaves out the golden comparison (a run that stores its records as the new golden ones).
    """
    from udpm.claims import expectations
    from udpm.outputs.results import problems_of

    if not compare:
        return problems_of(result, [])
    rec = expectations.record(result)
    if not quick and want is not None:
        want = {**want, "values": rec["values"], "grid": rec["grid"]}
    return problems_of(result, expectations.differences(cid, rec, want))


# ---------------------------------------------------------------------------------------------- metadata


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def harness_version() -> str:
    """The version in this checkout's pyproject.toml (so an un-reinstalled bump shows), else the installed one."""
    import tomllib

    try:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8")).get("project", {})
        if project.get("name") == "udpm" and isinstance(project.get("version"), str):
            return project["version"]
    except (OSError, tomllib.TOMLDecodeError):
        pass
    return _version("udpm") or "unknown"


def git_commit() -> str | None:
    """HEAD of the git checkout this harness runs from; None outside one (an installed copy inside some
    other project's repository does not borrow that project's commit)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--show-toplevel", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    if len(out) != 2 or Path(out[0]).resolve() != ROOT:
        return None
    return out[1]


def run_metadata() -> dict:
    """harness_version, git_commit (or None), python, and the solvers' versions (None when not installed)."""
    return {
        "harness_version": harness_version(),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "solvers": {key: _version(dist) for key, dist in SOLVERS.items()},
    }


def with_metadata(text: str, metadata: Mapping, shard: tuple[int, int] | None = None) -> str:
    """The document ``text`` (as udpm.outputs.results.document writes it) with top-level ``metadata`` (and
    ``shard``)."""
    doc = json.loads(text)
    doc["metadata"] = dict(metadata)
    if shard is not None:
        doc["shard"] = {"index": shard[0], "count": shard[1]}
    return dumps(doc)


def dumps(doc: Mapping) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------- merge


def _differs(a: object, b: object, prefix: str = "") -> str:
    """The first key where two metadata values differ, with both values."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                return _differs(a.get(key), b.get(key), f"{prefix}{key}.")
    return f"{prefix.rstrip('.')} {a!r} vs {b!r}"


def merge_documents(docs: Sequence[tuple[str, Mapping]]) -> dict:
    """One document from (name, document) pairs; raises :class:`MergeError` on anything a merge must refuse."""
    from udpm.outputs.results import summary

    if not docs:
        raise MergeError("nothing to merge")
    first_name, first = docs[0]
    for name, doc in docs:
        if not isinstance(doc.get("metadata"), Mapping):
            raise MergeError(f"{name} has no run metadata, so its versions cannot be checked; rerun it")
        if doc["metadata"] != first["metadata"]:
            raise MergeError(f"{name} and {first_name} differ in {_differs(doc['metadata'], first['metadata'])}")
        run, run0 = doc.get("run", {}), first.get("run", {})
        for key in ("quick", "seed"):
            if run.get(key) != run0.get(key):
                raise MergeError(f"{name} and {first_name} differ in run.{key}: {run.get(key)!r} vs {run0.get(key)!r}")
    owner: dict[str, str] = {}
    for name, doc in docs:
        for rec in doc["claims"]:
            if rec["id"] in owner:
                raise MergeError(f"claim {rec['id']} is in both {owner[rec['id']]} and {name}")
            owner[rec["id"]] = name

    shards = [doc.get("shard") for _, doc in docs]
    if any(shards):
        if not all(shards):
            raise MergeError("cannot merge shards with documents that are not shards")
        counts = {s["count"] for s in shards}
        if len(counts) != 1:
            raise MergeError(f"shards of different counts: {', '.join(f'/{c}' for c in sorted(counts))}")
        for name, doc in docs:
            if doc.get("run") != first.get("run"):
                raise MergeError(f"{name} and {first_name} are shards of different runs (run settings differ)")
        (count,) = counts
        seen: dict[int, str] = {}
        for (name, _), s in zip(docs, shards):
            if s["index"] in seen:
                raise MergeError(f"shard {s['index']}/{count} twice: {seen[s['index']]} and {name}")
            seen[s["index"]] = name
        missing = sorted(set(range(1, count + 1)) - set(seen))
        if missing:
            raise MergeError(f"shard(s) {', '.join(f'{k}/{count}' for k in missing)} missing")
        run = dict(first["run"])
    else:
        run = _union_run([doc["run"] for _, doc in docs])

    from udpm.claims.registry import catalog

    position = {cid: k for k, cid in enumerate(catalog())}
    records = sorted(
        (rec for _, doc in docs for rec in doc["claims"]), key=lambda r: (position.get(r["id"], len(position)), r["id"])
    )
    seconds = {cid: s for _, doc in docs for cid, s in doc.get("seconds", {}).items()}
    views = [
        SimpleNamespace(
            claim=SimpleNamespace(paper=r["paper"]),
            result=SimpleNamespace(status=r["status"], errata=r.get("errata", [])),
            problems=r.get("problems", []),
        )
        for r in records
    ]
    return {
        "schema": first.get("schema"),
        "run": run,
        "claims": records,
        "summary": summary(views),
        "seconds": {r["id"]: seconds[r["id"]] for r in records if r["id"] in seconds},
        "metadata": first["metadata"],
    }


def _union_run(runs: Sequence[Mapping]) -> dict:
    """The run block of documents that are not shards (per-paper runs, say): the union of their filters."""
    if any(r.get("selection") is None and r.get("paper") is None for r in runs):
        selection = None  # one of them was unfiltered
    else:
        selection = []
        for r in runs:
            for pattern in r.get("selection") or [f"{r['paper']}.*"]:
                if pattern not in selection:
                    selection.append(pattern)
    papers = {r.get("paper") for r in runs}
    paper = papers.pop() if len(papers) == 1 else None
    return {"quick": runs[0].get("quick"), "seed": runs[0].get("seed"), "selection": selection, "paper": paper}


def load_documents(paths: Iterable[Path]) -> list[tuple[str, dict]]:
    from udpm.claims.records import RecordsError, load

    out = []
    for path in paths:
        try:
            out.append((str(path), load(Path(path))))
        except RecordsError as exc:
            raise MergeError(str(exc)) from None
    return out


def main(argv: Sequence[str] | None = None, prog: str = "python -m udpm.run.shards") -> int:
    """``merge A.json B.json ... --json OUT [--junit OUT.xml]``: writes the merged run and ends in its verdict line.

    Exit status as ``reproduce.py``'s: 0 every merged claim as expected; 1 a merged claim has a problem (a
    regression in the shard that ran it); 3 a claim not decided and nothing regressed; 2 refused, one line: no
    output asked for, an unusable output path, documents that do not merge."""
    args = list(sys.argv[1:] if argv is None else argv)
    p = OneLineParser(
        prog=f"{prog} merge", description="merge the documents of shards or filtered runs into one run's outputs"
    )
    p.add_argument("documents", nargs="+", type=Path, metavar="DOC.json")
    p.add_argument("--json", type=Path, metavar="PATH", help="write the merged results document here")
    p.add_argument("--junit", type=Path, metavar="PATH", help="write JUnit XML of the merged run, one case per claim")
    if not args or args[0] != "merge":
        print(f"usage: {prog} merge A.json B.json ... --json OUT.json [--junit OUT.xml]", file=sys.stderr)
        return 2
    try:
        ns = p.parse_args(args[1:])
    except InvalidInput as exc:
        print(f"{prog} merge: error: {exc}", file=sys.stderr)
        return 2
    if ns.json is None and ns.junit is None:
        print(f"{prog} merge: error: nothing to write: give --json PATH and/or --junit PATH", file=sys.stderr)
        return 2
    try:
        from udpm.internal.files import atomic_write, check_file
        from udpm.outputs.junit import from_document, write_junit
        from udpm.outputs.results import schema_problems

        check_file(ns.json, "--json")
        check_file(ns.junit, "--junit")
        merged = merge_documents(load_documents(ns.documents))
        broken = schema_problems(merged)
        if broken:
            raise MergeError(f"the merged document does not match udpm/results.schema.json: {broken[0]}")
        if ns.json:
            atomic_write(ns.json, dumps(merged))
        if ns.junit:
            write_junit(ns.junit, from_document(merged))
    except HarnessError as exc:
        print(f"{prog} merge: error: {exc}", file=sys.stderr)
        return 2
    written = ", ".join(str(x) for x in (ns.json, ns.junit) if x)
    print(f"merged {len(merged['claims'])} claim records from {len(ns.documents)} documents; wrote {written}")
    return merged_verdict(merged)


def merged_verdict(doc: Mapping) -> int:
    """Print the merged run's digest of findings, its regressions, then its verdict line (the last line), as a run
    prints them; the exit status of that run."""
    from udpm.outputs.console import print_digest_of, problem_line, verdict

    claims = doc["claims"]
    print_digest_of(claims)
    regressions = [c for c in claims if c.get("problems") and c["status"] != "inconclusive"]
    undecided = [c for c in claims if c.get("problems") and c["status"] == "inconclusive"]
    for title, group in (("FAILED", regressions), ("not decided", undecided)):
        if group:
            print(f"{title}: {len(group)} claim(s):")
            for c in group:  # each in one line
                print(f"  {problem_line(c['id'], c['problems'])}")
    print(verdict(len(claims), doc["summary"]["by_status"], len(regressions), len(undecided)))
    return 1 if regressions else 3 if undecided else 0


if __name__ == "__main__":
    sys.exit(main())
