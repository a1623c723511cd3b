"""Print a rules program in canonical form: two-space blocks, one statement a line.

``decklore fmt`` uses this.  The printed text parses back to an equal program (spans
aside) and printing it again changes nothing; ``tests/test_rules_format.py`` checks both.
Comments are kept: a comment on its own line is printed before the next thing that
follows it in the source, at that thing's indentation; a comment after code stays on its
line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from decklore.compiler.rules import nodes as n

INDENT = "  "

# Binding strength of each expression form, loosest first; a child printed where a
# stronger form is required gets parentheses.
_IF, _OR, _AND, _NOT, _CMP, _SUM, _PRODUCT, _UNARY, _ATOM = range(1, 10)
_BINARY_PREC = {"or": _OR, "and": _AND, "=": _CMP, "!=": _CMP, "<": _CMP, "<=": _CMP,
                ">": _CMP, ">=": _CMP, "+": _SUM, "-": _SUM, "*": _PRODUCT, "//": _PRODUCT,
                "%": _PRODUCT}


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _prec(e: n.Expr) -> int:
    if isinstance(e, n.IfExpr):
        return _IF
    if isinstance(e, n.Binary):
        return _BINARY_PREC[e.op]
    if isinstance(e, n.Unary):
        return _NOT if e.op == "not" else _UNARY
    if isinstance(e, n.IntLit) and e.value < 0:
        return _UNARY
    return _ATOM


def expr(e: n.Expr, need: int = _IF) -> str:
    """An expression as source text, parenthesised where its context binds tighter."""
    text = _expr(e)
    return f"({text})" if _prec(e) < need else text


def _expr(e: n.Expr) -> str:
    if isinstance(e, n.IntLit):
        return str(e.value)
    if isinstance(e, n.StrLit):
        return quote(e.value)
    if isinstance(e, n.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, n.NoneLit):
        return "none"
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.Call):
        return f"{e.func}({', '.join(expr(a) for a in e.args)})"
    if isinstance(e, n.Attribute):
        return f"{expr(e.obj, _ATOM)}.{e.name}"
    if isinstance(e, n.Unary):
        if e.op == "not":
            return f"not {expr(e.operand, _NOT)}"
        return f"-{expr(e.operand, _UNARY)}"
    if isinstance(e, n.Binary):
        prec = _BINARY_PREC[e.op]
        if prec == _CMP:  # comparisons do not chain
            return f"{expr(e.left, _SUM)} {e.op} {expr(e.right, _SUM)}"
        return f"{expr(e.left, prec)} {e.op} {expr(e.right, prec + 1)}"
    if isinstance(e, n.IfExpr):
        return f"{expr(e.then, _OR)} if {expr(e.condition, _OR)} else {expr(e.orelse, _IF)}"
    if isinstance(e, n.Aggregate):
        head = f"{expr(e.element)} for " if e.element is not None else ""
        where = f" where {expr(e.where)}" if e.where is not None else ""
        return f"{e.func}({head}{e.var} in {expr(e.source)}{where})"
    raise AssertionError(f"unknown expression {type(e).__name__}")  # pragma: no cover


def _label(label: str | None) -> str:
    return f" {quote(label)}" if label is not None else ""


def _owner(owner: n.Owner | None) -> str:
    if owner is None:
        return ""
    return f" {'for' if owner.kind == 'player' else 'on'} {expr(owner.expr)}"


def _limit(limit: n.Limit | None) -> str:
    if limit is None:
        return ""
    if limit.count == 1:
        return f" once per {limit.period}"
    return f" max {limit.count} per {limit.period}"


def _params(params: tuple[str, ...] | None) -> str:
    return "" if params is None else f"({', '.join(params)})"


class _Printer:
    """Collects output lines, weaving in the source's comments by line number."""

    def __init__(self, comments: Iterable[tuple[int, int, str]],
                 blank_lines: frozenset[int] = frozenset()) -> None:
        self.lines: list[str] = []
        self.comments = sorted(comments)
        self.next = 0
        self.blank_lines = blank_lines
        self.last_line = 0

    def _keep_blank(self, line: int) -> None:
        """One blank line where the source had any between the last thing and this one."""
        if self.last_line and any(b in self.blank_lines
                                  for b in range(self.last_line + 1, line)):
            self.blank()
        self.last_line = line

    def _comments_before(self, line: int, depth: int) -> None:
        while self.next < len(self.comments) and self.comments[self.next][0] < line:
            self._keep_blank(self.comments[self.next][0])
            self.lines.append(INDENT * depth + self.comments[self.next][2])
            self.next += 1

    def emit(self, text: str, depth: int, line: int = 0) -> None:
        if line:
            self._comments_before(line, depth)
            self._keep_blank(line)
        trailing = ""
        if line and self.next < len(self.comments) and self.comments[self.next][0] == line:
            trailing = "  " + self.comments[self.next][2]
            self.next += 1
        self.lines.append(INDENT * depth + text + trailing)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def finish(self) -> str:
        while self.next < len(self.comments):
            self.lines.append(self.comments[self.next][2])
            self.next += 1
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n" if self.lines else ""

    # statements and blocks
    def block(self, block: n.Block, depth: int) -> None:
        for statement in block:
            self.statement(statement, depth)

    def header(self, text: str, body: n.Block, depth: int, line: int) -> None:
        self.emit(text + ":", depth, line)
        self.block(body, depth + 1)

    def statement(self, s: n.Statement, depth: int) -> None:
        line = s.span.line
        simple = _simple(s)
        if simple is not None:
            self.emit(simple, depth, line)
        elif isinstance(s, n.If):
            for index, (condition, body) in enumerate(s.branches):
                # elif/else lines have no position of their own: comments go to the body
                word = "if" if index == 0 else "elif"
                self.header(f"{word} {expr(condition)}", body, depth, line if index == 0 else 0)
            if s.orelse is not None:
                self.header("else", s.orelse, depth, 0)
        elif isinstance(s, n.ForEach):
            where = f" where {expr(s.where)}" if s.where is not None else ""
            self.header(f"for each {s.var} in {expr(s.source)}{where}", s.body, depth, line)
        elif isinstance(s, n.RepeatTimes):
            self.header(f"repeat {expr(s.count)} times", s.body, depth, line)
        elif isinstance(s, n.RepeatWhile):
            self.header(f"repeat while {expr(s.condition)}", s.body, depth, line)
        elif isinstance(s, n.RepeatPass):
            guard = f" while {expr(s.guard)}" if s.guard is not None else ""
            self.header(f"repeat until pass{guard}{_label(s.label)}", s.body, depth, line)
        elif isinstance(s, n.May):
            self.header(f"may{_label(s.label)}", s.body, depth, line)
        elif isinstance(s, n.AsPlayer):
            self.header(f"as {expr(s.player)}", s.body, depth, line)
        elif isinstance(s, n.Choose):
            where = f" where {expr(s.where)}" if s.where is not None else ""
            count = f" {s.count.kind} {expr(s.count.count)}" if s.count is not None else ""
            optional = " optional" if s.optional else ""
            self.header(f"choose {s.kind} {s.var} from {expr(s.source)}{where}{count}"
                        f"{_label(s.label)}{optional}", s.body, depth, line)
        elif isinstance(s, n.ChooseNumber):
            where = f" where {expr(s.where)}" if s.where is not None else ""
            self.header(f"choose number {s.var} in {expr(s.low)}..{expr(s.high)}{where}"
                        f"{_label(s.label)}", s.body, depth, line)
        elif isinstance(s, n.ChooseOne):
            self.emit(f"choose one{_label(s.label)}:", depth, line)
            for option in s.options:
                when = f" when {expr(option.when)}" if option.when is not None else ""
                self.header(f"option {option.name}{_label(option.label)}{when}"
                            f"{_limit(option.limit)}", option.body, depth + 1,
                            option.span.line)
        else:  # pragma: no cover - every statement is simple or handled above
            raise AssertionError(f"unknown statement {type(s).__name__}")

    # declarations
    def declaration(self, d: n.Declaration) -> None:
        line = d.span.line
        if isinstance(d, n.StateDecl):
            options = ", ".join(o.name if o.value is None else f"{o.name} {o.value}"
                                for o in d.options)
            self.emit(f"{d.kind} {d.name}{_label(d.label)}: {options}", 0, line)
        elif isinstance(d, n.ConstDecl):
            self.emit(f"const {d.name} = {expr(d.value)}", 0, line)
        elif isinstance(d, n.DefineDecl):
            says = f" says {quote(d.says.text)}" if d.says is not None else ""
            self.emit(f"define {d.name}{_params(d.params)} = {expr(d.body)}{says}", 0, line)
        elif isinstance(d, n.ActionDecl):
            self.emit(f"action {d.name}{_params(d.params)}{_label(d.label)}"
                      f"{_limit(d.limit)}:", 0, line)
            if d.says is not None:
                self.emit(f"says {quote(d.says.text)}", 1, d.says.span.line)
            self.block(d.body, 1)
        elif isinstance(d, n.Flow):
            self.flow(d, 0)
        elif isinstance(d, n.Trigger):
            where = f" where {expr(d.where)}" if d.where is not None else ""
            self.emit(f"when {d.event}({', '.join(d.params)}){where}:", 0, line)
            if d.says is not None:
                self.emit(f"says {quote(d.says.text)}", 1, d.says.span.line)
            self.block(d.body, 1)
        elif isinstance(d, n.Outcome):
            says = f" says {quote(d.says.text)}" if d.says is not None else ""
            self.emit(f"{d.kind} {d.player} when {expr(d.condition)}{_label(d.label)}{says}", 0,
                      line)
        elif isinstance(d, n.ScoreDecl):
            says = f" says {quote(d.says.text)}" if d.says is not None else ""
            self.emit(f"score {d.player} = {expr(d.expr)}{says}", 0, line)
        elif isinstance(d, n.TiebreakDecl):
            self.emit(f"tiebreak: {', '.join(expr(e) for e in d.exprs)}", 0, line)

    def flow(self, flow: n.Flow, depth: int) -> None:
        name = f" {flow.name}" if flow.name is not None else ""
        self.emit(f"{flow.kind}{name}{_label(flow.label)}:", depth, flow.span.line)
        for member in flow.members:
            if isinstance(member, n.Flow):
                self.flow(member, depth + 1)
            elif isinstance(member, n.Hook):
                self.emit(f"at {member.time}:", depth + 1, member.span.line)
                if member.says is not None:
                    self.emit(f"says {quote(member.says.text)}", depth + 2,
                              member.says.span.line)
                self.block(member.body, depth + 2)
            elif isinstance(member, n.Order):
                self.emit(f"order: {expr(member.expr)}", depth + 1, member.span.line)
            elif isinstance(member, n.Says):
                self.emit(f"says {quote(member.text)}", depth + 1, member.span.line)
            elif isinstance(member, n.Note):
                self.emit(f"note {quote(member.text)}", depth + 1, member.span.line)
            elif isinstance(member, n.Term):
                self.emit(f"term {quote(member.word)} {quote(member.text)}", depth + 1,
                          member.span.line)
            else:
                self.statement(member, depth + 1)


