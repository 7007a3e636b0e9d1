"""Guard rails of udpm.core.mechanisms (mutation-run kills): exact pmfs, tails and windows, the truncated
geometric mechanism's end columns, gs2010's scaling, and symbolic alphas refused unless exact in (0, 1)."""

from fractions import Fraction as F

import pytest
import sympy

from udpm.core.mechanisms import (
    ALPHA,
    _symbolic_alpha,
    geometric_pmf,
    geometric_tail,
    geometric_window,
    rounded_laplace_pmf,
    scaled_truncated_geometric,
    truncated_geometric,
    truncated_geometric_zlcn2013,
)
from udpm.errors import InvalidAlpha, InvalidInput, InvalidInteger, InvalidSize

A = F(1, 3)


def test_geometric_pmf_values():
    assert geometric_pmf(0, A) == F(1, 2)
    assert geometric_pmf(2, A) == F(1, 18)
    assert geometric_pmf(-2, A) == F(1, 18)
    assert geometric_pmf(1, "1/3") == F(1, 6)
    with pytest.raises(InvalidInteger, match=r"^delta must be an int"):
        geometric_pmf("1", A)


def test_geometric_tail_for_positive_and_non_positive_k():
    assert geometric_tail(1, A) == F(1, 4)
    assert geometric_tail(2, A) == F(1, 12)
    assert geometric_tail(0, A) == F(3, 4)  # Pr[Delta >= 0] = 1 - Pr[Delta <= -1]
    assert geometric_tail(-1, A) == F(11, 12)
    assert geometric_tail(0, A) == geometric_pmf(0, A) + geometric_tail(1, A)
    with pytest.raises(InvalidInteger, match=r"^k must be an int"):
        geometric_tail(F(1), A)
    with pytest.raises(InvalidAlpha):
        geometric_tail(1, 2)


def test_geometric_window_rows_and_outputs():
    w = geometric_window(1, A, -1, 1)
    assert w == [
        [geometric_pmf(-1, A), geometric_pmf(0, A), geometric_pmf(1, A)],
        [geometric_pmf(-2, A), geometric_pmf(-1, A), geometric_pmf(0, A)],
    ]
    assert geometric_window(2, A, 3, 3) == [[geometric_pmf(3 - i, A)] for i in range(3)]
    with pytest.raises(InvalidInput) as e:
        geometric_window(2, A, 4, 3)
    assert str(e.value) == "the output window lo..hi is empty: lo=4 > hi=3"
    with pytest.raises(InvalidInteger, match=r"^lo must be an int"):
        geometric_window(2, A, 0.0, 3)
    with pytest.raises(InvalidInteger, match=r"^hi must be an int"):
        geometric_window(2, A, 0, "3")
    with pytest.raises(InvalidSize):
        geometric_window(0, A, 0, 3)
    with pytest.raises(InvalidAlpha):
        geometric_window(1, 1, 0, 3)


def test_truncated_geometric_end_columns_collect_the_tails():
    t = truncated_geometric(2, A)
    assert t == [
        [F(3, 4), F(1, 6), F(1, 12)],
        [F(1, 4), F(1, 2), F(1, 4)],
        [F(1, 12), F(1, 6), F(3, 4)],
    ]
    assert truncated_geometric(1, A) == [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    with pytest.raises(InvalidSize):
        truncated_geometric(0, A)


def test_scaled_truncated_geometric_is_the_bare_powers():
    for n in (1, 2, 3):
        assert scaled_truncated_geometric(n, A) == [[A ** abs(i - j) for j in range(n + 1)] for i in range(n + 1)]
    with pytest.raises(InvalidSize):
        scaled_truncated_geometric(0, A)
    with pytest.raises(InvalidAlpha):
        scaled_truncated_geometric(2, 0)


def test_zlcn2013_alpha_is_converted_once():
    assert truncated_geometric_zlcn2013(2, 3) == truncated_geometric(2, A)
    with pytest.raises(InvalidSize):
        truncated_geometric_zlcn2013(0, 3)
    with pytest.raises(InvalidAlpha):
        truncated_geometric_zlcn2013(2, A)


def test_symbolic_alpha_accepts_symbols_and_exact_numbers_in_the_unit_interval():
    assert _symbolic_alpha(ALPHA) is ALPHA
    assert _symbolic_alpha(sympy.exp(-1)) == sympy.exp(-1)
    assert _symbolic_alpha(sympy.Rational(1, 3)) == sympy.Rational(1, 3)
    assert _symbolic_alpha(F(1, 3)) == sympy.Rational(1, 3)
    assert _symbolic_alpha("1/3") == sympy.Rational(1, 3)


def test_symbolic_alpha_refusals():
    with pytest.raises(InvalidAlpha) as e:
        _symbolic_alpha(sympy.Eq(ALPHA, 1))
    assert str(e.value) == "alpha=Eq(alpha, 1) is not a sympy expression"
    with pytest.raises(InvalidAlpha) as e:
        _symbolic_alpha(sympy.Float(0.5) * ALPHA)
    assert str(e.value).startswith("alpha=0.5*alpha contains a float; pass an exact number such as Rational(1, 2)")
    with pytest.raises(InvalidAlpha) as e:
        _symbolic_alpha(sympy.exp(1))
    assert str(e.value) == "alpha must be an exact number with 0 < alpha < 1 (alpha = e^-eps), got E"
    with pytest.raises(InvalidAlpha, match=r"got -exp\(-1\)$"):
        _symbolic_alpha(-sympy.exp(-1))
    with pytest.raises(InvalidAlpha, match=r"^alpha must satisfy 0 < alpha < 1 \(alpha = e\^-eps\), got 1;"):
        _symbolic_alpha(sympy.Integer(1))  # rational 1 goes through the exact check
    with pytest.raises(InvalidAlpha, match=r"^alpha must satisfy .*, got 3/2;"):
        _symbolic_alpha(sympy.Rational(3, 2))


def closed_form(k, a):
    """grs2011 Theorem A.2: 1 - sqrt(a) at 0, a^|k| (1/sqrt(a) - sqrt(a)) / 2 elsewhere."""
    if k == 0:
        return 1 - sympy.sqrt(a)
    return a ** abs(k) * (1 / sympy.sqrt(a) - sympy.sqrt(a)) / 2


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 2])
def test_rounded_laplace_pmf_matches_the_closed_form(k):
    assert rounded_laplace_pmf(k, sympy.Rational(1, 4)) == closed_form(k, sympy.Rational(1, 4))
    got = rounded_laplace_pmf(k)
    assert sympy.simplify(got - closed_form(k, ALPHA)) == 0
    assert got.subs(ALPHA, sympy.Rational(1, 9)) == closed_form(k, sympy.Rational(1, 9))


def test_rounded_laplace_pmf_refuses_non_integers_and_bad_alphas():
    with pytest.raises(InvalidInteger, match=r"^k must be an int"):
        rounded_laplace_pmf(0.5)
    with pytest.raises(InvalidAlpha):
        rounded_laplace_pmf(0, sympy.Integer(2))
