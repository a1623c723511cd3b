"""Every remembered define value is the value the define has now (``runtime/reads.py``).

A value is kept until something it reads changes; a builtin or a change that says it
reads or touches less than it does would leave a stale value behind, which the pinned
log hashes catch only when play happens to ask for it.  Here random play is stopped at
every decision, and each value the game remembers is compared with the define worked
out afresh on a copy that remembers nothing.
"""

from __future__ import annotations

from contextlib import suppress

import pytest
from test_log_hashes import tables_of

from decklore.runtime.agents import RandomAgent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.simulate import deal_decks


def assert_memo_is_fresh(game: Game) -> int:
    fresh = game.clone()
    compared = 0
    for name, table in game.memo.items():
        for args, value in table.items():
            fresh.memo, fresh.owned = {}, set()
            assert fresh.program.defines[name](fresh, *args) == value, (name, args)
            compared += 1
    return compared


@pytest.mark.parametrize(("pack", "players", "seed"), [
    ("era", 2, 3), ("era", 3, 5), ("era-of-kingdoms", 3, 2), ("rise-of-empires", 3, 1),
    ("embers-of-empire", 2, 4), ("uno", 3, 1)])
def test_remembered_values_are_current(pack: str, players: int, seed: int) -> None:
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)
    agent = RandomAgent(seed)
    compared = 0
    with suppress(RulesError):  # a starving game ends on its step budget
        for _ in range(120):
            if game.terminal:
                break
            compared += assert_memo_is_fresh(game)
            game.apply(agent.choose(game))
    assert compared > 0
