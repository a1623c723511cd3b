"""The rules' expressions as generated Python source: one module per pack, the fast path.

The closure interpreter (``expressions``) calls one closure per IR node; reading
``p.coins + size(hand(p))`` is five calls, each checking its operands.  This module lowers
every define and every expression a program runs to the text of one Python module, so the
same read is one function with the operands inline, and compiles it once per content hash
(``docs/design/compiled-rules.md``).  The closures stay the reference: with
``DECKLORE_GENERATED=0`` in the environment (or :func:`generated` as a context manager)
programs are built without generated code, and ``tests/test_codegen.py`` plays every pinned
seed both ways.

What generated code may do is kept small on purpose, because the source is built from a
pack, which is data someone else wrote:

- **No pack text becomes code.**  Every value taken from the pack (a number, a name, a
  zone, a counter, the ``at`` of a define) enters the source only as ``repr()`` of a plain
  ``int``, ``str``, ``bool`` or ``None``, after an exact type check; anything else falls
  back to its closure.  Identifiers in the source are all generated (``d12`` for a define,
  ``v3`` for a local, ``t5`` for a temporary), never a name from the pack.
- **Nothing but what the runtime hands over.**  The module runs with empty
  ``__builtins__``; the few names it uses (``len``, ``bool``, the rules' builtins as
  ``f0``, ``f1``, ...) are passed in by :func:`generate`.

Each define keeps the memo protocol of ``Program._define`` exactly (the same table per
define, or per define and seat, in ``g.memo``: ``memo.py``; copy-on-write through
``g.owned``), so invalidation (``reads``) and ``clone()`` see no difference.  An
operator the generator does not know, a zone of spaces, or anything unusual becomes a
call of the closure the interpreter would have built.
Errors name the rules line as before: a define's ``at`` is a constant in its function.
The compiled code is cached in memory per process by the tables' content hash and the
runtime's version; it is not written to disk, since loading code from a cache folder
would let whoever can write there run code in every game.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import CodeType
from typing import TYPE_CHECKING, Any

from decklore.runtime.builtins import BUILTINS
from decklore.runtime.card_refs import copies_of
from decklore.runtime.expressions import (
    Compiler,
    Expr,
    RulesError,
    _number,
    _order,
    as_list,
)

if TYPE_CHECKING:
    from decklore.runtime.program import Program
    from decklore.runtime.tables import Tables

IR = Mapping[str, Any]


def runtime_version() -> str:
    """This decklore's version (from the package metadata), part of the cache key."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("decklore")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


_ENABLED = os.environ.get("DECKLORE_GENERATED", "1") != "0"


def enabled() -> bool:
    """Whether new programs use generated code (``DECKLORE_GENERATED=0`` turns it off)."""
    return _ENABLED


@contextmanager
def generated(on: bool) -> Iterator[None]:
    """Build programs with generated code on or off inside the block (tests, benchmarks)."""
    global _ENABLED
    before = _ENABLED
    _ENABLED = on
    try:
        yield
    finally:
        _ENABLED = before


_PLAIN = (int, str, bool)
_SIMPLE = re.compile(r"[abtv][0-9]+")
"""A generated parameter, temporary or variable: read again without a temporary."""
_WHOLE = re.compile(r"-?[0-9]+")
_LONGEST_INT = 10 ** 60
"""Larger literals go through their closure: ``repr`` of a huge int is slow or refused."""


def _literal(value: Any) -> str | None:
    """The source text of a plain value, or None when it is not one the source may hold."""
    if value is None:
        return "None"
    if type(value) not in _PLAIN:
        return None
    if type(value) is int and abs(value) > _LONGEST_INT:
        return None
    return repr(value)


def _roots(rules: IR) -> Iterator[IR]:
    """Every expression the program compiles on its own, in a fixed order.

    An expression is a mapping with ``op``; the statements, flows, triggers and outcomes
    around them are walked, not lowered.  The parts of a place to put cards (the player and
    space of a zone, the card of ``zone_of``) are compiled apart by ``Program.location``, so
    they are roots too.  Defines are generated separately and constants are read once at
    load, so neither section is walked.
    """
    stack: list[Any] = [rules[k] for k in sorted(rules) if k not in ("defines", "consts")]
    stack.reverse()
    while stack:
        here = stack.pop()
        if isinstance(here, Mapping):
            if "op" in here:
                yield here
                op = here["op"]
                if op == "zone":
                    parts = [here.get("player"), here.get("space")]
                elif op == "call" and here.get("fn") == "zone_of" and here.get("args"):
                    parts = [here["args"][0]]
                else:
                    parts = []
                for part in parts:
                    if isinstance(part, Mapping) and "op" in part:
                        yield part
                continue
            stack.extend(reversed([here[k] for k in here]))
        elif isinstance(here, list | tuple):
            stack.extend(reversed(here))


