"""zlcn2013 Theorem 4: the worst ratio, over every consumer, of the best mechanism derivable from the
range-restricted geometric mechanism to the optimal one, exactly per (n, theta, alpha), and its closed forms in
zlcn's alpha A (zlcn2013's alpha > 1, written A; the symbolic internal alpha 1/A is checked against
udpm.core.conventions.alpha_from_zlcn2013 at each rational A0).

The legal polytope's vertices (:func:`legal_vertices`, by its chain structure) are shared with
proofs/countrange/cones.py; only minimal error profiles enter the worst-ratio LPs, each certified exactly.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable
from fractions import Fraction

import flint
import sympy as sp
from sympy.polys.matrices import DomainMatrix

from proofs.countrange.alpha import internal, zlcn_label
from proofs.countrange.lp import ALPHAS_Z, AS, F, fmt, theta_pairs, theta_text
from proofs.geometric.mechanism import zlcn2013_formula6
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric_zlcn2013
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.countrange import definition2_rows, satisfies_rows
from udpm.lp.programs import Constraint, LinearProgram

# ---------------------------------------------------------------- Theorem 4: the worst ratio, exactly


@functools.cache
def legal_vertices(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """Every vertex of the legal-function polytope (Definition 2 plus 0 <= phi), exactly, by its chain structure.

    Each row of Definition 2 involves phi(m), phi(m+1) only, and every edge row has non-zero coefficients on both,
    so at a vertex the variables split into maximal runs linked by tight edge rows (one line per edge: the two
    parallel lines of an edge cannot both be tight), and a run of k variables with k-1 tight edge lines is fixed
    exactly when one more row is tight in it: a bound phi = 0 or 1, or a second, non-parallel line on one of its
    edges (their intersections are (0, 0), (1, 1), (1/(1+a), a/(1+a)) and its mirror).  So the vertices are the
    concatenations of such runs (propagated from the seed through the four tight lines, in [0, 1] and feasible
    on their edge) whose junction edges are feasible; every candidate is then checked against every row exactly.
    :func:`legal_vertices_by_subsets` is the direct enumeration (every n+1 rows), the cross-check of tests."""
    a = internal(A)
    rows = definition2_rows(n, a)
    runs = {k: _runs(k, a) for k in range(1, n + 2)}
    out: set[tuple[Fraction, ...]] = set()

    def extend(prefix: tuple[Fraction, ...]) -> None:
        if len(prefix) == n + 1:
            out.add(prefix)
            return
        for k in range(1, n + 2 - len(prefix)):
            for run in runs[k]:
                if not prefix or _edge_feasible(prefix[-1], run[0], a):
                    extend(prefix + run)

    extend(())
    bad = [v for v in out if satisfies_rows(rows, v) is not None]
    if bad:  # cannot happen: every edge and bound is checked during the construction
        raise AssertionError(f"legal_vertices: {fmt(bad[0])} violates {satisfies_rows(rows, bad[0])}")
    return sorted(out)


def _tight_lines(a: Fraction):
    """phi(m+1) as a function of phi(m) on the four edge lines of Definition 2 (internal a = 1/alpha)."""
    return (lambda x: a * x, lambda x: x / a, lambda x: a * x + 1 - a, lambda x: (x - 1 + a) / a)


def _edge_feasible(x: Fraction, y: Fraction, a: Fraction) -> bool:
    return y - a * x >= 0 and x - a * y >= 0 and y - a * x <= 1 - a and x - a * y <= 1 - a


def _runs(k: int, a: Fraction) -> set[tuple[Fraction, ...]]:
    """Every point of [0,1]^k with a tight line on each of its k-1 edges and one more tight row fixing it."""
    lines = _tight_lines(a)
    back = (lambda x: x / a, lambda x: a * x, lambda x: (x - 1 + a) / a, lambda x: a * x + 1 - a)  # inverses
    h = 1 / (1 + a)
    seeds = [(p, (F(v),)) for p in range(k) for v in (0, 1)]
    seeds += [(p, pair) for p in range(k - 1) for pair in ((h, a * h), (a * h, h))]
    out: set[tuple[Fraction, ...]] = set()
    for p, seed in seeds:
        parts = [seed]
        for _ in range(p + len(seed), k):
            parts = [(*s, y) for s in parts for f in lines for y in (f(s[-1]),) if _in_box_edge(s[-1], y, a)]
        for _ in range(p):
            parts = [(y, *s) for s in parts for f in back for y in (f(s[0]),) if _in_box_edge(y, s[0], a)]
        out.update(parts)
    return out


def _in_box_edge(x: Fraction, y: Fraction, a: Fraction) -> bool:
    return 0 <= x <= 1 and 0 <= y <= 1 and _edge_feasible(x, y, a)


def legal_vertices_by_subsets(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """Every vertex of the legal-function polytope by brute force: every n+1 of its rows, solved exactly
    (python-flint's exact rational matrices: a non-zero determinant, the solution, then every row checked).
    C(6n+2, n+1) systems: the cross-check of :func:`legal_vertices` for small n."""
    rows = definition2_rows(n, internal(A)) + [Constraint(((m, F(1)),), ">=", F(0), "") for m in range(n + 1)]
    dense = [[F(0)] * (n + 1) for _ in rows]
    for r, row in enumerate(rows):
        for i, cf in row.coeffs:
            dense[r][i] = cf
    every = flint.fmpq_mat([[_fq(v) for v in r] for r in dense])
    rhs = [_fq(row.rhs) for row in rows]
    out = set()
    for subset in itertools.combinations(range(len(rows)), n + 1):
        mat = flint.fmpq_mat([[_fq(v) for v in dense[k]] for k in subset])
        if mat.det() == 0:
            continue
        x = mat.solve(flint.fmpq_mat([[rhs[k]] for k in subset]))
        act = every * x
        if all(
            {"<=": act[k, 0] <= rhs[k], ">=": act[k, 0] >= rhs[k], "=": act[k, 0] == rhs[k]}[row.sense]
            for k, row in enumerate(rows)
        ) and all(x[i, 0] >= 0 for i in range(n + 1)):
            out.add(tuple(F(int(x[i, 0].p), int(x[i, 0].q)) for i in range(n + 1)))
    return sorted(out)


def _fq(v: Fraction) -> flint.fmpq:
    return flint.fmpq(v.numerator, v.denominator)


@functools.cache
def derivable_vertices(n: int, A: Fraction) -> list[tuple[Fraction, ...]]:
    """M t for t in {0,1}^(n+1): the derivable set {M t : t in [0,1]^(n+1)} is their convex hull."""
    m = truncated_geometric_zlcn2013(n, A)
    return sorted({tuple(linalg.matvec(m, list(map(F, t)))) for t in itertools.product((0, 1), repeat=n + 1)})


def error_profile(phi, t1: int, t2: int | None) -> list[Fraction]:
    return [(1 - v) if (t1 <= i and (t2 is None or i <= t2)) else v for i, v in enumerate(phi)]


def minimal_profiles(profiles) -> list[tuple[Fraction, ...]]:
    """The componentwise-minimal members of a set of error profiles (duplicates once), in a stable order."""
    keep: list[tuple[Fraction, ...]] = []
    for p in sorted(set(map(tuple, profiles)), key=lambda q: (sum(q), q)):
        if not any(all(x <= y for x, y in zip(q, p)) for q in keep):
            keep.append(p)
    return keep


def worst_ratio(n: int, A: Fraction, t1: int, t2: int | None, ctx: Context):
    """max over weights w = omega*rho >= 0 of min_derivable err_w / min_legal err_w, exactly:
    = 1 / min over legal vertices u of min {w.e(u) : w.e(g) >= 1 for every derivable vertex g, w >= 0}.

    Exact reductions (w >= 0): a vertex u whose error profile e(u) is componentwise >= another's has an LP value no
    smaller, and the row of a g whose profile is componentwise >= another's is implied by it; so only the minimal
    profiles of each side enter (with the legal vertices' minimal profiles, one LP each)."""
    rows = tuple(
        Constraint(tuple((i, e[i]) for i in range(n + 1) if e[i]), ">=", F(1), f"g{k}")
        for k, e in enumerate(minimal_profiles(error_profile(g, t1, t2) for g in derivable_vertices(n, A)))
    )
    by_profile: dict[tuple[Fraction, ...], tuple[Fraction, ...]] = {}
    for u in legal_vertices(n, A):
        by_profile.setdefault(tuple(error_profile(u, t1, t2)), u)
    best = None
    for eu in minimal_profiles(by_profile):
        u = by_profile[eu]
        lp = LinearProgram(
            tuple(f"w[{i}]" for i in range(n + 1)),
            tuple((i, eu[i]) for i in range(n + 1) if eu[i]),
            rows,
            "zlcn2013 Theorem 4 ratio",
        )
        cert = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
        if best is None or cert.objective < best[0]:
            best = (cert.objective, cert.x, u, cert)
    value, w, u, cert = best
    return (None if value == 0 else 1 / value), w, u, cert


def closed_forms(n: int, t1: int, t2: int | None, exact: dict, ctx: Context) -> str:
    """The worst ratio's rational functions of A for one (n, theta), from the optimal basis at each A0 of ``exact``
    (A0 -> worst_ratio's answer there): canonical JSON, one piece per distinct r(A) with the union of its proved
    intervals (overlapping or touching ones merged), the grid alphas inside where r(A) equals the exact ratio, and
    those where it does not."""
    pieces: dict[str, list] = {}
    for A0 in sorted(exact):
        pr = parametric_ratio(n, t1, t2, A0, ctx, solved=exact[A0])
        L, U, ends = stable_interval(pr["conditions"], A0)
        pieces.setdefault(str(pr["r"]), []).append([L, U, pr["r"], ends])
    out = []
    for text, ivs in pieces.items():
        ivs.sort(key=lambda iv: iv[0])
        merged = [ivs[0][:2]]
        for L, U, _, _ in ivs[1:]:
            last = merged[-1]
            if last[1] is None or L <= last[1]:
                last[1] = None if last[1] is None or U is None else max(last[1], U)
            else:
                merged.append([L, U])
        r_k = KA.from_sympy(ivs[0][2])
        inside = [A for A in sorted(exact) if any(L <= A and (U is None or A <= U) for L, U in merged)]
        over = [A for A in inside if exact[A][0] is not None and exact[A][0] < _at(r_k, A)]
        if over:  # a proved lower bound above the exact maximum: a harness error, never a verdict
            raise AssertionError(f"n={n}, theta={theta_text(t1, t2)}: r(A) = {text} exceeds the exact ratio at {over}")
        out.append(
            {
                "r(A)": text,
                "proved": [interval_text(L, U) for L, U in merged],
                "ends": sorted({iv[3] for iv in ivs if iv[3]}),
                "equals_exact_at": [str(A) for A in inside if exact[A][0] == _at(r_k, A)],
                "differs_at": [str(A) for A in inside if exact[A][0] != _at(r_k, A)],
            }
        )
    return json.dumps(sorted(out, key=lambda p: p["proved"][0]), sort_keys=True)


def at_one_count(
    rec: Findings, alphas: tuple[Fraction, ...], factor: Fraction | int, formula: Callable = zlcn2013_formula6
) -> None:
    """Theorem 4 at n = 0 (the database has no row; the one count is 0): the mechanism is (6) at n = 0
    (``formula``, the statement's (6) literally), a 1x1 matrix [m].  The query <p, 0, +oo> has every count in range:
    its consumer (omega(0) rho(0) = 1) has the optimum phi(0) = 1, error 0, while a transformation t in [0, 1]
    derives phi(0) = m t: the best derivable error is 1 - m (t = 1), at most ``factor`` x 0 only if m >= 1.  Exact
    at each zlcn alpha."""
    for A in alphas:
        with rec.deciding(
            n=0,
            alpha=zlcn_label(A),
            kind=BOUNDED,
            method="(6) at n = 0 literally, exact",
            covers="every consumer of <p, 0, +oo> (every count in range) on the one count 0",
            theta=theta_text(0, None),
        ) as d:
            m = formula(0, A)
            if len(m) != 1 or len(m[0]) != 1:
                d.inconclusive(f"(6) at n = 0 is {m}: no 1x1 matrix")
            elif m[0][0] < 1:
                d.counterexample(
                    f"n = 0, zlcn alpha = {A}: (6) gives M = [{m[0][0]}] (z = 0 is in {{0, n}}: A/(A+1)), not the "
                    f"mechanism [1]; the consumer of <p, 0, +oo> has optimal error 0 (phi(0) = 1) and best derivable "
                    f"error 1 - {m[0][0]} = {1 - m[0][0]} (t = 1), not at most {factor} x 0"
                )


@checks("zlcn2013.thm4")
def two_approximation(ctx: Context, factor: Fraction | int = 2, formula: Callable = zlcn2013_formula6) -> Findings:
    """zlcn2013 Theorem 4: for every consumer, some mechanism derivable from the range-restricted geometric
    mechanism has weighted error at most 2 times the optimum.  The worst ratio over ALL consumers (omega, rho)
    is computed exactly for each (n, theta1, theta2, alpha) and compared with ``factor``: one bounded instance
    each (exhaustive over consumers: a finite LP family over the legal polytope's vertices, each certified).
    n = 0 (the printed class has n >= 0): (6) literally (``formula``), :func:`at_one_count`; over n >= 1 the claim
    zlcn2013.thm4.corrected."""
    rec = Findings("zlcn2013.thm4")
    n_max = 3 if ctx.quick else 6
    alphas = (*ALPHAS_Z, F(100)) if not ctx.quick else (F(101, 100), F(2), F(100))
    worst = None
    per_alpha: dict[Fraction, Fraction] = {}
    per_n: dict[tuple[Fraction, int], Fraction] = {}  # (A, n) -> worst ratio over theta
    exact: dict[tuple, dict[Fraction, Fraction | None]] = {}
    for n in range(1, n_max + 1):
        for t1, t2 in theta_pairs(n):
            if t1 == 0 and (t2 is None or t2 == n):
                continue  # every count is in range: phi = 1 is derivable (t = 1) and has error 0
            exact[(n, t1, t2)] = {}
            for A in alphas:
                with rec.deciding(
                    n=n,
                    alpha=zlcn_label(A),
                    kind=BOUNDED,
                    method="exact worst ratio (certified LPs over the legal polytope's vertices)",
                    covers="every consumer (omega, rho) of this count-range or threshold query",
                    theta=theta_text(t1, t2),
                ) as d:
                    solved = worst_ratio(n, A, t1, t2, ctx)
                    r, w, u, cert = solved
                    where = (
                        f"theta=({t1}, {'inf' if t2 is None else t2}), consumer weights omega*rho proportional to "
                        f"{fmt(w)} (optimal legal function {fmt(u)})"
                    )
                    if r is None or r > factor:
                        d.counterexample(f"{where}: best derivable error / optimal error = {r} > {factor}")
                key = (r is None, r or 0)
                per_alpha[A] = max(per_alpha.get(A, F(0)), r or F(0))
                per_n[(A, n)] = max(per_n.get((A, n), F(0)), r or F(0))
                exact[(n, t1, t2)][A] = solved
                if worst is None or key > worst[0]:
                    worst = (key, r, n, A, where, cert)
                if (t2 is None or t1 == 0 or t2 == n) and r != 1:
                    rec.value(**{f"threshold ratio n={n} theta={theta_text(t1, t2)} {zlcn_label(A)}": r})
    at_one_count(rec, alphas, factor, formula)
    _, r, n, A, where, cert = worst
    rec.value(worst_ratio=str(r), worst_consumer=f"n={n}, {zlcn_label(A)}, {where}")
    for A, v in per_alpha.items():
        rec.value(**{f"worst ratio at {zlcn_label(A)}": v})
    # the same maxima per (alpha, n), as data for the report (udpm.report.html.thm4_ratios)
    rec.value(
        worst_ratios=json.dumps(
            [{"alpha": str(A), "n": n, "ratio": str(v)} for (A, n), v in sorted(per_n.items())], separators=(",", ":")
        )
    )
    rec.certificate = certificate_of({"worst ratio": str(r)}, [("worst-ratio LP (1/ratio)", cert)])
    for (n, t1, t2), by_alpha in exact.items():
        if any(v[0] != 1 for v in by_alpha.values()):
            rec.value(**{f"closed form n={n} theta={theta_text(t1, t2)}": closed_forms(n, t1, t2, by_alpha, ctx)})
    rec.note(
        "closed forms (values 'closed form n=.. theta=..'): at each alpha of the grid the optimal vertex LP's basis "
        "is solved with A a symbol; 'proved' is the rational interval of A on which that basis stays primal and "
        "dual feasible (exact root isolation of the sign conditions), so on it the consumer w(A) has ratio r(A) "
        "exactly and the worst ratio is >= r(A) (a proof, every A in it); 'equals_exact_at' lists the grid alphas "
        "where r(A) is the exact worst ratio decided above (that no other legal vertex does better between them is "
        "sampled in A, not proved), 'differs_at' those where another basis gives a larger ratio (the piece is then a "
        "lower bound only; a piece above the exact ratio would be a harness error)"
    )
    rec.note(
        "exact maximum of the ratio over all consumers (a finite LP family over the legal polytope's vertices, each "
        "LP certified; vertices whose error profile dominates another's, and derivable rows implied by another, are "
        "dropped exactly); thresholds (theta1 = 0, theta2 = n or inf) give ratio 1 (Theorem 7); the worst ratio at "
        "each alpha (values) stays below 2 but grows with alpha and n: the constant 2 is approached, not attained"
    )
    return rec


# ---------------------------------------------------------------- Theorem 4: the worst ratio as a function of alpha
#
# At a rational A0 the worst ratio is 1/v with v the optimum of one vertex LP: min {w.e(u) : w.e(g) >= 1 for every
# derivable vertex g, w >= 0} at the minimising legal vertex u.  That u and that LP's optimal basis are solved again
# with A a symbol (zlcn's alpha > 1; internal a = 1/A, the conversion checked against udpm.core.conventions at A0): the
# vertex from n+1 of its tight rows, w and the dual y from the basis, all exact rational functions of A.  Where the
# sign conditions hold (u legal, w >= 0, every derivable row w.e(g) >= 1, y >= 0, reduced costs >= 0), the basis
# stays optimal, so the vertex LP's value is v(A) and the consumer w(A) has ratio >= 1/v(A): a proved lower bound on
# the worst ratio over that interval.  That no other vertex does better there is decided at rational points only.


KA = sp.QQ.frac_field(AS)  # exact rational functions of A (sympy's polynomial field: no expression trees)


def _k(v) -> object:
    return KA.convert(sp.Rational(v.numerator, v.denominator)) if isinstance(v, Fraction | int) else v


def symbolic_geometric(n: int) -> list[list[object]]:
    """zlcn2013's range-restricted geometric mechanism (6) with A a symbol (internal a = 1/A), over KA."""
    a = KA.one / KA.from_sympy(AS)
    return [
        [(KA.one if j in (0, n) else KA.one - a) / (KA.one + a) * a ** abs(i - j) for j in range(n + 1)]
        for i in range(n + 1)
    ]


def _solve_k(mat: list[list[object]], rhs: list[object]) -> list[object]:
    m = DomainMatrix([[_k(v) for v in r] for r in mat], (len(mat), len(mat)), KA)
    b = DomainMatrix([[_k(v)] for v in rhs], (len(rhs), 1), KA)
    return [r[0] for r in m.lu_solve(b).to_list()]


def _symbolic_vertex(n: int, u0, A0: Fraction) -> list[object]:
    """The legal vertex u0 (at A0) as exact functions of A: n+1 independent rows tight at u0, solved in A."""
    a0 = internal(A0)
    a = KA.one / KA.from_sympy(AS)
    if _at(a, A0) != a0:
        raise AssertionError("the symbolic internal alpha differs from udpm.core.conventions at A0")
    rows0 = definition2_rows(n, a0) + [Constraint(((m, F(1)),), ">=", F(0), "") for m in range(n + 1)]
    chosen: list[int] = []
    for k, r in enumerate(rows0):
        if sum(c * u0[i] for i, c in r.coeffs) != r.rhs:
            continue
        trial = [*chosen, k]
        m = flint.fmpq_mat([[_fq(F(_coef(rows0[j], i))) for i in range(n + 1)] for j in trial])
        if m.rank() == len(trial):
            chosen = trial
        if len(chosen) == n + 1:
            break
    mat = [[_coef_k(rows0[j], i, a0, a) for i in range(n + 1)] for j in chosen]
    rhs = [KA.zero if rows0[j].rhs == 0 else (KA.one if rows0[j].rhs == 1 else KA.one - a) for j in chosen]
    for j in chosen:
        if rows0[j].rhs not in (0, 1, 1 - a0):
            raise AssertionError(f"unexpected right-hand side {rows0[j].rhs}")
    return _solve_k(mat, rhs)


def _coef(row: Constraint, i: int):
    return next((c for j, c in row.coeffs if j == i), 0)


def _coef_k(row: Constraint, i: int, a0: Fraction, a):
    """A Definition 2 coefficient (0, 1 or -a at A0) as a function of A."""
    c = _coef(row, i)
    if c == -a0:
        return -a
    if c in (0, 1):
        return _k(F(c))
    raise AssertionError(f"unexpected coefficient {c}")


def _at(e, A: Fraction) -> Fraction:
    """An element of KA at a rational A, exactly (Horner in Fractions)."""

    def ev(p) -> Fraction:
        out = F(0)
        for c in sp.Poly(p.as_expr(), AS).all_coeffs():
            out = out * A + F(int(c.p), int(c.q))
        return out

    e = _k(e)
    den = ev(e.denom)
    if den == 0:
        raise ZeroDivisionError(f"{KA.to_sympy(e)} has a pole at A = {A}")
    return ev(e.numer) / den


def parametric_ratio(n: int, t1: int, t2: int | None, A0: Fraction, ctx: Context, solved=None) -> dict:
    """The optimal vertex LP at A0 solved in A: {'r': 1/v(A) (sympy), 'conditions': [(name, f in KA)], 'A0',
    'ratio0'}; every f(A) >= 0 keeps the basis optimal (see above).  Checked against the exact ratio at A0.
    ``solved``: worst_ratio's answer at A0 when the caller has it."""
    r0, _, u0, cert = solved or worst_ratio(n, A0, t1, t2, ctx)
    u = _symbolic_vertex(n, u0, A0)
    if [_at(v, A0) for v in u] != list(u0):
        raise AssertionError(f"the symbolic vertex is not {fmt(u0)} at A0")
    m = symbolic_geometric(n)
    m0 = truncated_geometric_zlcn2013(n, A0)
    if [[_at(v, A0) for v in r] for r in m] != m0:
        raise AssertionError("the symbolic geometric mechanism differs from udpm.core.mechanisms at A0")
    ts = list(itertools.product((0, 1), repeat=n + 1))
    gs = {
        t: error_profile([sum((m[i][j] for j in range(n + 1) if t[j]), KA.zero) for i in range(n + 1)], t1, t2)
        for t in ts
    }
    eu = error_profile(u, t1, t2)
    nx = n + 1
    basic = sorted(j for j in cert.basis if j < nx)
    tight = sorted(set(range(len(cert.lp.rows))) - {j - nx for j in cert.basis if j >= nx})
    # each row of the (pruned) LP is the error profile of a derivable vertex M t at A0: take that t
    g0 = {tuple(error_profile(linalg.matvec(m0, list(map(F, t))), t1, t2)): t for t in ts}
    rows_t = [g0[tuple(dict(r.coeffs).get(i, F(0)) for i in range(nx))] for r in cert.lp.rows]
    B = [[gs[rows_t[k]][j] for j in basic] for k in tight]
    w = [KA.zero] * nx
    for j, v in zip(basic, _solve_k(B, [KA.one] * len(tight))):
        w[j] = v
    y = _solve_k([list(col) for col in zip(*B)], [eu[j] for j in basic])
    value = sum((eu[j] * w[j] for j in range(nx)), KA.zero)
    if value != sum(y, KA.zero):
        raise AssertionError("primal and dual objectives of the symbolic basis differ")
    if _at(value, A0) != 1 / r0:
        raise AssertionError(f"the symbolic value is not 1/{r0} at A0")
    a = KA.one / KA.from_sympy(AS)
    a0 = internal(A0)
    conds = []
    for r in definition2_rows(n, a0):
        act = sum((_coef_k(r, i, a0, a) * u[i] for i in range(nx)), KA.zero)
        rhs = KA.zero if r.rhs == 0 else (KA.one if r.rhs == 1 else KA.one - a)
        conds.append((f"u legal: {r.name}", act - rhs if r.sense == ">=" else rhs - act))
    conds += [(f"u({i}) >= 0", v) for i, v in enumerate(u)]
    conds += [(f"w({j}) >= 0", w[j]) for j in basic]
    conds += [
        (f"derivable row t={''.join(map(str, t))}", sum((g[j] * w[j] for j in range(nx)), -KA.one))
        for t, g in gs.items()
    ]
    conds += [(f"dual y(row t={''.join(map(str, rows_t[k]))}) >= 0", v) for k, v in zip(tight, y)]
    for j in range(nx):
        if j not in basic:
            priced = sum((yk * gs[rows_t[k]][j] for k, yk in zip(tight, y)), KA.zero)
            conds.append((f"reduced cost of w({j})", eu[j] - priced))
    return {"r": sp.factor(KA.to_sympy(KA.one / value)), "conditions": conds, "A0": A0, "ratio0": r0, "u": u, "w": w}


def _polys(e) -> list[sp.Poly]:
    e = _k(e)
    return [q for q in (sp.Poly(e.numer.as_expr(), AS), sp.Poly(e.denom.as_expr(), AS)) if q.degree() > 0]


EPS_ROOT = F(1, 10**6)


def _without_root_at(p: sp.Poly, a0: sp.Rational) -> sp.Poly:
    while p.eval(a0) == 0:
        p = sp.Poly(sp.quo(p.as_expr(), AS - a0), AS)
    return p


def stable_interval(conditions, A0: Fraction) -> tuple[Fraction, Fraction | None, str]:
    """Rational [L, U] (U None: unbounded) around A0 on which every condition f(A) >= 0, proved: no numerator or
    denominator has a root in [L, A0) or (A0, U] (exact root isolation of their irreducible factors, then Sturm
    counts), so each f keeps one sign on each side, and every f is >= 0 at A0 and at one rational point of each
    side (a side where some f is negative is dropped: L or U = A0).  L, U lie within EPS_ROOT of the nearest root
    (or L = 1); the third item names those roots (irreducible polynomial and isolating interval)."""
    a0 = sp.Rational(A0.numerator, A0.denominator)
    eps = sp.Rational(EPS_ROOT.numerator, EPS_ROOT.denominator)
    factors = {q for _, f in conditions for p in _polys(f) for q, _ in p.factor_list()[1] if q.degree() > 0}
    factors = {q for q in factors if q.eval(a0) != 0}  # a root at A0 itself: decided by the side probes
    polys = sorted(factors, key=lambda q: str(q.as_expr()))
    above: list = []
    below: list = []
    for q in polys:
        for (lo, hi), _ in q.intervals(eps=eps):
            if hi > a0:
                above.append((lo, hi, q))
            if lo < a0 and hi > 1:
                below.append((lo, hi, q))
    up = min(above, key=lambda r: r[0]) if above else None
    down = max(below, key=lambda r: r[1]) if below else None
    U = None if up is None else (up[0] if up[0] > a0 else a0)  # a root within EPS_ROOT of A0: that side is A0
    L = sp.Integer(1) if down is None or down[1] <= 1 else (down[1] if down[1] < a0 else a0)
    while U is not None and U > a0 and any(q.count_roots(a0, U) for q in polys):
        U = (a0 + U) / 2  # an isolating interval's end that is itself a root
    while 1 < L < a0 and any(q.count_roots(L, a0) for q in polys):
        L = (L + a0) / 2
    right = (a0 + U) / 2 if U is not None else a0 + 1
    for x in [a0] + ([right] if U is None or U > a0 else []) + ([(L + a0) / 2] if L < a0 else []):
        bad = [name for name, f in conditions if _at(f, F(int(x.p), int(x.q))) < 0]
        if bad and x == a0:
            raise AssertionError(f"condition {bad[0]} is negative at A0 = {a0}: the basis is not optimal there")
        if bad and x > a0:
            U, up = a0, None
        elif bad:
            L, down = a0, None
    ends = []
    for side, r in (("left", down), ("right", up)):
        if r is not None and (side == "right" or L > 1):
            ends.append(f"{side} end near the root of {r[2].as_expr()} in [{r[0]}, {r[1]}]")
    return F(int(L.p), int(L.q)), (None if U is None else F(int(U.p), int(U.q))), "; ".join(ends)


def interval_text(L: Fraction, U: Fraction | None) -> str:
    return ("(1" if L == 1 else f"[{L}") + ", " + ("inf)" if U is None else f"{U}]")


def refute_closed_form(n, t1, t2, r_expr, conditions, L, U, ctx, points=()) -> str | None:
    """A concrete rational A in [L, U] (U None: A0-based probes) where a basis condition is negative or the exact
    worst ratio differs from r_expr(A); None if there is none at the probes (L, U, midpoint and ``points``)."""
    probes = [L if L > 1 else None, U, (L + U) / 2 if U is not None else L + 1, *points]
    for A in sorted({p for p in probes if p is not None}):
        for name, f in conditions:
            v = _at(f, A)
            if v < 0:
                return f"at zlcn alpha A = {A}: {name} = {v} < 0 (the basis is not optimal there)"
        exact = worst_ratio(n, A, t1, t2, ctx)[0]
        claimed = _at(KA.from_sympy(r_expr), A)
        if exact != claimed:
            return f"at zlcn alpha A = {A}: the exact worst ratio is {exact}, the closed form gives {claimed}"
    return None
