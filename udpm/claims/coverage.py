"""Coverage: which parts of a claim's printed class the decided instances reached, and how strongly.

The printed class (:class:`udpm.claims.statements.PrintedClass`) is split into *parts* that must each be
decided before the claim passes for the statement as printed:

* the inside of the printed alpha range, and each end the range includes as printed (a closed end
  is part of the statement: ``[0, 1]`` states alpha = 0 and alpha = 1);
* each alpha a statement at fixed values names (``{1/4}``);
* each part of the users, mechanisms or queries the statement declares (``parts``), which a check
  decides apart and names in its instances (``region``); an instance without a region decides the
  class whole;
* each n of a statement about finitely many n (``n = 3``, ``n in {1, 3}``), reached by an instance
  at that n or an all-n argument from at most that n on.

An all-n argument is as strong as ``all-n`` only where it starts at the smallest printed n
(:attr:`udpm.claims.instances.Instance.first_n`; ``n >= 0`` states the empty database, which an argument
over n >= 1 leaves out): one that starts later decides a range of n, as strong as ``bounded``.

A part is reached by a holding instance whose alpha lies in it and whose region is the part's (or
the whole class).  The strongest kind that reaches a part is that part's strength; the claim is
only as strong as its weakest part, and a part that nothing reached leaves the claim ``partial``
(:mod:`udpm.claims.evidence`), with that part named.

An instance's alpha is its canonical label (:func:`udpm.claims.instances.alpha_label`): an exact value
('1/2'), a zlcn2013 value with its internal alpha ('zlcn alpha=2 (internal 1/2)'), a chain of
levels ('chain 0<1/2<1'), or a symbolic range ('symbolic alpha in [0,1]').  :func:`alpha_span`
reads that label grammar and nothing else; a label outside it reaches no part.

>>> from fractions import Fraction as F
>>> alpha_span("1/2"), alpha_span("chain 0<1/2<1")[0], alpha_span("zlcn alpha=2 (internal 1/2)")[0]
(({Fraction(1, 2)}, None), {Fraction(0, 1), Fraction(1, 2), Fraction(1, 1)}, {Fraction(1, 2)})
>>> alpha_span("symbolic alpha in [0,1]")[1].text()
'[0, 1]'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from udpm.claims.instances import Decision, Kind, Outcome
from udpm.claims.statements import AlphaRange, PrintedClass
from udpm.errors import CatalogError

__all__ = ["Coverage", "Part", "alpha_span", "coverage", "parts_of", "restricted_to", "within"]

KIND_ORDER = (Kind.ALL_N, Kind.BOUNDED, Kind.SAMPLED, Kind.TABLE)  # strongest first

_EXACT = re.compile(r"^-?\d+(?:/\d+)?$")
_ZLCN = re.compile(r"^zlcn alpha=\S+ \(internal (\d+(?:/\d+)?)\)$")
_SYMBOLIC_RANGE = re.compile(r"^symbolic alpha in ([\[(].*[\])])$")
#: Symbolic labels whose alpha ranges over the open (0, 1): zlcn2013's alpha > 1, an ordered pair inside.
_OPEN_INSIDE = ("symbolic zlcn alpha > 1", "symbolic 0 < alpha <= beta < 1")


def alpha_span(label: str) -> tuple[set[Fraction], AlphaRange | None]:
    """The exact alphas and the symbolic range an instance's alpha label decides."""
    if _EXACT.match(label):
        return {Fraction(label)}, None
    if m := _ZLCN.match(label):
        return {Fraction(m[1])}, None
    if label.startswith("chain "):
        try:
            return {Fraction(a) for a in label[len("chain ") :].split("<")}, None
        except ValueError:
            return set(), None
    if m := _SYMBOLIC_RANGE.match(label):
        try:
            return set(), AlphaRange.parse(m[1].replace(",", ", "))
        except CatalogError:
            return set(), None
    if label.startswith(_OPEN_INSIDE):
        return set(), AlphaRange(Fraction(0), Fraction(1), False, False)
    return set(), None


