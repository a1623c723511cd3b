"""A determinized copy keeps the define values that read nothing it dealt again.

``Determinizer.sample`` re-deals the faces of hidden cards (card, owner and marks) and may
drop the symbol view; it forgets the remembered values of the defines that read faces
where a dealt card lies (``face_reads``), those marks or that view, and keeps the others,
so a search does not work out everything afresh in each world.  A kept value that a
re-deal changed would be a wrong answer the pinned log hashes would catch only if play
asked for it, so here random play of six packs is stopped every few decisions, the game
is made to remember many values (every define asked for every seat, for a card of each
zone and for every symbol), and each value a determinized copy still remembers is compared
with the define worked out afresh in that copy, and in the next copies after the search
agent's ``keep``.  Real play deals hidden cards of decks and hands only, so a second test
makes the copy deal faces among cards of every kind of place (stacks on the table, cards
tucked under others, zones that count symbols) and checks the same.
"""

from __future__ import annotations

import random
from contextlib import suppress

import pytest
from test_log_hashes import tables_of
from test_memo_fresh import assert_memo_is_fresh

from decklore.runtime.agents import RandomAgent
from decklore.runtime.determinize import Determinizer, Knowledge
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.rng import Rng
from decklore.runtime.simulate import deal_decks

ASKING_ERRORS = (RulesError, TypeError, ValueError, IndexError, KeyError, AttributeError)
"""What a define may raise when asked with arguments of the wrong kind (a seat for a
card) or number (the closures, ``DECKLORE_GENERATED=0``, bind them with a strict ``zip``):
such a question is simply not remembered."""


def remember_much(game: Game) -> None:
    """Ask every define for every seat, for the first card of every zone, and for every
    symbol and seat, so that the game remembers values of every kind (of the faces, the
    marks, the zones...)."""
    seats = list(range(game.state.players))
    cards = [per[0] for lists in game.state.zones.values() for per in lists if per]
    symbols = list(game.program.symbol_ids)
    for define in game.program.defines.values():
        for args in [(), *((s,) for s in seats), *((c,) for c in cards),
                     *((c, s) for c in cards for s in seats),
                     *((y, s) for y in symbols for s in seats)]:
            with suppress(*ASKING_ERRORS):
                define(game, *args)


@pytest.mark.parametrize(("pack", "players", "seed"), [
    ("era", 2, 3), ("era", 3, 5), ("era-of-kingdoms", 3, 2), ("rise-of-empires", 3, 1),
    ("embers-of-empire", 2, 4), ("uno", 3, 1)])
def test_a_determinized_copy_keeps_only_current_values(pack: str, players: int,
                                                         seed: int) -> None:
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)
    agent = RandomAgent(seed)
    rng = Rng(seed, stream=7)
    kept = forgotten = 0
    with suppress(RulesError):  # a starving game ends on its step budget
        for number in range(60):
            if game.terminal:
                break
            if number % 6 == 5:
                remember_much(game)
                viewer = game.current_player()
                assert viewer is not None
                worlds = Determinizer(game, viewer)
                for _ in range(2):
                    world = worlds.sample(rng)
                    kept += assert_memo_is_fresh(world)
                    forgotten += sum(len(table.keys() - world.memo.get(name, {}).keys())
                                     for name, table in game.memo.items())
                    # as the search agent does: what this world worked out at the root is
                    # carried to the next worlds, and this one plays on
                    remember_much(world)
                    worlds.keep(world)
                    with suppress(RulesError):
                        for _ in range(3):
                            if not world.terminal:
                                world.apply(agent.rng.below(world.option_count()))
                kept += assert_memo_is_fresh(worlds.sample(rng))
            game.apply(agent.choose(game))
    assert kept > 0  # values outlived the re-deal...
    assert forgotten > 0  # ...and the ones that read a re-dealt face did not


class Pretend(Knowledge):
    """A seat that believes the given cards may trade faces: groups made up for the test."""

    def __init__(self, game: Game, viewer: int, groups: list[list[int]]) -> None:
        super().__init__(game, viewer)
        self.groups = groups

    def pools(self, game: Game) -> list[list[int]]:
        return [sorted(group) for group in self.groups]


@pytest.mark.parametrize(("pack", "players", "seed"), [
    ("era", 2, 3), ("era-of-kingdoms", 3, 2), ("rise-of-empires", 3, 1),
    ("embers-of-empire", 2, 4)])
def test_values_kept_when_any_cards_trade_faces(pack: str, players: int, seed: int) -> None:
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)
    agent = RandomAgent(seed)
    pick = random.Random(seed)
    rng = Rng(seed, stream=9)
    kept = forgotten = 0
    with suppress(RulesError):
        for number in range(200):
            if game.terminal:
                break
            if number % 10 == 9:
                remember_much(game)
                cards = game.state.cards
                under = game.state.zones["-under"][0]
                table = [c for c, row in enumerate(cards) if c not in under and (
                    len(row) > 5 or (game.program.zones.get(row["zone"]) or {})
                    .get("symbols"))]
                chosen = pick.sample(under, min(3, len(under)))
                chosen += pick.sample(table, min(6 - len(chosen), len(table)))
                chosen += pick.sample([c for c in range(len(cards)) if c not in chosen], 6)
                groups = [chosen[i::4] for i in range(4)]
                viewer = game.current_player()
                assert viewer is not None
                world = Determinizer(game, viewer, Pretend(game, viewer, groups)).sample(rng)
                kept += assert_memo_is_fresh(world)
                forgotten += sum(len(t.keys() - world.memo.get(name, {}).keys())
                                 for name, t in game.memo.items())
            game.apply(agent.choose(game))
    assert kept > 0 and forgotten > 0
