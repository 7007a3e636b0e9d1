#!/usr/bin/env python3
"""Reach of the zlcn2013 Theorem 7 proof (proofs/countrange/thresholds.py, pieces by proofs/countrange/recurrences.py):
the largest n
proved symbolically in alpha.

    .venv/bin/python benchmarks/reach_thresholds.py                  # n up to 14, budget 300 s
    .venv/bin/python benchmarks/reach_thresholds.py --max-n 20 --budget 600

For each n, for recurrence (2) and (3): the n+1 pieces of beta are derived from the recurrence, and at
both ends of every piece t = M^-1 z is certified (M t = z as rational functions of alpha) and shown to lie
in [0, 1] for every alpha > 1.  Stops at the first n whose cumulative time exceeds the budget.  Results
are merged into results/reach_c1.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proofs.countrange import recurrences as rc
from proofs.countrange import thresholds as th
from udpm.claims.registry import Context

RESULTS = Path(__file__).resolve().parent / "results" / "reach_c1.json"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--max-n", type=int, default=14)
    p.add_argument("--budget", type=float, default=300.0)
    p.add_argument("--solver-timeout", type=float, default=60.0)
    args = p.parse_args()
    start, per_n, reached = time.perf_counter(), {}, None
    for n in range(1, args.max_n + 1):
        t0 = time.perf_counter()
        pieces = {rec.name: th.symbolic_reach(n, rec, args.solver_timeout) for rec in (rc.EQ2, rc.EQ3)}
        per_n[n] = {"seconds": round(time.perf_counter() - t0, 3), "pieces": pieces}
        reached = n
        if time.perf_counter() - start > args.budget:
            break
    t1 = time.perf_counter()
    ctx = Context(quick=False, solver_timeout=args.solver_timeout)
    claims = {
        "zlcn2013.thm7": str(th.threshold_universality(ctx).status),
        "zlcn2013.eq2": str(rc.recurrence_closed_form(ctx).status),
    }
    payload = {
        "what": "zlcn2013 Theorem 7 (and Theorem 6 via (3)): t = M^-1 z in [0,1], symbolic alpha > 1, per n",
        "largest_n": reached,
        "total_s": round(t1 - start, 3),
        "per_n": {k: per_n[k] for k in list(per_n)[-4:]},
        "claims_full_mode": claims,
        "claims_full_mode_s": round(time.perf_counter() - t1, 3),
        "machine": f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        "shared 2-core host (times are noisy)",
    }
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data["thresholds"] = payload
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
