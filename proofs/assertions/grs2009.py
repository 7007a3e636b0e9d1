"""grs2009 assertions outside the numbered results, checked like any other claim.

Each check decides the statement as printed (quantifiers, constants and the printed alpha range);
its parameters carry the printed values, so that a test can feed a changed statement through them.

* grs2009.ex2.1: the alpha-geometric pmf is a distribution and adding it is alpha-DP, alpha in [0, 1].
* grs2009.lp: the user-specific LP (2)-(6) with its privacy rows quantified as printed.
* grs2009.lemma5.6.proof: the elimination identity and the two inequalities of Lemma 5.6's proof.
* grs2009.lemma5.11.count: the count of responses the proof of Lemma 5.11 maps to each column (on optimal
  vertices of full-support, strictly monotone users, the proof's setting: it rests on grs2009.lemma5.9.strict).
* grs2009.fn4: footnote 4, vertices that are not remaps of G are optimal for no user.
* grs2009.sec2.3: a remap preserves alpha-DP.
* grs2009.sec1.monotone: alpha-DP implies alpha'-DP for alpha' <= alpha; input-independent mechanisms.
* grs2009.fn1: pointwise and subset ratio bounds are equivalent on a countable range.
* grs2009.sec2.1: for oblivious mechanisms, DP over neighbours = ratio bounds on adjacent results.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.assertions.footnotes import FN3_ALPHA, FN3_N, FN3_USER, FN3_X
from proofs.boundary.geometric import point_mass_pmf_at_zero
from proofs.geometric.mechanism import a as ALPHA_SYM
from proofs.geometric.mechanism import geometric_pmf, prove_sums_to_one, prove_translation_invariant_dp
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, TABLE
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.statements import AlphaRange
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import compose, deterministic_remap
from udpm.core.signatures import SLACK, ZERO, signature
from udpm.core.users import BayesianUser, Loss, binary_loss
from udpm.lp.certify import is_vertex, solve
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp, mechanism_var
from udpm.smt.solvers import decide, premise_witness

F = Fraction
SYMBOLIC_ALPHA = "symbolic alpha in (0,1)"
ONE, NIL = F(1), F(0)
Matrix = list[list[Fraction]]


def witnessed(rec: Findings, premises: Sequence[z3.BoolRef], what: str, timeout_s: float) -> None:
    """Show the hypotheses of an unsat query satisfiable (a contradictory premise proves anything) and record the
    model as a value; VacuousPremise otherwise."""
    model = premise_witness(premises, timeout_s, f"{rec.claim}: {what}")
    rec.value(**{f"premise witness: {what}": ", ".join(f"{k}={v}" for k, v in model.items())})


# --- grs2009.ex2.1 -----------------------------------------------------------------------------------------


@checks("grs2009.ex2.1")
def example_2_1(
    ctx: Context, pmf: Callable[[sp.Expr], sp.Expr] = geometric_pmf, alpha_range: str = "[0, 1]"
) -> Findings:
    """grs2009 Example 2.1 for the printed alpha in [0, 1] (Section 2.1): Pr[Z = z] = (1-a)/(1+a) a^|z| is a
    distribution over Z and adding it is alpha-DP.  alpha in (0, 1): sympy identities for every z (the sum over Z
    and the ratio of adjacent points, proofs.geometric.mechanism).  alpha = 0: the pmf with 0^0 = 1 is the point mass
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


# --- grs2009.lp --------------------------------------------------------------------------------------------

PRINTED_R: Callable[[int], range] = lambda n: range(n)  # noqa: E731  r in N \ {n}, as printed in (3), (4)
PRINTED_I: Callable[[int], range] = lambda n: range(n + 1)  # noqa: E731  i in N, as printed
READINGS = ("drop", "zero")  # x_{(n+1)r} does not exist: drop the row, or read the missing variable as 0


