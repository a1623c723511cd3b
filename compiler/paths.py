"""Resolve paths named inside a pack, refusing any that would leave the pack folder.

Packs are untrusted: a deck file or icon named ``../../etc/passwd`` or an absolute path,
or a symlink pointing outside the pack, must be an error, never a read.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path, PurePosixPath

from decklore.compiler.diagnostics import Diagnostics, Span, suggest

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
    if not path.is_file():
        hint = "check the spelling and that the file is in the pack"
        siblings = sorted(p.name for p in path.parent.glob("*")
                          if p.name != path.name) if path.parent.is_dir() else []
        hint = suggest(path.name, siblings) or hint
        diags.error("E140", f"file '{rel}' does not exist", span, hint)
        return None
    return path


_SVG_NS = "{http://www.w3.org/2000/svg}"
_FORBIDDEN_TAGS = {"script", "foreignObject", "iframe", "object", "embed", "image", "use"}


def read_icon(path: Path, rel: str, span: Span, diags: Diagnostics) -> str | None:
    """An icon's SVG text, refused when it is not plain, self-contained SVG.

    Icons are inlined into HTML sheets, so anything that could run code or fetch from
    elsewhere (scripts, event attributes, external references) is an error.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        diags.error("E001", f"cannot read file: {exc.strerror}", span, "check the file")
        return None
    if len(data) > MAX_ICON_BYTES:
        diags.error("E142", f"icon '{rel}' is too large ({len(data):,} bytes; the limit is "
                    f"{MAX_ICON_BYTES:,})", span, "simplify the drawing")
        return None
    try:
        text = data.decode("utf-8-sig")
        if "<!DOCTYPE" in text or "<!ENTITY" in text:
            raise ValueError("document type declarations are not allowed")
        root = ET.fromstring(text)
    except (UnicodeDecodeError, ET.ParseError, ValueError) as exc:
        diags.error("E142", f"icon '{rel}' is not a valid SVG file: {exc}", span,
                    "save the icon as plain SVG (UTF-8, no DOCTYPE)")
        return None
    if root.tag not in ("svg", f"{_SVG_NS}svg"):
        diags.error("E142", f"icon '{rel}' is not an SVG file (its root is <{root.tag}>)", span,
                    "the file must start with an <svg> element")
        return None
    for element in root.iter():
        tag = element.tag.rsplit("}", 1)[-1]
        if tag in _FORBIDDEN_TAGS:
            diags.error("E142", f"icon '{rel}' contains <{tag}>, which is not allowed", span,
                        "icons are drawn with shapes and paths only: no scripts, images or links")
            return None
        for attr, value in element.attrib.items():
            name = attr.rsplit("}", 1)[-1]
            if name.lower().startswith("on") or (
                name == "href" and not value.startswith("#")
            ) or ("url(" in value and "url(#" not in value):
                diags.error("E142", f"icon '{rel}' has the attribute '{name}', which is not "
                            "allowed", span, "remove event handlers and external references")
                return None
    return text.strip()
