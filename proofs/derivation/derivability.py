"""gs2010 Section 3: which mechanisms derive from G (Theorem 2) and adding privacy (Lemma 3, G_beta derives
from G_alpha for alpha <= beta); claims gs2010.thm2 and gs2010.lemma3.  The multi-level release built on
Lemma 3 (Algorithm 1, Lemma 4) is :mod:`proofs.release.multilevel`.

Here G = G_{n,a} is Definition 4's mechanism on results 0..n ((n+1) x (n+1),
``udpm.core.mechanisms.truncated_geometric``).  By proofs/column_replacement (gs2010
Lemma 2, all n) G^-1 = S^-1 Tri / (1-a) where S = diag(1, 1-a, ..., 1-a, 1):
row i of G^-1 is a POSITIVE multiple of the functional

    x_0 - a x_1 (i = 0),   (1+a^2) x_i - a (x_(i-1) + x_(i+1)) (0 < i < n),   x_n - a x_(n-1) (i = n),

and G^-1 has row sums 1.  So M = G T with T stochastic iff every column of M
satisfies the interior three-term condition AND the two boundary conditions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.boundary.derivation import lemma3_at_boundary, theorem2_at_boundary
from proofs.boundary.geometric import GS2010_RANGE
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.remaps import derive
from udpm.errors import VacuousPremise
from udpm.smt.solvers import decide, model_value, premise_witness

a, b = sp.symbols("alpha beta", positive=True)
d = sp.Symbol("d", integer=True, nonnegative=True)
SYMBOLIC = "symbolic alpha in (0,1)"
ALPHAS = (Fraction(1, 2), Fraction(1, 3), Fraction(9, 10), Fraction(1, 100))

Cond = Callable[[object, object, object, object], object]


def three_term(x1: object, x2: object, x3: object, al: object) -> object:
    """gs2010 Theorem 2: (x2 - a x1) >= a (x3 - a x2), i.e. (1+a^2) x2 - a (x1 + x3) >= 0."""
    return (x2 - al * x1) - al * (x3 - al * x2)


def _q(x: Fraction) -> z3.ArithRef:
    return z3.RealVal(f"{x.numerator}/{x.denominator}")


# --- gs2010 Theorem 2 ----------------------------------------------------------------------


def _column_constraints(xs: Sequence[z3.ArithRef], al: Fraction, cond: Cond, require_dp: bool) -> list:
    c = [x >= 0 for x in xs]
    if require_dp:
        aq = _q(al)
        c += [z3.And(xs[i] >= aq * xs[i + 1], xs[i + 1] >= aq * xs[i]) for i in range(len(xs) - 1)]
    return c + [cond(xs[i - 1], xs[i], xs[i + 1], _q(al)) >= 0 for i in range(1, len(xs) - 1)]


def theorem2_counterexample(n: int, al: Fraction, cond: Cond, require_dp: bool, timeout: float) -> str | None:
    """A two-column stochastic M = [x, 1-x] on which 'derivable' and the stated condition disagree, or None.

    Column-wise unsat of both directions is a proof for this n and alpha (T = G^-1 M is computed column by
    column, its row sums are 1 automatically); the two-column search only makes the counterexample a matrix.
    """
    ginv = linalg.inverse(truncated_geometric(n, al))

    def tcol(xs):
        return [sum((_q(ginv[i][k]) * xs[k] for k in range(n + 1)), z3.RealVal(0)) for i in range(n + 1)]

    x = [z3.Real(f"x{i}") for i in range(n + 1)]
    y = [1 - xi for xi in x]
    stated = _column_constraints(x, al, cond, require_dp) + _column_constraints(y, al, cond, require_dp)
    derivable = [t >= 0 for t in tcol(x)] + [t >= 0 for t in tcol(y)]
    vacuous: VacuousPremise | None = None
    derivable_premises = [
        *derivable,
        *(v >= 0 for v in x + y),
        *(_column_constraints(x, al, lambda *_: 1, require_dp)),
        *(_column_constraints(y, al, lambda *_: 1, require_dp)),
    ]
    for direction, premises, negated in (
        ("satisfies the stated condition but is not derivable", stated, z3.Not(z3.And(*derivable))),
        ("is derivable but violates the stated condition", derivable_premises, z3.Not(z3.And(*stated))),
    ):
        try:
            premise_witness(premises, timeout, f"gs2010 Theorem 2, n={n}, alpha={al}: M {direction.split(' but ')[0]}")
        except VacuousPremise as exc:
            vacuous = exc  # this direction proves nothing; the other may still refute
            continue
        out = decide([*premises, negated], timeout)
        if not out.unsat:
            xv = [Fraction(model_value(out.model, xi)) for xi in x]
            m = [[v, 1 - v] for v in xv]
            t = derive(m, truncated_geometric(n, al))
            return f"n={n}, alpha={al}: M = {linalg.fmt_matrix(m)} {direction}: G^-1 M = {linalg.fmt_matrix(t.remap)}"
    if vacuous is not None:
        raise vacuous
    return None


def symbolic_reduction(cond: Cond, require_dp: bool) -> tuple[bool, str]:
    """All-n step: the stated interior functional is a positive multiple of row i of Tri, and DP gives the
    boundary rows (x_0 >= a x_1 and x_n >= a x_(n-1) are two of the alpha-DP inequalities)."""
    x1, x2, x3 = sp.symbols("x1 x2 x3")
    e = sp.expand(cond(x1, x2, x3, a))
    c1, c2, c3 = (e.coeff(v) for v in (x1, x2, x3))
    ratio = sp.simplify(c2 / (1 + a**2))
    prop = (
        sp.simplify(c1 + a * ratio) == 0
        and sp.simplify(c3 + a * ratio) == 0
        and sp.simplify(e - (c1 * x1 + c2 * x2 + c3 * x3)) == 0
    )
    positive = ratio.is_number and ratio > 0
    if not (prop and positive):
        return False, f"stated functional {e} is not a positive multiple of (1+a^2) x2 - a (x1 + x3)"
    if not require_dp:
        return False, "without alpha-DP nothing gives the boundary rows x_0 >= a x_1, x_n >= a x_(n-1)"
    return True, f"stated functional = {ratio} x ((1+a^2) x2 - a (x1+x3)); boundary rows follow from alpha-DP"


@checks("gs2010.thm2")
def derivable_iff_three_term(ctx: Context, condition: Cond = three_term, require_dp: bool = True) -> Findings:
    """gs2010 Theorem 2: an alpha-DP oblivious M on results 0..n is derivable from G_{n,a} iff every three
    consecutive entries x1, x2, x3 of every column satisfy (x2 - a x1) >= a (x3 - a x2)."""
    rec = Findings("gs2010.thm2")
    n_max = 4 if ctx.quick else 9
    ok, msg = symbolic_reduction(condition, require_dp)
    with rec.deciding(
        n=None, alpha=SYMBOLIC, kind=ALL_N, method="G^-1 = S^-1 Tri/(1-a) (Lemma 2): rows vs the stated functional"
    ) as dec:
        if not ok:  # the bounded search below supplies the concrete matrix
            cex = theorem2_counterexample(2, Fraction(1, 2), condition, require_dp, ctx.solver_timeout)
            if cex is None:
                cex = theorem2_counterexample(1, Fraction(1, 2), condition, require_dp, ctx.solver_timeout)
            if cex:
                dec.counterexample(f"{msg}; e.g. {cex}")
            else:
                dec.inconclusive(msg)
    for n in range(1, n_max + 1):
        for al in ALPHAS:
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="z3 linear arithmetic, both directions unsat column-wise",
                covers="every alpha-DP two-column M" if require_dp else "every two-column M",
            ) as dec:
                cex = theorem2_counterexample(n, al, condition, require_dp, ctx.solver_timeout)
                if cex:
                    dec.counterexample(cex)
    # what the boundary rows need without the DP hypothesis: the identity on {0,1} has no triples
    eye = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    eye_derivable = derive(eye, truncated_geometric(1, Fraction(1, 2))).stochastic
    rec.value(
        **{
            "interior rows": "(1+a^2) x_i - a (x_(i-1) + x_(i+1)) >= 0 (equal to the printed "
            "(x2 - a x1) >= a (x3 - a x2) and to Section 3's (x2 - a x3) >= a (x1 - a x2))",
            "boundary rows": "x_0 >= a x_1 and x_n >= a x_(n-1) in every column (Lemma 2 cases 1-2)",
            "printed theorem": "true: its alpha-DP hypothesis implies both boundary conditions",
            "without the DP hypothesis": f"false: I_2 (n=1, alpha=1/2) has no triples, derivable={eye_derivable}",
            "all-n reduction": msg,
        }
    )
    rec.note(
        f"all-n: G^-1 = S^-1 Tri/(1-a) (gs2010.lemma2, a dependency) so T = G^-1 M >= 0 iff each column "
        f"satisfies the boundary and interior functionals.  Bounded: z3 (linear arithmetic, both directions "
        f"unsat column-wise, each after a premise witness) for n = 1..{n_max} at alpha in "
        f"{', '.join(map(str, ALPHAS))}."
    )
    theorem2_at_boundary(rec, condition)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Theorem 2 holds at both ends for n = 1..3 (sympy identities): at 0 "
        "every M derives from G = I and the conditions read x_i >= 0; at 1 every 1-DP M has equal rows, derives from "
        "G_1 (T = M) and its columns are constant, so every condition reads 0 >= 0"
    )
    return rec


# --- gs2010 Lemma 3 ------------------------------------------------------------------------


def lemma3_cases() -> list[tuple[str, sp.Expr, sp.Expr]]:
    """T = G_a^-1 G_b, entry (i, j) up to a positive factor: the functional of row i on column j of G'_b.

    Returns (case, functional value, factorised form whose factors are >= 0 when a <= b)."""
    tt = lambda x1, x2, x3: (1 + a**2) * x2 - a * (x1 + x3)  # noqa: E731
    return [
        (
            "interior row i < j: (b^(d+2), b^(d+1), b^d)",
            tt(b ** (d + 2), b ** (d + 1), b**d),
            b**d * (b - a) * (1 - a * b),
        ),
        ("interior row i = j: (b, 1, b)", tt(b, 1, b), (1 - a) ** 2 + 2 * a * (1 - b)),
        (
            "interior row i > j: (b^d, b^(d+1), b^(d+2))",
            tt(b**d, b ** (d + 1), b ** (d + 2)),
            b**d * (b - a) * (1 - a * b),
        ),
        ("row 0, column 0: x_0 - a x_1 = 1 - a b", 1 - a * b, 1 - a * b),
        ("row 0, column j = 1+d: b^(d+1) - a b^d", b ** (d + 1) - a * b**d, b**d * (b - a)),
        ("row n, column n / column n-1-d: symmetric to row 0", b ** (d + 1) - a * b**d, b**d * (b - a)),
    ]


def printed_case2_bound(al: sp.Expr, be: sp.Expr) -> sp.Expr:
    """Lemma 3, proof case 2: 1 + a^2 - 2 a b > (1 - a)^2."""
    return (1 - al) ** 2


def _sympy_q(x: Fraction) -> sp.Rational:
    return sp.Rational(x.numerator, x.denominator)


def _to_z3(e: sp.Expr, env: dict[sp.Symbol, z3.ArithRef]) -> z3.ArithRef:
    """A polynomial in the symbols of ``env`` with rational coefficients, as a z3 term."""
    gens = list(env)
    poly = sp.Poly(sp.expand(e), *gens)
    out = z3.RealVal(0)
    for exps, c in poly.terms():
        term = z3.RealVal(str(sp.Rational(c)))
        for g, k in zip(gens, exps):
            term = term * env[g] ** int(k) if k else term
        out = out + term
    return out


W = sp.Symbol("w", positive=True)  # w = beta^d in (0, 1]


def lemma3_premises(env: dict[sp.Symbol, z3.ArithRef]) -> list:
    """The lemma's hypotheses 0 < alpha <= beta < 1, and 0 < w = beta^d <= 1."""
    av, bv, wv = env[a], env[b], env[W]
    return [av > 0, av <= bv, bv < 1, wv > 0, wv <= 1]


