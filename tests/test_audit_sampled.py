"""exact="sampled": sample counts audited at a stated confidence by udpm.auditing.sampled, said as statistical."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from udpm import audit
from udpm.cli import main
from udpm.errors import InvalidMatrix

GOOD = [[670, 160, 170], [330, 340, 330], [170, 165, 665]]  # draws of T(2, 1/2): 2/3 1/6 1/6, 1/3 1/3 1/3, ...
BAD = [[900, 100], [100, 900]]  # ratio 9 > 2 far beyond the sampling error


def test_counts_are_audited_statistically_and_say_so():
    r = audit(GOOD, "1/2", exact="sampled")
    assert r.verdict == "consistent with 1/2-DP and with T(2, 1/2)"
    assert r.headline == "SAMPLED: consistent with 1/2-DP and with T(2, 1/2), at confidence 19/20 = 0.95"
    assert r.universality is None and r.users == () and r.sampled.consistent_with_dp
    text = r.to_text()
    assert "SAMPLED: counts of the sampler's outputs; every verdict is statistical" in text
    assert "no exact verdict is drawn from samples" in text
    doc = json.loads(r.to_json())
    assert doc["sampled"]["format"] == "udpm-sampled-audit/1" and doc["input"]["mode"] == "sampled"
    bad = audit(BAD, "1/2", exact="sampled", confidence="0.99")
    assert not bad.sampled.consistent_with_dp and bad.headline.startswith("SAMPLED: NOT 1/2-DP at confidence 99/100")
    assert bad.mechanism == [[F(9, 10), F(1, 10)], [F(1, 10), F(9, 10)]]  # the estimate, for the pictures
    assert bad.to_html().startswith("<!DOCTYPE html>")
    with pytest.raises(InvalidMatrix, match="is not a non-negative integer count"):
        audit([[1, -1], [1, 1]], "1/2", exact="sampled")


def test_the_estimated_mode_points_at_the_sampled_one():
    r = audit([[0.5, 0.25], [0.25, 0.5]], "1/2", exact="estimated")
    assert "not used in any decision (for a statistical decision give the sample counts: exact='sampled')" in (
        r.to_text()
    )


def test_udpm_audit_exact_sampled(tmp_path, capsys):
    good, bad = tmp_path / "good.csv", tmp_path / "bad.json"
    good.write_text("\n".join(",".join(map(str, r)) for r in GOOD) + "\n")
    bad.write_text(json.dumps(BAD))
    assert main(["audit", str(good), "--alpha", "1/2", "--exact", "sampled", "--fail-unless", "optimal"]) == 0
    assert capsys.readouterr().out.startswith("verdict: SAMPLED: consistent with 1/2-DP and with T(2, 1/2)")
    assert main(["audit", str(bad), "--alpha", "1/2", "--exact", "sampled", "--fail-unless", "private"]) == 1
    assert main(["audit", str(bad), "--alpha", "1/2", "--exact", "sampled", "--confidence", "2"]) == 2
    assert "strictly between 0 and 1" in capsys.readouterr().err
