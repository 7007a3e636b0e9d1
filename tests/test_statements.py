"""What the papers say, as data: every quote is verbatim, every class is well formed, every id exists."""

from __future__ import annotations

import pytest

from udpm.assertions import load_inventory
from udpm.catalog import CLAIMS
from udpm.statements import PAPERS, paper_text, papers_folder, quote_found

FOLDER = papers_folder()
needs_papers = pytest.mark.skipif(FOLDER is None, reason="the papers' text (shared/papers or $UDPM_PAPERS) is absent")


def quotes_of(claim) -> list[tuple[str, str]]:
    """(what, quote) for the statement, every dimension's sentence and every setup sentence."""
    out = [("quote", q) for q in claim.quotes]
    if claim.printed.alpha_quote:
        out.append(("alpha", claim.printed.alpha_quote))
    if claim.printed.n is not None and claim.printed.n.quote:
        out.append(("n", claim.printed.n.quote))
    out += [(d.name, d.quote) for d in claim.printed.dimensions if d.quote]
    out += [(f"setup {w}", q) for w, q in claim.setup]
    return out


@needs_papers
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_quote_of_a_claim_is_verbatim(claim):
    text = paper_text(claim.paper, FOLDER)
    missing = [what for what, q in quotes_of(claim) if not quote_found(q, text)]
    assert not missing, f"{claim.id}: not found verbatim in {claim.paper}'s text: {missing}"


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_claim_has_its_printed_class(claim):
    assert claim.printed.alpha is not None, f"{claim.id}: no printed alpha range"
    assert claim.printed.n is not None, f"{claim.id}: no printed n"
    if claim.restates:
        assert claim.hypothesis, f"{claim.id} restates {claim.restates} and must name what it adds"
        assert claim.restates in {c.id for c in CLAIMS}


def test_depends_on_names_declared_claims():
    ids = {c.id for c in CLAIMS}
    assert not [(c.id, d) for c in CLAIMS for d in c.depends_on if d not in ids]


@needs_papers
@pytest.mark.parametrize("paper", PAPERS)
def test_every_inventoried_assertion_is_verbatim(paper):
    text = paper_text(paper, FOLDER)
    missing = [a.where for a in load_inventory() if a.paper == paper and not quote_found(a.quote, text)]
    assert not missing, f"{paper}: not verbatim: {missing}"


def test_every_inventoried_claim_id_exists():
    ids = {c.id for c in CLAIMS}
    assert not [(a.where, a.claim) for a in load_inventory() if a.claim and a.claim not in ids]


@pytest.mark.parametrize("paper", PAPERS)
def test_every_printed_claim_is_in_the_inventory(paper):
    named = {a.claim for a in load_inventory()}
    printed = [c.id for c in CLAIMS if c.paper == paper and not c.restates]
    assert not [cid for cid in printed if cid not in named]
