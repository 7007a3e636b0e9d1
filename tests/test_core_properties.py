"""Property tests of the exact core: invariants that must hold for every input hypothesis finds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from udpm.core import linalg
from udpm.core.conventions import alpha_from_zlcn2013, alpha_to_zlcn2013
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations, is_dp
from udpm.core.remaps import bayes_remap, compose, derive, deterministic_remap
from udpm.core.users import BayesianUser, Loss
from udpm.core.validate import alpha_in_unit_interval, size
from udpm.errors import InvalidAlpha, InvalidSize, NotStochastic

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)

alphas = st.fractions(min_value=Fraction(1, 50), max_value=Fraction(49, 50)).filter(lambda a: 0 < a < 1)
sizes = st.integers(min_value=1, max_value=4)
weights = st.integers(min_value=0, max_value=6)


@st.composite
def distributions(draw, k: int, allow_zero: bool = True) -> list[Fraction]:
    w = draw(st.lists(st.integers(min_value=0 if allow_zero else 1, max_value=6), min_size=k, max_size=k))
    if sum(w) == 0:
        w[0] = 1
    return [Fraction(x, sum(w)) for x in w]


@st.composite
def stochastic_matrices(draw, rows: int, cols: int) -> list[list[Fraction]]:
    return [draw(distributions(cols)) for _ in range(rows)]


@st.composite
def dp_mechanisms(draw, n: int, m: int, a: Fraction) -> list[list[Fraction]]:
    """A random alpha-DP mechanism, row by row: each next row moves the previous one inside
    the box [a x, x / a] along a random sum-zero direction, so every row stays a distribution."""
    x = draw(distributions(m, allow_zero=False))
    rows = [x]
    for _ in range(n):
        d = [Fraction(draw(st.integers(-3, 3))) for _ in range(m)]
        shift = sum(d) / m
        d = [v - shift for v in d]
        # Largest t with a x <= x + t d <= x / a coordinatewise.
        bounds = [((x_j / a - x_j) / d_j if d_j > 0 else (a * x_j - x_j) / d_j) for x_j, d_j in zip(x, d) if d_j]
        t = min(bounds, default=Fraction(0)) * Fraction(draw(st.integers(0, 4)), 4)
        x = [x_j + t * d_j for x_j, d_j in zip(x, d)]
        rows.append(x)
    return rows


def brute_force_is_dp(x: list[list[Fraction]], a: Fraction) -> bool:
    """Ratio check with 0/0 = 1, written straight from the definition."""
    for r1, r2 in zip(x, x[1:]):
        for p, q in zip(r1, r2):
            if p == 0 and q == 0:
                continue
            if p == 0 or q == 0 or not (a <= p / q <= 1 / a):
                return False
    return True


@SETTINGS
@given(data=st.data(), n=sizes, a=alphas)
def test_dp_check_agrees_with_brute_force(data, n, a):
    x = data.draw(st.one_of(stochastic_matrices(n + 1, 3), dp_mechanisms(n, 3, a)))
    assert is_dp(x, a) == brute_force_is_dp(x, a)


@SETTINGS
@given(data=st.data(), n=sizes, a=alphas)
def test_composing_with_any_remap_preserves_dp(data, n, a):
    x = data.draw(dp_mechanisms(n, 3, a))
    assert is_dp(x, a)
    y = data.draw(stochastic_matrices(3, data.draw(st.integers(1, 4))))
    assert dp_violations(compose(x, y), a) == []


@SETTINGS
@given(data=st.data(), n=st.integers(1, 3), a=alphas)
def test_bayes_remap_is_never_beaten_by_a_deterministic_remap(data, n, a):
    x = data.draw(dp_mechanisms(n, 3, a))
    prior = data.draw(distributions(n + 1))
    loss = Loss.from_matrix([[data.draw(weights) for _ in range(n + 1)] for _ in range(n + 1)])
    user = BayesianUser.of(prior, loss)
    best = user.expected_loss(compose(x, deterministic_remap(bayes_remap(x, user), n + 1)))
    for mapping in itertools.product(range(n + 1), repeat=3):
        assert best <= user.expected_loss(compose(x, deterministic_remap(mapping, n + 1)))


@SETTINGS
@given(data=st.data(), n=sizes, a=alphas)
def test_derivable_exactly_when_inverse_is_stochastic(data, n, a):
    t = truncated_geometric(n, a)
    y = data.draw(stochastic_matrices(n + 1, n + 1))
    d = derive(compose(t, y), t)
    assert d.stochastic and d.remap == y
    x = data.draw(dp_mechanisms(n, n + 1, a))
    d = derive(x, t)
    assert linalg.matmul(t, d.remap) == x  # the unique candidate always reproduces X ...
    rows_sum_to_one = all(sum(r) == 1 for r in d.remap)
    assert rows_sum_to_one  # ... and is generalized stochastic; derivable iff also non-negative
    assert d.stochastic == all(v >= 0 for r in d.remap for v in r)


@SETTINGS
@given(st.fractions(min_value=Fraction(101, 100), max_value=100))
def test_alpha_conventions_round_trip(big):
    assert alpha_to_zlcn2013(alpha_from_zlcn2013(big)) == big
    assert 0 < alpha_from_zlcn2013(big) < 1


def test_truncated_geometric_is_dp_and_stochastic():
    for n in range(1, 6):
        for a in (Fraction(1, 2), Fraction(1, 7), Fraction(6, 7)):
            t = truncated_geometric(n, a)
            assert all(sum(r) == 1 for r in t) and is_dp(t, a)


def test_dp_check_reports_a_concrete_violation():
    a = Fraction(1, 2)
    t = truncated_geometric(3, a)
    t[1][2] += Fraction(1, 10)  # still row-stochastic: t[1][3] = 1/6 - 1/10 = 1/15
    t[1][3] -= Fraction(1, 10)
    v = dp_violations(t, a)
    assert v and {v[0].row, v[0].other} in ({0, 1}, {1, 2})
    assert "ratio" in str(v[0])


@pytest.mark.parametrize("bad", [0.5, 1, 0, Fraction(3, 2), "abc", None])
def test_bad_alpha_is_one_clear_error(bad):
    with pytest.raises(InvalidAlpha) as exc:
        alpha_in_unit_interval(bad)
    assert "\n" not in str(exc.value)


def test_float_alpha_message_says_how_to_pass_a_fraction():
    with pytest.raises(InvalidAlpha, match=r"Fraction\(1, 2\) or the string '1/2'"):
        truncated_geometric(3, 0.5)


def test_dp_check_refuses_a_matrix_that_is_not_a_mechanism():
    t = truncated_geometric(3, Fraction(1, 2))
    t[1][3] -= Fraction(1, 5)  # negative, and row 1 no longer sums to 1
    with pytest.raises(NotStochastic, match="negative"):
        is_dp(t, Fraction(1, 2))
    t[1][3] += Fraction(1, 2)
    with pytest.raises(NotStochastic, match="row 1 sums to 13/10"):
        dp_violations(t, Fraction(1, 2))


@SETTINGS
@given(data=st.data(), n=sizes, a=alphas)
def test_any_row_not_summing_to_one_is_refused(data, n, a):
    x = data.draw(stochastic_matrices(n + 1, 3))
    i = data.draw(st.integers(0, n))
    x[i][data.draw(st.integers(0, 2))] += data.draw(st.fractions(min_value=Fraction(1, 100), max_value=1))
    with pytest.raises(NotStochastic, match=f"row {i} sums to"):
        is_dp(x, a)


@pytest.mark.parametrize("bad", [0, -1, 1.0, True, "3"])
def test_bad_n_is_one_clear_error(bad):
    with pytest.raises(InvalidSize):
        size(bad)
