"""Guard rails for udpm/induction.py: each test pins a behaviour a mutant of the module got wrong without the
existing tests noticing (benchmarks/mutation.py).  Grouped by the function they pin."""

from __future__ import annotations

import pytest
import z3

from udpm.errors import VacuousPremise
from udpm.induction import Obligation, by_induction, discharge

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
