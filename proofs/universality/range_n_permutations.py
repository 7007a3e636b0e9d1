"""Range-N universally optimal mechanisms are the permutations of T: grs2011 Corollary 3.4 (claim grs2011.cor3.4)
and grs2009 Theorem 6.1 (claims grs2009.thm6.1, grs2009.thm6.1.corrected).

The mechanisms are a finite list (and every deterministic remap of T), the users a finite sample: SAMPLED.
The 'only if' witnesses are Lemma 5.12's users (:mod:`proofs.universality.unique_optimum`) and Theorem 3.2's
beaten mechanisms (:mod:`proofs.universality.characterization`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction as F

from proofs.boundary.alpha_one import decide_alpha_one
from proofs.boundary.universality import range_n_uniqueness_at_one, range_n_uniqueness_at_zero
from proofs.universality.characterization import decide_beaten, non_universal_mechanisms, remap_exists
from proofs.universality.optimality import alphas, best_remap, less, optimum
from proofs.universality.sample_users import adversarial_users, describe, random_users
from proofs.universality.scan import decide_users
from proofs.universality.unique_optimum import gamma_user, t_is_unique
from udpm.claims.instances import BOUNDED, SAMPLED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import geometric_window, truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import Certified


def is_permutation(d: Sequence[int]) -> bool:
    return len(set(d)) == len(d)


def range_n_scan(ctx: Context, claim: str, witness_gamma: F, claimed: Callable[[Sequence[int]], bool]) -> Findings:
    """Range-N mechanisms: X = T·D for every deterministic D : N -> N, plus randomized ones.  'If': every X with
    claimed(D) (the theorem: D a permutation) attains lambda(u) for each sampled user; 'only if': every other T·D,
    and each randomized X with no remap to T, is strictly beaten by the lemma-5.12 user (T its unique optimum)."""
    rec = Findings(claim)
    rng = ctx.rng(claim)
    n_max = 3 if ctx.quick else 4
    certs: list[tuple[str, Certified]] = []
    for n in range(1, n_max + 1):
        for a in alphas(ctx):
            t = truncated_geometric(n, a)
            user = gamma_user(n, witness_gamma)
            lam = optimum(user, a, ctx.solver_timeout, unique=True)
            if len(certs) < 2:
                certs.append((f"witness user gamma={witness_gamma}, n={n}, alpha={a}", lam))
            ds = list(itertools.product(range(n + 1), repeat=n + 1))
            others = [d for d in ds if not claimed(d)]
            if others:
                with rec.deciding(
                    n=n,
                    alpha=a,
                    kind=SAMPLED,
                    method="best remap vs the witness user's certified unique optimum",
                    covers=f"the {len(others)} mechanisms T·D, D deterministic, outside the claimed class",
                    part="only if",
                    family="T·D",
                ) as d:
                    if not t_is_unique(lam, t):
                        d.inconclusive(
                            f"n={n}, alpha={a}: T is not the unique optimum of the witness {describe(user)} "
                            f"(certified optimum {lam.objective}, unique={lam.unique})"
                        )
                    else:
                        for dd in others:
                            mu, _ = best_remap(compose(t, deterministic_remap(list(dd), n + 1)), user)
                            if not less(lam.objective, mu):
                                d.inconclusive(f"n={n}, alpha={a}: T·{list(dd)} is not beaten by the witness user")
                                break
            mine = [(f"T·{list(dd)}", compose(t, deterministic_remap(list(dd), n + 1))) for dd in ds if claimed(dd)]
            users = adversarial_users(n)[:4] + random_users(rng, n, 2)
            if not decide_users(rec, mine, users, n, a, ctx, certs, part="if"):
                return rec
            for mlabel, x in non_universal_mechanisms(n, a):
                has, _ = remap_exists(x, t, ctx.solver_timeout)
                if has:
                    permuted = any(
                        compose(t, deterministic_remap(list(p), n + 1)) == x
                        for p in itertools.permutations(range(n + 1))
                    )
                    with rec.deciding(
                        n=n,
                        alpha=a,
                        kind=SAMPLED,
                        method="certified remap LP",
                        covers="one range-N mechanism with a remap to T",
                        part="only if",
                        mechanism=mlabel,
                    ) as d:
                        if not permuted:
                            d.counterexample(
                                f"n={n}, alpha={a}: range-N {mlabel} {linalg.fmt_matrix(x)} has a remap to T "
                                "(so it is universal) but is not a permutation of T"
                            )
                            return rec
                else:
                    decide_beaten(rec, mlabel, x, n, a, ctx)
    rec.note(
        f"all (n+1)^(n+1) deterministic remaps D of T: the non-permutations are beaten by the user with T as "
        f"certified unique optimum (uniform prior, loss 1+gamma|j-i| with gamma={witness_gamma}), one instance per "
        "(n, alpha); each permuted T attains lambda(u) for each sampled user (one instance per user); randomized "
        "range-N mechanisms with no remap to T are beaten (one instance per mechanism)"
    )
    rec.certificate = certificate_of({"claim": "range_n_scan"}, certs[:2])
    return rec


@checks("grs2011.cor3.4")
def permutations_of_t(
    ctx: Context, witness_gamma: F = F(0), claimed: Callable[[Sequence[int]], bool] = is_permutation
) -> Findings:
    """grs2011 Corollary 3.4: for n >= 1 and alpha in [0, 1], a mechanism with range N is universally
    utility-maximizing iff it is pi o T for a permutation pi; the 'only if' direction through the Lemma 5.12 user
    for alpha in (0, 1), and the printed boundary alpha = 1 (proofs.boundary.alpha_one), checked for small n."""
    rec = range_n_scan(ctx, "grs2011.cor3.4", witness_gamma, claimed)
    decide_alpha_one(rec, ctx, ALPHA_ONE_CANDIDATE, 3 if ctx.quick else 4)
    range_n_uniqueness_at_zero(
        rec,
        ctx,
        "every range-N mechanism X optimal for every user after its best remap: X = pi o T with T(n, 0) = I "
        "under both readings (0^0 = 1)",
    )
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]; at alpha = 1 every 1-DP mechanism (equal rows) "
        "is universally utility-maximizing (the SMT query of each alpha = 1 instance does not depend on X)",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: the 'only if' for every range-N "
        "mechanism, n <= 3)",
    )
    return rec


#: Corollary 3.4's counterexample at alpha = 1: every row (2/3, 1/3, 0, ...), not pi o T under either reading.
ALPHA_ONE_CANDIDATE = (F(2, 3), F(1, 3))


def conclusion_x_g(rec: Findings, ns: range = range(1, 4), alphas: Sequence[F] = (F(1, 2), F(1, 3))) -> None:
    """grs2009 Theorem 6.1's printed conclusion p o x = x^G at alphas inside (0, 1): x = T(n, alpha), which meets the
    hypothesis (grs2009 Theorem 3.1, decided at these (n, alpha) by grs2009.thm3.1 and grs2011.cor3.3), has range N,
    and so has every p o x; x^G puts (1 - alpha)/(1 + alpha) alpha^(i+1) > 0 on the output -1 in row i."""
    for n in ns:
        for al in alphas:
            with rec.deciding(
                n=n,
                alpha=al,
                kind=BOUNDED,
                method="exact: the output -1 of x^G",
                covers="the printed conclusion p o x = x^G, for x = T(n, alpha)",
            ) as d:
                t = truncated_geometric(n, al)
                below = geometric_window(n, al, -1, -1)[0][0]  # x^G(0, -1)
                if below > 0 and all(sum(row) == 1 for row in t):
                    d.counterexample(
                        f"x = T({n}, {al}) meets the hypothesis (Theorem 3.1) and every p o x has range N, while "
                        f"x^G puts probability {below} on the output -1 for the result 0: no permutation p gives "
                        "p o x = x^G (the conclusion holds for G = w o x^G, Section 5's range-N version)"
                    )


@checks("grs2009.thm6.1")
def uniqueness_up_to_permutation(
    ctx: Context,
    witness_gamma: F = F(0),
    claimed: Callable[[Sequence[int]], bool] = is_permutation,
    conclusion: str = "x^G",
) -> Findings:
    """grs2009 Theorem 6.1: among range-N mechanisms the geometric mechanism is the unique simultaneously optimal
    one up to a permutation; its proof's user (uniform prior, binary loss) is checked to have G as unique optimum.

    The printed conclusion is p o x = x^G, where x^G is the alpha-geometric mechanism (Theorem 3.1), with range Z;
    Section 5 names its range-N version G = w o x^G.  ``conclusion`` = "x^G" decides it as printed
    (:func:`conclusion_x_g`); "G" reads it as G, the statement of grs2009.thm6.1.corrected."""
    rec = range_n_scan(ctx, "grs2009.thm6.1", witness_gamma, claimed)
    if conclusion == "x^G":
        conclusion_x_g(rec)
    rec.note(
        "the printed range alpha in [0, 1] includes alpha = 1, where grs2009's geometric distribution "
        "(1 - alpha)/(1 + alpha) alpha^|z| is 0 everywhere: x^G is no mechanism, and the 1-DP x with every row "
        "(2/3, 1/3, 0, ...) meets the hypothesis while no p o x is x^G (nor the truncated T(n, 1) under grs2011's "
        "readings, as in grs2011 Corollary 3.4): refuted at alpha = 1 for n <= 3"
    )
    range_n_uniqueness_at_zero(
        rec,
        ctx,
        "every range-N mechanism x optimal for every user after its best remap: x = p^-1 for a permutation "
        "p, so p o x = x^G = I (grs2009's formula at alpha = 0, 0^0 = 1)",
    )
    range_n_uniqueness_at_one(rec, ctx, ALPHA_ONE_CANDIDATE)
    rec.value(
        corrected_statement="alpha in [0, 1) instead of [0, 1]: at alpha = 1 every 1-DP mechanism with range N (equal "
        "rows) meets the hypothesis and x^G (pmf 0 everywhere) is no mechanism",
        corrected_scope="the instances at alpha in [0, 1) of this record (alpha = 0: every range-N mechanism, n <= 3)",
    )
    return rec


@checks("grs2009.thm6.1.corrected")
def uniqueness_up_to_permutation_of_g(
    ctx: Context, witness_gamma: F = F(0), claimed: Callable[[Sequence[int]], bool] = is_permutation
) -> Findings:
    """grs2009 Theorem 6.1 with the conclusion read as p o x = G (Section 5's range-N version of x^G) and alpha in
    [0, 1): the printed check's instances, without the literal conclusion and the end alpha = 1."""
    from udpm.claims.registry import restrict

    found = uniqueness_up_to_permutation(ctx, witness_gamma, claimed, conclusion="G")
    return restrict("grs2009.thm6.1.corrected", found)
