"""Honest look-ahead: a full game state that one seat could believe, with hidden cards re-dealt.

An agent that searches needs a whole state to run the rules on, but the true state knows
every face-down card.  ``determinize(game, viewer, rng)`` returns a clone in which every
card the viewer cannot see has been given, at random, a face it could have, and the game's
generator has been re-seeded, so neither the hidden cards nor the future draws are the real
ones.  Everything the viewer may see (``observation(viewer)``) is unchanged.

What a hidden card could be comes from the public history, read from the log the way a
player at the table would follow it, knowing no game:

- at the start every card is where its pack puts it, in deck order, so each is known;
- a shuffle makes the cards of that zone interchangeable (they join one *pool*, together
  with the cards each of them could already have been swapped with);
- a card the viewer sees (face up where the viewer may look, or revealed to them) is known
  again: it leaves its pool, and the viewer remembers it after it goes out of sight.

Moves keep a card in its pool: the viewer follows a face-down card across the table without
learning its face.  Determinizing then deals, within each pool, the faces of the members the
viewer cannot see among those same members.  A face is the card, its owner and its marks
(per-card counters and flags), which observations hide together with the face.  The faces
are put in a fixed order before they are dealt, so the result depends on what the viewer
knows and the generator only, never on which hidden card is really where (a test checks
that an agent's choices do not change when a hidden card is swapped).

A draw keeps the define values the game remembers, except those that read what it deals
again (``reads.py``: the faces, their marks and the symbol view), so a search does not work
out everything afresh in each world it draws.

Cards placed by hand without a log entry (scenarios set positions up that way) are not
followed: each such hidden card is pooled with the hidden cards of the zone it lies in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from decklore.runtime.card_refs import card_list_fields
from decklore.runtime.describe import visible
from decklore.runtime.face_reads import UNDER_TAG, FaceReads
from decklore.runtime.reads import ANY, SYMBOLS, counter_tag, flag_tag
from decklore.runtime.rng import Rng
from decklore.runtime.state import PLAIN_CARD, UNDER, new_state

if TYPE_CHECKING:
    from decklore.runtime.game import Game
    from decklore.runtime.program import Program

Place = tuple[str, int | None]


class Knowledge:
    """What one seat has been able to follow of the game so far: which hidden cards are
    interchangeable to it.  ``update`` reads only the log events it has not read yet, so an
    agent keeps one per game and pays for each event once."""

    def __init__(self, game: Game, viewer: int) -> None:
        self.viewer = viewer
        self._start: Any = None
        self._read = 0
        self._place: list[Place] = []
        self._pool: list[int] = []
        self._members: dict[int, set[int]] = {}
        self._next = 0
        self.update(game)

    def _reset(self, game: Game) -> None:
        state = game.state
        automated = state.info.get("automated", ())
        start = new_state(game.program.tables, state.players - len(automated), state.seed,
                          state.decks)
        self._start = state.log[0] if state.log else None
        self._read = 1 if state.log else 0
        self._place = [(c["zone"], c["player"]) for c in start.cards]
        self._pool = list(range(len(start.cards)))
        self._members = {i: {i} for i in self._pool}
        self._next = len(self._pool)

    def update(self, game: Game) -> None:
        """Read the events logged since the last update (from the start for a new game)."""
        log = game.state.log
        if (self._start is None or not log or len(log) < self._read
                or (log[0] is not self._start and log[0] != self._start)):
            self._reset(game)
        zones = game.program.zones
        viewer = self.viewer
        cards = game.state.cards
        for event in log[self._read:]:
            kind = event[0]
            if kind == "move":
                card, zone, player, face_up = event[1], event[2], event[3], event[4]
                self._place[card] = (zone, player)
                if face_up:
                    spec = zones.get(zone)
                    seen = spec is None or spec["visibility"] == "public" or (
                        spec["visibility"] == "owner" and viewer == (
                            player if player is not None else cards[card]["owner"]))
                    if seen:
                        self._know(card)
            elif kind == "reveal":
                if event[2] is None or event[2] == viewer:
                    self._know(event[1])
            elif kind == "shuffle":
                place = (event[1], event[2])
                self._merge([c for c, at in enumerate(self._place) if at == place])
        self._read = len(log)

    def _know(self, card: int) -> None:
        pool = self._pool[card]
        members = self._members[pool]
        if len(members) > 1:
            members.discard(card)
            self._new_pool({card})

    def _new_pool(self, members: set[int]) -> int:
        pool = self._next
        self._next += 1
        self._members[pool] = members
        for card in members:
            self._pool[card] = pool
        return pool

    def _merge(self, cards: list[int]) -> None:
        pools = {self._pool[c] for c in cards}
        if len(pools) <= 1:
            return
        joined: set[int] = set()
        for pool in pools:
            joined |= self._members.pop(pool)
        self._new_pool(joined)

    def pools(self, game: Game) -> list[list[int]]:
        """The groups of cards hidden from the viewer now that may trade faces, each sorted."""
        self.update(game)
        cards = game.state.cards
        viewer = self.viewer
        # a face-down card seen by nobody in particular is hidden: no call for most cards
        hidden = [c for c, row in enumerate(cards)
                  if (not row["face_up"] and len(row) == PLAIN_CARD)
                  or not visible(game, c, viewer)]
        drifted: dict[Place, list[int]] = {}
        groups: dict[int, list[int]] = {}
        for card in hidden:
            row = cards[card]
            if self._place[card] != (row["zone"], row["player"]):
                drifted.setdefault((row["zone"], row["player"]), []).append(card)
            else:
                groups.setdefault(self._pool[card], []).append(card)
        found = [g for g in groups.values() if len(g) > 1]
        found += [g for g in drifted.values() if len(g) > 1]
        return found


Face = tuple[str, int, tuple[int, ...], tuple[bool, ...]]
"""What a card's face carries, as one sortable key: its card, its owner (-1: none) and
its marks (per-card counters, then flags)."""


def _faces(game: Game) -> Callable[[int], Face]:
    """Each card's face in this position (``Face``), the mark lists looked up once."""
    state = game.state
    rows = state.cards
    names, flag_names = game.program.card_marks
    counters = [state.counters[n] for n in names]
    flags = [state.flags[n] for n in flag_names]

    def face(card: int) -> Face:
        row = rows[card]
        owner = row["owner"]
        return (row["card"], -1 if owner is None else owner,
                tuple([values[card] for values in counters]),
                tuple([bool(values[card]) for values in flags]))
    return face


