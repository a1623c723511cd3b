"""Determinization: a state one seat could believe, built from what that seat may know.

Checked on ERA and Era of Kingdoms positions reached by seeded random play, and on small
rules written for the purpose: the seat's observation is unchanged, cards are conserved,
hidden cards and the generator differ from the truth across seeds, a card the seat saw
is remembered until it is shuffled away, and the result never depends on where the hidden
cards really are.
"""

from __future__ import annotations

import shutil
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decklore.cards import bundled_pack
from decklore.compiler.pipeline import compile_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.describe import visible
from decklore.runtime.determinize import Knowledge, determinize
from decklore.runtime.game import Game
from decklore.runtime.rng import Rng
from decklore.runtime.simulate import deal_decks
from decklore.runtime.state import automated_seats
from decklore.runtime.tables import Tables, loads_tables

MINI = Path(__file__).parent / "packs" / "mini"


@cache
def tables(pack: str) -> Tables:
    found = bundled_pack(pack)
    assert found is not None
    return compiled_tables(found)


def midgame(pack: str, players: int, seed: int, decisions: int = 40) -> Game:
    """A position some way into a seeded random game."""
    t = tables(pack)
    seats = players + automated_seats(t, players)
    game = Game.new(t, players, seed, deal_decks(t, seats, seed) or None)
    agents = [RandomAgent(seed * 10 + i) for i in range(seats)]
    for _ in range(decisions):
        if game.terminal:
            break
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
    assert not game.terminal
    return game


def faces(game: Game) -> Counter[tuple[str, int | None]]:
    return Counter((c["card"], c["owner"]) for c in game.state.cards)


POSITIONS = [("era", 2, seed) for seed in (1, 2, 3)] + [
    ("era-of-kingdoms", 3, seed) for seed in (1, 2)] + [("era-of-kingdoms", 1, 4)]


@pytest.mark.parametrize(("pack", "players", "seed"), POSITIONS)
def test_the_seat_sees_the_same_game_and_no_card_is_lost(pack: str, players: int,
                                                         seed: int) -> None:
    game = midgame(pack, players, seed)
    for viewer in range(players):
        knowledge = Knowledge(game, viewer)
        for draw in range(4):
            twin = determinize(game, viewer, Rng(draw), knowledge)
            assert twin.observation(viewer) == game.observation(viewer)
            assert twin.legal_actions() == game.legal_actions() or (
                viewer != game.current_player())
            assert faces(twin) == faces(game)
            twin.state.check()
            for card in range(len(game.state.cards)):
                if visible(game, card, viewer):
                    assert twin.state.cards[card]["card"] == game.state.cards[card]["card"]


@pytest.mark.parametrize(("pack", "players", "seed"), POSITIONS)
def test_hidden_cards_and_the_future_differ_from_the_truth(pack: str, players: int,
                                                          seed: int) -> None:
    game = midgame(pack, players, seed)
    truth = [c["card"] for c in game.state.cards]
    hidden = [c for c in range(len(truth)) if not visible(game, c, 0)]
    changed: set[int] = set()
    generators = set()
    for draw in range(6):
        twin = determinize(game, 0, Rng(draw))
        changed |= {c for c in hidden if twin.state.cards[c]["card"] != truth[c]}
        generators.add(tuple(twin.state.rng.to_json()))
        assert twin.state.rng.to_json() != game.state.rng.to_json()
    # Nearly every hidden card took another face in some draw (cards with copies may not).
    assert len(changed) >= len(hidden) * 3 // 4, (len(changed), len(hidden))
    assert len(generators) == 6
    # Seat 0's own hidden pile, in order, is another one than the truth.
    piles = [(name, 0) for name, spec in game.program.zones.items()
             if spec["per"] == "player" and spec["visibility"] == "hidden"
             and len(game.state.zones[name][0]) > 1]
    for name, player in piles:
        orders = {tuple(determinize(game, 0, Rng(d)).state.cards[c]["card"]
                        for c in game.state.zones[name][player]) for d in range(6)}
        assert len(orders) > 1


