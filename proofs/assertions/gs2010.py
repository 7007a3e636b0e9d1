"""gs2010: assertions of the discussion and the proofs that no other claim checks.

Each check here decides one sentence (or a few sentences saying one thing) that the assertion inventory
(paper_tables/assertions/gs2010.toml) points at.  gs2010 fixes alpha in [0, 1] once (Section 2.1), so
every check decides the ends 0 and 1 as well as the open interval.  Everything is exact: rationals,
sympy identities, univariate sign tests by exact real-root isolation, and exactly certified LPs.

- ``gs2010.sec2.variables``: Sections 2.4.3, 2.5, 3 count n^2 entries of a matrix indexed by N = {0..n}.
- ``gs2010.sec2.5.postprocessing``: the induced mechanism x = y T of an alpha-DP y is alpha-DP.
- ``gs2010.sec3.neither``: neither the alpha-DP condition nor the three-term condition implies the other.
- ``gs2010.sec3.convex-hull``: deriving M from G means each column of M is in the convex hull of G's columns.
- ``gs2010.lemma3.case2``: Lemma 3's case 2, 1 + a^2 - 2ab > (1 - a)^2 > 0 for a <= b.
- ``gs2010.sec4.2.optimal-derivable``: all optimal mechanisms derive from G; the non-derivable ones are
  optimal for no consumer; every two adjacent rows of every optimal mechanism have Lemma 5's pattern.
- ``gs2010.thm1.algebra``: the algebra of Theorem 1's proof, equation (4) and the chain after it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import definition4
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.remaps import compose, derive
from udpm.core.users import MinimaxUser, absolute_error
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.minimax import optimal_interaction_lp, optimal_mechanism_lp
from udpm.lp.programs import Constraint, LinearProgram
from udpm.smt import solvers as smt

F = Fraction
Matrix = list[list[Fraction]]
ALPHA = sp.Symbol("alpha", positive=True)
INTERIOR = "symbolic alpha in (0,1)"
ENDS_AND_INSIDE = (F(0), F(1, 4), F(1, 2), F(3, 4), F(1))


def _private(x: Sequence[Sequence[object]], b: object) -> tuple[int, int] | None:
    """The first (i, c) where x breaks b x[i][c] <= x[i+1][c] or b x[i+1][c] <= x[i][c] (Definition 2 without
    1/alpha, so alpha = 0 is allowed); None when x is b-DP."""
    for i in range(len(x) - 1):
        for c in range(len(x[i])):
            if x[i + 1][c] < b * x[i][c] or x[i][c] < b * x[i + 1][c]:
                return i, c
    return None


def _sign_inside(p: sp.Expr) -> str | None:
    """The sign of the polynomial p(alpha) on the open interval (0, 1): '0' (identically zero), '+' or '-'
    (no root inside, exact real-root isolation); None when p changes sign or vanishes inside."""
    p = sp.expand(p)
    if p == 0:
        return "0"
    poly = sp.Poly(p, ALPHA)
    if any(0 < r < 1 for r in sp.real_roots(poly)):
        return None
    return "+" if p.subs(ALPHA, sp.Rational(1, 2)) > 0 else "-"


# --- Sections 2.4.3, 2.5, 3: how many entries a matrix indexed by N = {0..n} has --------------------------------


@checks("gs2010.sec2.variables")
def variable_counts(ctx: Context, count: Callable[[object], object] = lambda n: n**2) -> Findings:
    """gs2010 Sections 2.4.3 and 2.5: "There are n^2 variables" (one per entry T_{r,r'} or x_{i,r}, r, r' in
    N = {0..n}), and Section 3's "n x n matrix (T_{r,r'})".  For every n the entries indexed by N x N number
    (n+1)^2 (a sympy identity in n); the bounded instances count the variables of the two programs as the
    library builds them (udpm.lp.minimax) for n = 1..4."""
    rec = Findings("gs2010.sec2.variables")
    n = sp.Symbol("n", integer=True, nonnegative=True)
    gap = sp.expand((n + 1) ** 2 - sp.sympify(count(n)))
    with rec.deciding(
        n=None,
        alpha="symbolic alpha in [0,1]",
        kind=ALL_N,
        method="sympy identity in n (alpha-free)",
        covers="every n >= 1: |N x N| for N = {0..n}",
    ) as d:
        if gap != 0:
            first = next(k for k in range(1, 10) if gap.subs(n, k) != 0)
            d.counterexample(
                f"n = {first}: N = {{0..{first}}} has {first + 1} elements, so T (and x) has "
                f"{(first + 1) ** 2} entries, not the printed {count(first)}; in general (n+1)^2 - "
                f"printed = {gap}"
            )
    for k in range(1, 5):
        user = MinimaxUser.of(range(k + 1), absolute_error(k))
        g = definition4(k + 1, F(1, 2))
        interaction = len(optimal_interaction_lp(user, g).names) - 1  # every T[r, r'] and the bound d
        mechanism = len(optimal_mechanism_lp(user, F(1, 2)).names) - 1
        with rec.deciding(
            n=k,
            alpha=F(1, 2),
            kind=BOUNDED,
            method="count the programs' variables",
            covers="the programs of Sections 2.4.3 and 2.5 at this n (the count is alpha-free)",
        ) as d:
            if interaction != count(k) or mechanism != count(k):
                d.counterexample(
                    f"n = {k}: the Section 2.4.3 program has {interaction} variables T[r, r'] and the "
                    f"Section 2.5 program {mechanism} variables x[i, r] (besides the bound d), not the "
                    f"printed {count(k)}"
                )
    rec.value(entries="(n+1)^2 for N = {0..n}")
    rec.note(
        "N = {0 .. n} (Section 2.1) has n + 1 elements; the n x n matrices of Section 3's Lemmas 1-2 index "
        "results 0..n-1, a different convention (gs2010.lemma1's erratum)"
    )
    return rec


# --- Section 2.5: post-processing keeps alpha-DP --------------------------------------------------------------------


@checks("gs2010.sec2.5.postprocessing")
def postprocessing_preserves_privacy(
    ctx: Context, level: Callable[[object], object] = lambda a: a, sizes: Sequence[int] = (1, 2, 3)
) -> Findings:
    """gs2010 Section 2.5: a mechanism x induced from an alpha-DP mechanism y by a post-processing T is alpha-DP
    ("a simple proof (omitted) shows that this is indeed so").  For each n the certificate is a polynomial
    identity in symbolic y, T and alpha: x[i+1][c] - b x[i][c] = sum_r T[r][c] (y[i+1][r] - alpha y[i][r]) (and
    with i, i+1 swapped), a sum of products of non-negative factors for every alpha in [0, 1]; b = level(alpha)
    is the level the sentence asserts; the same identity with symbolic sums decides every n at once.  Without
    the identity the check searches y = G_{n,a} and every deterministic T for an exact counterexample."""
    rec = Findings("gs2010.sec2.5.postprocessing")
    b = sp.sympify(level(ALPHA))
    # every n at once: the same identity with sums over r = 0..n (sympy Sum, symbolic n)
    n_, i_, c_, r_ = sp.Symbol("n", integer=True, positive=True), *sp.symbols("i c r", integer=True)
    ys, ts = sp.IndexedBase("y"), sp.IndexedBase("t")

    def induced(p: sp.Expr) -> sp.Expr:
        return sp.Sum(ys[p, r_] * ts[r_, c_], (r_, 0, n_))

    def slack(p: sp.Expr, q: sp.Expr) -> sp.Expr:
        return sp.Sum(ts[r_, c_] * (ys[p, r_] - ALPHA * ys[q, r_]), (r_, 0, n_))

    generic = all(sp.simplify(induced(p) - b * induced(q) - slack(p, q)) == 0 for p, q in ((i_ + 1, i_), (i_, i_ + 1)))
    if generic:
        rec.decide(
            True,
            n=None,
            alpha="symbolic alpha in [0,1]",
            kind=ALL_N,
            method="identity of sums over r = 0..n (sympy, symbolic n, y, T, alpha)",
            covers="every n, every alpha-DP y and every stochastic T on N",
        )
    for n in sizes:
        k = n + 1
        y = sp.Matrix(k, k, lambda i, j: sp.Symbol(f"y{i}_{j}"))
        t = sp.Matrix(k, k, lambda i, j: sp.Symbol(f"t{i}_{j}"))
        x = y * t
        identity = all(
            sp.expand(x[p, c] - b * x[q, c] - sum(t[r, c] * (y[p, r] - ALPHA * y[q, r]) for r in range(k))) == 0
            for i in range(n)
            for c in range(k)
            for p, q in ((i + 1, i), (i, i + 1))
        )
        with rec.deciding(
            n=n,
            alpha="symbolic alpha in [0,1]",
            kind=BOUNDED,
            method="polynomial identity in symbolic y, T, alpha (sympy)",
            covers="every alpha-DP y and every stochastic T on N",
        ) as d:
            if identity:
                continue
            for al in (F(1, 4), F(1, 2), F(3, 4)):
                g = definition4(k, al)
                for image in itertools.product(range(k), repeat=k):
                    tm = [[F(int(image[r] == c)) for c in range(k)] for r in range(k)]
                    bad = _private(compose(g, tm), F(level(al)))
                    if bad is not None:
                        d.counterexample(
                            f"n = {n}, alpha = {al}: y = G_{{n,alpha}} is alpha-DP, T re-reads output r "
                            f"as {list(image)}[r]; x = y T breaks {level(al)}-DP at rows {bad[0]}, "
                            f"{bad[0] + 1}, column {bad[1]}"
                        )
                        break
                if d.witness:
                    break
            else:
                d.inconclusive("no identity and no counterexample among G_{n,a} and the deterministic T")
    rec.value(identity="x[i+1][c] - alpha x[i][c] = sum_r T[r][c] (y[i+1][r] - alpha y[i][r])")
    return rec


# --- Section 3: neither condition implies the other -------------------------------------------------------------


def section3_condition(x1: object, x2: object, x3: object, a: object) -> object:
    """Section 3's three-term condition as printed: (x2 - a x3) >= a (x1 - a x2); the value must be >= 0."""
    return (x2 - a * x3) - a * (x1 - a * x2)