class _Writer:
    """Python source for one program: one function per define and per root expression."""

    def __init__(self, program: Program, closures: Compiler) -> None:
        self.program = program
        self.closures = closures
        self.rules = program.rules
        self.define_ids = {name: i for i, name in enumerate(self.rules["defines"])}
        self.fallbacks: list[Expr] = []
        self.builtins: dict[str, str] = {}
        self.lines: list[str] = []
        self.temps = 0
        self.vars = 0
        self.preload: dict[str, str] = {}
        """In a root function: the locals read from ``env``, by name, and their variable."""
        self.in_root = False

    # --- names ------------------------------------------------------------------------

    def temp(self) -> str:
        self.temps += 1
        return f"t{self.temps}"

    def hold(self, source: str) -> tuple[str, str]:
        """A value read twice: (how to read it again, how to compute it the first time).

        A parameter or variable is read again as it is; anything else is kept in a
        temporary with ``:=``."""
        if _SIMPLE.fullmatch(source):
            return source, source
        name = self.temp()
        return name, f"({name} := {source})"

    def new_var(self) -> str:
        self.vars += 1
        return f"v{self.vars}"

    # --- the module -------------------------------------------------------------------

    def module(self, roots: list[IR]) -> str:
        self.lines.append("# generated by decklore.runtime.codegen from the pack's rules IR")
        for name, spec in self.rules["defines"].items():
            self.define(name, spec)
        for k, node in enumerate(roots):
            self.root(k, node)
        return "\n".join(self.lines) + "\n"

    def define(self, name: str, spec: IR) -> None:
        i = self.define_ids[name]
        key, at = _literal(name), _literal(spec.get("at"))
        params = list(spec["params"])
        if key is None or at is None or any(type(p) is not str for p in params):
            self.fallback_define(i, name, spec)
            return
        args = [f"a{j}" for j in range(len(params))]
        head = ", ".join(["g", *args])
        tup = "(" + "".join(f"{a}, " for a in args) + ")"
        lists = " or ".join(f"type({a}) is list" for a in args) or "False"
        self.in_root = False
        self.preload = {}
        body = self.expr(spec["body"], dict(zip(params, args, strict=True)))
        split = self.program.memo_split.get(name)
        if split is not None:  # one table per seat (``memo``), its keys made once
            seat = args[split]
            keys = [_literal(k) for k in self.program.memo_seat_keys[name]]
            if any(k is None for k in keys):
                self.fallback_define(i, name, spec)
                return
            self.lines += [
                "",
                f"n{i} = ({', '.join(str(k) for k in keys)},)",
                "",
                f"def d{i}({head}):",
                "    try:",
                f"        key = n{i}[{seat}]",
                "    except (TypeError, IndexError):",
                f"        return b{i}({head})",
                *_remembered(i, head, "key", tup, lists, seat),
            ]
            self.body_function(i, head, body, key, at)
            return
        self.lines += ["", f"def d{i}({head}):", *_remembered(i, head, key, tup, lists, None)]
        self.body_function(i, head, body, key, at)

    def body_function(self, i: int, head: str, body: str, key: str, at: str) -> None:
        """A define's body as a function of its own, which names the rules line in its
        errors."""
        self.lines += [
            "",
            f"def b{i}({head}):",
            "    try:",
            f"        return {body}",
            "    except RulesError as exc:",
            "        if exc.at is None:",
            f"            exc.at = {at}",
            "        raise",
            "    except RecursionError:",
            f"        raise RulesError(ENDLESS({key}), {at}) from None",
        ]

    def fallback_define(self, i: int, name: str, spec: IR) -> None:
        """A define whose name or parameters cannot be written: the interpreter's function."""
        self.fallbacks.append(self.program._define(name, spec))
        self.lines += ["", f"d{i} = FALLBACK[{len(self.fallbacks) - 1}]"]

    def root(self, k: int, node: IR) -> None:
        self.in_root = True
        self.preload = {}
        body = self.expr(node, {})
        loads = [f"    {var} = env.get({_literal(name)}, UNSET)"
                 for name, var in self.preload.items()]
        self.lines += ["", f"def e{k}(g, env):", *loads, f"    return {body}"]

    # --- expressions ------------------------------------------------------------------

    def fallback(self, node: IR, scope: dict[str, str]) -> str:
        """The interpreter's closure for this node, called with the locals in scope."""
        self.fallbacks.append(self.closures.expr(node))
        index = len(self.fallbacks) - 1
        if self.in_root:
            if not scope:
                return f"FALLBACK[{index}](g, env)"
            inner = ", ".join(f"{_literal(n)}: {v}" for n, v in scope.items())
            return f"FALLBACK[{index}](g, {{**env, {inner}}})"
        inner = ", ".join(f"{_literal(n)}: {v}" for n, v in scope.items())
        return f"FALLBACK[{index}](g, {{{inner}}})"

    def local(self, name: Any, scope: dict[str, str]) -> str | None:
        if type(name) is not str:
            return None
        found = scope.get(name)
        if found is not None:
            return found
        if not self.in_root:
            return f"UNBOUND({_literal(name)})"
        var = self.preload.get(name)
        if var is None:
            var = self.preload[name] = self.new_var()
        return f"({var} if {var} is not UNSET else UNBOUND({_literal(name)}))"

    def expr(self, node: IR | None, scope: dict[str, str]) -> str:
        if node is None:
            return "None"
        written = self.lower(node, scope)
        return self.fallback(node, scope) if written is None else written

    def lower(self, node: IR, scope: dict[str, str]) -> str | None:
        """The source of one node, or None to use its closure."""
        op = node.get("op")
        e = self.expr
        if op in ("int", "text", "bool"):
            return _literal(node.get("value"))
        if op in ("symbol", "kind"):
            return _literal(node.get("id"))
        if op == "none":
            return "None"
        if op == "local":
            return self.local(node.get("name"), scope)
        if op == "me":
            return 'g.state.info["me"]'
        if op == "const":
            key = _literal(node.get("name"))
            return None if key is None or type(node["name"]) is not str else f"CONSTS[{key}]"
        if op == "define":
            return self.call_define(node, scope)
        if op == "zone":
            return self.zone(node, scope)
        if op == "call":
            return self.call(node, scope)
        if op == "field":
            key = _literal(node.get("name"))
            if key is None:
                return None
            card, first = self.hold(e(node["of"], scope))
            if node["name"] in self.program.compiler.card_lists:  # a field listing cards
                return f"([] if {first} is None else COPIES(g, g.rows[{card}].get({key})))"
            return f"(None if {first} is None else g.rows[{card}].get({key}))"
        if op in ("counter", "flag"):
            return self.mark(node, scope)
        if op == "member":
            key = _literal(node.get("name"))
            if key is None:
                return None
            value, first = self.hold(e(node["of"], scope))
            return f"(None if {first} is None else {value}.get({key}))"
        if op == "not":
            return f"(not {e(node['x'], scope)})"
        if op == "neg":
            return f"(-NUMBER({e(node['x'], scope)}, 'the value'))"
        if op == "and":
            return f"(bool({e(node['a'], scope)}) and bool({e(node['b'], scope)}))"
        if op == "or":
            return f"(bool({e(node['a'], scope)}) or bool({e(node['b'], scope)}))"
        if op in ("eq", "ne"):
            sign = "==" if op == "eq" else "!="
            return f"({e(node['a'], scope)} {sign} {e(node['b'], scope)})"
        if op in ("lt", "le", "gt", "ge"):
            return f"ORDER_{op}({e(node['a'], scope)}, {e(node['b'], scope)})"
        if op in ("add", "sub"):
            sign = "+" if op == "add" else "-"
            return (f"({self.whole(e(node['a'], scope), 'the left side')} {sign} "
                    f"{self.whole(e(node['b'], scope), 'the right side')})")
        if op == "mul":
            return (f"({self.whole(e(node['a'], scope), 'the left side')} * "
                    f"{self.whole(e(node['b'], scope), 'the right side')})")
        if op in ("div", "mod"):
            return (f"DIVIDE({e(node['a'], scope)}, {e(node['b'], scope)}, "
                    f"{op == 'div'!r})")
        if op == "join":
            return f"(AS_LIST({e(node['a'], scope)}) + AS_LIST({e(node['b'], scope)}))"
        if op == "if":
            return (f"({e(node['then'], scope)} if {e(node['cond'], scope)} "
                    f"else {e(node['else'], scope)})")
        if op == "agg":
            return self.agg(node, scope)
        return None

    def call_define(self, node: IR, scope: dict[str, str]) -> str | None:
        name = node.get("name")
        i = self.define_ids.get(name) if type(name) is str else None
        if i is None:
            return None  # the closure looks it up when it runs, and says it is missing
        args = list(node.get("args") or [])
        if len(args) != len(self.rules["defines"][name]["params"]):
            return None
        return f"d{i}({', '.join(['g', *(self.expr(a, scope) for a in args)])})"

    def call(self, node: IR, scope: dict[str, str]) -> str | None:
        fn = node.get("fn")
        if type(fn) is not str or fn not in BUILTINS:
            return None  # the closure compiler names the unknown builtin
        ident = self.builtins.get(fn)
        if ident is None:
            ident = self.builtins[fn] = f"f{len(self.builtins)}"
        args = ", ".join(["g", *(self.expr(a, scope) for a in node["args"])])
        return f"{ident}({args})"

    def zone(self, node: IR, scope: dict[str, str]) -> str | None:
        zone = node.get("zone")
        key = _literal(zone)
        if type(zone) is not str or key is None:
            return None
        names = self.program.spaced.get(zone)
        if names is not None:
            return self.spaces(zone, names, node, scope)
        if node.get("players") is not None:
            return f"CARDS_OF_PLAYERS(g, {key}, {self.expr(node['players'], scope)})"
        if node.get("player") is None:
            return f"g.state.zones[{key}][0]"
        player = self.expr(node["player"], scope)
        spec = self.program.zones.get(zone)
        if spec is not None and spec["per"] == "player":
            seat, first = self.hold(player)
            return (f"(g.state.zones[{key}][{seat}] if type({first}) is int "
                    f"else g.zone_cards({key}, {seat}))")
        return f"g.zone_cards({key}, {player})"

    def whole(self, source: str, what: str) -> str:
        """A whole number operand: checked inline, other values through ``NUMBER``."""
        if _WHOLE.fullmatch(source):
            return source
        value, first = self.hold(source)
        return f"({value} if type({first}) is int else NUMBER({value}, {_literal(what)}))"

    def spaces(self, zone: str, names: list[str], node: IR, scope: dict[str, str]) -> str | None:
        """A zone of numbered spaces: one space's cards, or every space's in order."""
        written = [_literal(n) if type(n) is str else None for n in names]
        if any(w is None for w in written):
            return None
        seat = "None" if node.get("player") is None else self.expr(node["player"], scope)
        if node.get("space") is None:
            spec = self.program.zones.get(names[0]) if names else None
            helper = ("PLAYER_SPACES" if spec is not None and spec["per"] == "player"
                      else "ALL_SPACES")
            return f"{helper}(g, ({''.join(f'{w}, ' for w in written)}), {seat})"
        number = self.expr(node["space"], scope)
        return (f"ONE_SPACE(g, {_literal(zone)}, ({''.join(f'{w}, ' for w in written)}), "
                f"{seat}, {number})")

    def mark(self, node: IR, scope: dict[str, str]) -> str | None:
        """A counter's or flag's value, with the engine's fast path for a seat or card."""
        op, name = node["op"], node.get("name")
        key = _literal(name)
        if type(name) is not str or key is None:
            return None
        flag = op == "flag"
        read = "g.flag_value" if flag else "g.counter_value"
        spec = (self.program.flags if flag else self.program.counters).get(name)
        table = "flags" if flag else "counters"
        # A game's own counter or flag has one slot, whoever is asked about (``_slot``).
        whole = f"g.state.{table}[{key}][0]"
        if flag:
            whole = f"bool({whole})"
        if node.get("of") is None:
            if spec is not None and spec["per"] == "game":
                return whole
            return f"{read}({key}, None)"
        owner, first = self.hold(self.expr(node["of"], scope))
        missing = "False" if flag else "None"
        if spec is None:
            return f"({missing} if {first} is None else {read}({key}, {owner}))"
        if spec["per"] == "game":
            return f"({missing} if {first} is None else {whole})"
        fast = f"g.state.{table}[{key}][{owner}]"
        if flag:
            fast = f"bool({fast})"
        return (f"({missing} if {first} is None else ({fast} if type({owner}) is int "
                f"else {read}({key}, {owner})))")

    def agg(self, node: IR, scope: dict[str, str]) -> str | None:
        fn, var = node.get("fn"), node.get("var")
        if fn not in ("select", "count", "any", "all", "sum", "min", "max") or type(var) is not str:
            return None
        before = self.temps
        given = self.expr(node["in"], scope)
        if fn == "count" and not node.get("where"):
            return f"len({given} or ())"
        # Python refuses ':=' in a comprehension's iterable, so a collection that needs a
        # temporary is evaluated outside, as the argument of a one-line function.
        # Like the closures, 'any' and 'all' go through nothing for any false collection,
        # the others only for none (so that a number where cards belong fails as there).
        quantifier = fn in ("any", "all")
        if self.temps != before:
            arg = f"s{self.temps}"
            source = f"({arg} or ())" if quantifier else f"(() if {arg} is None else {arg})"
            wrap = (f"(lambda {arg}: ", f")({given})")
        else:
            source = f"({given} or ())" if quantifier else f"ITEMS({given})"
            wrap = ("", "")
        v = self.new_var()
        inner = {**scope, var: v}
        where = self.expr(node["where"], inner) if node.get("where") else None
        value = self.expr(node["value"], inner) if node.get("value") else None
        keep = f" if {where}" if where else ""
        if fn == "select":
            body = f"[{v} for {v} in {source}{keep}]"
        elif fn == "count":
            body = f"len([{v} for {v} in {source}{keep}])"
        elif fn in ("any", "all"):
            test = value or where or "True"
            pick = f" if {where}" if value is not None and where else ""
            body = f"{fn.upper()}(bool({test}) for {v} in {source}{pick})"
        else:
            number = self.whole(value or v, "a value in " + fn)  # checked inline
            numbers = f"[{number} for {v} in {source}{keep}]"
            body = f"SUM({numbers})" if fn == "sum" else f"{fn.upper()}_OF({numbers})"
        return f"{wrap[0]}{body}{wrap[1]}"


