"""How the search agent spends its budget: shortcuts that save time never change a choice.

Positions come from ERA games played by the greedy agent (quick, and real mid-game
decisions); the search agent is compared with itself with the shortcut turned off.
"""

from __future__ import annotations

import pytest

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime import mcts
from decklore.runtime.agents import make_agent
from decklore.runtime.game import Game
from decklore.runtime.simulate import deal_decks
from decklore.runtime.tables import Tables


@pytest.fixture(scope="module")
def era() -> Tables:
    pack = bundled_pack("era")
    assert pack is not None
    return compiled_tables(pack)


def positions(tables: Tables, seed: int, count: int) -> list[Game]:
    """Decisions with a real choice from one greedy game, every seventh one."""
    game = Game.new(tables, 2, seed, deal_decks(tables, 2, seed) or None)
    players = [make_agent("greedy", seed + p, tables.raw) for p in range(2)]
    found: list[Game] = []
    step = 0
    while not game.terminal and len(found) < count:
        if step % 7 == 3 and game.option_count() > 1:
            found.append(game.clone())
        player = game.current_player()
        assert player is not None
        game.apply(players[player].choose(game))
        step += 1
    return found


def test_the_search_stops_once_the_answer_is_settled_and_answers_the_same(
        era: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = "iters=40:depth=2"
    games = positions(era, 3, 6)
    quick = [mcts.make_mcts(5, era.raw, spec) for _ in games]
    picked = [agent.choose(game.clone()) for agent, game in zip(quick, games, strict=True)]
    ran = [agent.iterations for agent in quick]
    monkeypatch.setattr(mcts, "_settled", lambda *_: False)
    full = [mcts.make_mcts(5, era.raw, spec) for _ in games]
    assert [agent.choose(game.clone()) for agent, game in zip(full, games, strict=True)
            ] == picked
    assert all(agent.iterations == 40 for agent in full)
    assert all(n <= 40 for n in ran) and sum(ran) < 40 * len(games)


def test_the_tree_below_its_answer_is_kept_for_the_seats_next_decision_only(
        era: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision straight after the agent's own starts from what the last search learnt
    there (fewer new iterations); after anyone else's answer it starts afresh."""
    monkeypatch.setattr(mcts, "_settled", lambda *_: False)
    game = Game.new(era, 2, 8, deal_decks(era, 2, 8) or None)
    search = mcts.make_mcts(4, era.raw, "iters=30:depth=2:reuse=1")
    other = make_agent("greedy", 4, era.raw)
    after_own: list[int] = []
    after_other: list[int] = []
    last = None
    for _ in range(60):
        player = game.current_player()
        assert player is not None
        if player == 0:
            choice = search.choose(game)
            if game.option_count() > 1:
                (after_own if last == 0 else after_other).append(search.iterations)
        else:
            choice = other.choose(game)
        if game.option_count() > 1:
            last = player
        game.apply(choice)
    assert after_other and all(n == 30 for n in after_other)
    assert after_own and any(n < 30 for n in after_own)
    assert all(0 <= n <= 30 for n in after_own)


def test_the_search_spends_its_visits_on_the_answers_that_look_best(era: Tables) -> None:
    """ERA answers differ by a few points of the weights, a sliver of the -1..1 a value
    lives in: stretched across each decision's answers, the differences steer the search
    (the chosen answer takes most visits) instead of being lost in the exploration term
    (visits spread almost evenly, as with ``spread=0``)."""
    games = positions(era, 5, 6)

    def shares(spec: str) -> list[float]:
        found = []
        for game in games:
            agent = mcts.make_mcts(9, era.raw, spec)
            chosen = agent.choose(game.clone())
            assert agent.root is not None
            keys = mcts.answer_keys(game)
            visits = [agent.root.visits.get(key, 0) for key in keys]
            found.append(visits[chosen] / sum(visits))
        return found

    stretched, even = shares("iters=60:depth=2:greedy=0"), shares(
        "iters=60:depth=2:greedy=0:spread=0")
    assert min(stretched) > 0.7
    assert sum(stretched) > sum(even) + 0.15 * len(games)


def test_a_greedy_playout_takes_the_answer_the_weights_like_best(era: Tables) -> None:
    """With ``greedy=1`` every playout decision is the deciding seat's best next position
    by the pack's weights (``greedy=0`` plays at random)."""
    from decklore.runtime.agents import evaluate
    from decklore.runtime.rng import Rng

    agent = mcts.make_mcts(3, era.raw, "iters=10:depth=1:greedy=1")
    random_agent = mcts.make_mcts(3, era.raw, "iters=10:depth=1:greedy=0")
    picked_best = random_best = 0
    for game in positions(era, 6, 6):
        player = game.current_player()
        assert player is not None
        scores = []
        for index in range(game.option_count()):
            trial = game.clone()
            trial.apply(index)
            scores.append(evaluate(trial, player, agent.weights))
        for search in (agent, random_agent):
            search.rng = Rng(11)
            after = search._playout(game.clone())
            best = evaluate(after, player, agent.weights) == max(scores)
            if search is agent:
                assert best
                picked_best += 1
            else:
                random_best += best
    assert picked_best == 6 and random_best < 6


def test_answers_are_judged_by_what_they_gain_not_by_the_lead_already_held(
        era: Tables) -> None:
    """Late in a game one seat's weights add up to a lead that squashes to nearly 1 for
    every answer; judged by the gain since the iteration's start (the default) the answers'
    values stay where the squashing curve still separates them."""
    game = positions(era, 5, 6)[-1]
    means = {}
    for spec in ("iters=60:depth=2:greedy=0", "iters=60:depth=2:greedy=0:gain=0"):
        agent = mcts.make_mcts(9, era.raw, spec)
        agent.choose(game.clone())
        assert agent.root is not None
        means[spec] = [mcts._mean(agent.root, key) for key in mcts.answer_keys(game)]
    assert all(abs(m) < 0.5 for m in means["iters=60:depth=2:greedy=0"])
    assert any(abs(m) > 0.6 for m in means["iters=60:depth=2:greedy=0:gain=0"])
