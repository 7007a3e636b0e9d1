"""gs2010 Section 4.1: the multi-level release (Algorithm 1) and its collusion resistance (Lemma 4,
Theorem 1(1)); claims gs2010.alg1 and gs2010.lemma4.

Algorithm 1 releases r_1, ..., r_k for privacy levels alpha_1 < ... < alpha_k:
r_1 = G_(alpha_1)(r), and each next r_(i+1) is r_i perturbed by Lemma 3's
T_(alpha_i, alpha_(i+1)) = G_(alpha_i)^-1 G_(alpha_(i+1)) (stochastic by gs2010
Lemma 3, :mod:`proofs.derivation.derivability`), so r_i ~ G_(alpha_i)(r) at every level.
Lemma 4: a coalition's joint release is alpha_(min C)-DP and derivable from
G_(alpha_(min C)) alone.  Both are decided exactly on the joint release
(bounded in n); Algorithm 1's stages also at symbolic alphas (sympy).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp

from proofs.boundary.geometric import GS2010_RANGE
from proofs.release.algorithm import Release, algorithm1_stages, coalition_matrix, joint_release
from proofs.release.boundary import CHAINS as BOUNDARY_CHAINS
from proofs.release.boundary import algorithm1_at_boundary, lemma4_at_boundary
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import derive


def _chains(ctx: Context) -> list[tuple[Fraction, ...]]:
    chains = [
        (Fraction(1, 4), Fraction(1, 2)),
        (Fraction(1, 3), Fraction(1, 2), Fraction(2, 3)),
        (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)),
        (Fraction(1, 100), Fraction(99, 100)),  # alpha near 0 and near 1
    ]
    if not ctx.quick:
        chains.append((Fraction(1, 5), Fraction(2, 5), Fraction(3, 5), Fraction(4, 5)))
    return chains


def lemma3_stage(n: int, al: Fraction, be: Fraction) -> list[list[Fraction]]:
    """Lemma 3's T_{alpha,beta} = G_alpha^-1 G_beta, exactly."""
    return derive(truncated_geometric(n, be), truncated_geometric(n, al)).remap


def chain_label(chain: Sequence[Fraction]) -> str:
    return "chain " + "<".join(map(str, chain))


def _stage_failure(n: int, chain: Sequence[Fraction], ts: list[list[list[Fraction]]]) -> str | None:
    """Is every stage a mechanism, the first G_(alpha_1) and each next one Lemma 3's T (exactly)?"""
    who = f"n={n}, alphas={list(map(str, chain))}"
    if len(ts) != len(chain):
        return f"{who}: {len(ts)} stages for {len(chain)} levels"
    for i, t in enumerate(ts):
        neg = [(r, j, v) for r, row in enumerate(t) for j, v in enumerate(row) if v < 0]
        if neg:
            return f"{who}: T_{i + 1}[{neg[0][0]}][{neg[0][1]}] = {neg[0][2]} < 0, not a mechanism"
        want = truncated_geometric(n, chain[0]) if i == 0 else lemma3_stage(n, chain[i - 1], chain[i])
        if t != want:
            r, j = next((r, j) for r in range(n + 1) for j in range(n + 1) if t[r][j] != want[r][j])
            what = "G_(alpha_1)" if i == 0 else "Lemma 3's T = G_(alpha_i)^-1 G_(alpha_(i+1))"
            return f"{who}: T_{i + 1}[{r}][{j}] = {t[r][j]}, but {what} has {want[r][j]}"
    return None


#: Order-free gaps: level i is s_i/(1+s_i) with s_i = u_1 + ... + u_i, so u >= 0 gives exactly 0 <= a_1 <= ... < 1.
GAPS = sp.symbols("u1:4", nonnegative=True)
#: A chain with distinct levels: where the check's ``order`` puts them says how it orders the symbolic levels.
PROBE = (Fraction(1, 4), Fraction(1, 2), Fraction(3, 4))
#: Rational gaps where an entry without a sign certificate is evaluated exactly for a negative value.
GAP_POINTS = (1, sp.Rational(1, 2), 2, 5, 0)


def symbolic_levels(order: Callable[[Sequence[Fraction]], Sequence[Fraction]]) -> list[sp.Expr]:
    """Three symbolic levels alpha_1 <= alpha_2 <= alpha_3 in [0, 1) (in the gaps u >= 0), permuted as ``order``
    permutes three distinct levels: Algorithm 1 takes alpha_1 < ... < alpha_k, so ``sorted`` keeps them increasing."""
    sums = [sum(GAPS[: i + 1]) for i in range(3)]
    levels = [s / (1 + s) for s in sums]
    return [levels[PROBE.index(x)] for x in order(PROBE)]


