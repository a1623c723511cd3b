"""Mods: the load order of packs that extend packs, layering their patches and rules
replacements, explaining where a field came from, and migrating older pack formats.

The names below are the stage's public interface; each loads its module on first use, so
importing the facade costs nothing and the stages may import one another without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.compiler import lazy_getattr

if TYPE_CHECKING:
    from decklore.compiler.mods.explain import ExplainError
    from decklore.compiler.mods.explain import explain as explain_pack
    from decklore.compiler.mods.explain import to_text as explain_to_text
    from decklore.compiler.mods.migrate import MigrateError
    from decklore.compiler.mods.migrate import migrate as migrate_pack
    from decklore.compiler.mods.packs import Layer, load_order

_EXPORTS = {
    "ExplainError": ("explain", "ExplainError"),
    "Layer": ("packs", "Layer"),
    "MigrateError": ("migrate", "MigrateError"),
    "explain_pack": ("explain", "explain"),
    "explain_to_text": ("explain", "to_text"),
    "load_order": ("packs", "load_order"),
    "migrate_pack": ("migrate", "migrate"),
}
__all__ = [
    "ExplainError",
    "Layer",
    "MigrateError",
    "explain_pack",
    "explain_to_text",
    "load_order",
    "migrate_pack",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
