"""Claim records across runs: merge documents by claim and compare them byte for byte.

A claim record (one entry of a ``--json`` document's ``claims``) must not depend
on the run order, the filter or the number of workers.  This module merges
documents written by filtered runs and compares the result with another run::

    python -m udpm.claims.records same all.json grs2011.json grs2009.json gs2010.json zlcn2013.json

exits 0 when the claim records of the first document equal, byte for byte (as
canonical JSON), those of the others merged by claim id; 1 naming the first
claims that differ; 2 for an unreadable document or a reference without claim records.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from udpm.errors import HarnessError


class RecordsError(HarnessError):
    """A results document is missing, not JSON, or claims the same id twice."""


def load(path: Path) -> dict:
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordsError(f"{path}: not a readable results document ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise RecordsError(f"{path}: not a results document (no 'claims' list)")
    for i, rec in enumerate(doc["claims"]):
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            raise RecordsError(f"{path}: claim record {i} is not an object with a string 'id'")
    return doc


def canonical(record: Mapping) -> str:
    """The byte-exact text a claim record is compared by."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def merge(docs: Iterable[Mapping]) -> dict[str, str]:
    """Claim id -> canonical record, over several documents; an id in two documents must agree."""
    out: dict[str, str] = {}
    for doc in docs:
        for rec in doc["claims"]:
            text = canonical(rec)
            if out.setdefault(rec["id"], text) != text:
                raise RecordsError(f"claim {rec['id']} differs between the merged documents")
    return out


def differing(a: Mapping[str, str], b: Mapping[str, str]) -> list[str]:
    return sorted(cid for cid in set(a) | set(b) if a.get(cid) != b.get(cid))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3 or args[0] != "same":
        print("usage: python -m udpm.claims.records same REFERENCE.json PART.json [PART.json ...]", file=sys.stderr)
        return 2
    try:
        ref = merge([load(Path(args[1]))])
        parts = merge(load(Path(p)) for p in args[2:])
    except RecordsError as exc:
        print(f"udpm.claims.records: error: {exc}", file=sys.stderr)
        return 2
    if not ref:  # nothing compared is no evidence of determinism
        print(f"udpm.claims.records: error: {args[1]}: no claim records to compare", file=sys.stderr)
        return 2
    diff = differing(ref, parts)
    if diff:
        print(f"udpm.claims.records: {len(diff)} claim record(s) differ: {', '.join(diff[:10])}")
        return 1
    print(f"udpm.claims.records: {len(ref)} claim records identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
