"""What a paper says, as data: a claim's verbatim quote and the class its statement quantifies over.

The statements live in ``udpm/claims/statements/<paper>.toml``, one ``[[claim]]`` table per claim::

    [[claim]]
    id = "grs2011.ex2.1"
    where = "Example 2.1"
    summary = "The alpha-geometric mechanism is alpha-DP."
    quote = "The  $\\alpha$ -geometric mechanism is  $\\alpha$ -differentially private because ..."  # or a list
    parts = []                       # the pieces of the class a check may decide apart (default: one, the whole)
    depends_on = []

    [claim.alpha]                    # the privacy parameter's range, ends as printed, in the paper's convention
    range = "(0, 1)"
    quote = "parameter value  $\\alpha \\in (0, 1)$"

    [claim.n]                        # the sizes the statement is about
    min = 1
    quote = "..."

Further dimensions (``users``, ``mechanisms``, ``queries``, ``degenerate``) hold the printed class of
users (prior support, loss class), mechanisms, consumers or queries, and the degenerate objects in
it, each with the sentence that fixes it.  A dimension fixed by the section's setup or a definition
rather than by the statement quotes that sentence; a hypothesis that no quoted sentence states is not
part of the printed class.  A claim the paper does not state (a corrected statement, a converse)
names what it adds in ``hypothesis`` and the printed claim it restates in ``restates``.

Quotes are compared with the paper file with runs of whitespace collapsed (the extraction's line
breaks and double spaces are layout, not text); everything else, extraction damage included, must
match as printed (:func:`quote_found`).

The alpha range is read in the harness's convention, alpha in (0, 1) with alpha = e^-eps:
zlcn2013's alpha > 1 crosses through :func:`udpm.core.conventions.alpha_from_zlcn2013`.

>>> r = AlphaRange.parse("[0, 1]")
>>> r.ends(), r.closed_ends()
((Fraction(0, 1), Fraction(1, 1)), (Fraction(0, 1), Fraction(1, 1)))
>>> AlphaRange.parse("(1, oo)", convention="zlcn2013").text()
'(0, 1)'
>>> AlphaRange.parse("{1/4}").closed_ends()
()
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path

from udpm.core.conventions import alpha_end_from_zlcn2013
from udpm.errors import CatalogError

__all__ = [
    "PAPERS",
    "STATEMENTS",
    "AlphaRange",
    "Dimension",
    "NRange",
    "PrintedClass",
    "Statement",
    "load_statements",
]

STATEMENTS = Path(__file__).parent / "statements"
#: The papers, in the order the catalog lists them.
PAPERS = ("grs2011", "grs2009", "gs2010", "zlcn2013")
#: The papers' plain-text files, in ``shared/papers/`` beside the harness checkout (or ``$UDPM_PAPERS``).
PAPER_FILES = {
    "grs2009": "002_1c7db140fcc5be05.txt",
    "grs2011": "003_1549a788e00e7df2.txt",
    "gs2010": "000_30344652cdfe373f.txt",
    "zlcn2013": "001_0ccd38b6704e2377.txt",
}
#: The paper whose alpha is e^eps > 1; every other paper writes alpha = e^-eps in [0, 1].
ZLCN = "zlcn2013"

_NUMBER = r"(?:-?\d+(?:/\d+)?|oo)"
_INTERVAL = re.compile(rf"^([\[(])\s*({_NUMBER})\s*,\s*({_NUMBER})\s*([\])])$")
_POINTS = re.compile(rf"^\{{\s*{_NUMBER}(?:\s*,\s*{_NUMBER})*\s*\}}$")


def _number(text: str) -> Fraction | None:
    """An exact end: '1/2' -> Fraction(1, 2); 'oo' -> None (infinity)."""
    return None if text == "oo" else Fraction(text)


def _to_harness(a: Fraction | None, convention: str) -> Fraction:
    if convention != ZLCN:
        if a is None:
            raise CatalogError("an alpha range in alpha = e^-eps cannot reach infinity")
        return a
    return alpha_end_from_zlcn2013(a)


@dataclass(frozen=True)
class AlphaRange:
    """The printed range of alpha in the harness's convention: an interval with its ends, or a few points."""

    lo: Fraction
    hi: Fraction
    lo_closed: bool
    hi_closed: bool
    points: tuple[Fraction, ...] = ()  # a statement at fixed alphas (a table, an example)
    printed: str = ""  # as the paper writes it, in its own convention

    @classmethod
    def parse(cls, text: str, convention: str = "") -> AlphaRange:
        """'[0, 1]', '(0, 1)', '(1, oo)' (zlcn2013) or '{1/4}'; ends open or closed as printed."""
        text = text.strip()
        if _POINTS.match(text):
            pts = tuple(sorted({_to_harness(_number(p.strip()), convention) for p in text[1:-1].split(",")}))
            return cls(pts[0], pts[-1], True, True, pts, text)
        m = _INTERVAL.match(text)
        if not m:
            raise CatalogError(f"alpha range {text!r} is neither an interval like '[0, 1]' nor points like '{{1/4}}'")
        a, b = _to_harness(_number(m[2]), convention), _to_harness(_number(m[3]), convention)
        a_closed, b_closed = m[1] == "[", m[4] == "]"
        if convention == ZLCN:  # alpha -> 1/alpha reverses the order of the ends
            a, b, a_closed, b_closed = b, a, b_closed, a_closed
        if not (0 <= a <= b <= 1):
            raise CatalogError(f"alpha range {text!r} is not inside [0, 1] in the harness's convention")
        return cls(a, b, a_closed, b_closed, (), text)

    def ends(self) -> tuple[Fraction, ...]:
        return self.points or (self.lo, self.hi)

    def closed_ends(self) -> tuple[Fraction, ...]:
        """The ends the printed range includes (a statement at fixed points has none)."""
        if self.points:
            return ()
        return tuple(e for e, closed in ((self.lo, self.lo_closed), (self.hi, self.hi_closed)) if closed)

    def text(self) -> str:
        """The range in the harness's convention: '[0, 1]', '(0, 1)', '{1/4}'."""
        if self.points:
            return "{" + ", ".join(map(str, self.points)) + "}"
        return f"{'[' if self.lo_closed else '('}{self.lo}, {self.hi}{']' if self.hi_closed else ')'}"

    def contains(self, a: Fraction) -> bool:
        if self.points:
            return a in self.points
        above = a > self.lo or (a == self.lo and self.lo_closed)
        below = a < self.hi or (a == self.hi and self.hi_closed)
        return above and below