@dataclass(frozen=True)
class Part:
    """One part of the printed class: alpha at a point or inside the range, or one printed n at any alpha of
    the range; and a region of the rest."""

    name: str
    point: Fraction | None  # alpha = point; None: strictly inside the printed range (or anywhere in it, for n)
    region: str  # '' for the class whole
    n: int | None = None  # a part about one printed n

    def reached_by(self, d: Decision, alpha: AlphaRange | None) -> bool:
        if self.region and d.instance.region not in ("", self.region):
            return False
        if self.n is not None:
            return reaches_n(d, self.n) and (alpha is None or within(d.instance.alpha, alpha))
        points, symbolic = alpha_span(d.instance.alpha)
        if alpha is None:
            return True
        if self.point is not None:
            return self.point in points or (symbolic is not None and symbolic.contains(self.point))
        inside = any(alpha.lo < p < alpha.hi for p in points)
        return inside or (symbolic is not None and symbolic.lo < alpha.hi and symbolic.hi > alpha.lo)


def reaches_n(d: Decision, n: int) -> bool:
    """Does the decision's instance decide at this n: at it, or an all-n argument from at most n on?"""
    first = d.instance.first_n
    return d.instance.n == n if first is None else first <= n


def printed_ns(printed: PrintedClass) -> list[tuple[str, int]]:
    """The n a statement about finitely many n names, each a part of its own."""
    r = printed.n
    if r is None or not r.fixed:
        return []
    return [(f"n = {k} (a printed n)", k) for k in r.each()]


def strength(d: Decision, printed: PrintedClass, reaching: Sequence[Decision] = (), part: Part | None = None) -> Kind:
    """The decision's kind, except that an all-n argument starting after the smallest printed n decides a
    range of n only (``bounded``), unless ``reaching`` decides each printed n below its start for every alpha of
    the part (at a fixed alpha, any exact decision at that n; inside the range, one over a symbolic alpha)."""
    first = d.instance.first_n
    if d.instance.kind is Kind.ALL_N and first is not None and printed.n is not None and first > printed.n.min:
        whole = {
            e.instance.n
            for e in reaching
            if e.instance.n is not None
            and e.instance.kind in (Kind.ALL_N, Kind.BOUNDED)
            and ((part is not None and part.point is not None) or _covers_inside(e, printed.alpha))
        }
        below = [n for n in range(printed.n.min, first) if printed.n.admits(n)]
        return Kind.ALL_N if all(n in whole for n in below) else Kind.BOUNDED
    return d.instance.kind


def _covers_inside(d: Decision, alpha: AlphaRange | None) -> bool:
    """Does the decision range over every alpha strictly inside the printed range (a symbolic range containing it)?"""
    symbolic = alpha_span(d.instance.alpha)[1]
    return symbolic is not None and (alpha is None or (symbolic.lo <= alpha.lo and symbolic.hi >= alpha.hi))


def parts_of(printed: PrintedClass) -> list[Part]:
    """The parts every one of which must be decided: alpha's pieces and the printed n, times the declared
    regions."""
    a = printed.alpha
    if a is None:
        pieces: list[tuple[str, Fraction | None]] = [("", None)]
    elif a.points:
        pieces = [(f"alpha = {p} (the printed value)", p) for p in a.points]
    else:
        pieces = [(f"alpha in ({a.lo}, {a.hi})", None)]  # the inside; a closed end is a part of its own
        pieces += [(f"alpha = {e} (an end of the printed {a.text()})", e) for e in a.closed_ends()]
    out = []
    for region in printed.required_parts():
        for name, point in pieces:
            full = "; ".join(x for x in (name, region) if x) or "the class whole"
            out.append(Part(full, point, region))
        for name, k in printed_ns(printed):
            out.append(Part("; ".join(x for x in (name, region) if x), None, region, k))
    return out


