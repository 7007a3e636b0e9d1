"""The Dask executor on this machine: serial vs a 2-worker LocalCluster, overhead per task, a cached rerun.

    .venv/bin/python benchmarks/dask_benchmark.py [--claim grs2011.lemma5.5] [--alpha 1/2] [--n-max 6]

The subset: one signature lemma's tasks at one alpha, n = 1..n_max (a --full plan's instances; each task is
one (n, alpha), decided by udpm.run.executor.decide_task exactly as a run decides it).  Records, in
benchmarks/results/dask.json: each task's serial seconds; the wall time of the same tasks on a LocalCluster
of 2 single-threaded workers (cluster start apart); the round trip of a no-op task (the executor's overhead
per task); the time of a rerun answered by the cache; and, from the measured growth per n, an estimate of
n = 8 on 64 workers (the critical path is one (n, alpha) task: a task is never split further).

End to end (the default; ``--no-end-to-end`` skips it): the whole claim as a user runs it,
``reproduce.py --full --only CLAIM`` (every alpha of its --full grid), as separate processes, timed from start
to exit: serial (filling a fresh cache), ``--jobs 2`` without the cache, and the serial rerun answered by that
cache; the three documents' claim records are compared (``udpm.claims.records same``).  A run that exits non-zero
stops the benchmark: its time would measure nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from udpm.claims.evidence import Result  # noqa: E402
from udpm.claims.registry import Context, load_checkers  # noqa: E402
from udpm.run import executor  # noqa: E402
from udpm.run.cache import Cache, to_payload  # noqa: E402

OUT = ROOT / "benchmarks" / "results" / "dask.json"


def noop(k: int) -> int:
    return k


def spin(_: int = 0) -> float:
    """Seconds of a fixed pure-Python loop (one core's worth of work)."""
    t = time.perf_counter()
    x = 0
    for i in range(20_000_000):
        x += i
    return time.perf_counter() - t


def parallel_capacity(workers: int) -> float:
    """How many cores' worth of work ``workers`` processes get at once: workers x (one alone) / (all at once)."""
    from concurrent.futures import ProcessPoolExecutor

    alone = spin()
    with ProcessPoolExecutor(workers) as pool:
        together = max(pool.map(spin, range(workers)))
    return workers * alone / together


def end_to_end(claim: str, workers: int) -> dict:
    """Wall seconds of reproduce.py --full --only CLAIM: serial (filling a cache), --jobs N, a cached rerun."""
    runs = {
        "serial_seconds": ["--cache-dir", "{cache}"],
        f"jobs_{workers}_seconds": ["--no-cache", "--jobs", str(workers)],
        "cached_rerun_seconds": ["--cache-dir", "{cache}"],
    }
    out: dict = {"command": f"reproduce.py --full --only {claim} --json DOC [flags]"}
    with tempfile.TemporaryDirectory() as d:
        docs = []
        for label, flags in runs.items():
            docs.append(str(Path(d) / f"{label}.json"))
            args = [a.replace("{cache}", str(Path(d) / "cache")) for a in flags]
            cmd = [sys.executable, "reproduce.py", "--full", "--only", claim, "--json", docs[-1], *args]
            t = time.perf_counter()
            done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
            if done.returncode != 0:  # a failed run's time measures nothing
                tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
                raise SystemExit(f"{' '.join(cmd[1:])}: exit {done.returncode}: {tail[0]}")
            out[label] = round(time.perf_counter() - t, 2)
            out[label.replace("seconds", "flags")] = " ".join(flags).replace("{cache}", "D")
            print(f"{label}: {out[label]} s", file=sys.stderr, flush=True)
        same = subprocess.run(
            [sys.executable, "-m", "udpm.claims.records", "same", *docs], cwd=ROOT, capture_output=True
        )
        out["records_identical"] = same.returncode == 0
    out[f"speedup_jobs_{workers}"] = round(out["serial_seconds"] / out[f"jobs_{workers}_seconds"], 2)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--claim", default="grs2011.lemma5.5")
    p.add_argument("--alpha", default="1/2")
    p.add_argument("--n-max", type=int, default=6)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--no-end-to-end", dest="end_to_end", action="store_false", help="skip the reproduce.py runs")
    args = p.parse_args()
    load_checkers()
    load = [round(x, 2) for x in os.getloadavg()]
    capacity = parallel_capacity(args.workers)
    ctx = Context(quick=False)
    tasks = [(n, str(Fraction(args.alpha))) for n in range(1, args.n_max + 1)]

    serial: dict[str, float] = {}
    results = {}
    start = time.perf_counter()
    for task in tasks:
        found, seconds = executor.decide_task(args.claim, task, ctx)
        if isinstance(found, Result):
            raise SystemExit(f"{task}: {found.status} {found.reason}")
        results[task] = found
        serial[f"n={task[0]}"] = round(seconds, 3)
        print(f"serial {task}: {seconds:.2f} s", file=sys.stderr, flush=True)
    serial_wall = time.perf_counter() - start

    t0 = time.perf_counter()
    with executor.dask_client(args.workers) as client:
        startup = time.perf_counter() - t0
        t1 = time.perf_counter()
        futs = [client.submit(noop, k, pure=False) for k in range(200)]
        client.gather(futs)
        overhead = (time.perf_counter() - t1) / 200
        t2 = time.perf_counter()
        futs = [client.submit(executor.decide_task, args.claim, task, ctx, pure=False) for task in reversed(tasks)]
        remote = client.gather(futs)
        dask_wall = time.perf_counter() - t2
    same = all(
        json.dumps(to_payload(f), sort_keys=True) == json.dumps(to_payload(results[t]), sort_keys=True)
        for (f, _), t in zip(remote, reversed(tasks), strict=True)
    )

    with tempfile.TemporaryDirectory() as d:
        cache = Cache(Path(d))
        for task, found in results.items():
            cache.put(executor.task_key(cache, args.claim, task, ctx), found)
        t3 = time.perf_counter()
        hits = [cache.get(executor.task_key(cache, args.claim, task, ctx)) for task in tasks]
        cached = time.perf_counter() - t3
    assert all(h is not None for h in hits)

    # growth per n: the geometric mean over the last two steps (n_max-2 -> n_max); n = 8 extrapolated from it
    last, prev = serial[f"n={args.n_max}"], serial[f"n={args.n_max - 2}"]
    growth = math.sqrt(last / prev) if prev > 0 else float("nan")
    est = {f"n={n}": round(last * growth ** (n - args.n_max), 1) for n in range(args.n_max + 1, 9)}
    t8 = last * growth ** (8 - args.n_max)
    # an n = 8 run of the signature lemmas: 11 planned claims x 5 alphas, each task (n, alpha) on one worker
    per_alpha_claim = sum(last * growth ** (n - args.n_max) for n in range(1, 9))
    total = 11 * 5 * per_alpha_claim
    wall64 = max(t8, total / 64)
    doc = {
        "what": f"{args.claim} tasks at alpha={args.alpha}, n=1..{args.n_max} (the --full plan's instances)",
        "machine": f"{os.cpu_count()} cores; load average at start and end recorded",
        "load_average_at_start": load,
        "serial_seconds_per_task": serial,
        "serial_wall_seconds": round(serial_wall, 2),
        f"localcluster_{args.workers}_workers_wall_seconds": round(dask_wall, 2),
        "speedup": round(serial_wall / dask_wall, 2),
        "localcluster_startup_seconds": round(startup, 2),
        "overhead_per_task_seconds": round(overhead, 4),
        "cached_rerun_seconds": round(cached, 4),
        "records_equal_serial": same,
        "machine_parallel_capacity": round(capacity, 2),
        "speedup_bound": round(serial_wall / max(max(serial.values()), serial_wall / capacity), 2),
        "speedup_bound_is": f"serial / max(the longest task, serial / capacity): {args.workers} processes at once get "
        f"{capacity:.2f} cores' worth of work on this machine (a fixed loop, alone and {args.workers} at once)",
        "growth_per_n": round(growth, 2),
        "estimated_serial_seconds_per_task": est,
        "estimate_n8_64_workers": {
            "assumption": "every signature lemma (11 planned claims) at 5 alphas, n = 1..8, one task per (n, alpha); "
            "each claim/alpha costs what this one does, growth per n: geometric mean from n_max-2 to n_max",
            "total_cpu_hours": round(total / 3600, 1),
            "critical_path_seconds": round(t8, 0),
            "wall_seconds_on_64_workers": round(wall64, 0),
            "note": "the wall time cannot go below the single n=8 task; more workers do not help past "
            f"{math.ceil(total / t8) if t8 > 0 else 'n/a'} of them",
        },
    }
    if args.end_to_end:
        doc["end_to_end"] = end_to_end(args.claim, args.workers)
        doc["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n")
    print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
