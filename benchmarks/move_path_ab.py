"""The move path's short cuts against the general paths: the same program, in one process.

Round 8 of issue 16 gave the world a fast path for a plain move (``runtime/moves.py``),
one forget for a run of moves (``World.move_all``, ``World.hold``), ``blocks_from``
without a look at the cards when no unit blocks the symbol (``SymbolView.blocks_any``)
and outcome checks that end at once after a change no outcome reads
(``Program.outcomes_read``).  This plays seeded games of a pack with all of them off and
on, in alternated rounds, and prints decisions per second for each and the median of the
per-round ratios.  Both ways play the same games event for event
(``tests/test_move_path.py``), so only the time differs.

    python benchmarks/move_path_ab.py [--pack era] [--players 2] [--games 20] [--rounds 7]
    python benchmarks/move_path_ab.py --pack uno --games 60
    python benchmarks/move_path_ab.py --pack era --agents greedy --games 2
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path
from typing import Any

from playouts import UNO, run

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime import Game
from decklore.runtime.program import program_for
from decklore.runtime.reads import ANY
from decklore.runtime.symbols import SymbolView
from decklore.runtime.world import World


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pack", default="era", help="a bundled pack, or uno")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--agents", default="random", choices=("random", "greedy"))
    parser.add_argument("--games", type=int, default=20, help="games per way per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--budget", type=int, default=20_000)
    args = parser.parse_args()
    folder = UNO if args.pack == "uno" else bundled_pack(args.pack)
    assert folder is not None, f"no bundled pack {args.pack}"
    tables = compiled_tables(Path(folder))
    Game.new(tables, args.players, 0)  # build the program once, outside the timings
    program = program_for(tables)
    kept: dict[str, Any] = {"hold": World.hold, "blocks_any": SymbolView.blocks_any,
                            "read": program.outcomes_read}

    def general() -> None:
        World.plain_moves = False
        World.hold = lambda self: None  # type: ignore[method-assign]
        SymbolView.blocks_any = lambda self, symbol: True  # type: ignore[method-assign]
        program.outcomes_read = frozenset({ANY})  # every check goes through each outcome

    def short() -> None:
        World.plain_moves = True
        World.hold = kept["hold"]  # type: ignore[method-assign]
        SymbolView.blocks_any = kept["blocks_any"]  # type: ignore[method-assign]
        program.outcomes_read = kept["read"]

    figures: dict[str, list[float]] = {"general": [], "short cuts": []}
    run(tables, 1, args.agents, args.budget, args.players)  # warm, outside the timings
    try:
        for number in range(args.rounds):
            order = ["short cuts", "general"] if number % 2 else ["general", "short cuts"]
            for way in order:
                (short if way == "short cuts" else general)()
                row = run(tables, args.games, args.agents, args.budget, args.players)[0]
                figures[way].append(row["decisions/s"])
    finally:
        short()
    ratios = [n / o for o, n in zip(figures["general"], figures["short cuts"], strict=True)]
    print(f"{args.pack}, {args.players} players, {args.games} {args.agents} games a round, "
          f"{args.rounds} alternated rounds (decisions/s, CPU time)")
    for way, values in figures.items():
        print(f"{way:<12}{statistics.median(values):>10,.0f}   "
              + " ".join(f"{v:,.0f}" for v in values))
    print("short cuts / general (median of per-round ratios): "
          f"{statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
