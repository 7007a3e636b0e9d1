"""Guard rails of udpm.lp.exact_signs: a non-zero combination is decided by the rigorous intervals alone; sympy's
exact zero test is the fallback for intervals that straddle 0, never the path a decidable sign takes.  The tests
make the fallback fail, so that a sign the intervals lost (an atom without an interval, a bound compared to the
wrong number) is seen."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy

from udpm.lp import exact_signs
from udpm.lp.exact_signs import ONE_ATOM, sign_of

R2, R3 = sympy.sqrt(2), sympy.sqrt(3)
CBRT2 = sympy.Pow(2, sympy.Rational(1, 3))


@pytest.fixture
def no_fallback(monkeypatch):
    """sympy's minimal polynomial and sign queries raise: only the interval path may answer."""

    def refuse(*args, **kwargs):
        raise AssertionError("the exact fallback was reached")

    monkeypatch.setattr(exact_signs.sympy, "minimal_polynomial", refuse)


#: (combination, sign): each non-zero, with irrational atoms of every shape _interval bounds.
DECIDABLE = [
    ({R2: F(1), ONE_ATOM: F(-1)}, 1),  # 0.414: a lower bound in (0, 1]
    ({R2: F(-1), ONE_ATOM: F(1)}, -1),
    ({R2: F(1), R3: F(-1)}, -1),
    ({CBRT2: F(1), ONE_ATOM: F(-5, 4)}, 1),  # 0.0099
    ({sympy.Pow(sympy.Rational(1, 2), sympy.Rational(1, 3), evaluate=False): F(1), ONE_ATOM: F(-3, 4)}, 1),
    ({sympy.Mul(CBRT2, R3, evaluate=False): F(1), ONE_ATOM: F(-2)}, 1),  # a product atom: 2.18
    ({sympy.Mul(CBRT2, R3, evaluate=False): F(-1), ONE_ATOM: F(2)}, -1),
    ({sympy.Add(R2, R3, evaluate=False): F(1), ONE_ATOM: F(-3)}, 1),  # a sum atom: 3.146
    ({sympy.Add(R2, R3, evaluate=False): F(-1), ONE_ATOM: F(3)}, -1),
    ({R2: F(1, 10**6), ONE_ATOM: F(-1414213, 10**12)}, 1),  # needs the finer precisions
]


@pytest.mark.parametrize(("combo", "sign"), DECIDABLE)
def test_a_nonzero_combination_is_decided_by_the_intervals_alone(no_fallback, combo, sign):
    assert sign_of(combo) == sign


def test_the_fallback_is_reached_for_a_hard_zero(no_fallback):
    """The fixture is no pass-through: a zero the intervals cannot settle reaches the refused fallback."""
    nested = sympy.sqrt(5 + 2 * R3 * R2)  # = sqrt(2) + sqrt(3), not denested by sympy
    with pytest.raises(AssertionError, match="the exact fallback was reached"):
        sign_of({nested: F(1), R2: F(-1), R3: F(-1)})


@pytest.mark.parametrize(("combo", "sign"), DECIDABLE)
def test_with_the_fallback_the_signs_are_the_same(combo, sign):
    assert sign_of(combo) == sign


@pytest.mark.parametrize("sign", [1, -1])
def test_intervals_that_are_exactly_zero_decide_nothing(sign):
    """sqrt(1) (unevaluated) has the exact interval [1, 1]: sqrt(1) - 1 gives [0, 0], which is zero, not a sign."""
    root_one = sympy.Pow(1, sympy.Rational(1, 2), evaluate=False)
    assert sign_of({root_one: F(sign), ONE_ATOM: F(-sign)}) == 0
    assert sign_of({root_one: F(sign), ONE_ATOM: F(-sign, 2)}) == sign
