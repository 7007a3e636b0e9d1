"""zlcn2013 Theorem 1, Section 3.1 (the two-variable form) and Theorems 5, 6, over ALL consumers.

Each claim says that, for every consumer (omega >= 0, rho a distribution) of a count-range or threshold
query, some optimal legal function lies in a set S of functions of a stated form:

* Theorem 1: S = {min{psi1(beta1), psi2(beta2)} : (5) holds at theta1, theta2};
* Section 3.1: S = {min{psi1(beta1), psi2(beta2)}} (beta1, beta2 in [0, 1]) and min over S = the LP optimum;
* Theorems 5, 6: S = {psi1(beta)} for <p, theta, +inf> and {psi2(beta)} for <p, 0, theta>.

Each is decided per (n, alpha, theta) over every consumer by the all-consumers criterion
(proofs/countrange/cones.py: every vertex of the legal polytope that is the unique optimum of a consumer with all
weights > 0 must lie in S, and these vertices decide every consumer); the (beta1, beta2) family and its exact
minima are in proofs/countrange/family.py.

The sampled run (random consumers, certified LP against the exact (beta1, beta2) arrangement minimum) stays
as a cross-check (sampled instances beside the bounded ones in the grid).
"""

from __future__ import annotations

from fractions import Fraction

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.cones import (
    all_consumers_threshold,
    all_consumers_two,
    bounded_grid,
    canonical_pins,
    forms_are_legal,
    new_stats,
    record_stats,
    z3_forms,
)
from proofs.countrange.derivation import premises_hold
from proofs.countrange.family import one_variable_minimum, two_variable_minimum
from proofs.countrange.legal_lp import (
    ALPHAS_Z,
    consumer_text,
    digest,
    fmt,
    lp_optimum,
    random_consumer,
    theta_pairs,
    theta_text,
)
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.users import CountRangeConsumer
from udpm.lp.certificates import certificate_of
from udpm.lp.countrange import psi1, psi2

F = Fraction


#: --full: beyond the per-theta sample, BEYOND_PER_N random consumers (random theta, two alphas per n) for each
#: n up to BEYOND_N (the two-variable arrangement grows fast: about 8 s per (n, alpha) at n = 10).
BEYOND_N, BEYOND_PER_N = 10, 4


# ---------------------------------------------------------------- the sampled cross-check


def _consumers(ctx: Context, claim: str, n_max: int, per_theta: int):
    """(n, zlcn alpha, consumer): the uniform consumer at alpha = 2 and random ones, each drawn once; in --full
    also BEYOND_PER_N random ones per n in n_max+1..BEYOND_N (drawn after the others, so those stay as they were)."""
    rng = ctx.rng(claim)
    out, seen = [], set()
    cands = []
    for n in range(1, n_max + 1):
        for t1, t2 in theta_pairs(n):
            cands.append((n, ALPHAS_Z[2], CountRangeConsumer.of([1] * (n + 1), [F(1, n + 1)] * (n + 1), t1, t2)))
            for _ in range(per_theta):
                cands.append((n, rng.choice(ALPHAS_Z), random_consumer(rng, n, t1, t2)))
    for n in range(n_max + 1, 1 + (0 if ctx.quick else BEYOND_N)):
        thetas = theta_pairs(n)
        for k in range(BEYOND_PER_N):
            t1, t2 = thetas[rng.randrange(len(thetas))]
            cands.append((n, ALPHAS_Z[(n + 2 * (k % 2)) % len(ALPHAS_Z)], random_consumer(rng, n, t1, t2)))
    for m, A, c in cands:
        key = (m, A, consumer_text(c))
        if key not in seen:
            seen.add(key)
            out.append((m, A, c))
    return out


def _sampled(rec: Findings, n: int, A: Fraction, c: CountRangeConsumer, method: str, covers: str):
    return rec.deciding(
        n=n,
        alpha=zlcn_label(A),
        kind=SAMPLED,
        method=method,
        covers=covers,
        consumer=digest(consumer_text(c)),
        theta=theta_text(c.theta1, c.theta2),
    )


def _form_alpha(A: Fraction, form_alpha) -> Fraction | None:
    return None if form_alpha is None else Fraction(form_alpha(A))


# ---------------------------------------------------------------- claims


