"""Count-range impossibility (zlcn2013 Section 3.2-3.3): Lemmas 1-3, Corollaries 1-2, Theorems 2 and 3.

Convention.  zlcn2013 writes alpha = e^eps > 1 and alpha-DP as a_(i+1)j / alpha <= a_ij <= alpha a_(i+1)j.
Here every computation uses the harness's a = 1/alpha = e^-eps in (0, 1), with DP in the internal form
a x <= y <= x / a (udpm.privacy).  zlcn2013's values (2, 3, 3/2, ...) remain the labels in scopes, values
and counterexamples ("zlcn alpha=2"); a concrete label enters the computation only through
``udpm.conventions.alpha_from_zlcn2013`` (:func:`internal`), and the printed LaTeX, written in alpha, is
read through the one symbolic substitution alpha = 1/a (:func:`in_internal_alpha`).  In code, ``alpha`` is
a zlcn label (or SYMBOLIC) and ``a`` the internal value.  The paper's vectors in a (A = 1/a):
x-hat = (a, 1, 1, a)/(a+1), y-hat = (a^2, a, 1, a)/(a+1), and Lemma 3's entries are a^e/(a+1), e >= 0.

The reduction to finitely many output columns (used for Lemma 2, Corollary 2
and Theorem 3).  Suppose a DP matrix A (rows = counts, m columns, any m) and
transformations t^1..t^K in [0,1]^m derive the vectors z^1..z^K.  Split each
column j into the 2^K columns w_s(j) a_j, s in {0,1}^K, with the product
weights w_s(j) = prod_k (t^k_j if s_k = 1 else 1 - t^k_j) (they sum to 1), and
give the copy s the 0/1 transformation values s.  Scaling keeps a column DP,
sum_s w_s(j) s_k = t^k_j keeps every derived vector, and rows still sum to 1.
Then merge all columns with the same s: a sum of DP columns is DP.  So a
derivation exists for some m iff one exists with exactly 2^K columns indexed by
s in {0,1}^K with 0/1 transformations, which is a linear feasibility problem in
the matrix entries: "no DP matrix derives them" is its z3 unsat, for every m.
For K = 2 that 4-column matrix is exactly Theorem 3's joint mechanism
t_(mu,i,j) (first consumer says i, second says j), so Lemma 2 and the
count-oriented Theorem 3 are the same linear problem.

Symbolic alpha: the same problem with a a z3 real variable, 0 < a < 1 (nonlinear
real arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy as sp
import z3

from udpm import linalg
from udpm.claims import Context, Evidence, Result, Scope, Status, checks
from udpm.conventions import alpha_from_zlcn2013
from udpm.errors import ExpectationsError
from udpm.smt import decide, model_value
from udpm.tables import printed
from udpm.users import CountRangeConsumer, is_legal_function

F = Fraction
A_SYM = sp.Symbol("alpha", positive=True)  # zlcn2013's alpha > 1: only in the printed LaTeX and the paper's formulas
a_sym = sp.Symbol("a", positive=True)  # the internal alpha = 1/A_SYM in (0, 1)
ZLCN_ALPHAS = (F(2), F(3), F(3, 2), F(10, 9), F(10), F(101, 100))  # labels, zlcn2013's convention
SYMBOLIC = "symbolic zlcn alpha > 1 (internal a = 1/alpha in (0,1))"
Alpha = Fraction | str  # a zlcn2013 alpha > 1 (a label), or SYMBOLIC
Vector = Callable[[object], list]  # internal a (sympy symbol, Fraction or z3 term) -> vector


def internal(alpha: Fraction) -> Fraction:
    """The internal a in (0, 1) of a zlcn2013 label: the one place a concrete alpha is converted."""
    return alpha_from_zlcn2013(alpha)


def label(alpha: Alpha) -> str:
    """How an alpha appears in scopes and messages: in zlcn2013's convention, saying so."""
    return SYMBOLIC if alpha == SYMBOLIC else f"zlcn alpha={alpha}"


def in_internal_alpha(expr: sp.Expr) -> sp.Expr:
    """The one symbolic conversion: zlcn2013's alpha becomes 1/a."""
    return sp.sympify(expr).subs(A_SYM, 1 / a_sym)


# --- printed vectors (verbatim LaTeX in paper_tables/printed/zlcn2013.json) -----------------------


