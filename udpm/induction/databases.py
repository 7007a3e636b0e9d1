"""Database spaces D^n counted symbolically: the papers' averaging argument for every n (grs2011 Prop 6.1,
grs2009 Prop 6.2, gs2010 Lemma 6), as sympy identities and SMT obligations (udpm.induction.obligations).

A generic database of count i has i rows holding one of the k values that satisfy the predicate (class P) and
n - i rows holding one of the m = |D| - k values that violate it (class N).  The symbols below are that
database's parameters; every statement is for all integers n >= 1, 0 <= i < n, k, m >= 1 (non-trivial
predicate) and every alpha in [0, 1] (the DP inequalities in the multiplied form alpha x_d' <= x_d, which is the
papers' ratio definition with 0/0 = 1, alpha = 0 included).  proofs.databases.averaging records the instances.

>>> up, down, counts = derived_degrees(hamming)
>>> up.equals((N_ - I_) * K_), down.equals((I_ + 1) * M_), counts["all"]
(True, True, n*(k + m - 1))
>>> edge_count_step(up, down)[0]
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
import z3

from udpm.induction.obligations import Obligation
from udpm.lp.database import Database, DatabaseSpace

N_, I_, K_, M_ = sp.symbols("n i k m", integer=True)
V_ = sp.Symbol("v", integer=True, nonnegative=True)  # the index of a row's value within its class
A_, AC_ = sp.symbols("alpha alpha_c")
SYMBOLIC = "symbolic alpha in [0,1]"
SIZE = {"P": K_, "N": M_}
# grs2011 Prop 6.1's proof: left degree a = (n - i) t, right degree b = (i + 1)(|D| - t), t = k values satisfy.
PRINTED_DEGREES = ((N_ - I_) * K_, (I_ + 1) * (K_ + M_ - K_))

Relation = Callable[[str, str, sp.Expr], sp.Expr]


def hamming(frm: str, to: str, v: sp.Expr) -> sp.Expr:
    """The papers' neighbours (databases that differ in exactly one row): a row holding a value of class ``frm``
    may take any OTHER value of D, so the |to| values of class ``to``, less its own value when the classes agree."""
    return SIZE[to] - (1 if frm == to else 0)


def class_size(i: sp.Expr) -> sp.Expr:
    """|S_i|: which i of the n rows satisfy the predicate, then a value of the right class for each row."""
    return sp.binomial(N_, i) * K_**i * M_ ** (N_ - i)


def derived_degrees(relation: Relation) -> tuple[sp.Expr, sp.Expr, dict[str, sp.Expr]]:
    """The neighbours of a generic count-i database, counted row by row: count i+1 needs one of its n - i N-rows
    to take a P value, count i-1 one of its i P-rows to take an N value, count i a row to stay in its class.
    Returns (up degree from S_i, down degree from S_{i+1}, all counts); a count still depending on v (which value
    a row holds) is not a function of the database's count: the relation is not regular."""
    r = sp.Symbol("r", integer=True, positive=True)
    per_row = {(f, t): relation(f, t, V_) for f in SIZE for t in SIZE}
    up = sp.Sum(per_row["N", "P"], (r, 1, N_ - I_)).doit()
    down = sp.Sum(per_row["P", "N"], (r, 1, I_)).doit()
    same = sp.Sum(per_row["P", "P"], (r, 1, I_)).doit() + sp.Sum(per_row["N", "N"], (r, 1, N_ - I_)).doit()
    counts = {"up": sp.factor(up), "down": sp.factor(down), "same": sp.expand(same), "all": sp.factor(up + down + same)}
    return counts["up"], counts["down"].subs(I_, I_ + 1), counts


def _small_cases():
    for n in range(1, 4):
        for k in range(1, 3):
            for m in range(1, 3):
                for i in range(n):
                    yield {N_: n, I_: i, K_: k, M_: m}


