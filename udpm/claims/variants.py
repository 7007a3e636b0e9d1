"""False variants: for every claim, a false statement that its real check must refute.

A check that cannot fail is a defect.  Each claim registers at least one *false variant of its
printed statement*: a changed constant, exponent or inequality direction, a dropped hypothesis, a
moved boundary value.  The variant runs the claim's own check, through the same code path, with
the statement changed through the check's parameters::

    @false_variant("grs2011.ex2.1", "exponent", "alpha^(2|delta|) in place of alpha^|delta| in (1)")
    def _(ctx: Context) -> Findings:
        return geometric_is_private(ctx, pmf=lambda d: (1 - a) / (1 + a) * a ** (2 * sp.Abs(d)))

A variant *survives* when its verdict is still a pass: the claim's check is then vacuous for that
change.  A changed printed object (a figure's entry) is caught when the comparison finds a difference
that no erratum explains (an unclassified erratum).  :func:`sensitivity` runs every variant and
tabulates what refuted it (the test suite asserts that nothing survives; ``python -m udpm.claims.variants``
writes the table that the report shows).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from udpm.claims.findings import Findings
from udpm.claims.instances import UNCLASSIFIED
from udpm.errors import HarnessError, UnknownClaim

__all__ = ["CHANGES", "FalseVariant", "false_variant", "registered", "sensitivity", "verdict_of"]

#: What a variant changes in the printed statement.
CHANGES = ("constant", "exponent", "direction", "hypothesis", "boundary", "object", "quantifier")
SENSITIVITY = Path(__file__).resolve().parents[2] / "paper_tables" / "sensitivity.json"


@dataclass(frozen=True)
class FalseVariant:
    """A false statement next to a claim: what it changes, and the claim's check run on it."""

    claim: str
    changes: str  # one of CHANGES
    statement: str  # the false statement, in a few words
    run: Callable  # (Context) -> Findings: the claim's own check, fed the variant

    @property
    def name(self) -> str:
        return f"{self.claim}: {self.statement}"


_VARIANTS: list[FalseVariant] = []


def false_variant(claim_id: str, changes: str, statement: str) -> Callable[[Callable], Callable]:
    """Register the decorated function (ctx -> Findings) as a false variant of ``claim_id``'s statement."""
    if changes not in CHANGES:
        raise HarnessError(f"a false variant changes one of {CHANGES}, got {changes!r}")

    def bind(fn: Callable) -> Callable:
        from udpm.claims.registry import catalog

        if claim_id not in catalog():
            raise UnknownClaim(f"a false variant names {claim_id!r}, which udpm.claims.catalog does not declare")
        v = FalseVariant(claim_id, changes, statement, fn)
        if any(x.name == v.name for x in _VARIANTS):
            raise HarnessError(f"false variant registered twice: {v.name}")
        _VARIANTS.append(v)
        return fn

    return bind


def registered() -> list[FalseVariant]:
    """Every registered variant (after :func:`udpm.claims.registry.load_checkers`), in claim order then statement."""
    from udpm.claims.registry import catalog, load_checkers

    load_checkers()
    order = {cid: k for k, cid in enumerate(catalog())}
    return sorted(_VARIANTS, key=lambda v: (order[v.claim], v.statement))


def verdict_of(v: FalseVariant, ctx) -> dict:
    """Run one variant: its status and what refuted it (the first counterexample), as one table row."""
    found = v.run(ctx)
    if not isinstance(found, Findings):
        raise HarnessError(f"{v.name}: a variant returns the check's Findings, got {type(found).__name__}")
    result = found.result()
    refuted = str(result.status) == "refuted"
    # A changed printed object is caught when its comparison finds a difference nobody has classified.
    unclassified = [e for e in result.errata if e.cls == UNCLASSIFIED]
    by = (
        result.counterexample
        if refuted
        else (
            f"{unclassified[0].entry}: printed {unclassified[0].printed}, exact {unclassified[0].correct}"
            if unclassified
            else result.notes
        )
    )
    return {
        "claim": v.claim,
        "changes": v.changes,
        "variant": v.statement,
        "status": str(result.status),
        "refuted": refuted or bool(unclassified),
        "by": by or "",
    }


def sensitivity(ctx=None) -> list[dict]:
    """One row per registered variant, in catalog order."""
    from udpm.claims.registry import Context

    ctx = ctx or Context()
    return [verdict_of(v, ctx) for v in registered()]


def main(argv: list[str] | None = None) -> int:
    """``python -m udpm.claims.variants [PATH]``: run every variant and write the sensitivity table (JSON).

    Exit status: 0 every variant refuted; 1 some variant survived; 2 bad arguments (one line)."""

    from udpm.errors import InvalidInput
    from udpm.internal.arguments import OneLineParser
    from udpm.internal.files import atomic_write

    parser = OneLineParser(
        prog="python -m udpm.claims.variants", description=main.__doc__.split("\n")[0].split(": ", 1)[1]
    )
    parser.add_argument("path", nargs="?", type=Path, default=SENSITIVITY, help="default paper_tables/sensitivity.json")
    try:
        path = parser.parse_args(sys.argv[1:] if argv is None else argv).path
    except InvalidInput as exc:  # one line, exit 2, before any variant runs
        print(f"python -m udpm.claims.variants: error: {exc}", file=sys.stderr)
        return 2
    rows = sensitivity()
    atomic_write(path, json.dumps({"variants": rows}, indent=1, ensure_ascii=False) + "\n")
    survived = [r for r in rows if not r["refuted"]]
    print(f"{len(rows)} false variants, {len(rows) - len(survived)} refuted, {len(survived)} survived; wrote {path}")
    for r in survived:
        print(f"  survived: {r['claim']}: {r['variant']} ({r['status']})")
    return 1 if survived else 0


if __name__ == "__main__":
    # Run as the imported module: the checks register their variants in udpm.claims.variants, not in __main__.
    from udpm.claims.variants import main as run_main

    sys.exit(run_main())
