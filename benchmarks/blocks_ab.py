"""Generated blocks against the interpreter's loop: the same program, in one process.

``runtime/blockgen.py`` writes every statement block and every flow block's visit as Python;
the run loop uses them when a program has them (``Program.blocks_generated``).  This plays
seeded random games of a pack with them on and off, in alternated rounds, with the same
program and the same generated expressions both ways, and prints decisions per second for
each and the median of the per-round ratios.  The two ways play the same games, step for
step (``tests/test_blockgen.py``), so only the time differs.

    python benchmarks/blocks_ab.py [--pack era] [--players 2] [--games 20] [--rounds 5]
    python benchmarks/blocks_ab.py --pack uno --games 40
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from playouts import UNO, run

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime import Game
from decklore.runtime.program import program_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pack", default="era", help="a bundled pack, or uno")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20, help="games per way per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=int, default=20_000)
    args = parser.parse_args()
    folder = UNO if args.pack == "uno" else bundled_pack(args.pack)
    assert folder is not None, f"no bundled pack {args.pack}"
    tables = compiled_tables(Path(folder))
    Game.new(tables, args.players, 0)  # build the program once, outside the timings
    program = program_for(tables)
    generated = program.blocks_generated
    if generated is None:
        raise SystemExit("generated code is off (DECKLORE_GENERATED=0): nothing to compare")
    figures: dict[str, list[float]] = {"loop": [], "generated": []}
    try:
        for number in range(args.rounds):
            order = ["generated", "loop"] if number % 2 else ["loop", "generated"]
            for way in order:
                program.blocks_generated = generated if way == "generated" else None
                row = run(tables, args.games, "random", args.budget, args.players)[0]
                figures[way].append(row["decisions/s"])
    finally:
        program.blocks_generated = generated
    ratios = [n / o for o, n in zip(figures["loop"], figures["generated"], strict=True)]
    print(f"{args.pack}, {args.players} players, {args.games} random games a round, "
          f"{args.rounds} alternated rounds (decisions/s, CPU time)")
    for way, values in figures.items():
        print(f"{way:<12}{statistics.median(values):>10,.0f}   "
              + " ".join(f"{v:,.0f}" for v in values))
    print(f"generated / loop (median of per-round ratios): {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
