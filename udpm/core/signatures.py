"""Signatures (grs2011 Section 5.3), alias constraint matrices (grs2009 Section 5).

Row i of the signature of X compares rows i and i+1 of X, column by column:

- DOWN ``↓``: both positive and x_{i+1,j} = alpha x_ij (decreasing as fast as DP allows);
- UP ``↑``: both positive and x_{i+1,j} = x_ij / alpha;
- SLACK ``S``: both positive and strictly in between;
- ZERO ``0``: both zero (grs2009 writes Z-columns for all-zero columns).

>>> from fractions import Fraction as F
>>> from udpm.core.mechanisms import truncated_geometric
>>> sig = signature(truncated_geometric(2, F(1, 2)), F(1, 2))
>>> render(sig)
'↓↑↑\\n↓↓↑'
>>> is_unimodal(sig), satisfies_p1(sig), satisfies_p2(sig), satisfies_p3(sig)
(True, True, True, True)
>>> remap_from_signature(sig)
[0, 1, 2]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from udpm.core.validate import alpha_in_unit_interval, matrix
from udpm.errors import InvalidInput

DOWN, UP, SLACK, ZERO = "↓", "↑", "S", "0"
Signature = list[list[str]]


def entry(p: Fraction, q: Fraction, a: Fraction) -> str:
    """The symbol for consecutive entries p = x_ij, q = x_{i+1,j}."""
    if p == 0 and q == 0:
        return ZERO
    if p > 0 and q > 0:
        if q == a * p:
            return DOWN
        if q * a == p:
            return UP
        if a * p < q < p / a:
            return SLACK
    raise InvalidInput(f"entries {p}, {q} break alpha-DP for alpha={a}; no signature exists")


def signature(x: Sequence[Sequence[object]], alpha: object) -> Signature:
    """The n x (n+1) signature of a feasible mechanism x (rows 0..n, outputs 0..n)."""
    a = alpha_in_unit_interval(alpha)
    m = matrix(x)
    return [[entry(m[i][j], m[i + 1][j], a) for j in range(len(m[0]))] for i in range(len(m) - 1)]


constraint_matrix = signature  # grs2009's name for the same object


def render(sig: Signature) -> str:
    return "\n".join("".join(row) for row in sig)


def parse(text: Sequence[str]) -> Signature:
    """A signature from rows of symbols; accepts 'v'/'^' for arrows and 'Z' for zero."""
    table = {"v": DOWN, "^": UP, "Z": ZERO, DOWN: DOWN, UP: UP, SLACK: SLACK, ZERO: ZERO}
    try:
        return [[table[c] for c in row.replace(" ", "")] for row in text]
    except KeyError as exc:
        raise InvalidInput(f"unknown signature symbol {exc.args[0]!r}") from None


def columns(sig: Signature) -> list[list[str]]:
    return [list(c) for c in zip(*sig)]


def zero_columns(sig: Signature) -> list[int]:
    return [j for j, c in enumerate(columns(sig)) if all(s == ZERO for s in c)]


def nonzero_columns(sig: Signature) -> list[int]:
    return [j for j, c in enumerate(columns(sig)) if any(s != ZERO for s in c)]


def count(sig: Signature, symbol: str) -> int:
    return sum(row.count(symbol) for row in sig)


def _matches(seq: Sequence[str], pattern: Sequence[str], at_most_one: str | None = None) -> bool:
    """seq is pattern[0]* pattern[1]* ... (with at most one of ``at_most_one``)."""
    k = 0
    for s in seq:
        while k < len(pattern) and s != pattern[k]:
            k += 1
        if k == len(pattern):
            return False
    return at_most_one is None or list(seq).count(at_most_one) <= 1


def is_unimodal_row(row: Sequence[str]) -> bool:
    """grs2011: non-zero entries are ↓*, then at most one S, then ↑*."""
    return _matches([s for s in row if s != ZERO], [DOWN, SLACK, UP], at_most_one=SLACK)


def is_unimodal(sig: Signature) -> bool:
    return all(is_unimodal_row(r) for r in sig)


def downs(row: Sequence[str]) -> int:
    return list(row).count(DOWN)


def is_single_peaked(col: Sequence[str]) -> bool:
    """grs2011 Section 5.4: ↑* (incline), S* (peak), ↓* (decline) down the rows."""
    return _matches(col, [UP, SLACK, DOWN])


def incline(col: Sequence[str]) -> set[int]:
    return {i for i, s in enumerate(col) if s == UP}


def peak(col: Sequence[str]) -> set[int]:
    return {i for i, s in enumerate(col) if s == SLACK}


def decline(col: Sequence[str]) -> set[int]:
    return {i for i, s in enumerate(col) if s == DOWN}


def satisfies_p1(sig: Signature) -> bool:
    """(P1) every non-zero column is single-peaked."""
    cols = columns(sig)
    return all(is_single_peaked(cols[j]) for j in nonzero_columns(sig))


def satisfies_p2(sig: Signature) -> bool:
    """(P2) the first non-zero column has no incline and the last has no decline."""
    cols, nz = columns(sig), nonzero_columns(sig)
    return bool(nz) and not incline(cols[nz[0]]) and not decline(cols[nz[-1]])


def satisfies_p3(sig: Signature) -> bool:
    """(P3) each later non-zero column's incline = previous incline ∪ previous peak ∪ one more row."""
    cols, nz = columns(sig), nonzero_columns(sig)
    for prev, cur in zip(nz, nz[1:]):
        before = incline(cols[prev]) | peak(cols[prev])
        extra = incline(cols[cur]) - before
        if not before <= incline(cols[cur]) or len(extra) != 1:
            return False
    return True


def remap_from_signature(sig: Signature) -> list[int]:
    """grs2011 Lemma 5.10's deterministic remap of T: inputs a_k..b_k go to the k-th non-zero column.

    a_k is the first row where column j_k has S or ↓ (n if none), b_k the first
    row with ↓ (n if none).  Raises InvalidInput if the I_k = {a_k..b_k} do not
    partition N, which (P1)-(P3) guarantee.
    """
    n = len(sig)
    cols = columns(sig)
    mapping: list[int | None] = [None] * (n + 1)
    for j in nonzero_columns(sig):
        col = cols[j]
        a = next((i for i, s in enumerate(col) if s in (SLACK, DOWN)), n)
        b = next((i for i, s in enumerate(col) if s == DOWN), n)
        for r in range(a, b + 1):
            if mapping[r] is not None:
                raise InvalidInput(f"intervals overlap at row {r}: the signature violates (P3)")
            mapping[r] = j
    missing = [r for r, v in enumerate(mapping) if v is None]
    if missing:
        raise InvalidInput(f"rows {missing} are in no interval: the signature violates (P2)/(P3)")
    return [int(v) for v in mapping if v is not None]
