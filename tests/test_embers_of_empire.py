"""Embers of Empire, the fourth game on the same engine: what its scenarios cannot show.

The turn reference's rules are scenario files in ``cards/embers-of-empire/scenarios/`` (run
by test_era_scenarios.py). Here: seeded random and greedy games at two to four players end by
the rules, with every token and Influence marker accounted for along the way; a Trade from a
row puts the new token in the very slot the old one left; and the sheets print.
"""

from __future__ import annotations

from functools import cache

import pytest
from random_play import check_invariants, play_out

from decklore.cards import bundled_pack
from decklore.compiler import compile_pack
from decklore.compiler.printing.sheets import PrintOptions, render
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import Agent, GreedyAgent, RandomAgent, Weights
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables

TABLE_CARDS = 36 + 8 + 40
"""On the table: the Frontier's 36 resources, 8 supply Calamities and 4 Eras of 10 cards;
each player brings a starting bag of 14 tokens."""
TOKEN_ZONES = ("bag", "drawn", "warfare_row", "culture_row", "economy_row", "track")
ROWS = ("warfare_row", "culture_row", "economy_row")


@cache
def embers() -> Tables:
    pack = bundled_pack("embers-of-empire")
    assert pack is not None
    return compiled_tables(pack)


def _check_tokens(game: Game) -> None:
    """Tokens stay tokens and cards stay cards; rows and tracks keep their sizes; each
    player's two Influence markers are in hand or on a card on offer."""
    check_invariants(game)
    kinds = {c: game.rows[c]["kind"] for c in range(len(game.state.cards))}
    players = game.state.players
    for p in range(players):
        for zone in TOKEN_ZONES:
            assert all(kinds[c] in ("resource", "calamity") for c in game.zone_cards(zone, p))
        for zone in ROWS:
            assert len(game.zone_cards(zone, p)) <= 6
            assert all(kinds[c] == "resource" for c in game.zone_cards(zone, p))
        assert all(kinds[c] == "calamity" for c in game.zone_cards("track", p))
        assert len(game.zone_cards("track", p)) <= 4
        on_cards = sum(1 for c in game.zone_cards("display", None)
                       if game.state.counters["influence_seat"][c] == p + 1)
        assert game.state.counters["markers"][p] + on_cards == 2
    for zone in ("frontier", "market"):
        assert all(kinds[c] == "resource" for c in game.zone_cards(zone, None))
    assert len(game.zone_cards("market", None)) <= 5


def _play(game: Game, agents: list[Agent]) -> None:
    while not game.terminal:
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
        if game.state.info["decisions"] % 25 == 0:
            _check_tokens(game)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_cleanly(players: int) -> None:
    """Random players end after the fourth Era, never at the step budget nor with a rules
    error, every token and marker accounted for on the way."""
    for seed in range(2):
        game = Game.new(embers(), players, seed)
        _play(game, [RandomAgent(seed * 11 + i) for i in range(players)])
        _check_tokens(game)
        assert len(game.state.cards) == TABLE_CARDS + 14 * players
        assert game.result is not None and game.result["winners"], game.result
        assert game.result["reason"] != "step budget"
        assert game.state.counters["era_number"][0] == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_cleanly(players: int) -> None:
    weights = Weights.from_tables(embers().raw)
    game = Game.new(embers(), players, 9)
    play_out(game, [GreedyAgent(30 + i, weights) for i in range(players)])
    _check_tokens(game)
    assert game.result is not None and game.result["winners"], game.result
    assert game.result["reason"] != "step budget"
    # Greedy players discover cards: the game is more than passing.
    assert sum(len(game.zone_cards("claimed", p)) for p in range(players)) >= players


def test_a_trade_from_a_row_keeps_the_slot() -> None:
    """The scenario checks what the row holds; here, the order: the new token lies in the
    slot the traded one left, between the two it lay between."""
    game = Game.new(embers(), 2, 1)
    prefix = "embers-of-empire:"
    ones = [c for c in game.zone_cards("bag", 0)
            if game.rows[c]["id"] == prefix + "start_culture"]
    for card in ones:
        game.move(card, "culture_row", 0, top=False, face_up=True)
    for card in list(game.zone_cards("market", None)):
        game.move(card, "frontier", None, face_up=True)
    better = next(c for c in game.zone_cards("frontier", None)
                  if game.rows[c]["id"] == prefix + "culture_2")
    game.move(better, "market", None, face_up=True)
    game.memo.clear()
    game.state.check()
    # Seat 1 passes and trades the middle Culture token for the Market's Culture 2.
    for step in ("Pass", "Trade"):
        game.apply(next(a.index for a in game.legal_actions() if step in a.description))
    game.apply(next(a.index for a in game.legal_actions() if a.value == ones[1]))
    assert game.zone_cards("culture_row", 0) == [ones[0], better, ones[2]]
    assert ones[1] in game.zone_cards("frontier", None) + game.zone_cards("market", None)
    assert len(game.zone_cards("market", None)) == 5  # refilled from the Frontier at once


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("cards", "html"), ("tokens", "html"), ("list", "md"), ("legend", "md"), ("reference", "md"),
    ("guide", "md")])
def test_the_sheets_print(sheet: str, fmt: str) -> None:
    """Every sheet renders from the pack; the reference names the three actions and the
    scoring table, the legend the three aspects, the card sheet the cards and the tokens
    sheet the resource and Calamity tokens, as punch-outs with their backs."""
    pack = bundled_pack("embers-of-empire")
    assert pack is not None
    text = render(compile_pack(pack).tables, sheet, fmt, PrintOptions())
    if sheet == "reference":
        for words in ("Draw and place", "Discover", "Pass", "Collapse", "Influence",
                      "minus 2, 5, 9 or 14", "Reckoning", "Glory"):
            assert words in text
    if sheet == "legend":
        assert all(aspect in text for aspect in ("Warfare", "Culture", "Economy"))
    if sheet == "cards":
        assert "Great Wall" in text and "Wild 2" not in text
    if sheet == "tokens":
        assert "Calamity" in text and "Wild 2" in text and "Great Wall" not in text
        assert 'class="token round"' in text and "Token" in text
