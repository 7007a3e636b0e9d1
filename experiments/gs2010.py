"""gs2010 (minimax agents): regenerate each printed table and example and diff it."""

from __future__ import annotations

from fractions import Fraction

from udpm import linalg
from udpm.claims import Context, Erratum, Result, Scope, Status, checks
from udpm.mechanisms import truncated_geometric
from udpm.privacy import dp_violations
from udpm.remaps import derive
from udpm.tables import parse_exact, printed, printed_matches, table_result

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
