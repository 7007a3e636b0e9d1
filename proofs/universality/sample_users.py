"""Users drawn as samples (grs2011 Section 2.2): boundary cases, random legal users and finite grids.

Each is one exact (prior, loss); a sampled instance is identified by :func:`user_digest`.  The claims in
the modules of :mod:`proofs.universality` (scan, user_lp, bayes_remap, direct_mechanisms, unique_optimum,
characterization, range_n_permutations) decide them as cross-checks of the every-user decisions
(:mod:`udpm.auditing.every_user`).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from fractions import Fraction as F

import sympy

from udpm.core import linalg
from udpm.core.users import BayesianUser, Loss, absolute_error, binary_loss, power_loss, squared_error


def legal_loss(g: Sequence[Sequence[object]]) -> Loss:
    """l(i, j) = g_i(|j - i|): legal when each g_i is nondecreasing (grs2011 Section 2.2)."""
    n = len(g) - 1
    return Loss.from_function(n, lambda i, j: g[i][abs(i - j)])


def random_prior(rng, n: int, zeros: bool = True) -> list[F]:
    while True:
        w = [rng.randint(0 if zeros else 1, 4) for _ in range(n + 1)]
        if sum(w):
            return [F(x, sum(w)) for x in w]


def random_legal_g(rng, n: int) -> list[list[int]]:
    """Per-i nondecreasing profiles with many ties (increments 0 are likely)."""
    g = []
    for _ in range(n + 1):
        v = rng.choice((0, 0, 1))
        row = [v]
        for _ in range(n):
            v += rng.choice((0, 0, 1, 2, 5))
            row.append(v)
        g.append(row)
    return g


def adversarial_users(n: int) -> list[tuple[str, BayesianUser]]:
    """Boundary cases: zeros in the prior, ties in the loss, non-strict and per-i different losses."""
    uni = [F(1, n + 1)] * (n + 1)
    ends = [F(1, 2) if i in (0, n) else F(0) for i in range(n + 1)]
    alt = [F(1) if i % 2 == 0 else F(0) for i in range(n + 1)]
    alt = [x / sum(alt) for x in alt]
    point = [F(int(i == n // 2)) for i in range(n + 1)]
    step = legal_loss([[0] + [1 if d < 2 else 3 for d in range(1, n + 1)] for _ in range(n + 1)])
    per_i = legal_loss([[0] + [(i + 1) * d * d if i % 2 else d for d in range(1, n + 1)] for i in range(n + 1)])
    flat_far = legal_loss(
        [[0] + [min(d, 1) for d in range(1, n + 1)] if i == 0 else list(range(n + 1)) for i in range(n + 1)]
    )
    out = [
        ("uniform, |i-j|", BayesianUser.of(uni, absolute_error(n))),
        ("uniform, (i-j)^2", BayesianUser.of(uni, squared_error(n))),
        ("uniform, binary", BayesianUser.of(uni, binary_loss(n))),
        ("p_0=p_n=1/2, binary", BayesianUser.of(ends, binary_loss(n))),
        ("alternating zeros, |i-j|", BayesianUser.of(alt, absolute_error(n))),
        ("point mass, (i-j)^2", BayesianUser.of(point, squared_error(n))),
        ("uniform, step loss with ties", BayesianUser.of(uni, step)),
        ("alternating zeros, per-i losses", BayesianUser.of(alt, per_i)),
        ("uniform, row 0 flat beyond 1", BayesianUser.of(uni, flat_far)),
        ("uniform, zero loss", BayesianUser.of(uni, legal_loss([[0] * (n + 1)] * (n + 1)))),
    ]
    return out


def irrational_loss_user() -> tuple[str, BayesianUser]:
    """n = 2, uniform prior, l(i, j) = |i-j|^1.5: a legal loss with irrational values (exact sympy arithmetic)."""
    return ("uniform, |i-j|^1.5", BayesianUser.of([F(1, 3)] * 3, power_loss(2, sympy.Rational(3, 2))))


def random_users(rng, n: int, k: int) -> list[tuple[str, BayesianUser]]:
    return [
        (f"random #{t}", BayesianUser.of(random_prior(rng, n), legal_loss(random_legal_g(rng, n)))) for t in range(k)
    ]


def prior_grid(n: int, denom: int) -> Iterator[list[F]]:
    """Every prior on 0..n with entries in (1/denom)Z, zeros included."""
    for c in itertools.product(range(denom + 1), repeat=n + 1):
        if sum(c) == denom:
            yield [F(x, denom) for x in c]


def threshold_losses(n: int) -> Iterator[Loss]:
    """Every 0/1 legal loss: l(i, j) = [|j-i| >= t_i], t_i in 0..n+1."""
    for ts in itertools.product(range(n + 2), repeat=n + 1):
        yield legal_loss([[int(d >= ts[i]) for d in range(n + 1)] for i in range(n + 1)])


def describe(user: BayesianUser) -> str:
    p = linalg.fmt_vector(user.prior)
    rows = "[" + ", ".join("[" + ", ".join(str(v) for v in r) + "]" for r in user.loss.values) + "]"
    return f"prior {p}, loss {rows}"


def user_digest(user: BayesianUser) -> str:
    """A short digest of a user's exact prior and loss: the param that identifies a sampled user."""
    return hashlib.sha256(describe(user).encode()).hexdigest()[:10]


def distinct_users(users: Sequence[tuple[str, BayesianUser]]) -> list[tuple[str, BayesianUser]]:
    """The users with distinct exact (prior, loss), first label kept (at n = 1, |i-j|, (i-j)^2 and binary coincide)."""
    seen: set[str] = set()
    out = []
    for label, user in users:
        dig = user_digest(user)
        if dig not in seen:
            seen.add(dig)
            out.append((label, user))
    return out


#: Sampled users beyond the --full grid of the universality claims (n <= 5 at every alpha): for n in
#: 6..BEYOND_N the boundary users and BEYOND_RANDOM random legal users, at BEYOND_ALPHAS.  benchmarks/reach_sampled.py
#: decides them for grs2011.cor3.3, grs2011.lemma5.11 and grs2009.thm3.1 (about 0.1-0.5 s per user at n = 20).
#: alpha = 1/100 is left out: a prior with alternating zeros costs 15-20 s per user at n = 13 there (the certified
#: optimum of a degenerate LP with entries near 100^-n).
BEYOND_N = 20
BEYOND_RANDOM = 2
BEYOND_ALPHAS = (F(1, 10), F(1, 2), F(99, 100))


def beyond_users(rng, n: int) -> list[tuple[str, BayesianUser]]:
    """The sampled users of one n beyond the --full grid: the boundary cases and BEYOND_RANDOM random legal users."""
    return adversarial_users(n) + random_users(rng, n, BEYOND_RANDOM)
