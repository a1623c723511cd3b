"""Making a build's PDFs side by side: one worker process per sheet, up to the cores.

A build prints five or six PDFs, and each is WeasyPrint laying out pages for seconds on
one core (ERA: the card sheet about 5 CPU-seconds, the card list about 4).  The sheets do
not depend on one another, so on a machine with two cores or more they are made in
worker processes at the same time; each PDF is made exactly as it would be alone, so the
bytes do not depend on how many workers there were.

Workers are forked from the build, so they start with the compiled tables and WeasyPrint
already imported and nothing is pickled on the way in.  Where fork is not available
(Windows), or with one job, the sheets are made one after the other in this process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PdfJob:
    """One sheet to print: its name and its rendered HTML."""

    sheet: str
    html: str


# What forked workers need, set just before the pool starts (inherited, never pickled).
_SHARED: dict[str, Any] = {}


def default_jobs() -> int:
    """The cores this process may use."""
    count = os.process_cpu_count() if hasattr(os, "process_cpu_count") else os.cpu_count()
    return max(1, count or 1)


def make_pdfs(tables: dict[str, Any], jobs: Sequence[PdfJob], options: Any, engine: str,
              templates: dict[str, str] | None, workers: int) -> Iterator[tuple[int, bytes]]:
    """Each job's PDF, as (index in ``jobs``, bytes), in the order they are finished.

    An error in any sheet (a ``PdfError``, a ``LayoutError``, a ``SheetError``) is raised
    here as it would be without workers; the sheets still being made are abandoned."""
    workers = min(workers, len(jobs))
    _SHARED.update(tables=tables, jobs=jobs, options=options, engine=engine,
                   templates=templates)
    try:
        if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
            for index in range(len(jobs)):
                yield index, _work(index)
            return
        # The biggest sheets first, so a late big one does not finish alone.
        order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i].html))
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) \
                as pool:
            pending: dict[Future[bytes], int] = {pool.submit(_work, i): i for i in order}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=lambda f: pending[f]):
                        index = pending.pop(future)
                        yield index, future.result()
            finally:
                for future in pending:
                    future.cancel()
    finally:
        _SHARED.clear()


def _work(index: int) -> bytes:
    """The PDF of job ``index``, from what the build shared (in a forked worker, or here)."""
    from decklore.compiler.printing.card_pdf import sheet_pdf

    job = _SHARED["jobs"][index]
    data: bytes = sheet_pdf(_SHARED["tables"], job.sheet, job.html, _SHARED["options"],
                            _SHARED["engine"], _SHARED["templates"])
    return data

