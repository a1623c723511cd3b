"""The game: a pack's compiled rules being played, one decision at a time.

``Game`` is the facade players, agents and tools use (``new``, ``current_player``,
``legal_actions``, ``apply``, ``observation``, ``clone``, ``to_json``/``from_json``...).
The engine behind it is in parts, each a module:

- ``world``: the state and its caches, every read and change the rules make, the log;
- ``machine``: the run loop over the frame stack (``frames``), offers and use limits, the
  step budget;
- ``statements``, ``loops``, ``decisions``: one handler per statement kind of the IR;
- ``flows``: the turn structure; ``outcomes``: how the game ends;
- ``replay``: saved games and logs against a pack that may have changed since.

Where execution stands is data in the state, never a Python frame, so a game clones with a
copy, saves to JSON mid-turn and resumes exactly (``docs/design/engine-plan.md``), and two
runs with the same tables, seed and choices give the same log, event for event.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from decklore.runtime import decisions, flows
from decklore.runtime.describe import describe_option, observation
from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import Root
from decklore.runtime.machine import DEFAULT_BUDGET, Machine, StepBudgetExceeded
from decklore.runtime.program import program_for
from decklore.runtime.replay import adopt, rules_hash, same_rules
from decklore.runtime.rng import Rng
from decklore.runtime.save_format import check_save
from decklore.runtime.state import (
    OUT,
    SHARE_ALL,
    UNDER,
    GameState,
    StateError,
    automated_seats,
    new_state,
    playable_decks,
)
from decklore.runtime.tables import Tables

__all__ = ["DEFAULT_BUDGET", "Action", "Game", "StepBudgetExceeded", "default_decks",
           "rules_hash"]


@dataclass(frozen=True, slots=True)
class Action:
    """One legal answer to the pending decision."""

    index: int
    label: str
    description: str
    value: Any


class Game(Machine):
    """A game in progress: the state plus what is derived from it and cached.

    Players, agents and tools use a small interface: ``new`` (or ``from_json``) to get a
    game, then, until ``terminal``, ask ``current_player`` who decides, list their
    ``legal_actions`` and ``apply`` one; ``returns`` and ``result`` say how it ended.
    ``observation`` is what one seat may see, ``clone`` a copy to look ahead with, and
    ``to_json``/``from_json`` save and resume.  What the rules' statements and builtins
    read and change is the world's interface (``runtime/world.py``).
    """

    # --- starting, copying, saving --------------------------------------------------------

    @classmethod
    def new(cls, tables: Tables, players: int, seed: int,
            decks: Sequence[str] | None = None, *, budget: int = DEFAULT_BUDGET) -> Game:
        """A new game, run up to its first decision."""
        game = cls.prepare(tables, players, seed, decks, budget=budget)
        game.resume()
        return game

    @classmethod
    def prepare(cls, tables: Tables, players: int, seed: int,
                decks: Sequence[str] | None = None, *, budget: int = DEFAULT_BUDGET) -> Game:
        """A new game that has not started: every card where the pack says it begins."""
        program = program_for(tables)
        seats = players + automated_seats(tables, players)
        if decks is None:
            decks = default_decks(tables, seats)
        state = new_state(tables, players, seed, decks)
        for zone in (OUT, UNDER):
            state.zones[zone] = [[]]
            state.shared_zones.append(zone)
        slots = {"player": state.players, "card": len(state.cards), "game": 1}
        for name, spec in program.counters.items():
            state.counters[name] = [spec["start"]] * slots[spec["per"]]
        for name, spec in program.flags.items():
            state.flags[name] = [False] * slots[spec["per"]]
        state.info = {"me": None, "turn": 0, "round": 0, "steps": 0, "budget": budget,
                      "result": None, "out": [], "uses": {}, "decisions": 0, "phase": None,
                      "turn_began": 0, "rules_hash": rules_hash(tables),
                      "automated": list(range(players, seats))}
        state.frames = [Root()]
        game = cls(program, state)
        game.log_event("start", tables.pack["id"], tables.content_hash, players, seed,
                       list(decks), budget, state.info["rules_hash"])
        return game

    def resume(self) -> None:
        """Run on from a pause (or from ``prepare``) to the next decision or the end."""
        self.paused = None
        if self.state.pending is None:
            self.run()

    def start_at(self, name: str, player: int, *, turn: int = 1, round_: int = 1) -> None:
        """Put execution at the start of the flow block ``name`` in ``player``'s turn.

        For scenarios: the position is set up by hand, so the flow blocks around the named
        one are entered without running their start hooks.
        """
        frames, turn, phase = flows.frames_at(self, name, player, turn)
        info = self.state.info
        info["me"], info["turn"], info["round"], info["phase"] = player, turn, round_, phase
        info["turn_began"] = info["steps"]
        self.state.frames = frames

    def clone(self) -> Game:
        """An independent copy of the game, for agents that try a move and look ahead.

        The copy shares what never changes during a game (the loaded rules, the card rows)
        and copies the state, so applying actions to it leaves this game untouched.  It
        shares remembered definition values copy-on-write, and has no pause points.
        """
        twin = Game.__new__(Game)
        twin.program = self.program
        twin.state = self.state.clone(SHARE_ALL)
        twin.rows = self.rows
        twin._view = self._view
        twin._stale = self._stale
        twin.view_units = self.view_units
        twin._units = self._units  # copied by whichever of the two first drops a unit
        twin._units_owned = self._units_owned = False
        twin._dirty = self._dirty
        twin.memo = dict(self.memo)  # the tables are shared until one of the two writes
        twin.owned = set()
        self.owned = set()
        twin._keys = self._keys
        twin.changed = None if self.changed is None else set(self.changed)
        twin._owners = None
        twin.pause_at = set()
        twin.paused = None
        return twin

    def to_json(self) -> str:
        """The whole game as JSON text, for ``from_json`` to resume: the seed and generator
        state, every card's place, counters, flags, the log, the position in the rules and
        the pending decision.  The same game gives the same text, byte for byte."""
        return self.state.to_json()

    @classmethod
    def from_json(cls, tables: Tables, text: str | bytes) -> Game:
        """Resume a saved game.

        A game saved with an earlier version of the pack still loads when the rules are the
        same: card data may have changed, and ids the pack has renamed (its ``renamed``
        map) are followed.  Changed rules would leave the saved position meaningless, so
        they are refused.  Saves of an older format are read and upgraded.
        """
        state = GameState.from_json(text)
        if not state.log:
            raise StateError("not a saved game: its log does not begin with the game's start")
        start = state.log[0]
        if start[2] != tables.content_hash:
            if not same_rules(tables, start[2], state.info.get("rules_hash")):
                raise StateError("this game was saved with other rules (the pack's rules "
                                 "changed since); load it with the pack it was saved from")
            adopt(tables, state.cards, state.decks)
        program = program_for(tables)
        check_save(state, program, tables)  # every id, zone, count; a replay if it can
        return cls(program, state)

    # --- the interface players and agents use ---------------------------------------------

    @property
    def terminal(self) -> bool:
        """Whether the game is over: ``result`` says how (it may have no winner)."""
        return self.state.info["result"] is not None

    @property
    def result(self) -> dict[str, Any] | None:
        """How the game ended, or None while it goes on: ``winners`` (seat indexes, first
        seat 0), the ``reason`` in words, where in the rules it ended (``at``) and the
        ``turn``; a spent step budget also sets ``error``."""
        result: dict[str, Any] | None = self.state.info["result"]
        return result

    def current_player(self) -> int | None:
        """The seat (0 for the first) that must answer the pending decision, or None when
        nothing is pending (the game is over).  Inside an ``as`` block of the rules this is
        the player named there, not necessarily the one whose turn it is."""
        pending = self.state.pending
        return None if pending is None else int(pending["player"])

    def returns(self) -> list[float]:
        """1 for each winner, -1 for each loser, 0 for everyone while the game goes on."""
        result = self.state.info["result"]
        if result is None or not result["winners"]:
            return [0.0] * self.state.players
        return [1.0 if p in result["winners"] else -1.0 for p in range(self.state.players)]

    def legal_actions(self, *, describe: bool = True) -> list[Action]:
        """The answers the current player may give, in a fixed order: ``apply`` takes an
        action's ``index``.  Each carries the decision's label and a description in words
        as that player may read it (no hidden card is named).  Empty when the game is over.
        ``describe=False`` leaves every description empty, for agents that read only the
        values: describing is most of the cost.
        """
        pending = self.state.pending
        if pending is None:
            return []
        label = pending["label"]
        if not describe:
            return [Action(i, label, "", value) for i, value in enumerate(pending["options"])]
        return [Action(i, label, describe_option(self, pending, value), value)
                for i, value in enumerate(pending["options"])]

    def option_count(self) -> int:
        """How many legal actions there are, without describing them (for fast agents)."""
        pending = self.state.pending
        return 0 if pending is None else len(pending["options"])

    def apply(self, index: int) -> None:
        """Answer the pending decision with its ``index``-th legal action, and run on."""
        pending = self.state.pending
        if pending is None:
            raise RulesError("nothing to decide: the game is over" if self.terminal
                             else "nothing to decide")
        options = pending["options"]
        if not 0 <= index < len(options):
            raise RulesError(f"no action {index}: there are {len(options)} "
                             f"(0 to {len(options) - 1})")
        self.state.info["decisions"] += 1
        self.log_event("decide", pending["player"], index)
        self.state.pending = None
        decisions.resolve(self, pending, options[index])
        self.run()

    def observation(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may know now, as plain JSON-ready data: each seat's deck,
        counters, flags and symbols, each zone's cards (face-down and hidden cards without
        their identity) and the pending decision.  None gives a spectator's view."""
        return observation(self, player)

    def determinize(self, player: int, rng: Rng) -> Game:
        """A clone that ``player`` could believe: every card it cannot see re-dealt at
        random from the cards it could be, and the generator re-seeded (``determinize``)."""
        from decklore.runtime.determinize import determinize

        return determinize(self, player, rng)

    def log_hash(self) -> str:
        """A SHA-256 of the game's event log: two runs with the same pack, seed and choices
        give the same hash, which is how determinism is checked."""
        digest = hashlib.sha256()
        for event in self.state.log:
            digest.update(json.dumps(event, separators=(",", ":")).encode())
            digest.update(b"\n")
        return digest.hexdigest()


def default_decks(tables: Tables, players: int) -> list[str]:
    """Each player's deck when none is chosen: the playable decks in turn, in pack order."""
    if not any(z.get("deck") for z in (tables.raw.get("rules") or {}).get("zones", [])):
        return [tables.decks[0]["id"]] * players if tables.decks else []
    playable = playable_decks(tables)
    if not playable:
        raise StateError("no deck of this pack can be chosen to play")
    return [playable[i % len(playable)] for i in range(players)]
