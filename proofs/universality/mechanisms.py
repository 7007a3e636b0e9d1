"""The mechanisms the universality claims list (grs2011 Corollary 3.3, Lemma 5.11; grs2009 Theorem 3.1).

T (the truncated geometric mechanism), the geometric mechanism with its tails lumped, mechanisms X with a remap
Y o X = T (an output split, outputs permuted), and randomized response (a mechanism that is not universally
optimal, for the false variants and the characterization).  :data:`DEFAULT_MECHANISMS` names the list each
every-user claim's own run decides.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

from proofs.universality.optimality import Matrix
from udpm.core.mechanisms import geometric_tail, geometric_window, truncated_geometric
from udpm.core.remaps import compose, deterministic_remap


def geometric_lumped(n: int, a: F, k: int = 2) -> Matrix:
    """The alpha-geometric mechanism on outputs -k..n+k with the two tails lumped into end outputs.

    For outputs r <= -k-1 the posterior is proportional to p_i a^i for every r (the same for all
    such r), likewise for r >= n+k+1, so the Bayes remap is constant on each tail: lumping the
    tails changes no user's best loss.  Columns: [tail<-k, -k..n+k, tail>n+k]."""
    w = geometric_window(n, a, -k, n + k)
    return [[geometric_tail(k + 1 + i, a)] + w[i] + [geometric_tail(n + k + 1 - i, a)] for i in range(n + 1)]


def split_output(x: Matrix, r: int, q: F) -> Matrix:
    """X with output r split into two outputs with probabilities q and 1-q (merging them restores X)."""
    return [[*row[:r], row[r] * q, row[r] * (1 - q), *row[r + 1 :]] for row in x]


def mechanisms_with_remap_to_t(n: int, a: F) -> list[tuple[str, Matrix]]:
    t = truncated_geometric(n, a)
    perm = deterministic_remap([(j + 1) % (n + 1) for j in range(n + 1)], n + 1)
    return [
        ("T", t),
        ("geometric (tails lumped)", geometric_lumped(n, a)),
        ("T with output 0 split 1/3:2/3", split_output(t, 0, F(1, 3))),
        ("T with outputs cyclically permuted", compose(t, perm)),
    ]


def rr_mechanism(n: int, beta: F) -> Matrix:
    """Randomized response on 0..n: the true result with probability beta, the others uniformly."""
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


def cor33_mechanisms(n: int, a: F) -> list[tuple[str, Matrix]]:
    return [("T", truncated_geometric(n, a)), ("geometric (tails lumped)", geometric_lumped(n, a))]


#: The mechanisms each every-user claim's own run lists; its (n, alpha) tasks are planned with them.
DEFAULT_MECHANISMS: dict[str, Callable[[int, F], list[tuple[str, Matrix]]]] = {
    "grs2011.cor3.3": cor33_mechanisms,
    "grs2011.lemma5.11": mechanisms_with_remap_to_t,
    "grs2009.thm3.1": cor33_mechanisms,
}
