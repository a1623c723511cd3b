"""Exact text of every diagnostic of the rules language, rendered as the user sees it.

Each case adds a rules file to the mini pack (``tests/packs/mini``, whose pack.yaml gets a
``rules:`` entry), compiles it from a temporary folder, and compares ``render_all`` with the
full expected text: location, code, message, source line, caret, notes and hint.  Syntax
errors (R001, R002) stop the compile before names are checked; a case that only warns is
compiled to the end and its warnings are rendered.  The meta-test in ``test_diagnostics.py``
checks that every code the compiler emits appears here or there.
"""

# ruff: noqa: E501 -- expected texts hold whole rendered lines, which are as long as they are.

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from decklore.compiler import PackError, SourceCache, compile_pack
from decklore.compiler.diagnostics import Severity, render_all

MINI = Path(__file__).resolve().parent / "packs" / "mini"
PACK = (MINI / "pack.yaml").read_text(encoding="utf-8")
HAND = "zone hand: per_player, deck\n"  # a zone cards start in, for the cases that need one

Files = dict[str, "str | bytes | None"]
Diagnose = Callable[..., str]


@pytest.fixture
def diagnose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_pack: Callable[[Path, Files], Path]
) -> Diagnose:
    """Compile the mini pack with rules files (name -> text) and render what it reports."""
    monkeypatch.chdir(tmp_path)

    def run(rules: str | None = None, **files: str) -> str:
        named = {"game.rules": rules} if rules is not None else {}
        named |= {name.replace("_", "."): text for name, text in files.items()}
        listed = ", ".join(f"rules/{name}" for name in named)
        write_pack(tmp_path, {"pack.yaml": PACK + f"rules: [{listed}]\n",
                              **{f"rules/{name}": text for name, text in named.items()}})
        try:
            result = compile_pack("mini")
        except PackError as error:
            return render_all(error.diagnostics, SourceCache())
        assert all(w.severity is Severity.WARNING for w in result.warnings)
        return render_all(result.warnings, SourceCache())

    return run


