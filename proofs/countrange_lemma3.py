"""Count-range Lemma 3, Corollary 2 and Theorem 2 (zlcn2013 Section 3.3): no universal mechanism for count ranges.

For 1 <= theta1 < theta2 <= n-1, Lemma 3's x and y (proofs/countrange_vectors.py) are legal functions, each the
only optimum of a consumer found and certified here (an interior point of the cone of binding constraint
gradients, re-checked by z3), their entries k-1..k+2 are x-hat and y-hat, and no DP matrix derives both
(Corollary 2, the finite derivation problem of proofs/countrange_derivation.py); Theorem 2 is that grid of
instances.  The definition of count-range queries (COUNT_RANGE_DEFINITION, quoted) also admits theta1 = 0 and
theta2 = n, which the paper's proof leaves out; there Lemma 3 and Theorem 2 are decided too (boundary_thetas).
Also the paper's own consumer for y-hat and the symbolic facts of Lemma 3's formulas.  Theorems 2 and 3 speak of
every DP mechanism, count-oriented or not: the reduction through the databases tau_0..tau_n of Section 3.3 is
computed here too (decide_databases, the part DB_REGION of their printed class).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.approximation_ratio import worst_ratio
from proofs.countrange_alpha import A_SYM, SYMBOLIC, ZLCN_ALPHAS, a_sym, in_internal_alpha, internal, label
from proofs.countrange_derivation import JOINT, derivation, premises_hold, z3_alpha
from proofs.countrange_vectors import (
    INTERNAL_LEMMA3,
    PAPER_LEMMA3,
    lemma3_k,
    lemma3_x,
    lemma3_y,
    printed_internal,
    xhat,
    yhat,
)
from udpm import linalg
from udpm.claims import Context, Findings, checks
from udpm.errors import ExpectationsError
from udpm.instances import ALL_N, BOUNDED
from udpm.smt import decide, model_value
from udpm.tables import printed
from udpm.users import CountRangeConsumer, is_legal_function

F = Fraction


def legal_constraints(n: int, a: Fraction) -> list[tuple[list[Fraction], Fraction]]:
    """zlcn2013 Definition 2 as rows g.phi >= h, internal form: for neighbours i, i+1,
    a phi_i <= phi_(i+1) <= phi_i / a and the same for 1 - phi."""
    rows = []

    def e(pairs):
        g = [F(0)] * (n + 1)
        for i, v in pairs:
            g[i] += v
        return g

    for i in range(n + 1):
        rows += [(e([(i, F(1))]), F(0)), (e([(i, F(-1))]), F(-1))]
    for i in range(n):
        rows += [
            (e([(i + 1, F(1)), (i, -a)]), F(0)),  # phi_(i+1) >= a phi_i
            (e([(i, F(1)), (i + 1, -a)]), F(0)),  # phi_i >= a phi_(i+1)
            (e([(i + 1, F(-1)), (i, a)]), a - 1),  # 1 - phi_(i+1) >= a (1 - phi_i)
            (e([(i, F(-1)), (i + 1, a)]), a - 1),  # 1 - phi_i >= a (1 - phi_(i+1))
        ]
    return rows


def legal_premise(
    n: int, a: Fraction, psi: Sequence[z3.ArithRef], phi: Sequence[Fraction], timeout_s: float, what: str
):
    """(the legality constraints on psi, the premise witness: psi = phi, a legal function, pinned)."""
    ok = [
        z3.Sum([z3.RealVal(str(g[i])) * psi[i] for i in range(n + 1)]) >= z3.RealVal(str(h))
        for g, h in legal_constraints(n, a)
    ]
    pins = [v == z3.RealVal(str(p)) for v, p in zip(psi, phi)]
    return ok, premises_hold(ok, pins, timeout_s, what)


def unique_optimum_consumer(n: int, theta: tuple[int, int], phi: list[Fraction], a: Fraction, timeout_s: float):
    """A consumer (omega = 1, prior rho) whose ONLY optimal legal function (internal a) is phi, or why there is none.

    The weighted error is const + c.phi with c_i = -omega_i rho_i inside [theta1, theta2] and +omega_i rho_i
    outside.  phi is the unique minimiser of c over the legal polytope iff c is in the interior of the cone of
    the gradients g of the constraints binding at phi, i.e. c = sum lambda_k g_k with every lambda_k > 0 (scaled:
    >= 1), which needs the binding gradients to span R^(n+1) (phi a vertex).  Found c are re-checked by a second
    z3 query, after its premise (legal psi) is shown satisfiable: no legal psi != phi has c.psi <= c.phi."""
    cons = legal_constraints(n, a)
    tight = [(g, h) for g, h in cons if sum(gi * p for gi, p in zip(g, phi)) == h]
    if linalg.rank([g for g, _ in tight] or [[F(0)] * (n + 1)]) < n + 1:
        return None, f"phi is not a vertex of the legal polytope (binding rank < {n + 1})"
    lam = [z3.Real(f"lam_{k}") for k in range(len(tight))]
    c = [z3.Sum([z3.RealVal(str(g[i])) * lam[k] for k, (g, _) in enumerate(tight)]) for i in range(n + 1)]
    inside = [theta[0] <= i <= theta[1] for i in range(n + 1)]
    facts = [v >= 1 for v in lam] + [c[i] <= 0 if inside[i] else c[i] >= 0 for i in range(n + 1)]
    # first at the canonical point (every lambda 1), so that the consumer found does not depend on z3's term order
    out = decide([*facts, *(v == 1 for v in lam)], timeout_s)
    if out.unsat:
        out = decide(facts, timeout_s)
    if out.unsat:
        return None, "no omega, rho: the cone of binding gradients at phi has no interior point of the needed signs"
    cv = [F(model_value(out.model, t)) for t in c]
    # independent uniqueness check
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
    better = z3.Sum([z3.RealVal(str(cv[i])) * (psi[i] - z3.RealVal(str(phi[i]))) for i in range(n + 1)]) <= 0
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    if not decide([*ok, better, other], timeout_s).unsat:
        raise AssertionError("interior-of-cone consumer is not unique; the certificate logic is wrong")
    w = [abs(v) for v in cv]
    rho = [v / sum(w) for v in w]
    consumer = CountRangeConsumer.of([1] * (n + 1), rho, theta[0], theta[1])
    const = sum((rho[i] for i in range(n + 1) if inside[i]), F(0))
    assert consumer.weighted_error(phi) == const + sum(ci * p for ci, p in zip(cv, phi)) / sum(w)
    return consumer, ""


def lemma3_instance(
    n: int,
    theta: tuple[int, int],
    alpha: Fraction,
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    check_derivation: bool = True,
) -> tuple[str | None, dict[str, str]]:
    """Lemma 3 + Corollary 2 at one (n, theta, zlcn alpha): x, y are legal, each the unique optimum of a consumer
    found here, their entries k-1..k+2 are x-hat, y-hat, and (check_derivation) no DP matrix derives both.
    (failure, data)."""
    k = lemma3_k(*theta)
    a = internal(alpha)
    at = f"n={n}, theta={theta}, {label(alpha)}"
    data: dict[str, str] = {}
    vecs = {"x": xf(n, *theta, a), "y": yf(n, *theta, a)}
    for name, v in vecs.items():
        if not all(0 <= p <= 1 for p in v) or not is_legal_function(v, alpha):
            return f"{at}: {name} = {linalg.fmt_vector(v)} is not a legal function", data
        consumer, why = unique_optimum_consumer(n, theta, v, a, timeout_s)
        if consumer is None:
            return f"{at}: {name} = {linalg.fmt_vector(v)}: {why}", data
        data[f"{name} rho"] = linalg.fmt_vector(consumer.rho)
    if 1 <= k and k + 2 <= n:
        window = {"x": xhat(a), "y": yhat(a)}
        for name, v in vecs.items():
            if v[k - 1 : k + 3] != window[name]:
                return (
                    f"{at}: {name}[k-1..k+2] = {linalg.fmt_vector(v[k - 1 : k + 3])} "
                    f"is not {name}-hat = {linalg.fmt_vector(window[name])}"
                ), data
    elif not check_derivation:
        return f"{at}: rows k-1..k+2 (k={k}) leave 0..n, and the derivation was not checked", data
    if check_derivation:
        cex, witness = derivation([lambda a_: xf(n, *theta, a_), lambda a_: yf(n, *theta, a_)], alpha, timeout_s)
        data["premise witness"] = witness
        if cex:
            return f"n={n}, theta={theta}: {cex}", data
    return None, data


#: zlcn2013 Section 2.1, verbatim (the paper's text file, whitespace included; the "^1" is footnote 1, "We do not
#: consider the case for theta_1 = theta_2 since a count-range query is equivalent to a count query in that case").
COUNT_RANGE_DEFINITION = (
    "a count-range query consists of three parameters: a predicate  $p$  and two non-negative integers  "
    "$\\theta_1, \\theta_2$  where  $(\\theta_1 < \\theta_2)^1$",
    "When  $\\theta_1 = 0$  or  $\\theta_2 = +\\infty$ , the count-range query is a *threshold query*.",
)
DEFINITION_NOTE = (
    f'zlcn2013 Section 2.1 defines: "{COUNT_RANGE_DEFINITION[0]}" and "{COUNT_RANGE_DEFINITION[1]}"; so a '
    "threshold query is a count-range query (nothing in the definition excludes theta1 = 0 or theta2 = +inf), and "
    "theta2 = n is not +inf, so <p, theta1, n> is a count-range query that is not a threshold query although over "
    "counts 0..n it asks what <p, theta1, +inf> asks"
)


def count_range_thetas(n: int) -> list[tuple[int, int]]:
    """The count-range queries the paper's proof handles: 1 <= theta1 < theta2 <= n-1."""
    return [(t1, t2) for t1 in range(1, n) for t2 in range(t1 + 1, n)]


