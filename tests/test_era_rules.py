"""ERA rules the scenarios cannot reach: the choice of decks, and whole games that end."""

from __future__ import annotations

from functools import cache

import pytest

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.game import Game
from decklore.runtime.state import StateError
from decklore.runtime.tables import Tables


@cache
def era() -> Tables:
    pack = bundled_pack("era")
    assert pack is not None
    return compiled_tables(pack)


def test_two_players_may_not_choose_the_same_era_deck() -> None:
    with pytest.raises(StateError) as caught:
        Game.new(era(), 2, 1, ["era:ancient", "era:ancient"])
    assert str(caught.value) == ("players 1 and 2 both chose 'era:ancient': each player must "
                                 "play a different deck")


def test_different_era_decks_are_accepted() -> None:
    game = Game.new(era(), 2, 1, ["era:ancient", "era:medieval"])
    assert not game.terminal


def test_turn_order_by_initiative_then_cards_in_play_then_clockwise() -> None:
    """Most initiative first; ties by most cards in play; then nearest clockwise."""
    game = Game.new(era(), 4, 3)
    order = game.program.defines["ranked_order"]
    for p, tokens in enumerate([0, 2, 2, 1]):
        game.change_counter("initiative", p, tokens)
    # Player 3 has more cards in play than Player 2, so goes before them.
    for card in list(game.state.zones["draw_pile"][2][:3]):
        game.move(card, "play", 2, face_up=True)
    game.move(game.state.zones["draw_pile"][1][0], "play", 1, face_up=True)
    assert order(game) == [2, 1, 3, 0]
    # All level: clockwise from the previous first player, who keeps the first place.
    for p in range(4):
        game.change_counter("initiative", p, 0)
        game.change_flag("starts", p, p == 2)
        while game.state.zones["play"][p]:
            game.move(game.state.zones["play"][p][0], "discard", p)
    assert order(game) == [2, 3, 0, 1]


def test_the_secret_bonus_pick_is_hidden_until_all_are_revealed() -> None:
    """A kept bonus card is in no other player's observation or log, nor the public log,
    until the picks are revealed together."""
    from decklore.runtime.describe import event_text

    game = Game.new(era(), 3, 5)
    assert game.state.pending is not None
    first = game.current_player()
    assert first is not None
    assert game.state.pending["label"] == "Bonus card to keep"
    assert len(game.state.zones["bonus_offer"][first]) == 4  # players + 1
    start = len(game.state.log)
    picked = game.state.zones["bonus_offer"][first][0]
    name = game.rows[picked]["name"]
    game.apply(0)
    others = [p for p in range(3) if p != first]
    # While the others pick, the kept card is named only to its holder.
    while game.state.pending is not None and game.state.pending["label"] == "Bonus card to keep":
        for viewer in [*others, None]:
            seen = game.observation(viewer)["zones"]["bonus_kept"][first]
            assert all("name" not in card for card in seen)
            texts = [event_text(game, e, viewer) or "" for e in game.state.log[start:]]
            assert not any(name in text for text in texts)
        holder = game.observation(first)["zones"]["bonus_kept"][first]
        assert [card.get("name") for card in holder] == [name]
        game.apply(0)
    # Revealed at once: everyone now sees it.
    for viewer in others:
        seen = game.observation(viewer)["zones"]["bonus_kept"][first]
        assert [card.get("name") for card in seen] == [name]
