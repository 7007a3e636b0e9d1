"""proofs/countrange*.py: the zlcn2013 impossibility results hold, and each false variant is refuted."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
import sympy as sp

from proofs.countrange import alpha as ca
from proofs.countrange import databases as cdb
from proofs.countrange import derivation as cd
from proofs.countrange import lemma1 as c1
from proofs.countrange import lemma2 as c
from proofs.countrange import lemma3 as c3
from proofs.countrange import lemma3_formulas as cfm
from proofs.countrange import optimum_consumers as coc
from proofs.countrange import printed_consumers as pc
from proofs.countrange import theorem3 as t3
from proofs.countrange import vectors as cv
from udpm.claims.instances import ALL_N, BOUNDED, TABLE, Outcome
from udpm.claims.registry import Context, Status, restrict
from udpm.core.users import is_legal_function
from udpm.errors import ExpectationsError, InvalidAlpha, VacuousPremise

CTX = Context()


def grid(rec, kind=BOUNDED, region=None):
    """{alpha label: sorted n decided} of one kind (in one region of the printed class, or all)."""
    out: dict[str, list] = {}
    for d in rec.decided(kind):
        if region is None or d.instance.region == region:
            out.setdefault(d.instance.alpha, []).append(d.instance.n)
    return {k: sorted(set(v)) for k, v in out.items()}


ZL = [ca.zlcn_label(a) for a in ca.ZLCN_ALPHAS]


def test_labels_are_zlcn_with_the_internal_value():
    assert ca.zlcn_label(F(2)) == "zlcn alpha=2 (internal 1/2)" and ca.zlcn_label(ca.SYMBOLIC) == ca.SYMBOLIC


def refuted_in(rec, region):
    return [d for d in rec.decided(outcome=Outcome.COUNTEREXAMPLE) if d.instance.region == region]


def test_lemma1_grid_bounded_not_all_n():
    # non-zero columns: holds, every alpha; zero columns (in the printed class): the conclusion fails there
    rec = c1.lemma1(CTX)
    assert rec.status is Status.REFUTED and not rec.decided(ALL_N)
    assert not refuted_in(rec, c1.NONZERO_COLUMNS)
    assert grid(rec, region=c1.NONZERO_COLUMNS) == {**{a: [1] for a in ZL}, ca.SYMBOLIC: [1, 3]}
    assert len(refuted_in(rec, c1.ZERO_COLUMNS)) == len(ZL) + 1
    assert "asks t_2 = 0 and t_2 = 1" in rec.counterexample
    assert rec.values["premise witness at zlcn alpha=2 (internal 1/2)"].startswith("t_0=0: p0=2/3")


def test_lemma1_zero_column_read_with_0_over_0_equal_1_also_fails():
    cex, witness = c1.zero_column_counterexample(ca.SYMBOLIC, 10, reading="0/0=1")
    assert cex and "neither alpha nor 1/alpha" in cex and witness.startswith("a=1/2")
    with pytest.raises(ExpectationsError, match="reading"):
        c1.zero_column_counterexample(F(2), 10, reading="undefined")


def test_lemma2_proved_n3_every_alpha_and_symbolic():
    """Stated at n = 3 only: every m by the reduction's decided steps, every alpha > 1 by the symbolic unsat."""
    rec = c.lemma2(CTX)
    assert rec.status is Status.PROVED, rec.counterexample
    assert grid(rec) == {a: [3] for a in ZL} and grid(rec, ALL_N) == {ca.SYMBOLIC: [3]}
    assert rec.values["every-m reduction, steps failing"] == "none"
    assert rec.values[f"premise witness at {ca.SYMBOLIC}"].startswith("a=1/2, m_0_00=1")


def test_thm3_grid_is_what_ran():
    # the paper's n = 3 at every alpha and symbolically; general n only at the first three zlcn alphas
    # the sketch's printed tables, relations and vectors are table instances; the array's extraction damage
    # (declared in paper_tables/printed/zlcn2013.json) makes the claim an erratum
    rec = t3.thm3(CTX, n_max=4)
    assert rec.status is Status.ERRATUM and not rec.counterexample, rec.counterexample
    assert {e.cls for e in rec.errata} == {"extraction damage"}
    co = cdb.CO_REGION
    assert grid(rec, region=co) == {**{a: [3, 4] for a in ZL[:3]}, **{a: [3] for a in ZL[3:]}, ca.SYMBOLIC: [3]}
    assert grid(rec, TABLE) == grid(rec, TABLE, co) == {ca.SYMBOLIC: [3]}
    # joint mechanisms on databases: the reduction's facts at n = 1..4, the transfer and conclusion at n = 3, 4
    db = grid(rec, region=cdb.DB_REGION)
    assert db == {ca.SYMBOLIC: [1, 2, 3, 4], **{a: [3, 4] for a in ZL[:2]}}  # quick: two alphas


