"""Guard rails of udpm.lp.certificates (mutation-run kills): the exported JSON, the standard-library checker's
refusals (each named), exact signs of surd sums, files and the command line."""

import json
from fractions import Fraction as F
from types import SimpleNamespace

import pytest
import sympy

from udpm.lp import certificates as cf
from udpm.lp.certificates import (
    FORMAT,
    Rejected,
    _atom_root,
    _exact,
    _index,
    _rank,
    certificate_of,
    check_certificate,
    check_file,
    exact_sign,
    export_certificates,
    to_certificate,
)
from udpm.lp.certify import solve
from udpm.lp.programs import Constraint, LinearProgram


def C(coeffs, sense, rhs, name=""):
    return Constraint(tuple((j, F(a)) for j, a in coeffs), sense, F(rhs), name)


def two_rows(obj=((0, F(1)), (1, F(1))), extra=(), name="two rows"):
    rows = (C([(0, 1), (1, 2)], ">=", 2, "first"), C([(0, 2), (1, 1)], ">=", 2, "second"), *extra)
    return LinearProgram(("x", "y"), obj, rows, name)


@pytest.fixture(scope="module")
def cert():
    return to_certificate(solve(two_rows(), timeout_s=10))


def edit(c, **fields):
    c = json.loads(json.dumps(c))
    for k, v in fields.items():
        if v is None:
            c.pop(k, None)
        else:
            c[k] = v
    return c


def rejected(c):
    with pytest.raises(Rejected) as e:
        check_certificate(c)
    return str(e.value)


# ---------------------------------------------------------------- export


def test_to_certificate_fields(cert):
    assert cert == {
        "format": FORMAT,
        "label": "two rows",
        "lp": "two rows",
        "variables": ["x", "y"],
        "constraints": [
            {"name": "first", "coeffs": [[0, "1"], [1, "2"]], "sense": ">=", "rhs": "2"},
            {"name": "second", "coeffs": [[0, "2"], [1, "1"]], "sense": ">=", "rhs": "2"},
        ],
        "atoms": ["1"],
        "objective": [[[0, "1"], [1, "1"]]],
        "x": ["2/3", "2/3"],
        "y": [["1/3", "1/3"]],
        "objective_value": ["4/3"],
        "unique": True,
    }
    assert FORMAT == "udpm-lp-certificate/1"
    c = solve(two_rows(), timeout_s=10)
    assert to_certificate(c, "mine")["label"] == "mine"
    assert to_certificate(c)["label"] == "two rows"


def test_to_certificate_of_an_irrational_objective_and_a_witness():
    r2 = sympy.sqrt(2)
    lp = LinearProgram(
        ("x", "y"),
        ((0, 1 + r2), (1, F(1))),
        (C([(0, 1), (1, 1)], ">=", 1), C([(0, 1)], "<=", F(1, 2))),
        "irr",
    )
    c = to_certificate(solve(lp, timeout_s=10))
    assert c["atoms"] == ["1", "sqrt(2)"]
    assert c["objective"] == [[[0, "1"], [1, "1"]], [[0, "1"]]]
    assert c["objective_value"] == ["1", "0"] and c["x"] == ["0", "1"]
    check_certificate(c)
    deg = two_rows(extra=(C([(0, 1), (1, 1)], ">=", F(4, 3), "parallel"),))
    d = to_certificate(solve(deg, timeout_s=10, candidate=[F(2, 3), F(2, 3)]))
    assert d["uniqueness_dual"] == ["1", "1", "-3"]
    check_certificate(d)
    fake = SimpleNamespace(**{**vars(solve(two_rows(), timeout_s=10))})
    fake.unique = False
    fake.extra = {"uniqueness_dual": (F(1), F(1))}
    assert "uniqueness_dual" not in to_certificate(fake)
    fake.unique, fake.extra = True, {"uniqueness_dual": None}
    assert "uniqueness_dual" not in to_certificate(fake)