def printed_lp(user: BayesianUser, a: Fraction, rs: Sequence[int], is_: Sequence[int], beyond: str) -> LinearProgram:
    """LP (2)-(6) with privacy rows (3), (4) for r in ``rs`` and i in ``is_``; a row naming x_{(n+1)r} is dropped
    (``beyond='drop'``) or has that variable read as 0 (``'zero'``).  Nonnegativity (6) is the LP's x >= 0."""
    n = user.n
    names = tuple(mechanism_var(i, j) for i in range(n + 1) for j in range(n + 1))
    v = {nm: k for k, nm in enumerate(names)}
    rows: list[Constraint] = []
    for r in rs:
        for i in is_:
            x0 = v[mechanism_var(i, r)]
            if i + 1 <= n:
                x1 = v[mechanism_var(i + 1, r)]
                c3, c4 = ((x0, F(1)), (x1, -a)), ((x0, a), (x1, F(-1)))
            elif beyond == "drop":
                continue
            else:
                c3, c4 = ((x0, F(1)),), ((x0, a),)
            rows.append(Constraint(c3, ">=", F(0), f"(3) r={r} i={i}"))
            rows.append(Constraint(c4, "<=", F(0), f"(4) r={r} i={i}"))
    for i in range(n + 1):
        rows.append(Constraint(tuple((v[mechanism_var(i, j)], F(1)) for j in range(n + 1)), "=", F(1), f"(5) i={i}"))
    return LinearProgram(names, bayesian_lp(user, a).objective, tuple(rows), "grs2009 (2)-(6) as printed")


def _row_key(c: Constraint) -> tuple:
    return (tuple(sorted(c.coeffs)), c.sense, c.rhs)


def _implied(rows_of: LinearProgram, row: Constraint, ctx: Context) -> bool:
    """Every point of ``rows_of``'s polytope satisfies ``row`` (min of its slack >= 0, an exact LP optimum)."""
    sign = F(1) if row.sense == ">=" else F(-1)
    lp = LinearProgram(rows_of.names, tuple((j, sign * c) for j, c in row.coeffs), rows_of.rows, "slack")
    return solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False).objective >= sign * row.rhs


def _matrix(values: Sequence[Fraction], n: int) -> Matrix:
    return [list(values[i * (n + 1) : (i + 1) * (n + 1)]) for i in range(n + 1)]


@checks("grs2009.lp")
def user_specific_lp(
    ctx: Context,
    r_of: Callable[[int], Sequence[int]] = PRINTED_R,
    i_of: Callable[[int], Sequence[int]] = PRINTED_I,
    readings: Sequence[str] = READINGS,
) -> Findings:
    """grs2009 Section 5: "the following LP whose solution is an optimal mechanism for this user", with the privacy
    rows (3), (4) quantified as printed: for all r in N minus {n} and all i in N.  Per (n, alpha) and reading of the
    missing x_{(n+1)r}: if the printed rows are exactly alpha-DP's rows (Section 2.1: every r in N, i in N minus
    {n}) the LP is the right one for every user; otherwise the uniform-prior, binary-loss user's certified optimum
    of the printed LP is compared with the certified optimum over alpha-DP mechanisms, and its solution is tested
    for alpha-DP; where that user shows nothing, the two polytopes are compared row by row (exact LPs)."""
    rec = Findings("grs2009.lp")
    for n in range(1, 4):
        for a in (F(1, 2), F(1, 3)):
            user = BayesianUser.of([F(1, n + 1)] * (n + 1), binary_loss(n))
            right = bayesian_lp(user, a)
            for beyond in readings:
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=BOUNDED,
                    method="exact LP optima and row-by-row polytope comparison",
                    covers="every user: the printed LP's polytope against the alpha-DP mechanisms with range N",
                    reading=beyond,
                ) as d:
                    lp = printed_lp(user, a, r_of(n), i_of(n), beyond)
                    if {_row_key(c) for c in lp.rows} == {_row_key(c) for c in right.rows}:
                        continue  # the same LP for every user
                    got = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
                    best = solve(right, timeout_s=ctx.solver_timeout, decide_unique=False)
                    x = _matrix(got.x, n)
                    bad = dp_violations(x, a)
                    if got.objective != best.objective or bad:
                        d.counterexample(
                            f"n={n}, alpha={a}, reading '{beyond}' of x_(n+1)r, uniform prior, binary loss: the "
                            f"printed LP's certified optimum is {got.objective} at X = {linalg.fmt_matrix(x)}"
                            + (f", which is not {a}-DP ({bad[0]})" if bad else "")
                            + f"; the optimum over {a}-DP mechanisms with range N is {best.objective}"
                        )
                        continue
                    same = all(_implied(lp, c, ctx) for c in right.rows) and all(
                        _implied(right, c, ctx) for c in lp.rows
                    )
                    if not same:
                        d.counterexample(f"n={n}, alpha={a}: the printed LP's polytope differs from alpha-DP's")
    rec.note(
        "as printed, (3) and (4) run over r in N minus {n} and i in N: column n has no privacy row, and i = n names "
        "x_(n+1)r, which does not exist (reading 'drop': the row is absent; 'zero': x_(n+1)r = 0, which forces "
        "columns 0..n-1 to 0); Section 2.1's constraint is r in R, i in N minus {n}, the quantifiers swapped"
    )
    return rec


