# ruff: noqa: E501  (the report's one-line text header is kept on one source line)
"""The audit of one mechanism: privacy, grs2011 Theorem 3.2 and each user's certified optimum, in one report.

:func:`audit` asks every question of :mod:`udpm.questions` of one mechanism; :class:`AuditReport`
renders the answers, with their certificates, as text, JSON (``udpm-audit/1``) and HTML.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from . import linalg
from .errors import InvalidMatrix
from .exact_inputs import TOLERANCE, Conversion, exact_alpha, exact_matrix, parse_users
from .privacy import dp_violations
from .questions import (
    TIMEOUT_S,
    Optimum,
    PrivacyVerdict,
    Universality,
    _describe,
    _less,
    best_remap,
    is_universally_optimal,
    optimal_for,
)
from .users import BayesianUser, LossValue
from .validate import Matrix


@dataclass(frozen=True)
class UserResult:
    """One user's view of M: its loss under its best remap against the certified optimum."""

    label: str
    user: BayesianUser
    mechanism_loss: LossValue
    best_remap: list[int]
    optimum: Optimum

    @property
    def gap(self) -> LossValue:
        return self.mechanism_loss - self.optimum.loss

    @property
    def verdict(self) -> str:
        if _less(self.optimum.loss, self.mechanism_loss):
            return f"suboptimal by {self.gap}"
        if _less(self.mechanism_loss, self.optimum.loss):
            return "below the alpha-DP optimum (M is not alpha-DP)"
        return "optimal"

    def to_json(self) -> dict:
        return {
            "label": self.label,
            **_describe(self.user),
            "mechanism_loss": str(self.mechanism_loss),
            "best_remap": self.best_remap,
            "optimum": str(self.optimum.loss),
            "optimal_mechanism": [[str(v) for v in r] for r in self.optimum.mechanism],
            "verdict": self.verdict,
            "certificate": self.optimum.certificate(f"optimum for {self.label}"),
        }