def latex_to_sympy(text: str, extra: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """The small LaTeX of the printed items (\\frac, \\alpha, \\cdot, t_0) as a sympy expression in zlcn's alpha."""
    s = text.replace("\\alpha", "alpha").replace("\\cdot", "*").replace("\\left", "").replace("\\right", "")
    s = re.sub(r"t_(\d)", r"t\1", s)
    frac = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
    while frac.search(s):
        s = frac.sub(r"((\1)/(\2))", s)
    s = s.replace("{", "(").replace("}", ")").replace("^", "**")
    from sympy.parsing.sympy_parser import implicit_multiplication_application, parse_expr, standard_transformations

    names = {"alpha": A_SYM, **(extra or {})}
    return parse_expr(
        s, local_dict=names, transformations=(*standard_transformations, implicit_multiplication_application)
    )


def printed_internal(text: str, extra: dict[str, sp.Symbol] | None = None) -> sp.Expr:
    """A printed LaTeX expression as a sympy expression in the internal a."""
    return in_internal_alpha(latex_to_sympy(text, extra))


def printed_vector(key: str) -> list[sp.Expr]:
    return [printed_internal(v) for v in printed("zlcn2013", key).values]


def xhat(a: object) -> list:
    """zlcn2013 Section 3.2.1: x-hat = (1/(A+1), A/(A+1), A/(A+1), 1/(A+1)), A = 1/a: (a, 1, 1, a)/(a+1)."""
    return [a / (a + 1), 1 / (a + 1), 1 / (a + 1), a / (a + 1)]


def yhat(a: object) -> list:
    """zlcn2013 Section 3.2.2: y-hat = (1/((A+1)A), 1/(A+1), A/(A+1), 1/(A+1)), A = 1/a: (a^2, a, 1, a)/(a+1)."""
    return [a * a / (a + 1), a / (a + 1), 1 / (a + 1), a / (a + 1)]


def lemma3_k(theta1: int, theta2: int) -> int:
    """zlcn2013 before Lemma 3: k = (theta1+theta2-1)/2 if theta1+theta2 is odd, else (theta1+theta2)/2."""
    s = theta1 + theta2
    return (s - 1) // 2 if s % 2 else s // 2


# Lemma 3's entries as printed (zlcn's A), and the same in the internal a; lemma3_formula_facts checks they agree.
PAPER_LEMMA3 = {
    "x, i <= k": lambda k, i, A: 1 / (A ** (k - 1 - i) * (A + 1)),
    "x and y, j >= k+1": lambda k, i, A: 1 / (A ** (i - k - 2) * (A + 1)),
    "y, i <= k": lambda k, i, A: 1 / (A ** (k - i) * (A + 1)),
}


def x_low(k: int, i: int, a: object) -> object:
    """Lemma 3, i <= k: x_i = 1/(A^(k-1-i)(A+1)) = a^(k-i)/(a+1)."""
    return a ** (k - i) / (a + 1)


def xy_high(k: int, j: int, a: object) -> object:
    """Lemma 3, j >= k+1: x_j = y_j = 1/(A^(j-k-2)(A+1)) = a^(j-k-1)/(a+1)."""
    return a ** (j - k - 1) / (a + 1)


def y_low(k: int, i: int, a: object) -> object:
    """Lemma 3, i <= k: y_i = 1/(A^(k-i)(A+1)) = a^(k-i+1)/(a+1)."""
    return a ** (k - i + 1) / (a + 1)


INTERNAL_LEMMA3 = {"x, i <= k": x_low, "x and y, j >= k+1": xy_high, "y, i <= k": y_low}


def lemma3_x(n: int, theta1: int, theta2: int, a: object) -> list:
    """Lemma 3's x in the internal a: a^(k-i)/(a+1) for i <= k, a^(j-k-1)/(a+1) for j >= k+1."""
    k = lemma3_k(theta1, theta2)
    return [x_low(k, i, a) if i <= k else xy_high(k, i, a) for i in range(n + 1)]


def lemma3_y(n: int, theta1: int, theta2: int, a: object) -> list:
    """Lemma 3's y in the internal a: a^(k-i+1)/(a+1) for i <= k, a^(j-k-1)/(a+1) for j >= k+1."""
    k = lemma3_k(theta1, theta2)
    return [y_low(k, i, a) if i <= k else xy_high(k, i, a) for i in range(n + 1)]


# --- z3 helpers ---------------------------------------------------------------------------------


def z3_alpha(alpha: Alpha) -> tuple[z3.ArithRef, list]:
    """The internal a as a z3 term, and its side conditions: the constant internal(alpha), or a variable in (0, 1)."""
    if alpha == SYMBOLIC:
        v = z3.Real("a")
        return v, [v > 0, v < 1]
    return z3.RealVal(str(internal(alpha))), []


def z3_power(t: z3.ArithRef, e: int) -> z3.ArithRef:
    out = z3.RealVal(1)
    for _ in range(abs(e)):
        out = out * t
    return out if e >= 0 else 1 / out


class _Z3Alpha:
    """The internal a as a z3 term that also supports integer powers (z3 has no ** with negative exponents)."""

    def __init__(self, t: z3.ArithRef) -> None:
        self.t = t

    def _w(self, o):
        return o.t if isinstance(o, _Z3Alpha) else o

    def __add__(self, o):
        return _Z3Alpha(self.t + self._w(o))

    __radd__ = __add__

    def __sub__(self, o):
        return _Z3Alpha(self.t - self._w(o))

    def __rsub__(self, o):
        return _Z3Alpha(self._w(o) - self.t)

    def __mul__(self, o):
        return _Z3Alpha(self.t * self._w(o))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return _Z3Alpha(self.t / self._w(o))

    def __rtruediv__(self, o):
        return _Z3Alpha(self._w(o) / self.t)

    def __pow__(self, e: int):
        return _Z3Alpha(z3_power(self.t, int(e)))


def _unwrap(v):
    return v.t if isinstance(v, _Z3Alpha) else v


def vector_terms(vector: Callable[[object], list], alpha: Alpha, a: z3.ArithRef) -> list:
    """The vector at the zlcn label alpha as z3 terms: symbolic in the z3 variable a, or exact at internal(alpha)."""
    if alpha == SYMBOLIC:
        return [_unwrap(v) if isinstance(v, _Z3Alpha) else z3.RealVal(str(v)) for v in vector(_Z3Alpha(a))]
    return [z3.RealVal(str(F(v))) for v in vector(internal(alpha))]


def dp_column(col: Sequence[z3.ArithRef], a: z3.ArithRef) -> list:
    """alpha-DP of one column over neighbouring counts, internal form a x <= y <= x / a, and non-negativity."""
    out = [v >= 0 for v in col]
    for x, y in zip(col, col[1:]):
        out += [a * x <= y, a * y <= x]
    return out


def at_model(alpha: Alpha, m: z3.ModelRef, a: z3.ArithRef) -> str:
    """The alpha of a z3 model, for messages: the zlcn label, or the internal a the solver chose."""
    return label(alpha) if alpha != SYMBOLIC else f"internal a={model_value(m, a)} (zlcn alpha = 1/a)"


# --- the finite derivation problem ---------------------------------------------------------------


def derivation_problem(targets: Sequence[Callable[[object], list]], alpha: Alpha, rows: Sequence[int] | None = None):
    """The 2^K-column problem of the module docstring: a DP matrix with columns s in {0,1}^K deriving
    targets[k] with the 0/1 transformation s_k.  Returns (facts, matrix terms, types, internal a term)."""
    a, side = z3_alpha(alpha)
    vecs = [vector_terms(t, alpha, a) for t in targets]
    idx = list(range(len(vecs[0]))) if rows is None else list(rows)
    types = list(itertools.product((0, 1), repeat=len(vecs)))
    mat = [[z3.Real(f"m_{i}_{''.join(map(str, s))}") for s in types] for i in idx]
    facts = list(side)
    for r, i in enumerate(idx):
        facts.append(z3.Sum(mat[r]) == 1)
        for k, vec in enumerate(vecs):
            facts.append(z3.Sum([mat[r][c] for c, s in enumerate(types) if s[k] == 1]) == vec[i])
    for c in range(len(types)):
        facts += dp_column([mat[r][c] for r in range(len(idx))], a)
    return facts, mat, types, a


def derivation(targets, alpha: Alpha, timeout_s: float, rows: Sequence[int] | None = None) -> str | None:
    """None if no DP matrix (any number of columns) derives every target; else the derivation found.
    alpha is a zlcn2013 label (> 1) or SYMBOLIC."""
    facts, mat, types, a = derivation_problem(targets, alpha, rows)
    out = decide(facts, timeout_s)
    if out.unsat:
        return None
    m = out.model
    entries = [[model_value(m, v) for v in row] for row in mat]
    cols = ", ".join("t=" + "".join(map(str, s)) for s in types)
    return (
        f"{at_model(alpha, m, a)}: the DP matrix {entries} (columns {cols}) derives every target "
        "with 0/1 transformations"
    )


def prove_underivable(targets, alphas: Sequence[Alpha], timeout_s: float, rows=None) -> tuple[str | None, list[str]]:
    """(counterexample or None, the labels of the alphas covered)."""
    for al in alphas:
        cex = derivation(targets, al, timeout_s, rows)
        if cex:
            return cex, [label(al)]
    return None, [label(al) for al in alphas]


def alphas_for(ctx: Context) -> list[Alpha]:
    return [*ZLCN_ALPHAS, SYMBOLIC]


# --- Lemma 1 and Corollary 1 ----------------------------------------------------------------------


def lemma1_target(a: object) -> list:
    """(1/(A+1), A/(A+1)) with A = 1/a: (a/(a+1), 1/(a+1))."""
    return [a / (a + 1), 1 / (a + 1)]


def lemma1_counterexample(alpha: Alpha, timeout_s: float, target: Vector = lemma1_target, flip: bool = False):
    """A 2 x m instance where some non-zero column is not tight with the matching t, or None.

    Reduction: split every column by t (as in the module docstring, K = 1) into a t = 1 part and a t = 0 part
    with the same ratio p_j/q_j; a non-tight column stays non-tight, and a tight column with fractional t leaves
    a part whose t is the wrong one.  Keep one violating column j0 (t in {0, 1}) and merge the others by t: three
    columns suffice for every m.  Tight: p_j/q_j = A = 1/a (q_j = a p_j) or p_j/q_j = 1/A = a (p_j = a q_j)."""
    a, side = z3_alpha(alpha)
    tgt = vector_terms(target, alpha, a)
    for tau in (0, 1):
        p, q = z3.Reals("p0 p1 p2"), z3.Reals("q0 q1 q2")
        t = [tau, 1, 0]
        facts = [*side, z3.Sum(p) == 1, z3.Sum(q) == 1]
        for j in range(3):
            facts += dp_column([p[j], q[j]], a)
        facts.append(z3.Sum([p[j] for j in range(3) if t[j]]) == tgt[0])
        facts.append(z3.Sum([q[j] for j in range(3) if t[j]]) == tgt[1])
        t_when_p_big, t_when_q_big = (1, 0) if flip else (0, 1)
        good = z3.Or(z3.And(q[0] == a * p[0], tau == t_when_p_big), z3.And(p[0] == a * q[0], tau == t_when_q_big))
        facts += [p[0] + q[0] > 0, z3.Not(good)]
        out = decide(facts, timeout_s)
        if not out.unsat:
            m = out.model
            vals = [(model_value(m, p[j]), model_value(m, q[j]), t[j]) for j in range(3)]
            return (
                f"{at_model(alpha, m, a)}: columns (p_j, q_j, t_j) = {vals}; column 0 is not tight with the stated t "
                f"(B t = {[model_value(m, v) for v in tgt]})"
            )
    return None


@checks("zlcn2013.lemma1")
def lemma1(ctx: Context, target: Vector = lemma1_target, flip: bool = False) -> Result:
    """zlcn2013 Lemma 1 and Corollary 1: if a DP 2 x m matrix (p; q) derives (1/(A+1), A/(A+1)) (zlcn's A > 1) then
    every non-zero column has p_j/q_j in {A, 1/A}, with t_j = 0 when p_j/q_j = A and t_j = 1 when it is 1/A;
    Corollary 1 applies this to the row pairs (0,1) and (2,3) of x-hat and (1,2) of y-hat."""
    alphas = alphas_for(ctx)
    for al in alphas:
        cex = lemma1_counterexample(al, ctx.solver_timeout, target, flip)
        if cex:
            return Result(
                Status.REFUTED,
                Evidence.ALL_N,
                Scope.of(alphas=[label(al)]),
                counterexample=cex,
                notes="m = 3 columns cover every m (reduction in lemma1_counterexample)",
            )
    # Corollary 1: the three row pairs have exactly Lemma 1's right-hand side (or its complement, t -> 1 - t).
    xh, yh, tgt = xhat(a_sym), yhat(a_sym), lemma1_target(a_sym)
    pairs = {
        "x-hat rows (0,1)": (xh[0], xh[1]),
        "x-hat rows (2,3), with 1 - t": (1 - xh[2], 1 - xh[3]),
        "y-hat rows (1,2)": (yh[1], yh[2]),
    }
    values = {}
    for name, (u, v) in pairs.items():
        ok = sp.simplify(u - tgt[0]) == 0 and sp.simplify(v - tgt[1]) == 0
        values[f"Corollary 1: {name} is Lemma 1's vector"] = (
            "yes" if ok else f"no: ({sp.simplify(u)}, {sp.simplify(v)})"
        )
        if not ok:
            return Result(
                Status.REFUTED,
                Evidence.ALL_N,
                Scope.of(alphas=[SYMBOLIC]),
                counterexample=f"Corollary 1: {name} gives ({u}, {v}) in the internal a, not Lemma 1's vector",
            )
    values["zero columns"] = "p_j = q_j = 0 has no ratio: the lemma holds for every non-zero column"
    return Result(
        Status.PROVED,
        Evidence.ALL_N,
        Scope.of(alphas=[label(al) for al in alphas]),
        values,
        notes=(
            "all m via the 3-column reduction; z3 unsat for symbolic internal a in (0, 1) (nlsat) and each "
            "rational zlcn alpha (computed at a = 1/alpha)"
        ),
    )


# --- Lemma 2 and Theorem 3 (n = 3, theta = (1, 2)) ------------------------------------------------


@checks("zlcn2013.lemma2")
def lemma2(ctx: Context, x: Vector = xhat, y: Vector = yhat) -> Result:
    """zlcn2013 Lemma 2: no alpha-DP matrix A (4 x m, any m) derives both x-hat and y-hat (n = 3, theta = (1,2)),
    for every zlcn alpha > 1 (every internal a in (0, 1))."""
    alphas = alphas_for(ctx)
    cex, covered = prove_underivable([x, y], alphas, ctx.solver_timeout)
    scope = Scope.of(n_max=3, alphas=covered)
    if cex:
        return Result(Status.REFUTED, Evidence.ALL_N, scope, counterexample=cex)
    values = {}
    # The printed vectors are the ones checked.
    for key, fn in (("xhat", x), ("yhat", y)):
        same = all(sp.simplify(u - v) == 0 for u, v in zip(printed_vector(key), fn(a_sym)))
        values[f"printed {key} = the vector checked"] = "yes" if same else "no"
    # The proof's intermediate value: from (1/A) S1 + A S2 = A/(A+1) and S1 + S2 = A/(A+1), in a = 1/A:
    # a S1 + S2 / a = 1/(a+1) and S1 + S2 = 1/(a+1).
    s1, s2 = sp.symbols("S1 S2")
    sol = sp.solve([a_sym * s1 + s2 / a_sym - 1 / (a_sym + 1), s1 + s2 - 1 / (a_sym + 1)], [s1, s2])
    printed_sum = printed_internal(printed("zlcn2013", "lemma2.sum").values)
    values["proof: sum_{j<=l} a_2j"] = f"{ratio_str(sol[s1])} (internal a = 1/alpha)"
    values["proof: sum matches printed a^2/(a+1)^2"] = "yes" if sp.simplify(sol[s1] - printed_sum) == 0 else "no"
    values["reduction"] = "4 columns (t, t') in {0,1}^2 cover every m (module docstring)"
    return Result(
        Status.PROVED,
        Evidence.ALL_N,
        scope,
        values,
        notes="n = 3 as stated; every m by the split-and-merge reduction; z3 unsat for symbolic a in (0, 1)",
    )


def ratio_str(e: sp.Expr) -> str:
    """A rational function as num/den, factored (1/(a + 1)**2 rather than (a + 1)**(-2))."""
    num, den = sp.fraction(sp.factor(e))
    if den == 1:
        return str(num)
    top = f"({num})" if num.is_Add else str(num)
    return f"{top}/{den}" if den.is_Atom or den.is_Pow else f"{top}/({den})"


def thm3_tables_check() -> dict[str, str]:
    """Theorem 3's parametrised 2x2 tables: each has total 1 and the marginals x-hat_mu, y-hat_mu."""
    item = printed("zlcn2013", "thm3.tables").values[1]
    ts = {f"t{i}": sp.Symbol(f"t{i}") for i in range(3)}
    cells = [[printed_internal(c, ts) for c in row] for row in item]
    out = {}
    for mu in range(3):
        t00, t01 = cells[0][2 * mu], cells[0][2 * mu + 1]
        t10, t11 = cells[1][2 * mu], cells[1][2 * mu + 1]
        ok = (
            sp.simplify(t00 + t01 + t10 + t11 - 1) == 0
            and sp.simplify(t10 + t11 - xhat(a_sym)[mu]) == 0
            and sp.simplify(t01 + t11 - yhat(a_sym)[mu]) == 0
        )
        out[f"printed table mu={mu}: total 1, marginals x-hat, y-hat"] = "yes" if ok else "no"
    return out


@checks("zlcn2013.thm3")
def thm3(
    ctx: Context, x: Vector = xhat, y: Vector = yhat, rows: tuple[int, ...] = (0, 1, 2), n_max: int | None = None
) -> Result:
    """zlcn2013 Theorem 3 (n = 3, theta = (1,2)): no DP joint mechanism t_(mu,i,j) on counts mu = 0, 1, 2 has the
    marginals x-hat (first consumer) and y-hat (second), for every zlcn alpha > 1; also for the general n of
    Lemma 3."""
    alphas = alphas_for(ctx)
    cex, covered = prove_underivable([x, y], alphas, ctx.solver_timeout, rows)
    if cex:
        return Result(
            Status.REFUTED, Evidence.BOUNDED, Scope.of(3, covered), counterexample=f"counts {list(rows)}: {cex}"
        )
    values = thm3_tables_check()
    if "no" in values.values():
        return Result(
            Status.REFUTED,
            Evidence.TABLE,
            Scope.of(3, covered),
            values,
            counterexample="a printed 2x2 table does not have the stated marginals",
        )
    two = derivation([x, y], F(2), ctx.solver_timeout, rows=(0, 1))
    values[f"counts 0,1 alone ({label(F(2))})"] = "a joint mechanism exists" if two else "none"
    n_max = n_max or (5 if ctx.quick else 8)
    general_alphas = ZLCN_ALPHAS[:3] if ctx.quick else ZLCN_ALPHAS
    general = general_cases(n_max, general_alphas, ctx.solver_timeout)
    if isinstance(general, str):
        return Result(
            Status.REFUTED, Evidence.BOUNDED, Scope.of(n_max, map(label, general_alphas)), counterexample=general
        )
    values["general n: (n, theta) cases with no joint mechanism"] = str(general)
    return Result(
        Status.VERIFIED,
        Evidence.BOUNDED,
        Scope.of(n_max, covered),
        values,
        notes=(
            f"n = 3: counts {list(rows)} already contradict, for symbolic a in (0, 1) and each rational zlcn alpha; "
            f"general n <= {n_max}: the joint mechanism for Lemma 3's x and y does not exist (zlcn alphas "
            f"{', '.join(map(str, general_alphas))}; 1 <= theta1 < theta2 <= n-1)"
        ),
    )


# --- Lemma 3, Corollary 2, Theorem 2 ---------------------------------------------------------------


def legal_constraints(n: int, a: Fraction) -> list[tuple[list[Fraction], Fraction]]:
    """zlcn2013 Definition 2 as rows g.phi >= h, internal form: for neighbours i, i+1,
    a phi_i <= phi_(i+1) <= phi_i / a and the same for 1 - phi."""
    rows = []

    def e(pairs):
        g = [F(0)] * (n + 1)
        for i, v in pairs:
            g[i] += v
        return g

    for i in range(n + 1):
        rows += [(e([(i, F(1))]), F(0)), (e([(i, F(-1))]), F(-1))]
    for i in range(n):
        rows += [
            (e([(i + 1, F(1)), (i, -a)]), F(0)),  # phi_(i+1) >= a phi_i
            (e([(i, F(1)), (i + 1, -a)]), F(0)),  # phi_i >= a phi_(i+1)
            (e([(i + 1, F(-1)), (i, a)]), a - 1),  # 1 - phi_(i+1) >= a (1 - phi_i)
            (e([(i, F(-1)), (i + 1, a)]), a - 1),  # 1 - phi_i >= a (1 - phi_(i+1))
        ]
    return rows


def unique_optimum_consumer(n: int, theta: tuple[int, int], phi: list[Fraction], a: Fraction, timeout_s: float):
    """A consumer (omega = 1, prior rho) whose ONLY optimal legal function (internal a) is phi, or why there is none.

    The weighted error is const + c.phi with c_i = -omega_i rho_i inside [theta1, theta2] and +omega_i rho_i
    outside.  phi is the unique minimiser of c over the legal polytope iff c is in the interior of the cone of
    the gradients g of the constraints binding at phi, i.e. c = sum lambda_k g_k with every lambda_k > 0 (scaled:
    >= 1), which needs the binding gradients to span R^(n+1) (phi a vertex).  Found c are re-checked by a second
    z3 query: no legal psi != phi has c.psi <= c.phi."""
    cons = legal_constraints(n, a)
    tight = [(g, h) for g, h in cons if sum(gi * p for gi, p in zip(g, phi)) == h]
    if linalg.rank([g for g, _ in tight] or [[F(0)] * (n + 1)]) < n + 1:
        return None, f"phi is not a vertex of the legal polytope (binding rank < {n + 1})"
    lam = [z3.Real(f"lam_{k}") for k in range(len(tight))]
    c = [z3.Sum([z3.RealVal(str(g[i])) * lam[k] for k, (g, _) in enumerate(tight)]) for i in range(n + 1)]
    inside = [theta[0] <= i <= theta[1] for i in range(n + 1)]
    facts = [v >= 1 for v in lam] + [c[i] <= 0 if inside[i] else c[i] >= 0 for i in range(n + 1)]
    out = decide(facts, timeout_s)
    if out.unsat:
        return None, "no omega, rho: the cone of binding gradients at phi has no interior point of the needed signs"
    cv = [F(model_value(out.model, t)) for t in c]
    # independent uniqueness check
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok = [z3.Sum([z3.RealVal(str(g[i])) * psi[i] for i in range(n + 1)]) >= z3.RealVal(str(h)) for g, h in cons]
    better = z3.Sum([z3.RealVal(str(cv[i])) * (psi[i] - z3.RealVal(str(phi[i]))) for i in range(n + 1)]) <= 0
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    if not decide([*ok, better, other], timeout_s).unsat:
        raise AssertionError("interior-of-cone consumer is not unique; the certificate logic is wrong")
    w = [abs(v) for v in cv]
    rho = [v / sum(w) for v in w]
    consumer = CountRangeConsumer.of([1] * (n + 1), rho, theta[0], theta[1])
    const = sum((rho[i] for i in range(n + 1) if inside[i]), F(0))
    assert consumer.weighted_error(phi) == const + sum(ci * p for ci, p in zip(cv, phi)) / sum(w)
    return consumer, ""


def lemma3_instance(
    n: int,
    theta: tuple[int, int],
    alpha: Fraction,
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    check_derivation: bool = True,
) -> tuple[str | None, dict[str, str]]:
    """Lemma 3 + Corollary 2 at one (n, theta, zlcn alpha): x, y are legal, each the unique optimum of a consumer
    found here, their entries k-1..k+2 are x-hat, y-hat, and no DP matrix derives both.  (failure, data)."""
    k = lemma3_k(*theta)
    a = internal(alpha)
    at = f"n={n}, theta={theta}, {label(alpha)}"
    data: dict[str, str] = {}
    vecs = {"x": xf(n, *theta, a), "y": yf(n, *theta, a)}
    for name, v in vecs.items():
        if not all(0 <= p <= 1 for p in v) or not is_legal_function(v, alpha):
            return f"{at}: {name} = {linalg.fmt_vector(v)} is not a legal function", data
        consumer, why = unique_optimum_consumer(n, theta, v, a, timeout_s)
        if consumer is None:
            return f"{at}: {name} = {linalg.fmt_vector(v)}: {why}", data
        data[f"{name} rho"] = linalg.fmt_vector(consumer.rho)
    if 1 <= k and k + 2 <= n:
        window = {"x": xhat(a), "y": yhat(a)}
        for name, v in vecs.items():
            if v[k - 1 : k + 3] != window[name]:
                return (
                    f"{at}: {name}[k-1..k+2] = {linalg.fmt_vector(v[k - 1 : k + 3])} "
                    f"is not {name}-hat = {linalg.fmt_vector(window[name])}"
                ), data
    if check_derivation:
        cex = derivation([lambda a_: xf(n, *theta, a_), lambda a_: yf(n, *theta, a_)], alpha, timeout_s)
        if cex:
            return f"n={n}, theta={theta}: {cex}", data
    return None, data


def count_range_thetas(n: int) -> list[tuple[int, int]]:
    """Count-range queries that are not threshold queries: 1 <= theta1 < theta2 <= n-1."""
    return [(t1, t2) for t1 in range(1, n) for t2 in range(t1 + 1, n)]


def general_cases(n_max: int, alphas: Sequence[Fraction], timeout_s: float, xf=lemma3_x, yf=lemma3_y) -> int | str:
    """Lemma 3 + Corollary 2 for 3 <= n <= n_max, every non-threshold theta and zlcn alpha: count, or a failure."""
    total = 0
    for n in range(3, n_max + 1):
        for theta in count_range_thetas(n):
            for al in alphas:
                fail, _ = lemma3_instance(n, theta, al, timeout_s, xf, yf)
                if fail:
                    return fail
                total += 1
    return total


@checks("zlcn2013.lemma3")
def lemma3(ctx: Context, xf=lemma3_x, yf=lemma3_y, n_max: int | None = None) -> Result:
    """zlcn2013 Lemma 3 and Corollary 2: for 1 <= theta1 < theta2 <= n-1 the printed x and y are legal, each is the
    ONLY optimum of some consumer (found and certified here), x[k-1..k+2] = x-hat, y[k-1..k+2] = y-hat, and no DP
    matrix derives both."""
    n_max = n_max or (5 if ctx.quick else 9)
    alphas = list(ZLCN_ALPHAS)
    values: dict[str, str] = {}
    total, found_rho = 0, ""
    for n in range(3, n_max + 1):
        for theta in count_range_thetas(n):
            for al in alphas:
                fail, data = lemma3_instance(n, theta, al, ctx.solver_timeout, xf, yf, check_derivation=n <= 5)
                if fail:
                    return Result(Status.REFUTED, Evidence.BOUNDED, Scope.of(n, [label(al)]), counterexample=fail)
                total += 1
                if n == 3 and al == 2:
                    found_rho = "; ".join(f"{k} = {v}" for k, v in data.items())
    values["(n, theta, alpha) instances"] = str(total)
    sym_n = min(n_max, 5 if ctx.quick else 9)
    for n in range(3, sym_n + 1):
        for theta in count_range_thetas(n):
            cex = derivation(
                [lambda a_, t=theta, m=n: xf(m, *t, a_), lambda a_, t=theta, m=n: yf(m, *t, a_)],
                SYMBOLIC,
                ctx.solver_timeout,
            )
            if cex:
                return Result(
                    Status.REFUTED,
                    Evidence.BOUNDED,
                    Scope.of(n, [SYMBOLIC]),
                    counterexample=f"Corollary 2, n={n}, theta={theta}: {cex}",
                )
    values.update(lemma3_formula_facts())
    values["Corollary 2 for symbolic alpha > 1"] = f"no DP matrix derives both x and y, every theta, n <= {sym_n}"
    values.update(paper_rho_check(ctx.solver_timeout))
    values.update(lemma3_boundary(ctx.solver_timeout, xf, yf))
    return Result(
        Status.VERIFIED,
        Evidence.BOUNDED,
        Scope.of(n_max, map(label, alphas)),
        values,
        notes=(
            "Corollary 2's non-derivability via z3 for n <= 5 (for larger n it follows from Lemma 2 on "
            "rows k-1..k+2, whose windows are checked for every n); symbolic: internal a in (0, 1); threshold "
            f"boundaries as data. Consumers (omega = 1) found for n=3, theta=(1,2), zlcn alpha=2: {found_rho}"
        ),
    )


def lemma3_boundary(timeout_s: float, xf=lemma3_x, yf=lemma3_y) -> dict[str, str]:
    """What Lemma 3 gives at the excluded boundaries theta1 = 0 or theta2 = n (threshold queries)."""
    out = {}
    for n, theta in ((4, (0, 2)), (4, (2, 4)), (4, (0, 4))):
        fail, _ = lemma3_instance(n, theta, F(2), timeout_s, xf, yf)
        out[f"boundary n={n} theta={theta} {label(F(2))}"] = (
            fail or "x, y unique optima of some consumers, not co-derivable"
        )
    return out


@checks("zlcn2013.thm2")
def thm2(ctx: Context, xf=lemma3_x, yf=lemma3_y, n_max: int | None = None) -> Result:
    """zlcn2013 Theorem 2: for every count-range query that is not a threshold query (1 <= theta1 < theta2 <= n-1)
    there is no universally utility-maximizing DP mechanism: two consumers have unique optima x, y (Lemma 3) that
    no DP matrix derives together (Corollary 2); databases tau_0..tau_n reduce arbitrary mechanisms to this."""
    n_max = n_max or (5 if ctx.quick else 7)
    alphas = list(ZLCN_ALPHAS) if not ctx.quick else list(ZLCN_ALPHAS[:5])
    result = general_cases(n_max, alphas, ctx.solver_timeout, xf, yf)
    scope = Scope.of(n_max, map(label, alphas))
    if isinstance(result, str):
        return Result(Status.REFUTED, Evidence.BOUNDED, scope, counterexample=result)
    return Result(
        Status.VERIFIED,
        Evidence.BOUNDED,
        scope,
        {"(n, theta, alpha) instances": str(result)},
        notes=(
            "threshold queries (theta1 = 0 or theta2 >= n) are excluded by the paper's definition; "
            "for them zlcn2013 Theorem 7 gives a universal mechanism"
        ),
    )


def paper_rho(a: Fraction) -> list[Fraction]:
    """zlcn2013 Section 3.2.2's prior from the printed relations (paper_tables/printed/zlcn2013.json "rho"):
    rho(0)/rho(1) = A^2, rho(2)/rho(1) = A, rho(3) = rho(2) (A = 1/a); the normalisation is not printed."""
    rel = printed("zlcn2013", "rho").values
    if rel[2].replace(" ", "") != "\\rho(3)=\\rho(2)":
        raise ExpectationsError(f"zlcn2013 rho: expected the printed relation rho(3) = rho(2), got {rel[2]!r}")
    r0, r2 = (
        printed_internal(v.split("=", 1)[1]).subs(a_sym, sp.Rational(a.numerator, a.denominator)) for v in rel[:2]
    )
    w = [F(str(r0)), F(1), F(str(r2)), F(str(r2))]
    return [v / sum(w) for v in w]


def is_unique_optimum(consumer: CountRangeConsumer, phi: list[Fraction], a: Fraction, timeout_s: float) -> bool:
    """z3: no legal psi != phi (internal a) has weighted error <= that of phi (linear in psi)."""
    n = consumer.n
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok = [
        z3.Sum([z3.RealVal(str(g[i])) * psi[i] for i in range(n + 1)]) >= z3.RealVal(str(h))
        for g, h in legal_constraints(n, a)
    ]
    w = [consumer.omega[i] * consumer.rho[i] for i in range(n + 1)]
    sign = [-1 if consumer.in_range(i) else 1 for i in range(n + 1)]
    diff = z3.Sum(
        [
            z3.RealVal(str(sign[i] * w[i] * (0 - phi[i]))) + z3.RealVal(str(sign[i] * w[i])) * psi[i]
            for i in range(n + 1)
        ]
    )
    other = z3.Or([psi[i] != z3.RealVal(str(phi[i])) for i in range(n + 1)])
    return decide([*ok, diff <= 0, other], timeout_s).unsat


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


def lemma3_formula_facts() -> dict[str, str]:
    """The printed exponents, symbolically in k and i: the paper's formulas (in A) become the internal ones after
    A = 1/a; the entries next to k are x-hat, y-hat; every entry is a probability."""
    kk = sp.Symbol("k", integer=True, nonnegative=True)
    i = sp.Symbol("i", integer=True)
    paper = {name: in_internal_alpha(f(kk, i, A_SYM)) for name, f in PAPER_LEMMA3.items()}
    for name, f in INTERNAL_LEMMA3.items():
        if sp.simplify(paper[name] - f(kk, i, a_sym)) != 0:
            raise ExpectationsError(f"Lemma 3 {name}: {f(kk, i, a_sym)} is not the paper's formula {paper[name]}")
    x_lo, xy_hi, y_lo = paper["x, i <= k"], paper["x and y, j >= k+1"], paper["y, i <= k"]
    facts = {
        "x_(k-1), x_k, x_(k+1), x_(k+2)": [
            x_lo.subs(i, kk - 1),
            x_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
        "y_(k-1), y_k, y_(k+1), y_(k+2)": [
            y_lo.subs(i, kk - 1),
            y_lo.subs(i, kk),
            xy_hi.subs(i, kk + 1),
            xy_hi.subs(i, kk + 2),
        ],
    }
    out = {f"Lemma 3 symbolic {name}": ", ".join(str(sp.simplify(v)) for v in vals) for name, vals in facts.items()}
    out["Lemma 3 entries in (0, 1)"] = (
        "smallest exponent of a = 1/alpha is 0 (at x_k, x_(k+1)): every entry <= 1/(a+1) < 1"
    )
    return out
