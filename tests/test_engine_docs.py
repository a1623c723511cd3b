"""The Python loop that docs/engine.md shows plays every game to an end, stalled ones too."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

from decklore.cards import bundled_pack
from decklore.compiler import compile_pack
from decklore.runtime.tables import Tables, loads_tables

ROOT = Path(__file__).resolve().parent.parent


def documented_loop() -> str:
    """The first Python block of the docs' 'Using it from Python' section, ready to run."""
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text[text.index("## Using it from Python"):]
    code = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert code is not None
    source = code.group(1)
    for literal, name in (('load_tables("build/era/tables.json")', "TABLES"),
                          ("seed=7", "seed=SEED"), ("budget=100_000", "budget=BUDGET")):
        assert source.count(literal) == 1, f"the documented loop no longer has {literal}"
        source = source.replace(literal, name)
    return source


def run(source: str, tables: Tables, seed: int, budget: int) -> dict[str, Any]:
    scope: dict[str, Any] = {"TABLES": tables, "SEED": seed, "BUDGET": budget}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "docs/engine.md", "exec"), scope)
    return scope


def era() -> Tables:
    pack = bundled_pack("era")
    assert pack is not None
    return loads_tables(compile_pack(pack).data)


def test_the_documented_loop_ends_every_game_of_1000_seeds() -> None:
    """A small budget stops every game early: each must end as the docs say, never raise."""
    source, tables = documented_loop(), era()
    for seed in range(1000):
        game = run(source, tables, seed, 1000)["game"]
        assert game.terminal, seed
        assert game.result["reason"] == "step budget", seed
        assert game.result["winners"] == [] and game.returns() == [0.0, 0.0]
        assert game.result["error"]


def test_the_documented_loop_at_the_full_budget_gives_winners_and_stalls() -> None:
    """Seeds 0-11 at the real budget: games are won, and any that stalls still ends."""
    source, tables = documented_loop(), era()
    reasons = [run(source, tables, seed, 100_000)["game"].result["reason"]
               for seed in range(12)]
    assert "Reached the progress goal" in reasons
    assert all(r for r in reasons)
