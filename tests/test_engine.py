"""The interpreter's semantics, one rule at a time, on the tiny ``mini`` pack with rules.

Each test writes a few lines of rules, plays them, and checks what the engine did: flows and
periods, decisions made one item at a time, triggers, paying, limits, scoring, and errors
that point at the rule's line.  ERA's own behaviour is checked by its scenarios.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from decklore.compiler.pipeline import compile_pack
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game, StepBudgetExceeded
from decklore.runtime.tables import loads_tables

MINI = Path(__file__).parent / "packs" / "mini"

STATE = """\
zone draw: per_player, ordered, hidden, deck main, refill used
zone hand: per_player, owner
zone table: per_player, public, stacks, symbols
zone used: per_player, ordered, public
counter points "Points": per_player, min 0
counter gold "Gold": per_player, min 0
counter moves: per_player, min 0, until turn
flag busy: per_player, until phase
"""


def play(tmp_path: Path, rules: str, *, players: int = 2, seed: int = 1,
         budget: int = 20_000) -> Game:
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STATE + rules)
    tables = loads_tables(compile_pack(pack).data)
    return Game.new(tables, players, seed, budget=budget)


def descriptions(game: Game) -> list[str]:
    return [a.description for a in game.legal_actions()]


def choose(game: Game, text: str) -> None:
    found = [a.index for a in game.legal_actions() if text in a.description]
    assert len(found) == 1, (text, descriptions(game))
    game.apply(found[0])


def test_turns_go_round_until_an_outcome(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    gain 1 points
win p when p.points >= 3 "Three points"
""")
    assert game.terminal and game.result is not None
    assert game.result["winners"] == [0] and game.result["reason"] == "Three points"
    assert game.state.info["turn"] == 5  # 1, 2, 1, 2, 1: the first seat reaches 3 first
    assert game.state.info["decisions"] == 0


def test_a_rule_that_loops_forever_names_its_line(tmp_path: Path) -> None:
    with pytest.raises(StepBudgetExceeded) as caught:
        play(tmp_path, """
round:
  turn:
    repeat while true:
      gain 1 gold
""", budget=5000)
    assert caught.value.at == "rules/game.rules:12"
    assert "loops without end" in str(caught.value)


def test_a_game_that_never_ends_says_so(tmp_path: Path) -> None:
    with pytest.raises(StepBudgetExceeded) as caught:
        play(tmp_path, "round:\n  turn:\n    gain 1 gold\n", budget=3000)
    assert "reached turn" in str(caught.value) and caught.value.at is None


def test_spending_below_the_minimum_is_a_rules_error_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as caught:
        play(tmp_path, "round:\n  turn:\n    spend 2 gold\n")
    assert str(caught.value) == ("rules/game.rules:11: Gold would go below 0 (-2); the rules "
                                 "must check before spending")


def test_decisions_with_one_answer_are_taken_and_logged_as_forced(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    choose number n in 2..2 "How many":
      gain n points
    may "Take a point":
      gain 1 points
win p when p.points >= 3
""")
    assert game.legal_actions()[0].description == "Take a point"
    assert ["forced", 0] in game.state.log
    game.apply(0)
    assert game.terminal and game.result is not None and game.result["winners"] == [0]


def test_choose_cards_is_one_pick_at_a_time_then_done(tmp_path: Path) -> None:
    game = play(tmp_path, """
setup:
  for each p in players():
    draw 3 from draw(p) to hand(p) face up
round:
  turn:
    choose cards cs from hand(me) up to 2 "Cards to score":
      move cs to used(me)
      gain size(cs) points
win p when p.points >= 2
""")
    first = descriptions(game)
    assert len(first) == 4 and first[-1] == "Done"
    game.apply(0)
    second = descriptions(game)
    assert len(second) == 3 and second[-1] == "Done"  # the picked card is gone
    game.apply(0)  # a second pick reaches the limit: the choice closes by itself
    assert game.terminal
    assert len(game.state.zones["used"][0]) == 2


def test_end_phase_still_runs_the_phase_at_end_hook(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    phase one:
      at end:
        gain 10 gold
      set busy
      end phase
      gain 1 points
    phase two:
      gain 1 points
win p when p.gold >= 20
""")
    # Phase two runs once each turn; the first seat's third hook wins before its phase two.
    assert game.state.counters["gold"] == [20, 10]
    assert game.state.counters["points"] == [1, 1]
    # 'busy' lasts until the phase ends: seat 2's was cleared, seat 1 won inside the phase.
    assert game.state.flags["busy"] == [True, False]


