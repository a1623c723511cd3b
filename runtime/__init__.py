"""The decklore runtime: reads compiled tables and plays them, knowing no game.

``tables`` loads and verifies tables; ``program`` readies their rules IR (``codegen``
lowers it to generated Python, ``expressions`` and ``builtins`` to closures, the
reference); ``game`` plays it (``world``, ``machine``, ``frames``, the statement handlers,
``flows``, ``outcomes``, ``replay``) with the game's ``state``, ``symbols`` and ``rng``;
``describe`` (with ``looking``) says what a player may see; ``determinize`` builds what a
seat could believe; ``agents`` (``mcts`` the search agent) and ``simulate`` play many
games; ``rl`` is the PettingZoo environment. ``docs/engine.md`` describes the whole.

Imports only the standard library: never the compiler, YAML, Lark, jsonschema or Jinja
(``rl`` alone, an optional extra that nothing here imports, needs NumPy and PettingZoo).
"""

from __future__ import annotations

from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Action, Game, StepBudgetExceeded
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
    "Action",
    "Card",
    "Game",
    "RulesError",
    "StepBudgetExceeded",
    "SymbolView",
    "Tables",
    "TablesError",
    "Unit",
    "load_tables",
    "loads_tables",
]
