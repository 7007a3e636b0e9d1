"""zlcn2013 Theorem 3 (Section 3.3, n = 3): no DP joint mechanism has the marginals x-hat and y-hat.

The theorem for every zlcn alpha > 1 on count-oriented joint mechanisms, beyond the paper for Lemma 3's x and y
at general n, and on joint mechanisms over databases (proofs/countrange/lemma3.py); and the printed objects of
its proof sketch (paper_tables/printed/zlcn2013.json: the two tables of t_(mu,i,j), the displayed relations
t_1 = alpha t_0, ..., t_0 <= 1/(alpha + 1)^2, and the x-hat, y-hat and rho it rests on) compared as table
instances of zlcn2013.thm3.  Lemma 2 (the same vectors derived by one matrix) is proofs/countrange/lemma2.py.

Symbolic alpha: each z3 problem here is also decided with a a z3 real variable, 0 < a < 1 (nonlinear real
arithmetic, decided by z3's nlsat); unsat there is a proof for every zlcn alpha = 1/a > 1.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction

import sympy as sp
import z3

from proofs.countrange.alpha import A_SYM, SYMBOLIC, ZLCN_ALPHAS, Alpha, a_sym, label
from proofs.countrange.chain import Chain, paper_chain
from proofs.countrange.databases import CO_REGION, DATABASES_NOTE, decide_databases
from proofs.countrange.derivation import (
    JOINT,
    alphas_for,
    at_model,
    derivation,
    derivation_problem,
    pin_alpha,
    premises_hold,
)
from proofs.countrange.legal_lp import lp_optimum
from proofs.countrange.lemma2 import declared_errata
from proofs.countrange.lemma3 import count_range_thetas, decide_general
from proofs.countrange.printed_consumers import (
    PRINTED_CONSUMERS,
    cleared,
    paper_rho,
    printed_optimum_failure,
    printed_rho_weights,
    z3_of,
)
from proofs.countrange.vectors import Vector, lemma3_x, lemma3_y, printed_internal, xhat, yhat
from udpm.claims.instances import BOUNDED, TABLE
from udpm.claims.registry import Context, Findings, checks
from udpm.claims.tables import PRINTED, printed
from udpm.core.users import CountRangeConsumer
from udpm.errors import ExpectationsError
from udpm.smt.solvers import decide, model_value

F = Fraction


def printed_extra(key: str, field: str) -> object:
    """A field of a printed item beside its values (thm3.tables' "raw"), verbatim from
    paper_tables/printed/zlcn2013.json."""
    data = json.loads((PRINTED / "zlcn2013.json").read_text(encoding="utf-8"))
    return data["items"][key][field]


def _array_rows(raw: str) -> list[tuple[str, list[str]]]:
    """The body rows of a printed LaTeX array: (the row after its label, verbatim; its '&'-separated cells)."""
    body = raw.split("\\hline", 1)[1].rsplit("\\end{array}", 1)[0]
    rows = [row.split("&", 1)[1].strip() for row in body.split("\\\\") if "&" in row]
    return [(row, [c.strip() for c in row.split("&")]) for row in rows]


def forced_cell(mu: int, i: int, j: int, t: sp.Expr, x: Vector = xhat, y: Vector = yhat) -> sp.Expr:
    """The only value of Theorem 3's t_(mu,i,j) (internal a) when t_(mu,1,1) = t, the table sums to 1 and its
    marginals are x_mu (row i = 1) and y_mu (column j = 1)."""
    xm, ym = x(a_sym)[mu], y(a_sym)[mu]
    return {(1, 1): t, (1, 0): xm - t, (0, 1): ym - t, (0, 0): 1 - xm - ym + t}[(i, j)]


def thm3_tables_check(
    values: Sequence | None = None, raw: str | None = None
) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]]]:
    """zlcn2013 Theorem 3, proof sketch, the two printed tables of t_(mu,i,j) (item thm3.tables, cells in the
    order (mu, j) = (0,0), (0,1), (1,0), (1,1), (2,0), (2,1) per row i).

    Every cell is compared: in the first table cell (mu, i, j) is named t_{mu,i,j}; in the second, the sketch's
    "Let t_{mu,1,1} = t_mu" with total 1 and the marginals x-hat_mu (row i = 1) and y-hat_mu (column j = 1) fix
    every cell (:func:`forced_cell`), and each printed cell is that value identically in alpha and t_0, t_1, t_2.
    Returns (the (entry, printed, correct) of each cell that differs, correct in zlcn's alpha; the same for each
    row of the extracted array ``raw`` whose '&'-separated cells are not the 6 cells of the second table)."""
    values = printed("zlcn2013", "thm3.tables").values if values is None else values
    raw = printed_extra("thm3.tables", "raw") if raw is None else raw
    names, param = values
    ts = [sp.Symbol(f"t{mu}") for mu in range(3)]
    wrong = []
    for i in range(2):
        for mu in range(3):
            for j in range(2):
                c = 2 * mu + j
                name = f"t_{{{mu},{i},{j}}}"
                if names[i][c].replace(" ", "") != name:
                    wrong.append((f"[0][{i}][{c}]", names[i][c], name))
                want = forced_cell(mu, i, j, ts[mu])
                if sp.simplify(printed_internal(param[i][c], {str(t): t for t in ts}) - want) != 0:
                    zlcn = sp.factor(sp.together(want.subs(a_sym, 1 / A_SYM)), *ts)
                    wrong.append((f"[1][{i}][{c}]", param[i][c], str(zlcn)))
    rows = _array_rows(raw)
    damaged = [
        (f"[raw][{i}]", rows[i][0] if i < len(rows) else "", " & ".join(param[i]))
        for i in range(2)
        if i >= len(rows) or rows[i][1] != list(param[i])
    ]
    return wrong, damaged


_RELATION = re.compile(r"\\leq|\\geq|\\le\b|\\ge\b|<|>|=")
_OPS = {"\\leq": "<=", "\\le": "<=", "\\geq": ">=", "\\ge": ">=", "<": "<", ">": ">", "=": "="}


def relation_terms(text: str) -> tuple[list[sp.Expr], list[str]]:
    """A printed chain 'e0 op1 e1 op2 e2 ...' (ops =, \\leq, \\geq, <, >) as (terms in the internal a and
    t0, t1, t2; ops)."""
    ts = {f"t{i}": sp.Symbol(f"t{i}") for i in range(3)}
    ops = [_OPS[m] for m in _RELATION.findall(text)]
    terms = [printed_internal(part.strip(), ts) for part in _RELATION.split(text)]
    if not ops or len(terms) != len(ops) + 1:
        raise ExpectationsError(f"zlcn2013 thm3.bounds: {text!r} is not a chain of relations")
    return terms, ops


def relation_z3(text: str, names: dict[sp.Symbol, z3.ArithRef]) -> tuple[z3.BoolRef, list[z3.ArithRef]]:
    """The printed chain as one z3 conjunction of polynomial sign conditions (each side difference cleared of its
    positive denominator), and its terms."""
    terms, ops = relation_terms(text)
    rel = {"<=": lambda d: d <= 0, ">=": lambda d: d >= 0, "<": lambda d: d < 0, ">": lambda d: d > 0}
    rel["="] = lambda d: d == 0
    conj = [rel[op](z3_of(cleared(terms[k] - terms[k + 1]), names)) for k, op in enumerate(ops)]
    return z3.And(conj), [z3_of(sp.together(t), names) for t in terms]


#: zlcn2013 Theorem 3, proof sketch: what the sketch derives each relation of thm3.bounds (by position) from,
#: as (the blocks of neighbouring counts whose DP joint mechanism with the marginals x-hat, y-hat it uses, a block
#: of one count being that count's table alone; the positions of the earlier relations it cites).
#: [0] "By differential privacy, t_1 <= alpha t_0, and (1/(alpha+1) - t_1 <= alpha(...)) ... Therefore t_1 = alpha t_0"
#: [1] "Similarly, we can prove that t_2 = alpha t_1"
#: [2] "By differential privacy, t_0 + (alpha-1)/alpha <= alpha t_1 = alpha^2 t_0" (cells (0,0) of counts 0, 1)
#: [3] "Then, t_0 >= 1/(alpha(alpha + 1))"
#: [4] "By differential privacy, (alpha/(alpha+1) - t_1 <= alpha(...)). Since t_2 = alpha^2 t_0 and t_1 = alpha t_0,
#:     t_0 <= 1/(alpha + 1)^2": counts 1, 2, count 0's table, and t_1 = alpha t_0.
#: Counts 0, 1, 2 together have no DP joint mechanism (the theorem), so each step is decided on the counts it
#: uses, whose premises are shown satisfiable first.
BOUNDS_BASIS: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...] = (
    (((0, 1),), ()),
    (((1, 2),), ()),
    (((0, 1),), ()),
    (((0, 1),), ()),
    (((0,), (1, 2)), (0,)),
)


def marginals_cleared(mat, types, rows: Sequence[int], targets: Sequence[Vector], a: z3.ArithRef) -> list:
    """:func:`derivation_problem`'s goal (the joint mechanism's marginals are the targets), each equation times
    the positive denominator of its target entry, so that no division is left for the solvers."""
    out = []
    for r, i in enumerate(rows):
        for k, target in enumerate(targets):
            num, den = sp.fraction(sp.factor(sp.together(target(a_sym)[i])))
            if not den.is_positive:
                raise ExpectationsError(f"zlcn2013 Theorem 3: the denominator {den} of a target entry is not positive")
            total = z3.Sum([mat[r][c] for c, s in enumerate(types) if s[k] == 1])
            out.append(z3_of(sp.expand(den), {a_sym: a}) * total == z3_of(sp.expand(num), {a_sym: a}))
    return out


def bounds_failures(
    bounds: Sequence[str], x: Vector, y: Vector, alpha: Alpha, timeout_s: float
) -> tuple[list[tuple[int, str]], dict[str, str]]:
    """Each printed relation of Theorem 3's sketch (thm3.bounds) decided at ``alpha`` (SYMBOLIC: every zlcn
    alpha > 1, z3 nlsat) over the joint mechanism t_(mu,i,j) of :func:`derivation_problem` (m_mu_ij,
    t_mu = m_mu_11) on the counts :data:`BOUNDS_BASIS` names, with the relations it cites: the premises are
    shown satisfiable, then premises and not-relation is unsat.  Returns ([(position, where it fails)],
    {position: premise witness})."""
    if len(bounds) != len(BOUNDS_BASIS):
        raise ExpectationsError(f"zlcn2013 thm3.bounds: {len(bounds)} relations, the sketch displays 5")
    fails, witnesses = [], {}
    for k, (blocks, cites) in enumerate(BOUNDS_BASIS):
        premises: list = []
        for rows in blocks:
            pr, _, _, mat, types, a = derivation_problem([x, y], alpha, rows)
            premises += [*pr, *marginals_cleared(mat, types, rows, [x, y], a)]
        names = {a_sym: a, **{sp.Symbol(f"t{mu}"): z3.Real(f"m_{mu}_11") for mu in range(3)}}
        premises += [relation_z3(bounds[c], names)[0] for c in cites]
        pins = pin_alpha(alpha, a)
        witnesses[str(k)] = premises_hold(premises, pins, timeout_s, f"Theorem 3 sketch, relation {k}, {label(alpha)}")
        goal, terms = relation_z3(bounds[k], names)
        out = decide([*premises, z3.Not(goal)], timeout_s)
        if not out.unsat:
            m = out.model
            at = ", ".join(f"t{mu}={model_value(m, names[sp.Symbol(f't{mu}')])}" for mu in range(3))
            vals = " ; ".join(str(model_value(m, t)) for t in terms)
            fails.append(
                (
                    k,
                    f"{at_model(alpha, m, a)}, a DP joint mechanism on counts {list(blocks)} with {at}: the sides "
                    f"are {vals}",
                )
            )
    return fails, witnesses


def printed_vectors_check(
    ctx: Context, vectors: dict[str, Sequence[str]] | None = None, rho: Sequence[str] | None = None
) -> list[tuple[str, str, str, str]]:
    """zlcn2013 Sections 3.2.1-3.2.2 (repeated in Theorem 3's sketch): the printed x-hat is the only optimum of
    the consumer with uniform error penalty and prior, the printed y-hat that of uniform penalty and the printed
    rho, for every zlcn alpha > 1 (:func:`proofs.countrange.printed_consumers.printed_optimum_failure`; items xhat,
    yhat, rho, or ``vectors`` and ``rho``).  Returns (item key, printed, correct, where it fails) per failure, correct
    being the certified only optimum at zlcn alpha = 2."""
    texts = {k: list(printed("zlcn2013", k).values) for k in PRINTED_CONSUMERS}
    texts.update(vectors or {})
    weights = {"xhat": [sp.Integer(1)] * 4, "yhat": printed_rho_weights(rho)}
    rhos = {"xhat": [F(1, 4)] * 4, "yhat": paper_rho(F(1, 2), rho)}
    out = []
    for key, consumer in PRINTED_CONSUMERS.items():
        vec = [printed_internal(t) for t in texts[key]]
        why = printed_optimum_failure(vec, weights[key], ctx.solver_timeout)
        if why:
            c = CountRangeConsumer.of([1] * 4, rhos[key], 1, 2)
            _, cert, _ = lp_optimum(c, F(2), ctx)
            correct = f"at zlcn alpha=2 the only optimum is ({', '.join(map(str, cert.x))}) (unique={cert.unique})"
            out.append((key, ", ".join(texts[key]), correct, f"{consumer}: {why}"))
    return out


@checks("zlcn2013.thm3")
def thm3(
    ctx: Context,
    x: Vector = xhat,
    y: Vector = yhat,
    rows: tuple[int, ...] = (0, 1, 2),
    n_max: int | None = None,
    bounds: Sequence[str] | None = None,
    tables: Sequence | None = None,
    raw: str | None = None,
    vectors: dict[str, Sequence[str]] | None = None,
    rho: Sequence[str] | None = None,
    chain: Chain = paper_chain,
    db_n_max: int = 4,
) -> Findings:
    """zlcn2013 Theorem 3 (n = 3, theta = (1,2)): no DP joint mechanism t_(mu,i,j) on counts mu = 0, 1, 2 has the
    marginals x-hat (first consumer) and y-hat (second), for every zlcn alpha > 1; also, beyond the paper's n = 3,
    for Lemma 3's x and y at general n (a bounded cross-check at a few alphas).

    The proof sketch's printed objects are compared as table instances: its two tables (item thm3.tables, or
    ``tables``, and the extracted array ``raw``; :func:`thm3_tables_check`) and its displayed relations t_1 =
    alpha t_0, ..., t_0 <= 1/(alpha + 1)^2 (item thm3.bounds, or ``bounds``; :func:`bounds_failures`), each
    decided for every zlcn alpha > 1; and the x-hat and y-hat it repeats with the prior rho of Section 3.2.2
    (items xhat, yhat, rho, or ``vectors`` and ``rho``; :func:`printed_vectors_check`).  A printed relation that
    is false, a printed vector that is not the optimum, or an array row damaged in extraction is an erratum,
    classed as paper_tables/printed/zlcn2013.json declares it.

    The printed class has two parts (udpm/claims/statements/zlcn2013.toml): count-oriented joint mechanisms (everything
    above, region CO_REGION) and joint mechanisms on databases t_(tau,i,j) ("Then for all tau in D^n ... let
    t_(tau,i,j) be the probability of outputting i for the first consumer, and j for the second"; "This will be
    generalized later"), decided by :func:`proofs.countrange.databases.decide_databases` (region DB_REGION): a joint
    mechanism is a mechanism with the four outputs (i, j) and its marginals are derived by the transformations
    t = i, u = j, so the reduction through tau_0..tau_n and the conclusion on D^n are those of Theorem 2, with
    x-hat and y-hat at n = 3 (``x``, ``y``) and Lemma 3's x and y at n = 4..``db_n_max``; ``chain`` changes tau."""
    rec = Findings("zlcn2013.thm3")
    for al in alphas_for(ctx):
        with rec.deciding(
            n=3,
            alpha=label(al),
            kind=BOUNDED,
            method="z3 unsat",
            covers=f"{JOINT} with marginals x-hat, y-hat",
            region=CO_REGION,
            counts=",".join(map(str, rows)),
        ) as d:
            cex, witness = derivation([x, y], al, ctx.solver_timeout, rows)
            rec.value(**{f"premise witness at {label(al)}": witness})
            if cex:
                d.counterexample(f"counts {list(rows)}: {cex}")
    tab_item = printed("zlcn2013", "thm3.tables")
    wrong, damaged = thm3_tables_check(tables, raw)
    rec.errata.extend(declared_errata(tab_item, [*wrong, *damaged]))
    rec.decide(
        True,
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="sympy identity in alpha and t_0, t_1, t_2 per cell; the extracted array's '&' cells per row",
        covers=f"{tab_item.where} ({tab_item.key}): every cell of both tables (the second's fixed by t_(mu,1,1) = "
        "t_mu, total 1 and the marginals x-hat, y-hat) and the array as extracted ('raw')",
        region=CO_REGION,
        table="thm3.tables",
    )
    b_item = printed("zlcn2013", "thm3.bounds")
    b_values = list(b_item.values if bounds is None else bounds)
    with rec.deciding(
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="z3 unsat (nlsat, internal a a variable in (0, 1)) over the joint mechanism",
        covers=f"{b_item.where} ({b_item.key}): each printed relation on the counts and earlier relations the "
        "sketch derives it from (BOUNDS_BASIS), every zlcn alpha > 1",
        region=CO_REGION,
        table="thm3.bounds",
    ):
        fails, witnesses = bounds_failures(b_values, x, y, SYMBOLIC, ctx.solver_timeout)
        rec.value(**{f"thm3.bounds[{k}] premise witness": w for k, w in witnesses.items()})
        wrong = [(f"[{k}]", b_values[k], f"not implied ({why})") for k, why in fails]
        rec.errata.extend(declared_errata(b_item, wrong))
        # the sketch's "We have thus obtained a contradiction": the printed bounds [3] and [4] exclude each other
        a_z = z3.Real("a")
        lo, hi = (relation_terms(b_values[k])[0][-1] for k in (3, 4))
        apart = decide([a_z > 0, a_z < 1, z3_of(cleared(lo - hi), {a_sym: a_z}) <= 0], ctx.solver_timeout).unsat
        rec.value(**{"printed bounds [3], [4] contradict for every zlcn alpha > 1": "yes" if apart else "no"})
    with rec.deciding(
        n=3,
        alpha=SYMBOLIC,
        kind=TABLE,
        method="z3 unsat (nlsat, internal a a variable in (0, 1)), denominators cleared",
        covers="the printed x-hat, y-hat (repeated in the sketch) and rho (items xhat, yhat, rho): x-hat the only "
        "optimum for the uniform prior, y-hat for the printed rho, every zlcn alpha > 1",
        region=CO_REGION,
        table="xhat, yhat, rho",
    ):
        for key, text, correct, why in printed_vectors_check(ctx, vectors, rho):
            rec.errata.extend(declared_errata(printed("zlcn2013", key), [("value", text, f"{correct}; {why}")]))
    two, _ = derivation([x, y], F(2), ctx.solver_timeout, rows=(0, 1))
    rec.value(**{f"counts 0,1 alone ({label(F(2))})": "a joint mechanism exists" if two else "none"})
    n_max = n_max or (5 if ctx.quick else 8)
    general_alphas = ZLCN_ALPHAS[:3] if ctx.quick else ZLCN_ALPHAS
    count = decide_general(rec, range(3, n_max + 1), general_alphas, ctx.solver_timeout, region=CO_REGION)
    rec.value(**{"general n: (n, theta, alpha) instances with no joint mechanism": count})

    def xf(n, t1, t2, a):
        return x(a) if n == 3 else lemma3_x(n, t1, t2, a)

    def yf(n, t1, t2, a):
        return y(a) if n == 3 else lemma3_y(n, t1, t2, a)

    db_ns = range(3, min(n_max, db_n_max) + 1)
    db_alphas = general_alphas[:2] if ctx.quick else general_alphas[:3]
    db = decide_databases(
        rec, range(1, db_n_max + 1), db_ns, count_range_thetas, db_alphas, ctx.solver_timeout, xf, yf, chain
    )
    rec.value(**{"mechanisms on databases: instances": db})
    rec.note(
        f"the paper's n = 3 (counts {list(rows)}): every rational zlcn alpha and symbolic internal a in (0, 1); "
        f"beyond the paper, Lemma 3's x and y at n = 3..{n_max}, 1 <= theta1 < theta2 <= n-1, only at zlcn alphas "
        f"{', '.join(map(str, general_alphas))}; the sketch's printed tables, relations (each on the counts it "
        "uses, with the relations it cites) and the x-hat, y-hat, rho it rests on compared for every zlcn alpha > 1 "
        "as table instances. Joint mechanisms on databases (the outputs (i, j) as four columns, the marginals as the "
        "transformations i and j): "
        + DATABASES_NOTE
        + f" (n = {db_ns.start}..{db_ns.stop - 1}, x-hat and y-hat at n = 3, zlcn alphas "
        f"{', '.join(map(str, db_alphas))})"
    )
    return rec
