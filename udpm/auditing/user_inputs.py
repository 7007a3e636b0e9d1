"""Exact user inputs: a Bayesian user from a prior and a loss (:func:`make_user`), and the ``users=``
argument of :func:`udpm.auditing.report.audit` (:func:`parse_users`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from udpm.core import linalg
from udpm.core.users import BayesianUser, Loss, absolute_error, binary_loss, squared_error
from udpm.core.validate import distribution, float_like, is_numpy, show
from udpm.errors import InvalidInput

#: Named losses (``--loss`` on the command line).
LOSSES = {
    "abs": absolute_error,
    "zero-one": binary_loss,
    "squared": squared_error,
}
_LOSS_ALIASES = {"absolute": "abs", "|i-j|": "abs", "binary": "zero-one", "0-1": "zero-one", "square": "squared"}


def make_user(prior: object, loss: object, n: int | None = None) -> BayesianUser:
    """A Bayesian user (grs2011 Section 2.2): ``prior`` a probability vector or 'uniform'; ``loss`` a
    :class:`~udpm.core.users.Loss`, a square matrix, or a name: 'abs', 'zero-one', 'squared'.

    >>> make_user("uniform", "abs", n=2).prior
    (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
    >>> make_user(["1/2", "1/2"], "hinge")
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: unknown loss 'hinge'; use abs, zero-one, squared or a square matrix
    """
    if n is None:
        if isinstance(prior, Sequence) and not isinstance(prior, str):
            n = len(prior) - 1
        elif isinstance(loss, Loss):
            n = loss.n
        elif isinstance(loss, Sequence) and not isinstance(loss, str):
            n = len(loss) - 1
        else:
            raise InvalidInput("give n, or a prior or loss matrix that fixes it")
    if isinstance(loss, str):
        key = _LOSS_ALIASES.get(loss.strip().lower(), loss.strip().lower())
        if key not in LOSSES:
            raise InvalidInput(f"unknown loss {loss!r}; use abs, zero-one, squared or a square matrix")
        loss = LOSSES[key](n)
    elif not isinstance(loss, Loss):
        if is_numpy(loss) or any(float_like(v) for r in loss for v in r):
            raise InvalidInput("a loss matrix must be exact (Fraction, int or strings like '1/3'), not floats")
        loss = Loss.from_matrix(loss)
    if isinstance(prior, str):
        if prior.strip().lower() != "uniform":
            raise InvalidInput(f"prior must be 'uniform' or a probability vector, got {prior!r}")
        prior = [Fraction(1, loss.n + 1)] * (loss.n + 1)
    if is_numpy(prior) or any(float_like(v) for v in prior):
        raise InvalidInput("a prior must be exact (Fraction, int or strings like '1/3'), not floats")
    if len(prior) != loss.n + 1:
        raise InvalidInput(f"the prior has {len(prior)} entries, the loss is for results 0..{loss.n}")
    return BayesianUser(tuple(distribution(prior, loss.n + 1)), loss)


def parse_users(users: object, n: int) -> list[tuple[str, BayesianUser]]:
    """The labelled users of ``audit(users=...)``: None (uniform prior, each named loss), a loss name,
    (prior, loss), a BayesianUser, or a list or dict (label -> user) of them; all for results 0..n."""
    if users is None:
        users = ["abs", "zero-one", "squared"]
    if isinstance(users, (str, BayesianUser)) or (
        isinstance(users, tuple) and len(users) == 2 and not isinstance(users[0], (BayesianUser, tuple))
    ):
        users = [users]
    items = list(users.items()) if isinstance(users, Mapping) else [(None, u) for u in users]
    out = []
    for label, u in items:
        if isinstance(u, str):
            user, label = make_user("uniform", u, n), label or f"uniform, {u}"
        elif isinstance(u, BayesianUser):
            user = u
        elif isinstance(u, tuple) and len(u) == 2:
            user = make_user(u[0], u[1], n)
            label = label or f"{u[0] if isinstance(u[0], str) else linalg.fmt_vector(user.prior)}, " + (
                u[1] if isinstance(u[1], str) else "given loss"
            )
        else:
            raise InvalidInput(f"a user is a BayesianUser, (prior, loss) or a loss name, got {show(u)}")
        if user.n != n:
            raise InvalidInput(
                f"user {label or ''} is for results 0..{user.n}, the mechanism for 0..{n}".replace("  ", " ")
            )
        out.append((label or f"user {len(out) + 1}", user))
    return out


__all__ = ["LOSSES", "make_user", "parse_users"]