def test_lemma3_grid_is_what_ran():
    # as printed (theta2 = n and theta1 = 0 are count-range queries) it fails; the paper's proof's class holds
    rec = c3.lemma3(CTX, n_max=4)
    assert rec.status is Status.REFUTED and "theta=(1, 3)" in rec.counterexample
    inner = restrict("zlcn2013.lemma3.corrected", rec)
    assert inner.claim == "zlcn2013.lemma3.corrected"
    assert inner.status is Status.VERIFIED, inner.counterexample
    assert grid(inner) == {a: [3, 4] for a in [*ZL, ca.SYMBOLIC]}
    assert rec.values["Lemma 3 entries in (0, 1)"].startswith("yes: smallest exponent 0")


def test_thm2_grid_is_what_ran():
    # the generic statement holds; read for each query, <p, 1, 3> at n = 3 has a universal mechanism
    each = c3.thm2_each_query(CTX, n_max=4)
    assert each.status is Status.REFUTED and "universally utility maximizing for it" in each.counterexample
    generic = c3.thm2(CTX, n_max=4)
    assert generic.status is Status.VERIFIED, generic.counterexample
    assert grid(generic, region=cdb.CO_REGION) == {a: [3, 4] for a in ZL[:5]}
    # quick: two alphas on databases
    assert grid(generic, region=cdb.DB_REGION) == {ca.SYMBOLIC: [1, 2, 3, 4], **{a: [3, 4] for a in ZL[:2]}}
    assert not refuted_in(each, cdb.DB_REGION) and refuted_in(each, cdb.CO_REGION)


def test_a_contradictory_premise_fires_the_vacuity_guard(monkeypatch):
    real = cd.dp_column

    def contradictory(col, a):
        return [*real(col, a), col[0] < 0]  # and col[0] >= 0

    for module in (c1, c, cd):  # lemma1's own query, lemma2's reduction steps and its derivation problem
        monkeypatch.setattr(module, "dp_column", contradictory)
    for fn in (c1.lemma1, c.lemma2):
        with pytest.raises(VacuousPremise, match="no model"):
            fn(CTX)


def test_a_contradictory_legality_premise_fires_the_vacuity_guard(monkeypatch):
    # sum phi >= 1 and -sum phi >= 0: no legal function at all
    monkeypatch.setattr(coc, "legal_constraints", lambda n, a: [([F(1)] * (n + 1), F(1)), ([F(-1)] * (n + 1), F(0))])
    with pytest.raises(VacuousPremise):
        pc.paper_rho_check(10)


def test_lemma1_with_another_target_is_refuted():
    # refuted on the non-zero columns, where the printed lemma holds
    res = c1.lemma1(CTX, target=lambda a: [F(1, 2), F(1, 2)])
    bad = refuted_in(res, c1.NONZERO_COLUMNS)
    assert res.status is Status.REFUTED and bad and "not tight" in bad[0].detail and "zlcn alpha=2" in bad[0].detail


def test_lemma1_with_flipped_transformation_is_refuted():
    res = c1.lemma1(CTX, flip=True)
    bad = refuted_in(res, c1.NONZERO_COLUMNS)
    assert res.status is Status.REFUTED and bad and "(p_j, q_j, t_j)" in bad[0].detail


def test_lemma2_when_both_consumers_want_x_hat_is_refuted():
    res = c.lemma2(CTX, y=cv.xhat)
    assert res.status is Status.REFUTED and "the DP matrix" in res.counterexample


def test_thm3_with_only_two_counts_is_refuted():
    res = t3.thm3(CTX, rows=(0, 1), n_max=3)
    assert res.status is Status.REFUTED and "counts [0, 1]" in res.counterexample


