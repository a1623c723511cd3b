"""Folders of the user's decklore cache that only its owner may write, for files that run code.

Some of what a compile builds is worth keeping between runs but is code when read back:
Lark's parser tables (a pickle) and the schema gate's generated validator (Python bytecode).
Such files live only in a folder of the user's own cache (``DECKLORE_CACHE_DIR`` or
``~/.cache/decklore``) that belongs to the user and that nobody else may write; a folder
that fails those checks is not used, and the caller builds the thing in memory instead.
Files are written under a temporary name and renamed, so a parallel run never reads half
of one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from decklore.compiler.cache import default_cache_dir


def private_folder(name: str) -> Path | None:
    """The cache folder ``name``, made private to the user; None if it cannot be trusted."""
    folder = default_cache_dir() / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode):
        return None
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return None
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return folder


def store(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all; a cache that cannot be written is only
    a slower start, so a failure is silent."""
    import tempfile  # only a file being written needs it

    try:
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-",
                                        suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temp, path)
        except BaseException:
            os.unlink(temp)
            raise
    except OSError:
        pass