def test_until_counters_and_flags_reset_when_their_period_ends(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    gain 1 moves
    gain me.moves gold
    gain 1 points
win p when p.points >= 3
""")
    assert game.state.counters["gold"] == [3, 2]  # moves is 1 again every turn
    assert game.state.counters["moves"] == [1, 0]  # seat 1 won inside its third turn


def test_destroyed_triggers_see_the_cards_still_in_place(tmp_path: Path) -> None:
    game = play(tmp_path, """
setup:
  for each p in players():
    draw 1 from draw(p) to table(p) face up
round:
  turn:
    destroy top_card(table(me)) to used(me)
    gain 1 points
when destroyed(c):
  gain size(table(controller(c))) gold for controller(c)
win p when p.points >= 1
""")
    assert game.state.counters["gold"][0] == 1
    assert len(game.state.zones["used"][0]) == 1 and game.state.zones["table"][0] == []


def test_pay_offers_alike_items_once_and_keeps_change(tmp_path: Path) -> None:
    game = play(tmp_path, """
define worth(c) = 2
round:
  turn:
    draw 3 from draw(me) to used(me) face down
    set gold for me to 1
    pay 3 from used(me) valued worth, me.gold keep change in points for me
    gain 5 points
win p when p.points >= 5
""")
    offered = descriptions(game)
    # Three face-down cards are alike to the payer: one action stands for them all.
    assert offered == ["Pay 2 of 3 with a face-down card (your used)", "Pay 1 of 3 with gold"]
    game.apply(0)  # 2 paid, 1 due
    game.apply(0)  # another card: 4 paid, 1 over
    assert game.terminal
    assert game.state.counters["points"][0] == 6  # the change, then 5
    assert game.state.counters["gold"][0] == 1


def test_choose_one_option_limits_count_per_turn(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    repeat 2 times:
      choose one "Act":
        option earn "Earn a point" once per turn:
          gain 1 points
        option rest "Rest":
          gain 1 gold
win p when p.points >= 2
""")
    choose(game, "Earn a point")
    # The second time round only Rest was left, so it was forced; now it is seat 2's turn.
    assert game.state.counters["gold"] == [1, 0] and game.current_player() == 1
    assert descriptions(game) == ["Earn a point", "Rest"]


def test_the_score_decides_when_the_rules_run_out(tmp_path: Path) -> None:
    game = play(tmp_path, """
setup:
  for each p in players():
    gain seat(p) points for p
score p = p.points
""")
    assert game.terminal and game.result is not None
    assert game.result["winners"] == [1] and "highest score" in game.result["reason"]


def test_hidden_zones_hide_cards_from_their_owner(tmp_path: Path) -> None:
    game = play(tmp_path, """
setup:
  for each p in players():
    draw 2 from draw(p) to hand(p) face up
round:
  turn:
    may "Pass":
      gain 1 points
win p when p.points >= 1
""")
    mine = game.observation(0)["zones"]
    assert all("card" in view for view in mine["hand"][0])
    assert all("card" not in view for view in mine["hand"][1])
    assert all("card" not in view for view in mine["draw"][0])


def test_save_mid_decision_and_resume(tmp_path: Path) -> None:
    game = play(tmp_path, """
round:
  turn:
    choose number n in 0..3 "How many":
      gain n points
win p when p.points >= 5
""")
    game.apply(3)
    saved = game.to_json()
    again = Game.from_json(game.program.tables, saved)
    game.apply(2)
    again.apply(2)
    assert again.to_json() == game.to_json()


