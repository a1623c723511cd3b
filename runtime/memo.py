"""How remembered define values are laid out, and which of them a change forgets.

A game keeps its defines' values in ``memo``: a dict of **tables**, each a dict from the
arguments a define was asked with to its value.  A define gets one table (keyed by its
name), except a define whose reads of every seat's things all name their seat through one
argument (``seat_reads``: ``have(r, p)`` reads the lands, stacks, symbols and counters of
``p`` only): it gets one table per seat, keyed by its name, ``SEP`` and the seat
(``seat_keys``: texts made once, so that finding a table is one lookup of a text whose
hash is kept, not a tuple made and hashed at every call).  Forgetting what a change of
seat 1's lands makes stale is then dropping ``have``'s table for seat 1, not copying
``have``'s table less the values about seat 1; and since ``memo`` is each game's own dict
(a clone copies it, sharing the tables), dropping a table is never a write to a shared
one.

Tables are shared with clones copy-on-write: ``owned`` holds the keys of the tables a game
may write in place, and a game copies a table before its first write since the clone.  A
per-seat table is made only for a seat of the game (a whole number below the number of
players, and below ``SEATS``); a value asked about anything else is worked out and not
remembered, so that forgetting a define whole is dropping the tables of every seat, found
without a scan.

``MemoKeys`` works out, once per kind of change and number of players, the keys a change
forgets (``of``, ``seated``), so that ``World.touch`` and ``World.touch_seats`` are one
intersection with the memo's keys.  The memo is never saved: a resumed game works values
out again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklore.runtime.reads import ANY, STACKS, SYMBOLS, Reads
from decklore.runtime.seat_reads import SeatReads

Key = str
"""A memo table's key: a define's name, or its name, ``SEP`` and the seat it is about."""

SEP = "\x00"
"""Between a define's name and the seat in the key of a per-seat table: no define's name
holds it (a program whose names do, keeps every define in one table)."""

SEATS = 16
"""The seats a per-seat table is made for, at least (more when the pack allows more
players): a value about a seat past them is worked out, not remembered."""

Partial = dict[str, tuple[tuple[tuple[int, int], ...], tuple[int, ...]]]
"""Defines kept in one table of which a change forgets the values about some seats: the
(k, argument position) pairs to look at, and the positions alone (``SeatReads.plan``)."""


def define_of(key: Key) -> str:
    """The define a memo table belongs to."""
    return key.partition(SEP)[0]


def seat_keys(name: str, seats: int) -> tuple[str, ...]:
    """The keys of a define's per-seat tables, by seat."""
    return tuple(f"{name}{SEP}{seat}" for seat in range(seats))


def values(memo: Mapping[Key, Mapping[Any, Any]], name: str) -> dict[Any, Any]:
    """Every value remembered of one define, by its arguments, from all its tables: for
    tests and for looking at a game by hand (the engine reads one table at a time)."""
    out: dict[Any, Any] = {}
    for key, table in memo.items():
        if define_of(key) == name:
            out.update(table)
    return out


def split_positions(seat_reads: SeatReads, reads: Reads,
                    counters: Mapping[str, Mapping[str, Any]],
                    flags: Mapping[str, Mapping[str, Any]]) -> dict[str, int]:
    """The defines kept in one table per seat, and the argument that says the seat.

    A define qualifies when everything it reads by seat names the seat through the same
    one argument, and that argument is a seat for every such read (a zone each player
    has, a player's symbols or stacks, a counter or flag of players, not of cards)."""
    out: dict[str, int] = {}
    if any(SEP in name for name in seat_reads.places):
        return out  # a key of a per-seat table could be another define's name
    for name, places in seat_reads.places.items():
        if ANY in reads.defines.get(name, (ANY,)):
            continue
        at: set[int] = set()
        seats_only = True
        for tag, found in places.items():
            if found is None:
                continue
            at |= found
            if not _seat_tag(tag, counters, flags):
                seats_only = False
        if seats_only and len(at) == 1 and all(
                found is None or len(found) == 1 for found in places.values()):
            out[name] = next(iter(at))
    return out


def _seat_tag(tag: str, counters: Mapping[str, Mapping[str, Any]],
              flags: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether what a tag names belongs to a seat (not to a card, not to the game)."""
    if tag.startswith("z:") or tag in (SYMBOLS, STACKS):
        return True
    if tag.startswith("c:"):
        return counters.get(tag[2:], {}).get("per") == "player"
    if tag.startswith("f:"):
        return flags.get(tag[2:], {}).get("per") == "player"
    return False


class MemoKeys:
    """The memo keys each kind of change forgets, for games of one number of players."""

    def __init__(self, reads: Reads, seat_reads: SeatReads,
                 keys: Mapping[str, tuple[str, ...]], players: int) -> None:
        self._reads = reads
        self._seat_reads = seat_reads
        self._keys = {name: found[:players] for name, found in keys.items()}
        """The keys of each per-seat define's tables, for the seats of the game."""
        self.whole: dict[tuple[str, ...], set[Key]] = {}
        """``of``'s answers so far, by the tags (read inline by ``World.touch``)."""
        self.by_seat: dict[tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]],
                           tuple[set[Key], Partial]] = {}
        """``seated``'s answers so far, by its arguments."""

    def _every_table(self, names: frozenset[str]) -> set[Key]:
        split = self._keys
        keys: set[Key] = set()
        for name in names:
            found = split.get(name)
            if found is None:
                keys.add(name)
            else:
                keys.update(found)
        return keys

    def of(self, tags: tuple[str, ...]) -> set[Key]:
        """The tables a change of what ``tags`` name, for everyone, forgets.

        A ``set``, never changed once made, and not a ``frozenset``: ``memo.keys() & keys``
        then looks over the smaller of the two (with a frozenset it looks over every key
        of the set, though the memo often holds a few tables only)."""
        found = self.whole.get(tags)
        if found is None:
            found = self.whole[tags] = self._every_table(self._reads.readers_of_all(tags))
        return found

    def seated(self, tags: tuple[str, ...], seated: tuple[str, ...], seats: tuple[int, ...]
               ) -> tuple[set[Key], Partial]:
        """The tables a change forgets that touches ``tags`` for everyone and the k-th of
        ``seated`` for seat ``seats[k]`` only, and the defines kept in one table that lose
        the values about those seats (``SeatReads.plan``)."""
        key = (tags, seated, seats)
        found = self.by_seat.get(key)
        if found is not None:
            return found
        whole, partial, _ = self._seat_reads.plan(tags, seated)
        keys = self._every_table(whole)
        rest: Partial = {}
        split = self._keys
        for name, (pairs, positions) in partial.items():
            tables = split.get(name)
            if tables is None:
                rest[name] = (pairs, positions)
                continue
            for k, _ in pairs:
                if 0 <= seats[k] < len(tables):  # (no seat's: no table to drop)
                    keys.add(tables[seats[k]])
        found = self.by_seat[key] = (keys, rest)
        return found
