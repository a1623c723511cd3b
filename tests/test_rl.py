"""The PettingZoo environment passes PettingZoo's own API and seed tests for every bundled pack.

Skipped when the ``rl`` extra (PettingZoo, Gymnasium, NumPy) is not installed; CI installs it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from decklore.cards import bundled_pack  # noqa: E402
from decklore.compiler.tools.scenarios import compiled_tables  # noqa: E402
from decklore.integrations.rl import DeckloreEnv, text_view  # noqa: E402
from decklore.runtime.tables import Tables  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.parent.name for p in (ROOT / "cards").glob("*/pack.yaml"))
PACKS = [(pack, None) for pack in BUNDLED] + [("era-of-kingdoms", 3)]
"""Every bundled pack at its smallest number of players, and a game of three."""

# PettingZoo's api_test recommends, by warning, flat observations (ours is the dict with the
# action mask that PettingZoo's own card games use) and names its own games as exceptions;
# a finished seat has no legal action, so its mask is all zeros. The suite turns warnings
# into errors, so these three recommendations are let through here, and only these.
RECOMMENDATIONS = [
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


@cache
def tables(pack: str) -> Tables:
    found = bundled_pack(pack)
    assert found is not None
    return compiled_tables(found)


@pytest.mark.parametrize(("pack", "players"), PACKS)
@pytest.mark.filterwarnings(*RECOMMENDATIONS)
def test_pettingzoo_api_test_passes(pack: str, players: int | None) -> None:
    api_test(DeckloreEnv(tables(pack), players), num_cycles=200)


@pytest.mark.parametrize(("pack", "players"), PACKS)
@pytest.mark.filterwarnings(*RECOMMENDATIONS)
def test_pettingzoo_seed_test_passes(pack: str, players: int | None) -> None:
    seed_test(lambda: DeckloreEnv(tables(pack), players), num_cycles=200)


def test_agents_are_the_seats_and_the_mask_marks_the_legal_answers() -> None:
    env = DeckloreEnv(tables("era"), 2)
    env.reset(seed=3)
    assert env.possible_agents == ["player_1", "player_2"]
    agent = env.agent_selection
    seat = env.possible_agents.index(agent)
    assert env.game.current_player() == seat
    mask = env.observe(agent)["action_mask"]
    assert mask.sum() == env.game.option_count() and mask[:mask.sum()].all()
    other = env.possible_agents[1 - seat]
    assert env.observe(other)["action_mask"].sum() == 0


def test_the_observation_shows_only_what_the_seat_may_see() -> None:
    """Swapping two cards the seat cannot see leaves its observation as it was."""
    env = DeckloreEnv(tables("era"), 2)
    env.reset(seed=5)
    game = env.game
    before = env.observe("player_1")["observation"].copy()
    hand = game.state.zones["hand"][1] + game.state.zones["draw_pile"][1]
    a, b = next((x, y) for x in hand for y in hand
                if game.state.cards[x]["card"] != game.state.cards[y]["card"])
    cards = game.state.cards
    cards[a]["card"], cards[b]["card"] = cards[b]["card"], cards[a]["card"]
    game.rows = [game.program.card_rows[c["card"]] for c in cards]
    assert np.array_equal(env.observe("player_1")["observation"], before)
    own = game.state.zones["hand"][0]
    if own:
        cards[own[0]]["card"] = next(c.id for c in env.tables.cards
                                     if c.id != cards[own[0]]["card"])
        game.rows = [game.program.card_rows[c["card"]] for c in cards]
        assert not np.array_equal(env.observe("player_1")["observation"], before)


def test_render_shows_the_text_view() -> None:
    env = DeckloreEnv(tables("era"), 2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None and text == text_view(env.game, env.game.current_player())
    assert "Player 1" in text and "decides" in text and "  0: " in text
