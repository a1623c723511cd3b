"""Era of Kingdoms, the second game on the same engine: what its scenarios cannot show.

The rulebook's worked examples are scenario files in ``cards/era-of-kingdoms/scenarios/``
(run by test_era_scenarios.py). Here: where setup puts the Age of Enlightenment for each
player count and solo difficulty, and seeded random games at one to four players, which
must end by the rules or at the step budget without a rules error while every card stays
accounted for.
"""

from __future__ import annotations

from functools import cache

import pytest
from random_play import check_invariants, play_out

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables


@cache
def kingdoms() -> Tables:
    pack = bundled_pack("era-of-kingdoms")
    assert pack is not None
    return compiled_tables(pack)


def enlightenment_depth(game: Game) -> int:
    """How many cards lie above the Age of Enlightenment in the Advanced deck."""
    deck = game.zone_cards("advanced_deck", None)
    finale = [i for i, card in enumerate(deck) if game.rows[card]["kind"] == "finale"]
    assert len(finale) == 1
    return finale[0]


@pytest.mark.parametrize(("players", "depth"), [(2, 9), (3, 11), (4, 13)])
def test_the_age_of_enlightenment_lies_deeper_with_more_players(players: int, depth: int) -> None:
    for seed in range(3):
        game = Game.new(kingdoms(), players, seed)
        assert enlightenment_depth(game) == depth
        assert len(game.zone_cards("advanced_deck", None)) == 22


@pytest.mark.parametrize(("choice", "depth"), [("Normal", 5), ("Difficult", 7), ("Challenge", 9)])
def test_solo_difficulty_sets_the_depth(choice: str, depth: int) -> None:
    game = Game.new(kingdoms(), 1, 4)
    assert game.state.players == 2  # the Shadow Kingdom takes the second seat
    actions = game.legal_actions()
    game.apply(next(a.index for a in actions if a.description.startswith(choice)))
    assert enlightenment_depth(game) == depth


@pytest.mark.parametrize(("players", "box", "riches"),
                         [(1, 0, 2), (2, 24, 2), (3, 11, 3), (4, 0, 3)])
def test_setup_by_player_count(players: int, box: int, riches: int) -> None:
    game = Game.new(kingdoms(), players, 7)
    if players == 1:
        game.apply(0)  # the solo player's difficulty comes first
    assert len(game.zone_cards("box", None)) == box
    for seat in range(game.state.players):
        assert len(game.zone_cards("treasury", seat)) == riches


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_games_end_cleanly(players: int) -> None:
    """Random players end by the rules or at the step budget; never with a rules error."""
    ended = 0
    for seed in range(3):
        game = Game.new(kingdoms(), players, seed)
        agents = [RandomAgent(seed * 7 + i) for i in range(game.state.players)]
        play_out(game, agents, check_every=50)
        check_invariants(game)
        assert len(game.state.cards) == 225
        assert game.result is not None
        assert "error" not in game.result or game.result["reason"] == "step budget"
        ended += game.result["reason"] != "step budget"
    assert ended >= (1 if players != 2 else 0)


def test_a_game_saved_mid_turn_resumes_exactly() -> None:
    """Same seed and choices, same game; a game saved in the middle of a decision (a solo
    game, so the Shadow Kingdom's turns are in it) goes on exactly as the unsaved one."""
    def play(game: Game, agent: RandomAgent, decisions: int) -> None:
        for _ in range(decisions):
            if game.terminal:
                return
            game.apply(agent.choose(game))

    straight, agent = Game.new(kingdoms(), 1, 21), RandomAgent(5)
    play(straight, agent, 400)
    first, agent = Game.new(kingdoms(), 1, 21), RandomAgent(5)
    play(first, agent, 150)
    resumed = Game.from_json(kingdoms(), first.to_json())
    play(resumed, agent, 250)
    assert resumed.log_hash() == straight.log_hash()
    assert resumed.state.info["turn"] == straight.state.info["turn"] > 10


@pytest.mark.parametrize("players", [1, 3])
def test_trade_route_games_end_cleanly(players: int) -> None:
    """The Trade Route mod on the same engine: random games keep every card accounted for
    (the six Trade Route cards join the Basic deck) and end without a rules error."""
    pack = bundled_pack("era-of-kingdoms-trade-route")
    assert pack is not None
    tables = compiled_tables(pack)
    game = Game.new(tables, players, 3, budget=40_000)
    board = sum(len(game.zone_cards(z, None))
                for z in ("route_basic", "route_intermediate", "route_advanced"))
    play_out(game, [RandomAgent(30 + i) for i in range(game.state.players)])
    check_invariants(game)
    assert len(game.state.cards) == 231
    if players > 1:  # solo stops first at the difficulty, before the board is laid out
        assert board == 10
    assert game.result is not None
    assert "error" not in game.result or game.result["reason"] == "step budget"
