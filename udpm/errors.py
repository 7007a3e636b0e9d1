"""One exception root, with narrow subclasses that say what to do.

Every error the harness raises on purpose is a :class:`HarnessError`.  Its
message is one line, fit to print as it is; ``reproduce.py`` prints it and
exits 2 instead of showing a traceback.
"""

from __future__ import annotations


class HarnessError(Exception):
    """Root of every error the harness raises on purpose."""


class InvalidInput(HarnessError, ValueError):
    """An argument is outside what the mathematics allows."""


class InvalidAlpha(InvalidInput):
    """alpha is not an exact rational in the required interval."""


class InvalidSize(InvalidInput):
    """n (the database size) is not an integer >= 1."""


class InvalidMatrix(InvalidInput):
    """A matrix is ragged, empty, not exact, or not row-stochastic where it must be."""


class NotStochastic(InvalidMatrix):
    """A mechanism has a negative entry or a row that does not sum to exactly 1."""


class InvalidInteger(InvalidInput):
    """An argument that must be an int (an offset, a noise value, an output index) is not one."""


class InvalidDistribution(InvalidInput):
    """A prior or a probability vector is negative or does not sum to 1."""


class UnknownClaim(HarnessError, KeyError):
    """A claim id or pattern names no declared claim."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class ExpectationsError(HarnessError):
    """A file in paper_tables/ is malformed; fix the file, the run never rewrites it."""


class CatalogError(HarnessError):
    """A statement file (udpm/claims/statements/*.toml) or assertion inventory is malformed; fix the file."""


class SolverTimeout(HarnessError):
    """A solver hit its time bound or answered unknown; the verdict is inconclusive."""


class CheckTimeout(HarnessError):
    """A whole check exceeded its wall-clock bound; the claim is inconclusive."""


class VacuousPremise(HarnessError):
    """An SMT or exhaustive check's hypotheses have no model: its conclusion would hold vacuously."""


class CertificationFailed(HarnessError):
    """An exact certificate did not check; the candidate answer must not be used."""


class SolverDisagreement(HarnessError):
    """z3 and cvc5 gave opposite answers (sat and unsat) on the same SMT-LIB file; no verdict rests on either."""
