#!/usr/bin/env python3
"""Time the certified exact LP solve against z3 Optimize and HiGHS alone on the grs2011 user-specific LP.

    .venv/bin/python benchmarks/lp_benchmark.py                 # n = 5 10 20 30 50 100, one run
    .venv/bin/python benchmarks/lp_benchmark.py --n 5 10 --z3-timeout 60

The LP is grs2011 (3)-(7) for the uniform prior and loss |i-j| at alpha = 1/2.  Solvers:

* ``certified``: udpm.certify.solve with the theory's candidate (the Bayes remap of the truncated
  geometric mechanism T, built with FLINT rational matrix products), certified exactly (exact vertex,
  exact dual from complementary slackness, dual feasibility, equal objectives, uniqueness).  The time
  includes building the candidate.
* ``certified (HiGHS basis)``: udpm.certify.solve with no candidate: HiGHS proposes a basis, which is
  certified exactly or repaired by the exact simplex (bounded by --certify-timeout).
* ``z3``: z3 Optimize over the reals (exact), bounded by --z3-timeout.
* ``highs``: HiGHS alone, floating point (the floor; its answer is not a verdict).

All timings of one invocation come from the same run; ratios are computed from them.  Results go to
benchmarks/results/lp.json and benchmarks/results/lp.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from fractions import Fraction as F
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import flint

from udpm.certify import solve
from udpm.errors import CertificationFailed, SolverTimeout
from udpm.linalg import from_flint, to_flint
from udpm.mechanisms import truncated_geometric
from udpm.programs import bayesian_lp
from udpm.users import BayesianUser, absolute_error

RESULTS = Path(__file__).resolve().parent / "results"
ALPHA = F(1, 2)


def user_of(n: int) -> BayesianUser:
    return BayesianUser.of([F(1, n + 1)] * (n + 1), absolute_error(n))


def theory_candidate(n: int, alpha: F, user: BayesianUser) -> list[F]:
    """Bayes remap of T (grs2011 Section 2.3) via cost = (diag(p) T)^T L, then Z = T·Y, flattened."""
    t = truncated_geometric(n, alpha)
    pt = to_flint([[user.prior[i] * v for v in row] for i, row in enumerate(t)])
    loss = to_flint([list(r) for r in user.loss.values])
    cost = pt.transpose() * loss  # cost[r, j] = sum_i p_i t_ir l(i, j)
    mapping = []
    for r in range(n + 1):
        best = 0
        for j in range(1, n + 1):
            if cost[r, j] < cost[r, best]:
                best = j
        mapping.append(best)
    y = flint.fmpq_mat(n + 1, n + 1)
    for r, j in enumerate(mapping):
        y[r, j] = 1
    z = from_flint(to_flint(t) * y)
    return [v for row in z for v in row]


def run_certified(n: int, timeout: float, candidate: bool) -> dict:
    user = user_of(n)
    start = time.perf_counter()
    try:
        lp = bayesian_lp(user, ALPHA)
        cand = theory_candidate(n, ALPHA, user) if candidate else None
        c = solve(lp, timeout_s=timeout, candidate=cand)
    except SolverTimeout:
        return {"status": "timeout", "seconds": round(time.perf_counter() - start, 3), "bound_s": timeout}
    except CertificationFailed as exc:
        return {"status": f"failed: {exc}", "seconds": round(time.perf_counter() - start, 3)}
    return {
        "status": "certified",
        "seconds": round(time.perf_counter() - start, 3),
        "objective": str(c.objective),
        "unique": c.unique,
        "proposer": c.proposer,
        "simplex_pivots": c.simplex_pivots,
    }


def run_z3(n: int, timeout: float) -> dict:
    import z3

    user = user_of(n)
    start = time.perf_counter()
    x = [[z3.Real(f"x_{i}_{j}") for j in range(n + 1)] for i in range(n + 1)]
    opt = z3.Optimize()
    opt.set("timeout", int(timeout * 1000))
    a = z3.RealVal(f"{ALPHA.numerator}/{ALPHA.denominator}")
    for i in range(n + 1):
        opt.add(z3.Sum(x[i]) == 1)
        for j in range(n + 1):
            opt.add(x[i][j] >= 0)
            if i < n:
                opt.add(x[i][j] - a * x[i + 1][j] >= 0, a * x[i][j] - x[i + 1][j] <= 0)
    p = user.prior
    obj = z3.Sum([z3.RealVal(str(p[i] * abs(i - j))) * x[i][j] for i in range(n + 1) for j in range(n + 1) if i != j])
    opt.minimize(obj)
    answer = opt.check()
    secs = round(time.perf_counter() - start, 3)
    if answer != z3.sat:
        return {"status": "timeout" if answer == z3.unknown else str(answer), "seconds": secs, "bound_s": timeout}
    v = opt.model().eval(obj, model_completion=True)
    return {"status": "optimal", "seconds": secs, "objective": f"{v.numerator_as_long()}/{v.denominator_as_long()}"}


def run_highs(n: int) -> dict:
    import highspy
    import numpy as np

    user = user_of(n)
    lp = bayesian_lp(user, ALPHA)
    start = time.perf_counter()
    h = highspy.Highs()
    h.silent()
    nv = len(lp.names)
    cost = np.zeros(nv)
    for j, c in lp.objective:
        cost[j] = float(c)
    h.addCols(
        nv,
        cost,
        np.zeros(nv),
        np.full(nv, highspy.kHighsInf),
        0,
        np.zeros(0, np.int32),
        np.zeros(0, np.int32),
        np.zeros(0),
    )
    starts, idx, val, lo, hi = [], [], [], [], []
    for r in lp.rows:
        starts.append(len(idx))
        for j, c in r.coeffs:
            idx.append(j)
            val.append(float(c))
        b = float(r.rhs)
        lo.append(b if r.sense in ("=", ">=") else -highspy.kHighsInf)
        hi.append(b if r.sense in ("=", "<=") else highspy.kHighsInf)
    h.addRows(
        len(lp.rows),
        np.array(lo),
        np.array(hi),
        len(idx),
        np.array(starts, np.int32),
        np.array(idx, np.int32),
        np.array(val),
    )
    h.run()
    secs = round(time.perf_counter() - start, 3)
    return {
        "status": h.modelStatusToString(h.getModelStatus()),
        "seconds": secs,
        "objective_float": repr(h.getInfo().objective_function_value),
    }


def ratio(a: dict, b: dict) -> str | None:
    """b's time over a's (how many times faster a is); '>' when b timed out."""
    if a.get("status") != "certified":
        return None
    r = b["seconds"] / max(a["seconds"], 1e-9)
    return f"{'>' if b.get('status') == 'timeout' else ''}{r:.1f}"


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[5, 10, 20, 30, 50, 100])
    p.add_argument("--z3-timeout", type=float, default=200.0)
    p.add_argument("--certify-timeout", type=float, default=120.0)
    p.add_argument("--basis-timeout", type=float, default=30.0, help="bound for the no-candidate certified solve")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    rows = []
    for n in args.n:
        row = {"n": n, "variables": (n + 1) ** 2, "constraints": 2 * n * (n + 1) + n + 1}
        row["certified"] = run_certified(n, args.certify_timeout, candidate=True)
        row["certified_highs_basis"] = run_certified(n, args.basis_timeout, candidate=False)
        row["highs"] = run_highs(n)
        row["z3"] = run_z3(n, args.z3_timeout)
        exact = row["certified"].get("objective")
        row["z3_agrees"] = row["z3"].get("objective") == exact if "objective" in row["z3"] else None
        if exact is not None:
            err = abs(F(row["highs"]["objective_float"]) - F(exact)) if "objective_float" in row["highs"] else None
            row["highs_abs_error"] = f"{float(err):.3e}" if err is not None else None
        row["speedup_vs_z3"] = ratio(row["certified"], row["z3"])
        row["highs_over_certified_time"] = (
            f"{row['highs']['seconds'] / max(row['certified']['seconds'], 1e-9):.2f}"
            if row["certified"].get("status") == "certified"
            else None
        )
        rows.append(row)
        print(json.dumps(row), flush=True)
    doc = {
        "lp": "grs2011 (3)-(7), uniform prior, loss |i-j|, alpha = 1/2",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "bounds_s": {
            "z3": args.z3_timeout,
            "certified": args.certify_timeout,
            "certified_highs_basis": args.basis_timeout,
        },
        "rows": rows,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "lp.json").write_text(json.dumps(doc, indent=1) + "\n")
    lines = [
        "# grs2011 LP (3)-(7): uniform prior, |i-j|, alpha = 1/2 (one run)",
        "",
        "| n | vars | certified (candidate) s | certified (HiGHS basis) s | z3 Optimize s | HiGHS s | z3 / certified "
        "| HiGHS abs. error | unique |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def cell(d: dict) -> str:
        return (
            f"{d['seconds']}"
            if d["status"] in ("certified", "optimal", "Optimal")
            else f"{d['status']} ({d['seconds']})"
        )

    for r in rows:
        lines.append(
            f"| {r['n']} | {r['variables']} | {cell(r['certified'])} | {cell(r['certified_highs_basis'])} | "
            f"{cell(r['z3'])} | {r['highs']['seconds']} | {r['speedup_vs_z3']} | {r.get('highs_abs_error')} | "
            f"{r['certified'].get('unique')} |"
        )
    (args.out / "lp.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