def _dp_forms(x1: object, x2: object, x3: object, a: object) -> list:
    """Definition 2 on three consecutive entries, each form >= 0 (products, so alpha = 0 is allowed)."""
    return [x2 - a * x1, x1 - a * x2, x3 - a * x2, x2 - a * x3]


def _lp_minimum(objective: sp.Expr, constraints: list[sp.Expr], xs: tuple, timeout: float) -> tuple[Fraction, list]:
    """The exact minimum of a linear form over x >= 0, x1 + x2 + x3 = 1 and each constraint >= 0."""

    def coeffs(e: sp.Expr) -> tuple[tuple[int, Fraction], ...]:
        e = sp.expand(e)
        if e.subs({v: 0 for v in xs}) != 0:
            raise ValueError(f"{e} is not a homogeneous linear form")
        return tuple((k, F(str(e.coeff(v)))) for k, v in enumerate(xs) if e.coeff(v) != 0)

    rows = [Constraint(coeffs(c), ">=", F(0), f"form {k}") for k, c in enumerate(constraints)]
    rows.append(Constraint(tuple((k, F(1)) for k in range(3)), "=", F(1), "x1 + x2 + x3 = 1"))
    lp = LinearProgram(("x1", "x2", "x3"), coeffs(objective), tuple(rows), "gs2010 Section 3")
    got = solve(lp, timeout_s=timeout, decide_unique=False)
    return F(got.objective), list(got.x)


