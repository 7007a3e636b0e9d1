"""Pins udpm.claims.evidence's grid (``grid_of``) where all-n arguments start at another n than 1: the rows group
alphas by their decided n *and* by that first n, which the row carries as "from"."""

from __future__ import annotations

from udpm.claims.evidence import grid_of
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED


def test_grid_rows_carry_the_first_n_of_their_all_n_arguments() -> None:
    rec = Findings("c")
    for alpha, n_from in [("1/2", 0), ("1/3", 0), ("1/3", 2), ("2/3", None), ("3/5", None), ("3/4", 2)]:
        rec.decide(True, "", n=None, alpha=alpha, kind=ALL_N, method="m", n_from=n_from)
    for alpha in ("1/2", "1/3", "2/3", "3/5", "3/4"):
        rec.decide(True, "", n=1, alpha=alpha, kind=BOUNDED, method="m")
    assert grid_of(rec.decisions) == [
        {"alphas": ["1/2", "1/3"], "n": [None, 1], "from": 0},  # 1/3's arguments start at 0 and 2: the first is 0
        {"alphas": ["2/3", "3/5"], "n": [None, 1]},  # from 1: no "from"
        {"alphas": ["3/4"], "n": [None, 1], "from": 2},
    ]
