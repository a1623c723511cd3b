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
        "b49b95d57607ca519ce9e9c262363444c98758ac2adeb7770c09a0852c479927",
    "era-2p-seed2-industrial+atomic-random":
        "202d4fb1a39b3dd122117ed06cb6433f40ed117aaeeb2d1704ca082007291707",
    "era-2p-seed3-medieval+atomic-random":
        "b9bcf82364b02eb1f6f044a85c5e76279a1138a06f7fa4cc9760751576066c04",
    "era-2p-seed4-atomic+ancient-random":
        "7f01542d261ea09cd3e3b88823d2efa88780ab9ed950f4a93bae20879db4b52b",
    "era-2p-seed5-ancient+industrial-greedy":
        "c911cbb5bbf096b12f466c53be19f4c0abcc0f6967bb3d6ea449462c38568454",
    "era-3p-seed6-default-random":
        "0eb72974f922821919907af6f53bbd5faec9f387a1be1d28371ccdae67475094",
    "era-4p-seed7-default-random":
        "f0a6aeeff5e3846ac333810f31761a6714611bac452cb429d12bd3645e12cf9c",
    "era-deck-race-2p-seed1-default-random":
        "b917a493f6b1a275d9b14e9453773278520f7d13dbc0634003436d14065e2094",
    "era-deck-race-4p-seed2-default-greedy":
        "447a13c9d2011456f19c77fcc9bf616d5f961edde8bdcc140ee47ac24afd656e",
    "era-of-kingdoms-1p-seed1-default-random":
        "e6abe38735d26aa25eb06940e9e3b1b921e516011316cae8ab7afccef187bb95",
    "era-of-kingdoms-2p-seed2-default-random":
        "373f49b72dc7623b3d90552c4f5c3c8ab1972b32de1d5346d620e84e667922f6",
    "era-of-kingdoms-3p-seed3-default-random":
        "16d1d1858cbb8abd6d88610bb466d5768679b525f8b98f7d9015163d04487324",
    "era-of-kingdoms-4p-seed4-default-random":
        "0428bf813dd552d051f2032c63520bc862fffcd3a984877d13e1b400aa76f5c1",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "340a8d9b986ff5166edd231fdfd37bd9d444a343b58d55e18ab3aa41945e66a8",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "9804d715eabac9e1f5ed6836ee276ef63d7c8bd5aed4e908002e56786651f1c4",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "30babd3317551ae7f8b64c8f1b4dec42cf3ac59e501c73f4b46d3a61bba014bc",
    "renaissance-2p-seed1-default-random":
        "39493b0c93e7f08bff9ffcb3a8fac92874ea19e4a3819361529ba8b35df43223",
    "renaissance-2p-seed2-default-random":
        "93ed57160a98c5d31bd929faacba090b16a0c457649a5beb0ab41594caab349f",
    "rise-of-empires-2p-seed1-default-random":
        "ba8d269aa9fc3eb37c2cc13495792097512e04f4902fdffbf27a87cf28d65248",
    "rise-of-empires-3p-seed2-default-greedy":
        "aca5441fa059bb31d802057d74e77b6687ba8a887965dc681e6bccc24b042eb0",
    "uno-2p-seed1-default-random":
        "33756348eedb4e8a55b890ee4763dbbba8b908b529ba007efa0463ed54327a5e",
    "uno-3p-seed2-default-random":
        "6e00824c034819b4734e56cdd40c12ad26775961ab62a982db68ee28e333497f",
    "uno-4p-seed3-default-random":
        "162814d31d000f32b9226312a7155e5d84763e565861d67ebe6b3baa2ac77142",
    "embers-of-empire-2p-seed1-default-random":
        "b8b0cb14421b07c2941846c0ae1c1ced1f1289a59917bd1725ca43dfbc6100af",
    "embers-of-empire-4p-seed2-default-greedy":
        "0547536bb36aee55654bbfe351cae24402540fe49865ab44ac6dc8911dc17cff",
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
