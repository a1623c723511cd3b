"""The benchmark's Uno pack plays RLCard's game: the deal, the card to match, and a winner
who has played their last card (``benchmarks/packs/uno/notes.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from random_play import check_invariants, play_out

from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.game import Game

UNO = Path(__file__).resolve().parent.parent / "benchmarks" / "packs" / "uno"


@pytest.fixture(scope="module")
def game_at_start() -> Game:
    """A game stopped after the deal, before the first move."""
    game = Game.prepare(compiled_tables(UNO), 2, 11)
    game.pause_at = {"turn"}
    game.resume()
    assert game.paused == "turn"
    return game


def test_deck_is_rlcards_108_cards(game_at_start: Game) -> None:
    rows = [game_at_start.rows[i] for i in range(len(game_at_start.state.cards))]
    deck = [r for r in rows if r["kind"] != "marker"]
    assert len(deck) == 108
    assert sum(r["trait"] == 0 for r in deck) == 4
    assert sum(r["trait"] == 13 for r in deck) == 4 and sum(r["trait"] == 14 for r in deck) == 4
    for colour in range(4):
        assert sum(r["color"] == colour for r in deck) == 25


def test_seven_each_and_one_card_to_match(game_at_start: Game) -> None:
    state = game_at_start.state
    played = state.zones["played"][0]
    assert len(played) == 1
    first = game_at_start.rows[played[0]]
    assert first["trait"] != 14  # a wild draw four is never the first card
    hands = [len(h) for h in state.zones["hand"]]
    assert hands in ([7, 7], [9, 7])  # a first draw two makes seat 1 draw two
    assert state.counters["target_trait"] == [first["trait"]]
    if first["kind"] != "wild":
        assert state.counters["target_color"] == [first["color"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_an_empty_hand(players: int) -> None:
    tables = compiled_tables(UNO)
    for seed in range(6):
        game = Game.new(tables, players, seed, budget=50_000)
        play_out(game, [RandomAgent(seed * 7 + i) for i in range(players)], check_every=10)
        check_invariants(game)
        assert game.result is not None and len(game.result["winners"]) == 1
        assert game.state.zones["hand"][game.result["winners"][0]] == []
