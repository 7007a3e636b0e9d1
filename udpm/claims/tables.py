"""Printed values, kept verbatim, and the exact diff against recomputed ones.

``paper_tables/printed/<paper>.json`` holds each table, matrix and numeric
example as the paper prints it (strings, never re-typed numbers)::

    {"paper": "grs2011", "source": "003_....txt",
     "items": {"fig1b": {"where": "Figure 1(b)", "values": [["2/3", ...], ...],
                         "note": "...", "errata": {"[0][2]": {"class": "typo",
                         "explanation": "..."}}}}}

The comparison rule for one printed entry:

- an integer or a quotient (``0``, ``1/6``, ``-0.75/9``) matches only the
  identical rational (the literal quotient, so ``-0.75/9`` is -1/12);
- a decimal with k digits after the point (``1.06``, ``.35``, ``~.35``)
  matches an exact x when |x - d| <= 5 * 10^-(k+1): x rounds to d at the
  printed precision (a value exactly half-way accepts either neighbour);
- anything else (signature symbols) matches by string equality.

>>> printed_matches("1/6", Fraction(1, 6)), printed_matches("1.06", Fraction(53, 50))
(True, True)
>>> printed_matches("1.06", Fraction(107, 100))  # off by one unit in the last digit
False
>>> printed_matches("~.35", Fraction(35355, 100000))
True
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

from udpm.claims.findings import Findings
from udpm.claims.instances import TABLE, UNCLASSIFIED, Erratum
from udpm.errors import ExpectationsError

ROOT = Path(__file__).resolve().parents[2]
PAPER_TABLES = ROOT / "paper_tables"
PRINTED = PAPER_TABLES / "printed"

_DECIMAL = re.compile(r"^\s*(?:~|≈|about\s+)?\s*(-?)(\d*)\.(\d+)\s*$")
_INTEGER = re.compile(r"^\s*-?\d+\s*$")
_QUOTIENT = re.compile(r"^\s*(-?(?:\d+\.?\d*|\.\d+))\s*/\s*(\d+\.?\d*|\.\d+)\s*$")


@dataclass(frozen=True)
class PrintedItem:
    paper: str
    key: str
    where: str
    values: object  # str, list[str] or list[list[str]]
    note: str
    errata: dict[str, dict[str, str]]


def _no_float(path: Path):
    def refuse(text: str) -> object:
        raise ExpectationsError(
            f"{path.relative_to(ROOT)}: the number {text} is a float; printed values are strings, kept verbatim"
        )

    return refuse


@cache
def _load(paper: str) -> dict:
    path = PRINTED / f"{paper}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"), parse_float=_no_float(path))
    except FileNotFoundError:
        raise ExpectationsError(f"{path.relative_to(ROOT)} is missing") from None
    except json.JSONDecodeError as exc:
        raise ExpectationsError(f"{path.relative_to(ROOT)} is not valid JSON: line {exc.lineno}: {exc.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("items"), dict):
        raise ExpectationsError(f"{path.relative_to(ROOT)} must be an object with an 'items' object")
    return data


def printed(paper: str, key: str) -> PrintedItem:
    """The verbatim transcription of one printed item."""
    data = _load(paper)
    item = data["items"].get(key)
    if not isinstance(item, dict) or "values" not in item or "where" not in item:
        raise ExpectationsError(f"paper_tables/printed/{paper}.json has no item {key!r} with 'where' and 'values'")
    return PrintedItem(paper, key, item["where"], item["values"], item.get("note", ""), item.get("errata", {}))


def parse_exact(text: str) -> Fraction | None:
    """The rational a printed integer or quotient denotes ('1/6', '-0.75/9'), else None."""
    if _INTEGER.match(text):
        return Fraction(int(text))
    m = _QUOTIENT.match(text)
    return Fraction(m.group(1)) / Fraction(m.group(2)) if m else None


def printed_matches(text: str, exact: object) -> bool:
    """Does the printed string denote ``exact`` under the rule in the module docstring?"""
    if isinstance(exact, (int, Fraction)):
        x = Fraction(exact)
        q = parse_exact(text)
        if q is not None:
            return q == x
        m = _DECIMAL.match(text)
        if m:
            k = len(m.group(3))
            d = Fraction(f"{m.group(1)}{m.group(2) or '0'}.{m.group(3)}")
            return abs(x - d) <= Fraction(5, 10 ** (k + 1))
        return False
    return text.strip() == str(exact).strip()


@dataclass(frozen=True)
class Mismatch:
    entry: str
    printed: str
    computed: str


def _flat(values: object, prefix: str = "") -> list[tuple[str, object]]:
    if not isinstance(values, (list, tuple)):
        return [(prefix or "value", values)]
    out: list[tuple[str, object]] = []
    for k, v in enumerate(values):
        out += _flat(v, f"{prefix}[{k}]")
    return out


def diff(item: PrintedItem, computed: object) -> list[Mismatch]:
    """Entry-by-entry mismatches between the printed item and the exact recomputation."""
    got = dict(_flat(computed))
    want = _flat(item.values)
    if [k for k, _ in want] != list(got):
        raise ExpectationsError(
            f"{item.paper} {item.key}: printed shape {[k for k, _ in want][:3]}... does not match computed shape"
        )
    return [Mismatch(k, s, str(got[k])) for k, s in want if not printed_matches(s, got[k])]


UNDECLARED = "not yet classified: the printed entry differs from the exact value"


def mismatch_errata(item: PrintedItem, mismatches: list[Mismatch]) -> list[Erratum]:
    """One erratum per mismatching entry, with the class and explanation the item declares for it.

    A declaration names the printed text it classifies; a printed value that no longer equals it is
    ``unclassified`` again, so an edited transcription cannot inherit an old class.
    A mismatch nobody has declared is class ``unclassified``, and reproduce.py
    fails the run on it: the entry must be looked at.
    """
    out = []
    for m in mismatches:
        decl = item.errata.get(m.entry, {})
        cls, why = decl.get("class", UNCLASSIFIED), decl.get("explanation", UNDECLARED)
        if decl and "printed" not in decl:
            raise ExpectationsError(
                f"paper_tables/printed/{item.paper}.json: the erratum declared at {item.key} {m.entry} must name "
                "the printed text it classifies ('printed')"
            )
        if decl and decl["printed"] != m.printed:  # the class was given to another printed text
            cls, why = UNCLASSIFIED, f"the printed value changed from the declared {decl['printed']!r}"
        out.append(Erratum(f"{item.where}{m.entry}", m.printed, m.computed, cls, why))
    return out


def compare_printed(
    rec: Findings,
    item: PrintedItem,
    computed: object,
    *,
    n: int | None,
    alpha: object,
    method: str = "exact recomputation",
    approximations_of: str | None = None,
) -> bool:
    """Decide one printed item against its exact recomputation, as a ``table`` instance of ``rec``.

    Every entry that differs becomes an erratum (the claim's status is then
    ``erratum``).  With ``approximations_of``, an unclassified difference whose
    printed fraction is the closest one to the exact value is classed
    ``rounding`` (:func:`approximates`).  Returns True when every entry matches.
    """
    errata = mismatch_errata(item, diff(item, computed))
    if approximations_of is not None:
        errata = [_as_rounding(e, approximations_of) for e in errata]
    rec.errata.extend(errata)
    rec.decide(True, n=n, alpha=alpha, kind=TABLE, method=method, covers=f"{item.where} ({item.key})")
    return not errata


#: The largest relative gap a printed fraction may have from the exact value and still be ``rounding``: the
#: papers' own tolerance.  gs2010 Table 1's printed fractions are off by at most 14/816 ~ 1.72% (2/3 for
#: 272/415, 1/6 for 68/415); 2% admits those and rejects a fraction as coarse as 1 for 21/20 (4.8%).
ROUNDING_RELATIVE_GAP = Fraction(1, 50)


def approximates(text: str, exact: object) -> bool:
    """Is the printed quotient p/q only a rounding of ``exact``, as the papers round?  All of, exactly:

    * p/q differs from ``exact`` (equal is a match, not an approximation);
    * p/q is the fraction closest to ``exact`` among all fractions with denominator <= q;
    * |exact - p/q| < 1/(2 q^2): by Legendre's theorem p/q is then a continued-fraction convergent of
      ``exact``, the fraction a rational-approximation routine prints (gs2010 Table 1: q^2 |exact - p/q|
      <= 0.354 for every printed entry);
    * |exact - p/q| <= :data:`ROUNDING_RELATIVE_GAP` |exact| (gs2010 Table 1: at most 1.72%).

    This is the rule for tables whose authors printed small-denominator fractions for a computed optimum
    (gs2010 Table 1: 2/3 for 272/415 ~ 0.6554).  1/2 for 0.655 is the closest fraction with denominator <= 2
    but fails both bounds (q^2 gap 0.62, relative gap 24%): not a rounding.

    >>> approximates("2/3", Fraction(272, 415)), approximates("3/5", Fraction(272, 415))
    (True, False)
    >>> approximates("1/2", Fraction(131, 200)), approximates("1", Fraction(21, 20))
    (False, False)
    >>> approximates("2/3", Fraction(2, 3))  # equal is a match, not an approximation
    False
    """
    q = parse_exact(text)
    if q is None or not isinstance(exact, (int, Fraction)) or q == exact:
        return False
    m = _QUOTIENT.match(text)
    den = int(m.group(2)) if m and m.group(2).isdigit() else (1 if _INTEGER.match(text) else None)
    if den is None or Fraction(exact).limit_denominator(den) != q:
        return False
    gap = abs(Fraction(exact) - q)
    return gap * 2 * den * den < 1 and gap <= ROUNDING_RELATIVE_GAP * abs(Fraction(exact))


def _as_rounding(e: Erratum, what: str) -> Erratum:
    """An unclassified erratum whose printed fraction :func:`approximates` the exact value, as ``rounding``."""
    if e.cls != UNCLASSIFIED or not approximates(e.printed, Fraction(e.correct)):
        return e
    x = Fraction(e.correct)
    den = int(_QUOTIENT.match(e.printed).group(2)) if "/" in e.printed else 1
    return Erratum(
        e.entry,
        e.printed,
        e.correct,
        "rounding",
        f"printed {e.printed} only approximates the exact {e.correct} (= {float(x):.6f}){what}: "
        f"it is the closest fraction with denominator <= {den}, a convergent (gap < 1/(2 x {den}^2)) within "
        f"{ROUNDING_RELATIVE_GAP} of the exact value",
    )


def decimal_matches_real(text: str, exact: object) -> bool:
    """The decimal rounding rule of :func:`printed_matches` for an exact real sympy number
    (sqrt(2)/4 against '~.35'), decided exactly: |x - d| <= 5 * 10^-(k+1) by exact sign tests."""
    import sympy

    m = _DECIMAL.match(text)
    if not m:
        return False
    k = len(m.group(3))
    d = sympy.Rational(f"{m.group(1)}{m.group(2) or '0'}.{m.group(3)}")
    h = sympy.Rational(5, 10 ** (k + 1))
    x = sympy.expand(sympy.sympify(exact))  # exact as given (sympy.nsimplify would guess numerically)
    from udpm.lp.certify import sign_of, split_coefficient

    return sign_of(split_coefficient(x - (d - h))) >= 0 and sign_of(split_coefficient((d + h) - x)) >= 0