def enumerated(case: dict) -> tuple[DatabaseSpace, Database, int, Database, int]:
    """On the concrete space of ``case`` (P = the last k values): a count-i database and its number of count-(i+1)
    neighbours, a count-(i+1) database and its number of count-i neighbours, by enumeration."""
    n, i, k, m = (int(case[s]) for s in (N_, I_, K_, M_))
    space = DatabaseSpace.of(k + m, n, tuple(range(m, k + m)))
    low, high = space.with_count(i)[0], space.with_count(i + 1)[0]

    def degree(d: Database, target: int) -> int:
        return sum(1 for e in space.databases if _differ_in_one_row(d, e) and space.count(e) == target)

    return space, low, degree(low, i + 1), high, degree(high, i)


def _differ_in_one_row(d: Database, e: Database) -> bool:
    return sum(u != v for u, v in zip(d, e)) == 1


def degrees_step(relation: Relation, degrees: tuple[sp.Expr, sp.Expr]) -> tuple[bool, str, tuple | None]:
    """The derived degrees are functions of the count alone (biregular) and equal ``degrees``, the multipliers'
    (the printed a, b).  Returns (holds, text, (up, down)) with a concrete enumerated witness when it fails."""
    up, down, counts = derived_degrees(relation)
    if V_ in up.free_symbols or V_ in down.free_symbols:
        per_row = relation("N", "P", V_) if V_ in up.free_symbols else relation("P", "N", V_)
        for case in _small_cases():
            size = int(case[M_] if V_ in up.free_symbols else case[K_])
            vals = [per_row.subs(case).subs(V_, v) for v in range(size)]
            if len(set(vals)) > 1:
                where = ", ".join(f"{s}={case[s]}" for s in (N_, I_, K_, M_))
                return (
                    False,
                    (
                        f"not regular at {where}: a row holding value {vals.index(vals[0])} of its class has {vals[0]} "
                        f"neighbouring values across the predicate, one holding value {vals.index(vals[-1])} has "
                        f"{vals[-1]}: two databases of count {case[I_]} differing in that row have different "
                        f"numbers of "
                        f"neighbours of the next count"
                    ),
                    None,
                )
        return False, f"the per-row count {per_row} depends on the row's value", None
    for claimed, derived, side in ((degrees[0], up, "left (S_i -> S_{i+1})"), (degrees[1], down, "right")):
        if sp.simplify(claimed - derived) != 0:
            for case in _small_cases():
                if claimed.subs(case) != derived.subs(case):
                    space, low, lo_deg, high, hi_deg = enumerated(case)
                    d, got = (low, lo_deg) if side.startswith("left") else (high, hi_deg)
                    return (
                        False,
                        (
                            f"{side} degree {claimed} is wrong: n={case[N_]}, |D|={space.domain}, "
                            f"P={sorted(space.predicate)}, database "
                            f"{''.join(map(str, d))} has {got} neighbours of count "
                            f"{case[I_] + 1 if side.startswith('left') else case[I_]} (enumerated), the formula gives "
                            f"{claimed.subs(case)}"
                        ),
                        None,
                    )
    text = (
        f"a count-i database has {counts['up']} neighbours of count i+1, {counts['down']} of count i-1, "
        f"{counts['same']} of count i ({counts['all']} in all); a count-(i+1) one {down} of count i: the printed "
        f"a = {degrees[0]}, b = {degrees[1]}"
    )
    return True, text, (up, down)


def edge_count_step(up: sp.Expr, down: sp.Expr) -> tuple[bool, str]:
    """Double counting the edges E between S_i and S_{i+1}: up(i) |S_i| = down(i+1) |S_{i+1}| (= |E|)."""
    left, right = up * class_size(I_), down * class_size(I_ + 1)
    if sp.simplify(sp.combsimp(left / right)) == 1:
        return True, f"|S_i| = {class_size(I_)}; |E| = a |S_i| = b |S_(i+1)| = {sp.factor(sp.combsimp(left))}"
    for case in _small_cases():
        if left.subs(case) != right.subs(case):
            return False, f"at {case}: a |S_i| = {left.subs(case)} but b |S_(i+1)| = {right.subs(case)}"
    return False, f"a |S_i| = {left} and b |S_(i+1)| = {right} differ"


