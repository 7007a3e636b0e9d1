"""Command-line parsing whose usage errors are one line.

argparse prints its usage block before an error; every command of the harness promises one line and exit 2
for bad input instead.  :class:`OneLineParser` raises :class:`udpm.errors.InvalidInput`, which each command's
``main`` prints as ``<prog>: error: <message>`` and turns into exit status 2.
"""

from __future__ import annotations

import argparse

from udpm.errors import InvalidInput


class OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors raise :class:`InvalidInput` (one line, naming ``--help``).

    >>> p = OneLineParser(prog="demo")
    >>> p.parse_args(["--bogus"])
    Traceback (most recent call last):
        ...
    udpm.errors.InvalidInput: unrecognized arguments: --bogus (see demo --help)
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        raise InvalidInput(f"{message} (see {self.prog} --help)")