def symbolic_g(n: int, x: sp.Expr) -> sp.Matrix:
    """Definition 4's G_{n,x} at a symbolic level x."""
    return sp.Matrix(n + 1, n + 1, lambda i, j: x ** abs(i - j) * (1 if j in (0, n) else (1 - x)) / (1 + x))


def sign_certificate(e: sp.Expr) -> bool:
    """e >= 0 for every gap vector u >= 0: e is 0, or its numerator and denominator (polynomials in u) have
    coefficients all of one sign, the same for both, and the denominator is not the zero polynomial."""
    num, den = sp.fraction(sp.cancel(sp.together(e)))
    num, den = sp.Poly(sp.expand(num), *GAPS), sp.Poly(sp.expand(den), *GAPS)
    if num.is_zero:
        return True
    signs = {c > 0 for c in num.coeffs()} | {c > 0 for c in den.coeffs()}
    return len(signs) == 1


def negative_point(e: sp.Expr) -> dict | None:
    """A rational gap vector u >= 0 where e < 0 (exact), if one of GAP_POINTS^3 is one."""
    f = sp.cancel(sp.together(e))
    for pt in itertools.product(GAP_POINTS, repeat=len(GAPS)):
        env = dict(zip(GAPS, pt))
        den = sp.fraction(f)[1].subs(env)
        if den != 0 and f.subs(env) < 0:
            return env
    return None


def symbolic_g_inverse(n: int, x: sp.Symbol) -> sp.Matrix:
    """G_{n,x}^-1 = D^-1 Tri / (1 - x^2): G = G' D with G' = [x^|i-j|] and D the column scales 1/(1+x) (columns 0, n)
    and (1-x)/(1+x); Tri is tridiagonal, diagonal (1, 1+x^2, ..., 1+x^2, 1), off-diagonal -x.  The caller checks
    G G^-1 = I."""
    m = n + 1
    tri = sp.Matrix(m, m, lambda i, j: (1 if i in (0, n) else 1 + x**2) if i == j else (-x if abs(i - j) == 1 else 0))
    d_inv = sp.diag(*[(1 + x) if j in (0, n) else (1 + x) / (1 - x) for j in range(m)])
    return d_inv * tri / (1 - x**2)


def lemma3_symbolic(n: int) -> sp.Matrix:
    """Lemma 3's T_{x,y} = G_{n,x}^-1 G_{n,y} at symbolic levels x, y (sympy), after checking G_x G_x^-1 = I."""
    x, y = sp.symbols("x y")
    inv = symbolic_g_inverse(n, x)
    if any(sp.cancel(e) != 0 for e in symbolic_g(n, x) * inv - sp.eye(n + 1)):
        raise ArithmeticError(f"n={n}: the closed form of G_x^-1 is not the inverse of G_x")
    return (inv * symbolic_g(n, y)).applyfunc(sp.cancel)


def symbolic_stage_failure(n: int, order: Callable[[Sequence[Fraction]], Sequence[Fraction]] = sorted) -> str | None:
    """gs2010 Algorithm 1 with Lemma 3's stages at three symbolic levels (sympy, this n): each stage
    T = G_(alpha_i)^-1 G_(alpha_(i+1)) is stochastic (rows sum to 1 and G_x T = G_y at symbolic x, y; every entry
    >= 0 by a sign certificate in the gaps u >= 0), so G_(alpha_1) T_2 T_3 = G_(alpha_3) is a release of mechanisms.
    None if all hold; else the failure (a negative entry at an exact point, or the identity that fails)."""
    levels = symbolic_levels(order)
    x, y = sp.symbols("x y")
    t_xy = lemma3_symbolic(n)
    ones = sp.ones(n + 1, 1)
    if any(sp.cancel(e) != 0 for e in t_xy * ones - ones):
        return f"n={n}: a row of Lemma 3's T = G_x^-1 G_y does not sum to 1"
    if any(sp.cancel(e) != 0 for e in symbolic_g(n, x) * t_xy - symbolic_g(n, y)):
        return f"n={n}: G_x T != G_y"
    for i in range(2):
        t = t_xy.subs({x: levels[i], y: levels[i + 1]}, simultaneous=True)
        for r, c in itertools.product(range(n + 1), repeat=2):
            e = t[r, c]
            if sign_certificate(e):
                continue
            env = negative_point(e)
            if env is None:
                return f"undecided: T_{i + 2}[{r}][{c}] = {sp.factor(e)} has no sign certificate and no negative point"
            lv = ", ".join(f"alpha_{k + 1} = {sp.nsimplify(v.subs(env))}" for k, v in enumerate(levels))
            return (
                f"n={n}, {lv}: T_{i + 2}[{r}][{c}] = {e.subs(env)} < 0, so Lemma 3's stage "
                f"G_(alpha_{i + 1})^-1 G_(alpha_{i + 2}) is not a mechanism"
            )
    return None


