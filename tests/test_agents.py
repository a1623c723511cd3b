"""Agents decide from what their seat may know, and search agents replay exactly.

A planted card: two games that differ only in a card the deciding seat cannot see (in the
opponent's hand) must get the same choices from an agent with the same seed.  The small
rules below make that card matter: taking it is worth more than a point when it has a
coin, so an agent that peeked would choose by it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from decklore.compiler.pipeline import compile_pack
from decklore.runtime.agents import Agent, GreedyAgent, Weights
from decklore.runtime.describe import visible
from decklore.runtime.engine import Game
from decklore.runtime.tables import Tables, loads_tables

MINI = Path(__file__).parent / "packs" / "mini"

STEAL = """\
zone draw: per_player, ordered, hidden, deck main
zone hand: per_player, owner
zone table: per_player, public, symbols
counter points "Points": per_player, min 0
setup:
  for each p in players():
    shuffle draw(p)
    draw 1 from draw(p) to hand(p) face up
round:
  turn:
    choose one "Your move":
      option take "Take the next player's hand card" when size(hand(opponent(me))) > 0:
        move top_card(hand(opponent(me))) to table(me) face up
      option score "Score a point":
        gain 1 points
win p when p.points >= 3
"""
AI = """
ai:
  weights:
    counters: {points: 5}
    symbols: {coin: 10}
    opponents: 0
"""


@pytest.fixture(scope="module")
def steal(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    pack = tmp_path_factory.mktemp("steal") / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n" + AI)
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STEAL)
    return loads_tables(compile_pack(pack).data)


def planted(tables: Tables, seed: int, card_id: str) -> Game:
    """A new game in which the second seat's hand card is a copy of ``card_id``, taken
    from its draw pile (so the two games differ only where the first seat cannot see)."""
    game = Game.new(tables, 2, seed)
    state = game.state
    [held] = state.zones["hand"][1]
    other = next(c for c in state.zones["draw"][1] if state.cards[c]["card"].endswith(card_id)
                 ) if not state.cards[held]["card"].endswith(card_id) else held
    cards = state.cards
    cards[held]["card"], cards[other]["card"] = cards[other]["card"], cards[held]["card"]
    game.rows = [game.program.card_rows[c["card"]] for c in cards]
    game.memo.clear()
    assert not visible(game, held, 0)
    return game


def agents(tables: Tables, seed: int) -> list[Agent]:
    return [GreedyAgent(seed, Weights.from_tables(tables.raw))]


def test_a_card_in_the_opponents_hand_does_not_change_the_choice(steal: Tables) -> None:
    coin_taken = 0
    for seed in range(12):
        with_coin, without = planted(steal, seed, "smith"), planted(steal, seed, "ambush")
        assert with_coin.observation(0) == without.observation(0)
        for make in range(1):
            one, two = agents(steal, seed)[make], agents(steal, seed)[make]
            picked = one.choose(with_coin)
            assert picked == two.choose(without), (seed, one.name)
            coin_taken += picked == 0
    # The choice is a real one, made either way over the seeds.
    assert 0 < coin_taken < 12


def test_greedy_without_determinizing_would_read_the_planted_card(steal: Tables) -> None:
    """The planted card does matter to a peeking look-ahead: the test above can fail."""
    weights = Weights.from_tables(steal.raw)
    from decklore.runtime.agents import evaluate

    def peek(game: Game) -> int:
        scores = []
        for index in range(game.option_count()):
            trial = game.clone()
            trial.apply(index)
            scores.append(evaluate(trial, 0, weights))
        return scores.index(max(scores))

    assert peek(planted(steal, 1, "smith")) == 0
    assert peek(planted(steal, 1, "ambush")) == 1