def boundary_thetas(n: int) -> list[tuple[int, int]]:
    """The rest of the printed class with a finite theta2 <= n (COUNT_RANGE_DEFINITION): theta2 = n with
    theta1 >= 1 (not a threshold query by the definition) first, then theta1 = 0 (threshold queries <p, 0, theta2>);
    theta = (0, n) puts every count in range."""
    return [(t1, n) for t1 in range(1, n)] + [(0, t2) for t2 in range(1, n + 1)]


def boundary_kind(n: int, theta: tuple[int, int]) -> str:
    return "a threshold query (theta1 = 0)" if theta[0] == 0 else f"not a threshold query (theta2 = {n} = n)"


# --- mechanisms on databases (not count-oriented): the reduction through tau_0..tau_n ---------------------------

#: The parts of Theorems 2 and 3's printed class (udpm/statements/zlcn2013.toml), decided apart.
CO_REGION = "count-oriented mechanisms"
DB_REGION = "mechanisms on databases (not count-oriented)"

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


def _db_name(db: tuple) -> str:
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
            return f"n={n}, {universe[0]}: tau_{i} = {_db_name(tau)} has count {db_count(tau, universe)}, not {i}"
    for i in range(n):
        rows = [k + 1 for k in range(n) if taus[i][k] != taus[i + 1][k]]
        if len(rows) != 1:
            return (
                f"n={n}, {universe[0]}: tau_{i} = {_db_name(taus[i])} and tau_{i + 1} = {_db_name(taus[i + 1])} "
                f"differ in rows {rows}, not in exactly one: they are not neighbouring databases"
            )
    _, pairs = db_neighbours(n, universe)
    for u, v in pairs:
        if abs(db_count(u, universe) - db_count(v, universe)) > 1:
            return f"n={n}, {universe[0]}: neighbours {_db_name(u)}, {_db_name(v)} have counts more than 1 apart"
    return None