def test_as_hands_the_decisions_of_a_block_to_another_player(tmp_path: Path) -> None:
    game = play(tmp_path, """
setup:
  for each p in players():
    as p:
      choose number n in 1..3 "Starting gold":
        set gold for p to n
round:
  turn:
    gain 1 points
win p when p.points >= 1
""")
    assert game.current_player() == 0
    game.apply(2)
    assert game.current_player() == 1  # the second seat chooses its own gold, in setup
    assert game.legal_actions()[0].description == "Starting gold [Player 2]: 1"
    game.apply(0)
    assert game.state.counters["gold"] == [3, 1]
    assert game.terminal


def test_choose_random_is_no_decision_and_follows_the_seed(tmp_path: Path) -> None:
    rules = """
setup:
  for each p in players():
    draw 3 from draw(p) to hand(p) face up
round:
  turn:
    choose random c from hand(me):
      move c to table(me) face up
      stack top_card(hand(me)) on c
      gain stack_size(top_of(c)) points
win p when p.points >= 2
"""
    picks = []
    for seed in (1, 1, 2, 3, 4, 5):
        game = play(tmp_path / str(seed) / str(len(picks)), rules, seed=seed)
        assert game.state.info["decisions"] == 0 and game.terminal
        assert game.state.counters["points"][0] == 2
        picks.append([e for e in game.state.log if e[0] == "random"])
    assert picks[0] == picks[1]  # the same seed, the same picks
    assert len({json.dumps(p) for p in picks}) > 2


def test_a_zone_of_numbered_spaces(tmp_path: Path) -> None:
    game = play(tmp_path, """
zone tile "Tile": per_player, stacks, symbols, spaces 3
setup:
  for each p in players():
    draw 1 from draw(p) to tile(p, 2) face up
    draw 1 from draw(p) to tile(p, 3) face up
round:
  turn:
    choose number n in 1..3 where size(tile(me, n)) > 0 "Tile to clear":
      for each c in tile(me, n):
        gain space_of(c) points
        move c to used(me)
win p when p.points >= 5
""")
    assert [a.description for a in game.legal_actions()] == ["Tile to clear: 2",
                                                             "Tile to clear: 3"]
    assert game.observation(0)["zones"]["tile#2"][0][0]["name"]
    game.apply(1)  # tile 3: 3 points
    assert game.state.counters["points"] == [3, 0]
    game.apply(0)  # the second seat clears its tile 2; the first seat's last tile is forced
    assert game.state.zones["tile#2"][1] == [] and game.state.zones["tile#3"][1] != []
    assert game.terminal and game.result is not None and game.result["winners"] == [0]
    assert game.state.counters["points"] == [5, 2]


def test_a_field_naming_cards_reads_as_their_copies(tmp_path: Path) -> None:
    """A ``type: cards`` field (a map's neighbours, say) is a collection of the copies of the
    cards it names: countable, searchable and comparable like a zone's cards."""
    pack = tmp_path / "mini"
    shutil.copytree(MINI, pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text().replace(
        "  lore: {type: text, description: Extra words.}",
        "  lore: {type: text, description: Extra words.}\n"
        "  allies: {type: cards, description: Cards it fights beside.}")
        + "rules:\n  - rules/game.rules\n")
    one = pack / "decks" / "one.yaml"
    one.write_text(one.read_text().replace(
        "    upgrades_from: squire", "    upgrades_from: squire\n    allies: [smith, squire]"))
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(STATE + """
setup:
  for each p in players():
    draw 20 from draw(p) to table(p) face up
round:
  turn:
    for each k in table(me) where count(a in k.allies) > 0:
      gain count(a in k.allies) points
      gain count(c in table(me) where any(a in k.allies where a = c)) gold
    end game
""")
    tables = loads_tables(compile_pack(pack).data)
    game = Game.new(tables, 2, 1)
    named = [i for i, c in enumerate(game.state.cards)
             if c["card"] in ("mini:smith", "mini:squire")]
    assert game.terminal and game.state.counters["points"][0] == len(named)
    # the player's own copies among them, found by comparing cards
    assert game.state.counters["gold"][0] == len([i for i in named
                                                  if game.state.cards[i]["player"] == 0])


