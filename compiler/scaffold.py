"""``decklore new``: write a small, valid, documented pack to start a game from.

The starting point is package data (``compiler/starter/pack/``) with ``$id`` and ``$name``
placeholders; the JSON Schemas for editors are written beside it, so the files' schema
lines work wherever the pack is.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from string import Template

from decklore.compiler.decks import card_schema
from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.emit import write_atomic
from decklore.compiler.manifest import load_manifest
from decklore.schema import SCHEMA_NAMES, editor_variant, load_schema

_ID = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")


class ScaffoldError(ValueError):
    """The pack cannot be written where asked; the message says why."""


def pack_id(name: str) -> str:
    """A pack id from a display name: 'Iron & Steam' -> 'iron-steam'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if slug[:1].isdigit():
        slug = "pack-" + slug
    return slug[:40].rstrip("-")


def new_pack(name: str, target: Path) -> list[Path]:
    """Write a new pack called ``name`` into the folder ``target``; the files written."""
    ident = pack_id(name)
    if not _ID.match(ident):
        raise ScaffoldError(f"cannot make a pack id from '{name}'; use a name with letters")
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"'{target}' already exists and is not empty; choose another "
                            "folder with --dir")
    written: list[Path] = []
    values = {"id": ident, "name": name.replace("\n", " ").strip()}

    def copy(node: Traversable, dest: Path) -> None:
        for entry in sorted(node.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                copy(entry, dest / entry.name)
            elif not entry.name.startswith(("__", ".")):
                text = entry.read_text(encoding="utf-8")
                if entry.name.endswith((".yaml", ".rules", ".md")):
                    text = Template(text).safe_substitute(values)
                write_atomic(dest / entry.name, text.encode("utf-8"))
                written.append(dest / entry.name)

    copy(files("decklore.compiler") / "starter" / "pack", target)
    written += write_schemas(target)
    return written


def write_schemas(pack_dir: Path) -> list[Path]:
    """The editor schemas (draft-07) for a pack, its deck schema closed over its fields."""
    schemas = {name: load_schema(name) for name in SCHEMA_NAMES}
    diags = Diagnostics()
    manifest = load_manifest(pack_dir, pack_dir.as_posix(), diags)
    if manifest is not None and not diags.has_errors:
        schemas["deck"] = card_schema(manifest)
    out = []
    for name, schema in schemas.items():
        path = pack_dir / "schemas" / f"{name}.draft-07.schema.json"
        write_atomic(path, (json.dumps(editor_variant(schema), indent=2, ensure_ascii=False)
                            + "\n").encode("utf-8"))
        out.append(path)
    return out