def restriction_dp_failure(n: int, universe, chain: Chain, timeout_s: float) -> tuple[str | None, str]:
    """Fact (b) at one n: the restriction of an alpha-DP mechanism on D^n to tau_0..tau_n is an alpha-DP count-
    oriented matrix, for every zlcn alpha > 1 (z3 nlsat, internal a a variable in (0, 1)).  DP is a condition on
    each output column apart, so one column x: D^n -> [0, inf) with a x_u <= x_v <= x_u / a on every neighbouring
    pair stands for every column of every A (any number of outputs); the goal is the same on consecutive tau.
    (None or the column found, the premise witness)."""
    dbs, pairs = db_neighbours(n, universe)
    a, side = z3_alpha(SYMBOLIC)
    x = {db: z3.Real(f"x_{_db_name(db)}") for db in dbs}
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
    ent = {db: [sp.Symbol(f"A_{_db_name(db)}_{r}") for r in range(m)] for db in dbs}
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


def database_problem(n: int, universe, chain: Chain, alpha: Fraction, consumers, phis, types):
    """A DP mechanism on D^n with the output columns ``types`` (s in {0,1}^K, transformation k reading s_k: every
    number of outputs by the split-and-merge reduction, proofs/countrange_derivation.py), rows summing to 1, DP on
    every neighbouring pair; the mechanism derived by transformation k and its error for the database consumer k
    (penalty omega(count), prior consumers[k].rho[i] on tau_i and 0 elsewhere).
    Returns (premises, the derived mechanisms, their errors, the matrix, tau)."""
    a = z3.RealVal(str(internal(alpha)))
    dbs, pairs = db_neighbours(n, universe)
    mat = {db: {s: z3.Real(f"m_{_db_name(db)}_{''.join(map(str, s))}") for s in types} for db in dbs}
    premises = []
    for db in dbs:
        premises.append(z3.Sum(list(mat[db].values())) == 1)
        premises += [v >= 0 for v in mat[db].values()]
    for u, v in pairs:
        for s in types:
            premises += [a * mat[u][s] <= mat[v][s], a * mat[v][s] <= mat[u][s]]
    taus = chain_databases(n, universe, chain)
    derived, errors = [], []
    for k, c in enumerate(consumers):
        xk = {db: z3.Sum([mat[db][s] for s in types if s[k] == 1]) for db in dbs}
        prior = {db: F(0) for db in dbs}
        for i, tau in enumerate(taus):
            prior[tau] += c.rho[i]
        err = z3.Sum(
            [
                z3.RealVal(str(c.omega[db_count(db, universe)] * prior[db]))
                * ((1 - xk[db]) if c.in_range(db_count(db, universe)) else xk[db])
                for db in dbs
                if prior[db]
            ]
        )
        derived.append(xk)
        errors.append(err)
    return premises, derived, errors, mat, taus


def _extension_pins(mat, types, universe, phi_by_type) -> list:
    """The count-oriented extension: row db puts phi_by_type[s](count(db)) on the column s."""
    return [
        v == z3.RealVal(str(phi_by_type[s](db_count(db, universe)))) for db, row in mat.items() for s, v in row.items()
    ]


def transfer_failure(
    n: int, universe, chain: Chain, alpha: Fraction, consumer, phi: Sequence[Fraction], timeout_s: float
) -> tuple[str | None, str]:
    """Fact (d) at one (n, theta, alpha) and one consumer whose only optimal legal function is phi (found and
    certified by :func:`unique_optimum_consumer`), put on databases (prior on tau_0..tau_n): a transformation
    deriving from a DP mechanism A on D^n a mechanism whose error is at most err(phi) (an optimum: the premise
    witness, the count-oriented extension x(tau) = phi(count(tau)), which is DP on D^n, attains err(phi)) derives
    phi itself from the restriction R of A: z3 unsat of that and (R t)_i != phi_i for some i (t in {0,1} per
    column by the split-and-merge reduction, K = 1).  So the consumer's optimum on databases is her count-oriented
    optimum, and it is derived from R.  (None or the mechanism found, the premise witness)."""
    types = [(0,), (1,)]
    premises, derived, errors, mat, taus = database_problem(n, universe, chain, alpha, [consumer], [phi], types)
    opt = z3.RealVal(str(consumer.weighted_error(list(phi))))
    optimal = errors[0] <= opt
    pins = _extension_pins(mat, types, universe, {(1,): lambda mu: phi[mu], (0,): lambda mu: 1 - phi[mu]})
    witness = premises_hold([*premises, optimal], pins, timeout_s, f"an optimum on D^{n} derived, {label(alpha)}")
    other = z3.Or([derived[0][tau] != z3.RealVal(str(phi[i])) for i, tau in enumerate(taus)])
    out = decide([*premises, optimal, other], timeout_s)
    if out.unsat:
        return None, witness
    mdl = out.model
    got = [model_value(mdl, derived[0][tau]) for tau in taus]
    return (
        f"n={n}, {universe[0]}, {label(alpha)}: a DP mechanism on D^n derives, for the consumer of "
        f"{linalg.fmt_vector(list(phi))} put on tau_0..tau_n, error {model_value(mdl, errors[0])} <= err(phi) = "
        f"{consumer.weighted_error(list(phi))} with (R t) = ({', '.join(got)}), not phi"
    ), witness


def both_failure(
    n: int, universe, chain: Chain, alpha: Fraction, consumers, phis, timeout_s: float
) -> tuple[str | None, str]:
    """The conclusion at one (n, theta, alpha), computed end to end: no DP mechanism A on D^n (every number of
    outputs, 4 column types by the split-and-merge reduction) derives, with two transformations, optima (error at
    most err(phi_k)) of both database consumers.  (None or the mechanism found, the premise witness)."""
    types = list(itertools.product((0, 1), repeat=2))
    premises, derived, errors, mat, taus = database_problem(n, universe, chain, alpha, consumers, phis, types)
    pins = [v == (1 if s == (0, 0) else 0) for row in mat.values() for s, v in row.items()]
    witness = premises_hold(premises, pins, timeout_s, f"a DP mechanism on D^{n}, {label(alpha)}")
    opts = [z3.RealVal(str(c.weighted_error(list(p)))) for c, p in zip(consumers, phis)]
    out = decide([*premises, *(e <= o for e, o in zip(errors, opts))], timeout_s)
    if out.unsat:
        return None, witness
    mdl = out.model
    got = [[model_value(mdl, d[tau]) for tau in taus] for d in derived]
    return (
        f"n={n}, {universe[0]}, {label(alpha)}: a DP mechanism on D^n derives optima of both consumers on "
        f"tau_0..tau_n (restrictions {got})"
    ), witness


