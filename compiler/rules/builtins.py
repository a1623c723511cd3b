"""What the rules language knows without a pack: builtin functions, state options, events.

Each builtin has a signature (parameter types and result type) the checker uses, and a
description that the reference documentation and the plain-English rendering share.  The
engine implements every builtin here, knowing no game: symbols, zones and counters are
always the pack's own, passed in.

Types: ``player``, ``players``, ``card``, ``cards`` (a zone or any list of cards),
``number``, ``bool``, ``text``, ``symbol`` (an id from the pack's vocabulary), ``kind`` (a
card kind), ``lock`` (a lock letter, as a card's lock field gives), ``any``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Builtin:
    """A builtin function: its parameter types, result type and meaning."""

    name: str
    params: tuple[str, ...]
    result: str
    description: str
    english: str  # how the plain-English rendering reads a call; {0}, {1} are the arguments


BUILTINS: dict[str, Builtin] = {b.name: b for b in (
    # players
    Builtin("opponent", ("player",), "player",
            "The other player of a two-player game.", "{0}'s opponent"),
    Builtin("opponents", ("player",), "players",
            "Every other player still in the game, in turn order after the player.",
            "{0}'s opponents"),
    Builtin("players", (), "players", "Every player still in the game, in seat order.",
            "every player"),
    Builtin("owner", ("card",), "player", "The player whose deck the card came from.",
            "the owner of {0}"),
    Builtin("seat", ("player",), "number", "The player's seat: 1 for the first seat, and so on.",
            "{0}'s seat"),
    Builtin("player_at", ("number",), "player",
            "The player in a seat (counting on round the table past the last seat).",
            "the player in seat {0}"),
    Builtin("players_from", ("player",), "players",
            "Every player still in the game, in seat order starting with the given one.",
            "every player, starting with {0}"),
    Builtin("automated", ("player",), "bool",
            "Whether the rules play this seat by themselves (pack.yaml players: automated).",
            "{0} is played by the rules"),
    Builtin("controller", ("card",), "player",
            "The player in whose zone the card is now.", "the controller of {0}"),
    # cards and zones
    Builtin("size", ("cards",), "number", "How many cards (stacked cards count).",
            "the number of cards in {0}"),
    Builtin("top", ("cards", "number"), "cards", "The first N cards of an ordered zone.",
            "the top {1} cards of {0}"),
    Builtin("bottom", ("cards", "number"), "cards", "The last N cards of an ordered zone.",
            "the bottom {1} cards of {0}"),
    Builtin("top_card", ("cards",), "card", "The first card of a zone, or none if empty.",
            "the top card of {0}"),
    Builtin("units", ("cards",), "cards",
            "The units of a zone: each stack counts once, by its bottom card.",
            "the units in {0}"),
    Builtin("stack_of", ("card",), "cards",
            "The card's whole unit: the bottom card and every card stacked on it.",
            "the stack of {0}"),
    Builtin("top_of", ("card",), "card",
            "The top card of the card's unit (the card itself when nothing is stacked on it).",
            "the top card of the stack of {0}"),
    Builtin("stack_size", ("card",), "number",
            "How many cards form the card's unit (1 when nothing is stacked on it).",
            "the number of cards in the stack of {0}"),
    Builtin("tucked", ("card",), "cards", "The cards tucked under a card.",
            "the cards tucked under {0}"),
    Builtin("zone_of", ("card",), "cards", "The zone the card is in.", "the zone of {0}"),
    Builtin("space_of", ("card",), "number",
            "The number of the space the card is in, in a zone of numbered spaces (none "
            "elsewhere).", "the space of {0}"),
    Builtin("position_of", ("card",), "number",
            "The card's place in its zone, counting from 1 at the top (a row's first slot); "
            "none for a tucked card.", "the position of {0}"),
    Builtin("cards_of", ("player",), "cards",
            "Every card the player owns, wherever it is (destroyed cards included).",
            "every card of {0}"),
    Builtin("same_name", ("card", "card"), "bool", "Whether two cards have the same name.",
            "{0} has the same name as {1}"),
    Builtin("has_tag", ("card", "text"), "bool",
            "Whether the card, or the deck it comes from, has a tag.",
            "{0} is tagged {1}"),
    Builtin("is_face_up", ("card",), "bool", "Whether the card lies face up.",
            "{0} is face up"),
    # symbols, locks and keys: always the pack's symbol rules
    Builtin("symbols", ("symbol", "player"), "number",
            "A player's total of a symbol on cards in zones that count symbols: only the top "
            "card of a stack counts, plus dash symbols for each stacked card; locked symbols "
            "count only while a key of their letter is open; blocks and effect arrows apply.",
            "{1}'s {0} symbols"),
    Builtin("symbols_on", ("symbol", "card"), "number",
            "The same total for one unit (the card's stack) only.",
            "the {0} symbols of {1}"),
    Builtin("printed", ("symbol", "card"), "number",
            "How many of a symbol the card shows, locked or not, blocked or not.",
            "the number of {0} symbols printed on {1}"),
    Builtin("matched", ("symbol", "player", "cards", "cards"), "number",
            "Matched sets: how many pairs of the symbol can be formed with one symbol from the "
            "first cards and one from the second, each symbol used once.",
            "the number of {0} sets matched for {1} between {2} and {3}"),
    Builtin("blocks_on", ("symbol", "player"), "number",
            "How many blocks of a symbol the player receives (from their own arrows and "
            "from opponents' cards).", "the {0} blocks on {1}"),
    Builtin("blocks_from", ("symbol", "player", "cards"), "number",
            "How many blocks of a symbol the player receives from the given cards only.",
            "the {0} blocks {1} receives from {2}"),
    Builtin("locked_symbols", ("symbol", "card", "player"), "number",
            "How many of the symbols the card shows are locked shut for the player now.",
            "the locked {0} symbols of {1} for {2}"),
    Builtin("has_key", ("player", "lock"), "bool",
            "Whether the player has a key of this lock letter open (an empty lock is open).",
            "{0} holds the key to {1}"),
    Builtin("unlocked", ("card", "player"), "bool",
            "Whether every lock field of the card is open for the player.",
            "{0} is unlocked for {1}"),
    # the game
    Builtin("turn_number", (), "number", "How many turns have begun, counting this one.",
            "the turn number"),
    Builtin("first_turn", (), "bool", "Whether this is the first turn of the game.",
            "this is the first turn of the game"),
    Builtin("round_number", (), "number", "How many rounds have begun, counting this one.",
            "the round number"),
    Builtin("lesser", ("number", "number"), "number", "The smaller of two numbers.",
            "the lesser of {0} and {1}"),
    Builtin("greater", ("number", "number"), "number", "The larger of two numbers.",
            "the greater of {0} and {1}"),
)}

CARD_PROPERTIES = {
    "id": "text", "name": "text", "kind": "kind", "deck": "text", "copies": "number",
    "unique": "bool", "text": "text",
}
"""Core card fields every card has, readable as ``c.name``; packs declare the rest."""

ZONE_OPTIONS: dict[str, str | None] = {
    "per_player": None, "shared": None, "ordered": None, "hidden": None, "owner": None,
    "public": None, "stacks": None, "symbols": None, "refill": "zone", "spent": "zone",
    "slots": "number", "spaces": "number",
    "deck": "tag?", "holds": "tag", "distinct": None, "for_opponents": None, "bag": None,
}
"""Zone options and the kind of value each takes (None: a bare word).

