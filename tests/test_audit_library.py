"""udpm.audit on DP libraries' mechanisms: a LibraryMechanism or --library NAME, float parameters exactly as the
library receives them, an irrational ratio decided by arb balls and sympy identities; docs/libraries.md is audit()'s."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
import sympy

from udpm import audit
from udpm.auditing.adapters import diffprivlib as dpl
from udpm.auditing.adapters import opendp as odp
from udpm.auditing.adapters.registry import LIBRARY_MECHANISMS, library_mechanism
from udpm.auditing.privacy_level import privacy_level
from udpm.cli import main
from udpm.errors import InvalidInput

ROOT = Path(__file__).resolve().parent.parent


def _readme_rows() -> dict[tuple[str, str, str, str, str], tuple[str, str, str]]:
    text = (ROOT / "docs" / "libraries.md").read_text()
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] in ("diffprivlib", "opendp", "tmlt.core"):
            rows[(cells[0], cells[1], cells[2], cells[4], cells[5])] = (cells[6], cells[7], cells[8])
    return rows


def _yes(v: bool) -> str:
    return "yes" if v else "no"


def test_a_maintainer_audits_float_parameters_in_a_few_lines_and_gets_the_readme_verdicts():
    rows = _readme_rows()
    cases = [
        (
            ("diffprivlib", "GeometricTruncated", f"epsilon=math.log(2)={math.log(2)!r}", "10", "1/2"),
            dpl.geometric_truncated(10, math.log(2)),
        ),
        (("diffprivlib", "GeometricTruncated", "epsilon=1.0", "10", "1/2"), dpl.geometric_truncated(10, 1.0)),
        (("diffprivlib", "Geometric", "epsilon='ln 2' (exact)", "10", "1/2"), dpl.geometric(10, "ln 2")),
        (
            (
                "opendp",
                "make_laplace / make_geometric (integers)",
                f"scale=1/math.log(2)={1 / math.log(2)!r}",
                "10",
                "1/2",
            ),
            odp.discrete_laplace(10, 1 / math.log(2)),
        ),
        (
            (
                "opendp",
                "make_geometric(bounds)",
                f"scale=1/math.log(2)={1 / math.log(2)!r}, bounds=(0, n)",
                "10",
                "1/2",
            ),
            odp.geometric_bounded(10, 1 / math.log(2)),
        ),
    ]
    for key, m in cases:
        report = audit(m, "1/2", users=[])
        assert rows[key][0] == _yes(report.privacy.private), key
        assert rows[key][2] == _yes(bool(report.universality)), key


def test_a_library_mechanism_with_an_irrational_ratio_is_decided_exactly():
    m = dpl.geometric_truncated(5, math.log(2))  # alpha_lib = e^-0.6931471805599453, a hair above 1/2
    assert m.alpha == sympy.exp(-sympy.Rational(F(math.log(2)).numerator, F(math.log(2)).denominator))
    r = audit(m, "1/2", users="abs")
    assert r.privacy and not r.universality and r.universality.method == "privacy level"
    assert "T(5, 1/2) is not" in r.universality.reason and "arb balls" in r.universality.reason
    u = r.users[0]
    assert u.gap > 0 and "excludes 0" in u.readable_verdict()  # an arb ball that excludes 0: certified
    assert r.to_text().startswith("verdict: DP at alpha = 1/2 (eps = ln 2 ≈ 0.6931); NOT universally optimal")
    own = audit(m)  # at its own ratio: T(5, e^-r) is a remap of it, as rational functions of A = e^-r
    assert own.universality and own.universality.method == "symbolic" and own.privacy
    not_dp = audit(dpl.geometric_truncated(5, 1.0), "1/2", users="abs")
    assert not not_dp.privacy and not not_dp.universality and not not_dp.users
    assert not_dp.to_text().startswith("verdict: NOT DP at alpha = 1/2")


def test_the_tightest_level_of_a_library_mechanism():
    m = dpl.geometric_truncated(4, math.log(2))
    level = privacy_level(m)
    assert level.alpha == m.alpha and level.rate == F(math.log(2)) and level.pair == (0, 1)
    assert level.private_at("1/2") and not level.private_at(F(500001, 1000000))
    assert privacy_level(dpl.geometric_truncated(4, "ln 2")).alpha == F(1, 2)


def test_the_report_names_the_source_lines_and_the_conformance_test():
    m = dpl.geometric_truncated(3, "ln 2")
    text = audit(m, users=[]).to_text()
    assert "diffprivlib/mechanisms/geometric.py lines 52, 107-113, 168-172" in text
    assert "tests/test_adapters.py::test_diffprivlib_geometric_truncated_sampler" in text
    doc = json.loads(audit(m, users=[]).to_json())
    assert doc["library"]["source"] == m.source and doc["library"]["params"]["epsilon"] == "ln 2"
    for entry in LIBRARY_MECHANISMS.values():  # every named conformance test exists
        name = entry.conformance.split("::")[1].split(" ")[0]
        assert f"def {name}(" in (ROOT / "tests" / "test_adapters.py").read_text()


def test_library_by_name():
    m = library_mechanism("diffprivlib:GeometricTruncated", 10, epsilon="0.6931471805599453")
    assert m.rate == F(0.6931471805599453) and m.n == 10
    assert library_mechanism("opendp:make_geometric", 3, scale="1.0").rational
    for kwargs, needle in [
        ({"name": "numpy:Laplace", "n": 3, "epsilon": "1"}, "unknown library mechanism"),
        ({"name": "opendp:make_geometric", "n": 3, "epsilon": "1"}, "takes --scale, not --epsilon"),
        ({"name": "diffprivlib:Geometric", "n": 3}, "needs --epsilon"),
        ({"name": "diffprivlib:Geometric", "n": 0, "epsilon": "1"}, "--n must be an integer >= 1"),
        ({"name": "diffprivlib:Geometric", "n": 3, "epsilon": "-1"}, "epsilon must be positive"),
        ({"name": "diffprivlib:Geometric", "n": 3, "epsilon": "abc"}, "is not a number"),
    ]:
        name = kwargs.pop("name")
        with pytest.raises(InvalidInput, match=needle):
            library_mechanism(name, **kwargs)


def test_udpm_audit_library_command(capsys, tmp_path):
    args = ["audit", "--library", "diffprivlib:GeometricTruncated", "--epsilon", "0.6931471805599453", "--n", "10"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "verdict: DP at eps = 0.6931471805599453 (alpha = e^-0.6931471805599453 ≈ 0.50000000000000001); "
        "universally optimal: T(10, e^-0.6931471805599453 ≈ 0.50000000000000001) is a remap of it (grs2011 Theorem 3.2)"
    )
    assert main([*args, "--alpha", "1/2", "--fail-unless", "optimal", "--json", str(tmp_path / "o.json")]) == 1
    doc = json.loads((tmp_path / "o.json").read_text())
    assert doc["private"] is True and doc["universally_optimal"] is False and doc["method"] == "privacy level"
    for bad, needle in [
        (["audit", "--library", "diffprivlib:GeometricTruncated", "--epsilon", "1"], "needs --n"),
        (["audit", "--library", "nope:X", "--epsilon", "1", "--n", "3"], "unknown library mechanism"),
        (["audit", str(tmp_path / "m.json"), "--library", "diffprivlib:Geometric", "--n", "3"], "not both"),
        (["audit", "--epsilon", "1", "--n", "3", str(tmp_path / "m.json"), "--alpha", "1/2"], "go with --library"),
    ]:
        assert main(bad) == 2
        err = capsys.readouterr().err
        assert needle in err and err.strip().count("\n") == 0


def test_experiments_libraries_is_a_client_of_audit():
    src = (ROOT / "experiments" / "libraries.py").read_text()
    assert "from udpm import audit" in src and "compare_exp_neg" not in src and "is_universally_optimal" not in src
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from experiments import libraries; import json; print(json.dumps(libraries.run((5,))))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)["rows"]
    assert all(r["method"].startswith("udpm.audit: ") for r in rows)


def test_an_irrational_matrix_points_at_the_exact_way_and_a_rational_library_mechanism_is_a_matrix():
    from udpm import is_private, is_universally_optimal
    from udpm.errors import InvalidMatrix

    m = dpl.geometric_truncated(5, math.log(2))
    with pytest.raises(InvalidMatrix, match=r"is irrational; for a DP library's mechanism pass the LibraryMechanism"):
        audit(m.matrix, eps="ln 2")
    with pytest.raises(
        InvalidMatrix, match=r"whose ratio e\^-0.6931471805599453 is irrational; udpm.audit\(mechanism\)"
    ):
        is_universally_optimal(m, eps="ln 2")
    exact = dpl.geometric_truncated(5, "ln 2")
    assert is_universally_optimal(exact, "1/2") and is_private(exact, "1/2")
    assert is_private(
        [[sympy.Rational(2, 3), sympy.Rational(1, 3)], [sympy.Rational(1, 3), sympy.Rational(2, 3)]], "1/2"
    )