def decide_databases(
    rec: Findings,
    fact_ns: Sequence[int],
    ns: Sequence[int],
    thetas_of: Callable[[int], list[tuple[int, int]]],
    alphas: Sequence[Fraction],
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    chain: Chain = paper_chain,
) -> int:
    """The part "mechanisms on databases (not count-oriented)" of Theorems 2 and 3, zlcn2013 Section 3.3's
    reduction computed: (a) tau_0..tau_n are consecutive neighbours with counts 0..n (symbolic in n, and
    exhaustively at each n of ``fact_ns`` for D = {0, 1} and a general D); (b) the restriction of a DP mechanism to
    them is DP (z3, every alpha > 1); (c) a consumer supported on them has the same error under A t as under R t
    (sympy); (d) at each n of ``ns``, query of ``thetas_of`` and zlcn alpha, the two consumers of Lemma 3's x and y
    (found and certified), on databases, have as only optima on the chain x and y (the transfer), and no DP
    mechanism on D^n (D = {0, 1}) derives optima of both.  Every instance is in DB_REGION; ``chain`` lets a false
    variant change tau.  Returns the number of instances."""
    total = 0
    fails, witness = chain_symbolic_failures(chain, timeout_s)
    rec.value(**{"databases (a), every n: premise witness": witness})
    rec.decide(
        not fails,
        f"the chain tau_0..tau_n for symbolic n: {', '.join(fails)} fails",
        n=None,
        alpha=SYMBOLIC,
        kind=ALL_N,
        method="z3 unsat (integers n, i, k; one quantifier) and induction on i",
        covers="(a) for every n: tau_i and tau_(i+1) differ in exactly one row (neighbours) and tau_i has count i",
        region=DB_REGION,
        fact="a",
    )
    total += 1
    for n in fact_ns:
        for uni in UNIVERSES:
            if uni is TERNARY and n > 3:
                continue
            why = chain_failure(n, uni, chain)
            rec.decide(
                why is None,
                why or "",
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="exhaustive over D^n",
                covers="(a) tau_0..tau_n in D^n with counts 0..n, consecutive ones neighbours; neighbours' counts "
                "at most one apart",
                region=DB_REGION,
                fact="a",
                universe=uni[0],
            )
            with rec.deciding(
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="z3 unsat (nlsat, internal a a variable in (0, 1)), one column of any number of outputs",
                covers="(b) every alpha-DP mechanism on D^n restricts on tau_0..tau_n to an alpha-DP count-oriented "
                "matrix",
                region=DB_REGION,
                fact="b",
                universe=uni[0],
            ) as d:
                cex, w = restriction_dp_failure(n, uni, chain, timeout_s)
                rec.value(**{f"databases (b) premise witness, n={n}, {uni[0]}": w})
                if cex:
                    d.counterexample(cex)
            why = error_identity_failure(n, uni, chain)
            rec.decide(
                why is None,
                why or "",
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="sympy identity in the entries of A, t, omega and rho",
                covers="(c) a consumer with prior on tau_0..tau_n: her error under A t is the error of R t, every "
                "theta",
                region=DB_REGION,
                fact="c",
                universe=uni[0],
            )
            total += 3
    for n in ns:
        for theta in thetas_of(n):
            for al in alphas:
                a = internal(al)
                phis = [xf(n, *theta, a), yf(n, *theta, a)]
                consumers = []
                for name, phi in zip("xy", phis):
                    c, why = unique_optimum_consumer(n, theta, phi, a, timeout_s)
                    consumers.append((c, f"{name} = {linalg.fmt_vector(phi)}: {why}"))
                for k, (name, phi) in enumerate(zip("xy", phis)):
                    with rec.deciding(
                        n=n,
                        alpha=label(al),
                        kind=BOUNDED,
                        method="certified consumer + z3 unsat over D^n",
                        covers=f"(d) every DP mechanism on D^n and transformation deriving an optimum of Lemma 3's "
                        f"{name}-consumer on tau_0..tau_n: the restriction derives {name}",
                        region=DB_REGION,
                        fact="d",
                        consumer=name,
                        theta=f"{theta[0]},{theta[1]}",
                        universe=BINARY[0],
                    ) as d:
                        c, why = consumers[k]
                        if c is None:
                            d.counterexample(f"n={n}, theta={theta}, {label(al)}: no consumer has {why}")
                        else:
                            cex, _ = transfer_failure(n, BINARY, chain, al, c, phi, timeout_s)
                            if cex:
                                d.counterexample(cex)
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method="certified consumers + z3 unsat over D^n",
                    covers="the conclusion on databases: no DP mechanism on D^n (any number of outputs) derives "
                    "optima of both consumers",
                    region=DB_REGION,
                    fact="conclusion",
                    theta=f"{theta[0]},{theta[1]}",
                    universe=BINARY[0],
                ) as d:
                    if all(c is not None for c, _ in consumers):
                        cex, _ = both_failure(n, BINARY, chain, al, [c for c, _ in consumers], phis, timeout_s)
                        if cex:
                            d.counterexample(cex)
                    else:
                        missing = "; ".join(why for c, why in consumers if c is None)
                        d.counterexample(f"n={n}, theta={theta}, {label(al)}: no consumer has {missing}")
                total += 3
    return total


DATABASES_NOTE = (
    "mechanisms on databases (not count-oriented): Section 3.3's reduction through tau_0..tau_n computed: (a) the "
    "chain's consecutive databases differ in exactly one row and tau_i has count i, for every n (z3 over integers "
    "n, i, k, with induction on i) and exhaustively per n for D = {0, 1} and D = {0, 1, 2}; (b) the restriction "
    "of an alpha-DP mechanism on D^n to the chain is alpha-DP (z3, every alpha > 1); (c) a consumer with prior on "
    "the chain has the same error under A t as under R t (sympy); (d) each of the two consumers of Lemma 3's x, y "
    "put on the chain: every optimum derived from a DP mechanism on D^n restricts to x (y), so the restriction "
    "derives both, which Corollary 2 excludes; and the conclusion computed end to end on D^n (D = {0, 1}) at the "
    "n, theta, alpha named in its instances"
)


