"""zlcn2013 Theorem 1, Section 3.1 and Theorems 5, 6 over ALL consumers: the all-consumers criterion (normal cones).

Each claim of proofs/countrange/consumers.py says that, for every consumer (omega >= 0, rho a distribution) of a
count-range or threshold query, some optimal legal function lies in a set S of functions of a stated form
(min{psi1(beta1), psi2(beta2)}, with or without (5), or psi1(beta) / psi2(beta); proofs/countrange/family.py).

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

Per (n, alpha, theta), every vertex of L (proofs.countrange.legal_polytope.legal_vertices, the enumeration
zlcn2013.thm4
uses) gets one certified LP (udpm.lp.certify): maximise t subject to w_i >= t, err_w(u) - err_w(v) >= t for every
other vertex u, sum w = 1.  t* > 0 (full-dimensional) -> v must lie in S, decided by z3 (Theorem 1, Section
3.1: a sat model is re-checked exactly with the Fraction recurrences; unsat is double-checked by cvc5 and then
re-checked by the exact two-variable minimum) or exactly (Theorems 5, 6: beta = v(0) is forced).  A full-
dimensional v outside S is a counterexample consumer: rho = the LP's w (every entry > 0), omega = 1, whose
certified unique LP optimum is v while the best function of the form is worse.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import z3

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.derivation import premises_hold
from proofs.countrange.family import condition5, one_variable_minimum, psi_at_points, two_variable_minimum
from proofs.countrange.legal_lp import consumer_text, fmt, lp_optimum, theta_text, z3_legal
from proofs.countrange.legal_polytope import legal_vertices
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings
from udpm.core.users import CountRangeConsumer, is_legal_function
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.countrange import psi1, psi2
from udpm.lp.programs import Constraint, LinearProgram
from udpm.smt.solvers import decide

F = Fraction


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


def z3_forms(n: int, A: Fraction, tag: str = ""):
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
    b1, b2, p1, p2, rows = z3_forms(n, A)
    if with5:
        c5 = [p1[t1] <= p2[t1], p1[t2] >= p2[t2]]
        if flip5:
            c5 = [p1[t1] >= p2[t1], p1[t2] <= p2[t2]]
        rows += c5
    return b1, b2, p1, p2, rows


def canonical_pins(domain) -> list:
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
    for b1, b2, s1, s2 in psi_at_points(n, A):
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
    b1, b2, p1, p2, rows = z3_forms(n, A_form)
    phi = [_z3_min(x, y) for x, y in zip(p1, p2)]
    out = decide([*rows, z3.Not(z3.And(z3_legal(phi, z3.RealVal(str(A)))))], timeout_s)
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
    return rec.deciding(n=n, alpha=zlcn_label(A), kind=BOUNDED, method=method, covers=covers, theta=theta_text(t1, t2))


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
        pins = canonical_pins(dom)
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


def new_stats() -> dict:
    return {"witnesses": set(), "vertices": 0, "dominated": 0, "lps": 0, "full": 0}


def _count(stats: dict, full, counts) -> None:
    for key, c in zip(("vertices", "dominated", "lps"), counts):
        stats[key] += c
    stats["full"] += len(full)


def record_stats(rec: Findings, stats: dict) -> None:
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
