"""Library mechanisms by name, as ``udpm audit --library NAME`` takes them, with their parameter as the library gets it.

>>> from fractions import Fraction
>>> m = library_mechanism("diffprivlib:GeometricTruncated", 3, epsilon="0.6931471805599453")
>>> m.alpha, m.rate == Fraction(0.6931471805599453)
(exp(-6243314768165359/9007199254740992), True)
>>> library_mechanism("opendp:make_geometric", 3, epsilon="1")
Traceback (most recent call last):
    ...
udpm.errors.InvalidInput: opendp:make_geometric takes --scale, not --epsilon
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from udpm.auditing.adapters import LibraryMechanism
from udpm.auditing.adapters import diffprivlib as dpl
from udpm.auditing.adapters import opendp as odp
from udpm.auditing.adapters import tumult as tmt
from udpm.errors import InvalidInput


@dataclass(frozen=True)
class Entry:
    """How to build one library mechanism on counts 0..n from its one parameter."""

    build: Callable[[int, object], LibraryMechanism]
    parameter: str  # "epsilon" or "scale"
    conformance: str  # the test that checks the adapter against the installed sampler


TESTS = "tests/test_adapters.py::"
LIBRARY_MECHANISMS: dict[str, Entry] = {
    "diffprivlib:GeometricTruncated": Entry(
        dpl.geometric_truncated, "epsilon", TESTS + "test_diffprivlib_geometric_truncated_sampler"
    ),
    "diffprivlib:Geometric": Entry(dpl.geometric, "epsilon", TESTS + "test_diffprivlib_geometric_sampler"),
    "opendp:make_geometric": Entry(odp.geometric_bounded, "scale", TESTS + "test_opendp_bounded_geometric_sampler"),
    "opendp:make_laplace": Entry(odp.discrete_laplace, "scale", TESTS + "test_opendp_discrete_laplace_sampler"),
    "tmlt.core:AddGeometricNoise": Entry(
        tmt.add_geometric_noise, "scale", TESTS + "test_tumult_sampler (skipped: tmlt.core is not installable here)"
    ),
}
NAMES = ", ".join(LIBRARY_MECHANISMS)


#: (library, the adapter's mechanism name) -> its key above.
BY_ADAPTER_NAME = {
    ("diffprivlib", "GeometricTruncated"): "diffprivlib:GeometricTruncated",
    ("diffprivlib", "Geometric"): "diffprivlib:Geometric",
    ("opendp", "make_geometric(bounds)"): "opendp:make_geometric",
    ("opendp", "make_laplace / make_geometric (integers)"): "opendp:make_laplace",
    ("tmlt.core", "AddGeometricNoise"): "tmlt.core:AddGeometricNoise",
}


def conformance_of(m: LibraryMechanism) -> str:
    """The test that checks the adapter of ``m`` against the installed library's sampler."""
    if m.conformance:
        return m.conformance
    key = BY_ADAPTER_NAME.get((m.library, m.name))
    return LIBRARY_MECHANISMS[key].conformance if key else "none"


def parameter(text: str, what: str) -> object:
    """A parameter as a user passes it to the library: a float literal is that binary64 double exactly;
    'ln 2' style text (diffprivlib's epsilon only) is the exact logarithm."""
    t = text.strip()
    if "ln" in t.lower() or "log" in t.lower():
        return t
    try:
        v = float(t)
    except ValueError:
        raise InvalidInput(f"--{what} {text!r} is not a number (a float such as 0.6931471805599453)") from None
    if not math.isfinite(v) or v <= 0:
        raise InvalidInput(f"--{what} {text!r}: {what} must be positive and finite")
    return v


def library_mechanism(name: str, n: int, *, epsilon: str | None = None, scale: str | None = None) -> LibraryMechanism:
    """The exact mechanism ``name`` (library:mechanism) on counts 0..n, with its parameter given as text."""
    if name not in LIBRARY_MECHANISMS:
        raise InvalidInput(f"unknown library mechanism {name!r}; one of {NAMES}")
    entry = LIBRARY_MECHANISMS[name]
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InvalidInput(f"--n must be an integer >= 1, got {n!r}")
    given = {"epsilon": epsilon, "scale": scale}
    other = "scale" if entry.parameter == "epsilon" else "epsilon"
    if given[other] is not None:
        raise InvalidInput(f"{name} takes --{entry.parameter}, not --{other}")
    if given[entry.parameter] is None:
        raise InvalidInput(f"{name} needs --{entry.parameter}")
    value = parameter(given[entry.parameter], entry.parameter)
    if entry.parameter == "scale" and isinstance(value, str):
        raise InvalidInput(f"--scale {value!r}: give the float the library receives")
    m = entry.build(n, value)
    return dataclasses.replace(m, conformance=entry.conformance)


__all__ = ["LIBRARY_MECHANISMS", "Entry", "conformance_of", "library_mechanism", "parameter"]
