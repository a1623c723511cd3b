"""The pack's defines, generated Python against the closures, on the same positions.

This began as the prototype of ``docs/design/compiled-rules.md``; the generator it
proved is now the runtime's (``runtime/codegen.py``), and this measures that one against
the closure interpreter it keeps as the reference, on one hot path, the defines:

- it plays seeded random games of a bundled pack and keeps positions along the way;
- for every define of at most two parameters, with every argument in {0, 1} (a seat, or a
  card instance), it evaluates the closure and the generated function, each with an empty
  memo for the top-level call (inner calls are remembered alike, as the engine does);
- it checks that both give the same value or fail alike, and prints CPU time for each and
  their ratio.

``--dump`` prints the generated module (as ``decklore compile PACK --dump-python`` does).

    python benchmarks/codegen_prototype.py [--pack era] [--positions 150] [--dump]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from typing import Any

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.program import Program
from decklore.runtime.simulate import deal_decks


def positions(pack: str, players: int, count: int) -> list[Game]:
    tables = compiled_tables(bundled_pack(pack))  # type: ignore[arg-type]
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                        budget=20_000)
        agent = RandomAgent(seed)
        step = 0
        try:
            while not game.terminal and len(found) < count:
                game.apply(agent.choose(game))
                step += 1
                if step % 7 == 0:
                    found.append(game.clone())
        except RulesError:
            pass
        seed += 1
    return found


def run(calls: list[tuple[Game, Callable[..., Any], tuple[int, ...]]]) -> tuple[float, list[Any]]:
    out: list[Any] = []
    start = time.process_time()
    for game, define, args in calls:
        game.memo = {}
        try:
            out.append(define(game, *args))
        except (RulesError, TypeError, IndexError, KeyError, AttributeError) as exc:
            out.append(type(exc).__name__)
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pack", default="era")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dump", action="store_true")
    args = parser.parse_args()
    games = positions(args.pack, args.players, args.positions)
    tables = games[0].program.tables
    closures = Program(tables, generated=False).defines
    program = Program(tables, generated=True)
    assert program.generated is not None
    if args.dump:
        print(program.generated.source)
        return
    generated = program.defines
    specs = games[0].program.rules["defines"]
    calls_old, calls_new = [], []
    for game in games:
        for name, spec in specs.items():
            if len(spec["params"]) > 2:
                continue
            for values in itertools.product((0, 1), repeat=len(spec["params"])):
                calls_old.append((game, closures[name], values))
                calls_new.append((game, generated[name], values))
    rounds = []
    for _ in range(args.rounds):
        old, old_out = run(calls_old)
        new, new_out = run(calls_new)
        assert old_out == new_out, "generated defines disagree with the closures"
        rounds.append(old / new)
    rounds.sort()
    print(f"{args.pack}: {len(calls_old):,} define calls over {len(games)} positions; "
          f"closures {old:.3f} s, generated {new:.3f} s (CPU, last round); "
          f"closures / generated, median of {args.rounds} rounds: {rounds[len(rounds) // 2]:.2f}x")


if __name__ == "__main__":
    main()