def _rational_point(gap: sp.Expr, model: z3.ModelRef, env: dict) -> tuple[Fraction, Fraction]:
    """A rational (alpha, beta), 0 < alpha <= beta < 1, with gap <= 0: z3's model if rational, else a grid point."""
    try:
        x, y = (Fraction(model_value(model, env[v])) for v in (a, b))
        if gap.subs({a: _sympy_q(x), b: _sympy_q(y)}) <= 0:
            return x, y
    except ValueError:  # an algebraic model value
        pass
    pts = [Fraction(i, 64) for i in range(1, 64)]
    return next((x, y) for x in pts for y in pts if x <= y and gap.subs({a: _sympy_q(x), b: _sympy_q(y)}) <= 0)


@checks("gs2010.lemma3")
def adding_privacy(
    ctx: Context,
    pairs: Sequence[tuple[Fraction, Fraction]] | None = None,
    case2_bound: Callable[[sp.Expr, sp.Expr], sp.Expr] = printed_case2_bound,
    premises: Callable[[dict], list] = lemma3_premises,
) -> Findings:
    """gs2010 Lemma 3: for alpha <= beta, G_{n,beta} = G_{n,alpha} T_{alpha,beta} with T stochastic."""
    rec = Findings("gs2010.lemma3")
    sym = "symbolic 0 < alpha <= beta < 1"
    env = {a: z3.Real("alpha"), b: z3.Real("beta"), W: z3.Real("w")}
    hyp = premises(env)
    witness = premise_witness(hyp, ctx.solver_timeout, "gs2010 Lemma 3: 0 < alpha <= beta < 1, 0 < w <= 1")
    rec.value(**{"premise witness": ", ".join(f"{k}={v}" for k, v in witness.items())})
    # all-n: each entry of T is a positive multiple of one of these (Lemma 2's G^-1); each is >= 0 for a <= b
    for case, got, want in lemma3_cases():
        with rec.deciding(
            n=None, alpha=sym, kind=ALL_N, method="sympy factorisation, sign by z3 NRA unsat", case=case
        ) as dec:
            if sp.simplify(sp.expand(got - want)) != 0:
                dec.inconclusive(f"{case}: {got} is not {want}")
                continue
            neg = decide([*hyp, _to_z3(want.subs(b**d, W), env) < 0], ctx.solver_timeout)
            if not neg.unsat:
                vals = {str(k): model_value(neg.model, v) for k, v in env.items()}
                dec.counterexample(f"{case}: {want} < 0 at {vals}")
    # the printed case-2 bound: 1 + a^2 - 2ab > bound(a, b) for all 0 < a <= b < 1
    gap = sp.factor(sp.expand(1 + a**2 - 2 * a * b - case2_bound(a, b)))
    with rec.deciding(n=None, alpha=sym, kind=ALL_N, method="z3 NRA unsat", case="printed case 2 bound") as dec:
        out = decide([*hyp, _to_z3(gap, env) <= 0], ctx.solver_timeout)
        if not out.unsat:
            x, y = _rational_point(gap, out.model, env)
            val = gap.subs({a: _sympy_q(x), b: _sympy_q(y)})
            dec.counterexample(f"Lemma 3 case 2 bound: at alpha={x}, beta={y}, 1 + a^2 - 2ab - bound = {val} <= 0")
    n_max = 6 if ctx.quick else 14
    grid = [Fraction(1, 100), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(9, 10)]
    grid.append(Fraction(99, 100))  # alpha near 0 and near 1
    pairs = list(pairs) if pairs is not None else [(x, y) for x in grid for y in grid if x <= y]
    for n in range(1, n_max + 1):
        for al, be in pairs:
            with rec.deciding(
                n=n, alpha=al, kind=BOUNDED, method="exact T = G_alpha^-1 G_beta", beta=be, covers="T stochastic"
            ) as dec:
                t = derive(truncated_geometric(n, be), truncated_geometric(n, al))
                if not t.stochastic:
                    r, j, v = t.negative_entries[0]
                    dec.counterexample(f"n={n}, alpha={al}, beta={be}: T = G_alpha^-1 G_beta has T[{r}][{j}] = {v} < 0")
                elif any(sum(row) != 1 for row in t.remap):
                    dec.counterexample(f"n={n}, alpha={al}, beta={be}: a row of T does not sum to 1")
    rec.value(
        **{
            "cases 1, 3 (printed)": "(1+a^2) b^(i+1) - a (b^i + b^(i+2)) = b^i (b-a)(1-ab) >= 0 (z3)",
            "case 2 (printed)": f"1 + a^2 - 2ab - (1-a)^2 = {gap} > 0 for 0 < a <= b < 1 (z3)",
            "boundary rows": "1 - ab > 0 and b^d (b - a) >= 0 (not in the printed proof; implied by b-DP => a-DP)",
            "T rows": "sum to 1 (G_a^-1 1 = 1)",
        }
    )
    rec.erratum(
        "Lemma 3, proof, cases 1 and 3",
        "beta^i (beta-alpha)(1-alpha beta) > 0",
        "beta^i (beta-alpha)(1-alpha beta) >= 0, = 0 at alpha = beta (then T = I)",
        "typo",
        "the lemma allows alpha = beta, where the strict inequality fails; >= 0 is what is needed",
    )
    rec.note(
        f"all-n: {len(lemma3_cases())} symbolic factorisations (d >= 0, w = beta^d in (0, 1]), each entry of T a "
        "positive multiple of one by Lemma 2's G^-1 (gs2010.lemma2, a dependency); the sign of each and the "
        "printed case-2 bound decided by z3 (nonlinear real arithmetic, unsat) for all 0 < alpha <= beta < 1.  "
        f"Bounded: exact T = G_a^-1 G_b stochastic for n = 1..{n_max} and {len(pairs)} pairs a <= b (beta in "
        "the instance's params)."
    )
    lemma3_at_boundary(rec, BOUNDARY_PAIRS)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Lemma 3 holds for n = 1..3 at the pairs alpha <= beta "
        f"{', '.join(f'({x}, {y})' for x, y in BOUNDARY_PAIRS)}: T = G_alpha^-1 G_beta (at beta = 1 every row of T is "
        "(1/2, 0, ..., 0, 1/2)), T = I at alpha = beta = 1, where G_1 is singular and the printed T = G_a^-1 G_b is "
        "undefined"
    )
    return rec


#: Lemma 3's printed boundary: pairs alpha <= beta with an end of [0, 1].
BOUNDARY_PAIRS = [
    (Fraction(0), Fraction(0)),
    (Fraction(0), Fraction(1, 2)),
    (Fraction(0), Fraction(1)),
    (Fraction(1, 2), Fraction(1)),
    (Fraction(1), Fraction(1)),
]
