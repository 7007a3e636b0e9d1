"""Every item transcribed into paper_tables/printed/<paper>.json is read by some check (a check
module names its key), so no printed value sits in the files without a comparison; and every note that describes
an error in the printed text has become a declared erratum of its item."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from udpm.claims.tables import PRINTED, ROOT

CHECK_SOURCES = [*sorted((ROOT / "proofs").rglob("*.py")), *sorted((ROOT / "experiments").glob("*.py"))]


def _items(paper: str) -> dict:
    return json.loads((PRINTED / f"{paper}.json").read_text(encoding="utf-8"))["items"]


@pytest.fixture(scope="module")
def check_text() -> str:
    return "\n".join(Path(p).read_text(encoding="utf-8") for p in CHECK_SOURCES)


@pytest.mark.parametrize("paper", ["grs2011", "grs2009", "gs2010", "zlcn2013"])
def test_every_printed_item_is_named_by_a_check(paper, check_text):
    unread = [k for k in _items(paper) if f'"{k}"' not in check_text]
    assert not unread, f"{paper}: printed items no check reads: {unread}"


@pytest.mark.parametrize(
    "paper, key, entry, printed, cls",
    [
        ("grs2009", "thm6.3.references", "[0]", "Figure 6.2", "typo"),
        ("grs2009", "thm6.3.references", "[1]", "Figure 6.2", "typo"),
        ("grs2009", "thm6.3.references", "[2]", "\\{3\\} and \\{4\\}", "typo"),
        ("grs2009", "sec6.1.loss", "value", "l_{err}", "typo"),
    ],
)
def test_errors_in_the_printed_text_are_declared_errata(paper, key, entry, printed, cls):
    decl = _items(paper)[key]["errata"][entry]
    assert decl["printed"] == printed and decl["class"] == cls and decl["explanation"]


@pytest.mark.parametrize("paper", ["grs2011", "grs2009"])
def test_no_note_describes_an_error_left_undeclared(paper):
    # wordings of a remark on an error in the printed text: it belongs in a declared erratum, not in a note
    suspicious = ("Figure 6.2", "is not defined", "databases {3}", "reads literally")
    flagged = [(k, s) for k, item in _items(paper).items() for s in suspicious if s in item.get("note", "")]
    assert not flagged, flagged
