"""What a search budget costs: seconds and iterations per decision for MCTS settings.

Each setting plays a few seeded games (ERA unless ``--pack`` says) against the greedy
agent, seats swapped, so its decisions are the ones it meets in play (``--decisions``
stops a game early), and the tree kept below its own answer
(``reuse``) is used where a decision follows the agent's own. For each setting it prints
the seconds a decision (CPU and wall clock, on this machine as loaded as it is now), the
new iterations a decision, and the share of decisions that ran short of the budget (the
answer settled early, or the kept tree already held part of it). With ``--profile`` it
also prints where the time of one game of the first setting goes (cProfile, by cumulative
time).

    python benchmarks/mcts_budget.py
    python benchmarks/mcts_budget.py --settings iters=100,iters=100:greedy=0 --profile
    python benchmarks/mcts_budget.py --pack era-of-kingdoms --players 3 --games 1 \
        --decisions 10 --after 1500 --settings iters=100:depth=4:greedy=1
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import make_agent
from decklore.runtime.game import Game
from decklore.runtime.mcts import make_mcts
from decklore.runtime.simulate import deal_decks
from decklore.runtime.tables import Tables


def measure(tables: Tables, games: int, settings: str, players: int = 2,
            most: int = 0, after: int = 0) -> str:
    """Seconds and iterations a decision over ``games`` games against greedy, seats swapped
    (the search agent in one seat, greedy in the others); ``most`` stops each game after
    that many decisions of the search agent (0: play it out), ``after`` has greedy play
    the search agent's seat for the game's first decisions (a late position's cost)."""
    cpu = wall = 0.0
    decisions = iterations = settled = 0
    budget = make_mcts(0, tables.raw, settings).settings.iters
    for index in range(games):
        seed = 100 + index
        game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None)
        mine = index % players
        agent = make_mcts(seed, tables.raw, settings)
        other = make_agent("greedy", seed, tables.raw)
        made = 0
        while not game.terminal and not (most and made >= most):
            if game.current_player() != mine or game.state.info["decisions"] < after:
                game.apply(other.choose(game))
                continue
            made += 1
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            choice = agent.choose(game)
            cpu += time.process_time() - cpu_start
            wall += time.perf_counter() - wall_start
            decisions += 1
            iterations += agent.iterations
            settled += agent.iterations < budget
            game.apply(choice)
    if not decisions:
        return f"{settings:>28} {0:>9}  (every game ended before the search agent's turn)"
    return (f"{settings:>28} {decisions:>9} {cpu / decisions:>9.3f} {wall / decisions:>10.3f} "
            f"{iterations / decisions:>9.1f} {settled / decisions:>8.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--settings", default="iters=200:depth=24:explore=0.7:spread=0:"
                        "greedy=0:gain=0,iters=200:greedy=0,iters=50,iters=100,iters=200,"
                        "iters=100:reuse=1",
                        help="comma-separated mcts settings to compare")
    parser.add_argument("--games", type=int, default=2, help="games a setting plays")
    parser.add_argument("--pack", default="era", help="a bundled pack")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=0,
                        help="stop each game after the search agent's first N decisions "
                        "(0: play it out; Era of Kingdoms games are long)")
    parser.add_argument("--after", type=int, default=0,
                        help="greedy plays every seat for the game's first N decisions")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    pack = bundled_pack(args.pack)
    assert pack is not None, f"no bundled pack {args.pack}"
    tables = compiled_tables(pack)
    cut = f", its first {args.decisions} decisions a game" if args.decisions else ""
    cut += f", from the game's decision {args.after}" if args.after else ""
    print(f"{tables.pack['name']}, {args.players} players, the search agent against greedy, "
          f"{args.games} games a setting, seats swapped{cut}")
    print(f"{'settings':>28} {'decisions':>9} {'cpu s/dec':>9} {'wall s/dec':>10} "
          f"{'iters/dec':>9} {'short':>8}")
    for settings in args.settings.split(","):
        print(measure(tables, args.games, settings, args.players, args.decisions,
                      args.after), flush=True)
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(measure, tables, 1, args.settings.split(",")[0], args.players,
                        args.decisions, args.after)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
