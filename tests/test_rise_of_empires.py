"""Rise of Empires (cards/rise-of-empires): whole games end cleanly at every player count,
the pieces are all accounted for, and the sheets print. The rules themselves are checked by
the pack's scenarios, one per rule of the write-up that has a number."""

from __future__ import annotations

from functools import cache

import pytest
from random_play import check_invariants, play_out

from decklore.cards import bundled_pack
from decklore.compiler.printing.sheets import PrintOptions, render
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import GreedyAgent, RandomAgent, Weights
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables

CUBES_EACH = 30
"""Every player's cubes: in the pool, in the general stock, or on the map."""


@cache
def empires() -> Tables:
    pack = bundled_pack("rise-of-empires")
    assert pack is not None
    return compiled_tables(pack)


def _cubes(game: Game, player: int) -> int:
    counters = game.state.counters
    on_map = sum(len(game.zone_cards(f"cubes_on#{n}", player)) for n in range(1, 19))
    return counters["cube_pool"][player] + counters["stock"][player] + on_map


def _finished(game: Game) -> None:
    check_invariants(game)
    assert game.result is not None and game.result["winners"], game.result
    assert game.result["reason"] != "step budget"
    assert game.state.counters["game_turn"][0] == 6  # all three Eras, A and B, were played
    for p in range(game.state.players):
        assert _cubes(game, p) == CUBES_EACH
        assert 0 <= game.state.counters["food_store"][p] <= 20
    assert game.zone_cards("disc_supply", None) and not any(
        game.zone_cards(row, None) for row in ("progress_row", "territory_row", "city_row",
                                               "empire_row", "trade_row"))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_end_cleanly(players: int) -> None:
    """Random players end by the rules after six game turns, never at the step budget nor
    with a rules error; every cube is somewhere, every disc back off the display."""
    for seed in range(2):
        game = Game.new(empires(), players, seed)
        play_out(game, [RandomAgent(seed * 11 + i) for i in range(players)], check_every=60)
        _finished(game)
        assert game.state.info["turn"] == 6 * 6 * players  # six actions each, six game turns


def test_random_players_use_free_action_tiles() -> None:
    """Progress tiles used as free actions are turned face down and shown to everyone: in
    whole random games some are used, and never more than once per tile in a game turn."""
    game = Game.new(empires(), 3, 4)
    play_out(game, [RandomAgent(40 + i) for i in range(3)])
    _finished(game)
    uses: dict[tuple[int, int], int] = {}
    turn = 1
    for event in game.state.log:
        if event[0] == "counter" and event[1] == "game_turn":
            turn = event[3]
        elif event[0] == "reveal":
            uses[(turn, event[1])] = uses.get((turn, event[1]), 0) + 1
    assert uses and max(uses.values()) == 1


def test_greedy_games_end_cleanly() -> None:
    weights = Weights.from_tables(empires().raw)
    game = Game.new(empires(), 2, 9)
    play_out(game, [GreedyAgent(30 + i, weights) for i in range(2)])
    _finished(game)


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("cards", "html"), ("list", "md"), ("list", "csv"), ("reference", "md"), ("guide", "md"),
    ("legend", "md")])
def test_the_sheets_print(sheet: str, fmt: str) -> None:
    """Every sheet renders; the reference names the phases of a game turn in plain words."""
    text = render(empires().raw, sheet, fmt, PrintOptions())
    assert text
    if sheet == "reference":
        for words in ("rightmost free circle", "for each disc to its left", "1 VP instead",
                      "fewest VP chooses", "1 VP for every 3 gold", "each once per game turn",
                      "every other player has taken an action since"):
            assert words in text
