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
from udpm.claims import Context, Findings, checks
from udpm.conventions import alpha_from_zlcn2013
from udpm.errors import ExpectationsError, VacuousPremise
from udpm.instances import BOUNDED, TABLE
from udpm.smt import decide, model_value, premise_witness
from udpm.tables import printed
from udpm.users import CountRangeConsumer, is_legal_function

F = Fraction
A_SYM = sp.Symbol("alpha", positive=True)  # zlcn2013's alpha > 1: only in the printed LaTeX and the paper's formulas
a_sym = sp.Symbol("a", positive=True)  # the internal alpha = 1/A_SYM in (0, 1)
ZLCN_ALPHAS = (F(2), F(3), F(3, 2), F(10, 9), F(10), F(101, 100))  # labels, zlcn2013's convention
SYMBOLIC = "symbolic zlcn alpha > 1"  # an instance label: every zlcn alpha > 1, internal a = 1/alpha in (0, 1)
Alpha = Fraction | str  # a zlcn2013 alpha > 1 (a label), or SYMBOLIC
Vector = Callable[[object], list]  # internal a (sympy symbol, Fraction or z3 term) -> vector


def internal(alpha: Fraction) -> Fraction:
    """The internal a in (0, 1) of a zlcn2013 label: the one place a concrete alpha is converted."""
    return alpha_from_zlcn2013(alpha)


def zlcn_label(alpha: Alpha) -> str:
    """The label of a zlcn2013 alpha in instances and messages, shared with proofs/countrange_lp.py:
    'zlcn alpha=2 (internal 1/2)', or SYMBOLIC."""
    if isinstance(alpha, str):
        if alpha != SYMBOLIC:
            raise ExpectationsError(f"unknown alpha label {alpha!r}")
        return SYMBOLIC
    return f"zlcn alpha={alpha} (internal {internal(alpha)})"


label = zlcn_label


def premises_hold(premises: Sequence, pins: Sequence, timeout_s: float, what: str) -> str:
    """The vacuity guard of every z3 query here: the hypotheses have a model (udpm.smt.premise_witness), else
    VacuousPremise.  ``pins`` name a canonical point (the paper's own vectors, say) tried first, so that the
    recorded witness does not depend on z3's internal term order; the pins only narrow the premises, so a model
    with them is a model of the premises.  Returns the witness as text (zero entries left out)."""
    try:
        w = premise_witness([*premises, *pins], timeout_s, what)
    except VacuousPremise:
        w = premise_witness(premises, timeout_s, what)  # raises when the premises themselves are contradictory
    return ", ".join(f"{k}={v}" for k, v in w.items() if v != "0") or "every variable 0"


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


def pin_alpha(alpha: Alpha, a: z3.ArithRef) -> list:
    """The canonical point of a symbolic alpha for a premise witness: zlcn alpha = 2 (a = 1/2)."""
    return [a == z3.RealVal("1/2")] if alpha == SYMBOLIC else []


# --- the finite derivation problem ---------------------------------------------------------------


def derivation_problem(targets: Sequence[Callable[[object], list]], alpha: Alpha, rows: Sequence[int] | None = None):
    """The 2^K-column problem of the module docstring: a DP matrix with columns s in {0,1}^K deriving
    targets[k] with the 0/1 transformation s_k.  Returns (premises, goal, pins, matrix terms, types, internal a):
    the premises say the matrix is a DP mechanism, the goal that it derives every target, and the pins are a
    canonical model of the premises (every row on the column s = 0...0)."""
    a, side = z3_alpha(alpha)
    vecs = [vector_terms(t, alpha, a) for t in targets]
    idx = list(range(len(vecs[0]))) if rows is None else list(rows)
    types = list(itertools.product((0, 1), repeat=len(vecs)))
    mat = [[z3.Real(f"m_{i}_{''.join(map(str, s))}") for s in types] for i in idx]
    premises, goal = list(side), []
    for r in range(len(idx)):
        premises.append(z3.Sum(mat[r]) == 1)
    for c in range(len(types)):
        premises += dp_column([mat[r][c] for r in range(len(idx))], a)
    for r, i in enumerate(idx):
        for k, vec in enumerate(vecs):
            goal.append(z3.Sum([mat[r][c] for c, s in enumerate(types) if s[k] == 1]) == vec[i])
    pins = pin_alpha(alpha, a) + [v == (1 if c == 0 else 0) for row in mat for c, v in enumerate(row)]
    return premises, goal, pins, mat, types, a


