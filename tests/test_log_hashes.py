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
from decklore.runtime.engine import Game
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
    ("era-of-kingdoms", 1, 1, None, "random", 4000),
    ("era-of-kingdoms", 2, 2, None, "random", 4000),
    ("era-of-kingdoms", 3, 3, None, "random", 4000),
    ("era-of-kingdoms", 4, 4, None, "random", 4000),
    ("era-of-kingdoms", 3, 5, None, "greedy", 1500),
    ("era-of-kingdoms-trade-route", 2, 1, None, "random", 4000),
    ("era-of-kingdoms-trade-route", 3, 2, None, "random", 4000),
    ("renaissance", 2, 1, None, "random", 4000),
    ("renaissance", 2, 2, None, "random", 4000),
    ("uno", 2, 1, None, "random", 20000),
    ("uno", 3, 2, None, "random", 20000),
    ("uno", 4, 3, None, "random", 20000),
]

PINNED: dict[str, str] = {
    "era-2p-seed1-ancient+medieval-random":
        "baee725c275a101de286b9d3e1ada80cb9c8220128e4932e0393d146fb61606b",
    "era-2p-seed2-industrial+atomic-random":
        "1686e7f9d670732601cd139f6db682cbede641325a1f7c1ef63d7b92d87e276c",
    "era-2p-seed3-medieval+atomic-random":
        "000199c55c335913a45084283b028251d33707268d6c112b48f0bfc70bc6d169",
    "era-2p-seed4-atomic+ancient-random":
        "65a628454c046a441518b817fb915fbcab7e42f206b2d0f9ceac2b52f2f56991",
    "era-2p-seed5-ancient+industrial-greedy":
        "d4a1e2450f28f77918e6609e258ff72e819e76dca4dc5e236c4bd8c83ec7cda1",
    "era-of-kingdoms-1p-seed1-default-random":
        "1f1362a85fb80ddaca00cba9172840d35b56fdef42a75cafedff0e84f1ff35d5",
    "era-of-kingdoms-2p-seed2-default-random":
        "ca3e0f855a9837f620fb5853bcb819c33ac623b26a1cd7914791335bcddbda72",
    "era-of-kingdoms-3p-seed3-default-random":
        "80d8227a85d1ae880ca4d6b91b4e5dd78e05aece127fc9d7c315d7d06c1863f0",
    "era-of-kingdoms-4p-seed4-default-random":
        "3cec8fc2e2790cf0e38eda56d89fdfa20984aaf3455f4af9565b274b2b4ebd0e",
    "era-of-kingdoms-3p-seed5-default-greedy":
        "fd6cee42a6571116c5f980ca8e5dd5ac44fda31561206b611a41459c1a328f6c",
    "era-of-kingdoms-trade-route-2p-seed1-default-random":
        "fc102b50200771495cba3ff7dd94e690fdd2119c3c5b875faf2754639c49a724",
    "era-of-kingdoms-trade-route-3p-seed2-default-random":
        "a3dc306f8bdd7bb767edb8f2ff475d769c1bab5cfc94a2b3a3c4ebeb4d9f13cc",
    "renaissance-2p-seed1-default-random":
        "d0a474c187d792af15d319af3d88c9a6b5d268c6845bbc522eea4e4971ea2018",
    "renaissance-2p-seed2-default-random":
        "7fe59119fa537f6a6c9aafb290a59892a839ba54edd4a64bcff9d503557abda5",
    "uno-2p-seed1-default-random":
        "9e1cc0298762116af342df8fea84cc93fc3e662d2335f1bc10db75b2bce6441a",
    "uno-3p-seed2-default-random":
        "cec6bf63002f783c8b43e821fff99ebbdaad94878884f8f70367560ec1744c7b",
    "uno-4p-seed3-default-random":
        "7560473ead03b3bee63f8b3b15a43260b5e361bb4d7cb52a5910f6d387f5abee",
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
