"""A search agent for any pack: information-set Monte Carlo tree search with determinization.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), written for this engine:
every iteration draws a determinization of the game for the searching seat (hidden cards
re-dealt, generator re-seeded: ``determinize``), walks one shared tree of decisions down it,
adds one decision, plays on for a few decisions, and backs the outcome up.  The tree is
keyed by what the decisions are (who decides, the question, the answer's value) rather
than by position in a list, so an answer means the same thing in every determinization;
an answer counts as available only in the iterations where it was legal, and UCB weighs
it by those (the "availability" count), which keeps answers that are rarely possible from
looking better explored than they are.

Nearly all of an iteration's time is the engine running the rules, so the settings are
about spending few rule steps well (each was measured in ERA, docs/engine.md):

- playouts are short (``depth`` 4) and, by default, greedy: each playout decision is the
  answer whose next position the deciding seat's ``ai`` weights like best (``greedy``, the
  chance of that rather than a random answer), since random answers make both seats
  look worse than they play;
- a playout's end is judged by the weights, as what each seat gained since the iteration's
  starting world (``gain``), squashed into -1..1; a game that ends gives its true
  returns;
- UCB reads the means of a decision's answers stretched to 0..1 across them (``spread``),
  because answers differ by a sliver of the -1..1 range and the exploration term would
  otherwise drown the difference;
- a decision's search stops as soon as the most visited answer (the one it gives) can no
  longer be overtaken, which saves time and changes no choice;
- with ``reuse=1`` the subtree below its answer is kept for the agent's next decision when
  nobody else decides in between (its statistics come from worlds the seat could believe
  then); it saves time but lost strength in ERA, so it is off by default.

A pack may let a player go round in circles: Era of Kingdoms asks for a free action in a
second question whose "None of these" leads back to the first.  A short search judges
the circle by where it stands, and standing still can look better than a turn's end that
lets a rival gain, so the agent would go round until the step budget ends the game.  So
it remembers, for each position it decided at in the current game turn (what its seat
sees, and where the rules stand), the answers it gave there; when the same position comes
round again, the way round is known to change nothing, and those answers are left out
(unless they are all there is).  Positions are told apart by the seat's observation and
the frames without their bound values, so hidden cards play no part in it.

The agent draws all its randomness from its own seeded generator, so with a budget in
iterations it plays exactly the same way every time; a budget in seconds stops earlier or
later with the machine's speed and is for people, not for reproducible simulations.
Large decisions are already broken into one item at a time by the engine, which keeps the
tree narrow.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from decklore.runtime.agents import Weights, evaluate, evaluate_all
from decklore.runtime.determinize import Determinizer, Knowledge
from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import frame_to_json
from decklore.runtime.game import Game
from decklore.runtime.rng import Rng

Key = tuple[Any, ...]


@dataclass(slots=True)
class Node:
    """One decision reached by a sequence of answers: statistics per answer tried."""

    visits: dict[Key, int] = field(default_factory=dict)
    reward: dict[Key, float] = field(default_factory=dict)
    available: dict[Key, int] = field(default_factory=dict)
    children: dict[Key, Node] = field(default_factory=dict)


def _plain(value: Any) -> Any:
    """An option's value as a dict key: lists (payment items) become tuples."""
    if isinstance(value, list):
        return tuple(_plain(v) for v in value)
    return value


def answer_keys(game: Game) -> list[Key]:
    """The pending decision's answers as keys that mean the same in every determinization."""
    pending = game.state.pending
    assert pending is not None
    head = (pending["player"], pending["kind"], pending["label"])
    return [(*head, _plain(v)) for v in pending["options"]]


@dataclass(frozen=True)
class Settings:
    """How hard and how the agent searches; ``mcts:iters=400:depth=2`` on the command line
    (the module docstring says what each setting does, docs/engine.md what it costs)."""

    iters: int = 100
    seconds: float = 0.0
    depth: int = 4
    explore: float = 1.4
    scale: float = 0.0
    reuse: int = 0
    spread: int = 1
    greedy: float = 1.0
    gain: int = 1

    @classmethod
    def parse(cls, text: str) -> Settings:
        """Settings from ``iters=400:seconds=1``; unknown or malformed ones are errors."""
        values: dict[str, Any] = {}
        kinds = {"iters": int, "seconds": float, "depth": int, "explore": float,
                 "scale": float, "reuse": int, "spread": int,
                 "greedy": float, "gain": int}
        for part in filter(None, text.split(":")):
            name, sep, raw = part.partition("=")
            if not sep or name not in kinds:
                raise ValueError(f"mcts takes {', '.join(f'{k}=N' for k in kinds)} "
                                 f"(separated by ':'), not '{part}'")
            try:
                values[name] = kinds[name](raw)
            except ValueError:
                raise ValueError(f"mcts setting {name} must be a number, not '{raw}'") from None
            if values[name] < 0:
                raise ValueError(f"mcts setting {name} cannot be negative")
        settings = cls(**values)
        if settings.iters == 0 and settings.seconds == 0:
            raise ValueError("give mcts a budget: iters=N or seconds=S")
        return settings


