"""Stored expectations: the expected status and golden exact values of each claim.

``paper_tables/expected.json`` is ``{"schema": 2, "claims": {id: {"status",
"values", "errata", "grid"}}}``.  A run fails exactly when a claim's status,
values, errata (entry, printed and correct values, class) or instance grid
differ from it.  It changes only through ``reproduce.py
--update-expected``, which prints the diff it writes.  Writes are atomic
(temporary file + rename) under an exclusive lock, so a crash or two
concurrent updates never leave a partial or corrupted golden file.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator, Mapping
from pathlib import Path

from udpm.claims.evidence import Result, Status
from udpm.claims.tables import PAPER_TABLES, ROOT
from udpm.errors import ExpectationsError
from udpm.internal.files import atomic_write

EXPECTED = PAPER_TABLES / "expected.json"
SCHEMA = 2


def record(result: Result) -> dict:
    """The part of a result that is golden: status, exact values, errata, and the grid of decided instances."""
    return {
        "status": str(result.status),
        "values": dict(sorted(result.values.items())),
        "errata": sorted([e.entry, e.printed, e.correct, e.cls] for e in result.errata),
        "grid": result.grid,
    }


#: Statuses never stored as golden: they say the run did not decide the claim.
UNSETTLED = (Status.ERROR, Status.INCONCLUSIVE, Status.PENDING)


def refuse_unsettled(records: Mapping[str, dict]) -> None:
    """--update-expected stores decided verdicts only."""
    bad = sorted(cid for cid, rec in records.items() if rec["status"] in {str(s) for s in UNSETTLED})
    if bad:
        raise ExpectationsError(
            f"refusing to store {len(bad)} undecided claim(s) as golden ({', '.join(bad)}); rerun them first"
        )


def load(path: Path = EXPECTED) -> dict[str, dict]:
    if not path.exists():
        return {}
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ExpectationsError(f"{where} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("claims"), dict):
        raise ExpectationsError(f'{where} must be {{"schema": {SCHEMA}, "claims": {{...}}}}')
    for cid, rec in data["claims"].items():
        if (
            not isinstance(rec, dict)
            or not isinstance(rec.get("status"), str)
            or not isinstance(rec.get("values"), dict)
        ):
            raise ExpectationsError(f"{where}: entry {cid!r} needs a 'status' string and a 'values' object")
    return data["claims"]


def differences(cid: str, got: dict, want: dict | None) -> list[str]:
    """Human-readable lines naming what differs between a result record and its expectation."""
    if want is None:
        return [f"{cid}: no stored expectation (status {got['status']})"]
    out = []
    if got["status"] != want["status"]:
        out.append(f"{cid}: status {got['status']} != expected {want['status']}")
    gv, wv = got["values"], want.get("values", {})
    for k in sorted(set(gv) | set(wv)):
        if gv.get(k) != wv.get(k):
            out.append(f"{cid}: value {k} = {gv.get(k)!r}, expected {wv.get(k)!r}")
    ge, we = got.get("errata", []), want.get("errata", [])
    for e in ge:
        if e not in we:
            out.append(f"{cid}: erratum at {e[0]}: printed {e[1]!r}, correct {e[2]!r}, class {e[3]} is not expected")
    for e in we:
        if e not in ge:
            out.append(f"{cid}: expected erratum at {e[0]}: printed {e[1]!r}, correct {e[2]!r}, class {e[3]} is gone")
    if got.get("grid") != want.get("grid"):
        out.append(f"{cid}: decided grid {_grid(got.get('grid'))} != expected {_grid(want.get('grid'))}")
    return out


def _grid(grid: Mapping | None) -> str:
    from udpm.claims.evidence import grid_text

    return "; ".join(f"{kind}: {grid_text(rows, kind)}" for kind, rows in (grid or {}).items()) or "(none)"


@contextlib.contextmanager
def locked(path: Path = EXPECTED) -> Iterator[None]:
    lock = path.with_name(f".{path.name}.lock")
    with open(lock, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def update(records: Mapping[str, dict], path: Path = EXPECTED) -> list[str]:
    """Merge ``records`` into the golden file; return the lines that changed.  Refuses undecided claims."""
    refuse_unsettled(records)
    with locked(path):
        current = load(path)
        changes = [line for cid in sorted(records) for line in differences(cid, records[cid], current.get(cid))]
        merged = {**current, **records}
        text = json.dumps({"schema": SCHEMA, "claims": dict(sorted(merged.items()))}, indent=1, ensure_ascii=False)
        atomic_write(path, text + "\n")
    return changes
