"""A game's state as plain data: card instances, zones, counters, flags and the generator.

Everything here is ints, strings, lists and dicts, so a state clones with one copy, saves
to JSON and loads back equal (``docs/design/engine-plan.md``).  The interpreter of the
rules IR will keep its frames and pending decision in the same state.  Zones, counters
and flags are the ones the pack's rules declare; this module knows none by name.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from decklore.runtime.frames import Frame, copy_plain, frame_from_json, frame_to_json
from decklore.runtime.rng import Rng
from decklore.runtime.tables import Tables


class StateError(ValueError):
    """A state or a setup request that cannot be: the message says what and why."""


@dataclass
class GameState:
    """One game: who plays, where every card instance is, and every counter and flag."""

    players: int
    seed: int
    rng: Rng
    decks: list[str]
    shared_zones: list[str] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)
    zones: dict[str, list[list[int]]] = field(default_factory=dict)
    counters: dict[str, Any] = field(default_factory=dict)
    flags: dict[str, Any] = field(default_factory=dict)
    log: list[Any] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    """Where execution stands (``runtime/frames.py``): the last frame runs next."""
    pending: dict[str, Any] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    owned: set[int] | None = field(default=None, repr=False, compare=False)
    """The card records this state may change in place (None: all of them).  A clone shares
    the records with its original, so both copy a record before its first change
    (``card_to_change``) rather than copying every card at each clone."""
    counters_owned: set[str] | None = field(default=None, repr=False, compare=False)
    """The counters whose lists this state may change in place (None: all of them).  A
    clone shares the lists of the counters not in ``clone``'s ``copied`` (``SHARE_ALL``:
    every one) with its original, so both copy such a list before its first change
    (``counter_to_change``), and so does a determinized copy before it deals a card's
    counters again."""
    flags_owned: set[str] | None = field(default=None, repr=False, compare=False)
    """The same for flags (``flag_to_change``)."""
    zones_owned: set[str] | None = field(default=None, repr=False, compare=False)
    """The zones whose lists this state may change in place (None: all of them).  A clone
    shares the lists of every zone with its original, so both copy a zone's lists before
    its first change (``zone_to_change``): a look-ahead moves cards of a few zones."""

    def card_to_change(self, instance: int) -> dict[str, Any]:
        """A card's record, made this state's own first if it is shared with a clone: every
        change to a record goes through here."""
        owned = self.owned
        if owned is None or instance in owned:
            return self.cards[instance]
        row = self.cards[instance] = _copy_card(self.cards[instance])
        owned.add(instance)
        return row

    def counter_to_change(self, name: str) -> list[int]:
        """A counter's list of values, made this state's own first if a clone shares it."""
        values: list[int] = self.counters[name]
        owned = self.counters_owned
        if owned is not None and name not in owned:
            values = self.counters[name] = list(values)
            owned.add(name)
        return values

    def flag_to_change(self, name: str) -> list[bool]:
        """A flag's list of values, made this state's own first if a clone shares it."""
        values: list[bool] = self.flags[name]
        owned = self.flags_owned
        if owned is not None and name not in owned:
            values = self.flags[name] = list(values)
            owned.add(name)
        return values

    # --- where cards are ----------------------------------------------------------------

    def zone(self, name: str, player: int | None = None) -> list[int]:
        """The instance ids in a zone, first (top) card first."""
        return self.zones[name][0 if player is None else player]

    def zone_to_change(self, name: str, player: int | None = None) -> list[int]:
        """A zone's list, made this state's own first if it is shared with a clone: every
        change to a zone's order or contents goes through here.

        Safe because nothing holds a zone's list across a change: loops, options and
        remembered values take copies (``as_list``), and readers look the list up again."""
        owned = self.zones_owned
        per = self.zones[name]
        if owned is not None and name not in owned:
            per = self.zones[name] = [list(cards) for cards in per]
            owned.add(name)
        return per[0 if player is None else player]

    def where(self, instance: int) -> tuple[str, int | None]:
        card = self.cards[instance]
        return card["zone"], card["player"]

    def move(self, instance: int, zone: str, player: int | None, *, top: bool = True,
             face_up: bool | None = None, depth: int | None = None) -> None:
        """Move one instance to a zone's top, its bottom, or under ``depth`` cards, keeping
        every card in one place."""
        card = self.card_to_change(instance)
        self.zone_to_change(card["zone"], card["player"]).remove(instance)
        target = self.zone_to_change(zone, player)
        if depth is not None:
            target.insert(min(max(depth, 0), len(target)), instance)
        elif top:
            target.insert(0, instance)
        else:
            target.append(instance)
        card["zone"], card["player"] = zone, player
        if face_up is not None:
            card["face_up"] = face_up

    def shuffle(self, zone: str, player: int | None = None) -> None:
        self.rng.shuffle(self.zone_to_change(zone, player))

    # --- saving and copying --------------------------------------------------------------

    def clone(self, copied: tuple[Sequence[str], Sequence[str]] | None = None) -> GameState:
        """An independent copy: changing one never changes the other.

        Written out by hand rather than with ``copy.deepcopy``: agents that look ahead clone
        the game once per legal action, and the generic deep copy is ten times slower.  The
        card records are shared copy-on-write (``owned``): a look-ahead changes a few.
        """
        twin = GameState.__new__(GameState)  # not copy.copy: its generic path is slower
        twin.players, twin.seed = self.players, self.seed
        twin.rng = self.rng.clone()
        twin.decks = list(self.decks)
        twin.shared_zones = list(self.shared_zones)
        twin.cards = list(self.cards)  # the records shared until one of the two changes one
        twin.owned, self.owned = set(), set()
        twin.zones = dict(self.zones)  # the lists shared until one of the two changes one
        twin.zones_owned, self.zones_owned = set(), set()
        if copied is None:  # every counter and flag copied
            twin.counters = {k: v.copy() for k, v in self.counters.items()}
            twin.flags = {k: v.copy() for k, v in self.flags.items()}
            twin.counters_owned = twin.flags_owned = None
        else:  # only the ``copied`` ones; the others shared until changed
            counters, flags = copied
            twin.counters = dict(self.counters)
            for name in counters:
                twin.counters[name] = twin.counters[name].copy()
            twin.flags = dict(self.flags)
            for name in flags:
                twin.flags[name] = twin.flags[name].copy()
            twin.counters_owned, self.counters_owned = set(counters), set(counters)
            twin.flags_owned, self.flags_owned = set(flags), set(flags)
        twin.log = self.log.copy()
        twin.frames = [f.copy() for f in self.frames]
        twin.pending = None if self.pending is None else copy_plain(self.pending)
        twin.info = copy_plain(self.info)
        return twin

    def to_json(self) -> str:
        """The state as a saved game (format ``save_format.SAVE_VERSION``), canonical JSON:
        the same state gives the same text, byte for byte."""
        from decklore.runtime.save_format import SAVE_VERSION

        return json.dumps({
            "version": SAVE_VERSION, "players": self.players, "seed": self.seed,
            "rng": self.rng.to_json(), "decks": self.decks,
            "shared_zones": self.shared_zones, "cards": self.cards,
            "zones": self.zones, "counters": self.counters, "flags": self.flags,
            "log": self.log, "frames": [frame_to_json(f) for f in self.frames],
            "pending": self.pending,
            "info": self.info,
        }, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> GameState:
        """A state from a save, refused unless it reads and has the engine's shape.

        ``save_format`` checks everything first (UTF-8, JSON depth, every field's type and
        range), so a broken or edited file gives a ``StateError`` saying where, never a
        crash later; ``Game.from_json`` adds the checks that need the rules.
        """
        from decklore.runtime.save_format import (
            SaveFormatError,
            check_state_shape,
            migrate_save,
            parse_json,
        )

        try:
            data = migrate_save(parse_json(text))
            check_state_shape(data)
        except SaveFormatError as exc:
            raise StateError(str(exc)) from None
        return cls(data["players"], data["seed"], Rng.from_json(data["rng"]),
                   data["decks"], data["shared_zones"], data["cards"], data["zones"],
                   data["counters"], data["flags"], data["log"],
                   [frame_from_json(f) for f in data["frames"]],
                   data["pending"], data["info"])

    def check(self) -> None:
        """Every instance is in exactly one zone, the one it records."""
        seen: dict[int, tuple[str, int | None]] = {}
        for name, per in self.zones.items():
            for index, ids in enumerate(per):
                player = None if name in self.shared_zones else index
                for instance in ids:
                    if instance in seen:
                        raise StateError(f"card instance {instance} is in two zones")
                    seen[instance] = (name, player)
        for instance, card in enumerate(self.cards):
            if seen.get(instance) != (card["zone"], card["player"]):
                raise StateError(f"card instance {instance} is not where it says")


SHARE_ALL: tuple[Sequence[str], Sequence[str]] = ((), ())
"""What ``GameState.clone`` is told to copy to share every counter and flag copy-on-write:
everything that changes one goes through ``counter_to_change`` or ``flag_to_change``."""


CARD_LISTS = ("above", "under", "seen")
"""The keys of a card's record that hold lists (the rest are plain values)."""


