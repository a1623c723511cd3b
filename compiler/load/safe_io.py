"""Reading untrusted files: regular files only, with a size limit, never blocking.

A pack, a saved game or a log may be anything a stranger can make: a FIFO named
``pack.yaml`` blocks an ordinary ``open`` forever, ``/dev/zero`` never ends, a sparse file
claims gigabytes.  ``read_regular`` opens without blocking, checks on the open file that it
is a regular file of bounded size, and only then reads.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class NotRegularFileError(OSError):
    """The path is a folder, a FIFO, a device or a socket, not a regular file."""


class FileTooLargeError(OSError):
    """The file is larger than the reader accepts; ``size`` is its size in bytes."""

    def __init__(self, path: Path | str, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"file is too large ({size:,} bytes; the limit is "
                         f"{limit:,})", str(path))
        self.size = size
        self.limit = limit


def _open_file(path: Path | str, flags: int) -> int:
    """``os.open``, kept apart so tests can make one file unreadable (they run as root)."""
    return os.open(path, flags)


MAX_FILE_BYTES = 8 * 1024 * 1024
"""The largest pack file the compiler reads (YAML, rules, templates): kept here, with the
reading, so the table cache can hash files without importing the YAML loader."""


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of the regular file at ``path``; an ``OSError`` for anything else.

    Raises ``NotRegularFileError`` for a folder, FIFO or device, ``FileTooLargeError``
    past ``limit`` bytes, and the system's own ``OSError`` (permission, missing) otherwise.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = _open_file(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise NotRegularFileError(errno.EISDIR if stat.S_ISDIR(info.st_mode)
                                      else errno.EINVAL, f"is {kind}" if kind.startswith("a ")
                                      else kind, str(path))
        if info.st_size > limit:
            raise FileTooLargeError(path, info.st_size, limit)
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise FileTooLargeError(path, size, limit)
        return b"".join(chunks)
    finally:
        os.close(fd)


def describe(exc: OSError) -> str:
    """An ``OSError`` in a few plain words, for messages that already name the path."""
    if isinstance(exc, FileTooLargeError | NotRegularFileError):
        return str(exc.strerror)
    return str(exc.strerror or exc).lower() if exc.strerror else str(exc)
