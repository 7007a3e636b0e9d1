"""Guard rails of udpm.lp.exact_lp: the exact solves poll their time bound at the first pivot and every 1024 after
(a solve begun past its deadline stops at once, a long one is checked on the way), naming the phase; a singular
basis is refused with its rank."""

from __future__ import annotations

import pytest

from udpm.lp.exact_lp import Q, Singular, SparseLU, _Clock, sparse_solve


class CountingClock(_Clock):
    """A clock that never expires and records what each poll names."""

    def __init__(self):
        super().__init__(3600)
        self.polls: list[str] = []

    def tick(self, what: str) -> None:
        self.polls.append(what)
        super().tick(what)


def _identity(n: int) -> list[dict]:
    return [{i: Q(1)} for i in range(n)]


@pytest.mark.parametrize(("n", "polls"), [(1, 1), (1024, 1), (1025, 2), (2049, 3)])
def test_back_substitution_polls_at_the_first_pivot_and_every_1024(n, polls):
    clock = CountingClock()
    x = sparse_solve(_identity(n), [[Q(i)] for i in range(n)], n, clock)
    assert x == [[Q(i)] for i in range(n)]
    assert clock.polls.count("exact solve") == polls


@pytest.mark.parametrize(("n", "polls"), [(1, 1), (1024, 1), (1025, 2), (2049, 3)])
def test_the_transposed_solve_polls_at_the_first_pivot_and_every_1024(n, polls):
    clock = CountingClock()
    lu = SparseLU(_identity(n), n, clock)
    clock.polls.clear()
    assert lu.solve_transposed([[Q(2 * i)] for i in range(n)]) == [[Q(2 * i)] for i in range(n)]
    assert clock.polls == ["exact solve"] * polls


def test_a_solve_begun_past_its_deadline_stops_at_once():
    from udpm.errors import SolverTimeout

    clock = _Clock(1)
    clock.deadline = 0.0  # long past
    lu = SparseLU(_identity(1), 1, CountingClock())
    lu.clock = clock
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(exact solve\) exceeded 1 s$"):
        lu.solve([[Q(1)]])
    with pytest.raises(SolverTimeout, match=r"^certified LP solve \(exact solve\) exceeded 1 s$"):
        lu.solve_transposed([[Q(1)]])
    with pytest.raises(SolverTimeout, match=r"\(exact solve\)"):
        sparse_solve(_identity(1), [[Q(1)]], 1, clock)


def test_a_singular_basis_is_refused_with_its_rank():
    rows = [{0: Q(1), 1: Q(2)}, {0: Q(2), 1: Q(4)}]
    with pytest.raises(Singular, match=r"^basis matrix is singular \(rank 1 < 2\)$"):
        SparseLU(rows, 2, CountingClock())
    with pytest.raises(Singular, match=r"^basis matrix is singular \(rank 1 < 2\)$"):
        sparse_solve(rows, [[Q(1)], [Q(2)]], 2, CountingClock())
