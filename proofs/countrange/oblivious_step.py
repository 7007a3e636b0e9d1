"""zlcn2013 Section 4.2: an oblivious step function is not an optimal legal function (claim zlcn2013.oblivious).

As printed (every n) it fails at n = 1; the corrected statement (n >= 2) is checked on a grid of step functions,
each strictly dominated by the function of (2) through (theta, beta2).
"""

from __future__ import annotations

import random
from fractions import Fraction

from proofs.countrange.alpha import zlcn_label
from proofs.countrange.legal_lp import ALPHAS_Z, F, consumer_text, digest, fmt, lp_optimum
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core.users import CountRangeConsumer, is_legal_function
from udpm.lp.certificates import certificate_of


def dominating_recurrence(beta2: Fraction, theta: int, n: int, A: Fraction) -> list[Fraction]:
    """The function of (2) with phi(theta) = beta2 (backward by the inverse of (2), forward by (2))."""
    phi = [F(0)] * (n + 1)
    phi[theta] = beta2
    for m in range(theta - 1, -1, -1):
        q = phi[m + 1]
        phi[m] = max(q / A, A * q - A + 1)
    for m in range(theta, n):
        p = phi[m]
        phi[m + 1] = min(A * p, (A - 1 + p) / A)
    return phi


def step_function(phi, theta: int) -> tuple[Fraction, Fraction] | None:
    """(beta1, beta2) when phi is constant below theta and constant from theta on, else None."""
    lo, hi = set(phi[:theta]), set(phi[theta:])
    if len(lo) > 1 or len(hi) != 1:
        return None
    return (lo.pop() if lo else phi[theta]), phi[theta]


def optimal_step_function(ctx: Context, n_max: int, rng: random.Random):
    """A consumer with all omega*rho > 0 whose certified, unique optimum is a non-trivial step function."""
    for n in range(1, n_max + 1):
        for theta in range(1, n + 1):
            for A in ALPHAS_Z:
                consumers = [CountRangeConsumer.of([1] * (n + 1), [F(1, n + 1)] * (n + 1), theta, None)]
                for _ in range(2):
                    raw = [F(rng.randint(1, 4)) for _ in range(n + 1)]
                    consumers.append(CountRangeConsumer.of([1] * (n + 1), [r / sum(raw) for r in raw], theta, None))
                for c in consumers:
                    _, cert, opt = lp_optimum(c, A, ctx)
                    step = step_function(cert.x, theta)
                    if step and cert.unique and not (step[0] == step[1] and step[0] in (0, 1)):
                        return n, theta, A, c, cert, opt, step
    return None


def dominance_failure(n_min: int, n_max: int, recurrence=dominating_recurrence):
    """The first legal step function Phi (grid) that the (2)-function through (theta, beta2) does not strictly
    dominate, else None; also the number of step functions checked."""
    grid = (F(1, 100), F(1, 3), F(1, 2), F(2, 3), F(99, 100))
    checked = 0
    for n in range(n_min, n_max + 1):
        for theta in range(n + 1):
            for A in ALPHAS_Z:
                for b2 in grid:
                    lo, hi = max(b2 / A, 1 - A * (1 - b2)), min(A * b2, 1 - (1 - b2) / A)
                    for b1 in (lo, (lo + hi) / 2, hi):
                        big_phi = [b1 if m < theta else b2 for m in range(n + 1)]
                        if not is_legal_function(big_phi, A):
                            continue
                        checked += 1
                        phi = recurrence(b2, theta, n, A)
                        ok = is_legal_function(phi, A) and all(
                            (phi[m] <= big_phi[m]) if m < theta else (phi[m] >= big_phi[m]) for m in range(n + 1)
                        )
                        if not ok or phi == big_phi:
                            return (n, theta, A, big_phi, phi), checked
    return None, checked


@checks("zlcn2013.oblivious")
def oblivious_step(ctx: Context, recurrence=dominating_recurrence) -> Findings:
    """zlcn2013 Section 4.2: a legal oblivious step function Phi (beta1 below theta, beta2 from theta on) for a
    threshold query <p, theta, +inf> is not an optimal legal function unless beta1 = beta2 in {0, 1}, because the
    (2)-function phi with phi(theta) = beta2 commits both kinds of error no more often (strictly less somewhere).

    As printed (every n) it fails at n = 1: a consumer whose certified unique optimum is a non-trivial step
    function is a counterexample.  The corrected statement (n >= 2) is a separate verdict, kept as values: the
    (2)-function strictly dominates every step function of a grid of (beta1, beta2) (sampled Phi).
    ``recurrence`` is the dominating function (a wrong one is a false variant of the corrected statement)."""
    rec = Findings("zlcn2013.oblivious")
    n_max = 4 if ctx.quick else 6
    found = optimal_step_function(ctx, n_max, ctx.rng("zlcn2013.oblivious"))
    if found:
        n, theta, A, c, cert, opt, step = found
        rec.decide(
            False,
            f"theta={theta}, {consumer_text(c)}: the unique optimal legal function (certified) is {fmt(cert.x)}, the "
            f"oblivious step function with beta1={step[0]}, beta2={step[1]} (err {opt}); so this non-trivial oblivious "
            "Phi is optimal",
            n=n,
            alpha=zlcn_label(A),
            kind=BOUNDED,
            method="certified LP with uniqueness",
            covers="every legal function of this consumer: its only optimum is a non-trivial step function",
            consumer=digest(consumer_text(c)),
        )
        rec.value(optimum=opt)
        rec.certificate = certificate_of({}, [("optimal step function", cert)])
    fail2, checked = dominance_failure(2, n_max, recurrence)
    rec.value(
        corrected_holds_on_grid="yes" if fail2 is None else f"no: {fail2}",
        corrected_step_functions=checked,
        corrected_scope=f"n = 2..{n_max}, theta = 0..n, zlcn alphas {', '.join(map(str, ALPHAS_Z))}, "
        "beta2 in {1/100, 1/3, 1/2, 2/3, 99/100}, beta1 in {its lowest, middle, highest legal value}",
    )
    rec.note(
        "the printed statement (every n) fails at n = 1 (theta = 1 makes every legal function a step function); "
        "the corrected statement (n >= 2) is a separate verdict recorded as values: corrected_holds_on_grid says "
        f"whether the (2)-function strictly dominates each of the {checked} legal step functions of the grid, which "
        "samples Phi (a finite grid of (beta1, beta2)), so it is at most a sampled check and does not change the "
        "claim's status"
    )
    return rec