class MctsAgent:
    """Chooses by information-set tree search over determinizations of what its seat knows."""

    name = "mcts"

    def __init__(self, seed: int, weights: Weights, settings: Settings | None = None) -> None:
        self.rng = Rng(seed, stream=21)
        self.weights = weights
        self.settings = settings or Settings()
        self.scale = self.settings.scale or _default_scale(weights)
        self._knowledge: dict[int, Knowledge] = {}
        self._kept: tuple[int, Any, int, int, Node] | None = None
        self.iterations = 0
        """Iterations run for the last decision (a budget in seconds varies)."""
        self.root: Node | None = None
        """The tree of the last decision, for tools that show what the search found."""
        self._been: dict[int, tuple[int, dict[str, set[Key]]]] = {}
        """For each seat, the game turn and the answers given at each position of it."""

    def choose(self, game: Game) -> int:
        count = game.option_count()
        if count <= 1:
            return 0
        player = game.current_player()
        assert player is not None
        known = self._knowledge.get(player)
        if known is None:
            known = self._knowledge[player] = Knowledge(game, player)
        else:
            known.update(game)
        worlds = Determinizer(game, player, known)
        settings = self.settings
        deadline = time.perf_counter() + settings.seconds if settings.seconds else None
        keys = answer_keys(game)
        root = self._reused(game, player)
        done = 0
        if root is None:
            root = Node()
        else:  # what the last search learnt about this decision counts towards the budget
            done = sum(root.visits.get(key, 0) for key in set(keys))
        ran = done
        while True:
            if settings.iters and (done >= settings.iters
                                   or _settled(root, keys, settings.iters - done)):
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(worlds.sample(self.rng), root, worlds)
            done += 1
        self.iterations = done - ran
        self.root = root
        given = self._given_here(game, player)
        allowed = [i for i in range(count) if keys[i] not in given] or list(range(count))
        chosen = max(allowed, key=lambda i: (root.visits.get(keys[i], 0),
                                             _mean(root, keys[i]), -i))
        given.add(keys[chosen])
        child = root.children.get(keys[chosen])
        self._kept = None
        if settings.reuse and child is not None:
            log = game.state.log
            self._kept = (player, log[0], len(log), chosen, child)
        return chosen

    def _given_here(self, game: Game, player: int) -> set[Key]:
        """The answers this seat gave at this same position earlier in this game turn
        (empty unless the game went round in a circle back to it)."""
        turn = game.state.info["turn"]
        been = self._been.get(player)
        if been is None or been[0] != turn:
            been = self._been[player] = (turn, {})
        frames = [{k: v for k, v in frame_to_json(frame).items() if k not in _BOUND}
                  for frame in game.state.frames]
        position = json.dumps([game.observation(player), frames,
                               game.state.info.get("uses")],
                              sort_keys=True, separators=(",", ":"), default=repr)
        return been[1].setdefault(position, set())

    def _reused(self, game: Game, player: int) -> Node | None:
        """The part of the last search's tree below the answer it gave, when this decision
        comes straight after it: the same seat, and no one else has decided in between
        (the engine may have run on, dealing cards; the tree's statistics were gathered in
        worlds this seat could believe then, so they use no hidden card either)."""
        saved, self._kept = self._kept, None
        if saved is None:
            return None
        seat, start, at, chosen, child = saved
        log = game.state.log
        if (seat != player or not log or log[0] is not start or len(log) <= at
                or log[at] != ["decide", player, chosen]
                or any(event[0] == "decide" for event in log[at + 1:])):
            return None
        return child

    # --- one iteration --------------------------------------------------------------------

    def _iterate(self, world: Game, root: Node, worlds: Determinizer) -> None:
        base = self._worth(world) if self.settings.gain else None
        worlds.keep(world)  # what of that is the same in every world, the next ones reuse
        path: list[tuple[Node, Key, int]] = []
        node = root
        explore = self.settings.explore
        spread = self.settings.spread
        try:
            while not world.terminal:
                keys = answer_keys(world)
                for key in keys:
                    node.available[key] = node.available.get(key, 0) + 1
                fresh = [i for i, k in enumerate(keys) if k not in node.visits]
                if fresh:
                    index = fresh[self.rng.below(len(fresh))]
                else:
                    low, high = _range(node, keys) if spread else (0.0, 1.0)
                    index = max(range(len(keys)),
                                key=lambda i: _ucb(node, keys[i], explore, low, high))
                key = keys[index]
                path.append((node, key, keys[0][0]))
                world.apply(index)
                if fresh:
                    node.children[key] = Node()
                    break
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = Node()
                node = child
        except RulesError:
            pass  # a rules error (or the step budget) in an imagined game ends the playout
        else:
            world = self._playout(world)
        values = self._values(world, base)
        for at, key, player in path:
            at.visits[key] = at.visits.get(key, 0) + 1
            at.reward[key] = at.reward.get(key, 0.0) + values[player]

    def _playout(self, world: Game) -> Game:
        """Play on for ``depth`` decisions: at random, or (with probability ``greedy``) the
        answer whose next position the deciding seat's weights like best."""
        greedy = self.settings.greedy
        rng = self.rng
        try:
            for _ in range(self.settings.depth):
                if world.terminal:
                    break
                count = world.option_count()
                if greedy and rng.below(1000) < greedy * 1000:
                    world = self._best_next(world, count)
                else:
                    world.apply(rng.below(count))
        except RulesError:
            pass  # a rules error (or the step budget) in an imagined game ends the playout
        return world

    def _best_next(self, world: Game, count: int) -> Game:
        """The position after the answer the deciding seat's weights like best (ties drawn
        at random): the greedy agent's one-step taste, as a playout policy."""
        player = world.current_player()
        assert player is not None
        tops: list[Game] = []
        top = -math.inf
        for index in range(count):
            trial = world.clone()
            try:
                trial.apply(index)
            except RulesError:
                continue
            score = evaluate(trial, player, self.weights)
            if score > top:
                top, tops = score, [trial]
            elif score == top:
                tops.append(trial)
        if not tops:
            raise RulesError("no answer can be played here")
        return tops[self.rng.below(len(tops))] if len(tops) > 1 else tops[0]

    def _worth(self, world: Game) -> list[float]:
        return evaluate_all(world, self.weights)

    def _values(self, world: Game, base: list[float] | None) -> list[float]:
        """Each seat's outcome in -1..1: the true returns when the game is over, else how
        much the position gained on the one the iteration started from (``base``), so that
        a lead built up earlier in the game does not push every answer into the flat end
        of the squashing curve (``gain=0`` judges the position as it stands)."""
        if world.terminal:
            return world.returns()
        worth = self._worth(world)
        if base is not None:
            worth = [w - b for w, b in zip(worth, base, strict=True)]
        return [math.tanh(w / self.scale) for w in worth]


