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

``--against DIR`` times this checkout and another decklore side by side (DIR holds a
``decklore`` package, for example ``pip install --no-deps --target /tmp/main-site /tmp/main``
from a worktree of main): the issue's figures (ERA random decisions/s, ERA greedy games/s,
Era of Kingdoms 3p greedy decisions/s, clone and observation mid-game, a new game, Uno
random decisions/s), each engine in its own process, in interleaved rounds, with the median
of each figure and the median of the per-round ratios:

    python benchmarks/playouts.py --against /tmp/main-site [--rounds 3]

Random play can starve ERA (every card committed to the build pile, nothing bought, no rule
to move the game on); those games run until the step budget, so the random rows are also
split into games won and games starved.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from decklore.cards import bundled_pack

try:
    from decklore.compiler.tools.scenarios import compiled_tables
    from decklore.runtime import Game, StepBudgetExceeded
except ImportError:  # the layout before issue 16's rounds, so --against can time its baseline
    from decklore.compiler.scenarios import compiled_tables  # type: ignore[import-not-found,no-redef]
    from decklore.runtime.engine import Game, StepBudgetExceeded  # type: ignore[import-not-found,no-redef]
from decklore.runtime.agents import GreedyAgent, RandomAgent, Weights
from decklore.runtime.simulate import deal_decks
from decklore.runtime.tables import Tables


def run(tables: Tables, games: int, kind: str, budget: int,
        players: int = 2) -> list[dict[str, float]]:
    """One row for all games, then one for the games won and one for those that starved."""
    totals = {name: {"games": 0, "decisions": 0, "steps": 0, "seconds": 0.0}
              for name in ("all", "won", "starved")}
    for seed in range(games):
        start = clock()
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
        elapsed = clock() - start
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


clock = time.process_time
"""Every figure is CPU time of this process: on a shared machine, wall time mostly measures
the neighbours."""

UNO = Path(__file__).resolve().parent / "packs" / "uno"


def _mid_game(tables: Tables, players: int, seed: int, decisions: int) -> Game:
    """A game some random decisions in, where clone and observation are timed."""
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None)
    agent = RandomAgent(seed)
    for _ in range(decisions):
        if game.terminal:
            break
        game.apply(agent.choose(game))
    return game


def _micro(call: Any, repeat: int) -> float:
    """Median microseconds of one call, over ``repeat`` timed batches."""
    batches = []
    for _ in range(repeat):
        start = clock()
        for _ in range(20):
            call()
        batches.append((clock() - start) / 20 * 1e6)
    return statistics.median(batches)


def figures(scale: float) -> dict[str, float]:
    """The issue's figures for the decklore that is imported (this checkout or DIR's)."""
    era = compiled_tables(bundled_pack("era"))  # type: ignore[arg-type]
    kingdoms = compiled_tables(bundled_pack("era-of-kingdoms"))  # type: ignore[arg-type]
    uno = compiled_tables(UNO)
    for tables, players in ((era, 2), (kingdoms, 3), (uno, 2)):
        Game.new(tables, players, 0)
    out: dict[str, float] = {}
    rows = run(era, max(1, int(60 * scale)), "random", 20_000)
    out["ERA random decisions/s"] = rows[0]["decisions/s"]
    rows = run(era, max(1, int(4 * scale)), "greedy", 20_000)
    out["ERA greedy games/s"] = rows[0]["games/s"]
    rows = run(kingdoms, max(1, int(2 * scale)), "greedy", 3_000, 3)
    out["Era of Kingdoms 3p greedy decisions/s"] = rows[0]["decisions/s"]
    start = clock()
    news = max(1, int(20 * scale))
    for seed in range(news):
        Game.new(era, 2, seed)
    out["ERA Game.new ms"] = (clock() - start) / news * 1e3
    for label, tables, players in (("ERA", era, 2), ("Era of Kingdoms 3p", kingdoms, 3)):
        game = _mid_game(tables, players, 3, 40)
        out[f"{label} clone() us"] = _micro(game.clone, 15)
        viewer = game.current_player() or 0
        out[f"{label} observation() us"] = _micro(lambda g=game, v=viewer: g.observation(v), 15)
    games = max(1, int(40 * scale))
    start = clock()
    moves = 0
    for seed in range(games):
        game = Game.new(uno, 2, seed)
        agents = [RandomAgent(seed * 7), RandomAgent(seed * 7 + 1)]
        while not game.terminal:
            game.apply(agents[game.current_player() or 0].choose(game))
        moves += game.state.info["turn"]
    out["Uno random decisions/s"] = moves / (clock() - start)
    return out


LOWER_IS_BETTER = ("us", "ms")


def against(other: str, rounds: int, scale: float) -> None:
    """Time this checkout and ``other`` in turn, in separate processes, and compare."""
    script = str(Path(__file__).resolve())
    runs: dict[str, list[dict[str, float]]] = {"main": [], "new": []}
    for number in range(rounds):
        order = [("main", other), ("new", None)]
        if number % 2:
            order.reverse()
        for name, path in order:
            env = dict(os.environ)
            if path is not None:
                env["PYTHONPATH"] = path + os.pathsep + env.get("PYTHONPATH", "")
            done = subprocess.run([sys.executable, script, "--figures", str(scale)], env=env,
                                  check=True, capture_output=True, text=True)
            runs[name].append(json.loads(done.stdout.strip().splitlines()[-1]))
    print(f"{rounds} interleaved rounds, each figure the median; ratio = median of the "
          "per-round ratios (higher is better)")
    print(f"{'figure':<40}{'main':>12}{'new':>12}{'new/main':>10}")
    for key in runs["main"][0]:
        old = [r[key] for r in runs["main"]]
        new = [r[key] for r in runs["new"]]
        lower = key.endswith(LOWER_IS_BETTER)
        ratios = [(o / n if lower else n / o) for o, n in zip(old, new, strict=True)]
        print(f"{key:<40}{statistics.median(old):>12,.1f}{statistics.median(new):>12,.1f}"
              f"{statistics.median(ratios):>9.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--greedy-games", type=int, default=20)
    parser.add_argument("--budget", type=int, default=20_000,
                        help="step budget per game (random play can starve ERA)")
    parser.add_argument("--pack", default="era", help="a bundled pack (era, era-of-kingdoms)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--against", metavar="DIR",
                        help="compare with the decklore package in DIR (see above)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="how many games the --against figures play (1: about 20 s a run)")
    parser.add_argument("--figures", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.figures is not None:
        print(json.dumps(figures(args.figures)))
        return
    if args.against:
        against(args.against, args.rounds, args.scale)
        return
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
