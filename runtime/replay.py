"""Games from their record: a saved state loaded against the pack, and a log replayed.

Both meet the same question first: the record names the tables it was made with (by
content hash), and the pack may have changed since.  When only card data changed, the
record still holds: its ``rules_hash`` is the rules' own, and ids the pack renamed
(``renamed``) are followed (``adopt``).  When the rules changed, the saved position or
the logged decisions mean something else, so the record is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from decklore.runtime.expressions import RulesError
from decklore.runtime.state import StateError
from decklore.runtime.tables import Tables

if TYPE_CHECKING:
    from decklore.runtime.game import Game

_RULES_HASHES: dict[str, str] = {}


def rules_hash(tables: Tables) -> str:
    """A hash of the rules alone: a saved position stays meaningful while it is unchanged.

    Remembered per content hash (which covers the rules): serialising the whole IR cost a
    few milliseconds on every new game."""
    found = _RULES_HASHES.get(tables.content_hash)
    if found is None:
        text = json.dumps(tables.raw.get("rules"), sort_keys=True, separators=(",", ":"),
                          default=dict)  # the tables are read-only mappings
        found = hashlib.sha256(text.encode()).hexdigest()[:16]
        _RULES_HASHES[tables.content_hash] = found
    return found


def same_rules(tables: Tables, content_hash: str, played_rules: str | None) -> bool:
    """Whether a record made with the tables ``content_hash`` (whose rules hashed to
    ``played_rules``) means the same with these tables."""
    return content_hash == tables.content_hash or played_rules == rules_hash(tables)


def renamed_id(tables: Tables, old: str) -> str:
    """A card or deck id as the pack spells it now (its ``renamed`` map followed)."""
    renamed = tables.raw.get("renamed") or {}
    return str(renamed.get(old, old))


def adopt(tables: Tables, cards: list[dict[str, Any]], decks: list[str]) -> None:
    """Give a saved game's cards and decks the pack's current ids, or refuse a card the
    pack no longer has."""
    known = {row["id"] for row in tables.raw["cards"]}
    for card in cards:
        card_id = renamed_id(tables, card["card"])
        if card_id not in known:
            raise StateError(f"this game has card '{card['card']}', which the pack "
                             "no longer has; declare its new id under 'renamed'")
        card["card"] = card_id
    decks[:] = [renamed_id(tables, d) for d in decks]


class ReplayError(ValueError):
    """A log that does not replay: ``line`` (1 for the first event) says where."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Replay:
    """A log played again: the game it gives, and how many events and decisions."""

    game: Game
    events: int
    decisions: int
    newer_tables: bool
    """The log was made with another version of the pack (whose rules are the same)."""


def replay_log(tables: Tables, events: list[list[Any]],
               new_game: Callable[..., Game]) -> Replay:
    """Play a game again from its log's start event and decisions, and check that it
    gives the log's events, one for one.

    ``events`` are checked log lines (``save_format.check_log_line``) that begin with the
    start event; ``new_game`` is ``Game.new``.  Raises ``ReplayError`` at the first line
    that differs, or names the line the replay stopped on.
    """
    from decklore.runtime.machine import StepBudgetExceeded

    start = [*events[0], *[None] * 8][:8]  # logs from before the rules hash have 7 fields
    _, _, content_hash, players, seed, decks, budget, played_rules = start
    newer = tables.content_hash != content_hash
    if not same_rules(tables, content_hash, played_rules):
        raise ReplayError(1, f"the game was played with other rules (tables "
                             f"{content_hash[:12]}…, this pack is {tables.content_hash[:12]}…)")
    decks = [renamed_id(tables, d) for d in decks]
    choices = [(n, e[2]) for n, e in enumerate(events, start=1) if e[0] == "decide"]
    line = 1
    game: Game | None = None
    try:
        game = new_game(tables, players, seed, decks, budget=budget or 100_000)
        for number, choice in choices:
            line = number
            if game.terminal:
                break
            game.apply(choice)
    except StepBudgetExceeded:
        pass  # the original ran out of steps too, or the comparison below says where not
    except (RulesError, StateError) as exc:
        raise ReplayError(line, f"the replay stopped: {exc}") from None
    if game is None:
        raise ReplayError(1, "the replay could not start")
    again = game.state.log
    for number, (want, got) in enumerate(zip(events, again, strict=False), start=1):
        if number == 1 and want[:2] == got[:2]:
            continue  # the start event names the tables, which may be a newer version
        if want != got:
            raise ReplayError(number, f"differs: the log has {json.dumps(want)}, the replay "
                                      f"gives {json.dumps(got)}")
    if len(events) != len(again):
        raise ReplayError(0, f"the log has {len(events)} events, the replay {len(again)}")
    return Replay(game, len(events), len(choices), newer)
