"""A PettingZoo environment for any pack: the engine as reinforcement-learning people use it.

``DeckloreEnv(tables)`` is an AEC (agent-environment cycle) environment: agents are the
seats, named ``player_1``, ``player_2``...; the seat to act is ``agent_selection``; an action
is the index of a legal answer, and the observation carries an ``action_mask`` of the legal
ones.  The numeric observation is built from the tables alone, so every pack gets one:

- for every zone (each space of a zone of spaces) and each seat's part of it: how many
  cards lie there and how many face up, and, where that seat may look (public zones, its
  own part of an ``owner`` zone), how many of each card of the pack it sees there, over a
  fixed vocabulary of every card id;
- every per-player counter and flag, every seat's symbol totals and whether it is out;
  the game's own counters and flags;
- the turn and round, the phase, whose decision it is, and which question of the rules
  is being asked (one slot per decision statement).

Seats come in turn order starting with the observer, so the first block is always "me".
Rewards are the game's returns (1 for a winner, -1 for a loser) when it ends, or when a
seat goes out; a game that runs out of steps, or stops on an error in the pack's rules, is
truncated (the error is in every seat's ``infos``).  ``render()`` gives the text
view a player at the table would read.

This module is an optional extra (``pip install decklore[rl]``): it sits beside the runtime,
which imports only the standard library, and nothing in decklore imports it.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from decklore.runtime.describe import card_phrase, player_name, visible
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import DEFAULT_BUDGET, Game
from decklore.runtime.simulate import deal_decks
from decklore.runtime.state import automated_seats
from decklore.runtime.tables import Tables

DECISIONS = frozenset({"may", "choose", "choose_number", "choose_one", "pay",
                       "repeat_until_pass"})
"""The statements that ask a player something: one observation slot each."""

LIMIT = 1e6
"""The observation's bounds: counts and counters of real games stay far inside them."""


