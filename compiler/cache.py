"""A content-hash cache of compiled tables, so recompiling an unchanged pack is nearly free.

The key covers every file in the pack folder (by content when the compiler could read it)
and decklore's own compiler, schemas and grammars, so any change to either misses the
cache.  Entries are written atomically and
read only when complete; a damaged entry is ignored and rewritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decklore.compiler.emit import write_atomic
from decklore.compiler.load.safe_io import MAX_FILE_BYTES, read_regular

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

KEEP_ENTRIES = 64


def default_cache_dir() -> Path:
    if "DECKLORE_CACHE_DIR" in os.environ:
        return Path(os.environ["DECKLORE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "decklore"


def toolchain_files() -> list[tuple[str, Traversable]]:
    """The compiler's own code and data files, by name, at every level of its packages."""
    found: list[tuple[str, Traversable]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        # The compiler's stages live in subpackages: every level counts.
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir() and entry.name != "__pycache__":
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.is_file() and entry.name.endswith((".py", ".json", ".lark")):
                found.append((f"{prefix}{entry.name}", entry))

    for package in ("decklore.compiler", "decklore.schema", "decklore.grammar"):
        walk(_package_folder(package), f"{package}/")
    return found


def _package_folder(package: str) -> Path:
    """The folder of an installed package, found without importing it (importing
    ``importlib.resources`` would cost a cached validate a tenth of its time)."""
    spec = find_spec(package)
    assert spec is not None and spec.submodule_search_locations is not None
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def _toolchain_digest() -> str:
    """A hash of the compiler's own code and data: a new decklore never reuses old entries."""
    digest = hashlib.sha256()
    for name, entry in toolchain_files():
        digest.update(name.encode())
        digest.update(entry.read_bytes())
    return digest.hexdigest()


def pack_key(pack_dir: Path, shown: str = "") -> str:
    """A key for the pack's current contents and name.

    Every regular file under the folder counts by its bytes when it is small enough for the
    compiler to read (``MAX_FILE_BYTES``), and by its size and time stamp when it is larger
    (the compiler refuses such a file if the pack uses it, so its bytes never matter).  A
    symlink counts by where it points and is never followed; FIFOs and devices count by
    their kind and are never opened.  So hashing never reads outside the pack, never blocks
    and never reads more than the compiler could.
    """
    digest = hashlib.sha256(_toolchain_digest().encode())
    digest.update(shown.encode() + b"\0")
    for folder, dirs, names in os.walk(pack_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = Path(folder) / name
            if name.startswith("."):
                continue
            digest.update(path.relative_to(pack_dir).as_posix().encode() + b"\0")
            digest.update(_entry_bytes(path))
            digest.update(b"\0")
    return digest.hexdigest()


def _entry_bytes(path: Path) -> bytes:
    """What one folder entry contributes to the key (see ``pack_key``)."""
    try:
        info = path.lstat()
        if stat.S_ISLNK(info.st_mode):
            return b"link:" + os.readlink(path).encode("utf-8", "surrogateescape")
        if not stat.S_ISREG(info.st_mode):
            return f"kind:{stat.S_IFMT(info.st_mode)}".encode()
        if info.st_size > MAX_FILE_BYTES:
            return f"large:{info.st_size}:{info.st_mtime_ns}".encode()
        return b"file:" + read_regular(path, MAX_FILE_BYTES)
    except OSError as exc:  # unreadable: the compile reports it if the pack uses the file
        return f"error:{exc.errno}".encode()


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
