"""Playout speed: ERA games per second and decisions per second, in one process.

Random against random, then greedy against greedy, from the bundled ERA pack, each game
seeded. Decisions are the choices agents make (forced ones are taken by the engine and not
counted); steps are the statements and loop turns the interpreter runs. The reference point
in the engine issue is a hand-written pure-Python Uno engine (RLCard) at about 85,000
decisions per second; ERA asks for far fewer decisions per game, so steps per second is
printed too. Run with --profile to see where the time goes.

    python benchmarks/playouts.py [--games 200] [--greedy-games 20] [--profile]
    python benchmarks/playouts.py --pack era-of-kingdoms --players 3 --games 20 \
        --greedy-games 2 --budget 100000

Random play can starve ERA (every card committed to the build pile, nothing bought, no rule
to move the game on); those games run until the step budget, so the random rows are also
split into games won and games starved.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from decklore.cards import bundled_pack
from decklore.compiler.scenarios import compiled_tables
from decklore.runtime.agents import GreedyAgent, RandomAgent, Weights
from decklore.runtime.engine import Game, StepBudgetExceeded
from decklore.runtime.simulate import deal_decks
from decklore.runtime.tables import Tables


def run(tables: Tables, games: int, kind: str, budget: int,
        players: int = 2) -> list[dict[str, float]]:
    """One row for all games, then one for the games won and one for those that starved."""
    totals = {name: {"games": 0, "decisions": 0, "steps": 0, "seconds": 0.0}
              for name in ("all", "won", "starved")}
    for seed in range(games):
        start = time.perf_counter()
        game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                        budget=budget)
        seats = range(game.state.players)
        weights = Weights.from_tables(tables.raw)
        agents = [RandomAgent(seed * 7 + i) if kind == "random"
                  else GreedyAgent(seed * 7 + i, weights) for i in seats]
        try:
            while not game.terminal:
                player = game.current_player()
                assert player is not None
                game.apply(agents[player].choose(game))
        except StepBudgetExceeded:
            pass
        elapsed = time.perf_counter() - start
        starved = game.result is not None and game.result["reason"] == "step budget"
        for name in ("all", "starved" if starved else "won"):
            row = totals[name]
            row["games"] += 1
            row["decisions"] += game.state.info["decisions"]
            row["steps"] += game.state.info["steps"]
            row["seconds"] += elapsed
    rows = []
    for name, row in totals.items():
        if not row["games"]:
            continue
        seconds = row["seconds"] or 1e-9
        rows.append({"label": f"{kind} v {kind}" + ("" if name == "all" else f" ({name})"),
                     "games": row["games"], "seconds": seconds,
                     "games/s": row["games"] / seconds,
                     "decisions/s": row["decisions"] / seconds,
                     "steps/s": row["steps"] / seconds,
                     "decisions/game": row["decisions"] / row["games"]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--greedy-games", type=int, default=20)
    parser.add_argument("--budget", type=int, default=20_000,
                        help="step budget per game (random play can starve ERA)")
    parser.add_argument("--pack", default="era", help="a bundled pack (era, era-of-kingdoms)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    pack = bundled_pack(args.pack)
    assert pack is not None, f"no bundled pack {args.pack}"
    tables = compiled_tables(pack)
    Game.new(tables, args.players, 0)  # build the program once, outside the timings
    if args.profile:
        cProfile.runctx("run(tables, args.games, 'random', args.budget, args.players)", globals(),
                        {"run": run, "tables": tables, "args": args}, "/tmp/playouts.prof")
        pstats.Stats("/tmp/playouts.prof").sort_stats("tottime").print_stats(15)
        return
    print(f"{'agents':<26}{'games':>7}{'seconds':>9}{'games/s':>9}{'decisions/s':>13}"
          f"{'steps/s':>10}{'dec/game':>10}")
    for kind, games in (("random", args.games), ("greedy", args.greedy_games)):
        for r in run(tables, games, kind, args.budget, args.players):
            print(f"{r['label']:<26}{r['games']:>7}{r['seconds']:>9.2f}{r['games/s']:>9.1f}"
                  f"{r['decisions/s']:>13,.0f}{r['steps/s']:>10,.0f}"
                  f"{r['decisions/game']:>10.1f}")


if __name__ == "__main__":
    main()