@checks("gs2010.sec3.neither")
def neither_implies_the_other(
    ctx: Context, condition: Callable[..., object] = section3_condition, alphas: Sequence[Fraction] = ENDS_AND_INSIDE
) -> Findings:
    """gs2010 Section 3: "Neither condition implies the other" -- alpha-DP on two consecutive entries of a column
    and the three-term condition on three.  Over non-negative triples (a column of a mechanism), both conditions
    are homogeneous and linear, so at a rational alpha each implication is decided by exactly certified LPs over
    x1 + x2 + x3 = 1; for symbolic alpha in (0, 1) by witness triples whose signs are decided by exact
    real-root isolation."""
    rec = Findings("gs2010.sec3.neither")
    xs = sp.symbols("x1 x2 x3", nonnegative=True)
    # symbolic alpha in (0, 1): a triple each way, entries in {0, 1, a, a^2}
    pool = (sp.Integer(0), sp.Integer(1), ALPHA, ALPHA**2)
    dp_not_cond = cond_not_dp = None
    for tr in itertools.product(pool, repeat=3):
        dp = [_sign_inside(f) for f in _dp_forms(*tr, ALPHA)]
        cond = _sign_inside(condition(*tr, ALPHA))
        if dp_not_cond is None and all(s in ("0", "+") for s in dp) and cond == "-":
            dp_not_cond = tr
        if cond_not_dp is None and cond in ("0", "+") and "-" in dp:
            cond_not_dp = tr
    with rec.deciding(
        n=None,
        alpha=INTERIOR,
        kind=ALL_N,
        method="witness triples, exact real-root isolation",
        covers="every alpha in (0,1), every n >= 2",
        n_from=2,
    ) as d:  # three consecutive results
        if dp_not_cond is None or cond_not_dp is None:
            d.inconclusive("no witness triple with entries in {0, 1, a, a^2} for one of the two directions")
    if dp_not_cond and cond_not_dp:
        rec.value(
            **{"alpha-DP but not the condition": str(dp_not_cond), "the condition but not alpha-DP": str(cond_not_dp)}
        )
    timeout = ctx.solver_timeout
    for al in alphas:
        dp_at = _dp_forms(*xs, al)
        cond_at = sp.expand(condition(*xs, al))
        with rec.deciding(
            n=None,
            alpha=al,
            kind=ALL_N,
            method="exactly certified LPs over x1 + x2 + x3 = 1",
            covers="every non-negative triple (x1, x2, x3), every n >= 2",
            n_from=2,
        ) as d:
            low, _ = _lp_minimum(cond_at, dp_at, xs, timeout)
            if low >= 0:
                d.counterexample(
                    f"alpha = {al}: alpha-DP implies the condition: over every non-negative triple with "
                    f"x1 + x2 + x3 = 1 that is alpha-DP, the least value of the condition is {low} >= 0 "
                    f"(certified LP; both conditions are homogeneous)"
                )
                continue
            lows = [_lp_minimum(f, [cond_at], xs, timeout)[0] for f in dp_at]
            if min(lows) >= 0:
                d.counterexample(
                    f"alpha = {al}: the condition implies alpha-DP: over every non-negative triple with "
                    f"x1 + x2 + x3 = 1 that meets the condition, the least value of each alpha-DP form is "
                    f"{', '.join(map(str, lows))} >= 0 (certified LPs)"
                )
    rec.note(
        "gs2010 fixes alpha in [0, 1] (Section 2.1); at alpha = 0 every non-negative triple is 0-DP, so the "
        "condition implies privacy; at alpha = 1 privacy forces x1 = x2 = x3, where the condition holds"
    )
    return rec