@checks("zlcn2013.thm1")
def min_of_recurrences(ctx: Context, flip5: bool = False, form_alpha=None) -> Findings:
    """zlcn2013 Theorem 1: some optimal legal function is min{psi1, psi2} with psi1, psi2 satisfying (2), (3)
    and the crossing condition (5) at theta1, theta2.  Bounded over all consumers at n <= 3 (quick), n <= 5
    (--full), every zlcn alpha of ALPHAS_Z and every theta; sampled consumers as a cross-check.
    False variants: ``flip5`` reverses (5); ``form_alpha`` maps alpha to the recurrences' (wrong) alpha."""
    rec = Findings("zlcn2013.thm1")
    stats = new_stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            for t1, t2 in theta_pairs(n):
                all_consumers_two(
                    rec, ctx, n, A, t1, t2, with5=True, flip5=flip5, A_form=_form_alpha(A, form_alpha), stats=stats
                )
    record_stats(rec, stats)
    n_max, per = (3, 2) if ctx.quick else (4, 6)
    cases = _consumers(ctx, "zlcn2013.thm1", n_max, per)
    for n, A, c in cases:
        Af = _form_alpha(A, form_alpha) or A
        with _sampled(rec, n, A, c, "certified LP + exact (beta1, beta2) arrangement", "one consumer") as d:
            _, _, opt = lp_optimum(c, A, ctx)
            best = two_variable_minimum(c, Af, True, flip5=flip5)
            if best is None or best[0] != opt:
                got = "no admissible (beta1, beta2)" if best is None else f"{best[0]} at beta=({best[1]}, {best[2]})"
                d.counterexample(f"{consumer_text(c)}: LP optimum {opt}, best min{{psi1,psi2}} with (5): {got}")
    n, A = 3, ALPHAS_Z[2]
    c = CountRangeConsumer.of([1] * 4, [F(1, 4)] * 4, 1, 2)
    e, b1, b2, phi = two_variable_minimum(c, A, True)
    rec.value(consumers=len(cases), example_error=e, example_beta1=b1, example_beta2=b2, example_phi=fmt(phi))
    if rec.certificate is None:
        _, cert, _ = lp_optimum(c, A, ctx)
        rec.certificate = certificate_of(
            {"consumers": len(cases)}, [("uniform consumer, n=3, theta=(1,2), zlcn alpha=2", cert)]
        )
    rec.note(
        "bounded: for each (n, alpha, theta) every vertex of the legal polytope that is the unique optimum of a "
        "consumer with all weights > 0 (certified normal-cone LP) is min{psi1, psi2} with (5) (z3 model, re-checked "
        "exactly); these vertices decide every consumer (module docstring of proofs/countrange/cones.py). "
        "sampled cross-check: uniform and random consumers (zeros in omega, rho), LP optimum certified, (beta1, "
        "beta2) minimum exact over the arrangement"
    )
    return rec


@checks("zlcn2013.twovar")
def two_variables(ctx: Context, use_psi2: bool = True, form_alpha=None) -> Findings:
    """zlcn2013 Section 3.1: minimising err(min{psi1, psi2}) over (beta1, beta2) = (psi1(0), psi2(0)) reaches
    the optimum of the (n+1)-variable legal-function LP, for every consumer.  Bounded: every min{psi1, psi2} is
    legal (z3 unsat per (n, alpha)) and every full-dimensional vertex is one; sampled consumers cross-check.
    False variants: ``use_psi2=False`` (psi1 alone); ``form_alpha`` (the recurrences at a wrong alpha)."""
    rec = Findings("zlcn2013.twovar")
    stats = new_stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            Af = _form_alpha(A, form_alpha)
            with rec.deciding(
                n=n,
                alpha=zlcn_label(A),
                kind=BOUNDED,
                method="z3 unsat",
                covers="every (beta1, beta2) in [0,1]^2: min{psi1, psi2} is a legal function",
            ) as d:
                _, _, _, _, dom = z3_forms(n, Af or A)
                w = premises_hold(dom, canonical_pins(dom), ctx.solver_timeout, "zlcn2013.twovar: beta in [0,1]^2")
                stats["witnesses"].add(w)
                bad, _ = forms_are_legal(n, Af or A, A, ctx.solver_timeout)
                if bad:
                    d.counterexample(f"beta=({bad[0]}, {bad[1]}): min{{psi1, psi2}} = {fmt(bad[2])} is not legal")
            for t1, t2 in theta_pairs(n):
                all_consumers_two(rec, ctx, n, A, t1, t2, with5=False, use_psi2=use_psi2, A_form=Af, stats=stats)
    record_stats(rec, stats)
    n_max, per = (3, 3) if ctx.quick else (4, 10)
    cases = _consumers(ctx, "zlcn2013.twovar", n_max, per)
    for n, A, c in cases:
        Af = _form_alpha(A, form_alpha) or A
        with _sampled(rec, n, A, c, "certified LP + exact (beta1, beta2) arrangement", "one consumer") as d:
            _, _, opt = lp_optimum(c, A, ctx)
            best = two_variable_minimum(c, Af, False, use_psi2=use_psi2)
            if best[0] != opt:
                d.counterexample(f"{consumer_text(c)}: LP optimum {opt}, two-variable minimum {best[0]}")
    rec.value(consumers=len(cases))
    rec.note(
        "bounded: every min{psi1, psi2} is legal (z3 unsat, so the two-variable minimum is never below the LP "
        "optimum), and every vertex of the legal polytope that is the unique optimum of a consumer with all weights "
        "> 0 (certified normal-cone LP) is some min{psi1, psi2} (z3 model, re-checked exactly), so it is never above; "
        "sampled cross-check: two-variable minimum exact over the arrangement vertices, LP optimum certified"
    )
    return rec


