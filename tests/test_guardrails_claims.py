"""Guard rails of udpm.claims.registry (mutation-run kills): one check per declared claim, globs that must match,
dependencies in order and without cycles, and a check that crashes, runs away or returns the wrong
thing is an error or inconclusive, never a pass."""

import signal
import sys
import threading
import time

import pytest

from udpm.claims import registry as claims
from udpm.claims.evidence import Result, Status
from udpm.claims.findings import Findings
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Claim, Context
from udpm.errors import CheckTimeout, ExpectationsError, HarnessError, SolverTimeout, UnknownClaim

CAT = {
    "p.a": Claim("p.a", "Lemma 1", "a"),
    "p.b": Claim("p.b", "Lemma 2", "b", depends_on=("p.a",)),
    "q.c": Claim("q.c", "Thm 1", "c", depends_on=("p.b", "p.a")),
}


@pytest.fixture
def registry(monkeypatch):
    cat = dict(CAT)
    monkeypatch.setattr(claims, "catalog", lambda: cat)
    monkeypatch.setattr(claims, "_CHECKERS", {})
    return cat


def holds(ctx):
    rec = Findings("p.a")
    rec.decide(True, n=1, alpha="1/2", kind=BOUNDED, method="m")
    return rec


def test_claim_paper_is_the_id_prefix():
    assert Claim("grs2011.ex2.1", "", "").paper == "grs2011"
    assert Claim("zlcn", "", "").paper == "zlcn"


def test_context_defaults_and_a_reproducible_rng():
    ctx = Context()
    assert (ctx.quick, ctx.seed, ctx.solver_timeout, ctx.claim_timeout) == (True, 0, 60.0, 600.0)
    assert ctx.rng("x").random() == Context().rng("x").random()
    assert ctx.rng("x").random() != ctx.rng("y").random()
    assert ctx.rng("x").random() != Context(seed=1).rng("x").random()
    import random

    assert ctx.rng("p.a").random() == random.Random("0:p.a").random()


def test_the_catalog_is_keyed_by_id():
    from udpm.claims.catalog import CLAIMS

    cat = claims.catalog()
    assert list(cat) == [c.id for c in CLAIMS]
    assert all(cat[c.id] is c for c in CLAIMS)


def test_checks_binds_one_function_per_declared_claim(registry):
    def f(ctx):
        return None

    def g(ctx):
        return None

    assert claims.checks("p.a")(f) is f
    assert claims._CHECKERS == {"p.a": f}
    assert claims.checks("p.a")(f) is f  # binding the same function again is harmless
    with pytest.raises(HarnessError) as e:
        claims.checks("p.a")(g)
    assert str(e.value) == (
        "claim p.a has two checks: test_checks_binds_one_function_per_declared_claim.<locals>.f and "
        "test_checks_binds_one_function_per_declared_claim.<locals>.g"
    )
    with pytest.raises(UnknownClaim) as e:
        claims.checks("p.zz")(g)
    assert str(e.value) == "@checks names 'p.zz', which udpm.claims.catalog does not declare"


