"""Parsing rules files: each construct becomes the right node, and no text ever crashes it.

Nodes compare by structure (spans are ignored), so each case builds the expected tree by hand
and compares it with what ``parse_rules`` returns.  Exact diagnostic texts live in
``test_rules_diagnostics.py``; here only their number and place matter.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decklore.compiler.diagnostics import Diagnostic, Diagnostics
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.builtins import BUILTINS, EVENTS, FLOW_NESTING, PERIODS
from decklore.compiler.rules.node_class import field_names, is_node, is_node_class
from decklore.compiler.rules.parser import parse_rules

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
OTHER_RULES = TESTS / "packs" / "other" / "rules" / "game.rules"


def parse(text: str) -> tuple[n.Program, list[Diagnostic]]:
    diags = Diagnostics()
    program = parse_rules(text, "t.rules", diags)
    return program, diags.items


def decls(text: str) -> tuple[n.Declaration, ...]:
    program, diags = parse(text)
    assert diags == [], [d.message for d in diags]
    return program.declarations


def decl(text: str) -> n.Declaration:
    (only,) = decls(text)
    return only


def body(text: str) -> n.Block:
    """The statements of ``text`` placed in an action's block (indented four spaces)."""
    indented = "".join(f"    {line}\n" if line else "\n" for line in text.split("\n"))
    action = decl("action a:\n" + indented)
    assert isinstance(action, n.ActionDecl)
    return action.body


def stmt(text: str) -> n.Statement:
    (only,) = body(text)
    return only


def expr(text: str) -> n.Expr:
    define = decl(f"define x = {text}\n")
    assert isinstance(define, n.DefineDecl)
    return define.body


# Short names for the nodes most cases build.
N, Int, S = n.Name, n.IntLit, n.StrLit


def call(func: str, *args: n.Expr) -> n.Call:
    return n.Call(func, args)


def zone(name: str, player: str = "me") -> n.Call:
    return n.Call(name, (N(player),))


def attr(obj: str, *names: str) -> n.Expr:
    result: n.Expr = N(obj)
    for name in names:
        result = n.Attribute(result, name)
    return result


LOG = (n.Log("x"),)


# --- expressions --------------------------------------------------------------------------

EXPRESSIONS = [
    ("7", Int(7)),
    ("-7", Int(-7)),
    ("--7", Int(7)),
    ("-x", n.Unary("-", N("x"))),
    ("-(x)", n.Unary("-", N("x"))),
    ('"a text"', S("a text")),
    ('"say \\"hi\\""', S('say "hi"')),
    ('"# not a comment"', S("# not a comment")),
    ("true", n.BoolLit(True)),
    ("false", n.BoolLit(False)),
    ("none", n.NoneLit()),
    ("me", N("me")),
    ("players()", call("players")),
    ("hand(me)", zone("hand")),
    ("lesser(1, x)", call("lesser", Int(1), N("x"))),
    ("top(draw(me), 2)", call("top", zone("draw"), Int(2))),  # keywords as names where they fit
    ("c.price", attr("c", "price")),
    ("c.armour.value", attr("c", "armour", "value")),
    ("top_card(hand(me)).price", n.Attribute(call("top_card", zone("hand")), "price")),
    ("not a", n.Unary("not", N("a"))),
    ("not not a", n.Unary("not", n.Unary("not", N("a")))),
    ("1 + 2 * 3", n.Binary("+", Int(1), n.Binary("*", Int(2), Int(3)))),
    ("(1 + 2) * 3", n.Binary("*", n.Binary("+", Int(1), Int(2)), Int(3))),
    ("1 - 2 - 3", n.Binary("-", n.Binary("-", Int(1), Int(2)), Int(3))),
    ("7 // 2 % 3", n.Binary("%", n.Binary("//", Int(7), Int(2)), Int(3))),
    ("-a * b", n.Binary("*", n.Unary("-", N("a")), N("b"))),
    ("a + b = c", n.Binary("=", n.Binary("+", N("a"), N("b")), N("c"))),
    ("not a = b", n.Unary("not", n.Binary("=", N("a"), N("b")))),
    ("a and b or c", n.Binary("or", n.Binary("and", N("a"), N("b")), N("c"))),
    ("a or b and c", n.Binary("or", N("a"), n.Binary("and", N("b"), N("c")))),
    ("a or b or c", n.Binary("or", n.Binary("or", N("a"), N("b")), N("c"))),
    ("a and b and c", n.Binary("and", n.Binary("and", N("a"), N("b")), N("c"))),
    ("1 if a else 2", n.IfExpr(N("a"), Int(1), Int(2))),
    ("1 if a else 2 if b else 3", n.IfExpr(N("a"), Int(1), n.IfExpr(N("b"), Int(2), Int(3)))),
    ("x + 1 if a or b else 0",
     n.IfExpr(n.Binary("or", N("a"), N("b")), n.Binary("+", N("x"), Int(1)), Int(0))),
    ("count(c in hand(me))", n.Aggregate("count", None, "c", zone("hand"), None)),
    ("any(p in players() where p.gold > 2)",
     n.Aggregate("any", None, "p", call("players"),
                 n.Binary(">", attr("p", "gold"), Int(2)))),
    ("all(c in z where c.x)", n.Aggregate("all", None, "c", N("z"), attr("c", "x"))),
    ("select(c in z where true)", n.Aggregate("select", None, "c", N("z"), n.BoolLit(True))),
    ("sum(c.price for c in z)", n.Aggregate("sum", attr("c", "price"), "c", N("z"), None)),
    ("min(c.price * 2 for c in z where c.x)",
     n.Aggregate("min", n.Binary("*", attr("c", "price"), Int(2)), "c", N("z"), attr("c", "x"))),
    ("max(1 for c in z)", n.Aggregate("max", Int(1), "c", N("z"), None)),
    ("(((x)))", N("x")),
]


