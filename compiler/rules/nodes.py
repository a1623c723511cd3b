"""The nodes of a parsed rules program: frozen, slotted, compared by structure.

One class per construct of the rules language.  Every node has a trailing ``span`` that
equality ignores, so two programs that differ only in layout compare equal (the formatter's
round-trip test relies on this).  Blocks are tuples of statements.
"""

from __future__ import annotations

from dataclasses import field

from decklore.compiler.diagnostics import Span
from decklore.compiler.rules.node_class import node

NOWHERE = Span("", 0, 0)


# --- expressions ------------------------------------------------------------------------


@node
class IntLit:
    """A whole number."""

    value: int
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class StrLit:
    """A quoted text."""

    value: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class BoolLit:
    """``true`` or ``false``."""

    value: bool
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class NoneLit:
    """``none``: no card, no player, no value."""

    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Name:
    """A name: a local, a parameter, a definition, a constant, a zone, a symbol."""

    id: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Call:
    """``f(a, b)``: a builtin, a definition with parameters, or a zone of a player."""

    func: str
    args: tuple[Expr, ...]
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Attribute:
    """``x.name``: a card field, a counter or flag of a player or card."""

    obj: Expr
    name: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Unary:
    """``-x`` or ``not x``."""

    op: str
    operand: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Binary:
    """Arithmetic, comparison, ``and`` and ``or``."""

    op: str
    left: Expr
    right: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class IfExpr:
    """``a if condition else b``."""

    condition: Expr
    then: Expr
    orelse: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Aggregate:
    """``count(c in zone where …)``, ``sum(c.stars for c in zone)`` and friends."""

    func: str
    element: Expr | None
    var: str
    source: Expr
    where: Expr | None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


Expr = (
    IntLit
    | StrLit
    | BoolLit
    | NoneLit
    | Name
    | Call
    | Attribute
    | Unary
    | Binary
    | IfExpr
    | Aggregate
)


# --- statements -------------------------------------------------------------------------


@node
class Owner:
    """``for player`` or ``on card``: whose counter or flag a statement changes."""

    kind: str  # "player" or "card"
    expr: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Move:
    """Move cards to a zone, optionally turning them and choosing the end."""

    what: Expr
    to: Expr
    facing: str | None = None
    position: str | None = None
    """``top``, ``bottom``, ``depth`` (with ``depth``) or None."""
    depth: Expr | None = None
    """For ``at depth N``: how many cards lie above the first card moved."""
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Draw:
    """Draw a number of cards from a zone, refilling it as the zone declares."""

    count: Expr
    source: Expr
    to: Expr
    facing: str | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Shuffle:
    """Shuffle a zone with the game's seeded generator."""

    zone: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Reveal:
    """Show cards to everyone, or to one player."""

    what: Expr
    to: Expr | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Destroy:
    """Destroy a unit (with its stack and tucked cards), to a zone or out of the game.

    ``when destroyed`` triggers run first, while the cards are still in place.
    """

    what: Expr
    to: Expr | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Stack:
    """Put a card on top of another, making one unit."""

    what: Expr
    onto: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Tuck:
    """Put a card face down under another (a slot)."""

    what: Expr
    under: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Gain:
    """Add to a counter."""

    amount: Expr
    counter: str
    owner: Owner | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Spend:
    """Take from a counter; it is an error to spend more than there is."""

    amount: Expr
    counter: str
    owner: Owner | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class SetValue:
    """Set a flag (or a counter to a value)."""

    name: str
    owner: Owner | None = None
    value: Expr | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Clear:
    """Clear a flag or zero a counter."""

    name: str
    owner: Owner | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class PaySource:
    """One source a cost may be paid from, and what each item there is worth."""

    source: Expr
    valued: Expr | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Change:
    """Where overpayment goes (a counter), so one payment can cover several costs."""

    counter: str
    owner: Owner | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Pay:
    """Pay a cost from piles and counters, one item at a time; no change unless kept."""

    amount: Expr
    sources: tuple[PaySource, ...]
    change: Change | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Let:
    """Name a value for the rest of the block."""

    name: str
    value: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Do:
    """Run a named action."""

    action: str
    args: tuple[Expr, ...] = ()
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class End:
    """End the current turn, round, phase or the game at once."""

    period: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Fail:
    """Stop with an error: a state the rules say cannot happen."""

    message: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Log:
    """Write a line to the game log."""

    message: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class If:
    """Run the first block whose condition holds."""

    branches: tuple[tuple[Expr, Block], ...]
    orelse: Block | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ForEach:
    """Run a block once for each item of a collection, in its order."""

    var: str
    source: Expr
    where: Expr | None
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class RepeatTimes:
    """Run a block a number of times."""

    count: Expr
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class RepeatWhile:
    """Run a block again and again while a condition holds (checked before each run)."""

    condition: Expr
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class RepeatPass:
    """Offer a block again and again until the player passes, or the guard fails."""

    label: str | None
    body: Block
    guard: Expr | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class May:
    """An optional block: the player decides whether to do it."""

    label: str | None
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class AsPlayer:
    """A block whose decisions another player makes (a receiver's choice, a setup pick)."""

    player: Expr
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class CountRange:
    """How many items a ``choose cards`` takes: ``up to``, ``at least``, ``exactly``."""

    kind: str
    count: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Choose:
    """A player chooses a card, cards, a player or a target, then the block runs."""

    kind: str
    var: str
    source: Expr
    where: Expr | None
    count: CountRange | None
    label: str | None
    optional: bool
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ChooseNumber:
    """A player chooses a number in a range."""

    var: str
    low: Expr
    high: Expr
    where: Expr | None
    label: str | None
    body: Block
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Limit:
    """How often an action or option may be taken: once or at most N per period."""

    count: int
    period: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ChoiceOption:
    """One branch of ``choose one``, legal when its guard holds and its limit allows."""

    name: str
    label: str | None
    when: Expr | None
    limit: Limit | None
    body: Block
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ChooseOne:
    """A player picks one of several labelled branches."""

    label: str | None
    options: tuple[ChoiceOption, ...]
    span: Span = field(default=NOWHERE, compare=False, repr=False)