def _ints(names: str) -> list[z3.ArithRef]:
    return list(z3.Ints(names))


def hypotheses(non_trivial: bool = True, extra: tuple = ()) -> tuple[z3.BoolRef, ...]:
    """The printed hypotheses on the counting: n >= 1 rows, a step i -> i+1 inside 0..n, and a non-trivial
    predicate (both papers, Section 2.1: k >= 1 values satisfy it, m >= 1 violate it)."""
    n, i, k, m = _ints("n i k m")
    return (n >= 1, i >= 0, i <= n - 1, k >= 0, m >= 0, *((k >= 1, m >= 1) if non_trivial else ()), *extra)


def _member(c: z3.ArithRef) -> z3.BoolRef:
    """S_c has a member: the database with c rows holding a P value and n - c an N value exists."""
    n, k, m = _ints("n k m")
    return z3.And(z3.Implies(c >= 1, k >= 1), z3.Implies(n - c >= 1, m >= 1))


def multiplier_obligations(non_trivial: bool = True, extra: tuple = ()) -> tuple[Obligation, Obligation]:
    """S_i and S_{i+1} are non-empty (the database with i, resp. i+1, rows holding a P value and the others an N
    value exists), and the multiplier 1/|E| is positive: |E| = a |S_i| >= 1."""
    n, i, k, _m, s = _ints("n i k m s_i")
    hyp = hypotheses(non_trivial, extra)
    return (
        Obligation("S_i and S_(i+1) have a member", hyp, z3.And(_member(i), _member(i + 1))),
        Obligation("multiplier 1/|E| > 0", (*hyp, s >= 1), (n - i) * k * s >= 1),
    )


def trivial_predicate_obligation(trivial: bool = True) -> Obligation:
    """For a predicate that every value (m = 0) or no value (k = 0) satisfies: no step i -> i+1 joins two
    non-empty classes, so there is no neighbour pair across counts and the average is trivially DP (for papers
    whose count queries allow such predicates: gs2010 Section 2 does not require a non-trivial one).
    ``trivial=False`` drops k = 0 or m = 0: a false variant."""
    _n, i, k, m = _ints("n i k m")
    hyp = (*hypotheses(False), *((z3.Or(k == 0, m == 0),) if trivial else ()), k + m >= 1)
    return Obligation("trivial predicate: S_i or S_(i+1) is empty", hyp, z3.Not(z3.And(_member(i), _member(i + 1))))


def edge_sum_obligations(dp: bool = True) -> tuple[Obligation, Obligation]:
    """Summing alpha x_d <= x_d' over the edges (d in S_i, d' in S_(i+1)): invariant alpha S_left <= S_right.
    ``dp=False`` drops the edge's DP inequality: a false variant."""
    a, sl, sr, x, y = z3.Reals("alpha S_left S_right x_d x_dprime")
    rng = (a >= 0, a <= 1)
    base = Obligation("edge sum: base (no edges)", rng, a * 0 <= 0)
    step = Obligation(
        "edge sum: step (one more edge)",
        (*rng, a * sl <= sr, x >= 0, y >= 0, *((a * x <= y,) if dp else ())),
        a * (sl + x) <= sr + y,
    )
    return base, step