CASES = [
    pytest.param(
        """\
zon hand: per_player
""",
        """\
mini/rules/game.rules:1:1: error[R001]: unknown declaration 'zon'
   1 | zon hand: per_player
     | ^
  hint: did you mean 'zone'?
1 error.""",
        id="R001-unknown-declaration-did-you-mean",
    ),
    pytest.param(
        """\
bogus thing
""",
        """\
mini/rules/game.rules:1:1: error[R001]: unknown declaration 'bogus'
   1 | bogus thing
     | ^
  hint: a rules file holds declarations: zone, counter, flag, const, define, action, ...
1 error.""",
        id="R001-unknown-declaration",
    ),
    pytest.param(
        """\
turn
    log "x"
""",
        """\
mini/rules/game.rules:1:5: error[R001]: a block header ends with ':'
   1 | turn
     |     ^
  hint: add ':' at the end of the line
1 error.""",
        id="R001-missing-colon",
    ),
    pytest.param(
        """\
win p when 1 == 2
""",
        """\
mini/rules/game.rules:1:14: error[R001]: '==' is not an operator
   1 | win p when 1 == 2
     |              ^
  hint: compare with a single '='
1 error.""",
        id="R001-double-equals",
    ),
    pytest.param(
        """\
turn:
    if true:
        log "a"
    else if false:
        log "b"
""",
        """\
mini/rules/game.rules:4:5: error[R001]: 'else if' is written 'elif'
   4 |     else if false:
     |     ^
  hint: write 'elif CONDITION:'
1 error.""",
        id="R001-else-if",
    ),
    pytest.param(
        """\
turn:
    log "a"
        log "b"
""",
        """\
mini/rules/game.rules:3:9: error[R001]: unexpected indentation
   3 |         log "b"
     |         ^
  hint: indent only the lines of a block, after a line ending in ':'
1 error.""",
        id="R001-unexpected-indentation",
    ),
    pytest.param(
        """\
turn:
    if true:
win p when true
""",
        """\
mini/rules/game.rules:2:13: error[R001]: expected an indented block after ':'
   2 |     if true:
     |             ^
  hint: indent the lines that belong to this block
1 error.""",
        id="R001-expected-an-indented-block",
    ),
    pytest.param(
        """\
turn:
    jump 3
""",
        """\
mini/rules/game.rules:2:5: error[R001]: unknown statement 'jump'
   2 |     jump 3
     |     ^
  hint: a statement starts with a word such as move, draw, gain, choose, if
1 error.""",
        id="R001-unknown-statement",
    ),
    pytest.param(
        """\
turn:
    lgo "x"
""",
        """\
mini/rules/game.rules:2:5: error[R001]: unknown statement 'lgo'
   2 |     lgo "x"
     |     ^
  hint: did you mean 'log'?
1 error.""",
        id="R001-unknown-statement-did-you-mean",
    ),
    pytest.param(
        """\
turn:
    if true:
        log "a"
    elsif false:
        log "b"
""",
        """\
mini/rules/game.rules:4:5: error[R001]: unknown statement 'elsif'
   4 |     elsif false:
     |     ^
  hint: did you mean 'elif'?
1 error.""",
        id="R001-elsif",
    ),
    pytest.param(
        """\
turn:
    log 'hi'
""",
        """\
mini/rules/game.rules:2:9: error[R001]: texts are quoted with double quotes
   2 |     log 'hi'
     |         ^
  hint: write "like this"
1 error.""",
        id="R001-single-quotes",
    ),
    pytest.param(
        """\
win p when 1 $ 2
""",
        """\
mini/rules/game.rules:1:14: error[R001]: unexpected character '$'
   1 | win p when 1 $ 2
     |              ^
  hint: names are lowercase letters, digits and '_'; texts are in double quotes
1 error.""",
        id="R001-unexpected-character",
    ),
    pytest.param(
        """\
counter gold: per_player
turn:
    set gold = 3
""",
        """\
mini/rules/game.rules:3:14: error[R001]: 'set' takes 'to', not '='
   3 |     set gold = 3
     |              ^
  hint: write 'set NAME to VALUE'
1 error.""",
        id="R001-set-with-equals",
    ),
    pytest.param(
        """\
counter gold: per_player
turn:
    set gold += 1
""",
        """\
mini/rules/game.rules:3:14: error[R001]: '+=' is not a statement
   3 |     set gold += 1
     |              ^
  hint: change counters with 'gain N NAME' or 'spend N NAME'
1 error.""",
        id="R001-plus-equals",
    ),
    pytest.param(
        """\
turn:
    if true: log "x"
""",
        """\
mini/rules/game.rules:2:14: error[R001]: a block starts on the next line
   2 |     if true: log "x"
     |              ^
  hint: put the statements on their own lines below, indented
1 error.""",
        id="R001-block-on-the-header-line",
    ),
    pytest.param(
        """\
win p when max(1, 2) > 0
""",
        """\
mini/rules/game.rules:1:17: error[R001]: min and max go through a collection
   1 | win p when max(1, 2) > 0
     |                 ^
  hint: for two numbers write lesser(a, b) or greater(a, b)
1 error.""",
        id="R001-max-of-two-numbers",
    ),
    pytest.param(
        """\
turn:
    move c too hand(me)
""",
        """\
mini/rules/game.rules:2:12: error[R001]: unexpected 'too': expected 'to'
   2 |     move c too hand(me)
     |            ^
  hint: did you mean 'to'?
1 error.""",
        id="R001-unexpected-name-did-you-mean",
    ),
    pytest.param(
        """\
turn:
    log "a" "b"
""",
        """\
mini/rules/game.rules:2:13: error[R001]: unexpected '"b"': expected the end of the line
   2 |     log "a" "b"
     |             ^
  hint: see docs/rules-language.md
1 error.""",
        id="R001-unexpected-token",
    ),
    pytest.param(
        """\
turn:
    move c
""",
        """\
mini/rules/game.rules:2:11: error[R001]: unexpected end of line: expected 'to'
   2 |     move c
     |           ^
  hint: see docs/rules-language.md
1 error.""",
        id="R001-unexpected-end-of-line",
    ),
    pytest.param(
        """\
win p when (1 + 2
""",
        """\
mini/rules/game.rules:1:17: error[R001]: unexpected end of file: expected ')', 'and', 'if', 'or', '!=', '%' or ...
   1 | win p when (1 + 2
     |                 ^
  hint: see docs/rules-language.md
1 error.""",
        id="R001-unexpected-end-of-file",
    ),
    pytest.param(
        """\
win p when 1234567890 > 0
""",
        """\
mini/rules/game.rules:1:12: error[R001]: number is too large
   1 | win p when 1234567890 > 0
     |            ^
  hint: use a number below one billion
1 error.""",
        id="R001-number-too-large",
    ),
    pytest.param(
        """\
zone hand: per_player
const a = 1 +
const b = 2
turn:
    log "x" "y"
win p when true
""",
        """\
mini/rules/game.rules:2:14: error[R001]: unexpected end of line: expected a name, a number, a quoted text, 'all', 'any', 'count' or ...
   2 | const a = 1 +
     |              ^
  hint: see docs/rules-language.md
mini/rules/game.rules:5:13: error[R001]: unexpected '"y"': expected the end of the line
   5 |     log "x" "y"
     |             ^
  hint: see docs/rules-language.md
2 errors.""",
        id="R001-one-per-declaration",
    ),
    pytest.param(
        """\
turn:
        log "a"
    log "b"
""",
        """\
mini/rules/game.rules:3:1: error[R002]: this line's indentation matches no enclosing block
   3 |     log "b"
     | ^
  hint: indent it exactly like the block it belongs to
1 error.""",
        id="R002-indentation",
    ),
    pytest.param(
        """\
zone hand: per_player
counter hand: per_player
""",
        """\
mini/rules/game.rules:2:1: error[R100]: 'hand' is already declared (as a zone)
   2 | counter hand: per_player
     | ^
  note: mini/rules/game.rules:1:1: declared here
  hint: give each zone, counter, flag, constant, definition and action its own name
1 error.""",
        id="R100-already-declared",
    ),
    pytest.param(
        """\
score p = 1
score p = 2
""",
        """\
mini/rules/game.rules:2:1: error[R100]: the game already has a score
   2 | score p = 2
     | ^
  hint: keep one 'score' declaration
1 error.""",
        id="R100-second-score",
    ),
    pytest.param(
        """\
turn:
    choose one:
        option x:
            log "a"
        option x:
            log "b"
""",
        """\
mini/rules/game.rules:5:9: error[R100]: two options named 'x'
   5 |         option x:
     |         ^
  note: mini/rules/game.rules:3:9: first here
  hint: give each option its own name
1 error.""",
        id="R100-two-options-named-alike",
    ),
    pytest.param(
        """\
game:
    turn t:
        log "a"
    turn t:
        log "b"
""",
        """\
mini/rules/game.rules:4:5: error[R100]: two 'turn' blocks named 't' in one 'game'
   4 |     turn t:
     |     ^
  note: mini/rules/game.rules:2:5: first here
  hint: give each its own name
1 error.""",
        id="R100-two-blocks-named-alike",
    ),
    pytest.param(
        """\
zone coin: shared
""",
        """\
mini/rules/game.rules:1:1: error[R101]: 'coin' is already the name of a symbol in the pack
   1 | zone coin: shared
     | ^
  hint: choose another name, so rules can still name the symbol
1 error.""",
        id="R101-symbol-name",
    ),
    pytest.param(
        """\
zone unit: shared
""",
        """\
mini/rules/game.rules:1:1: error[R101]: 'unit' is already the name of a card kind in the pack
   1 | zone unit: shared
     | ^
  hint: choose another name, so rules can still name the card kind
1 error.""",
        id="R101-card-kind-name",
    ),
    pytest.param(
        """\
zone size: shared
""",
        """\
mini/rules/game.rules:1:1: error[R101]: 'size' is a builtin name
   1 | zone size: shared
     | ^
  hint: choose another name
1 error.""",
        id="R101-builtin-name",
    ),
    pytest.param(
        """\
zone me: shared
""",
        """\
mini/rules/game.rules:1:1: error[R101]: 'me' is a builtin name
   1 | zone me: shared
     | ^
  hint: choose another name
1 error.""",
        id="R101-me",
    ),
    pytest.param(
        """\
zone hand: per_player, visible
""",
        """\
mini/rules/game.rules:1:24: error[R102]: unknown zone option 'visible'
   1 | zone hand: per_player, visible
     |                        ^^^^^^^
  hint: zone options: per_player, shared, ordered, hidden, owner, public, stacks, symbols, refill, spent, slots, spaces, deck, holds, distinct, for_opponents, bag
1 error.""",
        id="R102-unknown-option",
    ),
    pytest.param(
        """\
zone hand: per_player, ordered 3
""",
        """\
mini/rules/game.rules:1:24: error[R102]: zone option 'ordered' takes no value
   1 | zone hand: per_player, ordered 3
     |                        ^^^^^^^^^
  hint: write just 'ordered'
1 error.""",
        id="R102-takes-no-value",
    ),
    pytest.param(
        """\
counter guard: per_card, blocks swrd
""",
        """\
mini/rules/game.rules:1:26: error[R110]: unknown symbol 'swrd'
   1 | counter guard: per_card, blocks swrd
     |                          ^^^^^^^^^^^
  hint: did you mean 'sword'?
1 error.""",
        id="R110-blocks-unknown-symbol",
    ),
    pytest.param(
        """\
flag dazed: per_player, removes sword
""",
        """\
mini/rules/game.rules:1:25: error[R102]: 'removes' is for marks on cards: it needs per_card
   1 | flag dazed: per_player, removes sword
     |                         ^^^^^^^^^^^^^
  hint: add per_card
1 error.""",
        id="R102-removes-needs-per-card",
    ),
    pytest.param(
        """\
counter gold: per_player, min
""",
        """\
mini/rules/game.rules:1:27: error[R102]: counter option 'min' needs a value
   1 | counter gold: per_player, min
     |                           ^^^
  hint: write 'min <number>'
1 error.""",
        id="R102-needs-a-value",
    ),
    pytest.param(
        """\
counter gold: per_player, start five
""",
        """\
mini/rules/game.rules:1:27: error[R102]: counter option 'start' needs a number
   1 | counter gold: per_player, start five
     |                           ^^^^^^^^^^
  hint: write 'start 0'
1 error.""",
        id="R102-needs-a-number",
    ),
    pytest.param(
        """\
flag tired: per_player, until dawn
""",
        """\
mini/rules/game.rules:1:25: error[R102]: 'until' needs a period, not 'dawn'
   1 | flag tired: per_player, until dawn
     |                         ^^^^^^^^^^
  hint: use one of: turn, round, phase, era, game, or moved (per_card)
1 error.""",
        id="R102-needs-a-period",
    ),
    pytest.param(
        """\
flag tired: per_player, until moved
""",
        """\
mini/rules/game.rules:1:25: error[R102]: 'until moved' is for marks on cards: it needs per_card
   1 | flag tired: per_player, until moved
     |                         ^^^^^^^^^^^
  hint: add per_card, or use a period: turn, round, phase, era, game
1 error.""",
        id="R102-until-moved-needs-per-card",
    ),
    pytest.param(
        """\
counter gold: per_player, global
""",
        """\
mini/rules/game.rules:1:1: error[R103]: counter 'gold' has more than one scope (per_player, global)
   1 | counter gold: per_player, global
     | ^
  hint: keep one
1 error.""",
        id="R103-two-scopes",
    ),
    pytest.param(
        """\
zone hand: per_player, hidden, public
""",
        """\
mini/rules/game.rules:1:1: error[R103]: zone 'hand' has more than one visibility (hidden, public)
   1 | zone hand: per_player, hidden, public
     | ^
  hint: keep one
1 error.""",
        id="R103-two-visibilities",
    ),
    pytest.param(
        """\
zone pouch: per_player, ordered, bag
""",
        """\
mini/rules/game.rules:1:34: error[R103]: zone 'pouch' is a bag and ordered: a bag has no order
   1 | zone pouch: per_player, ordered, bag
     |                                  ^^^
  hint: drop 'ordered': cards are drawn from a bag at random
1 error.""",
        id="R103-ordered-bag",
    ),
    pytest.param(
        """\
turn:
    let x = 1
    let x = 2
""",
        """\
mini/rules/game.rules:3:5: error[R104]: 'x' is already a name here
   3 |     let x = 2
     |     ^^^^^^^^^
  hint: choose another name
1 error.""",
        id="R104-let-twice",
    ),
    pytest.param(
        HAND + """\
win p when size(hand(nme)) > 0
""",
        """\
mini/rules/game.rules:2:22: error[R110]: unknown name 'nme'
   2 | win p when size(hand(nme)) > 0
     |                      ^^^
  hint: did you mean 'me'?
1 error.""",
        id="R110-unknown-name",
    ),
    pytest.param(
        """\
zone hand: per_player, refill discrd
zone discard: per_player
""",
        """\
mini/rules/game.rules:1:24: error[R110]: unknown zone 'discrd'
   1 | zone hand: per_player, refill discrd
     |                        ^^^^^^^^^^^^^
  hint: did you mean 'discard'?
1 error.""",
        id="R110-unknown-refill-zone",
    ),
    pytest.param(
        """\
counter gold: per_player
turn:
    gain 1 golf
""",
        """\
mini/rules/game.rules:3:5: error[R110]: unknown counter 'golf'
   3 |     gain 1 golf
     |     ^^^^^^^^^^^
  hint: did you mean 'gold'?
1 error.""",
        id="R110-unknown-counter",
    ),
    pytest.param(
        HAND + """\
turn:
    gain 1 hand
""",
        """\
mini/rules/game.rules:3:5: error[R110]: 'hand' is a zone, not a counter
   3 |     gain 1 hand
     |     ^^^^^^^^^^^
  hint: declare it with 'counter hand: per_player'
1 error.""",
        id="R110-not-a-counter",
    ),
    pytest.param(
        HAND + """\
turn:
    clear hand for me
""",
        """\
mini/rules/game.rules:3:5: error[R110]: 'hand' is a zone, not a flag or counter
   3 |     clear hand for me
     |     ^^^^^^^^^^^^^^^^^
  hint: declare it with 'flag hand: per_player'
1 error.""",
        id="R110-not-a-flag-or-counter",
    ),
    pytest.param(
        HAND + """\
win p when sizee(hand(p)) > 0
""",
        """\
mini/rules/game.rules:2:12: error[R111]: unknown function 'sizee'
   2 | win p when sizee(hand(p)) > 0
     |            ^^^^^^^^^^^^^^
  hint: did you mean 'size'?
1 error.""",
        id="R111-unknown-function",
    ),
    pytest.param(
        """\
counter gold: per_player
win p when gold(p) > 0
""",
        """\
mini/rules/game.rules:2:12: error[R111]: 'gold' is a counter, not a function
   2 | win p when gold(p) > 0
     |            ^^^^^^^
  hint: see the builtin table in docs/rules-language.md
1 error.""",
        id="R111-not-a-function",
    ),
    pytest.param(
        """\
action bail:
    log "x"
turn:
    do bail
    do bale
""",
        """\
mini/rules/game.rules:5:5: error[R111]: unknown action 'bale'
   5 |     do bale
     |     ^^^^^^^
  hint: did you mean 'bail'?
1 error.""",
        id="R111-unknown-action",
    ),
    pytest.param(
        """\
define worth(c) = c.cost
win p when worth(p) > 0
turn:
    do worth
""",
        """\
mini/rules/game.rules:4:5: error[R111]: 'worth' is a define, not an action
   4 |     do worth
     |     ^^^^^^^^
  hint: declare it with 'action NAME:'
1 error.""",
        id="R111-not-an-action",
    ),
    pytest.param(
        """\
define worth(c) = c.cost
win p when worth > 0
""",
        """\
mini/rules/game.rules:2:12: error[R112]: 'worth' takes 1 argument
   2 | win p when worth > 0
     |            ^^^^^
  hint: write worth(c)
1 error.""",
        id="R112-define-needs-arguments",
    ),
    pytest.param(
        HAND + """\
win p when size(hand) > 0
""",
        """\
mini/rules/game.rules:2:17: error[R112]: zone 'hand' belongs to each player: say whose
   2 | win p when size(hand) > 0
     |                 ^^^^
  hint: write hand(me) or hand(p)
1 error.""",
        id="R112-zone-needs-its-player",
    ),
    pytest.param(
        """\
win p when size > 0
""",
        """\
mini/rules/game.rules:1:12: error[R112]: 'size' is a function: call it
   1 | win p when size > 0
     |            ^^^^
  hint: write size(cards)
1 error.""",
        id="R112-call-the-builtin",
    ),
    pytest.param(
        HAND + """\
win p when size(hand(p), 2) > 0
""",
        """\
mini/rules/game.rules:2:12: error[R112]: 'size' takes 1 argument, not 2
   2 | win p when size(hand(p), 2) > 0
     |            ^^^^^^^^^^^^^^^^
  hint: write size(cards)
1 error.""",
        id="R112-builtin-arguments",
    ),
    pytest.param(
        HAND + """\
win p when size(hand(p, p)) > 0
""",
        """\
mini/rules/game.rules:2:17: error[R112]: zone 'hand' takes one player
   2 | win p when size(hand(p, p)) > 0
     |                 ^^^^^^^^^^
  hint: write hand(me)
1 error.""",
        id="R112-zone-takes-one-player",
    ),
    pytest.param(
        """\
zone market: shared, holds main
win p when size(market(p)) > 0
""",
        """\
mini/rules/game.rules:2:17: error[R112]: zone 'market' is shared: it takes no player
   2 | win p when size(market(p)) > 0
     |                 ^^^^^^^^^
  hint: write market()
1 error.""",
        id="R112-shared-zone-takes-no-player",
    ),
    pytest.param(
        """\
define worth(c) = c.cost
win p when worth() > 0
""",
        """\
mini/rules/game.rules:2:12: error[R112]: 'worth' takes 1 argument, not 0
   2 | win p when worth() > 0
     |            ^^^^^^^
  hint: write worth(c)
1 error.""",
        id="R112-define-arguments",
    ),
    pytest.param(
        """\
action bail(n):
    log "x"
turn:
    do bail
""",
        """\
mini/rules/game.rules:4:5: error[R112]: action 'bail' takes 1 argument, not 0
   4 |     do bail
     |     ^^^^^^^
  hint: write do bail(n)
1 error.""",
        id="R112-action-arguments",
    ),
    pytest.param(
        """\
counter gold: per_player
win p when gold > 0
""",
        """\
mini/rules/game.rules:2:12: error[R113]: 'gold' is a counter: read it from its owner
   2 | win p when gold > 0
     |            ^^^^
  hint: write me.gold or p.gold
1 error.""",
        id="R113-counter-without-owner",
    ),
    pytest.param(
        HAND + """\
win p when count(c in hand(p) where c.cots > 1) > 0
""",
        """\
mini/rules/game.rules:2:37: error[R114]: a card has no 'cots'
   2 | win p when count(c in hand(p) where c.cots > 1) > 0
     |                                     ^^^^^^
  hint: did you mean 'cost'?
1 error.""",
        id="R114-no-such-card-field",
    ),
    pytest.param(
        HAND + """\
win p when count(c in hand(p) where c.guard.vale > 1) > 0
""",
        """\
mini/rules/game.rules:2:37: error[R114]: a symbol value has no 'vale'
   2 | win p when count(c in hand(p) where c.guard.vale > 1) > 0
     |                                     ^^^^^^^^^^^^
  hint: did you mean 'value'?
1 error.""",
        id="R114-no-such-part",
    ),
    pytest.param(
        """\
win p when p.cost > 0
""",
        """\
mini/rules/game.rules:1:12: error[R114]: a player has no 'cost'
   1 | win p when p.cost > 0
     |            ^^^^^^
  hint: card fields are declared under card_fields in pack.yaml; counters and flags in the rules
1 error.""",
        id="R114-player-has-no-field",
    ),
    pytest.param(
        """\
when destroy(c):
    log "x"
""",
        """\
mini/rules/game.rules:1:1: error[R120]: unknown event 'destroy'
   1 | when destroy(c):
     | ^
  hint: did you mean 'destroyed'?
1 error.""",
        id="R120-unknown-event",
    ),
    pytest.param(
        """\
when stacked(c):
    log "x"
""",
        """\
mini/rules/game.rules:1:1: error[R121]: event 'stacked' gives 2 values (card, card), not 1
   1 | when stacked(c):
     | ^
  hint: write when stacked(c, c)
1 error.""",
        id="R121-event-arity",
    ),
    pytest.param(
        """\
turn:
    round:
        log "x"
""",
        """\
mini/rules/game.rules:2:5: error[R130]: a 'round' block cannot stand inside 'turn'
   2 |     round:
     |     ^
  hint: here you can use: phase
1 error.""",
        id="R130-cannot-stand-inside",
    ),
    pytest.param(
        """\
phase:
    log "x"
""",
        """\
mini/rules/game.rules:1:1: error[R130]: a 'phase' block cannot stand at the top of a file
   1 | phase:
     | ^
  hint: here you can use: game, setup, era, round, turn
1 error.""",
        id="R130-top-of-file",
    ),
    pytest.param(
        """\
setup:
    turn:
        log "x"
""",
        """\
mini/rules/game.rules:2:5: error[R130]: a 'turn' block cannot stand inside 'setup'
   2 |     turn:
     |     ^
  hint: a 'setup' holds statements, not blocks
1 error.""",
        id="R130-setup-holds-statements",
    ),
    pytest.param(
        """\
game:
    log "a"
    turn:
        log "b"
""",
        """\
mini/rules/game.rules:2:5: error[R131]: 'game' mixes statements with nested blocks
   2 |     log "a"
     |     ^^^^^^^
  hint: put the statements in an 'at start:' hook or in a block of their own
1 error.""",
        id="R131-mixed-block",
    ),
    pytest.param(
        """\
turn:
    choose card c from players():
        log "x"
""",
        """\
mini/rules/game.rules:2:24: error[R140]: 'choose card' takes cards, but this gives players
   2 |     choose card c from players():
     |                        ^^^^^^^^^
  hint: write 'choose player' to choose among players
1 error.""",
        id="R140-choose-card-from-players",
    ),
    pytest.param(
        HAND + """\
turn:
    choose player q from hand(me):
        log "x"
""",
        """\
mini/rules/game.rules:3:26: error[R140]: 'choose player' takes players, but this gives cards
   3 |     choose player q from hand(me):
     |                          ^^^^^^^^
  hint: write 'choose card' to choose among cards
1 error.""",
        id="R140-choose-player-from-cards",
    ),
    pytest.param(
        HAND + """\
turn:
    choose card c from hand(me) up to 2:
        log "x"
""",
        """\
mini/rules/game.rules:3:33: error[R140]: 'up to' only goes with 'choose cards'
   3 |     choose card c from hand(me) up to 2:
     |                                 ^^^^^^^
  hint: write 'choose cards c ...'
1 error.""",
        id="R140-count-with-one-card",
    ),
    pytest.param(
        """\
counter gold: per_player
turn:
    set gold
""",
        """\
mini/rules/game.rules:3:5: error[R141]: 'set gold' needs a value: it is a counter
   3 |     set gold
     |     ^^^^^^^^
  hint: write 'set gold to N', or 'gain N gold'
1 error.""",
        id="R141-counter-needs-a-value",
    ),
    pytest.param(
        """\
flag tired: per_player
turn:
    set tired to 3
""",
        """\
mini/rules/game.rules:3:5: error[R141]: 'tired' is a flag: it is set or cleared, without a value
   3 |     set tired to 3
     |     ^^^^^^^^^^^^^^
  hint: write 'set tired'
1 error.""",
        id="R141-flag-takes-no-value",
    ),
    pytest.param(
        """\
counter gold: per_player
turn:
    set gold for me = 3
""",
        """\
mini/rules/game.rules:3:18: error[R141]: 'set' takes 'to', not '='
   3 |     set gold for me = 3
     |                  ^^^^^^
  hint: write 'set gold for PLAYER to VALUE'
1 error.""",
        id="R141-set-for-player-with-equals",
    ),
    pytest.param(
        """\
flag tired: per_player
turn:
    pay 3 from me.tired
""",
        """\
mini/rules/game.rules:3:16: error[R142]: a cost is paid from a zone or a counter
   3 |     pay 3 from me.tired
     |                ^^^^^^^^
  hint: name a zone such as ZONE(me), or a counter such as me.COUNTER
1 error.""",
        id="R142-pay-from-what",
    ),
    pytest.param(
        HAND + """\
define two(a, b) = a
win p when two(1, 2) > 0
turn:
    pay 3 from hand(me) valued two
""",
        """\
mini/rules/game.rules:5:32: error[R142]: 'valued' names a definition with one parameter, the card
   5 |     pay 3 from hand(me) valued two
     |                                ^^^
  hint: declare 'define value_of(c) = ...' and write 'valued value_of'
1 error.""",
        id="R142-valued-needs-a-one-parameter-define",
    ),
    pytest.param(
        """\
counter gold: per_player
define worth(c) = c.cost
turn:
    pay 3 from me.gold valued worth
""",
        """\
mini/rules/game.rules:4:31: error[R142]: 'valued' applies to cards, not to a counter
   4 |     pay 3 from me.gold valued worth
     |                               ^^^^^
  hint: each unit of a counter is worth 1
1 error.""",
        id="R142-valued-with-a-counter",
    ),
    pytest.param(
        """\
counter damage: per_card
turn:
    gain 1 damage
""",
        """\
mini/rules/game.rules:3:5: error[R143]: 'damage' is kept on each card: say which
   3 |     gain 1 damage
     |     ^^^^^^^^^^^^^
  hint: add 'on CARD', as in '... damage on c'
1 error.""",
        id="R143-card-counter-needs-a-card",
    ),
    pytest.param(
        """\
counter tide: global
turn:
    gain 1 tide for me
""",
        """\
mini/rules/game.rules:3:17: error[R143]: 'tide' is global: it belongs to no player or card
   3 |     gain 1 tide for me
     |                 ^^^^^^
  hint: remove 'for ...'
1 error.""",
        id="R143-global-counter-has-no-owner",
    ),
    pytest.param(
        HAND + """\
counter gold: per_player
turn:
    gain 1 gold on top_card(hand(me))
""",
        """\
mini/rules/game.rules:4:17: error[R143]: 'gold' is kept per player, so it takes 'for PLAYER'
   4 |     gain 1 gold on top_card(hand(me))
     |                 ^^^^^^^^^^^^^^^^^^^^^
  hint: write 'for PLAYER'
1 error.""",
        id="R143-player-counter-on-a-card",
    ),
    pytest.param(
        """\
counter damage: per_card
turn:
    gain 1 damage for me
""",
        """\
mini/rules/game.rules:3:19: error[R143]: 'damage' is kept per card, so it takes 'on CARD'
   3 |     gain 1 damage for me
     |                   ^^^^^^
  hint: write 'on CARD'
1 error.""",
        id="R143-card-counter-for-a-player",
    ),
    pytest.param(
        HAND + """\
counter gold: per_player
win p when top_card(hand(p)).gold > 0
""",
        """\
mini/rules/game.rules:3:12: error[R143]: 'gold' is kept per player, not per card
   3 | win p when top_card(hand(p)).gold > 0
     |            ^^^^^^^^^^^^^^^^^^^^^^
  hint: read it from a player
1 error.""",
        id="R143-read-from-the-wrong-owner",
    ),
    pytest.param(
        HAND + """\
turn:
    move top_card(hand(me)) to top_card(hand(me))
""",
        """\
mini/rules/game.rules:3:32: error[R144]: expected a zone here
   3 |     move top_card(hand(me)) to top_card(hand(me))
     |                                ^^^^^^^^^^^^^^^^^^
  hint: name a zone with its player, such as ZONE(me)
1 error.""",
        id="R144-expected-a-zone",
    ),
    pytest.param(
        HAND + """\
counter gold: per_player
turn:
    gain hand(me) gold
""",
        """\
mini/rules/game.rules:4:10: error[R150]: expected a number here, but this is a zone
   4 |     gain hand(me) gold
     |          ^^^^^^^^
  hint: count cards with size(...) or count(c in ... where ...)
1 error.""",
        id="R150-wrong-type",
    ),
    pytest.param(
        """\
win p when 3
""",
        """\
mini/rules/game.rules:1:12: error[R150]: expected a yes/no condition here, but this is a number
   1 | win p when 3
     |            ^
  hint: compare it, as in '... > 0'
1 error.""",
        id="R150-expected-a-condition",
    ),
    pytest.param(
        HAND + """\
counter gold: per_player
turn:
    gain top_card(hand(me)) gold
""",
        """\
mini/rules/game.rules:4:10: error[R150]: expected a number here, but this is a card
   4 |     gain top_card(hand(me)) gold
     |          ^^^^^^^^^^^^^^^^^^
  hint: count cards with size(...) or count(c in ... where ...)
1 error.""",
        id="R150-card-for-a-number",
    ),
    pytest.param(
        HAND + """\
counter gold: per_player
turn:
    gain size(hand(me) + 1) gold
""",
        """\
mini/rules/game.rules:4:15: error[R150]: expected a number here, but this is a zone
   4 |     gain size(hand(me) + 1) gold
     |               ^^^^^^^^
  hint: '+' adds two numbers, or joins cards to cards (or players to players)
mini/rules/game.rules:4:15: error[R150]: expected cards here, but this is a number
   4 |     gain size(hand(me) + 1) gold
     |               ^^^^^^^^^^^^
  hint: see the types in docs/rules-language.md
2 errors.""",
        id="R150-plus-joins-cards-to-cards-only",
    ),
    pytest.param(
        HAND + """\
turn:
    move 3 to hand(me)
""",
        """\
mini/rules/game.rules:3:10: error[R150]: expected cards here, but this is a number
   3 |     move 3 to hand(me)
     |          ^
  hint: name a card, or cards such as top(ZONE(me), 2)
1 error.""",
        id="R150-expected-cards",
    ),
    pytest.param(
        """\
turn:
    for each x in 3:
        log "x"
""",
        """\
mini/rules/game.rules:2:19: error[R150]: expected cards or players to go through, but this is a number
   2 |     for each x in 3:
     |                   ^
  hint: name a zone such as ZONE(me), or players()
1 error.""",
        id="R150-expected-a-collection",
    ),
    pytest.param(
        HAND + """\
turn:
    reveal top_card(hand(me)) to players()
""",
        """\
mini/rules/game.rules:3:34: error[R150]: expected a player here, but this is players
   3 |     reveal top_card(hand(me)) to players()
     |                                  ^^^^^^^^^
  hint: choose one of them, or go through them with 'for each'
1 error.""",
        id="R150-expected-a-player",
    ),
    pytest.param(
        HAND + """\
win p when sum(c in hand(p)) > 0
""",
        """\
mini/rules/game.rules:2:12: error[R151]: 'sum' needs a value for each item
   2 | win p when sum(c in hand(p)) > 0
     |            ^^^^^^^^^^^^^^^^^
  hint: write sum(c.FIELD for c in ...)
1 error.""",
        id="R151-needs-a-value",
    ),
    pytest.param(
        HAND + """\
win p when count(c.cost for c in hand(p)) > 0
""",
        """\
mini/rules/game.rules:2:18: error[R151]: 'count' takes no 'for' value
   2 | win p when count(c.cost for c in hand(p)) > 0
     |                  ^^^^^^
  hint: write count(c in ... where ...)
1 error.""",
        id="R151-takes-no-value",
    ),
    pytest.param(
        """\
win p when 1 = true
""",
        """\
mini/rules/game.rules:1:12: warning[W150]: comparing a number with a yes/no condition is never equal
   1 | win p when 1 = true
     |            ^^^^^^^^
  hint: compare values of one kind
1 warning.""",
        id="W150-never-equal",
    ),
    pytest.param(
        """\
const crew = 3
define worth(c) = c.cost
action bail:
    log "x"
""",
        """\
mini/rules/game.rules:1:1: warning[W200]: const 'crew' is never used
   1 | const crew = 3
     | ^
  hint: use it, or remove it
mini/rules/game.rules:2:1: warning[W200]: define 'worth' is never used
   2 | define worth(c) = c.cost
     | ^
  hint: use it, or remove it
mini/rules/game.rules:3:1: warning[W200]: action 'bail' is never used
   3 | action bail:
     | ^
  hint: use it, or remove it
3 warnings.""",
        id="W200-unused",
    ),
    pytest.param(
        """\
turn:
    end turn
    log "never"
""",
        """\
mini/rules/game.rules:3:5: warning[W201]: this statement can never run
   3 |     log "never"
     |     ^^^^^^^^^^^
  hint: the 'end turn' above always stops the block first
1 warning.""",
        id="W201-after-end",
    ),
    pytest.param(
        """\
turn:
    fail "stop"
    log "never"
""",
        """\
mini/rules/game.rules:3:5: warning[W201]: this statement can never run
   3 |     log "never"
     |     ^^^^^^^^^^^
  hint: the 'fail' above always stops the block first
1 warning.""",
        id="W201-after-fail",
    ),
    pytest.param(
        """\
zone pile: per_player
turn:
    choose card c from pile(me):
        log "x"
""",
        """\
mini/rules/game.rules:3:24: warning[W202]: nothing ever puts cards into 'pile', so this choice never has an option
   3 |     choose card c from pile(me):
     |                        ^^^^^^^^
  hint: move or draw cards into the zone, or give it 'deck' or 'holds TAG'
1 warning.""",
        id="W202-never-filled",
    ),
    pytest.param(
        """\
turn:
    log "a"
setup:
    log "b"
""",
        """\
mini/rules/game.rules:3:1: warning[W203]: this 'setup' block never runs
   3 | setup:
     | ^
  note: mini/rules/game.rules:1:1: repeats until the game ends
  hint: the 'turn' block above repeats until the game ends; put this block before it
1 warning.""",
        id="W203-after-a-repeating-block",
    ),
    pytest.param(
        """\
zone hand "Hand": per_player, deck
counter gold "Gold": per_player
turn:
    phase trade "Trade":
        says "Spend gold to draw a card into your hand."
        draw 1 from hand(me) to hand(me)
""",
        """\
mini/rules/game.rules:5:14: warning[W210]: this wording names 'Gold', which the rule it describes never uses
   5 |         says "Spend gold to draw a card into your hand."
     |              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: say what the rule does, or make the rule use 'gold'
1 warning.""",
        id="W210-wording-names-unused-state",
    ),
    pytest.param(
        """\
zone hand: per_player, deck
define deal(p) = size(hand(p)) says "the cards in your hand"
turn:
    says "Look at {deal} cards."
    log "x"
win p when deal(p) > 3
""",
        """\
mini/rules/game.rules:4:10: warning[W211]: '{deal}' is not a constant, a counter, a definition without parameters or a symbol, so it would print as it is
   4 |     says "Look at {deal} cards."
     |          ^^^^^^^^^^^^^^^^^^^^^^^
  hint: name a constant, a counter (for its starting value), a definition without parameters or a symbol
1 warning.""",
        id="W211-unknown-placeholder",
    ),
    pytest.param(
        """\
zone hand "Hand": per_player, deck
counter gold "Gold": per_player
turn:
    term "Purse" "the gold you hold; a hand of {hand_limit} cards."
    log "x"
win p when size(hand(p)) > 3
""",
        """\
mini/rules/game.rules:4:18: warning[W211]: '{hand_limit}' is not a constant, a counter, a definition without parameters or a symbol, so it would print as it is
   4 |     term "Purse" "the gold you hold; a hand of {hand_limit} cards."
     |                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  hint: name a constant, a counter (for its starting value), a definition without parameters or a symbol
1 warning.""",
        id="W211-unknown-placeholder-in-a-term",
    ),
]


