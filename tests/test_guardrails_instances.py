"""Guard rails of udpm.claims.instances (mutation-run kills): exact alpha labels, stable keys, one decision per
instance, refutations need witnesses, timeouts are inconclusive, errata need a known class."""

import hashlib
import json
from fractions import Fraction as F

import pytest

from udpm.claims.findings import Deciding, Findings
from udpm.claims.instances import (
    ALL_N,
    BOUNDED,
    ERRATUM_CLASSES,
    INSTANCE_FORMAT,
    SAMPLED,
    SYMBOLIC,
    TABLE,
    UNCLASSIFIED,
    Decision,
    Erratum,
    Instance,
    Kind,
    Outcome,
    alpha_label,
    is_symbolic,
)
from udpm.errors import HarnessError, SolverTimeout


def test_kind_and_outcome_texts():
    assert (str(ALL_N), str(BOUNDED), str(SAMPLED), str(TABLE)) == ("all-n", "bounded", "sampled", "table")
    assert Kind("bounded") is BOUNDED
    assert (str(Outcome.HOLDS), str(Outcome.COUNTEREXAMPLE), str(Outcome.INCONCLUSIVE)) == (
        "holds",
        "counterexample",
        "inconclusive",
    )


def test_alpha_labels_are_exact():
    assert alpha_label(F(2, 4)) == "1/2" and alpha_label(3) == "3" and alpha_label("zlcn alpha=2") == "zlcn alpha=2"
    with pytest.raises(HarnessError) as e:
        alpha_label(0.5)
    assert str(e.value) == "an instance's alpha must be exact (Fraction, int or a label), got float 0.5"
    with pytest.raises(HarnessError) as e:
        alpha_label(True)
    assert str(e.value) == "an instance's alpha must be exact (Fraction, int or a label), got bool True"


def test_symbolic_labels():
    assert SYMBOLIC == "symbolic"
    assert is_symbolic("symbolic") and is_symbolic("symbolic alpha in (0,1)")
    assert not is_symbolic("1/2") and not is_symbolic("zlcn symbolic") and not is_symbolic("Symbolic")


def test_instance_describe_and_json():
    i = Instance("c", None, "1/2", ALL_N, "sympy", "all users", (("a", "1"), ("b", "x")))
    assert i.describe() == "n=all alpha=1/2 all-n sympy a=1 b=x"
    assert Instance("c", 3, "1/3", BOUNDED, "lp").describe() == "n=3 alpha=1/3 bounded lp"
    assert i.to_json() == {
        "n": None,
        "alpha": "1/2",
        "kind": "all-n",
        "method": "sympy",
        "covers": "all users",
        "params": {"a": "1", "b": "x"},
    }


def test_instance_key_is_sha256_of_the_canonical_blob():
    i = Instance("c", 2, "1/2", BOUNDED, "lp", "u", (("k", "v"),))
    assert INSTANCE_FORMAT == 1
    blob = json.dumps([1, "c", i.to_json(), "v7"], sort_keys=True)
    assert i.key("v7") == hashlib.sha256(blob.encode()).hexdigest()[:24]
    assert i.key() == hashlib.sha256(json.dumps([1, "c", i.to_json(), ""], sort_keys=True).encode()).hexdigest()[:24]
    assert Instance("d", 2, "1/2", BOUNDED, "lp", "u", (("k", "v"),)).key() != i.key()


def test_decision_json():
    i = Instance("c", 1, "1/2", BOUNDED, "m")
    assert Decision(i, Outcome.COUNTEREXAMPLE, "w").to_json() == {
        **i.to_json(),
        "outcome": "counterexample",
        "detail": "w",
    }
    assert Decision(i, Outcome.HOLDS).detail == ""


def test_deciding_counterexample_needs_a_witness():
    d = Deciding()
    assert (d.witness, d.reason) == (None, None)
    with pytest.raises(HarnessError) as e:
        d.counterexample("")
    assert str(e.value) == "a counterexample needs a concrete witness"
    d.counterexample("X")
    d.inconclusive("cap")
    assert (d.witness, d.reason) == ("X", "cap")


def test_errata_need_a_known_class():
    assert ERRATUM_CLASSES == ("rounding", "typo", "extraction damage", "false claim")
    assert UNCLASSIFIED == "unclassified"
    for cls in (*ERRATUM_CLASSES, UNCLASSIFIED):
        Erratum("e", "1", "2", cls, "x")
    with pytest.raises(ValueError) as e:
        Erratum("e", "1", "2", "Typo", "x")
    assert str(e.value) == f"erratum class must be one of {ERRATUM_CLASSES}, got 'Typo'"


