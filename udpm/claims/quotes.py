"""The quotes against the papers: every statement and assertion is quoted verbatim, and a quote is checked
against its paper's text file (tests/test_statements.py), whitespace collapsed on both sides.
"""

from __future__ import annotations

import os
from pathlib import Path

from udpm.claims.statements import PAPER_FILES


def papers_folder() -> Path | None:
    """Where the papers' text files are: $UDPM_PAPERS, else shared/papers beside the checkout; None if absent."""
    env = os.environ.get("UDPM_PAPERS")
    folder = Path(env) if env else Path(__file__).resolve().parents[3] / "shared" / "papers"
    return folder if all((folder / f).is_file() for f in PAPER_FILES.values()) else None


def paper_text(paper: str, folder: Path) -> str:
    return (folder / PAPER_FILES[paper]).read_text(encoding="utf-8")


def _squash(text: str) -> str:
    return " ".join(text.split())


def quote_found(quote: str, paper_text: str) -> bool:
    """True when ``quote`` occurs in the paper's text, runs of whitespace collapsed on both sides.

    >>> quote_found("the  ratio\\n lies", "where the ratio lies in")
    True
    >>> quote_found("the ratio lie", "where the ratio lies in"), quote_found("the ratios", "the ratio")
    (True, False)
    """
    return _squash(quote) in _squash(paper_text)