@pytest.mark.parametrize(("text", "expected"), EXPRESSIONS, ids=[t for t, _ in EXPRESSIONS])
def test_expression(text: str, expected: n.Expr) -> None:
    assert expr(text) == expected


@pytest.mark.parametrize("op", ["=", "!=", "<", "<=", ">", ">="])
def test_every_comparison(op: str) -> None:
    assert expr(f"a {op} b") == n.Binary(op, N("a"), N("b"))


@pytest.mark.parametrize("text", ["a < b < c", "a = b = c", "f(x)(y)", "a.b(c)", "1 +",
                                  "a ==b", "x.", "count(c)", "sum(c.x for c)", "3 / 2"])
def test_expressions_that_do_not_parse(text: str) -> None:
    _, diags = parse(f"define x = {text}\n")
    assert [d.code for d in diags] == ["R001"]


def test_numbers_below_one_billion_only() -> None:
    assert expr("999999999") == Int(999_999_999)
    _, diags = parse("define x = 1000000000\n")
    assert [(d.code, d.message) for d in diags] == [("R001", "number is too large")]


# --- declarations -------------------------------------------------------------------------

DECLARATIONS = [
    ("zone hand: per_player", n.StateDecl("zone", "hand", None, (n.Option("per_player"),))),
    ('zone dock "The dock": per_player, refill wreck, slots 6',
     n.StateDecl("zone", "dock", "The dock", (n.Option("per_player"), n.Option("refill", "wreck"),
                                              n.Option("slots", 6)))),
    ('counter gold "Gold": per_player, min 0, max 99, start 5',
     n.StateDecl("counter", "gold", "Gold", (n.Option("per_player"), n.Option("min", 0),
                                             n.Option("max", 99), n.Option("start", 5)))),
    ("flag storm: global, until turn",
     n.StateDecl("flag", "storm", None, (n.Option("global"), n.Option("until", "turn")))),
    ("const crew = 3", n.ConstDecl("crew", Int(3))),
    ("define calm = not storm", n.DefineDecl("calm", None, n.Unary("not", N("storm")))),
    ("define richest() = 1", n.DefineDecl("richest", (), Int(1))),
    ("define fleet(p) = units(harbour(p))",
     n.DefineDecl("fleet", ("p",), call("units", zone("harbour", "p")))),
    ("define worth(c, p) = c.price", n.DefineDecl("worth", ("c", "p"), attr("c", "price"))),
    ("win p when p.gold >= 30",
     n.Outcome("win", "p", n.Binary(">=", attr("p", "gold"), Int(30)), None)),
    ('lose q when false "Sunk"', n.Outcome("lose", "q", n.BoolLit(False), "Sunk")),
    ("eliminate p when true", n.Outcome("eliminate", "p", n.BoolLit(True), None)),
    ("score p = p.gold", n.ScoreDecl("p", attr("p", "gold"))),
    ("tiebreak: a", n.TiebreakDecl((N("a"),))),
    ("tiebreak: a, -b, c.d", n.TiebreakDecl((N("a"), n.Unary("-", N("b")), attr("c", "d")))),
]


