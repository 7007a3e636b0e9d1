#!/usr/bin/env python3
"""Reach of zlcn2013 Theorem 4's exact worst ratio (proofs/countrange/worst_ratio.py), per n, with times.

    nice -n 10 .venv/bin/python benchmarks/reach_thm4.py --max-n 7 --budget 900

Per n = 1, 2, ...: the legal polytope's vertices (legal_vertices) at every alpha of the --full grid, the exact
worst ratio over all consumers for every count range and threshold (worst_ratio: one certified LP per minimal
error profile), and the closed forms in zlcn's alpha (closed_forms: the optimal basis at each grid alpha solved
in A, its proved interval, equality with the exact ratio at the grid alphas inside).  The same computation as
``reproduce.py --full --only zlcn2013.thm4`` per n (whose --full scope is n <= 6).  Stops after the first n whose
cumulative time exceeds --budget.  Writes results/reach_thm4.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proofs.countrange import closed_forms as cf
from proofs.countrange import legal_lp as cr
from proofs.countrange import legal_polytope as lpoly
from proofs.countrange import worst_ratio as wr
from proofs.countrange.alpha import zlcn_label
from udpm.claims.registry import Context

RESULTS = Path(__file__).resolve().parent / "results" / "reach_thm4.json"
ALPHAS = (*cr.ALPHAS_Z, Fraction(100))  # the --full grid of zlcn2013.thm4


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--max-n", type=int, default=7)
    p.add_argument("--budget", type=float, default=900.0)
    p.add_argument("--solver-timeout", type=float, default=120.0)
    args = p.parse_args()
    ctx = Context(quick=False, solver_timeout=args.solver_timeout)
    start = time.perf_counter()
    per_n: dict = {}
    for n in range(1, args.max_n + 1):
        row: dict = {"alphas": {}, "closed_forms": {}}
        t0 = time.perf_counter()
        thetas = [t for t in cr.theta_pairs(n) if not (t[0] == 0 and (t[1] is None or t[1] == n))]
        exact: dict = {t: {} for t in thetas}
        for A in ALPHAS:
            ta = time.perf_counter()
            verts = lpoly.legal_vertices(n, A)
            tv = time.perf_counter() - ta
            lps = worst = 0
            for t in thetas:
                lps += len(wr.minimal_profiles(wr.error_profile(u, *t) for u in verts))
                exact[t][A] = wr.worst_ratio(n, A, *t, ctx)
                worst = max(worst, exact[t][A][0])
            row["alphas"][zlcn_label(A)] = {
                "vertices": len(verts),
                "vertices_s": round(tv, 3),
                "lps": lps,
                "worst_ratio": str(worst),
                "seconds": round(time.perf_counter() - ta, 3),
            }
            print(f"n={n} {zlcn_label(A)}: {len(verts)} vertices, {lps} LPs, worst {worst}", flush=True)
        row["exact_s"] = round(time.perf_counter() - t0, 3)
        tc = time.perf_counter()
        for t in thetas:
            if any(v[0] != 1 for v in exact[t].values()):
                row["closed_forms"][cr.theta_text(*t)] = json.loads(cf.closed_forms(n, *t, exact[t], ctx))
        row["closed_forms_s"] = round(time.perf_counter() - tc, 3)
        row["seconds"] = round(time.perf_counter() - t0, 3)
        ok = all(v[0] is not None and v[0] <= 2 for e in exact.values() for v in e.values())
        row["status"] = "verified" if ok else "REFUTED"
        per_n[str(n)] = row
        print(f"n={n}: {row['seconds']} s (closed forms {row['closed_forms_s']} s)", flush=True)
        if time.perf_counter() - start > args.budget:
            break
    out = {
        "claim": "zlcn2013.thm4",
        "machine": f"CPython {platform.python_version()}, {platform.machine()}, shared 2-core host (times are noisy)",
        "command": "nice -n 10 .venv/bin/python benchmarks/reach_thm4.py " + " ".join(sys.argv[1:]),
        "largest_n": max(map(int, per_n)),
        "method": "per (n, alpha, theta): the exact worst ratio over all consumers = 1 / min over the legal polytope's "
        "vertices (minimal error profiles only) of a certified LP; closed forms: the optimal basis at each grid alpha "
        "solved in A, 'proved' its interval of primal and dual feasibility (a proved lower bound on the worst ratio "
        "there), 'equals_exact_at' the grid alphas inside where it is the exact ratio (between them: sampled)",
        "per_n": per_n,
        "total_s": round(time.perf_counter() - start, 2),
    }
    RESULTS.write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
