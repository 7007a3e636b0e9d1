"""Every claim has a false variant of its printed statement, and its real check refutes every one."""

from __future__ import annotations

import pytest

from udpm.claims.registry import Context, Status, catalog, load_checkers, run_claim
from udpm.claims.variants import registered, verdict_of

VARIANTS = registered()
CTX = Context()


def test_every_implemented_claim_has_a_false_variant():
    """A claim whose printed statement its check refutes has shown that the check can fail; every other claim
    registers a variant."""
    have = {v.claim for v in VARIANTS}
    missing = [cid for cid in catalog() if cid in load_checkers() and cid not in have]
    passing = [cid for cid in missing if run_claim(cid, CTX)[0].status is not Status.REFUTED]
    assert not passing, f"{len(passing)} claims without a false variant: {passing}"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.claim}:{v.changes}:{v.statement[:40]}")
def test_the_real_check_refutes_the_variant(variant):
    row = verdict_of(variant, CTX)
    assert row["refuted"], f"{variant.name} survived: {row['status']} {row['by']}"


def test_the_sensitivity_table_lists_every_variant_refuted():
    """paper_tables/sensitivity.json (python -m udpm.claims.variants) is the table of the variants registered now."""
    import json

    from udpm.claims.variants import SENSITIVITY

    rows = json.loads(SENSITIVITY.read_text(encoding="utf-8"))["variants"]
    assert [(r["claim"], r["variant"]) for r in rows] == [(v.claim, v.statement) for v in VARIANTS]
    assert all(r["refuted"] for r in rows)


def test_a_bad_argument_is_one_line_and_exit_2_before_any_variant_runs(tmp_path, capsys):
    from udpm.claims.variants import main

    assert main(["--help-me"]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [
        "python -m udpm.claims.variants: error: unrecognized arguments: --help-me (see python -m "
        "udpm.claims.variants --help)"
    ]