@pytest.mark.parametrize(("rules", "expected"), CASES)
def test_rules_diagnostic(rules: str, expected: str, diagnose: Diagnose) -> None:
    assert diagnose(rules) == expected


def test_rules_files_share_one_set_of_names(diagnose: Diagnose) -> None:
    text = diagnose(a_rules=HAND + "counter gold: per_player\n",
                    b_rules="flag gold: per_player\nwin p when size(hand(p)) > p.gold\n")
    assert text == """\
mini/rules/b.rules:1:1: error[R100]: 'gold' is already declared (as a counter)
   1 | flag gold: per_player
     | ^
  note: mini/rules/a.rules:2:1: declared here
  hint: give each zone, counter, flag, constant, definition and action its own name
1 error."""


def test_syntax_errors_of_every_file_come_together(diagnose: Diagnose) -> None:
    text = diagnose(a_rules="zone hand per_player\n", b_rules="win p when 1 $ 2\n")
    assert text == """\
mini/rules/a.rules:1:11: error[R001]: unexpected 'per_player': expected ':' or a quoted text
   1 | zone hand per_player
     |           ^
  hint: see docs/rules-language.md
mini/rules/b.rules:1:14: error[R001]: unexpected character '$'
   1 | win p when 1 $ 2
     |              ^
  hint: names are lowercase letters, digits and '_'; texts are in double quotes
2 errors."""


