"""Agents decide from what their seat may know, and search agents replay exactly.

A planted card: two games that differ only in a card the deciding seat cannot see (in the
opponent's hand) must get the same choices from an agent with the same seed.  The small
rules below make that card matter: taking it is worth more than a point when it has a
coin, so an agent that peeked would choose by it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from decklore.compiler.pipeline import compile_pack
from decklore.runtime.agents import Agent, GreedyAgent, Weights, make_agent
from decklore.runtime.describe import visible
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables, loads_tables

MINI = Path(__file__).parent / "packs" / "mini"

STEAL = """\
zone draw: per_player, ordered, hidden, deck main
zone hand: per_player, owner
zone table: per_player, public, symbols
counter points "Points": per_player, min 0
setup:
  for each p in players():
    shuffle draw(p)
    draw 1 from draw(p) to hand(p) face up
round:
  turn:
    choose one "Your move":
      option take "Take the next player's hand card" when size(hand(opponent(me))) > 0:
        move top_card(hand(opponent(me))) to table(me) face up
      option score "Score a point":
        gain 1 points
win p when p.points >= 3
"""
AI = """
ai:
  weights:
    counters: {points: 5}
    symbols: {coin: 10}
    opponents: 0
"""


@pytest.fixture(scope="module")
def steal(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    pack = tmp_path_factory.mktemp("steal") / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n" + AI)
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STEAL)
    return loads_tables(compile_pack(pack).data)


def planted(tables: Tables, seed: int, card_id: str) -> Game:
    """A new game in which the second seat's hand card is a copy of ``card_id``, taken
    from its draw pile (so the two games differ only where the first seat cannot see)."""
    game = Game.new(tables, 2, seed)
    state = game.state
    [held] = state.zones["hand"][1]
    other = next(c for c in state.zones["draw"][1] if state.cards[c]["card"].endswith(card_id)
                 ) if not state.cards[held]["card"].endswith(card_id) else held
    cards = state.cards
    cards[held]["card"], cards[other]["card"] = cards[other]["card"], cards[held]["card"]
    game.rows = [game.program.card_rows[c["card"]] for c in cards]
    game.memo.clear()
    assert not visible(game, held, 0)
    return game


def agents(tables: Tables, seed: int) -> list[Agent]:
    return [GreedyAgent(seed, Weights.from_tables(tables.raw)),
            make_agent("mcts:iters=30", seed, tables.raw)]


def test_a_card_in_the_opponents_hand_does_not_change_the_choice(steal: Tables) -> None:
    coin_taken = 0
    for seed in range(12):
        with_coin, without = planted(steal, seed, "smith"), planted(steal, seed, "ambush")
        assert with_coin.observation(0) == without.observation(0)
        for make in range(2):
            one, two = agents(steal, seed)[make], agents(steal, seed)[make]
            picked = one.choose(with_coin)
            assert picked == two.choose(without), (seed, one.name)
            coin_taken += picked == 0
    # The choice is a real one, made either way over the seeds.
    assert 0 < coin_taken < 24


def test_greedy_without_determinizing_would_read_the_planted_card(steal: Tables) -> None:
    """The planted card does matter to a peeking look-ahead: the test above can fail."""
    weights = Weights.from_tables(steal.raw)
    from decklore.runtime.agents import evaluate

    def peek(game: Game) -> int:
        scores = []
        for index in range(game.option_count()):
            trial = game.clone()
            trial.apply(index)
            scores.append(evaluate(trial, 0, weights))
        return scores.index(max(scores))

    assert peek(planted(steal, 1, "smith")) == 0
    assert peek(planted(steal, 1, "ambush")) == 1


# --- the search agent -------------------------------------------------------------------

def era_data() -> bytes:
    from decklore.cards import bundled_pack
    from decklore.compiler.pipeline import compile_pack as compile_bundled

    pack = bundled_pack("era")
    assert pack is not None
    return compile_bundled(pack).data


def test_mcts_with_an_iteration_budget_replays_exactly_with_any_number_of_jobs() -> None:
    from decklore.runtime.simulate import simulate, summarize

    data = era_data()
    agents = ["mcts:iters=4:depth=4", "greedy"]
    one = simulate(data, 2, 11, 2, agents, jobs=1)
    two = simulate(data, 2, 11, 2, agents, jobs=2)
    assert [r.log_hash for r in one] == [r.log_hash for r in two]
    assert summarize(one, 2)["results_hash"] == summarize(two, 2)["results_hash"]
    assert all(r.error is None and r.winners for r in one)


def test_mcts_settings_are_checked_with_a_clear_message() -> None:
    from decklore.runtime.agents import check_agent
    from decklore.runtime.mcts import Settings

    assert Settings.parse("iters=400:depth=20") == Settings(iters=400, depth=20)
    assert Settings.parse("seconds=1.5").seconds == 1.5
    assert check_agent("mcts:iters=ten") == "mcts setting iters must be a number, not 'ten'"
    assert check_agent("mcts:speed=3") == (
        "mcts takes iters=N, seconds=N, depth=N, explore=N, scale=N, reuse=N, spread=N, "
        "greedy=N, gain=N (separated by ':'), not 'speed=3'")
    assert check_agent("mcts:iters=0") == "give mcts a budget: iters=N or seconds=S"
    assert check_agent("greedy:iters=3") == "agent 'greedy' takes no settings (only mcts does)"
    assert check_agent("clever") == "no agent 'clever'; agents: random, greedy, mcts"
    assert check_agent("mcts") is None


def test_mcts_beats_random_play_in_a_short_game(steal: Tables) -> None:
    """Against random play in the small game, search takes coin cards and scores."""
    from decklore.runtime.agents import RandomAgent

    wins = 0
    for seed in range(6):
        game = Game.new(steal, 2, seed)
        players: list[Agent] = [make_agent("mcts:iters=60", seed, steal.raw), RandomAgent(seed)]
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            game.apply(players[player].choose(game))
        assert game.result is not None
        wins += 0 in game.result["winners"]
    assert wins >= 5


def test_the_command_line_takes_mcts_with_settings() -> None:
    import json

    from click.testing import CliRunner

    from decklore import cli

    era = Path(__file__).resolve().parent.parent / "cards" / "era"
    result = CliRunner().invoke(cli, ["simulate", str(era), "-n", "1", "--agents",
                                      "mcts:iters=3:depth=3,random", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["agents"] == ["mcts:iters=3:depth=3", "random"]
    bad = CliRunner().invoke(cli, ["simulate", str(era), "-n", "1", "--agents", "mcts:iters=x"])
    assert bad.exit_code == 2
    assert "mcts setting iters must be a number, not 'x'" in bad.output
    played = CliRunner().invoke(cli, ["play", str(era), "--players", "mcts:iters=2:depth=2,"
                                      "random", "--seed", "2"])
    assert played.exit_code == 0, played.output


def test_the_search_example_in_the_engine_docs_runs() -> None:
    """docs/engine.md's 20-line search agent plays real ERA decisions as written."""
    import re

    from decklore.runtime.rng import Rng
    from decklore.runtime.simulate import deal_decks

    docs = (Path(__file__).resolve().parent.parent / "docs" / "engine.md").read_text()
    [code] = [block for block in re.findall(r"```python\n(.*?)```", docs, re.S)
              if "def search(" in block]
    assert len(code.strip().splitlines()) <= 30
    space: dict[str, object] = {}
    exec(compile(code, "engine.md", "exec"), space)
    search = space["search"]
    tables = loads_tables(era_data())
    game = Game.new(tables, 2, 4, deal_decks(tables, 2, 4))
    rng = Rng(7)
    for _ in range(3):
        choice = search(game, rng, worlds=2, depth=4)  # type: ignore[operator]
        assert 0 <= choice < game.option_count()
        game.apply(choice)


