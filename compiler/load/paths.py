"""Resolve paths named inside a pack, refusing any that would leave the pack folder.

Packs are untrusted: a deck file or icon named ``../../etc/passwd`` or an absolute path,
or a symlink pointing outside the pack, must be an error, never a read.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.safe_io import FileTooLargeError, read_regular
from decklore.compiler.printing.sanitize import IconError, check_icon

MAX_ICON_BYTES = 64 * 1024


def pack_file(pack_dir: Path, rel: str, span: Span, diags: Diagnostics) -> Path | None:
    """The file ``rel`` inside ``pack_dir``, or None (with a diagnostic) if unsafe or missing."""
    pure = PurePosixPath(rel)
    if "\0" in rel:
        diags.error("E141", f"path {rel!r} contains a NUL character", span,
                    "name files inside the pack with plain names")
        return None
    if "\\" in rel or pure.is_absolute() or re.match(r"^[A-Za-z]:", rel) or ".." in pure.parts:
        diags.error("E141", f"path '{rel}' leaves the pack folder", span,
                    "name files inside the pack with '/' separators, without '..'")
        return None
    path = pack_dir.joinpath(*pure.parts)
    try:
        inside = path.resolve().is_relative_to(pack_dir.resolve())
    except (OSError, RuntimeError):  # symlink loops
        inside = False
    if not inside:
        diags.error("E141", f"path '{rel}' leaves the pack folder", span,
                    "a symlink may not point outside the pack; copy the file in instead")
        return None
    if path.is_dir():
        diags.error("E140", f"'{rel}' is a folder, not a file", span,
                    "name a file inside it, such as a deck's .yaml file")
        return None
    if path.exists() and not path.is_file():
        diags.error("E140", f"'{rel}' is not a regular file", span,
                    "a pack holds plain files: not FIFOs, devices or sockets")
        return None
    if not path.is_file():
        hint = "check the spelling and that the file is in the pack"
        siblings = sorted(p.name for p in path.parent.glob("*")
                          if p.name != path.name) if path.parent.is_dir() else []
        hint = suggest(path.name, siblings) or hint
        diags.error("E140", f"file '{rel}' does not exist", span, hint)
        return None
    return path


def read_icon(path: Path, rel: str, span: Span, diags: Diagnostics) -> str | None:
    """An icon's SVG text, refused when it is not plain, self-contained SVG.

    Icons are inlined into HTML sheets, so only allow-listed SVG elements and attributes
    pass (``sanitize.check_icon``: no scripts, event attributes, styles, external
    references or entities).
    """
    try:
        data = read_regular(path, MAX_ICON_BYTES)
    except FileTooLargeError as exc:
        diags.error("E142", f"icon '{rel}' is too large ({exc.size:,} bytes; the limit is "
                    f"{MAX_ICON_BYTES:,})", span, "simplify the drawing")
        return None
    except OSError as exc:
        diags.error("E001", f"cannot read file: {exc.strerror}", span, "check the file")
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        diags.error("E142", f"icon '{rel}' is not a valid SVG file: {exc}", span,
                    "save the icon as plain SVG (UTF-8, no DOCTYPE)")
        return None
    try:
        check_icon(text)
    except IconError as exc:
        message = str(exc)
        hint = ("save the icon as plain SVG (UTF-8, no DOCTYPE)" if "valid SVG" in message
                else "the file must start with an <svg> element" if "its root" in message
                else "icons are drawn with shapes and paths only: no scripts, images or links"
                if message.startswith("contains") else
                "remove event handlers and external references")
        diags.error("E142", f"icon '{rel}' {message}", span, hint)
        return None
    return text.strip()
