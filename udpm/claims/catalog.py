"""Every claim the harness checks, read from the papers' statements (``udpm/claims/statements/<paper>.toml``).

Each entry gives the place in the paper, the verbatim quote of its statement, the class that statement
quantifies over (:mod:`udpm.claims.statements`), and the claims its argument relies on (``depends_on``: the
claim's status is capped by theirs, see :mod:`udpm.claims.evidence`).  The checking function is bound with
``@checks(id)`` in proofs/ or experiments/; a claim without one is pending.
"""

from __future__ import annotations

from udpm.claims.statements import Statement, load_statements

CLAIMS: tuple[Statement, ...] = load_statements()
