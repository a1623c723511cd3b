"""A compile's result, and the cache hit that needs no compiler.

``decklore validate`` of an unchanged pack only has to hash the pack's files and read the
cached tables; importing the parsers, the schema checker and the rules checker would cost
more than the whole answer.  This module therefore imports only the cache and the
diagnostics: ``cached_compile`` answers a hit, and the pipeline (``compile_pack``), which
builds on the same definitions, is imported only on a miss.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.compiler.cache import TableCache, pack_key
from decklore.compiler.diagnostics import Diagnostic, PackError, Severity, Span
from decklore.compiler.load.safe_io import MAX_FILE_BYTES, read_regular

RELATION_KEYS = ("extends", "requires", "optional", "conflicts", "load_after")
"""The pack.yaml keys that name other packs: a pack with any of them is layered."""

_RELATION = re.compile(rf"^({'|'.join(RELATION_KEYS)})\s*:", re.MULTILINE)


@dataclass
class CompileResult:
    """Compiled tables as canonical bytes, a summary, and the warnings found.

    ``tables`` is parsed from ``data`` on first use, so a cached recompile that only
    writes the bytes out never pays for decoding them.
    """

    data: bytes
    summary: dict[str, Any]
    warnings: list[Diagnostic] = field(default_factory=list)
    from_cache: bool = False
    _tables: dict[str, Any] | None = None

    @property
    def tables(self) -> dict[str, Any]:
        if self._tables is None:
            self._tables = json.loads(self.data)
        return self._tables


def summarize(tables: dict[str, Any]) -> dict[str, Any]:
    """What the CLI reports about a compile, kept with cached tables."""
    pack = tables["pack"]
    return {
        "id": pack["id"], "name": pack["name"], "version": pack["version"],
        "decks": len(tables["decks"]), "cards": len(tables["cards"]),
        "copies": sum(c["copies"] for c in tables["cards"]),
    }


def display_path(path: Path | str) -> str:
    """The pack folder as the user named it, with '/' separators, for messages."""
    text = Path(path).as_posix()
    return text.rstrip("/") or "."


def is_mod(pack_dir: Path) -> bool:
    """Whether pack.yaml names other packs (a cheap look, before any parsing)."""
    try:
        text = read_regular(pack_dir / "pack.yaml", MAX_FILE_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False  # load_manifest reports why
    return bool(_RELATION.search(text))


def as_error(d: Diagnostic) -> Diagnostic:
    return Diagnostic(Severity.ERROR, d.code, d.message, d.span, d.hint, d.notes)


def diagnostic_from_json(row: dict[str, Any]) -> Diagnostic:
    span = Span(row["file"], row["line"], row["column"], row["end_line"], row["end_column"])
    notes = []
    for note in row.get("notes", []):
        file, line, column = note["location"].rsplit(":", 2)
        notes.append((Span(file, int(line), int(column)), note["message"]))
    return Diagnostic(Severity(row["severity"]), row["code"], row["message"], span,
                      row["hint"], tuple(notes))


def from_cache(cache: TableCache, key: str, warnings_as_errors: bool) -> CompileResult | None:
    """The cached compile under ``key``, with its warnings (errors under --strict)."""
    hit = cache.get(key)
    if hit is None:
        return None
    data, meta = hit
    warnings = [diagnostic_from_json(w) for w in meta["warnings"]]
    if warnings_as_errors and warnings:
        raise PackError([as_error(w) for w in warnings])
    return CompileResult(data, meta["summary"], warnings, from_cache=True)


def cached_compile(path: Path | str, cache: TableCache,
                   warnings_as_errors: bool = False) -> CompileResult | None:
    """The cached compile of a pack that builds on no other, or None (compile it then).

    The same answer ``compile_pack(path, cache=cache)`` gives on a hit, without importing
    the compiler."""
    pack_dir = Path(path)
    if not (pack_dir / "pack.yaml").is_file() or is_mod(pack_dir):
        return None
    return from_cache(cache, pack_key(pack_dir, display_path(path)), warnings_as_errors)