def test_certificate_of_and_export(tmp_path):
    c = solve(two_rows(), timeout_s=10)
    doc = certificate_of({"n": 1}, [("a", c), ("b", c)])
    assert list(doc) == ["summary", "lps"] and doc["summary"] == {"n": 1}
    assert [x["label"] for x in doc["lps"]] == ["a", "b"] and doc["lps"][0] == to_certificate(c, "a")
    results = {
        "z.claim": SimpleNamespace(certificate=doc),
        "a.none": SimpleNamespace(certificate=None),
        "b.empty": SimpleNamespace(certificate={"summary": {}, "lps": []}),
        "c.noattr": object(),
        "d.nosummary": SimpleNamespace(certificate={"lps": doc["lps"][:1]}),
    }
    out = tmp_path / "deep" / "certs"
    paths = export_certificates(results, out)
    assert paths == [out / "d.nosummary.cert.json", out / "z.claim.cert.json"]
    text = paths[1].read_text()
    assert (
        text
        == json.dumps({"claim": "z.claim", "summary": {"n": 1}, "certificates": doc["lps"]}, indent=1, sort_keys=True)
        + "\n"
    )
    assert json.loads(paths[0].read_text())["summary"] == {}
    assert check_file(paths[1]) == [] and check_file(paths[0]) == []


# ---------------------------------------------------------------- checker pieces


def test_atom_roots():
    assert _atom_root("1") == 1 and _atom_root("sqrt(2)") == 2 and _atom_root("sqrt(6)") == 6
    for bad in ("sqrt(4)", "sqrt(8)", "sqrt(1)", "sqrt(0)", "sqrt(x)", "sqrt(2", "qrt(2)", "2", "sqrt(-2)", "sqrt(12)"):
        assert _atom_root(bad) is None, bad


def test_exact_sign_of_surd_sums():
    assert exact_sign([]) == 0 and exact_sign([(F(0), 2), (F(0), 1)]) == 0
    assert exact_sign([(F(1, 10**40), 1)]) == 1 and exact_sign([(F(-1, 3), 1)]) == -1
    assert exact_sign([(F(1), 2), (F(-1414213562373095, 10**15), 1)]) == 1
    assert exact_sign([(F(1), 2), (F(-1414213562373096, 10**15), 1)]) == -1
    assert exact_sign([(F(-1), 2), (F(1414213562373095, 10**15), 1)]) == -1
    assert exact_sign([(F(1), 3), (F(-1), 2)]) == 1 and exact_sign([(F(-1), 3), (F(1), 2)]) == -1
    # within 2^-70 of zero: 64-bit bounds straddle 0, 256-bit bounds decide
    near = F(int(2**0.5 * 10**15), 10**15)
    from math import isqrt

    tight = F(isqrt(2 * 4**100), 2**100)  # sqrt(2) - 2^-100 < tight < sqrt(2)
    assert exact_sign([(F(1), 2), (-tight, 1)]) == 1 and exact_sign([(F(-1), 2), (tight, 1)]) == -1
    assert near < tight


def test_exact_sign_refuses_to_guess(monkeypatch):
    # a sum whose 4096-bit bounds straddle 0 (a rational 2^-5000 away from sqrt(2))
    from math import isqrt

    q = F(isqrt(2 * 4**5000), 2**5000)
    with pytest.raises(Rejected) as e:
        exact_sign([(F(1), 2), (-q, 1)])
    assert str(e.value) == "a reduced cost is too close to 0 to sign with 4096-bit bounds"


def test_exact_numbers_and_indices():
    assert _exact("3/4", "w") == F(3, 4) and _exact(5, "w") == 5 and _exact("-2", "w") == -2
    for bad, why in (
        (0.5, "is not an exact string or integer"),
        (True, "is not an exact string or integer"),
        (None, "is not an exact string or integer"),
        ("x", "is not a rational number"),
        ("1/0", "is not a rational number"),
    ):
        with pytest.raises(Rejected) as e:
            _exact(bad, "w[1]")
        assert str(e.value) == f"malformed certificate: w[1] = {bad!r} {why}"
    assert _index(0, 2, "o") == 0 and _index(1, 2, "o") == 1
    for bad in (2, -1, True, "1", 1.0):
        with pytest.raises(Rejected) as e:
            _index(bad, 2, "objective")
        assert str(e.value) == f"malformed certificate: objective refers to variable {bad!r}, not one of 0..1"