BLIND_BUY = """\
zone draw: per_player, ordered, hidden, deck main
zone hand: per_player, owner
zone table: per_player, public, symbols
counter gold "Gold": per_player, min 0
setup:
  for each p in players():
    shuffle draw(p)
    gain 2 gold for p
round:
  turn:
    draw 2 from draw(me) to hand(me)
    repeat until pass while any(c in hand(me) where c.cost <= me.gold) "Buy":
      choose card c from hand(me) where c.cost <= me.gold "Card to buy":
        spend c.cost gold
        move c to table(me) face up
    move hand(me) to draw(me) face down
    gain 1 gold
win p when size(table(p)) >= 3
"""


def test_greedy_survives_an_imagined_world_where_its_answer_breaks_the_rules(
        tmp_path: Path) -> None:
    """Cards drawn face down into a hand are unseen even by their owner, so a determinized
    copy re-deals them, and the card an offered answer names may cost more there than the
    player has. That answer breaks the rules only in the imagined world; the agent must
    rule it out there, not stop the real game."""
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n"
                        + AI.replace("points: 5", "gold: 1"))
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(BLIND_BUY)
    tables = loads_tables(compile_pack(pack).data)
    for seed in range(1, 9):
        game = Game.new(tables, 2, seed)
        seats = [GreedyAgent(seed, Weights.from_tables(tables.raw)),
                 make_agent("random", seed, tables.raw)]
        while not game.terminal and game.state.info["turn"] < 40:
            player = game.current_player()
            assert player is not None
            game.apply(seats[player].choose(game))


