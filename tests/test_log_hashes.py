"""The engine plays every bundled pack event for event as it did when these hashes were pinned.

Speed work on the engine (issue 16) must not change a single event: the same tables, seed
and choices give the same log.  Each case plays one seeded game with seeded agents and
compares the hash over its whole log with the one recorded before the work began.  A
change to a pack's rules changes its hashes too; re-pin them then (``python
tests/test_log_hashes.py`` prints the current table), saying why in the commit.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path

import pytest
from random_play import play_out

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import Agent, GreedyAgent, RandomAgent, Weights
from decklore.runtime.game import Game
from decklore.runtime.tables import Tables

UNO = Path(__file__).resolve().parent.parent / "benchmarks" / "packs" / "uno"

# (pack, players, seed, decks or None, agent kind, step budget)
Case = tuple[str, int, int, tuple[str, ...] | None, str, int]
CASES: list[Case] = [
    ("era", 2, 1, ("era:ancient", "era:medieval"), "random", 4000),
    ("era", 2, 2, ("era:industrial", "era:atomic"), "random", 4000),
    ("era", 2, 3, ("era:medieval", "era:atomic"), "random", 4000),
    ("era", 2, 4, ("era:atomic", "era:ancient"), "random", 4000),
    ("era", 2, 5, ("era:ancient", "era:industrial"), "greedy", 2500),
    ("era", 3, 6, None, "random", 6000),
    ("era", 4, 7, None, "random", 6000),
    ("era-deck-race", 2, 1, None, "random", 4000),
    ("era-deck-race", 4, 2, None, "greedy", 2500),
    ("era-of-kingdoms", 1, 1, None, "random", 4000),
    ("era-of-kingdoms", 2, 2, None, "random", 4000),
    ("era-of-kingdoms", 3, 3, None, "random", 4000),
    ("era-of-kingdoms", 4, 4, None, "random", 4000),
    ("era-of-kingdoms", 3, 5, None, "greedy", 1500),
    ("era-of-kingdoms-trade-route", 2, 1, None, "random", 4000),
    ("era-of-kingdoms-trade-route", 3, 2, None, "random", 4000),
    ("renaissance", 2, 1, None, "random", 4000),
    ("renaissance", 2, 2, None, "random", 4000),
    ("rise-of-empires", 2, 1, None, "random", 8000),
    ("rise-of-empires", 3, 2, None, "greedy", 10000),
    ("uno", 2, 1, None, "random", 20000),
    ("uno", 3, 2, None, "random", 20000),
    ("uno", 4, 3, None, "random", 20000),
    ("embers-of-empire", 2, 1, None, "random", 4000),
    ("embers-of-empire", 4, 2, None, "greedy", 15000),
]

PINNED: dict[str, str] = {
    "era-2p-seed1-ancient+medieval-random":
        "bb5e599b9271e370af7f62c1ad42738813c0bc1f764b1cb56fa19a578ae5acf8",
    "era-2p-seed2-industrial+atomic-random":
        "c5125e1fc701f23aa3cb992a16f7e1d1f7afc26c3252d1c2b0d14812be3d6557",
    "era-2p-seed3-medieval+atomic-random":
        "83227581dd637a6dfeb636c7e734635625029b5143984d86133d51591043d920",
    "era-2p-seed4-atomic+ancient-random":
        "c0f148707cd1832396a49ec9033cdd39005407fe49371cec4982ea0bbea67d1b",
    "era-2p-seed5-ancient+industrial-greedy":
        "0fa041ef586983448eccd85f09259c63fb25864b3ce86b730dc3aadc81fa0172",
    "era-3p-seed6-default-random":
        "5173e030f66c09516f142227bdbca2b84ffb859e899f85f9cba2723b15c1fe36",
    "era-4p-seed7-default-random":
        "bbd18715e2918880980f273cf676629ccb35794e6af56c9bdccc7927fa1a1555",
    "era-deck-race-2p-seed1-default-random":
        "b917a493f6b1a275d9b14e9453773278520f7d13dbc0634003436d14065e2094",
    "era-deck-race-4p-seed2-default-greedy":
        "447a13c9d2011456f19c77fcc9bf616d5f961edde8bdcc140ee47ac24afd656e",
    "era-of-kingdoms-1p-seed1-default-random":
        "021b25f18ab3cb157c83a71839b17a2c205340a1c5dd122415b7fc8104008bad",
    "era-of-kingdoms-2p-seed2-default-random":
        "74caa8e36f6b22303bced6c3b779e54dcc55eb90035d67e1943a7538196a8fc1",
    "era-of-kingdoms-3p-seed3-default-random":
        "b210a13e1443f904a34ae56b70a845e3d84b8c48f1a2c6794721e2ba8d42f97b",
    "era-of-kingdoms-4p-seed4-default-random":
        "9cd1b2941541d3fa9a40501fde9667c16aa4a40c625e550c055ebbeba1cc98d8",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "c6c14aa4aefe4a8ed41dfb62015b58c61526499fa0006d2c37ad3265bd11e8af",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "afa535ea58c68665bdca4ff2597843efcbe303cc76a38fbd93daacacf97890d7",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "f62ca67c4377439af83375677c7fc3ff15b2ae56831c5160a214a721ebf43f62",
    "renaissance-2p-seed1-default-random":
        "74c0510887b246fc9dd4ff97318afc63551fb683f45747e1ec078a35dd78c048",
    "renaissance-2p-seed2-default-random":
        "1258ae4d79d2984a07f8e0d456abd5ec0ac649ee8830b213cd026000839e3de0",
    "rise-of-empires-2p-seed1-default-random":
        "882e15a2bbf83108e9745df4030d634151ca17107b6751b78746ceb67d757070",
    "rise-of-empires-3p-seed2-default-greedy":
        "d8d83d0b6338bc98b2433aa96b8ece26d4e92fca0c32c7e9fb1e0e95037edf30",
    "uno-2p-seed1-default-random":
        "33756348eedb4e8a55b890ee4763dbbba8b908b529ba007efa0463ed54327a5e",
    "uno-3p-seed2-default-random":
        "6e00824c034819b4734e56cdd40c12ad26775961ab62a982db68ee28e333497f",
    "uno-4p-seed3-default-random":
        "162814d31d000f32b9226312a7155e5d84763e565861d67ebe6b3baa2ac77142",
    "embers-of-empire-2p-seed1-default-random":
        "b2ab60e8fcae245b2cf9972c0ea9fd4d92528bcd92ba2ce4487f4be350e94701",
    "embers-of-empire-4p-seed2-default-greedy":
        "8c1049fd9e0a404e183b82de22a9c3ab27af37f8be6321c9fe4110faa8a5889e",
}


@cache
def tables_of(pack: str) -> Tables:
    folder = UNO if pack == "uno" else bundled_pack(pack)
    assert folder is not None
    return compiled_tables(folder)


def case_id(case: Case) -> str:
    pack, players, seed, decks, kind, _ = case
    deck_part = "+".join(d.split(":")[1] for d in decks) if decks else "default"
    return f"{pack}-{players}p-seed{seed}-{deck_part}-{kind}"


def play(case: Case) -> Game:
    pack, players, seed, decks, kind, budget = case
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, list(decks) if decks else None, budget=budget)
    weights = Weights.from_tables(tables.raw)
    agents: list[Agent] = [RandomAgent(seed * 7 + i) if kind == "random"
                           else GreedyAgent(seed * 7 + i, weights)
                           for i in range(game.state.players)]
    return play_out(game, agents)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_log_hash_unchanged(case: Case) -> None:
    game = play(case)
    assert game.log_hash() == PINNED[case_id(case)]


@pytest.mark.parametrize("case", [CASES[4], CASES[9], CASES[15]], ids=case_id)
def test_clone_and_resume_play_on_alike(case: Case) -> None:
    """A clone taken mid-game, and a save resumed, play on to the same log as the original
    (what the define memo carried across ``clone()`` must never change)."""
    pack, players, seed, decks, kind, budget = case
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, list(decks) if decks else None, budget=budget)
    weights = Weights.from_tables(tables.raw)
    agents: list[Agent] = [RandomAgent(seed * 7 + i) if kind == "random"
                           else GreedyAgent(seed * 7 + i, weights)
                           for i in range(game.state.players)]
    for _ in range(8):
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
    twin = game.clone()
    resumed = Game.from_json(tables, game.to_json())
    twin_agents = copy.deepcopy(agents)
    resumed_agents = copy.deepcopy(agents)
    play_out(game, agents)
    play_out(twin, twin_agents)
    play_out(resumed, resumed_agents)
    assert twin.log_hash() == game.log_hash() == resumed.log_hash()


if __name__ == "__main__":
    for case in CASES:
        print(f'    "{case_id(case)}":\n        "{play(case).log_hash()}",')
