"""Bad input to the public functions of udpm.core.privacy and udpm.core.mechanisms: one typed error, one line.

Every row of the table is (function, arguments, expected error class, a pattern the message must
contain).  The error must be the named :class:`udpm.errors.InvalidInput` subclass (so never a raw
TypeError / ValueError / KeyError), and its message a single non-empty line.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
import sympy

from udpm.core.mechanisms import (
    geometric_pmf,
    geometric_tail,
    geometric_window,
    rounded_laplace_pmf,
    scaled_truncated_geometric,
    truncated_geometric,
    truncated_geometric_zlcn2013,
)
from udpm.core.privacy import database_dp_violations, dp_violations, hamming_neighbours, is_dp
from udpm.errors import (
    HarnessError,
    InvalidAlpha,
    InvalidInput,
    InvalidInteger,
    InvalidMatrix,
    InvalidSize,
    NotStochastic,
)

HALF = F(1, 2)
GOOD = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]  # 1/2-DP, row-stochastic
FLOAT_HINT = r"Fraction\(1, 2\) or the string '1/2'"

# alpha values every alpha-taking function must refuse, with the error class and a message pattern.
BAD_ALPHAS = [
    ("float", 0.5, InvalidAlpha, FLOAT_HINT),
    ("numpy float", np.float64(0.5), InvalidAlpha, FLOAT_HINT),
    ("nan", float("nan"), InvalidAlpha, "not a finite number"),
    ("inf", float("inf"), InvalidAlpha, "not a finite number"),
    ("nan string", "nan", InvalidAlpha, "not a rational"),
    ("numpy array", np.array([0.5]), InvalidAlpha, "numpy"),
    ("zero", 0, InvalidAlpha, "0 < alpha < 1"),
    ("one", 1, InvalidAlpha, "0 < alpha < 1"),
    ("one as a Fraction", F(1), InvalidAlpha, "0 < alpha < 1"),
    ("above one", F(3, 2), InvalidAlpha, "0 < alpha < 1"),
    ("negative", F(-1, 2), InvalidAlpha, "0 < alpha < 1"),
    ("bool", True, InvalidAlpha, "bool"),
    ("None", None, InvalidAlpha, "not an exact rational"),
    ("garbage string", "abc", InvalidAlpha, "not a rational"),
    ("division by zero", "1/0", InvalidAlpha, "not a rational"),
]

# Matrices is_dp / dp_violations must refuse (alpha = 1/2 is fine).
BAD_MATRICES = [
    ("rows sum to 4/3", [[F(2, 3), F(2, 3)], [F(1, 3), F(2, 3)]], NotStochastic, "row 0 sums to 4/3"),
    ("rows sum to 1/2", [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]], NotStochastic, "sums to 1/2"),
    ("negative entry", [[F(3, 2), F(-1, 2)], [HALF, HALF]], NotStochastic, "negative"),
    ("float entries", [[0.5, 0.5], [0.5, 0.5]], InvalidMatrix, "float"),
    ("nan entry", [[float("nan"), 1], [HALF, HALF]], InvalidMatrix, "float"),
    ("nan string entry", [["nan", 1], [HALF, HALF]], InvalidMatrix, "not a rational"),
    ("numpy array", np.array([[0.5, 0.5], [0.5, 0.5]]), InvalidMatrix, "numpy array"),
    ("numpy object array", np.array([[HALF, HALF], [HALF, HALF]], dtype=object), InvalidMatrix, "numpy array"),
    ("numpy row", [np.array([HALF, HALF]), [HALF, HALF]], InvalidMatrix, "numpy array"),
    ("ragged rows", [[F(1)], [HALF, HALF]], InvalidMatrix, "ragged"),
    ("a vector, not a matrix", [HALF, HALF], InvalidMatrix, "list of entries"),
    ("a scalar", HALF, InvalidMatrix, "list of rows"),
    ("a string", "1/2", InvalidMatrix, "list of rows"),
    ("three-dimensional", [[[F(1)]], [[F(1)]]], InvalidMatrix, "not an exact rational"),
    ("no rows", [], InvalidMatrix, "non-empty"),
    ("empty row", [[], []], InvalidMatrix, "non-empty"),
    ("None", None, InvalidMatrix, "list of rows"),
    ("a dict", {0: [F(1)]}, InvalidMatrix, "list of rows"),
]

# Integer arguments (delta, k, lo, hi) the mechanisms must refuse.
BAD_INTS = [
    ("float", 0.5, InvalidInteger, "must be an int"),
    ("nan", float("nan"), InvalidInteger, "must be an int"),
    ("string", "1", InvalidInteger, "must be an int"),
    ("Fraction", HALF, InvalidInteger, "must be an int"),
    ("bool", True, InvalidInteger, "must be an int"),
    ("None", None, InvalidInteger, "must be an int"),
]

BAD_SIZES = [
    ("zero", 0, InvalidSize, "n must be an integer >= 1"),
    ("negative", -1, InvalidSize, "n must be an integer >= 1"),
    ("float", 2.0, InvalidSize, "n must be an integer >= 1"),
    ("nan", float("nan"), InvalidSize, "n must be an integer >= 1"),
    ("string", "2", InvalidSize, "n must be an integer >= 1"),
    ("bool", True, InvalidSize, "n must be an integer >= 1"),
]


def _cases():
    alpha_calls = {
        "is_dp": lambda a: is_dp(GOOD, a),
        "dp_violations": lambda a: dp_violations(GOOD, a),
        "database_dp_violations": lambda a: database_dp_violations({(0,): GOOD[0], (1,): GOOD[1]}, [((0,), (1,))], a),
        "geometric_pmf": lambda a: geometric_pmf(0, a),
        "geometric_tail": lambda a: geometric_tail(1, a),
        "geometric_window": lambda a: geometric_window(2, a, -1, 3),
        "truncated_geometric": lambda a: truncated_geometric(2, a),
        "scaled_truncated_geometric": lambda a: scaled_truncated_geometric(2, a),
        "rounded_laplace_pmf": lambda a: rounded_laplace_pmf(0, a),
    }
    for fname, call in alpha_calls.items():
        for label, bad, exc, pattern in BAD_ALPHAS:
            yield pytest.param(call, bad, exc, pattern, id=f"{fname}-alpha-{label}")
    matrix_calls = {
        "is_dp": lambda x: is_dp(x, HALF),
        "dp_violations": lambda x: dp_violations(x, HALF),
    }
    for fname, call in matrix_calls.items():
        for label, bad, exc, pattern in BAD_MATRICES:
            yield pytest.param(call, bad, exc, pattern, id=f"{fname}-matrix-{label}")
    int_calls = {
        "geometric_pmf(delta)": lambda k: geometric_pmf(k, HALF),
        "geometric_tail(k)": lambda k: geometric_tail(k, HALF),
        "geometric_window(lo)": lambda k: geometric_window(2, HALF, k, 3),
        "geometric_window(hi)": lambda k: geometric_window(2, HALF, -1, k),
        "rounded_laplace_pmf(k)": lambda k: rounded_laplace_pmf(k),
    }
    for fname, call in int_calls.items():
        for label, bad, exc, pattern in BAD_INTS:
            yield pytest.param(call, bad, exc, pattern, id=f"{fname}-{label}")
    size_calls = {
        "geometric_window": lambda n: geometric_window(n, HALF, -1, 3),
        "truncated_geometric": lambda n: truncated_geometric(n, HALF),
        "scaled_truncated_geometric": lambda n: scaled_truncated_geometric(n, HALF),
        "truncated_geometric_zlcn2013": lambda n: truncated_geometric_zlcn2013(n, 2),
    }
    for fname, call in size_calls.items():
        for label, bad, exc, pattern in BAD_SIZES:
            yield pytest.param(call, bad, exc, pattern, id=f"{fname}-n-{label}")
    other = [
        # zlcn2013's alpha is > 1; the internal one is refused there, and floats are refused too.
        ("zlcn alpha below one", lambda v: truncated_geometric_zlcn2013(2, v), HALF, InvalidAlpha, "must be > 1"),
        ("zlcn alpha float", lambda v: truncated_geometric_zlcn2013(2, v), 2.0, InvalidAlpha, r"Fraction\(2, 1\)"),
        ("window lo > hi", lambda v: geometric_window(2, HALF, v, 0), 1, InvalidInput, "empty"),
        ("laplace float sympy alpha", lambda v: rounded_laplace_pmf(0, v), sympy.Float(0.5), InvalidAlpha, "float"),
        ("laplace irrational > 1", lambda v: rounded_laplace_pmf(0, v), sympy.sqrt(2), InvalidAlpha, "0 < alpha < 1"),
        (
            "database rows not stochastic",
            lambda v: database_dp_violations(v, [((0,), (1,))], HALF),
            {(0,): [HALF, HALF], (1,): [HALF, F(1, 3)]},
            NotStochastic,
            "sums to 5/6",
        ),
        (
            "database rows ragged",
            lambda v: database_dp_violations(v, [((0,), (1,))], HALF),
            {(0,): [F(1)], (1,): [HALF, HALF]},
            InvalidMatrix,
            "ragged",
        ),
        (
            "database rows float",
            lambda v: database_dp_violations(v, [((0,), (1,))], HALF),
            {(0,): [0.5, 0.5], (1,): [HALF, HALF]},
            InvalidMatrix,
            "float",
        ),
        (
            "database x a list",
            lambda v: database_dp_violations(v, [((0,), (1,))], HALF),
            [[HALF, HALF], [HALF, HALF]],
            InvalidInput,
            "mapping",
        ),
        (
            "unknown neighbour",
            lambda v: database_dp_violations({(0,): [F(1)], (1,): [F(1)]}, v, HALF),
            [((0,), (2,))],
            InvalidInput,
            "not a database",
        ),
        (
            "neighbour not a pair",
            lambda v: database_dp_violations({(0,): [F(1)], (1,): [F(1)]}, v, HALF),
            [((0,), (1,), (0,))],
            InvalidInput,
            "pairs",
        ),
        ("hamming: not tuples", hamming_neighbours, [[0, 1], [1, 1]], InvalidInput, "tuple"),
        ("hamming: lengths differ", hamming_neighbours, [(0, 1), (1,)], InvalidInput, "differ in length"),
        ("hamming: a number", hamming_neighbours, 3, InvalidInput, "tuples of rows"),
        ("hamming: mixed rows", hamming_neighbours, [(0,), ("a",)], InvalidInput, "comparable"),
    ]
    for label, call, bad, exc, pattern in other:
        yield pytest.param(call, bad, exc, pattern, id=label)


@pytest.mark.parametrize("call, bad, exc, pattern", list(_cases()))
def test_bad_input_is_one_typed_line(call, bad, exc, pattern):
    with pytest.raises(exc, match=pattern) as info:
        call(bad)
    err = info.value
    assert isinstance(err, InvalidInput) and isinstance(err, HarnessError)
    msg = str(err)
    assert msg and "\n" not in msg and len(msg) < 300, msg


def test_float_messages_say_how_to_pass_an_exact_rational():
    for call in (lambda: geometric_pmf(0, 0.5), lambda: is_dp(GOOD, 0.5), lambda: truncated_geometric(2, 0.25)):
        with pytest.raises(InvalidAlpha, match=r"Fraction\(\d+, \d+\) or the string '\d+/\d+'"):
            call()
    with pytest.raises(InvalidInteger, match="Fraction or a string like '1/2'"):
        geometric_pmf(0.5, HALF)  # a float where the int delta belongs: point at the alpha argument


def test_good_input_still_answers_exactly():
    assert geometric_pmf(0, "1/2") == geometric_pmf(0, HALF) == F(1, 3)
    assert geometric_pmf(-2, " 1/2 ") == F(1, 12)
    assert geometric_tail(-1, HALF) == 1 - geometric_tail(2, HALF)
    assert is_dp(GOOD, HALF) and is_dp(GOOD, "1/2") and not is_dp(GOOD, F(2, 3))
    assert is_dp([[F(1)], [F(1)]], HALF)  # one output column is a (trivial) mechanism
    assert is_dp(((HALF, HALF), (HALF, HALF)), HALF)  # tuples are fine
    assert is_dp([["1/2", "1/2"], [1, 0]], HALF) is False  # exact strings and ints are fine
    assert is_dp([[F(1, 3), F(1, 3), F(1, 3)]] * 3, HALF)  # not square: outputs need not equal inputs
    assert database_dp_violations({(0,): GOOD[0], (1,): GOOD[1]}, [((0,), (1,))], HALF) == []
    assert hamming_neighbours([(0, 0), (0, 1), (1, 1)]) == [((0, 0), (0, 1)), ((0, 1), (1, 1))]
    assert geometric_window(1, HALF, 0, 0) == [[F(1, 3)], [F(1, 6)]]
    assert rounded_laplace_pmf(0, "1/4") == rounded_laplace_pmf(0, sympy.Rational(1, 4))
