"""zlcn2013 Theorem 4's worst ratio as exact rational functions of zlcn's alpha A (zlcn2013's alpha > 1, written
A; the symbolic internal alpha 1/A is checked against udpm.core.conventions.alpha_from_zlcn2013 at each rational
A0): the optimal basis of the worst-ratio LP (proofs/countrange/worst_ratio.py) solved with A a symbol, the interval
of A on which it stays optimal, and the closed forms recorded by the claim zlcn2013.thm4.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import flint
import sympy as sp
from sympy.polys.matrices import DomainMatrix

from proofs.countrange.alpha import internal
from proofs.countrange.legal_lp import AS, F, fmt, theta_text
from proofs.countrange.legal_polytope import fmpq_of
from proofs.countrange.worst_ratio import error_profile, worst_ratio
from udpm.claims.registry import Context
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric_zlcn2013
from udpm.lp.countrange import definition2_rows
from udpm.lp.programs import Constraint

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
        m = flint.fmpq_mat([[fmpq_of(F(_coef(rows0[j], i))) for i in range(n + 1)] for j in trial])
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