@pytest.mark.parametrize(("text", "expected"), DECLARATIONS, ids=[t for t, _ in DECLARATIONS])
def test_declaration(text: str, expected: n.Declaration) -> None:
    assert decl(text + "\n") == expected


def test_option_words_may_be_keywords_where_no_keyword_fits() -> None:
    # 'min', 'max', 'start' are keywords elsewhere; after a comma only a name fits.
    state = decl("counter c: min 1, max 2, start 1\n")
    assert isinstance(state, n.StateDecl)
    assert [o.name for o in state.options] == ["min", "max", "start"]


def test_action_with_parameters_label_and_limits() -> None:
    assert decls(
        'action buy(p) "Buy a ship" max 2 per turn:\n    log "x"\n'
        "action refit once per round:\n    log \"x\"\n"
        "action rest():\n    log \"x\"\n"
    ) == (
        n.ActionDecl("buy", ("p",), "Buy a ship", n.Limit(2, "turn"), LOG),
        n.ActionDecl("refit", None, None, n.Limit(1, "round"), LOG),
        n.ActionDecl("rest", (), None, None, LOG),
    )


@pytest.mark.parametrize("period", PERIODS)
def test_every_period_of_a_limit(period: str) -> None:
    action = decl(f"action a once per {period}:\n    log \"x\"\n")
    assert isinstance(action, n.ActionDecl)
    assert action.limit == n.Limit(1, period)


def test_flow_blocks_hooks_and_order() -> None:
    text = """\
game voyage "The voyage":
    at start:
        log "x"
    era calm:
        round:
            order: players()
            turn:
                phase trade "Trade":
                    step buying:
                        log "x"
                    step selling:
                        log "x"
                at end:
                    log "x"
"""
    def step(name: str) -> n.Flow:
        return n.Flow("step", name, None, LOG)

    assert decl(text) == n.Flow("game", "voyage", "The voyage", (
        n.Hook("start", LOG),
        n.Flow("era", "calm", None, (
            n.Flow("round", None, None, (
                n.Order(call("players")),
                n.Flow("turn", None, None, (
                    n.Flow("phase", "trade", "Trade", (step("buying"), step("selling"))),
                    n.Hook("end", LOG),
                )),
            )),
        )),
    ))


@pytest.mark.parametrize("kind", sorted({k for ks in FLOW_NESTING.values() for k in ks}))
def test_every_flow_kind_parses_with_statements(kind: str) -> None:
    assert decl(f'{kind} "Label":\n    log "x"\n') == n.Flow(kind, None, "Label", LOG)


def test_triggers() -> None:
    assert decls(
        "when destroyed(c):\n    log \"x\"\n"
        "when stacked(upper, lower) where upper.price > 1:\n    log \"x\"\n"
        "when turn_start():\n    log \"x\"\n"
    ) == (
        n.Trigger("destroyed", ("c",), None, LOG),
        n.Trigger("stacked", ("upper", "lower"), n.Binary(">", attr("upper", "price"), Int(1)),
                  LOG),
        n.Trigger("turn_start", (), None, LOG),
    )


# --- statements -----------------------------------------------------------------------------

