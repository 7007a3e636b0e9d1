"""The averaging argument: averaging over databases with the same count keeps alpha-DP and the loss, for every n.

The argument of grs2011 Proposition 6.1, grs2009 Proposition 6.2 (their checks: proofs/databases/worst_extension.py)
and gs2010 Lemma 6 (proofs/minimax/consumers.py), with the objective's loss step a parameter.

- All n (:func:`averaging_all_n`, the papers' argument computed in the run with udpm.induction.databases): the
  neighbours of a generic count-i database, counted row by row, number a = (n-i)k one count up and b = (i+1)m one
  count down (k values satisfy the predicate, m violate it), so a|S_i| = b|S_(i+1)| = |E|; the multipliers 1/|E|
  on the edge DP inequalities give exactly the averaged inequality (Farkas); the objective's loss step ((9) for
  the propositions, gs2010's (5) for Lemma 6) is mean <= max.  Each step is one ALL_N instance.
- Bounded: those formulas against enumeration per space (:func:`degrees_cross_check`); per (space, alpha) Farkas
  multipliers on the explicit constraint system (:func:`decide_farkas`).  Sampled: a drawn mechanism averaged
  exactly (:func:`decide_averaged`).
- grs2009's proof miscounts the rows to change (:func:`row_count_erratum`: an erratum of its text; the regularity
  it needs stands).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

import sympy as sp

from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings
from udpm.core import linalg
from udpm.core.privacy import database_dp_violations, dp_violations
from udpm.induction.databases import (
    I_,
    K_,
    M_,
    N_,
    PRINTED_DEGREES,
    SYMBOLIC,
    LossStep,
    Relation,
    class_size,
    degrees_step,
    edge_count_step,
    edge_sum_obligations,
    enumerated,
    farkas_step,
    hamming,
    multiplier_obligations,
    residual_sign,
    trivial_predicate_obligation,
)
from udpm.induction.obligations import Obligation, discharge
from udpm.lp.database import Database, DatabaseSpace, average_by_count

F = Fraction
# (|D|, n, predicate): n = 1 (the papers' smallest database size) to 3; the full run adds n = 4 and |D| = 4.
SPACES = ((2, 1, (1,)), (3, 1, (1, 2)), (2, 2, (1,)), (3, 2, (1,)), (3, 2, (1, 2)), (2, 3, (1,)))
FULL_SPACES = (*SPACES, (3, 1, (1,)), (2, 4, (1,)), (3, 3, (1,)), (4, 2, (1, 3)))


def digest(text: str) -> str:
    """A short, stable identifier of a drawn object's exact text."""
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def space_label(space: DatabaseSpace) -> str:
    return f"|D|={space.domain}, P={sorted(space.predicate)}"


def mechanism_text(x: Mapping[Database, Sequence[Fraction]]) -> str:
    return "; ".join(f"{''.join(map(str, d))}: {[str(v) for v in x[d]]}" for d in sorted(x))


# ---------------------------------------------------------------- averaging keeps alpha-DP: Farkas multipliers


def decide_farkas(
    rec: Findings, space: DatabaseSpace, n: int, a: Fraction, ac: Fraction, loss_step: str, variant: dict
) -> tuple[bool, str]:
    """One bounded instance per (D^n, alpha): averaging keeps alpha-DP for every mechanism (Farkas), and the
    objective's step ``loss_step`` holds for every user; (holds, the multipliers or the failure)."""
    ok, text = averaging_farkas(space, a, ac)
    rec.decide(
        ok,
        text,
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="Farkas multipliers, exact",
        covers=f"every alpha-DP mechanism on D^n and {loss_step}",
        space=space_label(space),
        **variant,
    )
    return ok, text


