"""Exact text of every diagnostic the compiler emits, rendered as the user sees it.

Each case edits the mini pack (``tests/packs/mini``) to make one mistake, compiles it from a
temporary folder, and compares ``render_all`` with the full expected text: location, code,
message, source line, caret, notes and hint.  A change to any message shows up here.
"""

# ruff: noqa: E501 -- expected texts hold whole rendered lines, which are as long as they are.

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import decklore.compiler
from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import (
    Diagnostic,
    Severity,
    Span,
    render,
    render_all,
    to_json,
)

MINI = Path(__file__).resolve().parent / "packs" / "mini"
PACK = (MINI / "pack.yaml").read_text(encoding="utf-8")
DECK = (MINI / "decks" / "one.yaml").read_text(encoding="utf-8")

Files = dict[str, "str | bytes | None"]


def _apply(text: str, edits: tuple[tuple[str, str], ...]) -> str:
    for old, new in edits:
        assert text.count(old) == 1, f"edit target not found exactly once: {old!r}"
        text = text.replace(old, new)
    return text


def pack(*edits: tuple[str, str]) -> Files:
    """The mini pack.yaml with each ``(old, new)`` replacement made once."""
    return {"pack.yaml": _apply(PACK, edits)}


def deck(*edits: tuple[str, str]) -> Files:
    """The mini decks/one.yaml with each ``(old, new)`` replacement made once."""
    return {"decks/one.yaml": _apply(DECK, edits)}


@pytest.fixture
def broken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_pack: Callable[[Path, Files], Path]
) -> Callable[[Files], PackError]:
    """Write the mini pack with some files changed and compile it as ``mini`` from its parent."""
    monkeypatch.chdir(tmp_path)

    def compile_broken(files: Files) -> PackError:
        write_pack(tmp_path, files)
        with pytest.raises(PackError) as info:
            compile_pack("mini")
        return info.value

    return compile_broken


def rendered(error: PackError) -> str:
    return render_all(error.diagnostics, SourceCache())