# --- grs2009.lemma5.6.proof --------------------------------------------------------------------------------

_a, _b, _bp, _A, _c = sp.symbols("alpha b bprime a c", positive=True)


def _printed_rhs(al: sp.Expr, b: sp.Expr, bp: sp.Expr) -> sp.Expr:
    return 1 / al + al - 1 + b - bp * al


def _printed_bound(al: sp.Expr) -> sp.Expr:
    return 1 / al + al - 1


@checks("grs2009.lemma5.6.proof")
def lemma_5_6_proof(
    ctx: Context,
    rhs: Callable[[sp.Expr, sp.Expr, sp.Expr], sp.Expr] = _printed_rhs,
    bound: Callable[[sp.Expr], sp.Expr] = _printed_bound,
) -> Findings:
    """grs2009 Lemma 5.6's proof: with a + b + c = 1 (7) and alpha a + b' + c/alpha = 1 (8), alpha^2 a + b'/alpha +
    c/alpha^2 = 1/alpha + alpha - 1 + b - b' alpha (sympy: a, c solved from (7), (8), the difference simplified);
    b - b' alpha >= 0 for alpha-DP b, b' (z3: no b, b' with alpha b <= b' <= b/alpha and b - b' alpha < 0);
    1/alpha + alpha - 1 > 1 for alpha in (0, 1) (sympy: the difference times alpha is (1 - alpha)^2)."""
    rec = Findings("grs2009.lemma5.6.proof")
    sym = dict(n=None, alpha=SYMBOLIC_ALPHA, kind=ALL_N, n_from=2)  # rows i, i+1 of C, i <= n - 2
    sol = sp.solve([_A + _b + _c - 1, _a * _A + _bp + _c / _a - 1], [_A, _c], dict=True)[0]
    lhs = _a**2 * sol[_A] + _bp / _a + sol[_c] / _a**2
    with rec.deciding(**sym, method="sympy: eliminate a, c with (7), (8)", part="the identity") as d:
        diff = sp.simplify(lhs - rhs(_a, _b, _bp))
        if diff != 0:
            pt = {_a: sp.Rational(1, 2), _b: sp.Rational(1, 3), _bp: sp.Rational(1, 4)}
            d.counterexample(
                f"alpha^2 a + b'/alpha + c/alpha^2 - (printed right side) = {diff}; at alpha=1/2, b=1/3, b'=1/4 the "
                f"left side is {lhs.subs(pt)}, the printed right side {sp.simplify(rhs(_a, _b, _bp).subs(pt))}"
            )
    rec.value(identity=f"alpha^2 a + b'/alpha + c/alpha^2 = {sp.simplify(lhs)}")
    al, b, bp = z3.Reals("alpha b bp")
    with rec.deciding(**sym, method="z3 unsat (NRA)", part="b - b' alpha >= 0 for alpha-DP b, b'") as d:
        lo = rhs(_a, _b, _bp) - (_b - _bp * _a)  # what the printed right side adds to b - b' alpha
        if sp.simplify(lo - bound(_a)) != 0:
            d.counterexample(
                f"the printed right side minus (b - b' alpha) is {sp.simplify(lo)}, not the bound {bound(_a)}"
            )
        else:
            premises = [al > 0, al < 1, b > 0, bp >= al * b, bp * al <= b]
            witnessed(rec, premises, "alpha in (0, 1), alpha-DP b > 0, b'", ctx.solver_timeout)
            out = decide([*premises, b - bp * al < 0], ctx.solver_timeout)
            if not out.unsat:
                d.counterexample(f"alpha-DP b, b' with b - b' alpha < 0: {out.model}")
    with rec.deciding(**sym, method="sympy: factor", part="1/alpha + alpha - 1 > 1 for alpha in (0, 1)") as d:
        excess = sp.factor(sp.simplify((bound(_a) - 1) * _a))
        ok = sp.simplify(excess - (1 - _a) ** 2) == 0
        if not ok:
            pt = next((q for q in (sp.Rational(1, 2), sp.Rational(1, 10), sp.Rational(9, 10)) if bound(q) <= 1), None)
            if pt is not None:
                d.counterexample(f"at alpha = {pt} the bound is {bound(pt)} <= 1")
            else:
                d.inconclusive(f"(bound - 1) alpha = {excess}, not (1 - alpha)^2; no rational point found")
    return rec


