#!/usr/bin/env python3
"""Reach of the every-user decisions (udpm.auditing.every_user, proofs/universality/converse.py): n and seconds per (n,
alpha).

    .venv/bin/python benchmarks/reach_every_user.py                 # n up to 6 at 1/2, budget 600 s
    .venv/bin/python benchmarks/reach_every_user.py --max-n 7 --budget 1200

For each alpha and n = 1, 2, ...: T(n, alpha) against every legal user (grs2011 Theorem 3.2's users: one SMT
query per (ray with a negative coordinate, output)), against every user with a loss nondecreasing on each
side (gs2010's consumers, through LP duality), and the converse of grs2011 Lemma 5.10 (every candidate vertex
T·D decided).  A row stops at the first n whose cumulative time exceeds the budget share of that row.  The
results (queries, seconds, verdict) are merged into results/reach_c1.json under "every_user".
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

from proofs.universality import converse
from udpm.auditing.every_user import LEGAL, SIDED, optimal_for_every_user
from udpm.core.mechanisms import truncated_geometric

RESULTS = Path(__file__).resolve().parent / "results" / "reach_c1.json"
ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(99, 100))


def every_user_row(a: Fraction, kind: str, max_n: int, budget: float, timeout: float) -> dict:
    out, spent = {}, 0.0
    for n in range(1, max_n + 1):
        t0 = time.perf_counter()
        v = optimal_for_every_user(truncated_geometric(n, a), a, kind, timeout)
        dt = time.perf_counter() - t0
        spent += dt
        out[str(n)] = {"seconds": round(dt, 3), "queries": v.queries, "holds": v.holds}
        if spent > budget:
            break
    return out


def converse_row(a: Fraction, max_n: int, budget: float, timeout: float) -> dict:
    out, spent = {}, 0.0
    for n in range(1, max_n + 1):
        t0 = time.perf_counter()
        cands = converse.remap_candidates(n, a)
        vertices = [x for x in cands if converse.is_vertex(x, a)]
        monotone = {x: converse.tails(x) for x, d in cands.items() if converse.nondecreasing(d)}
        unique = 0
        for x in vertices:
            if converse._dominating(x, monotone) is None:
                unique += converse.unique_optimum_user([list(r) for r in x], a, timeout) is not None
        dt = time.perf_counter() - t0
        spent += dt
        out[str(n)] = {"seconds": round(dt, 3), "vertices": len(vertices), "unique_optima": unique}
        if spent > budget:
            break
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--max-n", type=int, default=6)
    p.add_argument("--budget", type=float, default=600.0)
    p.add_argument("--solver-timeout", type=float, default=120.0)
    args = p.parse_args()
    share = args.budget / (2 * len(ALPHAS) + 1)
    start = time.perf_counter()
    payload: dict = {"legal users (grs2011 Thm 3.2)": {}, "one-sided losses (gs2010 Thm 1 via LP duality)": {}}
    for a in ALPHAS:
        payload["legal users (grs2011 Thm 3.2)"][str(a)] = every_user_row(
            a, LEGAL, args.max_n, share, args.solver_timeout
        )
        payload["one-sided losses (gs2010 Thm 1 via LP duality)"][str(a)] = every_user_row(
            a, SIDED, args.max_n, share, args.solver_timeout
        )
    payload["converse of grs2011 Lemma 5.10"] = {"1/2": converse_row(Fraction(1, 2), 5, share, args.solver_timeout)}
    payload["total_s"] = round(time.perf_counter() - start, 3)
    payload["machine"] = (
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        "shared 2-core host (times are noisy; other jobs ran alongside)"
    )
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data["every_user"] = payload
    RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