def test_findings_instance_canonicalises_parameters():
    rec = Findings("c")
    i = rec.instance(n=2, alpha=F(1, 2), kind="bounded", method="m", covers="all", z=F(2, 4), a=3, b=True, s="x")
    assert i == Instance("c", 2, "1/2", BOUNDED, "m", "all", (("a", "3"), ("b", "True"), ("s", "x"), ("z", "1/2")))
    assert rec.instance(n=None, alpha="s", kind=ALL_N, method="m").n is None
    for bad in (True, 2.0, "2"):
        with pytest.raises(HarnessError) as e:
            rec.instance(n=bad, alpha="1/2", kind=BOUNDED, method="m")
        assert str(e.value) == f"c: an instance's n must be an int or None, got {bad!r}"
    with pytest.raises(ValueError):
        rec.instance(n=1, alpha="1/2", kind="proved", method="m")


def test_record_refuses_the_same_instance_twice():
    rec = Findings("c")
    i = rec.instance(n=1, alpha="1/2", kind=BOUNDED, method="m")
    d = rec.record(i, "holds")
    assert d == Decision(i, Outcome.HOLDS, "") and rec.decisions == [d]
    rec.record(rec.instance(n=2, alpha="1/2", kind=BOUNDED, method="m"), Outcome.HOLDS)
    with pytest.raises(HarnessError) as e:
        rec.record(i, Outcome.COUNTEREXAMPLE, "w")
    assert str(e.value) == "c decided the same instance twice: n=1 alpha=1/2 bounded m"
    assert len(rec.decisions) == 2


def test_deciding_blocks():
    rec = Findings("c")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="m") as d:
        assert isinstance(d, Deciding)
    with rec.deciding(n=2, alpha="1/2", kind=BOUNDED, method="m") as d:
        d.counterexample("X")
    with rec.deciding(n=3, alpha="1/2", kind=BOUNDED, method="m") as d:
        d.inconclusive("search cap")
    with rec.deciding(n=4, alpha="1/2", kind=BOUNDED, method="m") as d:
        d.inconclusive("ignored")
        d.counterexample("Y")  # a witness wins over a reason
    with rec.deciding(n=5, alpha="1/2", kind=BOUNDED, method="m"):
        raise SolverTimeout("z3 answered unknown")
    assert [(d.instance.n, d.outcome, d.detail) for d in rec.decisions] == [
        (1, Outcome.HOLDS, ""),
        (2, Outcome.COUNTEREXAMPLE, "X"),
        (3, Outcome.INCONCLUSIVE, "search cap"),
        (4, Outcome.COUNTEREXAMPLE, "Y"),
        (5, Outcome.INCONCLUSIVE, "no answer within the bound: z3 answered unknown"),
    ]
    with pytest.raises(ZeroDivisionError), rec.deciding(n=6, alpha="1/2", kind=BOUNDED, method="m"):
        raise ZeroDivisionError
    assert len(rec.decisions) == 5  # a crash decides nothing


def test_decide_outside_a_block():
    rec = Findings("c")
    assert rec.decide(True, "ignored", n=1, alpha="1/2", kind=BOUNDED, method="m") is True
    assert rec.decide(False, "W", n=2, alpha="1/2", kind=BOUNDED, method="m") is False
    assert rec.decide(None, "why", n=3, alpha="1/2", kind=BOUNDED, method="m") is None
    assert [(d.outcome, d.detail) for d in rec.decisions] == [
        (Outcome.HOLDS, ""),
        (Outcome.COUNTEREXAMPLE, "W"),
        (Outcome.INCONCLUSIVE, "why"),
    ]
    with pytest.raises(HarnessError) as e:
        rec.decide(False, n=4, alpha="1/2", kind=BOUNDED, method="m")
    assert str(e.value) == "c: a refuted instance needs its witness (n=4 alpha=1/2 bounded m)"


def test_values_errata_notes():
    rec = Findings("c")
    rec.value(a=F(272, 415), b=3, c=True, d="x", e=F(4, 2))
    assert rec.values == {"a": "272/415", "b": "3", "c": "True", "d": "x", "e": "2"}
    rec.erratum("T[0]", "1/2", "1/3", "typo", "why")
    assert rec.errata == [Erratum("T[0]", "1/2", "1/3", "typo", "why")]
    rec.note("n1")
    assert rec.notes == ["n1"]


def test_derived_views():
    rec = Findings("c")
    rec.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="m")
    rec.decide(True, n=2, alpha="1/2", kind=SAMPLED, method="m", s="a")
    assert str(rec.status) == "verified" and str(rec.evidence) == "bounded" and rec.counterexample is None
    assert str(rec.result({"d": "tested"}).status) == "tested"
    assert str(rec.result().status) == "verified"
    assert rec.decided() == rec.decisions
    assert rec.decided(SAMPLED) == rec.decisions[1:]
    assert rec.decided(outcome=Outcome.HOLDS) == rec.decisions
    assert rec.decided(BOUNDED, Outcome.COUNTEREXAMPLE) == []
    rec.decide(False, "W", n=3, alpha="1/2", kind=BOUNDED, method="m")
    assert rec.counterexample == "n=3 alpha=1/2 bounded m: W"
    assert rec.decided(BOUNDED, Outcome.COUNTEREXAMPLE) == rec.decisions[2:]