def derivation(targets, alpha: Alpha, timeout_s: float, rows: Sequence[int] | None = None) -> tuple[str | None, str]:
    """(None if no DP matrix (any number of columns) derives every target, else the derivation found; the
    premise witness).  alpha is a zlcn2013 label (> 1) or SYMBOLIC."""
    premises, goal, pins, mat, types, a = derivation_problem(targets, alpha, rows)
    witness = premises_hold(premises, pins, timeout_s, f"DP matrix at {label(alpha)}")
    out = decide([*premises, *goal], timeout_s)
    if out.unsat:
        return None, witness
    m = out.model
    entries = [[model_value(m, v) for v in row] for row in mat]
    cols = ", ".join("t=" + "".join(map(str, s)) for s in types)
    return (
        f"{at_model(alpha, m, a)}: the DP matrix {entries} (columns {cols}) derives every target "
        "with 0/1 transformations"
    ), witness


def alphas_for(ctx: Context) -> list[Alpha]:
    return [*ZLCN_ALPHAS, SYMBOLIC]


# --- Lemma 1 and Corollary 1 ----------------------------------------------------------------------


def lemma1_target(a: object) -> list:
    """(1/(A+1), A/(A+1)) with A = 1/a: (a/(a+1), 1/(a+1))."""
    return [a / (a + 1), 1 / (a + 1)]


def lemma1_counterexample(
    alpha: Alpha, timeout_s: float, target: Vector = lemma1_target, flip: bool = False
) -> tuple[str | None, str]:
    """(A 2 x m instance where some non-zero column is not tight with the matching t, or None; premise witnesses).

    Reduction: split every column by t (as in the module docstring, K = 1) into a t = 1 part and a t = 0 part
    with the same ratio p_j/q_j; a non-tight column stays non-tight, and a tight column with fractional t leaves
    a part whose t is the wrong one.  Keep one violating column j0 (t in {0, 1}) and merge the others by t: three
    columns suffice for every m.  Tight: p_j/q_j = A = 1/a (q_j = a p_j) or p_j/q_j = 1/A = a (p_j = a q_j).
    The premises (a DP 2 x 3 matrix derives the target with t = (tau, 1, 0), column 0 non-zero) are shown
    satisfiable first; their canonical model is the paper's tight matrix."""
    a, side = z3_alpha(alpha)
    tgt = vector_terms(target, alpha, a)
    witnesses = []
    for tau in (0, 1):
        p, q = z3.Reals("p0 p1 p2"), z3.Reals("q0 q1 q2")
        t = [tau, 1, 0]
        premises = [*side, z3.Sum(p) == 1, z3.Sum(q) == 1]
        for j in range(3):
            premises += dp_column([p[j], q[j]], a)
        premises.append(z3.Sum([p[j] for j in range(3) if t[j]]) == tgt[0])
        premises.append(z3.Sum([q[j] for j in range(3) if t[j]]) == tgt[1])
        premises.append(p[0] + q[0] > 0)
        lo, hi = a / (a + 1), 1 / (a + 1)  # the paper's tight columns at the canonical point
        pin_pq = ((lo, 0, hi), (hi, 0, lo)) if tau else ((hi, lo, 0), (lo, hi, 0))
        pins = pin_alpha(alpha, a) + [v == w for v, w in zip([*p, *q], [*pin_pq[0], *pin_pq[1]])]
        w = premises_hold(premises, pins, timeout_s, f"Lemma 1 at {label(alpha)}, t_0 = {tau}")
        witnesses.append(f"t_0={tau}: {w}")
        t_when_p_big, t_when_q_big = (1, 0) if flip else (0, 1)
        good = z3.Or(z3.And(q[0] == a * p[0], tau == t_when_p_big), z3.And(p[0] == a * q[0], tau == t_when_q_big))
        out = decide([*premises, z3.Not(good)], timeout_s)
        if not out.unsat:
            m = out.model
            vals = [(model_value(m, p[j]), model_value(m, q[j]), t[j]) for j in range(3)]
            return (
                f"{at_model(alpha, m, a)}: columns (p_j, q_j, t_j) = {vals}; column 0 is not tight with the stated t "
                f"(B t = {[model_value(m, v) for v in tgt]})"
            ), "; ".join(witnesses)
    return None, "; ".join(witnesses)