# --- grs2009.lemma5.11.count -------------------------------------------------------------------------------


def proof_intervals(sig: list[list[str]]) -> list[tuple[int, int, int, int]]:
    """Per non-Z column i of a constraint matrix: (k_i, s_i, S_i, the size of i + S_(i-1) .. i + S_i)."""
    n = len(sig)
    out, big = [], 0
    nonzero = [j for j in range(n + 1) if any(sig[r][j] != ZERO for r in range(n))]
    for i, k in enumerate(nonzero):
        s_i = sum(sig[r][k] == SLACK for r in range(n))
        lo, hi = i + big, i + big + s_i
        big += s_i
        out.append((k, s_i, big, hi - lo + 1))
    return out


def interval_remaps(n: int):
    """Every deterministic remap of G sending consecutive blocks of 0..n to increasing outputs: block sizes (a
    composition of n + 1) and the outputs they go to.  Their constraint matrices are Lemma 5.9's column forms."""
    for q in range(1, n + 2):
        for cuts in itertools.combinations(range(1, n + 1), q - 1):
            bounds = (0, *cuts, n + 1)
            for cols in itertools.combinations(range(n + 1), q):
                mapping = [cols[b] for b in range(q) for _ in range(bounds[b], bounds[b + 1])]
                yield mapping


def _printed_count(s_i: int, big_s: int) -> int:
    return big_s + 1


#: Found by a seeded search over full-support priors and strictly monotone losses at n = 2, alpha = 1/2: the
#: certified unique optimum (so an optimal vertex) has an S in its first column and a later non-Z column.
COUNT_USER = BayesianUser.of(
    [F(1, 2), F(5, 12), F(1, 12)],
    Loss.from_matrix([[0, F(7, 4), F(13, 4)], [F(1, 4), 0, F(1, 4)], [F(17, 4), 2, 0]]),
)


def _mismatch(sig: list[list[str]], count: Callable[[int, int], int]) -> tuple | None:
    return next(
        (
            (i, k, s_i, big, size)
            for i, (k, s_i, big, size) in enumerate(proof_intervals(sig))
            if count(s_i, big) != size
        ),
        None,
    )


def _text(sig: list[list[str]]) -> str:
    return " / ".join(" ".join(r) for r in sig)


