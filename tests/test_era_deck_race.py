"""The Era deck race, the third game on the same engine: what its scenarios cannot show.

The overview's rules are scenario files in ``cards/era-deck-race/scenarios/`` (run by
test_era_scenarios.py). Here: the blind guess leaks nothing before it resolves (every
player's observation, the actions offered and every player's event log are the same
whichever card lies face down on top), and seeded random and greedy games at two to four
players end by the rules while every card stays accounted for.
"""

from __future__ import annotations

from functools import cache

import pytest
from random_play import check_invariants, play_out

from decklore.cards import bundled_pack
from decklore.compiler import compile_pack
from decklore.compiler.printing.sheets import PrintOptions, render
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import GreedyAgent, RandomAgent, Weights
from decklore.runtime.describe import event_text
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables

TABLE_CARDS = 110
"""The cards on the table: 36 Portals, 48 Era cards and 26 technologies; each player
brings a starting deck of 8 more."""


@cache
def race() -> Tables:
    pack = bundled_pack("era-deck-race")
    assert pack is not None
    return compiled_tables(pack)


def _symbol(game: Game, card: int) -> set[str]:
    return {s["symbol"] for s in game.rows[card]["symbols"]}


def _guess_position(seed: int) -> tuple[Game, int, int]:
    """A game at a 'Card to play' decision whose player holds a Portal while the top card of
    their Era pile lies face down; the Portal and that Era card do not match."""
    game = Game.new(race(), 2, seed)
    agents = [RandomAgent(seed + 1), RandomAgent(seed + 2)]
    for _ in range(2000):
        assert not game.terminal
        player = game.current_player()
        assert player is not None
        pile = game.zone_cards("era_pile", player)
        actions = game.legal_actions()
        if actions[0].label == "Card to play" and pile and not game.state.cards[pile[0]][
                "face_up"]:
            for action in actions:
                card = action.value
                if (game.rows[card]["kind"] == "portal"
                        and not _symbol(game, card) & _symbol(game, pile[0])):
                    return game, action.index, pile[0]
        game.apply(agents[player].choose(game))
    raise AssertionError("no blind guess came up")


def _swap_with_a_match(game: Game, top: int, portal: int) -> Game:
    """The same game, but with a face-down Era card that matches the Portal on top of the
    pile: it changes places with one from the face-down Era deck."""
    twin = game.clone()
    deck = twin.state.zone_to_change("era_deck")  # the clone's own lists, not the original's
    other = next(c for c in deck if _symbol(twin, c) & _symbol(twin, portal))
    cards = twin.state.cards
    pile = twin.state.zone_to_change("era_pile", cards[top]["player"])
    pile[pile.index(top)], deck[deck.index(other)] = other, top
    for card, zone, player in ((other, "era_pile", cards[top]["player"]),
                               (top, "era_deck", None)):
        row = twin.state.card_to_change(card)  # the clone's own record, not the original's
        row["zone"], row["player"] = zone, player
        row["face_up"] = False
    twin.memo.clear()
    return twin


def _seen_by_everyone(game: Game, since: int) -> list[object]:
    viewers = [*range(game.state.players), None]
    return [(game.observation(v), [event_text(game, e, v) for e in game.state.log[since:]])
            for v in viewers]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_blind_guess_leaks_nothing_before_it_resolves(seed: int) -> None:
    game, index, top = _guess_position(seed)
    portal = game.legal_actions()[index].value
    twin = _swap_with_a_match(game, top, portal)
    game.state.check()
    twin.state.check()
    # Before the guess: nobody, the guesser included, can tell the two games apart.
    assert _seen_by_everyone(game, 0) == _seen_by_everyone(twin, 0)
    assert [a.description for a in game.legal_actions()] == [
        a.description for a in twin.legal_actions()]
    player = game.current_player()
    assert player is not None
    mark = len(game.state.log)
    pile_before = list(game.zone_cards("era_pile", player))
    game.apply(index)
    twin.apply(index)
    # The guess resolves: the wrong one was turned over for everyone, then shuffled back;
    # the right one is passed.
    assert game.state.flags["wrong_guess"][player]
    assert not twin.state.flags["wrong_guess"][player]
    assert sorted(game.zone_cards("era_pile", player)) == sorted(pile_before)
    name = game.rows[top]["name"]
    for viewer in range(game.state.players):
        lines = [event_text(game, e, viewer) for e in game.state.log[mark:]]
        assert f"Revealed to everyone: {name}" in lines
    # After the shuffle, no face-down card of the pile can be told apart any more.
    for viewer in [*range(game.state.players), None]:
        views = game.observation(viewer)["zones"]["era_pile"][player]
        for view, card in zip(views, game.zone_cards("era_pile", player), strict=True):
            if not game.state.cards[card]["face_up"]:
                assert "card" not in view and "instance" not in view


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_cleanly(players: int) -> None:
    """Random players end by the rules, never at the step budget nor with a rules error."""
    for seed in range(2):
        game = Game.new(race(), players, seed)
        agents = [RandomAgent(seed * 11 + i) for i in range(players)]
        play_out(game, agents, check_every=40)
        check_invariants(game)
        assert len(game.state.cards) == TABLE_CARDS + 8 * players
        assert game.result is not None and game.result["winners"], game.result
        assert game.result["reason"] != "step budget"
        emptied = [p for p in range(players) if not game.zone_cards("era_pile", p)]
        assert set(game.result["winners"]) <= set(emptied)


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_games_end_cleanly(players: int) -> None:
    weights = Weights.from_tables(race().raw)
    game = Game.new(race(), players, 9)
    play_out(game, [GreedyAgent(30 + i, weights) for i in range(players)])
    check_invariants(game)
    assert game.result is not None and game.result["winners"], game.result
    assert game.result["reason"] != "step budget"


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("cards", "html"), ("list", "md"), ("legend", "md"), ("reference", "md"), ("guide", "md")])
def test_the_sheets_print(sheet: str, fmt: str) -> None:
    """Every sheet renders from the pack; the turn reference and guide name the five steps
    of a turn, the legend the four ages."""
    pack = bundled_pack("era-deck-race")
    assert pack is not None
    text = render(compile_pack(pack).tables, sheet, fmt, PrintOptions())
    if sheet in ("reference", "guide"):
        for step in ("Take a Portal", "Play cards", "Discard", "Technology", "Refill your hand"):
            assert step in text
    if sheet == "legend":
        assert all(age in text for age in ("Stone", "Bronze", "Iron", "Gold"))
    if sheet == "cards":
        assert text.count("Philosophy") >= 2
