"""zlcn2013 Section 3.2's printed consumers: the printed prior rho, and whether x-hat and y-hat are their only optima.

Section 3.2.1's consumer (uniform error penalty and prior) for x-hat and Section 3.2.2's (uniform error penalty,
the printed prior rho) for y-hat.  The prior is read from its printed relations (:func:`printed_rho_weights`,
:func:`paper_rho`); whether a printed vector is the only optimal legal function of its consumer for every zlcn
alpha > 1 is one z3 (nlsat) query with denominators cleared (:func:`printed_optimum_failure`, used by
proofs/countrange/theorem3.py); at the rational zlcn alphas, the certified LP (:func:`paper_rho_check`, a value of
zlcn2013.lemma3 in proofs/countrange/lemma3.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange.alpha import ZLCN_ALPHAS, a_sym, internal
from proofs.countrange.derivation import premises_hold
from proofs.countrange.optimum_consumers import is_unique_optimum
from proofs.countrange.vectors import printed_internal, yhat
from udpm.claims.tables import printed
from udpm.core.users import CountRangeConsumer
from udpm.errors import ExpectationsError
from udpm.smt.solvers import decide, model_value

F = Fraction

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