CASES = [
    pytest.param(
        deck(("  name: Deck One", "  name: Deck: One")),
        """\
mini/decks/one.yaml:3:13: error[E010]: YAML syntax error: mapping values are not allowed in this context
   3 |   name: Deck: One
     |             ^
  hint: check indentation, colons and quotes around this place
1 error.""",
        id="E010-syntax",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cost: 3\n   gate: B\n")),
        """\
mini/decks/one.yaml:19:4: error[E010]: YAML syntax error: did not find expected '-' indicator
  19 |    gate: B
     |    ^
  hint: check indentation, colons and quotes around this place
1 error.""",
        id="E010-indentation",
    ),
    pytest.param(
        {"decks/one.yaml": DECK + "extra: " + "[" * 70 + "]" * 70 + "\n"},
        """\
mini/decks/one.yaml:35:71: error[E013]: nesting is too deep (more than 64 levels)
  35 | extra: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]
     |                                                                       ^
  hint: flatten the structure
1 error.""",
        id="E013-too-deep",
    ),
    pytest.param(
        deck(("cost: 3", "cost: 1234567890123456789")),
        """\
mini/decks/one.yaml:18:11: error[E014]: number '1234567890123456789' is too large (more than 18 digits)
  18 |     cost: 1234567890123456789
     |           ^^^^^^^^^^^^^^^^^^^
  hint: use a smaller number, or quote it to make it text
1 error.""",
        id="E014-number-too-large",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cost: 3\n    cost: 4\n")),
        """\
mini/decks/one.yaml:19:5: error[E015]: duplicate key 'cost'
  19 |     cost: 4
     |     ^^^^
  note: mini/decks/one.yaml:18:5: first defined here
  hint: remove one of the two; YAML would silently keep the last
1 error.""",
        id="E015-duplicate-key",
    ),
    pytest.param(
        deck(("    name: Squire", "    name: &n Squire")),
        """\
mini/decks/one.yaml:7:11: error[E016]: anchors ('&n') are not allowed in packs
   7 |     name: &n Squire
     |           ^^^^^^^^^
  hint: write values out in full; cards can share fields with 'extends'
1 error.""",
        id="E016-anchor",
    ),
    pytest.param(
        deck(("    name: Smith", "    name: !!str Smith")),
        """\
mini/decks/one.yaml:25:11: error[E017]: YAML tags ('!!str') are not allowed in packs
  25 |     name: !!str Smith
     |           ^^^^^^^^^^^
  hint: remove the tag; quote the value to make it text
1 error.""",
        id="E017-tag",
    ),
    pytest.param(
        {"pack.yaml": ""},
        """\
mini/pack.yaml:1:1: error[E020]: pack.yaml is empty
  hint: run 'decklore new pack NAME' for a starting point
1 error.""",
        id="E020-empty-manifest",
    ),
    pytest.param(
        {"pack.yaml": "# nothing yet\n"},
        """\
mini/pack.yaml:1:1: error[E020]: pack.yaml is empty
   1 | # nothing yet
     | ^
  hint: run 'decklore new pack NAME' for a starting point
1 error.""",
        id="E020-comment-only-manifest",
    ),
    pytest.param(
        {"pack.yaml": "- a\n- b\n"},
        """\
mini/pack.yaml:1:1: error[E020]: pack.yaml must be a mapping of keys such as id, name, symbols
   1 | - a
     | ^
  hint: see docs/pack-format.md
1 error.""",
        id="E020-manifest-not-a-mapping",
    ),
    pytest.param(
        {"pack.yaml": None},
        """\
mini/pack.yaml:1:1: error[E020]: no pack.yaml in this folder
  hint: run 'decklore new pack NAME' to start one
1 error.""",
        id="E020-no-manifest",
    ),
    pytest.param(
        pack(("decks:\n  - decks/one.yaml\n", "decks: []\n")),
        """\
mini/pack.yaml:34:8: error[E021]: the pack lists no deck files
  34 | decks: []
     |        ^^
  hint: add at least one deck file under 'decks:'
1 error.""",
        id="E021-no-deck-files",
    ),
    pytest.param(
        {"decks/one.yaml": ""},
        """\
mini/decks/one.yaml:1:1: error[E022]: deck file is empty
  hint: a deck file has a 'deck:' header and a 'cards:' list
1 error.""",
        id="E022-empty-deck",
    ),
    pytest.param(
        {"decks/one.yaml": "- a\n"},
        """\
mini/decks/one.yaml:1:1: error[E022]: a deck file must be a mapping with 'deck' and 'cards'
   1 | - a
     | ^
  hint: see docs/pack-format.md
1 error.""",
        id="E022-deck-not-a-mapping",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cots: 3\n")),
        """\
mini/decks/one.yaml:18:5: error[E100]: unknown key 'cots' in cards[1]
  18 |     cots: 3
     |     ^^^^
  hint: did you mean 'cost'?
1 error.""",
        id="E100-unknown-card-key",
    ),
    pytest.param(
        pack(("name: Mini\n", "name: Mini\nauthor: me\n")),
        """\
mini/pack.yaml:5:1: error[E100]: unknown key 'author'
   5 | author: me
     | ^^^^^^
  hint: did you mean 'authors'?
1 error.""",
        id="E100-unknown-pack-key",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cost: three\n")),
        """\
mini/decks/one.yaml:18:11: error[E101]: cards[1].cost must be a whole number or empty, not text
  18 |     cost: three
     |           ^^^^^
  hint: see docs/pack-format.md
1 error.""",
        id="E101-wrong-type",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cost: '3'\n")),
        """\
mini/decks/one.yaml:18:11: error[E101]: cards[1].cost must be a whole number or empty, not text
  18 |     cost: '3'
     |           ^^^
  hint: remove the quotes around the number
1 error.""",
        id="E101-quoted-number",
    ),
    pytest.param(
        deck(("    name: Smith\n", "    name: true\n")),
        """\
mini/decks/one.yaml:25:11: error[E101]: cards[2].name must be text, not true
  25 |     name: true
     |           ^^^^
  hint: quote the value: unquoted yes/no/true/false are true or false
1 error.""",
        id="E101-boolean-for-text",
    ),
    pytest.param(
        deck(("    name: Smith\n", "    name: 12\n")),
        """\
mini/decks/one.yaml:25:11: error[E101]: cards[2].name must be text, not a number
  25 |     name: 12
     |           ^^
  hint: quote the value to make it text
1 error.""",
        id="E101-number-for-text",
    ),
    pytest.param(
        deck(("  tags: [main]", "  tags: main")),
        """\
mini/decks/one.yaml:4:9: error[E101]: deck.tags must be a list ('- item' lines), not text
   4 |   tags: main
     |         ^^^^
  hint: write it as a list: one '- item' line per item, or [a, b]
1 error.""",
        id="E101-text-for-list",
    ),
    pytest.param(
        deck(("deck:\n  id: one\n  name: Deck One\n  tags: [main]\n", "deck: one\n")),
        """\
mini/decks/one.yaml:1:7: error[E101]: deck must be a mapping (key: value lines), not text
   1 | deck: one
     |       ^^^
  hint: write it as 'key: value' lines indented under it
1 error.""",
        id="E101-text-for-mapping",
    ),
    pytest.param(
        deck(("    name: Smith\n", "")),
        """\
mini/decks/one.yaml:24:5: error[E102]: missing required key 'name' in cards[2]
  24 |   - id: smith
     |     ^
  hint: add 'name:' to cards[2]
1 error.""",
        id="E102-missing-key",
    ),
    pytest.param(
        pack(("name: Mini\n", "")),
        """\
mini/pack.yaml:2:1: error[E102]: missing required key 'name'
   2 | format: 1
     | ^
  hint: add 'name:' to the file
1 error.""",
        id="E102-missing-top-level-key",
    ),
    pytest.param(
        deck(("    era: late\n", "    era: lat\n")),
        """\
mini/decks/one.yaml:27:10: error[E103]: cards[2].era has the value 'lat', which is not allowed
  27 |     era: lat
     |          ^^^
  hint: did you mean 'late'?
1 error.""",
        id="E103-enum",
    ),
    pytest.param(
        deck(("    kind: event\n", "    kind: events\n")),
        """\
mini/decks/one.yaml:32:11: error[E103]: cards[3].kind has the value 'events', which is not allowed
  32 |     kind: events
     |           ^^^^^^
  hint: did you mean 'event'?
1 error.""",
        id="E103-card-kind",
    ),
    pytest.param(
        pack(("format: 1", "format: 3")),
        """\
mini/pack.yaml:2:9: error[E103]: format has the value 3, which is not allowed
   2 | format: 3
     |         ^
  hint: use one of: 1, 2
1 error.""",
        id="E103-const",
    ),
    pytest.param(
        deck(("    cost: 3\n", "    cost: 12\n")),
        """\
mini/decks/one.yaml:18:11: error[E104]: cards[1].cost must be at most 9 (it is 12)
  18 |     cost: 12
     |           ^^
  hint: use a value at most 9
1 error.""",
        id="E104-maximum",
    ),
    pytest.param(
        deck(("    copies: 2\n", "    copies: 0\n")),
        """\
mini/decks/one.yaml:34:13: error[E104]: cards[3].copies must be at least 1 (it is 0)
  34 |     copies: 0
     |             ^
  hint: use a value at least 1
1 error.""",
        id="E104-minimum",
    ),
    pytest.param(
        deck(("  - id: smith", "  - id: Smith")),
        """\
mini/decks/one.yaml:24:9: error[E105]: cards[2].id 'Smith' is not in the expected form
  24 |   - id: Smith
     |         ^^^^^
  hint: use lowercase letters, digits, '_' and '-', starting with a letter
1 error.""",
        id="E105-id-pattern",
    ),
    pytest.param(
        deck(("    gate: A", "    gate: AB")),
        """\
mini/decks/one.yaml:19:11: error[E105]: cards[1].gate 'AB' is not in the expected form
  19 |     gate: AB
     |           ^^
  hint: use one capital letter
1 error.""",
        id="E105-lock-pattern",
    ),
    pytest.param(
        deck(("    name: Smith\n", "    name: " + "x" * 81 + "\n")),
        """\
mini/decks/one.yaml:25:11: error[E106]: cards[2].name must have at most 80 characters
  25 |     name: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
     |           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: shorten it
1 error.""",
        id="E106-too-long",
    ),
    pytest.param(
        deck(("    name: Smith\n", "    name: ''\n")),
        """\
mini/decks/one.yaml:25:11: error[E106]: cards[2].name must have at least 1 character
  25 |     name: ''
     |           ^^
  hint: fill it in
1 error.""",
        id="E106-too-short",
    ),
    pytest.param(
        deck(("  - id: smith", "  - id: knight")),
        """\
mini/decks/one.yaml:24:5: error[E120]: duplicate card id 'mini:knight'
  24 |   - id: knight
     |     ^
  note: mini/decks/one.yaml:15:5: first defined here
  hint: give each card its own id; raise 'copies' for more of one card
1 error.""",
        id="E120-duplicate-card",
    ),
    pytest.param(
        {**pack(("  - decks/one.yaml\n", "  - decks/one.yaml\n  - decks/two.yaml\n")), "decks/two.yaml": "deck:\n  id: one\n  name: Two\ncards:\n  - id: page\n    name: Page\n"},
        """\
mini/decks/two.yaml:2:7: error[E121]: duplicate deck id 'mini:one'
   2 |   id: one
     |       ^^^
  note: mini/decks/one.yaml:2:7: first defined here
  hint: give each deck its own id
1 error.""",
        id="E121-duplicate-deck",
    ),
    pytest.param(
        pack(("  - {id: sword, name: Sword", "  - {id: coin, name: Sword")),
        """\
mini/pack.yaml:10:10: error[E122]: duplicate symbol 'coin'
  10 |   - {id: coin, name: Sword, kind: attack, icon: icons/sword.svg, meaning: Hits things.}
     |          ^^^^
  note: mini/pack.yaml:9:10: first defined here
  hint: give each symbol its own id
1 error.""",
        id="E122-duplicate-symbol",
    ),
    pytest.param(
        pack(("  - {id: unit, name: Unit}\n", "  - {id: unit, name: Unit}\n  - {id: unit, name: Soldier}\n")),
        """\
mini/pack.yaml:22:10: error[E123]: duplicate card kind 'unit'
  22 |   - {id: unit, name: Soldier}
     |          ^^^^
  note: mini/pack.yaml:21:5: first defined here
  hint: give each kind its own id
1 error.""",
        id="E123-duplicate-kind",
    ),
    pytest.param(
        pack(("  lore: {type: text", "  name: {type: text")),
        """\
mini/pack.yaml:32:3: error[E124]: card field 'name' is a core field and cannot be declared
  32 |   name: {type: text, description: Extra words.}
     |   ^^^^
  hint: the core fields are id, name, kind, copies, unique, symbols, text, flavor, tags; pick another name
1 error.""",
        id="E124-core-field",
    ),
    pytest.param(
        pack(("  lore: {type: text,", "  lore: {type: text, min: 1,")),
        """\
mini/pack.yaml:32:3: error[E125]: card field 'lore' has min/max but is of type text
  32 |   lore: {type: text, min: 1, description: Extra words.}
     |   ^^^^
  hint: min and max apply to int fields only
1 error.""",
        id="E125-min-max-on-text",
    ),
    pytest.param(
        pack(("min: 0, max: 9, default: 0", "min: 5, max: 1")),
        """\
mini/pack.yaml:24:55: error[E125]: card field 'cost': min (5) is more than max (1)
  24 |   cost: {type: int, description: What it costs., min: 5, max: 1}
     |                                                       ^
  hint: swap the two numbers
1 error.""",
        id="E125-min-above-max",
    ),
    pytest.param(
        pack(("  era: {type: enum, values: [early, late], description: When it appears., default: early}", "  era: {type: enum, description: When it appears.}")),
        """\
mini/pack.yaml:28:3: error[E125]: enum field 'era' lists no values
  28 |   era: {type: enum, description: When it appears.}
     |   ^^^
  hint: add 'values: [a, b]'
1 error.""",
        id="E125-enum-without-values",
    ),
    pytest.param(
        pack(("  lore: {type: text,", "  lore: {type: text, values: [a],")),
        """\
mini/pack.yaml:32:30: error[E125]: card field 'lore' has values but is of type text
  32 |   lore: {type: text, values: [a], description: Extra words.}
     |                              ^^^
  hint: values apply to enum fields only
1 error.""",
        id="E125-values-on-text",
    ),
    pytest.param(
        pack(("default: early", "default: middle")),
        """\
mini/pack.yaml:28:84: error[E125]: card field 'era': default must be one of early, late
  28 |   era: {type: enum, values: [early, late], description: When it appears., default: middle}
     |                                                                                    ^^^^^^
  hint: change the default to fit the type
1 error.""",
        id="E125-bad-enum-default",
    ),
    pytest.param(
        pack(("max: 9, default: 0", "max: 9, default: 10")),
        """\
mini/pack.yaml:24:75: error[E125]: card field 'cost': default 10 is outside 0..9
  24 |   cost: {type: int, description: What it costs., min: 0, max: 9, default: 10}
     |                                                                           ^^
  hint: change the default to fit the type
1 error.""",
        id="E125-default-out-of-range",
    ),
    pytest.param(
        pack(("stacking: {cost_field: upgrade,", "stacking: {cost_field: upgrad,")),
        """\
mini/pack.yaml:33:24: error[E126]: stacking cost_field names no declared card field 'upgrad'
  33 | stacking: {cost_field: upgrad, same: name, verb: upgrade}
     |                        ^^^^^^
  hint: did you mean 'upgrade'?
1 error.""",
        id="E126-unknown-field",
    ),
    pytest.param(
        pack(("stacking: {cost_field: upgrade,", "stacking: {cost_field: upgrade, lock_field: lore,")),
        """\
mini/pack.yaml:33:45: error[E126]: stacking lock_field 'lore' must be a field of type lock, not text
  33 | stacking: {cost_field: upgrade, lock_field: lore, same: name, verb: upgrade}
     |                                             ^^^^
  hint: point lock_field at a field of type lock
1 error.""",
        id="E126-wrong-field-type",
    ),
    pytest.param(
        {"pack.yaml": PACK + "  - {id: two-events, description: Again., exactly: 1}\n"},
        """\
mini/pack.yaml:38:10: error[E127]: duplicate deck rule 'two-events'
  38 |   - {id: two-events, description: Again., exactly: 1}
     |          ^^^^^^^^^^
  hint: give each rule its own id
1 error.""",
        id="E127-duplicate-rule",
    ),
    pytest.param(
        pack(("kind: event, exactly: 2", "kind: events, exactly: 2")),
        """\
mini/pack.yaml:37:93: error[E127]: deck rule 'two-events' names unknown card kind 'events'
  37 |   - {id: two-events, description: Each main deck has two events., decks_tagged: main, kind: events, exactly: 2}
     |                                                                                             ^^^^^^
  hint: did you mean 'event'?
1 error.""",
        id="E127-unknown-kind",
    ),
    pytest.param(
        pack((", exactly: 2}", "}")),
        """\
mini/pack.yaml:37:10: error[E127]: deck rule 'two-events' sets no count
  37 |   - {id: two-events, description: Each main deck has two events., decks_tagged: main, kind: event}
     |          ^^^^^^^^^^
  hint: add 'exactly: N', 'min: N' or 'max: N'
1 error.""",
        id="E127-no-count",
    ),
    pytest.param(
        pack(("players: {min: 1, max: 3}", "players: {min: 4, max: 3}")),
        """\
mini/pack.yaml:7:10: error[E128]: players: min (4) is more than max (3)
   7 | players: {min: 4, max: 3}
     |          ^^^^^^^^^^^^^^^^
  hint: swap the two numbers
1 error.""",
        id="E128-players",
    ),
    pytest.param(
        deck(("symbols: block(coin)", "symbols: block(coin)[a]")),
        """\
mini/decks/one.yaml:33:26: error[E130]: in symbols: a lock is one capital letter in brackets
  33 |     symbols: block(coin)[a]
     |                          ^
  hint: write the lock as coin[A]
1 error.""",
        id="E130-lock-syntax",
    ),
    pytest.param(
        deck(('symbols: "sword, 2 sword[A]"', 'symbols: "sword, 2 sword[A]!"')),
        """\
mini/decks/one.yaml:20:32: error[E130]: in symbols: unexpected character '!'
  20 |     symbols: "sword, 2 sword[A]!"
     |                                ^
  hint: symbol names are lowercase (coin, 2 sword); locks are one capital letter in brackets (coin[A])
1 error.""",
        id="E130-quoted-syntax",
    ),
    pytest.param(
        deck(("symbols: block(coin)", "symbols: block(coin")),
        """\
mini/decks/one.yaml:33:20: error[E130]: in symbols: an argument in brackets is not closed
  33 |     symbols: block(coin
     |                    ^
  hint: close the bracket, as in key(B)
1 error.""",
        id="E130-unclosed-argument",
    ),
    pytest.param(
        deck(("needs: 2 coin", "needs: coin 2")),
        """\
mini/decks/one.yaml:22:17: error[E130]: in needs: a count must be followed by its symbol name
  22 |     needs: coin 2
     |                 ^
  hint: write the count before the symbol, as in '2 sword'
1 error.""",
        id="E130-count-after-name",
    ),
    pytest.param(
        deck(("needs: 2 coin", "needs: 100 coin")),
        """\
mini/decks/one.yaml:22:12: error[E130]: in needs: count 100 is out of range
  22 |     needs: 100 coin
     |            ^
  hint: use a count from 1 to 99
1 error.""",
        id="E130-count-out-of-range",
    ),
    pytest.param(
        deck(("guard: shield 2 +1", "guard: shield 2 +")),
        """\
mini/decks/one.yaml:12:21: error[E130]: a bonus needs a number after '+'
  12 |     guard: shield 2 +
     |                     ^
  hint: write the bonus as '+3'
1 error.""",
        id="E130-value-syntax",
    ),
    pytest.param(
        deck(("guard: shield 2 +1", "guard: 'shield 2 +'")),
        """\
mini/decks/one.yaml:12:22: error[E130]: a bonus needs a number after '+'
  12 |     guard: 'shield 2 +'
     |                      ^
  hint: write the bonus as '+3'
1 error.""",
        id="E130-quoted-value-syntax",
    ),
    pytest.param(
        deck(('symbols: "sword, 2 sword[A]"', 'symbols: "sword, 2 swrod[A]"')),
        """\
mini/decks/one.yaml:20:24: error[E131]: unknown symbol 'swrod'
  20 |     symbols: "sword, 2 swrod[A]"
     |                        ^^^^^
  hint: did you mean 'sword'?
1 error.""",
        id="E131-unknown-symbol",
    ),
    pytest.param(
        deck(('symbols: "coin - sword"', 'symbols: "coin(A) - sword"')),
        """\
mini/decks/one.yaml:11:15: error[E132]: symbol 'coin' takes no argument
  11 |     symbols: "coin(A) - sword"
     |               ^^^^
  hint: write 'coin' without brackets
1 error.""",
        id="E132-unexpected-argument",
    ),
    pytest.param(
        deck(("symbols: block(coin)", "symbols: block")),
        """\
mini/decks/one.yaml:33:14: error[E132]: symbol 'block' needs a symbol in brackets
  33 |     symbols: block
     |              ^^^^^
  hint: write it as block(name)
1 error.""",
        id="E132-missing-symbol-argument",
    ),
    pytest.param(
        deck(('"key(A) -> opponent, coin"', '"key -> opponent, coin"')),
        """\
mini/decks/one.yaml:28:15: error[E132]: symbol 'key' needs a lock letter in brackets
  28 |     symbols: "key -> opponent, coin"
     |               ^^^
  hint: write it as key(A)
1 error.""",
        id="E132-missing-lock-argument",
    ),
    pytest.param(
        deck(('"key(A) -> opponent, coin"', '"key(coin) -> opponent, coin"')),
        """\
mini/decks/one.yaml:28:19: error[E133]: 'key' needs a lock letter, not 'coin'
  28 |     symbols: "key(coin) -> opponent, coin"
     |                   ^^^^
  hint: a lock letter is one capital letter, as in key(B)
1 error.""",
        id="E133-key-without-letter",
    ),
    pytest.param(
        deck(("symbols: block(coin)", "symbols: block(cion)")),
        """\
mini/decks/one.yaml:33:20: error[E133]: 'block' names unknown symbol 'cion'
  33 |     symbols: block(cion)
     |                    ^^^^
  hint: did you mean 'coin'?
1 error.""",
        id="E133-block-unknown-symbol",
    ),
    pytest.param(
        deck(('"key(A) -> opponent, coin"', '"key(A) -> oponent, coin"')),
        """\
mini/decks/one.yaml:28:25: error[E134]: unknown receiver 'oponent'
  28 |     symbols: "key(A) -> oponent, coin"
     |                         ^^^^^^^
  hint: did you mean 'opponent'?
1 error.""",
        id="E134-unknown-receiver",
    ),
    pytest.param(
        deck(("symbols: block(coin)", "symbols: block(coin) - coin")),
        """\
mini/decks/one.yaml:33:14: error[E135]: card 'ambush' has an upgrade dash but cannot be stacked
  33 |     symbols: block(coin) - coin
     |              ^^^^^^^^^^^^^^^^^^
  hint: give the card a value for 'upgrade', or remove the dash
1 error.""",
        id="E135-dash-without-cost",
    ),
    pytest.param(
        pack(("stacking: {cost_field: upgrade, same: name, verb: upgrade}\n", "")),
        """\
mini/decks/one.yaml:11:14: error[E135]: card 'squire' has a stacking dash but cannot be stacked
  11 |     symbols: "coin - sword"
     |              ^^^^^^^^^^^^^^
  hint: this pack declares no 'stacking:'; remove the dash
1 error.""",
        id="E135-dash-without-stacking",
    ),
    pytest.param(
        deck(("Gains a {sword}", "Gains a {swrod}")),
        """\
mini/decks/one.yaml:14:11: error[E136]: card text names unknown symbol '{swrod}'
  14 |     text: Gains a {swrod} for each squire on it.
     |           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: did you mean 'sword'?
1 error.""",
        id="E136-unknown-symbol-in-text",
    ),
    pytest.param(
        deck(("guard: shield 2 +1", "guard: sheild 2 +1")),
        """\
mini/decks/one.yaml:12:12: error[E137]: unknown symbol 'sheild'
  12 |     guard: sheild 2 +1
     |            ^^^^^^
  hint: did you mean 'shield'?
1 error.""",
        id="E137-unknown-value-symbol",
    ),
    pytest.param(
        deck(("upgrades_from: squire", "upgrades_from: squir")),
        """\
mini/decks/one.yaml:21:20: error[E138]: no card 'mini:squir' in the pack
  21 |     upgrades_from: squir
     |                    ^^^^^
  hint: did you mean 'mini:squire'?
1 error.""",
        id="E138-unknown-card",
    ),
    pytest.param(
        {**pack(("  lore: {type: text, description: Extra words.}",
                 "  lore: {type: text, description: Extra words.}\n"
                 "  allies: {type: cards, description: Cards it fights beside.}")),
         **deck(("    upgrades_from: squire", "    upgrades_from: squire\n"
                                              "    allies: [squire, smiht]"))},
        """\
mini/decks/one.yaml:22:22: error[E138]: no card 'mini:smiht' in the pack
  22 |     allies: [squire, smiht]
     |                      ^^^^^
  hint: did you mean 'mini:smith'?
1 error.""",
        id="E138-unknown-card-in-a-list",
    ),
    pytest.param(
        pack(("icons/coin.svg", "icons/coins.svg")),
        """\
mini/pack.yaml:9:50: error[E140]: file 'icons/coins.svg' does not exist
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coins.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^^
  hint: did you mean 'coin.svg'?
1 error.""",
        id="E140-missing-icon",
    ),
    pytest.param(
        pack(("  - decks/one.yaml", "  - decks/on.yaml")),
        """\
mini/pack.yaml:35:5: error[E140]: file 'decks/on.yaml' does not exist
  35 |   - decks/on.yaml
     |     ^^^^^^^^^^^^^
  hint: did you mean 'one.yaml'?
1 error.""",
        id="E140-missing-deck",
    ),
    pytest.param(
        {"pack.yaml": PACK + "rules: [rules/a.rules]\n"},
        """\
mini/pack.yaml:38:9: error[E140]: file 'rules/a.rules' does not exist
  38 | rules: [rules/a.rules]
     |         ^^^^^^^^^^^^^
  hint: check the spelling and that the file is in the pack
1 error.""",
        id="E140-missing-rules",
    ),
    pytest.param(
        {"pack.yaml": PACK + "notes: NOTES.md\n"},
        """\
mini/pack.yaml:38:8: error[E140]: file 'NOTES.md' does not exist
  38 | notes: NOTES.md
     |        ^^^^^^^^
  hint: check the spelling and that the file is in the pack
1 error.""",
        id="E140-missing-notes",
    ),
    pytest.param(
        pack(("icons/coin.svg", "../coin.svg")),
        """\
mini/pack.yaml:9:50: error[E141]: path '../coin.svg' leaves the pack folder
   9 |   - {id: coin, name: Coin, kind: resource, icon: ../coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^
  hint: name files inside the pack with '/' separators, without '..'
1 error.""",
        id="E141-dot-dot",
    ),
    pytest.param(
        pack(("  - decks/one.yaml", "  - /etc/passwd")),
        """\
mini/pack.yaml:35:5: error[E141]: path '/etc/passwd' leaves the pack folder
  35 |   - /etc/passwd
     |     ^^^^^^^^^^^
  hint: name files inside the pack with '/' separators, without '..'
1 error.""",
        id="E141-absolute",
    ),
    pytest.param(
        pack(("  - decks/one.yaml", "  - decks\\one.yaml")),
        """\
mini/pack.yaml:35:5: error[E141]: path 'decks\\one.yaml' leaves the pack folder
  35 |   - decks\\one.yaml
     |     ^^^^^^^^^^^^^^
  hint: name files inside the pack with '/' separators, without '..'
1 error.""",
        id="E141-backslash",
    ),
    pytest.param(
        pack(("stacking: {", "ai: {weights: {symbols: {coins: 2}, counters: {gold: 1}}}\nstacking: {")),
        """\
mini/pack.yaml:33:26: error[E145]: ai weight names no symbol 'coins'
  33 | ai: {weights: {symbols: {coins: 2}, counters: {gold: 1}}}
     |                          ^^^^^
  hint: did you mean 'coin'?
mini/pack.yaml:33:48: error[E145]: ai weight names no per-player counter 'gold'
  33 | ai: {weights: {symbols: {coins: 2}, counters: {gold: 1}}}
     |                                                ^^^^
  hint: the pack has no per-player counters
2 errors.""",
        id="E145-ai-weight-names-nothing",
    ),
    pytest.param(
        {"templates/big.css": "x" * (256 * 1024 + 1) + "\n"},
        """\
mini/templates/big.css:1:1: error[E143]: template 'templates/big.css' is too large (the limit is 262,144 bytes)
   1 | """ + "x" * 160 + """…
     | ^
  hint: split it, or move shared parts into a macro file
1 error.""",
        id="E143-template-too-large",
    ),
    pytest.param(
        {"icons/coin.svg": '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n'},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' contains <script>, which is not allowed
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: icons are drawn with shapes and paths only: no scripts, images or links
1 error.""",
        id="E142-script",
    ),
    pytest.param(
        {"icons/coin.svg": '<svg xmlns="http://www.w3.org/2000/svg" onload="go()"/>\n'},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' has the attribute 'onload', which is not allowed
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: remove event handlers and external references
1 error.""",
        id="E142-event-attribute",
    ),
    pytest.param(
        {"icons/coin.svg": '<svg xmlns="http://www.w3.org/2000/svg"><use href="https://x.invalid/"/></svg>\n'},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' has the attribute 'href', which is not allowed (it links to 'https://x.invalid/')
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: remove event handlers and external references
1 error.""",
        id="E142-external-href",
    ),
    pytest.param(
        {"icons/coin.svg": "<html/>\n"},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' is not an SVG file (its root is <html>)
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: the file must start with an <svg> element
1 error.""",
        id="E142-not-svg",
    ),
    pytest.param(
        {"icons/coin.svg": "<svg>\n"},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' is not a valid SVG file: no element found: line 2, column 0
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: save the icon as plain SVG (UTF-8, no DOCTYPE)
1 error.""",
        id="E142-not-xml",
    ),
    pytest.param(
        {"icons/coin.svg": "<!DOCTYPE svg><svg/>\n"},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' is not a valid SVG file: document type declarations are not allowed
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: save the icon as plain SVG (UTF-8, no DOCTYPE)
1 error.""",
        id="E142-doctype",
    ),
    pytest.param(
        {"icons/coin.svg": "<svg>" + " " * 70_000 + "</svg>\n"},
        """\
mini/pack.yaml:9:50: error[E142]: icon 'icons/coin.svg' is too large (70,012 bytes; the limit is 65,536)
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: simplify the drawing
1 error.""",
        id="E142-too-large",
    ),
    pytest.param(
        deck(("    copies: 2\n", "    copies: 3\n")),
        """\
mini/decks/one.yaml:2:7: error[E150]: deck 'mini:one' has 3 event cards (copies counted); rule 'two-events' asks for exactly 2
   2 |   id: one
     |       ^^^
  note: mini/pack.yaml:37:10: rule defined here
  hint: Each main deck has two events.
1 error.""",
        id="E150-deck-rule",
    ),
]


