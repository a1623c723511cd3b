"""The decklore runtime: reads compiled tables and (later) plays them, knowing no game.

Imports only the standard library: never the compiler, YAML, Lark, jsonschema or Jinja.
"""

from __future__ import annotations

from decklore.runtime.tables import (
    SUPPORTED_FORMAT_VERSIONS,
    Card,
    Tables,
    TablesError,
    load_tables,
    loads_tables,
)

__all__ = [
    "SUPPORTED_FORMAT_VERSIONS",
    "Card",
    "Tables",
    "TablesError",
    "load_tables",
    "loads_tables",
]
