"""gs2010 Lemma 5's perturbation argument as proof obligations: the symbolic template of steps 2 and 3.

Step 2 of the printed proof (:mod:`proofs.minimax.lemma5` has the statement and the whole proof): if rows i,
i+1 of an alpha-DP mechanism x had a *violating pair* of columns j < k (alpha x_{i,j} < x_{i+1,j} and
alpha x_{i+1,k} < x_{i,k}), moving delta of mass between columns j and k in a contiguous block of rows (case 1,
2i <= j + k: rows r <= i, from k to j; case 2, 2i > j + k: rows r >= i+1, from j to k) gives y, alpha-DP, with
L_y <= L_x for every monotone loss and side information and L'_y < L'_x.  Here each of those facts is an
:class:`udpm.induction.obligations.Obligation` over a symbolic template: symbolic alpha in (0, 1), symbolic integer
positions
r, i, j, k (0 <= j < k), the entries of columns j and k in the rows that matter, the loss values l(r, j),
l(r, k) with the paper's monotonicity, and the explicit delta (:func:`explicit_delta`).  The privacy
constraints that touch a changed entry are those between two changed rows (:func:`inside_block`) and those
between rows i and i+1 (:func:`boundary`); L and L' over all rows follow by induction over the rows
(:func:`over_rows`).  Step 3 (no violating pair gives the pattern) is one obligation over uninterpreted
column predicates and a symbolic number of columns (:func:`pattern_step`).

:class:`Variant` is the proof as the harness runs it; any other value is a false variant for the tests,
going through the same obligations.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import z3

from udpm.induction.obligations import Obligation

PAPER, SIDED, NONE = "paper", "sided", "none"


@dataclass(frozen=True)
class Variant:
    """The proof as the harness runs it; any other value is a false variant for the tests.

    ``split``: case 1 covers 2i <= j + k + split (0: the printed split).  ``loss``: PAPER (l(r, c) <= l(r, c')
    when |r - c| <= |r - c'|), SIDED (nondecreasing on each side of r only) or NONE.  ``delta_scale``: the
    perturbation is ``delta_scale`` times :func:`explicit_delta`.  ``tie_dp``: the DP constraint between rows
    i-1 and i in column k, which gives the strict decrease of L' at 2i = j + k.  ``gap``: step 3's c2 - c1.
    """

    split: int = 0
    loss: str = PAPER
    delta_scale: Fraction = Fraction(1)
    tie_dp: bool = True
    gap: int = 2


PROOF = Variant()  # the proof as the harness runs it


# --- the template ----------------------------------------------------------------------------------


def symbolic_alpha() -> tuple[z3.ArithRef, list[z3.BoolRef]]:
    a = z3.Real("alpha")
    return a, [a > 0, a < 1]


def dist(p: z3.ArithRef, q: z3.ArithRef) -> z3.ArithRef:
    return z3.If(p >= q, p - q, q - p)


def dp(a: z3.ArithRef, upper: z3.ArithRef, lower: z3.ArithRef) -> list[z3.BoolRef]:
    """alpha-DP between one column's entries in adjacent rows."""
    return [a * upper <= lower, a * lower <= upper]


def moved(xj: z3.ArithRef, xk: z3.ArithRef, delta: z3.ArithRef, toward: str) -> tuple[z3.ArithRef, z3.ArithRef]:
    """One changed row's (y_j, y_k): toward 'j' moves delta x_k from k to j (case 1), 'k' delta x_j from j to k."""
    if toward == "j":
        return xj + delta * xk, (1 - delta) * xk
    return (1 - delta) * xj, xk + delta * xj


@dataclass(frozen=True)
class Case:
    """Case 1 (2i <= j + k + split): rows r <= i move mass toward j; case 2: rows r >= i+1 toward k."""

    number: int
    toward: str
    rows: str  # which rows change: "r <= i" or "r >= i+1"
    label: str = ""  # the obligations' names: "case <number>" unless given

    @property
    def name(self) -> str:
        return self.label or f"case {self.number}"

    def region(self, i, j, k, split: int) -> z3.BoolRef:
        return 2 * i <= j + k + split if self.number == 1 else 2 * i > j + k + split

    def changed(self, r, i) -> list[z3.BoolRef]:
        return [r >= 0, r <= i] if self.rows == "r <= i" else [r >= i + 1]


CASE1, CASE2 = Case(1, "j", "r <= i"), Case(2, "k", "r >= i+1")
# the extracted text's 'For i >= i'' (see printed_steps)
CASE2_AS_PRINTED = Case(2, "k", "r <= i", "case 2 as printed (rows i' <= i)")


def boundary_entries() -> dict[str, z3.ArithRef]:
    return {f"x_{r}_{c}": z3.Real(f"x_{r}_{c}") for r in ("i", "i1") for c in ("j", "k")}


def boundary_premises(a, e: dict) -> list[z3.BoolRef]:
    """Rows i, i+1 (i1) of an alpha-DP x in columns j, k, with the violating pair's strict premises."""
    return [
        *(v >= 0 for v in e.values()),
        *dp(a, e["x_i_j"], e["x_i1_j"]),
        *dp(a, e["x_i_k"], e["x_i1_k"]),
        a * e["x_i_j"] < e["x_i1_j"],
        a * e["x_i1_k"] < e["x_i_k"],
    ]


def explicit_delta(case: Case, a, e: dict) -> z3.ArithRef:
    """The largest delta the strict premises allow at rows i, i+1 (both ratios are > 0 by the premises).

    Case 1 (row i changes): min((x_{i+1,j} - a x_{i,j}) / (a x_{i,k}), (x_{i,k} - a x_{i+1,k}) / x_{i,k}).
    Case 2 (row i+1 changes): min((x_{i+1,j} - a x_{i,j}) / x_{i+1,j}, (x_{i,k} - a x_{i+1,k}) / (a x_{i+1,j})).
    """
    room_j, room_k = e["x_i1_j"] - a * e["x_i_j"], e["x_i_k"] - a * e["x_i1_k"]
    if case.number == 1:
        p, q = room_j / (a * e["x_i_k"]), room_k / e["x_i_k"]
    else:
        p, q = room_j / e["x_i1_j"], room_k / (a * e["x_i1_j"])
    return z3.If(p <= q, p, q)


def boundary_rows(case: Case, delta, e: dict) -> tuple[tuple, tuple]:
    """y's rows i and i+1 in columns (j, k): which of them changes depends on the case's rows."""
    xi, xi1 = (e["x_i_j"], e["x_i_k"]), (e["x_i1_j"], e["x_i1_k"])
    if case.rows == "r <= i":
        return moved(*xi, delta, case.toward), xi1
    return xi, moved(*xi1, delta, case.toward)


def boundary_dp(a, yi, yi1) -> list[z3.BoolRef]:
    return [*dp(a, yi[0], yi1[0]), *dp(a, yi[1], yi1[1])]


# --- step 2: the obligations -------------------------------------------------------------------------


def inside_block(case: Case) -> Obligation:
    """Two adjacent changed rows r, r+1: y's entries are x's combined with weights 1, delta (1 - delta), so
    y >= 0, each row's sum is kept, and y's DP constraints are combinations of x's."""
    a, rng = symbolic_alpha()
    u, v = z3.Reals("x_r_j x_r_k"), z3.Reals("x_r1_j x_r1_k")
    d = z3.Real("delta")
    yu, yv = moved(*u, d, case.toward), moved(*v, d, case.toward)
    premises = (*rng, *(t >= 0 for t in (*u, *v)), *dp(a, u[0], v[0]), *dp(a, u[1], v[1]), d >= 0, d <= 1)
    conclusion = z3.And(
        *(t >= 0 for t in (*yu, *yv)),
        yu[0] + yu[1] == u[0] + u[1],
        yv[0] + yv[1] == v[0] + v[1],
        *boundary_dp(a, yu, yv),
    )
    return Obligation(f"{case.name}: privacy between two changed rows", premises, conclusion)


def boundary(case: Case, variant: Variant) -> Obligation:
    """Rows i, i+1 with the strict premises, delta = delta_scale * explicit_delta: 0 < delta <= 1, y >= 0, the
    row sums kept, and alpha-DP in columns j and k."""
    a, rng = symbolic_alpha()
    e = boundary_entries()
    d = z3.Real("delta")
    yi, yi1 = boundary_rows(case, d, e)
    premises = (*rng, *boundary_premises(a, e), d == z3.RealVal(variant.delta_scale) * explicit_delta(case, a, e))
    sums = (yi[0] + yi[1] == e["x_i_j"] + e["x_i_k"], yi1[0] + yi1[1] == e["x_i1_j"] + e["x_i1_k"])
    conclusion = z3.And(d > 0, d <= 1, *(t >= 0 for t in (*yi, *yi1)), *sums, *boundary_dp(a, yi, yi1))
    return Obligation(f"{case.name}: privacy at rows i, i+1 (explicit delta)", premises, conclusion)


def small_delta_exists(case: Case) -> Obligation:
    """The paper's 'we can choose a small enough delta': y's DP constraints at rows i, i+1 are affine in delta,
    g(delta) = g(0) + delta (g(1) - g(0)) >= 0, so some delta > 0 keeps all of them iff each has g(0) > 0, or
    g(0) = 0 and g(1) >= g(0)."""
    a, rng = symbolic_alpha()
    e = boundary_entries()
    d = z3.Real("delta")
    yi, yi1 = boundary_rows(case, d, e)
    gs = [c.arg(1) - c.arg(0) for c in boundary_dp(a, yi, yi1)]  # each constraint p <= q as q - p >= 0
    at = lambda g, t: z3.substitute(g, (d, z3.RealVal(t)))  # noqa: E731
    conclusion = z3.And(*(z3.Or(at(g, 0) > 0, z3.And(at(g, 0) == 0, at(g, 1) >= at(g, 0))) for g in gs))
    name = f"{case.name}: some delta > 0 keeps rows i, i+1 alpha-DP"
    return Obligation(name, (*rng, *boundary_premises(a, e)), conclusion)


def monotone(kind: str, r, j, k, lj, lk) -> list[z3.BoolRef]:
    """The loss class at row r, columns j < k: the paper's (nondecreasing in |r - c|), one-sided, or none."""
    if kind == PAPER:
        return [z3.Implies(dist(r, j) <= dist(r, k), lj <= lk), z3.Implies(dist(r, k) <= dist(r, j), lk <= lj)]
    if kind == SIDED:
        return [z3.Implies(r <= j, lj <= lk), z3.Implies(k <= r, lk <= lj)]
    return []


def positions(case: Case, variant: Variant, row: bool = True):
    """Symbolic integer positions: 0 <= j < k, the case's region of i, and (``row``) r one of the changed rows."""
    r, i, j, k = z3.Ints("r i j k")
    changed = case.changed(r, i) if row else []
    return (r, i, j, k), [0 <= j, j < k, 0 <= i, case.region(i, j, k, variant.split), *changed]


def row_loss(case: Case, variant: Variant) -> Obligation:
    """A changed row r: sum_c l(r, c) y_{r,c} <= sum_c l(r, c) x_{r,c} for every loss of the class (only
    columns j, k change).  With L = max over S of these, and the unchanged rows, L_y <= L_x for every S."""
    (r, _, j, k), pos = positions(case, variant)
    xj, xk, lj, lk, d = z3.Reals("x_r_j x_r_k l_r_j l_r_k delta")
    yj, yk = moved(xj, xk, d, case.toward)
    premises = (*pos, *monotone(variant.loss, r, j, k, lj, lk), xj >= 0, xk >= 0, d >= 0, d <= 1)
    return Obligation(
        f"{case.name}: each changed row's loss does not increase ({variant.loss} monotone loss)",
        premises,
        lj * yj + lk * yk <= lj * xj + lk * xk,
    )


def _lprime_change(r, j, k, xj, xk, d, toward):
    yj, yk = moved(xj, xk, d, toward)
    return z3.ToReal(dist(r, j)) * (yj - xj) + z3.ToReal(dist(r, k)) * (yk - xk)


def lprime_row(case: Case, variant: Variant) -> Obligation:
    """A changed row's L' (the loss |r - c|) does not increase."""
    (r, _, j, k), pos = positions(case, variant)
    xj, xk, d = z3.Reals("x_r_j x_r_k delta")
    premises = (*pos, xj >= 0, xk >= 0, d >= 0, d <= 1)
    return Obligation(
        f"{case.name}: each changed row's L' does not increase",
        premises,
        _lprime_change(r, j, k, xj, xk, d, case.toward) <= 0,
    )


def lprime_strict(case: Case, variant: Variant) -> Obligation:
    """One changed row's L' strictly decreases.  Case 1: row i if 2i < j + k; at the tie 2i = j + k row i is as
    far from j as from k, and the row is i - 1 (it exists: j < i), where x_{i-1,k} >= alpha x_{i,k} > 0 by DP
    (the printed proof does not say so).  Case 2: row i + 1, strictly closer to k, x_{i+1,j} > alpha x_{i,j} >= 0."""
    a, rng = symbolic_alpha()
    (_, i, j, k), pos = positions(case, variant, row=False)  # the row is named below
    d = z3.Real("delta")
    if case.number == 1:
        xij, xik, xi1k, xmj, xmk = z3.Reals("x_i_j x_i_k x_i1_k x_im1_j x_im1_k")
        tie = 2 * i == j + k
        w = z3.If(tie, i - 1, i)
        premises = [*rng, *pos, xij >= 0, xi1k >= 0, a * xi1k < xik, xmj >= 0, xmk >= 0, d > 0, d <= 1]
        if variant.tie_dp:
            premises.append(z3.Implies(i >= 1, z3.And(*dp(a, xmk, xik))))
        change = _lprime_change(w, j, k, z3.If(tie, xmj, xij), z3.If(tie, xmk, xik), d, case.toward)
    else:
        xij, xi1j, xi1k = z3.Reals("x_i_j x_i1_j x_i1_k")
        w = i + 1
        premises = [*rng, *pos, xij >= 0, xi1k >= 0, a * xij < xi1j, d > 0, d <= 1]
        change = _lprime_change(w, j, k, xi1j, xi1k, d, case.toward)
    return Obligation(
        f"{case.name}: one changed row's L' strictly decreases", tuple(premises), z3.And(w >= 0, change < 0)
    )


def over_rows() -> list[Obligation]:
    """L and L' over all rows, by induction on the rows: a maximum over S of rows none of which increased does not
    increase (M_y <= M_x; base: the first row of S); a sum of row changes <= 0 with one < 0 is < 0."""
    mx, my, a, b, s, t = z3.Reals("M_x M_y a b D t")
    return [
        Obligation("L over S: base (first row of S)", (b <= a,), b <= a),
        Obligation(
            "L over S: step (one more row of S)", (my <= mx, b <= a), z3.If(my >= b, my, b) <= z3.If(mx >= a, mx, a)
        ),
        Obligation("L': step, a row that does not increase", (s <= 0, t <= 0), s + t <= 0),
        Obligation("L': step, the row that decreases", (s <= 0, t < 0), s + t < 0),
        Obligation("L': step after a decrease", (s < 0, t <= 0), s + t < 0),
    ]


# --- step 3 ----------------------------------------------------------------------------------------


def tight_or_strict() -> Obligation:
    """For an alpha-DP pair of entries, 'not tight' is the strict inequality of a violating pair."""
    a, rng = symbolic_alpha()
    u, v = z3.Reals("x_i_c x_i1_c")
    return Obligation(
        "DP entries: tight or strict",
        (*rng, u >= 0, v >= 0, *dp(a, u, v)),
        z3.And(z3.Or(a * u == v, a * u < v), z3.Or(u == a * v, a * v < u)),
    )


def pattern_step(gap: int = 2) -> tuple[Obligation, tuple]:
    """Step 3 over m columns, m symbolic: A(c) means alpha x_{i,c} = x_{i+1,c}, B(c) x_{i,c} = alpha x_{i+1,c}.
    No violating pair: A(j) or B(k) for all j < k.  p: the first column without A (m if none; the least element
    of a finite set).  Then c1 = p - 1, c2 = c1 + gap: A on 0..c1 and B on c2..m-1."""
    A = z3.Function("A", z3.IntSort(), z3.BoolSort())
    B = z3.Function("B", z3.IntSort(), z3.BoolSort())
    m, p, c, j, k, u = z3.Ints("m p c j k u")
    premises = (
        m >= 1,
        0 <= p,
        p <= m,
        z3.ForAll([c], z3.Implies(z3.And(0 <= c, c < p), A(c))),
        z3.Implies(p < m, z3.Not(A(p))),
        z3.ForAll([j, k], z3.Implies(z3.And(0 <= j, j < k, k < m), z3.Or(A(j), B(k)))),
    )
    c1, c2 = p - 1, p - 1 + gap
    conclusion = z3.And(
        z3.ForAll([u], z3.Implies(z3.And(0 <= u, u <= c1), A(u))),
        z3.ForAll([u], z3.Implies(z3.And(c2 <= u, u < m), B(u))),
    )
    return Obligation(f"no violating pair => pattern with c2 = c1 + {gap}", premises, conclusion), (A, B, m)


def pattern_holds(a_col: Sequence[bool], b_col: Sequence[bool], gaps: Sequence[int]) -> int | None:
    """The c1 of the pattern (A on 0..c1, B from c1 + gap on) for some gap in ``gaps``, by enumeration; None."""
    m = len(a_col)
    for c1 in range(-1, m):
        for g in gaps:
            if all(a_col[: c1 + 1]) and all(b_col[c1 + g :]):
                return c1
    return None
