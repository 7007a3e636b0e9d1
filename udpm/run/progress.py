"""Progress of a run: a live view of the tasks decided per claim on a terminal, one line per claim otherwise.

On a TTY (rich): one bar per claim (its planned tasks, or 1), the cached tasks counted as they are found, and
the Dask dashboard's address when the cluster has one.  Not on a TTY (CI, a pipe, a test): no live view, only
the one line per finished claim that the run always printed, ``[  k/N] claim  (s)``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from udpm.run.executor import Listener


class Lines(Listener):
    """One line per finished claim (what a log keeps)."""

    def __init__(self, out: TextIO) -> None:
        self.out, self.done, self.total = out, 0, 0

    def start(self, totals: dict[str, int], dashboard: str | None) -> None:
        self.total = len(totals)
        if dashboard:
            print(f"Dask dashboard: {dashboard}", file=self.out, flush=True)

    def claim_done(self, claim_id: str, seconds: float, cached: bool) -> None:
        self.done += 1
        tail = f"{seconds:.2f} s, from the cache" if cached else f"{seconds:.2f} s"
        print(f"[{self.done:>3}/{self.total}] {claim_id}  ({tail})", file=self.out, flush=True)


class Live(Lines):
    """rich bars, one per claim, on the terminal ``out``."""

    def __init__(self, out: TextIO) -> None:
        super().__init__(out)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = Console(file=out)
        self.bars = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.ids: dict[str, int] = {}

    def start(self, totals: dict[str, int], dashboard: str | None) -> None:
        self.total = len(totals)
        if dashboard:
            self.console.print(f"Dask dashboard: {dashboard}")
        for cid, n in totals.items():
            self.ids[cid] = self.bars.add_task(cid, total=n)
        self.bars.start()

    def task_done(self, claim_id: str, cached: bool) -> None:
        self.bars.advance(self.ids[claim_id])

    def claim_done(self, claim_id: str, seconds: float, cached: bool) -> None:
        self.done += 1
        task = self.ids[claim_id]
        tail = f"{seconds:.2f} s, from the cache" if cached else f"{seconds:.2f} s"
        self.bars.update(task, completed=self.bars.tasks[task].total, description=f"{claim_id} ({tail})")

    def close(self) -> None:
        self.bars.stop()


def listener(out: TextIO = sys.stderr) -> Listener:
    """The live view on a terminal, the claim lines otherwise."""
    return Live(out) if out.isatty() else Lines(out)
