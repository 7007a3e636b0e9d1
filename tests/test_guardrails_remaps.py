"""Guard rails of udpm.core.remaps (mutation-run kills): remap targets in range, exact Bayes remaps with
smallest-index ties, derivability by the sign of T^-1 X, zlcn2013 transformations in [0, 1]."""

from fractions import Fraction as F

import pytest
import sympy

from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import (
    Derivation,
    Transformation,
    bayes_remap,
    compose,
    derive,
    deterministic_remap,
    posterior_loss,
    transformation_vector,
)
from udpm.core.users import BayesianUser, Loss, absolute_error
from udpm.errors import InvalidInput, InvalidMatrix


def test_compose_is_the_matrix_product_and_names_the_bad_operand():
    x = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    y = [[F(1), F(0)], [F(1, 3), F(2, 3)]]
    assert compose(x, y) == [[F(2, 3), F(1, 3)], [F(1, 2), F(1, 2)]]
    with pytest.raises(InvalidMatrix, match=r"^mechanism is ragged"):
        compose([[F(1)], [F(1), F(0)]], y)
    with pytest.raises(InvalidMatrix, match=r"^remap is ragged"):
        compose(x, [[F(1)], [F(1), F(0)]])


def test_deterministic_remap_targets_must_lie_in_range():
    assert deterministic_remap([2, 0], 3) == [[0, 0, 1], [1, 0, 0]]
    assert deterministic_remap([0], 1) == [[1]]
    assert all(type(v) is F for row in deterministic_remap([1, 0], 2) for v in row)
    with pytest.raises(InvalidInput) as e:
        deterministic_remap([0, 3], 3)
    assert str(e.value) == "a remap target lies outside 0..2: [0, 3]"
    with pytest.raises(InvalidInput, match=r"outside 0\.\.2: \[-1, 0\]"):
        deterministic_remap([-1, 0], 3)


def test_posterior_loss_sums_prior_times_mechanism_times_loss():
    x = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    user = BayesianUser.of([F(1, 3), F(2, 3)], absolute_error(1))
    # output 1, answer 0: p_0 x_01 l(0,0) + p_1 x_11 l(1,0) = 0 + 2/3 * 3/4 * 1
    assert posterior_loss(x, user, 1, 0) == F(1, 2)
    assert posterior_loss(x, user, 0, 1) == F(1, 6)  # 1/3 * 1/2 * 1


def test_posterior_loss_skips_zero_weights_so_the_sum_stays_a_fraction():
    loss = Loss.from_matrix([[0, sympy.sqrt(2)], [sympy.sqrt(3), 0]])
    user = BayesianUser.of([F(0), F(1)], loss)
    x = [[F(1), F(0)], [F(0), F(1)]]
    out = posterior_loss(x, user, 0, 1)  # p_0 = 0 and x_10 = 0: nothing contributes
    assert out == 0 and type(out) is F
    assert posterior_loss(x, user, 1, 0) == sympy.sqrt(3)


def test_bayes_remap_minimises_posterior_loss_with_smallest_index_ties():
    user = BayesianUser.of([F(1, 3)] * 3, absolute_error(2))
    assert bayes_remap(truncated_geometric(2, F(1, 2)), user) == [0, 1, 2]
    # every output uninformative: answers 1 (the median) for every output
    flat = [[F(1, 2), F(1, 2)]] * 3
    assert bayes_remap(flat, user) == [1, 1]
    # a tie between 0 and 1 for every output (prior mass 1/2 on each, loss |i-j|): the smaller index wins
    tie = BayesianUser.of([F(1, 2), F(1, 2), F(0)], absolute_error(2))
    assert bayes_remap(flat, tie) == [0, 0]
    # the last answer can win
    last = BayesianUser.of([F(0), F(0), F(1)], absolute_error(2))
    assert bayes_remap(flat, last) == [2, 2]


def test_bayes_remap_refuses_a_mechanism_of_the_wrong_size():
    user = BayesianUser.of([F(1, 2), F(1, 2)], absolute_error(1))
    with pytest.raises(InvalidInput) as e:
        bayes_remap(truncated_geometric(2, F(1, 2)), user)
    assert str(e.value) == "mechanism has 3 rows, the user's N has 2"


def test_derive_is_stochastic_exactly_when_no_entry_is_negative():
    t = truncated_geometric(2, F(1, 2))
    y = deterministic_remap([0, 0, 2], 3)
    d = derive(compose(t, y), t)
    assert d == Derivation(y, ()) and d.stochastic is True
    # a zero entry is not negative
    assert any(v == 0 for row in d.remap for v in row)
    # x = identity is not derivable from T: T^-1 has negative entries
    ident = [[F(int(i == j)) for j in range(3)] for i in range(3)]
    bad = derive(ident, t)
    assert bad.stochastic is False
    assert all(v < 0 for _, _, v in bad.negative_entries)
    assert [(r, j) for r, j, _ in bad.negative_entries] == [
        (r, j) for r in range(3) for j in range(3) if bad.remap[r][j] < 0
    ]
    assert (0, 1, bad.remap[0][1]) in bad.negative_entries
    with pytest.raises(InvalidMatrix, match=r"^deployed mechanism is ragged"):
        derive(ident, [[F(1)], [F(1), F(0)]])
    with pytest.raises(InvalidMatrix, match=r"^mechanism is ragged"):
        derive([[F(1)], [F(1), F(0)]], t)


def test_transformation_is_valid_only_inside_the_closed_unit_interval():
    assert Transformation((F(0), F(1), F(1, 2))).valid is True
    assert Transformation((F(0), F(1), F(1, 2))).out_of_range == ()
    t = Transformation((F(-1, 5), F(1), F(6, 5), F(0)))
    assert t.valid is False
    assert t.out_of_range == ((0, F(-1, 5)), (2, F(6, 5)))


def test_transformation_vector_solves_m_t_equals_x():
    m = truncated_geometric(2, F(1, 2))
    t = (F(0), F(1, 2), F(1))
    x = [sum(m[i][j] * t[j] for j in range(3)) for i in range(3)]
    assert transformation_vector(x, m) == Transformation(t)
    with pytest.raises(InvalidMatrix, match=r"^deployed mechanism is ragged"):
        transformation_vector(x, [[F(1)], [F(1), F(0)]])
    with pytest.raises(InvalidMatrix, match=r"^x\[0\]\[1\]"):
        transformation_vector([F(1), 0.5], m)
