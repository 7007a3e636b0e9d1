"""udpm.auditing.adapters: exact pmf matrices of DP libraries' geometric mechanisms (issue 13, section 3).

The exact parts run everywhere.  The sampler tests need the optional extras (``pip install -e
'.[adapters]'``) and are skipped without them (pytest.importorskip).  Each draws N samples from the
installed library at a few inputs and applies a chi-square goodness-of-fit test against the adapter's
exact pmf (floats here only compute a test statistic; no verdict of udpm rests on them), bins with
expected count < 5 merged into the tails.  The test fails when the p-value is below P_FAIL = 1e-6: the
false-failure rate is at most 1e-6 per (library, input) under the null (asymptotically).  diffprivlib
is seeded (random_state), so its runs are deterministic; OpenDP draws from the OS entropy source and
cannot be seeded, so its rate is the stated 1e-6, not zero.  A power check feeds each test a wrong
alpha and requires rejection.  The large-sample runs are marked ``slow`` (deselected by default; run
``pytest -m slow tests/test_adapters.py``).
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy

from udpm.auditing.adapters import clamped_geometric, compare_exp_neg, lumped_geometric
from udpm.auditing.adapters import diffprivlib as dpl
from udpm.auditing.adapters import opendp as odp
from udpm.auditing.adapters import tumult as tmt
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import InvalidInput

P_FAIL = 1e-6


# ---------------------------------------------------------------- exact, no library needed


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_rows_are_distributions_and_truncated_is_T(n):
    for a in (F(1, 2), F(1, 3), F(5, 7)):
        assert clamped_geometric(n, a, 0, n) == truncated_geometric(n, a)
        for row in lumped_geometric(n, a) + clamped_geometric(n, a, -2, n + 3):
            assert sum(row) == 1 and all(x > 0 for x in row)
    a = sympy.Symbol("A", positive=True)
    for row in lumped_geometric(n, a):
        assert sympy.simplify(sum(row) - 1) == 0


def test_lumping_is_lossless():
    """Pr[i + Z = k | i + Z < 0] = (1 - a) a^(-k-1) for every i in 0..n: the tail law does not depend on i."""
    a, n = F(2, 5), 4
    z = lambda k: (1 - a) / (1 + a) * a ** abs(k)  # noqa: E731
    for i in range(n + 1):
        tail = lumped_geometric(n, a)[i][0]
        for k in range(-1, -8, -1):
            assert z(k - i) / tail == (1 - a) * a ** (-k - 1)


def test_diffprivlib_adapters():
    assert dpl.geometric_truncated(6, "ln 2").matrix == truncated_geometric(6, F(1, 2))
    assert dpl.geometric_truncated(3, "ln 4", sensitivity=2).alpha == F(1, 2)
    assert dpl.geometric_truncated(3, 1.0).alpha == sympy.exp(-1)
    m = dpl.geometric_truncated(2, "ln 2", lower=-1, upper=4)
    assert m.outputs == ("-1", "0", "1", "2", "3", "4") and m.pmf(0)["-1"] == F(1, 3)
    with pytest.raises(InvalidInput):
        dpl.geometric(2, -1.0)
    with pytest.raises(InvalidInput):
        dpl.geometric(2, "ln 2", sensitivity=2)  # alpha = 1/sqrt(2): irrational, refused


def test_opendp_bounded_ratio_is_exact_and_conservative():
    s = odp.scale_for_alpha(F(1, 2))
    assert odp.bounded_ratio(s) == F(1, 2) and 1.0 / s == math.nextafter(math.log(2), math.inf)
    q = odp.bounded_ratio(1 / math.log(2))  # what a user writes: one binary64 ulp above 1/2
    assert q == F(1, 2) + F(1, 2**53)
    q1 = odp.bounded_ratio(1.0)
    assert compare_exp_neg(F(1), q1) < 0 and q1 - F(1, 2**53) < F(0.36787944117144233) + F(1, 2**53)
    with pytest.raises(InvalidInput):
        odp.bounded_ratio(-1.0)


def test_compare_exp_neg_and_a_false_variant():
    assert compare_exp_neg(F(math.log(2)), F(1, 2)) == 1  # binary64 ln 2 is below ln 2
    assert compare_exp_neg(F(7, 10), F(1, 2)) == -1
    with pytest.raises(InvalidInput):
        compare_exp_neg(F(1), F(3, 2))


def test_tumult_adapter_is_exp_of_the_float_scale():
    m = tmt.add_geometric_noise(3, 2)
    assert m.alpha == sympy.exp(-sympy.Rational(1, 2)) and m.kind == "lumped"
    with pytest.raises(InvalidInput):
        tmt.add_geometric_noise(3, 0.0)


def test_readme_table_is_the_scripts_rendering_of_the_committed_json():
    import json
    from pathlib import Path

    from experiments import libraries

    root = Path(__file__).resolve().parent.parent
    doc = json.loads((root / "benchmarks" / "results" / "libraries.json").read_text())
    assert libraries.markdown(doc) in (root / "docs" / "libraries.md").read_text()


def _without_times(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_the_committed_table_is_what_the_installed_libraries_give():
    """The rows of docs/libraries.md at n = 5 and 10, recomputed now, with the library versions it states installed."""
    import json
    from pathlib import Path

    from experiments import libraries

    pytest.importorskip("diffprivlib")
    pytest.importorskip("opendp")
    doc = json.loads((Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "libraries.json").read_text())
    now = libraries.run((5, 10))
    assert now["versions"] == doc["versions"]
    assert _without_times(now["rows"]) == _without_times([r for r in doc["rows"] if r["n"] in (5, 10)])


# ---------------------------------------------------------------- statistical, against the installed samplers


def _chi2_pvalue(samples, pmf: dict[int, float], lo: int, hi: int) -> float:
    """Chi-square p-value of integer samples against pmf on lo..hi (all mass inside, tails merged)."""
    stats = pytest.importorskip("scipy.stats")
    n = len(samples)
    counts = {}
    for s in samples:
        counts[s] = counts.get(s, 0) + 1
    outside = sorted(set(counts) - set(range(lo, hi + 1)))
    assert not outside, f"sample outside the support: {outside}"
    # bins: merge from each end inward until expected >= 5
    keys = list(range(lo, hi + 1))
    bins, cur_k, cur_e = [], [], 0.0
    for k in keys:
        cur_k.append(k)
        cur_e += n * pmf[k]
        if cur_e >= 5:
            bins.append((cur_k, cur_e))
            cur_k, cur_e = [], 0.0
    if cur_k:
        ks, e = bins.pop()
        bins.append((ks + cur_k, e + cur_e))
    obs = [sum(counts.get(k, 0) for k in ks) for ks, _ in bins]
    exp = [e for _, e in bins]
    scale = sum(obs) / sum(exp)
    return float(stats.chisquare(obs, [e * scale for e in exp]).pvalue)


def _clamped_pmf(n, a, i) -> dict[int, float]:
    return {j: float(x) for j, x in enumerate(clamped_geometric(n, a, 0, n)[i])}


def _z_pmf_window(a, i, lo, hi) -> dict[int, float]:
    """The pmf of i + Z on lo..hi, the two tails put on lo and hi (samples are clamped the same way)."""
    row = clamped_geometric(i, a, lo, hi)[i] if lo <= i <= hi else None
    return {k: float(x) for k, x in zip(range(lo, hi + 1), row)}


def _clamp(xs, lo, hi):
    return [min(hi, max(lo, x)) for x in xs]


def _diffprivlib_draws(mech_cls, i, size, seed, **kw):
    rng_state = pytest.importorskip("numpy").random.RandomState(seed)
    m = mech_cls(random_state=rng_state, **kw)
    return [m.randomise(i) for _ in range(size)]


SIZES = [pytest.param(20_000, id="20k"), pytest.param(400_000, id="400k", marks=pytest.mark.slow)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("i", [0, 2, 5])
def test_diffprivlib_geometric_truncated_sampler(size, i):
    mech = pytest.importorskip("diffprivlib.mechanisms")
    n = 5
    draws = _diffprivlib_draws(mech.GeometricTruncated, i, size, 1000 + i, epsilon=math.log(2), lower=0, upper=n)
    assert _chi2_pvalue(draws, _clamped_pmf(n, F(1, 2), i), 0, n) > P_FAIL
    # power: a wrong alpha (3/5) is rejected
    assert _chi2_pvalue(draws, _clamped_pmf(n, F(3, 5), i), 0, n) < P_FAIL


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("i", [0, 3])
def test_diffprivlib_geometric_sampler(size, i):
    mech = pytest.importorskip("diffprivlib.mechanisms")
    lo, hi = -12, 15
    draws = _clamp(_diffprivlib_draws(mech.Geometric, i, size, 2000 + i, epsilon=math.log(2)), lo, hi)
    assert _chi2_pvalue(draws, _z_pmf_window(F(1, 2), i, lo, hi), lo, hi) > P_FAIL
    assert _chi2_pvalue(draws, _z_pmf_window(F(3, 5), i, lo, hi), lo, hi) < P_FAIL


def _opendp_draws(meas_maker, i, size):
    dp = pytest.importorskip("opendp.prelude")
    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
    return list(meas_maker(dp, space)([i] * size))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("i", [0, 2, 5])
def test_opendp_bounded_geometric_sampler(size, i):
    n, s = 5, odp.scale_for_alpha(F(1, 2))
    draws = _opendp_draws(lambda dp, sp: dp.m.make_geometric(*sp, scale=s, bounds=(0, n)), i, size)
    assert odp.geometric_bounded(n, s).matrix == truncated_geometric(n, F(1, 2))
    assert _chi2_pvalue(draws, _clamped_pmf(n, F(1, 2), i), 0, n) > P_FAIL
    assert _chi2_pvalue(draws, _clamped_pmf(n, F(3, 5), i), 0, n) < P_FAIL


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("maker", ["make_laplace", "make_geometric"])
def test_opendp_discrete_laplace_sampler(size, maker):
    s, i, lo, hi = 1.0, 2, -14, 18
    draws = _clamp(_opendp_draws(lambda dp, sp: getattr(dp.m, maker)(*sp, scale=s), i, size), lo, hi)
    a = float(sympy.exp(-1))  # the adapter's alpha is exp(-1); its float only computes the statistic
    m = odp.discrete_laplace(hi - lo, s)
    assert m.alpha == sympy.exp(-1)
    pmf = {k: float(x) for k, x in _z_pmf_window(sympy.exp(-1), i, lo, hi).items()}
    assert _chi2_pvalue(draws, pmf, lo, hi) > P_FAIL
    wrong = _z_pmf_window(F(1, 2), i, lo, hi)
    assert _chi2_pvalue(draws, wrong, lo, hi) < P_FAIL and a > 0


def test_tumult_sampler():
    nm = pytest.importorskip("tmlt.core.measurements.noise_mechanisms", reason=tmt.NOT_INSTALLABLE)
    m = nm.AddGeometricNoise(alpha=2)
    i, lo, hi = 1, -20, 22
    draws = _clamp([m(i) for _ in range(20_000)], lo, hi)
    pmf = {k: float(x) for k, x in _z_pmf_window(sympy.exp(-sympy.Rational(1, 2)), i, lo, hi).items()}
    assert _chi2_pvalue(draws, pmf, lo, hi) > P_FAIL