def test_rank_of_sparse_columns():
    assert _rank([]) == 0 and _rank([{}, {0: F(0)}]) == 0
    assert _rank([{0: F(1)}, {1: F(1)}, {0: F(1), 1: F(1)}]) == 2
    assert _rank([{0: F(1), 1: F(2)}, {0: F(2), 1: F(4)}]) == 1
    assert _rank([{0: F(1), 1: F(2)}, {0: F(2), 1: F(3)}]) == 2
    assert _rank([{1: F(1), 2: F(1)}, {0: F(1)}, {1: F(2), 2: F(3)}, {0: F(1), 1: F(1)}]) == 3
    assert _rank([{0: F(1), 1: F(1)}, {0: F(1), 1: F(1), 2: F(1)}, {2: F(1)}]) == 2


# ---------------------------------------------------------------- checker refusals


def test_malformed_certificates_are_named(cert):
    assert rejected(edit(cert, format="other")) == "unknown format 'other'"
    assert rejected(edit(cert, format=None)) == "unknown format None"
    assert rejected(edit(cert, variables=None)) == "malformed certificate: KeyError: 'variables'"
    assert rejected(edit(cert, atoms=["1", "pi"])) == "unsupported objective atom in ['1', 'pi']"
    assert rejected(edit(cert, atoms=["1", "1"], objective=[[], []], y=[["0", "0"], ["0", "0"]])) == (
        "objective atoms repeat"
    )
    assert rejected(edit(cert, x=["2/3"])) == "malformed certificate: x has 1 entries for 2 variables"
    msg = "malformed certificate: dual or objective does not match the atoms and constraints"
    assert rejected(edit(cert, y=[["1/3", "1/3"], ["0", "0"]])) == msg
    assert rejected(edit(cert, objective=[[[0, "1"]], [[1, "1"]]])) == msg
    assert rejected(edit(cert, y=[["1/3"]])) == msg
    assert rejected(edit(cert, objective_value=["4/3", "0"])) == (
        "malformed certificate: objective_value does not match the atoms"
    )
    assert rejected(edit(cert, unique=2)) == "malformed certificate: unique = 2"
    assert rejected(edit(cert, unique="true")) == "malformed certificate: unique = 'true'"
    assert rejected(edit(cert, unique=1)) == "malformed certificate: unique = 1"  # 1 == True, but not a boolean
    assert rejected(edit(cert, unique=0)) == "malformed certificate: unique = 0"
    assert rejected(edit(cert, uniqueness_dual=["0"])) == (
        "malformed certificate: uniqueness_dual has 1 entries for 2 constraints"
    )
    bad = edit(cert)
    bad["constraints"][1]["sense"] = "=="
    assert rejected(bad) == "malformed certificate: constraint 1 has sense '=='"
    bad = edit(cert)
    bad["constraints"][0]["rhs"] = 2.0
    assert rejected(bad) == "malformed certificate: rhs of constraint 0 = 2.0 is not an exact string or integer"
    bad = edit(cert)
    bad["constraints"][1]["coeffs"] = [[5, "1"]]
    assert rejected(bad) == "malformed certificate: constraint 1 refers to variable 5, not one of 0..1"
    bad = edit(cert)
    bad["constraints"][1]["coeffs"] = [[0, 0.5]]
    assert rejected(bad) == "malformed certificate: constraint 1 = 0.5 is not an exact string or integer"
    assert rejected(edit(cert, y=[[0.5, "1/3"]])) == "malformed certificate: y = 0.5 is not an exact string or integer"
    assert rejected(edit(cert, objective=[[[0, 0.5]]])) == (
        "malformed certificate: objective = 0.5 is not an exact string or integer"
    )
    assert rejected(edit(cert, objective_value=[0.5])) == (
        "malformed certificate: objective_value = 0.5 is not an exact string or integer"
    )
    assert rejected(edit(cert, uniqueness_dual=[0.5, "0"])) == (
        "malformed certificate: uniqueness_dual = 0.5 is not an exact string or integer"
    )
    assert rejected(edit(cert, constraints=[1, 2])).startswith("malformed certificate: TypeError")