@dataclass(frozen=True)
class AuditReport:
    """Everything :func:`audit` found about one mechanism; renders as text, JSON and HTML."""

    mechanism: Matrix
    alpha: Fraction
    alpha_given: str
    privacy: PrivacyVerdict
    universality: Universality
    users: tuple[UserResult, ...]
    conversion: Conversion

    @property
    def n(self) -> int:
        return len(self.mechanism) - 1

    @property
    def verdict(self) -> str:
        if not self.privacy:
            return f"NOT {self.alpha}-DP"
        if self.universality:
            return f"{self.alpha}-DP and universally optimal (grs2011 Theorem 3.2)"
        return f"{self.alpha}-DP, NOT universally optimal (grs2011 Theorem 3.2)"

    def to_dict(self) -> dict:
        u = self.universality
        return {
            "format": "udpm-audit/1",
            "n": self.n,
            "alpha": str(self.alpha),
            "alpha_given": self.alpha_given,
            "input": self.conversion.to_json(),
            "mechanism": [[str(v) for v in r] for r in self.mechanism],
            "verdict": self.verdict,
            "private": self.privacy.private,
            "violations": [str(v) for v in self.privacy.violations],
            "universally_optimal": u.optimal,
            "reason": u.reason,
            "remap_to_T": None if u.remap is None else [[str(v) for v in r] for r in u.remap],
            "no_remap_certificate": u.no_remap_certificate,
            "witness_user": u.witness_user,
            "users": [r.to_json() for r in self.users],
            # every LP certificate above, again, so that `python -m udpm.certificates report.json` re-checks them all
            "certificates": [
                c
                for c in (
                    u.no_remap_certificate,
                    (u.witness_user or {}).get("certificate"),
                    *(r.optimum.certificate(f"optimum for {r.label}") for r in self.users),
                )
                if c
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        u = self.universality
        lines = [
            f"udpm audit: n={self.n}, alpha={self.alpha}{'' if self.alpha_given.startswith('alpha') else f' ({self.alpha_given})'}, {len(self.mechanism[0])} outputs; "
            f"{self.conversion}",
            f"verdict: {self.verdict}",
            f"  privacy: {self.privacy}",
            f"  {u}",
        ]
        if u.remap is not None:
            lines.append(
                f"  certificate: the remap Y with M·Y = T({self.n}, {self.alpha}): {linalg.fmt_matrix(u.remap)}"
            )
        if u.witness_user:
            w = u.witness_user
            lines.append(
                f"  witness: user '{w['label']}' loses {w['mechanism_loss']} with M (best remap {w['best_remap']}), "
                f"the certified optimum is {w['optimum']}"
            )
        for r in self.users:
            lines.append(
                f"  user {r.label}: M loses {r.mechanism_loss} (best remap {r.best_remap}); certified optimum "
                f"{r.optimum.loss}: {r.verdict}"
            )
        return "\n".join(lines) + "\n"

    def to_html(self) -> str:
        e = html.escape
        d = self.to_dict()

        def table(m: Sequence[Sequence[object]]) -> str:
            return (
                "<table class=m>"
                + "".join("<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in r) + "</tr>" for r in m)
                + "</table>"
            )

        parts = [
            "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>udpm audit</title><style>"
            "body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto}"
            "table.m td{border:1px solid #ccc;padding:2px 6px;font-family:monospace}"
            ".ok{color:#060}.no{color:#a00}</style></head><body>",
            "<h1>udpm audit</h1>",
            f"<p>n = {self.n}, alpha = {e(d['alpha'])} ({e(self.alpha_given)}); {e(str(self.conversion))}</p>",
            f"<h2 class={'ok' if self.universality else 'no'}>{e(self.verdict)}</h2>",
            f"<p>privacy: {e(str(self.privacy))}</p>",
            f"<p>{e(str(self.universality))}</p>",
            "<h3>mechanism M</h3>" + table(d["mechanism"]),
        ]
        if d["remap_to_T"]:
            parts.append(
                f"<h3>certificate: remap Y with M·Y = T({self.n}, {e(d['alpha'])})</h3>" + table(d["remap_to_T"])
            )
        if d["witness_user"]:
            w = d["witness_user"]
            parts.append(
                f"<h3>witness user: {e(w['label'])}</h3><p>M loses {e(w['mechanism_loss'])}; the certified optimum "
                f"is {e(w['optimum'])}.</p>"
            )
        parts.append(
            "<h3>users</h3><table class=m><tr><td>user</td><td>M's loss</td><td>optimum</td><td>verdict</td></tr>"
        )
        for r in d["users"]:
            parts.append(
                f"<tr><td>{e(r['label'])}</td><td>{e(r['mechanism_loss'])}</td><td>{e(r['optimum'])}</td>"
                f"<td>{e(r['verdict'])}</td></tr>"
            )
        parts.append("</table></body></html>\n")
        return "\n".join(parts)


def audit(
    m: object,
    alpha: object = None,
    *,
    eps: object = None,
    users: object = None,
    exact: str | None = None,
    tolerance: object = TOLERANCE,
    timeout_s: float = TIMEOUT_S,
) -> AuditReport:
    """Audit one count-query mechanism: privacy, universal optimality, and each user's certified optimum.

    Parameters
    ----------
    m : matrix
        Rows i = 0..n (n >= 1), any number of outputs.
    alpha, eps : rational or str
        Exactly one, as in :func:`is_private`.
    users : None, loss name, (prior, loss), BayesianUser, or a list / dict of them
        Default: the uniform prior with each of 'abs', 'zero-one', 'squared'.
    exact : None, "rationalize" or "estimated"
        As in :func:`exact_matrix`; the report states the conversion used.

    Returns
    -------
    AuditReport
        ``.verdict``, ``.to_text()``, ``.to_json()``, ``.to_html()``.

    Examples
    --------
    >>> from udpm.mechanisms import truncated_geometric
    >>> r = audit(truncated_geometric(2, "1/2"), eps="ln 2", users="abs")
    >>> print(r.to_text())
    udpm audit: n=2, alpha=1/2 (eps=ln 2), 3 outputs; exact input
    verdict: 1/2-DP and universally optimal (grs2011 Theorem 3.2)
      privacy: 1/2-DP
      universally optimal: M·Y = T(2, 1/2) exactly for a stochastic remap Y (Y = M^-1 T is stochastic (M is invertible))
      certificate: the remap Y with M·Y = T(2, 1/2): [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
      user uniform, abs: M loses 5/9 (best remap [0, 1, 2]); certified optimum 5/9: optimal
    <BLANKLINE>
    >>> audit(truncated_geometric(2, "1/2"), "1/2", users=[(["1/2", "1/2"], "abs")])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: the prior has 2 entries, the loss is for results 0..2
    """
    a = exact_alpha(alpha, eps)
    given = f"eps={eps}" if eps is not None else f"alpha={alpha}"
    x, conv = exact_matrix(m, exact=exact, tolerance=tolerance)
    if len(x) < 2:
        raise InvalidMatrix("a count-query mechanism has rows 0..n with n >= 1; got 1 row")
    people = parse_users(users, len(x) - 1)
    privacy = PrivacyVerdict(a, tuple(dp_violations(x, a)), conv)
    uni = is_universally_optimal(x, a, timeout_s=timeout_s)
    rows = []
    for label, user in people:
        mu, mapping = best_remap(x, user)
        rows.append(UserResult(label, user, mu, mapping, optimal_for(user, a, timeout_s=timeout_s)))
    return AuditReport(x, a, given, privacy, uni, tuple(rows), conv)


__all__ = ["AuditReport", "UserResult", "audit"]