# --- Section 3: convex hull ------------------------------------------------------------------------------------


@checks("gs2010.sec3.convex-hull")
def convex_hull(
    ctx: Context,
    hull: str = "convex",
    sizes: Sequence[int] = (1, 2, 3, 4),
    alphas: Sequence[Fraction] = (F(0), F(1, 4), F(1, 2), F(1)),
) -> Findings:
    """gs2010 Section 3: "deriving M from G_{n,alpha} amounts to proving that each column of M lies in the convex
    hull of the columns of G_{n,alpha}" (and, in Theorem 2's proof, "each column of M is actually a convex
    combination of columns of G").  M = G T with T stochastic puts column j of M at G t_j with t_j >= 0, a point
    of the cone of G's columns; t_j sums to 1 only by chance.  Witness: T re-reads every output as 0, so M = G T
    answers 0 always, derivable, and its column 0 is all ones; a convex combination of G's columns has entry sum at
    most G's largest column sum, which is below n + 1 (exact).  ``hull="cone"`` decides the cone instead."""
    rec = Findings("gs2010.sec3.convex-hull")
    for n in sizes:
        for al in alphas:
            g = definition4(n + 1, al)
            t = [[F(int(c == 0)) for c in range(n + 1)] for _ in range(n + 1)]
            m = compose(g, t)
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact column sums (Farkas: the sum of the rows)",
                covers="the derivable mechanism that always answers 0",
            ) as d:
                column = [row[0] for row in m]
                if hull == "cone":
                    if linalg.matmul(g, [[r[0]] for r in t]) != [[v] for v in column]:
                        d.inconclusive("G t_0 differs from column 0")
                    continue
                sums = [sum(g[i][j] for i in range(n + 1)) for j in range(n + 1)]
                if max(sums) < n + 1 and all(v == 1 for v in column):
                    d.counterexample(
                        f"n = {n}, alpha = {al}: M = G T with T = every output re-read as 0 (stochastic) always "
                        f"answers 0, so M is derivable and its column 0 is all ones (entry sum {n + 1}); every "
                        f"convex combination of G's columns has entry sum at most max column sum {max(sums)} < {n + 1}"
                    )
    return rec


