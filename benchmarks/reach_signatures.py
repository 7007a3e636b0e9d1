#!/usr/bin/env python3
"""Reach of the signature proofs (proofs/signatures/optimal_mechanisms.py, vertex_remaps.py): the largest n proved per
alpha, and times.

    .venv/bin/python benchmarks/reach_signatures.py                      # n up to 8, budget 150 s per alpha
    .venv/bin/python benchmarks/reach_signatures.py --max-n 10 --budget 600 --alphas 1/2

For each alpha and n = 1, 2, ...: every lemma of proofs.signatures.lemmas.PROPERTIES (grs2011 Lemmas 5.3, 5.5,
5.6, 5.8, 5.9; grs2009 Lemmas 5.4-5.9, Corollary 5.7) is proved by z3 unsat of its negation (vertex
lemmas with the exact rank CEGAR), and every structured signature is checked against its remap of T
(grs2011 Lemma 5.10, grs2009 Lemma 5.11).  An alpha stops at the first n whose cumulative time exceeds
the budget or whose solver call times out.  Results are merged into results/reach_c2.json ("signatures").
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

from proofs.signatures import encoding as enc
from proofs.signatures import lemmas as sl
from proofs.signatures import vertex_remaps as vr
from proofs.signatures.remapped_column import ALPHAS
from udpm.core.signatures import remap_from_signature
from udpm.errors import SolverTimeout

RESULTS = Path(__file__).resolve().parent / "results" / "reach_c2.json"


def one_n(n: int, a: Fraction, timeout: float) -> dict:
    per, excluded = {}, {}
    for cid, prop in sl.PROPERTIES.items():
        t0 = time.perf_counter()
        found = enc.search(n, a, prop, timeout)
        cex, k = found.counterexample, found.excluded
        if cex is not None:
            raise AssertionError(f"{cid} refuted at n={n}, alpha={a}: {cex}")
        per[cid] = round(time.perf_counter() - t0, 3)
        if k:
            excluded[cid] = k
    t0 = time.perf_counter()
    for sig in vr.interval_signatures(n):
        bad = vr.remap_check(n, a, sig, remap_from_signature) or vr.remap_check(n, a, sig, vr.grs2009_remap)
        if bad:
            raise AssertionError(bad)
    per["remaps (5.10 / 5.11)"] = round(time.perf_counter() - t0, 3)
    return {"per_lemma_s": per, "non_vertex_models_excluded": excluded, "total_s": round(sum(per.values()), 3)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--max-n", type=int, default=8)
    p.add_argument("--budget", type=float, default=150.0, help="seconds per alpha")
    p.add_argument("--solver-timeout", type=float, default=120.0)
    p.add_argument("--alphas", nargs="*", default=[str(a) for a in ALPHAS])
    args = p.parse_args()
    out = {}
    for text in args.alphas:
        a = Fraction(text)
        start, reached, per_n, status = time.perf_counter(), None, {}, "ok"
        for n in range(1, args.max_n + 1):
            try:
                per_n[n] = one_n(n, a, args.solver_timeout)
            except SolverTimeout as exc:
                status = f"timeout at n={n}: {exc}"
                break
            reached = n
            print(f"alpha={a} n={n}: {per_n[n]['total_s']} s", flush=True)
            if time.perf_counter() - start > args.budget:
                status = f"budget {args.budget:g} s reached after n={n}"
                break
        out[str(a)] = {
            "largest_n": reached,
            "status": status,
            "total_s": round(time.perf_counter() - start, 2),
            "per_n": {str(k): v for k, v in per_n.items()},
        }
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data["signatures"] = {
        "machine": f"CPython {platform.python_version()}, {platform.machine()}, shared 2-core host (times are noisy)",
        "command": " ".join(sys.argv),
        "per_alpha": out,
        "largest_n_overall": max((v["largest_n"] or 0) for v in out.values()),
    }
    RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(json.dumps({a: (v["largest_n"], v["total_s"], v["status"]) for a, v in out.items()}, indent=1))


if __name__ == "__main__":
    main()