def test_optional_fields_may_be_absent(cert):
    check_certificate(edit(cert, objective_value=None, unique=None))
    check_certificate(edit(cert, unique=False))
    check_certificate(edit(cert, uniqueness_dual=["0", "0"]))


def test_failed_conditions_are_named_with_row_names(cert):
    assert rejected(edit(cert, x=["1/2", "2/3"])) == "primal feasibility: constraint 0 'first' gives 11/6 >= 2 false"
    bad = edit(cert, x=["1/2", "2/3"])
    bad["constraints"][0]["name"] = ""
    assert rejected(bad) == "primal feasibility: constraint 0 gives 11/6 >= 2 false"
    bad = edit(cert, x=["1/2", "2/3"])
    del bad["constraints"][0]["name"]
    assert rejected(bad) == "primal feasibility: constraint 0 gives 11/6 >= 2 false"
    assert rejected(edit(cert, x=["-1", "2"])) == "primal feasibility: x[x] = -1 is negative"
    le = edit(cert)
    le["constraints"].append({"name": "cap", "coeffs": [[0, "1"], [1, "1"]], "sense": "<=", "rhs": "1"})
    le["y"] = [["1/3", "1/3", "0"]]
    assert rejected(le) == "primal feasibility: constraint 2 'cap' gives 4/3 <= 1 false"
    eq = edit(cert)
    eq["constraints"].append({"name": "eq", "coeffs": [[0, "1"]], "sense": "=", "rhs": "1"})
    eq["y"] = [["1/3", "1/3", "0"]]
    assert rejected(eq) == "primal feasibility: constraint 2 'eq' gives 2/3 = 1 false"
    assert rejected(edit(cert, y=[["-1/3", "1/3"]])) == (
        "dual feasibility: y of constraint 0 'first' has the wrong sign (the reduced cost of its slack is negative)"
    )
    assert rejected(edit(cert, y=[["1/2", "1/3"]])) == "dual feasibility: reduced cost of x is negative"
    assert rejected(edit(cert, y=[["1/3", "1/2"]])) == "dual feasibility: reduced cost of x is negative"
    assert rejected(edit(cert, y=[["1/2", "1/10"]])) == "dual feasibility: reduced cost of y is negative"
    assert rejected(edit(cert, y=[["0", "0"]])) == "complementary slackness: x = 2/3 != 0 but its reduced cost is > 0"
    assert (
        rejected(edit(cert, objective_value=["5/3"])) == "equal objectives: stated objective 5/3 != c·x = 4/3 (atom 1)"
    )


def test_a_dual_on_a_loose_row_breaks_slackness():
    c = to_certificate(solve(two_rows(extra=(C([(0, 1), (1, 1)], "<=", 10, "loose"),)), timeout_s=10))
    check_certificate(c)
    e = F(1, 10)
    y = [[str(F(1, 3) + e / 3), str(F(1, 3) + e / 3), str(-e)]]
    assert rejected(edit(c, y=y)) == (
        "complementary slackness: constraint 2 'loose' is not tight (4/3 vs 10) but y != 0"
    )
    eq = to_certificate(solve(two_rows(extra=(C([(0, 1), (1, -1)], "=", 0, "sym"),)), timeout_s=10))
    check_certificate(eq)  # an equality row's dual may have either sign


def test_equal_objectives_atom_by_atom():
    # min x + y with x + 2y >= 2, 2x + y >= 2 rescaled: a consistent but wrong dual changes b·y only
    c = to_certificate(solve(two_rows(), timeout_s=10))
    c2 = edit(c, constraints=[dict(c["constraints"][0], rhs="2"), dict(c["constraints"][1], rhs="2")])
    check_certificate(c2)
    bad = edit(c)
    bad["objective"] = [[[0, "1"], [1, "1"]], [[0, "0"]]]
    bad["atoms"] = ["1", "sqrt(2)"]
    bad["y"] = [["1/3", "1/3"], ["0", "0"]]
    bad["objective_value"] = ["4/3", "1"]
    assert rejected(bad) == "equal objectives: stated objective 1 != c·x = 0 (atom sqrt(2))"


