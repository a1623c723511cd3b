"""``decklore migrate``: rewrite a pack written in an older format in the current one.

Each step takes a pack from format N to N+1 and touches only what that step changes, so
comments, order and spacing survive and the diff of a migration is small enough to review.

Format 1 → 2: format 2 adds mods (``extends``, ``requires``, ``optional``, ``conflicts``,
``load_after``, ``acknowledge``, ``patches``, ``replaces``, ``renamed``). Nothing format 1
said changes meaning, so the step only raises the format line; a format 1 pack that uses
those keys is refused (E129) until it is migrated.

Within a format, face slots named after one game got generic names (``RENAMED_FACES``:
``stars`` is ``pips``); the old names still load with warning W173, and every migration
rewrites them, whatever the pack's format.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from decklore.compiler.emit import write_atomic
from decklore.compiler.load.manifest import CURRENT_FORMAT, RENAMED_FACES

_FORMAT_LINE = re.compile(r"^(format:[ \t]*)(\d+)([ \t]*(#.*)?)$", re.MULTILINE)


class MigrateError(ValueError):
    """The pack cannot be migrated; the message says why."""


def pack_format(text: str) -> int:
    match = _FORMAT_LINE.search(text)
    if match is None:
        raise MigrateError("pack.yaml has no 'format:' line at the top level; add "
                           "'format: 1' for a pack written before formats were numbered")
    return int(match.group(2))


def _raise_format(new: int) -> Callable[[dict[str, str]], list[str]]:
    def step(files: dict[str, str]) -> list[str]:
        files["pack.yaml"] = _FORMAT_LINE.sub(lambda m: f"{m.group(1)}{new}{m.group(3)}",
                                              files["pack.yaml"], count=1)
        return [f"pack.yaml: format {new - 1} → {new}"]
    return step


STEPS: dict[int, Callable[[dict[str, str]], list[str]]] = {1: _raise_format(2)}
"""From format N, the step to format N+1."""

_FACE_LINE = re.compile(r"^([ \t]*face:[ \t]*)(" + "|".join(RENAMED_FACES) + r")([ \t]*(#.*)?)$",
                        re.MULTILINE)


def _rename_faces(files: dict[str, str]) -> list[str]:
    """Give the face slots of pack.yaml's card fields their generic names."""
    changes: list[str] = []

    def rename(match: re.Match[str]) -> str:
        new = RENAMED_FACES[match.group(2)]
        changes.append(f"pack.yaml: face {match.group(2)} → {new}")
        return f"{match.group(1)}{new}{match.group(3)}"

    files["pack.yaml"] = _FACE_LINE.sub(rename, files["pack.yaml"])
    return changes


def migrate(pack: Path, *, write: bool = True) -> list[str]:
    """Bring the pack in ``pack`` to the current format; what changed, file by file."""
    manifest = pack / "pack.yaml"
    try:
        text = manifest.read_text(encoding="utf-8-sig")  # as the compiler reads it
    except OSError as exc:
        raise MigrateError(f"cannot read {manifest}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise MigrateError(f"{manifest} is not UTF-8 (byte {exc.start})") from None
    current = pack_format(text)
    if current < 1:
        raise MigrateError(f"pack.yaml says format {current}; formats start at 1")
    if current > CURRENT_FORMAT:
        raise MigrateError(f"the pack is in format {current}, newer than this decklore "
                           f"(format {CURRENT_FORMAT}); update decklore")
    files = {"pack.yaml": text}
    changes: list[str] = []
    for version in range(current, CURRENT_FORMAT):
        changes += STEPS[version](files)
    changes += _rename_faces(files)
    if write and changes:
        for rel, content in files.items():
            try:
                write_atomic(pack / rel, content.encode("utf-8"))
            except OSError as exc:
                raise MigrateError(f"cannot write {pack / rel}: {exc.strerror}") from None
    return changes