PLAIN_CARD = 5
"""How many keys a card has that is in no stack, under no card, and seen by nobody extra:
the usual case, copied with one ``dict.copy``."""


def _copy_card(card: dict[str, Any]) -> dict[str, Any]:
    twin = card.copy()
    if len(twin) <= PLAIN_CARD:
        return twin
    for key in CARD_LISTS:
        value = twin.get(key)
        if value is not None:
            twin[key] = list(value)
    return twin


OUT = "-out"
"""Where cards go that leave the game: a zone no pack can name (names are identifiers)."""
UNDER = "-under"
"""Where tucked cards lie: they belong to their host card, not to a zone of the rules."""
PLACES = {OUT: "out of the game", UNDER: "under a card"}
"""How messages name those two places."""

SPACE = "#"
"""Joins a zone's name and a space's number: space 3 of ``tile`` is the zone ``tile#3``."""


def space_names(zone: str, spaces: int) -> list[str]:
    """The zones a zone of numbered spaces is kept as, space 1 first."""
    return [f"{zone}{SPACE}{number}" for number in range(1, spaces + 1)]


def zone_rows(rules: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The zones a game keeps: a zone of N numbered spaces is N zones, ``name#1`` on."""
    rows: list[Mapping[str, Any]] = []
    for zone in rules.get("zones", []):
        spaces = zone.get("spaces")
        if not spaces:
            rows.append(zone)
            continue
        for number, name in enumerate(space_names(zone["name"], int(spaces)), start=1):
            rows.append({**zone, "name": name,
                         "label": f"{zone['label']} {number}", "space": number,
                         "deck": zone.get("deck") if number == 1 else False,
                         "holds": zone.get("holds") if number == 1 else None})
    return rows



def playable_decks(tables: Tables) -> list[str]:
    """The decks a player may choose: those a ``deck [TAG]`` zone accepts, in pack order."""
    rules = tables.raw.get("rules") or {}
    tags = {z["deck"] for z in rules.get("zones", []) if z.get("deck")}
    return [d["id"] for d in tables.decks if any(t is True or t in d["tags"] for t in tags)]


def decks_named(tables: Tables, name: str) -> list[str]:
    """The decks a name may mean: a full id ('pack:deck'), or the part after the pack."""
    return [d["id"] for d in tables.decks
            if d["id"] == name or d["id"].split(":", 1)[1] == name]


def automated_seats(tables: Tables, players: int) -> int:
    """How many seats the rules play by themselves in a game of ``players`` players."""
    automated = tables.pack["players"].get("automated") or {}
    return int(automated.get(str(players), 0))


def _check_distinct(decks: Sequence[str]) -> None:
    """Each player's deck must differ from every other's (a ``deck ..., distinct`` zone)."""
    taken: dict[str, int] = {}
    for seat, deck_id in enumerate(decks, 1):
        if deck_id in taken:
            raise StateError(f"players {taken[deck_id]} and {seat} both chose {deck_id!r}: "
                             "each player must play a different deck")
        taken[deck_id] = seat


def new_state(tables: Tables, players: int, seed: int, decks: Sequence[str]) -> GameState:
    """A game's opening state: every card instance in the zone its pack says it starts in.

    ``decks`` names each seat's chosen deck: the players', then the automated seats' (the
    pack's ``players: automated`` adds seats the rules play by themselves).  A zone with the
    ``deck`` option receives its player's deck (which must carry the zone's tag, when it
    names one); a zone with ``holds TAG`` receives the cards of every deck with that tag.
    Nothing is shuffled yet: the rules' setup does that with the game's generator.
    """
    rules = tables.raw.get("rules")
    if not rules:
        raise StateError(f"pack {tables.pack['id']} has no rules to play")
    low, high = tables.pack["players"]["min"], tables.pack["players"]["max"]
    if not low <= players <= high:
        raise StateError(f"{tables.pack['name']} takes {low} to {high} players, not {players}")
    players += automated_seats(tables, players)
    if len(decks) != players:
        raise StateError(f"give one deck for each of the {players} seats "
                         f"(got {len(decks)})")
    by_id = {deck["id"]: deck for deck in tables.decks}
    state = GameState(players, seed, Rng(seed), list(decks))
    for zone in zone_rows(rules):
        per_player = zone["per"] == "player"
        state.zones[zone["name"]] = [[] for _ in range(players if per_player else 1)]
        if not per_player:
            state.shared_zones.append(zone["name"])

    def add(card_id: str, zone: str, player: int | None, owner: int | None) -> None:
        copies = tables.card(card_id)["copies"]
        for _ in range(copies):
            instance = len(state.cards)
            state.cards.append({"card": card_id, "owner": owner, "zone": zone,
                                "player": player, "face_up": False})
            state.zone(zone, player).append(instance)

    for zone in zone_rows(rules):
        tag = zone.get("deck")
        if tag and zone.get("distinct"):
            _check_distinct(decks)
        if tag:
            for seat, deck_id in enumerate(decks):
                deck = by_id.get(deck_id)
                if deck is None:
                    raise StateError(f"no deck {deck_id!r} in {tables.pack['id']}; decks: "
                                     + ", ".join(by_id))
                if isinstance(tag, str) and tag not in deck["tags"]:
                    raise StateError(f"deck {deck_id!r} is not tagged {tag!r}, so it cannot "
                                     "be chosen to play")
                for card_id in deck["cards"]:
                    player = seat if zone["per"] == "player" else None
                    add(card_id, zone["name"], player, seat)
        holds = zone.get("holds")
        if holds:
            if zone["per"] == "player":
                raise StateError(f"zone {zone['name']!r} holds the {holds!r} decks but "
                                 "belongs to each player; make it shared")
            for deck in tables.decks:
                if holds in deck["tags"]:
                    for card_id in deck["cards"]:
                        add(card_id, zone["name"], None, None)
    return state
