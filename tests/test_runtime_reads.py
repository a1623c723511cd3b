"""A define's remembered value lasts until something it reads changes, and no longer
(``decklore.runtime.reads``)."""

from __future__ import annotations

from pathlib import Path

from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.game import Game
from decklore.runtime.memo import define_of, values
from decklore.runtime.reads import ANY, Reads

UNO = Path(__file__).resolve().parent.parent / "benchmarks" / "packs" / "uno"


def _define(body: dict[str, object]) -> dict[str, object]:
    return {"params": ["p"], "body": body, "type": "number", "at": "x.rules:1"}


def test_reads_follow_defines_and_fear_the_unknown() -> None:
    reads = Reads({
        "gold": _define({"op": "counter", "name": "gold", "of": {"op": "local", "name": "p"}}),
        "rich": _define({"op": "gt", "a": {"op": "define", "name": "gold", "args": []},
                         "b": {"op": "call", "fn": "size", "args": [
                             {"op": "zone", "zone": "hand", "player": None}]}}),
        "odd": _define({"op": "call", "fn": "a_builtin_from_the_future", "args": []}),
    })
    assert reads.defines["gold"] == {"c:gold"}
    assert reads.defines["rich"] == {"c:gold", "z:hand"}
    assert reads.defines["odd"] == {ANY}
    assert reads.readers_of("c:gold") == ("gold", "odd", "rich")
    assert reads.readers_of("c:silver") == ("odd",)


def test_a_change_forgets_only_the_values_that_read_it() -> None:
    game = Game.new(compiled_tables(UNO), 2, 3)
    can_play = game.program.defines["can_play"]
    seen = can_play(game, 0)
    assert values(game.memo, "can_play") == {(0,): seen}
    game.change_counter("to_move", None, 2)  # can_play does not read whose move it is
    assert values(game.memo, "can_play") == {(0,): seen}
    colour = game.counter_value("target_color", None)
    game.change_counter("target_color", None, (colour + 1) % 4)
    assert values(game.memo, "can_play") == {}
    game.change_counter("target_color", None, colour)
    assert can_play(game, 0) == seen


def test_a_clone_shares_the_memo_and_each_writes_its_own() -> None:
    game = Game.new(compiled_tables(UNO), 2, 3)
    matches = game.program.defines["matches"]  # one table, of cards
    assert "matches" not in game.program.memo_split
    seen = matches(game, 0)
    unasked = [c for c in range(len(game.state.cards)) if (c,) not in game.memo["matches"]]
    twin = game.clone()
    assert twin.memo["matches"] is game.memo["matches"]
    colour = twin.counter_value("target_color", None)
    twin.change_counter("target_color", None, (colour + 1) % 4)
    assert "matches" not in twin.memo and game.memo["matches"][(0,)] == seen
    matches(twin, unasked[0])
    assert (unasked[0],) not in game.memo["matches"]
    again = twin.clone()  # shares twin's table, then writes to it: copied first
    matches(again, unasked[1])
    assert (unasked[1],) not in twin.memo["matches"]
    assert again.memo["matches"] is not twin.memo["matches"]


def test_a_define_about_one_seat_keeps_a_table_per_seat() -> None:
    """`has_four(p)` reads `p`'s hand only: a card leaving seat 0's hand drops seat 0's
    table and keeps seat 1's, the very table a clone shares."""
    game = Game.new(compiled_tables(UNO), 2, 3)
    assert game.program.memo_split["has_four"] == 0
    has_four = game.program.defines["has_four"]
    has_four(game, 0)
    has_four(game, 1)
    twin = game.clone()
    twin.move(twin.zone_cards("hand", 0)[0], "played", None)
    seat_0, seat_1 = game.program.memo_seat_keys["has_four"][:2]
    assert seat_0 not in twin.memo and seat_0 in game.memo
    assert twin.memo[seat_1] is game.memo[seat_1]


def test_actions_without_descriptions_are_the_same_actions() -> None:
    game = Game.new(compiled_tables(UNO), 2, 5)
    full = game.legal_actions()
    bare = game.legal_actions(describe=False)
    assert [(a.index, a.label, a.value) for a in bare] == [
        (a.index, a.label, a.value) for a in full]
    assert all(a.description for a in full) and not any(a.description for a in bare)


def test_the_cards_of_an_owner_follow_a_copy_whose_owners_were_dealt_again() -> None:
    """``cards_of`` reads each owner's cards once per game; a copy that deals owners
    again (as a determinized one does) answers from its own cards, and so does the
    game it was copied from."""
    from decklore.runtime.builtins import cards_of

    game = Game.new(compiled_tables(UNO), 2, 3)

    def scan(g: Game, p: int) -> list[int]:
        return [i for i, card in enumerate(g.state.cards) if card["owner"] == p]

    assert cards_of(game, 0) == scan(game, 0)  # read now, and kept
    twin = game.clone()
    for instance in range(0, len(twin.state.cards), 3):
        twin.state.card_to_change(instance)["owner"] = 1
    for p in (0, 1):
        assert cards_of(twin, p) == scan(twin, p)
        assert cards_of(game, p) == scan(game, p)
    assert cards_of(twin, 1) != cards_of(game, 1)
    assert cards_of(game, None) == scan(game, None)  # type: ignore[arg-type]


def test_every_builtin_says_what_it_reads() -> None:
    """A builtin missing from the table reads everything, so every define that calls it
    is forgotten at each change: each one is listed (symbols_on also reads whose turn it
    is, for a shared force)."""
    from decklore.runtime.builtins import BUILTINS
    from decklore.runtime.reads import BUILTIN_READS

    assert sorted(set(BUILTINS) - set(BUILTIN_READS)) == []
    assert {"me", "out"} <= BUILTIN_READS["symbols_on"]


def test_a_new_turn_forgets_only_what_reads_the_turn() -> None:
    from decklore.cards import bundled_pack

    game = Game.new(compiled_tables(bundled_pack("era")), 2, 1)  # type: ignore[arg-type]
    reads = game.program.reads.defines
    split = game.program.memo_seat_keys
    game.memo = {(split[name][1] if name in split else name): {} for name in reads}
    game.touch_all()
    turn = {"me", "turn", "round", ANY}
    assert {define_of(key) for key in game.memo} == {
        name for name, read in reads.items() if not read & turn}
    assert "block_sources" in game.memo  # which cards a player owns, of another kind
    assert any(not read & turn for read in reads.values())
    assert any(read & turn for read in reads.values())
