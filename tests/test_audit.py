"""The public API (udpm.auditing.questions, udpm.auditing.report, udpm.auditing.exact_inputs): exact answers,
the theorem's two directions with witnesses, one-line typed errors."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction as F

import numpy as np
import pytest

import udpm
from udpm.auditing import alpha_inputs, exact_inputs, optimum, questions, user_inputs
from udpm.auditing import report as audit_report
from udpm.auditing.alpha_inputs import IrrationalAlpha, alpha_from_eps
from udpm.auditing.exact_inputs import NotRationalizable, exact_matrix
from udpm.auditing.optimum import best_remap, optimal_for
from udpm.auditing.questions import derive, is_private, is_universally_optimal
from udpm.auditing.report import audit
from udpm.auditing.user_inputs import make_user
from udpm.core import linalg
from udpm.core.mechanisms import geometric_tail, geometric_window, truncated_geometric
from udpm.core.remaps import compose, deterministic_remap
from udpm.errors import InvalidAlpha, InvalidDistribution, InvalidInput, InvalidMatrix, NotStochastic
from udpm.lp.certificates import check_certificate


def lumped_geometric(n: int, a: F, k: int = 2) -> list[list[F]]:
    """The geometric mechanism on outputs -k..n+k, its two tails lumped: a remap of the geometric window."""
    w = geometric_window(n, a, -k, n + k)
    return [[geometric_tail(k + 1 + i, a), *w[i], geometric_tail(n + k + 1 - i, a)] for i in range(n + 1)]


def rr(n: int, beta: F) -> list[list[F]]:
    off = (1 - beta) / n
    return [[beta if i == j else off for j in range(n + 1)] for i in range(n + 1)]


def test_public_names_are_exported_from_udpm():
    homes = {
        questions: ("derive", "is_private", "is_universally_optimal"),
        optimum: ("optimal_for",),
        audit_report: ("audit", "AuditReport"),
        exact_inputs: ("exact_matrix", "rationalize", "NotRationalizable"),
        alpha_inputs: ("alpha_from_eps", "IrrationalAlpha"),
        user_inputs: ("make_user",),
    }
    for module, names in homes.items():
        for name in names:
            assert getattr(udpm, name) is getattr(module, name)
    # no module is named udpm.audit: udpm.audit is the function audit() (its module is udpm.auditing.report)
    assert udpm.audit is audit
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("udpm.audit")
    report = udpm.audit(truncated_geometric(1, F(1, 2)), "1/2", users="abs")
    assert isinstance(report, udpm.AuditReport) and report.universality
    with pytest.raises(AttributeError):
        udpm.no_such_name  # noqa: B018


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("a", [F(1, 3), F(1, 2), F(9, 10)])
def test_t_is_universally_optimal_with_the_identity_remap(n, a):
    u = is_universally_optimal(truncated_geometric(n, a), a)
    assert u and u.remap == linalg.identity(n + 1)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_the_geometric_window_remapped_is_universally_optimal(n):
    a = F(1, 2)
    t = truncated_geometric(n, a)
    split = [[r[0] / 3, 2 * r[0] / 3, *r[1:]] for r in t]
    permuted = compose(t, deterministic_remap([(j + 1) % (n + 1) for j in range(n + 1)], n + 1))
    for m in (lumped_geometric(n, a), split, permuted):
        u = is_universally_optimal(m, a)
        assert u, u.reason
        assert linalg.matmul(m, u.remap) == t  # the certificate: M·Y = T exactly, Y stochastic
        assert all(v >= 0 for r in u.remap for v in r) and all(sum(r) == 1 for r in u.remap)


def test_randomized_response_n1_more_private_is_dp_but_not_universally_optimal():
    # beta = 3/5 is 2/3-DP, so 1/2-DP; but T(1, 1/2) (beta = 2/3) is not a remap of it: a remap only loses accuracy
    m = rr(1, F(3, 5))
    assert is_private(m, F(1, 2)) and is_private(m, F(2, 3)) and not is_private(m, F(3, 4))
    u = is_universally_optimal(m, F(1, 2))
    assert not u and u.remap is None and "M is invertible" in u.reason
    w = u.witness_user
    assert w["label"] == "uniform prior, zero-one loss" and (w["mechanism_loss"], w["optimum"]) == ("2/5", "1/3")
    # the witness re-checked from scratch: M's best remap loses 2/5, the certified optimum is 1/3
    user = make_user(w["prior"], [[F(v) for v in r] for r in w["loss"]])
    assert best_remap(m, user)[0] == F(2, 5) and optimal_for(user, "1/2").loss == F(1, 3)
    check_certificate(w["certificate"])
    assert derive(from_=m, to=truncated_geometric(1, F(1, 2))) is None


@pytest.mark.parametrize("n", [2, 3])
def test_randomized_response_at_the_dp_boundary_is_not_universally_optimal(n):
    a = F(1, 2)
    m = rr(n, 1 / (1 + n * a))
    assert is_private(m, a)
    u = is_universally_optimal(m, a)
    assert not u and u.witness_user is not None
    assert F(u.witness_user["mechanism_loss"]) > F(u.witness_user["optimum"])


def test_a_singular_mechanism_gets_a_null_vector_as_its_certificate():
    a = F(1, 2)
    t = truncated_geometric(3, a)
    merged = compose(t, deterministic_remap([0, 0, 1, 2], 4))
    u = is_universally_optimal(merged, a)
    assert not u and u.method == "rank" and "z·M = 0" in u.reason
    z = u.null_vector
    assert any(z) and linalg.matmul([z], merged) == [[0] * 4] and linalg.matmul([z], t) != [[0] * 4]


def test_a_wide_full_rank_mechanism_without_remap_gets_a_certified_lp():
    a = F(1, 2)
    r4 = rr(3, F(2, 5))  # ratio 2: 1/2-DP
    wide = [[r[0], r[1], r[2] / 2, r[2] / 2, r[3]] for r in r4]
    u = is_universally_optimal(wide, a, witness=False)
    assert not u and u.method == "certified LP" and "certified LP" in u.reason and u.witness_status == "off"
    check_certificate(u.no_remap_certificate)
    assert F(u.no_remap_certificate["objective_value"][0]) > 0


def test_a_mechanism_that_is_not_dp_is_not_universally_optimal():
    u = is_universally_optimal([[1, 0], [0, 1]], "1/2")
    assert not u and u.violations and u.reason.startswith("M is not 1/2-DP")
    assert derive(from_=[[1, 0], [0, 1]], to=truncated_geometric(1, F(1, 2))) is not None  # derivable, yet not DP


def test_derive_reads_from_to_and_is_exact():
    t = truncated_geometric(2, F(1, 2))
    coarse = compose(t, deterministic_remap([0, 0, 1], 2))
    y = derive(from_=t, to=coarse)
    assert linalg.matmul(t, y) == coarse
    assert derive(from_=coarse, to=t) is None  # information lost cannot come back
    lump = lumped_geometric(2, F(1, 2))
    y = derive(from_=lump, to=t)  # non-square: the certified LP path
    assert y is not None and linalg.matmul(lump, y) == t
    with pytest.raises(TypeError):
        derive(t, coarse)  # positional arguments would be ambiguous


def test_optimal_for_is_certified_and_matches_theorem_3_1():
    a = F(1, 2)
    for loss in ("abs", "zero-one", "squared"):
        user = make_user([F(1, 6), F(1, 3), F(1, 2)], loss)
        opt = optimal_for(user, a)
        assert opt.loss == best_remap(truncated_geometric(2, a), user)[0]
        check_certificate(opt.certificate())
        assert is_private(opt.mechanism, a)


def test_eps_converts_exactly_or_refuses():
    assert alpha_from_eps("ln 2") == F(1, 2)
    assert alpha_from_eps("LN(4/3)") == F(3, 4)
    assert alpha_from_eps("3*ln(2)") == F(1, 8)
    assert alpha_from_eps("1/2 ln 9") == F(1, 3)
    assert is_private(truncated_geometric(1, F(1, 2)), eps="ln 2")
    for eps in (1, "1", "1/2 ln 2", "ln 3/2 + 1"):
        with pytest.raises(InvalidAlpha):
            alpha_from_eps(eps)
    with pytest.raises(IrrationalAlpha):
        alpha_from_eps("1/2 ln 2")


def test_floats_only_through_rationalize_which_reports_what_it_used():
    floats = [[2 / 3, 1 / 3], [1 / 3, 2 / 3]]
    with pytest.raises(InvalidMatrix, match="exact='rationalize'"):
        is_private(floats, "1/2")
    with pytest.raises(InvalidMatrix, match="numpy"):
        is_private(np.array(floats), "1/2")
    v = is_private(np.array(floats), "1/2", exact="rationalize")
    assert v and v.conversion.mode == "rationalize" and v.conversion.replaced == 4
    assert v.conversion.tolerance == F(1, 10**9) and 0 < v.conversion.max_deviation < F(1, 10**15)
    m, _ = exact_matrix(floats, exact="rationalize")
    assert m == truncated_geometric(1, F(1, 2))
    r = audit(np.array(floats), "1/2", exact="rationalize", users="zero-one")
    assert "rationalized: 4 float entries" in r.to_text() and r.to_dict()["input"]["mode"] == "rationalize"
    with pytest.raises(NotRationalizable):
        exact_matrix([[0.7, 0.2], [0.5, 0.5]], exact="rationalize")
    with pytest.raises(NotRationalizable):  # a coarse tolerance changes the entries too much to stay stochastic
        exact_matrix([[2 / 3, 1 / 3]], exact="rationalize", tolerance="1/2")


BAD = [
    (is_private, ([[F(1, 2), F(1, 2)], [F(1)]],), {"alpha": "1/2"}, InvalidMatrix),
    (is_private, ([[F(1, 2), F(1, 3)]],), {"alpha": "1/2"}, NotStochastic),
    (is_private, ([[1]],), {"alpha": 0.5}, InvalidAlpha),
    (is_private, ([[1]],), {}, InvalidAlpha),
    (is_private, ([[1]],), {"alpha": "1/2", "eps": "ln 2"}, InvalidAlpha),
    (is_private, ([[1]],), {"eps": "e"}, InvalidAlpha),
    (is_private, ([[1]],), {"alpha": "1/2", "exact": "round"}, InvalidInput),
    (is_private, ("1/2",), {"alpha": "1/2"}, InvalidMatrix),
    (derive, (), {"from_": [[1]], "to": [[1], [1]]}, InvalidMatrix),
    (derive, (), {"from_": [[0.5, 0.5]], "to": [[1]]}, InvalidMatrix),
    (derive, (), {"from_": [[1]], "to": [[2]]}, NotStochastic),
    (optimal_for, ((["1/2", "1/3"], "abs"),), {"alpha": "1/2"}, InvalidDistribution),
    (optimal_for, ((["1/2", "1/2"], "hinge"),), {"alpha": "1/2"}, InvalidInput),
    (optimal_for, ((["1/2", "1/2"], "abs"),), {"alpha": "2"}, InvalidAlpha),
    (optimal_for, ("a user",), {"alpha": "1/2"}, InvalidInput),
    (optimal_for, (([0.5, 0.5], "abs"),), {"alpha": "1/2"}, InvalidInput),
    (is_universally_optimal, ([[1]],), {"alpha": "1/2"}, InvalidMatrix),
    (is_universally_optimal, ([[1, 0], [0, 1]],), {"eps": 1}, IrrationalAlpha),
    (is_universally_optimal, ([[0.5, 0.5], [0.5, 0.5]],), {"alpha": "1/2"}, InvalidMatrix),
    (audit, ([[1, 0], [0, 1]],), {"alpha": "1/2", "users": [(["1/3"] * 3, "abs")]}, InvalidInput),
    (audit, ([[1, 0], [0, 1]],), {"alpha": "1/2", "users": [42]}, InvalidInput),
    (audit, ([[1, 0], [0, 1]],), {"alpha": "1/2", "users": "hinge"}, InvalidInput),
]


@pytest.mark.parametrize(("fn", "args", "kwargs", "error"), BAD)
def test_bad_input_is_a_typed_one_line_error(fn, args, kwargs, error):
    with pytest.raises(error) as exc:
        fn(*args, **kwargs)
    assert isinstance(exc.value, InvalidInput)
    assert "\n" not in str(exc.value) and str(exc.value)


def test_audit_report_renders_text_json_html():
    r = audit(rr(1, F(3, 5)), eps="ln 2")
    assert not r.universality and r.privacy
    text = r.to_text()
    assert text.splitlines()[0] == (
        "verdict: DP at eps = ln 2 (alpha = 1/2); NOT universally optimal: T(1, 1/2) is not a remap of it; "
        "the largest loss gap found is 1/15 ≈ 0.06667 (20% above the optimum), for the user uniform, abs"
    )
    assert "  witness user (named user): uniform prior, zero-one loss: " in text
    doc = json.loads(r.to_json())
    assert doc["format"] == "udpm-audit/2" and doc["alpha"] == "1/2" and doc["alpha_given"] == "eps=ln 2"
    assert doc["verdict"] == "1/2-DP, NOT universally optimal (grs2011 Theorem 3.2)"
    assert [u["verdict"] for u in doc["users"]] == ["suboptimal by 1/15"] * 3
    assert doc["certificates"]
    for cert in doc["certificates"]:
        check_certificate(cert)
    page = r.to_html()
    assert page.startswith("<!DOCTYPE html>") and "NOT universally optimal" in page
    assert "http" not in page and "<script" not in page  # self-contained


def test_audit_of_t_carries_the_remap_as_its_certificate():
    r = audit(truncated_geometric(3, F(1, 3)), "1/3", users={"ends": ([F(1, 2), 0, 0, F(1, 2)], "abs")})
    assert r.universality and "certificate: M·Y = T(3, 1/3) exactly for Y = I (the identity)" in r.to_text()
    assert r.to_dict()["remap_to_T"][0] == ["1", "0", "0", "0"]
    assert r.users[0].label == "ends" and r.users[0].verdict == "optimal"


def test_non_dp_mechanism_can_beat_the_dp_optimum_and_says_so():
    r = audit([[1, 0], [0, 1]], "1/2", users="zero-one")
    assert not r.privacy and r.verdict == "NOT 1/2-DP"
    assert r.users[0].verdict == "below the alpha-DP optimum (M is not alpha-DP)"