STATEMENTS = [
    ("move c to hand(me)", n.Move(N("c"), zone("hand"))),
    ("move c to hand(me) face up at top", n.Move(N("c"), zone("hand"), "up", "top")),
    ("move c to hand(me) face down", n.Move(N("c"), zone("hand"), "down", None)),
    ("move c to hand(me) at bottom", n.Move(N("c"), zone("hand"), None, "bottom")),
    ("draw 2 from dock(me) to hand(me)", n.Draw(Int(2), zone("dock"), zone("hand"))),
    ("draw n + 1 from dock(p) to hand(p) face down",
     n.Draw(n.Binary("+", N("n"), Int(1)), zone("dock", "p"), zone("hand", "p"), "down")),
    ("shuffle dock(me)", n.Shuffle(zone("dock"))),
    ("reveal c", n.Reveal(N("c"))),
    ("reveal c to opponent(me)", n.Reveal(N("c"), call("opponent", N("me")))),
    ("destroy t", n.Destroy(N("t"))),
    ("destroy t to wreck(q)", n.Destroy(N("t"), zone("wreck", "q"))),
    ("stack upper on lower", n.Stack(N("upper"), N("lower"))),
    ("tuck c under host", n.Tuck(N("c"), N("host"))),
    ("gain 2 gold", n.Gain(Int(2), "gold")),
    ("gain 2 gold for p", n.Gain(Int(2), "gold", n.Owner("player", N("p")))),
    ("gain 1 damage on t", n.Gain(Int(1), "damage", n.Owner("card", N("t")))),
    ("spend c.price gold for me",
     n.Spend(attr("c", "price"), "gold", n.Owner("player", N("me")))),
    ("set storm", n.SetValue("storm")),
    ("set plundered on host", n.SetValue("plundered", n.Owner("card", N("host")))),
    ("set gold for p to 5", n.SetValue("gold", n.Owner("player", N("p")), Int(5))),
    ("set tide to 1", n.SetValue("tide", None, Int(1))),
    ("clear docked", n.Clear("docked")),
    ("clear gold for me", n.Clear("gold", n.Owner("player", N("me")))),
    ("pay 3 from me.gold", n.Pay(Int(3), (n.PaySource(attr("me", "gold")),))),
    ("pay c.price from wreck(me) valued worth, me.gold",
     n.Pay(attr("c", "price"), (n.PaySource(zone("wreck"), N("worth")),
                                 n.PaySource(attr("me", "gold"))))),
    ("pay 3 from me.gold keep change in gold",
     n.Pay(Int(3), (n.PaySource(attr("me", "gold")),), n.Change("gold"))),
    ("pay 3 from hand(me), me.gold keep change in gold for p",
     n.Pay(Int(3), (n.PaySource(zone("hand")), n.PaySource(attr("me", "gold"))),
           n.Change("gold", n.Owner("player", N("p"))))),
    ("let haul = 2 * x", n.Let("haul", n.Binary("*", Int(2), N("x")))),
    ("do refit", n.Do("refit")),
    ("do refit()", n.Do("refit")),
    ("do buy(me, 2)", n.Do("buy", (N("me"), Int(2)))),
    ("fail \"cannot happen\"", n.Fail("cannot happen")),
    ('log "say \\"ahoy\\""', n.Log('say "ahoy"')),
]


@pytest.mark.parametrize(("text", "expected"), STATEMENTS, ids=[t for t, _ in STATEMENTS])
def test_statement(text: str, expected: n.Statement) -> None:
    assert stmt(text) == expected


@pytest.mark.parametrize("period", PERIODS)
def test_end_every_period(period: str) -> None:
    assert stmt(f"end {period}") == n.End(period)


def test_if_elif_else() -> None:
    text = """\
if a:
    log "x"
elif b:
    log "x"
elif c:
    log "x"
else:
    log "x"
if d:
    log "x\""""
    assert body(text) == (
        n.If(((N("a"), LOG), (N("b"), LOG), (N("c"), LOG)), LOG),
        n.If(((N("d"), LOG),), None),
    )


def test_loops() -> None:
    text = """\
for each c in hand(me) where c.price > 0:
    log "x"
for each p in players():
    log "x"
repeat crew times:
    log "x"
repeat until pass:
    log "x"
repeat until pass "Sell another":
    log "x"
repeat until pass while a and b "Sell":
    log "x"
repeat while me.shots < 3:
    log "x\""""
    assert body(text) == (
        n.ForEach("c", zone("hand"), n.Binary(">", attr("c", "price"), Int(0)), LOG),
        n.ForEach("p", call("players"), None, LOG),
        n.RepeatTimes(N("crew"), LOG),
        n.RepeatPass(None, LOG),
        n.RepeatPass("Sell another", LOG),
        n.RepeatPass("Sell", LOG, n.Binary("and", N("a"), N("b"))),
        n.RepeatWhile(n.Binary("<", attr("me", "shots"), Int(3)), LOG),
    )


def test_may() -> None:
    assert body('may:\n    log "x"\nmay "Bail":\n    log "x"') == (
        n.May(None, LOG), n.May("Bail", LOG))


