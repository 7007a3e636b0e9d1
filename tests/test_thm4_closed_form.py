"""zlcn2013 Theorem 4's worst ratio as exact rational functions of alpha: the parametric basis, its proved interval,
and false closed forms (a wrong rational function, a basis claimed beyond its interval) refuted at a concrete A."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp

from proofs.countrange import approximation_ratio as ar
from proofs.countrange import closed_forms as cf
from proofs.countrange import legal_lp as cr
from proofs.countrange import worst_ratio as wr
from udpm.claims.registry import Context

CTX = Context()
A = cr.AS
GOLDEN = (1 + sp.sqrt(5)) / 2


def test_n3_middle_range_two_pieces_meeting_at_the_golden_ratio():
    low = cf.parametric_ratio(3, 1, 2, Fraction(101, 100), CTX)
    high = cf.parametric_ratio(3, 1, 2, Fraction(10), CTX)
    assert sp.simplify(low["r"] - A * (A**2 + A + 1) / (A**3 + A + 1)) == 0
    assert sp.simplify(high["r"] - 2 * A / (A + 1)) == 0
    L1, U1, ends1 = cf.stable_interval(low["conditions"], Fraction(101, 100))
    L2, U2, ends2 = cf.stable_interval(high["conditions"], Fraction(10))
    assert L1 == 1 and U2 is None and "A**2 - A - 1" in ends1 and "A**2 - A - 1" in ends2
    assert U1 < GOLDEN < L2 and L2 - U1 < 2 * cf.EPS_ROOT  # both ends within EPS_ROOT of the golden ratio
    assert sp.simplify(low["r"].subs(A, GOLDEN) - high["r"].subs(A, GOLDEN)) == 0  # continuous there
    # off the grid, inside each proved interval, the exact worst ratio is the closed form
    assert cf.refute_closed_form(3, 1, 2, low["r"], low["conditions"], L1, U1, CTX, points=(Fraction(13, 10),)) is None
    assert cf.refute_closed_form(3, 1, 2, high["r"], high["conditions"], L2, U2, CTX, points=(Fraction(7, 3),)) is None


def test_wrong_rational_function_is_refuted_at_a_concrete_alpha():
    pr = cf.parametric_ratio(3, 1, 2, Fraction(10), CTX)
    L, U, _ = cf.stable_interval(pr["conditions"], Fraction(10))
    bad = cf.refute_closed_form(3, 1, 2, 2 * A / (A + 2), pr["conditions"], L, U, CTX)
    assert bad and "exact worst ratio is" in bad and "zlcn alpha A = " in bad
    witness = Fraction(bad.split("A = ")[1].split(":")[0])
    assert wr.worst_ratio(3, witness, 1, 2, CTX)[0] != 2 * witness / (witness + 2)


def test_basis_claimed_beyond_its_interval_is_refuted():
    """The basis of 2A/(A+1) is not optimal below the golden ratio: claimed on [101/100, inf) it fails at 101/100."""
    pr = cf.parametric_ratio(3, 1, 2, Fraction(10), CTX)
    bad = cf.refute_closed_form(3, 1, 2, pr["r"], pr["conditions"], Fraction(101, 100), None, CTX)
    assert bad and bad.startswith("at zlcn alpha A = 101/100") and "< 0" in bad


def test_stable_interval_stops_at_a_sign_change():
    cond = [("A >= 3", cf.KA.from_sympy(A - 3)), ("5 - A >= 0", cf.KA.from_sympy(5 - A))]
    L, U, ends = cf.stable_interval(cond, Fraction(4))
    assert 3 <= L < 4 < U <= 5 and "A - 3" in ends and "A - 5" in ends
    # a condition negative on one side of A0 (a root at A0 itself) drops that side
    L, U, _ = cf.stable_interval([("A - 4 >= 0", cf.KA.from_sympy(A - 4))], Fraction(4))
    assert L == 4 and U is None


def test_claim_records_the_closed_forms():
    rec = ar.two_approximation(CTX)
    pieces = json.loads(rec.values["closed form n=3 theta=1,2"])
    assert [p["r(A)"] for p in pieces] == ["A*(A**2 + A + 1)/(A**3 + A + 1)", "2*A/(A + 1)"]
    assert pieces[0]["proved"][0].startswith("(1, ") and pieces[1]["proved"][0].endswith(", inf)")
    assert all(not p["differs_at"] for p in pieces)
    assert pieces[1]["equals_exact_at"] == ["2", "100"]


def test_closed_form_above_the_exact_ratio_is_a_harness_error(monkeypatch):
    real = cf.parametric_ratio

    def inflated(*args, **kw):
        out = real(*args, **kw)
        return {**out, "r": out["r"] * 2}

    monkeypatch.setattr(cf, "parametric_ratio", inflated)
    exact = {A: wr.worst_ratio(3, A, 1, 2, CTX) for A in (Fraction(2), Fraction(10))}
    with pytest.raises(AssertionError, match="exceeds the exact ratio"):
        cf.closed_forms(3, 1, 2, exact, CTX)
