"""Parse rules files into ``rules_nodes`` trees, with syntax errors as diagnostics.

The grammar is ``grammar/rules.lark`` (LALR, positions on, strict).  A file is split into
its top-level declarations (each starts at column 1) and each is parsed on its own, so a
file with mistakes in three declarations gets three diagnostics in one run.  Lark's
exceptions stop at this module: callers get a ``Program`` and diagnostics, nothing else.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Any, ClassVar

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.lark_cache import cached_lark
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.limits import MAX_NESTING, deepest, position
from decklore.grammar import grammar_text

KEYWORDS = (
    "zone", "counter", "flag", "const", "define", "action", "when", "win", "lose",
    "eliminate", "score", "tiebreak", "game", "setup", "era", "round", "turn", "phase", "step",
    "at", "order", "move", "draw", "shuffle", "reveal", "destroy", "stack", "tuck", "gain",
    "spend", "set", "clear", "pay", "let", "do", "end", "fail", "log", "if", "elif", "else",
    "for", "each", "repeat", "may", "choose", "option", "one", "number", "card", "cards",
    "player", "target", "where", "from", "to", "on", "under", "valued", "times", "until",
    "pass", "while", "keep", "change", "once", "per", "max", "up", "at", "least", "exactly",
    "optional", "face", "top",
    "bottom", "not", "and", "or", "true", "false", "none", "count", "sum", "min", "any",
    "all", "select", "in", "start", "down", "as", "random", "depth",
)  # fmt: skip
STATEMENT_WORDS = ("move", "draw", "shuffle", "reveal", "destroy", "stack", "tuck", "gain",
                   "spend", "set", "clear", "pay", "let", "do", "end", "fail", "log", "if",
                   "for", "repeat", "may", "choose", "as")
DECLARATION_WORDS = ("zone", "counter", "flag", "const", "define", "action", "when", "win",
                     "lose", "eliminate", "score", "tiebreak", "game", "setup", "era", "round",
                     "turn", "phase", "step")


@dataclass(frozen=True)
class _Depth:
    """``at depth N`` while a ``move`` is parsed; folded into its Move node."""

    cards: n.Expr


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@cache
def _parser() -> Lark:
    return cached_lark("rules", grammar_text("rules"), parser="lalr", postlex=_Indenter(),
                       propagate_positions=True, strict=True, maybe_placeholders=True)


def _text(token: Token | None) -> str | None:
    if token is None:
        return None
    return _unquote(str(token)) if token.type == "STRING" else str(token)


def _unquote(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


@v_args(meta=True)
class _Build(Transformer[Token, Any]):
    """Lark tree -> rules nodes.  One method per grammar rule, each a plain constructor."""

    def __init__(self, file: str, offset: int = 0) -> None:
        # No method is named after a token type, so tokens are passed as they are, without
        # a failed method lookup for each.  ``offset`` moves every position down, as a
        # declaration is parsed on its own (``parse_rules``).
        super().__init__(visit_tokens=False)
        self.file = file
        self.offset = offset

    def _s(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 0, 0)
        offset = self.offset
        return Span(self.file, meta.line + offset, meta.column, meta.end_line + offset,
                    meta.end_column)

    def _token_span(self, token: Token) -> Span:
        return Span(self.file, _moved(token.line, self.offset) or 0, token.column or 0,
                    _moved(token.end_line, self.offset) or 0, token.end_column or 0)

    # declarations
    def start(self, meta: Any, items: list[Any]) -> n.Program:
        return n.Program(tuple(items), span=self._s(meta))

    def _state(self, kind: str, meta: Any, items: list[Any]) -> n.StateDecl:
        name, label, options = items
        return n.StateDecl(kind, str(name), _text(label), options, span=self._s(meta))

    def zone_decl(self, meta: Any, items: list[Any]) -> n.StateDecl:
        return self._state("zone", meta, items)

    def counter_decl(self, meta: Any, items: list[Any]) -> n.StateDecl:
        return self._state("counter", meta, items)

    def flag_decl(self, meta: Any, items: list[Any]) -> n.StateDecl:
        return self._state("flag", meta, items)

    def options(self, meta: Any, items: list[Any]) -> tuple[n.Option, ...]:
        return tuple(items)

    def option_item(self, meta: Any, items: list[Any]) -> n.Option:
        name, value = items
        if value is not None and value.type == "INT":
            return n.Option(str(name), int(value), span=self._s(meta))
        return n.Option(str(name), None if value is None else str(value), span=self._s(meta))

    def const_decl(self, meta: Any, items: list[Any]) -> n.ConstDecl:
        return n.ConstDecl(str(items[0]), items[1], span=self._s(meta))

    def define_decl(self, meta: Any, items: list[Any]) -> n.DefineDecl:
        name, params, body, says = items
        return n.DefineDecl(str(name), params, body, says, span=self._s(meta))

    def says_tail(self, meta: Any, items: list[Any]) -> n.Says:
        return n.Says(_unquote(str(items[0])), span=self._token_span(items[0]))

    def says(self, meta: Any, items: list[Any]) -> n.Says:
        return n.Says(_unquote(str(items[0])), span=self._token_span(items[0]))

    def note(self, meta: Any, items: list[Any]) -> n.Note:
        return n.Note(_unquote(str(items[0])), span=self._token_span(items[0]))

    def term(self, meta: Any, items: list[Any]) -> n.Term:
        return n.Term(_unquote(str(items[0])), _unquote(str(items[1])),
                      span=self._token_span(items[1]))

    def action_body(self, meta: Any, items: list[Any]) -> tuple[n.Says, n.Block]:
        says, *statements = items
        return says, tuple(statements)

    def params(self, meta: Any, items: list[Any]) -> tuple[str, ...]:
        return tuple(str(t) for t in items if t is not None)

    def action_decl(self, meta: Any, items: list[Any]) -> n.ActionDecl:
        name, params, label, limit, body = items
        says = None
        if isinstance(body, tuple) and body and isinstance(body[0], n.Says):
            says, body = body
        return n.ActionDecl(str(name), params, _text(label), limit, body, says,
                            span=self._s(meta))

    def limit_once(self, meta: Any, items: list[Any]) -> n.Limit:
        return n.Limit(1, items[0], span=self._s(meta))

    def limit_max(self, meta: Any, items: list[Any]) -> n.Limit:
        return n.Limit(int(items[0]), items[1], span=self._s(meta))

    def flow(self, meta: Any, items: list[Any]) -> n.Flow:
        kind, name, label, *members = items
        return n.Flow(kind, _text(name), _text(label), tuple(members), span=self._s(meta))

    def hook(self, meta: Any, items: list[Any]) -> n.Hook:
        body, says = items[1], None
        if isinstance(body, tuple) and body and isinstance(body[0], n.Says):
            says, body = body
        return n.Hook(items[0], body, says, span=self._s(meta))

    def order(self, meta: Any, items: list[Any]) -> n.Order:
        return n.Order(items[0], span=self._s(meta))

    def trigger(self, meta: Any, items: list[Any]) -> n.Trigger:
        event, *rest = items
        where, body = rest[-2], rest[-1]
        params = tuple(str(t) for t in rest[:-2] if t is not None)
        says = None
        if isinstance(body, tuple) and body and isinstance(body[0], n.Says):
            says, body = body
        return n.Trigger(str(event), params, where, body, says, span=self._s(meta))

    def outcome(self, meta: Any, items: list[Any]) -> n.Outcome:
        kind, player, condition, label, says = items
        return n.Outcome(kind, str(player), condition, _text(label), says, span=self._s(meta))

    def score_decl(self, meta: Any, items: list[Any]) -> n.ScoreDecl:
        return n.ScoreDecl(str(items[0]), items[1], items[2], span=self._s(meta))

    def tiebreak_decl(self, meta: Any, items: list[Any]) -> n.TiebreakDecl:
        return n.TiebreakDecl(tuple(items), span=self._s(meta))

    # keyword rules kept with '!': the words themselves
    def _word(self, meta: Any, items: list[Any]) -> str:
        return " ".join(str(t) for t in items)

    flow_kind = hook_time = period = outcome_kind = choice_kind = aggregate_kind = _word
    compare_op = add_op = mul_op = _word

    def facing(self, meta: Any, items: list[Any]) -> str:
        return str(items[1])

    def at_end(self, meta: Any, items: list[Any]) -> str:
        return str(items[1])

    def at_depth(self, meta: Any, items: list[Any]) -> _Depth:
        return _Depth(items[0])

    def optional(self, meta: Any, items: list[Any]) -> bool:
        return True

    # statements
    def block(self, meta: Any, items: list[Any]) -> n.Block:
        return tuple(items)

    def owner_player(self, meta: Any, items: list[Any]) -> n.Owner:
        return n.Owner("player", items[0], span=self._s(meta))

    def owner_card(self, meta: Any, items: list[Any]) -> n.Owner:
        return n.Owner("card", items[0], span=self._s(meta))

    def move(self, meta: Any, items: list[Any]) -> n.Move:
        what, to, facing, position = items
        if isinstance(position, _Depth):
            return n.Move(what, to, facing, "depth", position.cards, span=self._s(meta))
        return n.Move(what, to, facing, position, span=self._s(meta))

    def draw(self, meta: Any, items: list[Any]) -> n.Draw:
        count, source, to, facing = items
        return n.Draw(count, source, to, facing, span=self._s(meta))

    def shuffle(self, meta: Any, items: list[Any]) -> n.Shuffle:
        return n.Shuffle(items[0], span=self._s(meta))

    def reveal(self, meta: Any, items: list[Any]) -> n.Reveal:
        return n.Reveal(items[0], items[1], span=self._s(meta))

    def destroy(self, meta: Any, items: list[Any]) -> n.Destroy:
        return n.Destroy(items[0], items[1], span=self._s(meta))

    def stack(self, meta: Any, items: list[Any]) -> n.Stack:
        return n.Stack(items[0], items[1], span=self._s(meta))

    def tuck(self, meta: Any, items: list[Any]) -> n.Tuck:
        return n.Tuck(items[0], items[1], span=self._s(meta))

    def gain(self, meta: Any, items: list[Any]) -> n.Gain:
        return n.Gain(items[0], str(items[1]), items[2], span=self._s(meta))

    def spend(self, meta: Any, items: list[Any]) -> n.Spend:
        return n.Spend(items[0], str(items[1]), items[2], span=self._s(meta))

    def set_stmt(self, meta: Any, items: list[Any]) -> n.SetValue:
        return n.SetValue(str(items[0]), items[1], items[2], span=self._s(meta))

    def clear(self, meta: Any, items: list[Any]) -> n.Clear:
        return n.Clear(str(items[0]), items[1], span=self._s(meta))

    def pay(self, meta: Any, items: list[Any]) -> n.Pay:
        amount, *sources, change = items
        return n.Pay(amount, tuple(sources), change, span=self._s(meta))

    def change(self, meta: Any, items: list[Any]) -> n.Change:
        return n.Change(str(items[0]), items[1], span=self._s(meta))

    def pay_source(self, meta: Any, items: list[Any]) -> n.PaySource:
        return n.PaySource(items[0], items[1], span=self._s(meta))

    def let(self, meta: Any, items: list[Any]) -> n.Let:
        return n.Let(str(items[0]), items[1], span=self._s(meta))

    def do(self, meta: Any, items: list[Any]) -> n.Do:
        return n.Do(str(items[0]), items[1] or (), span=self._s(meta))

    def end_stmt(self, meta: Any, items: list[Any]) -> n.End:
        return n.End(items[0], span=self._s(meta))

    def fail(self, meta: Any, items: list[Any]) -> n.Fail:
        return n.Fail(_unquote(str(items[0])), span=self._s(meta))

    def log(self, meta: Any, items: list[Any]) -> n.Log:
        return n.Log(_unquote(str(items[0])), span=self._s(meta))

    def if_stmt(self, meta: Any, items: list[Any]) -> n.If:
        condition, body, *elifs, orelse = items  # the last slot is the else block or None
        return n.If(((condition, body), *elifs), orelse, span=self._s(meta))

    def elif_clause(self, meta: Any, items: list[Any]) -> tuple[n.Expr, n.Block]:
        return (items[0], items[1])

    def else_clause(self, meta: Any, items: list[Any]) -> n.Block:
        body: n.Block = items[0]
        return body

    def for_each(self, meta: Any, items: list[Any]) -> n.ForEach:
        return n.ForEach(str(items[0]), items[1], items[2], items[3], span=self._s(meta))

    def repeat_times(self, meta: Any, items: list[Any]) -> n.RepeatTimes:
        return n.RepeatTimes(items[0], items[1], span=self._s(meta))

    def repeat_while(self, meta: Any, items: list[Any]) -> n.RepeatWhile:
        return n.RepeatWhile(items[0], items[1], span=self._s(meta))

    def repeat_pass(self, meta: Any, items: list[Any]) -> n.RepeatPass:
        guard, label, body = items
        return n.RepeatPass(_text(label), body, guard, span=self._s(meta))

    def may(self, meta: Any, items: list[Any]) -> n.May:
        return n.May(_text(items[0]), items[1], span=self._s(meta))

    def as_player(self, meta: Any, items: list[Any]) -> n.AsPlayer:
        return n.AsPlayer(items[0], items[1], span=self._s(meta))

    def choose(self, meta: Any, items: list[Any]) -> n.Choose:
        kind, var, source, where, count, label, optional, body = items
        return n.Choose(kind, str(var), source, where, count, _text(label), bool(optional),
                        body, span=self._s(meta))

    def choose_number(self, meta: Any, items: list[Any]) -> n.ChooseNumber:
        var, low, high, where, label, body = items
        return n.ChooseNumber(str(var), low, high, where, _text(label), body,
                              span=self._s(meta))

    def up_to(self, meta: Any, items: list[Any]) -> n.CountRange:
        return n.CountRange("up to", items[0], span=self._s(meta))

    def at_least(self, meta: Any, items: list[Any]) -> n.CountRange:
        return n.CountRange("at least", items[0], span=self._s(meta))

    def exactly(self, meta: Any, items: list[Any]) -> n.CountRange:
        return n.CountRange("exactly", items[0], span=self._s(meta))

    def choose_one(self, meta: Any, items: list[Any]) -> n.ChooseOne:
        return n.ChooseOne(_text(items[0]), tuple(items[1:]), span=self._s(meta))

    def choice_option(self, meta: Any, items: list[Any]) -> n.ChoiceOption:
        name, label, when, limit, body = items
        return n.ChoiceOption(str(name), _text(label), when, limit, body, span=self._s(meta))

    # expressions
    def if_expr(self, meta: Any, items: list[Any]) -> n.IfExpr:
        then, condition, orelse = items
        return n.IfExpr(condition, then, orelse, span=self._s(meta))

    def _chain(self, op: str, meta: Any, items: list[Any]) -> n.Expr:
        result: n.Expr = items[0]
        for item in items[1:]:
            result = n.Binary(op, result, item, span=self._s(meta))
        return result

    def or_expr(self, meta: Any, items: list[Any]) -> n.Expr:
        return self._chain("or", meta, items)

    def and_expr(self, meta: Any, items: list[Any]) -> n.Expr:
        return self._chain("and", meta, items)

    def not_expr(self, meta: Any, items: list[Any]) -> n.Unary:
        return n.Unary("not", items[0], span=self._s(meta))

    def neg(self, meta: Any, items: list[Any]) -> n.Expr:
        operand = items[0]
        if isinstance(operand, n.IntLit):
            return n.IntLit(-operand.value, span=self._s(meta))
        return n.Unary("-", operand, span=self._s(meta))

    def compare(self, meta: Any, items: list[Any]) -> n.Binary:
        return n.Binary(items[1], items[0], items[2], span=self._s(meta))

    def _arith(self, meta: Any, items: list[Any]) -> n.Expr:
        result: n.Expr = items[0]
        for op, right in zip(items[1::2], items[2::2], strict=True):
            result = n.Binary(op, result, right, span=self._s(meta))
        return result

    sum = product = _arith

    def attribute(self, meta: Any, items: list[Any]) -> n.Attribute:
        return n.Attribute(items[0], str(items[1]), span=self._s(meta))

    def int_lit(self, meta: Any, items: list[Any]) -> n.IntLit:
        text = str(items[0])
        if len(text) > 9:
            raise _SyntaxProblem("number is too large", "use a number below one billion",
                                 items[0])
        return n.IntLit(int(text), span=self._s(meta))

    def str_lit(self, meta: Any, items: list[Any]) -> n.StrLit:
        return n.StrLit(_unquote(str(items[0])), span=self._s(meta))

    def true_lit(self, meta: Any, items: list[Any]) -> n.BoolLit:
        return n.BoolLit(True, span=self._s(meta))

    def false_lit(self, meta: Any, items: list[Any]) -> n.BoolLit:
        return n.BoolLit(False, span=self._s(meta))

    def none_lit(self, meta: Any, items: list[Any]) -> n.NoneLit:
        return n.NoneLit(span=self._s(meta))

    def name(self, meta: Any, items: list[Any]) -> n.Name:
        return n.Name(str(items[0]), span=self._s(meta))

    def call(self, meta: Any, items: list[Any]) -> n.Call:
        return n.Call(str(items[0]), items[1], span=self._s(meta))

    def args(self, meta: Any, items: list[Any]) -> tuple[n.Expr, ...]:
        return tuple(item for item in items if item is not None)

    def aggregate(self, meta: Any, items: list[Any]) -> n.Aggregate:
        func, element, var, source, where = items
        return n.Aggregate(func, element, str(var), source, where, span=self._s(meta))


class _SyntaxProblem(Exception):
    def __init__(self, message: str, hint: str, token: Token) -> None:
        super().__init__(message)
        self.message, self.hint, self.token = message, hint, token


def _chunks(text: str) -> list[tuple[int, str]]:
    """Split a file into top-level declarations: (first line number, text).

    A declaration starts on a line at column 1, unless that line continues an open
    bracket or a backslash-continued line.
    """
    lines = text.split("\n")
    starts = []
    depth = 0
    continued = False
    for i, line in enumerate(lines):
        if (depth == 0 and not continued and line[:1] not in ("", " ", "\t", "#")
                and not line.startswith(("elif", "else"))):
            starts.append(i)
        code = _strip_strings_and_comment(line)
        depth = max(depth + code.count("(") - code.count(")"), 0)
        continued = code.rstrip().endswith("\\")
    if not starts:
        return []
    bounds = [*starts, len(lines)]
    return [(start + 1, "\n".join(lines[start:end]))
            for start, end in pairwise(bounds)]


def _comment_column(line: str) -> int | None:
    """Where a line's comment starts (0-based), or None: a '#' outside strings.

    Inside a string a backslash escapes the next character, so in ``"\\\\" "#"`` the first
    string ends at its second quote (the backslash before it is itself escaped) and the
    '#' is text, not a comment.
    """
    if "#" not in line:  # most lines, read without a walk over their characters
        return None
    if '"' not in line:
        return line.index("#")
    quoted = escaped = False
    for col, char in enumerate(line):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            return col
    return None


def _strip_strings_and_comment(line: str) -> str:
    """The line without its strings and its comment (what brackets are counted in)."""
    if '"' not in line:  # no string: only a comment to cut, if there is one
        return line.partition("#")[0]
    out = []
    quoted = escaped = False
    for char in line:
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            break
        elif not quoted:
            out.append(char)
    return "".join(out)


def comments_of(text: str) -> tuple[tuple[int, int, str], ...]:
    """Every comment in the text as (line, column, text), skipping '#' inside strings."""
    found: list[tuple[int, int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        col = _comment_column(line)
        if col is not None:
            found.append((number, col + 1, line[col:].rstrip()))
    return tuple(found)


def parse_rules(text: str, file: str, diags: Diagnostics) -> n.Program:
    """Parse a rules file; every syntax error found becomes a diagnostic."""
    declarations: list[n.Declaration] = []
    for first_line, chunk in _chunks(text.replace("\r\n", "\n")):
        # Parsed on its own and moved to its line afterwards: padding each declaration
        # with the newlines before it made a file of N declarations cost N² to lex.
        offset = first_line - 1
        source = chunk + "\n"
        try:
            tree = _parser().parse(source)
            depth, node = deepest(tree)
            if depth > MAX_NESTING:  # later stages recurse: refuse before they do
                line, column = position(node)
                diags.error("R003", f"this declaration nests too deeply ({depth} levels; the "
                            f"limit is {MAX_NESTING})", Span(file, line + offset, column),
                            "split long sums and conditions into named defines, and deep "
                            "blocks into separate actions")
                continue
            program = _Build(file, offset).transform(tree)
        except VisitError as exc:  # Lark wraps errors raised inside the transformer
            problem = exc.orig_exc
            if not isinstance(problem, _SyntaxProblem):
                raise
            token = problem.token
            diags.error("R001", problem.message,
                        Span(file, _moved(token.line, offset) or 1, token.column or 1),
                        problem.hint)
            continue
        except DedentError:
            diags.error("R002", "this line's indentation matches no enclosing block",
                        Span(file, _dedent_line(source) + offset, 1),
                        "indent it exactly like the block it belongs to")
            continue
        except UnexpectedInput as exc:
            found = _syntax_error(exc, source, file)
            diags.items.append(dataclasses.replace(found, span=found.span.shifted(offset, 0)))
            continue
        declarations.extend(program.declarations)
    blanks = frozenset(i for i, line in enumerate(text.split("\n"), start=1)
                       if not line.strip())
    return n.Program(tuple(declarations), comments_of(text), blanks, Span(file, 1, 1))


def _moved(line: int | None, offset: int) -> int | None:
    """A token's line in its file, from its line in the declaration parsed on its own."""
    return None if line is None else line + offset


