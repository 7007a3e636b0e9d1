"""Guard rails of udpm.claims.evidence (mutation-run kills): the derivation rules in order, the exact texts of
counterexamples and notes, the cap by the weakest dependency, the JSON form and the grid texts."""

import hashlib
from fractions import Fraction as F

import pytest

from udpm.claims.evidence import (
    KIND_ORDER,
    Evidence,
    Result,
    Status,
    cap,
    derive,
    grid_of,
    grid_text,
    n_text,
    sample_digest,
    scope_text,
    unresolved,
)
from udpm.claims.findings import Findings
from udpm.claims.instances import ALL_N, BOUNDED, SAMPLED, TABLE, Erratum, Kind, Outcome


def rec_with(*decisions, errata=(), notes=(), values=None):
    rec = Findings("c")
    for holds, witness, kw in decisions:
        rec.decide(holds, witness, **kw)
    rec.errata.extend(errata)
    rec.notes.extend(notes)
    rec.values.update(values or {})
    return rec


def inst(n=1, alpha="1/2", kind=BOUNDED, method="m", **params):
    return {"n": n, "alpha": alpha, "kind": kind, "method": method, **params}


def test_enum_texts():
    assert [str(s) for s in Status] == [
        "proved",
        "verified",
        "tested",
        "reproduced",
        "erratum",
        "partial",
        "refuted",
        "inconclusive",
        "error",
        "pending",
    ]
    assert [str(e) for e in Evidence] == ["all-n", "bounded", "sampled", "table", "none"]
    assert KIND_ORDER == (Kind.ALL_N, Kind.BOUNDED, Kind.SAMPLED, Kind.TABLE)


def test_result_defaults_and_unresolved():
    r = unresolved(Status.PENDING, "not yet")
    assert r == Result(Status.PENDING, notes="not yet")
    assert (r.evidence, r.grid, r.samples, r.symbolic_alpha, r.capped_by) == (Evidence.NONE, {}, 0, False, None)
    assert (r.decisions, r.depends_on, r.values, r.counterexample, r.certificate, r.errata) == (
        [],
        [],
        {},
        None,
        None,
        [],
    )


def test_no_decision_is_an_error_but_errata_alone_are_an_erratum():
    r = derive(rec_with(values={"v": "1"}))
    assert r.status is Status.ERROR and r.notes == "the check decided no instance" and r.grid == {}
    assert r.values == {"v": "1"}
    e = Erratum("T[0]", "1/2", "1/3", "typo", "x")
    r = derive(rec_with(errata=[e]))
    assert r.status is Status.ERRATUM and r.evidence is Evidence.TABLE and r.errata == [e]


def test_a_counterexample_names_the_strongest_refuting_instance_first_seen():
    rec = rec_with(
        (True, "", inst(n=1)),
        (False, "w-sampled", inst(n=2, kind=SAMPLED, sample="s")),
        (False, "w-bounded-1", inst(n=3)),
        (False, "w-bounded-2", inst(n=4)),
        (None, "timeout", inst(n=5)),
        notes=["a note", ""],
    )
    r = derive(rec, {"d": Status.ERROR})
    assert r.status is Status.REFUTED and r.evidence is Evidence.BOUNDED
    assert r.counterexample == "n=3 alpha=1/2 bounded m: w-bounded-1"
    assert r.notes == "a note"
    assert r.depends_on == []  # a refutation is not capped
    assert r.samples == 1 and len(r.decisions) == 5


def test_an_inconclusive_instance_lists_every_undecided_one():
    rec = rec_with((True, "", inst(n=1)), (None, "t1", inst(n=2)), (None, "t2", inst(n=3, alpha="1/3")), notes=["n0"])
    r = derive(rec)
    assert r.status is Status.INCONCLUSIVE and r.evidence is Evidence.NONE
    assert r.notes == "n0; undecided: n=2 alpha=1/2 bounded m: t1; n=3 alpha=1/3 bounded m: t2"
    assert r.counterexample is None


