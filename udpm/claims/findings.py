"""What a check found: the instances it decided, its exact values, errata, certificate and notes.

A check records each instance in a :class:`Findings` as it decides it (:meth:`Findings.deciding`);
:func:`udpm.claims.evidence.derive` turns the record into a verdict, and :meth:`Findings.result` asks it
directly.

>>> from udpm.claims.instances import BOUNDED
>>> rec = Findings("demo")
>>> with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="enumeration"):
...     pass
>>> rec.decisions[0].outcome
<Outcome.HOLDS: 'holds'>
>>> with rec.deciding(n=1, alpha="1/2", kind=BOUNDED, method="enumeration"):
...     pass
Traceback (most recent call last):
...
udpm.errors.HarnessError: demo decided the same instance twice: n=1 alpha=1/2 bounded enumeration
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from udpm.claims.evidence import Result, derive
from udpm.claims.instances import Decision, Erratum, Instance, Kind, Outcome, alpha_label, exact_text
from udpm.errors import HarnessError, SolverTimeout
from udpm.internal import deadline
from udpm.smt.reports import forget_loose, reported_queries, take_loose


@dataclass
class Deciding:
    """The open decision of one :meth:`Findings.deciding` block."""

    witness: str | None = None
    reason: str | None = None

    def counterexample(self, witness: str) -> None:
        """The instance fails; ``witness`` is the concrete counterexample, re-checked exactly."""
        if not witness:
            raise HarnessError("a counterexample needs a concrete witness")
        self.witness = witness

    def inconclusive(self, reason: str) -> None:
        """The instance was not decided (a solver said unknown, a search hit its cap)."""
        self.reason = reason


@dataclass
class Findings:
    """Everything a check found: its decided instances, exact values, errata, certificate and notes.

    The check fills it; :func:`udpm.claims.evidence.derive` turns it into a verdict.
    ``status``, ``evidence`` and the other derived fields are available here
    too (without the cap of dependencies), so that a test can ask a check
    directly what it showed.
    """

    claim: str
    decisions: list[Decision] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)
    errata: list[Erratum] = field(default_factory=list)
    certificate: dict | None = None
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        forget_loose()  # queries answered outside any block of an earlier check are no part of this one

    # --- recording ------------------------------------------------------------------------------

    def instance(
        self,
        *,
        n: int | None,
        alpha: object,
        kind: Kind,
        method: str,
        covers: str = "",
        region: str = "",
        n_from: int | None = None,
        **params: object,
    ) -> Instance:
        deadline.check()  # each instance a check decides is a safe point for its wall-clock bound
        if n is not None and (isinstance(n, bool) or not isinstance(n, int)):
            raise HarnessError(f"{self.claim}: an instance's n must be an int or None, got {n!r}")
        if n_from is not None and (n is not None or isinstance(n_from, bool) or not isinstance(n_from, int)):
            raise HarnessError(f"{self.claim}: n_from is the first n of an all-n argument (n=None), got {n_from!r}")
        return Instance(
            self.claim,
            n,
            alpha_label(alpha),
            Kind(kind),
            method,
            covers,
            tuple(sorted((k, exact_text(v)) for k, v in params.items())),
            region,
            None if n_from == 1 else n_from,
        )

    def record(
        self, instance: Instance, outcome: Outcome, detail: str = "", smt: Iterable[tuple[str, str]] = ()
    ) -> Decision:
        if any(d.instance == instance for d in self.decisions):
            raise HarnessError(f"{self.claim} decided the same instance twice: {instance.describe()}")
        decision = Decision(instance, Outcome(outcome), detail, tuple(sorted(set(smt))))
        self.decisions.append(decision)
        return decision

    @contextlib.contextmanager
    def deciding(self, **instance: object) -> Iterator[Deciding]:
        """Decide one instance in the block: holds unless the block refutes it, inconclusive on a timeout."""
        inst = self.instance(**instance)  # type: ignore[arg-type]
        verdict = Deciding()
        with reported_queries() as queries:
            try:
                yield verdict
            except SolverTimeout as exc:
                self.record(inst, Outcome.INCONCLUSIVE, f"no answer within the bound: {exc}", queries)
                return
        if verdict.witness is not None:
            self.record(inst, Outcome.COUNTEREXAMPLE, verdict.witness, queries)
        elif verdict.reason is not None:
            self.record(inst, Outcome.INCONCLUSIVE, verdict.reason, queries)
        else:
            self.record(inst, Outcome.HOLDS, smt=queries)

    def decide(self, holds: bool | None, witness: str = "", **instance: object) -> bool | None:
        """Record an instance decided outside a block: True holds, False refutes (``witness``), None inconclusive."""
        inst = self.instance(**instance)  # type: ignore[arg-type]
        if holds is False and not witness:
            raise HarnessError(f"{self.claim}: a refuted instance needs its witness ({inst.describe()})")
        outcome = {True: Outcome.HOLDS, False: Outcome.COUNTEREXAMPLE, None: Outcome.INCONCLUSIVE}[holds]
        # the queries answered since the last decision, outside blocks
        self.record(inst, outcome, "" if holds else witness, take_loose())
        return holds

    def value(self, **values: object) -> None:
        """Exact values, as text: Fractions as '272/415'."""
        self.values.update({k: exact_text(v) for k, v in values.items()})

    def erratum(self, entry: str, printed: str, correct: str, cls: str, explanation: str) -> None:
        self.errata.append(Erratum(entry, printed, correct, cls, explanation))

    def note(self, text: str) -> None:
        self.notes.append(text)

    # --- derived views (for tests and the runner) -------------------------------------------------

    def result(self, dependencies: Mapping[str, object] | None = None) -> Result:
        """The verdict derived from this record (:func:`udpm.claims.evidence.derive`)."""
        return derive(self, dependencies or {})

    @property
    def status(self):
        return self.result().status

    @property
    def evidence(self):
        return self.result().evidence

    @property
    def counterexample(self) -> str | None:
        return self.result().counterexample

    def decided(self, kind: Kind | None = None, outcome: Outcome | None = None) -> list[Decision]:
        return [
            d
            for d in self.decisions
            if (kind is None or d.instance.kind is kind) and (outcome is None or d.outcome is outcome)
        ]
