"""ERA rules the scenarios cannot reach: the choice of decks, and whole games that end."""

from __future__ import annotations

from functools import cache

import pytest

from decklore.cards import bundled_pack
from decklore.compiler.scenarios import compiled_tables
from decklore.runtime.engine import Game
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
