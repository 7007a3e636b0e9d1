"""zlcn2013 Theorem 1, Section 3.1 (the two-variable form) and Theorems 5, 6, over ALL consumers.

Each claim says that, for every consumer (omega >= 0, rho a distribution) of a count-range or threshold
query, some optimal legal function lies in a set S of functions of a stated form:

* Theorem 1: S = {min{psi1(beta1), psi2(beta2)} : (5) holds at theta1, theta2};
* Section 3.1: S = {min{psi1(beta1), psi2(beta2)}} (beta1, beta2 in [0, 1]) and min over S = the LP optimum;
* Theorems 5, 6: S = {psi1(beta)} for <p, theta, +inf> and {psi2(beta)} for <p, 0, theta>.

The consumer enters only through the weights w = omega * rho, which range over the whole orthant
w >= 0 (w = 0 included), and err_w is linear in phi.  For fixed (n, alpha, theta) this is a finite
question (the all-consumers criterion):

    the claim holds for every w >= 0  <=>  every vertex v of the legal polytope L whose normal cone meets
    the open orthant {w > 0} in a full-dimensional set (v is the unique optimum of some consumer with
    every w_i > 0) lies in S.

(=>) for w inside that cone v is the only optimal legal function, so it must be in S.  (<=) the closed
normal cones of the full-dimensional vertices cover the orthant (the others are lower-dimensional, and a
finite union of closed cones that misses a relatively open part of a full-dimensional cone cannot be
covered by lower-dimensional ones); a w in the closed cone of a vertex v in S has v among its optima.
For Section 3.1 the minimum over S equals the LP optimum only if S lies inside L; that is decided too
(z3 unsat: no (beta1, beta2) gives an illegal min{psi1, psi2}).

Per (n, alpha, theta), every vertex of L (proofs.approximation_ratio.legal_vertices, the enumeration zlcn2013.thm4
uses) gets one certified LP (udpm.certify): maximise t subject to w_i >= t, err_w(u) - err_w(v) >= t for every
other vertex u, sum w = 1.  t* > 0 (full-dimensional) -> v must lie in S, decided by z3 (Theorem 1, Section
3.1: a sat model is re-checked exactly with the Fraction recurrences; unsat is double-checked by cvc5 and then
re-checked by the exact two-variable minimum) or exactly (Theorems 5, 6: beta = v(0) is forced).  A full-
dimensional v outside S is a counterexample consumer: rho = the LP's w (every entry > 0), omega = 1, whose
certified unique LP optimum is v while the best function of the form is worse.

The sampled run (random consumers, certified LP against the exact (beta1, beta2) arrangement minimum) stays
as a cross-check (sampled instances beside the bounded ones in the grid).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import z3

from proofs.approximation_ratio import legal_vertices
from proofs.countrange_alpha import zlcn_label
from proofs.countrange_derivation import premises_hold
from proofs.countrange_lp import (
    ALPHAS_Z,
    _z3_legal,
    consumer_text,
    digest,
    fmt,
    lp_optimum,
    random_consumer,
    theta_pairs,
    theta_text,
)
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import Context, Findings, checks
from udpm.instances import BOUNDED, SAMPLED
from udpm.programs import Constraint, LinearProgram
from udpm.programs_countrange import psi1, psi1_breakpoints, psi2, psi2_breakpoints
from udpm.smt import decide
from udpm.users import CountRangeConsumer, is_legal_function

F = Fraction


# ---------------------------------------------------------------- the (beta1, beta2) family, exactly


def _pieces(breaks: list[Fraction], f, n: int):
    """For each interval [b_k, b_k+1]: per mu the affine form (p, q) with f(beta)[mu] = p + q beta."""
    out = []
    for lo, hi in zip(breaks, breaks[1:]):
        vlo, vhi = f(lo), f(hi)
        out.append([(vlo[m] - (vhi[m] - vlo[m]) / (hi - lo) * lo, (vhi[m] - vlo[m]) / (hi - lo)) for m in range(n + 1)])
    return out


@functools.cache
def arrangement_points(n: int, A: Fraction) -> list[tuple[Fraction, Fraction]]:
    """All vertices in [0,1]^2 of the arrangement: beta1 = breakpoint, beta2 = breakpoint, psi1(mu) = psi2(mu).
    err(min{psi1, psi2}) is linear on each cell, so its minimum over a closed union of cells is at one of them."""
    b1, b2 = psi1_breakpoints(n, A), psi2_breakpoints(n, A)
    lines = {(F(1), F(0), b) for b in b1} | {(F(0), F(1), b) for b in b2}  # u beta1 + v beta2 = w
    p1 = _pieces(b1, lambda b: psi1(b, n, A), n)
    p2 = _pieces(b2, lambda b: psi2(b, n, A), n)
    for k1, k2 in itertools.product(range(len(p1)), range(len(p2))):
        for m in range(n + 1):
            (c1, s1), (c2, s2) = p1[k1][m], p2[k2][m]
            if s1 or s2:
                g = s1 if s1 else -s2
                lines.add((s1 / g, -s2 / g, (c2 - c1) / g))
    lines_l = sorted(lines)
    pts = set()
    for (u1, v1, w1), (u2, v2, w2) in itertools.combinations(lines_l, 2):
        det = u1 * v2 - u2 * v1
        if det:
            x, y = (w1 * v2 - w2 * v1) / det, (u1 * w2 - u2 * w1) / det
            if 0 <= x <= 1 and 0 <= y <= 1:
                pts.add((x, y))
    return sorted(pts)


@functools.cache
def _psi_at_points(n: int, A: Fraction):
    """(beta1, beta2, psi1, psi2) at every vertex of the arrangement."""
    return tuple((b1, b2, psi1(b1, n, A), psi2(b2, n, A)) for b1, b2 in arrangement_points(n, A))


def condition5(s1, s2, t1: int, t2: int, flip5: bool = False) -> bool:
    """zlcn2013 (5): psi1(theta1) <= psi2(theta1) and psi1(theta2) >= psi2(theta2) (``flip5``: both reversed)."""
    if flip5:
        return s1[t1] >= s2[t1] and s1[t2] <= s2[t2]
    return s1[t1] <= s2[t1] and s1[t2] >= s2[t2]


def two_variable_minimum(
    c: CountRangeConsumer,
    A: Fraction,
    with5: bool,
    pts=None,
    flip5: bool = False,
    use_psi2: bool = True,
    legal_at: Fraction | None = None,
):
    """min over (beta1, beta2) of err(min{psi1, psi2}) (optionally subject to (5)), with its argmin, or None when
    no (beta1, beta2) is admissible.  ``A`` is the alpha of the recurrences.  ``flip5`` reverses both
    inequalities of (5) and ``use_psi2=False`` drops psi2 (false variants).  ``legal_at``: skip the functions
    that are not legal at that alpha (only the false variant with a larger alpha has any)."""
    n = c.n
    best = None
    t2 = n if c.theta2 is None else c.theta2
    pairs = _psi_at_points(n, A) if pts is None else ((b1, b2, psi1(b1, n, A), psi2(b2, n, A)) for b1, b2 in pts)
    for b1, b2, s1, s2 in pairs:
        if with5 and not condition5(s1, s2, c.theta1, t2, flip5):
            continue
        phi = [min(u, v) for u, v in zip(s1, s2)] if use_psi2 else s1
        if legal_at is not None and not is_legal_function(phi, legal_at):
            continue
        e = c.weighted_error(phi)
        if best is None or e < best[0]:
            best = (e, b1, b2, phi)
    return best


def one_variable_minimum(c: CountRangeConsumer, A: Fraction, rec, legal_at: Fraction | None = None):
    """min over beta of err(rec(beta)): piecewise linear in beta, so attained at a breakpoint or an end.
    ``legal_at``: only the functions legal at that alpha (None when there is none at a breakpoint)."""
    breaks = psi1_breakpoints(c.n, A) if rec is psi1 else psi2_breakpoints(c.n, A)
    cands = [(c.weighted_error(rec(b, c.n, A)), b) for b in breaks]
    if legal_at is not None:
        cands = [(e, b) for e, b in cands if is_legal_function(rec(b, c.n, A), legal_at)]
    return min(cands) if cands else (None, None)


# ---------------------------------------------------------------- the all-consumers criterion


def error_signs(n: int, t1: int, t2: int | None) -> tuple[int, ...]:
    """err_w(phi) = const + sum_i w_i s_i phi(i): s_i = -1 inside [theta1, theta2], +1 outside."""
    return tuple(-1 if (t1 <= i and (t2 is None or i <= t2)) else 1 for i in range(n + 1))


@functools.cache
def cone_interior(n: int, A: Fraction, signs: tuple[int, ...], k: int, timeout_s: float):
    """For the k-th vertex v of the legal polytope: the certified LP max t s.t. w_i >= t, err_w(u) - err_w(v) >= t
    for every other vertex u, sum w = 1 (written with T = t + 1 >= 0, feasible at w uniform, T = 0; bounded by
    sum w = 1).  Returns (t*, w, certificate): t* > 0 iff v is the unique optimum of a consumer with w > 0."""
    verts = legal_vertices(n, A)
    v = verts[k]
    T = n + 1
    rows = [Constraint(((i, F(1)), (T, F(-1))), ">=", F(-1), f"w[{i}] >= t") for i in range(n + 1)]
    for j, u in enumerate(verts):
        if j == k:
            continue
        co = tuple((i, s * (u[i] - v[i])) for i, s in enumerate(signs) if u[i] != v[i])
        rows.append(Constraint((*co, (T, F(-1))), ">=", F(-1), f"err_w(u{j}) - err_w(v) >= t"))
    rows.append(Constraint(tuple((i, F(1)) for i in range(n + 1)), "=", F(1), "sum w = 1"))
    lp = LinearProgram(
        (*(f"w[{i}]" for i in range(n + 1)), "T"), ((T, F(-1)),), tuple(rows), "zlcn2013 normal cone of a vertex"
    )
    cert = solve(lp, timeout_s=timeout_s, decide_unique=False)
    return -cert.objective - 1, tuple(cert.x[: n + 1]), cert


def dominated(verts, k: int, signs: tuple[int, ...]) -> bool:
    """Some other vertex u is at least as good as v = verts[k] for every consumer: s_i (u_i - v_i) <= 0 for every
    i (exact), so v is never the unique optimum and needs no LP."""
    v = verts[k]
    return any(j != k and all(s * (a - b) <= 0 for s, a, b in zip(signs, u, v)) for j, u in enumerate(verts))


@functools.cache
def full_vertices(n: int, A: Fraction, signs: tuple[int, ...], timeout_s: float):
    """[(v, w)] for the vertices that are the unique optimum of some consumer with every w_i > 0, and the counts
    (vertices, dominated ones, normal-cone LPs).  A vertex dominated by another (exact, :func:`dominated`) is
    never a unique optimum; every other one gets its certified normal-cone LP (:func:`cone_interior`)."""
    verts = legal_vertices(n, A)
    out, n_dom, n_lp = [], 0, 0
    for k, v in enumerate(verts):
        if dominated(verts, k, signs):
            n_dom += 1
            continue
        n_lp += 1
        t, w, _ = cone_interior(n, A, signs, k, timeout_s)
        if t > 0:
            out.append((v, w))
    return tuple(out), (len(verts), n_dom, n_lp)


def _z3_forms(n: int, A: Fraction, tag: str = ""):
    """beta1, beta2 and z3 reals for psi1(mu), psi2(mu) (A the recurrences' alpha), with their defining rows."""
    a = z3.RealVal(str(A))
    b1, b2 = z3.Real(f"beta1{tag}"), z3.Real(f"beta2{tag}")
    p1 = [b1] + [z3.Real(f"psi1_{m}{tag}") for m in range(1, n + 1)]
    p2 = [b2] + [z3.Real(f"psi2_{m}{tag}") for m in range(1, n + 1)]
    rows = [b1 >= 0, b1 <= 1, b2 >= 0, b2 <= 1]
    for m in range(n):
        x, y = a * p1[m], (a - 1 + p1[m]) / a
        rows.append(p1[m + 1] == z3.If(x <= y, x, y))
        x, y = p2[m] / a, 1 - a + a * p2[m]
        rows.append(p2[m + 1] == z3.If(x >= y, x, y))
    return b1, b2, p1, p2, rows


def _z3_min(x, y):
    return z3.If(x <= y, x, y)


def _z3_domain(n: int, A: Fraction, t1: int, t2: int, with5: bool, flip5: bool):
    b1, b2, p1, p2, rows = _z3_forms(n, A)
    if with5:
        c5 = [p1[t1] <= p2[t1], p1[t2] >= p2[t2]]
        if flip5:
            c5 = [p1[t1] >= p2[t1], p1[t2] <= p2[t2]]
        rows += c5
    return b1, b2, p1, p2, rows


def _pins(domain) -> list:
    """The canonical point beta1 = beta2 = 0 (psi1 = psi2 = 0, so (5) holds with equality), tried first so that
    the recorded premise witness does not depend on z3's search."""
    b1, b2 = (z3.Real("beta1"), z3.Real("beta2"))
    return [b1 == 0, b2 == 0]


def _frac(model, v) -> Fraction:
    return F(str(model.eval(v, model_completion=True).as_fraction()))


@functools.cache
def _form_index(n: int, A: Fraction, t1: int, t2: int, with5: bool, flip5: bool, use_psi2: bool) -> dict:
    """phi -> (beta1, beta2) over the vertices of the (beta1, beta2) arrangement (admissible ones only)."""
    out: dict = {}
    for b1, b2, s1, s2 in _psi_at_points(n, A):
        if with5 and not condition5(s1, s2, t1, t2, flip5):
            continue
        phi = tuple(min(p, q) for p, q in zip(s1, s2)) if use_psi2 else tuple(s1)
        out.setdefault(phi, (b1, b2))
    return out


def member_two(v, n: int, A: Fraction, t1: int, t2: int, with5: bool, flip5: bool, use_psi2: bool, timeout_s):
    """Is v = min{psi1(beta1), psi2(beta2)} (psi1(beta1) alone when not ``use_psi2``) for some beta in [0,1]^2
    (with (5) when ``with5``)?  First an exact witness among the arrangement's vertices (a legal vertex of the
    polytope that is of the form is the image of a vertex of some cell, since the image of a cell is a polytope
    inside L); else z3 decides, and a sat model is re-checked exactly.  Returns (beta1, beta2) or None, and the
    z3 outcome (None when the exact witness sufficed)."""
    hit = _form_index(n, A, t1, t2, with5, flip5, use_psi2).get(tuple(v))
    if hit is not None:
        return hit, None
    b1, b2, p1, p2, rows = _z3_domain(n, A, t1, t2, with5, flip5)
    eq = [(_z3_min(p1[m], p2[m]) if use_psi2 else p1[m]) == z3.RealVal(str(v[m])) for m in range(n + 1)]
    out = decide([*rows, *eq], timeout_s)
    if out.unsat:
        return None, out
    x1, x2 = _frac(out.model, b1), _frac(out.model, b2)
    s1, s2 = psi1(x1, n, A), psi2(x2, n, A)
    phi = [min(p, q) for p, q in zip(s1, s2)] if use_psi2 else s1
    if phi != list(v) or (with5 and not condition5(s1, s2, t1, t2, flip5)):
        raise AssertionError(f"z3 model beta=({x1}, {x2}) does not re-check exactly for {fmt(v)}")
    return (x1, x2), out


def forms_are_legal(n: int, A_form: Fraction, A: Fraction, timeout_s: float):
    """z3: no (beta1, beta2) in [0,1]^2 makes min{psi1, psi2} (alpha A_form) violate Definition 2 at A.
    Returns (None, outcome) when unsat, else an illegal (beta1, beta2, phi) re-checked exactly."""
    b1, b2, p1, p2, rows = _z3_forms(n, A_form)
    phi = [_z3_min(x, y) for x, y in zip(p1, p2)]
    out = decide([*rows, z3.Not(z3.And(_z3_legal(phi, z3.RealVal(str(A)))))], timeout_s)
    if out.unsat:
        return None, out
    x1, x2 = _frac(out.model, b1), _frac(out.model, b2)
    val = [min(p, q) for p, q in zip(psi1(x1, n, A_form), psi2(x2, n, A_form))]
    if is_legal_function(val, A):
        raise AssertionError(f"z3 model beta=({x1}, {x2}) gives a legal function on exact re-check")
    return (x1, x2, val), out


def counterexample_consumer(v, w, t1: int, t2: int | None, A: Fraction, ctx: Context):
    """omega = 1, rho = w (every entry > 0): its certified LP optimum is v, and v only."""
    n = len(v) - 1
    c = CountRangeConsumer.of([1] * (n + 1), list(w), t1, t2)
    _, cert, opt = lp_optimum(c, A, ctx)
    if tuple(cert.x) != tuple(v) or not cert.unique:
        raise AssertionError(f"{consumer_text(c)}: expected the unique optimum {fmt(v)}, got {fmt(cert.x)}")
    return c, cert, opt


def _bounded(rec: Findings, n: int, A: Fraction, t1: int, t2: int | None, method: str, covers: str):
    return rec.deciding(
        n=n, alpha=zlcn_label(A), kind=BOUNDED, method=method, covers=covers, theta=theta_text(t1, t2)
    )


COVERS = "every consumer (omega >= 0, rho a distribution) of this query"
CONE_METHOD = "exact dominance or certified normal-cone LP per legal-polytope vertex"


def all_consumers_two(
    rec: Findings,
    ctx: Context,
    n: int,
    A: Fraction,
    t1: int,
    t2: int | None,
    *,
    with5: bool,
    flip5: bool = False,
    use_psi2: bool = True,
    A_form: Fraction | None = None,
    stats: dict,
):
    """One bounded instance of Theorem 1 (``with5``) or Section 3.1: every full-dimensional vertex is of the form."""
    Af = A if A_form is None else A_form
    tt2 = n if t2 is None else t2
    method = f"{CONE_METHOD} + z3 membership in the (beta1, beta2) form"
    with _bounded(rec, n, A, t1, t2, method, COVERS) as d:
        _, _, _, _, dom = _z3_domain(n, Af, t1, tt2, with5, flip5)
        pins = _pins(dom)
        stats["witnesses"].add(premises_hold(dom, pins, ctx.solver_timeout, f"{rec.claim}: (beta1, beta2) domain"))
        full, counts = full_vertices(n, A, error_signs(n, t1, t2), ctx.solver_timeout)
        _count(stats, full, counts)
        for v, w in full:
            beta, out = member_two(v, n, Af, t1, tt2, with5, flip5, use_psi2, ctx.solver_timeout)
            if beta is not None:
                continue
            c, cert, opt = counterexample_consumer(v, w, t1, t2, A, ctx)
            best = two_variable_minimum(c, Af, with5, None, flip5, use_psi2, legal_at=A)
            if best is not None and best[0] <= opt:  # a legal function of the form reaching opt would be v
                raise AssertionError(f"{consumer_text(c)}: z3 says {fmt(v)} is not of the form, yet err {best[0]}")
            got = "none is legal" if best is None else f"{best[0]} at beta=({best[1]}, {best[2]})"
            form = "min{psi1,psi2}" if use_psi2 else "psi1"
            d.counterexample(
                f"{consumer_text(c)}: the certified unique optimal legal function is {fmt(v)} (err {opt}); it is "
                f"not {form}{' with (5)' if with5 else ''} (z3 unsat, {'+'.join(out.solvers)}); the best legal "
                f"function of the form at the vertices of the (beta1, beta2) arrangement has err {got}"
            )
            stats.setdefault("certs", []).append((f"counterexample n={n} {zlcn_label(A)}", cert))
            break


def all_consumers_threshold(rec: Findings, ctx: Context, n, A, t1, t2, recurrence, A_form, stats):
    """One bounded instance of Theorem 5 / 6: every full-dimensional vertex v equals recurrence(v(0))."""
    Af = A if A_form is None else A_form
    name = "(2)" if recurrence is psi1 else "(3)"
    with _bounded(rec, n, A, t1, t2, f"{CONE_METHOD} + exact recurrence {name} from v(0)", COVERS) as d:
        full, counts = full_vertices(n, A, error_signs(n, t1, t2), ctx.solver_timeout)
        _count(stats, full, counts)
        for v, w in full:
            if recurrence(v[0], n, Af) == list(v):
                continue
            c, cert, opt = counterexample_consumer(v, w, t1, t2, A, ctx)
            e, beta = one_variable_minimum(c, Af, recurrence, legal_at=A)
            if e is not None and e <= opt:  # a legal function of the form reaching opt would be v
                raise AssertionError(f"{consumer_text(c)}: {fmt(v)} is not {name}, yet err {e} is reached")
            d.counterexample(
                f"{consumer_text(c)}: the certified unique optimal legal function is {fmt(v)} (err {opt}); it does "
                f"not satisfy {name} (the only candidate, beta = {v[0]}, gives {fmt(recurrence(v[0], n, Af))}); the "
                f"best legal function of {name} at the breakpoints has err "
                f"{'(none is legal)' if e is None else f'{e} at beta={beta}'}"
            )
            stats.setdefault("certs", []).append((f"counterexample n={n} {zlcn_label(A)}", cert))
            break


def _stats() -> dict:
    return {"witnesses": set(), "vertices": 0, "dominated": 0, "lps": 0, "full": 0}


def _count(stats: dict, full, counts) -> None:
    for key, c in zip(("vertices", "dominated", "lps"), counts):
        stats[key] += c
    stats["full"] += len(full)


def _record_stats(rec: Findings, stats: dict) -> None:
    rec.value(
        vertex_instances=stats["vertices"],
        dominated_vertex_instances=stats["dominated"],
        normal_cone_lps=stats["lps"],
        full_dimensional_vertex_instances=stats["full"],
    )
    if stats["witnesses"]:
        rec.value(premise_witnesses="; ".join(sorted(stats["witnesses"])))
    if stats.get("certs"):
        rec.certificate = certificate_of({}, stats["certs"][:1])


def bounded_grid(ctx: Context) -> int:
    """n_max of the all-consumers instances: 3 in the quick run, 5 in --full."""
    return 3 if ctx.quick else 5


#: --full: beyond the per-theta sample, BEYOND_PER_N random consumers (random theta, two alphas per n) for each
#: n up to BEYOND_N (the two-variable arrangement grows fast: about 8 s per (n, alpha) at n = 10).
BEYOND_N, BEYOND_PER_N = 10, 4


# ---------------------------------------------------------------- the sampled cross-check


def _consumers(ctx: Context, claim: str, n_max: int, per_theta: int):
    """(n, zlcn alpha, consumer): the uniform consumer at alpha = 2 and random ones, each drawn once; in --full
    also BEYOND_PER_N random ones per n in n_max+1..BEYOND_N (drawn after the others, so those stay as they were)."""
    rng = ctx.rng(claim)
    out, seen = [], set()
    cands = []
    for n in range(1, n_max + 1):
        for t1, t2 in theta_pairs(n):
            cands.append((n, ALPHAS_Z[2], CountRangeConsumer.of([1] * (n + 1), [F(1, n + 1)] * (n + 1), t1, t2)))
            for _ in range(per_theta):
                cands.append((n, rng.choice(ALPHAS_Z), random_consumer(rng, n, t1, t2)))
    for n in range(n_max + 1, 1 + (0 if ctx.quick else BEYOND_N)):
        thetas = theta_pairs(n)
        for k in range(BEYOND_PER_N):
            t1, t2 = thetas[rng.randrange(len(thetas))]
            cands.append((n, ALPHAS_Z[(n + 2 * (k % 2)) % len(ALPHAS_Z)], random_consumer(rng, n, t1, t2)))
    for m, A, c in cands:
        key = (m, A, consumer_text(c))
        if key not in seen:
            seen.add(key)
            out.append((m, A, c))
    return out


def _sampled(rec: Findings, n: int, A: Fraction, c: CountRangeConsumer, method: str, covers: str):
    return rec.deciding(
        n=n,
        alpha=zlcn_label(A),
        kind=SAMPLED,
        method=method,
        covers=covers,
        consumer=digest(consumer_text(c)),
        theta=theta_text(c.theta1, c.theta2),
    )


def _form_alpha(A: Fraction, form_alpha) -> Fraction | None:
    return None if form_alpha is None else Fraction(form_alpha(A))


# ---------------------------------------------------------------- claims


@checks("zlcn2013.thm1")
def min_of_recurrences(ctx: Context, flip5: bool = False, form_alpha=None) -> Findings:
    """zlcn2013 Theorem 1: some optimal legal function is min{psi1, psi2} with psi1, psi2 satisfying (2), (3)
    and the crossing condition (5) at theta1, theta2.  Bounded over all consumers at n <= 3 (quick), n <= 5
    (--full), every zlcn alpha of ALPHAS_Z and every theta; sampled consumers as a cross-check.
    False variants: ``flip5`` reverses (5); ``form_alpha`` maps alpha to the recurrences' (wrong) alpha."""
    rec = Findings("zlcn2013.thm1")
    stats = _stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            for t1, t2 in theta_pairs(n):
                all_consumers_two(
                    rec, ctx, n, A, t1, t2, with5=True, flip5=flip5, A_form=_form_alpha(A, form_alpha), stats=stats
                )
    _record_stats(rec, stats)
    n_max, per = (3, 2) if ctx.quick else (4, 6)
    cases = _consumers(ctx, "zlcn2013.thm1", n_max, per)
    for n, A, c in cases:
        Af = _form_alpha(A, form_alpha) or A
        with _sampled(rec, n, A, c, "certified LP + exact (beta1, beta2) arrangement", "one consumer") as d:
            _, _, opt = lp_optimum(c, A, ctx)
            best = two_variable_minimum(c, Af, True, flip5=flip5)
            if best is None or best[0] != opt:
                got = "no admissible (beta1, beta2)" if best is None else f"{best[0]} at beta=({best[1]}, {best[2]})"
                d.counterexample(f"{consumer_text(c)}: LP optimum {opt}, best min{{psi1,psi2}} with (5): {got}")
    n, A = 3, ALPHAS_Z[2]
    c = CountRangeConsumer.of([1] * 4, [F(1, 4)] * 4, 1, 2)
    e, b1, b2, phi = two_variable_minimum(c, A, True)
    rec.value(consumers=len(cases), example_error=e, example_beta1=b1, example_beta2=b2, example_phi=fmt(phi))
    if rec.certificate is None:
        _, cert, _ = lp_optimum(c, A, ctx)
        rec.certificate = certificate_of(
            {"consumers": len(cases)}, [("uniform consumer, n=3, theta=(1,2), zlcn alpha=2", cert)]
        )
    rec.note(
        "bounded: for each (n, alpha, theta) every vertex of the legal polytope that is the unique optimum of a "
        "consumer with all weights > 0 (certified normal-cone LP) is min{psi1, psi2} with (5) (z3 model, re-checked "
        "exactly); these vertices decide every consumer (module docstring of proofs/countrange_consumers.py). "
        "sampled cross-check: uniform and random consumers (zeros in omega, rho), LP optimum certified, (beta1, "
        "beta2) minimum exact over the arrangement"
    )
    return rec


@checks("zlcn2013.twovar")
def two_variables(ctx: Context, use_psi2: bool = True, form_alpha=None) -> Findings:
    """zlcn2013 Section 3.1: minimising err(min{psi1, psi2}) over (beta1, beta2) = (psi1(0), psi2(0)) reaches
    the optimum of the (n+1)-variable legal-function LP, for every consumer.  Bounded: every min{psi1, psi2} is
    legal (z3 unsat per (n, alpha)) and every full-dimensional vertex is one; sampled consumers cross-check.
    False variants: ``use_psi2=False`` (psi1 alone); ``form_alpha`` (the recurrences at a wrong alpha)."""
    rec = Findings("zlcn2013.twovar")
    stats = _stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            Af = _form_alpha(A, form_alpha)
            with rec.deciding(
                n=n,
                alpha=zlcn_label(A),
                kind=BOUNDED,
                method="z3 unsat",
                covers="every (beta1, beta2) in [0,1]^2: min{psi1, psi2} is a legal function",
            ) as d:
                _, _, _, _, dom = _z3_forms(n, Af or A)
                w = premises_hold(dom, _pins(dom), ctx.solver_timeout, "zlcn2013.twovar: beta in [0,1]^2")
                stats["witnesses"].add(w)
                bad, _ = forms_are_legal(n, Af or A, A, ctx.solver_timeout)
                if bad:
                    d.counterexample(f"beta=({bad[0]}, {bad[1]}): min{{psi1, psi2}} = {fmt(bad[2])} is not legal")
            for t1, t2 in theta_pairs(n):
                all_consumers_two(rec, ctx, n, A, t1, t2, with5=False, use_psi2=use_psi2, A_form=Af, stats=stats)
    _record_stats(rec, stats)
    n_max, per = (3, 3) if ctx.quick else (4, 10)
    cases = _consumers(ctx, "zlcn2013.twovar", n_max, per)
    for n, A, c in cases:
        Af = _form_alpha(A, form_alpha) or A
        with _sampled(rec, n, A, c, "certified LP + exact (beta1, beta2) arrangement", "one consumer") as d:
            _, _, opt = lp_optimum(c, A, ctx)
            best = two_variable_minimum(c, Af, False, use_psi2=use_psi2)
            if best[0] != opt:
                d.counterexample(f"{consumer_text(c)}: LP optimum {opt}, two-variable minimum {best[0]}")
    rec.value(consumers=len(cases))
    rec.note(
        "bounded: every min{psi1, psi2} is legal (z3 unsat, so the two-variable minimum is never below the LP "
        "optimum), and every vertex of the legal polytope that is the unique optimum of a consumer with all weights "
        "> 0 (certified normal-cone LP) is some min{psi1, psi2} (z3 model, re-checked exactly), so it is never above; "
        "sampled cross-check: two-variable minimum exact over the arrangement vertices, LP optimum certified"
    )
    return rec


def threshold_queries(n: int, swap: bool = False):
    """(theta1, theta2, recurrence): <theta, +inf> and <theta, n> with (2), <0, theta> with (3)."""
    queries = [(t, None, psi1) for t in range(n + 1)] + [(t, n, psi1) for t in range(1, n)]
    queries += [(0, t, psi2) for t in range(1, n + 1)]
    if swap:
        queries = [(t1, t2, psi2 if r is psi1 else psi1) for t1, t2, r in queries]
    return queries


@checks("zlcn2013.thm5")
def threshold_recurrence(ctx: Context, swap: bool = False, form_alpha=None) -> Findings:
    """zlcn2013 Theorems 5, 6: for <p, theta, +inf> some optimal legal function satisfies (2); for <p, 0, theta>
    one satisfies (3).  theta2 = n is the same query as theta2 = +inf over counts 0..n; both are checked.
    Bounded over all consumers (every full-dimensional vertex v equals the recurrence from v(0)); sampled
    consumers cross-check.  ``swap`` uses the other recurrence, ``form_alpha`` a wrong alpha (false variants)."""
    findings = Findings("zlcn2013.thm5")
    stats = _stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            for t1, t2, r in threshold_queries(n, swap):
                all_consumers_threshold(findings, ctx, n, A, t1, t2, r, _form_alpha(A, form_alpha), stats)
    _record_stats(findings, stats)
    rng = ctx.rng("zlcn2013.thm5")
    n_max, per = (4, 4) if ctx.quick else (10, 12)
    seen = set()
    for n in range(1, n_max + 1):
        for t1, t2, rec in threshold_queries(n, swap):
            name = "(2)" if rec is psi1 else "(3)"
            for k in range(per + 1):
                A = ALPHAS_Z[k % len(ALPHAS_Z)]
                Af = _form_alpha(A, form_alpha) or A
                c = (
                    CountRangeConsumer.of([1] * (n + 1), [F(1, n + 1)] * (n + 1), t1, t2)
                    if k == 0
                    else random_consumer(rng, n, t1, t2)
                )
                if (n, A, consumer_text(c)) in seen:
                    continue
                seen.add((n, A, consumer_text(c)))
                with _sampled(
                    findings, n, A, c, f"certified LP + exact recurrence {name} minimum", "one consumer"
                ) as d:
                    _, _, opt = lp_optimum(c, A, ctx)
                    e, beta = one_variable_minimum(c, Af, rec)
                    if e != opt:
                        d.counterexample(
                            f"{consumer_text(c)}: LP optimum {opt}, best function of recurrence {name}: {e} "
                            f"at beta={beta}"
                        )
    findings.value(consumers=len(seen))
    findings.note(
        "bounded: for each (n, alpha, threshold) every vertex of the legal polytope that is the unique optimum of a "
        "consumer with all weights > 0 (certified normal-cone LP) satisfies the recurrence from its own v(0) (exact); "
        "these vertices decide every consumer.  sampled cross-check: thresholds theta = 0..n (<p,theta,inf>, also "
        "written theta2 = n) and <p,0,theta>; uniform and random consumers; one-variable minimum exact over the "
        "breakpoints"
    )
    return findings