Statement = (
    AsPlayer
    | Move
    | Draw
    | Shuffle
    | Reveal
    | Destroy
    | Stack
    | Tuck
    | Gain
    | Spend
    | SetValue
    | Clear
    | Pay
    | Let
    | Do
    | End
    | Fail
    | Log
    | If
    | ForEach
    | RepeatTimes
    | RepeatWhile
    | RepeatPass
    | May
    | Choose
    | ChooseNumber
    | ChooseOne
)
Block = tuple[Statement, ...]


# --- declarations -----------------------------------------------------------------------


@node
class Option:
    """One option of a state declaration: ``per_player``, ``min 0``, ``refill discard``."""

    name: str
    value: str | int | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class StateDecl:
    """A zone, counter or flag the game keeps, with its options."""

    kind: str  # "zone", "counter" or "flag"
    name: str
    label: str | None
    options: tuple[Option, ...]
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Says:
    """How the player reference words a block or definition (``says "…"``), or a note."""

    text: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Note:
    """A sentence printed under a section of the player reference (``note "…"``)."""

    text: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Term:
    """A word of the game and its meaning (``term "word" "meaning"``), for the player
    reference's glossary: the printed steps can then use the word without explaining it."""

    word: str
    text: str
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ConstDecl:
    """A named constant."""

    name: str
    value: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class DefineDecl:
    """A named derived value or predicate, recomputed whenever it is read."""

    name: str
    params: tuple[str, ...] | None
    body: Expr
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ActionDecl:
    """A named sequence of steps that ``do`` runs and options offer."""

    name: str
    params: tuple[str, ...] | None
    label: str | None
    limit: Limit | None
    body: Block
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Hook:
    """``at start:`` / ``at end:`` of a flow block."""

    time: str
    body: Block
    says: Says | None = None
    """How the player reference words the hook (a round's start, say), if the pack words it."""
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Order:
    """Who plays next in a round: an expression giving the players in order."""

    expr: Expr
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Flow:
    """A game, setup, era, round, turn, phase or step block."""

    kind: str
    name: str | None
    label: str | None
    members: tuple[Flow | Hook | Order | Says | Note | Term | Statement, ...]
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Trigger:
    """``when event(args) where condition:``: steps run each time the event happens."""

    event: str
    params: tuple[str, ...]
    where: Expr | None
    body: Block
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class Outcome:
    """``win p when …``: a player wins, loses or is eliminated as soon as it holds."""

    kind: str
    player: str
    condition: Expr
    label: str | None
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class ScoreDecl:
    """A player's final score."""

    player: str
    expr: Expr
    says: Says | None = None
    span: Span = field(default=NOWHERE, compare=False, repr=False)


@node
class TiebreakDecl:
    """Values compared in order when scores tie; the highest wins."""

    exprs: tuple[Expr, ...]
    span: Span = field(default=NOWHERE, compare=False, repr=False)


Declaration = (
    StateDecl
    | ConstDecl
    | DefineDecl
    | ActionDecl
    | Flow
    | Trigger
    | Outcome
    | ScoreDecl
    | TiebreakDecl
)


@node
class Program:
    """A rules file: its declarations in order, and the comments and blank lines kept by fmt."""

    declarations: tuple[Declaration, ...]
    comments: tuple[tuple[int, int, str], ...] = field(default=(), compare=False)
    blank_lines: frozenset[int] = field(default=frozenset(), compare=False)
    span: Span = field(default=NOWHERE, compare=False, repr=False)
