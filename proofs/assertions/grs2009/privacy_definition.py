"""grs2009 Sections 1-2: assertions about alpha-differential privacy itself, checked like any other claim.

Each check decides the statement as printed (quantifiers, constants and the printed alpha range); its parameters
carry the printed values, so that a test can feed a changed statement through them.

* grs2009.ex2.1: Example 2.1, the alpha-geometric pmf is a distribution and adding it is alpha-DP, alpha in [0, 1].
* grs2009.sec1.monotone: Section 1, alpha-DP implies alpha'-DP for alpha' <= alpha; input-independent mechanisms.
* grs2009.fn1: footnote 1, pointwise and subset ratio bounds are equivalent on a countable range.
* grs2009.sec2.1: Section 2.1, for oblivious mechanisms, DP over neighbours = ratio bounds on adjacent results.
* grs2009.sec2.3: Section 2.3, a remap preserves alpha-DP.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.assertions.grs2009.common import ONE, SYMBOLIC_ALPHA, witnessed
from proofs.boundary.geometric import point_mass_pmf_at_zero
from proofs.geometric.case_split import a as ALPHA_SYM
from proofs.geometric.case_split import prove_sums_to_one, prove_translation_invariant_dp
from proofs.geometric.noise import geometric_pmf
from udpm.claims.instances import ALL_N, BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.statements import AlphaRange
from udpm.smt.solvers import decide

F = Fraction


@checks("grs2009.ex2.1")
def example_2_1(
    ctx: Context, pmf: Callable[[sp.Expr], sp.Expr] = geometric_pmf, alpha_range: str = "[0, 1]"
) -> Findings:
    """grs2009 Example 2.1 for the printed alpha in [0, 1] (Section 2.1): Pr[Z = z] = (1-a)/(1+a) a^|z| is a
    distribution over Z and adding it is alpha-DP.  alpha in (0, 1): sympy identities for every z (the sum over Z
    and the ratio of adjacent points, proofs.geometric.case_split).  alpha = 0: the pmf with 0^0 = 1 is the point mass
    at 0
    (the identity), 0-DP.  alpha = 1, a closed end of the printed range: the pmf is 0 at every z, so it sums to 0
    and defines no mechanism."""
    rec = Findings("grs2009.ex2.1")
    for part, (ok, msg) in (
        ("sums to 1", prove_sums_to_one(pmf)),
        ("adjacent ratios in [alpha, 1/alpha]", prove_translation_invariant_dp(pmf)),
    ):
        rec.decide(
            ok, msg, n=None, alpha=SYMBOLIC_ALPHA, kind=ALL_N, method="sympy identity over a case split", part=part
        )
    ends = AlphaRange.parse(alpha_range).closed_ends()
    if F(0) in ends:
        point_mass_pmf_at_zero(rec)
    if F(1) in ends:
        with rec.deciding(
            n=None, alpha=1, kind=ALL_N, method="the printed pmf at alpha = 1, exact", covers="every z in Z, every n"
        ) as d:
            at_one = {z: sp.simplify(pmf(sp.Integer(z)).subs(ALPHA_SYM, 1)) for z in range(-2, 3)}
            coefficient = sp.simplify((pmf(sp.Integer(0)) / ALPHA_SYM**0).subs(ALPHA_SYM, 1))
            if coefficient == 0:  # the factor (1 - a)/(1 + a) vanishes: every Pr[Z = z] is 0
                d.counterexample(
                    f"alpha = 1 (in the printed range [0, 1] of Section 2.1): Pr[Z = z] = (1-1)/(1+1) 1^|z| = 0 for "
                    f"every integer z ({at_one} near 0), so the pmf sums to 0, not 1: the 1-geometric mechanism "
                    "of Example 2.1 is no mechanism, and 'this mechanism is alpha-differentially private' has no "
                    "object there"
                )
    rec.note(
        "grs2009 fixes alpha in [0, 1] (Section 2.1) and Example 2.1 does not narrow it (grs2011 Example 2.1 "
        "restricts the formula to (0, 1) and defines the 1-geometric mechanism apart); alpha = 0 holds with 0^0 = 1"
    )
    return rec


BOUNDARY_ALPHAS = (F(0), F(1, 3), F(1, 2), F(1))


def _dp_pair(u: z3.ArithRef, v: z3.ArithRef, a: Fraction) -> z3.BoolRef:
    """u/v in [a, 1/a] with 0/0 = 1, multiplied out (the reading that needs no division): u >= a v, v >= a u."""
    q = z3.RealVal(f"{a.numerator}/{a.denominator}")
    return z3.And(u >= q * v, v >= q * u)


def _simplex(xs: Sequence[z3.ArithRef]) -> list[z3.BoolRef]:
    return [*(x >= 0 for x in xs), z3.Sum(xs) == 1]


@checks("grs2009.sec2.3")
def remap_preserves_privacy(ctx: Context, factor: Fraction = ONE) -> Findings:
    """grs2009 Section 2.3: y o x is alpha-DP for alpha-DP x and every randomized remap y.  A pair of neighbouring
    rows suffices.  For fixed rows the band condition on y o x is linear in y, so it holds for every stochastic y
    iff it holds at the vertices of that polytope, the deterministic remaps; then it is linear in the rows.  Per
    (|R|, alpha) one z3 query (linear): no alpha-DP rows and deterministic remap with a ratio of y o x outside
    [alpha', 1/alpha'], alpha' = ``factor`` * alpha (1 as printed; a false variant asks for more).  |R| <= 3,
    alpha in {0, 1/3, 1/2, 1}."""
    rec = Findings("grs2009.sec2.3")
    for k in (2, 3):
        for a in BOUNDARY_ALPHAS:
            target = min(F(1), factor * a)
            with rec.deciding(
                n=None,
                alpha=a,
                kind=BOUNDED,
                method="z3 unsat (linear, per deterministic remap)",
                range_size=k,
                covers=f"every alpha-DP pair of rows over a range of {k}, every remap",
            ) as d:
                x0 = z3.Reals(" ".join(f"x0_{r}" for r in range(k)))
                x1 = z3.Reals(" ".join(f"x1_{r}" for r in range(k)))
                prem = _simplex(x0) + _simplex(x1) + [_dp_pair(x0[r], x1[r], a) for r in range(k)]
                broken = []
                for m in itertools.product(range(k), repeat=k):
                    for j in set(m):
                        o0 = z3.Sum([x0[r] for r in range(k) if m[r] == j])
                        o1 = z3.Sum([x1[r] for r in range(k) if m[r] == j])
                        broken.append(z3.Not(_dp_pair(o0, o1, target)))
                witnessed(rec, prem, f"alpha-DP rows over a range of {k} at alpha = {a}", ctx.solver_timeout)
                res = decide([*prem, z3.Or(broken)], ctx.solver_timeout)
                if not res.unsat:
                    d.counterexample(
                        f"|R|={k}, alpha={a}: alpha-DP rows with a remap output outside the {target} band: {res.model}"
                    )
    rec.note("alpha-DP read as x_ir >= alpha x_(i+1)r and x_(i+1)r >= alpha x_ir (0/0 = 1; at alpha = 0 every pair)")
    return rec


@checks("grs2009.sec1.monotone")
def larger_alpha_more_privacy(ctx: Context, pairs: Sequence[tuple[Fraction, Fraction]] | None = None) -> Findings:
    """grs2009 Section 1: "Larger values of alpha correspond to greater levels of privacy": an alpha-DP mechanism is
    alpha'-DP for alpha' <= alpha (z3 per pair (alpha, alpha'), one output of two neighbouring rows suffices); and
    "always returning random noise" (rows independent of the input) achieves every level alpha in [0, 1] (equal
    entries: ratio 1, or 0/0 = 1).  ``pairs`` (alpha, alpha') lets a test ask for a false direction."""
    rec = Findings("grs2009.sec1.monotone")
    pairs = pairs or [(a, b) for a in BOUNDARY_ALPHAS for b in BOUNDARY_ALPHAS if b < a]
    u, v = z3.Reals("u v")
    for a, b in pairs:
        with rec.deciding(
            n=None,
            alpha=a,
            kind=BOUNDED,
            method="z3 unsat (linear)",
            weaker_alpha=b,
            covers="every pair of neighbouring entries of every mechanism",
        ) as d:
            premises = [u >= 0, v >= 0, u <= 1, v <= 1, _dp_pair(u, v, a)]
            witnessed(rec, premises, f"an {a}-DP pair of entries", ctx.solver_timeout)
            res = decide([*premises, z3.Not(_dp_pair(u, v, b))], ctx.solver_timeout)
            if not res.unsat:
                d.counterexample(f"an {a}-DP pair of entries that is not {b}-DP: u={res.model[u]}, v={res.model[v]}")
    for a in BOUNDARY_ALPHAS:
        with rec.deciding(
            n=None,
            alpha=a,
            kind=BOUNDED,
            method="z3 unsat (linear)",
            part="random noise",
            covers="every input-independent mechanism (equal entries in neighbouring rows)",
        ) as d:
            witnessed(rec, [u >= 0, u <= 1], "an entry of an input-independent mechanism", ctx.solver_timeout)
            res = decide([u >= 0, u <= 1, z3.Not(_dp_pair(u, u, a))], ctx.solver_timeout)
            if not res.unsat:
                d.counterexample(f"equal entries {res.model[u]} outside the {a} band")
    return rec


@checks("grs2009.fn1")
def footnote_1(ctx: Context, subsets: Callable[[int], list[tuple[int, ...]]] | None = None) -> Findings:
    """grs2009 footnote 1: the ratio bound for every output r is equivalent to the bound for every subset of the
    range.  Per (|R|, alpha), two neighbouring rows over R: z3 finds no rows that meet one bound and break the
    other (every subset; the singletons give one direction, summing the pointwise bounds the other; 0/0 = 1).
    ``subsets`` (default: every subset) lets a test weaken the usual definition.  A countable R: the finite
    ranges |R| <= 4 here; summing term by term extends to countable sums."""
    rec = Findings("grs2009.fn1")
    for k in (2, 3, 4):
        sets = subsets(k) if subsets else [c for m in range(1, k + 1) for c in itertools.combinations(range(k), m)]
        for a in BOUNDARY_ALPHAS:
            with rec.deciding(
                n=None,
                alpha=a,
                kind=BOUNDED,
                method="z3 unsat (linear)",
                range_size=k,
                covers=f"every pair of neighbouring rows over a range of {k}",
            ) as d:
                x0, x1 = z3.Reals(" ".join(f"p{r}" for r in range(k))), z3.Reals(" ".join(f"q{r}" for r in range(k)))
                point = z3.And([_dp_pair(x0[r], x1[r], a) for r in range(k)])
                subset = z3.And([_dp_pair(z3.Sum([x0[r] for r in s]), z3.Sum([x1[r] for r in s]), a) for s in sets])
                witnessed(rec, [*_simplex(x0), *_simplex(x1)], f"two rows over a range of {k}", ctx.solver_timeout)
                res = decide([*_simplex(x0), *_simplex(x1), point != subset], ctx.solver_timeout)
                if not res.unsat:
                    d.counterexample(f"|R|={k}, alpha={a}: rows {res.model} meet one definition and not the other")
    return rec


def count_pairs(domain: int, n: int, predicate: frozenset[int]) -> set[tuple[int, int]]:
    """{(f(d1), f(d2)) : d1, d2 neighbours in D^n} for D = {0..domain-1} and the count of rows in ``predicate``."""
    out = set()
    for d1 in itertools.product(range(domain), repeat=n):
        f1 = sum(v in predicate for v in d1)
        for pos in range(n):
            for val in range(domain):
                out.add((f1, f1 - (d1[pos] in predicate) + (val in predicate)))
    return out


@checks("grs2009.sec2.1")
def oblivious_equivalence(ctx: Context, step: int = 1) -> Findings:
    """grs2009 Section 2.1: for an oblivious mechanism and a count query, alpha-DP over neighbouring databases is
    equivalent to x_ir/x_(i+1)r in [alpha, 1/alpha] for i in N minus {n}.  Neighbours constrain exactly the pairs
    (f(d1), f(d2)) they realise, so the equivalence holds iff those pairs are {(i, j) : |i - j| <= ``step``} (pairs
    i = j give ratio 1): every neighbouring pair differs by at most 1 and every adjacent pair occurs.  Decided by
    enumeration of D^n for |D| <= 3, every non-trivial predicate, n <= 3; alpha-independent."""
    rec = Findings("grs2009.sec2.1")
    for n in range(1, 4):
        with rec.deciding(
            n=n,
            alpha="symbolic alpha in [0,1]",
            kind=BOUNDED,
            method="exact enumeration of D^n",
            covers="|D| in {2, 3}, every non-trivial predicate",
        ) as d:
            want = {(i, j) for i in range(n + 1) for j in range(n + 1) if abs(i - j) <= step}
            spaces = [
                (dom, frozenset(p))
                for dom in (2, 3)
                for m in range(1, dom)
                for p in itertools.combinations(range(dom), m)
            ]
            bad = next(((dom, p, got) for dom, p in spaces if (got := count_pairs(dom, n, p)) != want), None)
            if bad:
                dom, p, got = bad
                d.counterexample(
                    f"|D|={dom}, predicate {set(p)}, n={n}: neighbours realise the count pairs "
                    f"{sorted(got)}, not those with |i - j| <= {step}"
                )
    return rec
