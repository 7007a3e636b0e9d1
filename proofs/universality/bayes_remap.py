"""grs2011 Section 2.3, the optimal remap (claim grs2011.bayes-remap): the deterministic Bayes-posterior remap is
optimal among all randomized remaps, for every mechanism, prior, loss and randomized remap
(:func:`bayes_remap_all_n`: a sympy identity splitting the expected loss (2) of Y o X over the outputs, and
inductions on inputs, results and outputs with SMT-decided obligations), cross-checked per sampled
(n, alpha, user) by the certified remap LP over a list of mechanisms.

grs2011 Lemma 5.7 (an optimal vertex exists, the proof's walk along the optimal face) is
:mod:`proofs.universality.optimal_vertex`.  Users are samples out of a continuum (see
:mod:`proofs.universality.scan`): one SAMPLED instance per (n, alpha, user), the user identified by a digest.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction as F

import sympy
import z3

from proofs.universality.mechanisms import mechanisms_with_remap_to_t
from proofs.universality.optimality import Matrix, alphas, best_remap, expected_loss, less, same
from proofs.universality.sample_users import (
    adversarial_users,
    describe,
    distinct_users,
    irrational_loss_user,
    random_users,
    user_digest,
)
from proofs.universality.user_lp import lp_test_points
from udpm.claims.instances import ALL_N, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.remaps import compose, deterministic_remap, posterior_loss
from udpm.core.users import BayesianUser
from udpm.errors import HarnessError
from udpm.induction.obligations import Obligation, discharge
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified, solve
from udpm.lp.programs import Constraint, LinearProgram

# ---------------------------------------------------------------- grs2011.bayes-remap, for every X, p, l, Y

#: The statement is about any mechanism (private or not): it holds for every alpha in the printed [0, 1].
ANY_ALPHA = "symbolic alpha in [0,1]"


def _fubini(e: sympy.Expr) -> sympy.Expr:
    """A nest of finite sums with constant bounds, as one Sum over all its indices (factors moved inside).

    Valid because every bound is free of the summation indices (rectangular ranges) and a factor is moved into
    a sum only when it does not mention that sum's index; raises otherwise, so a non-rectangular nest is never
    reordered."""
    if isinstance(e, sympy.Sum):
        body = _fubini(e.function)
        limits = tuple(e.limits) + (tuple(body.limits) if isinstance(body, sympy.Sum) else ())
        inner = body.function if isinstance(body, sympy.Sum) else body
        indices = {lim[0] for lim in limits}
        if any(b.free_symbols & indices for lim in limits for b in lim[1:]):
            raise HarnessError(f"not a rectangular sum: {e}")
        return sympy.Sum(sympy.expand(inner), *limits)
    if isinstance(e, sympy.Mul):
        sums = [f for f in e.args if isinstance(f, sympy.Sum)]
        if len(sums) == 1:
            s = _fubini(sums[0])
            rest = sympy.Mul(*(f for f in e.args if f is not sums[0]))
            if rest.free_symbols & {lim[0] for lim in s.limits}:
                raise HarnessError(f"a factor mentions a summation index: {e}")
            return sympy.Sum(sympy.expand(rest * s.function), *s.limits)
    return e


def loss_decomposition(weight_by_prior: bool = True) -> str | None:
    """grs2011 (2) for Z = Y o X equals sum_r sum_j y_rj C_rj with C_rj = sum_i p_i x_ir l(i, j), as a sympy
    identity over symbolic entries p_i, x_ir, y_rj, l(i, j) and symbolic sizes n (results 0..n) and R
    (outputs 0..R).  None when the two sides have the same normal form, else both forms.

    ``weight_by_prior=False`` leaves p_i out of C_rj: a false variant."""
    i, j, r, n, big_r = sympy.symbols("i j r n R", integer=True, nonnegative=True)
    p, x, y, loss = (sympy.IndexedBase(s) for s in ("p", "x", "y", "l"))
    z_ij = sympy.Sum(x[i, r] * y[r, j], (r, 0, big_r))
    lhs = sympy.Sum(p[i] * sympy.Sum(z_ij * loss[i, j], (j, 0, n)), (i, 0, n))
    w = p[i] * x[i, r] if weight_by_prior else x[i, r]
    c_rj = sympy.Sum(w * loss[i, j], (i, 0, n))
    rhs = sympy.Sum(sympy.Sum(y[r, j] * c_rj, (j, 0, n)), (r, 0, big_r))
    a, b = _fubini(lhs), _fubini(rhs)
    if sympy.expand(a.function - b.function) == 0 and sorted(map(str, a.limits)) == sorted(map(str, b.limits)):
        return None
    return f"(2) for Y o X = {a}, but sum_r sum_j y_rj C_rj = {b}"


def _holds(ge: bool, big: z3.ArithRef, small: z3.ArithRef) -> z3.BoolRef:
    """The claimed comparison of a randomized remap's loss (big) with the Bayes remap's (small)."""
    return big >= small if ge else big <= small


def posterior_obligations() -> tuple[Obligation, ...]:
    """The per-output expected loss C_j = sum_i p_i x_ir l(i, j) is P times the posterior expected loss
    E_j = sum_i q_i l(i, j), q_i = p_i x_ir / P, when P = sum_i p_i x_ir > 0; when P = 0 every C_j is 0.
    Both by induction on the number of inputs i summed (p_i, x_ir >= 0; l(i, j) any real)."""
    big_p, c, e, p, x, loss, mass = z3.Reals("P C E p_i x_ir l_ij Pmass")
    zero = z3.RealVal(0)
    w = p * x
    nonneg = (p >= 0, x >= 0)
    scaled = (
        Obligation("posterior: base (no inputs)", (big_p > 0,), 0 == big_p * 0),
        Obligation(
            "posterior: step (one more input i), C = P E",
            (big_p > 0, c == big_p * e, *nonneg),
            c + w * loss == big_p * (e + (w / big_p) * loss),
        ),
    )
    null = (
        Obligation("zero mass: base (no inputs)", (), z3.And(zero >= 0, z3.Implies(zero == 0, zero == 0))),
        Obligation(
            "zero mass: step (one more input i), P = 0 => C = 0",
            (mass >= 0, z3.Implies(mass == 0, c == 0), *nonneg),
            z3.And(mass + w >= 0, z3.Implies(mass + w == 0, c + w * loss == 0)),
        ),
    )
    return scaled + null


def bayes_choice_obligation(choice: str = "min") -> Obligation:
    """The Bayes choice j* (a posterior-expected-loss minimiser) also minimises the per-output expected loss:
    C_j* <= C_j for every j, both when P > 0 (C = P E) and when P = 0 (C = 0, any j* will do).

    ``choice="max"`` takes j* as a posterior-expected-loss *maximiser*: a false variant."""
    big_p, cj, cs, ej, es = z3.Reals("P C_j C_jstar E_j E_jstar")
    picked = es <= ej if choice == "min" else es >= ej
    case = z3.Or(z3.And(big_p > 0, cj == big_p * ej, cs == big_p * es, picked), z3.And(big_p == 0, cj == 0, cs == 0))
    return Obligation(f"Bayes choice ({choice} posterior loss) minimises C_rj", (case,), cs <= cj)


def remap_row_obligations(ge: bool = True) -> tuple[Obligation, ...]:
    """One output r: its row y_r of a randomized remap Y (y_rj >= 0, sum_j y_rj = 1) costs sum_j y_rj C_rj
    >= C_rj* (induction over j: S >= Ysum C*), and the deterministic Bayes row (delta_j = [j = j*]) costs
    exactly C_rj* (induction over j: S_B = D C*).  ``ge=False`` claims the opposite comparison."""
    s, ysum, y, c, cs, sb, dsum, delta = z3.Reals("S Ysum y_rj C_rj C_jstar S_B D delta_j")
    return (
        Obligation("remap row: base (no results j)", (), _holds(ge, z3.RealVal(0), 0 * cs)),
        Obligation(
            "remap row: step (one more result j)",
            (_holds(ge, s, ysum * cs), y >= 0, cs <= c),
            _holds(ge, s + y * c, (ysum + y) * cs),
        ),
        Obligation("remap row: close (sum_j y_rj = 1)", (_holds(ge, s, ysum * cs), ysum == 1), _holds(ge, s, cs)),
        Obligation("Bayes row: base (no results j)", (), z3.RealVal(0) == 0 * cs),
        Obligation(
            "Bayes row: step (one more result j)",
            (sb == dsum * cs, z3.Or(delta == 0, delta == 1), z3.Implies(delta == 1, c == cs)),
            sb + delta * c == (dsum + delta) * cs,
        ),
        Obligation("Bayes row: close (one j = j*)", (sb == dsum * cs, dsum == 1), sb == cs),
    )


def outputs_obligations(ge: bool = True) -> tuple[Obligation, Obligation]:
    """Sum over the outputs r of X: L(Y o X) >= L(B o X) by induction on the number of outputs, each output
    adding its row's cost (A_r for Y, B_r = C_rj* for the Bayes remap B, A_r >= B_r by the row lemma)."""
    ly, lb, a_r, b_r = z3.Reals("L_Y L_B A_r B_r")
    return (
        Obligation("outputs: base (no outputs)", (), _holds(ge, z3.RealVal(0), z3.RealVal(0))),
        Obligation(
            "outputs: step (one more output r)",
            (_holds(ge, ly, lb), _holds(ge, a_r, b_r)),
            _holds(ge, ly + a_r, lb + b_r),
        ),
    )


