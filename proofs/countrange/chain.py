"""The chain of databases tau_0..tau_n of zlcn2013 Section 3.3, and facts (a)-(c) of the reduction built on it.

Theorems 2 and 3 speak of every DP mechanism on databases, not only count-oriented ones; Section 3.3 reduces them
to count-oriented matrices through databases tau_i with count i, consecutive ones neighbours.  Here: the chain
(the paper's, or a false variant's), row universes D, and the facts that (a) the chain has counts 0..n and
consecutive neighbours, (b) a DP mechanism restricts on it to a DP count-oriented matrix, (c) a consumer supported
on it has the same error under A t as under the restriction.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp
import z3

from proofs.countrange.alpha import SYMBOLIC
from proofs.countrange.derivation import premises_hold, z3_alpha
from udpm.smt.solvers import decide, model_value

#: A chain of databases: chain(n, i, k) is true when row k (1..n) of tau_i satisfies the predicate p.  Called with z3
#: integers (symbolic n, i, k, or z3.IntVal for a concrete database), so that one definition serves both.
Chain = Callable[[object, object, object], object]


def paper_chain(n, i, k):
    """zlcn2013 Section 3.3's tau_i: "the count for a count-range query is i in the database tau_i, and tau_i,
    tau_(i+1) are neighboring databases"; built here as the first i rows satisfying p, the others not."""
    return k <= i


#: Row universes (name, D, p): D = {0, 1} with p(r) = (r = 1), and a general D with a second row failing p.
BINARY = ("D = {0, 1}, p(r) = (r = 1)", (0, 1), lambda r: r == 1)
TERNARY = ("D = {0, 1, 2}, p(r) = (r = 1)", (0, 1, 2), lambda r: r == 1)
UNIVERSES = (BINARY, TERNARY)


def _row_satisfies(chain: Chain, n: int, i: int, k: int) -> bool:
    v = chain(z3.IntVal(n), z3.IntVal(i), z3.IntVal(k))
    return bool(v) if isinstance(v, bool) else z3.is_true(z3.simplify(v))


def chain_databases(n: int, universe, chain: Chain = paper_chain) -> list[tuple]:
    """tau_0..tau_n in D^n: row k of tau_i is d1 (the first row of D satisfying p) when chain(n, i, k), else d0
    (the first row failing p)."""
    _, dom, p = universe
    d1, d0 = next(r for r in dom if p(r)), next(r for r in dom if not p(r))
    return [tuple(d1 if _row_satisfies(chain, n, i, k) else d0 for k in range(1, n + 1)) for i in range(n + 1)]


def db_count(db: tuple, universe) -> int:
    return sum(1 for r in db if universe[2](r))


def db_neighbours(n: int, universe) -> tuple[list[tuple], list[tuple[tuple, tuple]]]:
    """(D^n, every pair of databases differing in exactly one row: zlcn2013 Section 2's neighbouring databases)."""
    dom = universe[1]
    dbs = list(itertools.product(dom, repeat=n))
    pairs = []
    for db in dbs:
        for k in range(n):
            for r in dom:
                if r > db[k]:
                    pairs.append((db, (*db[:k], r, *db[k + 1 :])))
    return dbs, pairs


def db_name(db: tuple) -> str:
    return "".join(map(str, db)) or "empty"


def chain_symbolic_failures(chain: Chain, timeout_s: float) -> tuple[list[str], str]:
    """Fact (a) for every n at once (z3, integers n, i, k: linear integer arithmetic with a quantifier): for
    0 <= i < n, (a1) at most one row differs between tau_i and tau_(i+1), (a2) some row differs, (a3) the row that
    differs fails p in tau_i and satisfies it in tau_(i+1), (a4) no row of tau_0 satisfies p.  So tau_i, tau_(i+1)
    differ in exactly one row (neighbours) and, by induction on i from (a4) with (a1)-(a3), tau_i has count i.
    (the facts that fail, the premise witness)."""
    n, i, k, k2 = z3.Ints("n i k k2")

    def differ(kk):
        return z3.Xor(_as_bool(chain(n, i, kk)), _as_bool(chain(n, i + 1, kk)))

    side = [n >= 1, i >= 0, i + 1 <= n]
    witness = premises_hold(
        [*side, k >= 1, k <= n], [n == 3, i == 1, k == 2], timeout_s, "tau_i, tau_(i+1), a row k, every n"
    )
    facts = {
        "(a1) at most one row differs between tau_i and tau_(i+1)": [
            *side,
            k >= 1,
            k < k2,
            k2 <= n,
            differ(k),
            differ(k2),
        ],
        "(a2) some row differs between tau_i and tau_(i+1)": [
            *side,
            z3.ForAll([k], z3.Implies(z3.And(k >= 1, k <= n), z3.Not(differ(k)))),
        ],
        "(a3) the row that differs satisfies p in tau_(i+1) only": [
            *side,
            k >= 1,
            k <= n,
            differ(k),
            z3.Not(z3.And(z3.Not(_as_bool(chain(n, i, k))), _as_bool(chain(n, i + 1, k)))),
        ],
        "(a4) no row of tau_0 satisfies p": [n >= 1, k >= 1, k <= n, _as_bool(chain(n, z3.IntVal(0), k))],
    }
    return [name for name, query in facts.items() if not decide(query, timeout_s).unsat], witness


def _as_bool(v) -> z3.BoolRef:
    return z3.BoolVal(v) if isinstance(v, bool) else v