@dataclass(frozen=True)
class NRange:
    """The sizes n a statement is about: min..max (max None: every n from min on), or the printed ``values``
    (Lemma 1 at n = 1 and its corollary at n = 3 state nothing at n = 2)."""

    min: int = 1
    max: int | None = None
    quote: str = ""
    values: tuple[int, ...] = ()

    def each(self) -> tuple[int, ...]:
        """Every n of a statement about finitely many n."""
        if self.values:
            return self.values
        return () if self.max is None else tuple(range(self.min, self.max + 1))

    def admits(self, n: int) -> bool:
        """Is n one of the sizes the statement is about?"""
        if self.values:
            return n in self.values
        return self.min <= n and (self.max is None or n <= self.max)

    def text(self) -> str:
        if self.values:
            return "n in {" + ", ".join(map(str, self.values)) + "}"
        if self.max is None:
            return f"n >= {self.min}"
        return f"n = {self.min}" if self.min == self.max else f"n = {self.min}..{self.max}"

    @property
    def fixed(self) -> bool:
        """The statement is about finitely many n: deciding each of them covers every n it states."""
        return self.max is not None


@dataclass(frozen=True)
class Dimension:
    """One further dimension of the printed class (users, mechanisms, queries, degenerate objects): what it
    admits, as printed, and the sentence that fixes it."""

    name: str
    fields: tuple[tuple[str, str], ...]
    quote: str = ""

    def text(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self.fields)

    def to_json(self) -> dict:
        return {**dict(self.fields), "quote": self.quote}


DIMENSIONS = ("users", "mechanisms", "queries", "degenerate")


@dataclass(frozen=True)
class PrintedClass:
    """What a statement quantifies over, dimension by dimension, and the parts a check may decide apart."""

    alpha: AlphaRange | None
    alpha_quote: str
    n: NRange | None
    dimensions: tuple[Dimension, ...] = ()
    parts: tuple[str, ...] = ()

    def required_parts(self) -> tuple[str, ...]:
        """The parts every (n, alpha) must decide; '' when the class is decided whole."""
        return self.parts or ("",)

    def to_json(self) -> dict:
        out: dict = {}
        if self.alpha is not None:
            out["alpha"] = {"printed": self.alpha.printed, "range": self.alpha.text(), "quote": self.alpha_quote}
        if self.n is not None:
            out["n"] = {"range": self.n.text(), "quote": self.n.quote}
        for d in self.dimensions:
            out[d.name] = d.to_json()
        if self.parts:
            out["parts"] = list(self.parts)
        return out


