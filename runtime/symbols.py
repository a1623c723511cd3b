"""Symbol totals by the pack's symbol rules: stacks, the dash, locks and keys, arrows, blocks.

This is the one place the engine counts symbols (the builtins ``symbols``, ``symbols_on``,
``printed``, ``matched``, ``has_key``, ``locked_symbols`` and ``blocks_on`` read it).  It
works on card rows from the tables and knows no game: which symbol is a key or cancels
others is in each symbol entry (``key``, ``argument``), and which cards cannot lose symbols
is a predicate the caller passes in.

The rules, as the symbol notation defines them:
- a unit is a stack of cards; only its top card's symbols count, plus the top card's dash
  (``per_stacked``) symbols once for each card under it;
- a symbol locked by a letter counts only while its receiver holds an open key of that
  letter; keys may themselves be locked, so open keys are found by iterating to a fixed
  point;
- an entry's ``to`` says who receives it: ``self`` (the unit's controller) or the
  controller's opponents;
- a cancelling symbol (one naming another as its argument) cancels one symbol of that kind
  for its receiver, never on a card the caller marks as unblockable.  Where the receiver
  has said which unit a block falls on (a mark counted in ``Unit.assigned``), that unit
  loses the symbol and the block is used up; blocks not yet placed fall where they do the
  least harm to totals;
- a unit may have symbols taken off it altogether (``Unit.removed``: ERA's spent harvest),
  which then neither count nor take a block;
- a unit in a zone that acts for the opponents of its player (``Unit.for_opponents``) gives
  its symbols to every player but its controller, as if each of them controlled it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

Card = Mapping[str, Any]


@dataclass(frozen=True)
class Unit:
    """Cards that act as one: ``cards[0]`` is the bottom card, ``cards[-1]`` the top."""

    cards: tuple[Card, ...]
    controller: int
    attached: tuple[Card, ...] = ()
    """Cards tucked under the unit whose kind counts there (an attachment under its host)."""
    removed: frozenset[str] = frozenset()
    """Symbols taken off the unit: it shows none of them while the mark lasts."""
    assigned: tuple[tuple[str, int], ...] = ()
    """Blocks its controller's side has placed on this unit, per symbol."""
    for_opponents: bool = False
    """The unit acts for every player but its controller (a shared force of rivals)."""

    @cached_property
    def shown(self) -> list[Entry]:
        """``entries(self)``, worked out once: the engine keeps a unit while its cards stay."""
        return entries(self)

    def placed(self, symbol: str) -> int:
        """How many blocks of ``symbol`` were placed on this unit."""
        return sum(n for s, n in self.assigned if s == symbol)

    @property
    def top(self) -> Card:
        return self.cards[-1]

    @property
    def stacked(self) -> int:
        """How many cards lie under the top card."""
        return len(self.cards) - 1


@dataclass(frozen=True)
class Entry:
    """One symbol a unit shows, resolved to a count (dash entries already multiplied)."""

    symbol: str
    count: int
    lock: str | None
    key: str | None
    target: str | None
    to: str
    unit: Unit = field(compare=False)


def entries(unit: Unit) -> list[Entry]:
    """The symbols a unit shows, before locks, arrows and blocks (attached cards' too)."""
    out = []
    for item in unit.top["symbols"]:
        times = unit.stacked if item["per_stacked"] else 1
        if times <= 0 or item["symbol"] in unit.removed:
            continue
        key = item["argument"] if item["key"] else None
        target = None if item["key"] else item["argument"]
        out.append(Entry(item["symbol"], item["count"] * times, item["lock"], key, target,
                         item["to"], unit))
    for card in unit.attached:
        for item in card["symbols"]:
            if item["per_stacked"] or item["symbol"] in unit.removed:
                continue  # a dash means nothing under another card
            key = item["argument"] if item["key"] else None
            target = None if item["key"] else item["argument"]
            out.append(Entry(item["symbol"], item["count"], item["lock"], key, target,
                             item["to"], unit))
    return out


