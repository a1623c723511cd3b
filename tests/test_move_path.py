"""A plain move's fast path, a run of moves forgetting once, and ``blocks_from``'s
short cut equal the general paths.

``World.move`` does a plain move (a card in no stack between two zones that count no
symbols, keep no stacks and have no slots, no mark to reset) in a few lines planned once
per pair of zones (``runtime/moves.py``), and ``World.move_all`` and a draw forget once
for a run of moves (``World.hold``).  Here the same play and the same random moves are
made with both on and with every move taken through the general path, one forget per
card: the states, logs and outcome checks must be the same byte for byte, and every
value the fast game remembers must be the define's value now.  ``blocks_from`` skips the
cards when no unit of the symbol view blocks the symbol: any cards, with blocks in play
and cards tucked, must give what the card-by-card reference gives.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_log_hashes import tables_of
from test_memo_fresh import assert_memo_is_fresh
from test_symbol_units import blocks_from_reference

from decklore.runtime import loops, outcomes, world
from decklore.runtime.agents import RandomAgent
from decklore.runtime.builtins import blocks_from
from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import Each
from decklore.runtime.game import Game
from decklore.runtime.memo import define_of
from decklore.runtime.moves import MovePlan, move_plan
from decklore.runtime.simulate import deal_decks
from decklore.runtime.state import UNDER


def general(game: Game) -> Game:
    """Make every move of ``game`` take the general path, forgetting card by card."""
    game.plain_moves = False
    game.hold = lambda: None  # type: ignore[method-assign]
    return game


def new_game(pack: str, players: int, seed: int) -> Game:
    tables = tables_of(pack)
    return Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                    budget=20_000)


PLAYS = [("era", 2, 1), ("era", 3, 2), ("uno", 3, 1), ("era-of-kingdoms", 3, 1),
         ("embers-of-empire", 2, 1), ("rise-of-empires", 2, 1)]


@pytest.mark.parametrize(("pack", "players", "seed"), PLAYS)
def test_play_is_the_same_with_and_without_the_fast_path(pack: str, players: int,
                                                          seed: int) -> None:
    fast, slow = new_game(pack, players, seed), general(new_game(pack, players, seed))
    agents = [RandomAgent(seed * 7 + p) for p in range(players)]
    for decision in range(150):
        assert fast.state.to_json() == slow.state.to_json(), decision
        if decision % 10 == 0:
            assert_memo_is_fresh(fast)
        if fast.terminal:
            break
        action = agents[fast.current_player() or 0].choose(fast)
        fast.apply(action)
        slow.apply(action)
    assert fast.state.to_json() == slow.state.to_json()


def test_the_plans_are_for_plain_zones_only() -> None:
    """A zone that counts symbols or keeps stacks, or a place out of the rules' zones,
    has no plan; two plain zones of each player have one, with their tags per seat."""
    program = new_game("era", 2, 1).program
    assert move_plan(program, "hand", "play") is None  # play counts symbols and stacks
    assert move_plan(program, "-under", "hand") is None
    plan = move_plan(program, "draw_pile", "hand")
    assert plan is not None
    assert plan.per_player and not plan.ordered
    assert plan.seated == ("z:draw_pile", "z:hand")
    assert "symbols" in plan.touched_unseen and "symbols" not in plan.touched


def asked(game: Game) -> list[tuple[str, tuple[Any, ...]]]:
    """Every define value the game remembers now, by name and arguments."""
    return [(define_of(key), args) for key, table in game.memo.items() for args in table]


def ask_again(game: Game, questions: list[tuple[str, tuple[Any, ...]]]) -> None:
    """Ask these defines again, so that the moves that follow have values to forget."""
    for name, args in questions:
        with suppress(RulesError):
            game.program.defines[name](game, *args)


move_steps = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000),
                                st.integers(0, 3), st.sampled_from([None, True, False]),
                                st.sampled_from([None, True, False]), st.integers(1, 4)),
                      min_size=1, max_size=25)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pack=st.sampled_from(["era", "uno", "era-of-kingdoms"]), steps=move_steps)
def test_random_moves_are_the_same_on_either_path(pack: str, steps: list[Any]) -> None:
    """Moves (one card, or several of a zone at once) of random cards to random zones,
    top, bottom or as the zone says, face up, down or as they were: the same states on
    either path, and what the fast game remembers still true after each."""
    fast, slow = new_game(pack, 2, 3), general(new_game(pack, 2, 3))
    agent = RandomAgent(3)
    for _ in range(6):  # some play first, so that values are remembered
        action = agent.choose(fast)
        fast.apply(action)
        slow.apply(action)
    questions = asked(fast)
    zones = sorted(fast.program.zones)
    for pick, where, seat, top, face, count in steps:
        zone = zones[where % len(zones)]
        player = seat % fast.state.players
        cards = fast.state.cards
        first = pick % len(cards)
        found, owner = fast.location(first)
        if found not in fast.program.zones:
            continue
        source = fast.zone_cards(found, owner)
        run = source[:count] if first in source[:count] else [first]
        for game in (fast, slow):
            with suppress(RulesError):  # a zone's slots, for example
                game.move_all(list(run), zone, player, top=top, face_up=face)
        assert fast.state.to_json() == slow.state.to_json()
        assert fast._held is None and not fast._holding
        assert_memo_is_fresh(fast)
        ask_again(fast, questions)


def test_held_moves_are_forgotten_before_a_trigger_condition() -> None:
    """Before a trigger's condition is read, the world forgets what the moves held so far
    forget (the condition may ask a define they change)."""
    game = new_game("era", 2, 1)
    assert game.program.triggers.get("destroyed")
    drawn = game.zone_cards("draw_pile", 0)[0]
    game.hold()
    game.move(drawn, "hand", 0)
    assert game._held is not None and game._holding
    game.fire("destroyed", [drawn])
    assert game._held is None
    game.release()
    assert not game._holding


def test_a_fast_path_that_forgets_too_little_is_caught(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """Plans that forget nothing of the zone a card enters must fail the comparison
    above: it cannot pass by comparing nothing that matters."""
    def forget_less(program: Any, left: str, zone: str) -> MovePlan | None:
        plan = move_plan(program, left, zone)
        if plan is None:
            return None
        entered = program.zone_tags[zone]
        keep = tuple(t for t in plan.seated if t != entered)
        return replace(plan, touched=tuple(t for t in plan.touched if t != entered),
                       touched_unseen=tuple(t for t in plan.touched_unseen if t != entered),
                       seated=keep, to_seated=plan.to_seated and len(keep) == len(plan.seated))

    monkeypatch.setattr(world, "move_plan", forget_less)
    program = new_game("era", 2, 1).program
    monkeypatch.setattr(program, "move_plans", {})
    with pytest.raises(AssertionError):
        test_play_is_the_same_with_and_without_the_fast_path("era", 2, 1)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), decisions=st.integers(10, 200),
       picks=st.lists(st.integers(0, 10_000), min_size=1, max_size=40),
       tucks=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 10_000)), max_size=4))
def test_blocks_from_skips_nothing_it_counts(seed: int, decisions: int, picks: list[int],
                                            tucks: list[tuple[int, int]]) -> None:
    """``blocks_from`` of any cards (tucked ones among them, whose units are made apart
    from the view) is what the card-by-card reference finds, with blocks in the view of
    some symbols and of none of others."""
    game = new_game("era", 2, seed)
    agent = RandomAgent(seed)
    with suppress(RulesError):
        for _ in range(decisions):
            if game.terminal:
                break
            game.apply(agent.choose(game))
    total = len(game.state.cards)
    blocking = [c for c in range(total) if any(
        item["argument"] and not item["key"] for item in game.rows[c]["symbols"])]
    for pick in picks[:3]:  # some blocks in play, so that the view has some to count
        card = blocking[pick % len(blocking)]
        if game.state.cards[card]["zone"] in game.program.zones:
            game.move(card, "play", pick % game.state.players)
    for card, host in tucks:  # a card tucked under a card in play, where it still counts
        table = [c for cards in game.state.zones["play"] for c in cards]
        if table and card % total not in table:
            with suppress(RulesError):
                game.tuck(card % total, table[host % len(table)])
    cards = [pick % total for pick in picks] + list(game.state.zones[UNDER][0])
    view = game.symbol_view()
    for symbol in game.program.symbol_ids:
        for p in range(game.state.players):
            assert blocks_from(game, symbol, p, cards) == blocks_from_reference(
                game, symbol, p, cards), (symbol, p, view.blocks_any(symbol))


def test_outcomes_are_looked_at_only_after_what_they_read_changes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A change to nothing any outcome reads looks at no outcome; a change to what one
    reads looks at them, and a player who reached the goal wins at that check."""
    game = new_game("era", 2, 1)
    program = game.program
    looked: list[str] = []
    wrapped = []
    for outcome in program.outcomes:
        def when(g: Any, env: Any, o: Any = outcome) -> Any:
            looked.append(o.label)
            return o.when(g, env)
        wrapped.append(replace(outcome, when=when))
    monkeypatch.setattr(program, "outcomes", wrapped)
    game.changed = {"z:hand", "c:military_blocked"}
    outcomes.check_outcomes(game)
    assert looked == [] and game.state.info["result"] is None
    game.changed = {"z:hand", "c:progress_tokens"}
    outcomes.check_outcomes(game)
    assert looked == ["Reached the progress goal"] * 2  # once for each player
    game.change_counter("progress_tokens", 1, 15)
    outcomes.check_outcomes(game)
    assert game.state.info["result"]["winners"] == [1]


def test_a_finished_loop_takes_its_own_frame_off_the_stack() -> None:
    """A ``for each`` that ran out of items leaves the stack by its own frame, the top one,
    even when an equal frame lies further down (the same loop entered again from its
    body, at the same point)."""
    game = new_game("era", 2, 1)
    sid = next(i for i, stmt in enumerate(game.program.stmts) if stmt.do == "for_each")
    frames = game.state.frames
    below, top = Each(sid, [1, 2], 2, {}), Each(sid, [1, 2], 2, {})
    assert below == top
    frames.extend([below, top])
    depth = len(frames)
    loops.f_each(game, top)
    assert len(frames) == depth - 1 and frames[-1] is below