# --- Lemma 3, proof, case 2 ----------------------------------------------------------------------------------------


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


# --- Section 4.2: all optimal mechanisms derive from G ------------------------------------------------------------

#: An optimal mechanism for the consumer with loss |i - r| and S = {0, 1} at n = 3, alpha = 1/2 (found by an exact
#: LP minimising the three-term value at rows 0-2, column 0 over that consumer's optimal mechanisms).
OPT_N, OPT_ALPHA, OPT_S = 3, F(1, 2), (0, 1)
OPT_M = [
    [F(2, 3), F(1, 3), F(0), F(0)],
    [F(1, 3), F(2, 3), F(0), F(0)],
    [F(2, 3), F(1, 3), F(0), F(0)],
    [F(1, 3), F(2, 3), F(0), F(0)],
]


def lemma5_pattern(x: Sequence[Sequence[Fraction]], a: Fraction, i: int) -> bool:
    """Lemma 5's pattern for rows i, i+1: columns 0..c1 with a x[i][j] = x[i+1][j], columns c2.. with x[i][j] =
    a x[i+1][j], and c2 - c1 in {1, 2} (c1 = -1: no such column; c2 = n+1: none)."""
    k = len(x[i])
    down = [a * x[i][j] == x[i + 1][j] for j in range(k)]
    up = [x[i][j] == a * x[i + 1][j] for j in range(k)]
    for c1 in range(-1, k):
        for c2 in (c1 + 1, c1 + 2):
            if c2 <= k and all(down[: c1 + 1]) and all(up[c2:]):
                return True
    return False