CHOICES = [
    ("choose card c from hand(me)",
     n.Choose("card", "c", zone("hand"), None, None, None, False, LOG)),
    ('choose card c from market() where c.price <= 3 "Pick" optional',
     n.Choose("card", "c", call("market"), n.Binary("<=", attr("c", "price"), Int(3)), None,
              "Pick", True, LOG)),
    ("choose cards cs from hand(me) up to 2",
     n.Choose("cards", "cs", zone("hand"), None, n.CountRange("up to", Int(2)), None, False,
              LOG)),
    ('choose cards cs from hand(me) where c.x at least 1 "Gunners"',
     n.Choose("cards", "cs", zone("hand"), attr("c", "x"), n.CountRange("at least", Int(1)),
              "Gunners", False, LOG)),
    ("choose cards cs from hand(me) exactly n - 1 optional",
     n.Choose("cards", "cs", zone("hand"), None,
              n.CountRange("exactly", n.Binary("-", N("n"), Int(1))), None, True, LOG)),
    ("choose player q from opponents(me)",
     n.Choose("player", "q", call("opponents", N("me")), None, None, None, False, LOG)),
    ('choose target t from harbour(q) "Pick a ship"',
     n.Choose("target", "t", zone("harbour", "q"), None, None, "Pick a ship", False, LOG)),
    ("choose number n in 1..5",
     n.ChooseNumber("n", Int(1), Int(5), None, None, LOG)),
    ('choose number n in 0..lesser(me.gold, 5) where n % 2 = 0 "How much"',
     n.ChooseNumber("n", Int(0), call("lesser", attr("me", "gold"), Int(5)),
                    n.Binary("=", n.Binary("%", N("n"), Int(2)), Int(0)), "How much", LOG)),
]


@pytest.mark.parametrize(("header", "expected"), CHOICES, ids=[h for h, _ in CHOICES])
def test_choose(header: str, expected: n.Statement) -> None:
    assert stmt(header + ':\n    log "x"') == expected


def test_choose_one() -> None:
    text = """\
choose one "What now?":
    option raid "Raid" when a once per turn:
        log "x"
    option trade max 2 per round:
        log "x"
    option pass:
        log "x\""""
    assert stmt(text) == n.ChooseOne("What now?", (
        n.ChoiceOption("raid", "Raid", N("a"), n.Limit(1, "turn"), LOG),
        n.ChoiceOption("trade", None, None, n.Limit(2, "round"), LOG),
        n.ChoiceOption("pass", None, None, None, LOG),
    ))


def test_nested_blocks_close_at_the_right_depth() -> None:
    text = """\
if a:
    for each c in z:
        may:
            log "x"
        log "x"
    log "x"
log "x\""""
    assert body(text) == (
        n.If(((N("a"), (n.ForEach("c", N("z"), None, (n.May(None, LOG), n.Log("x"))),
                        n.Log("x"))),), None),
        n.Log("x"),
    )


# --- layout: comments, blank lines, continuation, line ends -------------------------------


def test_comments_and_blank_lines_change_nothing() -> None:
    plain = 'zone hand: per_player\naction a:\n    if b:\n        log "x"\n    log "y"\n'
    commented = """\
# a heading comment

zone hand: per_player   # trailing comment


action a:  # after a header
    # a comment inside a block

    if b:
# a comment in the first column, inside a block
        log "x"
   \t
    log "y"   # done
# a last comment, no newline at the end"""
    assert parse(commented)[0] == parse(plain)[0]
    assert parse(commented)[1] == []


def test_comments_are_kept_with_their_places() -> None:
    program, _ = parse('# head\nwin p when true "a # b"  # tail\n')
    assert program.comments == ((1, 1, "# head"), (2, 26, "# tail"))


def test_backslash_continues_a_line() -> None:
    text = "define x = 1 + \\\n    2 + \\\n        3\naction a:\n    gain 1 + \\\n       2 gold\n"
    assert decls(text) == (
        n.DefineDecl("x", None, n.Binary("+", n.Binary("+", Int(1), Int(2)), Int(3))),
        n.ActionDecl("a", None, None, None, (n.Gain(n.Binary("+", Int(1), Int(2)), "gold"),)),
    )


def test_parentheses_continue_a_line() -> None:
    assert expr("lesser(1,\n    2)") == call("lesser", Int(1), Int(2))


