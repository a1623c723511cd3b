"""Progress of long work on stderr: a rich bar on a terminal, plain lines everywhere else.

``build`` (up to minutes) and ``simulate -n 1000`` (minutes) would otherwise print nothing
until the end when their output goes to a CI log or a pipe.  There, a line every
:data:`EVERY` seconds says how far the work is, how fast it goes and how long is left.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

import click

EVERY = 5.0  # seconds between plain progress lines (tests set it to 0)

Advance = Callable[[int, int], None]


def duration(seconds: float) -> str:
    """A short human duration: '45s', '3m07s', '1h02m'."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


class PlainProgress:
    """Writes 'label: done/total (pct%), rate unit/s, about ETA left' every few seconds."""

    def __init__(self, label: str, unit: str, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label, self.unit, self.clock = label, unit, clock
        self.stream = stream
        self.started = clock()
        self.last = self.started
        self.printed = False
        self.done = self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        now = self.clock()
        if now - self.last < EVERY or done >= total:
            return
        self.last = now
        elapsed = max(now - self.started, 1e-9)
        rate = done / elapsed
        left = f", about {duration((total - done) / rate)} left" if rate > 0 else ""
        self._write(f"{self.label}: {done}/{total} {self.unit} ({100 * done // max(total, 1)}%"
                    f"), {rate:.1f} {self.unit}/s{left}")

    def finish(self) -> None:
        """A closing line, only when progress was shown: short work stays silent."""
        if self.printed:
            self._write(f"{self.label}: {self.done}/{self.total} {self.unit}, done in "
                        f"{duration(self.clock() - self.started)}")

    def _write(self, line: str) -> None:
        self.printed = True
        click.echo(line, file=self.stream or sys.stderr)


@contextmanager
def progress(label: str, unit: str, *, enabled: bool = True) -> Iterator[Advance | None]:
    """``advance(done, total)`` for long work, shown as a bar on a terminal, else as lines."""
    if not enabled:
        yield None
        return
    if not sys.stderr.isatty():
        plain = PlainProgress(label, unit)
        yield plain
        plain.finish()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance
