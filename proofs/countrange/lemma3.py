"""Count-range Lemma 3, Corollary 2 and Theorem 2 (zlcn2013 Sections 3.2-3.3): no universal mechanism for count ranges.

For 1 <= theta1 < theta2 <= n-1, Lemma 3's x and y (proofs/countrange/vectors.py) are legal functions, each the
only optimum of a consumer found and certified (proofs/countrange/optimum_consumers.py), their entries k-1..k+2
are x-hat and y-hat, and no DP matrix derives both (Corollary 2, the finite derivation problem of
proofs/countrange/derivation.py); Theorem 2 is that grid of instances.  The queries theta1 = 0 and theta2 = n,
which the paper's proof leaves out, are decided too (proofs/countrange/boundary.py); mechanisms on databases
through Section 3.3's reduction in proofs/countrange/databases.py; the symbolic facts of Lemma 3's formulas in
proofs/countrange/lemma3_formulas.py; the paper's own consumers for x-hat and y-hat (Section 3.2's printed prior
rho, and whether a printed vector is the only optimum of its consumer for every alpha) in
proofs/countrange/printed_consumers.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from proofs.countrange.alpha import SYMBOLIC, ZLCN_ALPHAS, internal, label
from proofs.countrange.boundary import DEFINITION_NOTE, boundary_kind, boundary_thetas, universal_at_boundary
from proofs.countrange.chain import Chain, paper_chain
from proofs.countrange.databases import CO_REGION, DATABASES_NOTE, decide_databases
from proofs.countrange.derivation import JOINT, derivation
from proofs.countrange.lemma3_formulas import lemma3_formula_facts
from proofs.countrange.optimum_consumers import unique_optimum_consumer
from proofs.countrange.printed_consumers import paper_rho_check
from proofs.countrange.vectors import lemma3_k, lemma3_x, lemma3_y, xhat, yhat
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.users import is_legal_function

F = Fraction


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


def count_range_thetas(n: int) -> list[tuple[int, int]]:
    """The count-range queries the paper's proof handles: 1 <= theta1 < theta2 <= n-1."""
    return [(t1, t2) for t1 in range(1, n) for t2 in range(t1 + 1, n)]


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
    lemma3_boundary(
        rec, range(3, boundary_n + 1), ZLCN_ALPHAS[:2], ctx.solver_timeout, xf, yf, boundary, region=BOUNDARY_QUERIES
    )
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
    rec: Findings,
    ns,
    alphas,
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    thetas_of=boundary_thetas,
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

    The printed class has two parts (udpm/claims/statements/zlcn2013.toml): count-oriented mechanisms (the instances
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
        "legal polytope's vertices, proofs/countrange/worst_ratio.py); ratio 1 means (6) "
        "derives an "
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
