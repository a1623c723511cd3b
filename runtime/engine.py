"""The generic interpreter: plays any pack's compiled rules, one decision at a time.

Where execution stands is data in the state, never a Python frame: a stack of frames, each
a small dict (block number and statement index, loop position, the cards picked so far,
what is still due), plus the pending decision.  That is what lets a game be cloned with one
copy, saved to JSON mid-turn and resumed exactly, and replayed from its decisions
(``docs/design/engine-plan.md``).

The loop runs statements until a player has to decide (``pending``), the game ends, or the
step budget runs out.  Decisions with a single legal answer are taken at once and logged
as forced, so players, agents and scripts are asked only real questions.

Every change is an event in ``state.log`` (a list of small JSON arrays), so two runs with
the same tables, seed and choices can be compared event for event.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from decklore.runtime.bags import card_to_draw
from decklore.runtime.builtins import players_from
from decklore.runtime.describe import describe_option, observation
from decklore.runtime.expressions import Env, RulesError, as_list
from decklore.runtime.program import Flow, Program, Stmt, program_for
from decklore.runtime.reads import ANY, CARDS, counter_tag, flag_tag
from decklore.runtime.reads import OUT as OUT_TAG
from decklore.runtime.rng import Rng
from decklore.runtime.save_format import check_save
from decklore.runtime.state import (
    OUT,
    UNDER,
    GameState,
    StateError,
    automated_seats,
    new_state,
    playable_decks,
)
from decklore.runtime.symbols import SymbolView, Unit
from decklore.runtime.tables import Tables

DEFAULT_BUDGET = 100_000
"""Steps one game may run (a statement or a loop turn each): a bundled pack's game takes
2,000 to 20,000."""


MAX_COUNTER = 1_000_000_000
"""The largest size a counter may reach either way: past it the rules are in error (a value
that doubles every turn would otherwise grow until memory or int printing gives out)."""
MAX_NUMBER_CHOICES = 10_000
"""The most numbers one ``choose number`` may offer: each is an option agents look at."""


def _short(value: int) -> str:
    """A number for a message, shortened when it has more digits than anyone reads."""
    if abs(value) < 10 ** 30:
        return str(value)
    return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"


class StepBudgetExceeded(RulesError):
    """The game ran out of steps: a rule loops without end, or the game does not finish."""


@dataclass(frozen=True, slots=True)
class Action:
    """One legal answer to the pending decision."""

    index: int
    label: str
    description: str
    value: Any


class Game:
    """A game in progress: the state plus what is derived from it and cached.

    Players, agents and tools use a small interface: ``new`` (or ``from_json``) to get a
    game, then, until ``terminal``, ask ``current_player`` who decides, list their
    ``legal_actions`` and ``apply`` one; ``returns`` and ``result`` say how it ended.
    ``observation`` is what one seat may see, ``clone`` a copy to look ahead with, and
    ``to_json``/``from_json`` save and resume.  Everything else is what the rules'
    statements and builtins read and change.
    """

    def __init__(self, program: Program, state: GameState) -> None:
        self.program = program
        self.state = state
        self.rows: list[dict[str, Any]] = [program.card_rows[c["card"]] for c in state.cards]
        self._view: SymbolView | None = None
        self._units: dict[int, Unit] = {}
        """The units of the cards in counting zones, made with ``_units_view``."""
        self._units_view: SymbolView | None = None
        self._dirty = False
        self.memo: dict[str, dict[Any, Any]] = {}
        """Each define's remembered values, by arguments, until something it reads changes."""
        self.owned: set[str] = set()
        """The defines whose memo table this game alone holds (others it shares with a clone)."""
        self._changed: set[str] | None = None
        """What changed since the outcomes were last checked (None: anything may have)."""
        self.pause_at: set[str] = set()
        self.paused: str | None = None

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
        for name, spec in program.counters.items():
            state.counters[name] = [spec["start"]] * _slots(spec["per"], state)
        for name, spec in program.flags.items():
            state.flags[name] = [False] * _slots(spec["per"], state)
        state.info = {"me": None, "turn": 0, "round": 0, "steps": 0, "budget": budget,
                      "result": None, "out": [], "uses": {}, "decisions": 0, "phase": None,
                      "turn_began": 0, "rules_hash": rules_hash(tables),
                      "automated": list(range(players, seats))}
        state.frames = [{"t": "root", "i": 0}]
        game = cls(program, state)
        game._log("start", tables.pack["id"], tables.content_hash, players, seed, list(decks),
                  budget, state.info["rules_hash"])
        return game

    def resume(self) -> None:
        """Run on from a pause (or from ``prepare``) to the next decision or the end."""
        self.paused = None
        if self.state.pending is None:
            self._run()

    def start_at(self, name: str, player: int, *, turn: int = 1, round_: int = 1) -> None:
        """Put execution at the start of the flow block ``name`` in ``player``'s turn.

        For scenarios: the position is set up by hand, so the flow blocks around the named
        one are entered without running their start hooks.
        """
        path = _flow_path(self.program, name)
        if path is None:
            names = sorted({f.name for f in self.program.flows})
            raise RulesError(f"no phase, step, turn or round named '{name}'; the rules have: "
                             + ", ".join(names))
        top_index, chain = path
        info = self.state.info
        info["me"], info["turn"], info["round"] = player, turn, round_
        info["turn_began"] = info["steps"]
        frames: list[dict[str, Any]] = [{"t": "root", "i": top_index + 1}]
        for depth, (flow_id, child_index) in enumerate(chain):
            flow = self.program.flows[flow_id]
            frame = _flow_frame(self, flow, player if flow.kind == "turn" else None)
            if flow.kind == "turn" and depth == 0:
                frame["free"] = True  # a turn outside any round repeats in seat order
            if depth == len(chain) - 1:
                if flow.kind == "turn":
                    info["turn"] = turn - 1
                frames.append(frame)
                break
            frame.update(st=1, i=child_index + 1, bd=True)
            if flow.kind == "round":
                frame["order"] = players_from(self, player)
                child = self.program.flows[flow.children[child_index]]
                if child.kind == "turn":
                    frame["i"] = child_index
                    frame["oi"] = frame["order"].index(player) + 1
            if flow.kind in ("phase", "step"):
                info["phase"] = flow.name
            frames.append(frame)
        self.state.frames = frames

    def clone(self) -> Game:
        """An independent copy of the game, for agents that try a move and look ahead.

        The copy shares what never changes during a game (the loaded rules, the card rows)
        and copies the state, so applying actions to it leaves this game untouched.  It
        starts with no remembered definition values and no pause points.
        """
        twin = Game.__new__(Game)
        twin.program = self.program
        twin.state = self.state.clone()
        twin.rows = self.rows
        twin._view = self._view
        twin._units, twin._units_view = self._units, self._units_view
        twin._dirty = self._dirty
        twin.memo = dict(self.memo)  # the tables are shared until one of the two writes
        twin.owned = set()
        self.owned = set()
        twin._changed = None if self._changed is None else set(self._changed)
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
        they are refused.
        """
        state = GameState.from_json(text)
        if not state.log:
            raise StateError("not a saved game: its log does not begin with the game's start")
        start = state.log[0]
        if start[2] != tables.content_hash:
            saved_rules = state.info.get("rules_hash")
            if saved_rules != rules_hash(tables):
                raise StateError("this game was saved with other rules (the pack's rules "
                                 "changed since); load it with the pack it was saved from")
            renamed = tables.raw.get("renamed") or {}
            known = {row["id"] for row in tables.raw["cards"]}
            for card in state.cards:
                card_id = renamed.get(card["card"], card["card"])
                if card_id not in known:
                    raise StateError(f"this game has card '{card['card']}', which the pack "
                                     "no longer has; declare its new id under 'renamed'")
                card["card"] = card_id
            state.decks = [renamed.get(d, d) for d in state.decks]
        program = program_for(tables)
        check_save(state, program, tables, text)  # every id, zone, count; a replay if it can
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
        self._log("decide", pending["player"], index)
        self.state.pending = None
        self._resolve(pending, options[index])
        self._run()

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

    # --- state reads the builtins use -----------------------------------------------------

    def me(self) -> int | None:
        """The seat whose turn it is (the rules' ``me``), or None outside any turn."""
        me: int | None = self.state.info["me"]
        return me

    def live_players(self) -> list[int]:
        """The seats still in the game (not eliminated), in seat order."""
        out = self.state.info["out"]
        return [p for p in range(self.state.players) if p not in out]

    def zone_cards(self, zone: str, player: int | None) -> list[int]:
        """The card instances of one stored zone, in its order: the live list, not a copy.

        ``player`` says whose, for a zone each player has; a shared zone ignores it."""
        per = self.state.zones[zone]
        if len(per) == 1 and zone in self.state.shared_zones:
            return per[0]
        if player is None:
            raise RulesError(f"zone '{zone}' belongs to each player: say whose")
        return per[player]

    def cards_in(self, zone: str, player: int | None) -> list[int]:
        """A zone's cards as the rules name it: a zone of spaces gives every space's."""
        names = self.program.spaced.get(zone)
        if names is None:
            return self.zone_cards(zone, player)
        return [c for name in names for c in self.zone_cards(name, player)]

    def location(self, card: int | None) -> tuple[str, int | None]:
        """The zone a card is in and whose it is (None: shared); a tucked card is where its
        host is."""
        if card is None:
            raise RulesError("no card here (none)")
        row = self.state.cards[card]
        if row["zone"] == UNDER:
            return self.location(row["host"])
        return row["zone"], row["player"]

    def controller(self, card: int) -> int | None:
        """The player whose zone the card lies in, or, in a shared zone, its owner."""
        _, player = self.location(card)
        if player is None:
            owner: int | None = self.state.cards[card]["owner"]
            return owner
        return player

    def base(self, card: int) -> int:
        """The bottom card of the stack a card is part of (the card itself when unstacked)."""
        base: int | None = self.state.cards[card].get("base")
        return card if base is None else base

    def unit(self, card: int) -> Unit | None:
        """The unit a card belongs to, if it lies in a zone whose cards count symbols."""
        base = self.base(card)
        zone, _ = self.location(base)
        spec = self.program.zones.get(zone)
        if spec is None or (not spec["stacks"] and not spec["symbols"]):
            return Unit((self.rows[base],), self.controller(base) or 0)
        if spec["symbols"] and self._view is not None and self._units_view is self._view:
            found = self._units.get(base)  # made with the view: nothing there moved since
            if found is not None:
                return found
        cards = [base, *self.state.cards[base].get("above", ())]
        attached: tuple[dict[str, Any], ...] = ()
        if self.program.under_kinds:
            attached = tuple(self.rows[u] for c in cards
                             for u in self.state.cards[c].get("under", ())
                             if self.rows[u]["kind"] in self.program.under_kinds)
        removed, assigned = self._symbol_marks(cards)
        return Unit(tuple(self.rows[c] for c in cards), self.controller(base) or 0, attached,
                    removed, assigned, bool(spec.get("for_opponents")))

    def _symbol_marks(self, cards: list[int]
                      ) -> tuple[frozenset[str], tuple[tuple[str, int], ...]]:
        """The symbols a unit's marks take off it, and the blocks placed on it."""
        program = self.program
        if not program.symbol_marks:
            return frozenset(), ()
        flags, counters = self.state.flags, self.state.counters
        removed = frozenset(symbol for name, symbol in program.removing_marks
                            if any(flags[name][c] for c in cards))
        assigned = tuple((symbol, total) for name, symbol in program.block_marks
                         if (total := sum(counters[name][c] for c in cards)))
        return removed, assigned

    def symbol_view(self) -> SymbolView:
        """Every unit in a zone that counts symbols, ready for symbol counts and blocks.

        Built once and kept until a card moves, stacks or is tucked."""
        if self._view is None:
            units = []
            by_base: dict[int, Unit] = {}
            for name, spec in self.program.zones.items():
                if not spec["symbols"]:
                    continue
                for cards in self.state.zones[name]:
                    for c in cards:
                        if self.state.cards[c].get("base") is None:
                            unit = self.unit(c)
                            if unit is not None:
                                units.append(unit)
                                by_base[c] = unit
            kinds = self.program.unblockable_kinds
            self._view = SymbolView(units, self.state.players,
                                    unblockable=lambda card: card["kind"] in kinds)
            self._units, self._units_view = by_base, self._view
        return self._view

    def _slot(self, spec: Mapping[str, Any], of: Any, name: str) -> int:
        per = spec["per"]
        if per == "game":
            return 0
        if of is None:
            if per == "card":
                raise RulesError(f"'{name}' belongs to each card: say which, with 'on CARD'")
            of = self.state.info["me"]
            if of is None:
                raise RulesError(f"'{name}' belongs to each player, and no turn is running: "
                                 "say whose, with 'for PLAYER'")
        if not isinstance(of, int) or isinstance(of, bool):
            raise RulesError(f"'{name}' needs a {per}, not {of!r}")
        return of

    def counter_value(self, name: str, of: Any) -> int:
        """A counter's value on a player or card (``of``; None: the current player, or the
        game for a game-wide counter)."""
        spec = self.program.counters[name]
        if type(of) is int and spec["per"] != "game":  # the usual case, read often
            fast: int = self.state.counters[name][of]
            return fast
        value: int = self.state.counters[name][self._slot(spec, of, name)]
        return value

    def flag_value(self, name: str, of: Any) -> bool:
        """Whether a flag is set on a player or card (``of`` as for ``counter_value``)."""
        spec = self.program.flags[name]
        if type(of) is int and spec["per"] != "game":
            return bool(self.state.flags[name][of])
        return bool(self.state.flags[name][self._slot(spec, of, name)])

    # --- changing the state ---------------------------------------------------------------

    def _log(self, *event: Any) -> None:
        self.state.log.append(list(event))

    def _touch(self, *tags: str) -> None:
        """Something these tags name changed: forget the define values that read it, and
        have the outcomes that read it checked."""
        memo = self.memo
        if memo:
            readers = self.program.reads.reader_sets
            anything = self.program.reads.anything_set
            for tag in tags:
                names = readers.get(tag, anything)
                if len(memo) < len(names):  # go through whichever is shorter
                    for name in [n for n in memo if n in names]:
                        del memo[name]
                else:
                    for name in names:
                        memo.pop(name, None)
                if not memo:
                    break
        changed = self._changed
        if changed is not None:
            changed.update(tags)

    def _touch_all(self) -> None:
        """A new turn or round: whose turn it is, and the turn number, changed."""
        self.memo.clear()
        self._changed = None

    def change_counter(self, name: str, of: Any, value: int) -> None:
        """Set a counter, logged: below its minimum is a rules error, above its maximum it
        stops at the maximum."""
        spec = self.program.counters[name]
        slot = self._slot(spec, of, name)
        if value < spec["min"]:
            raise RulesError(f"{spec['label']} would go below {spec['min']} "
                             f"({value}); the rules must check before spending")
        if spec["max"] is not None and value > spec["max"]:
            value = spec["max"]
        if not -MAX_COUNTER <= value <= MAX_COUNTER:
            raise RulesError(f"{spec['label']} would reach {_short(value)}, beyond the limit of "
                             f"{MAX_COUNTER:,} a counter may hold; give the counter a 'max'")
        if self.state.counters[name][slot] != value:
            self.state.counters[name][slot] = value
            self._log("counter", name, slot, value)
            self._dirty = True
            self._touch(counter_tag(name))
            if name in self.program.symbol_marks:  # a block placed or a symbol taken off
                self._view = None
                self._touch(CARDS)

    def change_flag(self, name: str, of: Any, value: bool) -> None:
        """Set or clear a flag, logged when it changes."""
        slot = self._slot(self.program.flags[name], of, name)
        if self.state.flags[name][slot] != value:
            self.state.flags[name][slot] = value
            self._log("flag", name, slot, value)
            self._dirty = True
            self._touch(flag_tag(name))
            if name in self.program.symbol_marks:  # a block placed or a symbol taken off
                self._view = None
                self._touch(CARDS)

    def move(self, card: int, zone: str, player: int | None, *, top: bool | None = None,
             face_up: bool | None = None, depth: int | None = None) -> None:
        """Move a card with every card stacked on it and every card tucked under it."""
        cards = self.state.cards
        row = cards[card]
        spec = self.program.zones.get(zone)
        if spec is not None and spec["per"] == "player" and player is None:
            raise RulesError(f"zone '{zone}' belongs to each player: say whose")
        if spec is not None and spec["per"] != "player":
            player = None
        was = self.location(card)
        left = row["zone"]
        self._detach(card)
        above = row.pop("above", [])
        under = row.pop("under", []) if spec is None or not spec["stacks"] else row.get(
            "under", [])
        if top is None:
            top = bool(spec and spec["ordered"])
        self.state.move(card, zone, player, top=top, face_up=face_up, depth=depth)
        row.pop("seen", None)
        self._log("move", card, zone, player, row["face_up"])
        if self.program.marks_cleared_on_move:
            self._clear_marks([card, *above])
        keep_stack = spec is not None and spec["stacks"]
        for other in above:
            cards[other].pop("seen", None)
            self.state.move(other, zone, player, top=top, face_up=face_up, depth=depth)
            self._log("move", other, zone, player, cards[other]["face_up"])
            if not keep_stack:
                cards[other].pop("base", None)
        if keep_stack and above:
            row["above"] = above
        if not keep_stack:
            for other in under:
                cards[other].pop("host", None)
                self.state.move(other, zone, player, top=top)
                self._log("move", other, zone, player, cards[other]["face_up"])
        old = self.program.zones.get(was[0])
        if (spec is None or spec["symbols"] or spec["stacks"] or old is None
                or old["symbols"] or old["stacks"]):
            self._view = None  # symbol totals change only when a counting zone does
        self._dirty = True
        tags = self.program.zone_tags
        self._touch(CARDS, tags.get(left, left), tags.get(zone, zone))
        if under and not keep_stack:
            self._touch(tags.get(UNDER, UNDER))
        for name, _ in self.program.marks_cleared_on_move:
            self._touch(counter_tag(name), flag_tag(name))
        if spec is not None and spec.get("slots") is not None and len(
                self.zone_cards(zone, player)) > spec["slots"]:
            raise RulesError(f"zone '{zone}' holds at most {spec['slots']} cards")
        if spec is not None and spec["symbols"] and (old is None or not old["symbols"]):
            self._fire("played", [card])

    def _clear_marks(self, cards: list[int]) -> None:
        """Marks that last ``until moved`` go back to their start on the cards that moved."""
        for name, start in self.program.marks_cleared_on_move:
            values = self.state.counters[name] if start is not None else self.state.flags[name]
            reset = start if start is not None else False
            for card in cards:
                if values[card] != reset:
                    values[card] = reset
                    self._log("counter" if start is not None else "flag", name, card, reset)
                    if name in self.program.symbol_marks:
                        self._view = None  # the card's symbols change with the mark

    def _detach(self, card: int) -> None:
        cards = self.state.cards
        row = cards[card]
        host = row.pop("host", None)
        if host is not None:
            cards[host]["under"].remove(card)
            if not cards[host]["under"]:
                del cards[host]["under"]
        base = row.pop("base", None)
        if base is not None:
            cards[base]["above"].remove(card)
            if not cards[base]["above"]:
                del cards[base]["above"]

    def stack(self, card: int, onto: int) -> None:
        """Put a card (and what is stacked on it) on top of the unit ``onto`` belongs to,
        face up, then run the ``stacked`` triggers."""
        base = self.base(onto)
        zone, player = self.location(base)
        self.move(card, zone, player, top=False, face_up=True)
        cards = self.state.cards
        for other in [card, *cards[card].pop("above", [])]:
            cards[other]["base"] = base
            cards[base].setdefault("above", []).append(other)
        self._log("stack", card, base)
        self._view = None
        self._touch(CARDS)
        self._fire("stacked", [card, onto])

    def tuck(self, card: int, host: int) -> None:
        """Put a card face down under ``host``, where it goes wherever the host goes; then
        run the ``tucked`` triggers."""
        self.move(card, UNDER, None, top=False, face_up=False)
        self.state.cards[card]["host"] = host
        self.state.cards[host].setdefault("under", []).append(card)
        self._log("tuck", card, host)
        self._view = None
        self._touch(CARDS)
        self._fire("tucked", [card, host])

    def reveal(self, card: int, to: int | None) -> None:
        """Let one player (None: everyone) see a card's face until it moves; then run the
        ``revealed`` triggers."""
        row = self.state.cards[card]
        seen = row.setdefault("seen", [])
        viewers = range(self.state.players) if to is None else [to]
        for p in viewers:
            if p not in seen:
                seen.append(p)
        seen.sort()
        self._log("reveal", card, to)
        self._fire("revealed", [card])

    def shuffle(self, zone: str, player: int | None) -> None:
        """Shuffle a zone with the game's seeded generator, logged; nobody can tell any more
        which face-down card went where, so what was revealed of them is forgotten (a card
        guessed at and shuffled back is unknown again)."""
        self.state.shuffle(zone, player)
        cards = self.state.cards
        for card in self.zone_cards(zone, player):
            if not cards[card]["face_up"]:
                cards[card].pop("seen", None)
        self._log("shuffle", zone, player, len(self.zone_cards(zone, player)))
        self._dirty = True
        self._touch(CARDS, self.program.zone_tags.get(zone, zone))

    def _fire(self, event: str, args: list[Any]) -> None:
        triggers = self.program.triggers.get(event)
        if not triggers:
            return
        chosen = []
        for trig in triggers:
            env = dict(zip(trig.params, args, strict=False))
            if trig.where is None or trig.where(self, env):
                chosen.append({"t": "b", "b": trig.body, "pc": 0, "env": env})
        self.state.frames.extend(reversed(chosen))

    # --- the run loop ---------------------------------------------------------------------

    def _run(self) -> None:
        state = self.state
        frames = state.frames
        info = state.info
        stmts, blocks = self.program.stmts, self.program.blocks
        handlers = _HANDLERS
        while state.pending is None and info["result"] is None and self.paused is None:
            if not frames:
                self._end_by_score("the rules ran to their end")
                return
            frame = frames[-1]
            kind = frame["t"]
            info["steps"] += 1
            if info["steps"] > info["budget"]:
                self._out_of_steps()
            if kind == "b":
                code = blocks[frame["b"]]
                pc = frame["pc"]
                if pc >= len(code):
                    frames.pop()
                    continue
                stmt = stmts[code[pc]]
                try:
                    handlers[stmt.do](self, stmt, frame)
                except RulesError as exc:
                    if exc.at is None:
                        exc.at = stmt.at
                    raise
                except RecursionError:
                    raise RulesError("a definition calls itself without end", stmt.at) from None
                except TypeError as exc:
                    raise RulesError(f"a value is missing or of the wrong kind ({exc})",
                                     stmt.at) from None
            else:
                _FRAMES[kind](self, frame)
            if self._dirty:
                self._dirty = False
                self._check_outcomes()
            pending = self._pending()
            if pending is not None and len(pending["options"]) == 1:
                state.pending = None
                self._log("forced", pending["player"])
                self._resolve(pending, pending["options"][0])

    def _pending(self) -> dict[str, Any] | None:
        return self.state.pending

    def _out_of_steps(self) -> None:
        """End the game as out of steps, and raise the error that says where it looped."""
        info = self.state.info
        budget = info["budget"]
        at = None
        if info["steps"] - info.get("turn_began", 0) < budget // 2:
            message = (f"the game used its {budget} steps and reached turn {info['turn']} "
                       "with no winner: nothing in the rules moved the game to its end (or "
                       "the players never did)")
        else:
            for frame in reversed(self.state.frames):
                if frame["t"] in ("each", "while", "rp", "rep"):
                    at = self.program.stmts[frame["s"]].at
                    break
                if frame["t"] == "fl":
                    at = self.program.flows[frame["f"]].at
                    break
            message = (f"this rule ran {info['steps'] - info.get('turn_began', 0)} steps in "
                       "one turn without ending; it loops without end")
        self._finish([], "step budget", at)
        self.state.info["result"]["error"] = message
        raise StepBudgetExceeded(message, at)

    def _offer(self, kind: str, label: str | None, options: list[Any], at: str,
               **extra: Any) -> None:
        me = self.state.info["me"]
        pending = {"player": 0 if me is None else me, "kind": kind, "label": label or "",
                   "options": options, "at": at, **extra}
        found_about = found_by = False
        for frame in reversed(self.state.frames):
            if "about" in frame and not found_about:
                pending["about"], found_about = frame["about"], True
            if "by" in frame and not found_by:
                pending["player"], found_by = frame["by"], True
            if found_about and found_by:
                break
        if pending["player"] in self.state.info.get("automated", ()):
            raise RulesError(f"Player {pending['player'] + 1} is played by the rules and cannot "
                             f"decide '{pending['label']}': write that seat's part without "
                             "decisions (automated(p) tells the seats apart)", at)
        self.state.pending = pending

    def _resolve(self, pending: dict[str, Any], value: Any) -> None:
        frames = self.state.frames
        frame = frames[-1]
        kind = pending["kind"]
        if kind == "again":
            if value:
                frames.append(_block(self.program.stmts[frame["s"]].x["body"], frame["env"]))
            else:
                frames.pop()
            return
        if kind == "cards":
            if value is None:
                frames.pop()
                stmt = self.program.stmts[frame["s"]]
                frames.append(_block(stmt.x["body"], frame["env"], stmt.x["var"],
                                     frame["picked"]))
            else:
                frame["picked"].append(value)
            return
        if kind == "pay":
            _pay_item(self, frame, value)
            return
        stmt = self.program.stmts[self.program.blocks[frame["b"]][frame["pc"]]]
        frame["pc"] += 1
        x = stmt.x
        if kind == "may":
            if value:
                frames.append(_block(x["body"], frame["env"]))
        elif kind == "card":
            if value is not None:
                about = "player" if x["kind"] == "player" else "card"
                frames.append(_block(x["body"], frame["env"], x["var"], value, about))
        elif kind == "number":
            frames.append(_block(x["body"], frame["env"], x["var"], value))
        elif kind == "one":
            option = x["options"][value]
            if option["limit"]:
                self._use(f"{stmt.at}:{option['name']}", option["limit"])
            frames.append(_block(option["body"], frame["env"]))

    def _use(self, key: str, limit: dict[str, Any]) -> None:
        uses = self.state.info["uses"].setdefault(limit["per"], {})
        uses[key] = uses.get(key, 0) + 1

    def _allowed(self, key: str, limit: dict[str, Any] | None) -> bool:
        if not limit:
            return True
        used: int = self.state.info["uses"].get(limit["per"], {}).get(key, 0)
        return used < int(limit["count"])

    # --- ending ---------------------------------------------------------------------------

    def _check_outcomes(self) -> None:
        """Check, in file order, the outcomes that read something changed since last time:
        the others read what they read then, and did not hold."""
        changed = self._changed
        self._changed = set()
        reads = self.program.outcome_reads
        for index, outcome in enumerate(self.program.outcomes):
            if changed is not None and ANY not in reads[index] and changed.isdisjoint(
                    reads[index]):
                continue
            live = self.live_players()
            try:
                hit = [p for p in live if outcome.when(self, {outcome.var: p})]
            except RulesError as exc:  # an error in a condition points at its outcome
                if exc.at is None:
                    exc.at = outcome.at
                raise
            if not hit:
                continue
            if outcome.kind == "win":
                self._finish(hit, outcome.label, outcome.at)
                return
            self.state.info["out"].extend(hit)
            self._touch(OUT_TAG)
            if changed is not None:
                changed.add(OUT_TAG)
            self._log("out", hit, outcome.label)
            left = self.live_players()
            if (outcome.kind == "lose" and len(live) == 2) or len(left) <= 1:
                self._finish(left, outcome.label, outcome.at)
                return

    def _finish(self, winners: list[int], reason: str, at: str | None) -> None:
        self.state.info["result"] = {"winners": sorted(winners), "reason": reason, "at": at,
                                     "turn": self.state.info["turn"]}
        self.state.pending = None
        self._log("end", sorted(winners), reason)

    def _end_by_score(self, reason: str) -> None:
        score = self.program.score
        live = self.live_players()
        if score is None:
            self._finish([], f"{reason}, and the pack keeps no score: nobody wins", None)
            return
        var, value = score

        def key(p: int) -> list[int]:
            env = {var: p}
            return [value(self, env), *[t(self, env) for t in self.program.tiebreak]]
        highest = max(key(p) for p in live)
        self._finish([p for p in live if key(p) == highest], f"{reason}: highest score", None)

    def end_period(self, period: str) -> None:
        """End the innermost running period of this kind (turn, round, phase, ...) with the
        blocks inside it, or, for ``game``, the game, decided by the score."""
        if period == "game":
            self._end_by_score("the game was ended")
            return
        frames = self.state.frames
        target = None
        for i in range(len(frames) - 1, -1, -1):
            frame = frames[i]
            if frame["t"] == "fl" and self.program.flows[frame["f"]].kind == period:
                target = i
                break
        if target is None:
            raise RulesError(f"'end {period}' outside any {period}")
        remaining = frames[:target + 1]
        for frame in frames[target + 1:]:
            if frame["t"] == "fl" and frame["st"] < 2:
                frame["st"], frame["abort"] = 2, True
                remaining.append(frame)
        if remaining[target]["st"] < 2:
            remaining[target]["st"] = 2
        frames[:] = remaining

    def reset_period(self, period: str) -> None:
        """Counters and flags that last ``until`` this period go back to their start."""
        for name, start in self.program.resets.get(period, ()):
            values = self.state.counters[name] if start is not None else self.state.flags[name]
            if start is None:
                if True in values:
                    values[:] = [False] * len(values)
                    self._log("reset", name)
                    self._touch(flag_tag(name))
                else:
                    continue
            elif values.count(start) != len(values):
                values[:] = [start] * len(values)
                self._log("reset", name)
                self._touch(counter_tag(name))
            else:
                continue
            if name in self.program.symbol_marks:  # blocks placed for the period go
                self._view = None
                self._touch(CARDS)
        self.state.info["uses"].pop(period, None)  # limits: read by no define or outcome


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


def _slots(per: str, state: GameState) -> int:
    return {"player": state.players, "card": len(state.cards), "game": 1}[per]


def _block(body: int, env: Env, var: str | None = None, value: Any = None,
           about: str | None = None) -> dict[str, Any]:
    inner = dict(env)
    if var is not None:
        inner[var] = value
    frame = {"t": "b", "b": body, "pc": 0, "env": inner}
    if about is not None and value is not None:
        frame["about"] = [about, value]
    return frame


def default_decks(tables: Tables, players: int) -> list[str]:
    """Each player's deck when none is chosen: the playable decks in turn, in pack order."""
    if not any(z.get("deck") for z in (tables.raw.get("rules") or {}).get("zones", [])):
        return [tables.decks[0]["id"]] * players if tables.decks else []
    playable = playable_decks(tables)
    if not playable:
        raise StateError("no deck of this pack can be chosen to play")
    return [playable[i % len(playable)] for i in range(players)]


# --- statements ---------------------------------------------------------------------------

def _s_move(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    cards = as_list(x["what"](g, env))
    zone, player = x["to"](g, env)
    face = None if x["facing"] is None else x["facing"] == "up"
    top = None if x["position"] is None else x["position"] == "top"
    if x["position"] == "depth":  # the first card under N cards, the next one under it...
        depth = x["depth"](g, env)
        if type(depth) is not int or depth < 0:
            raise RulesError(f"a card cannot go under {depth!r} cards: a depth is a whole "
                             "number from 0 (the top)")
        for offset, card in enumerate(cards):
            g.move(card, zone, player, face_up=face, depth=depth + offset)
        return
    for card in cards:
        g.move(card, zone, player, top=top, face_up=face)


def _s_draw(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    count = x["count"](g, env) or 0
    src_zone, src_player = x["src"](g, env)
    zone, player = x["to"](g, env)
    face = None if x["facing"] is None else x["facing"] == "up"
    refill = g.program.zones[src_zone].get("refill")
    for _ in range(count):
        source = g.zone_cards(src_zone, src_player)
        if not source and refill:
            for card in list(g.zone_cards(refill, src_player)):
                g.move(card, src_zone, src_player, face_up=False)
            g.shuffle(src_zone, src_player)
            source = g.zone_cards(src_zone, src_player)
        if not source:
            break
        card = card_to_draw(g, src_zone, source)
        g.move(card, zone, player, face_up=face)
        g._fire("drawn", [card])


def _s_shuffle(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    zone, player = s.x["zone"](g, f["env"])
    g.shuffle(zone, player)


def _s_reveal(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    to = s.x["to"](g, f["env"]) if s.x["to"] else None
    for card in as_list(s.x["what"](g, f["env"])):
        g.reveal(card, to)


def _s_destroy(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    cards = [g.base(c) for c in as_list(x["what"](g, env))]
    to = x["to"](g, env) if x["to"] else (OUT, None)
    g.state.frames.append({"t": "destroy", "cards": cards, "to": list(to)})
    for card in reversed(cards):
        g._fire("destroyed", [card])


def _f_destroy(g: Game, f: dict[str, Any]) -> None:
    g.state.frames.pop()
    zone, player = f["to"]
    for card in f["cards"]:
        g._log("destroy", card)
        g.move(card, zone, player, face_up=True)


def _s_stack(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    onto = s.x["onto"](g, f["env"])
    for card in as_list(s.x["what"](g, f["env"])):
        if s.do == "stack":
            g.stack(card, onto)
        else:
            g.tuck(card, onto)


def _owner(g: Game, x: dict[str, Any], env: Env) -> Any:
    """Whose counter or flag a statement changes: None means the default owner."""
    if x["of"] is None:
        return None
    of = x["of"](g, env)
    if of is None:
        raise RulesError(f"'{x['name']}' of none: the card or player it belongs to is "
                         "missing here (an empty zone's top card?)")
    return of


def _s_gain(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    amount = x["amount"](g, env) or 0
    of = _owner(g, x, env)
    value = g.counter_value(x["name"], of)
    g.change_counter(x["name"], of, value + amount if s.do == "gain" else value - amount)


def _s_set(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    of = _owner(g, x, env)
    if x["kind"] == "flag":
        g.change_flag(x["name"], of, s.do == "set")
    elif s.do == "set":
        g.change_counter(x["name"], of, x["value"](g, env) if x["value"] else 1)
    else:
        g.change_counter(x["name"], of, g.program.counters[x["name"]]["start"])


def _s_let(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    value = s.x["value"](g, f["env"])
    f["env"][s.x["name"]] = list(value) if isinstance(value, list) else value


def _s_call(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    f["pc"] += 1
    action = g.program.actions[x["action"]]
    if action["limit"]:
        key = f"action:{x['action']}"
        if not g._allowed(key, action["limit"]):
            g._log("limit", x["action"])
            return
        g._use(key, action["limit"])
    args = [a(g, env) for a in x["args"]]
    g.state.frames.append({"t": "b", "b": action["body"], "pc": 0,
                           "env": dict(zip(action["params"], args, strict=True))})


def _s_end(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    g.end_period(s.x["period"])


def _s_fail(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    raise RulesError(s.x["message"], s.at)


def _s_log(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    g._log("say", s.x["message"])


def _s_if(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    env = f["env"]
    f["pc"] += 1
    for cond, then in s.x["branches"]:
        if cond(g, env):
            g.state.frames.append(_block(then, env))
            return
    if s.x["otherwise"] is not None:
        g.state.frames.append(_block(s.x["otherwise"], env))


def _stmt_id(g: Game, f: dict[str, Any]) -> int:
    return int(g.program.blocks[f["b"]][f["pc"]])


def _s_for_each(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    sid = _stmt_id(g, f)
    f["pc"] += 1
    items = as_list(s.x["items"](g, f["env"]))
    if items:
        g.state.frames.append({"t": "each", "s": sid, "items": items, "i": 0,
                               "env": dict(f["env"])})


def _f_each(g: Game, f: dict[str, Any]) -> None:
    x = g.program.stmts[f["s"]].x
    items = f["items"]
    while f["i"] < len(items):
        item = items[f["i"]]
        f["i"] += 1
        if x["where"] is not None:
            env = dict(f["env"])
            env[x["var"]] = item
            if not x["where"](g, env):
                continue
        g.state.frames.append(_block(x["body"], f["env"], x["var"], item, x["about"]))
        return
    g.state.frames.remove(f)


def _s_repeat(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    sid = _stmt_id(g, f)
    f["pc"] += 1
    times = s.x["times"](g, f["env"]) or 0
    if times > 0:
        g.state.frames.append({"t": "rep", "s": sid, "left": times, "env": dict(f["env"])})


def _f_repeat(g: Game, f: dict[str, Any]) -> None:
    if f["left"] <= 0:
        g.state.frames.pop()
        return
    f["left"] -= 1
    g.state.frames.append(_block(g.program.stmts[f["s"]].x["body"], f["env"]))


def _s_repeat_while(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    sid = _stmt_id(g, f)
    f["pc"] += 1
    g.state.frames.append({"t": "while", "s": sid, "env": dict(f["env"])})


def _f_while(g: Game, f: dict[str, Any]) -> None:
    x = g.program.stmts[f["s"]].x
    if x["cond"](g, f["env"]):
        g.state.frames.append(_block(x["body"], f["env"]))
    else:
        g.state.frames.pop()


def _s_repeat_until_pass(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    sid = _stmt_id(g, f)
    f["pc"] += 1
    g.state.frames.append({"t": "rp", "s": sid, "env": dict(f["env"])})


def _f_until_pass(g: Game, f: dict[str, Any]) -> None:
    stmt = g.program.stmts[f["s"]]
    cond = stmt.x["cond"]
    if cond is not None and not cond(g, f["env"]):
        g.state.frames.pop()
        return
    g._offer("again", stmt.x["label"], [True, False], stmt.at)


def _s_as(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    f["pc"] += 1
    player = s.x["player"](g, f["env"])
    if player is None:
        raise RulesError("'as' names no player (none)")
    frame = _block(s.x["body"], f["env"])
    frame["by"] = player
    g.state.frames.append(frame)


def _s_may(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    g._offer("may", s.x["label"], [True, False], s.at)


def _candidates(g: Game, x: dict[str, Any], env: Env, exclude: Sequence[Any] = ()) -> list[Any]:
    items = as_list(x["items"](g, env))
    where, var = x["where"], x["var"]
    if where is None:
        return [i for i in items if i not in exclude]
    inner = dict(env)
    out = []
    for item in items:
        if item in exclude:
            continue
        inner[var] = item
        if where(g, inner):
            out.append(item)
    return out


def _s_choose(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    if x["kind"] == "cards":
        sid = _stmt_id(g, f)
        f["pc"] += 1
        g.state.frames.append({"t": "pick", "s": sid, "picked": [], "env": dict(env)})
        return
    options = _candidates(g, x, env)
    if x["kind"] == "random":
        f["pc"] += 1
        if options:
            pick = options[g.state.rng.below(len(options))]
            g._log("random", x["var"], pick)
            g.state.frames.append(_block(x["body"], env, x["var"], pick))
        return
    if x["optional"]:
        options.append(None)
    if not options:
        f["pc"] += 1
        return
    g._offer("card", x["label"], options, s.at, choose=x["kind"])


def _count_bounds(g: Game, x: dict[str, Any], env: Env) -> tuple[int, int | None]:
    if x["count"] is None:
        return 0, None
    kind, n = x["count"][0], x["count"][1](g, env)
    if kind == "up to":
        return 0, n
    if kind == "at least":
        return n, None
    return n, n


def _f_pick(g: Game, f: dict[str, Any]) -> None:
    stmt = g.program.stmts[f["s"]]
    x = stmt.x
    low, high = _count_bounds(g, x, f["env"])
    picked = f["picked"]
    options: list[Any] = [] if high is not None and len(picked) >= high else _candidates(
        g, x, f["env"], picked)
    if len(picked) >= low or not options:
        options.append(None)
    g._offer("cards", x["label"], options, stmt.at, choose="cards", picked=len(picked))


def _s_choose_number(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    x, env = s.x, f["env"]
    low, high = x["low"](g, env), x["high"](g, env)
    if low is not None and high is not None and high - low + 1 > MAX_NUMBER_CHOICES:
        raise RulesError(f"a number choice from {_short(low)} to {_short(high)} offers more "
                         f"than {MAX_NUMBER_CHOICES:,} numbers; bound it more tightly", s.at)
    numbers = list(range(low, high + 1)) if low is not None and high is not None else []
    if x["where"] is not None:
        inner = dict(env)
        allowed = []
        for n in numbers:
            inner[x["var"]] = n
            if x["where"](g, inner):
                allowed.append(n)
        numbers = allowed
    if not numbers:
        f["pc"] += 1
        return
    g._offer("number", x["label"], numbers, s.at)


def _s_choose_one(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    env = f["env"]
    options = [i for i, o in enumerate(s.x["options"])
               if (o["when"] is None or o["when"](g, env))
               and g._allowed(f"{s.at}:{o['name']}", o["limit"])]
    if not options:
        f["pc"] += 1
        return
    g._offer("one", s.x["label"], options, s.at)


def _s_pay(g: Game, s: Stmt, f: dict[str, Any]) -> None:
    sid = _stmt_id(g, f)
    f["pc"] += 1
    amount = s.x["amount"](g, f["env"]) or 0
    if amount <= 0:
        return
    frame = {"t": "pay", "s": sid, "due": amount, "env": dict(f["env"])}
    available = sum(worth for _, worth in _pay_items(g, frame, group=False))
    if available < amount:
        raise RulesError(f"cannot pay {amount}: only {available} can be paid from the "
                         "sources; check that the amount can be met before paying")
    g.state.frames.append(frame)


def _pay_items(g: Game, frame: dict[str, Any], *, group: bool) -> list[tuple[list[Any], int]]:
    stmt = g.program.stmts[frame["s"]]
    env = frame["env"]
    items: list[tuple[list[Any], int]] = []
    seen: set[tuple[Any, ...]] = set()
    for index, source in enumerate(stmt.x["sources"]):
        if source[0] == "zone":
            zone, player = source[1](g, env)
            valued = source[2]
            for card in g.zone_cards(zone, player):
                worth = g.program.defines[valued](g, card) if valued else 1
                if not worth or worth <= 0:
                    continue
                face = g.rows[card]["id"] if g.state.cards[card]["face_up"] else None
                key = (index, worth, face)
                if group and key in seen:
                    continue
                seen.add(key)
                items.append((["card", index, card], worth))
        else:
            of = source[2](g, env) if source[2] else None
            value = g.counter_value(source[1], of)
            if value > 0:
                if group:
                    items.append((["counter", index, of], 1))
                else:
                    items.extend((["counter", index, of], 1) for _ in range(value))
    return items


def _f_pay(g: Game, f: dict[str, Any]) -> None:
    stmt = g.program.stmts[f["s"]]
    if f["due"] > 0:
        items = _pay_items(g, f, group=True)
        if not items:
            raise RulesError(f"nothing left to pay the last {f['due']} with", stmt.at)
        g._offer("pay", f"Pay {f['due']} more", [item for item, _ in items], stmt.at,
                 due=f["due"])
        return
    g.state.frames.pop()
    change = stmt.x["change"]
    if change is not None and f["due"] < 0:
        name, of_expr = change
        of = of_expr(g, f["env"]) if of_expr else None
        g.change_counter(name, of, g.counter_value(name, of) - f["due"])


def _pay_item(g: Game, f: dict[str, Any], item: list[Any]) -> None:
    stmt = g.program.stmts[f["s"]]
    source = stmt.x["sources"][item[1]]
    if item[0] == "card":
        card = item[2]
        worth = g.program.defines[source[2]](g, card) if source[2] else 1
        zone, player = source[1](g, f["env"])
        spent = g.program.zones[zone].get("spent")
        if spent:
            g.move(card, spent, player if g.program.zones[spent]["per"] == "player" else None,
                   face_up=True)
        else:
            g.move(card, OUT, None, face_up=True)
        f["due"] -= worth
    else:
        of = item[2]
        g.change_counter(source[1], of, g.counter_value(source[1], of) - 1)
        f["due"] -= 1


_HANDLERS = {
    "move": _s_move, "draw": _s_draw, "shuffle": _s_shuffle, "reveal": _s_reveal,
    "destroy": _s_destroy, "stack": _s_stack, "tuck": _s_stack, "gain": _s_gain,
    "spend": _s_gain, "set": _s_set, "clear": _s_set, "pay": _s_pay, "let": _s_let,
    "call": _s_call, "end": _s_end, "fail": _s_fail, "log": _s_log, "if": _s_if,
    "for_each": _s_for_each, "repeat": _s_repeat, "repeat_while": _s_repeat_while,
    "repeat_until_pass": _s_repeat_until_pass, "may": _s_may, "as": _s_as,
    "choose": _s_choose,
    "choose_number": _s_choose_number, "choose_one": _s_choose_one,
}


# --- flows --------------------------------------------------------------------------------

def _f_root(g: Game, f: dict[str, Any]) -> None:
    tops = g.program.top_flows
    if f["i"] >= len(tops):
        g.state.frames.pop()
        return
    flow = g.program.flows[tops[f["i"]]]
    f["i"] += 1
    g.state.frames.append(_flow_frame(g, flow, None))


def _flow_frame(g: Game, flow: Flow, player: int | None) -> dict[str, Any]:
    return {"t": "fl", "f": flow.id, "st": 0, "i": 0, "p": player, "order": None, "oi": 0}


def _f_flow(g: Game, f: dict[str, Any]) -> None:
    """Move a flow block through its stages: enter, statements or parts, leave, finish.

    Stages that push nothing run on in the same call, so a phase without hooks costs one
    step of the budget, not four.
    """
    flow = g.program.flows[f["f"]]
    info = g.state.info
    frames = g.state.frames
    while True:
        stage = f["st"]
        pushed = len(frames)
        if stage == 0:
            if flow.name in g.pause_at and not f.get("held"):
                f["held"] = True
                g.paused = flow.name
                return
            f["st"] = 1
            if flow.kind == "round":
                info["round"] += 1
                g._touch_all()
                g._log("round", info["round"])
                order = flow.order(g, {}) if flow.order is not None else g.live_players()
                f["order"] = as_list(order)
            elif flow.kind == "turn":
                if f["p"] is None:
                    f["p"], f["free"] = g.live_players()[0], True
                g._touch_all()
                info["me"] = f["p"]
                info["turn"] += 1
                info["turn_began"] = info["steps"]
                g._log("turn", info["turn"], f["p"])
                if flow.start is not None:
                    frames.append(_block(flow.start, {}))
                g._fire("turn_start", [f["p"]])
            elif flow.kind in ("phase", "step"):
                info["phase"] = flow.name
                g._log(flow.kind, flow.name)
            if flow.start is not None and flow.kind != "turn":
                frames.append(_block(flow.start, {}))
        elif stage == 1:
            if flow.body is not None and not f.get("bd"):
                f["bd"] = True
                frames.append(_block(flow.body, {}))
                return
            children = flow.children
            while f["i"] < len(children):
                child = g.program.flows[children[f["i"]]]
                if child.kind == "turn" and flow.kind == "round":
                    order = [p for p in f["order"] if p not in info["out"]]
                    if f["oi"] < len(order):
                        f["oi"] += 1
                        frames.append(_flow_frame(g, child, order[f["oi"] - 1]))
                        return
                    f["oi"] = 0
                    f["i"] += 1
                    continue
                f["i"] += 1
                frames.append(_flow_frame(g, child, None))
                return
            f["st"] = 2
        elif stage == 2:
            f["st"] = 3
            if flow.end is not None:
                frames.append(_block(flow.end, {}))
            if flow.kind == "turn":
                g._fire("turn_end", [f["p"]])
        else:
            frames.pop()
            if flow.kind in ("turn", "round", "phase", "era", "game"):
                g.reset_period(flow.kind)
            if flow.kind == "turn":
                info["phase"] = None
            repeats = flow.kind == "round" or (flow.kind == "turn" and f.get("free"))
            if repeats and not f.get("abort"):
                again = _flow_frame(g, flow, None)
                if flow.kind == "turn":
                    live = g.live_players()
                    later = [p for p in live if p > f["p"]]
                    again.update(p=(later or live)[0], free=True)
                frames.append(again)
            return
        if len(frames) != pushed or g.state.pending is not None:
            return


def _flow_path(program: Program, name: str) -> tuple[int, list[tuple[int, int]]] | None:
    """Where a named flow block sits: its top-level index and (flow, child index) pairs."""
    def search(flow_id: int) -> list[tuple[int, int]] | None:
        flow = program.flows[flow_id]
        if flow.name == name:
            return [(flow_id, -1)]
        for index, child in enumerate(flow.children):
            found = search(child)
            if found is not None:
                return [(flow_id, index), *found]
        return None
    for top_index, flow_id in enumerate(program.top_flows):
        found = search(flow_id)
        if found is not None:
            return top_index, found
    return None


_FRAMES = {"root": _f_root, "fl": _f_flow, "each": _f_each, "rep": _f_repeat,
           "while": _f_while, "rp": _f_until_pass, "pick": _f_pick, "pay": _f_pay,
           "destroy": _f_destroy}
