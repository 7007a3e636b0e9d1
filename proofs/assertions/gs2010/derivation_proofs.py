"""gs2010 Theorem 2 and Lemma 3: steps of their printed proofs, checked like any other claim.

- ``gs2010.sec3.inverse``: Theorem 2's proof (T = G^-1 M is uniquely defined, Cramer's rule) and Lemma 3's
  (T_{a,b} = G_{n,a}^-1 G_{n,b} is stochastic for a <= b).
- ``gs2010.lemma3.case2``: Lemma 3's case 2, 1 + a^2 - 2ab > (1 - a)^2 > 0 for a <= b.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.assertions.gs2010.common import ENDS_AND_INSIDE, Matrix
from proofs.boundary.geometric import definition4
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.remaps import compose
from udpm.smt import solvers as smt

F = Fraction


def printed_case2(a: object, b: object) -> tuple[object, object, object]:
    """Lemma 3's case 2 as printed: 1 + a^2 - 2ab > (1 - a)^2 > 0."""
    return 1 + a * a - 2 * a * b, (1 - a) ** 2, 0


@checks("gs2010.lemma3.case2")
def lemma3_case2(
    ctx: Context, chain: Callable[[object, object], tuple] = printed_case2, strict: bool = True
) -> Findings:
    """gs2010 Lemma 3, proof, case 2 (the column (beta, 1, beta)): (1 + a^2) 1 - a (b + b) = 1 + a^2 - 2ab >
    (1 - a)^2 > 0, for the lemma's a <= b in [0, 1].  Inside, 0 < a <= b < 1, by z3 (the negation is unsat); at
    the ends by exact evaluation.  ``strict=False`` reads both as >=."""
    rec = Findings("gs2010.lemma3.case2")
    a, b = sp.symbols("a b", real=True)
    lhs, mid, rhs = (sp.sympify(v) for v in chain(a, b))
    if not (sp.expand(lhs - (1 + a * a - 2 * a * b)) == 0):
        rec.note("the chain's first member is not (1 + a^2) - a (b + b): a changed statement")

    def holds(u: object, v: object) -> bool:
        return bool(u > v) if strict else bool(u >= v)

    za, zb = smt.z3.Reals("a b")
    to_z3 = {a: za, b: zb}
    negation = sp.Or(sp.Le(lhs, mid), sp.Le(mid, rhs)) if strict else sp.Or(sp.Lt(lhs, mid), sp.Lt(mid, rhs))
    z3_negation = _to_z3(negation, to_z3)
    with rec.deciding(
        n=None,
        alpha="symbolic 0 < alpha <= beta < 1",
        kind=ALL_N,
        method="z3: the negation is unsat",
        covers="every 0 < alpha <= beta < 1",
        n_from=2,
    ) as d:  # an interior row: n >= 2
        premises = [0 < za, za <= zb, zb < 1]
        model = smt.premise_witness(premises, ctx.solver_timeout, "gs2010.lemma3.case2: 0 < a <= b < 1")
        rec.value(**{"premise witness: 0 < a <= b < 1": ", ".join(f"{k}={v}" for k, v in model.items())})
        out = smt.decide([*premises, z3_negation], ctx.solver_timeout)
        if not out.unsat:
            model = out.model
            wa, wb = (F(str(model.eval(v, model_completion=True).as_fraction())) for v in (za, zb))
            vals = [sp.nsimplify(e.subs({a: sp.Rational(str(wa)), b: sp.Rational(str(wb))})) for e in (lhs, mid, rhs)]
            if not (holds(vals[0], vals[1]) and holds(vals[1], vals[2])):
                d.counterexample(f"alpha = {wa}, beta = {wb}: the chain reads {vals[0]}, {vals[1]}, {vals[2]}")
            else:
                d.inconclusive("z3's model does not re-check")
    for wa, wb in ((F(0), F(0)), (F(0), F(1, 2)), (F(1, 2), F(1)), (F(1), F(1)), (F(1, 2), F(1, 2))):
        vals = [
            sp.Rational(
                e.subs({a: sp.Rational(wa.numerator, wa.denominator), b: sp.Rational(wb.numerator, wb.denominator)})
            )
            for e in (lhs, mid, rhs)
        ]
        label = f"chain {wa}<{wb}" if wa < wb else wa  # the pair (alpha, beta), in the harness's label grammar
        with rec.deciding(
            n=None, alpha=label, kind=BOUNDED, method="exact evaluation", covers="this (alpha, beta)"
        ) as d:
            if not (holds(vals[0], vals[1]) and holds(vals[1], vals[2])):
                op = ">" if strict else ">="
                d.counterexample(
                    f"alpha = {wa}, beta = {wb} (alpha <= beta in [0, 1]): 1 + a^2 - 2ab = {vals[0]}, "
                    f"(1 - a)^2 = {vals[1]}: the chain {vals[0]} {op} {vals[1]} {op} {vals[2]} fails"
                )
    rec.value(**{"1 + a^2 - 2ab - (1 - a)^2": sp.factor(1 + a * a - 2 * a * b - (1 - a) ** 2)})
    rec.note("the step Lemma 3 needs is (1 + a^2) - 2ab >= 0, true on the whole range: 1 + a^2 - 2ab >= (1 - a)^2 >= 0")
    return rec