def chain_failure(n: int, universe, chain: Chain = paper_chain) -> str | None:
    """Fact (a) at one n, exhaustively: tau_0..tau_n are databases of D^n, tau_i has count i, consecutive ones differ
    in exactly one row; and every pair of neighbouring databases of D^n has counts at most one apart (so a legal
    function of the count is a DP mechanism on D^n).  None, or what fails."""
    taus = chain_databases(n, universe, chain)
    for i, tau in enumerate(taus):
        if db_count(tau, universe) != i:
            return f"n={n}, {universe[0]}: tau_{i} = {db_name(tau)} has count {db_count(tau, universe)}, not {i}"
    for i in range(n):
        rows = [k + 1 for k in range(n) if taus[i][k] != taus[i + 1][k]]
        if len(rows) != 1:
            return (
                f"n={n}, {universe[0]}: tau_{i} = {db_name(taus[i])} and tau_{i + 1} = {db_name(taus[i + 1])} "
                f"differ in rows {rows}, not in exactly one: they are not neighbouring databases"
            )
    _, pairs = db_neighbours(n, universe)
    for u, v in pairs:
        if abs(db_count(u, universe) - db_count(v, universe)) > 1:
            return f"n={n}, {universe[0]}: neighbours {db_name(u)}, {db_name(v)} have counts more than 1 apart"
    return None


def restriction_dp_failure(n: int, universe, chain: Chain, timeout_s: float) -> tuple[str | None, str]:
    """Fact (b) at one n: the restriction of an alpha-DP mechanism on D^n to tau_0..tau_n is an alpha-DP count-
    oriented matrix, for every zlcn alpha > 1 (z3 nlsat, internal a a variable in (0, 1)).  DP is a condition on
    each output column apart, so one column x: D^n -> [0, inf) with a x_u <= x_v <= x_u / a on every neighbouring
    pair stands for every column of every A (any number of outputs); the goal is the same on consecutive tau.
    (None or the column found, the premise witness)."""
    dbs, pairs = db_neighbours(n, universe)
    a, side = z3_alpha(SYMBOLIC)
    x = {db: z3.Real(f"x_{db_name(db)}") for db in dbs}
    premises = [*side, *(v >= 0 for v in x.values())]
    for u, v in pairs:
        premises += [a * x[u] <= x[v], a * x[v] <= x[u]]
    pins = [a == z3.RealVal("1/2"), *(v == 1 for v in x.values())]
    witness = premises_hold(premises, pins, timeout_s, f"a DP column on D^{n}, {universe[0]}")
    taus = chain_databases(n, universe, chain)
    if any(tau not in x for tau in taus):
        return f"n={n}, {universe[0]}: the chain leaves D^n", witness
    bad = z3.Or([z3.Or(a * x[taus[i + 1]] > x[taus[i]], a * x[taus[i]] > x[taus[i + 1]]) for i in range(n)])
    out = decide([*premises, bad], timeout_s)
    if out.unsat:
        return None, witness
    m = out.model
    vals = ", ".join(f"x(tau_{i})={model_value(m, x[t])}" for i, t in enumerate(taus))
    return (
        f"n={n}, {universe[0]}, internal a={model_value(m, a)}: a DP column on D^n whose restriction to the chain "
        f"({vals}) is not DP on consecutive counts"
    ), witness


def error_identity_failure(n: int, universe, chain: Chain = paper_chain, m: int = 2) -> str | None:
    """Fact (c) at one n: for a mechanism A on D^n (symbolic entries, m outputs) and a transformation t (symbolic),
    a consumer (penalty omega over counts, prior rho over D^n supported on tau_0..tau_n, rho(tau_i) = rho_i) has the
    same weighted error under A t as the count-oriented consumer (omega, rho_0..rho_n) under R t, R the rows of A at
    tau_0..tau_n (zlcn2013 (1)); and (A t)(tau_i) = (R t)_i.  sympy identities, every theta1 < theta2 in 0..n.
    Each term is linear in one output's column, so m = 2 stands for every m.  None, or where it fails."""
    dbs, _ = db_neighbours(n, universe)
    taus = chain_databases(n, universe, chain)
    if len(set(taus)) != len(taus) or any(tau not in dbs for tau in taus):
        return f"n={n}, {universe[0]}: the chain repeats a database or leaves D^n"
    ent = {db: [sp.Symbol(f"A_{db_name(db)}_{r}") for r in range(m)] for db in dbs}
    t = sp.symbols(f"t0:{m}")
    w, rho = sp.symbols(f"w0:{n + 1}"), sp.symbols(f"rho0:{n + 1}")
    prior = {db: sp.Integer(0) for db in dbs}
    for i, tau in enumerate(taus):
        prior[tau] = rho[i]
    x = {db: sum(ent[db][r] * t[r] for r in range(m)) for db in dbs}
    restriction = [[ent[tau][r] for r in range(m)] for tau in taus]
    phi = [sum(restriction[i][r] * t[r] for r in range(m)) for i in range(n + 1)]
    for i, tau in enumerate(taus):
        if sp.expand(x[tau] - phi[i]) != 0:
            return f"n={n}: (A t)(tau_{i}) is not (R t)_{i}"
    for th1 in range(n + 1):
        for th2 in range(th1 + 1, n + 1):
            inside = [th1 <= mu <= th2 for mu in range(n + 1)]
            on_db = sum(
                w[db_count(db, universe)] * prior[db] * ((1 - x[db]) if inside[db_count(db, universe)] else x[db])
                for db in dbs
            )
            on_counts = sum(w[i] * rho[i] * ((1 - phi[i]) if inside[i] else phi[i]) for i in range(n + 1))
            if sp.expand(on_db - on_counts) != 0:
                return (
                    f"n={n}, {universe[0]}, theta=({th1}, {th2}): the error on databases minus the error of the "
                    f"restriction is {sp.factor(on_db - on_counts)}, not 0"
                )
    return None
