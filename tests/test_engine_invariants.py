"""What must hold in every game, checked over thousands of seeded random games of ERA.

- cards are conserved: every card instance is in exactly one place, the one it records;
- no counter goes below its minimum;
- every game ends, by a win or by the step budget (a game that can no longer move on ends
  by ERA's rules, so random players no longer starve it; a long game may still outrun the
  small budget used here);
- at three and four players too, where every game ends without hitting the budget;
- the same seed and choices give the same game, event for event;
- a saved game resumes exactly, and a clone never changes its original.

Random agents are used because they reach the odd corners of the rules that sensible play
avoids; the numbers of budget hits are reported in the assertion messages.
"""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from random_play import check_invariants, play_out

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.game import Game, StepBudgetExceeded
from decklore.runtime.simulate import deal_decks, simulate
from decklore.runtime.tables import Tables

GAMES = 2000
BUDGET = 20_000
"""Small enough that a starved random game stops quickly; ERA's games use 2,000 to 15,000."""


@cache
def era() -> Tables:
    pack = bundled_pack("era")
    assert pack is not None
    return compiled_tables(pack)


def play(seed: int, budget: int = BUDGET, *, check_every: int = 0) -> Game:
    tables = era()
    game = Game.new(tables, 2, seed, deal_decks(tables, 2, seed), budget=budget)
    agents = [RandomAgent(seed * 2 + 1), RandomAgent(seed * 2 + 2)]
    return play_out(game, agents, check_every=check_every)


def test_invariants_hold_over_thousands_of_random_games() -> None:
    ended = budget = 0
    reasons: dict[str, int] = {}
    for seed in range(GAMES):
        game = play(seed, check_every=25)
        check_invariants(game)
        assert game.terminal and game.result is not None
        if game.result["reason"] == "step budget":
            budget += 1
        else:
            ended += 1
            assert game.result["winners"], game.result
            reason = game.result["reason"]
            reasons[reason] = reasons.get(reason, 0) + 1
    summary = f"{ended} won, {budget} hit the step budget, by {reasons}"
    assert ended + budget == GAMES, summary
    assert ended > GAMES // 2, summary


MULTIPLAYER_GAMES = 60
"""Per player count: a random three- or four-player game takes about a second."""


def test_invariants_hold_in_random_three_and_four_player_games() -> None:
    tables = era()
    for players in (3, 4):
        reasons: dict[str, int] = {}
        for seed in range(MULTIPLAYER_GAMES):
            game = Game.new(tables, players, seed, deal_decks(tables, players, seed))
            agents = [RandomAgent(seed * 4 + p) for p in range(players)]
            play_out(game, agents, check_every=25)
            check_invariants(game)
            assert game.terminal and game.result is not None
            reason = game.result["reason"]
            reasons[reason] = reasons.get(reason, 0) + 1
            assert reason != "step budget", (players, seed, game.result)
            assert game.result["winners"], (players, seed, game.result)
            # An eliminated player never wins.
            out = game.state.info["out"]
            assert not set(out) & set(game.result["winners"])
        assert sum(reasons.values()) == MULTIPLAYER_GAMES, reasons


def test_same_seed_same_game_event_for_event() -> None:
    for seed in range(40):
        assert play(seed).log_hash() == play(seed).log_hash()


def test_different_seeds_give_different_games() -> None:
    assert len({play(seed).log_hash() for seed in range(20)}) == 20


def _continue(game: Game, agent_seed: int, steps: int) -> None:
    agents = [RandomAgent(agent_seed), RandomAgent(agent_seed + 1)]
    try:
        for _ in range(steps):
            if game.terminal:
                return
            player = game.current_player()
            assert player is not None
            game.apply(agents[player].choose(game))
    except StepBudgetExceeded:
        pass


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 120))
def test_save_and_resume_gives_the_same_continuation(seed: int, cut: int) -> None:
    game = Game.new(era(), 2, seed, deal_decks(era(), 2, seed), budget=BUDGET)
    _continue(game, seed, cut)
    saved = game.to_json()
    resumed = Game.from_json(era(), saved)
    assert resumed.to_json() == saved
    _continue(game, seed + 7, 200)
    _continue(resumed, seed + 7, 200)
    assert resumed.log_hash() == game.log_hash()
    assert resumed.to_json() == game.to_json()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 120))
def test_a_clone_is_independent_and_plays_the_same(seed: int, cut: int) -> None:
    game = Game.new(era(), 2, seed, deal_decks(era(), 2, seed), budget=BUDGET)
    _continue(game, seed, cut)
    before = game.to_json()
    twin = game.clone()
    _continue(twin, seed + 3, 150)
    assert game.to_json() == before
    _continue(game, seed + 3, 150)
    assert game.to_json() == twin.to_json()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 1000), max_size=150))
def test_any_sequence_of_legal_choices_keeps_the_invariants(seed: int,
                                                            choices: list[int]) -> None:
    game = Game.new(era(), 2, seed, deal_decks(era(), 2, seed), budget=BUDGET)
    try:
        for choice in choices:
            if game.terminal:
                break
            actions = game.legal_actions()
            assert actions and all(a.description for a in actions)
            game.apply(choice % len(actions))
            check_invariants(game)
    except StepBudgetExceeded:
        pass
    check_invariants(game)


def test_observations_hide_face_down_cards_even_from_their_owner() -> None:
    game = play(3, budget=BUDGET)
    for viewer in (0, 1):
        obs = game.observation(viewer)
        for zone, spec in game.program.zones.items():
            if spec["per"] != "player":
                continue
            for seat, cards in enumerate(game.state.zones[zone]):
                for view, instance in zip(obs["zones"][zone][seat], cards, strict=True):
                    row = game.state.cards[instance]
                    seen = viewer in row.get("seen", ())
                    if not row["face_up"] and not seen:
                        assert "card" not in view and "instance" not in view
                    if spec["visibility"] == "hidden" and not seen:
                        assert "card" not in view
                    if spec["visibility"] == "owner" and seat != viewer and not seen:
                        assert "card" not in view


def test_parallel_jobs_give_the_same_results_as_one() -> None:
    data = (bundled_pack("era") is not None) and era()
    assert data
    from decklore.compiler.pipeline import compile_pack

    pack = bundled_pack("era")
    assert pack is not None
    raw = compile_pack(pack).data
    one = simulate(raw, 6, 5, 2, ["random"], budget=BUDGET)
    two = simulate(raw, 6, 5, 2, ["random"], budget=BUDGET, jobs=2)
    assert one == two
