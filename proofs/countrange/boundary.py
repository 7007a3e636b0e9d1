"""The count-range queries the paper's proof of Lemma 3 and Theorem 2 leaves out: theta1 = 0 or theta2 = n.

zlcn2013 Section 2.1's definition (quoted here) admits them: theta1 = 0 makes a threshold query, and theta2 = n is
a count-range query that is not a threshold query.  Here: those queries per n, and Theorem 2 at them, decided by
the exact worst ratio of the range-restricted geometric mechanism (6) over every consumer.
"""

from __future__ import annotations

from proofs.countrange.alpha import label
from proofs.countrange.worst_ratio import worst_ratio
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings

#: zlcn2013 Section 2.1, verbatim (the paper's text file, whitespace included; the "^1" is footnote 1, "We do not
#: consider the case for theta_1 = theta_2 since a count-range query is equivalent to a count query in that case").
COUNT_RANGE_DEFINITION = (
    "a count-range query consists of three parameters: a predicate  $p$  and two non-negative integers  "
    "$\\theta_1, \\theta_2$  where  $(\\theta_1 < \\theta_2)^1$",
    "When  $\\theta_1 = 0$  or  $\\theta_2 = +\\infty$ , the count-range query is a *threshold query*.",
)
DEFINITION_NOTE = (
    f'zlcn2013 Section 2.1 defines: "{COUNT_RANGE_DEFINITION[0]}" and "{COUNT_RANGE_DEFINITION[1]}"; so a '
    "threshold query is a count-range query (nothing in the definition excludes theta1 = 0 or theta2 = +inf), and "
    "theta2 = n is not +inf, so <p, theta1, n> is a count-range query that is not a threshold query although over "
    "counts 0..n it asks what <p, theta1, +inf> asks"
)


def boundary_thetas(n: int) -> list[tuple[int, int]]:
    """The rest of the printed class with a finite theta2 <= n (COUNT_RANGE_DEFINITION): theta2 = n with
    theta1 >= 1 (not a threshold query by the definition) first, then theta1 = 0 (threshold queries <p, 0, theta2>);
    theta = (0, n) puts every count in range."""
    return [(t1, n) for t1 in range(1, n)] + [(0, t2) for t2 in range(1, n + 1)]


def boundary_kind(n: int, theta: tuple[int, int]) -> str:
    return "a threshold query (theta1 = 0)" if theta[0] == 0 else f"not a threshold query (theta2 = {n} = n)"


def universal_at_boundary(rec: Findings, ns, alphas, ctx: Context, thetas_of=boundary_thetas, region: str = "") -> int:
    """Theorem 2 at the queries the paper's proof leaves out (``thetas_of``, default :func:`boundary_thetas`;
    theta = (0, n) aside: every count in range, phi = 1 has error 0): is there a universally utility maximizing
    mechanism?  One bounded instance per (n, theta, alpha): the exact worst ratio over every consumer
    (proofs.countrange.worst_ratio.worst_ratio) is 1 exactly when the range-restricted geometric mechanism
    derives
    an optimum of every consumer, which refutes "there is no universally utility maximizing mechanism" for that
    query.  Returns the number of instances."""
    total = 0
    for n in ns:
        for theta in thetas_of(n):
            if theta == (0, n):
                continue
            for al in alphas:
                with rec.deciding(
                    n=n,
                    alpha=label(al),
                    kind=BOUNDED,
                    method="exact worst ratio (certified LPs over the legal polytope's vertices)",
                    covers="every consumer (omega, rho) of this query: does the range-restricted geometric "
                    "mechanism derive an optimum of each",
                    region=region,
                    theta=f"{theta[0]},{theta[1]}",
                ) as d:
                    r = worst_ratio(n, al, theta[0], theta[1], ctx)[0]
                    total += 1
                    if r == 1:
                        d.counterexample(
                            f"n={n}, theta={theta}, {label(al)}: the query <p, {theta[0]}, {theta[1]}> is "
                            f"{boundary_kind(n, theta)}, and the range-restricted geometric mechanism (6) is "
                            "universally utility maximizing for it: the best error it derives equals the optimal "
                            "error for every consumer (exact worst ratio 1, certified LPs)"
                        )
    return total
