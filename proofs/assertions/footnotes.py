"""Statements made in footnotes, checked like any other claim; and footnote 3's witness, shared by the grs2009
Section 5 lemmas whose printed class footnote 3 extends (proofs/signatures/optimal_mechanisms.py,
proofs/signatures/vertex_remaps.py).

grs2009 Section 5 fixes "a user with prior {p_i} and a loss function l(i, r) that is monotone in |i - r|": any
prior and any monotone loss.  Its proofs assume full support and strict monotonicity, and footnote 3 claims the
rest "using perturbations and a limiting argument".  The lemmas built on that setup (5.5, 5.6, Corollary 5.7,
5.8, 5.9, 5.11) therefore declare two parts of their users' class (``STRICT_REGION``, ``FN3_REGION``): the
checks decide the first on their grids, and the second by the one certified instance below, which refutes
each of them (``decide_fn3_witness``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Findings, checks
from udpm.core import linalg
from udpm.core.mechanisms import truncated_geometric
from udpm.core.privacy import dp_violations
from udpm.core.remaps import bayes_remap, compose, deterministic_remap
from udpm.core.signatures import Signature, is_unimodal, render, signature
from udpm.core.users import BayesianUser, Loss
from udpm.lp.certificates import certificate_of
from udpm.lp.certify import is_vertex, solve
from udpm.lp.programs import bayesian_lp

F = Fraction
# Found by proofs/signatures/optimal_mechanisms.py's boundary search (z3), fixed here so the verdict is reproducible.
FN3_N, FN3_ALPHA = 2, F(1, 2)
FN3_X = [[F(0), F(1, 3), F(2, 3)], [F(0), F(2, 3), F(1, 3)], [F(0), F(1, 3), F(2, 3)]]
FN3_USER = BayesianUser.of(
    [F(1, 3)] * 3,
    Loss.from_matrix([[0, F(1, 8), F(1, 8)], [F(15, 16), 0, F(15, 16)], [F(5, 8), F(9, 16), 0]]),
)

#: The two parts of the users' class of grs2009 Lemmas 5.5, 5.6, 5.8, 5.9, 5.11 and Corollary 5.7 (their
#: ``parts`` in udpm/claims/statements/grs2009.toml): the proofs' hypotheses, and the rest footnote 3 claims.
STRICT_REGION = "full-support priors, strictly monotone losses"
FN3_REGION = "priors with zeros or losses not strictly monotone (footnote 3)"


@dataclass(frozen=True)
class Witness:
    """A mechanism x and a user at (n, alpha), with what was certified about them (exact arithmetic)."""

    n: int
    a: Fraction
    x: list[list[Fraction]]
    user: BayesianUser
    facts: dict[str, bool]
    loss: Fraction
    optimum: object  # udpm.lp.certify.Certified
    certificate: dict

    @property
    def in_printed_class(self) -> bool:
        """An alpha-DP optimal vertex of the user-specific LP for a user with a monotone (legal) loss."""
        f = self.facts
        return f["alpha-DP"] and f["legal loss"] and f["vertex"] and f["optimal"]

    @property
    def outside_proof_hypotheses(self) -> bool:
        """The prior has a zero or the loss is not strictly monotone (the part footnote 3 claims)."""
        return not (self.facts["full-support prior"] and self.facts["strictly legal loss"])

    def describe(self) -> str:
        loss_rows = [list(map(str, r)) for r in self.user.loss.values]
        outside = [
            *([] if self.facts["full-support prior"] else ["the prior has a zero"]),
            *([] if self.facts["strictly legal loss"] else ["the loss is not strictly monotone"]),
        ]
        return (
            f"n={self.n}, alpha={self.a}, prior {list(map(str, self.user.prior))}, monotone loss {loss_rows} "
            f"({'; '.join(outside) or 'within the proof hypotheses'}): X = {linalg.fmt_matrix(self.x)} is an "
            f"optimal vertex (loss "
            f"{self.loss} = the certified optimum) with constraint matrix "
            f"{render(signature(self.x, self.a)).replace(chr(10), ' / ')}"
        )


def certify_witness(x: list[list[Fraction]], user: BayesianUser, a: Fraction, timeout_s: float) -> Witness:
    """Certify x for the user exactly: alpha-DP, a vertex of the user-specific LP, optimal (dual certificate)."""
    n = len(x) - 1
    lp = bayesian_lp(user, a)
    opt = solve(lp, timeout_s=timeout_s, decide_unique=False)
    loss = user.expected_loss(x)
    facts = {
        "alpha-DP": not dp_violations(x, a),
        "legal loss": user.loss.is_legal(),
        "strictly legal loss": user.loss.is_strictly_legal(),
        "full-support prior": all(p > 0 for p in user.prior),
        "vertex": is_vertex(lp, [v for row in x for v in row]),
        "optimal": loss == opt.objective,
    }
    cert = certificate_of({"claim": "footnote_3"}, [(f"footnote 3 user, n={n}, alpha={a}", opt)])
    return Witness(n, a, x, user, facts, loss, opt, cert)


@cache
def fn3_witness(timeout_s: float) -> Witness:
    """Footnote 3's witness (FN3_X for FN3_USER at n = 2, alpha = 1/2), certified once per solver bound."""
    return certify_witness(FN3_X, FN3_USER, FN3_ALPHA, timeout_s)


