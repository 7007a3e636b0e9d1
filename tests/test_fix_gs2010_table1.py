"""gs2010 Table 1 (experiments/gs2010.py): each property is decided on the tables as printed and, separately, on the
corrected tables; a printed (a) equal to the certified optimum passes the as-printed checks, the printed one fails."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from experiments import gs2010 as ex10
from udpm.claims import tables
from udpm.claims.instances import Outcome
from udpm.claims.registry import Context, Status

CTX = Context()
X_STAR = "optimal mechanism X* (certified)"


def _outcomes(res, prefix):
    return {d.instance.covers: d.outcome for d in res.decisions if d.instance.covers.startswith(prefix)}


def test_printed_tables_fail_as_printed_and_corrected_tables_hold():
    res = ex10.table_1(CTX)
    printed = _outcomes(res, "Table 1(a) as printed") | _outcomes(res, "Table 1 as printed")
    assert set(printed.values()) == {Outcome.COUNTEREXAMPLE}
    assert printed["Table 1(a) as printed is 1/4-DP"] is Outcome.COUNTEREXAMPLE
    corrected = _outcomes(res, "Table 1(a) corrected") | _outcomes(res, "Table 1 corrected")
    assert corrected and set(corrected.values()) == {Outcome.HOLDS}
    assert res.status is Status.REFUTED and "as printed" in res.counterexample


def test_an_exact_printed_a_passes_as_printed():
    exact = ex10.table_1(CTX).values[X_STAR]
    rows = [[str(Fraction(v)) for v in row.strip("[]").split(", ")] for row in exact[1:-1].split("], [")]

    def source(p, k):
        item = tables.printed(p, k)
        return dataclasses.replace(item, values=rows) if k == "table1a" else item

    res = ex10.table_1(CTX, source=source)
    a = _outcomes(res, "Table 1(a) as printed")
    assert a and set(a.values()) == {Outcome.HOLDS}
    assert _outcomes(res, "Table 1 as printed")["Table 1 as printed: (a) = (b)(c)"] is Outcome.COUNTEREXAMPLE


def test_a_wrong_alpha_refutes_the_corrected_tables():
    res = ex10.table_1(CTX, alpha=Fraction(1, 2))
    corrected = _outcomes(res, "Table 1(a) corrected") | _outcomes(res, "Table 1 corrected")
    assert Outcome.COUNTEREXAMPLE in corrected.values()