def _unbound(name: str) -> Any:
    raise RulesError(f"'{name}' has no value here")


def _endless(name: str) -> str:
    return f"'{name}' calls itself without end"


def _divide(a: Any, b: Any, floor: bool) -> int:
    x, y = _number(a, "the left side"), _number(b, "the right side")
    if y == 0:
        raise RulesError("division by zero")
    return x // y if floor else x % y


def _cards_of_players(g: Any, zone: str, players: Any) -> list[int]:
    return [c for p in as_list(players) for c in g.zone_cards(zone, p)]


def _all_spaces(g: Any, names: tuple[str, ...], seat: Any) -> list[int]:
    cards: list[int] = []
    for name in names:
        cards += g.zone_cards(name, seat)
    return cards


def _player_spaces(g: Any, names: tuple[str, ...], seat: Any) -> list[int]:
    """Every space of a zone each player has, read by seat as ``zone_cards`` would."""
    if type(seat) is not int:
        return _all_spaces(g, names, seat)  # says what is wrong with the seat
    zones = g.state.zones
    cards: list[int] = []
    for name in names:
        cards += zones[name][seat]
    return cards


def _one_space(g: Any, zone: str, names: tuple[str, ...], seat: Any, value: Any) -> list[int]:
    if not isinstance(value, int) or not 1 <= value <= len(names):
        raise RulesError(f"zone '{zone}' has spaces 1 to {len(names)}, not {value}")
    cards: list[int] = g.zone_cards(names[value - 1], seat)
    return cards


