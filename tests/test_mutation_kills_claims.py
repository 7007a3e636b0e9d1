"""The claim registry's task plans and restricted claims, pinned as their docstrings describe them.

A planned check asks :func:`part` for each task (answered from :func:`supplied` parts for its own
(claim, descriptor), decided otherwise) and appends its decisions with :func:`absorb`; a claim that
restates a printed one on part of its class is decided by the printed claim's check (:func:`restricted`,
:func:`restrict`), and :func:`load_checkers` binds it so when it has no check of its own.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import replace

import pytest

from udpm.claims import registry as claims
from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED, Erratum, Outcome
from udpm.claims.registry import Claim, Context, Plan
from udpm.claims.statements import AlphaRange, PrintedClass
from udpm.errors import HarnessError

WIDE = PrintedClass(AlphaRange.parse("(0, 1)"), "0 < alpha < 1", None)
NARROW = PrintedClass(AlphaRange.parse("[1/2, 1)"), "alpha >= 1/2", None)
CAT = {
    "p.wide": Claim("p.wide", "Thm 1", "wide", printed=WIDE),
    "p.narrow": Claim("p.narrow", "Cor 1", "narrow", printed=NARROW, restates="p.wide"),
    "p.whole": Claim("p.whole", "Cor 2", "whole", restates="p.wide"),
    "p.own": Claim("p.own", "Cor 3", "own", printed=NARROW, restates="p.wide"),
    "p.orphan": Claim("p.orphan", "Cor 4", "orphan", printed=NARROW, restates="p.unchecked"),
    "p.unchecked": Claim("p.unchecked", "Thm 2", "unchecked"),
}


@pytest.fixture
def registry(monkeypatch):
    cat = dict(CAT)
    monkeypatch.setattr(claims, "catalog", lambda: cat)
    monkeypatch.setattr(claims, "_CHECKERS", {})
    monkeypatch.setattr(claims, "_PLANS", {})
    return cat


def wide_findings() -> Findings:
    """What the printed claim's check found: decisions in and out of the narrow class, values, errata, certificate."""
    rec = Findings("p.wide")
    for alpha, outcome, detail, smt in [
        ("1/4", Outcome.HOLDS, "", (("h1", "unsat"),)),
        ("3/4", Outcome.COUNTEREXAMPLE, "x = 3", (("h2", "sat"), ("h3", "unsat"))),
        ("1/2", Outcome.INCONCLUSIVE, "unknown", ()),
        ("1/3", Outcome.COUNTEREXAMPLE, "x = 1", ()),
        ("2/3", Outcome.HOLDS, "", (("h4", "unsat"),)),
    ]:
        rec.record(rec.instance(n=2, alpha=alpha, kind=BOUNDED, method="m"), outcome, detail, smt)
    rec.values = {"bound": "1/2", "corrected_bound": "2/3", "bound_corrected_": "3/4", "Corrected_x": "1"}
    rec.erratum("Table 1[0]", "0.5", "1/2", "rounding", "printed rounded")
    rec.certificate = {"kind": "lp", "value": "1/2"}
    rec.notes = ["a note of the printed claim"]
    return rec


# --- task plans -------------------------------------------------------------------------------------


def _plan(calls: list) -> Plan:
    def decide(ctx: Context, descriptor: tuple) -> Findings:
        calls.append((ctx, descriptor))
        rec = Findings("p.wide")
        rec.decide(True, n=descriptor[0], alpha="1/2", kind=BOUNDED, method="decided")
        return rec

    return Plan(tasks=lambda ctx: [(1,), (2,)], decide=decide)


def test_checks_stores_the_plan_and_plan_of_answers_it(registry):
    plan = _plan([])

    def f(ctx):
        return Findings("p.wide")

    assert claims.checks("p.wide", plan)(f) is f
    assert claims.plan_of("p.wide") is plan
    assert claims._PLANS == {"p.wide": plan}
    claims.checks("p.narrow")(f)
    assert claims.plan_of("p.narrow") is None
    assert claims._PLANS == {"p.wide": plan}


def _supplied_findings(n: int) -> Findings:
    rec = Findings("p.wide")
    rec.decide(True, n=n, alpha="1/2", kind=BOUNDED, method="supplied")
    return rec


