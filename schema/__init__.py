"""The JSON Schemas of decklore's files, and their draft-07 variants for editors.

The schemas are Draft 2020-12 and are the source of truth for the compiler.  Common YAML
editor plugins validate with draft-07 rules, so ``editor_variant`` rewrites the few
2020-12 spellings (``$defs``, the ``$schema`` URI) into draft-07 ones.  A schema that refers
to another one (the tables' ``rules`` to ``rules-ir.schema.json``) does so by a file name
beside it; ``registry`` lets a validator find it without the network.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referencing import Registry

SCHEMA_NAMES = ("pack", "deck", "tables", "rules-ir", "scenario", "patch", "save")
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


@cache
def _load(name: str) -> str:
    # Beside this module (decklore is installed as files): importlib.resources would cost
    # a compile more to import than reading the schema does.
    return (Path(__file__).parent / f"{name}.schema.json").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of the named schema (one of ``SCHEMA_NAMES``)."""
    if name not in SCHEMA_NAMES:
        raise KeyError(f"no schema named {name!r}; known: {', '.join(SCHEMA_NAMES)}")
    loaded: dict[str, Any] = json.loads(_load(name))
    return loaded


def editor_variant(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema spelled in draft-07: ``definitions`` for ``$defs``, draft-07 ``$schema``.

    References to a sibling schema file, and the schema's own ``$id``, name the draft-07 file
    written beside it (``rules-ir.draft-07.schema.json``), so editors stay in one draft.
    """

    def sibling(ref: str) -> str:
        if ref.endswith(".schema.json") and not ref.endswith(".draft-07.schema.json"):
            return ref.removesuffix(".schema.json") + ".draft-07.schema.json"
        return ref

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                if key == "$defs":
                    out["definitions"] = rewrite(value)
                elif key == "$ref" and isinstance(value, str):
                    out[key] = sibling(value.replace("#/$defs/", "#/definitions/"))
                elif key == "$id" and isinstance(value, str):
                    out[key] = sibling(value)
                elif key == "$schema":
                    out[key] = DRAFT_07
                else:
                    out[key] = rewrite(value)
            return out
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    result: dict[str, Any] = rewrite(copy.deepcopy(schema))
    return result


def registry() -> Registry[Any]:
    """Every schema under its ``$id``, for a validator that meets a reference to a sibling file.

    The tables schema's ``rules`` refers to ``rules-ir.schema.json``; given this registry,
    ``jsonschema`` resolves it here instead of fetching the (unreachable) ``$id`` address.
    """
    from referencing import Registry, Resource

    found: Registry[Any] = Registry()
    for name in SCHEMA_NAMES:
        schema = load_schema(name)
        found = found.with_resource(schema["$id"], Resource.from_contents(schema))
    return found