def test_every_seat_judged_at_once_as_one_by_one() -> None:
    """``evaluate_all`` works each seat's worth out once, and gives exactly (to the last
    bit of the float) what ``evaluate`` gives seat by seat: the search agent's values and
    the greedy agent's ties depend on it. Weights laid out for a program still copy."""
    import copy

    from decklore.cards import bundled_pack
    from decklore.compiler.tools.scenarios import compiled_tables
    from decklore.runtime.agents import RandomAgent, evaluate, evaluate_all

    for pack, players in (("era", 2), ("era-of-kingdoms", 3)):
        tables = compiled_tables(bundled_pack(pack))  # type: ignore[arg-type]
        weights = Weights.from_tables(tables.raw)
        game = Game.new(tables, players, 4)
        agent = RandomAgent(4)
        for _ in range(30):
            if game.terminal:
                break
            alone = [evaluate(game.clone(), p, weights) for p in range(players)]
            assert evaluate_all(game, weights) == alone
            game.apply(agent.choose(game))
        assert copy.deepcopy(weights) == weights


CIRCLE = """\
zone draw: per_player, ordered, hidden, deck main
counter points "Points": per_player, min 0
flag over "Ended the turn": per_player, until turn
round:
  turn:
    repeat while not me.over:
      choose one "Your move":
        option more "Other choices":
          choose one "Other choices":
            option back "None of these":
              log "Nothing done"
        option end "End your turn (the next player scores a point)":
          gain 1 points for opponent(me)
          set over for me
win p when p.points >= 3
"""


def test_the_search_agent_does_not_go_round_in_circles(tmp_path: Path) -> None:
    """Ending a turn here gives the rival a point, and "Other choices" then "None of
    these" leads back to where it began: a short search judges standing still better
    than the turn's end, and went round until the step budget ended the game. It may
    go round once a turn; then it knows the way changes nothing."""
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n" + AI)
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(CIRCLE)
    tables = loads_tables(compile_pack(pack).data)
    for seed in range(3):
        game = Game.new(tables, 2, seed)
        agents = [make_agent("mcts:iters=30", seed, tables.raw) for _ in range(2)]
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            game.apply(agents[player].choose(game))
        result = game.state.info["result"]
        assert "error" not in result, result
        circles = sum(1 for event in game.state.log if event[0] == "log"
                      and "Nothing done" in str(event))
        assert circles <= game.state.info["turn"], (seed, circles)
