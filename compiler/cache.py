"""A content-hash cache of compiled tables, so recompiling an unchanged pack is nearly free.

The key covers every file in the pack folder and decklore's own compiler, schemas and
grammars, so any change to either misses the cache.  Entries are written atomically and
read only when complete; a damaged entry is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from decklore.compiler.emit import write_atomic

KEEP_ENTRIES = 64


def default_cache_dir() -> Path:
    if "DECKLORE_CACHE_DIR" in os.environ:
        return Path(os.environ["DECKLORE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "decklore"


@cache
def _toolchain_digest() -> str:
    """A hash of the compiler's own code and data: a new decklore never reuses old entries."""
    digest = hashlib.sha256()
    for package in ("decklore.compiler", "decklore.schema", "decklore.grammar"):
        root = files(package)
        for entry in sorted(root.iterdir(), key=lambda e: e.name):
            if entry.is_file() and entry.name.endswith((".py", ".json", ".lark")):
                digest.update(entry.name.encode())
                digest.update(entry.read_bytes())
    return digest.hexdigest()


def pack_key(pack_dir: Path, shown: str = "") -> str:
    """A key for the pack's current contents (every regular file under the folder) and name."""
    digest = hashlib.sha256(_toolchain_digest().encode())
    digest.update(shown.encode() + b"\0")
    for folder, dirs, names in os.walk(pack_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            path = Path(folder) / name
            if name.startswith(".") or not path.is_file():
                continue
            digest.update(path.relative_to(pack_dir).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


class TableCache:
    """Compiled tables and their warnings, stored under their pack key."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or default_cache_dir()

    def get(self, key: str) -> tuple[bytes, dict[str, Any]] | None:
        """The tables and their metadata (warnings, summary) stored under ``key``."""
        tables = self.directory / f"{key}.tables.json"
        notes = self.directory / f"{key}.meta.json"
        try:
            meta = json.loads(notes.read_text(encoding="utf-8"))
            data = tables.read_bytes()
        except (OSError, ValueError):
            return None
        if not isinstance(meta, dict) or not {"warnings", "summary"} <= meta.keys():
            return None
        return data, meta

    def put(self, key: str, data: bytes, meta: dict[str, Any]) -> None:
        try:
            # The metadata goes last: an entry counts only once both files are whole.
            write_atomic(self.directory / f"{key}.tables.json", data)
            write_atomic(self.directory / f"{key}.meta.json", json.dumps(meta).encode("utf-8"))
            self._prune()
        except OSError:
            pass  # a cache that cannot be written is only a slower compile

    def _prune(self) -> None:
        entries = sorted(self.directory.glob("*.tables.json"), key=lambda p: p.stat().st_mtime)
        for old in entries[:-KEEP_ENTRIES]:
            old.unlink(missing_ok=True)
            old.with_name(old.name.replace(".tables.", ".meta.")).unlink(missing_ok=True)