def test_until_moved_marks_leave_with_the_card(tmp_path: Path) -> None:
    game = play(tmp_path, """
counter tokens: per_card, min 0, until moved
flag tired: per_card, until moved
setup:
  for each p in players():
    draw 1 from draw(p) to table(p) face up
round:
  turn:
    let c = top_card(table(me))
    gain 2 tokens on c
    set tired on c
    gain c.tokens points
    move c to used(me)
    if not c.tired and c.tokens = 0:
      gain 1 points
win p when p.points >= 3
""")
    assert game.terminal and game.state.counters["points"][0] == 3
    assert all(v == 0 for v in game.state.counters["tokens"])
    assert not any(game.state.flags["tired"])


def test_a_shuffle_forgets_what_was_revealed_of_face_down_cards(tmp_path: Path) -> None:
    """A face-down card revealed, then shuffled back among others, is unknown again: the
    shuffle's point is that nobody can follow it. Face-up cards stay seen, as they lie."""
    game = play(tmp_path, """
setup:
  for each p in players():
    move top_card(draw(p)) to used(p) face up
    move top(draw(p), 3) to used(p) face down
    reveal top(used(p), 2)
round:
  turn:
    may "Shuffle the pile":
      shuffle used(me)
    end game
""")
    seen = [v for v in game.observation(1)["zones"]["used"][0] if "card" in v]
    assert len(seen) == 3  # two revealed face-down cards and the face-up one
    game.apply(0)  # yes: shuffle
    after = game.observation(1)["zones"]["used"][0]
    assert [v["face_up"] for v in after if "card" in v] == [True]
    assert sum(not v["face_up"] for v in after) == 3


def test_move_at_depth_puts_cards_under_that_many(tmp_path: Path) -> None:
    """``at depth N``: the first card goes under N cards, the next under it, and a depth past
    the bottom is the bottom ("the middle of the deck", "nine cards from the top")."""
    game = play(tmp_path, """
setup:
  for each p in players():
    move top(draw(p), 2) to hand(p)
    move top_card(hand(p)) to draw(p) at depth 3
    move hand(p) to draw(p) face down at depth 99
round:
  turn:
    end game
""")
    for seat in range(2):
        deck = game.zone_cards("draw", seat)
        first, second = deck[3], deck[-1]
        assert game.state.cards[first]["zone"] == "draw" and len(deck) == 7
        assert game.state.cards[second]["face_up"] is False
    with pytest.raises(RulesError, match=r"game.rules:11: a card cannot go under -1 cards: "
                       r"a depth is a whole number from 0 \(the top\)"):
        play(tmp_path / "bad", """
setup:
  move top_card(draw(player_at(1))) to used(player_at(1)) at depth 0 - 1
""")


def test_a_bag_is_drawn_from_at_random_by_the_seed(tmp_path: Path) -> None:
    """``bag``: each draw is a random pick by the game's generator, not the first card, so
    the order cards went in says nothing of the order they come out in; the same seed draws
    the same cards."""
    rules = """
zone pouch: per_player, public, bag
setup:
  for each p in players():
    move draw(p) to pouch(p) face up
round:
  turn:
    draw 3 from pouch(me) to hand(me) face up
    end game
"""
    drawn = []
    for seed in range(8):
        game = play(tmp_path / str(seed), rules, seed=seed)
        first = [game.rows[c]["id"] for c in game.zone_cards("hand", 0)]
        again = play(tmp_path / f"again{seed}", rules, seed=seed)
        assert [again.rows[c]["id"] for c in again.zone_cards("hand", 0)] == first
        assert len(first) == 3
        drawn.append(tuple(first))
    # Without the option the draws would be the pouch's first three cards every time.
    assert len(set(drawn)) > 2


