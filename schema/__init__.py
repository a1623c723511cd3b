"""The JSON Schemas of decklore's files, and their draft-07 variants for editors.

The schemas are Draft 2020-12 and are the source of truth for the compiler.  Common YAML
editor plugins validate with draft-07 rules, so ``editor_variant`` rewrites the few
2020-12 spellings (``$defs``, the ``$schema`` URI) into draft-07 ones.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from importlib.resources import files
from typing import Any

SCHEMA_NAMES = ("pack", "deck", "tables", "scenario", "patch", "save")
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
DRAFT_07 = "http://json-schema.org/draft-07/schema#"


@cache
def _load(name: str) -> str:
    return (files(__package__) / f"{name}.schema.json").read_text(encoding="utf-8")


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of the named schema (``pack``, ``deck`` or ``tables``)."""
    if name not in SCHEMA_NAMES:
        raise KeyError(f"no schema named {name!r}; known: {', '.join(SCHEMA_NAMES)}")
    loaded: dict[str, Any] = json.loads(_load(name))
    return loaded


def editor_variant(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema spelled in draft-07: ``definitions`` for ``$defs``, draft-07 ``$schema``."""

    def rewrite(node: Any) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                if key == "$defs":
                    out["definitions"] = rewrite(value)
                elif key == "$ref" and isinstance(value, str):
                    out[key] = value.replace("#/$defs/", "#/definitions/")
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