def _simple(s: n.Statement) -> str | None:
    """The one-line form of a simple statement, or None for block statements."""
    if isinstance(s, n.Move):
        facing = f" face {s.facing}" if s.facing else ""
        position = (f" at depth {expr(s.depth)}" if s.depth is not None
                    else f" at {s.position}" if s.position else "")
        return f"move {expr(s.what)} to {expr(s.to)}{facing}{position}"
    if isinstance(s, n.Draw):
        facing = f" face {s.facing}" if s.facing else ""
        return f"draw {expr(s.count)} from {expr(s.source)} to {expr(s.to)}{facing}"
    if isinstance(s, n.Shuffle):
        return f"shuffle {expr(s.zone)}"
    if isinstance(s, n.Reveal):
        return f"reveal {expr(s.what)}" + (f" to {expr(s.to)}" if s.to is not None else "")
    if isinstance(s, n.Destroy):
        return f"destroy {expr(s.what)}" + (f" to {expr(s.to)}" if s.to is not None else "")
    if isinstance(s, n.Stack):
        return f"stack {expr(s.what)} on {expr(s.onto)}"
    if isinstance(s, n.Tuck):
        return f"tuck {expr(s.what)} under {expr(s.under)}"
    if isinstance(s, n.Gain | n.Spend):
        word = "gain" if isinstance(s, n.Gain) else "spend"
        return f"{word} {expr(s.amount)} {s.counter}{_owner(s.owner)}"
    if isinstance(s, n.SetValue):
        value = f" to {expr(s.value)}" if s.value is not None else ""
        return f"set {s.name}{_owner(s.owner)}{value}"
    if isinstance(s, n.Clear):
        return f"clear {s.name}{_owner(s.owner)}"
    if isinstance(s, n.Pay):
        sources = ", ".join(expr(src.source) + (f" valued {expr(src.valued)}"
                                                if src.valued is not None else "")
                            for src in s.sources)
        change = f" keep change in {s.change.counter}{_owner(s.change.owner)}" \
            if s.change is not None else ""
        return f"pay {expr(s.amount)} from {sources}{change}"
    if isinstance(s, n.Let):
        return f"let {s.name} = {expr(s.value)}"
    if isinstance(s, n.Do):
        args = f"({', '.join(expr(a) for a in s.args)})" if s.args else ""
        return f"do {s.action}{args}"
    if isinstance(s, n.End):
        return f"end {s.period}"
    if isinstance(s, n.Fail):
        return f"fail {quote(s.message)}"
    if isinstance(s, n.Log):
        return f"log {quote(s.message)}"
    return None


_GROUPS: dict[type[Any], str] = {n.StateDecl: "state", n.ConstDecl: "value",
                                 n.DefineDecl: "value", n.Outcome: "end", n.ScoreDecl: "end",
                                 n.TiebreakDecl: "end"}


def format_program(program: n.Program) -> str:
    """The canonical text of a program; parses back to an equal program."""
    printer = _Printer(program.comments, program.blank_lines)
    previous = ""
    for declaration in program.declarations:
        group = _GROUPS.get(type(declaration), "block")
        if printer.lines and (group == "block" or group != previous):
            printer.blank()
        printer.declaration(declaration)
        previous = group
    return printer.finish()