def _dedent_line(text: str) -> int:
    widths: list[int] = [0]
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.expandtabs(_Indenter.tab_len)
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        width = len(line) - len(line.lstrip())
        if width > widths[-1]:
            widths.append(width)
        else:
            while widths and width < widths[-1]:
                widths.pop()
            if not widths or width != widths[-1]:
                return number
    return 1


_EXPECT_WORDS = {
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "_NL": "the end of the line",
    "_INDENT": "an indented block", "_DEDENT": "the end of the block", "COLON": "':'",
    "LPAR": "'('", "RPAR": "')'", "COMMA": "','", "DOT": "'.'", "EQUAL": "'='",
    "$END": "the end of the file",
}


@cache
def _terminal_text() -> dict[str, str]:
    """What each unnamed terminal ('..', '!=') stands for, for messages."""
    out: dict[str, str] = {}
    for terminal in _parser().terminals:
        if terminal.pattern.type == "str":
            out[terminal.name] = f"'{terminal.pattern.value}'"
    return out


def _expected(names: set[str] | frozenset[str]) -> str:
    """The tokens a parser state accepts, most telling first: closing brackets and line
    ends, then values, then keywords, then operators; long lists end in '...'."""
    words: set[str] = set()
    for name in names:
        if name in _EXPECT_WORDS:
            words.add(_EXPECT_WORDS[name])
        elif name in _terminal_text():
            words.add(_terminal_text()[name])
        elif name.isupper() and name.isalpha() and name.lower() in KEYWORDS:
            words.add(f"'{name.lower()}'")
        else:
            words.add(name.lower())

    def rank(word: str) -> tuple[int, str]:
        if word in ("')'", "':'", "']'", "'..'", "the end of the line", "an indented block"):
            return (0, word)
        if not word.startswith("'"):
            return (1, word)
        if word[1:-1].isalpha():
            return (2, word)
        return (3, word)

    ordered = sorted(words, key=rank)
    if len(ordered) > 6:
        ordered = [*ordered[:6], "..."]
    return ordered[0] if len(ordered) == 1 else ", ".join(ordered[:-1]) + " or " + ordered[-1]


