"""Parse symbol notation (``"progress, 2 military[A] - harvest"``) into located items.

The grammar lives in ``grammar/symbols.lark``.  Parsing is memoised on the text, because
a pack repeats the same few notations on many cards; results carry positions relative to
the notation text, and the caller shifts them to the file.  A big pack still has thousands
of distinct notations, and Lark spends about 0.2 ms on each, so a well-formed one-line
notation is read by ``_read_list``, a small reader of the same grammar that gives the same
items and positions, and gives up on anything else; Lark stays the authority for every
text the reader gives up on, so every error message comes from one place
(``tests/test_symbol_notation.py`` checks that the two agree).  Lark's exceptions stop here:
callers only ever see ``SymbolItem``/``SymbolValue`` nodes or ``NotationError`` values.

Messages and hints name no game: they are templates whose examples (``{a}[A]``, ``2 {b}``) are
filled, by ``NotationError.worded``, with the symbols of the pack being checked and its word
for stacking, so a pack of coins and swords is not told to write ``military[A]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from decklore.compiler.diagnostics import Span
from decklore.compiler.lark_cache import cached_lark
from decklore.grammar import grammar_text

MAX_COUNT = 99
"""No card shows more than this many of one symbol; larger counts are typos or attacks."""


@dataclass(frozen=True, slots=True)
class SymbolItem:
    """One symbol shown on a card, with its count, argument, lock and receiver."""

    symbol: str
    count: int = 1
    argument: str | None = None
    lock: str | None = None
    receiver: str | None = None
    per_stacked: bool = False
    span: Span = field(default=Span("", 1, 1), compare=False)
    name_span: Span = field(default=Span("", 1, 1), compare=False)
    argument_span: Span | None = field(default=None, compare=False)
    receiver_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SymbolList:
    """All symbols of a card, and whether the notation had a stacking dash."""

    items: tuple[SymbolItem, ...]
    has_dash: bool = False
    dash_span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SymbolValue:
    """A symbol with a value and a bonus per stacked card, such as a defense ``ruin 2 +3``."""

    symbol: str
    value: int | None
    per_stacked: int
    span: Span = field(default=Span("", 1, 1), compare=False)
    name_span: Span = field(default=Span("", 1, 1), compare=False)


@dataclass(frozen=True, slots=True)
class NotationError:
    """A syntax error in a notation, positioned relative to the notation text.

    ``message`` and ``hint`` are templates over the words of ``notation_words`` (parsing is
    memoised on the text alone, so the pack's words are put in afterwards by ``worded``).
    """

    message: str
    hint: str
    line: int
    column: int

    def worded(self, words: Mapping[str, str]) -> tuple[str, str]:
        """The message and hint in the words of one pack (see ``notation_words``)."""
        return self.message.format_map(words), self.hint.format_map(words)


def notation_words(symbols: Iterable[tuple[str, str, str]], verb: str | None) -> dict[str, str]:
    """The examples a notation message uses, from one pack: its symbols as (id, argument,
    receiver) in pack order, and its stacking verb (None: the pack declares no stacking).

    ``a`` and ``b`` are its first two symbols; ``argued`` a symbol written with its argument
    (``key(B)``, ``block(coin)``); ``aimed`` a symbol that acts on someone else; ``dash`` and
    ``a_dash`` the name of the dash that splits what a card gives once from what each card
    stacked on it adds (ERA's "flourish dash").
    """
    listed = list(symbols)
    ids = [sid for sid, _, _ in listed] or ["symbol"]
    a, b = ids[0], ids[1] if len(ids) > 1 else ids[0]
    argued = f"{a}(B)"
    for sid, argument, _ in listed:
        if argument == "lock":
            argued = f"{sid}(B)"
            break
        if argument == "symbol":
            argued = f"{sid}({next((o for o in ids if o != sid), sid)})"
            break
    aimed = next((sid for sid, _, receiver in listed if receiver not in ("self", "")), a)
    dash = f"{verb} dash" if verb else "stacking dash"
    article = "an" if dash[:1].lower() in "aeiou" else "a"
    return {"a": a, "b": b, "argued": argued, "aimed": aimed, "dash": dash,
            "a_dash": f"{article} {dash}"}


def _literal(text: str) -> str:
    """Text from the notation itself, made safe to stand in a message template."""
    return text.replace("{", "{{").replace("}", "}}")


@cache
def _parser() -> Lark:
    return cached_lark(
        "symbols",
        grammar_text("symbols"),
        parser="lalr",
        start=["symbol_list", "symbol_value"],
        propagate_positions=True,
        strict=True,
        maybe_placeholders=False,
    )


# Typical mistakes, matched against the parser state of a real error (Lark's match_examples).
_LIST_MISTAKES: dict[tuple[str, str], list[str]] = {
    ("a lock is one capital letter in brackets",
     "write the lock as {a}[A]"): ["s[a]", "s[AB]", "s[]"],
    ("a count must be followed by its symbol name",
     "write the count before the symbol, as in '2 {b}'"):
        ["s 2", "2", "2,"],
    ("an argument in brackets is not closed",
     "close the bracket, as in {argued}"): ["k(B", "k(s"],
    ("a card has at most one {dash}",
     "keep one ' - ': left of it what the card gives once, right of it what each card "
     "stacked on it adds"):
        ["s - t - u", "- -"],
    ("an effect arrow needs a receiver",
     "write '-> opponent' or '-> self' after the symbol"): ["k(B) ->", "s ->,"],
    ("an effect arrow must follow a symbol",
     "write the arrow after the symbol it belongs to, as in '{aimed} -> opponent'"):
        ["-> opponent", "s, -> opponent"],
}  # fmt: skip
"""Each mistake's message and hint (templates over ``notation_words``), with example texts
that make it; the examples' names stand for any symbol: only their syntax matters."""


def _variants(table: dict[tuple[str, str], list[str]]) -> dict[tuple[str, str], list[str]]:
    """Each example also after earlier items and a dash, and with a count.

    Lark matches an error to an example by the whole parser state, stack depth included,
    so a mistake in the third item needs an example with items before it.
    """
    out: dict[tuple[str, str], list[str]] = {}
    for label, examples in table.items():
        grown: list[str] = []
        for example in examples:
            bodies = [example] + ([f"2 {example}"] if example[:1].isalpha() else [])
            for prefix in ("", "s, ", "2 s, ", "s - ", "k(A), "):
                grown += [prefix + body for body in bodies]
        out[label] = grown
    return out


_LIST_MISTAKES = _variants(_LIST_MISTAKES)

_VALUE_MISTAKES: dict[tuple[str, str], list[str]] = {
    ("a value starts with its symbol", "write the symbol first, as in '{a} 2 +3'"):
        ["2 s", "2", ""],
    ("a bonus needs a number after '+'", "write the bonus as '+3'"): ["s 2 +", "s +"],
}  # fmt: skip

_WORDS = {
    "NAME": "a symbol name", "COUNT": "a number", "LETTER": "a capital letter",
    "DASH": "{a_dash} '-'", "ARROW": "an arrow '->'", "PLUS": "'+'",
    "COMMA": "','", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'",
    "$END": "the end of the text",
}  # fmt: skip


def _expected_words(expected: set[str] | frozenset[str]) -> str:
    # In a fixed order whatever the pack calls its dash: the dash sorts as "a dash".
    words = sorted({_WORDS.get(name, name.lower()) for name in expected},
                   key=lambda word: word.replace("{a_dash}", "a dash"))
    if not words:
        return "nothing more"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@cache
def _example_errors(start: str) -> tuple[tuple[tuple[str, str], UnexpectedToken], ...]:
    """The parser error each example mistake raises, computed once."""
    mistakes = _LIST_MISTAKES if start == "symbol_list" else _VALUE_MISTAKES
    found: list[tuple[tuple[str, str], UnexpectedToken]] = []
    for label, examples in mistakes.items():
        for example in examples:
            try:
                _parser().parse(example, start=start)
            except UnexpectedToken as error:
                found.append((label, error))
            except UnexpectedInput:
                continue
    return tuple(found)


def _label(exc: UnexpectedInput, start: str) -> tuple[str, str] | None:
    """The typical mistake matching this error, if one matches exactly.

    Like Lark's ``match_examples``, an example matches by parser state and acceptable
    tokens; unlike it, the unexpected token's type must match too, and a stray character
    never takes a label, so a message never describes a different mistake.
    """
    if not isinstance(exc, UnexpectedToken):
        return None
    for label, error in _example_errors(start):
        if (error.state == exc.state and error.accepts == exc.accepts
                and error.token.type == exc.token.type):
            return label
    return None


def _translate(exc: UnexpectedInput, text: str, start: str) -> NotationError:
    line, column = max(exc.line, 1), max(exc.column, 1)
    if isinstance(exc, UnexpectedEOF):
        line, column = _end_position(text)
    label = _label(exc, start)
    if label is not None:
        message, hint = label
        return NotationError(message, hint, line, column)
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else "?"
        if char == ">" and text[pos - 1:pos] == "-":
            return NotationError(
                "an effect arrow must follow a symbol",
                "write the arrow after the symbol it belongs to, as in '{aimed} -> opponent'",
                line, max(column - 1, 1),
            )
        return NotationError(
            f"unexpected character {_literal(repr(char))}",
            "symbol names are lowercase ({a}, 2 {b}); locks are one capital letter "
            "in brackets ({a}[A])",
            line,
            column,
        )
    if isinstance(exc, UnexpectedToken):
        found = ("the end of the text" if exc.token.type == "$END"
                 else _literal(repr(str(exc.token))))
        return NotationError(
            f"unexpected {found}: expected {_expected_words(exc.accepts or exc.expected)}",
            "see 'Symbol notation' in docs/pack-format.md",
            line,
            column,
        )
    return NotationError("incomplete symbol notation", "finish the notation", line, column)


def _end_position(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _span(meta: object, file: str = "") -> Span:
    return Span(
        file,
        getattr(meta, "line", 1),
        getattr(meta, "column", 1),
        getattr(meta, "end_line", 1),
        getattr(meta, "end_column", 1),
    )


def _token_span(token: Token) -> Span:
    return Span("", token.line or 1, token.column or 1, token.end_line or 1, token.end_column or 1)


def _item(tree: Tree[Token], per_stacked: bool) -> SymbolItem | NotationError:
    count = 1
    symbol = ""
    name_span = _span(tree.meta)
    argument: str | None = None
    argument_span: Span | None = None
    lock: str | None = None
    receiver: str | None = None
    receiver_span: Span | None = None
    for child in tree.children:
        if isinstance(child, Token):
            if child.type == "COUNT":
                count = int(child) if len(child) <= 4 else MAX_COUNT + 1
                if not 1 <= count <= MAX_COUNT:
                    return NotationError(
                        f"count {child} is out of range", f"use a count from 1 to {MAX_COUNT}",
                        child.line or 1, child.column or 1,
                    )
            elif child.type == "NAME":
                symbol = str(child)
                name_span = _token_span(child)
        elif child.data == "argument":
            token = child.children[0]
            assert isinstance(token, Token)
            argument, argument_span = str(token), _token_span(token)
        elif child.data == "lock":
            token = child.children[0]
            assert isinstance(token, Token)
            lock = str(token)
        elif child.data == "arrow":
            token = child.children[1]
            assert isinstance(token, Token)
            receiver, receiver_span = str(token), _token_span(token)
    return SymbolItem(symbol, count, argument, lock, receiver, per_stacked,
                      _span(tree.meta), name_span, argument_span, receiver_span)


_NAME = r"(?:[a-z][a-z0-9_]*:)?[a-z][a-z0-9_]*"
_ITEM = re.compile(rf"""[ \t\f]*
    (?:(?P<count>[0-9]+)[ \t\f]*)? (?P<name>{_NAME})
    (?:[ \t\f]*\([ \t\f]*(?P<argument>[A-Z]|{_NAME})[ \t\f]*\))?
    (?:[ \t\f]*\[[ \t\f]*(?P<lock>[A-Z])[ \t\f]*\])?
    (?:[ \t\f]*->[ \t\f]*(?P<receiver>{_NAME}))?""", re.VERBOSE)
"""One item, ``COUNT? NAME argument? lock? arrow?``, by the terminals of ``symbols.lark``."""
_GAP = re.compile(r"[ \t\f]*(?:(?P<comma>,)|(?P<dash>[-\u2013\u2014])(?!>)|(?P<end>\Z))?")
"""What may stand between items: a comma, the dash, or the end of the text."""
_VALUE = re.compile(rf"""[ \t\f]*(?P<name>{_NAME})(?:[ \t\f]*(?P<value>[0-9]+))?
    (?:[ \t\f]*(?P<plus>\+)[ \t\f]*(?P<bonus>[0-9]+))?[ \t\f]*\Z""", re.VERBOSE)
"""A whole ``symbol_value``: ``NAME COUNT? (PLUS COUNT)?``."""


def _place(found: re.Match[str], group: str) -> Span:
    """The span of one group of a one-line notation, 1-based as Lark counts columns."""
    return _columns(*found.span(group))


@lru_cache(maxsize=4096)
def _columns(start: int, end: int) -> Span:
    """The span of characters ``start:end`` of a one-line notation. Spans are immutable,
    and the same few recur in every notation, so each is made once and shared."""
    return Span("", 1, start + 1, 1, end + 1)


def _read_list(text: str) -> SymbolList | None:
    """A well-formed one-line symbol list, read without Lark; None to let Lark read it.

    Follows ``symbol_list: group? (DASH group?)?`` and ``group: item (","? item)*``, an item
    at a time, with spans as Lark's positions give them: an item runs from its first token
    to its last, brackets included. Anything else (a line break, a stray character, a count
    out of range, a comma or dash out of place) gives None.
    """
    if "\n" in text or "\r" in text:
        return None
    items: list[SymbolItem] = []
    per_stacked = False
    dash_span: Span | None = None
    pos = 0
    need_item = False  # after a comma
    while True:
        found = _ITEM.match(text, pos)
        if found is not None:
            count_text = found.group("count")
            count = 1
            if count_text is not None:
                count = int(count_text) if len(count_text) <= 4 else MAX_COUNT + 1
                if not 1 <= count <= MAX_COUNT:
                    return None
            argument, receiver = found.group("argument"), found.group("receiver")
            items.append(SymbolItem(
                found.group("name"), count, argument, found.group("lock"), receiver,
                per_stacked, _columns(found.start("count" if count_text else "name"),
                                      found.end()),
                _place(found, "name"), _place(found, "argument") if argument else None,
                _place(found, "receiver") if receiver else None))
            pos = found.end()
            need_item = False
            continue
        gap = _GAP.match(text, pos)
        assert gap is not None  # every part of it is optional
        if gap.group("end") is not None:
            return None if need_item else SymbolList(tuple(items), per_stacked, dash_span)
        if gap.group("comma") is not None:
            if need_item or not items or items[-1].per_stacked != per_stacked:
                return None  # a comma must stand between two items of one group
            need_item = True
        elif gap.group("dash") is not None:
            if per_stacked or need_item:
                return None
            per_stacked, dash_span = True, _place(gap, "dash")
        else:
            return None
        pos = gap.end()


def _read_value(text: str) -> SymbolValue | None:
    """A well-formed one-line ``symbol_value``, read without Lark; None to let Lark read it."""
    found = None if "\n" in text or "\r" in text else _VALUE.match(text)
    if found is None:
        return None
    value, bonus = found.group("value"), found.group("bonus")
    if any(number is not None and len(number) > 4 for number in (value, bonus)):
        return None
    last = "bonus" if bonus is not None else "value" if value is not None else "name"
    return SymbolValue(found.group("name"), int(value) if value is not None else None,
                       int(bonus) if bonus is not None else 0,
                       _columns(found.start("name"), found.end(last)),
                       _place(found, "name"))


@lru_cache(maxsize=4096)
def parse_symbol_list(text: str) -> SymbolList | NotationError:
    """Parse a card's symbols; positions are relative to ``text`` (file name empty)."""
    quick = _read_list(text)
    if quick is not None:
        return quick
    return lark_symbol_list(text)


def lark_symbol_list(text: str) -> SymbolList | NotationError:
    """``parse_symbol_list`` by Lark alone: the authority the quick reader is checked on."""
    try:
        tree = _parser().parse(text, start="symbol_list")
    except UnexpectedInput as exc:
        return _translate(exc, text, "symbol_list")
    items: list[SymbolItem] = []
    per_stacked = False
    dash_span: Span | None = None
    for child in tree.children:
        if isinstance(child, Token):  # the dash
            per_stacked = True
            dash_span = _token_span(child)
            continue
        for item_tree in child.children:
            assert isinstance(item_tree, Tree)
            item = _item(item_tree, per_stacked)
            if isinstance(item, NotationError):
                return item
            items.append(item)
    return SymbolList(tuple(items), per_stacked, dash_span)


@lru_cache(maxsize=1024)
def parse_symbol_value(text: str) -> SymbolValue | NotationError:
    """Parse a value such as ``ruin 2 +3``; positions are relative to ``text``."""
    quick = _read_value(text)
    if quick is not None:
        return quick
    return lark_symbol_value(text)


def lark_symbol_value(text: str) -> SymbolValue | NotationError:
    """``parse_symbol_value`` by Lark alone, like ``lark_symbol_list``."""
    try:
        tree = _parser().parse(text, start="symbol_value")
    except UnexpectedInput as exc:
        return _translate(exc, text, "symbol_value")
    tokens = [t for t in tree.children if isinstance(t, Token)]
    name = tokens[0]
    numbers = [t for t in tokens if t.type == "COUNT"]
    for number in numbers:
        if len(number) > 4:
            return NotationError(f"value {number} is out of range", "use a value up to 9999",
                                 number.line or 1, number.column or 1)
    value = int(numbers[0]) if numbers and tokens[1].type == "COUNT" else None
    bonus = int(numbers[-1]) if any(t.type == "PLUS" for t in tokens) else 0
    return SymbolValue(str(name), value, bonus, _span(tree.meta), _token_span(name))