@checks("gs2010.sec4.2.optimal-derivable")
def optimal_not_derivable(
    ctx: Context,
    m: Matrix = OPT_M,
    side_information: Sequence[int] = OPT_S,
    loss: Callable = absolute_error,
    alpha: Fraction = OPT_ALPHA,
) -> Findings:
    """gs2010 Section 4.2: "Our result proves that all optimal mechanisms can be derived from the geometric
    mechanism"; the non-derivable DP mechanisms are "not optimal for any information consumer"; and "every two
    adjacent rows of every optimal mechanism must satisfy" Lemma 5's pattern.  Refuted by one exact instance: M is
    alpha-DP, its worst-case loss equals the exactly certified optimum of a legal consumer (loss |i - r|, a
    strictly monotone one), G_{n,alpha}^-1 M has a negative entry (not derivable) and rows 1, 2 of M break Lemma 5's
    pattern."""
    rec = Findings("gs2010.sec4.2.optimal-derivable")
    n = len(m) - 1
    user = MinimaxUser.of(side_information, loss(n))
    lp = optimal_mechanism_lp(user, alpha)
    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
    rec.certificate = certificate_of({"claim": "optimal_not_derivable"}, [(f"S={list(side_information)}", opt)])
    g = definition4(n + 1, alpha)
    y = derive(m, g)
    value = user.worst_case_loss(m)
    broken = [i for i in range(n) if not lemma5_pattern(m, alpha, i)]
    facts = {
        "alpha-DP": _private(m, alpha) is None,
        "rows sum to 1": all(sum(r) == 1 for r in m),
        "non-negative": all(v >= 0 for r in m for v in r),
        "optimal": value == opt.objective,
        "derivable from G": y.stochastic,
    }
    rec.value(
        optimum=opt.objective,
        loss_of_M=value,
        **{k: str(v) for k, v in facts.items()},
        **{"G^-1 M": linalg.fmt_matrix(y.remap), "rows breaking Lemma 5's pattern": str(broken)},
    )
    with rec.deciding(
        n=n,
        alpha=alpha,
        kind=BOUNDED,
        method="exactly certified LP optimum, exact solve G Y = M",
        covers="every consumer and every optimal mechanism at this (n, alpha)",
    ) as d:
        if all(facts[k] for k in ("alpha-DP", "rows sum to 1", "non-negative", "optimal")) and not y.stochastic:
            d.counterexample(
                f"n = {n}, alpha = {alpha}, loss |i - r|, S = {set(side_information)}: M = {linalg.fmt_matrix(m)} is "
                f"alpha-DP with worst-case loss {value} = the certified optimum, yet G^-1 M = "
                f"{linalg.fmt_matrix(y.remap)} has negative entries {list(y.negative_entries)}: optimal and not "
                f"derivable from G; adjacent rows {broken} (i, i+1) break Lemma 5's pattern"
            )
        else:
            d.inconclusive("this mechanism is not an optimal, non-derivable one for this consumer")
    rec.note(
        "Lemma 5 asserts that SOME optimal mechanism has the pattern (gs2010.lemma5), and Theorem 1 that the "
        "optimal loss is reached through G (gs2010.thm1); both stand.  With S a proper subset, rows outside S "
        "are free within alpha-DP, so optimal mechanisms need not derive from G"
    )
    return rec


# --- Theorem 1, proof: equation (4) and the chain after it --------------------------------------------------------

B, B1, B2 = sp.symbols("b bp bpp", real=True)
X = sp.symbols("x1 x2 x3", real=True)  # x_{i,j}, x_{i+1,j}, x_{i+2,j}


def printed_algebra(a: sp.Expr) -> dict[str, sp.Expr]:
    """Theorem 1's proof as printed: the two rewritings of (2) (as "value < 0"), (4) and the two rewritings of
    alpha^2 a + b'' + c / alpha^2."""
    x1, x2, x3 = X
    return {
        "(2), first rewriting": (x2 - a * x3) - a * (x1 - a * x2),
        "(2), second rewriting": (x2 - a * x1) - a * (x3 - a * x2),
        "a": (1 - B - a + B1 * a) / (1 - a**2),
        "c": (a - a**2 + B * a**2 - B1 * a) / (1 - a**2),
        "second": (a**3 - B * a**3 - a**4 + B1 * a**4 + B2 * a - B2 * a**3 + 1 - a - B1 + B * a) / (a * (1 - a**2)),
        "first summand": (1 - a + a**2) / a,
        "second summand": ((B + B2) * a - B1 * (1 + a**2)) / a,
    }


