"""Write runtime tables as canonical JSON: the same pack gives the same bytes, anywhere.

Canonical means sorted keys, no insignificant whitespace, UTF-8, a final newline, and no
floats (the schema admits none).  The content hash covers everything but itself, so a
runtime can tell a table that was edited by hand from one the compiler wrote.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

TABLES_FORMAT_VERSION = 1


def canonical_bytes(obj: Any) -> bytes:
    """The canonical JSON encoding used for tables and their hash."""
    return (json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                       allow_nan=False) + "\n").encode("utf-8")


def content_hash(tables: dict[str, Any]) -> str:
    body = {k: v for k, v in tables.items() if k != "content_hash"}
    return "sha256:" + hashlib.sha256(canonical_bytes(body)).hexdigest()


def seal(tables: dict[str, Any]) -> bytes:
    """Add the content hash and return the canonical bytes to write.

    Equal to ``canonical_bytes(tables)`` after setting ``content_hash``, but each top-level
    value is encoded once, not twice: large packs spend most of emit time encoding.
    """
    encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False).encode
    parts = {k: f"{encode(k)}:{encode(v)}" for k, v in tables.items() if k != "content_hash"}
    body = "{" + ",".join(parts[k] for k in sorted(parts)) + "}\n"
    digest = "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()
    tables["content_hash"] = digest
    parts["content_hash"] = f"{encode('content_hash')}:{encode(digest)}"
    return ("{" + ",".join(parts[k] for k in sorted(parts)) + "}\n").encode("utf-8")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are ordinary files
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