@pytest.mark.parametrize(("pack", "players", "seed"), POSITIONS[:4])
def test_the_result_depends_on_what_the_seat_knows_not_on_the_truth(
        pack: str, players: int, seed: int) -> None:
    """Two true games that seat 0 cannot tell apart give the same determinized game."""
    game = midgame(pack, players, seed)
    pools = Knowledge(game, 0).pools(game)
    other = game.clone()
    big = max(pools, key=len)
    a, b = next((x, y) for x in big for y in big
                if game.state.cards[x]["card"] != game.state.cards[y]["card"])
    row_a, row_b = other.state.card_to_change(a), other.state.card_to_change(b)  # a clone's own
    for key in ("card", "owner"):
        row_a[key], row_b[key] = row_b[key], row_a[key]
    other.rows = [other.program.card_rows[c["card"]] for c in other.state.cards]
    assert other.to_json() != game.to_json()
    assert determinize(other, 0, Rng(9)).to_json() == determinize(game, 0, Rng(9)).to_json()


def test_knowledge_read_step_by_step_equals_knowledge_read_at_once() -> None:
    game = midgame("era", 2, 5, decisions=10)
    knowledge = Knowledge(game, 1)
    agents = [RandomAgent(1), RandomAgent(2)]
    for _ in range(30):
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
        knowledge.update(game)
    fresh = Knowledge(game, 1)
    assert knowledge.pools(game) == fresh.pools(game)
    assert (determinize(game, 1, Rng(3), knowledge).to_json()
            == determinize(game, 1, Rng(3)).to_json())


# --- memory, on small rules --------------------------------------------------------------

STATE = """\
zone draw: per_player, ordered, hidden, deck main
zone hand: per_player, owner
zone used: per_player, ordered, public
counter points "Points": per_player, min 0
"""

SEEN_THEN_HIDDEN = """
setup:
  for each p in players():
    shuffle draw(p)
    move top_card(draw(p)) to used(p) face up
    move top_card(used(p)) to hand(p) face down
{again}
round:
  turn:
    may "Score":
      gain 1 points
win p when p.points >= 5
"""


def mini_game(tmp_path: Path, rules: str) -> Game:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STATE + rules)
    return Game.new(loads_tables(compile_pack(pack).data), 2, 3)


def opponents_hidden_card(game: Game, draws: int) -> set[str]:
    [card] = game.state.zones["hand"][1]
    assert not visible(game, card, 0)
    return {determinize(game, 0, Rng(d)).state.cards[card]["card"] for d in range(draws)}


def test_a_card_seen_face_up_is_remembered_when_it_goes_out_of_sight(tmp_path: Path) -> None:
    game = mini_game(tmp_path, SEEN_THEN_HIDDEN.format(again=""))
    [card] = game.state.zones["hand"][1]
    assert opponents_hidden_card(game, 12) == {game.state.cards[card]["card"]}


def test_a_card_shuffled_away_is_forgotten(tmp_path: Path) -> None:
    again = """  for each p in players():
    move hand(p) to draw(p) face down
    shuffle draw(p)
    move top_card(draw(p)) to hand(p) face down"""
    game = mini_game(tmp_path, SEEN_THEN_HIDDEN.format(again=again))
    assert len(opponents_hidden_card(game, 12)) > 1


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), decisions=st.integers(0, 80), draw=st.integers(0, 1000),
       pack=st.sampled_from([("era", 2), ("era-of-kingdoms", 2), ("embers-of-empire", 3)]))
def test_any_position_any_draw_keeps_the_view_and_the_cards(
        seed: int, decisions: int, draw: int, pack: tuple[str, int]) -> None:
    t = tables(pack[0])
    game = Game.new(t, pack[1], seed, deal_decks(t, pack[1], seed) or None)
    agents = [RandomAgent(seed + i) for i in range(pack[1])]
    for _ in range(decisions):
        if game.terminal:
            break
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
    for viewer in range(pack[1]):
        twin = determinize(game, viewer, Rng(draw))
        assert twin.observation(viewer) == game.observation(viewer)
        assert faces(twin) == faces(game)
        twin.state.check()
