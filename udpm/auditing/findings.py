"""The findings of one audit, and how they read: :class:`AuditReport` as text, JSON (``udpm-audit/2``) and HTML.

:func:`udpm.auditing.report.audit` fills an :class:`AuditReport`; its text and HTML start with one verdict line a
maintainer can act on (:attr:`AuditReport.headline`), then the evidence, every exact number with a decimal beside
it (:mod:`udpm.auditing.readable`); the JSON keeps every exact value and certificate.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction

import flint

from udpm.auditing.exact_inputs import Conversion
from udpm.auditing.optimum import Optimum, describe_user
from udpm.auditing.privacy_level import PrivacyLevel
from udpm.auditing.questions import PrivacyVerdict, Universality
from udpm.auditing.readable import approx, compact, decimal, readable, relative, short_exact
from udpm.core import linalg
from udpm.core.users import BayesianUser
from udpm.core.validate import Matrix

#: Largest matrix printed in full in the text report (larger ones are in the JSON).
SHOWN = 6


@dataclass(frozen=True)
class Step:
    """One step of the audit: ``decided``, ``timeout`` (not decided within the budget), ``off`` or ``skipped``."""

    name: str
    status: str
    seconds: float
    note: str = ""

    def to_json(self) -> dict:
        return {"step": self.name, "status": self.status, "seconds": round(self.seconds, 3), "note": self.note}


@dataclass(frozen=True)
class UserResult:
    """One user's view of M: its loss under its best remap against the certified optimum.

    ``mechanism_loss`` is a Fraction, or an arb ball (``flint.arb``) for a mechanism with an irrational
    ratio; ``optimum`` is None when its LP was not certified within the budget (``status`` "timeout").
    """

    label: str
    user: BayesianUser
    mechanism_loss: object
    best_remap: list[int] | None
    optimum: Optimum | None
    status: str = "decided"

    @property
    def gap(self) -> object:
        """M's loss minus the optimum: a Fraction, or an arb ball (computed at 256 bits)."""
        if self.optimum is None or self.mechanism_loss is None:
            return None
        o = self.optimum.loss
        if not isinstance(self.mechanism_loss, flint.arb):
            return self.mechanism_loss - o
        old = flint.ctx.prec
        try:
            flint.ctx.prec = 256
            return self.mechanism_loss - flint.arb(o.numerator) / o.denominator
        finally:
            flint.ctx.prec = old

    def _sign(self) -> int | None:
        g = self.gap
        if g is None:
            return None
        if isinstance(g, flint.arb):
            return 1 if g > 0 else -1 if g < 0 else None
        return (g > 0) - (g < 0)

    @property
    def verdict(self) -> str:
        if self.optimum is None:
            return "optimum not certified within the budget (timeout)"
        s = self._sign()
        if s is None:
            return "not decided: the arb ball of the gap contains 0"
        if s > 0:
            return f"suboptimal by {self.gap}" if isinstance(self.gap, Fraction) else "suboptimal (arb ball > 0)"
        if s < 0:
            return "below the alpha-DP optimum (M is not alpha-DP)"
        return "optimal"

    def readable_verdict(self) -> str:
        if self.optimum is None or self._sign() is None:
            return self.verdict
        if self._sign() > 0:
            g, opt = self.gap, self.optimum.loss
            if isinstance(g, flint.arb):
                return f"suboptimal by ≈ {g.mid().str(4, radius=False)} (arb ball {g.str(6)}, excludes 0)"
            return f"suboptimal by {readable(g)}, {relative(g, opt)} above the optimum"
        return self.verdict

    def loss_text(self) -> str:
        x = self.mechanism_loss
        if x is None:
            return "not computed"
        return f"≈ {x.mid().str(6, radius=False)} (arb ball {x.str(8)})" if isinstance(x, flint.arb) else readable(x)

    def to_json(self) -> dict:
        x = self.mechanism_loss
        out = {
            "label": self.label,
            **describe_user(self.user),
            "status": self.status,
            "mechanism_loss": x.str(30) if isinstance(x, flint.arb) else str(x),
            "best_remap": self.best_remap,
            "optimum": None if self.optimum is None else str(self.optimum.loss),
            "verdict": self.verdict,
        }
        if isinstance(self.gap, Fraction):
            out["gap"] = str(self.gap)
            out["gap_decimal"] = decimal(self.gap)
            out["gap_relative"] = relative(self.gap, self.optimum.loss)
        if self.optimum is not None:
            out["optimal_mechanism"] = [[str(v) for v in r] for r in self.optimum.mechanism]
            out["certificate"] = self.optimum.certificate(f"optimum for {self.label}")
        return out


