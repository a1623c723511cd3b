"""What every pass of the rules checker shares: declared names, local scopes, value types.

The checker (``check``) walks a parsed rules program once per pass: declarations are
collected first, then every declaration is checked and lowered to its IR, statements
(``check_statements``) by way of expressions (``check_expressions``), and last the
warnings that need the whole program.  This module holds what those passes have in
common: the table of declared names (``Decl``), the chain of local scopes (``Scope``),
the value types and which may stand for which, and ``CheckContext``, the state of one
check (the manifest, the diagnostics, what was declared and used).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, Span
from decklore.compiler.load.manifest import Manifest
from decklore.compiler.rules import nodes as n

IR = dict[str, Any]
FIELD_TYPES = {"int": "number", "bool": "bool", "text": "text", "enum": "text", "lock": "lock",
               "symbols": "any", "symbol_value": "value", "card": "card",
               "cards": "cards"}
VALUE_MEMBERS = {"symbol": "symbol", "value": "number", "per_stacked": "number"}
COLLECTIONS = {"cards": "card", "zone": "card", "players": "player"}
WALKS = {"cards": "cards", "zone": "cards", "players": "players"}
"""What a loop, an aggregate or a choice walks, written into the IR as ``walks`` so the
runtime need not guess it from builtin names (null: the checker cannot tell, as for a
definition's parameter)."""


def compatible(actual: str, wanted: str) -> bool:
    """Whether a value of type ``actual`` may stand where ``wanted`` is expected."""
    if "any" in (actual, wanted) or actual == wanted:
        return True
    # One card (player) stands for a list of one; a text may name a lock letter.
    return (actual, wanted) in {("card", "cards"), ("player", "players"), ("text", "lock"),
                                ("zone", "cards")}


@dataclass
class Decl:
    """A declared name, where it is, and whether anything used it."""

    kind: str
    node: Any
    span: Span
    used: bool = False


@dataclass
class Scope:
    """Local names of a block, chained to the enclosing block."""

    names: dict[str, str] = field(default_factory=dict)
    parent: Scope | None = None

    def lookup(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, **names: str) -> Scope:
        return Scope(dict(names), self)

    def visible(self) -> set[str]:
        out: set[str] = set()
        scope: Scope | None = self
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out



class CheckContext:
    """The state of one check of a pack's rules, shared by its passes."""

    def __init__(self, manifest: Manifest, diags: Diagnostics, pack_prefix: str = "",
                 other_packs: dict[str, str] | None = None) -> None:
        self.m = manifest
        self.diags = diags
        self.prefix = pack_prefix  # display path of the pack folder, stripped from origins
        # In a mod: the display path of each pack below -> 'id:' put before its files' names
        self.other_packs = other_packs or {}
        self.decls: dict[str, Decl] = {}
        self.filled: set[str] = set()  # zones that some rule puts cards into
        self.chosen_from: list[tuple[str, Span]] = []
        self.define_types: dict[str, str] = {}
        self._defining: set[str] = set()
        self.player_var = "p"
        self.worded: list[tuple[n.Says, Any]] = []  # says lines and what each describes

    # --- entry point -------------------------------------------------------------------

    def _origin(self, span: Span) -> str:
        for folder, pack in self.other_packs.items():
            if span.file.startswith(folder):
                return f"{pack}:{span.file.removeprefix(folder)}:{span.line}"
        return f"{span.file.removeprefix(self.prefix)}:{span.line}"

    def _names(self, kind: str) -> list[str]:
        return [name for name, decl in self.decls.items() if decl.kind == kind]

    @staticmethod
    def _per(decl: n.StateDecl) -> str:
        words = {o.name for o in decl.options}
        if "per_card" in words:
            return "card"
        if "global" in words or "shared" in words:
            return "game"
        return "player"

    def _span_of(self, node: Any) -> Span:
        span: Span = node.span
        return span


def a_kind(kind: str) -> str:
    words = {"any": "a value", "number": "a number", "bool": "a yes/no condition",
             "zone": "a zone",
             "text": "a text", "card": "a card", "cards": "cards", "player": "a player",
             "players": "players", "symbol": "a symbol", "kind": "a card kind",
             "lock": "a lock letter", "value": "a symbol value"}
    return words.get(kind, kind)


def type_hint(wanted: str, actual: str) -> str:
    if wanted == "bool" and actual == "number":
        return "compare it, as in '... > 0'"
    if wanted == "number" and actual in ("cards", "card", "zone"):
        return "count cards with size(...) or count(c in ... where ...)"
    if wanted == "player" and actual == "players":
        return "choose one of them, or go through them with 'for each'"
    return "see the types in docs/rules-language.md"