@checks("grs2009.lemma5.11.count")
def lemma_5_11_count(
    ctx: Context, count: Callable[[int, int], int] = _printed_count, user: BayesianUser = COUNT_USER
) -> Findings:
    """grs2009 Lemma 5.11's proof maps the integers i + S_(i-1) .. i + S_i to k_i and says "S_i + 1 responses of G
    are mapped to k_i"; the interval has s_i + 1 integers.  Decided (1) on the certified unique optimum (an optimal
    vertex) of a full-support, strictly monotone user at n = 2, alpha = 1/2; (2) on Figure 3's printed constraint
    matrix (n = 5); (3) for every constraint matrix of Lemma 5.9's form with s = z at n <= 4 (those of the block
    remaps of G, Lemma 5.10), a superset of the optimal vertices' matrices by Lemma 5.9 (for full-support,
    strictly monotone users: grs2009.lemma5.9.strict, declared depends_on): recorded as an instance
    only where the count holds on all of them (a mismatch there need not be an optimal vertex: a value)."""
    rec = Findings("grs2009.lemma5.11.count")
    a = F(1, 2)
    best = solve(bayesian_lp(user, a), timeout_s=ctx.solver_timeout)
    x = _matrix(best.x, user.n)
    sig = signature(x, a)
    bad = _mismatch(sig, count)
    witness = ""
    if bad and best.unique and user.loss.is_strictly_legal() and all(user.prior):
        i, k, s_i, big, size = bad
        witness = (
            f"n={user.n}, alpha={a}, prior {list(map(str, user.prior))}, strictly monotone loss "
            f"{[list(map(str, r)) for r in user.loss.values]}: the unique optimum X = {linalg.fmt_matrix(x)} "
            f"(a vertex) "
            f"has C = {_text(sig)}; its non-Z column i={i} (k_i={k}) has s_i={s_i}, S_i={big}: the proof maps "
            f"{size} integer(s), i + S_(i-1) .. i + S_i, to it; the stated count is {count(s_i, big)}"
        )
    rec.decide(
        False if witness else True,
        witness,
        n=user.n,
        alpha=a,
        kind=BOUNDED if witness else SAMPLED,
        method="certified unique optimum and its constraint matrix",
        covers="constraint matrices of optimal vertices (one refutes the count)",
    )
    fig3 = [
        ["↓", "0", "↑", "↑", "↑", "↑"],
        ["↓", "0", "S", "↑", "↑", "↑"],
        ["↓", "0", "↓", "↑", "↑", "↑"],
        ["↓", "0", "↓", "↓", "↑", "↑"],
        ["↓", "0", "↓", "↓", "↓", "↑"],
    ]
    with rec.deciding(n=5, alpha=a, kind=TABLE, method="the printed Figure 3", covers="Figure 3's C (Z as 0)") as d:
        bad = _mismatch(fig3, count)
        if bad:
            i, k, s_i, big, size = bad
            d.counterexample(
                f"Figure 3: non-Z column i={i} (k_i={k}) gets the {size} integer(s) "
                f"{i + big - s_i}..{i + big} (Example 5.2's map sends only {k} to {k}), "
                f"stated S_i + 1 = {count(s_i, big)}"
            )
    off = []
    for n in range(1, 5):
        g = truncated_geometric(n, a)
        found = None
        for mapping in interval_remaps(n):
            sig = signature(compose(g, deterministic_remap(mapping, n + 1)), a)
            z = sum(all(sig[r][j] == ZERO for r in range(n)) for j in range(n + 1))
            if sum(row.count(SLACK) for row in sig) == z and _mismatch(sig, count):
                found = f"n={n}: remap {mapping}, C = {_text(sig)}"
                break
        if found:
            off.append(found)
        else:
            rec.decide(
                True,
                n=n,
                alpha=a,
                kind=BOUNDED,
                method="exact enumeration of the block remaps of G",
                covers="every constraint matrix of Lemma 5.9's form with s = z (optimal vertices: Lemma 5.9)",
            )
    rec.value(lemma_5_9_forms_with_a_different_count="; ".join(off) or "none")
    rec.note("the total n + 1 - z + s and the map itself are right: the count per column is s_i + 1, not S_i + 1")
    return rec


# --- grs2009.sec5.wd ---------------------------------------------------------------------------------------


