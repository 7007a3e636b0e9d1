"""udpm.certificates: exported certificates re-verify with the standard library alone; tampered ones are rejected."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from udpm.certificates import Rejected, check_certificate, check_file, exact_sign, export_certificates, to_certificate
from udpm.certify import solve
from udpm.claims import Evidence, Result, Status
from udpm.programs import bayesian_lp
from udpm.users import BayesianUser, absolute_error, power_loss

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
        (("x", 0), lambda v: str(F(v) + F(1, 10**6)), "primal infeasible"),
        (("y", 0, 0), lambda v: str(F(v) + F(1, 7)), None),
        (("objective_value", 0), lambda v: str(F(v) + 1), "stated objective"),
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
    run = [sys.executable, "-m", "udpm.certificates"]
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
        "import sys, udpm.certificates as c; "
        "bad = [m for m in ('sympy', 'flint', 'numpy', 'highspy', 'z3') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