@dataclass(frozen=True)
class Coverage:
    """Each part with the strongest kind that decided it (None: undecided), and the claim's strength."""

    parts: tuple[tuple[str, Kind | None], ...]

    @property
    def undecided(self) -> list[str]:
        return [name for name, kind in self.parts if kind is None]

    @property
    def weakest(self) -> Kind | None:
        """The kind every part reached (the weakest of the parts' strongest), None when a part is undecided."""
        kinds = [k for _, k in self.parts]
        if not kinds or None in kinds:
            return None
        return max(kinds, key=KIND_ORDER.index)  # type: ignore[arg-type]

    def to_json(self) -> dict:
        return {
            "parts": [{"part": name, "decided": None if k is None else str(k)} for name, k in self.parts],
            "undecided": self.undecided,
        }


def coverage(decisions: Sequence[Decision], printed: PrintedClass) -> Coverage:
    """How strongly the holding decisions reach each part of the printed class."""
    holding = [d for d in decisions if d.outcome is Outcome.HOLDS]
    out = []
    for part in parts_of(printed):
        reaching = [d for d in holding if part.reached_by(d, printed.alpha)]
        out.append((part.name, part_strength(reaching, printed, part)))
    return Coverage(tuple(out))


#: Parameters that name one piece of an argument (a conjunct of the statement, a fact of the proof, a case of a
#: split, a printed step): a part rests on every piece its instances name, so it is only as strong as the
#: weakest of them.
PIECE_KEYS = ("part", "fact", "case", "step", "recurrence")


def piece_of(d: Decision) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in d.instance.params if k in PIECE_KEYS)


def part_strength(reaching: Sequence[Decision], printed: PrintedClass, part: Part | None = None) -> Kind | None:
    """The strongest kind among instances deciding the part whole, or the weakest piece of the argument the other
    instances make (each piece at the strongest kind that decided it), whichever is stronger."""
    strongest = lambda kinds: min(kinds, key=KIND_ORDER.index) if kinds else None  # noqa: E731
    whole = [strength(d, printed, reaching, part) for d in reaching if not piece_of(d)]
    pieces: dict[tuple, list[Kind]] = {}
    for d in reaching:
        if piece_of(d):
            pieces.setdefault(piece_of(d), []).append(strength(d, printed, reaching, part))
    by_pieces = max((strongest(k) for k in pieces.values()), key=KIND_ORDER.index) if pieces else None
    return strongest([k for k in (strongest(whole), by_pieces) if k is not None])


def within(label: str, alpha: AlphaRange) -> bool:
    """Does an instance's alpha lie in the range (every exact alpha it names; a symbolic range meeting it)?"""
    points, symbolic = alpha_span(label)
    if points:
        return all(alpha.contains(p) for p in points)
    if symbolic is not None:
        return symbolic.lo < alpha.hi and symbolic.hi > alpha.lo
    return False


def restricted_to(decisions: Sequence[Decision], printed: PrintedClass) -> list[Decision]:
    """The decisions that lie in a narrower printed class: alpha in its range, region among its parts, n among its n.

    A holding symbolic instance whose range meets the class still holds on the class; a counterexample is kept
    only where every alpha it names lies in the class (a symbolic counterexample names none and is kept, so a
    restriction never hides a failure it cannot place)."""
    out = []
    for d in decisions:
        if printed.parts and d.instance.region and d.instance.region not in printed.parts:
            continue
        if d.instance.n is not None and printed.n is not None and not printed.n.admits(d.instance.n):
            continue
        points, _ = alpha_span(d.instance.alpha)
        if printed.alpha is None or d.outcome is not Outcome.COUNTEREXAMPLE:
            keep = printed.alpha is None or within(d.instance.alpha, printed.alpha)
        else:
            keep = all(printed.alpha.contains(p) for p in points) if points else True
        if keep:
            out.append(d)
    return out