_FACE_READS: WeakKeyDictionary[Program, FaceReads] = WeakKeyDictionary()


def face_reads(program: Program) -> FaceReads:
    """Where the cards lie whose faces each define reads, found once per program."""
    found = _FACE_READS.get(program)
    if found is None:
        rules = program.tables.raw["rules"]
        found = _FACE_READS[program] = FaceReads(
            rules["defines"], card_list_fields(program.tables.raw["card_fields"]))
    return found


class Determinizer:
    """Draws determinizations of one position for one seat, as many as a search needs: the
    groups and their sorted faces are worked out once, each draw only deals them."""

    def __init__(self, game: Game, viewer: int, knowledge: Knowledge | None = None) -> None:
        if knowledge is None or knowledge.viewer != viewer:
            knowledge = Knowledge(game, viewer)
        self.game = game
        self.card_counters, self.card_flags = game.program.card_marks
        face = _faces(game)
        self.groups: list[tuple[list[int], list[Face], list[Face]]] = []
        """Each group of cards that may trade faces, their faces sorted, and the face
        each card has now (a draw changes only the cards it gives another face)."""
        for group in knowledge.pools(game):
            now = [face(c) for c in group]
            self.groups.append((group, sorted(now), now))
        self.view_changes = False
        """Whether a draw may change the symbol view (a dealt card lies in a zone that
        counts symbols, or under a card)."""
        self.memo: dict[str, dict[Any, Any]] = game.memo
        """The remembered values every draw starts with (``_kept``)."""
        if self.groups:
            self.memo = self._kept(game)

    def _kept(self, game: Game) -> dict[str, dict[Any, Any]]:
        """The game's remembered values that are the same in every draw.

        A draw deals again the faces of the cards of the groups, and their marks, and so
        maybe the symbol view.  It forgets the values of a define that reads the faces of
        cards where a dealt card may lie (``face_reads``), marks that differ within a
        group, or a symbol view a dealt card counts in; of a define that reads the faces
        of its arguments, the values asked with a card lying there."""
        program = game.program
        cards = game.state.cards
        zone_tags = program.zone_tags
        places: set[str] = set()
        for group, _, _ in self.groups:
            for card in group:
                zone = cards[card]["zone"]
                places.add(UNDER_TAG if zone == UNDER else zone_tags.get(zone, ANY))
                spec = program.zones.get(zone)
                if zone == UNDER or spec is None or spec["symbols"]:
                    self.view_changes = True
        tags: list[str] = [SYMBOLS] if self.view_changes else []
        for index, name in enumerate(self.card_counters):
            if any(len({f[2][index] for f in faces}) > 1 for _, faces, _ in self.groups):
                tags.append(counter_tag(name))  # a mark that differs within a group
        for index, name in enumerate(self.card_flags):
            if any(len({f[3][index] for f in faces}) > 1 for _, faces, _ in self.groups):
                tags.append(flag_tag(name))
        forgotten, by_argument = face_reads(program).forgets(
            program.reads, frozenset(places), tuple(tags))
        suspect: set[int] = set()
        if by_argument:
            state = game.state
            for zone, per in state.zones.items():
                if (UNDER_TAG if zone == UNDER else zone_tags.get(zone, ANY)) in places:
                    for lying in per:
                        suspect.update(lying)
        remembered: dict[str, dict[Any, Any]] = {}
        owner = program.memo_owner  # a per-seat table's define (``memo``)
        for key, table in game.memo.items():
            name = owner.get(key, key)
            if name in forgotten:
                continue
            at = by_argument.get(name)
            if at is None:
                remembered[key] = table  # shared: every game copies a table before writing it
            else:
                remembered[key] = _without(table, at, suspect)
        self._forgotten, self._by_argument, self._suspect = forgotten, by_argument, suspect
        return remembered

    def keep(self, world: Game) -> None:
        """Remember for the next draws the values ``world`` (a draw no answer has been
        applied to yet) worked out that are the same in every draw."""
        if not self.groups:
            return
        memo = self.memo = dict(self.memo)
        owner = world.program.memo_owner
        for key, table in world.memo.items():
            name = owner.get(key, key)
            if name in self._forgotten or memo.get(key) is table:
                continue
            at = self._by_argument.get(name)
            if at is not None:
                table = _without(table, at, self._suspect)
            elif key in world.owned:
                table = dict(table)  # the world writes its own tables in place as it plays on
            memo[key] = table

    def sample(self, rng: Rng) -> Game:
        """One determinization, drawn with ``rng`` (and only with it)."""
        twin = self.game.clone()
        state = twin.state
        program = twin.program
        counters, flags = state.counters, state.flags
        cards = state.cards
        given: list[int] = []
        for group, sorted_faces, now in self.groups:
            shuffled = list(sorted_faces)
            rng.shuffle(shuffled)
            for card, face, held in zip(group, shuffled, now, strict=True):
                if face == held:
                    continue  # the face it has (a copy of the same card, say): nothing to do
                given.append(card)
                card_id, owner, marks, marked = face
                row = state.card_to_change(card)
                row["card"] = card_id
                row["owner"] = None if owner == -1 else owner
                # the lists are shared with the game until changed: only a differing mark
                # makes this copy's own (most hidden cards carry none)
                if marks != held[2]:
                    for name, value in zip(self.card_counters, marks, strict=True):
                        if counters[name][card] != value:
                            state.counter_to_change(name)[card] = value
                if marked != held[3]:
                    for name, value in zip(self.card_flags, marked, strict=True):
                        if flags[name][card] != value:
                            state.flag_to_change(name)[card] = value
        state.rng = Rng((rng.next_u32() << 32) | rng.next_u32(), stream=rng.next_u32())
        if given:
            rows = twin.rows = list(twin.rows)
            card_rows = program.card_rows
            for card in given:
                rows[card] = card_rows[cards[card]["card"]]
            if self.view_changes:
                twin.forget_symbols(given)
        twin.memo = dict(self.memo)  # the tables shared: each game copies one to write it
        twin.owned = set()
        return twin


def _without(table: dict[Any, Any], at: tuple[int, ...], suspect: set[int]
             ) -> dict[Any, Any]:
    """A define's values less those asked with one of the ``suspect`` cards at one of the
    positions ``at`` (anything else there, a player or a symbol, is no such card).  Every
    key holds all the define's arguments, so each position is there."""
    if len(at) == 1:
        index = at[0]
        return {args: value for args, value in table.items() if args[index] not in suspect}
    if len(at) == 2:
        first, second = at
        return {args: value for args, value in table.items()
                if args[first] not in suspect and args[second] not in suspect}
    return {args: value for args, value in table.items()
            if suspect.isdisjoint([args[index] for index in at])}

def determinize(game: Game, viewer: int, rng: Rng, knowledge: Knowledge | None = None) -> Game:
    """A clone of ``game`` that ``viewer`` could believe: hidden cards re-dealt, generator
    re-seeded.  Pass the seat's ``Knowledge`` to avoid re-reading the whole log."""
    return Determinizer(game, viewer, knowledge).sample(rng)