DERIVATION_N = 5  # above it, Corollary 2 follows from Lemma 2 on the rows k-1..k+2 (the window is x-hat, y-hat)


def decide_general(
    rec: Findings,
    ns: Sequence[int],
    alphas: Sequence[Fraction],
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    derivation_n: int | None = None,
    region: str = "",
) -> int:
    """Lemma 3 + Corollary 2 at every n in ns, non-threshold theta and zlcn alpha: one bounded instance each.
    Up to ``derivation_n`` (default: every n) non-derivability is a z3 unsat; above it, a DP matrix deriving
    x and y would restrict (rows k-1..k+2, still DP) to one deriving x-hat and y-hat, which Lemma 2 excludes.
    ``region`` names the part of the printed class the instances decide (CO_REGION for Theorem 2).
    Returns the number of instances decided."""
    total = 0
    for n in ns:
        by_z3 = derivation_n is None or n <= derivation_n
        for theta in count_range_thetas(n):
            for al in alphas:
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method=(
                        "certified consumers + z3 unsat"
                        if by_z3
                        else "certified consumers + x-hat/y-hat windows (Lemma 2)"
                    ),
                    covers=f"Lemma 3's x and y: legal, unique optima of consumers found here; {JOINT} deriving both",
                    region=region,
                    theta=f"{theta[0]},{theta[1]}",
                ) as d:
                    fail, _ = lemma3_instance(n, theta, al, timeout_s, xf, yf, check_derivation=by_z3)
                    total += 1
                    if fail:
                        d.counterexample(fail)
    return total


#: The parts of Lemma 3's printed class (every count-range query) that its check decides apart.
INNER_QUERIES = "1 <= theta1 < theta2 <= n - 1"
BOUNDARY_QUERIES = "theta1 = 0 or theta2 = n"


def no_boundary(n: int) -> list[tuple[int, int]]:
    """No query outside 1 <= theta1 < theta2 <= n-1: the reading of the corrected and the generic statements."""
    return []


@checks("zlcn2013.lemma3")
def lemma3(
    ctx: Context,
    xf=lemma3_x,
    yf=lemma3_y,
    n_max: int | None = None,
    boundary=boundary_thetas,
    claim: str = "zlcn2013.lemma3",
) -> Findings:
    """zlcn2013 Lemma 3 and Corollary 2: for 1 <= theta1 < theta2 <= n-1 the printed x and y are legal, each is the
    ONLY optimum of some consumer (found and certified here), x[k-1..k+2] = x-hat, y[k-1..k+2] = y-hat, and no DP
    matrix derives both.  Also the rest of the printed class with theta2 <= n (``boundary``, default
    :func:`boundary_thetas`; count-range queries by COUNT_RANGE_DEFINITION that the paper's proof leaves out)."""
    rec = Findings(claim)
    n_max = n_max or (5 if ctx.quick else 9)
    count = decide_general(
        rec, range(3, n_max + 1), ZLCN_ALPHAS, ctx.solver_timeout, xf, yf, DERIVATION_N, region=INNER_QUERIES
    )
    rec.value(**{"(n, theta, alpha) instances": count})
    fail, data = lemma3_instance(3, (1, 2), F(2), ctx.solver_timeout, xf, yf)
    if not fail:
        rec.value(
            **{f"consumers found, n=3, theta=(1, 2), {label(F(2))}": "; ".join(f"{k} = {v}" for k, v in data.items())}
        )
    sym_n = min(n_max, DERIVATION_N)
    for n in range(3, sym_n + 1):
        for theta in count_range_thetas(n):
            with rec.deciding(
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="z3 nlsat unsat",
                covers=f"Corollary 2 only: {JOINT} deriving Lemma 3's x and y",
                region=INNER_QUERIES,
                theta=f"{theta[0]},{theta[1]}",
            ) as d:
                cex, _ = derivation(
                    [lambda a_, t=theta, m=n: xf(m, *t, a_), lambda a_, t=theta, m=n: yf(m, *t, a_)],
                    SYMBOLIC,
                    ctx.solver_timeout,
                )
                if cex:
                    d.counterexample(f"Corollary 2, n={n}, theta={theta}: {cex}")
    rec.value(**lemma3_formula_facts())
    rec.value(**paper_rho_check(ctx.solver_timeout))
    boundary_n = min(n_max, DERIVATION_N)
    lemma3_boundary(rec, range(3, boundary_n + 1), ZLCN_ALPHAS[:2], ctx.solver_timeout, xf, yf, boundary,
                    region=BOUNDARY_QUERIES)
    rec.note(
        f"rational zlcn alphas: legality, certified unique-optimum consumers and x-hat/y-hat windows at "
        f"n = 3..{n_max}, 1 <= theta1 < theta2 <= n-1; "
        f"non-derivability by z3 for n <= {DERIVATION_N}, above it by Lemma 2 on rows k-1..k+2 (declared dependency); "
        f"symbolic internal a in (0, 1): Corollary 2's non-derivability only, n <= {sym_n}; the rest of the printed "
        f"class with theta2 <= n (theta2 = n, and theta1 = 0) decided the same way at n = 3..{boundary_n}, zlcn "
        f"alphas {', '.join(map(str, ZLCN_ALPHAS[:2]))}; at theta2 = +inf the printed k = (theta1 + theta2)/2 has no "
        f"value, so Lemma 3 names no x, y there; every z3 premise shown satisfiable first (premise witness). "
        + DEFINITION_NOTE
    )
    return rec