def test_a_continued_line_may_start_in_the_first_column() -> None:
    assert decls("define x = lesser(1,\n2)\ndefine y = 1 + \\\n2\nconst z = 3\n") == (
        n.DefineDecl("x", None, call("lesser", Int(1), Int(2))),
        n.DefineDecl("y", None, n.Binary("+", Int(1), Int(2))),
        n.ConstDecl("z", Int(3)),
    )


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_line_ends(newline: str) -> None:
    text = newline.join(['action a:', '    log "x"', 'const c = 1', ''])
    assert decls(text) == (n.ActionDecl("a", None, None, None, LOG), n.ConstDecl("c", Int(1)))


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "   \n# x\n    # y"])
def test_empty_programs(text: str) -> None:
    assert parse(text) == (n.Program(()), [])


def test_spans_point_into_the_file() -> None:
    program, _ = parse('const a = 1\n\naction b:\n    gain a + 2 gold\n')
    const, action = program.declarations
    assert (const.span.file, const.span.line, const.span.column) == ("t.rules", 1, 1)
    assert isinstance(action, n.ActionDecl)
    (gain,) = action.body
    assert isinstance(gain, n.Gain)
    assert (gain.span.line, gain.span.column) == (4, 5)
    assert isinstance(gain.amount, n.Binary)
    span = gain.amount.span
    assert (span.line, span.column, span.end_line, span.end_column) == (4, 10, 4, 15)


# --- recovery -------------------------------------------------------------------------------


def test_each_broken_declaration_gives_one_diagnostic_and_the_rest_parse() -> None:
    text = """\
zone hand: per_player
action a:
    move c hand(me)
const good = 1
define bad = 1 +
win p when true
action b:
    if x
        log "x"
    log "y"
score p = 2
"""
    program, diags = parse(text)
    assert [(d.code, d.span.line) for d in diags] == [("R001", 3), ("R001", 5), ("R001", 8)]
    assert program.declarations == (
        n.StateDecl("zone", "hand", None, (n.Option("per_player"),)),
        n.ConstDecl("good", Int(1)),
        n.Outcome("win", "p", n.BoolLit(True), None),
        n.ScoreDecl("p", Int(2)),
    )


def test_an_indentation_error_spoils_only_its_declaration() -> None:
    program, diags = parse('action a:\n        log "x"\n    log "y"\nconst c = 1\n')
    assert [(d.code, d.span.line) for d in diags] == [("R002", 3)]
    assert program.declarations == (n.ConstDecl("c", Int(1)),)


# --- the 'other' pack uses every construct ------------------------------------------------


def _walk(node: Any) -> Iterator[Any]:
    yield node
    if is_node(node):
        for name in field_names(node):
            if name != "span":
                yield from _walk(getattr(node, name))
    elif isinstance(node, tuple):
        for item in node:
            yield from _walk(item)


def _node_classes() -> set[str]:
    return {name for name, value in vars(n).items()
            if is_node_class(value) and value.__module__ == n.__name__}


def _grammar_keywords() -> set[str]:
    grammar = (ROOT / "grammar" / "rules.lark").read_text(encoding="utf-8")
    grammar = re.sub(r"//[^\n]*", "", grammar)
    return set(re.findall(r'"([a-z_]+)"', grammar))


