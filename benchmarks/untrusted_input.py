"""What checking untrusted input costs, side by side with the work it guards.

Prints, in one run:

* loading a finished ERA game's save: a bare ``json.loads`` (what loading was), reading and
  shape-checking it (``GameState.from_json``), and the full check with the rules and the
  replay of its own decisions (``Game.from_json``);
* checking a rendered sheet against the allow-list (``sanitize.check_html``) next to
  rendering that sheet's HTML;
* compiling rules files of many declarations, to show the parse stays linear.

    python benchmarks/untrusted_input.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from decklore.compiler import PackError, compile_pack
from decklore.compiler.printing.sanitize import check_html
from decklore.compiler.printing.sheets import PrintOptions, render
from decklore.runtime.agents import make_agent
from decklore.runtime.game import Game
from decklore.runtime.state import GameState
from decklore.runtime.tables import loads_tables

ROOT = Path(__file__).resolve().parents[1]


def best(action: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def saves(repeat: int) -> None:
    tables = loads_tables(compile_pack(ROOT / "cards" / "era").data)
    game = Game.new(tables, 2, 7)
    agents = [make_agent("greedy", 1, tables.raw), make_agent("random", 2, tables.raw)]
    while not game.terminal:
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
    text = game.to_json()
    print(f"ERA save: {len(text):,} bytes, {game.state.info['decisions']} decisions")
    for label, action in (("json.loads only", lambda: json.loads(text)),
                          ("GameState.from_json (read, shape)", lambda: GameState.from_json(text)),
                          ("Game.from_json (+ rules, replay)", lambda: Game.from_json(tables,
                                                                                      text))):
        print(f"  {label:<36} {best(action, repeat) * 1000:8.1f} ms")


def sheets(repeat: int) -> None:
    tables = compile_pack(ROOT / "cards" / "era").tables
    for sheet in ("cards", "list"):
        html = render(tables, sheet, "html", PrintOptions())
        made = best(lambda s=sheet: render(tables, s, "html", PrintOptions()), repeat)
        checked = best(lambda h=html: check_html(h), repeat)
        print(f"ERA {sheet} sheet: {len(html):,} characters; render {made * 1000:.0f} ms, "
              f"allow-list check {checked * 1000:.0f} ms")


def declarations(repeat: int) -> None:
    mini = ROOT / "tests" / "packs" / "mini"
    for count in (1000, 4000, 10000):
        with tempfile.TemporaryDirectory() as folder:
            pack = Path(folder) / "mini"
            shutil.copytree(mini, pack)
            manifest = pack / "pack.yaml"
            manifest.write_text(manifest.read_text() + "rules: [rules/game.rules]\n")
            (pack / "rules").mkdir()
            (pack / "rules" / "game.rules").write_text(
                "".join(f"const c{i} = {i}\n" for i in range(count)))

            def run(p: Path = pack) -> None:
                with contextlib.suppress(PackError):  # the mini pack has no flow to play
                    compile_pack(p)

            seconds = best(run, max(1, repeat // 3))
            print(f"{count:>6} rules declarations: compile {seconds:.2f} s "
                  f"({seconds / count * 1e6:.0f} µs each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    saves(args.repeat)
    sheets(args.repeat)
    declarations(args.repeat)


if __name__ == "__main__":
    main()
