"""zlcn2013 Theorem 4 (claim zlcn2013.thm4): the worst ratio, over every consumer, of the best mechanism derivable
from the range-restricted geometric mechanism to the optimal one, exactly per (n, theta, alpha)
(proofs/countrange/worst_ratio.py), compared with the printed factor 2, with its closed forms in zlcn's alpha A
(proofs/countrange/closed_forms.py), and at n = 0 (:func:`at_one_count`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.closed_forms import closed_forms
from proofs.countrange.legal_lp import ALPHAS_Z, F, fmt, theta_pairs, theta_text
from proofs.countrange.worst_ratio import worst_ratio
from proofs.geometric.range_restricted import zlcn2013_formula6
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.lp.certificates import certificate_of


def at_one_count(
    rec: Findings, alphas: tuple[Fraction, ...], factor: Fraction | int, formula: Callable = zlcn2013_formula6
) -> None:
    """Theorem 4 at n = 0 (the database has no row; the one count is 0): the mechanism is (6) at n = 0
    (``formula``, the statement's (6) literally), a 1x1 matrix [m].  The query <p, 0, +oo> has every count in range:
    its consumer (omega(0) rho(0) = 1) has the optimum phi(0) = 1, error 0, while a transformation t in [0, 1]
    derives phi(0) = m t: the best derivable error is 1 - m (t = 1), at most ``factor`` x 0 only if m >= 1.  Exact
    at each zlcn alpha."""
    for A in alphas:
        with rec.deciding(
            n=0,
            alpha=zlcn_label(A),
            kind=BOUNDED,
            method="(6) at n = 0 literally, exact",
            covers="every consumer of <p, 0, +oo> (every count in range) on the one count 0",
            theta=theta_text(0, None),
        ) as d:
            m = formula(0, A)
            if len(m) != 1 or len(m[0]) != 1:
                d.inconclusive(f"(6) at n = 0 is {m}: no 1x1 matrix")
            elif m[0][0] < 1:
                d.counterexample(
                    f"n = 0, zlcn alpha = {A}: (6) gives M = [{m[0][0]}] (z = 0 is in {{0, n}}: A/(A+1)), not the "
                    f"mechanism [1]; the consumer of <p, 0, +oo> has optimal error 0 (phi(0) = 1) and best derivable "
                    f"error 1 - {m[0][0]} = {1 - m[0][0]} (t = 1), not at most {factor} x 0"
                )


@checks("zlcn2013.thm4")
def two_approximation(ctx: Context, factor: Fraction | int = 2, formula: Callable = zlcn2013_formula6) -> Findings:
    """zlcn2013 Theorem 4: for every consumer, some mechanism derivable from the range-restricted geometric
    mechanism has weighted error at most 2 times the optimum.  The worst ratio over ALL consumers (omega, rho)
    is computed exactly for each (n, theta1, theta2, alpha) and compared with ``factor``: one bounded instance
    each (exhaustive over consumers: a finite LP family over the legal polytope's vertices, each certified).
    n = 0 (the printed class has n >= 0): (6) literally (``formula``), :func:`at_one_count`; over n >= 1 the claim
    zlcn2013.thm4.corrected."""
    rec = Findings("zlcn2013.thm4")
    n_max = 3 if ctx.quick else 6
    alphas = (*ALPHAS_Z, F(100)) if not ctx.quick else (F(101, 100), F(2), F(100))
    worst = None
    per_alpha: dict[Fraction, Fraction] = {}
    per_n: dict[tuple[Fraction, int], Fraction] = {}  # (A, n) -> worst ratio over theta
    exact: dict[tuple, dict[Fraction, Fraction | None]] = {}
    for n in range(1, n_max + 1):
        for t1, t2 in theta_pairs(n):
            if t1 == 0 and (t2 is None or t2 == n):
                continue  # every count is in range: phi = 1 is derivable (t = 1) and has error 0
            exact[(n, t1, t2)] = {}
            for A in alphas:
                with rec.deciding(
                    n=n,
                    alpha=zlcn_label(A),
                    kind=BOUNDED,
                    method="exact worst ratio (certified LPs over the legal polytope's vertices)",
                    covers="every consumer (omega, rho) of this count-range or threshold query",
                    theta=theta_text(t1, t2),
                ) as d:
                    solved = worst_ratio(n, A, t1, t2, ctx)
                    r, w, u, cert = solved
                    where = (
                        f"theta=({t1}, {'inf' if t2 is None else t2}), consumer weights omega*rho proportional to "
                        f"{fmt(w)} (optimal legal function {fmt(u)})"
                    )
                    if r is None or r > factor:
                        d.counterexample(f"{where}: best derivable error / optimal error = {r} > {factor}")
                key = (r is None, r or 0)
                per_alpha[A] = max(per_alpha.get(A, F(0)), r or F(0))
                per_n[(A, n)] = max(per_n.get((A, n), F(0)), r or F(0))
                exact[(n, t1, t2)][A] = solved
                if worst is None or key > worst[0]:
                    worst = (key, r, n, A, where, cert)
                if (t2 is None or t1 == 0 or t2 == n) and r != 1:
                    rec.value(**{f"threshold ratio n={n} theta={theta_text(t1, t2)} {zlcn_label(A)}": r})
    at_one_count(rec, alphas, factor, formula)
    _, r, n, A, where, cert = worst
    rec.value(worst_ratio=str(r), worst_consumer=f"n={n}, {zlcn_label(A)}, {where}")
    for A, v in per_alpha.items():
        rec.value(**{f"worst ratio at {zlcn_label(A)}": v})
    # the same maxima per (alpha, n), as data for the report (udpm.report.html.thm4_ratios)
    rec.value(
        worst_ratios=json.dumps(
            [{"alpha": str(A), "n": n, "ratio": str(v)} for (A, n), v in sorted(per_n.items())], separators=(",", ":")
        )
    )
    rec.certificate = certificate_of({"worst ratio": str(r)}, [("worst-ratio LP (1/ratio)", cert)])
    for (n, t1, t2), by_alpha in exact.items():
        if any(v[0] != 1 for v in by_alpha.values()):
            rec.value(**{f"closed form n={n} theta={theta_text(t1, t2)}": closed_forms(n, t1, t2, by_alpha, ctx)})
    rec.note(
        "closed forms (values 'closed form n=.. theta=..'): at each alpha of the grid the optimal vertex LP's basis "
        "is solved with A a symbol; 'proved' is the rational interval of A on which that basis stays primal and "
        "dual feasible (exact root isolation of the sign conditions), so on it the consumer w(A) has ratio r(A) "
        "exactly and the worst ratio is >= r(A) (a proof, every A in it); 'equals_exact_at' lists the grid alphas "
        "where r(A) is the exact worst ratio decided above (that no other legal vertex does better between them is "
        "sampled in A, not proved), 'differs_at' those where another basis gives a larger ratio (the piece is then a "
        "lower bound only; a piece above the exact ratio would be a harness error)"
    )
    rec.note(
        "exact maximum of the ratio over all consumers (a finite LP family over the legal polytope's vertices, each "
        "LP certified; vertices whose error profile dominates another's, and derivable rows implied by another, are "
        "dropped exactly); thresholds (theta1 = 0, theta2 = n or inf) give ratio 1 (Theorem 7); the worst ratio at "
        "each alpha (values) stays below 2 but grows with alpha and n: the constant 2 is approached, not attained"
    )
    return rec
