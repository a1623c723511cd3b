"""Diagnostics as data: every problem decklore finds in a pack, with its place and a hint.

Stages never print or raise on the first problem: they append ``Diagnostic`` values to a
``Diagnostics`` collector, and the facade raises one ``PackError`` carrying all of them once
a stage has finished.  Rendering is one pure function, so the CLI, the JSON output and the
exact-text tests all see the same words.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    """How bad a diagnostic is; errors stop the compile, warnings do not."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A 1-based region of a source file: where a diagnostic or a node comes from."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def shifted(self, line_offset: int, column_offset: int) -> Span:
        """Move a span found inside a scalar to its place in the enclosing file.

        ``column_offset`` only applies on the scalar's first line, where the scalar starts
        part-way along the line; later lines of a block scalar start at column 1.
        """
        col = self.column + column_offset if self.line == 1 else self.column
        end_col = self.end_column + column_offset if self.end_line <= 1 else self.end_column
        return Span(
            self.file,
            self.line + line_offset,
            col,
            self.end_line + line_offset if self.end_line else 0,
            end_col,
        )


NO_SPAN = Span("<unknown>", 0, 0)
SNIPPET_WIDTH = 160
"""Source lines longer than this are shown as a window around the caret."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a pack: a stable code, a message and a hint on how to fix it."""

    severity: Severity
    code: str
    message: str
    span: Span
    hint: str = ""
    notes: tuple[tuple[Span, str], ...] = ()

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.span.file, self.span.line, self.span.column, self.code, self.message)

    def to_json(self) -> dict[str, object]:
        return {
            "severity": self.severity.value,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "notes": [{"location": str(s), "message": m} for s, m in self.notes],
        }


@dataclass
class Diagnostics:
    """Collects diagnostics for one run; stages add to it and the facade decides when to stop."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(
        self,
        code: str,
        message: str,
        span: Span,
        hint: str = "",
        notes: Sequence[tuple[Span, str]] = (),
    ) -> None:
        self.items.append(Diagnostic(Severity.ERROR, code, message, span, hint, tuple(notes)))

    def warning(
        self,
        code: str,
        message: str,
        span: Span,
        hint: str = "",
        notes: Sequence[tuple[Span, str]] = (),
    ) -> None:
        self.items.append(Diagnostic(Severity.WARNING, code, message, span, hint, tuple(notes)))

    def extend(self, other: Iterable[Diagnostic]) -> None:
        self.items.extend(other)

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity is Severity.WARNING]

    def sorted(self) -> list[Diagnostic]:
        """Sorted by place, duplicates (same code, place and message) dropped."""
        seen: set[tuple[str, int, int, str, str]] = set()
        out: list[Diagnostic] = []
        for d in sorted(self.items, key=lambda d: d.sort_key):
            if d.sort_key not in seen:
                seen.add(d.sort_key)
                out.append(d)
        return out

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise PackError(self.sorted())


class PackError(Exception):
    """Raised once a stage has found errors in the pack; carries every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(
            f"{len(self.errors)} error(s) in pack" + (f"; first: {first.span}: {first.message}"
                                                       if first else "")
        )

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


def suggest(name: str, candidates: Iterable[str]) -> str:
    """A ``did you mean`` hint for a misspelled name, or an empty string."""
    options = sorted(set(candidates))
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in options}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    return f"did you mean '{close[0]}'?" if close else ""


MAX_SNIPPET_FILE = 8 * 1024 * 1024


def _source_lines(path: Path) -> list[str] | None:
    """A file's lines for snippets, or None: never through a symlink, never a non-file.

    A diagnostic may name a file that is a symlink out of the pack (that is the error), so
    a snippet must not follow it and print a line of some other file on the machine.
    """
    from decklore.compiler.load.safe_io import read_regular

    try:
        if path.is_symlink():
            return None
        return read_regular(path, MAX_SNIPPET_FILE).decode("utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError, ValueError):
        return None


class SourceCache:
    """Reads source lines for rendering; files that cannot be read render without a snippet."""

    def __init__(self, texts: dict[str, str] | None = None) -> None:
        self._lines: dict[str, list[str] | None] = {}
        for name, text in (texts or {}).items():
            self._lines[name] = text.splitlines()

    def line(self, file: str, number: int) -> str | None:
        if file not in self._lines:
            self._lines[file] = _source_lines(Path(file))
        lines = self._lines[file]
        if lines is None or not 1 <= number <= len(lines):
            return None
        return lines[number - 1]


def render(
    diagnostic: Diagnostic, sources: SourceCache | None = None, *, snippet: bool = True
) -> str:
    """Render ``path:line:col: error[CODE]: message``, then source line, caret and hint."""
    d = diagnostic
    head = f"{d.span}: {d.severity.value}[{d.code}]: {d.message}"
    lines = [head]
    source = sources.line(d.span.file, d.span.line) if (snippet and sources) else None
    if source is not None:
        text = source.expandtabs(1).rstrip()
        start = max(d.span.column, 1)
        if d.span.end_line == d.span.line and d.span.end_column > start:
            width = d.span.end_column - start
        else:
            width = 1
        width = max(1, min(width, max(1, len(text) - start + 1)))
        if len(text) > SNIPPET_WIDTH:  # show a window around the caret, marked with '…'
            left = max(0, start - 1 - SNIPPET_WIDTH // 2)
            shown = text[left:left + SNIPPET_WIDTH]
            prefix = "…" if left > 0 else ""
            suffix = "…" if left + SNIPPET_WIDTH < len(text) else ""
            text = prefix + shown + suffix
            start = start - left + len(prefix)
            width = max(1, min(width, SNIPPET_WIDTH - (start - 1 - len(prefix))))
        gutter = f"{d.span.line:>4} | "
        lines.append(gutter + text)
        lines.append(" " * (len(gutter) - 2) + "| " + " " * (start - 1) + "^" * width)
    for span, message in d.notes:
        lines.append(f"  note: {span}: {message}")
    if d.hint:
        lines.append(f"  hint: {d.hint}")
    return "\n".join(lines)


def render_all(
    diagnostics: Sequence[Diagnostic],
    sources: SourceCache | None = None,
    *,
    limit: int = 50,
    snippet: bool = True,
) -> str:
    """Render a sorted list of diagnostics, capped at ``limit`` with ``... and N more``."""
    shown = [render(d, sources, snippet=snippet) for d in diagnostics[:limit]]
    if len(diagnostics) > limit:
        shown.append(f"... and {len(diagnostics) - limit} more")
    errors = sum(1 for d in diagnostics if d.severity is Severity.ERROR)
    warnings = len(diagnostics) - errors
    summary = []
    if errors:
        summary.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        summary.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    if summary:
        shown.append(" and ".join(summary) + ".")
    return "\n".join(shown)


def to_json(diagnostics: Sequence[Diagnostic]) -> str:
    """The ``--format json`` form: one object with the list of diagnostics."""
    return json.dumps(
        {"diagnostics": [d.to_json() for d in diagnostics]}, indent=2, ensure_ascii=False
    )
