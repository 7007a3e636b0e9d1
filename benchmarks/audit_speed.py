#!/usr/bin/env python3
"""Time ``udpm.audit`` against the code before the fast remap question, in one run.

    .venv/bin/python benchmarks/audit_speed.py            # every case below (n = 1000 takes minutes)
    .venv/bin/python benchmarks/audit_speed.py --quick    # n <= 200 only

Cases, at alpha = 1/2:

* **verdict with certificate** (no users, no witness) at n = 200 and n = 1000, for randomized response at the
  DP boundary (not universally optimal: a negative entry of M^-1 T), T(n, 1/2) with its columns rotated (a
  deterministic remap) and the tail-lumped geometric mechanism (non-square; the merge remap).  Targets:
  < 5 s at n = 200, < 60 s at n = 1000.
* **a non-optimal 60 x 60 mechanism with a witness user** (randomized response at the boundary, n = 59), the
  witness's certified optimum included.  Target: < 10 s.
* **a 1000 x 1000 audit with the witness off** (three users) within ``--budget`` seconds: each step decided
  or reported as timeout, the whole audit finished within the budget (plus the start-up of a child).

"baseline" is ``is_universally_optimal`` of the commit before the fast path (``BASELINE``: its whole tree,
extracted with ``git archive``, so that its ``udpm`` imports its own modules), run in a child process killed
after ``--baseline-cap`` seconds; where it is killed the ratio is a lower bound (">").  The child's time
excludes its imports.  The baseline is not run at n = 1000.
Results: benchmarks/results/audit_speed.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from udpm import audit  # noqa: E402
from udpm.auditing.adapters import lumped_geometric  # noqa: E402
from udpm.core.mechanisms import fast_truncated_geometric  # noqa: E402

BASELINE = "7eb347e"  # the last commit before the fast remap question (udpm/auditing/questions.py)
ALPHA = Fraction(1, 2)
OUT = ROOT / "benchmarks" / "results" / "audit_speed.json"


def boundary_rr(n: int) -> list[list[Fraction]]:
    beta = 1 / (1 + n * ALPHA)
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


def rotated_t(n: int) -> list[list[Fraction]]:
    return [row[1:] + row[:1] for row in fast_truncated_geometric(n, ALPHA)]


MECHANISMS = {
    "randomized response at the DP boundary": boundary_rr,
    "T(n, 1/2), columns rotated": rotated_t,
    "lumped geometric (n + 3 outputs)": lambda n: lumped_geometric(n, ALPHA),
}


#: The baseline's child: reads the matrix (rows of fraction strings) on stdin, prints its seconds and verdict.
CHILD = """
import json, sys, time
from fractions import Fraction
sys.path.insert(0, sys.argv[1])
from udpm.questions import is_universally_optimal
m = [[Fraction(v) for v in row] for row in json.load(sys.stdin)]
t0 = time.perf_counter()
u = bool(is_universally_optimal(m, Fraction(sys.argv[2]), witness=sys.argv[3] == "1"))
print(json.dumps({"seconds": round(time.perf_counter() - t0, 2), "optimal": u}))
"""


def baseline_tree(dest: Path) -> Path:
    """BASELINE's tracked files, extracted into ``dest``."""
    archive = subprocess.run(["git", "archive", BASELINE], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def timed_baseline(tree: Path, m, witness: bool, cap: float) -> dict:
    rows = json.dumps([[str(v) for v in row] for row in m])
    try:
        r = subprocess.run(
            [sys.executable, "-c", CHILD, str(tree), str(ALPHA), "1" if witness else "0"],
            input=rows,
            capture_output=True,
            text=True,
            timeout=cap,
            cwd=tree,
        )
    except subprocess.TimeoutExpired:
        return {"seconds": None, "killed_after": cap}
    if r.returncode:
        last = (r.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"audit_speed: the baseline at {BASELINE} failed: {last}")
    return json.loads(r.stdout)


def timed_audit(m, **kwargs) -> dict:
    t0 = time.perf_counter()
    r = audit(m, ALPHA, **kwargs)
    seconds = time.perf_counter() - t0
    u = r.universality
    return {
        "seconds": round(seconds, 2),
        "verdict": r.verdict,
        "method": None if u is None else u.method,
        "witness": None if u is None else u.witness_status,
        "witness_found_by": None if u is None or u.witness is None else u.witness.found_by,
        "steps": [s.to_json() for s in r.steps],
    }


def ratio(base: dict, new: dict) -> str | None:
    if base.get("seconds") is not None:
        return f"{base['seconds'] / max(new['seconds'], 0.01):.1f}"
    if base.get("killed_after") is not None:
        return f">{base['killed_after'] / max(new['seconds'], 0.01):.1f}"
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="n <= 200 only")
    p.add_argument("--baseline-cap", type=float, default=60.0, help="seconds before a baseline run is killed")
    p.add_argument("--budget", type=float, default=120.0, help="the budget of the 1000 x 1000 audit")
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="udpm-baseline-") as tmp:
        return run(args, baseline_tree(Path(tmp)))


def run(args: argparse.Namespace, base: Path) -> int:
    cases = []

    def record(case: dict) -> None:
        cases.append(case)
        print(json.dumps(case), file=sys.stderr, flush=True)

    for n, target in ((200, 5.0), *(() if args.quick else ((1000, 60.0),))):
        for name, make in MECHANISMS.items():
            m = make(n)
            new = timed_audit(m, users=[], witness=False, budget=10 * target)
            case = {"case": "verdict with certificate", "mechanism": name, "n": n, "target_s": target, "new": new}
            if n <= 200:
                case["baseline"] = timed_baseline(base, m, False, args.baseline_cap)
                case["ratio"] = ratio(case["baseline"], new)
            case["met"] = new["seconds"] < target
            record(case)
    m = boundary_rr(59)
    new = timed_audit(m, users=[], witness=True)
    case = {
        "case": "non-optimal 60x60 with a witness user",
        "mechanism": "randomized response at the DP boundary",
        "n": 59,
        "target_s": 10.0,
        "new": new,
    }
    case["baseline"] = timed_baseline(base, m, True, args.baseline_cap)
    case["ratio"] = ratio(case["baseline"], new)
    case["met"] = new["seconds"] < 10.0 and new["witness"] == "found"
    record(case)
    if not args.quick:
        new = timed_audit(boundary_rr(999), witness=False, budget=args.budget)
        record(
            {
                "case": "1000x1000 audit, witness off, three users",
                "mechanism": "randomized response at the DP boundary",
                "n": 999,
                "budget_s": args.budget,
                "new": new,
                "met": new["seconds"] <= args.budget + 5.0,
            }
        )
    doc = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "note": "2 cores shared"},
        "baseline_commit": BASELINE,
        "alpha": str(ALPHA),
        "cases": cases,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0 if all(c["met"] for c in cases) else 1


if __name__ == "__main__":
    raise SystemExit(main())