@pytest.mark.parametrize(
    ("parts_of", "descriptor", "answered"),
    [
        # (claim, descriptor) keys of the supplied parts; the descriptor asked for; answered from the parts?
        ([("p.wide", (1,))], (1,), True),
        ([("p.wide", (1,)), ("p.wide", (2,))], (2,), True),
        ([("p.wide", (2,))], (1,), False),  # another task of the same claim
        ([("p.narrow", (1,))], (1,), False),  # the same task of another claim
        ([], (1,), False),
    ],
)
def test_part_answers_from_supplied_parts_only_for_its_own_task(registry, parts_of, descriptor, answered):
    calls: list = []
    claims._PLANS["p.wide"] = _plan(calls)
    parts = {key: _supplied_findings(key[1][0]) for key in parts_of}
    ctx = Context(seed=7)
    with claims.supplied(parts):
        got = claims.part("p.wide", ctx, descriptor)
    if answered:
        assert got is parts[("p.wide", descriptor)]
        assert calls == []
    else:
        assert calls == [(ctx, descriptor)] and calls[0][0] is ctx
        assert [d.instance.method for d in got.decisions] == ["decided"]
        assert got.decisions[0].instance.n == descriptor[0]


def test_part_decides_outside_any_supplied_block_and_after_one(registry):
    calls: list = []
    claims._PLANS["p.wide"] = _plan(calls)
    ctx = Context(seed=3)
    out: dict = {}

    def fresh_thread():  # a thread that never entered supplied(): the thread-local holds no parts at all
        try:
            out["found"] = claims.part("p.wide", ctx, (2,))
        except Exception as exc:  # reported to the test below
            out["error"] = exc

    t = threading.Thread(target=fresh_thread)
    t.start()
    t.join()
    assert "error" not in out, out.get("error")
    assert out["found"].decisions[0].instance.n == 2
    with claims.supplied({("p.wide", (1,)): _supplied_findings(1)}):
        pass
    found = claims.part("p.wide", ctx, (1,))  # the block is over: decided, not supplied
    assert found.decisions[0].instance.method == "decided"
    assert calls == [(ctx, (2,)), (ctx, (1,))]


def test_supplied_nests_and_restores_the_outer_parts(registry):
    claims._PLANS["p.wide"] = _plan([])
    outer, inner = _supplied_findings(1), _supplied_findings(2)
    with claims.supplied({("p.wide", (1,)): outer}):
        with claims.supplied({("p.wide", (2,)): inner}):
            assert claims.part("p.wide", Context(), (2,)) is inner
            assert claims.part("p.wide", Context(), (1,)).decisions[0].instance.method == "decided"
        assert claims.part("p.wide", Context(), (1,)) is outer


def test_absorb_appends_every_decision_whole_and_in_order():
    found = wide_findings()
    rec = Findings("p.wide")
    earlier = rec.instance(n=1, alpha="1/2", kind=BOUNDED, method="earlier")
    rec.record(earlier, Outcome.HOLDS)
    claims.absorb(rec, found)
    assert rec.decisions[1:] == found.decisions
    assert [(d.instance, d.outcome, d.detail, d.smt) for d in rec.decisions[1:]] == [
        (d.instance, d.outcome, d.detail, d.smt) for d in found.decisions
    ]
    assert rec.decisions[2].detail == "x = 3" and rec.decisions[2].smt == (("h2", "sat"), ("h3", "unsat"))
    assert rec.decisions[0].instance == earlier
    assert rec.values == {} and rec.errata == [] and rec.certificate is None  # decisions only
    with pytest.raises(HarnessError, match="decided the same instance twice"):
        claims.absorb(rec, found)


# --- restricted claims ------------------------------------------------------------------------------


NARROW_NOTE = (
    "decided by the check of p.wide, its instances kept where they lie in this claim's "
    "printed class (alpha in [1/2, 1))"
)
WHOLE_NOTE = (
    "decided by the check of p.wide, its instances kept where they lie in this claim's "
    "printed class (alpha in the printed range)"
)


