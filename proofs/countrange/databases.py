"""Mechanisms on databases (not count-oriented) in Theorems 2 and 3, zlcn2013 Section 3.3: the reduction decided.

On top of the chain tau_0..tau_n (proofs/countrange/chain.py, facts (a)-(c)): (d) each of Lemma 3's two
consumers, put on the chain, has as only optima on it her count-oriented optimum, and no DP mechanism on D^n
derives optima of both.  decide_databases records every fact as an instance of the part DB_REGION of the
theorems' printed class.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import z3

from proofs.countrange.alpha import SYMBOLIC, internal, label
from proofs.countrange.chain import (
    BINARY,
    TERNARY,
    UNIVERSES,
    Chain,
    chain_databases,
    chain_failure,
    chain_symbolic_failures,
    db_count,
    db_name,
    db_neighbours,
    error_identity_failure,
    paper_chain,
    restriction_dp_failure,
)
from proofs.countrange.derivation import premises_hold
from proofs.countrange.optimum_consumers import unique_optimum_consumer
from proofs.countrange.vectors import lemma3_x, lemma3_y
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Findings
from udpm.core import linalg
from udpm.smt.solvers import decide, model_value

F = Fraction


#: The parts of Theorems 2 and 3's printed class (udpm/claims/statements/zlcn2013.toml), decided apart.
CO_REGION = "count-oriented mechanisms"
DB_REGION = "mechanisms on databases (not count-oriented)"


def database_problem(n: int, universe, chain: Chain, alpha: Fraction, consumers, phis, types):
    """A DP mechanism on D^n with the output columns ``types`` (s in {0,1}^K, transformation k reading s_k: every
    number of outputs by the split-and-merge reduction, proofs/countrange/derivation.py), rows summing to 1, DP on
    every neighbouring pair; the mechanism derived by transformation k and its error for the database consumer k
    (penalty omega(count), prior consumers[k].rho[i] on tau_i and 0 elsewhere).
    Returns (premises, the derived mechanisms, their errors, the matrix, tau)."""
    a = z3.RealVal(str(internal(alpha)))
    dbs, pairs = db_neighbours(n, universe)
    mat = {db: {s: z3.Real(f"m_{db_name(db)}_{''.join(map(str, s))}") for s in types} for db in dbs}
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
