#!/usr/bin/env python3
"""Time the certified exact LP solve against z3 Optimize, QSopt_ex and HiGHS alone on the grs2011 user-specific LP.

    .venv/bin/python benchmarks/lp_benchmark.py                 # n = 5 10 20 30 50 70 100, U and M, one run
    .venv/bin/python benchmarks/lp_benchmark.py --n 5 10 --z3-timeout 60 --problems U

The LP is grs2011 (3)-(7) at alpha = 1/2 for two problems: U (uniform prior, loss |i-j|) and M (prior
proportional to i+1, loss 1 + (|i-j| mod 4), which the theory does not cover).  Solvers:

* ``certified``: udpm.lp.certify.solve with the theory's candidate (the Bayes remap of the truncated
  geometric mechanism T, built with FLINT rational matrix products), certified exactly (exact vertex,
  exact dual from complementary slackness, dual feasibility, equal objectives, uniqueness).  The time
  includes building the candidate.
* ``generic``: udpm.lp.certify.solve with no candidate (the generic path): HiGHS proposes a basis, refined
  iteratively (udpm.lp.refinement) until an exact check accepts it, then certified exactly (bounded by
  --basis-timeout); ``refinement`` records its rounds, exact checks and seconds, ``cpu_seconds`` the
  process's CPU time beside the wall time (the machine is shared).
* ``generic, unrefined``: the same with udpm.lp.refinement.MAX_ROUNDS = 0 (HiGHS's basis as it is, then the
  exact dual/primal simplex repair: the path before refinement), bounded by --unrefined-timeout.
* ``qsopt_ex``: QSopt_ex's esolver (Debian package qsopt-ex, installed by this script with apt-get when
  missing; the column says why when it cannot be) on the same LP written in LP format (objective scaled
  to integers), bounded by --qsopt-timeout; its answer is timed only (udpm certifies its own).
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

from udpm.core.linalg import from_flint, to_flint
from udpm.core.mechanisms import truncated_geometric
from udpm.core.users import BayesianUser, Loss, absolute_error
from udpm.errors import CertificationFailed, SolverTimeout
from udpm.lp import refinement
from udpm.lp.certify import solve
from udpm.lp.programs import bayesian_lp

RESULTS = Path(__file__).resolve().parent / "results"
ALPHA = F(1, 2)


def user_of(n: int, problem: str = "U") -> BayesianUser:
    if problem == "U":
        return BayesianUser.of([F(1, n + 1)] * (n + 1), absolute_error(n))
    total = (n + 1) * (n + 2) // 2
    loss = Loss.from_function(n, lambda i, j: 1 + abs(i - j) % 4)
    return BayesianUser.of([F(i + 1, total) for i in range(n + 1)], loss)


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


def run_certified(n: int, timeout: float, candidate: bool, problem: str = "U", refine: bool = True) -> dict:
    user = user_of(n, problem)
    start, cpu = time.perf_counter(), time.process_time()
    saved = refinement.MAX_ROUNDS
    refinement.MAX_ROUNDS = saved if refine else 0
    try:
        lp = bayesian_lp(user, ALPHA)
        cand = theory_candidate(n, ALPHA, user) if candidate else None
        c = solve(lp, timeout_s=timeout, candidate=cand)
    except SolverTimeout:
        return {"status": "timeout", "seconds": round(time.perf_counter() - start, 3), "bound_s": timeout}
    except CertificationFailed as exc:
        return {"status": f"failed: {exc}", "seconds": round(time.perf_counter() - start, 3)}
    finally:
        refinement.MAX_ROUNDS = saved
    return {
        "status": "certified",
        "seconds": round(time.perf_counter() - start, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),  # this process's CPU time (the machine is shared)
        "objective": str(c.objective),
        "unique": c.unique,
        "proposer": c.proposer,
        "simplex_pivots": c.simplex_pivots,
    }


def run_generic(n: int, timeout: float, problem: str) -> dict:
    """The generic path (no candidate), with the statistics of the main LP's refinement."""
    stats: list = []
    real = refinement.refined_basis

    def spy(std, timeout_s):
        out = real(std, timeout_s)
        stats.append([dict(a, options=str(a["options"])) for a in refinement.LAST])
        return out

    import udpm.lp.certify as certify_module

    certify_module.refined_basis = spy
    try:
        row = run_certified(n, timeout, candidate=False, problem=problem)
    finally:
        certify_module.refined_basis = real
    row["refinement"] = stats[0] if stats else None
    return row


