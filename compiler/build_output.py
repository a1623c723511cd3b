"""A build folder replaced whole or not at all, and the leftovers of killed builds removed.

``decklore build`` writes the tables and a dozen sheets.  Writing them one by one into the
final folder would leave a mix of new and old files when a sheet fails halfway, the disk
fills or the process is killed.  So a build is written into a hidden staging folder beside
the target (``.ID.building-PID-XXXX``) and swapped into place only when everything
succeeded; on failure the staging folder is removed and the previous build stays as it was.
Staging folders whose process is gone (a ``kill -9``) are removed by the next build.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_STAGING = ".building-"
_RETIRED = ".replaced-"


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (a leftover of a dead one may be removed)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists, under another user
    return True


def _owner(name: str, marker: str) -> int | None:
    """The process id in a staging or retired folder's name, or None for other names."""
    _, found, rest = name.partition(marker)
    if not found:
        return None
    digits = rest.split("-", 1)[0]
    return int(digits) if digits.isdigit() else None


def remove_leftovers(parent: Path, name: str) -> None:
    """Remove staging and retired folders of ``name`` left by builds that were killed."""
    if not parent.is_dir():
        return
    for entry in parent.iterdir():
        if not entry.name.startswith(f".{name}."):
            continue
        pid = _owner(entry.name, _STAGING) or _owner(entry.name, _RETIRED)
        if pid is not None and not pid_alive(pid) and entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


@contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """A fresh folder to write a build into; moved to ``target`` when the block succeeds.

    On any exception the staging folder is removed and ``target`` is untouched.
    """
    parent = target.parent
    parent.mkdir(parents=True, exist_ok=True)
    remove_leftovers(parent, target.name)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}{_STAGING}{os.getpid()}-",
                                    dir=parent))
    try:
        yield staging
        if target.is_symlink() or target.is_file():
            raise NotADirectoryError(20, "Not a directory", str(target))
        retired = None
        if target.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{target.name}{_RETIRED}{os.getpid()}-",
                                            dir=parent))
            os.rmdir(retired)
            os.replace(target, retired)
        os.replace(staging, target)
        if retired is not None:
            shutil.rmtree(retired, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