def violation_text(v: object) -> str:
    """One DP violation readably: the two rows, the output, both probabilities and their ratio."""

    def show(x: object) -> str:
        return readable(x) if isinstance(x, Fraction | int) else f"≈ {decimal(x, 17)}"

    ratio = "inf" if v.ratio is None else show(v.ratio)
    return f"rows {v.row}, {v.other} at output {v.column}: {show(v.p)} vs {show(v.q)}, ratio {ratio}"


def _fmt_alpha(a: object, rate: Fraction | None = None) -> str:
    return compact(a) if isinstance(a, Fraction) else approx(a, rate)


@dataclass(frozen=True)
class AuditReport:
    """Everything :func:`audit` found about one mechanism; renders as text, JSON and HTML."""

    mechanism: Matrix | None
    alpha: object
    alpha_given: str
    privacy: PrivacyVerdict
    universality: Universality | None
    users: tuple[UserResult, ...]
    conversion: Conversion
    level: PrivacyLevel | None = None
    steps: tuple[Step, ...] = ()
    library: object | None = None  # udpm.auditing.adapters.LibraryMechanism
    budget_s: float | None = None
    outputs: int = 0
    rate: Fraction | None = field(default=None)  # alpha = e^-rate when asked at an irrational alpha_lib
    sampled: object | None = None  # udpm.auditing.sampled.SampledVerdict for exact="sampled"

    @property
    def n(self) -> int:
        return self.library.n if self.library is not None else len(self.mechanism) - 1

    @property
    def alpha_text(self) -> str:
        return _fmt_alpha(self.alpha, self.rate)

    @property
    def verdict(self) -> str:
        a = self.alpha_text
        if self.sampled is not None:
            return self.sampled.verdict
        if not self.privacy:
            return f"NOT {a}-DP"
        if self.universality is None:
            return f"{a}-DP; universal optimality not decided (timeout)"
        if self.universality.method == "undecided":
            return f"{a}-DP; universal optimality not decided"
        if self.universality:
            return f"{a}-DP and universally optimal (grs2011 Theorem 3.2)"
        return f"{a}-DP, NOT universally optimal (grs2011 Theorem 3.2)"

    def _eps_text(self) -> str:
        if self.alpha_given.startswith("eps="):
            return f"eps = {self.alpha_given[4:]} (alpha = {self.alpha_text})"
        if self.rate is not None:
            return f"eps = {float(self.rate)!r} (alpha = {self.alpha_text})"
        inv = 1 / Fraction(self.alpha)
        ln = f"ln {short_exact(inv)}" if inv.denominator == 1 else f"ln({short_exact(inv)})"
        return (
            f"alpha = {self.alpha_text} (eps = {ln} ≈ {decimal(math.log(inv.numerator) - math.log(inv.denominator))})"
        )

    def _largest_gap(self) -> tuple[str, str] | None:
        best = None
        for r in self.users:
            if isinstance(r.gap, Fraction) and r.gap > 0 and (best is None or r.gap > best.gap):
                best = r
        if best is not None:
            return f"{readable(best.gap)} ({relative(best.gap, best.optimum.loss)} above the optimum)", best.label
        w = self.universality.witness if self.universality is not None else None
        if w is not None:
            return f"{readable(w.gap)} ({relative(w.gap, w.reference)} above {self._ref(w)})", w.label
        return None

    @staticmethod
    def _ref(w: object) -> str:
        return "the certified optimum" if w.optimum is not None else "T(n, alpha)'s loss"

    @property
    def headline(self) -> str:
        """One line a maintainer can act on."""
        n, a = self.n, self.alpha_text
        if self.sampled is not None:
            sv = self.sampled
            tail = "" if "confidence" in sv.verdict else f", at confidence {sv.confidence} = {decimal(sv.confidence)}"
            return f"SAMPLED: {sv.verdict}{tail}"
        if not self.privacy:
            lv = self.level
            tail = "" if lv is None else f"; its tightest level is {str(lv).split(':')[0]}"
            return f"NOT DP at {self._eps_text()}: {violation_text(self.privacy.violations[0])}{tail}"
        head = f"DP at {self._eps_text()}"
        u = self.universality
        if u is None:
            return f"{head}; universal optimality NOT DECIDED: the remap question ran out of the budget"
        if u.method == "undecided":
            return f"{head}; universal optimality NOT DECIDED: {u.reason}"
        if u:
            return f"{head}; universally optimal: T({n}, {a}) is a remap of it (grs2011 Theorem 3.2)"
        line = f"{head}; NOT universally optimal: T({n}, {a}) is not a remap of it"
        gap = self._largest_gap()
        if gap is not None:
            line += f"; the largest loss gap found is {gap[0]}, for the user {gap[1]}"
        return line

    def to_dict(self) -> dict:
        u = self.universality
        lib = self.library
        return {
            "format": "udpm-audit/2",
            "sampled": None if self.sampled is None else self.sampled.to_dict(),
            "headline": self.headline,
            "n": self.n,
            "alpha": str(self.alpha),
            "alpha_decimal": decimal(self.alpha, 17)
            if isinstance(self.alpha, Fraction)
            else approx(self.alpha, self.rate),
            "alpha_given": self.alpha_given,
            "input": self.conversion.to_json(),
            "library": None
            if lib is None
            else {
                "library": lib.library,
                "mechanism": lib.name,
                "params": lib.params,
                "alpha_lib": str(lib.alpha),
                "kind": lib.kind,
                "outputs": list(lib.outputs),
                "source": lib.source,
                "conformance": lib.conformance,
            },
            "mechanism": None if self.mechanism is None else [[str(v) for v in r] for r in self.mechanism],
            "verdict": self.verdict,
            "private": self.privacy.private,
            "violations": [str(v) for v in self.privacy.violations],
            "privacy_level": None if self.level is None else self.level.to_json(),
            "universally_optimal": None if u is None or u.method == "undecided" else u.optimal,
            "reason": "timeout" if u is None else u.reason,
            "method": "timeout" if u is None else u.method,
            "remap_to_T": None if u is None or u.remap is None else [[str(v) for v in r] for r in u.remap],
            "negative_entry": None
            if u is None or u.negative_entry is None
            else {"row": u.negative_entry[0], "column": u.negative_entry[1], "value": str(u.negative_entry[2])},
            "null_vector": None if u is None or u.null_vector is None else [str(v) for v in u.null_vector],
            "no_remap_certificate": None if u is None else u.no_remap_certificate,
            "witness_status": "timeout" if u is None else u.witness_status,
            "witness_user": None if u is None else u.witness_user,
            "users": [r.to_json() for r in self.users],
            "steps": [s.to_json() for s in self.steps],
            "budget_s": self.budget_s,
            # every LP certificate above, again, so that `python -m udpm.lp.certificates report.json` re-checks them all
            "certificates": [
                c
                for c in (
                    None if u is None else u.no_remap_certificate,
                    None if u is None else (u.witness_user or {}).get("certificate"),
                    *(r.optimum.certificate(f"optimum for {r.label}") for r in self.users if r.optimum is not None),
                )
                if c
            ],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    def _remap_text(self, y: Matrix) -> str:
        if y == linalg.identity(len(y)):
            return "Y = I (the identity)"
        if all(v in (0, 1) for r in y for v in r):
            return (
                f"a deterministic Y, output r -> {[r.index(1) for r in y]}"
                if len(y) <= 40
                else (f"a deterministic {len(y)}x{len(y[0])} Y (in the JSON)")
            )
        if len(y) <= SHOWN:
            return "Y = [" + ", ".join("[" + ", ".join(readable(v) for v in r) + "]" for r in y) + "]"
        return f"a {len(y)}x{len(y[0])} stochastic Y (in the JSON)"

    def evidence_lines(self) -> list[str]:
        """The evidence under the headline, one fact a line."""
        u = self.universality
        if self.sampled is not None:
            return self._sampled_lines()
        lines = [
            f"  privacy: DP at alpha = {self.alpha_text}"
            if self.privacy
            else f"  privacy: not {self.alpha_text}-DP: "
            f"{violation_text(self.privacy.violations[0])}"
            + (f" (and {len(self.privacy.violations) - 1} more)" if len(self.privacy.violations) > 1 else "")
        ]
        if self.level is not None:
            lines.append(f"  tightest level: {self.level} (M is alpha-DP exactly for alpha <= alpha*)")
        if u is None:
            lines.append("  universal optimality: timeout (the remap question was not decided within the budget)")
        else:
            lines.append(f"  {u}")
            if u.remap is not None:
                lines.append(
                    f"  certificate: M·Y = T({self.n}, {self.alpha_text}) exactly for {self._remap_text(u.remap)}"
                )
            if u.witness is not None:
                w = u.witness
                ref = (
                    f"its certified optimum is {readable(w.optimum.loss)}"
                    if w.optimum is not None
                    else ("its optimum was not certified within the budget")
                )
                lines.append(
                    f"  witness user ({w.found_by}): {w.label}: {w.summary()}; M loses {readable(w.mechanism_loss)}, "
                    f"T({self.n}, {self.alpha_text}) loses {readable(w.t_loss)}, {ref} (full user in the JSON)"
                )
            elif not u.optimal and u.method not in ("not DP", "undecided"):
                lines.append(f"  witness user: {u.witness_status}")
        for r in self.users:
            opt = "not certified (timeout)" if r.optimum is None else readable(r.optimum.loss)
            lines.append(f"  user {r.label}: M loses {r.loss_text()}; certified optimum {opt}: {r.readable_verdict()}")
        if self.steps:
            lines.append(
                "  steps: "
                + ", ".join(f"{s.name} {s.status}" for s in self.steps)
                + ("" if self.budget_s is None else f"; budget {self.budget_s:g} s")
            )
        return lines

    def _sampled_lines(self) -> list[str]:
        sv = self.sampled
        lines = [
            f"  method: {sv.method}; each cell's two-sided level {readable(sv.per_cell_level)}, over {sv.cells} cells",
            f"  privacy: {'consistent with' if sv.consistent_with_dp else 'NOT'} {self.alpha_text}-DP "
            "at this confidence"
            + ("" if sv.consistent_with_dp else f": {len(sv.violations)} violations, first {sv.violations[0]}"),
        ]
        if sv.outside is not None:
            lines.append(
                f"  {sv.reference_name}: "
                + (
                    "every cell inside its interval"
                    if not sv.outside
                    else f"{len(sv.outside)} cells outside their intervals, first {list(sv.outside[0])}"
                )
            )
        lines.append("  the intervals of every cell are in the JSON; no exact verdict is drawn from samples")
        return lines

    def to_text(self) -> str:
        lib = self.library
        lines = [
            f"verdict: {self.headline}",
            f"udpm audit: n={self.n}, alpha={self.alpha_text}"
            f"{'' if self.alpha_given.startswith('alpha') else f' ({self.alpha_given})'}, {self.outputs} outputs; "
            f"{self.conversion if lib is None else 'the exact distribution of the library mechanism'}",
        ]
        if lib is not None:
            from udpm.auditing.adapters.registry import conformance_of

            lines.append(
                f"  library: {lib.library} {lib.name} {lib.params}; the adapter transcribes the library's source "
                f"({lib.source}); conformance test against the installed sampler: {conformance_of(lib)}"
            )
        return "\n".join(lines + self.evidence_lines()) + "\n"

    def to_html(self) -> str:
        from udpm.auditing.html import render

        return render(self)


__all__ = ["AuditReport", "Step", "UserResult", "violation_text"]