@checks("grs2009.sec5.wd")
def constraint_matrix_well_defined(ctx: Context, lower: Fraction = NIL, upper: Fraction = ONE) -> Findings:
    """grs2009 Section 5: for alpha in (``lower``, ``upper``) = (0, 1), (i) alpha x = y and x = alpha y force x = y
    = 0, and (ii) an alpha-DP pair (x, y) (alpha x <= y <= x / alpha) with one entry 0 has both 0, so a zero entry
    empties its column.  z3 with symbolic alpha (nonlinear), each part one unsat."""
    rec = Findings("grs2009.sec5.wd")
    al, x, y = z3.Reals("alpha x y")
    rng = [al > z3.RealVal(str(lower)), al < z3.RealVal(str(upper)), x >= 0, y >= 0]
    for part, premises, negation in (
        ("down and up at once", [al * x == y, x == al * y], z3.Or(x > 0, y > 0)),
        ("a zero entry forces its neighbour to 0", [al * x <= y, al * y <= x, z3.Or(x == 0, y == 0)], x + y > 0),
    ):
        with rec.deciding(
            n=None,
            alpha=SYMBOLIC_ALPHA,
            kind=ALL_N,
            method="z3 unsat (NRA)",
            part=part,
            covers="every pair of adjacent entries of every feasible mechanism",
        ) as d:
            witnessed(rec, [*rng, *premises], part, ctx.solver_timeout)
            res = decide([*rng, *premises, negation], ctx.solver_timeout)
            if not res.unsat:
                d.counterexample(f"{part}: alpha={res.model[al]}, x={res.model[x]}, y={res.model[y]}")
    return rec


# --- grs2009.fn4 -------------------------------------------------------------------------------------------


@checks("grs2009.fn4")
def footnote_4(ctx: Context, x: Matrix = FN3_X, user: BayesianUser = FN3_USER) -> Findings:
    """grs2009 footnote 4: some vertices of the user-specific LP are not derivable from G by remapping, and
    "these vertices are not optimal for any user".  G = T(n, alpha) is invertible and T 1 = 1, so X = G Y for a
    stochastic Y iff G^-1 X >= 0 (exact).  The vertex test is the exact rank test, optimality a certified LP
    optimum.  One vertex that is not a remap of G and is optimal for a user with a monotone loss (Section 2.2's
    class) refutes the second sentence at (n, alpha) = (2, 1/2); the same vertex shows the first."""
    rec = Findings("grs2009.fn4")
    n, a = FN3_N, FN3_ALPHA
    g = truncated_geometric(n, a)
    y = linalg.matmul(linalg.inverse(g), x)
    lp = bayesian_lp(user, a)
    vertex = not dp_violations(x, a) and is_vertex(lp, [v for row in x for v in row])
    derivable = all(v >= 0 for row in y for v in row)
    opt = solve(lp, timeout_s=ctx.solver_timeout, decide_unique=False)
    optimal = user.expected_loss(x) == opt.objective
    rec.value(
        **{
            "G^-1 X": linalg.fmt_matrix(y),
            "vertex": str(vertex),
            "optimal": str(optimal),
            "legal loss": str(user.loss.is_legal()),
            "optimum": str(opt.objective),
        }
    )
    covers = "every vertex of the user-specific LP and every user with a monotone loss (one user refutes)"
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="exact G^-1 X, rank test, certified optimum",
        covers="a vertex that is not a remap of G exists",
        part="first sentence",
    ) as d:
        if not (vertex and not derivable):
            d.inconclusive("the candidate is no witness of a non-derivable vertex")
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="exact G^-1 X, rank test, certified optimum",
        covers=covers,
        part="second sentence",
    ) as d:
        if vertex and not derivable and optimal and user.loss.is_legal():
            d.counterexample(
                f"n={n}, alpha={a}: X = {linalg.fmt_matrix(x)} is a vertex of the LP (exact rank test) and no remap of "
                f"G (G^-1 X = {linalg.fmt_matrix(y)} has a negative entry), yet it is optimal (loss {opt.objective}, "
                f"the certified optimum) for the user with prior {list(map(str, user.prior))} and the monotone loss "
                f"{[list(map(str, r)) for r in user.loss.values]}"
            )
        else:
            d.inconclusive("the candidate does not refute the footnote (one instance cannot show it holds)")
    rec.note("grs2011 Appendix B corrects this: its non-derivable vertex is optimal only for an illegal loss")
    return rec


# --- grs2009.sec2.3, grs2009.sec1.monotone, grs2009.fn1: linear questions at a fixed alpha ------------------

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


# --- grs2009.sec2.1 ----------------------------------------------------------------------------------------


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