def bayes_remap_all_n(rec: Findings, ctx: Context, choice: str = "min", ge: bool = True) -> bool:
    """grs2011 Section 2.3 for every mechanism X (any number of outputs), prior p, loss l and randomized remap
    Y: L(Y o X) = sum_r sum_j y_rj C_rj (sympy identity); C_rj = P_r E_rj or 0 (induction on inputs); the
    Bayes choice minimises C_rj (SMT); per output sum_j y_rj C_rj >= C_rj* = the Bayes row's cost (induction
    on results); summed over outputs (induction on outputs).  One ALL_N instance; its parameters are the
    statement's: ``choice`` (which posterior extreme the remap picks), ``ge`` (the claimed direction)."""
    obligations = (
        *posterior_obligations(),
        bayes_choice_obligation(choice),
        *remap_row_obligations(ge),
        *outputs_obligations(ge),
    )
    wrong = loss_decomposition()
    proof = discharge(obligations, ctx.solver_timeout)
    witness = wrong or proof.counterexample
    return bool(
        rec.decide(
            witness is None,
            witness or "sympy identity (2) = sum_r sum_j y_rj C_rj; SMT unsat: " + "; ".join(proof.obligations),
            n=None,
            alpha=ANY_ALPHA,
            kind=ALL_N,
            method="sympy identity over symbolic entries and sizes + induction on inputs, results and outputs, "
            "each obligation SMT unsat (z3 and cvc5)",
            covers="every mechanism X with any number of outputs, every prior p, every loss l, every randomized "
            "remap Y: L(Y o X) >= L(B o X) for the Bayes remap B",
            part=f"Bayes remap ({choice} posterior loss) vs randomized remaps ({'>=' if ge else '<='})",
        )
    )


