from fractions import Fraction as F

from proofs.footnotes import FN3_USER, footnote_3
from udpm.claims import Context, Status
from udpm.mechanisms import truncated_geometric
from udpm.users import BayesianUser, absolute_error


def test_footnote_3_is_refuted_by_a_certified_optimal_vertex():
    res = footnote_3(Context())
    assert res.status is Status.REFUTED and "row 0 has an up before a down" in res.counterexample
    assert res.values["optimal"] == "True" and res.values["vertex"] == "True"
    assert "holds here" in res.notes  # the corrected, value-level statement


def test_a_mechanism_with_the_structure_does_not_refute_it():
    assert footnote_3(Context(), x=truncated_geometric(2, F(1, 2))).status is Status.INCONCLUSIVE


def test_a_strict_loss_does_not_make_the_instance_optimal():
    strict = BayesianUser.of(FN3_USER.prior, absolute_error(2))
    assert footnote_3(Context(), user=strict).status is Status.INCONCLUSIVE