def test_a_clean_rules_file_reports_nothing(diagnose: Diagnose) -> None:
    assert diagnose(HAND + "win p when size(hand(p)) = 0\n") == ""


# --- bugs found while writing these ---------------------------------------------------------


def _one(diagnose: Diagnose, rules: str) -> tuple[str, str, str]:
    """The location, message and hint of the only diagnostic ``rules`` gives."""
    lines = diagnose(rules).splitlines()
    heads = [line for line in lines if "error[" in line or "warning[" in line]
    assert len(heads) == 1, lines
    where, _, message = heads[0].partition(": error[")
    if not message:
        where, _, message = heads[0].partition(": warning[")
    hints = [line.removeprefix("  hint: ") for line in lines if line.startswith("  hint: ")]
    return where, message.partition("]: ")[2], hints[0] if hints else ""


def test_expected_tokens_are_shown_as_written(diagnose: Diagnose) -> None:
    _, message, _ = _one(diagnose, 'turn:\n    choose number n in 1 5:\n        log "x"\n')
    assert message.startswith("unexpected '5': expected '..', ")


def test_operators_are_shown_as_written(diagnose: Diagnose) -> None:
    _, message, _ = _one(diagnose, "win p when 1 if 2 < 1 ( else 3\n")
    assert message.startswith("unexpected '(': expected ")
    assert re.search(r"'[-%*+/<>=!]+'", message)
    assert not re.search(r"\b(minus|plus|star|percent|lessthan|morethan)\b", message)


