"""Observations built with ``looking.card_views`` describe every card as ``card_view`` does.

``card_views`` hoists the lookups of ``describe.card_view`` out of the per-card work for
speed; ``card_view`` stays the reference.  Both must give the same view of every card, for
every seat and for an onlooker, key order included (observations are JSON).
"""

from __future__ import annotations

import json

import pytest
from test_log_hashes import tables_of

from decklore.runtime.agents import RandomAgent
from decklore.runtime.describe import _card_marks, card_view
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.looking import card_views, zone_views
from decklore.runtime.simulate import deal_decks


def positions(pack: str, players: int, seed: int, every: int, count: int) -> list[Game]:
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)
    agent = RandomAgent(seed)
    found = [game.clone()]
    step = 0
    try:
        while not game.terminal and len(found) < count:
            game.apply(agent.choose(game))
            step += 1
            if step % every == 0:
                found.append(game.clone())
    except RulesError:
        pass
    return found


@pytest.mark.parametrize(("pack", "players"), [
    ("era", 2), ("era", 3), ("era-of-kingdoms", 3), ("era-of-kingdoms-trade-route", 2),
    ("renaissance", 2), ("uno", 3)])
def test_card_views_match_card_view(pack: str, players: int) -> None:
    compared = unusual = 0
    for game in positions(pack, players, 3, 40, 10):
        marks = _card_marks(game.program)
        for viewer in [None, *range(game.state.players)]:
            view_of = card_views(game, viewer, marks)
            for card in range(len(game.state.cards)):
                fast, reference = view_of(card), card_view(game, card, viewer)
                assert json.dumps(fast) == json.dumps(reference), (pack, card, viewer)
                compared += 1
                unusual += len(game.state.cards[card]) > 5 or "marks" in reference
    assert compared > 0
    if players == 3 and pack.startswith("era"):
        assert unusual > 0  # stacks, tucked or revealed cards, or marks: not only plain cards


@pytest.mark.parametrize(("pack", "players"), [("era", 3), ("era-of-kingdoms", 3), ("uno", 2)])
def test_zone_views_match_card_view(pack: str, players: int) -> None:
    """``zone_views`` skips the call for plain face-down cards: every zone of every
    position still reads as ``card_view`` gives it, card by card."""
    hidden = shown = 0
    for game in positions(pack, players, 5, 30, 8):
        marks = _card_marks(game.program)
        for viewer in [None, *range(game.state.players)]:
            views = zone_views(game, viewer, marks)
            for lists in game.state.zones.values():
                for cards in lists:
                    reference = [card_view(game, card, viewer) for card in cards]
                    assert json.dumps(views(cards)) == json.dumps(reference), (pack, viewer)
                    hidden += sum(view == {"face_up": False} for view in reference)
                    shown += sum("card" in view for view in reference)
    assert hidden > 0 and shown > 0


@pytest.mark.parametrize(("pack", "players"), [("era", 3), ("era-of-kingdoms", 3), ("uno", 2)])
def test_each_seat_in_an_observation_reads_as_the_state_says(pack: str, players: int) -> None:
    """The seats of an observation (their counters, flags and non-zero symbol totals, in
    the program's order) are those the state and the symbol view give, however the
    observation gathers them."""
    from decklore.runtime.symbols import counts

    for game in positions(pack, players, 5, 30, 6):
        program, state = game.program, game.state
        for viewer in [None, *range(state.players)]:
            seats = game.observation(viewer)["players"]
            for p, seat in enumerate(seats):
                counters = {n: state.counters[n][p] for n, s in program.counters.items()
                            if s["per"] == "player"}
                flags = sorted(n for n, s in program.flags.items()
                               if s["per"] == "player" and state.flags[n][p])
                totals = counts(game.symbol_view(), p, program.symbol_ids)
                assert json.dumps(seat["counters"]) == json.dumps(counters)
                assert seat["flags"] == flags
                assert json.dumps(seat["symbols"]) == json.dumps(
                    {s: n for s, n in totals.items() if n})
