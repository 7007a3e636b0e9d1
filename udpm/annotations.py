"""GitHub Actions workflow annotations: ``::error`` / ``::warning`` lines naming the claim and its file.

Printed only when ``GITHUB_ACTIONS=true``.  A regression or an error is an ``::error``, an
inconclusive claim a ``::warning``; each names the claim (title) and the transcription of its
paper in ``paper_tables/printed/<paper>.json`` (with the line of the claim's item where it has one).

>>> from types import SimpleNamespace as NS
>>> from udpm.evidence import Status
>>> o = NS(claim=NS(id="grs2011.fig1b", paper="grs2011"), result=NS(status=Status.REFUTED, notes=""),
...        problems=["status refuted, expected reproduced", "T differs"])
>>> print(annotation(o))  # doctest: +ELLIPSIS
::error file=paper_tables/printed/grs2011.json,line=74,title=grs2011.fig1b::grs2011.fig1b: status refuted, expected...
>>> escape_property("a,b:c"), escape_data("50%\\nnext")
('a%2Cb%3Ac', '50%25%0Anext')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .evidence import Status

ROOT = Path(__file__).resolve().parent.parent
PRINTED = Path("paper_tables") / "printed"


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _line(paper: str, claim_id: str) -> int | None:
    """The line of the claim's item ("fig1b": {) in the paper's transcription, if it has one."""
    key = claim_id.split(".", 1)[1] if "." in claim_id else claim_id
    try:
        lines = (ROOT / PRINTED / f"{paper}.json").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for k, line in enumerate(lines, 1):
        if line.strip().startswith(f'"{key}":'):
            return k
    return None


def annotation(o: object) -> str | None:
    """The workflow command for one outcome, or None when it passed."""
    status = o.result.status
    if status is Status.INCONCLUSIVE:
        level = "warning"
    elif status is Status.ERROR or o.problems:
        level = "error"
    else:
        return None
    cid, paper = o.claim.id, o.claim.paper
    props = [f"file={escape_property(str(PRINTED / f'{paper}.json'))}"]
    line = _line(paper, cid)
    if line is not None:
        props.append(f"line={line}")
    props.append(f"title={escape_property(cid)}")
    why = "; ".join(o.problems) or f"status {status}: {o.result.notes}"
    return f"::{level} {','.join(props)}::{escape_data(f'{cid}: {why}')}"


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
