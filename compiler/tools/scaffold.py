"""``decklore new``: write a small, valid, documented pack to start a game from.

The starting point is package data (``compiler/tools/starter/pack/``) with ``$id`` and ``$name``
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

from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.emit import write_atomic
from decklore.compiler.load.decks import card_schema
from decklore.compiler.load.manifest import CURRENT_FORMAT, load_manifest
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


def _new_id(name: str, target: Path) -> str:
    """The id for a new pack or mod, once its name and folder are known to be usable."""
    ident = pack_id(name)
    if not _ID.match(ident):
        raise ScaffoldError(f"cannot make a pack id from '{name}'; use a name with letters")
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"'{target}' already exists and is not empty; choose another "
                            "folder with --dir")
    return ident


def new_pack(name: str, target: Path) -> list[Path]:
    """Write a new pack called ``name`` into the folder ``target``; the files written."""
    ident = _new_id(name, target)
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

    copy(files("decklore.compiler.tools") / "starter" / "pack", target)
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


def new_mod(name: str, target: Path, base: Path) -> list[Path]:
    """Write a new mod called ``name`` of the pack in ``base`` into the folder ``target``.

    The mod changes nothing yet, so it validates and builds as it is; its files show, in
    comments and in a patch file not yet listed, each thing a mod can do, with the base
    pack's own names.
    """
    ident = _new_id(name, target)
    diags = Diagnostics()
    manifest = load_manifest(base, base.as_posix(), diags)
    if manifest is None or diags.has_errors:
        raise ScaffoldError(f"'{base}' is not a valid pack: run 'decklore validate {base}'")
    from decklore.compiler.pipeline import compile_pack

    tables = compile_pack(base).tables
    card = tables["cards"][0]["id"] if tables["cards"] else f"{manifest.id}:some-card"
    deck = tables["decks"][0]["id"] if tables["decks"] else f"{manifest.id}:some-deck"
    const = next(iter((tables.get("rules") or {}).get("consts", {})), "some_constant")
    major = manifest.version.split(".")[0]
    upper = int(major) + 1 if major.isdigit() else 2
    written: list[Path] = []

    def write(rel: str, text: str) -> None:
        write_atomic(target / rel, text.encode("utf-8"))
        written.append(target / rel)

    write("pack.yaml", f"""\
# yaml-language-server: $schema=schemas/pack.draft-07.schema.json
# A mod of {manifest.name}: it loads after {manifest.id} and adds to it or changes it.
# The modding chapter of the pack format reference (docs/pack-format.md) explains each key.
format: {CURRENT_FORMAT}
id: {ident}
name: {json.dumps(name.strip())}
version: 0.1.0
description: >-
  Say in a paragraph what this mod adds or changes.
extends: {manifest.id}
requires:
  - {{id: {manifest.id}, version: ">={manifest.version}, <{upper}"}}

# New decks (new card ids get this mod's prefix, '{ident}:'):
# decks:
#   - decks/new-deck.yaml

# Changes to the cards and decks of {manifest.id}, one explicit operation each:
# patches:
#   - patches/changes.yaml

# Rules: 'rules' files add declarations, 'replaces' files replace the ones of the same name.
# rules:
#   - rules/extra.rules
# replaces:
#   - rules/variant.rules
""")
    write("patches/changes.yaml", f"""\
# yaml-language-server: $schema=../schemas/patch.draft-07.schema.json
# List this file under 'patches:' in pack.yaml to apply it. Each change names its target by
# full id; a missing target is an error unless the change says 'optional: true'.
patches:
  - card: {card}
    set: {{}}             # fields to set, as in a deck file
    # unset: [field]     # back to the default
    # add: {{tags: [x]}}   # list items, by value
    note: What this change is for.
  # - remove_card: {card}
  # - deck: {deck}
  #   set: {{name: Another name}}
""")
    write("rules/variant.rules", f"""\
# List this file under 'replaces:' in pack.yaml: each declaration here replaces the one of
# the same name in {manifest.id}. For example:
# const {const} = ...
""")
    write("notes.md", f"# {name.strip()}\n\nA mod of {manifest.name}. Write down here what "
                      "it changes and why.\n")
    written += write_schemas(target)
    return written
