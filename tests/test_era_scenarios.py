"""The ERA rulebook's worked examples, each a scenario file in ``cards/era/scenarios/``.

Every bundled pack's scenarios run here, so a change to the engine or to a pack's rules that
breaks a rulebook example fails the suite with the scenario's own located message.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from decklore.compiler.diagnostics import PackError, SourceCache, render_all
from decklore.compiler.tools.scenarios import compiled_tables, find_scenarios, run_file
from decklore.runtime.tables import Tables

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = find_scenarios(sorted((ROOT / "cards").glob("*/scenarios")))


@cache
def _tables(pack: Path) -> Tables:
    return compiled_tables(pack)


def test_the_era_rulebook_examples_are_all_there() -> None:
    names = {p.name for p in SCENARIOS if p.parent.parent.name == "era"}
    assert len(names) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    shown = path.relative_to(ROOT).as_posix()
    try:
        outcome = run_file(path, shown, lambda pack: _tables(pack.resolve()))
    except PackError as exc:
        pytest.fail(render_all(exc.diagnostics, SourceCache()), pytrace=False)
    assert outcome.passed, "\n".join(f"{span}: {message}"
                                     for span, message in outcome.failures)