_BOUND = frozenset({"env", "about", "items", "cards", "to", "picked"})
"""Fields of a frame that hold values bound by the rules (cards among them, which the
seat may not see): a position is told apart without them."""


def _settled(root: Node, keys: list[Key], left: int) -> bool:
    """Whether the most visited answer stays ahead whatever the ``left`` iterations do.

    The answer is the most visited one, so once its lead is larger than the iterations
    still to run, running them cannot change it: stopping then gives the same answer for
    less time (and the budget in iterations still fixes every choice, so games replay).
    """
    visits = sorted((root.visits.get(key, 0) for key in keys), reverse=True)
    return len(visits) > 1 and visits[0] - visits[1] > left


def _mean(node: Node, key: Key) -> float:
    visits = node.visits.get(key, 0)
    return node.reward.get(key, 0.0) / visits if visits else 0.0


def _range(node: Node, keys: list[Key]) -> tuple[float, float]:
    """The lowest mean of the answers here and how far the highest is above it."""
    means = [node.reward[key] / node.visits[key] for key in keys]
    low = min(means)
    return low, (max(means) - low) or 1.0


def _ucb(node: Node, key: Key, explore: float, low: float, spread: float) -> float:
    """UCB over availability, on means stretched to 0..1 across this decision's answers.

    A decision's answers often differ by a few points of the pack's weights, a sliver of
    the -1..1 the values live in; unstretched, the exploration term swamps the difference
    and the search spreads its visits almost evenly (flat Monte Carlo).  Stretching by the
    spread seen at this decision (``spread=0`` turns it off) keeps ``explore`` meaning the
    same for every pack and position.
    """
    visits = node.visits[key]
    return ((node.reward[key] / visits - low) / spread
            + explore * math.sqrt(math.log(node.available[key]) / visits))


def _default_scale(weights: Weights) -> float:
    """How big a lead counts as nearly won: five times the pack's largest weight."""
    sizes = [abs(w) for table in (weights.counters, weights.symbols, weights.zones,
                                  weights.defines) for w in table.values()]
    return 5 * max(sizes, default=1.0) or 1.0


def make_mcts(seed: int, raw_tables: Mapping[str, Any], settings: str = "") -> MctsAgent:
    """The agent named ``mcts`` or ``mcts:iters=400:...``, reading the pack's weights."""
    return MctsAgent(seed, Weights.from_tables(raw_tables), Settings.parse(settings))
