"""How long ``decklore validate cards/era`` takes from the shell: warm, cold and first runs.

Each figure is the median of ``--runs`` fresh processes (``python -m decklore validate``),
in wall seconds and in CPU seconds (user + system of the child, which the shared machine
disturbs less), the kinds interleaved run by run so that load on the machine falls on all
of them alike:

- **warm**: the tables are in the cache (a table-cache hit);
- **cold**: ``--no-cache``, so the pack is compiled; what decklore keeps of its own (Lark's
  parser tables, the schema gate's generated code) is there from earlier runs;
- **first**: an empty cache folder every run, as on a machine that never ran decklore.

``--against DIR`` times another decklore in the same rounds, installed in DIR with
``pip install --no-deps --target DIR``, and prints the ratio. Python's bytecode is written
and used as for any installed package: ``PYTHONDONTWRITEBYTECODE`` is removed from the
children's environment, so the priming runs write it (where it is set and no bytecode was
ever written, every run compiles decklore's sources, about 0.1 s more). Targets (issue 16):
cold at most 0.4 s, warm at most 0.12 s.

    python benchmarks/startup.py [--runs 11] [--pack cards/era] [--against DIR]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("warm", "cold", "first")


def _env(site: str | None, cache: Path) -> dict[str, str]:
    env = dict(os.environ, DECKLORE_CACHE_DIR=str(cache))
    if site:
        env["PYTHONPATH"] = site
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_once(kind: str, pack: str, site: str | None, cache: Path) -> tuple[float, float]:
    """One ``validate`` in a fresh process: (wall seconds, CPU seconds)."""
    if kind == "first":
        shutil.rmtree(cache, ignore_errors=True)
    options = ["--no-cache"] if kind == "cold" else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "decklore", "validate", *options, pack],
                   env=_env(site, cache), cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--pack", default="cards/era")
    parser.add_argument("--against", metavar="DIR",
                        help="another decklore, installed with pip --target DIR")
    args = parser.parse_args()
    sites: dict[str, str | None] = {"this": None}
    if args.against:
        sites["other"] = args.against
    with tempfile.TemporaryDirectory() as tmp:
        # Each kind of run has a cache folder of its own, so that emptying the folder for
        # a first run never turns the next cold run into a first one.
        caches = {(name, kind): Path(tmp) / f"{name}-{kind}" for name in sites for kind in KINDS}
        for name, site in sites.items():  # bytecode written; tables and parser tables kept
            for _ in range(2):
                run_once("warm", args.pack, site, caches[name, "warm"])
                run_once("cold", args.pack, site, caches[name, "cold"])
        times: dict[tuple[str, str], list[tuple[float, float]]] = {
            (name, kind): [] for name in sites for kind in KINDS}
        for _ in range(args.runs):
            for kind in KINDS:
                for name, site in sites.items():
                    times[name, kind].append(
                        run_once(kind, args.pack, site, caches[name, kind]))
    print(f"decklore validate {args.pack}: median of {args.runs} processes")
    header = f"{'run':<6} " + " ".join(f"{name + ' wall s':>13} {name + ' CPU s':>12}"
                                       for name in sites)
    print(header + (f" {'other/this CPU':>15}" if args.against else ""))
    for kind in KINDS:
        cells = []
        cpus = []
        for name in sites:
            walls = [wall for wall, _ in times[name, kind]]
            cpu = statistics.median(c for _, c in times[name, kind])
            cpus.append(cpu)
            cells.append(f"{statistics.median(walls):>13.3f} {cpu:>12.3f}")
        ratio = f" {cpus[1] / cpus[0]:>15.2f}" if args.against else ""
        print(f"{kind:<6} " + " ".join(cells) + ratio)


if __name__ == "__main__":
    main()