def test_every_keyword_is_quoted_in_expected_lists(diagnose: Diagnose) -> None:
    _, facing, _ = _one(diagnose, HAND + "turn:\n    move top_card(hand(me)) to hand(me) face sideways\n")
    assert facing == "unexpected 'sideways': expected 'down' or 'up'"
    _, hook, _ = _one(diagnose, 'turn:\n    at noon:\n        log "x"\n')
    assert hook == "unexpected 'noon': expected 'end' or 'start'"


def test_elseif_points_at_the_word(diagnose: Diagnose) -> None:
    where, message, _ = _one(
        diagnose, 'turn:\n    if true:\n        log "a"\n    elseif false:\n        log "b"\n')
    assert (where, message) == ("mini/rules/game.rules:4:5", "'else if' is written 'elif'")


def test_r002_after_a_tab_points_at_the_line(diagnose: Diagnose) -> None:
    where, _, _ = _one(diagnose, 'turn:\n\tlog "a"\n    log "b"\n')
    assert where == "mini/rules/game.rules:3:1"


def test_unterminated_text(diagnose: Diagnose) -> None:
    _, message, hint = _one(diagnose, 'turn:\n    log "abc\n')
    assert message != "unexpected character '\"'"
    assert "double quotes" not in hint


def test_r114_never_suggests_the_name_itself(diagnose: Diagnose) -> None:
    _, message, hint = _one(diagnose, "counter gold: per_player\nwin p when seat(p).gold > 0\n")
    assert message == "a number has no 'gold'"
    assert hint != "did you mean 'gold'?"


