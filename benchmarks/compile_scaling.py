"""How compile time grows with pack size, measured against a bare YAML parse of the same files.

For synthetic packs of 1,000, 10,000 and 50,000 cards this prints, side by side in one run:
the full cold compile (no cache), the time PyYAML's CSafeLoader takes only to parse the same
deck files, their ratio, the peak memory of the compile, and the cached recompile time.
Goal: a cold 10,000-card compile within 1.5x of CSafeLoader, a cached one under 10% of it.

    python benchmarks/compile_scaling.py [--sizes 1000,10000,50000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import shutil
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


def best_of(repeat: int, func: object) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'cards':>7} {'compile s':>10} {'CSafeLoader s':>14} {'ratio':>6} "
          f"{'peak MiB':>9} {'cached s':>9} {'cached/cold':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            pack = make_pack(Path(tmp), size)
            decks = sorted((pack / "decks").glob("*.yaml"))
            texts = [p.read_text(encoding="utf-8") for p in decks]

            def parse_only(texts: list[str] = texts) -> None:
                for text in texts:
                    yaml.load(text, Loader=yaml.CSafeLoader)

            def cold(pack: Path = pack) -> None:
                compile_pack(pack)

            parse = best_of(args.repeat, parse_only)
            compile_s = best_of(args.repeat, cold)
            tracemalloc.start()
            compile_pack(pack)
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
            cache = TableCache(Path(tmp) / f"cache{size}")
            compile_pack(pack, cache=cache)

            def cached(pack: Path = pack, cache: TableCache = cache) -> None:
                assert compile_pack(pack, cache=cache).from_cache

            cached_s = best_of(args.repeat, cached)
            print(f"{size:>7} {compile_s:>10.3f} {parse:>14.3f} {compile_s / parse:>6.2f} "
                  f"{peak:>9.1f} {cached_s:>9.3f} {cached_s / compile_s:>11.1%}")


if __name__ == "__main__":
    main()
