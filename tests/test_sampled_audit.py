"""udpm.auditing.sampled: certified Clopper-Pearson intervals, the DP-violation test and the T-consistency test."""

from __future__ import annotations

import json
import math
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from udpm.auditing import clopper_pearson as cp
from udpm.auditing import defect_corpus as dc
from udpm.auditing import exact_sampler
from udpm.auditing import sampled as sa
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import InvalidInput

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "sampled_false_alarm.json"


def _tail_at_least(k: int, total: int, p: F) -> F:
    """Pr[Bin(total, p) >= k], exactly."""
    return sum((math.comb(total, j) * p**j * (1 - p) ** (total - j) for j in range(k, total + 1)), F(0))


@pytest.mark.parametrize(("k", "total"), [(1, 20), (7, 20), (19, 20), (3, 40)])
def test_bounds_are_certified_clopper_pearson(k: int, total: int) -> None:
    tail = F(1, 200)
    lo, hi = sa.lower_bound(k, total, tail), sa.upper_bound(k, total, tail)
    # exactly on the outer side of the Clopper-Pearson bounds ...
    assert _tail_at_least(k, total, lo) <= tail
    assert 1 - _tail_at_least(k + 1, total, hi) <= tail
    # ... and close to them: nudged inward by 1e-6 relative, the tail condition fails
    assert _tail_at_least(k, total, lo * (1 + F(1, 10**6))) > tail
    assert 1 - _tail_at_least(k + 1, total, hi * (1 - F(1, 10**6))) > tail


def test_extreme_counts_give_the_trivial_end() -> None:
    assert sa.lower_bound(0, 10, F(1, 100)) == 0
    assert sa.upper_bound(10, 10, F(1, 100)) == 1


