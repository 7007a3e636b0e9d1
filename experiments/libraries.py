"""The DP libraries' geometric mechanisms audited exactly; not a @checks claim.

For n = 5, 10, 50 at alpha = 1/2, and at each library's default or documented-example parameter, asks of
each mechanism of :mod:`udpm.adapters`: is it alpha-DP, is it T(n, alpha), is it universally optimal?

* Rational matrices: ``udpm.is_private``, exact equality with ``udpm.mechanisms.truncated_geometric``,
  ``udpm.is_universally_optimal`` (bounded by ``TIMEOUT_S``; a timeout is reported as such, never as an
  answer).  For a tail-lumped mechanism (range Z) the merge remap Y ('<0' -> 0, '>n' -> n) is also
  checked exactly: M·Y = T(n, alpha) with M alpha-DP is grs2011 Theorem 3.2's condition.
* Irrational alpha_lib = e^-r: the adjacent-row ratios of the matrix with a symbol A for alpha_lib are
  checked (sympy ``cancel``) to be A, 1/A or 1, so M is alpha-DP iff alpha_lib >= alpha, decided by arb
  balls (:func:`udpm.adapters.compare_exp_neg`); M != T(n, alpha) because alpha_lib is irrational; if
  alpha_lib > alpha, M is not universally optimal at alpha (T(n, alpha) is not alpha_lib-DP, and every
  post-processing of M is).

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

from udpm import is_private, is_universally_optimal
from udpm.adapters import LibraryMechanism, clamped_geometric, compare_exp_neg, lumped_geometric
from udpm.adapters import diffprivlib as dpl
from udpm.adapters import opendp as odp
from udpm.adapters import tumult as tmt
from udpm.errors import SolverTimeout
from udpm.mechanisms import truncated_geometric

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
        (f"epsilon=math.log(2)={math.log(2)!r}", "alpha = 1/2 as a user writes it",
         dpl.geometric_truncated(n, math.log(2))),
        ("epsilon=1.0", "default of diffprivlib.tools", dpl.geometric_truncated(n, dpl.DEFAULT_EPSILON)),
        ("epsilon='ln 2' (exact)", "alpha = 1/2", dpl.geometric(n, "ln 2")),
        (f"scale={s_half!r}, bounds=(0, n)", "the float scale with q = 1/2 exactly", odp.geometric_bounded(n, s_half)),
        (f"scale=1/math.log(2)={1 / math.log(2)!r}, bounds=(0, n)", "alpha = 1/2 as a user writes it",
         odp.geometric_bounded(n, 1 / math.log(2))),
        ("scale=1.0, bounds=(0, n)", "documentation example (no default)",
         odp.geometric_bounded(n, odp.DOCS_EXAMPLE_SCALE)),
        (f"scale=1/math.log(2)={1 / math.log(2)!r}", "alpha = 1/2 as a user writes it",
         odp.discrete_laplace(n, 1 / math.log(2))),
        ("scale=1.0", "documentation example (no default)", odp.discrete_laplace(n, odp.DOCS_EXAMPLE_SCALE)),
        ("alpha=1/log(2) (ExactNumber)", "alpha = 1/2; source only, not installable",
         tmt.add_geometric_noise(n, _tumult_float_scale(1 / sympy.log(2)))),
    ]


def _symbolic_ratios_ok(m: LibraryMechanism) -> bool:
    """Every adjacent-row ratio of the family matrix (symbol A for alpha_lib) is A, 1/A or 1."""
    a = sympy.Symbol("A", positive=True)
    lo, hi = (int(m.outputs[0]), int(m.outputs[-1])) if m.kind == "clamped" else (0, m.n)
    x = clamped_geometric(m.n, a, lo, hi) if m.kind == "clamped" else lumped_geometric(m.n, a)
    allowed = {a, 1 / a, sympy.Integer(1)}
    return all(sympy.cancel(x[i][j] / x[i + 1][j]) in allowed for i in range(m.n) for j in range(len(x[0])))


def _merge(m: LibraryMechanism) -> list[list[Fraction]]:
    """The merge remap of a lumped mechanism: '<0' -> 0, k -> k, '>n' -> n."""
    cols = len(m.outputs)
    return [[Fraction(int(j == max(0, min(m.n, r - 1)))) for j in range(m.n + 1)] for r in range(cols)]


def _timed(f):
    t = time.perf_counter()
    try:
        return f(), round(time.perf_counter() - t, 2)
    except SolverTimeout:
        return "timeout", round(time.perf_counter() - t, 2)


def audit_rational(m: LibraryMechanism, alpha: Fraction) -> dict:
    t = truncated_geometric(m.n, alpha)
    dp, t_dp = _timed(lambda: bool(is_private(m.matrix, alpha)))
    row = {"dp": dp, "equals_T": m.matrix == t, "method": "udpm.is_private / == / udpm.is_universally_optimal"}
    uo, t_uo = _timed(lambda: bool(is_universally_optimal(m.matrix, alpha, timeout_s=TIMEOUT_S, witness=False)))
    row |= {"uo": uo, "seconds": {"is_private": t_dp, "is_universally_optimal": t_uo}}
    if m.kind == "lumped":
        from udpm import linalg

        merged = linalg.matmul(m.matrix, _merge(m)) == t
        row["merge_remap_gives_T"] = merged
        if uo == "timeout" and dp is True and merged:
            row["uo_by_merge_remap"] = True
    return row


def audit_irrational(m: LibraryMechanism, alpha: Fraction) -> dict:
    sign = compare_exp_neg(m.rate, alpha)
    structure = _symbolic_ratios_ok(m)
    dp = structure and sign > 0
    return {
        "dp": dp,
        "equals_T": False,
        "uo": False,
        "alpha_lib_vs_alpha": ">" if sign > 0 else "<",
        "method": "symbolic ratios in {A, 1/A, 1}; e^-r vs alpha by arb; not UO: "
        + ("T(n, alpha) is not alpha_lib-DP" if sign > 0 else "not alpha-DP"),
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
                r = audit_rational(m, a) if m.rational else audit_irrational(m, a)
                at = str(a) if a.denominator < 10**6 else "alpha_lib"
                rows.append({"library": m.library, "mechanism": m.name, "setting": setting, "why": why, "n": n,
                             "alpha_lib": _show_alpha(m), "asked_at": at, **r})
                print(f"n={n} {m.library} {m.name} {setting} @ {rows[-1]['asked_at']}: dp={r['dp']} "
                      f"T={r['equals_T']} uo={r['uo']}", file=sys.stderr)
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
    if z and v is False and "merge_remap_gives_T" in row:
        return "no (range Z)"
    if v == "timeout":
        return f"timeout ({TIMEOUT_S:g} s)" + ("; yes by merge remap" if row.get("uo_by_merge_remap") else "")
    return "yes" if v is True else "no"


def markdown(doc: dict) -> str:
    v = doc["versions"]
    out = [f"Audited: diffprivlib {v['diffprivlib']}, opendp {v['opendp']}, tmlt.core {v['tmlt.core']} "
           f"({doc['tumult']}; its row is from the 0.20.0 source).", "",
           "| library | mechanism | setting | alpha_lib | n | asked at | alpha-DP | = T(n, alpha) "
           "| universally optimal |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in doc["rows"]:
        out.append(f"| {r['library']} | {r['mechanism']} | {r['setting']} | {r['alpha_lib']} | {r['n']} "
                   f"| {r['asked_at']} "
                   f"| {_cell(r['dp'], r)} | {_cell(r['equals_T'], r, True)} | {_cell(r['uo'], r)} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--markdown", action="store_true", help="print the README table")
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
