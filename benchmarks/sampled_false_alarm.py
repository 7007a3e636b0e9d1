#!/usr/bin/env python3
"""False-alarm rate and power of udpm.auditing.sampled.audit_samples: results/sampled_false_alarm.json.

    nice -n 10 .venv/bin/python benchmarks/sampled_false_alarm.py                       # the recorded run
    nice -n 10 .venv/bin/python benchmarks/sampled_false_alarm.py --runs 10 --defect-runs 5 --out /tmp/s.json

Correct samplers (each is exactly T(n, alpha) for its alpha): udpm's exact sampler of T(n, 1/2); diffprivlib's
``GeometricTruncated`` and ``Geometric`` (clamped to [0, n] afterwards, a post-processing that gives T) at
epsilon = fl(ln 2); OpenDP's ``make_geometric`` with bounds (0, n) at the binary64 scale whose ratio is exactly 1/2,
and without bounds (clamped afterwards) at scale = fl(1/ln 2).  alpha comes from udpm.auditing.adapters (a Fraction, or
e^-r for a float parameter).  A run draws ``--draws`` outputs per count 0..n and audits them at the stated
confidence; an alarm is a run whose verdict is not "consistent with alpha-DP and with T(n, alpha)".  The rate
must be at most the level 1 - confidence; the record also gives the Clopper-Pearson 95% upper bound of the rate
and, where alpha is rational, an exact upper bound on the false-alarm probability itself
(udpm.auditing.sampled.false_alarm_bound: the union over the cells of each interval's exact miss probability).

Defective samplers: every fixture of udpm.auditing.defect_corpus with an exact matrix, sampled exactly
(udpm.auditing.exact_sampler.exact_sample_counts), audited at the fixture's claimed alpha.  Detected: a DP violation,
or an inconsistency with T(n, alpha) (what each fixture poses as).  Fixtures whose defect is below sampling
resolution (the float ones, ``max_cell_difference_from_T`` near 1e-16) go undetected: their detection rate is the
false-alarm rate of the consistency test, and only an exact audit sees them.

Seeds are fixed for udpm's sampler, diffprivlib and the defects; OpenDP draws from its own generator, which
Python cannot seed, so its counts differ between runs of the script.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from udpm.auditing import defect_corpus as dc  # noqa: E402
from udpm.auditing.exact_sampler import exact_sample_counts  # noqa: E402
from udpm.auditing.sampled import METHOD, audit_samples, false_alarm_bound, upper_bound  # noqa: E402
from udpm.core.mechanisms import truncated_geometric  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "sampled_false_alarm.json"
N = 3

Counts = list[list[int]]


def _tally(draws: list[int], n: int) -> list[int]:
    row = [0] * (n + 1)
    for x in draws:
        row[min(max(int(x), 0), n)] += 1
    return row


def correct_samplers(draws: int) -> list[tuple[str, object, Callable[[int], Counts]]]:
    """(name, alpha, counts(run)) for every installed correct sampler of T(N, alpha)."""
    out: list[tuple[str, object, Callable[[int], Counts]]] = [
        ("udpm exact sampler of T(3, 1/2)", Fraction(1, 2),
         lambda run: exact_sample_counts(truncated_geometric(N, Fraction(1, 2)), draws, seed=10_000 + run)),
    ]  # fmt: skip
    try:
        import numpy as np
        from diffprivlib import mechanisms as dpm

        from udpm.auditing.adapters import diffprivlib as adp

        eps = math.log(2)

        def dpl(cls: type, seed: int, **kw: object) -> Callable[[int], Counts]:
            def counts(run: int) -> Counts:
                m = cls(epsilon=eps, random_state=np.random.RandomState(seed + run), **kw)
                return [_tally([m.randomise(i) for _ in range(draws)], N) for i in range(N + 1)]

            return counts

        a = adp.geometric_truncated(N, eps).alpha
        out.append((f"diffprivlib {adp.version()} GeometricTruncated(epsilon=fl(ln 2), lower=0, upper=3)", a,
                    dpl(dpm.GeometricTruncated, 20_000, lower=0, upper=N)))  # fmt: skip
        out.append((f"diffprivlib {adp.version()} Geometric(epsilon=fl(ln 2)), clamped to [0, 3]",
                    adp.geometric(N, eps).alpha, dpl(dpm.Geometric, 25_000)))  # fmt: skip
    except ImportError as e:  # pragma: no cover
        print(f"diffprivlib skipped: {e}", file=sys.stderr)
    try:
        import opendp.prelude as dp

        from udpm.auditing.adapters import opendp as odp

        dp.enable_features("contrib")
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
        s_bounded = odp.scale_for_alpha(Fraction(1, 2))
        bounded = dp.m.make_geometric(*space, scale=s_bounded, bounds=(0, N))
        s = 1 / math.log(2)
        unbounded = dp.m.make_geometric(*space, scale=s)

        def odp_counts(meas: Callable) -> Callable[[int], Counts]:
            return lambda run: [_tally(list(meas([i] * draws)), N) for i in range(N + 1)]

        out.append((f"OpenDP {odp.version()} make_geometric(scale={s_bounded!r}, bounds=(0, 3))",
                    odp.geometric_bounded(N, s_bounded).alpha, odp_counts(bounded)))  # fmt: skip
        out.append((f"OpenDP {odp.version()} make_geometric(scale={s!r}), clamped to [0, 3]",
                    odp.discrete_laplace(N, s).alpha, odp_counts(unbounded)))  # fmt: skip
    except ImportError as e:  # pragma: no cover
        print(f"opendp skipped: {e}", file=sys.stderr)
    return out


def rate_upper(k: int, runs: int) -> str:
    """The Clopper-Pearson one-sided 95% upper bound of a rate k / runs, certified (udpm.auditing.sampled)."""
    return str(float(upper_bound(k, runs, Fraction(5, 100))))


def measure_correct(draws: int, runs: int, confidence: Fraction) -> list[dict]:
    rows = []
    bounds: dict[Fraction, str] = {}
    for name, alpha, counts in correct_samplers(draws):
        t0 = time.perf_counter()
        dp_alarms = ref_alarms = alarms = 0
        for run in range(runs):
            v = audit_samples(counts(run), alpha, confidence=confidence)
            dp_alarms += not v.consistent_with_dp
            ref_alarms += not v.consistent_with_reference
            alarms += not (v.consistent_with_dp and v.consistent_with_reference)
        bound = None
        if isinstance(alpha, Fraction):  # T(n, alpha) rational: the false-alarm probability bounded exactly
            if alpha not in bounds:
                bounds[alpha] = str(false_alarm_bound(truncated_geometric(N, alpha), draws, confidence))
            bound = bounds[alpha]
        rows.append({
            "sampler": name, "alpha": str(v.alpha), "runs": runs, "false_alarms": alarms,
            "certified_false_alarm_bound": bound,
            "certified_false_alarm_bound_decimal": None if bound is None else float(Fraction(bound)),
            "dp_alarms": dp_alarms, "reference_alarms": ref_alarms, "rate": alarms / runs,
            "rate_upper_95": rate_upper(alarms, runs), "seconds": round(time.perf_counter() - t0, 1),
        })  # fmt: skip
        print(f"{name}: {alarms}/{runs} false alarms", file=sys.stderr)
    return rows


def measure_defects(draws: int, runs: int, confidence: Fraction) -> list[dict]:
    rows = []
    for k, d in enumerate(dc.CORPUS):
        m = d.matrix()
        t = truncated_geometric(d.n, d.claimed_alpha)
        # how far the defect is from what it poses as: sampling cannot see much below 1/sqrt(draws)
        gap = None if len(m[0]) != len(t[0]) else max(abs(x - y) for r, s in zip(m, t) for x, y in zip(r, s))
        t0 = time.perf_counter()
        dp_found = ref_found = detected = 0
        for run in range(runs):
            v = audit_samples(exact_sample_counts(m, draws, seed=30_000 + 100 * k + run), d.claimed_alpha,
                              confidence=confidence)  # fmt: skip
            dp_found += not v.consistent_with_dp
            ref_found += v.consistent_with_reference is False
            detected += not v.consistent_with_dp or v.consistent_with_reference is False
        rows.append({
            "fixture": d.key, "defect": d.title, "claimed_alpha": str(d.claimed_alpha),
            "private_exactly": d.expected.private, "runs": runs, "detected": detected,
            "max_cell_difference_from_T": None if gap is None else float(gap),
            "dp_violation_found": dp_found, "not_consistent_with_T": ref_found, "power": detected / runs,
            "seconds": round(time.perf_counter() - t0, 1),
        })  # fmt: skip
        print(f"{d.key}: detected {detected}/{runs}", file=sys.stderr)
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--draws", type=int, default=5_000, help="draws per count 0..n in one run")
    p.add_argument("--runs", type=int, default=300, help="runs per correct sampler")
    p.add_argument("--defect-runs", type=int, default=50, help="runs per defective sampler")
    p.add_argument("--confidence", default="0.95")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    if min(args.draws, args.runs, args.defect_runs) < 1:
        p.error("--draws, --runs and --defect-runs must be >= 1")
    conf = Fraction(args.confidence)
    t0 = time.perf_counter()
    doc = {
        "format": "udpm-sampled-false-alarm/1",
        "command": "nice -n 10 .venv/bin/python benchmarks/sampled_false_alarm.py "
        f"--draws {args.draws} --runs {args.runs} --defect-runs {args.defect_runs} --confidence {args.confidence}",
        "method": f"udpm.auditing.sampled.audit_samples ({METHOD})",
        "n": N,
        "draws_per_row": args.draws,
        "confidence": str(conf),
        "level": str(1 - conf),
        "correct_samplers": measure_correct(args.draws, args.runs, conf),
        "defective_samplers": measure_defects(args.draws, args.defect_runs, conf),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    doc["seconds"] = round(time.perf_counter() - t0, 1)
    doc["all_rates_at_most_level"] = all(
        Fraction(r["false_alarms"], r["runs"]) <= 1 - conf for r in doc["correct_samplers"]
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(args.out)  # atomic: an interrupted run leaves the previous record
    return 0 if doc["all_rates_at_most_level"] else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("interrupted; results not written", file=sys.stderr)
        raise SystemExit(130) from None
