"""Guard rails of udpm.core.privacy (mutation-run kills): the exact ratio test at its boundary, zeros,
every adjacent pair, database neighbours, and one-line refusals of malformed input."""

from fractions import Fraction as F

import pytest

from udpm.core.privacy import Violation, database_dp_violations, dp_violations, hamming_neighbours, is_dp
from udpm.errors import InvalidAlpha, InvalidInput, NotStochastic

A = F(1, 2)


def test_a_ratio_of_exactly_alpha_is_allowed_in_both_directions():
    x = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]  # ratios 2 and 1/2 exactly
    assert dp_violations(x, A) == []
    assert is_dp(x, A) is True
    assert dp_violations(list(reversed(x)), A) == []


def test_a_ratio_just_past_alpha_is_named_with_both_probabilities():
    # column 0: 3/4 vs 1/4 (ratio 3); column 1: 1/4 vs 3/4
    x = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    v = dp_violations(x, A)
    assert v == [
        Violation(row=0, other=1, column=0, p=F(3, 4), q=F(1, 4), ratio=F(3)),
        Violation(row=1, other=0, column=1, p=F(3, 4), q=F(1, 4), ratio=F(3)),
    ]
    assert is_dp(x, A) is False


def test_zero_against_positive_is_an_infinite_ratio_and_zero_zero_is_fine():
    x = [[F(0), F(1), F(0)], [F(1, 2), F(1, 2), F(0)]]
    assert dp_violations(x, A) == [Violation(row=1, other=0, column=0, p=F(1, 2), q=F(0), ratio=None)]
    y = [[F(1, 2), F(1, 2), F(0)], [F(0), F(1), F(0)]]
    assert dp_violations(y, A) == [Violation(row=0, other=1, column=0, p=F(1, 2), q=F(0), ratio=None)]


def test_every_adjacent_pair_is_checked_and_only_adjacent_ones():
    ok = [F(1, 2), F(1, 2)]
    far = [F(1, 5), F(4, 5)]  # 1/2 vs 1/5 is a violation against ok (ratio 5/2)
    assert dp_violations([ok, ok, far], A)[0].row == 1 and dp_violations([ok, ok, far], A)[0].other == 2
    assert dp_violations([far, ok, ok], A) == [Violation(1, 0, 0, F(1, 2), F(1, 5), F(5, 2))]
    # rows 0 and 2 differ a lot, but they are not neighbours
    mid = [F(1, 3), F(2, 3)]
    assert dp_violations([ok, mid, far], F(1, 3)) == []
    assert dp_violations([[F(1)]], A) == []


def test_violation_text():
    assert str(Violation(1, 0, 2, F(1, 2), F(1, 8), F(4))) == "x[1][2]=1/2, x[0][2]=1/8, ratio 4"
    assert str(Violation("a", "b", 0, F(1, 2), F(0), None)) == "x[a][0]=1/2, x[b][0]=0, ratio inf"


def test_malformed_mechanisms_and_alphas_are_refused():
    with pytest.raises(NotStochastic, match=r"^mechanism is not row-stochastic: row 1 sums to 3/2, not 1$"):
        dp_violations([[F(1)], [F(3, 2)]], A)
    with pytest.raises(InvalidAlpha):
        dp_violations([[F(1)], [F(1)]], 1)
    with pytest.raises(InvalidAlpha):
        database_dp_violations({0: [F(1)]}, [], F(2))


def test_database_violations_use_the_given_neighbours():
    x = {"a": [F(2, 3), F(1, 3)], "b": [F(1, 3), F(2, 3)], "c": [F(1, 10), F(9, 10)]}
    assert database_dp_violations(x, [("a", "b")], A) == []
    v = database_dp_violations(x, [("a", "b"), ("a", "c")], A)
    assert v == [
        Violation(row="a", other="c", column=0, p=F(2, 3), q=F(1, 10), ratio=F(20, 3)),
        Violation(row="c", other="a", column=1, p=F(9, 10), q=F(1, 3), ratio=F(27, 10)),
    ]
    assert database_dp_violations(x, iter([("b", "a")]), A) == []


def test_database_input_is_refused_with_one_line():
    x = {"a": [F(1)], "b": [F(1)]}
    with pytest.raises(InvalidInput) as e:
        database_dp_violations([[F(1)]], [], A)
    assert str(e.value) == "x must be a non-empty mapping database -> row, got [[Fraction(1, 1)]] (list)"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations({}, [], A)
    assert str(e.value) == "x must be a non-empty mapping database -> row, got {} (dict)"
    with pytest.raises(NotStochastic, match=r"^mechanism is not row-stochastic"):
        database_dp_violations({"a": [F(1, 2)]}, [], A)
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, "ab", A)
    assert str(e.value) == "neighbours must be pairs of databases, got 'ab'"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, b"ab", A)
    assert str(e.value) == "neighbours must be pairs of databases, got b'ab'"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, 3, A)
    assert str(e.value) == "neighbours must be pairs of databases, got 3"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, [["a", "b"]], A)
    assert str(e.value) == "neighbours must be pairs (d1, d2), got ['a', 'b']"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, [("a", "b", "a")], A)
    assert str(e.value) == "neighbours must be pairs (d1, d2), got ('a', 'b', 'a')"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, [("a", "z")], A)
    assert str(e.value) == "neighbour 'z' is not a database of x"
    with pytest.raises(InvalidInput) as e:
        database_dp_violations(x, [("z", "a")], A)
    assert str(e.value) == "neighbour 'z' is not a database of x"


def test_hamming_neighbours_differ_in_exactly_one_row():
    dbs = [(0, 0), (0, 1), (1, 0), (1, 1), (0, 1)]
    assert hamming_neighbours(dbs) == [
        ((0, 0), (0, 1)),
        ((0, 0), (1, 0)),
        ((0, 1), (1, 1)),
        ((1, 0), (1, 1)),
    ]
    assert hamming_neighbours(iter([(0, 0, 0), (1, 1, 0), (1, 0, 0)])) == [
        ((0, 0, 0), (1, 0, 0)),
        ((1, 0, 0), (1, 1, 0)),
    ]
    assert hamming_neighbours([]) == []


def test_hamming_neighbours_refuse_malformed_databases():
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours("ab")
    assert str(e.value) == "databases must be tuples of rows, got 'ab'"
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours(b"ab")
    assert str(e.value) == "databases must be tuples of rows, got b'ab'"
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours(5)
    assert str(e.value) == "databases must be tuples of rows, got 5"
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours([(0,), [1]])
    assert str(e.value) == "a database must be a tuple of rows, got [1] (list)"
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours([(0,), (1, 0)])
    assert str(e.value) == "databases differ in length: (0,) and (1, 0)"
    with pytest.raises(InvalidInput) as e:
        hamming_neighbours([(0,), ("a",)])
    assert str(e.value) == "databases must be tuples of comparable rows (e.g. ints)"


def test_database_violations_of_every_pair_are_kept():
    x = {"a": [F(9, 10), F(1, 10)], "b": [F(1, 10), F(9, 10)], "c": [F(1, 2), F(1, 2)]}
    v = database_dp_violations(x, [("a", "b"), ("b", "c")], A)
    assert [(w.row, w.other, w.column) for w in v] == [("a", "b", 0), ("b", "a", 1), ("c", "b", 0)]
