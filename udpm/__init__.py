"""udpm: exact core library of the harness for universally optimal DP mechanisms.

Modules are named after the papers' concepts: mechanisms, privacy, remaps,
signatures, users, programs (the LPs), certificates; claims and catalog hold
the claim registry.  alpha is always in (0, 1) with alpha = e^-eps inside;
zlcn2013's alpha > 1 enters only through conventions.alpha_from_zlcn2013.

The public API asks the papers' questions of your own mechanism, one at a time (:mod:`udpm.questions`)
or all in one report (:func:`udpm.audit`, from :mod:`udpm.audit_report`); :mod:`udpm.exact_inputs` makes
the inputs exact:

>>> import udpm
>>> T = udpm.truncated_geometric(2, "1/2")
>>> bool(udpm.is_private(T, eps="ln 2")), bool(udpm.is_universally_optimal(T, "1/2"))
(True, True)
>>> udpm.audit(T, "1/2", users="abs").verdict
'1/2-DP and universally optimal (grs2011 Theorem 3.2)'
>>> udpm.derive(from_=T, to=[["1"], ["1"], ["1"]])
[[Fraction(1, 1)], [Fraction(1, 1)], [Fraction(1, 1)]]
>>> udpm.optimal_for(("uniform", "abs"), "1/2")
Traceback (most recent call last):
    ...
udpm.errors.InvalidInput: give n, or a prior or loss matrix that fixes it

The names are loaded on first use, so that ``python -m udpm.certificates`` still
imports nothing beyond the standard library.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "audit": "udpm.audit_report",
    "AuditReport": "udpm.audit_report",
    "derive": "udpm.questions",
    "is_private": "udpm.questions",
    "is_universally_optimal": "udpm.questions",
    "optimal_for": "udpm.questions",
    "make_user": "udpm.exact_inputs",
    "alpha_from_eps": "udpm.exact_inputs",
    "exact_matrix": "udpm.exact_inputs",
    "rationalize": "udpm.exact_inputs",
    "IrrationalAlpha": "udpm.exact_inputs",
    "NotRationalizable": "udpm.exact_inputs",
    "truncated_geometric": "udpm.mechanisms",
    "geometric_window": "udpm.mechanisms",
    "BayesianUser": "udpm.users",
    "Loss": "udpm.users",
    "HarnessError": "udpm.errors",
    "InvalidInput": "udpm.errors",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'udpm' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