def test_table_instances_reproduce_unless_there_are_errata():
    assert derive(rec_with((True, "", inst(kind=TABLE)))).status is Status.REPRODUCED
    e = Erratum("T[0]", "1/2", "1/3", "typo", "x")
    r = derive(rec_with((True, "", inst(kind=TABLE)), errata=[e]))
    assert r.status is Status.ERRATUM and r.evidence is Evidence.TABLE
    # errata do not turn a bounded verdict into an erratum
    assert derive(rec_with((True, "", inst()), errata=[e])).status is Status.VERIFIED


def test_derived_fields():
    rec = rec_with(
        (True, "", inst(n=1, alpha="symbolic alpha in (0,1)", kind=ALL_N)),
        (True, "", inst(n=2, kind=SAMPLED, sample="a")),
        (True, "", inst(n=3, kind=SAMPLED, sample="b")),
        values={"z": "1", "a": "2"},
    )
    rec.certificate = {"lps": []}
    r = derive(rec)
    assert r.status is Status.PROVED and r.symbolic_alpha is True and r.samples == 2
    assert r.values == {"z": "1", "a": "2", "sample_digest": sample_digest(rec.decided(SAMPLED))}
    assert r.certificate == {"lps": []}
    assert list(r.grid) == ["all-n", "sampled"]
    assert derive(rec_with((True, "", inst()))).symbolic_alpha is False
    assert "sample_digest" not in derive(rec_with((True, "", inst()))).values
    assert rec.values == {"z": "1", "a": "2"}  # the record is not changed


def test_sample_digest_is_the_first_16_hex_of_sha256_over_keys():
    rec = rec_with((True, "", inst(kind=SAMPLED, sample="a")), (True, "", inst(n=2, kind=SAMPLED, sample="b")))
    h = hashlib.sha256()
    for d in rec.decisions:
        h.update(d.instance.key().encode())
    assert sample_digest(rec.decisions) == h.hexdigest()[:16]
    assert sample_digest(rec.decisions) != sample_digest(rec.decisions[::-1])


@pytest.mark.parametrize(
    "dep, status, capped, note",
    [
        (Status.PROVED, Status.PROVED, None, ""),
        (Status.VERIFIED, Status.VERIFIED, "d", "capped at verified: rests on d, which is verified"),
        (Status.TESTED, Status.TESTED, "d", "capped at tested: rests on d, which is tested"),
        (Status.REPRODUCED, Status.TESTED, "d", "capped at tested: rests on d, which is reproduced"),
        (Status.ERRATUM, Status.TESTED, "d", "capped at tested: rests on d, which is erratum"),
        (Status.REFUTED, Status.INCONCLUSIVE, "d", "rests on d, which is refuted"),
        (Status.PENDING, Status.INCONCLUSIVE, "d", "rests on d, which is pending"),
        ("inconclusive", Status.INCONCLUSIVE, "d", "rests on d, which is inconclusive"),
    ],
)
def test_cap_by_one_dependency(dep, status, capped, note):
    r = cap(Result(Status.PROVED, notes="base"), {"d": dep})
    assert r.status is status and r.capped_by == capped
    assert r.notes == "; ".join(x for x in ("base", note) if x)
    r = cap(Result(Status.PROVED), {"d": dep})
    assert r.notes == note


def test_a_tested_claim_is_not_capped_by_a_reproduced_dependency():
    r = cap(Result(Status.TESTED), {"d": Status.REPRODUCED})
    assert r.status is Status.TESTED and r.capped_by is None and r.notes == ""
    r = cap(Result(Status.REPRODUCED), {"d": Status.PROVED})
    assert r.status is Status.REPRODUCED and r.capped_by is None


def test_cap_picks_the_weakest_and_records_every_dependency_sorted():
    deps = {"z": Status.PROVED, "b": Status.VERIFIED, "a": Status.VERIFIED, "m": Status.TESTED}
    r = cap(Result(Status.PROVED), deps)
    assert r.status is Status.TESTED and r.capped_by == "m"
    assert r.depends_on == [
        {"id": "a", "status": "verified"},
        {"id": "b", "status": "verified"},
        {"id": "m", "status": "tested"},
        {"id": "z", "status": "proved"},
    ]
    r = cap(Result(Status.PROVED), {"z": Status.VERIFIED, "b": Status.VERIFIED})
    assert r.capped_by == "b"  # ties go to the smallest id
    r = cap(Result(Status.PROVED), {"a": Status.TESTED, "b": Status.ERROR})
    assert r.status is Status.INCONCLUSIVE and r.capped_by == "b"