@pytest.mark.parametrize(
    ("claim_id", "kept_alphas", "note"),
    [
        # 1/4 and 1/3 lie outside [1/2, 1); a class with no printed alpha keeps every alpha
        ("p.narrow", ["3/4", "1/2", "2/3"], NARROW_NOTE),
        ("p.whole", ["1/4", "3/4", "1/2", "1/3", "2/3"], WHOLE_NOTE),
    ],
)
def test_restrict_keeps_the_narrow_class_and_renames(registry, claim_id, kept_alphas, note):
    found = wide_findings()
    rec = claims.restrict(claim_id, found)
    assert rec.claim == claim_id
    by_alpha = {d.instance.alpha: d for d in found.decisions}
    assert rec.decisions == [
        replace(by_alpha[a], instance=replace(by_alpha[a].instance, claim=claim_id)) for a in kept_alphas
    ]
    assert all(d.instance.claim == claim_id for d in rec.decisions)
    assert [(d.outcome, d.detail, d.smt) for d in rec.decisions] == [
        (by_alpha[a].outcome, by_alpha[a].detail, by_alpha[a].smt) for a in kept_alphas
    ]
    assert rec.values == {"bound": "1/2", "bound_corrected_": "3/4", "Corrected_x": "1"}
    assert rec.errata == found.errata == [Erratum("Table 1[0]", "0.5", "1/2", "rounding", "printed rounded")]
    assert rec.certificate == {"kind": "lp", "value": "1/2"}
    assert rec.notes == [note]
    assert [d.instance.claim for d in found.decisions] == ["p.wide"] * 5  # the printed findings are untouched
    assert "corrected_bound" in found.values


def test_restricted_runs_the_printed_check_and_restricts(registry):
    seen: list = []

    def wide(ctx):
        seen.append(ctx)
        return wide_findings()

    claims._CHECKERS["p.wide"] = wide
    check = claims.restricted("p.narrow")
    assert check.__qualname__ == "restricted('p.narrow')"
    assert check.restricts == "p.wide"
    ctx = Context(seed=5)
    rec = check(ctx)
    assert seen == [ctx] and seen[0] is ctx
    assert rec == claims.restrict("p.narrow", wide_findings())
    assert rec.claim == "p.narrow" and rec.notes == [NARROW_NOTE]
    assert [d.instance.alpha for d in rec.decisions] == ["3/4", "1/2", "2/3"]


def test_restricted_from_names_the_printed_claim_only_for_a_restricted_check(registry):
    def wide(ctx):
        return wide_findings()

    claims._CHECKERS.update({"p.wide": wide, "p.narrow": claims.restricted("p.narrow")})
    assert claims.restricted_from("p.narrow") == "p.wide"
    assert claims.restricted_from("p.wide") is None  # a check of its own
    assert claims.restricted_from("p.whole") is None  # no check bound at all


def _write(path, text=""):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_load_checkers_imports_in_sorted_order_and_binds_restated_claims(registry, monkeypatch, tmp_path):
    # a namespace package over two directories: walk_packages lists the first directory's modules first,
    # so only sorting by name imports fakens_claims.a before fakens_claims.z
    log = "import builtins\nbuiltins._fakens_claims_order.append(__name__)\n"
    first, second = tmp_path / "one" / "fakens_claims", tmp_path / "two" / "fakens_claims"
    _write(first / "z.py", log)
    _write(first / "sub" / "__init__.py")
    _write(first / "sub" / "m.py", log)
    _write(first / "sub" / "_hidden.py", "raise RuntimeError('a private module is not imported')\n")
    _write(second / "a.py", log)
    _write(second / "_priv" / "__init__.py")
    _write(second / "_priv" / "ok.py", "raise RuntimeError('a module of a private package is not imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "two"))
    monkeypatch.syspath_prepend(str(tmp_path / "one"))
    import builtins

    monkeypatch.setattr(builtins, "_fakens_claims_order", [], raising=False)
    monkeypatch.setattr(claims, "CHECK_PACKAGES", ("fakens_claims",))

    def wide(ctx):
        return wide_findings()

    def own(ctx):
        return Findings("p.own")

    claims._CHECKERS.update({"p.wide": wide, "p.own": own})
    try:
        bound = claims.load_checkers()
        assert builtins._fakens_claims_order == ["fakens_claims.a", "fakens_claims.sub.m", "fakens_claims.z"]
    finally:
        for name in [m for m in sys.modules if m.startswith("fakens_claims")]:
            del sys.modules[name]
    assert sorted(bound) == ["p.narrow", "p.own", "p.whole", "p.wide"]
    assert bound == claims._CHECKERS and bound is not claims._CHECKERS
    assert bound["p.wide"] is wide and bound["p.own"] is own  # a check of its own is kept
    for cid in ("p.narrow", "p.whole"):
        assert bound[cid].restricts == "p.wide"
        assert bound[cid].__qualname__ == f"restricted({cid!r})"
        assert claims.restricted_from(cid) == "p.wide"
    assert bound["p.narrow"](Context()) == claims.restrict("p.narrow", wide_findings())
    assert "p.orphan" not in bound  # its printed claim has no check either: pending