def test_the_other_pack_uses_every_construct() -> None:
    text = OTHER_RULES.read_text(encoding="utf-8")
    program, diags = parse(text)
    assert diags == []
    nodes = list(_walk(program))
    missing = {
        "node classes": _node_classes() - {type(x).__name__ for x in nodes},
        "builtins": set(BUILTINS) - {x.func for x in nodes if isinstance(x, n.Call)},
        "events": set(EVENTS) - {x.event for x in nodes if isinstance(x, n.Trigger)},
        "flow kinds": {k for ks in FLOW_NESTING.values() for k in ks}
        - {x.kind for x in nodes if isinstance(x, n.Flow)},
        "keywords": _grammar_keywords() - set(re.findall(r"[a-z_]+", text)),
        "operators": {"=", "!=", "<", "<=", ">", ">=", "+", "-", "*", "//", "%", "and", "or",
                      "not"} - {x.op for x in nodes if isinstance(x, n.Binary | n.Unary)},
        "aggregates": {"count", "sum", "min", "max", "any", "all", "select"}
        - {x.func for x in nodes if isinstance(x, n.Aggregate)},
        "choice kinds": {"card", "cards", "player", "target"}
        - {x.kind for x in nodes if isinstance(x, n.Choose)},
        "counts": {"up to", "at least", "exactly"}
        - {x.kind for x in nodes if isinstance(x, n.CountRange)},
        "owners": {"player", "card"} - {x.kind for x in nodes if isinstance(x, n.Owner)},
        "outcomes": {"win", "lose", "eliminate"}
        - {x.kind for x in nodes if isinstance(x, n.Outcome)},
        "state kinds": {"zone", "counter", "flag"}
        - {x.kind for x in nodes if isinstance(x, n.StateDecl)},
    }
    assert {k: sorted(v) for k, v in missing.items() if v} == {}
    flags = {
        "optional": any(isinstance(x, n.Choose) and x.optional for x in nodes),
        "negative literal": any(isinstance(x, n.IntLit) and x.value < 0 for x in nodes),
        "option with a number": any(isinstance(x, n.Option) and isinstance(x.value, int)
                                    for x in nodes),
        "option with a name": any(isinstance(x, n.Option) and isinstance(x.value, str)
                                  for x in nodes),
        "trigger with where": any(isinstance(x, n.Trigger) and x.where for x in nodes),
        "trigger without where": any(isinstance(x, n.Trigger) and not x.where for x in nodes),
        "define with ()": any(isinstance(x, n.DefineDecl) and x.params == () for x in nodes),
        "define without ()": any(isinstance(x, n.DefineDecl) and x.params is None
                                 for x in nodes),
        "pay valued": any(isinstance(x, n.PaySource) and x.valued for x in nodes),
        "elif": any(isinstance(x, n.If) and len(x.branches) > 1 for x in nodes),
        "else": any(isinstance(x, n.If) and x.orelse for x in nodes),
        "labelled outcome": any(isinstance(x, n.Outcome) and x.label for x in nodes),
    }
    assert [k for k, used in flags.items() if not used] == []


# --- nothing crashes the parser -----------------------------------------------------------

GAME = OTHER_RULES.read_text(encoding="utf-8")
PIECES = ["", " ", "    ", "\t", "\n", "\n\n", "\r\n", "\r", "\\", "\\\n", "(", ")", ":", ",",
          ".", "..", "=", "==", "-", '"', "'", "#", "else if", "elif", "é", "1234567890",
          "\x00", "\x0c", "option", "choose", "at", "optional"]


def _check_result(text: str) -> None:
    diags = Diagnostics()
    program = parse_rules(text, "t.rules", diags)
    assert isinstance(program, n.Program)
    for d in diags.items:
        assert d.code in ("R001", "R002")
        assert d.span.file == "t.rules" and d.span.line >= 1
        # An '=' opening the file is reported at column 0: test_equals_opening_the_file.
        assert d.span.column >= 1 or d.message == "'==' is not an operator"
        assert d.message and d.hint


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_any_text_gives_a_program_and_diagnostics(text: str) -> None:
    _check_result(text)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = GAME
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 30)))
        text = text[:start] + draw(st.sampled_from(PIECES) | st.text(max_size=3)) + text[end:]
    return text


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutations_of_a_real_file_give_a_program_and_diagnostics(text: str) -> None:
    _check_result(text)


# --- bugs found while writing these ---------------------------------------------------------


def test_equals_opening_the_file() -> None:
    _, diags = parse("= 3\n")
    (d,) = diags
    assert (d.span.line, d.span.column) == (1, 1)
    assert "==" not in d.message


@given(st.text(alphabet='ab "#\\()', max_size=30))
def test_comment_and_bracket_scans_agree_with_a_walk_over_every_character(line: str) -> None:
    """The scans that split a file into declarations skip lines with no quote or no '#';
    they must say what a walk over every character says."""
    from decklore.compiler.rules.parser import _comment_column, _strip_strings_and_comment

    quoted = escaped = False
    column, kept = None, []
    for index, char in enumerate(line):
        if escaped:
            escaped = False
        elif quoted and char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            column = index
            break
        elif not quoted:
            kept.append(char)
    assert _comment_column(line) == column
    assert _strip_strings_and_comment(line) == "".join(kept)
