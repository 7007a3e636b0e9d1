"""The assertion inventory: every assertion of the four papers, quoted verbatim, with its disposition.

Not only the numbered results: footnotes, remarks, sentences of a section's discussion, captions,
what a paper says about an object it prints, and the displayed steps of its proofs.  The inventory
lives in ``paper_tables/assertions/<paper>.toml``, one ``[[assertion]]`` table per assertion::

    [[assertion]]
    where = "Section 2.1, footnote 1"
    kind = "footnote"
    quote = "When the range is countable, as in most of this paper, the two definitions are equivalent."
    disposition = "not checkable"
    reason = "a statement about the standard definition over every subset of an arbitrary range"

``disposition`` is ``claim`` (``claim`` names the claim id that checks it), ``definition`` (it fixes
a term; nothing to check) or ``not checkable`` (``reason`` says why).  A test checks every quote
against its paper file (:func:`udpm.claims.quotes.quote_found`) and every claim id against the catalog.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from udpm.claims.statements import PAPERS, paper_tables
from udpm.errors import CatalogError

#: The inventory's counts per paper, each with its header in the README and the report.
COLUMNS = {
    "assertions": "assertions",
    "checked": "checked by a claim",
    "refuted": "in a refuted claim or erratum",
    "definition": "definitions",
    "not checkable": "not checkable",
}

__all__ = ["COLUMNS", "DISPOSITIONS", "INVENTORY", "KINDS", "Assertion", "counts", "load_inventory"]

INVENTORY = Path(__file__).resolve().parents[2] / "paper_tables" / "assertions"
DISPOSITIONS = ("claim", "definition", "not checkable")
KINDS = (
    "theorem",
    "lemma",
    "corollary",
    "proposition",
    "example",
    "definition",
    "footnote",
    "remark",
    "discussion",
    "caption",
    "object",
    "proof step",
    "algorithm",
)


@dataclass(frozen=True)
class Assertion:
    """One assertion of a paper: where it is, what kind of text it is, its quote and what becomes of it."""

    paper: str
    where: str
    kind: str
    quote: str
    disposition: str
    claim: str = ""
    reason: str = ""


def _assertion(entry: dict, paper: str, source: str, k: int) -> Assertion:
    here = f"{source} assertion {k}"
    allowed = {"where", "kind", "quote", "disposition", "claim", "reason"}
    if set(entry) - allowed:
        raise CatalogError(f"{here}: unknown keys {sorted(set(entry) - allowed)}")
    for key in ("where", "kind", "quote", "disposition"):
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise CatalogError(f"{here}: {key!r} must be a non-empty string")
    a = Assertion(
        paper,
        entry["where"],
        entry["kind"],
        entry["quote"],
        entry["disposition"],
        entry.get("claim", ""),
        entry.get("reason", ""),
    )
    if a.kind not in KINDS:
        raise CatalogError(f"{here} ({a.where}): kind must be one of {KINDS}, got {a.kind!r}")
    if a.disposition not in DISPOSITIONS:
        raise CatalogError(f"{here} ({a.where}): disposition must be one of {DISPOSITIONS}, got {a.disposition!r}")
    if (a.disposition == "claim") != bool(a.claim):
        raise CatalogError(f"{here} ({a.where}): a 'claim' disposition names its claim id, and only it does")
    if a.disposition == "not checkable" and not a.reason.strip():
        raise CatalogError(f"{here} ({a.where}): 'not checkable' needs its reason")
    return a


@cache
def load_inventory(folder: Path = INVENTORY) -> tuple[Assertion, ...]:
    """Every inventoried assertion, paper by paper, in file order."""
    out: list[Assertion] = []
    for paper in PAPERS:
        path = folder / f"{paper}.toml"
        out.extend(_assertion(e, paper, path.name, k) for k, e in enumerate(paper_tables(path, "assertion"), 1))
    return tuple(out)


def counts(inventory: tuple[Assertion, ...], statuses: dict[str, str] | None = None) -> dict[str, dict[str, int]]:
    """Per paper: how many assertions, how many checked by a claim, refuted (their claim is refuted or an
    erratum), definitions and not checkable.  ``statuses`` maps claim ids to the run's statuses."""
    statuses = statuses or {}
    out: dict[str, dict[str, int]] = {}
    for paper in PAPERS:
        mine = [a for a in inventory if a.paper == paper]
        c = Counter(a.disposition for a in mine)
        refuted = sum(statuses.get(a.claim) in ("refuted", "erratum") for a in mine if a.disposition == "claim")
        out[paper] = {
            "assertions": len(mine),
            "checked": c["claim"],
            "refuted": refuted,
            "definition": c["definition"],
            "not checkable": c["not checkable"],
        }
    return out
