"""zlcn2013 Definition 2 and (1): the legal-function LP's region is the set of legal functions, its objective the error.

The LP is udpm.lp.countrange's; here it is checked against Definition 2 and the weighted error (1) as printed
(:func:`legal_region`, claim zlcn2013.def2), over every phi by z3 and for every consumer at once by a sympy
identity in symbolic omega, rho and phi.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.derivation import premises_hold
from proofs.countrange.legal_lp import (
    ALPHAS_Z,
    F,
    consumer_text,
    digest,
    fmt,
    random_consumer,
    theta_pairs,
    theta_text,
    z3_legal,
)
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.users import CountRangeConsumer, is_legal_function
from udpm.lp.countrange import definition2_rows, legal_function_lp, satisfies_rows
from udpm.smt.solvers import decide


def _z3_rows(rows, phi) -> list:
    """LP rows (and phi >= 0, as in satisfies_rows) as z3 constraints."""
    out = [v >= 0 for v in phi]
    for r in rows:
        act = z3.Sum([z3.RealVal(str(c)) * phi[i] for i, c in r.coeffs]) if r.coeffs else z3.RealVal(0)
        rhs = z3.RealVal(str(r.rhs))
        out.append({"<=": act <= rhs, ">=": act >= rhs, "=": act == rhs}[r.sense])
    return out


def printed_error(w, phi, t1: int, t2: int | None, n: int):
    """zlcn2013 (1) as printed, with w(i) = omega(i) rho(i): err = sum_{i=0}^{theta1-1} w(i) phi(i)
    + sum_{i=theta1}^{theta2} w(i) (1 - phi(i)) + sum_{i=theta2+1}^{n} w(i) phi(i).
    Counts run over 0..n only, so theta2 = +inf (None) or theta2 >= n leaves the last sum empty."""
    top = n if t2 is None else min(t2, n)
    below = sum((w[i] * phi[i] for i in range(min(t1, n + 1))), sp.Integer(0))
    inside = sum((w[i] * (1 - phi[i]) for i in range(t1, top + 1)), sp.Integer(0))
    above = sum((w[i] * phi[i] for i in range(top + 1, n + 1)), sp.Integer(0))
    return below + inside + above


def query_classes(n: int) -> list[tuple[int, int | None]]:
    """Every (theta1, theta2) up to what counts 0..n can tell apart: 0 <= theta1 < theta2 <= n+1, and
    theta2 = +inf (None).  A theta above n+1 splits 0..n as n+1 does, since (1)'s sums only see i <= n."""
    return [(t1, t2) for t1 in range(n + 2) for t2 in range(t1 + 1, n + 2)] + [(t, None) for t in range(n + 2)]


def symbolic_objective_failure(n: int, A: Fraction, drop: str, error) -> str | None:
    """(1) for every consumer at once: the LP built by udpm.lp.countrange for a consumer whose omega(i),
    rho(i) are sympy symbols, objective + offset at a symbolic phi, minus ``error`` (the statement's (1)), must
    expand to 0 as a polynomial in omega, rho, phi, at every (theta1, theta2) of :func:`query_classes`.  An
    identity in free symbols holds in particular for every omega >= 0 and every prior rho.  The first failure,
    else None."""
    om = sp.symbols(f"omega0:{n + 1}", real=True)
    rh = sp.symbols(f"rho0:{n + 1}", real=True)
    ph = sp.symbols(f"phi0:{n + 1}", real=True)
    w = [o * r for o, r in zip(om, rh)]
    for t1, t2 in query_classes(n):
        # the dataclass itself: CountRangeConsumer.of validates rationals, and the weights here are symbols
        c = CountRangeConsumer(tuple(om), tuple(rh), t1, t2)
        p = legal_function_lp(c, A, drop)
        lp_side = p.offset + sum((coef * ph[i] for i, coef in p.lp.objective), sp.Integer(0))
        diff = sp.expand(lp_side - error(w, ph, t1, t2, n))
        if diff != 0:
            return (
                f"theta=({t1}, {'inf' if t2 is None else t2}): LP objective + offset = {sp.factor(lp_side)}, "
                f"(1) = {sp.factor(error(w, ph, t1, t2, n))}; difference {diff}"
            )
    return None


