"""Game state as plain data: opening setup from the tables, moves, clone and save/resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from decklore.compiler import compile_pack
from decklore.runtime import loads_tables
from decklore.runtime.state import GameState, StateError, new_state
from decklore.runtime.tables import Tables

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def era() -> Tables:
    return loads_tables(compile_pack(ROOT / "cards" / "era").data)


def test_each_player_deck_starts_in_its_deck_zone(era: Tables) -> None:
    state = new_state(era, 2, seed=1, decks=["era:ancient", "era:medieval"])
    state.check()
    copies = {d["id"]: sum(era.card(c)["copies"] for c in d["cards"]) for d in era.decks}
    assert len(state.zone("draw_pile", 0)) == copies["era:ancient"]
    assert len(state.zone("draw_pile", 1)) == copies["era:medieval"]
    assert all(state.cards[i]["owner"] == 1 for i in state.zone("draw_pile", 1))
    # The shared bonus pile holds the whole bonus deck, whatever the players choose.
    assert len(state.zone("bonus_pile")) == copies["era:bonus"]
    assert len(state.cards) == copies["era:ancient"] + copies["era:medieval"] + copies[
        "era:bonus"]


def test_only_decks_with_the_zone_tag_can_be_chosen(era: Tables) -> None:
    with pytest.raises(StateError, match="is not tagged 'era'"):
        new_state(era, 2, seed=1, decks=["era:ancient", "era:bonus"])
    with pytest.raises(StateError, match="takes 2 to 4 players, not 5"):
        new_state(era, 5, seed=1, decks=["era:ancient"] * 5)
    with pytest.raises(StateError, match="no deck 'era:future'"):
        new_state(era, 2, seed=1, decks=["era:ancient", "era:future"])


def test_moves_keep_every_card_in_one_place(era: Tables) -> None:
    state = new_state(era, 2, seed=3, decks=["era:ancient", "era:medieval"])
    top = state.zone("draw_pile", 0)[0]
    state.move(top, "hand", 0, face_up=True)
    assert state.where(top) == ("hand", 0)
    assert state.cards[top]["face_up"]
    state.check()


def test_shuffles_are_seeded(era: Tables) -> None:
    a = new_state(era, 2, seed=9, decks=["era:ancient", "era:medieval"])
    b = new_state(era, 2, seed=9, decks=["era:ancient", "era:medieval"])
    a.shuffle("draw_pile", 0)
    b.shuffle("draw_pile", 0)
    assert a.zone("draw_pile", 0) == b.zone("draw_pile", 0)
    c = new_state(era, 2, seed=10, decks=["era:ancient", "era:medieval"])
    c.shuffle("draw_pile", 0)
    assert c.zone("draw_pile", 0) != a.zone("draw_pile", 0)


def test_clone_is_independent_and_save_resume_is_exact(era: Tables) -> None:
    state = new_state(era, 2, seed=4, decks=["era:ancient", "era:medieval"])
    state.shuffle("draw_pile", 0)
    twin = state.clone()
    twin.move(twin.zone("draw_pile", 0)[0], "hand", 0)
    twin.shuffle("draw_pile", 1)
    assert state.zone("hand", 0) == []
    saved = state.to_json()
    resumed = GameState.from_json(saved)
    assert resumed.to_json() == saved
    state.shuffle("draw_pile", 1)
    resumed.shuffle("draw_pile", 1)
    assert resumed.zone("draw_pile", 1) == state.zone("draw_pile", 1)


def test_zones_shared_with_clones_are_copied_by_whichever_changes_them(era: Tables) -> None:
    """A clone shares the zones' lists with its original until one of them moves or
    shuffles: each change, on either side and on a clone of a clone, stays its own."""
    state = new_state(era, 2, seed=4, decks=["era:ancient", "era:medieval"])
    before = state.to_json()
    twin = state.clone()
    grandchild = twin.clone()
    state.move(state.zone("draw_pile", 0)[0], "hand", 0)  # the original first, this time
    assert twin.zone("hand", 0) == [] and grandchild.zone("hand", 0) == []
    twin.shuffle("draw_pile", 1)
    assert grandchild.zone("draw_pile", 1) == GameState.from_json(before).zone("draw_pile", 1)
    assert twin.zone("draw_pile", 1) != grandchild.zone("draw_pile", 1)
    grandchild.move(grandchild.zone("draw_pile", 1)[-1], "hand", 1)
    assert state.zone("hand", 1) == [] and twin.zone("hand", 1) == []
    assert grandchild.zone("draw_pile", 0) == GameState.from_json(before).zone("draw_pile", 0)
    for each in (state, twin, grandchild):
        each.check()


def test_a_broken_save_is_refused_clearly() -> None:
    with pytest.raises(StateError, match="not a saved game"):
        GameState.from_json("{}")
    with pytest.raises(StateError, match="state version 99"):
        GameState.from_json('{"version": 99}')


def test_marks_shared_with_clones_are_copied_by_whichever_changes_them() -> None:
    """A clone shares every counter and flag with its original until one of them
    changes one: through a change, a period's reset, or a card's marks going back when
    it moves (``until moved``)."""
    from decklore.cards import bundled_pack
    from decklore.compiler.tools.scenarios import compiled_tables
    from decklore.runtime.game import Game

    game = Game.new(compiled_tables(bundled_pack("era")), 2, 3)  # type: ignore[arg-type]
    program = game.program
    counter = next(n for n, s in program.counters.items() if s["per"] == "player")
    flag = next(n for n, s in program.flags.items()
                if s["per"] == "player" and s["until"])
    per_card = next(n for n, s in program.counters.items() if s["per"] == "card")
    twin = game.clone()
    assert twin.state.counters[per_card] is game.state.counters[per_card]
    start = game.counter_value(counter, 0)
    game.change_counter(counter, 0, start + 3)  # the original first
    assert twin.counter_value(counter, 0) == start
    grandchild = twin.clone()
    before = game.counter_value(counter, 1)
    twin.change_counter(counter, 1, before + 5)
    assert game.counter_value(counter, 1) == grandchild.counter_value(counter, 1) == before
    grandchild.change_flag(flag, 0, True)
    assert not game.flag_value(flag, 0) and not twin.flag_value(flag, 0)
    period = program.flags[flag]["until"]
    twin.change_flag(flag, 1, True)
    child = twin.clone()
    child.reset_period(period)
    assert twin.flag_value(flag, 1) and not child.flag_value(flag, 1)
    assert grandchild.flag_value(flag, 0)


def test_a_cards_marks_shared_with_a_clone_are_copied_by_whichever_changes_them() -> None:
    """A card's counters and flags are shared with a clone too: marking a card, or moving
    one whose marks last ``until moved`` (ERA's harvest tokens), changes only the game that
    does it."""
    from decklore.cards import bundled_pack
    from decklore.compiler.tools.scenarios import compiled_tables
    from decklore.runtime.game import Game

    game = Game.new(compiled_tables(bundled_pack("era")), 2, 3)  # type: ignore[arg-type]
    name, start = next((n, s) for n, s in game.program.marks_cleared_on_move
                       if s is not None)
    card, other = game.zone_cards(*game.location(0)), 1
    card = card[0]
    game.change_counter(name, card, start + 2)
    twin = game.clone()
    assert twin.state.counters[name] is game.state.counters[name]
    twin.change_counter(name, other, start + 1)
    assert game.counter_value(name, other) == start
    grandchild = twin.clone()
    zone, player = next((z, p) for z, per in game.state.zones.items()
                        for p in range(len(per)) if z != game.location(card)[0]
                        and z in game.program.zones)
    grandchild.move(card, zone, None if zone in game.state.shared_zones else player)
    assert grandchild.counter_value(name, card) == start
    assert game.counter_value(name, card) == twin.counter_value(name, card) == start + 2
    assert twin.counter_value(name, other) == grandchild.counter_value(name, other) == start + 1
    for each in (game, twin, grandchild):
        each.state.check()
