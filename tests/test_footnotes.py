from fractions import Fraction as F

from proofs.assertions.footnotes import FN3_USER, footnote_3
from udpm.claims.evidence import grid_text
from udpm.claims.instances import BOUNDED
from udpm.claims.registry import Context, Status
from udpm.core.mechanisms import truncated_geometric
from udpm.core.users import BayesianUser, absolute_error


def test_footnote_3_is_refuted_by_a_certified_optimal_vertex():
    rec = footnote_3(Context())
    assert rec.status is Status.REFUTED and "row 0 has an up before a down" in rec.counterexample
    assert "X = [[0, 1/3, 2/3]" in rec.counterexample
    assert rec.values["optimal"] == "True" and rec.values["vertex"] == "True"
    assert rec.values["corrected_statement_here"] == "holds"  # the value-level statement, recorded apart
    assert rec.certificate and rec.certificate["lps"]


def test_footnote_3_records_one_bounded_instance_at_n_2_alpha_one_half():
    res = footnote_3(Context()).result()
    assert res.evidence.value == "bounded" and len(res.decisions) == 1
    assert grid_text(res.grid[str(BOUNDED)]) == "alpha=1/2: n=2"


def test_a_mechanism_with_the_structure_does_not_refute_it():
    assert footnote_3(Context(), x=truncated_geometric(2, F(1, 2))).status is Status.INCONCLUSIVE


def test_a_strict_loss_does_not_make_the_instance_optimal():
    strict = BayesianUser.of(FN3_USER.prior, absolute_error(2))
    assert footnote_3(Context(), user=strict).status is Status.INCONCLUSIVE
