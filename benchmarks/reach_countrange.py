#!/usr/bin/env python3
"""Reach of the count-range impossibility proofs (proofs/countrange*.py): alphas and n covered, and times.

    .venv/bin/python benchmarks/reach_countrange.py                     # n up to 9, budget 150 s per part
    .venv/bin/python benchmarks/reach_countrange.py --max-n 12 --budget 600

Parts:
  * lemma1 / lemma2 / thm3 (n = 3, proofs/countrange/lemma2.py): z3 unsat per rational zlcn alpha and for symbolic
    alpha, every m (split-and-merge reduction, module docstring of proofs/countrange/derivation.py);
  * corollary2_symbolic: for n = 3, 4, ... and every 1 <= theta1 < theta2 <= n-1, no DP matrix derives
    Lemma 3's x and y, symbolic alpha (z3 nlsat, internal a = 1/alpha in (0, 1));
  * lemma3_rational (proofs/countrange/lemma3.py): for each rational zlcn alpha, n = 3, 4, ...: x, y legal,
    each the certified unique optimum of a consumer found by z3, windows = x-hat / y-hat, no DP matrix derives
    both.
A part stops at the first n whose cumulative time exceeds the budget.  Results are merged into
results/reach_c2.json ("countrange").  Alphas are zlcn2013's labels (alpha > 1); proofs/countrange*.py compute
with the internal a = 1/alpha (proofs/countrange/alpha.py).

    .venv/bin/python benchmarks/reach_countrange.py --consumers --max-n 5

instead times the all-consumers instances of zlcn2013.thm1, zlcn2013.twovar and zlcn2013.thm5
(proofs/countrange/cones.py) per n at every alpha of ALPHAS_Z, every theta, and writes
results/reach_countrange_consumers.json: per claim and n the seconds, the outcome, the vertex counts.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from proofs.countrange import alpha as ca
from proofs.countrange import derivation as cd
from proofs.countrange import lemma2 as c
from proofs.countrange import lemma3 as c3
from proofs.countrange import vectors as cv
from udpm.claims.registry import Context

RESULTS = Path(__file__).resolve().parent / "results" / "reach_c2.json"


def timed(fn) -> tuple[object, float]:
    t0 = time.perf_counter()
    out = fn()
    return out, round(time.perf_counter() - t0, 3)


def per_n(name: str, check, max_n: int, budget: float) -> dict:
    start, reached, times = time.perf_counter(), None, {}
    for n in range(3, max_n + 1):
        fail, sec = timed(lambda n=n: check(n))
        if fail:
            return {"part": name, "status": f"FAILED at n={n}: {fail}", "per_n_s": times}
        times[str(n)], reached = sec, n
        print(f"{name} n={n}: {sec} s", flush=True)
        if time.perf_counter() - start > budget:
            break
    return {
        "part": name,
        "status": "ok",
        "largest_n": reached,
        "per_n_s": times,
        "total_s": round(time.perf_counter() - start, 2),
    }


def consumers(max_n: int, budget: float, solver_timeout: float) -> None:
    """The all-consumers reach of Theorem 1, Section 3.1 and Theorems 5, 6 (bounded instances only)."""
    from proofs.countrange import cones
    from proofs.countrange import consumers as cc
    from proofs.countrange.legal_lp import ALPHAS_Z, theta_pairs
    from proofs.countrange.legal_polytope import legal_vertices
    from udpm.claims.findings import Findings

    ctx = Context(quick=True, solver_timeout=solver_timeout)
    out: dict = {"vertices": {}, "claims": {}}

    def run(claim: str, n: int, A) -> Findings:
        rec, stats = Findings(claim), cones.new_stats()
        if claim == "zlcn2013.thm5":
            for t1, t2, r in cc.threshold_queries(n):
                cones.all_consumers_threshold(rec, ctx, n, A, t1, t2, r, None, stats)
        else:
            for t1, t2 in theta_pairs(n):
                cones.all_consumers_two(rec, ctx, n, A, t1, t2, with5=claim == "zlcn2013.thm1", stats=stats)
        return rec

    start = time.perf_counter()
    for n in range(1, max_n + 1):
        (verts, sec) = timed(lambda n=n: [len(legal_vertices(n, A)) for A in ALPHAS_Z])
        out["vertices"][str(n)] = {"per_alpha": dict(zip(map(ca.zlcn_label, ALPHAS_Z), verts)), "seconds": sec}
        print(f"legal_vertices n={n}: {verts} in {sec} s", flush=True)
        for claim in ("zlcn2013.thm1", "zlcn2013.twovar", "zlcn2013.thm5"):
            for A in ALPHAS_Z:
                rec, sec = timed(lambda claim=claim, n=n, A=A: run(claim, n, A))
                row = out["claims"].setdefault(claim, {}).setdefault(str(n), {})
                row[ca.zlcn_label(A)] = {"status": str(rec.status), "instances": len(rec.decisions), "seconds": sec}
                print(f"{claim} n={n} {ca.zlcn_label(A)}: {rec.status} {sec} s", flush=True)
        if time.perf_counter() - start > budget:
            break
    out.update(
        machine=f"CPython {platform.python_version()}, {platform.machine()}, shared 2-core host (times are noisy)",
        command=" ".join(sys.argv),
        method="per (n, alpha, theta): every legal-polytope vertex; exact dominance or a certified normal-cone LP "
        "decides which are the unique optimum of some consumer with all weights > 0; each must be of the claimed form "
        "(exact witness, else z3). Seconds per (claim, n, alpha) include that claim's LPs; the normal-cone LPs are "
        "cached per process, so the twovar and thm5 rows reuse thm1's. legal_vertices seconds are separate.",
        total_s=round(time.perf_counter() - start, 2),
    )
    path = RESULTS.parent / "reach_countrange_consumers.json"
    path.write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--consumers", action="store_true", help="time the all-consumers instances (thm1, twovar, thm5)")
    p.add_argument("--max-n", type=int, default=9)
    p.add_argument("--budget", type=float, default=150.0)
    p.add_argument("--solver-timeout", type=float, default=120.0)
    args = p.parse_args()
    if args.consumers:
        consumers(args.max_n, args.budget if args.budget != 150.0 else 3600.0, args.solver_timeout)
        return
    ctx = Context(quick=True, solver_timeout=args.solver_timeout)
    fixed = {}
    for name, fn in (("zlcn2013.lemma1", c.lemma1), ("zlcn2013.lemma2", c.lemma2)):
        res, sec = timed(lambda fn=fn: fn(ctx))
        fixed[name] = {"status": str(res.status), "scope": res.result().scope_text, "seconds": sec}
    per_alpha = {}
    for al in [*ca.ZLCN_ALPHAS, ca.SYMBOLIC]:
        (cex, _witness), sec = timed(
            lambda al=al: cd.derivation([cv.xhat, cv.yhat], al, args.solver_timeout, rows=(0, 1, 2))
        )
        per_alpha[ca.zlcn_label(al)] = {"no joint mechanism on counts 0..2": cex is None, "seconds": sec}
    fixed["zlcn2013.thm3 (n=3)"] = per_alpha

    def cor2_symbolic(n: int):
        for theta in c3.count_range_thetas(n):
            cex, _witness = cd.derivation(
                [lambda a, t=theta: cv.lemma3_x(n, *t, a), lambda a, t=theta: cv.lemma3_y(n, *t, a)],
                ca.SYMBOLIC,
                args.solver_timeout,
            )
            if cex:
                return f"theta={theta}: {cex}"
        return None

    def lemma3_rational(n: int):
        for theta in c3.count_range_thetas(n):
            for al in ca.ZLCN_ALPHAS:
                fail, _ = c3.lemma3_instance(n, theta, al, args.solver_timeout)
                if fail:
                    return fail
        return None

    parts = [
        per_n("corollary2_symbolic", cor2_symbolic, args.max_n, args.budget),
        per_n("lemma3_rational (6 alphas)", lemma3_rational, args.max_n, args.budget),
    ]
    data = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    data["countrange"] = {
        "machine": f"CPython {platform.python_version()}, {platform.machine()}, shared 2-core host (times are noisy)",
        "command": " ".join(sys.argv),
        "n3_results": fixed,
        "rational_alphas": [ca.zlcn_label(a) for a in ca.ZLCN_ALPHAS],
        "symbolic_alpha": "internal a = 1/alpha in (0, 1) as a z3 real (nlsat): lemma1, lemma2, thm3 (n=3), "
        "corollary2 for every n reached",
        "parts": parts,
    }
    RESULTS.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(json.dumps(parts, indent=1))


if __name__ == "__main__":
    main()