def test_position_of_counts_from_the_top_and_fills_the_same_slot(tmp_path: Path) -> None:
    """``position_of(c)``: 1 for the top card of its zone; with ``at depth`` a card can take
    the place of one that left (a token traded for another in the same slot of a row)."""
    game = play(tmp_path, """
setup:
  for each p in players():
    move top(draw(p), 4) to used(p) face up at bottom
round:
  turn:
    let old = top_card(bottom(used(me), 2))
    let slot = position_of(old)
    gain slot points
    move old to hand(me)
    move top_card(draw(me)) to used(me) face up at depth slot - 1
    if position_of(top_card(hand(me))) = 1 and position_of(top_card(draw(me))) = 1:
      gain 10 gold
    end game
""")
    assert game.state.counters["points"][0] == 3  # the third of four cards
    before = [e[1] for e in game.state.log if e[0] == "move" and e[2:4] == ["used", 0]][:4]
    used = game.zone_cards("used", 0)
    assert game.zone_cards("hand", 0) == [before[2]]
    assert used[:2] + used[3:] == before[:2] + before[3:] and used[2] not in before
    assert game.state.counters["gold"][0] == 10


def test_plus_joins_cards_and_players(tmp_path: Path) -> None:
    """``a + b`` over cards is every card of a, then of b; over players, likewise."""
    game = play(tmp_path, """
setup:
  for each p in players():
    draw 2 from draw(p) to hand(p)
    draw 3 from draw(p) to table(p) face up
round:
  turn:
    gain size(hand(me) + table(me)) points
    gain count(q in players() + opponents(me)) points
    gain count(c in hand(me) + top_card(table(me)) where c.kind != none) points
    end game
""")
    assert game.state.counters["points"][0] == 5 + 3 + 3


def test_a_decision_in_a_loop_names_the_card_the_checker_says_it_walks(
        tmp_path: Path) -> None:
    """A loop over joined cards, or over a local holding cards, walks cards (the IR's
    ``walks``), so its decisions name the current card, as a loop over a zone's do."""
    game = play(tmp_path, """
setup:
  for each p in players():
    draw 1 from draw(p) to hand(p) face up
    draw 1 from draw(p) to table(p) face up
round:
  turn:
    let mine = hand(me)
    for each c in mine:
      may "Keep it":
        gain 1 points
    for each c in hand(me) + table(me):
      may "Count it":
        gain 1 points
    end game
""")
    first, *_ = descriptions(game)
    hand = game.rows[game.state.zones["hand"][0][0]]["name"]
    assert first == f"Keep it [{hand} (your hand)]"
    game.apply(0)
    assert descriptions(game)[0] == f"Count it [{hand} (your hand)]"


def test_attachments_count_for_the_card_they_are_under(tmp_path: Path) -> None:
    manifest_extra = {"event": "counts_under: true"}
    rules = """
setup:
  for each p in players():
    move select(c in draw(p) where c.name = "Squire") to table(p) face up
round:
  turn:
    gain symbols(coin, me) points
    choose card a from draw(me) where a.kind = event "Ambush to attach":
      tuck a under top_card(table(me))
win p when p.points >= 5
"""
    game = play(tmp_path / "plain", rules)
    game.apply(0)  # an Ambush kept under a Squire: as a kept card it counts nothing
    assert game.state.counters["points"] == [3, 3]
    pack = tmp_path / "attached"
    shutil.copytree(MINI, pack / "mini")
    manifest = pack / "mini" / "pack.yaml"
    text = manifest.read_text().replace("{id: event, name: Event, layout: landscape}",
                                        "{id: event, name: Event, layout: landscape, "
                                        + manifest_extra["event"] + "}")
    assert "counts_under" in text
    manifest.write_text(text + "rules:\n  - rules/game.rules\n")
    (pack / "mini" / "rules").mkdir()
    (pack / "mini" / "rules" / "game.rules").write_text(STATE + rules)
    attached = Game.new(loads_tables(compile_pack(pack / "mini").data), 2, 1)
    attached.apply(0)
    # Ambush carries block(coin) -> opponent: under seat 1's Squire it cancels one of the
    # three coins seat 2's Squires give.
    assert attached.state.counters["points"] == [3, 2]


