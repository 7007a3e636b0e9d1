"""udpm.lp.certificates: exported certificates re-verify with the standard library alone; tampered ones are rejected."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from udpm.claims.evidence import Evidence, Result, Status
from udpm.core.users import BayesianUser, absolute_error, power_loss
from udpm.lp.certificates import (
    Rejected,
    check_certificate,
    check_file,
    exact_sign,
    export_certificates,
    to_certificate,
)
from udpm.lp.certify import solve
from udpm.lp.programs import Constraint, LinearProgram, bayesian_lp

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def rational_cert():
    user = BayesianUser.of([F(1, 4)] * 4, absolute_error(3))
    return to_certificate(solve(bayesian_lp(user, F(1, 3)), timeout_s=60), "uniform |i-j| n=3")


@pytest.fixture(scope="module")
def irrational_cert():
    user = BayesianUser.of([F(1, 4), 0, F(1, 4), 0, F(1, 4), F(1, 4)], power_loss(5, sympy.Rational(3, 2)))
    return to_certificate(solve(bayesian_lp(user, F(1, 2)), timeout_s=60), "grs2011 Figure 3 LP")


def test_valid_certificates_verify(rational_cert, irrational_cert):
    check_certificate(rational_cert)
    check_certificate(irrational_cert)
    assert irrational_cert["atoms"][0] == "1" and "sqrt(2)" in irrational_cert["atoms"]


def _tampered(cert, path, value):
    c = json.loads(json.dumps(cert))
    node = c
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value(node[path[-1]])
    return c


@pytest.mark.parametrize(
    "path, change, reason",
    [
        (("x", 0), lambda v: str(F(v) + F(1, 10**6)), "^primal feasibility"),
        (("y", 0, 0), lambda v: str(F(v) + F(1, 7)), None),
        (("objective_value", 0), lambda v: str(F(v) + 1), "^equal objectives: stated objective"),
        (("constraints", 0, "rhs"), lambda v: str(F(v) + 1), None),
        (("objective", 0, 0, 1), lambda v: str(F(v) * 2), None),
    ],
)
def test_tampered_rational_certificate_rejected(rational_cert, path, change, reason):
    bad = _tampered(rational_cert, path, change)
    with pytest.raises(Rejected, match=reason):
        check_certificate(bad)


def test_tampered_irrational_certificate_rejected(irrational_cert):
    t = irrational_cert["atoms"].index("sqrt(2)")
    k = next(k for k, v in enumerate(irrational_cert["y"][t]) if F(v) != 0)
    bad = _tampered(irrational_cert, ("y", t, k), lambda v: str(F(v) * 3))
    with pytest.raises(Rejected):
        check_certificate(bad)
    bad = _tampered(irrational_cert, ("atoms", t), lambda v: "sqrt(8)")  # not square-free: unsupported
    with pytest.raises(Rejected, match="unsupported"):
        check_certificate(bad)


def test_exact_sign_of_radical_sums():
    assert exact_sign([(F(1), 2), (F(-1414213562373095, 10**15), 1)]) == 1
    assert exact_sign([(F(3), 1), (F(-2), 2)]) == 1  # 3 - 2 sqrt 2 > 0
    assert exact_sign([(F(0), 2)]) == 0
    assert exact_sign([(F(-1), 3), (F(1), 2)]) == -1


def test_export_and_command_line(tmp_path, rational_cert, irrational_cert):
    results = {
        "x.claim": Result(Status.VERIFIED, Evidence.BOUNDED, certificate={"summary": {"k": 1}, "lps": [rational_cert]}),
        "y.claim": Result(Status.VERIFIED, Evidence.BOUNDED, certificate={"lps": [irrational_cert]}),
        "z.claim": Result(Status.VERIFIED, Evidence.BOUNDED),
    }
    paths = export_certificates(results, tmp_path)
    assert [p.name for p in paths] == ["x.claim.cert.json", "y.claim.cert.json"]
    assert all(check_file(p) == [] for p in paths)
    run = [sys.executable, "-m", "udpm.lp.certificates"]
    ok = subprocess.run([*run, *map(str, paths)], cwd=ROOT, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    doc = json.loads(paths[0].read_text())
    doc["certificates"][0]["x"][1] = str(F(doc["certificates"][0]["x"][1]) + F(1, 3))
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(doc))
    fail = subprocess.run([*run, str(bad)], cwd=ROOT, capture_output=True, text=True)
    assert fail.returncode == 1 and "tampered.json" in fail.stdout and len(fail.stdout.strip().splitlines()) == 1


def test_checker_uses_only_the_standard_library():
    code = (
        "import sys, udpm.lp.certificates as c; "
        "bad = [m for m in ('sympy', 'flint', 'numpy', 'highspy', 'z3') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


# ---------------------------------------------------------------- guard rails: one corrupted condition at a time
#
# Small LPs where each condition can be broken alone (cf. tests/test_certify.py):
#   slack:      min x + y s.t. x + 2y >= 2, 2x + y >= 2, x + y <= 10 ("loose"); optimum (2/3, 2/3), y = (1/3, 1/3, 0)
#   degenerate: the same with x + y >= 4/3 ("parallel") for the loose row; unique, but d = 0 on two nonbasic
#               slacks, so uniqueness needs the witness uniqueness_dual
#   edge:       min x + 2y s.t. x + 2y >= 2, 2x + y >= 2; the whole edge x + 2y = 2, 2/3 <= x <= 2, is optimal
# Equal objectives cannot be broken alone through x or y: with x primal feasible, c·x - b·y equals
# sum_j d_j x_j + sum_k y_k (a_k·x - b_k), which complementary slackness already forces to 0.  It is broken
# alone through the stated objective value.

E = F(1, 10)


def _two_rows(objective=((0, F(1)), (1, F(1)))):
    rows = (
        Constraint(((0, F(1)), (1, F(2))), ">=", F(2), "first"),
        Constraint(((0, F(2)), (1, F(1))), ">=", F(2), "second"),
    )
    return objective, rows


def _lp(name, third=None, objective=((0, F(1)), (1, F(1)))):
    obj, rows = _two_rows(objective)
    return LinearProgram(("x", "y"), obj, rows + ((third,) if third else ()), name)


@pytest.fixture(scope="module")
def slack_cert():
    lp = _lp("slack", Constraint(((0, F(1)), (1, F(1))), "<=", F(10), "loose"))
    cert = to_certificate(solve(lp, timeout_s=10))
    assert cert["y"] == [["1/3", "1/3", "0"]] and cert["unique"] is True and "uniqueness_dual" not in cert
    return cert


@pytest.fixture(scope="module")
def degenerate_cert():
    lp = _lp("degenerate", Constraint(((0, F(1)), (1, F(1))), ">=", F(4, 3), "parallel"))
    cert = to_certificate(solve(lp, timeout_s=10, candidate=[F(2, 3), F(2, 3)]))
    assert cert["y"] == [["0", "0", "1"]] and cert["unique"] is True and cert["uniqueness_dual"] == ["1", "1", "-3"]
    return cert


@pytest.fixture(scope="module")
def edge_cert():
    cert = to_certificate(solve(_lp("edge", objective=((0, F(1)), (1, F(2)))), timeout_s=10))
    assert cert["unique"] is False
    return cert


def _set(**fields):
    def change(cert):
        c = json.loads(json.dumps(cert))
        for key, value in fields.items():
            if value is None:
                c.pop(key, None)
            else:
                c[key] = value
        return c

    return change


def _ys(*values):
    return [[str(v) for v in values]]


CORRUPTIONS = [
    # (id, fixture, change, message pattern)
    ("negative variable", "slack_cert", _set(x=["-1/10", "2/3"]), r"^primal feasibility: x\[x\] = -1/10"),
    ("row violated", "slack_cert", _set(x=["2/3", "1/2"]), "^primal feasibility: constraint 0 'first'"),
    ("negative slack", "slack_cert", _set(x=["6", "6"]), "^primal feasibility: constraint 2 'loose' gives 12 <= 10"),
    ("variable reduced cost", "slack_cert", _set(y=_ys(F(4, 3), F(1, 3), 0)), "^dual feasibility: reduced cost of x"),
    # a wrong dual on a slack column: the sign of y on a >= row, then on the <= row alone (d_x = d_y = 0 kept)
    ("slack dual, >= row", "slack_cert", _set(y=_ys(F(-1, 3), F(1, 3), 0)), "^dual feasibility: y of constraint 0"),
    ("slack dual, <= row", "slack_cert", _set(y=_ys(F(3, 10), F(3, 10), E)), "^dual feasibility: y of constraint 2"),
    ("slackness at a variable", "slack_cert", _set(y=_ys(0, 0, 0)), "^complementary slackness: x = 2/3"),
    (
        "slackness at a slack",
        "slack_cert",
        _set(y=_ys(F(1, 3) + E / 3, F(1, 3) + E / 3, -E)),
        "^complementary slackness: constraint 2 'loose' is not tight",
    ),
    ("stated objective", "slack_cert", _set(objective_value=["5/3"]), "^equal objectives: stated objective 5/3"),
    ("uniqueness, false claim", "edge_cert", _set(unique=True), "^uniqueness: claimed but not proved"),
    (
        "uniqueness, witness missing",
        "degenerate_cert",
        _set(uniqueness_dual=None),
        "^uniqueness: claimed but not proved",
    ),
    ("uniqueness, witness b·u != 0", "degenerate_cert", _set(uniqueness_dual=["1", "1", "-2"]), "^uniqueness: .*b·u"),
    (
        "uniqueness, witness sign",
        "degenerate_cert",
        _set(uniqueness_dual=["0", "2", "-3"]),  # b·u = 0, but u·A_x = 1 > 0 on x, whose reduced cost is 0
        "^uniqueness: the witness has -A_j·u < 0 at x",
    ),
    ("uniqueness, witness length", "degenerate_cert", _set(uniqueness_dual=["1"]), "^malformed"),
    ("float number", "slack_cert", _set(x=[2 / 3, "2/3"]), "^malformed certificate: x\\[0\\]"),
    ("index out of range", "slack_cert", _set(objective=[[[0, "1"], [2, "1"]]]), "^malformed certificate: objective"),
    ("negative index", "slack_cert", _set(objective=[[[0, "1"], [-1, "1"]]]), "^malformed certificate: objective"),
    ("unique not a bool", "slack_cert", _set(unique="yes"), "^malformed certificate: unique"),
]


@pytest.mark.parametrize("fixture, change, pattern", [c[1:] for c in CORRUPTIONS], ids=[c[0] for c in CORRUPTIONS])
def test_checker_rejects_each_corrupted_condition(request, fixture, change, pattern):
    genuine = request.getfixturevalue(fixture)
    check_certificate(genuine)
    with pytest.raises(Rejected, match=pattern) as info:
        check_certificate(change(genuine))
    assert "\n" not in str(info.value)


def test_unique_false_claims_nothing_and_uniqueness_is_rechecked_on_real_lps(edge_cert, rational_cert, irrational_cert):
    check_certificate(edge_cert)  # a non-unique optimum is still a valid optimality certificate
    # A Bayesian LP whose unique optimum is degenerate (zero reduced costs off the basis): the witness is exported.
    user = BayesianUser.of([F(1, 2), 0, 0, F(1, 2)], absolute_error(3))
    witnessed = to_certificate(solve(bayesian_lp(user, F(1, 2)), timeout_s=60), "degenerate Bayesian LP")
    assert witnessed["unique"] is True and "uniqueness_dual" in witnessed
    for cert in (rational_cert, irrational_cert, witnessed):
        assert cert["unique"] is True
        check_certificate(cert)  # re-proved from y (and the witness, if any)
        for change in (_set(uniqueness_dual=["1"] * len(cert["constraints"])), _set(uniqueness_dual=None)):
            if change(cert) != cert:
                with pytest.raises(Rejected, match=r"^uniqueness"):
                    check_certificate(change(cert))