def test_unsettled_results_are_not_capped_but_record_dependencies():
    for st in (Status.REFUTED, Status.INCONCLUSIVE, Status.ERROR, Status.PENDING):
        r = cap(Result(st), {"d": Status.TESTED})
        assert r.status is st and r.capped_by is None
        assert r.depends_on == [{"id": "d", "status": "tested"}]


def test_to_json_has_every_field_and_outcome_counts():
    rec = rec_with((True, "", inst(n=1)), (False, "w", inst(n=2)), (None, "t", inst(n=3)), values={"b": "2", "a": "1"})
    r = derive(rec)
    doc = r.to_json()
    assert list(doc) == [
        "status",
        "evidence",
        "grid",
        "samples",
        "symbolic_alpha",
        "instances",
        "depends_on",
        "capped_by",
        "values",
        "counterexample",
        "certificate",
        "errata",
        "notes",
        "coverage",
        "decisions",
    ]
    assert doc["status"] == "refuted" and doc["evidence"] == "bounded"
    assert doc["instances"] == {"decided": 3, "holds": 1, "counterexample": 1, "inconclusive": 1}
    assert list(doc["values"]) == ["a", "b"]
    assert doc["decisions"] == [d.to_json() for d in rec.decisions]
    e = Erratum("T", "1", "2", "typo", "x")
    assert Result(Status.ERRATUM, errata=[e]).to_json()["errata"] == [
        {"entry": "T", "printed": "1", "correct": "2", "cls": "typo", "explanation": "x"}
    ]
    assert [str(o) for o in Outcome] == ["holds", "counterexample", "inconclusive"]


def test_grid_of_groups_alphas_in_first_seen_order():
    rec = rec_with(
        (True, "", inst(n=2, alpha="1/3")),
        (True, "", inst(n=1, alpha="1/3")),
        (True, "", inst(n=1, alpha="1/2")),
        (True, "", inst(n=2, alpha="1/2")),
        (True, "", inst(n=None, alpha="1/2", kind=ALL_N)),
        (True, "", inst(n=3, alpha="2/3")),
        (True, "", inst(n=None, alpha="2/3", kind=ALL_N)),
    )
    assert grid_of(rec.decisions) == [
        {"alphas": ["1/3"], "n": [1, 2]},
        {"alphas": ["1/2"], "n": [None, 1, 2]},
        {"alphas": ["2/3"], "n": [None, 3]},
    ]
    assert grid_of(rec.decisions[:4]) == [{"alphas": ["1/3", "1/2"], "n": [1, 2]}]
    assert grid_of([]) == []


@pytest.mark.parametrize(
    "ns, text",
    [
        ([None], "all n"),
        ([None, 1, 2], "all n; n<=2"),
        ([1], "n=1"),
        ([1, 2], "n<=2"),
        ([0, 1], "n=0..1"),
        ([3, 5], "n in {3, 5}"),
        ([1, 2, 4], "n in {1, 2, 4}"),
        ([], ""),
    ],
)
def test_n_text_cases(ns, text):
    assert n_text(ns) == text


def test_grid_text_prefixes_only_the_first_row():
    assert grid_text([{"alphas": ["1/2", "1/3"], "n": [2]}]) == "alpha=1/2, 1/3: n=2"
    assert grid_text([{"alphas": ["a"], "n": [1]}, {"alphas": ["b"], "n": [None]}]) == "alpha=a: n=1; b: all n"
    assert grid_text([]) == ""