@checks("zlcn2013.lemma1")
def lemma1(ctx: Context, target: Vector = lemma1_target, flip: bool = False) -> Findings:
    """zlcn2013 Lemma 1 and Corollary 1: if a DP 2 x m matrix (p; q) derives (1/(A+1), A/(A+1)) (zlcn's A > 1) then
    every non-zero column has p_j/q_j in {A, 1/A}, with t_j = 0 when p_j/q_j = A and t_j = 1 when it is 1/A;
    Corollary 1 applies this to the row pairs (0,1) and (2,3) of x-hat and (1,2) of y-hat."""
    rec = Findings("zlcn2013.lemma1")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=1,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat (3-column reduction)",
            covers="every DP 2 x m matrix (p; q), every m, and t in [0,1]^m deriving Lemma 1's vector",
        ) as d:
            cex, witness = lemma1_counterexample(al, ctx.solver_timeout, target, flip)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(cex)
    # Corollary 1: the three row pairs have exactly Lemma 1's right-hand side (or its complement, t -> 1 - t).
    xh, yh, tgt = xhat(a_sym), yhat(a_sym), lemma1_target(a_sym)
    pairs = {
        "x-hat rows (0,1)": (xh[0], xh[1]),
        "x-hat rows (2,3), with 1 - t": (1 - xh[2], 1 - xh[3]),
        "y-hat rows (1,2)": (yh[1], yh[2]),
    }
    for name, (u, v) in pairs.items():
        ok = sp.simplify(u - tgt[0]) == 0 and sp.simplify(v - tgt[1]) == 0
        rec.decide(
            ok,
            f"Corollary 1: {name} gives ({sp.simplify(u)}, {sp.simplify(v)}) in the internal a, not Lemma 1's vector",
            n=3,
            alpha=SYMBOLIC,
            kind=BOUNDED,
            method="sympy identity in a",
            covers="Corollary 1: a row pair of x-hat or y-hat is Lemma 1's vector",
            pair=name,
        )
    rec.value(zero_columns="p_j = q_j = 0 has no ratio: the lemma holds for every non-zero column")
    rec.note(
        "n=1 stands for Lemma 1's two rows (two neighbouring counts); the number m of columns is arbitrary: the "
        "3-column reduction (lemma1_counterexample's docstring) is a hand argument, not computed, so each alpha is a "
        "bounded instance (not all-n); z3 unsat for each rational zlcn alpha (at a = 1/alpha) and for symbolic "
        "internal a in (0, 1) (nlsat), i.e. every zlcn alpha > 1. Corollary 1 (n = 3) by sympy identities in a"
    )
    return rec


# --- Lemma 2 and Theorem 3 (n = 3, theta = (1, 2)) ------------------------------------------------


