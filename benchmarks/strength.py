"""Agent strength: win rates with 95% intervals, for each pairing of agents, seat-swapped.

For each pack and each pairing (MCTS against random, MCTS against greedy, greedy against
random) it plays ``--games`` games, half with the first agent in seat 1 and half in seat 2,
and prints the first agent's win rate with its Wilson 95% interval, the draws and unfinished
games, and the seconds per decision each agent took. Game ``i`` of a pairing always gets
the same seed, decks and agent seeds, so a run replays exactly for a budget in iterations,
whatever ``--jobs`` is. Era of Kingdoms plays with two players here, so that one opponent
faces the searching agent as in ERA.

The issue's full table (200 games per pairing, 400 iterations):

    python benchmarks/strength.py --games 200 --iters 400 --jobs 2

A sized-down run for a shared machine:

    python benchmarks/strength.py --games 20 --iters 60
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections.abc import Sequence
from dataclasses import dataclass

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import make_agent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.simulate import deal_decks, game_seed
from decklore.runtime.tables import Tables
from decklore.runtime.tally import wilson

PACKS = ("era", "era-of-kingdoms")


@dataclass(frozen=True)
class Outcome:
    """One game of a pairing: whether the first agent won, drew, and the time it took."""

    won: bool
    drawn: bool
    unfinished: bool
    seconds: tuple[float, float]
    decisions: tuple[int, int]


_TABLES: dict[str, Tables] = {}


def _tables(pack: str) -> Tables:
    if pack not in _TABLES:
        found = bundled_pack(pack)
        assert found is not None, pack
        _TABLES[pack] = compiled_tables(found)
    return _TABLES[pack]


def play(job: tuple[str, int, str, str, int, int]) -> Outcome:
    """Game ``index`` of a pairing: the first agent sits in seat 1 on even games."""
    pack, players, first, second, base, index = job
    tables = _tables(pack)
    seed = game_seed(base, index)
    swap = index % 2 == 1
    names = [second, first] if swap else [first, second]
    names += [names[1]] * (players - 2)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None)
    agents = [make_agent(name, seed + 1 + i, tables.raw) for i, name in enumerate(names)]
    seconds = [0.0, 0.0]
    decisions = [0, 0]
    mine = 1 if swap else 0
    try:
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            start = time.perf_counter()
            choice = agents[player].choose(game)
            side = 0 if player == mine else 1
            seconds[side] += time.perf_counter() - start
            decisions[side] += 1
            game.apply(choice)
    except RulesError:
        pass
    result = game.result or {"winners": [], "reason": "step budget"}
    winners = result["winners"]
    return Outcome(mine in winners, not winners and result["reason"] != "step budget",
                   result["reason"] == "step budget", (seconds[0], seconds[1]),
                   (decisions[0], decisions[1]))


def pairing(pack: str, players: int, first: str, second: str, games: int, seed: int,
            jobs: int) -> list[Outcome]:
    work = [(pack, players, first, second, seed, i) for i in range(games)]
    if jobs <= 1:
        return [play(job) for job in work]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return pool.map(play, work)


def row(first: str, second: str, outcomes: Sequence[Outcome]) -> str:
    n = len(outcomes)
    wins = sum(o.won for o in outcomes)
    low, high = wilson(wins, n)
    draws = sum(o.drawn for o in outcomes)
    unfinished = sum(o.unfinished for o in outcomes)

    def per_decision(side: int) -> str:
        made = sum(o.decisions[side] for o in outcomes)
        return f"{sum(o.seconds[side] for o in outcomes) / made:.3f}" if made else "-"

    return (f"{first:>16} v {second:<8} {n:>5} {wins:>5} {wins / n:>6.1%}  "
            f"[{low:.1%}, {high:.1%}]  {draws:>5} {unfinished:>5}   "
            f"{per_decision(0):>7} {per_decision(1):>7}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--iters", type=int, default=400, help="MCTS iterations a decision")
    parser.add_argument("--depth", type=int, default=None, help="MCTS playout length")
    parser.add_argument("--packs", default=",".join(PACKS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--pairings", default="mcts-random,mcts-greedy,greedy-random")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    mcts = f"mcts:iters={args.iters}" + (f":depth={args.depth}" if args.depth else "")
    names = {"mcts": mcts, "greedy": "greedy", "random": "random"}
    pairs = [(names[a], names[b]) for a, b in
             (pair.split("-") for pair in args.pairings.split(","))]
    for pack in args.packs.split(","):
        print(f"\n{pack}, {args.players} players, {args.games} games a pairing, seats "
              "swapped every other game")
        print(f"{'agent':>16} v {'opponent':<8} {'games':>5} {'wins':>5} {'rate':>6}  "
              f"{'95% interval':<16} {'draws':>5} {'unfin':>5}   s/dec(a) s/dec(o)")
        for first, second in pairs:
            start = time.perf_counter()
            outcomes = pairing(pack, args.players, first, second, args.games, args.seed,
                               args.jobs)
            print(row(first, second, outcomes), f"  ({time.perf_counter() - start:.0f} s)",
                  flush=True)


if __name__ == "__main__":
    main()
