"""The DP libraries' geometric mechanisms audited exactly; not a @checks claim.

For n = 5, 10, 50 at alpha = 1/2, and at each library's default or documented-example parameter, asks of
each mechanism of :mod:`udpm.auditing.adapters`: is it alpha-DP, is it T(n, alpha), is it universally optimal?
Every verdict is :func:`udpm.audit`'s on the :class:`~udpm.auditing.adapters.LibraryMechanism` itself (no users,
no witness search, a budget of ``TIMEOUT_S`` seconds, a step out of time shown as a timeout):

* a rational alpha_lib: the exact matrix, its tightest privacy level, and the remap question by its
  cheapest exact certificate (:mod:`udpm.auditing.universality_check`);
* an irrational alpha_lib = e^-r: :mod:`udpm.auditing.library` (adjacent ratios A, 1/A or 1 by sympy, e^-r
  against alpha by arb balls; not universally optimal at alpha < alpha_lib since T(n, alpha) is not
  alpha_lib-DP while every remap of M is).

"= T(n, alpha)" is exact equality of the matrices (never for an irrational alpha_lib: its entries are
irrational, T's rational).

Run: ``python -m experiments.libraries [--out benchmarks/results/libraries.json] [--markdown]``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import sympy

from udpm import audit
from udpm.auditing.adapters import LibraryMechanism
from udpm.auditing.adapters import diffprivlib as dpl
from udpm.auditing.adapters import opendp as odp
from udpm.auditing.adapters import tumult as tmt
from udpm.core.mechanisms import fast_truncated_geometric

NS = (5, 10, 50)
ALPHA = Fraction(1, 2)
TIMEOUT_S = 60.0
OUT = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "libraries.json"


def _tumult_float_scale(expr: sympy.Expr) -> float:
    """``ExactNumber(expr).to_float(round_up=True)`` of tmlt.core 0.20.0 (utils/exact_number.py 281-308)."""
    val, nudge = float(expr.evalf()), 1e-15
    while sympy.Rational(val) < expr:
        val += nudge
        nudge *= 10
    return val


def configurations(n: int) -> list[tuple[str, str, LibraryMechanism]]:
    """(setting label, why this setting, mechanism) for the table."""
    s_half = odp.scale_for_alpha(ALPHA)
    return [
        ("epsilon='ln 2' (exact)", "alpha = 1/2", dpl.geometric_truncated(n, "ln 2")),
        (
            f"epsilon=math.log(2)={math.log(2)!r}",
            "alpha = 1/2 as a user writes it",
            dpl.geometric_truncated(n, math.log(2)),
        ),
        ("epsilon=1.0", "default of diffprivlib.tools", dpl.geometric_truncated(n, dpl.DEFAULT_EPSILON)),
        ("epsilon='ln 2' (exact)", "alpha = 1/2", dpl.geometric(n, "ln 2")),
        (f"scale={s_half!r}, bounds=(0, n)", "the float scale with q = 1/2 exactly", odp.geometric_bounded(n, s_half)),
        (
            f"scale=1/math.log(2)={1 / math.log(2)!r}, bounds=(0, n)",
            "alpha = 1/2 as a user writes it",
            odp.geometric_bounded(n, 1 / math.log(2)),
        ),
        (
            "scale=1.0, bounds=(0, n)",
            "documentation example (no default)",
            odp.geometric_bounded(n, odp.DOCS_EXAMPLE_SCALE),
        ),
        (
            f"scale=1/math.log(2)={1 / math.log(2)!r}",
            "alpha = 1/2 as a user writes it",
            odp.discrete_laplace(n, 1 / math.log(2)),
        ),
        ("scale=1.0", "documentation example (no default)", odp.discrete_laplace(n, odp.DOCS_EXAMPLE_SCALE)),
        (
            "alpha=1/log(2) (ExactNumber)",
            "alpha = 1/2; source only, not installable",
            tmt.add_geometric_noise(n, _tumult_float_scale(1 / sympy.log(2))),
        ),
    ]


def audit_row(m: LibraryMechanism, alpha: Fraction) -> dict:
    """One row of the table: :func:`udpm.audit` of ``m`` at ``alpha`` (no users, no witness, bounded)."""
    t0 = time.perf_counter()
    report = audit(m, alpha, users=[], witness=False, budget=TIMEOUT_S)
    u = report.universality
    return {
        "dp": report.privacy.private,
        "equals_T": m.rational and m.matrix == fast_truncated_geometric(m.n, alpha),
        "kind": m.kind,
        "uo": "timeout" if u is None else u.optimal,
        "method": f"udpm.audit: {'timeout' if u is None else u.method}",
        "seconds": round(time.perf_counter() - t0, 2),
    }


def _show_alpha(m: LibraryMechanism) -> str:
    if m.rational:
        a = m.alpha
        return str(a) if a.denominator < 10**6 else f"{a.numerator}/2^{a.denominator.bit_length() - 1}"
    if m.rate.denominator < 10**6:
        return f"exp(-{m.rate})"
    if Fraction(float(m.rate)) == m.rate:
        return f"exp(-{float(m.rate)!r})"
    return f"exp(-1/{float(1 / m.rate)!r})"


def run(ns=NS) -> dict:
    rows = []
    for n in ns:
        for setting, why, m in configurations(n):
            alphas = [ALPHA] + ([m.alpha] if m.rational and m.alpha != ALPHA else [])
            for a in alphas:
                r = audit_row(m, a)
                at = str(a) if a.denominator < 10**6 else "alpha_lib"
                rows.append(
                    {
                        "library": m.library,
                        "mechanism": m.name,
                        "setting": setting,
                        "why": why,
                        "n": n,
                        "alpha_lib": _show_alpha(m),
                        "asked_at": at,
                        **r,
                    }
                )
                print(
                    f"n={n} {m.library} {m.name} {setting} @ {rows[-1]['asked_at']}: dp={r['dp']} "
                    f"T={r['equals_T']} uo={r['uo']}",
                    file=sys.stderr,
                )
    return {
        "versions": {
            "diffprivlib": dpl.version(),
            "opendp": odp.version(),
            "tmlt.core": tmt.version() or "not installed",
        },
        "tumult": tmt.NOT_INSTALLABLE,
        "timeout_s": TIMEOUT_S,
        "rows": rows,
    }


def _cell(v, row, z: bool = False) -> str:
    if z and v is False and row.get("kind") == "lumped":
        return "no (range Z)"
    if v == "timeout":
        return f"timeout ({TIMEOUT_S:g} s)"
    return "yes" if v is True else "no"


def markdown(doc: dict) -> str:
    v = doc["versions"]
    out = [
        f"Audited: diffprivlib {v['diffprivlib']}, opendp {v['opendp']}, tmlt.core {v['tmlt.core']} "
        f"({doc['tumult']}; its row is from the 0.20.0 source).",
        "",
        "| library | mechanism | setting | alpha_lib | n | asked at | alpha-DP | = T(n, alpha) | universally optimal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in doc["rows"]:
        out.append(
            f"| {r['library']} | {r['mechanism']} | {r['setting']} | {r['alpha_lib']} | {r['n']} "
            f"| {r['asked_at']} "
            f"| {_cell(r['dp'], r)} | {_cell(r['equals_T'], r, True)} | {_cell(r['uo'], r)} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--markdown", action="store_true", help="print the table of docs/libraries.md")
    p.add_argument("--n", type=int, nargs="*", default=list(NS))
    args = p.parse_args(argv)
    doc = run(tuple(args.n))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1) + "\n")
    if args.markdown:
        print(markdown(doc))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