@checks("zlcn2013.lemma2")
def lemma2(ctx: Context, x: Vector = xhat, y: Vector = yhat) -> Findings:
    """zlcn2013 Lemma 2: no alpha-DP matrix A (4 x m, any m) derives both x-hat and y-hat (n = 3, theta = (1,2)),
    for every zlcn alpha > 1 (every internal a in (0, 1))."""
    rec = Findings("zlcn2013.lemma2")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=3,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat (4-column reduction)",
            covers="every DP 4 x m matrix, every m, with transformations deriving x-hat and y-hat",
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(cex)
    # The printed vectors are the ones checked.
    for key, fn in (("xhat", x), ("yhat", y)):
        same = all(sp.simplify(u - v) == 0 for u, v in zip(printed_vector(key), fn(a_sym)))
        rec.value(**{f"printed {key} = the vector checked": "yes" if same else "no"})
    # The proof's intermediate value: from (1/A) S1 + A S2 = A/(A+1) and S1 + S2 = A/(A+1), in a = 1/A:
    # a S1 + S2 / a = 1/(a+1) and S1 + S2 = 1/(a+1).
    s1, s2 = sp.symbols("S1 S2")
    sol = sp.solve([a_sym * s1 + s2 / a_sym - 1 / (a_sym + 1), s1 + s2 - 1 / (a_sym + 1)], [s1, s2])
    printed_sum = printed_internal(printed("zlcn2013", "lemma2.sum").values)
    rec.value(
        **{
            "proof: sum_{j<=l} a_2j": f"{ratio_str(sol[s1])} (internal a = 1/alpha)",
            "proof: sum matches printed a^2/(a+1)^2": "yes" if sp.simplify(sol[s1] - printed_sum) == 0 else "no",
        }
    )
    rec.note(
        "n = 3 as stated; every m by the split-and-merge reduction of the module docstring (a hand argument); "
        "z3 unsat at each rational zlcn alpha and for symbolic internal a in (0, 1), i.e. every zlcn alpha > 1; "
        "the premises (a DP matrix with 4 columns) are shown satisfiable first, witness recorded per alpha"
    )
    return rec


def ratio_str(e: sp.Expr) -> str:
    """A rational function as num/den, factored (1/(a + 1)**2 rather than (a + 1)**(-2))."""
    num, den = sp.fraction(sp.factor(e))
    if den == 1:
        return str(num)
    top = f"({num})" if num.is_Add else str(num)
    return f"{top}/{den}" if den.is_Atom or den.is_Pow else f"{top}/({den})"


def thm3_tables_check() -> dict[str, tuple[bool, str]]:
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
        out[f"mu={mu}"] = (
            ok,
            f"printed table mu={mu}: total {sp.simplify(t00 + t01 + t10 + t11)}, marginals "
            f"({sp.simplify(t10 + t11)}, {sp.simplify(t01 + t11)}), not 1, x-hat_mu, y-hat_mu",
        )
    return out


JOINT = "every DP joint mechanism t_(mu,i,j) (any number of outputs, by the 4-column reduction)"


@checks("zlcn2013.thm3")
def thm3(
    ctx: Context, x: Vector = xhat, y: Vector = yhat, rows: tuple[int, ...] = (0, 1, 2), n_max: int | None = None
) -> Findings:
    """zlcn2013 Theorem 3 (n = 3, theta = (1,2)): no DP joint mechanism t_(mu,i,j) on counts mu = 0, 1, 2 has the
    marginals x-hat (first consumer) and y-hat (second), for every zlcn alpha > 1; also, beyond the paper's n = 3,
    for Lemma 3's x and y at general n (a bounded cross-check at a few alphas)."""
    rec = Findings("zlcn2013.thm3")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=3,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat",
            covers=f"{JOINT} with marginals x-hat, y-hat",
            counts=",".join(map(str, rows)),
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout, rows)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(f"counts {list(rows)}: {cex}")
    for name, (ok, why) in thm3_tables_check().items():
        rec.decide(
            ok,
            why,
            n=3,
            alpha=SYMBOLIC,
            kind=TABLE,
            method="printed 2x2 table, sympy identity",
            covers="a printed table has total 1 and the marginals x-hat, y-hat",
            table=name,
        )
    two, _ = derivation([x, y], F(2), ctx.solver_timeout, rows=(0, 1))
    rec.value(**{f"counts 0,1 alone ({label(F(2))})": "a joint mechanism exists" if two else "none"})
    n_max = n_max or (5 if ctx.quick else 8)
    general_alphas = ZLCN_ALPHAS[:3] if ctx.quick else ZLCN_ALPHAS
    count = decide_general(rec, range(3, n_max + 1), general_alphas, ctx.solver_timeout)
    rec.value(**{"general n: (n, theta, alpha) instances with no joint mechanism": count})
    rec.note(
        f"the paper's n = 3 (counts {list(rows)}): every rational zlcn alpha and symbolic internal a in (0, 1); "
        f"beyond the paper, Lemma 3's x and y at n = 3..{n_max}, 1 <= theta1 < theta2 <= n-1, only at zlcn alphas "
        f"{', '.join(map(str, general_alphas))}"
    )
    return rec


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


