"""grs2011 Lemma 5.4 (claim grs2011.lemma5.4), for all n: two feasible X, X' of (4)-(7) have the same signature iff
the same constraints bind, decided entry by entry by z3 for symbolic alpha.
"""

from __future__ import annotations

import itertools

import z3

from proofs.signatures.bounded_claims import SYMBOLIC_ALPHA
from proofs.signatures.encoding import model_fraction
from udpm.claims.instances import ALL_N
from udpm.claims.registry import Context, Findings, checks
from udpm.core.signatures import (
    DOWN,
    SLACK,
    UP,
    ZERO,
)
from udpm.smt.solvers import decide, premise_witness

# --- grs2011 Lemma 5.4: the signature and the binding set determine each other -------------------


def entry_binding_table(
    alpha_max_inclusive: bool, timeout_s: float
) -> tuple[dict[str, frozenset[str]] | None, str, dict[str, str]]:
    """For one signature entry (p = x_ij, q = x_(i+1)j) and symbolic alpha, which of the four constraints on
    p, q bind under each symbol: (4) p = alpha q, (5) q = alpha p, (7) p = 0, (7') q = 0.

    Returns (table, '', witnesses) when every symbol fixes its binding set, else (None, counterexample, ...).
    Each symbol's premises (domain and symbol) are first shown satisfiable (premise_witness)."""
    al, p, q = z3.Reals("alpha p q")
    dom = [al > 0, al <= 1 if alpha_max_inclusive else al < 1, p >= 0, q >= 0, p - al * q >= 0, q - al * p >= 0]
    symbols = {
        DOWN: z3.And(p > 0, q == al * p),
        UP: z3.And(p > 0, p == al * q),
        SLACK: z3.And(p > 0, q > al * p, p > al * q),
        ZERO: z3.And(p == 0, q == 0),
    }
    constraints = {"(4)": p - al * q == 0, "(5)": q - al * p == 0, "(7)p": p == 0, "(7)q": q == 0}
    table: dict[str, frozenset[str]] = {}
    witnesses: dict[str, str] = {}
    for sym, cond in symbols.items():
        w = premise_witness([*dom, cond], timeout_s, f"symbol {sym}")
        witnesses[f"premise witness {sym}"] = ", ".join(f"{k}={v}" for k, v in w.items())
        binds = set()
        for name, k in constraints.items():
            never = decide([*dom, cond, k], timeout_s)
            always = decide([*dom, cond, z3.Not(k)], timeout_s)
            if not never.unsat and not always.unsat:
                m, m2 = never.model, always.model
                return (
                    None,
                    f"symbol {sym} does not fix whether {name} binds: it binds at alpha={model_fraction(m, al)}, "
                    f"p={model_fraction(m, p)}, q={model_fraction(m, q)} and fails at "
                    f"alpha={model_fraction(m2, al)}, p={model_fraction(m2, p)}, q={model_fraction(m2, q)}",
                    witnesses,
                )
            if always.unsat:
                binds.add(name)
        table[sym] = frozenset(binds)
    return table, "", witnesses


@checks("grs2011.lemma5.4")
def lemma_5_4(ctx: Context, alpha_max_inclusive: bool = False) -> Findings:
    """grs2011 Lemma 5.4: two feasible X, X' of (4)-(7) have the same signature iff the same constraints bind.

    All n: the binding set of X is the rows (6) (always) plus, entry by entry, the constraints (4), (5) of that
    entry and the non-negativity of its two variables (every x_ij lies in some entry).  So it suffices that each
    symbol fixes its entry's binding set (checked by z3 for symbolic alpha, nonlinear but tiny) and that
    different symbols give different sets."""
    rec = Findings("grs2011.lemma5.4")
    label = "symbolic alpha in (0,1]" if alpha_max_inclusive else SYMBOLIC_ALPHA
    with rec.deciding(
        n=None,
        alpha=label,
        kind=ALL_N,
        method="z3 nonlinear unsat per signature symbol and constraint",
        covers="every entry of every feasible mechanism, every n",
    ) as d:
        table, cex, witnesses = entry_binding_table(alpha_max_inclusive, ctx.solver_timeout)
        rec.value(**witnesses)
        if table is None:
            d.counterexample(cex)
        else:
            same = [(s, t) for s, t in itertools.combinations(table, 2) if table[s] == table[t]]
            if same:
                s, t = same[0]
                d.counterexample(f"symbols {s} and {t} have the same binding set {sorted(table[s])}")
            rec.value(**{f"binding set of {s}": ", ".join(sorted(b)) or "none" for s, b in table.items()})
    rec.note("entrywise: each symbol fixes a distinct local binding set, z3 unsat for symbolic alpha")
    return rec