@checks("gs2010.thm1.algebra")
def theorem1_algebra(ctx: Context, printed: Callable[[sp.Expr], dict] = printed_algebra) -> Findings:
    """gs2010 Theorem 1, proof: (2), (1 + a^2) x2 - a (x1 + x3) < 0, rewritten as (x2 - a x3) < a (x1 - a x2) and
    as (x2 - a x1) < a (x3 - a x2) (so x1 > a x2, resp. x3 > a x2, for a > 0 by privacy's 0 <= left side);
    from a + b + c = 1 and alpha a + b' + c/alpha = 1, equation (4) gives a and c;
    then alpha^2 a + b'' + c/alpha^2 equals the printed fraction and the printed sum of two summands, the first
    "always at least 1" and the second "strictly positive by Equation (3)", i.e. a positive multiple of
    -((1 + a^2) b' - a (b + b'')).  Sympy identities for symbolic alpha in (0, 1); at alpha = 1 the two row
    equations no longer determine a (exact witness), and at alpha = 0 the printed equations divide by zero."""
    rec = Findings("gs2010.thm1.algebra")
    a, c = sp.symbols("a_ c_")
    p = printed(ALPHA)
    sol = sp.solve([a + B + c - 1, ALPHA * a + B1 + c / ALPHA - 1], [a, c], dict=True)[0]
    chain = ALPHA**2 * sol[a] + B2 + sol[c] / ALPHA**2
    two = (1 + ALPHA**2) * X[1] - ALPHA * (X[0] + X[2])  # (2): this value < 0
    checks_ = {
        "(2), first rewriting": sp.expand(two - p["(2), first rewriting"]),
        "(2), second rewriting": sp.expand(two - p["(2), second rewriting"]),
        "(4): a": sp.simplify(sol[a] - p["a"]),
        "(4): c": sp.simplify(sol[c] - p["c"]),
        "alpha^2 a + b'' + c/alpha^2 = the printed fraction": sp.simplify(chain - p["second"]),
        "= first summand + second summand": sp.simplify(chain - p["first summand"] - p["second summand"]),
        "second summand = -((1+a^2) b' - a (b + b'')) / alpha": sp.simplify(
            p["second summand"] + ((1 + ALPHA**2) * B1 - ALPHA * (B + B2)) / ALPHA
        ),
    }
    first_minus_one = sp.factor(sp.simplify(p["first summand"] - 1) * ALPHA)
    with rec.deciding(
        n=None,
        alpha=INTERIOR,
        kind=ALL_N,
        method="sympy identities, exact real-root isolation",
        covers="every alpha in (0,1) and every b, b', b''",
        n_from=2,
    ) as d:  # rows i, i+1, i+2
        wrong = [k for k, v in checks_.items() if v != 0]
        if wrong:
            point = {
                ALPHA: sp.Rational(1, 2),
                B: sp.Rational(1, 3),
                B1: sp.Rational(1, 5),
                B2: sp.Rational(1, 7),
                X[0]: sp.Rational(1, 2),
                X[1]: sp.Rational(1, 3),
                X[2]: sp.Rational(1, 4),
            }
            first = wrong[0]
            d.counterexample(
                f"{first} fails: at alpha = 1/2, b = 1/3, b' = 1/5, b'' = 1/7, x = (1/2, 1/3, 1/4) the "
                f"difference is "
                f"{checks_[first].subs(point)}"
            )
        elif _sign_inside(first_minus_one) not in ("0", "+"):
            d.counterexample(f"the first summand minus 1 is {first_minus_one}/alpha, negative somewhere in (0, 1)")
    rec.value(**{"first summand - 1": f"{first_minus_one}/alpha"})
    with rec.deciding(
        n=None,
        alpha=1,
        kind=ALL_N,
        method="exact solutions of the two row equations",
        covers="every b, b' at alpha = 1",
        n_from=2,
    ) as d:
        # alpha = 1: a + b + c = 1 and a + b' + c = 1; with b = b' = 0 both (a, c) = (1, 0) and (0, 1) solve them
        sols = [(F(1), F(0)), (F(0), F(1))]
        if all(av + cv == 1 for av, cv in sols) and sp.denom(sp.together(p["a"])).subs(ALPHA, 1) == 0:
            d.counterexample(
                "alpha = 1, b = b' = 0: the row equations a + b + c = 1 and 1 a + b' + c/1 = 1 are "
                "solved by (a, c) = (1, 0) and by (0, 1), so (4) does not follow; its denominator "
                "1 - alpha^2 is 0"
            )
    with rec.deciding(
        n=None,
        alpha=0,
        kind=ALL_N,
        method="the printed expressions at alpha = 0",
        covers="every b, b', b'' at alpha = 0",
        n_from=2,
    ) as d:
        if sp.denom(sp.together(p["first summand"])).subs(ALPHA, 0) == 0:
            d.counterexample(
                "alpha = 0: the row equation alpha a + b' + c/alpha = 1 and the first summand "
                "(1 - alpha + alpha^2)/alpha divide by alpha = 0; the printed chain has no value"
            )
    rec.note("Theorem 1(2) itself is checked at alpha in {0, 1} by gs2010.thm1; this claim is the printed algebra")
    return rec


