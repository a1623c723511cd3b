"""Loading a pack: strict located YAML, schema checks, pack.yaml, symbol notation and card
rows. The stage the pipeline starts with; the CLI reads single files through it too.

The names below are the stage's public interface; each loads its module on first use, so
importing the facade costs nothing and the stages may import one another without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.compiler import lazy_getattr

if TYPE_CHECKING:
    from decklore.compiler.load.decks import DeckCompiler, card_schema
    from decklore.compiler.load.manifest import Manifest, load_manifest
    from decklore.compiler.load.paths import pack_file
    from decklore.compiler.load.safe_io import read_regular
    from decklore.compiler.load.schema_check import checker_for
    from decklore.compiler.load.yaml_loader import LocatedDict, load_file, read_text

_EXPORTS = {
    "read_regular": ("safe_io", "read_regular"),
    "DeckCompiler": ("decks", "DeckCompiler"),
    "LocatedDict": ("yaml_loader", "LocatedDict"),
    "Manifest": ("manifest", "Manifest"),
    "card_schema": ("decks", "card_schema"),
    "checker_for": ("schema_check", "checker_for"),
    "load_file": ("yaml_loader", "load_file"),
    "load_manifest": ("manifest", "load_manifest"),
    "pack_file": ("paths", "pack_file"),
    "read_text": ("yaml_loader", "read_text"),
}
__all__ = [
    "DeckCompiler",
    "LocatedDict",
    "Manifest",
    "card_schema",
    "checker_for",
    "load_file",
    "load_manifest",
    "pack_file",
    "read_regular",
    "read_text",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