def _syntax_error(exc: UnexpectedInput, text: str, file: str) -> Any:
    from decklore.compiler.diagnostics import Diagnostic, Severity

    line, column = max(exc.line, 1), max(exc.column, 1)

    def make(message: str, hint: str, col: int = column, ln: int = line) -> Diagnostic:
        return Diagnostic(Severity.ERROR, "R001", message, Span(file, ln, col), hint)

    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else "?"
        if char == "=" and text[pos:pos + 2] == "==":
            return make("'==' is not an operator here", "compare with a single '='")
        if char == "'":
            return make("texts are quoted with double quotes", 'write "like this"')
        if char == '"':
            return make("this text has no closing quote",
                        'end the text with " on the same line')
        return make(f"unexpected character {char!r}",
                    "names are lowercase letters, digits and '_'; texts are in double quotes")
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    expected = exc.accepts or exc.expected
    found = str(token)
    if token.type == "_INDENT":
        return make("unexpected indentation", "indent only the lines of a block, after a "
                    "line ending in ':'", col=token.end_column or column,
                    ln=token.end_line or line)
    if token.type == "EQUAL" and (token.start_pos or 0) > 0 and \
            text[(token.start_pos or 0) - 1] == "=":
        return make("'==' is not an operator", "compare with a single '='", col=column - 1)
    if found == "if" and text[:token.start_pos].rstrip().endswith("else"):
        at = text.rfind("else", 0, token.start_pos or 0)
        return make("'else if' is written 'elif'", "write 'elif CONDITION:'",
                    col=at - (text.rfind("\n", 0, at) + 1) + 1)
    if token.type == "_NL" and "COLON" in expected:
        return make("a block header ends with ':'", "add ':' at the end of the line",
                    col=column)
    if token.type in ("_NL", "_DEDENT") and "_INDENT" in expected:
        return make("expected an indented block after ':'",
                    "indent the lines that belong to this block")
    if token.type == "EQUAL" and "TO" in expected:
        return make("'set' takes 'to', not '='", "write 'set NAME to VALUE'")
    before = text[:token.start_pos or 0].rstrip()
    if "_NL" in expected and before.endswith(":") and token.type not in ("_NL", "$END"):
        return make("a block starts on the next line", "put the statements on their own "
                    "lines below, indented")
    if found in ("+", "-") and text[(token.start_pos or 0) + 1:(token.start_pos or 0) + 2] == "=":
        return make(f"'{found}=' is not a statement", "change counters with 'gain N NAME' or "
                    "'spend N NAME'", col=column)
    if token.type == "NAME":
        words = [w.lower() for w in expected if w.isupper() and w.lower() in KEYWORDS]
        if found in ("else", "if") and "ELIF" in expected:
            words = ["elif"]
        hint = suggest(found, words) if words else ""
        if not hint and found in ("elseif", "elsif"):
            hint = "did you mean 'elif'?"
        top_level = column == 1 and "ZONE" in expected
        if top_level:
            hint = suggest(found, DECLARATION_WORDS) or (
                "a rules file holds declarations: " + ", ".join(DECLARATION_WORDS[:6]) + ", ...")
            return make(f"unknown declaration '{found}'", hint)
        if "MOVE" in expected and found not in KEYWORDS:
            hint = suggest(found, STATEMENT_WORDS) or hint
            return make(f"unknown statement '{found}'", hint or
                        "a statement starts with a word such as move, draw, gain, choose, if")
        return make(f"unexpected '{found}': expected {_expected(expected)}",
                    hint or "see docs/rules-language.md")
    what = "end of line" if token.type == "_NL" else (
        "end of block" if token.type == "_DEDENT" else f"'{found}'")
    if token.type == "$END":
        what = "end of file"
    if token.type == "COMMA" and text[:token.start_pos or 0].rstrip().split("(")[0].endswith(
            ("min", "max")):
        return make("min and max go through a collection", "for two numbers write "
                    "lesser(a, b) or greater(a, b)")
    return make(f"unexpected {what}: expected {_expected(expected)}",
                "see docs/rules-language.md")
