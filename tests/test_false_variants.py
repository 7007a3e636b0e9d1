"""Every claim has a false variant of its printed statement, and its real check refutes every one."""

from __future__ import annotations

import pytest

from udpm.claims import Context, catalog, load_checkers
from udpm.variants import registered, verdict_of

VARIANTS = registered()
CTX = Context()


def test_every_implemented_claim_has_a_false_variant():
    have = {v.claim for v in VARIANTS}
    missing = [cid for cid in catalog() if cid in load_checkers() and cid not in have]
    assert not missing, f"{len(missing)} claims without a false variant: {missing}"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.claim}:{v.changes}:{v.statement[:40]}")
def test_the_real_check_refutes_the_variant(variant):
    row = verdict_of(variant, CTX)
    assert row["refuted"], f"{variant.name} survived: {row['status']} {row['by']}"