def test_an_instance_covers_nothing_unless_told():
    rec = Findings("c")
    assert rec.instance(n=1, alpha="1/2", kind=BOUNDED, method="m").covers == ""
    with rec.deciding(n=2, alpha="1/2", kind=BOUNDED, method="m"):
        pass
    assert rec.decisions[0].instance.covers == "" and rec.decisions[0].to_json()["covers"] == ""


# ---------------------------------------------------------------- the SMT queries a decision rests on


def test_smt_record_counts_each_answer_and_names_every_query_on_one_solver():
    from udpm.smt.reports import smt_record

    z3_only, cvc5_only = "unsat: z3 only (cvc5 unknown: budget spent)", "unsat: cvc5 only (z3 unknown: timeout)"
    queries = (
        ("f1", "unsat: z3+cvc5"),
        ("f1", "unsat: z3+cvc5"),  # the same query reported twice counts once
        ("f0", "unsat: z3+cvc5"),
        ("f2", z3_only),
        ("f2", "unknown: z3 timeout"),
        ("f3", cvc5_only),
        ("f4", "sat: z3 (cvc5 not run)"),
        ("f5", "unknown: z3 timeout"),
    )
    assert smt_record(queries) == {
        "files": ["f0", "f1", "f2", "f3", "f4", "f5"],
        "answers": {
            "sat: z3 (cvc5 not run)": 1,
            "unknown: z3 timeout": 2,
            "unsat: cvc5 only (z3 unknown: timeout)": 1,
            "unsat: z3 only (cvc5 unknown: budget spent)": 1,
            "unsat: z3+cvc5": 2,
        },
        "agreement": "z3+cvc5 on 2 of 4 unsat; z3 only on 1; cvc5 only on 1; undecided on 2",
        "one_solver": {"f2": f"unknown: z3 timeout; {z3_only}", "f3": cvc5_only, "f5": "unknown: z3 timeout"},
    }
    assert smt_record(queries[::-1]) == smt_record(queries)


def test_smt_record_without_an_unsat_answer_says_so():
    from udpm.smt.reports import smt_record

    assert smt_record((("f", "sat: z3 (cvc5 not run)"),)) == {
        "files": ["f"],
        "answers": {"sat: z3 (cvc5 not run)": 1},
        "agreement": "no unsat answer",
    }
    assert smt_record((("f", "unknown: z3 timeout"),))["agreement"] == "no unsat answer; undecided on 1"


def test_a_decision_records_its_queries_and_its_json_shows_them():
    from udpm.smt.reports import smt_query, smt_record

    rec = Findings("c")
    with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="m"):
        smt_query("b", "unsat: z3+cvc5")
        smt_query("a", "unsat: z3+cvc5")
    d = rec.decisions[0]
    assert d.smt == (("a", "unsat: z3+cvc5"), ("b", "unsat: z3+cvc5"))
    assert d.to_json()["smt"] == smt_record(d.smt)
    assert "smt" not in Decision(d.instance, Outcome.HOLDS).to_json()


def test_a_decision_outside_a_block_takes_the_queries_answered_since_the_last_one():
    from udpm.smt.reports import reported_queries, smt_query

    rec = Findings("c")
    smt_query("q1", "unsat: z3+cvc5")
    rec.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="m")
    rec.decide(True, n=2, alpha="1/2", kind=BOUNDED, method="m")  # nothing answered in between
    assert [d.smt for d in rec.decisions] == [(("q1", "unsat: z3+cvc5"),), ()]
    smt_query("q2", "unsat: z3+cvc5")  # loose, then a block opens: the decision inside it is the block's
    with reported_queries() as got:
        rec.decide(True, n=3, alpha="1/2", kind=BOUNDED, method="m")
    assert rec.decisions[-1].smt == () and got == set()
    rec.decide(True, n=4, alpha="1/2", kind=BOUNDED, method="m")
    assert rec.decisions[-1].smt == (("q2", "unsat: z3+cvc5"),)


# ---------------------------------------------------------------- n_from and regions


@pytest.mark.parametrize("n_from", [True, "2", 1.5])
def test_n_from_must_be_an_int(n_from):
    with pytest.raises(HarnessError, match="n_from"):
        Findings("c").instance(n=None, alpha="1/2", kind=ALL_N, method="m", n_from=n_from)


def test_describe_and_json_show_n_from_and_the_region():
    inst = Findings("c").instance(n=None, alpha="1/2", kind=ALL_N, method="m", n_from=0, region="A")
    assert inst.describe() == "n=>=0 alpha=1/2 all-n m [A]"
    assert inst.to_json()["region"] == "A" and inst.to_json()["n_from"] == 0
    plain = Findings("c").instance(n=None, alpha="1/2", kind=ALL_N, method="m")
    assert plain.describe() == "n=all alpha=1/2 all-n m"
    assert "region" not in plain.to_json()