@dataclass(frozen=True)
class Statement:
    """A claim as the paper states it: place, verbatim quote, printed class, and what a non-printed claim adds."""

    id: str
    where: str
    summary: str
    quotes: tuple[str, ...] = ()  # the statement's text; several pieces where a display or a proof splits it
    printed: PrintedClass = field(default_factory=lambda: PrintedClass(None, "", None))
    depends_on: tuple[str, ...] = ()
    hypothesis: str = ""  # the hypothesis a claim of ours adds to a printed statement
    restates: str = ""  # the printed claim it strengthens or corrects
    setup: tuple[tuple[str, str], ...] = field(default=())  # (where, sentence): definitions the statement uses

    @property
    def paper(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def quote(self) -> str:
        return " … ".join(self.quotes)


# --- reading the files -------------------------------------------------------------------------------

_CLAIM_KEYS = {
    "id",
    "where",
    "summary",
    "quote",
    "parts",
    "depends_on",
    "hypothesis",
    "restates",
    "setup",
    "alpha",
    "n",
    *DIMENSIONS,
}


def _text(entry: dict, key: str, where: str, required: bool = True) -> str:
    v = entry.get(key, "")
    if not isinstance(v, str) or (required and not v.strip()):
        raise CatalogError(f"{where}: {key!r} must be a non-empty string")
    return v


def _quotes(entry: dict, where: str) -> tuple[str, ...]:
    q = entry.get("quote")
    pieces = [q] if isinstance(q, str) else q
    if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) and p.strip() for p in pieces):
        raise CatalogError(f"{where}: 'quote' must be a non-empty string or a list of them")
    return tuple(pieces)


def _claim(entry: dict, paper: str, source: str) -> Statement:
    cid = entry.get("id")
    if not isinstance(cid, str) or not cid.startswith(f"{paper}."):
        raise CatalogError(f"{source}: a claim's id must start with '{paper}.', got {cid!r}")
    here = f"{source} [{cid}]"
    unknown = set(entry) - _CLAIM_KEYS
    if unknown:
        raise CatalogError(f"{here}: unknown keys {sorted(unknown)}")
    alpha, alpha_quote = None, ""
    if "alpha" in entry:
        a = entry["alpha"]
        alpha = AlphaRange.parse(_text(a, "range", here + ".alpha"), convention=paper)
        alpha_quote = _text(a, "quote", here + ".alpha", required=False)
    n = None
    if "n" in entry:
        d = entry["n"]
        values = d.get("values", [])
        if values:
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in values) or sorted(set(values)) != values:
                raise CatalogError(f"{here}.n: values must be increasing integers")
            if "min" in d or "max" in d:
                raise CatalogError(f"{here}.n: give either values or min and max")
            lo, hi = values[0], values[-1]
        else:
            lo, hi = d.get("min", 1), d.get("max")
        if not isinstance(lo, int) or (hi is not None and (not isinstance(hi, int) or hi < lo)):
            raise CatalogError(f"{here}.n: min and max must be integers with min <= max")
        n = NRange(lo, hi, _text(d, "quote", here + ".n", required=False), tuple(values))
    dims = []
    for name in DIMENSIONS:
        if name in entry:
            d = dict(entry[name])
            quote = d.pop("quote", "")
            if not all(isinstance(v, str) for v in d.values()) or not isinstance(quote, str):
                raise CatalogError(f"{here}.{name}: every field must be a string")
            dims.append(Dimension(name, tuple(d.items()), quote))
    parts = entry.get("parts", [])
    deps = entry.get("depends_on", [])
    setup = entry.get("setup", [])
    for key, v in (("parts", parts), ("depends_on", deps)):
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v) or len(set(v)) != len(v):
            raise CatalogError(f"{here}: {key!r} must be a list of distinct non-empty strings")
    if not isinstance(setup, list) or not all(isinstance(s, dict) and set(s) == {"where", "quote"} for s in setup):
        raise CatalogError(f"{here}: 'setup' must be a list of {{where, quote}} tables")
    return Statement(
        id=cid,
        where=_text(entry, "where", here),
        summary=_text(entry, "summary", here),
        quotes=_quotes(entry, here),
        printed=PrintedClass(alpha, alpha_quote, n, tuple(dims), tuple(parts)),
        depends_on=tuple(deps),
        hypothesis=_text(entry, "hypothesis", here, required=False),
        restates=_text(entry, "restates", here, required=False),
        setup=tuple((s["where"], s["quote"]) for s in setup),
    )


def paper_tables(path: Path, key: str) -> list[dict]:
    """The ``[[key]]`` tables of one paper's TOML file, in file order; a file that cannot be read, or holds anything
    else, is a :class:`~udpm.errors.CatalogError` naming it."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"{path}: cannot be read: {exc}") from None
    if set(doc) - {key}:
        raise CatalogError(f"{path}: only [[{key}]] tables are allowed, found {sorted(set(doc) - {key})}")
    tables = doc.get(key, [])
    if not isinstance(tables, list):
        raise CatalogError(f"{path}: {key!r} must be an array of tables ([[{key}]])")
    return tables


@cache
def load_statements(folder: Path = STATEMENTS) -> tuple[Statement, ...]:
    """Every claim of the four papers, in catalog order (paper by paper, file order within a paper)."""
    out: list[Statement] = []
    for paper in PAPERS:
        path = folder / f"{paper}.toml"
        out.extend(_claim(e, paper, path.name) for e in paper_tables(path, "claim"))
    ids = [s.id for s in out]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise CatalogError(f"claims declared twice: {', '.join(dup)}")
    return tuple(out)