def legal_premise(
    n: int, a: Fraction, psi: Sequence[z3.ArithRef], phi: Sequence[Fraction], timeout_s: float, what: str
):
    """(the legality constraints on psi, the premise witness: psi = phi, a legal function, pinned)."""
    ok = [
        z3.Sum([z3.RealVal(str(g[i])) * psi[i] for i in range(n + 1)]) >= z3.RealVal(str(h))
        for g, h in legal_constraints(n, a)
    ]
    pins = [v == z3.RealVal(str(p)) for v, p in zip(psi, phi)]
    return ok, premises_hold(ok, pins, timeout_s, what)


def unique_optimum_consumer(n: int, theta: tuple[int, int], phi: list[Fraction], a: Fraction, timeout_s: float):
    """A consumer (omega = 1, prior rho) whose ONLY optimal legal function (internal a) is phi, or why there is none.

    The weighted error is const + c.phi with c_i = -omega_i rho_i inside [theta1, theta2] and +omega_i rho_i
    outside.  phi is the unique minimiser of c over the legal polytope iff c is in the interior of the cone of
    the gradients g of the constraints binding at phi, i.e. c = sum lambda_k g_k with every lambda_k > 0 (scaled:
    >= 1), which needs the binding gradients to span R^(n+1) (phi a vertex).  Found c are re-checked by a second
    z3 query, after its premise (legal psi) is shown satisfiable: no legal psi != phi has c.psi <= c.phi."""
    cons = legal_constraints(n, a)
    tight = [(g, h) for g, h in cons if sum(gi * p for gi, p in zip(g, phi)) == h]
    if linalg.rank([g for g, _ in tight] or [[F(0)] * (n + 1)]) < n + 1:
        return None, f"phi is not a vertex of the legal polytope (binding rank < {n + 1})"
    lam = [z3.Real(f"lam_{k}") for k in range(len(tight))]
    c = [z3.Sum([z3.RealVal(str(g[i])) * lam[k] for k, (g, _) in enumerate(tight)]) for i in range(n + 1)]
    inside = [theta[0] <= i <= theta[1] for i in range(n + 1)]
    facts = [v >= 1 for v in lam] + [c[i] <= 0 if inside[i] else c[i] >= 0 for i in range(n + 1)]
    # first at the canonical point (every lambda 1), so that the consumer found does not depend on z3's term order
    out = decide([*facts, *(v == 1 for v in lam)], timeout_s)
    if out.unsat:
        out = decide(facts, timeout_s)
    if out.unsat:
        return None, "no omega, rho: the cone of binding gradients at phi has no interior point of the needed signs"
    cv = [F(model_value(out.model, t)) for t in c]
    # independent uniqueness check
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
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
    found here, their entries k-1..k+2 are x-hat, y-hat, and (check_derivation) no DP matrix derives both.
    (failure, data)."""
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
    elif not check_derivation:
        return f"{at}: rows k-1..k+2 (k={k}) leave 0..n, and the derivation was not checked", data
    if check_derivation:
        cex, witness = derivation([lambda a_: xf(n, *theta, a_), lambda a_: yf(n, *theta, a_)], alpha, timeout_s)
        data["premise witness"] = witness
        if cex:
            return f"n={n}, theta={theta}: {cex}", data
    return None, data


def count_range_thetas(n: int) -> list[tuple[int, int]]:
    """Count-range queries that are not threshold queries: 1 <= theta1 < theta2 <= n-1."""
    return [(t1, t2) for t1 in range(1, n) for t2 in range(t1 + 1, n)]


DERIVATION_N = 5  # above it, Corollary 2 follows from Lemma 2 on the rows k-1..k+2 (the window is x-hat, y-hat)


def decide_general(
    rec: Findings,
    ns: Sequence[int],
    alphas: Sequence[Fraction],
    timeout_s: float,
    xf=lemma3_x,
    yf=lemma3_y,
    derivation_n: int | None = None,
) -> int:
    """Lemma 3 + Corollary 2 at every n in ns, non-threshold theta and zlcn alpha: one bounded instance each.
    Up to ``derivation_n`` (default: every n) non-derivability is a z3 unsat; above it, a DP matrix deriving
    x and y would restrict (rows k-1..k+2, still DP) to one deriving x-hat and y-hat, which Lemma 2 excludes.
    Returns the number of instances decided."""
    total = 0
    for n in ns:
        by_z3 = derivation_n is None or n <= derivation_n
        for theta in count_range_thetas(n):
            for al in alphas:
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method=(
                        "certified consumers + z3 unsat"
                        if by_z3
                        else "certified consumers + x-hat/y-hat windows (Lemma 2)"
                    ),
                    covers=f"Lemma 3's x and y: legal, unique optima of consumers found here; {JOINT} deriving both",
                    theta=f"{theta[0]},{theta[1]}",
                ) as d:
                    fail, _ = lemma3_instance(n, theta, al, timeout_s, xf, yf, check_derivation=by_z3)
                    total += 1
                    if fail:
                        d.counterexample(fail)
    return total


@checks("zlcn2013.lemma3")
def lemma3(ctx: Context, xf=lemma3_x, yf=lemma3_y, n_max: int | None = None) -> Findings:
    """zlcn2013 Lemma 3 and Corollary 2: for 1 <= theta1 < theta2 <= n-1 the printed x and y are legal, each is the
    ONLY optimum of some consumer (found and certified here), x[k-1..k+2] = x-hat, y[k-1..k+2] = y-hat, and no DP
    matrix derives both."""
    rec = Findings("zlcn2013.lemma3")
    n_max = n_max or (5 if ctx.quick else 9)
    count = decide_general(rec, range(3, n_max + 1), ZLCN_ALPHAS, ctx.solver_timeout, xf, yf, DERIVATION_N)
    rec.value(**{"(n, theta, alpha) instances": count})
    fail, data = lemma3_instance(3, (1, 2), F(2), ctx.solver_timeout, xf, yf)
    if not fail:
        rec.value(
            **{f"consumers found, n=3, theta=(1, 2), {label(F(2))}": "; ".join(f"{k} = {v}" for k, v in data.items())}
        )
    sym_n = min(n_max, DERIVATION_N)
    for n in range(3, sym_n + 1):
        for theta in count_range_thetas(n):
            with rec.deciding(
                n=n,
                alpha=SYMBOLIC,
                kind=BOUNDED,
                method="z3 nlsat unsat",
                covers=f"Corollary 2 only: {JOINT} deriving Lemma 3's x and y",
                theta=f"{theta[0]},{theta[1]}",
            ) as d:
                cex, _ = derivation(
                    [lambda a_, t=theta, m=n: xf(m, *t, a_), lambda a_, t=theta, m=n: yf(m, *t, a_)],
                    SYMBOLIC,
                    ctx.solver_timeout,
                )
                if cex:
                    d.counterexample(f"Corollary 2, n={n}, theta={theta}: {cex}")
    rec.value(**lemma3_formula_facts())
    rec.value(**paper_rho_check(ctx.solver_timeout))
    rec.value(**lemma3_boundary(ctx.solver_timeout, xf, yf))
    rec.note(
        f"rational zlcn alphas: legality, certified unique-optimum consumers and x-hat/y-hat windows at "
        f"n = 3..{n_max}; "
        f"non-derivability by z3 for n <= {DERIVATION_N}, above it by Lemma 2 on rows k-1..k+2 (declared dependency); "
        f"symbolic internal a in (0, 1): Corollary 2's non-derivability only, n <= {sym_n}; threshold boundaries "
        "(theta1 = 0 or theta2 = n) as data; every z3 premise shown satisfiable first (premise witness)"
    )
    return rec


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
def thm2(ctx: Context, xf=lemma3_x, yf=lemma3_y, n_max: int | None = None) -> Findings:
    """zlcn2013 Theorem 2: for every count-range query that is not a threshold query (1 <= theta1 < theta2 <= n-1)
    there is no universally utility-maximizing DP mechanism: two consumers have unique optima x, y (Lemma 3) that
    no DP matrix derives together (Corollary 2); databases tau_0..tau_n reduce arbitrary mechanisms to this."""
    rec = Findings("zlcn2013.thm2")
    n_max = n_max or (5 if ctx.quick else 7)
    alphas = list(ZLCN_ALPHAS) if not ctx.quick else list(ZLCN_ALPHAS[:5])
    count = decide_general(rec, range(3, n_max + 1), alphas, ctx.solver_timeout, xf, yf)
    rec.value(**{"(n, theta, alpha) instances": count})
    rec.note(
        "each instance: the two consumers with unique optima x, y (Lemma 3, found and certified) and z3 unsat for a "
        "DP mechanism deriving both; the reduction from arbitrary databases (tau_0..tau_n) is the paper's argument, "
        "not computed; threshold queries (theta1 = 0 or theta2 >= n) are excluded by the paper's definition, and "
        "for them zlcn2013 Theorem 7 gives a universal mechanism"
    )
    return rec


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
    """z3: no legal psi != phi (internal a) has weighted error <= that of phi (linear in psi); the premise (legal
    psi) is shown satisfiable first."""
    n = consumer.n
    psi = [z3.Real(f"psi_{i}") for i in range(n + 1)]
    ok, _ = legal_premise(n, a, psi, phi, timeout_s, f"legal functions, n={n}")
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


def smallest_exponent(f: Callable, low: bool) -> tuple[sp.Expr, sp.Expr]:
    """(exponent e(s), its minimum over s >= 0) of Lemma 3's entry f = a^e/(a+1) at i = k - s (low side) or
    j = k + 1 + s (high side), symbolically in k and s."""
    kk, s = sp.Symbol("k", integer=True, nonnegative=True), sp.Symbol("s", integer=True, nonnegative=True)
    idx = kk - s if low else kk + 1 + s
    base, e = sp.powsimp(sp.simplify(f(kk, idx, a_sym) * (a_sym + 1))).as_base_exp()
    if base != a_sym:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__} is not a^e/(a+1): {f(kk, idx, a_sym)}")
    poly = sp.Poly(sp.expand(e), s)
    if poly.degree() > 1 or any(c.free_symbols for c in poly.all_coeffs()) or poly.all_coeffs()[0] < 0:
        raise ExpectationsError(f"Lemma 3 entry {f.__name__}: exponent {e} is not increasing in s")
    return sp.expand(e), e.subs(s, 0)


def lemma3_formula_facts() -> dict[str, str]:
    """The printed exponents, symbolically in k and i: the paper's formulas (in A) become the internal ones after
    A = 1/a; the entries next to k are x-hat, y-hat; every entry is a probability (computed: the smallest exponent
    of a on each side of k)."""
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
    lows = {"x, i <= k": True, "x and y, j >= k+1": False, "y, i <= k": True}
    mins = {name: smallest_exponent(INTERNAL_LEMMA3[name], low) for name, low in lows.items()}
    smallest = min(m for _, m in mins.values())
    parts = ", ".join(f"{name}: a^({e})/(a+1), s >= 0, smallest exponent {m}" for name, (e, m) in mins.items())
    verdict = (
        f"yes: smallest exponent {smallest} >= 0, so 0 < entry <= 1/(a+1) < 1"
        if smallest >= 0
        else f"no: exponent {smallest} < 0 gives entries above 1/(a+1)"
    )
    out["Lemma 3 entries in (0, 1)"] = f"{verdict} ({parts}; s = k - i below k, j - k - 1 above)"
    return out