def _items(found: Any) -> Any:
    """What an aggregate goes through: nothing for none, else the collection itself."""
    return () if found is None else found


def _least(numbers: list[int]) -> int | None:
    return min(numbers) if numbers else None


def _most(numbers: list[int]) -> int | None:
    return max(numbers) if numbers else None


_UNSET = object()

_HELPERS: dict[str, Any] = {
    "RulesError": RulesError, "KeyError": KeyError, "TypeError": TypeError,
    "IndexError": IndexError,
    "RecursionError": RecursionError, "len": len, "bool": bool, "type": type, "int": int,
    "list": list, "dict": dict, "ANY": any, "ALL": all, "SUM": sum, "MIN_OF": _least,
    "MAX_OF": _most, "NUMBER": _number, "AS_LIST": as_list, "ITEMS": _items, "DIVIDE": _divide,
    "CARDS_OF_PLAYERS": _cards_of_players, "ALL_SPACES": _all_spaces,
    "PLAYER_SPACES": _player_spaces, "ONE_SPACE": _one_space,
    "UNBOUND": _unbound, "ENDLESS": _endless, "UNSET": _UNSET, "COPIES": copies_of,
    **{f"ORDER_{op}": _order(op) for op in ("lt", "le", "gt", "ge")},
}
"""Every name generated code may use besides its own functions and the rules' builtins."""