def test_a_seat_the_rules_play_by_themselves(tmp_path: Path) -> None:
    pack = tmp_path / "solo"
    shutil.copytree(MINI, pack / "mini")
    manifest = pack / "mini" / "pack.yaml"
    text = manifest.read_text().replace("players: {min: 1, max: 3}",
                                        "players: {min: 1, max: 3, automated: {1: 1}}")
    assert "automated" in text
    manifest.write_text(text + "rules:\n  - rules/game.rules\n")
    (pack / "mini" / "rules").mkdir()
    rules = """
round:
  turn:
    if automated(me):
      gain 1 points
    else:
      may "Score two":
        gain 2 points
win p when p.points >= 4
"""
    (pack / "mini" / "rules" / "game.rules").write_text(STATE + rules)
    tables = loads_tables(compile_pack(pack / "mini").data)
    game = Game.new(tables, 1, 1)
    assert game.state.players == 2 and game.state.info["automated"] == [1]
    assert game.current_player() == 0
    game.apply(1)  # the player passes; the rival scores 1 on its own
    assert game.current_player() == 0 and game.state.counters["points"] == [0, 1]
    game.apply(1)
    game.apply(1)
    game.apply(1)  # the rival reaches 4 before the player ever scores
    assert game.terminal and game.result is not None and game.result["winners"] == [1]
    (pack / "mini" / "rules" / "game.rules").write_text(
        STATE + rules.replace("if automated(me):", "if false:"))
    asked = loads_tables(compile_pack(pack / "mini").data)
    with pytest.raises(RulesError, match="Player 2 is played by the rules and cannot decide"):
        game = Game.new(asked, 1, 1)
        game.apply(0)


def test_the_engine_implements_every_builtin_the_language_has() -> None:
    from decklore.compiler.rules.builtins import BUILTINS as LANGUAGE
    from decklore.runtime.builtins import BUILTINS as ENGINE

    assert sorted(LANGUAGE) == sorted(ENGINE)


def test_a_counter_that_grows_without_end_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as caught:
        play(tmp_path, """
round:
  turn:
    gain 1 gold
    set gold for me to me.gold * me.gold + 1
""")
    assert str(caught.value) == (
        "rules/game.rules:13: Gold would reach 52416803445748570, beyond the limit of "
        "1,000,000,000 a counter may hold; give the counter a 'max'")


def test_a_number_choice_too_large_to_offer_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as caught:
        play(tmp_path, """
round:
  turn:
    choose number n in 0..999999999 "How many":
      gain n points
""")
    assert str(caught.value) == (
        "rules/game.rules:12: a number choice from 0 to 999999999 offers more than 10,000 "
        "numbers; bound it more tightly")


def test_a_card_tucked_with_cards_of_its_own_brings_them_under_the_new_host(
        tmp_path: Path) -> None:
    """A tucked card holds nothing of its own: what was tucked under it, or stacked on it,
    goes under the new host with it, and moves wherever that host goes."""
    game = play(tmp_path, """
setup:
  for each p in players():
    move top(draw(p), 3) to table(p) face up
round:
  turn:
    let cards = top(table(me), 3)
    tuck top_card(bottom(cards, 1)) under top_card(cards)
    tuck top_card(cards) under top_card(bottom(top(table(me), 2), 1))
    move top_card(table(me)) to table(opponent(me))
    end game
""")
    assert game.zone_cards("table", 0) == []
    host = game.zone_cards("table", 1)[-1]  # the one host, at the bottom of the other table
    under = game.state.cards[host]["under"]
    assert len(under) == 2
    for card in under:
        assert game.state.cards[card]["host"] == host
        assert game.location(card) == ("table", 1)
    game.state.check()
