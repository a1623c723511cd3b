"""Players that are not people: random, greedy, and scripted.

An agent answers ``choose(game) -> index`` for the pending decision.  None of them knows a
game: the greedy agent's taste comes from the pack's ``ai`` weights (on counters, symbols
and cards in zones), so a designer tunes it in ``pack.yaml`` without code.  Agents draw
their randomness from their own seeded generator, never from the game's, so adding an
agent's look-ahead never changes what the game deals.

Agents decide from what their seat may know.  The greedy agent looks ahead, but only on a
determinized copy of the game (``determinize``): the cards its seat cannot see are re-dealt
at random from the cards they could be, and the game's generator is re-seeded, so its
look-ahead never reads a hidden card or the true next draw.  ``decklore.runtime.mcts``
holds the search agent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from decklore.runtime.determinize import Knowledge, determinize
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.rng import Rng


class Agent(Protocol):
    name: str

    def choose(self, game: Game) -> int: ...


class RandomAgent:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, game: Game) -> int:
        return self.rng.below(game.option_count())


class ScriptedAgent:
    """Plays a list of choices in order: action numbers, or text found in a description."""

    name = "scripted"

    def __init__(self, choices: Sequence[int | str]) -> None:
        self.choices = list(choices)
        self.position = 0

    def choose(self, game: Game) -> int:
        if self.position >= len(self.choices):
            raise LookupError(f"the script ran out after {self.position} choices")
        want = self.choices[self.position]
        self.position += 1
        if isinstance(want, int):
            return want
        actions = game.legal_actions()
        found = [a.index for a in actions if want.lower() in a.description.lower()]
        if len(found) != 1:
            offered = "; ".join(a.description for a in actions)
            raise LookupError(f"choice {self.position} '{want}' matches {len(found)} actions "
                              f"(offered: {offered})")
        return found[0]


@dataclass
class Weights:
    """How much the greedy agent values each counter, symbol, card in a zone, and define."""

    counters: dict[str, float] = field(default_factory=dict)
    symbols: dict[str, float] = field(default_factory=dict)
    zones: dict[str, float] = field(default_factory=dict)
    opponents: float = 1.0
    defines: dict[str, float] = field(default_factory=dict)
    _plans: dict[int, tuple[Any, Plan]] = field(default_factory=dict, repr=False,
                                                compare=False)
    """The weights laid out for each program they were used with (``plan``)."""

    @classmethod
    def from_tables(cls, raw: Mapping[str, Any]) -> Weights:
        ai = raw.get("ai") or {}
        weights = ai.get("weights") or {}
        return cls(dict(weights.get("counters") or {}), dict(weights.get("symbols") or {}),
                   dict(weights.get("zones") or {}), weights.get("opponents", 100) / 100,
                   dict(weights.get("defines") or {}))

    def __getstate__(self) -> dict[str, Any]:
        """Copied or pickled without the laid-out plans: they hold a program, and are
        laid out again at the first use."""
        state = dict(self.__dict__)
        state["_plans"] = {}
        return state

    def plan(self, game: Game) -> Plan:
        """The weights laid out for ``game``'s program: each zone's stored parts and each
        define's function found once, not at every position a search judges."""
        program = game.program
        found = self._plans.get(id(program))
        if found is None or found[0] is not program:
            spaced = program.spaced
            laid = Plan(list(self.counters.items()), list(self.symbols.items()),
                        [(tuple(spaced.get(zone, (zone,))), w)
                         for zone, w in self.zones.items()],
                        [(program.defines[name], w) for name, w in self.defines.items()])
            found = self._plans[id(program)] = (program, laid)
        plan: Plan = found[1]
        return plan


@dataclass(frozen=True, slots=True)
class Plan:
    """A program's weights as lists: counters, symbols, zones (their stored parts) and
    define functions, each with its weight, in the pack's order."""

    counters: list[tuple[str, float]]
    symbols: list[tuple[str, float]]
    zones: list[tuple[tuple[str, ...], float]]
    defines: list[tuple[Any, float]]


WIN = 1e9


def worths(game: Game, weights: Weights) -> list[float]:
    """What the weights make of each seat's position, seat by seat (``evaluate`` takes
    one seat's less its opponents')."""
    plan = weights.plan(game)
    view = game.symbol_view() if plan.symbols else None
    state = game.state
    players = state.players
    counters, zones = state.counters, state.zones
    out = []
    for p in range(players):
        # the terms in the same order as always: a float sum depends on its order, and
        # the greedy agent's ties with it
        total = 0.0
        for name, w in plan.counters:
            values = counters.get(name)
            if values is not None and len(values) == players:
                total += w * values[p]
        if view is not None:
            for symbol, w in plan.symbols:
                total += w * view.total(symbol, p)
        for parts, w in plan.zones:
            for part in parts:
                per = zones.get(part)
                if per is not None and len(per) == players:
                    total += w * len(per[p])
        for define, w in plan.defines:
            total += w * (define(game, p) or 0)
        out.append(total)
    return out


def _judged(game: Game, player: int, weights: Weights, worth: list[float]) -> float:
    result = game.result
    if result is not None:
        if player in result["winners"]:
            return WIN
        return -WIN if result["winners"] else 0.0
    others = [worth[p] for p in range(len(worth)) if p != player]
    if not others:
        return worth[player]
    return worth[player] - weights.opponents * sum(others) / len(others)


