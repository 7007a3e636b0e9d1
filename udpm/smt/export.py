"""Every SMT query as an SMT-LIB 2 file: its text depends on the query alone, and its name is the text's hash.

The files are the evidence a verdict rests on: ``python -m udpm.smt.solvers <files>`` decides them again with
both solvers, and a claim's record names the files each decision rests on (:mod:`udpm.smt.reports`).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

import z3

# Where every query is exported: the run's output directory (reproduce.py sets it, and $UDPM_SMT_DIR for the
# workers it starts), else build/smt in the current directory; tests point it elsewhere.
EXPORT_DIR = Path(os.environ.get("UDPM_SMT_DIR") or Path("build") / "smt")


def shown(path: Path) -> str:
    """``smt/<hash>.smt2``: the file's place in the run's output directory, the same whatever that directory (so a
    message, and the record that quotes it, is the same from any run)."""
    return f"smt/{path.name}"


#: The ``:source`` label of every file: part of each file's text, hence of its name, so it stays fixed whatever
#: the modules are called (the files a record names stay the same across layouts).
SOURCE = "udpm.smt.decide"

# z3 names let-bound subterms after their term ids (?x11, $x42), which depend on every term built before.
_LET_NAME = re.compile(r"(?<![\w|])([?$]x)(\d+)\b")


def smt2_text(assertions: list[z3.BoolRef], logic: str | None = None) -> str:
    """The query as an SMT-LIB 2 script: set-logic, declarations, one assert each, check-sat.

    The text depends on the query alone.  z3's printer binds a subterm with ``let`` when the subterm has more
    than one reference, and references from elsewhere in the process (an earlier claim still holding an equal
    term: z3 hash-conses) count too; so the query is first translated into a fresh context, where only the
    query refers to its terms.  Let names are then renumbered in order of first appearance.
    """
    ctx = z3.Context()
    terms = translated(assertions, ctx) or [z3.BoolVal(True, ctx)]
    *rest, last = terms
    vec = (z3.Ast * len(rest))(*(t.as_ast() for t in rest))
    text = z3.Z3_benchmark_to_smtlib_string(
        ctx.ref(), SOURCE, logic or "ALL", "unknown", "", len(rest), vec, last.as_ast()
    )
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        return names.setdefault(m.group(0), f"{m.group(1)}{len(names) + 1}")

    return _standard_arities(_LET_NAME.sub(rename, text))


def translated(assertions: list, ctx: z3.Context) -> list[z3.BoolRef]:
    """The assertions copied into ``ctx`` (Python booleans as constants), in order."""
    return [a.translate(ctx) if z3.is_expr(a) else z3.BoolVal(bool(a), ctx) for a in assertions]


_TOKEN = re.compile(r"\|[^|]*\||;[^\n]*|[()]|[^\s()|;]+")
# z3 prints a sum, product, conjunction or disjunction of one term as (+ t); SMT-LIB (and cvc5) want >= 2.
_VARIADIC = frozenset({"+", "*", "and", "or"})


def _standard_arities(text: str) -> str:
    """``text`` with every (+ t), (* t), (and t), (or t) replaced by t, z3's layout kept otherwise.

    >>> _standard_arities("(assert (> (+ (* x)) 0.0))")
    '(assert (>   x 0.0))'
    """
    if not re.search(r"\((?:[+*]|and|or)\s", text):
        return text
    drop: list[tuple[int, int]] = []
    # per open parenthesis: its span, its number of elements, its head and the head's span
    stack: list[list] = []
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if tok.startswith(";"):
            continue
        if tok == "(":
            if stack:
                stack[-1][1] += 1
            stack.append([m.span(), 0, None, None])
        elif tok == ")":
            opened, count, head, head_span = stack.pop()
            if count == 2 and head in _VARIADIC:
                drop += [opened, head_span, m.span()]
        elif stack:
            top = stack[-1]
            if top[1] == 0:
                top[2], top[3] = tok, m.span()
            top[1] += 1
    if not drop:
        return text
    parts, at = [], 0
    for begin, end in sorted(drop):
        parts.append(text[at:begin])
        at = end
    parts.append(text[at:])
    return "".join(parts)


def export(assertions: list[z3.BoolRef], logic: str | None = None) -> Path:
    """Write the query to ``EXPORT_DIR/<sha256[:16]>.smt2`` (atomically; an existing file is the same text)."""
    text = smt2_text(assertions, logic)
    # absolute: cvc5's helper process opens the file from the checkout, not from the run's directory
    path = Path(EXPORT_DIR).resolve() / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.smt2"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    return path