def lemma3_boundary(
    rec: Findings, ns, alphas, timeout_s: float, xf=lemma3_x, yf=lemma3_y, thetas_of=boundary_thetas,
    region: str = "",
) -> None:
    """Lemma 3 and Corollary 2 as printed at the queries the paper's proof leaves out, theta2 = n or theta1 = 0
    (``thetas_of``, default :func:`boundary_thetas`; count-range queries by COUNT_RANGE_DEFINITION): one bounded
    instance each, decided as in :func:`decide_general` (legality, a consumer with x, y as its only optimum or the
    z3 unsat that none exists, the derivation by z3)."""
    for n in ns:
        for theta in thetas_of(n):
            for al in alphas:
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method="certified consumers + z3 unsat",
                    covers=f"Lemma 3's x and y at a query the paper's proof leaves out: every consumer (is x, y "
                    f"the only optimum of one), {JOINT} deriving both",
                    theta=f"{theta[0]},{theta[1]}",
                    region=region,
                ) as d:
                    fail, _ = lemma3_instance(n, theta, al, timeout_s, xf, yf, check_derivation=True)
                    if fail:
                        d.counterexample(f"{fail} (the query <p, {theta[0]}, {theta[1]}> is {boundary_kind(n, theta)})")


@checks("zlcn2013.thm2")
def thm2(
    ctx: Context,
    xf=lemma3_x,
    yf=lemma3_y,
    n_max: int | None = None,
    boundary=no_boundary,
    claim: str = "zlcn2013.thm2",
    chain: Chain = paper_chain,
    db_n_max: int = 4,
) -> Findings:
    """zlcn2013 Theorem 2: "There is no universally utility maximizing differentially private mechanism for
    count-range queries", read as the generic statement it is: count-range queries have no mechanism that is
    universally utility maximizing for each of them, because some count-range query has none.  The paper's own
    Theorem 7 gives a universal mechanism for threshold queries, which Section 2.1 counts as count-range queries
    (COUNT_RANGE_DEFINITION), so reading it for each query contradicts the paper; that stronger reading is the claim
    zlcn2013.thm2.each-query (``boundary`` = :func:`boundary_thetas`).  For 1 <= theta1 < theta2 <= n-1:
    two consumers have unique optima x, y (Lemma 3) that no DP matrix derives together (Corollary 2); databases
    tau_0..tau_n reduce arbitrary mechanisms to this.  For the rest of the printed class with theta2 <= n
    (:func:`universal_at_boundary`): whether the range-restricted geometric mechanism is universal.  ``boundary``
    gives those queries per n (count_range_thetas instead reads the statement as the paper's proof does).

    The printed class has two parts (udpm/statements/zlcn2013.toml): count-oriented mechanisms (the instances
    above, region CO_REGION) and mechanisms on databases, not count-oriented ("Note that Theorem 2 not only deals
    with count-oriented mechanisms, but also considers other differentially private mechanisms."), decided by
    :func:`decide_databases` (region DB_REGION) at n up to ``db_n_max``, the queries 1 <= theta1 < theta2 <= n-1,
    for the chain ``chain`` (default the paper's tau_0..tau_n; a false variant changes it)."""
    rec = Findings(claim)
    n_max = n_max or (5 if ctx.quick else 7)
    alphas = list(ZLCN_ALPHAS) if not ctx.quick else list(ZLCN_ALPHAS[:5])
    count = decide_general(rec, range(3, n_max + 1), alphas, ctx.solver_timeout, xf, yf, region=CO_REGION)
    rec.value(**{"(n, theta, alpha) instances": count})
    boundary_n = min(n_max, 5)
    total = universal_at_boundary(rec, range(3, boundary_n + 1), alphas[:2], ctx, boundary, region=CO_REGION)
    rec.value(**{"boundary (n, theta, alpha) instances": total})
    db_ns = range(3, min(n_max, db_n_max) + 1)
    db_alphas = alphas[:2] if ctx.quick else alphas[:3]
    db = decide_databases(
        rec, range(1, db_n_max + 1), db_ns, count_range_thetas, db_alphas, ctx.solver_timeout, xf, yf, chain
    )
    rec.value(**{"mechanisms on databases: instances": db})
    rec.note(
        "count-oriented mechanisms: each instance with 1 <= theta1 < theta2 <= n-1: the two consumers with unique "
        "optima x, y (Lemma 3, found and certified) and z3 unsat for a DP mechanism deriving both. "
        + DATABASES_NOTE
        + f" (n = {db_ns.start}..{db_ns.stop - 1}, zlcn alphas {', '.join(map(str, db_alphas))}; the queries "
        "theta2 = n and theta1 = 0 are decided for count-oriented mechanisms only). " + DEFINITION_NOTE
    )
    if not total:
        return rec
    rec.note(
        f"the queries with theta2 = n and theta1 = 0 (n = 3..{boundary_n}, zlcn alphas "
        f"{', '.join(map(str, alphas[:2]))}) the exact worst ratio, over every consumer, of the best error derivable "
        "from the range-restricted geometric mechanism (6) to the optimal error is computed (certified LPs over the "
        "legal polytope's vertices, proofs/approximation_ratio.py's worst_ratio); ratio 1 means (6) derives an "
        "optimal legal function for every consumer, a universally utility maximizing mechanism (Definition 5) for "
        "that query, which refutes Theorem 2 read for that query"
    )
    return rec


@checks("zlcn2013.thm2.each-query")
def thm2_each_query(
    ctx: Context, xf=lemma3_x, yf=lemma3_y, n_max: int | None = None, chain: Chain = paper_chain
) -> Findings:
    """zlcn2013 Theorem 2 read for each count-range query of Section 2.1's definition, theta2 = n and theta1 = 0
    included: refuted where the range-restricted geometric mechanism is universally utility maximizing."""
    return thm2(ctx, xf, yf, n_max, boundary=boundary_thetas, claim="zlcn2013.thm2.each-query", chain=chain)