def test_a_wrong_proposal_is_rejected_by_the_certificate(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard: a proposal above the true quantile fails its arb certificate and is widened."""
    good = sa.lower_bound(7, 20, F(1, 200))
    monkeypatch.setattr(cp, "_propose", lambda k, total, q, upper: 0.9)  # far above the quantile
    lo = sa.lower_bound(7, 20, F(1, 200))
    assert lo < good and _tail_at_least(7, 20, lo) <= F(1, 200)


def test_without_scipy_the_bisection_gives_a_certified_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "scipy.special", None)  # import fails
    lo = sa.lower_bound(7, 20, F(1, 200))
    assert _tail_at_least(7, 20, lo) <= F(1, 200) < _tail_at_least(7, 20, lo * (1 + F(1, 10**6)))


def test_exact_sampler_of_t_is_consistent_with_dp_and_t() -> None:
    counts = exact_sampler.exact_sample_counts(truncated_geometric(3, "1/2"), 4000, seed=11)
    v = sa.audit_samples(counts, "1/2", confidence="0.99")
    assert v.verdict == "consistent with 1/2-DP and with T(3, 1/2)"
    assert v.consistent_with_dp and v.consistent_with_reference
    assert v.cells == 16 and v.per_cell_level == F(1, 3200) and v.level == F(1, 100)
    t = truncated_geometric(3, "1/2")
    assert all(c.lower <= t[c.row][c.column] <= c.upper for row in v.intervals for c in row)
    d = v.to_dict()
    assert d["format"] == "udpm-sampled-audit/1" and d["method"].startswith("Clopper-Pearson")
    json.dumps(d)


def test_epsilon_twice_too_large_is_a_violation_with_its_bounds() -> None:
    counts = exact_sampler.exact_sample_counts(truncated_geometric(3, "1/4"), 4000, seed=3)
    v = sa.audit_samples(counts, "1/2", confidence="0.99")
    assert not v.consistent_with_dp and v.verdict.startswith("NOT 1/2-DP at confidence 99/100")
    for w in v.violations:
        assert abs(w.row - w.other) == 1
        assert w.lower == v.intervals[w.row][w.column].lower and w.upper == v.intervals[w.other][w.column].upper
        assert F(1, 2) * w.lower > w.upper  # the intervals exclude the bound, exactly
    # and at the true level, 1/4, the same samples are consistent with DP and with T(3, 1/4)
    assert sa.audit_samples(counts, "1/4", confidence="0.99").verdict == "consistent with 1/4-DP and with T(3, 1/4)"


def test_no_violation_where_the_intervals_overlap_the_bound() -> None:
    """Counts whose point estimates break 1/2-DP (ratio 2.4) but whose intervals do not exclude it."""
    v = sa.audit_samples([[12, 8], [5, 15]], "1/2")
    assert v.consistent_with_dp


def test_irrational_alpha_from_a_float_epsilon() -> None:
    r = sa.ratio_of(eps=0.6931471805599453)  # e^-r with r just below ln 2: alpha just above 1/2
    assert r.exceeds(F(1, 2)) and not r.exceeds(F(1, 2) + F(1, 10**15))
    assert str(r) == "e^-0.6931471805599453"
    counts = exact_sampler.exact_sample_counts(truncated_geometric(2, "1/2"), 3000, seed=5)
    v = sa.audit_samples(counts, eps=0.6931471805599453, confidence="0.95")
    assert v.verdict == "consistent with e^-0.6931471805599453-DP and with T(2, e^-0.6931471805599453)"
    v = sa.audit_samples(counts, eps=0.3, confidence="0.95")  # alpha = 0.74: T(2, 1/2) breaks it
    assert not v.consistent_with_dp and not v.consistent_with_reference
    import sympy

    assert sa.ratio_of(sympy.exp(-sympy.Rational(1, 2))) == sa.Ratio(rate=F(1, 2))


def test_reference_and_shapes() -> None:
    counts = [[50, 30, 20], [30, 40, 30]]  # 3 outputs for n = 1: no default reference
    v = sa.audit_samples(counts, "1/2")
    assert v.outside is None and v.consistent_with_reference is None and "no reference" in v.verdict
    v = sa.audit_samples(counts, "1/2", reference=[["1/2", "3/10", "1/5"], ["3/10", "2/5", "3/10"]])
    assert v.verdict == "consistent with 1/2-DP and with the reference mechanism"
    v = sa.audit_samples(counts, "1/2", reference=[["1", "0", "0"], ["0", "0", "1"]])
    assert v.outside and not v.consistent_with_reference


@pytest.mark.parametrize(
    ("counts", "kwargs", "message"),
    [
        ([[1, 2], [3]], {}, "ragged"),
        ([[1, 2]], {}, "n >= 1"),
        ([[1, True], [1, 1]], {}, "not a non-negative int"),
        ([[1, 0.5], [1, 1]], {}, "not a non-negative int"),
        ([[0, 0], [1, 1]], {}, "no draws"),
        ("12", {}, "rows of non-negative ints"),
        ([[1, 1], [1, 1]], {"confidence": 1}, "strictly between 0 and 1"),
        ([[1, 1], [1, 1]], {"confidence": "x"}, "not a number"),
        ([[1, 1], [1, 1]], {"reference": [["1"], ["1"]]}, "reference is 2x1"),
    ],
)
def test_bad_input_is_one_line(counts: object, kwargs: dict, message: str) -> None:
    with pytest.raises(InvalidInput, match=message) as e:
        sa.audit_samples(counts, "1/2", **kwargs)
    assert "\n" not in str(e.value)


def test_bad_alpha_and_draws() -> None:
    with pytest.raises(InvalidInput, match="positive finite"):
        sa.audit_samples([[1, 1], [1, 1]], eps=-1.0)
    with pytest.raises(InvalidInput, match="positive int"):
        exact_sampler.exact_sample_counts([["1"], ["1"]], 0, seed=1)


def test_exact_sampler_is_exact_and_deterministic() -> None:
    assert exact_sampler.exact_sample_counts([["1", "0"], ["0", "1"]], 7, seed=1) == [[7, 0], [0, 7]]
    m = truncated_geometric(2, "1/3")
    assert exact_sampler.exact_sample_counts(m, 500, seed=2) == exact_sampler.exact_sample_counts(m, 500, seed=2)
    huge = [[F(1, 3**50), 1 - F(1, 3**50)], ["1/2", "1/2"]]  # a denominator beyond 2^63: the Python path
    c = exact_sampler.exact_sample_counts(huge, 200, seed=4)
    assert c[0] == [0, 200] and sum(c[1]) == 200


def test_diffprivlib_sampler_is_consistent() -> None:
    mech = pytest.importorskip("diffprivlib.mechanisms")
    eps = math.log(2)
    g = mech.GeometricTruncated(epsilon=eps, sensitivity=1, lower=0, upper=2, random_state=7)
    counts = [[0, 0, 0] for _ in range(3)]
    for i in range(3):
        for _ in range(1500):
            counts[i][g.randomise(i)] += 1
    v = sa.audit_samples(counts, eps=eps, confidence="0.99")
    assert v.consistent_with_dp and v.consistent_with_reference


def test_recorded_false_alarm_rate_is_at_most_the_level() -> None:
    """The benchmark's record: on every correct sampler, alarms / runs <= the stated level."""
    data = json.loads(RESULTS.read_text())
    assert data["correct_samplers"], "no correct sampler measured"
    for row in data["correct_samplers"]:
        assert row["runs"] >= 20
        assert F(row["false_alarms"], row["runs"]) <= F(data["level"]), row["sampler"]
        if row["certified_false_alarm_bound"] is not None:  # an exact bound on the probability itself
            assert F(row["certified_false_alarm_bound"]) <= F(data["level"]) / 2
    assert any(row["detected"] > 0 for row in data["defective_samplers"])


def test_benchmark_script_writes_a_record(tmp_path: Path) -> None:
    """The benchmark at a tiny size: one record, written whole, with the rate fields the test above reads."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("sfa", RESULTS.parents[1] / "sampled_false_alarm.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = tmp_path / "r.json"
    rc = mod.main(["--runs", "1", "--defect-runs", "1", "--draws", "300", "--out", str(out)])
    data = json.loads(out.read_text())
    assert rc == (0 if data["all_rates_at_most_level"] else 1)
    assert data["correct_samplers"][0]["sampler"].startswith("udpm exact sampler")
    assert {r["fixture"] for r in data["defective_samplers"]} == {d.key for d in dc.CORPUS}
    assert not list(tmp_path.glob("*.tmp"))


def _exact_miss(p: F, total: int, tail: F) -> F:
    """Pr[the interval of k ~ Bin(total, p) misses p], by summing the exact pmf over every k."""
    out = F(0)
    for k in range(total + 1):
        if not sa.lower_bound(k, total, tail) <= p <= sa.upper_bound(k, total, tail):
            out += math.comb(total, k) * p**k * (1 - p) ** (total - k)
    return out


@pytest.mark.parametrize("p", [F(1, 3), F(1, 20), F(9, 10)])
def test_miss_probability_bounds_the_exact_one(p: F) -> None:
    tail = F(1, 100)
    exact, bound = _exact_miss(p, 30, tail), sa.miss_probability(p, 30, tail)
    assert exact <= bound <= exact + F(1, 10**20)
    assert exact <= 2 * tail  # Clopper-Pearson is conservative
    assert sa.miss_probability(F(0), 30, tail) == 0 == sa.miss_probability(F(1), 30, tail)


def test_false_alarm_bound_is_below_half_the_level() -> None:
    b = sa.false_alarm_bound(truncated_geometric(2, "1/2"), 200, "0.9")
    assert 0 < b <= F(1, 20)