@checks("gs2010.alg1")
def multi_level_release(
    ctx: Context,
    stages: Release = algorithm1_stages,
    order: Callable[[Sequence[Fraction]], Sequence[Fraction]] = sorted,
) -> Findings:
    """gs2010 Algorithm 1: with alpha_1 < ... < alpha_k, every T_i is stochastic and each released r_i is
    distributed as the alpha_i-geometric mechanism G_{n,alpha_i} applied to the true result."""
    rec = Findings("gs2010.alg1")
    n_max = 4 if ctx.quick else 7
    n_sym = 2 if ctx.quick else 4
    chains = [tuple(order(c)) for c in _chains(ctx)]
    for n in range(1, n_max + 1):
        for chain in chains:
            with rec.deciding(
                n=n,
                alpha=chain_label(chain),
                kind=BOUNDED,
                method="exact stages and joint release",
                covers="every level's marginal; every stage is Lemma 3's T",
            ) as dec:
                ts = stages(n, chain)
                bad = _stage_failure(n, chain, ts)
                if bad:
                    dec.counterexample(bad)
                    continue
                joint = joint_release(n, chain, stages)
                for lvl, al in enumerate(chain):
                    _, marg = coalition_matrix(joint, [lvl], n)
                    want = truncated_geometric(n, al)
                    if marg != want:
                        r, j = next((r, j) for r in range(n + 1) for j in range(n + 1) if marg[r][j] != want[r][j])
                        dec.counterexample(
                            f"n={n}, alphas={list(map(str, chain))}: Pr[r_{lvl + 1} = {j} | r = {r}] = "
                            f"{marg[r][j]}, but G_(n,{al})[{r}][{j}] = {want[r][j]}"
                        )
                        break
    for n in range(1, n_sym + 1):
        with rec.deciding(
            n=n,
            alpha="symbolic alphas a1, a2, a3",
            kind=BOUNDED,
            method="sympy: Lemma 3's stages G_(a_i)^-1 G_(a_(i+1)) at symbolic ordered levels, sign certificates",
            covers="every chain 0 <= a1 <= a2 <= a3 < 1 (three levels): each stage G_(a_i) T = G_(a_(i+1)) "
            "is stochastic, so the composition G_a1 T_2 T_3 = G_a3 is a release of mechanisms",
        ) as dec:
            bad = symbolic_stage_failure(n, order)
            if bad and bad.startswith("undecided"):
                dec.inconclusive(bad)
            elif bad:
                dec.counterexample(bad)
    ex = algorithm1_stages(2, (Fraction(1, 4), Fraction(1, 2)))
    rec.value(
        **{
            "T_2 for n=2, alphas (1/4, 1/2)": linalg.fmt_matrix(ex[1]),
            "output": "r_i ~ G_{n,alpha_i}(r) for every level i (T_1 = G is the first perturbation of r)",
        }
    )
    rec.erratum(
        "Algorithm 1, first loop",
        "for 1 <= i <= k do: compute T_{i+1} with G_{alpha_{i+1},n} = G_{alpha_i,n} T_{i+1}",
        "for 1 <= i <= k-1",
        "typo",
        "the last pass needs alpha_{k+1}, which does not exist; T_{k+1} is never used",
    )
    rec.note(
        "no all-n instance is recorded: the all-n argument is that each stage T_(i+1) = G_(alpha_i)^-1 "
        "G_(alpha_(i+1)) is well defined (gs2010.lemma1: G invertible) and stochastic (gs2010.lemma3), so by "
        "composition r_i ~ G_(alpha_1) T_2 ... T_i = G_(alpha_i); those steps are the two lemmas' own claims "
        "(dependencies), and what is computed here is bounded.  "
        f"Exact: for n = 1..{n_max} and chains {'; '.join('<'.join(map(str, c)) for c in chains)}, every stage "
        "is a mechanism and equals G_(alpha_1) resp. Lemma 3's T, and every marginal of the exact joint release "
        f"equals G_(n,alpha_i).  Symbolic levels (sympy, three levels a_i = s_i/(1+s_i), s_i = u_1 + ... + u_i, "
        f"u >= 0, ordered by the check's own order): n = 1..{n_sym}, every entry of each Lemma 3 stage "
        "G_(a_i)^-1 G_(a_(i+1)) is a quotient of polynomials in u with coefficients of one sign (so >= 0 on the "
        "whole ordered region) and the rows sum to 1."
    )
    algorithm1_at_boundary(rec)
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Algorithm 1 holds for n = 1..3 on the chains "
        f"{'; '.join('<'.join(map(str, c)) for c in BOUNDARY_CHAINS)} (only alpha_k can be 1, so every inverted "
        "G_(alpha_i) is invertible)"
    )
    return rec