PASSED_NAMES = frozenset({*_HELPERS, "CONSTS", "FALLBACK"})
"""The names :func:`generate` hands the module, besides the builtins (``f0``, ``f1``, ...)."""


@dataclass(frozen=True, slots=True)
class Generated:
    """A program's generated module: its source, and the functions the program runs."""

    source: str
    defines: dict[str, Callable[..., Any]]
    roots: dict[int, tuple[IR, Expr]]
    """Each root expression by ``id`` of its IR node (the node kept, to check identity)."""
    fallbacks: int
    """How many nodes fell back to their closure."""


class GeneratedCompiler(Compiler):
    """The closure compiler, answering with generated functions for the nodes it has one for."""

    def __init__(self, base: Compiler, roots: dict[int, tuple[IR, Expr]]) -> None:
        super().__init__(base.defines, base.consts, base.builtins, base.spaced,
                         base.per_player)
        self.roots = roots

    def expr(self, node: IR | None) -> Expr:
        if node is not None:
            found = self.roots.get(id(node))
            if found is not None and found[0] is node:
                return found[1]
        return super().expr(node)


_CODE: dict[tuple[str, str], tuple[str, CodeType]] = {}
"""Compiled modules by (tables' content hash, runtime version), for this process.

The source is made again for every program (its fallbacks are the program's own
closures) and compared with the cached text, so a cache hit saves only ``compile``."""


