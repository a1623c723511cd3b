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
    _remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                               dir=path.parent)
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


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files of earlier writes of ``path`` whose process was killed.

    Their names carry the writer's process id (``.NAME.PID.XXXX.tmp``), so a write still
    under way in another process is left alone.
    """
    from decklore.compiler.build_output import pid_alive

    for entry in path.parent.glob(f".{glob_escape(path.name)}.*.tmp"):
        middle = entry.name[len(path.name) + 2:].split(".", 1)[0]
        if middle.isdigit() and not pid_alive(int(middle)) and entry.is_file():
            entry.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters taken literally."""
    import glob

    return glob.escape(name)
