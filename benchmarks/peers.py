"""decklore against a hand-written engine on the same game: RLCard's Uno.

``benchmarks/packs/uno`` is RLCard's ``UnoGame`` written as a decklore pack (the same deck,
deal, draws, plays and win; its ``notes.md`` lists RLCard's readings).  This plays random
against random in both engines, in the same process, in interleaved rounds (decklore, then
RLCard, then decklore...), and prints moves per second and games per second for each, and
the ratio decklore / RLCard as the median of the per-round ratios.

What is counted is the same in both: a **decision** is one player's move, a card played or
a card drawn.  In RLCard that is one ``step``; in decklore one turn (a forced move, such as
drawing with nothing to play, counts in both; the colour named for a wild card is part of
the move, as RLCard's "r-wild" is one action).  Moves per game are printed so that the two
games can be seen to be alike; "asked/game" is how many questions with more than one answer
each engine put to its agents (decklore asks for a wild card's colour separately).
Each game's time includes dealing it; times are CPU time of this process.

RLCard is optional (``pip install -e ".[bench]"``); without it only decklore is timed.

    python benchmarks/peers.py [--rounds 5] [--games 40] [--players 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from decklore.runtime.agents import RandomAgent
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables

PACK = Path(__file__).resolve().parent / "packs" / "uno"

Tally = dict[str, float]


def decklore_round(tables: Tables, games: int, players: int, first_seed: int) -> Tally:
    """Random games of the Uno pack: moves (turns), agent decisions and wins."""
    moves = decisions = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = Game.new(tables, players, seed)
        agents = [RandomAgent(seed * 7 + i) for i in range(players)]
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            game.apply(agents[player].choose(game))
        moves += game.state.info["turn"]
        decisions += game.state.info["decisions"]
    return {"seconds": time.process_time() - start, "games": games, "moves": moves,
            "asked": decisions}


def rlcard_round(games: int, players: int, first_seed: int) -> Tally:
    """Random games of RLCard's UnoGame, seeded, through its own step loop."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    moves = asked = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed)
        pick = random.Random(seed * 7)
        state, _ = game.init_game()
        while not game.is_over():
            legal = state["legal_actions"]
            if len(legal) > 1:
                asked += 1
            state, _ = game.step(legal[pick.randrange(len(legal))])
            moves += 1
    return {"seconds": time.process_time() - start, "games": games, "moves": moves,
            "asked": asked}


def have_rlcard() -> bool:
    try:
        import rlcard  # noqa: F401
    except ImportError:
        return False
    return True


def uno_tables() -> Tables:
    from decklore.compiler.tools.scenarios import compiled_tables

    return compiled_tables(PACK)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per engine per round")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    tables = uno_tables()
    Game.new(tables, args.players, 0)  # build the program once, outside the timings
    engines: dict[str, Callable[[int], Tally]] = {
        "decklore": lambda seed: decklore_round(tables, args.games, args.players, seed)}
    if have_rlcard():
        engines["RLCard UnoGame"] = lambda seed: rlcard_round(args.games, args.players, seed)
    else:
        print("rlcard is not installed (pip install -e \".[bench]\"): timing decklore alone")
    rounds: dict[str, list[Tally]] = {name: [] for name in engines}
    for number in range(args.rounds):
        seed = 1000 * number
        for name, play in engines.items():
            rounds[name].append(play(seed))
    print(f"{args.rounds} rounds of {args.games} random games each, {args.players} players")
    print(f"{'engine':<16}{'games/s':>10}{'decisions/s':>13}{'moves/game':>12}"
          f"{'asked/game':>12}")
    rates: dict[str, list[float]] = {}
    for name, tallies in rounds.items():
        per_round = [t["moves"] / t["seconds"] for t in tallies]
        rates[name] = per_round
        games = sum(t["games"] for t in tallies)
        seconds = sum(t["seconds"] for t in tallies)
        moves = sum(t["moves"] for t in tallies)
        asked = sum(t["asked"] for t in tallies)
        print(f"{name:<16}{games / seconds:>10,.1f}{statistics.median(per_round):>13,.0f}"
              f"{moves / games:>12.1f}{asked / games:>12.1f}")
    if len(rates) == 2:
        ours, theirs = rates.values()
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        print(f"decklore / RLCard decisions per second (median of {args.rounds} rounds): "
              f"{ratio:.3f}")


if __name__ == "__main__":
    main()