def qsopt_available() -> str | None:
    """None when esolver runs; else why not (after trying apt-get install once)."""
    import shutil
    import subprocess

    if shutil.which("esolver"):
        return None
    try:
        r = subprocess.run(
            ["apt-get", "install", "-y", "qsopt-ex", "libqsopt-ex-dev"], capture_output=True, text=True, timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"apt-get install qsopt-ex failed: {exc}"
    if shutil.which("esolver"):
        return None
    return f"apt-get install qsopt-ex failed (exit {r.returncode}): {r.stderr.strip()[-200:]}"


def lp_format(n: int, problem: str) -> str:
    """The LP in CPLEX LP format: the objective scaled to integers (same optimal set), alpha = 1/2 exact."""
    import math

    lp = bayesian_lp(user_of(n, problem), ALPHA)
    den = 1
    for _, c in lp.objective:
        den = math.lcm(den, F(c).denominator)
    names = [f"x{j}" for j in range(len(lp.names))]
    out = ["Minimize", " obj: " + " + ".join(f"{F(c) * den} {names[j]}" for j, c in lp.objective), "Subject To"]
    for k, r in enumerate(lp.rows):
        terms = " ".join(f"{'+' if F(a) >= 0 else '-'} {float(abs(F(a)))!r} {names[j]}" for j, a in r.coeffs)
        out.append(f" c{k}: {terms} {r.sense} {float(F(r.rhs))!r}")
    out.append("End")
    return "\n".join(out) + "\n"


def run_qsopt(n: int, problem: str, timeout: float, why_not: str | None) -> dict:
    import subprocess
    import tempfile

    if why_not is not None:
        return {"status": "skipped", "reason": why_not, "seconds": None}
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "p.lp"
        path.write_text(lp_format(n, problem))
        start = time.perf_counter()
        try:
            r = subprocess.run(["esolver", "-L", str(path)], capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "seconds": round(time.perf_counter() - start, 3), "bound_s": timeout}
        secs = round(time.perf_counter() - start, 3)
    text = r.stdout + r.stderr
    ok = "Solved Exactly" in text
    return {"status": "optimal" if ok else f"exit {r.returncode}", "seconds": secs}


def run_z3(n: int, timeout: float, problem: str = "U") -> dict:
    import z3

    user = user_of(n, problem)
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
    obj = z3.Sum(
        [
            z3.RealVal(str(p[i] * user.loss(i, j))) * x[i][j]
            for i in range(n + 1)
            for j in range(n + 1)
            if user.loss(i, j) != 0
        ]
    )
    opt.minimize(obj)
    answer = opt.check()
    secs = round(time.perf_counter() - start, 3)
    if answer != z3.sat:
        return {"status": "timeout" if answer == z3.unknown else str(answer), "seconds": secs, "bound_s": timeout}
    v = opt.model().eval(obj, model_completion=True)
    return {"status": "optimal", "seconds": secs, "objective": f"{v.numerator_as_long()}/{v.denominator_as_long()}"}


def run_highs(n: int, problem: str = "U") -> dict:
    import highspy
    import numpy as np

    user = user_of(n, problem)
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
    p.add_argument("--n", type=int, nargs="+", default=[5, 10, 20, 30, 50, 70, 100])
    p.add_argument("--problems", nargs="+", default=["U", "M"], choices=["U", "M"])
    p.add_argument("--z3-timeout", type=float, default=60.0)
    p.add_argument("--certify-timeout", type=float, default=120.0)
    p.add_argument("--basis-timeout", type=float, default=60.0, help="bound for the generic (no-candidate) solve")
    p.add_argument("--unrefined-timeout", type=float, default=30.0)
    p.add_argument("--qsopt-timeout", type=float, default=120.0)
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    why_not = qsopt_available()
    rows = []
    for problem in args.problems:
        for n in args.n:
            row = {"problem": problem, "n": n, "variables": (n + 1) ** 2, "constraints": 2 * n * (n + 1) + n + 1}
            row["certified"] = run_certified(n, args.certify_timeout, candidate=True, problem=problem)
            row["generic"] = run_generic(n, args.basis_timeout, problem)
            row["generic_unrefined"] = run_certified(
                n, args.unrefined_timeout, candidate=False, problem=problem, refine=False
            )
            row["qsopt_ex"] = run_qsopt(n, problem, args.qsopt_timeout, why_not)
            row["highs"] = run_highs(n, problem)
            row["z3"] = run_z3(n, args.z3_timeout, problem)
            exact = row["generic"].get("objective")
            row["agree"] = row["certified"].get("objective") in (None, exact) and row["z3"].get("objective") in (
                None,
                exact,
            )
            row["qsopt_over_generic"] = ratio(row["generic"], row["qsopt_ex"]) if row["qsopt_ex"]["seconds"] else None
            row["speedup_vs_z3"] = ratio(row["generic"], row["z3"])
            rows.append(row)
            print(json.dumps(row), flush=True)
            write(args, why_not, rows)  # after every row: an interrupted run keeps what it measured
    return 0


def write(args: argparse.Namespace, why_not: str | None, rows: list[dict]) -> None:
    doc = {
        "lp": "grs2011 (3)-(7), alpha = 1/2; U: uniform prior, |i-j|; M: prior ~ i+1, loss 1 + (|i-j| mod 4)",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "qsopt_ex": why_not or "esolver (Debian qsopt-ex)",
        "bounds_s": {
            "z3": args.z3_timeout,
            "certified": args.certify_timeout,
            "generic": args.basis_timeout,
            "generic_unrefined": args.unrefined_timeout,
            "qsopt_ex": args.qsopt_timeout,
        },
        "rows": rows,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "lp.json").write_text(json.dumps(doc, indent=1) + "\n")
    lines = [
        "# grs2011 LP (3)-(7) at alpha = 1/2: U (uniform, |i-j|) and M (prior ~ i+1, 1 + (|i-j| mod 4)), one run",
        "",
        "| problem | n | vars | generic (refined) s (CPU s) | refinement rounds / exact checks | generic unrefined s "
        "| QSopt_ex s | QSopt_ex / generic | certified (theory candidate) s | z3 Optimize s | HiGHS s | unique |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def cell(d: dict) -> str:
        if d["status"] in ("certified", "optimal", "Optimal"):
            return f"{d['seconds']}"
        if d["status"] == "skipped":
            return "skipped"
        return f"{d['status']} ({d['seconds']})"

    def cpu(d: dict) -> str:
        return f" ({d['cpu_seconds']})" if "cpu_seconds" in d else ""

    for r in rows:
        ref = r["generic"].get("refinement") or []
        rs = " + ".join(f"{a['rounds']}/{a['exact_checks']}" for a in ref) or "-"
        lines.append(
            f"| {r['problem']} | {r['n']} | {r['variables']} | {cell(r['generic'])}{cpu(r['generic'])} | {rs} | "
            f"{cell(r['generic_unrefined'])} | {cell(r['qsopt_ex'])} | {r['qsopt_over_generic']} | "
            f"{cell(r['certified'])} | {cell(r['z3'])} | {r['highs']['seconds']} | {r['generic'].get('unique')} |"
        )
    if why_not:
        lines += ["", f"QSopt_ex skipped: {why_not}"]
    (args.out / "lp.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