def source_of(program: Program) -> tuple[str, _Writer, list[IR]]:
    """The module's source, the writer that made it (its fallbacks) and the roots in order."""
    roots = list(_roots(program.rules))
    writer = _Writer(program, program.compiler)
    return writer.module(roots), writer, roots


def dump_python(tables: Tables) -> str:
    """The generated modules of a pack's tables, as ``decklore compile --dump-python`` prints
    them: the expressions, then the blocks and flow stages (``blockgen``)."""
    from decklore.runtime.program import Program

    program = Program(tables, generated=True)
    assert program.generated is not None and program.blocks_generated is not None
    return program.generated.source + "\n" + program.blocks_generated.source


def generate(program: Program) -> Generated:
    """Generate, compile (once per content hash) and run a program's module."""
    source, writer, roots = source_of(program)
    key = (program.tables.content_hash, runtime_version())
    cached = _CODE.get(key)
    if cached is None or cached[0] != source:
        cached = (source, compile(source, f"<rules of {key[0][:12]}>", "exec"))
        _CODE[key] = cached
    namespace: dict[str, Any] = {
        "__builtins__": {}, **_HELPERS, "CONSTS": program.consts,
        "FALLBACK": writer.fallbacks,
        **{ident: BUILTINS[name] for name, ident in writer.builtins.items()}}
    exec(cached[1], namespace)  # the source holds no pack text: see the module docstring
    defines = {name: namespace[f"d{i}"] for name, i in writer.define_ids.items()}
    found = {id(node): (node, namespace[f"e{k}"]) for k, node in enumerate(roots)}
    return Generated(source, defines, found, len(writer.fallbacks))


def _remembered(i: int, head: str, key: str, tup: str, lists: str,
                seat: str | None) -> list[str]:
    """The lines of a generated define that look its value up in the memo table ``key``
    (an expression) and remember it there, copying a table shared with a clone before its
    first write. With ``seat``, a value about no seat of the game is not remembered."""
    seat_check = [] if seat is None else [
        f"    if type({seat}) is not int or not 0 <= {seat} < g.state.players:",
        "        return value"]
    return [
        f"    memo = g.memo.get({key})",
        "    if memo is not None:",
        "        try:",
        f"            return memo[{tup}]",
        "        except KeyError:",
        "            pass",
        "        except TypeError:",
        f"            return b{i}({head})",
        f"    elif {lists}:",
        f"        return b{i}({head})",
        f"    value = b{i}({head})",
        "    if type(value) is list:",
        "        value = list(value)",
        *seat_check,
        "    if memo is None:",
        f"        g.memo[{key}] = {{{tup}: value}}",
        f"        g.owned.add({key})",
        f"    elif {key} in g.owned:",
        f"        memo[{tup}] = value",
        "    else:",
        f"        memo = g.memo[{key}] = dict(memo)",
        f"        memo[{tup}] = value",
        f"        g.owned.add({key})",
        "    return value",
    ]