@pytest.mark.parametrize(("files", "expected"), CASES)
def test_diagnostic_text(
    files: Files, expected: str, broken: Callable[[Files], PackError]
) -> None:
    assert rendered(broken(files)) == expected


# --- codes that need more than a changed file -------------------------------------------------


def test_e001_unreadable_deck_file(
    broken: Callable[[Files], PackError], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root here, so chmod cannot make a file unreadable: simulate EACCES.
    _refuse_to_open(monkeypatch, "one.yaml")
    error = broken({})
    first = error.diagnostics[0]
    assert render(first, SourceCache()) == """\
mini/decks/one.yaml:1:1: error[E001]: cannot read file: Permission denied
  hint: check that the file exists and is readable"""


def _refuse_to_open(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make every read of files called ``name`` fail as an unreadable file would."""
    from decklore.compiler.load import safe_io

    real = safe_io._open_file

    def refuse(path: Path | str, flags: int) -> int:
        if Path(path).name == name:
            raise PermissionError(13, "Permission denied")
        return real(path, flags)

    monkeypatch.setattr(safe_io, "_open_file", refuse)


def test_e001_unreadable_icon(
    broken: Callable[[Files], PackError], monkeypatch: pytest.MonkeyPatch
) -> None:
    _refuse_to_open(monkeypatch, "coin.svg")
    assert rendered(broken({})) == """\
mini/pack.yaml:9:50: error[E001]: cannot read file: Permission denied
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/coin.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: check the file
1 error."""


def test_e002_file_too_large(
    broken: Callable[[Files], PackError], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("decklore.compiler.load.yaml_loader.MAX_FILE_BYTES", 1000)
    size = len(PACK.encode("utf-8"))
    assert rendered(broken({})) == f"""\
mini/pack.yaml:1:1: error[E002]: file is too large ({size:,} bytes; the limit is 1,000)
   1 | # yaml-language-server: $schema=../../../schema/pack.schema.json
     | ^
  hint: split the cards across several deck files
1 error."""


def test_e003_not_utf8(broken: Callable[[Files], PackError]) -> None:
    data = DECK.encode("utf-8").replace(b"Squire", b"Squ\xffire", 1)
    error = broken({"decks/one.yaml": data})
    assert render(error.diagnostics[0], SourceCache()) == """\
mini/decks/one.yaml:1:1: error[E003]: file is not valid UTF-8 (byte 83)
  hint: save the file with UTF-8 encoding"""


@pytest.mark.parametrize("why", ["E001", "E002", "E003"])
def test_unreadable_deck_file_gets_one_diagnostic(
    why: str, broken: Callable[[Files], PackError], monkeypatch: pytest.MonkeyPatch
) -> None:
    files: Files = {}
    if why == "E001":
        _refuse_to_open(monkeypatch, "one.yaml")
    elif why == "E002":
        files = {**pack(("  - decks/one.yaml\n", "  - decks/one.yaml\n  - decks/big.yaml\n")),
                 "decks/big.yaml": "cards:\n" + "  - {id: c, name: C}\n" * 300}
        monkeypatch.setattr("decklore.compiler.load.yaml_loader.MAX_FILE_BYTES", 2000)
    else:
        files = {"decks/one.yaml": b"deck: \xff\n"}
    assert [d.code for d in broken(files).diagnostics] == [why]


def test_e011_second_document(broken: Callable[[Files], PackError]) -> None:
    error = broken({"decks/one.yaml": DECK + "---\nfoo: 1\n"})
    assert render(error.diagnostics[0], SourceCache()) == """\
mini/decks/one.yaml:35:1: error[E011]: a pack file holds one YAML document, this is a second
  35 | ---
     | ^^^
  hint: remove the '---' line or split the file"""


def test_e011_is_the_only_error_for_a_second_document(
    broken: Callable[[Files], PackError],
) -> None:
    error = broken({"decks/one.yaml": DECK + "---\nfoo: 1\n"})
    assert [d.code for d in error.diagnostics] == ["E011"]


def test_e012_complex_key(broken: Callable[[Files], PackError]) -> None:
    error = broken(deck(("  name: Deck One", "  name: Deck One\n  ? [a, b]\n  : c")))
    assert render(error.diagnostics[0], SourceCache()) == """\
mini/decks/one.yaml:4:5: error[E012]: a key must be a plain name, not a mapping or a list
   4 |   ? [a, b]
     |     ^^^^^^
  hint: write the key as text"""


def test_e141_symlink_out_of_the_pack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_pack: Callable[[Path, Files], Path]
) -> None:
    monkeypatch.chdir(tmp_path)
    mini = write_pack(tmp_path, pack(("icons/coin.svg", "icons/link.svg")))
    outside = tmp_path / "outside.svg"
    outside.write_bytes((MINI / "icons" / "coin.svg").read_bytes())
    os.symlink(outside, mini / "icons" / "link.svg")
    with pytest.raises(PackError) as info:
        compile_pack("mini")
    assert rendered(info.value) == """\
mini/pack.yaml:9:50: error[E141]: path 'icons/link.svg' leaves the pack folder
   9 |   - {id: coin, name: Coin, kind: resource, icon: icons/link.svg, meaning: Pays for things.}
     |                                                  ^^^^^^^^^^^^^^
  hint: a symlink may not point outside the pack; copy the file in instead
1 error."""


def test_e020_no_such_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PackError) as info:
        compile_pack("nope")
    assert rendered(info.value) == """\
nope/pack.yaml:1:1: error[E020]: no pack.yaml in this folder
  hint: no folder 'nope'; check the path
1 error."""


def _warnings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
              write_pack: Callable[[Path, Files], Path], files: Files) -> str:
    monkeypatch.chdir(tmp_path)
    write_pack(tmp_path, files)
    result = compile_pack("mini")
    assert all(w.severity is Severity.WARNING for w in result.warnings)
    return render_all(result.warnings, SourceCache())


def test_w160_lock_never_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                write_pack: Callable[[Path, Files], Path]) -> None:
    files = deck(('"key(A) -> opponent, coin"', '"coin"'))
    assert _warnings(tmp_path, monkeypatch, write_pack, files) == """\
mini/decks/one.yaml:19:11: warning[W160]: lock A is never opened: no card in the pack has key(A) (and 1 more place)
  19 |     gate: A
     |           ^
  hint: add key(A) to a card, or correct the letter
1 warning."""


def test_w161_key_opens_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                write_pack: Callable[[Path, Files], Path]) -> None:
    files = deck(("symbols: block(coin)", "symbols: block(coin), key(C)"))
    assert _warnings(tmp_path, monkeypatch, write_pack, files) == """\
mini/decks/one.yaml:33:14: warning[W161]: key(C) opens nothing: no card or symbol has lock C
  33 |     symbols: block(coin), key(C)
     |              ^^^^^^^^^^^^^^^^^^^
  hint: correct the letter, or remove the key
1 warning."""


def test_warnings_as_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            write_pack: Callable[[Path, Files], Path]) -> None:
    monkeypatch.chdir(tmp_path)
    write_pack(tmp_path, deck(("symbols: block(coin)", "symbols: block(coin), key(C)")))
    with pytest.raises(PackError) as info:
        compile_pack("mini", warnings_as_errors=True)
    assert rendered(info.value) == """\
mini/decks/one.yaml:33:14: error[W161]: key(C) opens nothing: no card or symbol has lock C
  33 |     symbols: block(coin), key(C)
     |              ^^^^^^^^^^^^^^^^^^^
  hint: correct the letter, or remove the key
1 error."""


def test_every_code_the_compiler_emits_has_an_exact_text_test() -> None:
    source_dir = Path(decklore.compiler.__file__).resolve().parent
    emitted: set[str] = set()
    for path in source_dir.rglob("*.py"):  # every stage's subpackage
        emitted |= set(re.findall(r'"([ERW]\d{3})"', path.read_text(encoding="utf-8")))
    tested: set[str] = set()
    here = Path(__file__).parent
    for path in [*here.glob("test_*diagnostics*.py"), here / "test_mods.py"]:  # pack, rules
        tested |= set(re.findall(r"(?:error|warning)\[([ERW]\d{3})\]",  # files and mods
                                 path.read_text(encoding="utf-8")))
    assert emitted, "found no codes in the compiler source"
    assert sorted(emitted - tested) == []


# --- bugs found while writing these ---------------------------------------------------------


def test_bad_field_name_points_at_the_key(broken: Callable[[Files], PackError]) -> None:
    (d,) = broken(pack(("  lore:", "  Lore:"))).diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E101", 32, 3)
    assert d.message == "key 'Lore' in card_fields is not a valid name"


def test_enum_without_values_is_one_error(broken: Callable[[Files], PackError]) -> None:
    error = broken(pack(("values: [early, late], ", "")))
    assert [d.message for d in error.diagnostics] == ["enum field 'era' lists no values"]


@pytest.mark.parametrize("value", [">-\n      sword, 2 swrod[A]", "sword,\n      2 swrod[A]"])
def test_position_inside_a_multiline_notation(
    value: str, broken: Callable[[Files], PackError]
) -> None:
    """A notation over several lines cannot be mapped character by character (folding,
    escapes), so the error covers the whole value: never a wrong single place."""
    (d,) = broken(deck(('"sword, 2 sword[A]"', value))).diagnostics
    assert d.code == "E131"
    assert (d.span.line, d.span.column) == (20, 14)  # where the value starts
    assert d.span.end_line >= 21  # and it covers the line with 'swrod'
    assert d.message == "unknown symbol 'swrod'"


def test_folder_named_as_a_deck_file(broken: Callable[[Files], PackError]) -> None:
    (d,) = broken(pack(("  - decks/one.yaml", "  - decks"))).diagnostics
    assert d.code == "E140"
    assert "does not exist" not in d.message
    assert "'decks'" not in d.hint


def test_nul_in_a_path_is_a_diagnostic(broken: Callable[[Files], PackError]) -> None:
    error = broken(pack(("  - decks/one.yaml", '  - "decks/\\0one.yaml"')))
    assert [d.code for d in error.diagnostics] in (["E140"], ["E141"])


# --- rendering ----------------------------------------------------------------------------


def test_all_errors_of_a_file_in_one_run_sorted_by_line(
    broken: Callable[[Files], PackError],
) -> None:
    error = broken(deck(("    cost: 3\n", "    cost: x\n"), ("    cost: 2\n", "    cost: y\n"),
                        ("    cost: 1\n", "    cost: z\n")))
    assert rendered(error) == """\
mini/decks/one.yaml:9:11: error[E101]: cards[0].cost must be a whole number or empty, not text
   9 |     cost: z
     |           ^
  hint: see docs/pack-format.md
mini/decks/one.yaml:18:11: error[E101]: cards[1].cost must be a whole number or empty, not text
  18 |     cost: x
     |           ^
  hint: see docs/pack-format.md
mini/decks/one.yaml:26:11: error[E101]: cards[2].cost must be a whole number or empty, not text
  26 |     cost: y
     |           ^
  hint: see docs/pack-format.md
3 errors."""


def test_errors_from_several_files_and_stages_of_one_stage_come_together(
    broken: Callable[[Files], PackError],
) -> None:
    files = {
        **pack(("  - decks/one.yaml\n", "  - decks/one.yaml\n  - decks/two.yaml\n"),
               ("decks:", "rules: [rules/missing.rules]\ndecks:")),
        **deck(("symbols: block(coin)", "symbols: block(cion)")),
        "decks/two.yaml": "deck: {id: two, name: Two}\ncards:\n  - {id: page, name: Page, "
                          "symbols: swrod}\n",
    }
    error = broken(files)
    assert [(d.span.file, d.span.line, d.code) for d in error.diagnostics] == [
        ("mini/decks/one.yaml", 33, "E133"),
        ("mini/decks/two.yaml", 3, "E131"),
        ("mini/pack.yaml", 34, "E140"),
    ]


def test_many_errors_are_capped(broken: Callable[[Files], PackError]) -> None:
    cards = "".join(f"  - {{id: c{i}, name: C, symbols: nope}}\n" for i in range(55))
    error = broken({"decks/one.yaml": "deck: {id: one, name: One}\ncards:\n" + cards})
    assert len(error.diagnostics) == 55
    assert [d.span.line for d in error.diagnostics] == list(range(3, 58))
    text = rendered(error)
    assert text.count("error[E131]") == 50
    assert text.endswith("\n... and 5 more\n55 errors.")


def test_cap_and_summary_exactly() -> None:
    diags = [Diagnostic(Severity.ERROR, "E131", f"unknown symbol 'x{i}'", Span("f.yaml", i, 1))
             for i in range(1, 4)]
    diags.append(Diagnostic(Severity.WARNING, "W161", "key(C) opens nothing", Span("f.yaml", 9, 1)))
    assert render_all(diags, limit=2) == """\
f.yaml:1:1: error[E131]: unknown symbol 'x1'
f.yaml:2:1: error[E131]: unknown symbol 'x2'
... and 2 more
3 errors and 1 warning."""


def test_render_clips_the_caret_and_expands_tabs() -> None:
    sources = SourceCache({"f.yaml": "a:\tbc\nnext\n"})
    wide = Diagnostic(Severity.ERROR, "E999", "m", Span("f.yaml", 1, 4, 1, 40), "h")
    assert render(wide, sources) == "f.yaml:1:4: error[E999]: m\n   1 | a: bc\n     |    ^^\n  hint: h"
    multi = Diagnostic(Severity.ERROR, "E999", "m", Span("f.yaml", 1, 1, 2, 3))
    assert render(multi, sources).splitlines()[2] == "     | ^"


def test_render_without_a_source_line() -> None:
    d = Diagnostic(Severity.ERROR, "E010", "m", Span("f.yaml", 7, 2), "h",
                   ((Span("g.yaml", 1, 1), "see here"),))
    sources = SourceCache({"f.yaml": "one line\n"})
    assert render(d, sources) == "f.yaml:7:2: error[E010]: m\n  note: g.yaml:1:1: see here\n  hint: h"
    assert render(d, None) == render(d, sources)


def test_json_shape(broken: Callable[[Files], PackError]) -> None:
    error = broken(deck(("    cost: 3\n", "    cost: 3\n    cost: 4\n")))
    assert json.loads(to_json(error.diagnostics)) == {
        "diagnostics": [{
            "severity": "error",
            "code": "E015",
            "message": "duplicate key 'cost'",
            "hint": "remove one of the two; YAML would silently keep the last",
            "file": "mini/decks/one.yaml",
            "line": 19,
            "column": 5,
            "end_line": 19,
            "end_column": 9,
            "notes": [{"location": "mini/decks/one.yaml:18:5", "message": "first defined here"}],
        }]
    }


def test_pack_error_message_names_the_first_problem(broken: Callable[[Files], PackError]) -> None:
    error = broken(deck(("    cost: 3\n", "    cots: 3\n")))
    assert str(error) == "1 error(s) in pack; first: mini/decks/one.yaml:18:5: unknown key 'cots' in cards[1]"


def test_w170_backs_differ_within_one_pile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          write_pack: Callable[[Path, Files], Path]) -> None:
    """Two decks whose cards start in one zone print different backs: a warning; one
    shared 'back:' silences it."""
    pack = (MINI / "pack.yaml").read_text(encoding="utf-8")
    one = (MINI / "decks" / "one.yaml").read_text(encoding="utf-8")
    one = one.replace("tags: [main]", "tags: [main, pile]", 1)
    two = ("deck:\n  id: two\n  name: Deck Two\n  tags: [pile]\ncards:\n"
           "  - {id: page, name: Page, kind: unit, cost: 1}\n")
    pack = pack.replace("  - decks/one.yaml\n", "  - decks/one.yaml\n  - decks/two.yaml\n")
    rules = "zone pile: per_player, deck pile\nwin p when size(pile(p)) = 0\n"
    files: Files = {"pack.yaml": pack + "rules: [rules/game.rules]\n", "decks/one.yaml": one,
                    "decks/two.yaml": two, "rules/game.rules": rules}
    assert _warnings(tmp_path, monkeypatch, write_pack, files) == """\
mini/decks/two.yaml:2:7: warning[W170]: cards of decks 'mini:one' and 'mini:two' start in 'pile' but their backs differ ('Deck One', 'Deck Two'), so a face-down card shows which deck it came from
   2 |   id: two
     |       ^^^
  note: mini/decks/one.yaml:2:7: this deck's back
  hint: give these decks one 'back:' in their deck header
1 warning."""
    shared: Files = {"decks/one.yaml": one.replace("  tags:", "  back: Main\n  tags:", 1),
                     "decks/two.yaml": two.replace("  tags:", "  back: Main\n  tags:", 1)}
    (tmp_path / "again").mkdir()
    assert _warnings(tmp_path / "again", monkeypatch, write_pack, files | shared) == ""


def test_e172_a_kind_hides_an_unknown_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            write_pack: Callable[[Path, Files], Path]) -> None:
    pack = (MINI / "pack.yaml").read_text(encoding="utf-8").replace(
        "  - {id: event, name: Event, layout: landscape}",
        "  - {id: event, name: Event, layout: landscape, face_hides: [cots]}")
    monkeypatch.chdir(tmp_path)
    write_pack(tmp_path, {"pack.yaml": pack})
    with pytest.raises(PackError) as info:
        compile_pack("mini")
    assert rendered(info.value) == """\
mini/pack.yaml:22:62: error[E172]: card kind 'event' hides 'cots', which is not a declared card field
  22 |   - {id: event, name: Event, layout: landscape, face_hides: [cots]}
     |                                                              ^^^^
  hint: did you mean 'cost'?
1 error."""


def test_a_kind_hides_fields_from_its_faces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            write_pack: Callable[[Path, Files], Path]) -> None:
    """A kind's face_hides leaves a field off its faces; a footer value left at its default
    is never printed."""
    from decklore.compiler.printing.sheets import _Icons, card_view

    def footers(tables: dict[str, Any]) -> set[str]:
        icons = _Icons.of(tables)
        return {f["label"] for c in tables["cards"] if c["kind"] == "unit"
                for f in card_view(c, tables, icons)["footer"]}

    plain = compile_pack(MINI).tables
    label = {f["name"]: f["label"] for f in plain["card_fields"]}["upgrade"]
    assert label in footers(plain)
    pack = (MINI / "pack.yaml").read_text(encoding="utf-8").replace(
        "  - {id: unit, name: Unit}", "  - {id: unit, name: Unit, face_hides: [upgrade]}")
    monkeypatch.chdir(tmp_path)
    write_pack(tmp_path, {"pack.yaml": pack})
    assert label not in footers(compile_pack("mini").tables)
    fields = {f["name"]: f for f in plain["card_fields"]}
    icons = _Icons.of(plain)
    for card in plain["cards"]:
        printed = {f["label"] for f in card_view(card, plain, icons)["footer"]}
        for name, spec in fields.items():
            if spec["default"] is not None and card.get(name) == spec["default"]:
                assert spec["label"] not in printed


def test_every_code_the_compiler_reports_is_documented() -> None:
    """A code a user meets is looked up in a table: pack-format.md for the card data,
    rules-language.md for rules files. Each code written in the source has a row."""
    root = Path(decklore.compiler.__file__).resolve().parent.parent
    source = "\n".join(path.read_text(encoding="utf-8")
                       for folder in ("compiler", "runtime", "cli")
                       for path in (root / folder).rglob("*.py"))
    written = set(re.findall(r"\"([EWR]\d{3})\"", source))
    docs = Path(__file__).resolve().parent.parent / "docs"
    rows = set()
    for name in ("pack-format.md", "rules-language.md"):
        for first in re.findall(r"^\| ([EWR]\d{3}(?:–[EWR]\d{3})?) \|",
                                (docs / name).read_text(encoding="utf-8"), re.MULTILINE):
            low, _, high = first.partition("–")
            rows.update(f"{low[0]}{n:03d}" for n in range(int(low[1:]), int((high or low)[1:]) + 1))
    assert written and sorted(written - rows) == []
