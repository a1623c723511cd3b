"""What each define and outcome of a program reads, found once when the program loads.

The engine remembers a define's value until something it reads changes, and checks an
outcome only when something it reads has changed since it was last checked.  Both need to
know, for every change the engine makes, which defines and outcomes it can affect.  This
module answers that from the rules IR alone: each expression reads a set of **tags**,

- ``z:NAME`` the cards of zone NAME (any of its spaces, for a zone of spaces);
- ``c:NAME`` / ``f:NAME`` the counter or flag NAME;
- ``cards`` where any card lies, its facing and its stack (what builtins such as
  ``controller`` read of every card);
- ``stacks`` which cards are stacked on or tucked under which (``units``, ``stack_of``,
  ``tucked``...): touched only by a change to a stack, so a value of them outlives moves
  of cards that are in none;
- ``symbols`` the symbol view (``symbols``, ``blocks_on``, ``has_key``): touched when the
  engine drops its view, so a value of them outlives moves outside the counting zones;
  every change that touches ``stacks`` or ``symbols`` touches ``cards`` too;
- ``faces`` what card each instance is, and whose (its printed fields, name, tags and
  owner): never changed by the rules, only by a determinized copy dealing hidden cards
  again (``determinize.py``; ``face_reads.py`` says whose faces a define reads, so that
  the copy forgets only what reads the faces it dealt);
- ``out`` which players are still in the game; ``me``, ``turn``, ``round`` the turn;
- ``*`` anything at all: an expression or builtin this module does not know, so a rule the
  engine learns later is never remembered too long.

and the engine names the tags each change touches (``World.touch``; ``World.touch_seats``
when a change is one seat's, for the defines ``seat_reads.py`` places by their
arguments).  Reading more than an expression really reads only costs a recomputation;
reading less would be a wrong value, so every unknown is ``*``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

ANY = "*"
CARDS = "cards"
STACKS = "stacks"
SYMBOLS = "symbols"
OUT = "out"
FACES = "faces"

_PURE: frozenset[str] = frozenset()
BUILTIN_READS: dict[str, frozenset[str]] = {
    **{name: _PURE for name in (
        "size", "top", "bottom", "top_card", "lesser", "greater", "seat", "player_at",
        "automated")},
    **{name: frozenset({FACES}) for name in (
        "same_name", "has_tag", "printed", "owner", "cards_of")},
    **{name: frozenset({CARDS}) for name in (
        "zone_of", "space_of", "position_of", "is_face_up")},
    # a shared zone's card is its owner's; a match compares the faces of the cards
    **{name: frozenset({CARDS, FACES}) for name in ("controller", "matched")},
    **{name: frozenset({STACKS}) for name in (
        "units", "stack_of", "top_of", "stack_size", "tucked")},
    **{name: frozenset({SYMBOLS}) for name in (
        "symbols", "blocks_on", "has_key", "locked_symbols", "unlocked")},
    # the units of the view, by the base of each card (a tucked card's host moves only
    # with the view dropped, when either zone counts symbols)
    "blocks_from": frozenset({SYMBOLS, STACKS}),
    **{name: frozenset({OUT}) for name in ("players", "opponent", "opponents", "players_from")},
    # a shared force counts for the player on turn, for its owner's rivals
    "symbols_on": frozenset({CARDS, FACES, "me", OUT}),
    "turn_number": frozenset({"turn"}), "first_turn": frozenset({"turn"}),
    "round_number": frozenset({"round"}),
}
"""The state each builtin reads beyond its arguments.  The symbol view is made of the
faces too: a determinized copy that deals a card counting in it drops the view and forgets
what reads ``symbols`` (``determinize.Determinizer``)."""

_STATIC_OPS = frozenset({
    "int", "text", "bool", "none", "local", "const", "symbol", "kind", "member",
    "not", "neg", "and", "or", "eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul",
    "div", "mod", "join", "if", "agg"})
"""Operators that read nothing of the state themselves (their operands may)."""


def zone_tag(zone: str) -> str:
    return "z:" + zone


def counter_tag(name: str) -> str:
    return "c:" + name


def flag_tag(name: str) -> str:
    return "f:" + name


def ir_children(node: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    """The expressions directly inside an IR node (its fields that are nodes, or lists of
    them): what every walk over the rules IR steps into."""
    for value in node.values():
        if isinstance(value, Mapping):
            if "op" in value:
                yield value
        elif isinstance(value, list | tuple):
            for item in value:
                if isinstance(item, Mapping) and "op" in item:
                    yield item


def direct_reads(node: Mapping[str, Any] | None) -> tuple[set[str], set[str]]:
    """The tags an expression reads itself, and the defines it calls."""
    tags: set[str] = set()
    calls: set[str] = set()
    stack = [node] if node is not None else []
    while stack:
        here = stack.pop()
        op = here.get("op")
        if op == "define":
            calls.add(here["name"])
        elif op == "zone":
            tags.add(zone_tag(here["zone"]))
        elif op in ("counter", "flag"):
            tags.add((counter_tag if op == "counter" else flag_tag)(here["name"]))
            if here.get("of") is None:
                tags.add("me")  # a player's counter without 'for': the current player's
        elif op == "me":
            tags.add("me")
        elif op == "field":
            tags.add(FACES)  # a card's printed field
        elif op == "call":
            tags |= BUILTIN_READS.get(here["fn"], frozenset({ANY}))
        elif op not in _STATIC_OPS:
            tags.add(ANY)
        stack.extend(ir_children(here))
    return tags, calls


class Reads:
    """The tags every define (and, through them, every expression) reads."""

    def __init__(self, defines: Mapping[str, Mapping[str, Any]]) -> None:
        direct = {name: direct_reads(spec["body"]) for name, spec in defines.items()}
        self.defines: dict[str, frozenset[str]] = {}
        for name in defines:
            seen: set[str] = set()
            tags: set[str] = set()
            todo = [name]
            while todo:
                here = todo.pop()
                if here in seen:
                    continue
                seen.add(here)
                found = direct.get(here)
                if found is None:
                    tags.add(ANY)  # a define the IR does not have: the engine will say so
                    continue
                tags |= found[0]
                todo.extend(found[1])
            self.defines[name] = frozenset(tags)
        self.readers: dict[str, tuple[str, ...]] = {}
        """For each tag, the defines that read it (those reading ``*`` under every tag)."""
        anything = tuple(sorted(n for n, t in self.defines.items() if ANY in t))
        self.readers_of_anything = anything
        by_tag: dict[str, set[str]] = {}
        for name, read in self.defines.items():
            for tag in read:
                by_tag.setdefault(tag, set()).add(name)
        for tag, names in by_tag.items():
            self.readers[tag] = tuple(sorted(names | set(anything)))
        self.reader_sets = {tag: frozenset(names) for tag, names in self.readers.items()}
        self.anything_set = frozenset(anything)
        self._unions: dict[tuple[str, ...], frozenset[str]] = {}

    def readers_of_all(self, tags: tuple[str, ...]) -> frozenset[str]:
        """The defines that read any of these tags, worked out once per tuple of tags: a
        change names the same few tuples over and over (a move from one zone to another),
        so forgetting what it affects is one pass over the memo, not one per tag."""
        found = self._unions.get(tags)
        if found is None:
            anything = self.anything_set
            found = self._unions[tags] = frozenset().union(
                *(self.reader_sets.get(tag, anything) for tag in tags))
        return found

    def of(self, node: Mapping[str, Any] | None) -> frozenset[str]:
        """Every tag an expression reads, through the defines it calls."""
        tags, calls = direct_reads(node)
        for name in calls:
            tags.update(self.defines.get(name, (ANY,)))
        return frozenset(tags)

    def readers_of(self, tag: str) -> tuple[str, ...]:
        return self.readers.get(tag, self.readers_of_anything)