def evaluate(game: Game, player: int, weights: Weights) -> float:
    """How good the position looks for ``player``: their score less their opponents'."""
    if game.result is not None:
        return _judged(game, player, weights, [])
    return _judged(game, player, weights, worths(game, weights))


def evaluate_all(game: Game, weights: Weights) -> list[float]:
    """``evaluate`` for every seat, each seat's worth worked out once."""
    worth = [] if game.result is not None else worths(game, weights)
    return [_judged(game, p, weights, worth) for p in range(game.state.players)]


NO_OP = -WIN / 2
"""What the greedy agent makes of an answer that leads back to a question it has already
answered since the game last changed: taking it again could go round for ever."""

QUIET = frozenset({"decide", "forced", "say"})
"""Log events that change nothing in the game: answers and lines of text."""


def _last_change(game: Game) -> int:
    """The position in the log of the last event that changed the game."""
    log = game.state.log
    at = len(log) - 1
    while at >= 0 and log[at][0] in QUIET:
        at -= 1
    return at


def _question(game: Game) -> str | None:
    pending = game.state.pending
    if pending is None:
        return None
    return f"{pending['player']}|{pending['label']}|{pending['options']!r}"


class GreedyAgent:
    """Takes the action whose result the pack's weights like best.

    It looks one decision ahead, and on through the player's own next decisions while an
    answer changes nothing but the question (up to ``depth`` decisions and ``trials``
    positions in all): "play a card" is worth what the best card to play is worth, not the
    unchanged position of the question that follows it.  Ties (most decisions change
    nothing the weights see) go to a seeded random pick among the best, so the agent still
    explores.  It looks ahead on one determinization per decision, drawn with its own
    generator: what its seat cannot see never changes what it chooses.
    """

    name = "greedy"

    def __init__(self, seed: int, weights: Weights, *, depth: int = 3,
                 trials: int = 90) -> None:
        self.rng = Rng(seed)
        self.weights = weights
        self.depth = depth
        self.trials = trials
        self._mark = -1
        self._asked: set[str] = set()
        self._knowledge: dict[int, Knowledge] = {}

    def choose(self, game: Game) -> int:
        count = game.option_count()
        if count == 1:
            return 0
        player = game.current_player()
        assert player is not None
        self._left = self.trials
        mark = _last_change(game)
        if mark != self._mark:
            self._mark, self._asked = mark, set()
        question = _question(game)
        assert question is not None
        self._asked.add(question)
        world = determinize(game, player, self.rng, self.knowledge(game, player))
        evaluate(world, player, self.weights)  # remembered by every trial it still holds for
        top_indices: list[int] = []
        top = float("-inf")
        for index in range(count):
            score = self._value(world, mark, index, player, self.depth)
            if score > top:
                top, top_indices = score, [index]
            elif score == top:
                top_indices.append(index)
        return (top_indices[self.rng.below(len(top_indices))] if len(top_indices) > 1
                else top_indices[0])

    def knowledge(self, game: Game, player: int) -> Knowledge:
        """What this agent's seat has followed of ``game`` so far, brought up to date."""
        known = self._knowledge.get(player)
        if known is None:
            known = self._knowledge[player] = Knowledge(game, player)
        else:
            known.update(game)
        return known

    def _value(self, game: Game, mark: int, index: int, player: int, depth: int) -> float:
        """What answer ``index`` is worth; ``mark`` is the game's last change before it."""
        trial = game.clone()
        self._left -= 1
        try:
            trial.apply(index)
        except RulesError:
            # Only what this seat sees is sure in an imagined game: a re-dealt hidden card
            # can make an answer break the rules there. That world rules the answer out.
            return float("-inf")
        changed = _last_change(trial)
        if not trial.terminal and changed == self._mark and _question(trial) in self._asked:
            return NO_OP
        here = evaluate(trial, player, self.weights)
        if (depth <= 1 or trial.terminal or trial.current_player() != player
                or changed != mark or self._left < trial.option_count()):
            return here  # the answer changed the game (or it is someone else's turn)
        return max(self._value(trial, mark, i, player, depth - 1)
                   for i in range(trial.option_count()))


AGENT_NAMES = ("random", "greedy", "mcts")


def make_agent(name: str, seed: int, raw_tables: Mapping[str, Any]) -> Agent:
    """An agent by name, seeded: ``random``, ``greedy`` (the pack's weights), or ``mcts``
    with optional settings after a colon (``mcts:iters=400:depth=20``)."""
    kind, _, settings = name.partition(":")
    if kind == "mcts":
        from decklore.runtime.mcts import make_mcts  # it builds on this module

        return make_mcts(seed, raw_tables, settings)
    if settings:
        raise ValueError(f"agent '{kind}' takes no settings (only mcts does)")
    if kind == "random":
        return RandomAgent(seed)
    if kind == "greedy":
        return GreedyAgent(seed, Weights.from_tables(raw_tables))
    raise ValueError(f"no agent '{name}'; agents: {', '.join(AGENT_NAMES)} "
                     "(and 'human' in decklore play)")


def check_agent(name: str) -> str | None:
    """Why ``name`` is no agent (a message for the command line), or None when it is one."""
    kind, _, settings = name.partition(":")
    if kind not in AGENT_NAMES:
        return f"no agent '{name}'; agents: {', '.join(AGENT_NAMES)}"
    if kind == "mcts":
        from decklore.runtime.mcts import Settings

        try:
            Settings.parse(settings)
        except ValueError as exc:
            return str(exc)
    elif settings:
        return f"agent '{kind}' takes no settings (only mcts does)"
    return None