def decide_fn3_witness(
    rec: Findings,
    ctx: Context,
    breaks: Callable[[Signature], str | None],
    what: str,
    witness: Witness | None = None,
) -> None:
    """Decide the part FN3_REGION of a grs2009 Section 5 lemma by footnote 3's witness: one BOUNDED instance at
    (2, 1/2), a counterexample when the witness is a certified optimal vertex of a monotone user outside the
    proofs' hypotheses and ``breaks`` (the lemma's own test on the witness's constraint matrix) says how it fails.

    One instance cannot show that the part holds: a witness that satisfies the lemma leaves it inconclusive."""
    w = witness or fn3_witness(ctx.solver_timeout)
    with rec.deciding(
        n=w.n,
        alpha=w.a,
        kind=BOUNDED,
        method=f"footnote 3's certified optimal vertex (proofs/assertions/footnotes.py) + {what}",
        covers="optimal vertices for priors with zeros or monotone losses with ties (one user refutes the part)",
        region=FN3_REGION,
    ) as d:
        why = breaks(signature(w.x, w.a)) if w.in_printed_class and w.outside_proof_hypotheses else None
        if why:
            d.counterexample(f"{w.describe()}: {why}")
        elif not w.in_printed_class or not w.outside_proof_hypotheses:
            d.inconclusive("the witness is not a certified optimal vertex of a user outside the proofs' hypotheses")
        else:
            d.inconclusive("footnote 3's witness satisfies the lemma; one instance cannot decide this part")
    rec.value(fn3_witness=", ".join(f"{k}: {v}" for k, v in w.facts.items()))
    if rec.certificate is None:
        rec.certificate = w.certificate


@checks("grs2009.fn3")
def footnote_3(ctx: Context, x: list[list[Fraction]] = FN3_X, user: BayesianUser = FN3_USER) -> Findings:
    """grs2009 Section 5, footnote 3: the row structure of optimal vertex mechanisms (Lemma 5.5: downs, at most
    one S, ups) extends from full-support priors and strictly monotone losses to any prior and any monotone loss.

    Refuted by one exactly certified instance: x is alpha-DP, a vertex of the LP, optimal for a legal (tied) loss,
    and its constraint matrix has a row with an up before a down.  One user refutes the extension to all users, so
    the instance is BOUNDED at (n, alpha) = (2, 1/2).  The same witness refutes, as printed, each lemma built on
    the footnote's extension (grs2009 Lemmas 5.5, 5.6, 5.8, 5.9, 5.11, Corollary 5.7: ``decide_fn3_witness``).
    The corrected statement, which grs2011 proves as Lemma 5.11, is about optimal values: the best remap of T
    still attains the optimum; at this user it is recorded as its own value (``corrected_statement_here``).
    """
    rec = Findings("grs2009.fn3")
    n, a = FN3_N, FN3_ALPHA
    w = certify_witness(x, user, a, ctx.solver_timeout)
    rec.certificate = w.certificate
    opt = w.optimum
    remap = bayes_remap(truncated_geometric(n, a), user)
    via_t = user.expected_loss(compose(truncated_geometric(n, a), deterministic_remap(remap, n + 1)))
    sig = signature(x, a)
    facts = {k: w.facts[k] for k in ("alpha-DP", "legal loss", "strictly legal loss", "vertex", "optimal")}
    facts["unimodal rows"] = is_unimodal(sig)
    rec.value(**{k: str(v) for k, v in facts.items()})
    rec.value(**{"optimum": str(opt.objective), "best remap of T": str(via_t), "T remap": str(remap)})
    rec.value(corrected_statement_here="holds" if via_t == opt.objective else "FAILS")
    breaks_it = facts["alpha-DP"] and facts["legal loss"] and facts["vertex"] and facts["optimal"]
    with rec.deciding(
        n=n,
        alpha=a,
        kind=BOUNDED,
        method="certified optimal vertex + its signature",
        covers="footnote 3's class: optimal vertices for any prior and any legal loss (one user refutes it)",
    ) as d:
        if breaks_it and not facts["unimodal rows"]:
            d.counterexample(
                f"n={n}, alpha={a}, uniform prior, legal loss {[list(map(str, r)) for r in user.loss.values]} "
                f"(ties in row 0): X = {linalg.fmt_matrix(x)} is an optimal vertex (loss {w.loss}) with constraint "
                f"matrix {render(sig).replace(chr(10), ' / ')}: row 0 has an up before a down"
            )
        else:
            d.inconclusive("the candidate does not refute the footnote (one instance cannot show it holds)")
    rec.note(
        "corrected statement (grs2011 Lemma 5.11): the optimal value is still attained by a remap of T "
        f"({'holds' if via_t == opt.objective else 'FAILS'} here: {via_t} vs optimum {opt.objective})"
    )
    return rec