def universal_at_boundary(rec: Findings, ns, alphas, ctx: Context, thetas_of=boundary_thetas, region: str = "") -> int:
    """Theorem 2 at the queries the paper's proof leaves out (``thetas_of``, default :func:`boundary_thetas`;
    theta = (0, n) aside: every count in range, phi = 1 has error 0): is there a universally utility maximizing
    mechanism?  One bounded instance per (n, theta, alpha): the exact worst ratio over every consumer
    (proofs.approximation_ratio.worst_ratio) is 1 exactly when the range-restricted geometric mechanism derives
    an optimum of every consumer, which refutes "there is no universally utility maximizing mechanism" for that
    query.  Returns the number of instances."""
    total = 0
    for n in ns:
        for theta in thetas_of(n):
            if theta == (0, n):
                continue
            for al in alphas:
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method="exact worst ratio (certified LPs over the legal polytope's vertices)",
                    covers="every consumer (omega, rho) of this query: does the range-restricted geometric "
                    "mechanism derive an optimum of each",
                    region=region,
                    theta=f"{theta[0]},{theta[1]}",
                ) as d:
                    r = worst_ratio(n, al, theta[0], theta[1], ctx)[0]
                    total += 1
                    if r == 1:
                        d.counterexample(
                            f"n={n}, theta={theta}, {label(al)}: the query <p, {theta[0]}, {theta[1]}> is "
                            f"{boundary_kind(n, theta)}, and the range-restricted geometric mechanism (6) is "
                            "universally utility maximizing for it: the best error it derives equals the optimal "
                            "error for every consumer (exact worst ratio 1, certified LPs)"
                        )
    return total


_RHO_RATIO = re.compile(r"^\\rho\((\d)\)\s*/\s*\\rho\((\d)\)\s*=\s*(.+)$")
_RHO_EQUAL = re.compile(r"^\\rho\((\d)\)\s*=\s*\\rho\((\d)\)$")


def printed_rho_weights(relations: Sequence[str] | None = None) -> list[sp.Expr]:
    """zlcn2013 Section 3.2.2's prior from its printed relations (paper_tables/printed/zlcn2013.json "rho", or
    ``relations``): "rho(i)/rho(j) = c" or "rho(i) = rho(j)", solved for rho(0..3) with rho(1) = 1, in the
    internal a.  The relations fix rho up to a positive factor; a prior sums to 1, which fixes the factor
    (:func:`paper_rho`), and the optimum of a consumer does not depend on it."""
    rel = printed("zlcn2013", "rho").values if relations is None else relations
    r = sp.symbols("r0:4")
    eqs = [r[1] - 1]
    for text in rel:
        t = text.strip()
        if m := _RHO_RATIO.match(t):
            eqs.append(r[int(m.group(1))] - printed_internal(m.group(3)) * r[int(m.group(2))])
        elif m := _RHO_EQUAL.match(t):
            eqs.append(r[int(m.group(1))] - r[int(m.group(2))])
        else:
            raise ExpectationsError(f"zlcn2013 rho: cannot read the printed relation {text!r}")
    sol = sp.solve(eqs, r, dict=True)
    if len(sol) != 1 or any(v not in sol[0] or sol[0][v].free_symbols - {a_sym} for v in r):
        raise ExpectationsError(f"zlcn2013 rho: the printed relations {list(rel)} do not fix rho up to a factor")
    return [sp.simplify(sol[0][v]) for v in r]


def paper_rho(a: Fraction, relations: Sequence[str] | None = None) -> list[Fraction]:
    """zlcn2013 Section 3.2.2's prior (:func:`printed_rho_weights`) at the internal a, normalised to sum 1:
    rho(0)/rho(1) = A^2, rho(2)/rho(1) = A, rho(3) = rho(2) (A = 1/a) give (A^2, 1, A, A)/(A+1)^2."""
    w = [F(str(v.subs(a_sym, sp.Rational(a.numerator, a.denominator)))) for v in printed_rho_weights(relations)]
    return [v / sum(w) for v in w]


def z3_of(e: sp.Expr, names: dict[sp.Symbol, z3.ArithRef]) -> z3.ArithRef:
    """A polynomial (or rational function) in the symbols of ``names`` as a z3 term; integer powers only."""
    if e.is_Symbol:
        return names[e]
    if e.is_Rational:
        return z3.RealVal(str(e))
    if e.is_Add:
        return z3.Sum([z3_of(t, names) for t in e.args])
    if e.is_Mul:
        out = z3.RealVal(1)
        for t in e.args:
            out = out * z3_of(t, names)
        return out
    if e.is_Pow and e.exp.is_Integer:
        base, k = z3_of(e.base, names), int(e.exp)
        out = z3.RealVal(1)
        for _ in range(abs(k)):
            out = out * base
        return out if k >= 0 else 1 / out
    raise ExpectationsError(f"cannot read {e} as a rational function")


def cleared(e: sp.Expr) -> sp.Expr:
    """A polynomial with the sign of ``e`` wherever e's denominator is positive (sympy must find it positive for
    every internal a > 0: products of a and a + 1 here); z3 and cvc5 then see no division."""
    num, den = sp.fraction(sp.factor(sp.together(e)))
    if not sp.factor(den).is_positive:
        raise ExpectationsError(f"the denominator {den} of {e} is not positive for every internal a > 0")
    return sp.expand(num)


PRINTED_CONSUMERS = {
    "xhat": "uniform error penalty, uniform prior (Section 3.2.1)",
    "yhat": "uniform error penalty, the printed prior rho (Section 3.2.2)",
}