class Encoder:
    """Turns a game into one seat's numeric observation, by a layout read from the tables."""

    def __init__(self, game: Game, seats: int) -> None:
        program = game.program
        self.seats = seats
        self.vocabulary = {card.id: i for i, card in enumerate(program.tables.cards)}
        self.zones = list(program.zones.items())
        self.player_counters = [n for n, s in program.counters.items() if s["per"] == "player"]
        self.game_counters = [n for n, s in program.counters.items() if s["per"] == "game"]
        self.player_flags = [n for n, s in program.flags.items() if s["per"] == "player"]
        self.game_flags = [n for n, s in program.flags.items() if s["per"] == "game"]
        self.symbols = list(program.symbol_ids)
        self.phases = {name: i for i, name in enumerate(
            sorted({flow.name for flow in program.flows}))}
        self.questions = {at: i for i, at in enumerate(sorted(
            {s.at for s in program.stmts if s.do in DECISIONS}))}
        size = 0
        for _, spec in self.zones:
            parts = seats if spec["per"] == "player" else 1
            size += parts * 2
            if spec["visibility"] == "public":
                size += parts * len(self.vocabulary)
            elif spec["visibility"] == "owner":
                size += len(self.vocabulary)  # the observer's own part
        size += seats * (len(self.player_counters) + len(self.player_flags)
                         + len(self.symbols) + 2)
        size += len(self.game_counters) + len(self.game_flags)
        size += 2 + len(self.phases) + seats + len(self.questions) + 1
        self.size = size

    def encode(self, game: Game, viewer: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        state = game.state
        out = np.zeros(self.size, dtype=np.float32)
        order = [(viewer + k) % self.seats for k in range(self.seats)]
        words = len(self.vocabulary)
        at = 0
        for name, spec in self.zones:
            parts: list[int | None] = list(order) if spec["per"] == "player" else [None]
            seen_parts = (parts if spec["visibility"] == "public" else
                          [viewer] if spec["visibility"] == "owner" else [])
            for part in parts:
                cards = state.zones[name][0 if part is None else part]
                out[at] = len(cards)
                out[at + 1] = sum(1 for c in cards if state.cards[c]["face_up"])
                at += 2
            for part in seen_parts:
                cards = state.zones[name][0 if part is None else part]
                for card in cards:
                    if visible(game, card, viewer):
                        out[at + self.vocabulary[state.cards[card]["card"]]] += 1
                at += words
        view = game.symbol_view()
        out_seats = state.info["out"]
        for p in order:
            for counter in self.player_counters:
                out[at] = state.counters[counter][p]
                at += 1
            for flag in self.player_flags:
                out[at] = bool(state.flags[flag][p])
                at += 1
            for symbol in self.symbols:
                out[at] = view.total(symbol, p)
                at += 1
            out[at] = p in out_seats
            out[at + 1] = p in state.info.get("automated", ())
            at += 2
        for counter in self.game_counters:
            out[at] = state.counters[counter][0]
            at += 1
        for flag in self.game_flags:
            out[at] = bool(state.flags[flag][0])
            at += 1
        out[at], out[at + 1] = state.info["turn"], state.info["round"]
        at += 2
        phase = self.phases.get(state.info["phase"] or "")
        if phase is not None:
            out[at + phase] = 1
        at += len(self.phases)
        pending = state.pending
        if pending is not None:
            out[at + order.index(pending["player"])] = 1
        at += self.seats
        if pending is not None and pending["player"] == viewer:
            question = self.questions.get(pending["at"])
            if question is not None:
                out[at + question] = 1
        at += len(self.questions)
        out[at] = 1  # always on: no observation is all zeros
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out


def text_view(game: Game, viewer: int | None) -> str:
    """What a player at the table reads: each seat's counters and visible cards, the
    shared zones, and the question with its answers (for the seat that must decide)."""
    obs = game.observation(viewer)
    program = game.program
    lines = [f"Turn {obs['turn']}, {player_name(obs['current'] - 1) if obs['current'] else ''}"
             .rstrip(", ")]
    for p in obs["players"]:
        seat = p["seat"] - 1
        counters = ", ".join(f"{program.counters[n]['label']} {v}"
                             for n, v in p["counters"].items() if v)
        lines.append(f"{player_name(seat)}{' (you)' if seat == viewer else ''}: "
                     f"{counters or 'no tokens'}")
        for name, spec in program.zones.items():
            if spec["per"] == "player":
                cards = game.zone_cards(name, seat)
                if cards:
                    lines.append(f"  {spec['label']}: {_cards(game, cards, viewer)}")
    for name, spec in program.zones.items():
        if spec["per"] != "player":
            cards = game.zone_cards(name, None)
            if cards:
                lines.append(f"{spec['label']}: {_cards(game, cards, viewer)}")
    if game.terminal:
        result = game.result or {}
        winners = ", ".join(player_name(w) for w in result.get("winners", [])) or "Nobody"
        lines.append(f"Game over: {winners} won ({result.get('reason', '')})")
    elif obs["decision"] is not None:
        decision = obs["decision"]
        lines.append(f"{player_name(decision['player'] - 1)} decides: {decision['label']}")
        for index, text in enumerate(decision.get("actions", [])):
            lines.append(f"  {index}: {text}")
    return "\n".join(lines)


def _cards(game: Game, cards: list[int], viewer: int | None) -> str:
    hidden = sum(1 for c in cards if not visible(game, c, viewer))
    names = [card_phrase(game, c, viewer).rsplit(" (", 1)[0] for c in cards
             if visible(game, c, viewer)]
    if hidden:
        names.append(f"{hidden} face down")
    return ", ".join(names)


class DeckloreEnv(AECEnv[str, dict[str, Any], int]):
    """Any pack's game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "decklore_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, tables: Tables, players: int | None = None, *,
                 decks: list[str] | None = None, budget: int = DEFAULT_BUDGET,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.tables = tables
        self.players = players or int(tables.pack["players"]["min"])
        self.seats = self.players + automated_seats(tables, self.players)
        self.decks = decks
        self.budget = budget
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat + 1}" for seat in range(self.players)]
        self._seed = 0
        self.game = self._new_game(0)
        self.encoder = Encoder(self.game, self.seats)
        self.max_actions = len(self.game.state.cards) + 16
        """Answers beyond this many (never met in the bundled packs) are left out."""
        observation = spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.max_actions,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": observation,
                                                   "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.max_actions)
                              for a in self.possible_agents}

    def _new_game(self, seed: int) -> Game:
        decks = self.decks or deal_decks(self.tables, self.seats, seed) or None
        return Game.new(self.tables, self.players, seed, decks, budget=self.budget)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: of ``seed`` when given, else of the seed after the last one."""
        self._seed = self._seed + 1 if seed is None else int(seed)
        self.game = self._new_game(self._seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._gone: set[int] = set()
        self._settle()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if self.game.current_player() == seat:
            mask[:min(self.game.option_count(), self.max_actions)] = 1
        return {"observation": self.encoder.encode(self.game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must answer: give the index of a legal action")
        index = int(action)
        if not 0 <= index < min(self.game.option_count(), self.max_actions):
            raise ValueError(f"action {index} is not legal now: the action mask shows the "
                             f"{self.game.option_count()} legal ones")
        self._cumulative_rewards[agent] = 0.0
        truncated = False
        try:
            self.game.apply(index)
        except RulesError as exc:  # out of steps, or a mistake in the pack's rules
            truncated = True
            for name in self.agents:
                self.infos[name] = {"error": str(exc)}
        self._settle(truncated=truncated)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _settle(self, *, truncated: bool = False) -> None:
        """Rewards and endings after a change, and the next agent to act."""
        game = self.game
        for agent in self.agents:
            self.rewards[agent] = 0.0
        if truncated or game.terminal:
            returns = game.returns()
            for agent in self.agents:
                if not self.terminations[agent] and not self.truncations[agent]:
                    if truncated:
                        self.truncations[agent] = True
                    else:
                        self.terminations[agent] = True
                        self.rewards[agent] = returns[self.possible_agents.index(agent)]
            self.agent_selection = self.agents[0]
            return
        for seat in game.state.info["out"]:
            if seat < self.players and seat not in self._gone:
                self._gone.add(seat)
                agent = self.possible_agents[seat]
                self.terminations[agent] = True
                self.rewards[agent] = -1.0
        player = game.current_player()
        assert player is not None
        self.agent_selection = self.possible_agents[player]
        self._deads_step_first()

    def render(self) -> str | None:
        """The text view of the seat to act (or of every seat's public view once over)."""
        seat = None if self.game.terminal else self.game.current_player()
        text = text_view(self.game, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


def env(tables: Tables, players: int | None = None, **options: Any) -> DeckloreEnv:
    """The environment, as PettingZoo's ``env()`` convention names it."""
    return DeckloreEnv(tables, players, **options)
