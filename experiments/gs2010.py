"""gs2010 (minimax agents): regenerate each printed table and example and diff it."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from experiments.grs2011 import combine
from udpm import linalg
from udpm.certificates import certificate_of
from udpm.certify import solve
from udpm.claims import UNCLASSIFIED, Context, Erratum, Evidence, Result, Scope, Status, checks
from udpm.mechanisms import geometric_pmf, geometric_tail, truncated_geometric
from udpm.privacy import dp_violations
from udpm.programs_minimax import matrix_of, optimal_interaction_lp, optimal_mechanism_lp
from udpm.remaps import derive
from udpm.tables import classify_approximations, parse_exact, printed, printed_matches, table_result
from udpm.users import MinimaxUser, absolute_error

HALF = Fraction(1, 2)


def three_term(x1: Fraction, x2: Fraction, x3: Fraction, a: Fraction) -> Fraction:
    """gs2010 Theorem 2's quantity (1 + a^2) x2 - a (x1 + x3); derivable needs it >= 0."""
    return (1 + a * a) * x2 - a * (x1 + x3)


@checks("gs2010.appB")
def appendix_b(ctx: Context, m: list[list[Fraction]] | None = None) -> Result:
    """gs2010 Appendix B: the printed 4x4 M is 1/2-DP, not derivable from G_{3,1/2}, and the
    three-term value at M(0,1), M(1,1), M(2,1) is -0.75/9."""
    item = printed("gs2010", "appB")
    if m is None:
        m = [[parse_exact(s) for s in row] for row in item.values]
    scope = Scope.of(3, [HALF])
    violations = dp_violations(m, HALF)
    y = derive(m, truncated_geometric(3, HALF))
    col = [m[i][1] for i in range(4)]
    value = three_term(col[0], col[1], col[2], HALF)
    values = {
        "dp_violations": str(len(violations)),
        "G^-1 M": linalg.fmt_matrix(y.remap),
        "negative entries of G^-1 M": ", ".join(f"[{r}][{j}]={v}" for r, j, v in y.negative_entries),
        "three-term at column 1, rows 0-2": str(value),
    }
    if violations:
        return Result(Status.REFUTED, scope=scope, values=values, counterexample=f"M is not 1/2-DP: {violations[0]}")
    if y.stochastic:
        return Result(Status.REFUTED, scope=scope, values=values, counterexample="G^-1 M is stochastic: M is derivable")
    text = printed("gs2010", "appB.three-term")
    res = table_result(item, m, values, scope)
    if not printed_matches(text.values, value):
        res.status = Status.ERRATUM
        res.errata.append(Erratum(text.where, text.values, str(value), "unclassified", "three-term value differs"))
    return res


# ---------------------------------------------------------------- Table 1

QUARTER = Fraction(1, 4)