def coalition_level(alphas: Sequence[Fraction]) -> Fraction:
    """Lemma 4 / Theorem 1(1): a coalition's joint release is alpha_min-DP, the level of its least private member."""
    return min(alphas)


def min_ratio(mat: Sequence[Sequence[Fraction]]) -> Fraction:
    """The smallest ratio x[r][c]/x[r'][c] over adjacent r, r' (the best alpha for which mat is alpha-DP)."""
    best = Fraction(1)
    for r in range(len(mat) - 1):
        for c in range(len(mat[0])):
            p, q = mat[r][c], mat[r + 1][c]
            if p and q:
                best = min(best, p / q, q / p)
            elif p or q:
                return Fraction(0)
    return best


@checks("gs2010.lemma4")
def collusion_resistance(
    ctx: Context, level: Callable[[Sequence[Fraction]], Fraction] = coalition_level, stages: Release = algorithm1_stages
) -> Findings:
    """gs2010 Lemma 4 / Theorem 1(1): for Algorithm 1 every coalition C's joint release (r_c)_{c in C} is
    alpha_{min C}-DP, and it is derivable from G_{n,alpha_{min C}} alone (c_1 learns as much)."""
    rec = Findings("gs2010.lemma4")
    n_max = 3 if ctx.quick else 5
    chains = _chains(ctx)
    for n in range(1, n_max + 1):
        for chain in chains:
            joint = joint_release(n, chain, stages)
            for size in range(1, len(chain) + 1):
                for coal in itertools.combinations(range(len(chain)), size):
                    with rec.deciding(
                        n=n,
                        alpha=chain_label(chain),
                        kind=BOUNDED,
                        method="exact joint release of the coalition",
                        covers="DP level, tightness and derivability from G_(alpha_(c1))",
                        coalition=",".join(str(c + 1) for c in coal),
                    ) as dec:
                        bad = _coalition_failure(n, chain, coal, joint, level)
                        if bad:
                            dec.counterexample(bad)
    rec.value(
        **{
            "privacy of a coalition": "exactly alpha_(min C): tightest neighbouring ratio = alpha_(c1)",
            "reconstruction": "G_(n,alpha_(c1))^-1 x joint >= 0: derivable from r_(c1) alone",
        }
    )
    rec.note(
        f"decided exactly: Algorithm 1 for n = 1..{n_max}, each chain "
        f"{'; '.join('<'.join(map(str, c)) for c in chains)}, and every non-empty coalition of its levels "
        "(the coalition is an instance parameter); no all-n argument is run."
    )
    lemma4_at_boundary(rec, level=lambda chain, coal: level([chain[c] for c in coal]))
    rec.note(
        f"the printed boundary: {GS2010_RANGE}; Lemma 4 holds for n = 1..3 on the chains "
        f"{'; '.join('<'.join(map(str, c)) for c in BOUNDARY_CHAINS)}, every coalition (0-DP and 1-DP read with "
        "0/0 = 1, x/0 = infinity)"
    )
    return rec


def _coalition_failure(
    n: int, chain: Sequence[Fraction], coal: Sequence[int], joint: dict, level: Callable
) -> str | None:
    _, mat = coalition_matrix(joint, list(coal), n)
    lv = level([chain[c] for c in coal])
    who = f"n={n}, alphas={list(map(str, chain))}, coalition {[c + 1 for c in coal]}"
    bad = dp_violations(mat, lv)
    if bad:
        return f"{who}: the joint release is not {lv}-DP: {bad[0]}"
    if min_ratio(mat) != chain[coal[0]]:
        return f"{who}: tightest ratio {min_ratio(mat)} != alpha_(c1) = {chain[coal[0]]}"
    if not derive(mat, truncated_geometric(n, chain[coal[0]])).stochastic:
        return f"{who}: the joint release is not derivable from G_(n,alpha_(c1))"
    return None