def decide_averaged(
    rec: Findings,
    space: DatabaseSpace,
    cell: tuple[int, Fraction, Fraction, dict],
    who: str,
    drawn: list[tuple[str, list[list[Fraction]]]],
    seen: set[str],
    objective: tuple[str, Callable, Callable],
    where: str,
) -> None:
    """One sampled instance per drawn database mechanism x: its average by count is ac-DP and the
    objective (name, value of x, value of the oblivious average) does not go up."""
    n, a, ac, variant = cell
    name, before_of, after_of = objective
    for what, x in drawn:
        key = digest(f"{who} / {mechanism_text(x)}")
        if key in seen:
            continue  # a repeated draw decides nothing new
        seen.add(key)
        with rec.deciding(
            n=n,
            alpha=a,
            kind=SAMPLED,
            method="averaging, exact",
            covers=what,
            space=space_label(space),
            sample=key,
            **variant,
        ) as d:
            xa = average_by_count(space, x)
            bad = dp_violations(xa, ac)
            before, after = before_of(x), after_of(xa)
            if bad:
                d.counterexample(f"{where}: the average {linalg.fmt_matrix(xa)} is not {ac}-DP: {bad[0]}")
            elif after > before:
                d.counterexample(f"{where}: averaging {mechanism_text(x)} raised {name} from {before} to {after}")


def averaging_farkas(space: DatabaseSpace, alpha: Fraction, alpha_claimed: Fraction) -> tuple[bool | None, str]:
    """Does averaging over equal counts turn EVERY alpha-DP mechanism on ``space`` into an alpha_claimed-DP one?

    alpha-DP constrains each output column c separately: c >= 0 and c_d >= alpha c_d' for neighbours d, d'.
    For counts i, i+1 and each direction the averaged inequality mean_{S_i} c - alpha_claimed mean_{S_{i+1}} c
    >= 0 (and its mirror) is written as sum_e c_e/E (c_d - alpha c_d') over the E neighbour pairs e = (d, d')
    between S_i and S_{i+1} (the paper's equal-degree argument) plus a residual sum_d mu_d c_d; the residual's
    coefficients mu_d are computed exactly and must all be >= 0 (Farkas multipliers: the inequality then holds
    on the whole cone).  Otherwise the oblivious columns alpha^i and alpha^(n-i), completed to a mechanism, are
    tried as a concrete counterexample.  Returns (True, certificate), (False, witness) or (None, why)."""
    n = space.n
    edges_per_step = []
    for i in range(n):
        lo, hi = set(space.with_count(i)), set(space.with_count(i + 1))
        edges = [(d1, d2) if d1 in lo else (d2, d1) for d1, d2 in space.neighbours if {d1, d2} & lo and {d1, d2} & hi]
        edges_per_step.append(len(edges))
        for src, dst, pairs in ((lo, hi, edges), (hi, lo, [(e, d) for d, e in edges])):
            residual = {d: F(1, len(src)) for d in src} | {d: -alpha_claimed / len(dst) for d in dst}
            for d, e in pairs:  # weight 1/E on c_d - alpha c_e >= 0
                residual[d] -= F(1, len(pairs))
                residual[e] += alpha / len(pairs)
            if any(v < 0 for v in residual.values()):
                return _averaging_counterexample(space, alpha, alpha_claimed, i)
    return True, f"multipliers 1/E on the E neighbour pairs between counts i, i+1: E = {edges_per_step}; residual >= 0"


def _averaging_counterexample(space: DatabaseSpace, alpha: Fraction, alpha_claimed: Fraction, i: int):
    t = (1 - alpha) / 2  # 1 - t c keeps every neighbour ratio >= 1 - t >= alpha
    for column in (lambda d: alpha ** space.count(d), lambda d: alpha ** (space.n - space.count(d))):
        x = {d: [t * column(d), 1 - t * column(d)] + [F(0)] * (space.n - 1) for d in space.databases}
        if database_dp_violations(x, space.neighbours, alpha):
            continue
        bad = dp_violations(average_by_count(space, x), alpha_claimed)
        if bad:
            return False, (
                f"{space_label(space)}, n={space.n}: the {alpha}-DP mechanism {mechanism_text(x)} averages to "
                f"{linalg.fmt_matrix(average_by_count(space, x))}, not {alpha_claimed}-DP: {bad[0]}"
            )
    return None, f"counts {i}, {i + 1}: the equal-degree multipliers leave a negative residual, no counterexample found"


# ---------------------------------------------------------------- the all-n instances


def _all_n(rec: Findings, holds: bool | None, text: str, method: str, covers: str, part: str, variant: dict) -> bool:
    rec.decide(holds, text, n=None, alpha=SYMBOLIC, kind=ALL_N, method=method, covers=covers, part=part, **variant)
    return bool(holds)