def threshold_queries(n: int, swap: bool = False):
    """(theta1, theta2, recurrence): <theta, +inf> and <theta, n> with (2), <0, theta> with (3)."""
    queries = [(t, None, psi1) for t in range(n + 1)] + [(t, n, psi1) for t in range(1, n)]
    queries += [(0, t, psi2) for t in range(1, n + 1)]
    if swap:
        queries = [(t1, t2, psi2 if r is psi1 else psi1) for t1, t2, r in queries]
    return queries


@checks("zlcn2013.thm5")
def threshold_recurrence(ctx: Context, swap: bool = False, form_alpha=None) -> Findings:
    """zlcn2013 Theorems 5, 6: for <p, theta, +inf> some optimal legal function satisfies (2); for <p, 0, theta>
    one satisfies (3).  theta2 = n is the same query as theta2 = +inf over counts 0..n; both are checked.
    Bounded over all consumers (every full-dimensional vertex v equals the recurrence from v(0)); sampled
    consumers cross-check.  ``swap`` uses the other recurrence, ``form_alpha`` a wrong alpha (false variants)."""
    findings = Findings("zlcn2013.thm5")
    stats = new_stats()
    for n in range(1, bounded_grid(ctx) + 1):
        for A in ALPHAS_Z:
            for t1, t2, r in threshold_queries(n, swap):
                all_consumers_threshold(findings, ctx, n, A, t1, t2, r, _form_alpha(A, form_alpha), stats)
    record_stats(findings, stats)
    rng = ctx.rng("zlcn2013.thm5")
    n_max, per = (4, 4) if ctx.quick else (10, 12)
    seen = set()
    for n in range(1, n_max + 1):
        for t1, t2, rec in threshold_queries(n, swap):
            name = "(2)" if rec is psi1 else "(3)"
            for k in range(per + 1):
                A = ALPHAS_Z[k % len(ALPHAS_Z)]
                Af = _form_alpha(A, form_alpha) or A
                c = (
                    CountRangeConsumer.of([1] * (n + 1), [F(1, n + 1)] * (n + 1), t1, t2)
                    if k == 0
                    else random_consumer(rng, n, t1, t2)
                )
                if (n, A, consumer_text(c)) in seen:
                    continue
                seen.add((n, A, consumer_text(c)))
                with _sampled(
                    findings, n, A, c, f"certified LP + exact recurrence {name} minimum", "one consumer"
                ) as d:
                    _, _, opt = lp_optimum(c, A, ctx)
                    e, beta = one_variable_minimum(c, Af, rec)
                    if e != opt:
                        d.counterexample(
                            f"{consumer_text(c)}: LP optimum {opt}, best function of recurrence {name}: {e} "
                            f"at beta={beta}"
                        )
    findings.value(consumers=len(seen))
    findings.note(
        "bounded: for each (n, alpha, threshold) every vertex of the legal polytope that is the unique optimum of a "
        "consumer with all weights > 0 (certified normal-cone LP) satisfies the recurrence from its own v(0) (exact); "
        "these vertices decide every consumer.  sampled cross-check: thresholds theta = 0..n (<p,theta,inf>, also "
        "written theta2 = n) and <p,0,theta>; uniform and random consumers; one-variable minimum exact over the "
        "breakpoints"
    )
    return findings
