"""Simulation throughput by backend, and memory over a long streamed run.

Prints games/s for the local backend with 1 and 2 worker processes and for the Ray backend
(a local instance with the same number of cores), measured one after the other in this run,
and Ray's overhead against local multiprocessing at equal cores. Then streams one long run
to a results file and prints the process's resident memory as the games go by: flat means
memory does not grow with the number of games.

    python benchmarks/scale.py --stream 0                   # ERA: the three backends
    python benchmarks/scale.py --pack benchmarks/packs/uno --games 50 --stream 100000
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from decklore.cards import bundled_pack
from decklore.compiler import compile_pack
from decklore.runtime.results import ResultsWriter, RunHeader
from decklore.runtime.simulate import iter_games
from decklore.runtime.tables import loads_tables
from decklore.runtime.tally import Tally


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def timed(label: str, run: Iterable[object]) -> float:
    start = time.perf_counter()
    count = sum(1 for _ in run)
    rate = count / (time.perf_counter() - start)
    print(f"  {label:<28} {rate:8.1f} games/s")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="era")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--stream", type=int, default=20_000)
    parser.add_argument("--agents", default="random")
    args = parser.parse_args()
    path = bundled_pack(args.pack) or Path(args.pack)
    data = compile_pack(path).data
    tables = loads_tables(data)
    players = tables.pack["players"]["min"]
    agents = args.agents.split(",")
    print(f"{args.pack}: {args.games} games per backend, {players} players, agents {args.agents}")
    local1 = timed("local, 1 worker", iter_games(data, args.games, 1, players, agents))
    local2 = timed("local, 2 workers", iter_games(data, args.games, 1, players, agents, jobs=2))
    try:
        import ray

        from decklore.integrations.ray_backend import iter_games as ray_games
    except ImportError:
        print("  ray: not installed (pip install 'decklore[ray]')")
    else:
        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        print(f"  ray start-up (once per run)   {time.perf_counter() - start:8.1f} s")
        try:
            ray2 = timed("ray, 2 CPUs", ray_games(data, args.games, 1, players, agents,
                                                    budget=100_000))
        finally:
            ray.shutdown()
        print(f"  ray overhead against local at 2 cores: {(local2 / ray2 - 1) * 100:+.1f}%")
    print(f"  local speed-up, 2 workers over 1: {local2 / local1:.2f}x")

    if not args.stream:
        return
    print(f"\nmemory while streaming {args.stream:,} games to a results file (2 workers)")
    header = RunHeader(pack=tables.pack["id"], content_hash=tables.content_hash, seed=2,
                       players=players, agents=agents, decks=None, budget=100_000,
                       games=args.stream)
    tally = Tally(players)
    marks = {max(1, args.stream * k // 10) for k in range(1, 11)}
    half = args.stream // 2
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "run.jsonl"
        # The first half, then a stop, then --resume's way of carrying on: the same file.
        with ResultsWriter(path, header, resume=False) as out:
            for i, record in enumerate(iter_games(data, half, 2, players, agents, jobs=2),
                                       start=1):
                out.write(record)
                tally.add(record)
                if i in marks:
                    print(f"  after {i:>9,} games: {rss_mb():7.1f} MB resident")
        with ResultsWriter(path, header, resume=True) as out:
            print(f"  stopped and resumed at game {out.done:,}")
            for i, record in enumerate(iter_games(data, args.stream, 2, players, agents,
                                                  jobs=2, start=out.done), start=out.done + 1):
                out.write(record)
                tally.add(record)
                if i in marks:
                    print(f"  after {i:>9,} games: {rss_mb():7.1f} MB resident")
        size = path.stat().st_size
    print(f"  results file: {size / 1e6:.1f} MB for {tally.games:,} games; "
          f"results hash {tally.summary()['results_hash']}")


if __name__ == "__main__":
    main()