# ---------------------------------------------------------------- grs2011.bayes-remap


def remap_lp(x: Matrix, user: BayesianUser) -> LinearProgram:
    """The optimal (randomized) remap of X for u as an LP in y_rj: min sum_r sum_j y_rj sum_i p_i x_ir l(i,j)."""
    n, rr = user.n, len(x[0])
    names = tuple(f"y[{r},{j}]" for r in range(rr) for j in range(n + 1))
    obj = []
    for r in range(rr):
        for j in range(n + 1):
            c = posterior_loss(x, user, r, j)
            if c != 0:
                obj.append((r * (n + 1) + j, c))
    rows = tuple(
        Constraint(tuple((r * (n + 1) + j, F(1)) for j in range(n + 1)), "=", F(1), f"row {r}") for r in range(rr)
    )
    return LinearProgram(names, tuple(obj), rows, "optimal remap")


def map_remap(x: Matrix, user: BayesianUser) -> tuple[object, list[int]]:
    """A wrong rule for the false variant: remap r to the maximum-posterior result (ignores the loss)."""
    mapping = [max(range(user.n + 1), key=lambda i: (user.prior[i] * x[i][r], -i)) for r in range(len(x[0]))]
    y = deterministic_remap(mapping, user.n + 1)
    return expected_loss(user, compose(x, y)), mapping


