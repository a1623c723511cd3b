"""How compile time grows with pack size, measured against a bare YAML parse of the same files.

For synthetic packs of 1,000 and 10,000 cards (``--sizes``) this prints, side by side in one
run: the **first compile in a fresh process** (no table cache, every in-process cache such as
the notation parser's empty; Lark's parser tables loaded from the user's cache, as after any
earlier run), the time PyYAML's CSafeLoader takes to parse the same deck files in a fresh
process, their ratio, the cached recompile (a table-cache hit, also in a fresh process) and
its ratio to the parse, and the peak memory of a compile.  Every figure is the median of
``--repeat`` fresh processes, in CPU seconds (the machine is shared), imports excluded.
Targets (issue 16): first compile of 10,000 cards at most 1.0x the parse, cached at most 0.05x.
``--against DIR`` also times the first compile of another decklore, installed in DIR with
``pip install --no-deps --target DIR``, in the same run: the two take turns process by
process, so that load on the machine falls on both alike.

    python benchmarks/compile_scaling.py [--sizes 1000,10000] [--repeat 5] [--against DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import yaml

from decklore.compiler import TableCache, compile_pack

CARDS_PER_FILE = 1000
SYMBOLS = ["progress", "harvest", "money", "build", "military", "ruin", "vision"]


def _notation(rng: random.Random) -> str:
    items = []
    for _ in range(rng.randint(1, 3)):
        count = rng.choice(["", "", "2 "])
        lock = rng.choice(["", "", "", "[A]"])
        items.append(f"{count}{rng.choice(SYMBOLS)}{lock}")
    return ", ".join(items)


def make_pack(root: Path, cards: int, seed: int = 1) -> Path:
    """A pack shaped like ERA (same vocabulary and fields) with ``cards`` varied cards."""
    rng = random.Random(seed)
    era = Path(__file__).resolve().parent.parent / "cards" / "era"
    pack = root / f"pack{cards}"
    (pack / "decks").mkdir(parents=True)
    shutil.copytree(era / "icons", pack / "icons")
    manifest = (era / "pack.yaml").read_text(encoding="utf-8")
    head, _, _ = manifest.partition("\ndecks:\n")
    head = head.replace("notes: notes.md\n", "")
    files = (cards + CARDS_PER_FILE - 1) // CARDS_PER_FILE
    deck_list = "".join(f"  - decks/d{i:03}.yaml\n" for i in range(files))
    (pack / "pack.yaml").write_text(f"{head}\ndecks:\n{deck_list}", encoding="utf-8")
    n = 0
    for i in range(files):
        lines = [f"deck:\n  id: d{i:03}\n  name: Deck {i}\n  tags: [synthetic]\ncards:\n"]
        for _ in range(min(CARDS_PER_FILE, cards - n)):
            flourish = rng.random() < 0.3
            notation = _notation(rng) + (" - progress" if flourish else "")
            lines.append(
                f"  - id: card-{n}\n"
                f"    name: Card {n}\n"
                f"    kind: {rng.choice(['normal', 'normal', 'conflict', 'resource'])}\n"
                f"    cost: {rng.randint(0, 6)}\n"
                + (f"    flourish_cost: {rng.randint(1, 3)}\n" if flourish else "")
                + ("    lock: A\n" if rng.random() < 0.1 else "")
                + f"    symbols: \"{notation}, key(A)\"\n"
                f"    defense: {rng.choice(['military', 'ruin'])} {rng.randint(1, 6)}"
                + (f" +{rng.randint(1, 3)}" if flourish else "") + "\n"
                f"    stars: {rng.randint(0, 3)}\n"
                f"    copies: {rng.randint(1, 4)}\n"
                f"    text: Card number {n}, worth one {{progress}} in play.\n"
            )
            n += 1
        (pack / "decks" / f"d{i:03}.yaml").write_text("".join(lines), encoding="utf-8")
    return pack


def worker(kind: str, pack: Path, cache_dir: Path) -> float:
    """One measurement, the first of its kind in this process: CPU seconds."""
    decks = sorted((pack / "decks").glob("*.yaml"))
    if kind == "parse":
        texts = [p.read_text(encoding="utf-8") for p in decks]
        start = time.process_time()
        for text in texts:
            yaml.load(text, Loader=yaml.CSafeLoader)
        return time.process_time() - start
    cache = TableCache(cache_dir) if kind == "cached" else None
    start = time.process_time()
    result = compile_pack(pack, cache=cache)
    spent = time.process_time() - start
    assert result.from_cache == (kind == "cached")
    return spent


def fresh(kind: str, pack: Path, cache_dir: Path, repeat: int,
          sites: tuple[str | None, ...] = (None,)) -> list[float]:
    """For each site (None: this decklore; a folder: the decklore installed there), the
    median of ``repeat`` fresh processes, each measuring once.  The sites take turns run
    by run, so that load on the shared machine falls on each of them alike."""
    times: list[list[float]] = [[] for _ in sites]
    for _ in range(repeat):
        for spent, site in zip(times, sites, strict=True):
            env = dict(os.environ, PYTHONPATH=site) if site else None
            done = subprocess.run([sys.executable, __file__, "--worker", kind, str(pack),
                                   str(cache_dir)], check=True, capture_output=True,
                                  text=True, env=env)
            spent.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return [statistics.median(spent) for spent in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", metavar="DIR",
                        help="also time the first compile of the decklore installed in DIR "
                             "(pip install --no-deps --target DIR)")
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        kind, pack, cache_dir = args.worker
        print(json.dumps(worker(kind, Path(pack), Path(cache_dir))))
        return
    small = make_pack(Path(tempfile.mkdtemp()), 10)
    compile_pack(small)  # parser tables into the user cache
    if args.against:  # the same for the other decklore (twice: older ones rebuilt them once)
        fresh("compile", small, small, 2, (args.against,))
    print(f"{'cards':>7} {'first compile s':>16} {'CSafeLoader s':>14} {'ratio':>6} "
          f"{'cached s':>9} {'cached/parse':>13} {'peak MiB':>9}"
          + (f" {'other first s':>14} {'other ratio':>12}" if args.against else ""))
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            pack = make_pack(Path(tmp), size)
            cache_dir = Path(tmp) / f"cache{size}"
            compile_pack(pack, cache=TableCache(cache_dir))
            parse = fresh("parse", pack, cache_dir, args.repeat)[0]
            sites = (None, args.against) if args.against else (None,)
            first, *theirs = fresh("compile", pack, cache_dir, args.repeat, sites)
            cached = fresh("cached", pack, cache_dir, args.repeat)[0]
            tracemalloc.start()
            compile_pack(pack)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            other = "".join(f" {their:>14.3f} {their / parse:>12.2f}" for their in theirs)
            print(f"{size:>7} {first:>16.3f} {parse:>14.3f} {first / parse:>6.2f} "
                  f"{cached:>9.4f} {cached / parse:>13.3f} {peak:>9.1f}{other}")


if __name__ == "__main__":
    main()