def printed_optimum_failure(
    vector: Sequence[sp.Expr], weights: Sequence[sp.Expr], timeout_s: float, theta: tuple[int, int] = (1, 2)
) -> str | None:
    """Is ``vector`` (sympy, internal a) the only optimal legal function of the consumer with error weights
    omega rho = ``weights`` (positive, internal a) for the query <p, theta> at n = 3, for every internal a in
    (0, 1) (every zlcn alpha > 1)?  z3 (nlsat), denominators cleared: the vector is legal, and no legal psi !=
    vector has error <= its error; the premises (a in (0, 1), psi legal) are shown satisfiable first.  None, or
    where it fails."""
    a = z3.Real("a")
    psi_s = sp.symbols("psi0:4")
    names = {a_sym: a, **{p: z3.Real(str(p)) for p in psi_s}}
    psi = [names[p] for p in psi_s]

    def legal(v):  # expressions that are >= 0 exactly when v is legal (Definition 2, internal a)
        out = []
        for i in range(4):
            out += [v[i], 1 - v[i]]
        for i in range(3):
            out += [
                v[i + 1] - a_sym * v[i],
                v[i] - a_sym * v[i + 1],
                (1 - v[i + 1]) - a_sym * (1 - v[i]),
                (1 - v[i]) - a_sym * (1 - v[i + 1]),
            ]
        return out

    side = [a > 0, a < 1]
    psi_legal = [z3_of(sp.expand(e), names) >= 0 for e in legal(list(psi_s))]
    premises_hold(
        [*side, *psi_legal],
        [a == z3.RealVal("1/2"), *(p == 0 for p in psi)],
        timeout_s,
        "legal functions, n=3, every zlcn alpha > 1",
    )
    for e in legal(list(vector)):
        out = decide([*side, z3_of(cleared(e), names) < 0], timeout_s)
        if not out.unsat:
            return f"at internal a={model_value(out.model, a)} the vector breaks {sp.factor(e)} >= 0"
    sign = [-1 if theta[0] <= i <= theta[1] else 1 for i in range(4)]
    worse = cleared(sum(sign[i] * weights[i] * (psi_s[i] - vector[i]) for i in range(4)))
    other = z3.Or([z3_of(cleared(psi_s[i] - vector[i]), names) != 0 for i in range(4)])
    out = decide([*side, *psi_legal, z3_of(worse, names) <= 0, other], timeout_s)
    if not out.unsat:
        m = out.model
        return (
            f"at internal a={model_value(m, a)} the legal psi = {[model_value(m, p) for p in psi]} has error <= the "
            "vector's"
        )
    return None


def is_unique_optimum(consumer: CountRangeConsumer, phi: list[Fraction], a: Fraction, timeout_s: float) -> bool:
    """z3: no legal psi != phi (internal a) has weighted error <= that of phi (linear in psi); the premise (legal
    psi) is shown satisfiable first."""
    n = consumer.n
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
    w = [consumer.omega[i] * consumer.rho[i] for i in range(n + 1)]
    sign = [-1 if consumer.in_range(i) else 1 for i in range(n + 1)]
    diff = z3.Sum(
        [
            z3.RealVal(str(sign[i] * w[i] * (0 - phi[i]))) + z3.RealVal(str(sign[i] * w[i])) * psi[i]
            for i in range(n + 1)
        ]
    )
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    return decide([*ok, diff <= 0, other], timeout_s).unsat


def paper_rho_check(timeout_s: float) -> dict[str, str]:
    """Does the paper's own consumer (uniform omega, the printed rho) have y-hat as its only optimum?"""
    good = [
        al
        for al in ZLCN_ALPHAS
        if is_unique_optimum(
            CountRangeConsumer.of([1] * 4, paper_rho(internal(al)), 1, 2), yhat(internal(al)), internal(al), timeout_s
        )
    ]
    return {"paper's rho: y-hat the only optimum at zlcn alphas": ", ".join(map(str, good)) or "none"}


def smallest_exponent(f: Callable, low: bool) -> tuple[sp.Expr, sp.Expr]:
    """(exponent e(s), its minimum over s >= 0) of Lemma 3's entry f = a^e/(a+1) at i = k - s (low side) or
    j = k + 1 + s (high side), symbolically in k and s."""
    kk, s = sp.Symbol("k", integer=True, nonnegative=True), sp.Symbol("s", integer=True, nonnegative=True)
    idx = kk - s if low else kk + 1 + s
    base, e = sp.powsimp(sp.simplify(f(kk, idx, a_sym) * (a_sym + 1))).as_base_exp()
    if base != a_sym:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__} is not a^e/(a+1): {f(kk, idx, a_sym)}")
    poly = sp.Poly(sp.expand(e), s)
    if poly.degree() > 1 or any(c.free_symbols for c in poly.all_coeffs()) or poly.all_coeffs()[0] < 0:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__}: exponent {e} is not increasing in s")
    return sp.expand(e), e.subs(s, 0)


def lemma3_formula_facts() -> dict[str, str]:
    """The printed exponents, symbolically in k and i: the paper's formulas (in A) become the internal ones after
    A = 1/a; the entries next to k are x-hat, y-hat; every entry is a probability (computed: the smallest exponent
    of a on each side of k)."""
    kk = sp.Symbol("k", integer=True, nonnegative=True)
    i = sp.Symbol("i", integer=True)
    paper = {name: in_internal_alpha(f(kk, i, A_SYM)) for name, f in PAPER_LEMMA3.items()}
    for name, f in INTERNAL_LEMMA3.items():
        if sp.simplify(paper[name] - f(kk, i, a_sym)) != 0:
            raise ExpectationsError(f"Lemma 3 {name}: {f(kk, i, a_sym)} is not the paper's formula {paper[name]}")
    x_lo, xy_hi, y_lo = paper["x, i <= k"], paper["x and y, j >= k+1"], paper["y, i <= k"]
    facts = {
        "x_(k-1), x_k, x_(k+1), x_(k+2)": [
            x_lo.subs(i, kk - 1),
            x_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
        "y_(k-1), y_k, y_(k+1), y_(k+2)": [
            y_lo.subs(i, kk - 1),
            y_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
    }
    out = {f"Lemma 3 symbolic {name}": ", ".join(str(sp.simplify(v)) for v in vals) for name, vals in facts.items()}
    lows = {"x, i <= k": True, "x and y, j >= k+1": False, "y, i <= k": True}
    mins = {name: smallest_exponent(INTERNAL_LEMMA3[name], low) for name, low in lows.items()}
    smallest = min(m for _, m in mins.values())
    parts = ", ".join(f"{name}: a^({e})/(a+1), s >= 0, smallest exponent {m}" for name, (e, m) in mins.items())
    verdict = (
        f"yes: smallest exponent {smallest} >= 0, so 0 < entry <= 1/(a+1) < 1"
        if smallest >= 0
        else f"no: exponent {smallest} < 0 gives entries above 1/(a+1)"
    )
    out["Lemma 3 entries in (0, 1)"] = f"{verdict} ({parts}; s = k - i below k, j - k - 1 above)"
    return out
