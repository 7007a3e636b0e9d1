"""What the papers say, as data: every quote is verbatim, every class is well formed, every id exists."""

from __future__ import annotations

import re

import pytest

from udpm.claims.assertions import load_inventory
from udpm.claims.catalog import CLAIMS
from udpm.claims.quotes import paper_text, papers_folder, quote_found
from udpm.claims.statements import PAPERS

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


@pytest.mark.parametrize(
    "text, message",
    [
        ("[[claim]]\nid = 'grs2011.x'\n", "'where' must be a non-empty string"),
        ("[[claim]]\nid = 'gs2010.x'\n", "a claim's id must start with 'grs2011.'"),
        ("not toml at all [", "cannot be read"),
        ("[other]\nx = 1\n", "only [[claim]] tables are allowed"),
        (
            "[[claim]]\nid='grs2011.x'\nwhere='W'\nsummary='S'\nquote='Q'\n[claim.alpha]\nrange='[0, 2]'\n",
            "not inside [0, 1]",
        ),
    ],
)
def test_a_malformed_statement_file_is_one_clear_error(tmp_path, text, message):
    from udpm.claims.statements import load_statements
    from udpm.errors import CatalogError

    for paper in PAPERS:
        (tmp_path / f"{paper}.toml").write_text(text if paper == "grs2011" else "")
    with pytest.raises(CatalogError, match=re.escape(message)):
        load_statements(tmp_path)


def test_a_not_checkable_assertion_needs_its_reason(tmp_path):
    from udpm.claims.assertions import load_inventory
    from udpm.errors import CatalogError

    bad = "[[assertion]]\nwhere = 'W'\nkind = 'remark'\nquote = 'Q'\ndisposition = 'not checkable'\n"
    for paper in PAPERS:
        (tmp_path / f"{paper}.toml").write_text(bad if paper == "gs2010" else "")
    with pytest.raises(CatalogError, match="needs its reason"):
        load_inventory(tmp_path)
