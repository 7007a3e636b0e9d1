"""GitHub Actions workflow annotations: ``::error`` / ``::warning`` lines at the source of the claim's check.

Printed only when ``GITHUB_ACTIONS=true``.  A regression or an error is an ``::error``, an inconclusive
claim a ``::warning``.  Each names the claim once (its title; the message is the reasons without the id
again) and points at the line of the function that checks it (a claim decided by restricting a printed
claim's check points at that check), so that the pull request shows it beside the code; a claim without
a check (pending) has no file.

>>> from types import SimpleNamespace as NS
>>> from udpm.claims.evidence import Status
>>> o = NS(claim=NS(id="grs2011.fig1b", paper="grs2011"), result=NS(status=Status.REFUTED, notes=""),
...        problems=["grs2011.fig1b: status refuted != expected reproduced", "T differs"])
>>> print(annotation(o))  # doctest: +ELLIPSIS
::error file=experiments/grs2011.py,line=...,title=grs2011.fig1b::status refuted != expected reproduced; T differs
>>> escape_property("a,b:c"), escape_data("50%\\nnext")
('a%2Cb%3Ac', '50%25%0Anext')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from udpm.claims.evidence import Status

ROOT = Path(__file__).resolve().parents[2]


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def source_of(claim_id: str) -> tuple[str, int] | None:
    """(file relative to the repository, line) of the function that checks ``claim_id``; None without a check."""
    import inspect

    from udpm.claims.registry import load_checkers

    try:
        checks = load_checkers()
        fn = checks.get(claim_id)
        restricts = getattr(fn, "restricts", None)  # decided by the printed claim's check, restricted
        fn = checks.get(restricts, fn) if restricts else fn
        if fn is None:
            return None
        fn = inspect.unwrap(fn)
        path = Path(inspect.getsourcefile(fn) or "").resolve()
        line = inspect.getsourcelines(fn)[1]
    except (ImportError, OSError, TypeError):
        return None
    try:
        return path.relative_to(ROOT).as_posix(), line
    except ValueError:
        return str(path), line


def _reason(cid: str, line: str) -> str:
    """A problem without the claim's id in front: the title names the claim."""
    return line.removeprefix(f"{cid}: ")


def annotation(o: object) -> str | None:
    """The workflow command for one outcome, or None when it passed."""
    status = o.result.status
    if status is Status.INCONCLUSIVE:
        level = "warning"
    elif status is Status.ERROR or o.problems:
        level = "error"
    else:
        return None
    cid = o.claim.id
    props = []
    where = source_of(cid)
    if where is not None:
        props += [f"file={escape_property(where[0])}", f"line={where[1]}"]
    props.append(f"title={escape_property(cid)}")
    why = "; ".join(_reason(cid, p) for p in o.problems) or f"status {status}: {o.result.notes}"
    return f"::{level} {','.join(props)}::{escape_data(why)}"


def emit(outcomes: Sequence[object], stream: TextIO | None = None, env: dict | None = None) -> int:
    """Print the annotations when running on GitHub Actions; the number printed."""
    if (os.environ if env is None else env).get("GITHUB_ACTIONS") != "true":
        return 0
    out = sys.stdout if stream is None else stream
    count = 0
    for o in outcomes:
        line = annotation(o)
        if line:
            print(line, file=out)
            count += 1
    return count