def test_global_counters_and_flags_are_read_by_name(diagnose: Diagnose) -> None:
    assert diagnose("counter tide: global\nflag storm: global\n"
                    "win p when tide > 3 and not storm\n") == ""


def test_a_zone_where_a_number_is_expected_gets_the_counting_hint(diagnose: Diagnose) -> None:
    _, message, hint = _one(diagnose, HAND + "win p when hand(p) > 2\n")
    assert message == "expected a number here, but this is a zone"
    assert hint == "count cards with size(...) or count(c in ... where ...)"


def test_if_expression_branches_of_different_types(diagnose: Diagnose) -> None:
    counter = "counter gold: per_player\n"
    assert "error[R150]" in diagnose(counter + "win p when p.gold > 3 if first_turn() else 4\n")


def test_tiebreak_may_come_before_the_score(diagnose: Diagnose) -> None:
    counter = "counter fame: per_player\n"
    assert diagnose(counter + "score q = q.fame\ntiebreak: q.fame\n") == ""
    assert diagnose(counter + "tiebreak: q.fame\nscore q = q.fame\n") == ""


def test_what_a_rule_touches_is_the_same_with_a_shared_memo() -> None:
    """W210 reads what each rule touches through the actions and defines it uses; the
    check keeps each body's own names between wordings. A call cycle ends, and the memo
    gives what a walk from scratch gives."""
    from decklore.compiler.rules.says import touched

    def call(name: str) -> dict[str, object]:
        return {"do": "call", "action": name}

    rules = {"actions": {"a": {"body": [call("b"), {"op": "zone", "zone": "hand"}]},
                         "b": {"body": [call("a"), {"do": "gain", "name": "gold"}]}},
             "defines": {"d": {"body": {"op": "counter", "name": "score"}}}}
    body = [call("a"), {"op": "define", "name": "d"}, call("missing")]
    assert touched(body, rules) == {"hand", "gold", "score"}
    known: dict[str, tuple[set[str], list[str]]] = {}
    assert touched(rules["actions"]["b"]["body"], rules, known) == {"hand", "gold"}
    assert touched(body, rules, known) == touched(body, rules)
    assert touched({"op": "zone", "zone": "deck"}, rules, known) == {"deck"}