def _proof_text(obligations: Sequence[Obligation], timeout_s: float) -> tuple[bool, str]:
    proof = discharge(obligations, timeout_s)
    return proof.holds, proof.counterexample or f"{len(obligations)} obligations unsat: " + "; ".join(proof.obligations)


SMT = "SMT unsat (z3 and cvc5), premises shown satisfiable"


def _sign_counterexample(claimed: Callable, text: str) -> str:
    """z3 found alpha in [0, 1] with alpha - alpha_c < 0; reported at the first canonical alpha in (0, 1) where it
    fails (so the record does not depend on z3's model), as a concrete alpha-DP mechanism on D = {0,1}, n = 1
    whose average is not alpha_c-DP, re-checked exactly."""
    for a in (F(1, 2), F(1, 4), F(3, 4), F(1, 10), F(9, 10), F(1, 100), F(99, 100)):
        ac = F(claimed(a))
        if a < ac < 1:
            ok, witness = averaging_farkas(DatabaseSpace.of(2, 1), a, ac)
            if ok is False:
                return f"remainder alpha - alpha_c < 0 at alpha = {a} (alpha_c = {ac}); concretely: {witness}"
    return text


def averaging_all_n(
    rec: Findings,
    ctx: Context,
    loss_step: LossStep,
    *,
    relation: Relation = hamming,
    degrees: tuple[sp.Expr, sp.Expr] = PRINTED_DEGREES,
    claimed: Callable = lambda a: a,
    edge_dp: bool = True,
    trivial_predicates: bool = False,
    extra_premise: Mapping[str, tuple] | None = None,
    variant: dict | None = None,
) -> bool:
    """Averaging over equal counts, for every n, i, k, m (non-trivial predicate) and alpha in [0, 1]: one ALL_N
    instance per step of the papers' argument (grs2011 Prop 6.1, grs2009 Prop 6.2, gs2010 Lemma 6).

    1. degrees: the neighbours of a generic count-i database counted row by row (``relation``) depend on i alone
       and equal ``degrees`` (the multipliers' a, b; the printed ones by default);
    2. edges: a |S_i| = b |S_(i+1)| = |E| (sizes binomial(n, i) k^i m^(n-i));
    3. S_i, S_(i+1) non-empty and 1/|E| > 0, from the hypotheses (SMT);
    4. the DP inequalities summed over E keep alpha S_left <= S_right (induction, SMT);
    5. Farkas: the averaged inequality minus (1/|E|) x that sum leaves (alpha - alpha_c) x a class mean, and
       alpha - ``claimed(alpha)`` >= 0 on [0, 1] (SMT; a failure gives a concrete mechanism);
    6. ``loss_step``: the objective does not go up (mean <= max, the aggregate keeps <=; SMT).

    ``trivial_predicates`` adds step 3': a predicate true on no value or on every value (|D| = 1 included) has
    one non-empty class, so no neighbours across counts (for gs2010, whose count queries allow it; grs2011 and
    grs2009 require a non-trivial predicate).
    ``relation``, ``degrees``, ``claimed``, ``edge_dp`` and the loss step's own (udpm.induction.databases) are the
    injectable false variants; ``extra_premise`` {"3".."6": premises} adds premises to that step's obligations
    (a contradictory one raises VacuousPremise).  Returns whether every step holds."""
    variant = variant or {}
    extra = extra_premise or {}

    def proof(step: str, obligations: Sequence[Obligation]) -> tuple[bool, str]:
        more = tuple(extra.get(step, ()))
        return _proof_text([Obligation(o.name, (*o.premises, *more), o.conclusion) for o in obligations], timeout)

    timeout = ctx.solver_timeout
    covers = "every n >= 1, every step i -> i+1, every |D| and non-trivial predicate (k, m >= 1)"
    ok, text, degs = degrees_step(relation, degrees)
    done = _all_n(
        rec, ok, text, "symbolic neighbour count (sympy), enumeration on a failure", covers, "1 degrees", variant
    )
    if degs is None:
        return False
    up, down = degs
    ok, text = edge_count_step(up, down)
    done &= _all_n(rec, ok, text, "double counting, sympy", covers, "2 edges", variant)
    ok, text = proof("3", multiplier_obligations())
    done &= _all_n(rec, ok, text, SMT, covers + ": the hypotheses give non-empty classes", "3 multipliers", variant)
    if trivial_predicates:
        ok, text = proof("3'", (trivial_predicate_obligation(),))
        done &= _all_n(
            rec, ok, text, SMT, "every n >= 1, every step i -> i+1, k = 0 or m = 0", "3' trivial predicate", variant
        )
    ok, text = proof("4", edge_sum_obligations(edge_dp))
    done &= _all_n(
        rec,
        ok,
        text,
        "induction over the edges, " + SMT,
        "every alpha-DP mechanism, every output",
        "4 edge sum",
        variant,
    )
    ok, text, _ = farkas_step(up, down)
    if ok:
        ok, text = proof("5", (residual_sign(claimed),))
        text = text if not ok else "multipliers 1/|E|; remainder (alpha - alpha_c) x class mean, alpha - alpha_c >= 0"
        text = text if ok else _sign_counterexample(claimed, text)
    done &= _all_n(
        rec,
        ok,
        text,
        "Farkas multipliers (sympy) and the remainder's sign (SMT)",
        "every alpha-DP mechanism on D^n: its average is alpha_c-DP",
        "5 Farkas",
        variant,
    )
    obligations = [ob for _, obs in loss_step.obligations for ob in obs]
    ok, text = proof("6", obligations)
    done &= _all_n(rec, ok, text, "induction, " + SMT, loss_step.covers, f"6 loss step {loss_step.objective}", variant)
    return bool(done)


