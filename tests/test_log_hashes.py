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
        "629dbd680b3dfbc630419a55df2624014833a3415db0bc3924832c080a243193",
    "era-2p-seed2-industrial+atomic-random":
        "ed6cfd1852d5971f8424690c8aae43dd19b7a49b3be0258550c0c3ee79bf70b2",
    "era-2p-seed3-medieval+atomic-random":
        "bf2090d1d07f28e57f07d31de6fb63f7902cd72fe4af7276994ea28f9ab739ab",
    "era-2p-seed4-atomic+ancient-random":
        "088421e1860711c6d948ffe10a0fbd0f8b5543f6324c7c3882be32da0d171345",
    "era-2p-seed5-ancient+industrial-greedy":
        "42cea3402f4993c4fa70913ad99e75ea7cf06f0a4860ab29a39dfedce8d9584d",
    "era-3p-seed6-default-random":
        "648f8f8807417723de99a7d4cd855151e783d0752d9aa087a0f676280a682721",
    "era-4p-seed7-default-random":
        "7c3aa29361365491bd118ad140de49cb1d45ddabf4a1fa6762230f15b6324ecc",
    "era-deck-race-2p-seed1-default-random":
        "9e867b824ecfbe3999a00ec476e4e8bb1a6eb9f6dd94eb7ee5b39569eb58ca6b",
    "era-deck-race-4p-seed2-default-greedy":
        "132a241c9042beff75badd93371230bbe91bf54876d61fa52b16eaebec049904",
    "era-of-kingdoms-1p-seed1-default-random":
        "5d4624617ef7eb91bc0e783895c1d0f39a7887eeefc1f5e70f85a201bb04062b",
    "era-of-kingdoms-2p-seed2-default-random":
        "830e25acd79aa5999719a40b51d52d78c3a3a830fa04a1af9850ed3b3e918363",
    "era-of-kingdoms-3p-seed3-default-random":
        "ae4b9467dc427339be569d6fbee81fec3b2b18af881ca593f59e2b67d6b810f6",
    "era-of-kingdoms-4p-seed4-default-random":
        "00b36fa10a579649fcb323bcf4904c1831204d5775ad46092e15ab109f55fd11",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "c7b00aa7b2fd350db1596dd1bc19209f3225cb52bdc60275a3247945fb32091b",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "f12a4e5b552aa6dd35ed53588418ecd536b00de2bea769b2298b5c3e5c111c26",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "9f81a645fb3edc689b205202dcb52420def4bc9488ff5fbe30591df2e4f2cf27",
    "renaissance-2p-seed1-default-random":
        "f26ad60ec8129b7b562129d36127db8c444f0d572194748bbccd79773f608120",
    "renaissance-2p-seed2-default-random":
        "48ab6a143831365029cf8c2fd47ae327120238424f2c5b159221bf67bbf990f2",
    "rise-of-empires-2p-seed1-default-random":
        "af4b68f6cbd82e181d17f196281d828059e13c977896eec86a30a6f0ef287215",
    "rise-of-empires-3p-seed2-default-greedy":
        "1f61bbb278284ae65991d56ab5cb70facca48f6eac215079b2ce46b54dc89a4b",
    "uno-2p-seed1-default-random":
        "33756348eedb4e8a55b890ee4763dbbba8b908b529ba007efa0463ed54327a5e",
    "uno-3p-seed2-default-random":
        "6e00824c034819b4734e56cdd40c12ad26775961ab62a982db68ee28e333497f",
    "uno-4p-seed3-default-random":
        "162814d31d000f32b9226312a7155e5d84763e565861d67ebe6b3baa2ac77142",
    "embers-of-empire-2p-seed1-default-random":
        "f64c6ec2b4e023d919b4c64befcc4a2383c68ac903bb8ec2012cb881c37175e5",
    "embers-of-empire-4p-seed2-default-greedy":
        "f8fcb56f1b8f60a415e4040fc0d6495169505c10ef47758a8224f941dd92127b",
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
