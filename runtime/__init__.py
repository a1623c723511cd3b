"""The decklore runtime: reads compiled tables and plays them, knowing no game.

So far: loading and verifying tables (``tables``) and the symbol rules every game's
symbols follow (``symbols``); the interpreter of the rules IR comes next
(``docs/design/engine-plan.md``).

Imports only the standard library: never the compiler, YAML, Lark, jsonschema or Jinja.
"""

from __future__ import annotations

from decklore.runtime.symbols import SymbolView, Unit
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
    "SymbolView",
    "Tables",
    "TablesError",
    "Unit",
    "load_tables",
    "loads_tables",
]