def test_lemma3_with_an_off_by_one_exponent_is_refuted():
    # the paper's 1/(A^(j-k-2)(A+1)) misread as 1/(A^(j-k-1)(A+1)): in a = 1/A, a^(j-k)/(a+1) for j >= k+1
    def x_wrong(n, t1, t2, a):
        k = cv.lemma3_k(t1, t2)
        return [a ** (k - i) / (a + 1) if i <= k else a ** (i - k) / (a + 1) for i in range(n + 1)]

    res = c3.lemma3(CTX, xf=x_wrong, n_max=4, boundary=lambda n: [])
    assert res.status is Status.REFUTED and "n=3, theta=(1, 2)" in res.counterexample


def test_thm2_with_equal_consumers_is_refuted():
    res = c3.thm2(CTX, yf=cv.lemma3_x, n_max=4, boundary=c3.count_range_thetas)
    assert res.status is Status.REFUTED and "theta=(1, 2)" in res.counterexample


def test_derivation_of_both_is_found_when_it_exists():
    # The same vector twice is derived by any matrix with a 0/1 column split; the checker must find it.
    assert cd.derivation([cv.xhat, cv.xhat], F(3), 10)[0] is not None
    assert cd.derivation([cv.xhat, cv.yhat], F(3), 10)[0] is None


def test_consumer_certificate_is_unique_and_found_for_x_hat():
    a = ca.internal(F(2))  # zlcn alpha = 2
    consumer, why = coc.unique_optimum_consumer(3, (1, 2), cv.xhat(a), a, 10)
    assert consumer is not None, why
    assert coc.is_unique_optimum(consumer, cv.xhat(a), a, 10)
    assert not coc.is_unique_optimum(consumer, cv.yhat(a), a, 10)
    # a legal function that is not a vertex is the unique optimum of nobody
    consumer, why = coc.unique_optimum_consumer(3, (1, 2), [F(1, 2)] * 4, a, 10)
    assert consumer is None and "not a vertex" in why


def test_latex_of_the_printed_vectors():
    # printed 1/((alpha+1) alpha) in zlcn's alpha is a^2/(a+1) in the internal a = 1/alpha
    assert sp.simplify(cv.printed_vector("yhat")[0] - ca.a_sym**2 / (ca.a_sym + 1)) == 0
    assert [sp.simplify(u - v) for u, v in zip(cv.printed_vector("xhat"), cv.xhat(ca.a_sym))] == [0] * 4


def test_concrete_alphas_enter_through_the_one_conversion():
    assert ca.internal(F(2)) == F(1, 2) and cv.xhat(ca.internal(F(2))) == [F(1, 3), F(2, 3), F(2, 3), F(1, 3)]
    # the DP constraint is the internal one: a x <= y <= x / a
    assert is_legal_function(cv.xhat(F(1, 2)), F(2))
    with pytest.raises(InvalidAlpha, match="alpha"):
        ca.internal(F(1, 2))


def test_a_wrong_alpha_is_refuted():
    # x-hat and y-hat taken at a = 1/3 while the DP constraint uses zlcn alpha = 2 (a = 1/2): x-hat alone is then
    # not legal, and Lemma 3's instance check reports it with the zlcn label.
    fail, _ = c3.lemma3_instance(
        3, (1, 2), F(2), 10, xf=lambda n, t1, t2, a: cv.lemma3_x(n, t1, t2, a * a), yf=cv.lemma3_y
    )
    assert fail and "zlcn alpha=2" in fail and "not a legal function" in fail


def test_symbolic_counterexample_names_the_internal_alpha():
    cex, _ = cd.derivation([cv.xhat, cv.xhat], ca.SYMBOLIC, 10)
    assert cex is not None and cex.startswith("internal a=")


def test_internal_lemma3_formulas_must_be_the_papers(monkeypatch):
    assert cfm.lemma3_formula_facts()["Lemma 3 symbolic x_(k-1), x_k, x_(k+1), x_(k+2)"].startswith("a/(a + 1)")
    wrong = {**cv.INTERNAL_LEMMA3, "y, i <= k": lambda k, i, a: a ** (k - i) / (a + 1)}  # y's exponent off by one
    monkeypatch.setattr(cfm, "INTERNAL_LEMMA3", wrong)
    with pytest.raises(ExpectationsError, match="y, i <= k"):
        cfm.lemma3_formula_facts()