def farkas_step(up: sp.Expr, down: sp.Expr) -> tuple[bool | None, str, list[tuple[str, sp.Expr]]]:
    """The averaged inequality minus (1/|E|) times the summed edge inequalities, as a linear form in the column
    sums L (over S_i) and R (over S_(i+1)), both directions; the sums over the edges are a L and b R (regularity).
    Returns whether every coefficient is 0 except alpha - alpha_c times a positive size, and those remainders."""
    L, R = sp.symbols("L R", nonnegative=True)
    vs, ws = class_size(I_), class_size(I_ + 1)
    lam = 1 / (up * vs)  # the Farkas multiplier of every edge inequality
    upward = (R / ws - AC_ * L / vs) - lam * (down * R - A_ * up * L)  # mean_{i+1} >= alpha_c mean_i
    downward = (L / vs - AC_ * R / ws) - lam * (up * L - A_ * down * R)  # mean_i >= alpha_c mean_{i+1}
    rests, bad = [], []
    for name, form, own, other, size in (("up", upward, R, L, vs), ("down", downward, L, R, ws)):
        c_own = sp.simplify(sp.combsimp(form.diff(own)))
        c_other = sp.simplify(sp.combsimp(form.diff(other) * size))
        if c_own != 0:
            bad.append(f"{name}: coefficient of the far class's sum {c_own} != 0")
        if sp.simplify(c_other - (A_ - AC_)) != 0:
            bad.append(f"{name}: coefficient of the near class's sum {c_other} / |S| != (alpha - alpha_c) / |S|")
        rests.append((name, c_other))
    if bad:
        return False, "; ".join(bad), rests
    return True, "multipliers 1/|E| on every edge inequality; remainder (alpha - alpha_c) x the class mean", rests


def residual_sign(claimed: Callable) -> Obligation:
    """The remainder alpha - alpha_c (times 1/|S| > 0) is >= 0 for every alpha in [0, 1]."""
    a = z3.Real("alpha")
    return Obligation("remainder alpha - alpha_c >= 0", (a >= 0, a <= 1), a - claimed(a) >= 0)


# ---------------------------------------------------------------- the objective's loss step, a parameter


@dataclass(frozen=True)
class LossStep:
    """The objective's side of the averaging argument: the averaged (oblivious) mechanism's value is an aggregate
    of the class means of the per-database losses L_d = sum_j x_dj l(f(d), j), the original's the same aggregate
    of (at least) the class maxima; ``obligations`` prove mean <= max and that the aggregate keeps <=."""

    objective: str
    covers: str
    obligations: tuple[tuple[str, tuple[Obligation, ...]], ...]


def mean_at_most_max(per_class: str = "max") -> tuple[Obligation, ...]:
    """mean_{d in S} L_d <= max_{d in S} L_d: invariant S <= c U over the databases summed (L_d <= U each).
    ``per_class="min"`` (L_d >= U) is a false variant."""
    s, c, u, ld = z3.Reals("S c U L_d")
    bound = ld <= u if per_class == "max" else ld >= u
    return (
        Obligation("class mean: base (no databases)", (), 0 <= 0 * u),
        Obligation("class mean: step (one more database)", (c >= 0, s <= c * u, bound), s + ld <= (c + 1) * u),
        Obligation("class mean: mean <= max", (c >= 1, s <= c * u), s / c <= u),
    )


def linear_average() -> tuple[Obligation, Obligation]:
    """sum_j x'_j l_j = mean_d sum_j x_dj l_j: averaging commutes with the loss (invariant over the outputs j,
    x'_j = (x_1j + x_2j) / 2 written for two databases; the c-database case is the same sum regrouped)."""
    t, u1, u2, x1, x2, lj = z3.Reals("T U_1 U_2 x_1j x_2j l_j")
    return (
        Obligation("average commutes with the loss: base", (), z3.RealVal(0) == (0 + 0) / 2),
        Obligation(
            "average commutes with the loss: step (one more output)",
            (t == (u1 + u2) / 2,),
            t + (x1 + x2) / 2 * lj == ((u1 + x1 * lj) + (u2 + x2 * lj)) / 2,
        ),
    )