def worst_remap(x: Matrix, user: BayesianUser) -> tuple[object, list[int]]:
    """A wrong rule for the false variant: remap r to a result *maximising* posterior expected loss."""
    mapping = []
    for r in range(len(x[0])):
        costs = [posterior_loss(x, user, r, j) for j in range(user.n + 1)]
        worst = 0
        for j, c in enumerate(costs):
            if less(costs[worst], c):
                worst = j
        mapping.append(worst)
    return expected_loss(user, compose(x, deterministic_remap(mapping, user.n + 1))), mapping


@checks("grs2011.bayes-remap")
def bayes_remap_optimal(ctx: Context, rule: Callable | None = None, choice: str = "min", ge: bool = True) -> Findings:
    """grs2011 Section 2.3: the deterministic Bayes-posterior remap (per output, a result minimising posterior
    expected loss) is optimal among all randomized remaps.  For every X, p, l and Y by
    :func:`bayes_remap_all_n`; cross-checked per (n, alpha, sampled user) over a list of mechanisms, where the
    remap LP's certified optimum covers every randomized remap of that mechanism for that user.

    ``choice="max"`` (the remap maximising posterior expected loss) and ``ge=False`` (the comparison reversed)
    are false variants of the statement; ``rule`` replaces the sampled rule alone."""
    rec = Findings("grs2011.bayes-remap")
    bayes_remap_all_n(rec, ctx, choice, ge)
    if rule is None:
        rule = best_remap if choice == "min" else worst_remap
    rng = ctx.rng("grs2011.bayes-remap")
    n_max = 3 if ctx.quick else 5
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            mechs = list(mechanisms_with_remap_to_t(n, a)) + lp_test_points(n, a, rng)[1:3]
            users = adversarial_users(n) + random_users(rng, n, 3) + ([irrational_loss_user()] if n == 2 else [])
            for ulabel, user in distinct_users(users):
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="certified remap LP vs the rule",
                    covers="every randomized remap of: " + ", ".join(m for m, _ in mechs),
                    user=user_digest(user),
                ) as d:
                    for mlabel, x in mechs:
                        opt = solve(remap_lp(x, user), timeout_s=ctx.solver_timeout, decide_unique=False)
                        got, mapping = rule(x, user)
                        if len(certs) < 2:
                            certs.append((f"remap LP: {mlabel}, {ulabel}, n={n}, alpha={a}", opt))
                        if not same(got, opt.objective):
                            d.counterexample(
                                f"n={n}, alpha={a}, mechanism {mlabel}: remap {mapping} loses {got}, the "
                                f"optimal randomized remap {opt.objective}; user {ulabel}: {describe(user)}"
                            )
                            break
                if rec.counterexample:
                    return rec
    rec.note(
        "all-n: (2) for Y o X = sum over outputs r of sum_j y_rj C_rj, C_rj = sum_i p_i x_ir l(i,j) (sympy, symbolic "
        "sizes); C_rj = P_r x posterior loss; the Bayes choice minimises C_rj; a randomized row costs >= C_rj*; "
        "summed over outputs.  Sampled cross-check: mechanisms T, lumped geometric, split and permuted T, identity, "
        "randomized response; users adversarial + random (+ |i-j|^1.5 at n=2), one instance per distinct user"
    )
    rec.certificate = certificate_of({"claim": "bayes_remap_optimal"}, certs[:2])
    return rec