def _to_z3(e: sp.Basic, names: dict) -> object:
    """A polynomial (in)equality or a disjunction of them, from sympy to z3 (exact rationals)."""
    if isinstance(e, sp.Or):
        return smt.z3.Or(*[_to_z3(arg, names) for arg in e.args])
    if isinstance(e, sp.Rel):
        lhs, rhs = _to_z3(e.lhs, names), _to_z3(e.rhs, names)
        return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs}[e.rel_op]
    if e in names:
        return names[e]
    if e.is_Rational:
        return smt.z3.RealVal(str(e))
    if isinstance(e, sp.Add):
        return sum((_to_z3(arg, names) for arg in e.args[1:]), _to_z3(e.args[0], names))
    if isinstance(e, sp.Mul):
        out = _to_z3(e.args[0], names)
        for arg in e.args[1:]:
            out = out * _to_z3(arg, names)
        return out
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp > 0:
        base = _to_z3(e.base, names)
        out = base
        for _ in range(int(e.exp) - 1):
            out = out * base
        return out
    raise ValueError(f"cannot translate {e} to z3")


def _equal_rows_remap(g: Matrix) -> Matrix:
    """Every row of the remap is row 0 of g: when every row of g is the same, g (this) = g."""
    return [list(g[0]) for _ in g]


@checks("gs2010.sec3.inverse")
def inverse_of_g(
    ctx: Context, sizes: Sequence[int] = (1, 2, 3), alphas: Sequence[Fraction] = ENDS_AND_INSIDE
) -> Findings:
    """gs2010 Theorem 2's proof ("T = G^-1 M", "G^-1 is a generalized stochastic matrix", "T ... is uniquely
    defined", Cramer's rule t_ij = det G(i, m_j) / det G) and Lemma 3's ("T_{a,b} = G_{n,a}^-1 G_{n,b} is a
    stochastic matrix", for a <= b).  For each n and alpha <= beta in the grid: G_{n,alpha} (Definition 4, 0^0 = 1)
    is invertible, G^-1 has rows summing to 1, and G^-1 G_{n,beta} is stochastic, all exactly; where det G = 0 the
    witness is two different remaps T with G T = G_{n,beta}."""
    rec = Findings("gs2010.sec3.inverse")
    for n in sizes:
        for al in alphas:
            g = definition4(n + 1, al)
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact determinant and inverse",
                covers="G_{n,alpha}^-1 and G^-1 G_{n,beta} for every beta >= alpha in the grid",
            ) as d:
                if linalg.det(g) == 0:
                    other = _equal_rows_remap(g)
                    if all(r == g[0] for r in g) and compose(g, other) == g:
                        d.counterexample(
                            f"n = {n}, alpha = {al}: det G_{{n,alpha}} = 0 (every row {linalg.fmt_vector(g[0])}), so "
                            f"G^-1 and Cramer's rule do not exist and T with G T = M is not unique: for M = G_{{n,1}} "
                            f"both T = I and T = {linalg.fmt_matrix(other)} (stochastic) solve it"
                        )
                    else:
                        d.counterexample(f"n = {n}, alpha = {al}: det G_{{n,alpha}} = 0, so G^-1 does not exist")
                    continue
                inv = linalg.inverse(g)
                if any(sum(row) != 1 for row in inv):
                    d.counterexample(f"n = {n}, alpha = {al}: G^-1 = {linalg.fmt_matrix(inv)} has a row sum != 1")
                    continue
                for be in (b for b in alphas if b >= al):
                    t = linalg.matmul(inv, definition4(n + 1, be))
                    if any(v < 0 for row in t for v in row) or any(sum(row) != 1 for row in t):
                        d.counterexample(
                            f"n = {n}, alpha = {al}, beta = {be}: G_alpha^-1 G_beta = "
                            f"{linalg.fmt_matrix(t)} is not stochastic"
                        )
                        break
    rec.note(
        "Lemma 3 itself (some stochastic T with G_beta = G_alpha T) holds at alpha = beta = 1 with T = I "
        "(gs2010.lemma3); what fails at alpha = 1 is the proofs' T = G^-1 M, since det G_{n,1} = 0 "
        "(gs2010.lemma1)"
    )
    return rec
