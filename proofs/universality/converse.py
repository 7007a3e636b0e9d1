"""The converse of grs2011 Lemma 5.10: which candidates are unique optima.

Lemma 5.10 says every optimal vertex, for a user with a full-support prior and a strictly legal loss, is a
deterministic remap T·D of the truncated geometric mechanism (D : N -> N).  The candidates are therefore the
distinct matrices T·D that are vertices of the feasible region of LP (3)-(7).  The converse asks which
candidates are the UNIQUE optimum of some such user, and this module decides it for every candidate.

A vertex V is the unique minimiser of <W, X> over the region iff W is a strictly positive combination of the
constraints tight at V plus any combination of the row sums (W in the interior of V's normal cone; a vertex's
tight constraints span, so every direction leaving V increases <W, X>).  With W[i][r] = p_i l(i, r), a
strictly legal loss (symmetric in r around i, strictly increasing with |r - i|, l(i, i) >= 0) forces p_i > 0,
and reflecting inputs and outputs (i -> n-i, r -> n-r) maps users, the region and uniqueness to themselves
(one query per mirror pair), so the question "is there a full-support strictly legal user for whom V is the
unique optimum" is one linear-arithmetic query per candidate (homogeneous: strict inequalities scaled to >= 1):

* sat: the model (W, the multipliers) is re-checked exactly and is itself the certificate of uniqueness;
  the first user per (n, alpha) is also cross-checked by its certified unique optimum (udpm.lp.certify);
* unsat (z3 and cvc5): no full-support strictly legal user has V as its unique optimum;
* before any query, a cheaper exact proof of "no user's unique optimum": a nondecreasing candidate other
  than V whose tails (mass at distance >= k from i, every row and k) are all at most V's is at least as good
  for every legal user (:func:`dominates`).

What the check finds, and decides as the statement: the candidates that are unique optima are exactly the
T·D with D nondecreasing, C(2n+1, n) of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F
from math import comb

import flint
import z3

from udpm.auditing.every_user import user_of
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.errors import HarnessError
from udpm.lp.certify import solve
from udpm.lp.programs import bayesian_lp
from udpm.smt.solvers import decide, premise_witness

Matrix = list[list[F]]
Remap = tuple[int, ...]
Row = dict[int, F]


def remap_candidates(n: int, a: F) -> dict[tuple[tuple[F, ...], ...], Remap]:
    """Every distinct T·D, D : N -> N deterministic, keyed by the matrix, with the first D (lexicographic)."""
    t = truncated_geometric(n, a)
    out: dict[tuple[tuple[F, ...], ...], Remap] = {}
    for d in itertools.product(range(n + 1), repeat=n + 1):
        x = tuple(
            tuple(sum((t[i][k] for k in range(n + 1) if d[k] == r), F(0)) for r in range(n + 1)) for i in range(n + 1)
        )
        out.setdefault(x, d)
    return out


def tight_rows(x: Sequence[Sequence[F]], a: F) -> list[Row]:
    """The inequality constraints of LP (3)-(7) tight at x, as {variable i*(n+1)+r: coefficient} (>= 0 forms)."""
    size = len(x)
    rows: list[Row] = [{i * size + r: F(1)} for i in range(size) for r in range(size) if x[i][r] == 0]
    for i in range(size - 1):
        for r in range(size):
            if x[i][r] == a * x[i + 1][r]:
                rows.append({i * size + r: F(1), (i + 1) * size + r: -a})
            if x[i + 1][r] == a * x[i][r]:
                rows.append({(i + 1) * size + r: F(1), i * size + r: -a})
    return rows


def is_vertex(x: Sequence[Sequence[F]], a: F) -> bool:
    """Tight constraints and the row sums have full rank (size^2): the exact vertex test (integer rows: each
    tight row scaled by alpha's denominator, rank over Z by python-flint)."""
    size = len(x)
    rows = tight_rows(x, a) + [{i * size + r: F(1) for r in range(size)} for i in range(size)]
    if len(rows) < size * size:
        return False
    dense = [[int(row.get(j, 0) * a.denominator) for j in range(size * size)] for row in rows]
    return flint.fmpz_mat(dense).rank() == size * size


def strictly_legal(w: list[list[z3.ArithRef]]) -> list[z3.BoolRef]:
    """W = p_i l(i, r), l symmetric around i and strictly increasing with |r - i| (scaled: steps >= 1)."""
    size = len(w)
    out: list[z3.BoolRef] = []
    for i in range(size):
        out.append(w[i][i] >= 0)
        for r in range(size):
            if r != i:
                out.append(w[i][r] >= w[i][r + 1 if r < i else r - 1] + 1)
        out += [w[i][i - d] == w[i][i + d] for d in range(1, min(i, size - 1 - i) + 1)]
    return out


def _weights(size: int) -> list[list[z3.ArithRef]]:
    return [[z3.Real(f"w_{i}_{r}") for r in range(size)] for i in range(size)]


def unique_optimum_user(x: Matrix, a: F, timeout_s: float, cross_check: bool = False) -> Matrix | None:
    """The weights W = p_i l(i, r) of a full-support strictly legal user for whom the vertex x is the unique
    optimum (:func:`udpm.auditing.every_user.user_of` gives the user), or None (unsat).

    A sat's certificate (W, row multipliers u, multipliers nu >= 1 of the tight constraints) is re-checked
    exactly: W = u + sum nu_j a_j entry by entry and W strictly legal.  With ``cross_check`` the user's
    optimum is also certified by udpm.lp.certify (unique, equal to x)."""
    size = len(x)
    w = _weights(size)
    rows = tight_rows(x, a)
    u = [z3.Real(f"u_{i}") for i in range(size)]
    nu = [z3.Real(f"nu_{j}") for j in range(len(rows))]
    query = [*strictly_legal(w), *(v >= 1 for v in nu)]
    for i in range(size):
        for r in range(size):
            k = i * size + r
            query.append(w[i][r] == u[i] + z3.Sum([nu[j] * row[k] for j, row in enumerate(rows) if k in row]))
    out = decide(query, timeout_s)
    if out.unsat:
        return None

    def value(v: z3.ArithRef) -> F:
        return F(out.model.eval(v, model_completion=True).as_fraction())  # linear arithmetic: exact rationals

    values = [[value(v) for v in row] for row in w]
    u_val, nu_val = [value(v) for v in u], [value(v) for v in nu]
    combo = [
        [
            u_val[i] + sum((nu_val[j] * row[i * size + r] for j, row in enumerate(rows) if i * size + r in row), F(0))
            for r in range(size)
        ]
        for i in range(size)
    ]
    if combo != values or min(nu_val, default=F(1)) < 1 or not in_strictly_legal(values):
        raise HarnessError(f"the solver's normal-cone certificate does not check exactly: W = {values}")
    if cross_check:
        opt = solve(bayesian_lp(user_of(values), a), timeout_s=timeout_s, decide_unique=True)
        if not (opt.unique and opt.matrix(size, size) == x):
            raise HarnessError(f"the normal-cone user {values} does not have x as its certified unique optimum")
    return values


def in_strictly_legal(values: Sequence[Sequence[F]]) -> bool:
    """Exact membership, the same conditions as :func:`strictly_legal`."""
    size = len(values)
    for i in range(size):
        if values[i][i] < 0 or any(values[i][i - d] != values[i][i + d] for d in range(1, min(i, size - 1 - i) + 1)):
            return False
        if any(values[i][r] < values[i][r + 1 if r < i else r - 1] + 1 for r in range(size) if r != i):
            return False
    return True


def reflected(x: Sequence[Sequence[F]]) -> tuple[tuple[F, ...], ...]:
    """x with inputs and outputs reversed: the region, the users and uniqueness are symmetric under it."""
    return tuple(tuple(row[::-1]) for row in x[::-1])


def tails(x: Sequence[Sequence[F]]) -> list[list[F]]:
    """tails(x)[i][k-1] = the mass row i puts at distance >= k from i (k = 1..n)."""
    size = len(x)
    return [[sum((x[i][r] for r in range(size) if abs(r - i) >= k), F(0)) for k in range(1, size)] for i in range(size)]


def dominates(better: Sequence[Sequence[F]], worse: Sequence[Sequence[F]]) -> bool:
    """No legal user loses more with ``better`` than with ``worse``: every tail of ``better`` is at most
    ``worse``'s (the legal losses are the cone spanned by the row-wise indicators of |r - i| >= k)."""
    return _tails_at_most(tails(better), tails(worse))


def _tails_at_most(tb: list[list[F]], tw: list[list[F]]) -> bool:
    return all(b <= w for rb, rw in zip(tb, tw) for b, w in zip(rb, rw))


def nondecreasing(d: Remap) -> bool:
    return all(u <= v for u, v in zip(d, d[1:]))


def _dominating(x: tuple[tuple[F, ...], ...], monotone: dict) -> tuple[tuple[F, ...], ...] | None:
    """Another candidate at least as good as x for every legal user (so x is no user's unique optimum), or None."""
    tx = tails(x)
    for y, ty in monotone.items():
        if y != x and _tails_at_most(ty, tx):
            return y
    return None


def reach(ctx: Context) -> list[tuple[int, F]]:
    """n <= 3 at three alphas and n = 4 at 1/2; --full n <= 4 at the three."""
    alphas = (F(1, 3), F(1, 2), F(9, 10))
    if ctx.quick:
        return [(n, a) for n in (1, 2, 3) for a in alphas] + [(4, F(1, 2))]
    return [(n, a) for n in (1, 2, 3, 4) for a in alphas]


@checks("grs2011.lemma5.10.converse")
def unique_optima_among_remaps(ctx: Context, claimed: Callable[[Remap], bool] = nondecreasing) -> Findings:
    """grs2011 Lemma 5.10, converse: a vertex T·D is the unique optimum of some full-support strictly
    legal user iff D is nondecreasing; per (n, alpha), every candidate decided (bounded)."""
    rec = Findings("grs2011.lemma5.10.converse")
    witness = premise_witness(strictly_legal(_weights(3)), ctx.solver_timeout, "strictly legal users, n=2")
    rec.value(premise_user_n2=", ".join(f"{k}={witness[k]}" for k in sorted(witness)))
    for n, a in reach(ctx):
        with rec.deciding(
            n=n,
            alpha=a,
            kind=BOUNDED,
            method="normal cone of each candidate vertex (SMT, z3 and cvc5); sat users' unique optima certified",
            covers="every deterministic remap T·D that is a vertex, every full-support strictly legal user",
        ) as dec:
            candidates = remap_candidates(n, a)
            vertices = {x: d for x, d in candidates.items() if is_vertex(x, a)}
            monotone = {x: tails(x) for x, d in candidates.items() if nondecreasing(d)}
            found: list[Remap] = []
            decided: dict[tuple[tuple[F, ...], ...], Matrix | None] = {}
            dominated = 0
            for x, d in vertices.items():
                mirror = reflected(x)
                if mirror in decided:  # the mirror image's answer, its user reflected
                    w = decided[mirror]
                    hit = None if w is None else [list(r) for r in reflected(w)]
                else:
                    better = _dominating(x, monotone)
                    if better is not None:
                        hit, dominated = None, dominated + 1
                    else:
                        hit = unique_optimum_user([list(r) for r in x], a, ctx.solver_timeout, cross_check=not found)
                    decided[x] = hit
                if (hit is not None) != claimed(d):
                    said = "the unique optimum of no user"
                    if hit is not None:
                        said = f"the unique optimum of the user W = {linalg.fmt_matrix(hit)}"
                    dec.counterexample(f"n={n}, alpha={a}: T·D with D = {list(d)} is {said}")
                    return rec
                if hit is not None:
                    found.append(d)
            key = f"n={n},alpha={a}"
            rec.value(
                **{
                    f"vertices[{key}]": len(vertices),
                    f"unique_optima[{key}]": len(found),
                    f"dominated_pairs[{key}]": dominated,
                }
            )
            if len(found) != comb(2 * n + 1, n):
                dec.counterexample(f"{key}: {len(found)} unique optima, not C(2n+1, n) = {comb(2 * n + 1, n)}")
                return rec
    rec.note(
        "Candidates: every distinct T·D (D : N -> N) that is a vertex of LP (3)-(7).  Each is decided: a "
        "full-support strictly legal user with it as the certified unique optimum, or SMT unsat.  The unique optima "
        "are exactly the nondecreasing D, C(2n+1, n) of them; the other vertices (permutations that reverse, "
        "D with a descent) are the unique optimum of no such user"
    )
    return rec