@checks("zlcn2013.def2")
def legal_region(ctx: Context, drop: str = "", error=printed_error) -> Findings:
    """zlcn2013 Definition 2 and (1): the LP's feasible region is exactly the set of legal functions, and its
    objective plus offset is the weighted error (1).  ``drop`` removes one constraint family, ``error`` is the
    statement's (1) (false variants: a changed boundary or sign).

    Region: z3 unsat of "phi satisfies the LP rows xor Definition 2 as printed (zlcn's alpha > 1)", over all
    phi in R^(n+1) (bounded); plus the library's is_legal_function on a grid of phi (sampled).  Objective:
    a sympy identity in symbolic omega, rho and phi at every (theta1, theta2) (bounded: every consumer at
    once, :func:`symbolic_objective_failure`); plus, as cross-checks of udpm.core.users.CountRangeConsumer's own
    weighted_error, exact equality on the n+2 affinely independent points 0, e_0..e_n, which fixes an affine
    function, for random consumers (sampled)."""
    rec = Findings("zlcn2013.def2")
    grid = (F(0), F(1, 4), F(1, 3), F(1, 2), F(2, 3), F(3, 4), F(1))
    n_max = 2 if ctx.quick else 3
    for n in range(1, n_max + 1):
        for A in ALPHAS_Z:
            rows = definition2_rows(n, 1 / A, drop)
            phi = [z3.Real(f"phi{i}") for i in range(n + 1)]
            with rec.deciding(
                n=n,
                alpha=zlcn_label(A),
                kind=BOUNDED,
                method="z3 unsat",
                covers="every phi in R^(n+1): LP rows <=> Definition 2 as printed",
            ) as d:
                w = premises_hold([], [v == F(1, 2) for v in phi], ctx.solver_timeout, "phi in R^(n+1)")
                rec.value(**{f"premise witness n={n}": w})
                lp_in, legal = z3.And(_z3_rows(rows, phi)), z3.And(z3_legal(phi, z3.RealVal(str(A))))
                out = decide([lp_in != legal], ctx.solver_timeout)
                if not out.unsat:
                    x = [F(str(out.model.eval(v, model_completion=True).as_fraction())) for v in phi]
                    in_lp = satisfies_rows(rows, x) is None
                    d.counterexample(
                        f"phi={fmt(x)} is {'in' if in_lp else 'outside'} the LP region but "
                        f"{'not ' if in_lp else ''}legal by Definition 2"
                    )
            with rec.deciding(
                n=n,
                alpha=zlcn_label(A),
                kind=SAMPLED,
                method="exact comparison with udpm.core.users.is_legal_function",
                covers="phi on a grid",
                sample="grid {0,1/4,1/3,1/2,2/3,3/4,1}^(n+1)",
            ) as d:
                for x in itertools.product(grid, repeat=n + 1):
                    in_lp = satisfies_rows(rows, x) is None
                    if in_lp != is_legal_function(x, A):
                        d.counterexample(
                            f"phi={fmt(x)} is {'in' if in_lp else 'outside'} the LP region but "
                            f"{'not ' if in_lp else ''}legal by Definition 2 (is_legal_function)"
                        )
                        break
            with rec.deciding(
                n=n,
                alpha=zlcn_label(A),
                kind=BOUNDED,
                method="sympy identity in symbolic omega, rho, phi",
                covers="every consumer (omega, rho) and every (theta1, theta2): LP objective + offset = (1) "
                "for every phi",
            ) as d:
                cex = symbolic_objective_failure(n, A, drop, error)
                if cex:
                    d.counterexample(cex)
    rng = ctx.rng("zlcn2013.def2")
    seen = set()
    for n in range(1, n_max + 1):
        points = [[F(0)] * (n + 1)] + [[F(int(i == j)) for i in range(n + 1)] for j in range(n + 1)]
        for t1, t2 in theta_pairs(n):
            c = random_consumer(rng, n, t1, t2)
            if consumer_text(c) in seen:
                continue
            seen.add(consumer_text(c))
            p = legal_function_lp(c, 2, drop)
            with rec.deciding(
                n=n,
                alpha=zlcn_label(F(2)),
                kind=SAMPLED,
                method="exact affine identity",
                covers="one consumer: LP objective + offset = weighted error (1) for every phi",
                consumer=digest(consumer_text(c)),
                theta=theta_text(t1, t2),
            ) as d:
                for x in points:
                    if p.error(x) != c.weighted_error(x):
                        d.counterexample(
                            f"{consumer_text(c)}: LP objective {p.error(x)} != err {c.weighted_error(x)} "
                            f"at phi={fmt(x)}"
                        )
                        break
    rec.note(
        "region: every phi at each (n, alpha) by z3 against Definition 2 written in zlcn's alpha > 1, and the "
        "library's is_legal_function on the grid; objective: at each (n, alpha), the LP built for a consumer with "
        "symbolic omega and rho equals (1) as printed for every phi, as a polynomial identity, at every (theta1, "
        "theta2) with theta up to n+1 and theta2 = inf (larger thetas split 0..n as n+1 does): every consumer at "
        "once; the sampled consumers cross-check the library's CountRangeConsumer.weighted_error (affine in phi, "
        "so equality at 0 and the unit vectors is equality everywhere; zeros in omega and rho allowed)"
    )
    return rec