def row_count_erratum(rec: Findings, entry: str = "Proposition 6.2, proof") -> None:
    """grs2009 Prop 6.2's proof (and gs2010 Lemma 6's, the same text): 'when f(d1) = f(d2) + 1, pick one of the
    n - f(d1) rows that satisfy the predicate in d1': a count-c database has c rows that satisfy it (n - c violate
    it), so the degree is c (|D| - t)."""
    printed_rows, rows = N_ - I_, I_  # rows satisfying the predicate in a count-i database: printed, by definition
    if sp.simplify(printed_rows - rows) == 0:
        return
    space, _, _, high, down = enumerated({N_: 1, I_: 0, K_: 1, M_: 1})
    rec.erratum(
        f"{entry}: the neighbours of d1 in E(d2) when f(d1) = f(d2) + 1",
        "pick one of the n - f(d_1) rows that satisfy the predicate in d_1",
        f"f(d_1) rows satisfy it (n - f(d_1) violate it), so d_1 has f(d_1) (|D| - t) such neighbours; e.g. n=1, "
        f"{space_label(space)}: d_1 = {''.join(map(str, high))} (count 1) has {down} neighbour of count 0, the "
        f"printed count of rows gives {printed_rows.subs({N_: 1, I_: 1})}",
        "typo",
        "n - f(d1) is the number of rows to change for the opposite step f(d1) = f(d2) - 1; either count depends on "
        "f(d1) alone, so the regularity the proof needs (and the proposition) stands",
    )


def degrees_cross_check(rec: Findings, space: DatabaseSpace, up: sp.Expr, down: sp.Expr) -> None:
    """Bounded: on the explicit space, every database's numbers of neighbours one count up and one count down, and
    every class size, equal the all-n formulas."""
    k, m = len(space.predicate), space.domain - len(space.predicate)
    nb: dict[Database, list[Database]] = {d: [] for d in space.databases}
    for d1, d2 in space.neighbours:
        nb[d1].append(d2)
        nb[d2].append(d1)
    with rec.deciding(
        n=space.n,
        alpha=SYMBOLIC,
        kind=BOUNDED,
        method="enumeration vs the all-n formulas",
        covers="every database of D^n",
        space=space_label(space),
    ) as dec:
        for d in space.databases:
            i = space.count(d)
            case = {N_: space.n, I_: i, K_: k, M_: m}
            got_up = sum(space.count(e) == i + 1 for e in nb[d])
            got_down = sum(space.count(e) == i - 1 for e in nb[d])
            want_up, want_down = up.subs(case), down.subs({**case, I_: i - 1})
            size = len(space.with_count(i))
            if (got_up, got_down, size) != (want_up, want_down, class_size(I_).subs(case)):
                dec.counterexample(
                    f"{space_label(space)}, n={space.n}: database {''.join(map(str, d))} (count {i}) has {got_up} "
                    f"neighbours up, {got_down} down, class size {size}; formulas {want_up}, {want_down}, "
                    f"{class_size(I_).subs(case)}"
                )
                return
