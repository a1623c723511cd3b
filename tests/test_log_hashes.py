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
        "f3ad8ff87cef856e42707c0b750626ea82a7fddd626e096799b04edfbe773cae",
    "era-2p-seed2-industrial+atomic-random":
        "58594f0495c16962d9034290b0fdb5d81f4d36a723f1b330c90c92577cfd6f89",
    "era-2p-seed3-medieval+atomic-random":
        "56061e23008ec2e4384f8ed323ccb0c1db14f594106b424cea561baa73ff8b20",
    "era-2p-seed4-atomic+ancient-random":
        "0bb6ecc041c0863888efd4fa5e8925be8c1d0c3073e7f50cb429e1925f0a74c0",
    "era-2p-seed5-ancient+industrial-greedy":
        "5dc0f9a4fd0d3e821da47afdf60e4af3b78006c8e46689b7d100ed725e563684",
    "era-3p-seed6-default-random":
        "44497f4b38c26fd91d426743ff0f9a8fe630cd3088919e6c3d87914b1328ce78",
    "era-4p-seed7-default-random":
        "104a8bf0d8ef3fe6423eb472a2ef82d487648c30065c75210357760dc98085e9",
    "era-deck-race-2p-seed1-default-random":
        "b917a493f6b1a275d9b14e9453773278520f7d13dbc0634003436d14065e2094",
    "era-deck-race-4p-seed2-default-greedy":
        "447a13c9d2011456f19c77fcc9bf616d5f961edde8bdcc140ee47ac24afd656e",
    "era-of-kingdoms-1p-seed1-default-random":
        "28767a21c59b6212456eec6bb1a08023e995fe702b218583e1f4782a5fd40a9f",
    "era-of-kingdoms-2p-seed2-default-random":
        "e8267c29ce82f8ff9ba29423e05c353040e23d7e45628b8023a7e98abcc00264",
    "era-of-kingdoms-3p-seed3-default-random":
        "88ea09e79e989bcd9ac8b93baf967f9fc044782506bc9faef6bb62a3aafe3453",
    "era-of-kingdoms-4p-seed4-default-random":
        "0b4902966db667f9d30da543ea3dd2fcfb89435170f0137d7d2a4efb0843cfa4",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "160518a189dcb745d4af0cbaac95162f24dca3f486fb656344f3d1150893fa1c",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "75dbdc066f0a2884a6c46bd20341a94eb064e2634c1117f029b12cec6bac6bab",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "3ecad95b993659199c64f340cb8f8c484f1de41a94be698dd2f7a381f97a09c7",
    "renaissance-2p-seed1-default-random":
        "4a68f617f50b820ad06a94bf6ee6d4c1ed6df68153815362e14dcc0dfec044ca",
    "renaissance-2p-seed2-default-random":
        "0be18a291fb70ddbddcf5eac046a3738a388522ff92ad3b39be2d5d8fcc78566",
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
