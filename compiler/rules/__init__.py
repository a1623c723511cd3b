"""The rules language: parse rules files into located nodes, resolve names, check types and
lower to the rules IR; the formatter and the English rendering read the same tree and IR.

The names below are the stage's public interface; each loads its module on first use, so
importing the facade costs nothing and the stages may import one another without cycles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.compiler import lazy_getattr

if TYPE_CHECKING:
    from decklore.compiler.rules.check import RulesChecker
    from decklore.compiler.rules.english import English, outline
    from decklore.compiler.rules.english import to_text as rules_to_text
    from decklore.compiler.rules.format import format_program
    from decklore.compiler.rules.parser import parse_rules
    from decklore.compiler.rules.player import player_reference, symbol_names
    from decklore.compiler.rules.player import to_text as player_to_text

_EXPORTS = {
    "English": ("english", "English"),
    "player_reference": ("player", "player_reference"),
    "player_to_text": ("player", "to_text"),
    "symbol_names": ("player", "symbol_names"),
    "RulesChecker": ("check", "RulesChecker"),
    "format_program": ("format", "format_program"),
    "outline": ("english", "outline"),
    "parse_rules": ("parser", "parse_rules"),
    "rules_to_text": ("english", "to_text"),
}
__all__ = [
    "English",
    "RulesChecker",
    "format_program",
    "outline",
    "parse_rules",
    "player_reference",
    "player_to_text",
    "rules_to_text",
    "symbol_names",
]


__getattr__ = lazy_getattr(__name__, _EXPORTS, globals())