def worst_extension_step(weights_nonnegative: bool = True, per_class: str = "max") -> LossStep:
    """(9) (grs2011 (9), grs2009 (9)): X' oblivious, so every extension {p_d} -> {p_i} gives sum_i p_i L'_i
    (invariant T = L' P over the databases of a class); the extension putting p_i on the worst database of S_i
    gives X at least sum_i p_i max_{S_i} L_d; and sum_i p_i mean_i <= sum_i p_i max_i (invariant A <= B, p_i >= 0).
    ``weights_nonnegative=False`` drops p_i >= 0: a false variant."""
    t, pp, lo, pd = z3.Reals("T P L_obl p_d")
    a, b, p, mu, mx = z3.Reals("A B p_i mean_i max_i")
    sign = (p >= 0,) if weights_nonnegative else ()
    return LossStep(
        "(9)",
        "every prior over results and every loss: (9) of the average = sum_i p_i mean_i <= sum_i p_i max_i <= (9)",
        (
            ("averaging commutes with the loss", linear_average()),
            ("mean <= max in each class", mean_at_most_max(per_class)),
            (
                "oblivious: every extension gives the same (9)",
                (
                    Obligation("extension: base", (), z3.RealVal(0) == lo * 0),
                    Obligation("extension: step (one more database)", (t == lo * pp,), t + pd * lo == lo * (pp + pd)),
                ),
            ),
            (
                "weighted sum keeps <=",
                (
                    Obligation("weighted sum: base", (), z3.RealVal(0) <= 0),
                    Obligation(
                        "weighted sum: step (one more count)", (a <= b, *sign, mu <= mx), a + p * mu <= b + p * mx
                    ),
                ),
            ),
        ),
    )


def minimax_step(per_class: str = "max") -> LossStep:
    """gs2010 (5): max over the databases d with f(d) in S of L_d.  X' gives max_{i in S} mean_{S_i} L (every
    S_i non-empty), X gives max_{i in S} max_{S_i} L_d, and a running maximum keeps <= (invariant A <= B)."""
    a, b, mu, mx = z3.Reals("A B mean_i max_i")
    return LossStep(
        "(5)",
        "every side information S and every loss: (5) of the average = max_{i in S} mean_i <= max_{i in S} max_i = (5)",
        (
            ("averaging commutes with the loss", linear_average()),
            ("mean <= max in each class", mean_at_most_max(per_class)),
            (
                "maximum over S keeps <=",
                (
                    Obligation("maximum: base (first count of S)", (mu <= mx,), mu <= mx),
                    Obligation(
                        "maximum: step (one more count of S)",
                        (a <= b, mu <= mx),
                        z3.If(a >= mu, a, mu) <= z3.If(b >= mx, b, mx),
                    ),
                ),
            ),
        ),
    )


WORST_EXTENSION, MINIMAX = worst_extension_step(), minimax_step()


def outside_the_hypotheses() -> str:
    """Step 3's conclusion without a non-trivial predicate, at the canonical points k = 0 and m = 0 (n = 1, i = 0;
    |D| = 1 is one of them), evaluated exactly: the record of what the printed hypothesis excludes."""
    n, i, k, m = _ints("n i k m")
    member = multiplier_obligations(False)[0].conclusion
    failing = []
    for kv, mv in ((0, 1), (1, 0)):
        point = ((n, z3.IntVal(1)), (i, z3.IntVal(0)), (k, z3.IntVal(kv)), (m, z3.IntVal(mv)))
        at = z3.simplify(z3.substitute(member, *point))
        if z3.is_false(at):
            failing.append(f"k={kv}, m={mv}")
    return (
        f"without a non-trivial predicate step 3 fails (n=1, i=0 at {' and '.join(failing)}): every database has "
        "the same count, the other classes are empty, E is empty and 1/|E| undefined; averaging is then over one "
        "class (trivially DP), but (9) for a prior with p_i > 0 on an empty class has no consistent prior over "
        "databases: outside both papers' count queries (Section 2.1: a non-trivial predicate)"
        if failing
        else "step 3 holds even without a non-trivial predicate"
    )