@checks("gs2010.table1")
def table_1(ctx: Context, alpha: Fraction = QUARTER, side_information: tuple = (0, 1, 2, 3),
            loss: Callable = absolute_error) -> Result:
    """gs2010 Table 1: for n = 3, a = 1/4, loss |i-r| and S = {0..3}, (a) is the optimal minimax
    mechanism, (b) is G_{3,a}, (c) the consumer's optimal interaction, and (a) = (b)(c)."""
    n = 3
    user = MinimaxUser.of(side_information, loss(n))
    scope = Scope.of(n, [alpha])
    lp = optimal_mechanism_lp(user, alpha)
    cert = solve(lp, timeout_s=ctx.solver_timeout)
    x_opt = matrix_of(lp.names, cert.x, n + 1)
    g = truncated_geometric(n, alpha)
    inner = [[v * (1 + alpha) / (1 - alpha) for v in row] for row in g]  # G without its scalar (1-a)/(1+a)
    y = derive(x_opt, g)
    ilp = optimal_interaction_lp(user, g)
    icert = solve(ilp, timeout_s=ctx.solver_timeout)
    c_opt = y.remap
    items = {k: printed("gs2010", k) for k in ("table1a", "table1b", "table1b.alpha", "table1b.scalar", "table1c")}
    pa, pb, pc = (parse_rows(items[k].values) for k in ("table1a", "table1b", "table1c"))
    pc = [[Fraction(0) if v is None and s.split()[0] == "0" else v for v, s in zip(r, rs)]
          for r, rs in zip(pc, items["table1c"].values)]  # '0 7' is the entry 0 and a bracket
    pbc = linalg.matmul([[v * (1 - alpha) / (1 + alpha) for v in row] for row in pb], pc) if _complete(pb, pc) else None
    values = {
        "optimal mechanism X* (certified)": linalg.fmt_matrix(x_opt),
        "optimal worst-case loss": str(cert.objective),
        "X* unique": str(cert.unique),
        "G_{3,a}": linalg.fmt_matrix(g),
        "interaction C* = G^-1 X*": linalg.fmt_matrix(c_opt),
        "C* stochastic": str(y.stochastic),
        "G C* = X*": str(linalg.matmul(g, c_opt) == x_opt),
        "best interaction with G: worst-case loss (certified)": str(icert.objective),
        "best interaction unique": str(icert.unique),
        "row sums of printed (a)": str([str(sum(r)) for r in pa]) if all(v is not None for r in pa for v in r) else "",
        "(3/5 printed (b)) (printed (c))": linalg.fmt_matrix(pbc) if pbc else "not computable (damaged entry)",
        "printed (a) = (3/5 printed (b)) (printed (c))": str(pbc == pa),
    }
    if not y.stochastic or linalg.matmul(g, c_opt) != x_opt:
        return Result(Status.REFUTED, Evidence.TABLE, scope, values,
                      counterexample=f"the optimal mechanism {linalg.fmt_matrix(x_opt)} is not derivable from G: "
                      f"G^-1 X* has negative entries {y.negative_entries}")
    if icert.objective != cert.objective:
        return Result(Status.REFUTED, Evidence.TABLE, scope, values,
                      counterexample=f"the best interaction with G has loss {icert.objective} > {cert.objective}")
    parts = [
        classify_approximations(table_result(items["table1a"], x_opt, {}), " of the certified unique optimum"),
        table_result(items["table1b"], inner, {}),
        table_result(items["table1b.alpha"], alpha, {}),
        table_result(items["table1b.scalar"], linalg.fmt((1 - alpha) / (1 + alpha)), {}),
        classify_approximations(table_result(items["table1c"], c_opt, {}), " of the unique optimal interaction"),
    ]
    res = combine(parts, values, scope)
    res.certificate = certificate_of(
        {"mechanism": cert.summary(), "interaction": icert.summary()},
        [("gs2010 Table 1(a): optimal-mechanism LP", cert), ("gs2010 Table 1(c): optimal-interaction LP", icert)],
    )
    res.notes = ("(a) and (c) print small-denominator approximations of the exact X*, C* (rule: closest fraction "
                 "with the printed denominator or less); (b) is (1+a)/(1-a) G_{3,1/4}, its scalar 3/5 missing and "
                 "its label saying alpha = 1/2; exactly, G C* = X* and C* is the certified best interaction")
    return res


def parse_rows(rows: list[list[str]]) -> list[list[Fraction | None]]:
    return [[parse_exact(s) for s in row] for row in rows]


def _complete(*ms: list[list[Fraction | None]]) -> bool:
    return all(v is not None for m in ms for row in m for v in row)


# ---------------------------------------------------------------- Figure 1

FIG1_WINDOW = range(0, 11)


def figure_1_values(alpha: Fraction = Fraction(1, 5), result: int = 5) -> dict[int, Fraction]:
    """Pr[output = r] of the alpha-geometric mechanism at query result ``result``, r in FIG1_WINDOW."""
    return {r: geometric_pmf(r - result, alpha) for r in FIG1_WINDOW}


@checks("gs2010.fig1")
def figure_1(ctx: Context, alpha: Fraction = Fraction(1, 5), result: int = 5) -> Result:
    """gs2010 Figure 1: the output distribution of the geometric mechanism for alpha = 0.2 and
    query result 5 (regenerated exactly; the printed figure keeps only its parameters)."""
    item = printed("gs2010", "fig1")
    pmf = figure_1_values(alpha, result)
    mass_window = sum(pmf.values(), Fraction(0))
    tail_low = geometric_tail(result - min(FIG1_WINDOW) + 1, alpha)  # Pr[output < min window]
    tail_high = geometric_tail(max(FIG1_WINDOW) - result + 1, alpha)  # Pr[output > max window]
    values = {f"Pr[output = {r}]": str(p) for r, p in pmf.items()}
    values["mass outside outputs 0..10"] = str(tail_low + tail_high)
    values["mode"] = str(max(pmf, key=lambda r: pmf[r]))
    if mass_window + tail_low + tail_high != 1:
        return Result(Status.REFUTED, Evidence.TABLE, Scope.of(None, [alpha]), values,
                      counterexample=f"the pmf does not sum to 1: {mass_window + tail_low + tail_high}")
    # The caption's parameters are exact: "0.2" is 1/5, not a rounded value.
    errata = [
        Erratum(f"{item.where}[{k}]", text, str(value), UNCLASSIFIED, f"the figure is drawn for {name} = {value}")
        for k, (text, value, name) in enumerate(zip(item.values, (alpha, result), ("alpha", "query result")))
        if Fraction(text) != value
    ]
    res = Result(Status.ERRATUM if errata else Status.REPRODUCED, Evidence.TABLE, Scope.of(None, [alpha]), values,
                 errata=errata, counterexample=f"printed {errata[0].printed}, regenerated {errata[0].correct}"
                 if errata else None)
    res.notes = "the PNG paper_tables/figures/gs2010_fig1.png plots these exact values (experiments.figures)"
    return res