def test_uniqueness_claims(cert):
    edge = to_certificate(solve(two_rows(obj=((0, F(1)), (1, F(2)))), timeout_s=10))
    assert edge["unique"] is False
    check_certificate(edge)
    assert rejected(edit(edge, unique=True)) == (
        "uniqueness: claimed but not proved: the 3 columns with reduced cost 0 left free by the witness are "
        "linearly dependent (the optimum may not be unique)"
    )
    deg = to_certificate(
        solve(two_rows(extra=(C([(0, 1), (1, 1)], ">=", F(4, 3), "parallel"),)), timeout_s=10, candidate=[F(2, 3)] * 2)
    )
    assert rejected(edit(deg, uniqueness_dual=["1", "1", "-2"])) == (
        "uniqueness: the witness uniqueness_dual has b·u = 4/3 != 0"
    )
    assert rejected(edit(deg, uniqueness_dual=["0", "2", "-3"])) == (
        "uniqueness: the witness has -A_j·u < 0 at x (reduced cost 0)"
    )
    assert rejected(edit(deg, uniqueness_dual=None)).startswith("uniqueness: claimed but not proved: the 4 columns")
    le = to_certificate(solve(two_rows(extra=(C([(0, 1), (1, 1)], "<=", F(4, 3), "cap"),)), timeout_s=10))
    check_certificate(le)


# ---------------------------------------------------------------- files and the command line


def test_check_file_reads_one_or_many(tmp_path, cert):
    one = tmp_path / "one.json"
    one.write_text(json.dumps(cert), encoding="utf-8")
    assert check_file(one) == []
    many = tmp_path / "many.json"
    bad = edit(cert, x=["2", "2"])
    many.write_text(json.dumps({"claim": "c", "certificates": [cert, bad, edit(bad, label=None), 7]}))
    assert check_file(many) == [
        f"{many}: certificate two rows: complementary slackness: constraint 0 'first' is not tight (6 vs 2) but y != 0",
        f"{many}: certificate 2: complementary slackness: constraint 0 'first' is not tight (6 vs 2) but y != 0",
        f"{many}: certificate 3: certificate is not an object",
    ]


def test_check_file_refusals(tmp_path):
    missing = tmp_path / "missing.json"
    (r,) = check_file(missing)
    assert r.startswith(f"{missing}: cannot read: ")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    (r,) = check_file(broken)
    assert r.startswith(f"{broken}: cannot read: Expecting")
    for doc in ([], {"certificates": []}, {"certificates": {}}, 3):
        p = tmp_path / "empty.json"
        p.write_text(json.dumps(doc))
        assert check_file(p) == [f"{p}: no certificate found"]
    u = tmp_path / "unicode.json"
    u.write_text(json.dumps({"certificates": [{"format": "x", "label": "é"}]}, ensure_ascii=False), encoding="utf-8")
    assert check_file(u) == [f"{u}: certificate é: unknown format 'x'"]


def test_main(tmp_path, cert, capsys):
    assert cf.main([]) == 2
    out = capsys.readouterr()
    assert out.err == "python -m udpm.lp.certificates: error: the following arguments are required: FILE\n"
    assert out.out == ""
    assert cf.main(["--help"]) == 0 and "exit status: 0 every certificate verifies" in capsys.readouterr().out
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(cert))
    bad.write_text(json.dumps(edit(cert, x=["2", "2"])))
    assert cf.main([str(good), str(good)]) == 0
    assert capsys.readouterr().out == "all certificates in 2 file(s) verify\n"
    assert cf.main([str(bad), str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    why = "complementary slackness: constraint 0 'first' is not tight (6 vs 2) but y != 0"
    assert lines == [f"{bad}: certificate two rows: {why}"] * 2


def test_the_checker_describes_itself_its_files_and_exit_statuses(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert cf.main(["--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "usage: python -m udpm.lp.certificates [-h] FILE [FILE ...]" in out
    assert (
        "Re-check exported LP certificates (primal and dual feasibility, complementary slackness, equal objectives, "
        "uniqueness where claimed) with Python's fractions and json only." in out
    )
    assert "FILE certificate files, e.g. build/certificates/*.json" in out
    assert (
        "exit status: 0 every certificate verifies; 1 some certificate fails or a file is unreadable (each named in "
        "one line); 2 usage" in out
    )
