"""Random games played to their end, and the invariants every game keeps, for the tests of
any pack (ERA's invariants, Era of Kingdoms, the Trade Route)."""

from __future__ import annotations

from collections.abc import Sequence

from decklore.runtime.agents import Agent
from decklore.runtime.game import Game, StepBudgetExceeded


def check_invariants(game: Game) -> None:
    """Every card in exactly one place, the one it records; no counter below its minimum."""
    game.state.check()
    for name, spec in game.program.counters.items():
        low = min(game.state.counters[name])
        assert low >= spec["min"], f"{name} went to {low}, below its minimum {spec['min']}"
    placed = sum(len(cards) for per in game.state.zones.values() for cards in per)
    assert placed == len(game.state.cards)


def play_out(game: Game, agents: Sequence[Agent], *, check_every: int = 0) -> Game:
    """Let the agents (one per seat) play until the game ends or its step budget runs out,
    checking the invariants every ``check_every`` decisions when asked."""
    decisions = 0
    try:
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            game.apply(agents[player].choose(game))
            decisions += 1
            if check_every and decisions % check_every == 0:
                check_invariants(game)
    except StepBudgetExceeded:
        pass
    return game
