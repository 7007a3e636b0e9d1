"""gs2010 Sections 2.4.3 and 2.5: assertions about the programs' variables and post-processing.

Each check decides one sentence (or a few sentences saying one thing) that the assertion inventory
(paper_tables/assertions/gs2010.toml) points at.  gs2010 fixes alpha in [0, 1] once (Section 2.1), so
every check decides the ends 0 and 1 as well as the open interval.  Everything is exact.

- ``gs2010.sec2.variables``: Sections 2.4.3, 2.5, 3 count n^2 entries of a matrix indexed by N = {0..n}.
- ``gs2010.sec2.5.postprocessing``: the induced mechanism x = y T of an alpha-DP y is alpha-DP.
- ``gs2010.sec2.positive``: the programs' "all entries are positive", read as printed (strictly).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.assertions.gs2010.common import ALPHA, first_violation
from proofs.boundary.geometric import definition4
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.remaps import compose
from udpm.core.users import MinimaxUser, absolute_error
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import solve
from udpm.lp.minimax import optimal_interaction_lp, optimal_mechanism_lp

F = Fraction


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
                    bad = first_violation(compose(g, tm), F(level(al)))
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
