"""udpm: exact core library of the harness for universally optimal DP mechanisms.

Modules are named after the papers' concepts: mechanisms, privacy, remaps,
signatures, users, programs (the LPs), certificates; claims and catalog hold
the claim registry.  alpha is always in (0, 1) with alpha = e^-eps inside;
zlcn2013's alpha > 1 enters only through conventions.alpha_from_zlcn2013.

The public API asks the papers' questions of your own mechanism, one at a time (:mod:`udpm.auditing.questions`)
or all in one report (:func:`udpm.audit`, from :mod:`udpm.auditing.report`); :mod:`udpm.auditing.exact_inputs`,
:mod:`udpm.auditing.alpha_inputs` and :mod:`udpm.auditing.user_inputs` make the inputs exact:

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

The names are loaded on first use, so that ``python -m udpm.lp.certificates`` still
imports nothing beyond the standard library.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "audit": "udpm.auditing.report",
    "AuditReport": "udpm.auditing.report",
    "derive": "udpm.auditing.questions",
    "is_private": "udpm.auditing.questions",
    "is_universally_optimal": "udpm.auditing.questions",
    "optimal_for": "udpm.auditing.optimum",
    "make_user": "udpm.auditing.user_inputs",
    "alpha_from_eps": "udpm.auditing.alpha_inputs",
    "exact_matrix": "udpm.auditing.exact_inputs",
    "rationalize": "udpm.auditing.exact_inputs",
    "IrrationalAlpha": "udpm.auditing.alpha_inputs",
    "NotRationalizable": "udpm.auditing.exact_inputs",
    "truncated_geometric": "udpm.core.mechanisms",
    "geometric_window": "udpm.core.mechanisms",
    "BayesianUser": "udpm.core.users",
    "Loss": "udpm.core.users",
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