``deck [TAG]``: each player's chosen deck (one tagged TAG, when given) starts here;
``holds TAG``: the cards of every deck with that tag start here (a shared bonus pile);
``refill Z``: drawing from the empty zone first shuffles Z into it; ``stacks``: cards here
form units; ``symbols``: cards here count for ``symbols(...)``; ``slots N``: at most N cards;
``distinct`` (with ``deck``): no two players may choose the same deck; ``for_opponents``: the
symbols of cards here act for every opponent of the zone's player, as if each controlled them
(a shared force any rival of its owner may use); ``bag``: an unordered zone drawn from at
random (each card drawn is picked by the game's generator, so what it holds may be known
but never the order it comes out in).
"""

COUNTER_OPTIONS: dict[str, str | None] = {
    "per_player": None, "per_card": None, "global": None, "min": "number", "max": "number",
    "start": "number", "until": "period", "blocks": "symbol",
}
FLAG_OPTIONS: dict[str, str | None] = {
    "per_player": None, "per_card": None, "global": None, "until": "period",
    "removes": "symbol",
}
"""Counter and flag options.  On per-card marks, ``blocks SYMBOL`` (a counter) says how many
of the blocks of SYMBOL the card's controller receives they have put on this card: each
cancels one SYMBOL there (the receiver's choice of where a block falls); ``removes SYMBOL``
(a flag) takes every SYMBOL off the card while it is set (it no longer has them at all)."""
SCOPES = ("per_player", "per_card", "global", "shared")
VISIBILITY = ("hidden", "owner", "public")

EVENTS: dict[str, tuple[str, ...]] = {
    "destroyed": ("card",),
    "played": ("card",),
    "stacked": ("card", "card"),
    "tucked": ("card", "card"),
    "drawn": ("card",),
    "revealed": ("card",),
    "turn_start": ("player",),
    "turn_end": ("player",),
}
"""Trigger events and the types of what they bind."""

PERIODS = ("turn", "round", "phase", "era", "game")
FLOW_NESTING: dict[str, tuple[str, ...]] = {
    "": ("game", "setup", "era", "round", "turn"),
    "game": ("setup", "era", "round", "turn"),
    "era": ("round", "turn"),
    "round": ("turn",),
    "turn": ("phase",),
    "phase": ("step",),
    "setup": (),
    "step": (),
}
"""Which flow blocks may appear inside which ("" is the top of the file)."""