def test_load_checkers_skips_private_modules(monkeypatch, tmp_path):
    pkg = tmp_path / "fakepkg_guardrails"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "_private.py").write_text("raise RuntimeError('private modules are not imported')\n")
    (pkg / "b.py").write_text("import fakepkg_guardrails as p\np.order.append('b')\n")
    (pkg / "a.py").write_text(
        "import fakepkg_guardrails as p\np.order = getattr(p, 'order', [])\np.order.append('a')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert claims.CHECK_PACKAGES == ("proofs", "experiments")
    monkeypatch.setattr(claims, "CHECK_PACKAGES", ("fakepkg_guardrails",))
    monkeypatch.setattr(claims, "_CHECKERS", {"p.a": holds})
    try:
        bound = claims.load_checkers()
        import fakepkg_guardrails

        assert fakepkg_guardrails.order == ["a", "b"]
        assert bound == {"p.a": holds} and bound is not claims._CHECKERS
    finally:
        for name in [m for m in sys.modules if m.startswith("fakepkg_guardrails")]:
            del sys.modules[name]


def test_select_by_glob_and_paper():
    ids = ["p.a", "p.b", "q.c", "q.d"]
    assert claims.select(ids) == ids
    assert claims.select(ids, ["p.*"]) == ["p.a", "p.b"]
    assert claims.select(ids, ["q.d", "p.a"]) == ["p.a", "q.d"]
    assert claims.select(ids, paper="q") == ["q.c", "q.d"]
    assert claims.select(ids, ["*.c", "*.d"], paper="q") == ["q.c", "q.d"]
    with pytest.raises(UnknownClaim) as e:
        claims.select(ids, ["p.*", "r.*"])
    assert str(e.value) == "no claim matches 'r.*'; see reproduce.py --list"
    with pytest.raises(UnknownClaim) as e:
        claims.select(ids, ["p.a"], paper="q")
    assert str(e.value) == "no claim matches 'p.a' in paper 'q'; see reproduce.py --list"
    with pytest.raises(UnknownClaim) as e:
        claims.select(ids, paper="r")
    assert str(e.value) == "no claim in paper 'r'; see reproduce.py --list"
    with pytest.raises(UnknownClaim) as e:
        claims.select([])
    assert str(e.value) == "no claim; see reproduce.py --list"
    assert claims.select(["pp.a", "p.b"], paper="p") == ["p.b"]  # the paper is the whole prefix


def test_time_bound_raises_check_timeout_and_restores_the_handler():
    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(CheckTimeout) as e, claims._time_bound(0.05):
        time.sleep(2)
    assert str(e.value) == "the check exceeded its wall-clock bound of 0.05 s"
    assert signal.getsignal(signal.SIGALRM) is before
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with claims._time_bound(5):
        pass
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before


def test_time_bound_outside_the_main_thread_does_nothing():
    seen = []

    def worker():
        with claims._time_bound(0.01):
            time.sleep(0.05)
            seen.append(signal.getitimer(signal.ITIMER_REAL))

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    assert seen == [(0.0, 0.0)]


def test_dependency_order_puts_dependencies_first(registry):
    assert claims.dependency_order(["q.c"]) == ["p.a", "p.b", "q.c"]
    assert claims.dependency_order(["p.b", "p.a", "p.b"]) == ["p.a", "p.b"]
    assert claims.dependency_order([]) == []


def test_dependency_cycles_and_unknown_dependencies_are_refused(registry):
    registry["p.a"] = Claim("p.a", "", "", depends_on=("q.c",))
    with pytest.raises(HarnessError) as e:
        claims.dependency_order(["p.b"])
    assert str(e.value) == "claims depend on each other in a cycle: p.b -> p.a -> q.c -> p.b"
    registry["p.a"] = Claim("p.a", "", "", depends_on=("p.zz",))
    with pytest.raises(UnknownClaim) as e:
        claims.dependency_order(["p.b"])
    assert str(e.value) == "p.a depends on 'p.zz', which udpm.claims.catalog does not declare"


def test_run_check_pending_when_nothing_is_bound(registry):
    found, seconds = claims.run_check("p.a", Context())
    assert found.status is Status.PENDING and seconds == 0.0
    assert found.notes == "declared in udpm.claims.catalog; no check is implemented yet"


def test_run_check_returns_findings_and_time(registry):
    claims.checks("p.a")(holds)
    found, seconds = claims.run_check("p.a", Context())
    assert isinstance(found, Findings) and found.decisions
    assert 0 <= seconds < 5


@pytest.mark.parametrize("exc", [SolverTimeout("z3 said unknown"), CheckTimeout("z3 said unknown")])
def test_a_timeout_is_inconclusive(registry, exc):
    def slow(ctx):
        raise exc

    claims.checks("p.a")(slow)
    found, _ = claims.run_check("p.a", Context())
    assert found.status is Status.INCONCLUSIVE
    assert found.notes == "no answer within the bound: z3 said unknown"


def test_a_runaway_check_is_stopped_by_the_claim_timeout(registry):
    def runaway(ctx):
        time.sleep(5)

    claims.checks("p.a")(runaway)
    found, seconds = claims.run_check("p.a", Context(claim_timeout=0.1))
    assert found.status is Status.INCONCLUSIVE and seconds < 4
    assert found.notes == "no answer within the bound: the check exceeded its wall-clock bound of 0.1 s"


def test_a_crash_is_an_error_naming_the_place(registry):
    def crash(ctx):
        raise ZeroDivisionError("boom")

    claims.checks("p.a")(crash)
    found, _ = claims.run_check("p.a", Context())
    assert found.status is Status.ERROR
    line = crash.__code__.co_firstlineno + 1
    assert found.notes == f"ZeroDivisionError: boom (at test_guardrails_claims.py:{line})"


def test_a_malformed_paper_table_stops_the_run(registry):
    def bad(ctx):
        raise ExpectationsError("paper_tables/x.json is missing")

    claims.checks("p.a")(bad)
    with pytest.raises(ExpectationsError):
        claims.run_check("p.a", Context())


def test_a_check_returning_something_else_is_an_error(registry):
    claims.checks("p.a")(lambda ctx: {"status": "proved"})
    found, _ = claims.run_check("p.a", Context())
    assert found.status is Status.ERROR and found.notes == "the check returned dict, not Findings"
    claims._CHECKERS["p.a"] = lambda ctx: Result(Status.PROVED, notes="declared")
    found, _ = claims.run_check("p.a", Context())
    assert found.status is Status.PROVED and found.notes == "declared"


def test_judge_derives_findings_and_caps_verdicts(registry):
    rec = holds(None)
    assert claims.judge("p.a", rec, {}).status is Status.VERIFIED
    r = claims.judge("p.b", rec, {"p.a": Status.TESTED})
    assert r.status is Status.TESTED and r.capped_by == "p.a"
    assert r.depends_on == [{"id": "p.a", "status": "tested"}]
    v = claims.judge("p.b", Result(Status.PROVED), {"p.a": Status.REFUTED})
    assert v.status is Status.INCONCLUSIVE and v.capped_by == "p.a"


def test_run_claim_runs_dependencies_first_and_caps(registry):
    order = []

    def check(cid, outcome):
        def fn(ctx):
            order.append(cid)
            rec = Findings(cid)
            rec.decide(outcome, "witness", n=1, alpha="1/2", kind=BOUNDED, method="m")
            return rec

        return fn

    claims.checks("p.a")(check("p.a", False))
    claims.checks("p.b")(check("p.b", True))
    claims.checks("q.c")(check("q.c", True))
    result, seconds = claims.run_claim("q.c", Context())
    assert order == ["p.a", "p.b", "q.c"]
    assert result.status is Status.INCONCLUSIVE and result.capped_by == "p.a"
    assert seconds >= 0
    order.clear()
    result, _ = claims.run_claim("p.a", Context())
    assert order == ["p.a"] and result.status is Status.REFUTED


def test_an_unknown_claim_asked_for_directly_and_deep_dependencies(registry):
    with pytest.raises(UnknownClaim) as e:
        claims.dependency_order(["zz.unknown"])
    assert str(e.value) == "? depends on 'zz.unknown', which udpm.claims.catalog does not declare"
    registry["p.a"] = Claim("p.a", "", "", depends_on=("p.zz",))
    with pytest.raises(UnknownClaim) as e:
        claims.dependency_order(["q.c"])  # q.c -> p.b -> p.a -> p.zz
    assert str(e.value) == "p.a depends on 'p.zz', which udpm.claims.catalog does not declare"


def test_dependency_order_follows_the_catalog_not_the_alphabet(registry):
    registry.clear()
    registry["z.first"] = Claim("z.first", "", "")
    registry["a.second"] = Claim("a.second", "", "")
    assert claims.dependency_order(["a.second", "z.first"]) == ["z.first", "a.second"]


def test_select_by_paper_uses_the_first_dot():
    assert claims.select(["p.a.b", "p.c", "pa.b"], paper="p") == ["p.a.b", "p.c"]


def test_the_check_gets_the_runs_context(registry):
    seen = []

    def check(ctx):
        seen.append(ctx)
        return holds(ctx)

    claims.checks("p.a")(check)
    ctx = Context(seed=7)
    claims.run_check("p.a", ctx)
    assert seen == [ctx]


def _helper():
    raise KeyError("deep")


def test_a_crash_names_the_innermost_frame(registry):
    def crash(ctx):
        _helper()

    claims.checks("p.a")(crash)
    found, _ = claims.run_check("p.a", Context())
    line = _helper.__code__.co_firstlineno + 1
    assert found.notes == f"KeyError: 'deep' (at test_guardrails_claims.py:{line})"


def test_dependency_order_sorts_many_ids_by_catalog_and_refuses_a_mixed_in_unknown(registry):
    registry.clear()
    ids = [f"{c}.x" for c in "zyxwvutsrq"]  # the catalog order is the reverse of the alphabet
    for cid in ids:
        registry[cid] = Claim(cid, "", "", "")
    assert claims.dependency_order(sorted(ids)) == ids
    with pytest.raises(UnknownClaim) as e:
        claims.dependency_order(["z.x", "zz.unknown", "q.x"])
    assert str(e.value) == "? depends on 'zz.unknown', which udpm.claims.catalog does not declare"
