"""The player reference and turn guide: readable by players for every bundled pack.

Checked on the text players get (the Markdown sheet, where icons become their names, and
the terminal form): no variable letter or internal name, no cross-reference, no doubled
word, no placeholder left unrendered, and every constant a phase of the turn uses printed
in that phase. Golden files cover the small ``tests/packs/other`` pack only, so a change
to a bundled game's rules never needs a golden file regenerated.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack
from decklore.compiler.printing.sheets import PrintOptions, render
from decklore.compiler.printing.turn_guide import turn_guide
from decklore.compiler.rules.english import outline
from decklore.compiler.rules.english import to_text as exact_text
from decklore.compiler.rules.player import (
    _automated_turn,
    player_reference,
    symbol_names,
    to_text,
)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "sheets"
OTHER = ROOT / "tests" / "packs" / "other"
BUNDLED = sorted(p.name for p in (ROOT / "cards").iterdir() if (p / "pack.yaml").is_file())


@cache
def _tables(name: str) -> dict[str, Any]:
    return compile_pack(ROOT / "cards" / name).tables


def _variables(node: Any) -> set[str]:
    """Every name the rules bind: loop, choice and let variables and parameters."""
    found: set[str] = set()
    if isinstance(node, dict):
        for key in ("var", "params", "player"):
            value = node.get(key)
            if isinstance(value, str) and node.get("do") != "as":
                found.add(value)
            elif isinstance(value, list):
                found |= {v for v in value if isinstance(v, str)}
        if node.get("do") == "let":
            found.add(str(node["name"]))
        for value in node.values():
            found |= _variables(value)
    elif isinstance(node, list):
        for value in node:
            found |= _variables(value)
    return found


def _problems(text: str, rules: dict[str, Any]) -> list[str]:
    problems = []
    words = set(re.findall(r"(?<!['’])\b[A-Za-z_][A-Za-z0-9_]*", text))
    for name in sorted(_variables(rules)):
        if ((len(name) == 1 and name not in ("a", "I")) or "_" in name) and name in words:
            problems.append(f"variable {name!r}")
    problems += [f"internal name {m!r}" for m in sorted(set(re.findall(
        r"\b[a-z]+_[a-z0-9_]+\b", text)))]
    if "(see" in text:
        problems.append("a '(see …)' cross-reference")
    problems += [f"doubled word {m.group(0)!r}" for m in re.finditer(
        r"\b([A-Za-z]+)\s+\1\b", text, re.IGNORECASE)]
    problems += [f"unrendered {m!r}" for m in re.findall(r"\{[^}]*\}", text)]
    return problems


def _reference_of(tmp_path: Path, rules: str) -> tuple[str, list[str]]:
    """The player reference of a small pack with these rules, and its lines stripped."""
    result = compile_pack(_mini_with_rules(tmp_path, rules))
    text = to_text(player_reference(result.tables) or pytest.fail("no rules"))
    return text, [line.strip() for line in text.splitlines()]


def _mini_with_rules(tmp_path: Path, rules: str) -> Path:
    """A copy of the small test pack with ``rules`` as its one rules file."""
    pack = tmp_path / "mini"
    shutil.copytree(Path(__file__).parent / "packs" / "mini", pack)
    manifest = pack / "pack.yaml"
    manifest.write_text(manifest.read_text() + "rules:\n  - rules/game.rules\n")
    (pack / "rules").mkdir()
    (pack / "rules" / "game.rules").write_text(rules)
    return pack


@pytest.mark.parametrize("pack", BUNDLED)
def test_the_player_reference_reads_as_english(pack: str) -> None:
    tables = _tables(pack)
    markdown = render(tables, "reference", "md", PrintOptions())
    guide = render(tables, "guide", "md", PrintOptions())
    assert _problems(markdown, tables["rules"]) == []
    assert _problems(guide, tables["rules"]) == []


def _consts(node: Any, rules: dict[str, Any], seen: set[str]) -> set[str]:
    """Constants a block reads, directly or through the defines it reads (not actions:
    those the pack words, or print, where they are used)."""
    found: set[str] = set()
    if isinstance(node, dict):
        if node.get("op") == "const":
            found.add(str(node["name"]))
        if node.get("op") == "define" and node["name"] not in seen:
            seen.add(str(node["name"]))
            found |= _consts(rules["defines"][node["name"]]["body"], rules, seen)
        for value in node.values():
            found |= _consts(value, rules, seen)
    elif isinstance(node, list):
        for value in node:
            found |= _consts(value, rules, seen)
    return found


@pytest.mark.parametrize("pack", BUNDLED)
def test_each_phase_prints_the_numbers_it_uses(pack: str) -> None:
    tables = _tables(pack)
    rules = tables["rules"]
    reference = player_reference(tables)
    assert reference is not None
    numbered = [s for s in reference.phases if s.number is not None]
    turn = next(f for f in _flows(rules["flow"]) if f["kind"] == "turn")
    missing = []
    ids = _ids(rules)
    for flow, section in zip(turn["children"], numbered, strict=True):
        text = " ".join(_all_text(section.steps) + section.notes)
        for name in sorted(_consts(flow, rules, set()) - ids):
            value = rules["consts"][name]
            if value["op"] == "int" and not re.search(rf"\b{value['value']}\b", text):
                missing.append(f"{section.title}: {name} = {value['value']}")
    assert missing == []


def _ids(node: Any) -> set[str]:
    """Constants passed to a define or an action: names for a deck or a level (Era of
    Kingdoms' basic = 1), not numbers a player reads."""
    found: set[str] = set()
    if isinstance(node, dict):
        if node.get("op") == "define" or node.get("do") == "call":
            found |= {str(a["name"]) for a in node.get("args") or [] if a.get("op") == "const"}
        for value in node.values():
            found |= _ids(value)
    elif isinstance(node, list):
        for value in node:
            found |= _ids(value)
    return found


def _flows(flows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for flow in flows:
        out += [flow, *_flows(flow.get("children") or [])]
    return out


def _all_text(steps: list[Any]) -> list[str]:
    return [t for s in steps for t in [s.text, *_all_text(s.children)]]


def test_era_reference_inlines_the_deal_and_names_the_goal() -> None:
    text = to_text(player_reference(_tables("era")) or pytest.fail("no rules"))
    assert "Deal yourself 8 cards face down" in text
    assert "the first player deals 6 on their first turn" in text
    # The rulebook: 15 points with three players, 12 with four (and 15 with two).
    assert "WIN: at once when you have at least 15 progress tokens with two or three " \
        "players, 12 with four." in text
    assert "OUT OF THE GAME: with three or four players" in text
    assert "Ties go to the fewest destruction tokens." in text
    assert "Putting 7 or more there gives you an exhaustion token" in text


def test_era_reference_defines_the_words_its_steps_use() -> None:
    """A cold reader of ERA's reference met these words with no explanation (issue 15)."""
    reference = player_reference(_tables("era")) or pytest.fail("no rules")
    terms = dict(reference.terms)
    for word in ("Normal card", "Resource card", "Set", "Stars", "Dash", "Open key", "Block"):
        assert word in terms, word
    # The rulebook: a flourish dash's right-hand symbols count for each flourished card.
    assert "once for each card flourished on it" in terms["Dash"]
    text = to_text(reference)
    assert "Terms\n=====\n- Block: " in text
    for vague in ("the card that made it", "once per card in the game", "Every card taken",
                  "a block cancels"):
        assert vague not in text, vague
    assert "if it costs no more than the card you paid for" in text
    assert "nearest clockwise from the player placed just before" in text
    # Setup covers both games: the swap and race with two, the community piles with more.
    setup = " ".join(step.text for step in reference.setup)
    assert "With two players: take the conflict cards out of your deck" in setup
    assert "With three or four players" in setup and "community pile" in setup


def test_a_hook_says_replaces_its_generated_steps() -> None:
    """ERA's round start (the bonus draft) printed as code-like branches on a flag ("If
    “three or four players” is marked"); its ``says`` line is what players read now."""
    reference = player_reference(_tables("era")) or pytest.fail("no rules")
    start = next(p for p in reference.phases if p.title == "At the start of each round")
    assert len(start.steps) == 1 and not start.steps[0].children
    assert start.steps[0].text.startswith("With three or four players: the player with the "
                                          "most initiative tokens")
    text = to_text(reference)
    assert "is marked" not in text and "Bonus draft\n" not in text


def test_era_of_kingdoms_reference_gives_the_shadow_kingdom_its_own_turn() -> None:
    """``if automated(me): …; end turn`` at a turn's start is the automated seat's turn, a
    section of its own whose last sentence says that its turn ends, not a branch."""
    reference = player_reference(_tables("era-of-kingdoms")) or pytest.fail("no rules")
    titles = [p.title for p in reference.phases]
    assert "At the start of your turn" not in titles
    robot = next(p for p in reference.phases if p.title == "An automated player's turn")
    assert robot.automatic and robot.number is None and len(robot.steps) == 1
    text = robot.steps[0].text
    assert text.startswith("Solo: all the Shadow Kingdom's cards count")
    assert text.endswith("while your kingdom is Advanced. Then its turn ends.")
    whole = to_text(reference)
    assert "End the turn now" not in whole and "automated player:" not in whole
    for cut in ("Help for the…", "Festival of…", "once you are Intermediate"):
        assert cut not in whole, cut
    # The pack's reading (notes.md): the drawer of the Age of Enlightenment takes a final
    # turn too.
    assert "every player, the one who drew it included, takes one final turn" in whole
    assert {"Level", "Family", "Top land", "Attack, defense", "Plague"} <= dict(
        reference.terms).keys()


def test_an_automated_branch_without_end_turn_stays_a_step() -> None:
    """Only a branch that ends the turn is the automated seat's turn; anything else, or a
    branch with an ``else``, is left where it is."""
    automated = {"op": "call", "fn": "automated", "args": [{"op": "me"}]}
    log = {"do": "log", "text": "x"}
    end = {"do": "end", "period": "turn"}
    whole = {"do": "if", "branches": [{"when": automated, "then": [log, end]}], "else": None}
    assert _automated_turn([log, whole]) == ([log], [log])
    no_end = {"do": "if", "branches": [{"when": automated, "then": [log]}], "else": None}
    with_else = {**whole, "else": [log]}
    ends_round = {"do": "if", "branches": [{"when": automated, "then": [
        log, {"do": "end", "period": "round"}]}], "else": None}
    for kept in (no_end, with_else, ends_round):
        assert _automated_turn([kept]) == ([kept], [])


def test_era_of_kingdoms_reference_gives_actions_hand_size_and_a_player_table() -> None:
    reference = player_reference(_tables("era-of-kingdoms")) or pytest.fail("no rules")
    text = to_text(reference)
    assert "You have 3 actions." in text
    assert "Draw back up to your hand size: 5" in text
    assert reference.table is not None and reference.table.counts == [1, 2, 3, 4]
    assert reference.table.headers == ["1 (solo)", "2", "3", "4"]  # against the Shadow Kingdom
    rows = dict(reference.table.rows)
    assert rows["Advanced cards above the Age of Enlightenment"][1:] == ["9", "11", "13"]
    assert [p.title for p in reference.phases if p.number] == [
        "Actions", "Discard", "Upgrade", "Draw"]


def test_generated_text_names_variables_as_nouns() -> None:
    """The small pack has no wording of its own for most blocks: what is generated must
    read without variable letters."""
    tables = compile_pack(OTHER).tables
    text = to_text(player_reference(tables) or pytest.fail("no rules"), symbol_names(tables))
    assert _problems(text, tables["rules"]) == []
    assert "Buy up to 2 ships, then sell cards from your hand for gold." in text
    assert "A ship bought this turn may be sold at once." in text


@pytest.mark.parametrize(("sheet", "fmt"), [
    ("reference", "md"), ("reference", "html"), ("guide", "md")])
def test_golden_player_sheets(sheet: str, fmt: str, update_golden: bool) -> None:
    text = render(compile_pack(OTHER).tables, sheet, fmt, PrintOptions())
    path = GOLDEN / f"other-{sheet}.{fmt}"
    if update_golden:
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_guide_states_the_goal_and_what_automatic_phases_do() -> None:
    tables = _tables("era")
    guide = turn_guide(tables["rules"], player_reference(tables))
    assert guide is not None
    assert guide.goal and guide.goal[0].startswith("WIN")
    dealing = {p.title: p for p in guide.phases}["Card dealing"]
    assert dealing.asks == () and dealing.does[0].startswith("Deal yourself 8 cards")


def test_reference_command_prints_the_player_form_and_the_exact_one() -> None:
    runner = CliRunner()
    player = runner.invoke(cli, ["reference", str(ROOT / "cards" / "era"), "--no-cache"])
    exact = runner.invoke(cli, ["reference", str(ROOT / "cards" / "era"), "--exact",
                                "--no-cache"])
    assert player.exit_code == 0 and exact.exit_code == 0, player.output + exact.output
    assert "How to win" in player.output and "(see" not in player.output
    assert "(see “Play a card”, with c = c)" in exact.output


@pytest.mark.skipif(shutil.which("pdfinfo") is None, reason="poppler's pdfinfo not installed")
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("pack", ["era", "era-of-kingdoms"])
def test_player_reference_fits_two_pages(pack: str, paper: str, tmp_path: Path) -> None:
    from decklore.compiler.printing.pdf import html_to_pdf

    pdf = tmp_path / "reference.pdf"
    pdf.write_bytes(html_to_pdf(render(_tables(pack), "reference", "html",
                                       PrintOptions(paper=paper))))
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True,
                          check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    assert pages <= 2
    width = {"a4": "595.276 x 841.89", "letter": "612 x 792"}[paper]
    assert width in info


def test_outcomes_and_the_score_take_a_wording(tmp_path: Path) -> None:
    """A goal whose condition reads badly in generated English (a define that depends on
    the seats, a mark) is worded by the pack, like a phase; fmt keeps the wording."""
    from decklore.compiler import Diagnostics
    from decklore.compiler.rules import format_program, parse_rules

    rules = (
        'zone hand: per_player, owner\n'
        'counter gold "Gold": per_player, min 0\n'
        '\n'
        'const goal = 3\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    gain 1 gold\n'
        '\n'
        'win p when p.gold >= goal "Rich" says "as soon as you hold {goal} gold."\n'
        'score p = p.gold says "the richest player wins."\n'
        'tiebreak: -p.gold\n')
    diags = Diagnostics()
    assert format_program(parse_rules(rules, "game.rules", diags)) == rules
    pack = _mini_with_rules(tmp_path, rules)
    text = to_text(player_reference(compile_pack(pack).tables) or pytest.fail("no rules"))
    assert "- WIN: as soon as you hold 3 gold." in text
    assert "- SCORE: the richest player wins. Ties go to the fewest gold." in text


@pytest.mark.parametrize(("label", "inside"), [
    ("Draw pile", "draw pile"), ("Progress tokens", "progress tokens"),
    ("ERA deck", "ERA deck"), ("Dark Ages", "Dark Ages"),
    ("Age of Enlightenment", "Age of Enlightenment")])
def test_a_label_inside_a_sentence_keeps_the_capitals_of_a_name(label: str,
                                                                 inside: str) -> None:
    """'the fewest dark Ages' read wrong: a label whose later words are capitalised is a
    name, and stays as it is inside a sentence."""
    from decklore.compiler.rules.english import _lower_first

    assert _lower_first(label) == inside


def test_a_placeholder_can_speak_of_some_player_counts_only(tmp_path: Path) -> None:
    """Era of Kingdoms' solo game sets the Age of Enlightenment's depth by difficulty, so
    '13 (1 player)' misled a reader: ``{name:2-3}`` prints only the counts the sentence is
    about, and the table leaves the others blank."""
    rules = (
        'zone hand: per_player, owner\n'
        'counter gold "Gold": per_player, min 0\n'
        '\n'
        'define start_gold = 2 if count(q in players()) = 2 else 4 says "Starting purse"\n'
        '\n'
        'setup:\n'
        '  says "Take {start_gold:2-3} gold; solo, take 6."\n'
        '  for each p in players():\n'
        '    gain start_gold gold for p\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    gain 1 gold\n')
    result = compile_pack(_mini_with_rules(tmp_path, rules))
    assert [d.code for d in result.warnings] == []
    reference = player_reference(result.tables) or pytest.fail("no rules")
    text = to_text(reference)
    assert "1. Take 2 (2 players), 4 (3 players) gold; solo, take 6." in text
    assert reference.table is not None
    assert dict(reference.table.rows)["Starting purse"] == ["–", "2", "4"]
    assert _problems(text, result.tables["rules"]) == []


def _num(value: int) -> dict[str, Any]:
    return {"op": "int", "value": value}


def test_plain_sums_are_worked_out_and_plural_names_take_are() -> None:
    from decklore.compiler.rules.english import English
    english = English({"rules": {"consts": {"base": _num(4)},
                                 "counters": [{"name": "routes", "label": "Routes"},
                                              {"name": "status", "label": "Status"}]}})
    me = {"op": "me"}
    sum_ = {"op": "add", "a": _num(-1), "b": _num(3)}
    assert english.expr(sum_) == "2"
    assert english.expr({"op": "mul", "a": {"op": "const", "name": "base"},
                         "b": {"op": "sub", "a": _num(5), "b": _num(2)}}) == "12"
    routes = {"op": "counter", "name": "routes", "of": me}
    # a sum with something unknown in it stays a sum, and gets brackets in a choice
    open_sum = {"op": "add", "a": routes, "b": _num(1)}
    assert english.expr({"op": "if", "cond": {"op": "lt", "a": routes, "b": _num(1)},
                         "then": open_sum, "else": sum_}) == \
        "(your routes + 1) if your routes are less than 1, otherwise 2"
    status = {"op": "counter", "name": "status", "of": me}
    assert english.expr({"op": "ne", "a": status, "b": _num(0)}) == "your status is not 0"
    # division is left alone: its rounding is the engine's to say
    assert english.expr({"op": "div", "a": _num(7), "b": _num(2)}) == "7 ÷ 2"


@pytest.mark.parametrize(("name", "one", "plural"), [
    ("shots", "shot", True), ("gold", "gold", False), ("status", "status", False),
    ("bounties", "bounty", True), ("progress tokens", "progress token", True),
    ("attackers in this attack", "attacker in this attack", True),
    ("harvest tokens made this phase", "harvest token made this phase", True),
    ("military symbols blocked", "military symbol blocked", True),
    ("kept cards", "kept card", True), ("harvest left", "harvest left", False),
    ("position chosen for the next turn", "position chosen for the next turn", False),
])
def test_a_name_is_singular_and_plural_by_its_head_noun(name: str, one: str,
                                                        plural: bool) -> None:
    """'1 attacker in this attack', not '1 attackers in this attack': what follows the
    head noun (a preposition, or a participle after a plural) is left as it is."""
    from decklore.compiler.rules.english import _plural, singular
    assert singular(name) == one
    assert _plural(name) is plural


def test_arithmetic_keeps_its_order_when_read_aloud() -> None:
    from decklore.compiler.rules.english import English
    english = English({"rules": {"counters": [{"name": "gold", "label": "Gold"}]}})
    gold = {"op": "counter", "name": "gold", "of": {"op": "me"}}
    plus_one = {"op": "add", "a": gold, "b": _num(1)}
    assert english.expr({"op": "mul", "a": plus_one, "b": _num(2)}) == "(your gold + 1) × 2"
    assert english.expr({"op": "add", "a": gold, "b": {"op": "mul", "a": _num(1),
                                                      "b": _num(2)}}) == "your gold + 2"
    assert english.expr({"op": "sub", "a": _num(10), "b": {"op": "sub", "a": gold,
                                                          "b": _num(1)}}) == \
        "10 − (your gold − 1)"
    assert english.expr({"op": "add", "a": {"op": "add", "a": gold, "b": _num(1)},
                         "b": gold}) == "your gold + 1 + your gold"
    assert english.expr({"op": "call", "fn": "has_key",
                         "args": [{"op": "me"}, {"op": "text", "value": "A"}]}) == \
        "you hold the key to “A”"


def test_unworded_rules_read_as_sentences_a_player_would_write(tmp_path: Path) -> None:
    """A modder's rules without ``says`` lines still print as a rulebook would: the
    compiler's prompts (which name variables) are left out, negations turn the verb round,
    a counter of 1 is singular, a named value is said as what it is, and branches that
    only log print nothing."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter gold "Gold": per_player, min 0\n'
        'counter shots: per_player\n'
        'flag storm: global\n'
        '\n'
        'define richest() = max(q.gold for q in players())\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    repeat while me.shots < 3 and not storm:\n'
        '      gain 1 shots\n'
        '    let haul = sum(c.cost for c in top(pile(me), 2))\n'
        '    if haul > 0 and not first_turn():\n'
        '      gain haul gold\n'
        '    elif me.gold != richest():\n'
        '      gain 2 gold\n'
        '    else:\n'
        '      log "nothing to gain"\n'
        '    if false or size(hand(me)) = 0:\n'
        '      log "an empty hand"\n'
        '    choose cards pair from hand(me) exactly 2:\n'
        '      move pair to pile(me)\n'
        '    choose player rival from opponents(me):\n'
        '      gain 1 gold for owner(top_card(hand(rival)))\n'
        '    choose number n in 1..me.gold:\n'
        '      spend n gold\n'
        '      gain n // 2 gold for opponent(me)\n')
    result = compile_pack(_mini_with_rules(tmp_path, rules))
    text = to_text(player_reference(result.tables) or pytest.fail("no rules"))
    steps = [line.strip() for line in text.splitlines()]
    assert steps[steps.index("1. As long as you have fewer than 3 shots and “storm” is not "
                             "marked:") + 1] == "1. Gain 1 shot."
    assert "1. If the total cost of the top 2 cards of your pile is more than 0 and this is "\
        "not the first turn of the game:" in steps
    assert "1. Gain gold equal to the total cost of the top 2 cards of your pile." in steps
    assert "2. Otherwise, if your gold is not the most gold any player has:" in steps
    assert not any(s.endswith("Otherwise:") or "an empty hand" in s or "no or" in s
                   for s in steps)
    assert "3. Choose exactly 2 cards from your hand." in steps
    assert "4. Choose one of your opponents." in steps
    assert "1. Add 1 to the gold of the owner of the top card of their hand." in steps
    assert "5. Choose how many, from 1 to your gold." in steps
    assert "2. Add half that many (rounded down) to your opponent's gold." in steps
    assert "Turn\n====\nWhat to do\n" in text
    assert _problems(text, result.tables["rules"]) == []


def test_unworded_zones_and_long_values_read_by_owner_and_name(tmp_path: Path) -> None:
    """Another player's zone reads with 'of' ('the pile of the owner of …'), and a named
    value whose body would fill a line keeps its name rather than being spelt out."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter gold "Gold": per_player, min 0\n'
        '\n'
        'define hoard() = sum(c.cost for c in top(pile(me), 2)) + '
        'sum(c.cost for c in top(hand(me), 3)) + max(q.gold for q in players())\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    if me.gold < hoard():\n'
        '      gain 1 gold\n'
        '    move top_card(hand(me)) to pile(owner(top_card(pile(me))))\n')
    _, steps = _reference_of(tmp_path, rules)
    assert "1. If your gold is less than hoard:" in steps
    assert "2. Move the top card of your hand to the pile of the owner of the top card of "\
        "your pile." in steps


def test_unworded_loops_and_tests_on_players_read_by_who(tmp_path: Path) -> None:
    """A loop over a list of players made by the pack says 'player' and 'they'; the players a test
    picks read 'who has …' or 'for whom …'; a count of repeats reads 'as many times as';
    and a quoted label's own words ('three or four') don't stop 'not' turning the verb."""
    rules = (
        'zone hand: per_player, owner\n'
        'counter gold "Gold": per_player, min 0\n'
        'counter shots: per_player\n'
        'flag crowd "three or four": global\n'
        '\n'
        'define order = players_from(player_at(2))\n'
        '\n'
        'define lap_order = players() if storm_time() else order\n'
        'define storm_time() = any(p in players() where p.gold > 9)\n'
        '\n'
        'round:\n'
        '  order: lap_order\n'
        '  turn:\n'
        '    for each p in order:\n'
        '      gain 1 gold for p\n'
        '    for each p in players() where p.gold > 2:\n'
        '      gain 1 shots for p\n'
        '    for each p in players() where size(hand(p)) > 0:\n'
        '      gain 1 shots for p\n'
        '    repeat me.gold times:\n'
        '      gain 1 shots\n'
        '    if not crowd and me.gold > 1:\n'
        '      gain 1 shots\n')
    _, steps = _reference_of(tmp_path, rules)
    head = "1. For each player in seat order, starting with the player in seat 2:"
    assert steps[steps.index(head) + 1] == "1. Add 1 to their gold."
    assert "2. Each player who has more than 2 gold:" in steps
    assert "3. Each player for whom the number of cards in their hand is more than 0:" in steps
    assert "4. Do this as many times as your gold:" in steps
    assert "5. If “three or four” is not marked and you have more than 1 gold:" in steps
    assert "Take turns in lap order." in steps


def test_a_card_chosen_while_another_is_in_play_is_the_chosen_card(tmp_path: Path) -> None:
    """A card chosen while an earlier card is still 'the card' is tested as 'that card'
    and named 'the chosen card' after, so the two are never the same words."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    choose card c from hand(me) "Card to keep":\n'
        '      choose card u from pile(me) where u.cost < c.cost "Card to cover":\n'
        '        tuck c under u\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. Card to cover: choose a card from your pile where that card's cost is "\
        "less than its cost." in steps, text
    assert "1. Tuck the card under the chosen card." in steps


def test_unworded_counts_levels_and_every_player_read_as_sentences(tmp_path: Path) -> None:
    """A level compared with a number reads 'your kingdom level is 3' (not 'you have
    exactly 3 kingdom level'), a test of every player names them where the test did
    ('“done” is marked for every player'), a named choice of numbers inside a phrase gets
    brackets, and '1 action left' is singular."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter kingdom_level "Kingdom level": per_player\n'
        'counter actions_left "Actions left": per_player\n'
        'flag done "done": per_player\n'
        '\n'
        'define deal = 2 if count(q in players()) <= 2 else 3\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    if me.kingdom_level = 3:\n'
        '      spend 1 actions_left\n'
        '    if all(p in players() where p.done):\n'
        '      move top(pile(me), deal) to hand(me)\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. If your kingdom level is 3:" in steps, text
    assert "1. Spend 1 action left." in steps
    assert "2. If “done” is marked for every player:" in steps
    assert "1. Move the top (2 if the number of players is at most 2, otherwise 3) cards of "\
        "your pile to your hand." in steps


def test_unworded_defines_with_arguments_read_as_phrases(tmp_path: Path) -> None:
    """A define without ``says`` reads by its name with its arguments joined into a
    phrase: a trailing preposition takes the last one ('the targets of the card in them',
    'your defense' for defense_of(me)), the others follow 'of' and 'for'."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter gold "Gold": per_player, min 0\n'
        '\n'
        'define defense_of(p) = p.gold\n'
        'define targets_in(c, q) = count(x in pile(q) where x = c)\n'
        'define reach(c, q) = size(pile(q))\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    if defense_of(me) > 2:\n'
        '      gain 1 gold for me\n'
        '    choose card c from hand(me) "Card":\n'
        '      for each q in opponents(me) where targets_in(c, q) > 0:\n'
        '        if reach(c, q) > 1:\n'
        '          move c to pile(q)\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. If your defense is more than 2:" in steps, text
    assert "1. Each of your opponents for whom the targets of the card in them are more "\
        "than 0:" in steps, text
    assert any("the reach of the card for " in s for s in steps), text
    assert " of the card, " not in text and "defense of " not in text


def test_unworded_defines_keep_the_words_of_their_name(tmp_path: Path) -> None:
    """Only a trailing 'of' gives way to the owner ('your defense'); 'from' is part of the
    name ('your cards to pay from'); a player's two-argument define is theirs ('your cubes
    in the card')."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter gold "Gold": per_player, min 0\n'
        '\n'
        'define cards_to_pay_from(p) = select(x in hand(p) where x = x)\n'
        'define cubes_in(p, c) = count(x in pile(p) where x = c)\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    choose card c from cards_to_pay_from(me) "Card":\n'
        '      if cubes_in(me, c) > 0:\n'
        '        move c to pile(me)\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. Card: choose a card from your cards to pay from." in steps, text
    assert "1. If your cubes in the card are more than 0:" in steps, text


def test_a_value_read_after_its_state_changes_is_noted_first(tmp_path: Path) -> None:
    """A ``let`` holds its value from where it stands.  Said by its words after a step
    that changes them ('your gold − your gold'), it would read as something else, so the
    reference has players note it first: a count, or a card, before it moves."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter gold "Gold": per_player, min 0\n'
        'counter spent "Gold spent": per_player, min 0\n'
        'counter food "Food": per_player, min 0\n'
        'flag rich "rich": per_player\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    let before = me.gold\n'
        '    let fed = me.food\n'
        '    gain 1 food for me\n'
        '    spend 2 gold for me\n'
        '    gain before - me.gold spent for me\n'
        '    let top_one = top_card(pile(me))\n'
        '    move top_one to hand(me)\n'
        '    if top_one != none and fed > 2:\n'
        '      set rich for me\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. Note your gold." in steps, text
    assert "2. Note your food." in steps, text
    assert "5. Gain gold spent equal to your gold as noted − your gold." in steps, text
    assert "6. Note which card is the top card of your pile." in steps, text
    assert "7. Move the noted card to your hand." in steps, text
    assert "8. If the noted card is not nothing and your food as noted is more than 2:" \
        in steps, text


def test_a_value_nothing_changes_is_said_where_it_is_used(tmp_path: Path) -> None:
    """Gaining food changes no gold: a gold count taken before it needs no note."""
    rules = (
        'counter gold "Gold": per_player, min 0\n'
        'counter food "Food": per_player, min 0\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    let before = me.gold\n'
        '    gain 1 food for me\n'
        '    gain before food for me\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "Note" not in text, text
    assert "2. Gain food equal to your gold." in steps, text


def test_a_count_of_cards_said_by_a_noun_reads_as_many_as(tmp_path: Path) -> None:
    """'the top cards to flip cards of your pile' is nonsense; a number or a bracketed
    sum still reads 'the top … cards'."""
    rules = (
        'zone hand: per_player, owner\n'
        'zone pile: per_player, ordered\n'
        'counter to_flip "Cards to flip": per_player, min 0\n'
        '\n'
        'round:\n'
        '  turn:\n'
        '    move top(pile(me), me.to_flip) to hand(me)\n'
        '    move top(pile(me), me.to_flip + 1) to hand(me)\n')
    text, steps = _reference_of(tmp_path, rules)
    assert "1. Move as many cards from the top of your pile as your cards to flip to your "\
        "hand." in steps, text
    assert "2. Move the top (your cards to flip + 1) cards of your pile to your hand." \
        in steps, text


@pytest.mark.parametrize("pack", ["era", "era-of-kingdoms-trade-route"])
def test_the_exact_rules_read_the_same_from_cached_tables(pack: str) -> None:
    """Tables read back from the cache keep their keys sorted, not in source order; the
    --exact text lists actions in the order the files write them either way."""
    fresh = _tables(pack)
    cached = json.loads(json.dumps(fresh, sort_keys=True, default=dict))
    assert exact_text(outline(cached)) == exact_text(outline(dict(fresh)))
