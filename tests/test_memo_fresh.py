"""Every remembered define value is the value the define has now (``runtime/reads.py``).

A value is kept until something it reads changes; a builtin or a change that says it
reads or touches less than it does would leave a stale value behind, which the pinned
log hashes catch only when play happens to ask for it.  Here random and greedy play are
stopped at every decision, and each value the game remembers is compared with the define
worked out afresh on a copy that remembers nothing.  A change of one seat's zone,
counter or symbols forgets only the values about that seat (``runtime/seat_reads.py``):
the last test breaks that on purpose and checks that the comparison sees it.
"""

from __future__ import annotations

from contextlib import suppress

import pytest
from test_log_hashes import tables_of

from decklore.runtime import seat_reads
from decklore.runtime.agents import Agent, GreedyAgent, RandomAgent, Weights
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.memo import define_of, values
from decklore.runtime.simulate import deal_decks


def assert_memo_is_fresh(game: Game) -> int:
    fresh = game.clone()
    fresh.forget_symbols()  # the symbol view and its totals made again too
    compared = 0
    for key, table in game.memo.items():
        name = define_of(key)
        for args, value in table.items():
            fresh.memo, fresh.owned = {}, set()
            assert fresh.program.defines[name](fresh, *args) == value, (key, args)
            compared += 1
    return compared


PLAYS = [("era", 2, 3), ("era", 3, 5), ("era-of-kingdoms", 3, 2), ("rise-of-empires", 3, 1),
         ("embers-of-empire", 2, 4), ("uno", 3, 1)]


def play_and_compare(pack: str, players: int, seed: int, greedy: bool, decisions: int) -> int:
    """Play, comparing every remembered value with a fresh one before each decision."""
    tables = tables_of(pack)
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)
    weights = Weights.from_tables(tables.raw)
    agents: list[Agent] = [GreedyAgent(seed * 7 + p, weights) if greedy
                           else RandomAgent(seed * 7 + p) for p in range(players)]
    compared = 0
    with suppress(RulesError):  # a starving game ends on its step budget
        for _ in range(decisions):
            if game.terminal:
                break
            compared += assert_memo_is_fresh(game)
            game.apply(agents[game.current_player() or 0].choose(game))
    return compared


@pytest.mark.parametrize(("pack", "players", "seed"), PLAYS)
def test_remembered_values_are_current(pack: str, players: int, seed: int) -> None:
    assert play_and_compare(pack, players, seed, False, 120) > 0


@pytest.mark.parametrize(("pack", "players", "seed"), PLAYS)
def test_remembered_values_are_current_in_greedy_play(pack: str, players: int,
                                                       seed: int) -> None:
    assert play_and_compare(pack, players, seed, True, 40) > 0


def test_values_about_other_seats_are_kept() -> None:
    """A card played into one kingdom's lands keeps what is known of the other kingdoms."""
    tables = tables_of("era-of-kingdoms")
    game = Game.new(tables, 3, 2, deal_decks(tables, 3, 2) or None)
    places = game.program.seat_reads.places
    assert places["have"]["z:lands"] == frozenset({1})
    assert places["have"]["symbols"] == frozenset({1})
    assert places["passing"]["c:linger_food"] == frozenset({1})
    assert game.program.symbols_per_seat
    have = game.program.defines["have"]
    food = next(s for s in game.program.symbol_ids if s.endswith(":food"))
    max_hand = game.program.defines["max_hand"]  # reads the symbol view, and no zone
    assert game.program.reads.defines["max_hand"] == {"symbols"}
    for p in range(3):
        have(game, food, p)
        max_hand(game, p)
    hand = game.zone_cards("hand", 1)
    space = next(z for z in game.program.zones if z.startswith("lands"))
    game.move(hand[0], space, 1)
    assert sorted(args[1] for args in values(game.memo, "have")) == [0, 2]
    assert sorted(args[0] for args in values(game.memo, "max_hand")) == [0, 2]
    assert assert_memo_is_fresh(game) > 0


def test_forgetting_too_little_per_seat_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the values about the changed seat kept too, the comparison must find one that
    is stale: the test above cannot pass by comparing nothing that matters."""
    plan = seat_reads.SeatReads.plan

    def whole_only(self: seat_reads.SeatReads, tags: tuple[str, ...], seated: tuple[str, ...]
                   ) -> seat_reads.Plan:
        whole = plan(self, tags, seated)[0]
        return whole, {}, whole

    monkeypatch.setattr(seat_reads.SeatReads, "plan", whole_only)
    program = Game.new(tables_of("era-of-kingdoms"), 3, 2).program  # the one play uses
    monkeypatch.setattr(program, "_memo_keys", {})  # what each change forgets, afresh
    with pytest.raises(AssertionError):
        play_and_compare("era-of-kingdoms", 3, 2, False, 120)


def test_the_symbol_view_keeps_the_totals_of_other_seats() -> None:
    """After a card is played into one kingdom's lands, the next symbol view takes the
    other kingdoms' totals from the last one, and every total is what a fresh view says."""
    tables = tables_of("era-of-kingdoms")
    game = Game.new(tables, 3, 2, deal_decks(tables, 3, 2) or None)
    symbols = game.program.symbol_ids
    view = game.symbol_view()
    for p in range(3):
        for s in symbols:
            view.total(s, p)
    hand = game.zone_cards("hand", 1)
    space = next(z for z in game.program.zones if z.startswith("lands"))
    game.move(hand[0], space, 1)
    kept = game.symbol_view()
    assert kept is not view
    assert {p for _, p in kept._totals} == {0, 2}
    fresh = game.clone()
    fresh.forget_symbols()
    again = fresh.symbol_view()
    for p in range(3):
        for s in symbols:
            assert kept.total(s, p) == again.total(s, p), (s, p)


def test_a_stack_changed_in_one_kingdom_keeps_the_others() -> None:
    """A card leaving a stack in seat 1's lands keeps what was read of seats 0 and 2,
    though `have` reads the stacks of every kingdom's lands (through `units(lands(p))`)."""
    tables = tables_of("era-of-kingdoms")
    game = Game.new(tables, 3, 2, deal_decks(tables, 3, 2) or None)
    assert game.program.seat_reads.places["have"]["stacks"] == frozenset({1})
    assert game.program.seat_reads.places["is_top"]["stacks"] is None  # a card's own stack
    space = next(z for z in game.program.zones if z.startswith("lands"))
    bottom, top = game.zone_cards("hand", 1)[:2]
    game.move(bottom, space, 1)
    game.move(top, space, 1)
    game.stack(top, bottom)
    have = game.program.defines["have"]
    food = next(s for s in game.program.symbol_ids if s.endswith(":food"))
    for p in range(3):
        have(game, food, p)
    game.move(top, "basic_discard", None)  # off the stack, into a shared pile
    assert sorted(args[1] for args in values(game.memo, "have")) == [0, 2]
    assert assert_memo_is_fresh(game) > 0


def test_reading_no_seat_s_stacks_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With every stack read said to be of no seat's cards, a stack change keeps values it
    must forget, and the comparison finds one."""
    program = Game.new(tables_of("era-of-kingdoms"), 3, 2).program  # the one play uses
    reads = program.seat_reads
    for found in reads.places.values():
        if "stacks" in found:
            monkeypatch.setitem(found, "stacks", frozenset())
    monkeypatch.setattr(reads, "_plans", {})
    monkeypatch.setattr(program, "_memo_keys", {})
    with pytest.raises(AssertionError):
        play_and_compare("era-of-kingdoms", 3, 2, False, 120)
