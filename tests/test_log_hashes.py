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
        "14941524e8c6f374d00ff9b96408b72be5f7837bf215e4ff07a35f9c62d0f684",
    "era-2p-seed2-industrial+atomic-random":
        "5c0a1812139d0fd13cc0324a6ed7bae70dd9a2f2df7d700c64ac2ee062ca8bcc",
    "era-2p-seed3-medieval+atomic-random":
        "17bb1886c8ebf15e3a90844eb87843dbf8a86395653be5bca60d37653498d4c2",
    "era-2p-seed4-atomic+ancient-random":
        "990f846a1346d1a7ff4bf845ae10aeb5962498f1d30cf146a024e50a16062595",
    "era-2p-seed5-ancient+industrial-greedy":
        "1fa5cd5cb7fd3a64f2706aec84d9be22dba9f0897451416e07f38903c97d0439",
    "era-3p-seed6-default-random":
        "12a764db83cb6fe0c54d6d221f1e66616248ace8861232e7eaeefbc66ff5ab4e",
    "era-4p-seed7-default-random":
        "f2eb0f219a7ed01d465db2efe7bb14802efb6ff0cf48dd9fcdd7320c348fc802",
    "era-deck-race-2p-seed1-default-random":
        "b917a493f6b1a275d9b14e9453773278520f7d13dbc0634003436d14065e2094",
    "era-deck-race-4p-seed2-default-greedy":
        "447a13c9d2011456f19c77fcc9bf616d5f961edde8bdcc140ee47ac24afd656e",
    "era-of-kingdoms-1p-seed1-default-random":
        "cb9e6f7c8be07ccfc384bb8667b9de6e8c1bdd9d6aa9dc179ef168f553b177eb",
    "era-of-kingdoms-2p-seed2-default-random":
        "60b20a0a364f9d9db6f6d257baf865c464b4b8f5942995f7cf9544b89171f506",
    "era-of-kingdoms-3p-seed3-default-random":
        "e9c74ed1743a92c0c22e67e945e2b2cc1ab3ba232a579debeca5a1c2267087a5",
    "era-of-kingdoms-4p-seed4-default-random":
        "cbee9fef173ee1df7c491f906c3be5e1e8a2f7b36b4095dcb072506693b78244",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "63c2406f5574814a4175260ae0e3e7215a40affc63857ebfe5a6c49fd1fe9b91",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "d4cc6c73484e1df0c36f26d97c6132613de22a600bb0029ddf4432e7eda8d434",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "97b9a8525bfcd70a89c4ffbcd576cffcd8c8d9aa95024c5450f1d55f58b5fc94",
    "renaissance-2p-seed1-default-random":
        "47ef0a7485189081c16a3cc3e0131df9eb3e6d768164b1f18307bf746781f415",
    "renaissance-2p-seed2-default-random":
        "5a18aa93ff6eb87ad93e5d6cd558aa5403572b850d410270eeedf0117e75a574",
    "rise-of-empires-2p-seed1-default-random":
        "61bdea3f32cc98ab26f3573bcc0ba8479a82ddc703e40f90616692b40f8d3e7a",
    "rise-of-empires-3p-seed2-default-greedy":
        "dc4c74767ac83dad35600c1d60f78180275bff7e2bc20a66c0ed65e1476560aa",
    "uno-2p-seed1-default-random":
        "33756348eedb4e8a55b890ee4763dbbba8b908b529ba007efa0463ed54327a5e",
    "uno-3p-seed2-default-random":
        "6e00824c034819b4734e56cdd40c12ad26775961ab62a982db68ee28e333497f",
    "uno-4p-seed3-default-random":
        "162814d31d000f32b9226312a7155e5d84763e565861d67ebe6b3baa2ac77142",
    "embers-of-empire-2p-seed1-default-random":
        "e4f40ea421f4b6d62ce20b53ae6edb781ddfff4417725bc8b4145691ae952006",
    "embers-of-empire-4p-seed2-default-greedy":
        "db550b761a62d066f86c4bd8fe28c07081fd851725c37b7b7fc0a4b557e80582",
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