def printed(symbol: str, card: Card) -> int:
    """How many of ``symbol`` a card shows, dash included, locked or not."""
    return sum(item["count"] for item in card["symbols"] if item["symbol"] == symbol)


def _receives(entry: Entry, player: int) -> bool:
    own = (entry.unit.controller == player) != entry.unit.for_opponents
    if entry.to == "self":
        return own
    if entry.to in ("opponent", "opponents"):
        return not own
    return entry.to == "all"


@dataclass
class SymbolView:
    """Every player's symbol totals for one moment of a game, computed once and reused."""

    units: Sequence[Unit]
    players: int
    unblockable: Callable[[Card], bool] = lambda card: False
    _entries: list[Entry] = field(default_factory=list, init=False)
    _keys: list[frozenset[str]] = field(default_factory=list, init=False)
    _totals: dict[tuple[str, int], int] = field(default_factory=dict, init=False)
    _shown: dict[str, list[Entry]] = field(default_factory=dict, init=False)
    """The entries that show each symbol (not blocks, not keys), in the order of ``_entries``."""
    _blocking: dict[str, list[Entry]] = field(default_factory=dict, init=False)
    """The entries that block each symbol, in the order of ``_entries``."""
    _blockables: dict[tuple[str, int], tuple[int, int, int]] = field(
        default_factory=dict, init=False)
    _blocks: dict[tuple[str, int], int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self._entries = [e for unit in self.units for e in unit.shown]
        self._keys = [self._open_keys(p) for p in range(self.players)]
        # Indexed once per view, so that a question about one symbol reads only the entries
        # of that symbol rather than every entry of the table (the same ones, in order).
        for e in self._entries:
            if e.target is None:
                self._shown.setdefault(e.symbol, []).append(e)
            elif e.key is None:
                self._blocking.setdefault(e.target, []).append(e)

    def keep_totals(self, old: SymbolView, changed: frozenset[int]) -> None:
        """Take from an earlier view the answers about every seat but ``changed``: the
        caller knows that each seat's totals are made of its own units alone, and that
        only the units of those seats changed since ``old`` was made."""
        for here, there in ((self._totals, old._totals), (self._blocks, old._blocks)):
            for key, value in there.items():
                if key[1] not in changed:
                    here.setdefault(key, value)
        for key, counted in old._blockables.items():
            if key[1] not in changed:
                self._blockables.setdefault(key, counted)

    def _open_keys(self, player: int) -> frozenset[str]:
        keys: set[str] = set()
        while True:
            found = {e.key for e in self._entries
                     if e.key and _receives(e, player) and (e.lock is None or e.lock in keys)}
            if found <= keys:
                return frozenset(keys)
            keys |= found

    def has_key(self, player: int, letter: str | None) -> bool:
        """Whether this lock letter is open for the player (no letter is always open)."""
        return letter is None or letter == "" or letter in self._keys[player]

    def _live(self, entry: Entry, player: int) -> bool:
        return _receives(entry, player) and self.has_key(player, entry.lock)

    def blocks_on(self, symbol: str, player: int) -> int:
        """Blocks of ``symbol`` the player receives (open ones only)."""
        key = (symbol, player)
        found = self._blocks.get(key)
        if found is None:
            found = self._blocks[key] = sum(
                e.count for e in self._blocking.get(symbol, ()) if self._live(e, player))
        return found

    def blocks_any(self, symbol: str) -> bool:
        """Whether any unit of the view shows a block of ``symbol`` (open or not, for
        anyone): when none does, no unit of the view blocks it for anybody."""
        return symbol in self._blocking

    def blocks_from(self, symbol: str, player: int, units: Iterable[Unit]) -> int:
        """Blocks of ``symbol`` the player receives from these units only."""
        return sum(e.count for unit in units for e in unit.shown
                   if e.target == symbol and e.key is None and self._live(e, player))

    def _blockable(self, symbol: str, player: int) -> tuple[int, int, int]:
        """The player's unblockable count, blockable count left after the blocks placed on
        units, and the blocks those placements used up (remembered, as ``total``)."""
        key = (symbol, player)
        found = self._blockables.get(key)
        if found is None:
            found = self._blockables[key] = self._count_blockable(symbol, player)
        return found

    def _count_blockable(self, symbol: str, player: int) -> tuple[int, int, int]:
        safe = 0
        by_unit: dict[int, tuple[Unit, int]] = {}
        for e in self._shown.get(symbol, ()):
            if self._live(e, player):
                if self.unblockable(e.unit.top):
                    safe += e.count
                else:
                    unit, seen = by_unit.get(id(e.unit), (e.unit, 0))
                    by_unit[id(e.unit)] = (unit, seen + e.count)
        left = used = 0
        for unit, count in by_unit.values():
            taken = min(unit.placed(symbol), count)
            used += taken
            left += count - taken
        return safe, left, used

    def total(self, symbol: str, player: int) -> int:
        """The player's total of ``symbol``: received, unlocked, less the blocks received.

        Remembered: a view never changes once made, and agents ask for every total of
        every player in each position they weigh."""
        key = (symbol, player)
        found = self._totals.get(key)
        if found is None:
            found = self._totals[key] = self._total(symbol, player)
        return found

    def _total(self, symbol: str, player: int) -> int:
        safe, left, used = self._blockable(symbol, player)
        unassigned = max(self.blocks_on(symbol, player) - used, 0)
        return safe + max(left - unassigned, 0)

    def on_unit(self, symbol: str, unit: Unit, player: int | None = None) -> int:
        """What one unit gives ``player`` (its controller by default) of ``symbol``: unlocked,
        less the blocks placed on it, before the blocks not yet placed."""
        who = unit.controller if player is None else player
        count = sum(e.count for e in unit.shown
                    if e.symbol == symbol and e.target is None and self._live(e, who))
        if unit.assigned and not self.unblockable(unit.top):
            count = max(count - unit.placed(symbol), 0)
        return count

    def locked(self, symbol: str, unit: Unit) -> int:
        """How many of the unit's ``symbol`` are locked shut for its controller now."""
        return sum(e.count for e in unit.shown
                   if e.symbol == symbol and e.lock is not None
                   and not self.has_key(unit.controller, e.lock))

    def matched(self, symbol: str, player: int, first: Iterable[Unit],
                second: Iterable[Unit]) -> int:
        """Sets of ``symbol`` the player forms with one symbol from each group.

        Each symbol serves in one set only, so the sets are the smaller of the two counts,
        after the blocks the player receives.  The receiver says which of their symbols a
        block cancels, so blocks fall where they do least harm: first on blockable symbols
        outside both groups, then split between the groups to keep the most sets.
        """
        groups = []
        for units in (first, second):
            safe = blockable = 0
            for unit in units:
                if unit.controller != player:
                    continue
                count = self.on_unit(symbol, unit)
                if self.unblockable(unit.top):
                    safe += count
                else:
                    blockable += count
            groups.append((safe, blockable))
        (a_safe, a_blk), (b_safe, b_blk) = groups
        _, received, used = self._blockable(symbol, player)
        blocks = max(self.blocks_on(symbol, player) - used, 0)
        if blocks == 0:
            return min(a_safe + a_blk, b_safe + b_blk)
        left = max(0, blocks - max(0, received - a_blk - b_blk))
        most = min(a_safe, b_safe)
        for on_a in range(min(left, a_blk) + 1):
            on_b = left - on_a
            if on_b <= b_blk:
                most = max(most, min(a_safe + a_blk - on_a, b_safe + b_blk - on_b))
        return most


def stacked_value(value: Mapping[str, Any] | None, unit: Unit) -> int | None:
    """A ``symbol_value`` field of a unit: its base value plus the per-stacked amount."""
    if value is None or value.get("value") is None:
        return None
    return int(value["value"]) + int(value.get("per_stacked") or 0) * unit.stacked


def counts(view: SymbolView, player: int, symbols: Iterable[str]) -> Counter[str]:
    """Several totals at once, for observations and agents."""
    return Counter({s: view.total(s, player) for s in symbols})