def test_scope_text_of_the_status_evidence():
    rec = rec_with((True, "", inst(n=1, kind=SAMPLED, sample="a")), (True, "", inst(n=2, kind=SAMPLED, sample="b")))
    r = derive(rec)
    assert r.scope_text == "alpha=1/2: n<=2 (K=2)" == scope_text(r)
    assert scope_text(r.to_json()) == "alpha=1/2: n<=2 (K=2)"
    assert scope_text({"evidence": "sampled", "grid": {"sampled": [{"alphas": ["1/2"], "n": [1]}]}}) == (
        "alpha=1/2: n=1 (K=0)"
    )
    assert scope_text({"evidence": "bounded", "grid": {"bounded": [{"alphas": ["1/2"], "n": [1]}]}}) == "alpha=1/2: n=1"
    assert scope_text({"evidence": "bounded", "grid": {"sampled": [{"alphas": ["1/2"], "n": [1]}]}}) == ""
    assert scope_text({"evidence": "none", "grid": None}) == ""
    assert scope_text(Result(Status.ERROR)) == ""


def test_a_float_free_record_keeps_fraction_alphas():
    r = derive(rec_with((True, "", inst(alpha=F(2, 4)))))
    assert r.grid == {"bounded": [{"alphas": ["1/2"], "n": [1]}]}


def test_an_inconclusive_verdict_keeps_the_record():
    rec = rec_with((True, "", inst(n=1)), (None, "t1", inst(n=2)), values={"v": "1"})
    r = derive(rec)
    assert r.status is Status.INCONCLUSIVE and r.evidence is Evidence.NONE
    assert r.grid == {"bounded": [{"alphas": ["1/2"], "n": [1, 2]}]}
    assert r.decisions == rec.decisions and r.values == {"v": "1"}


def test_a_passing_verdict_keeps_the_checks_notes():
    r = derive(rec_with((True, "", inst()), notes=["first", "", "second"]))
    assert r.status is Status.VERIFIED and r.notes == "first; second"


def test_grid_n_are_sorted_numerically_with_all_n_first():
    rec = rec_with(
        (True, "", inst(n=8)),
        (True, "", inst(n=1)),
        (True, "", inst(n=33)),
        (True, "", inst(n=None, kind=ALL_N)),
        (True, "", inst(n=9)),
    )
    assert grid_of(rec.decisions) == [{"alphas": ["1/2"], "n": [None, 1, 8, 9, 33]}]


def test_scope_text_reads_n_by_the_evidence_kind():
    all_n = {"evidence": "all-n", "grid": {"all-n": [{"alphas": ["symbolic"], "n": [None]}]}}
    assert scope_text(all_n) == "alpha=symbolic: all n"
    table = {"evidence": "table", "grid": {"table": [{"alphas": ["1/5"], "n": [None]}]}}
    assert scope_text(table) == "alpha=1/5"


# ---------------------------------------------------------------- the printed class and PARTIAL


def test_derive_reads_the_printed_class_from_the_catalog_by_default():
    """gs2010 Definition 1 is printed for alpha in [0, 1]: an instance inside the range leaves both ends undecided."""
    rec = Findings("gs2010.def1")
    rec.decide(True, n=2, alpha="1/2", kind=BOUNDED, method="m")
    got = derive(rec)
    assert got.status is Status.PARTIAL
    assert got.coverage.undecided == [
        "alpha = 0 (an end of the printed [0, 1])",
        "alpha = 1 (an end of the printed [0, 1])",
    ]
    assert got.notes == (
        "undecided part of the printed class: alpha = 0 (an end of the printed [0, 1]); "
        "alpha = 1 (an end of the printed [0, 1])"
    )
    assert got.to_json()["coverage"] == got.coverage.to_json()
    assert got.to_json()["coverage"]["undecided"] == got.coverage.undecided


def test_a_claim_capped_by_a_partial_dependency_says_why():
    rec = Findings("c")
    rec.decide(True, n=2, alpha="1/2", kind=BOUNDED, method="m")
    got = cap(derive(rec), {"dep.claim": Status.PARTIAL})
    assert (got.status, got.capped_by) == (Status.PARTIAL, "dep.claim")
    assert got.notes == "rests on dep.claim, which is decided on part of its printed class"
