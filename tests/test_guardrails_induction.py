"""Guard rails for udpm/induction/obligations.py: each test pins a behaviour a mutant of the module got wrong without
the
existing tests noticing (benchmarks/mutation.py).  Grouped by the function they pin."""

from __future__ import annotations

import pytest
import z3

from udpm.errors import VacuousPremise
from udpm.induction.obligations import Obligation, by_induction, discharge

S = z3.Real("s")
BASE = Obligation("base", (), S * 0 == 0)


# ---------------------------------------------------------------- discharge


def test_a_failing_proof_still_names_every_obligation_it_was_given():
    wrong = Obligation("step", (S >= 0,), S >= 1)
    proof = discharge((BASE, wrong), 10)
    assert proof.obligations == ("base", "step")
    assert proof.counterexample == "step fails: s = 0"


def test_a_contradictory_premise_is_refused_naming_its_obligation():
    step = Obligation("ratio step", (S > 1, S < 0), S == 42)
    with pytest.raises(VacuousPremise, match=r"^ratio step: the hypotheses have no model"):
        by_induction(BASE, step, 10)


# ---------------------------------------------------------------- the base case is an obligation too


def _false_base(base: Obligation) -> Obligation:
    """``base`` with its conclusion negated: false wherever its premises hold."""
    return Obligation(base.name, base.premises, z3.Not(base.conclusion))


def test_a_false_base_with_a_true_step_is_not_proved():
    base = Obligation("base", (S >= 1,), S <= 0)  # false at every model of its premise
    step = Obligation("step", (S >= 0,), S + 1 >= 0)  # true
    proof = by_induction(base, step, 10)
    assert not proof.holds
    assert proof.counterexample.startswith("base fails: s = ")
    assert proof.obligations == ("base", "step")


def test_discharge_decides_the_first_obligation_too():
    false_first = Obligation("first", (), S * 0 == 1)
    true_after = Obligation("second", (S >= 0,), S >= 0)
    assert discharge((false_first, true_after), 10).counterexample == "first fails: s = 0"
    assert discharge((true_after, false_first), 10).counterexample == "first fails: s = 0"


def test_a_contradictory_base_premise_is_refused_like_a_step_premise():
    base = Obligation("base", (S > 1, S < 0), S == 42)
    step = Obligation("step", (S >= 0,), S >= 0)
    with pytest.raises(VacuousPremise, match=r"^base: the hypotheses have no model"):
        by_induction(base, step, 10)


@pytest.mark.parametrize(
    "pair",
    ["ratio_bounds_kept", "stochastic_product", "zero_propagation", "simplex_minimum", "no_all_down_row"],
)
def test_every_all_n_proof_fails_when_its_base_is_false(pair):
    from proofs.universality import postprocessing as p

    base, step, *rest = getattr(p, pair)()
    assert discharge((base, step, *rest), 10).holds
    proof = discharge((_false_base(base), step, *rest), 10)
    assert not proof.holds and proof.counterexample.startswith(f"{base.name} fails")


def test_a_claim_built_on_a_false_base_is_not_proved(monkeypatch):
    """grs2011 Lemma 5.2's all-n part with its base case made false: the claim is refuted, never proved."""
    from proofs.universality import direct_mechanisms as r
    from proofs.universality import postprocessing as p
    from udpm.claims.evidence import Status
    from udpm.claims.registry import Context

    real = p.ratio_bounds_kept

    def false_base(upper: bool = True) -> tuple[Obligation, Obligation]:
        base, step = real(upper)
        return _false_base(base), step

    monkeypatch.setattr(p, "ratio_bounds_kept", false_base)
    result = r.direct_mechanisms_suffice(Context()).result()
    assert result.status is not Status.PROVED
    assert result.status is Status.REFUTED and "ratio bounds: base" in result.counterexample