# --- Sections 2.4.3 and 2.5: the programs' entries "are positive" --------------------------------------------------

#: (where, n, alpha, side information) of a consumer whose unique optimum has zero entries: Table 1's consumer for the
#: interaction with G (Section 2.4.3); S = {0} with loss |i - r| for the mechanism (Section 2.5).
POSITIVE_CASES = (
    ("Section 2.4.3, interaction with G", 3, F(1, 4), (0, 1, 2, 3)),
    ("Section 2.5, mechanism", 2, F(1, 2), (0,)),
)


@checks("gs2010.sec2.positive")
def positive_entries(ctx: Context, strict: bool = True, cases: Sequence[tuple] = POSITIVE_CASES) -> Findings:
    """gs2010 Sections 2.4.3 and 2.5: the programs' constraints say "all entries of T^* are positive" and "All
    elements x_{i,r} are positive".  Read as printed (strictly positive), a program whose unique minimiser over
    non-negative entries has a zero entry has no minimiser at all: the infimum is approached, never attained.
    Each case is one exactly certified LP with its uniqueness decided.  ``strict=False`` reads "non-negative"."""
    rec = Findings("gs2010.sec2.positive")
    certs = []
    for where, n, al, side in cases:
        user = MinimaxUser.of(side, absolute_error(n))
        if where.startswith("Section 2.4.3"):
            lp, prefix = optimal_interaction_lp(user, definition4(n + 1, al)), "T"
        else:
            lp, prefix = optimal_mechanism_lp(user, al), "x"
        got = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=True)
        certs.append((where, got))
        names = [nm for nm in lp.names if nm.startswith(prefix)]
        zeros = [nm for nm in names if got.value(nm) == 0]
        rec.value(
            **{
                f"{where}: optimum": got.objective,
                f"{where}: unique": str(got.unique),
                f"{where}: zero entries": ", ".join(zeros),
            }
        )
        with rec.deciding(
            n=n,
            alpha=al,
            kind=BOUNDED,
            method="exactly certified LP, uniqueness decided",
            covers=f"{where}: the program for loss |i - r|, S = {set(side)}",
        ) as d:
            if got.unique is None:
                d.inconclusive("uniqueness of the optimum undecided")
            elif strict and got.unique and zeros:
                d.counterexample(
                    f"{where}, n = {n}, alpha = {al}, loss |i - r|, S = {set(side)}: the unique optimum "
                    f"(value {got.objective}) over non-negative entries has zero entries "
                    f"{', '.join(zeros)}; with every entry required positive the minimum is not attained"
                )
    rec.certificate = certificate_of({"claim": "positive_entries"}, certs)
    return rec


# --- Theorem 2's and Lemma 3's proofs: T = G^-1 M ------------------------------------------------------------------


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
