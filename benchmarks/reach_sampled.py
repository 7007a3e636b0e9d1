#!/usr/bin/env python3
"""Reach of the sampled (and small-n all-consumer) checks in --full, with times: results/reach_sampled.json.

    nice -n 10 .venv/bin/python benchmarks/reach_sampled.py                 # both parts
    nice -n 10 .venv/bin/python benchmarks/reach_sampled.py --part bayes    # one part
    nice -n 10 .venv/bin/python benchmarks/reach_sampled.py --part claims --claims gs2010.thm1   # some claims

Parts:
  * claims: ``reproduce.py --full --only <id> --no-cache --json`` per claim (zlcn2013.thm1, twovar, thm5, thm4,
    gs2010.thm1), one process each; per claim the n range of its bounded and sampled instances, the instance counts, the
    claim's own seconds and its status;
  * bayes: the sampled users of the Bayesian universality claims (grs2011.cor3.3, grs2011.lemma5.11,
    grs2009.thm3.1) beyond their --full grid (n <= 5): per n = 6..BEYOND_N the boundary users and random legal
    users of proofs.universality.sample_users.beyond_users at BEYOND_ALPHAS, each one SAMPLED instance decided by the
    claim's
    own code (proofs.universality.scan.decide_users: every listed mechanism's best remap attains the certified
    optimum); per claim and n the instances, seconds and outcome.  These users are not yet in the claims' --full
    run (its n range is set in proofs/universality/scan.py).
A part's results replace that part in results/reach_sampled.json (the claims part claim by claim, so that
``--claims`` re-runs some and keeps the others); the other part is kept.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "results" / "reach_sampled.json"
CLAIMS = ("zlcn2013.thm1", "zlcn2013.twovar", "zlcn2013.thm5", "zlcn2013.thm4", "gs2010.thm1")
BAYES = ("grs2011.cor3.3", "grs2011.lemma5.11", "grs2009.thm3.1")


def n_range(grid: dict, kind: str) -> str:
    ns = sorted({n for g in grid.get(kind, []) for n in g["n"]})
    return "-" if not ns else f"{ns[0]}..{ns[-1]}" + ("" if ns == list(range(ns[0], ns[-1] + 1)) else f" ({ns})")


def claims_part(claims: tuple[str, ...]) -> dict:
    out = {}
    for claim in claims:
        with tempfile.TemporaryDirectory() as tmp:
            doc = Path(tmp) / "r.json"
            cmd = [sys.executable, "reproduce.py", "--full", "--only", claim, "--no-cache", "--json", str(doc)]
            t0 = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
            wall = round(time.perf_counter() - t0, 1)
            result = json.loads(doc.read_text())
            rec = next(c for c in result["claims"] if c["id"] == claim)
        kinds = {d["kind"] for d in rec["decisions"]} if isinstance(rec["decisions"], list) else set()
        out[claim] = {
            "command": f"nice -n 10 .venv/bin/python reproduce.py --full --only '{claim}' --no-cache --json r.json",
            "status": rec["status"],
            "bounded_n": n_range(rec["grid"], "bounded"),
            "sampled_n": n_range(rec["grid"], "sampled"),
            "alphas": sorted(
                {a for g in rec["grid"].get("bounded", []) + rec["grid"].get("sampled", []) for a in g["alphas"]}
            ),
            "instances": rec["instances"],
            "samples": rec["samples"],
            "kinds": sorted(kinds),
            "seconds": result["seconds"][claim],
            "wall_s": wall,
        }
        print(claim, out[claim]["status"], out[claim]["bounded_n"], out[claim]["sampled_n"], wall, "s", flush=True)
    return out


def bayes_part(budget: float) -> dict:
    from proofs.universality.mechanisms import DEFAULT_MECHANISMS
    from proofs.universality.sample_users import BEYOND_ALPHAS, BEYOND_N, beyond_users
    from proofs.universality.scan import decide_users
    from udpm.claims.registry import Context, Findings

    ctx = Context(quick=False, solver_timeout=120.0)
    out = {}
    for claim in BAYES:
        mechs_of = DEFAULT_MECHANISMS[claim]
        rec, certs, rng, rows = Findings(claim), [], ctx.rng(claim + " beyond"), {}
        start = time.perf_counter()
        reached = None
        for n in range(6, BEYOND_N + 1):
            t0 = time.perf_counter()
            before = len(rec.decisions)
            ok = all(decide_users(rec, mechs_of(n, a), beyond_users(rng, n), n, a, ctx, certs) for a in BEYOND_ALPHAS)
            rows[str(n)] = {
                "instances": len(rec.decisions) - before,
                "seconds": round(time.perf_counter() - t0, 3),
                "outcome": "every sampled user: holds" if ok else f"counterexample: {rec.counterexample}",
            }
            print(claim, n, rows[str(n)], flush=True)
            if not ok:
                break
            reached = n
            if time.perf_counter() - start > budget:
                break
        out[claim] = {
            "sampled_n": f"6..{reached}",
            "alphas": [str(a) for a in BEYOND_ALPHAS],
            "status": str(rec.status),
            "instances": len(rec.decisions),
            "seconds": round(time.perf_counter() - start, 2),
            "per_n": rows,
        }
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--part", choices=("claims", "bayes", "all"), default="all")
    p.add_argument("--claims", nargs="+", default=CLAIMS, help="the claims part's claims (default: all of them)")
    p.add_argument("--budget", type=float, default=300.0, help="seconds per Bayesian claim (stops after that n)")
    args = p.parse_args()
    doc = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    doc["machine"] = f"CPython {platform.python_version()}, {platform.machine()}, shared 2-core host (noisy)"
    doc["command"] = "nice -n 10 .venv/bin/python benchmarks/reach_sampled.py " + " ".join(sys.argv[1:])
    if args.part in ("claims", "all"):
        doc["claims"] = {**doc.get("claims", {}), **claims_part(tuple(args.claims))}
    if args.part in ("bayes", "all"):
        doc["bayes_beyond_full"] = bayes_part(args.budget)
    RESULTS.write_text(json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
