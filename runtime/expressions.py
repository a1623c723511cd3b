"""Rules expressions turned into Python closures once, when a program loads.

Walking the IR's dictionaries on every read would dominate a playout: a pack's rules may
read a definition of a dozen nested definitions (can this player do anything at all?) at
every decision.  Each expression
node therefore becomes one closure ``f(game, env)`` that calls its children's closures
directly.  ``game`` is the running :class:`~decklore.runtime.world.World` (the state and the
caches), ``env`` the locals bound by ``let``, ``choose``, ``for each``, parameters and
aggregates.

Values are plain: a card is its instance number, a player their seat index (0 for the first
seat), a collection of cards or players a list, ``none`` is ``None``.  Comparisons with
``none`` other than ``=`` and ``!=`` are false rather than errors, because a missing field
(a card without a stacking cost) is an ordinary thing for a rule to ask about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from decklore.runtime.card_refs import copies_of

if TYPE_CHECKING:
    from decklore.runtime.world import World

Env = dict[str, Any]
Expr = Callable[["World", Env], Any]
IR = Mapping[str, Any]


class RulesError(Exception):
    """A rule that cannot be carried out; ``at`` is the pack source line it comes from."""

    def __init__(self, message: str, at: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.at = at

    def __str__(self) -> str:
        return f"{self.at}: {self.message}" if self.at else self.message


def _order(op: str) -> Callable[[Any, Any], bool]:
    def lt(a: Any, b: Any) -> bool:
        return a is not None and b is not None and a < b

    def le(a: Any, b: Any) -> bool:
        return a is not None and b is not None and a <= b

    def gt(a: Any, b: Any) -> bool:
        return a is not None and b is not None and a > b

    def ge(a: Any, b: Any) -> bool:
        return a is not None and b is not None and a >= b

    return {"lt": lt, "le": le, "gt": gt, "ge": ge}[op]


def as_list(value: Any) -> list[Any]:
    """Cards or players as a new list: none is nothing, one card (or player) is one item.

    A copy, so that moving the cards of a zone while going through them is safe.
    """
    if value is None:
        return []
    if isinstance(value, list):
        return list(value)
    return [value]


def _number(value: Any, what: str) -> int:
    if value is None:
        raise RulesError(f"{what} is none, where a number is needed")
    if isinstance(value, bool):
        return int(value)
    if not isinstance(value, int):
        raise RulesError(f"{what} is {value!r}, where a number is needed")
    return value


class Compiler:
    """Builds closures for one program: ``defines`` and ``consts`` are looked up by name."""

    def __init__(self, defines: dict[str, Callable[..., Any]], consts: dict[str, Any],
                 builtins: Mapping[str, Callable[..., Any]],
                 spaced: Mapping[str, list[str]] | None = None,
                 per_player: frozenset[str] = frozenset(),
                 card_lists: frozenset[str] = frozenset()) -> None:
        self.spaced = dict(spaced or {})
        self.card_lists = card_lists
        """Card fields that name other cards: read as this game's copies of them."""
        self.per_player = per_player
        """Zones each player has one of: read by seat without asking the game."""
        self.defines = defines
        self.consts = consts
        self.builtins = builtins

    def expr(self, node: IR | None) -> Expr:
        if node is None:
            return lambda g, env: None
        op = node["op"]
        if op in ("int", "text", "bool", "symbol", "kind"):
            value = node["value"] if op in ("int", "text", "bool") else node["id"]
            return lambda g, env: value
        if op == "none":
            return lambda g, env: None
        if op == "local":
            name = node["name"]

            def local(g: World, env: Env) -> Any:
                try:
                    return env[name]
                except KeyError:
                    raise RulesError(f"'{name}' has no value here") from None
            return local
        if op == "me":
            return lambda g, env: g.me()
        if op == "const":
            name = node["name"]
            consts = self.consts
            return lambda g, env: consts[name]
        if op == "define":
            return self._define(node)
        if op == "zone":
            zone = node["zone"]
            names = self.spaced.get(zone)
            if names is not None:
                return self._spaces(zone, names, node)
            if node.get("players") is not None:
                many = self.expr(node["players"])
                return lambda g, env: [c for p in as_list(many(g, env))
                                       for c in g.zone_cards(zone, p)]
            if node.get("player") is None:
                return lambda g, env: g.state.zones[zone][0]
            player = self.expr(node["player"])
            if zone in self.per_player:
                def own(g: World, env: Env) -> Any:
                    seat = player(g, env)
                    if type(seat) is int:
                        return g.state.zones[zone][seat]
                    return g.zone_cards(zone, seat)  # says what is wrong with the seat
                return own
            return lambda g, env: g.zone_cards(zone, player(g, env))
        if op == "call":
            return self._call(node)
        if op == "field":
            name = node["name"]
            of = self.expr(node["of"])
            if name in self.card_lists:
                def named_cards(g: World, env: Env) -> Any:
                    card = of(g, env)
                    return [] if card is None else copies_of(g, g.rows[card].get(name))
                return named_cards

            def field(g: World, env: Env) -> Any:
                card = of(g, env)
                if card is None:
                    return None
                return g.rows[card].get(name)
            return field
        if op == "counter":
            return self._counter(node)
        if op == "flag":
            return self._flag(node)
        if op == "member":
            name = node["name"]
            of = self.expr(node["of"])

            def member(g: World, env: Env) -> Any:
                value = of(g, env)
                return None if value is None else value.get(name)
            return member
        if op == "not":
            x = self.expr(node["x"])
            return lambda g, env: not x(g, env)
        if op == "neg":
            x = self.expr(node["x"])
            return lambda g, env: -_number(x(g, env), "the value")
        if op in ("and", "or"):
            a, b = self.expr(node["a"]), self.expr(node["b"])
            if op == "and":
                return lambda g, env: bool(a(g, env)) and bool(b(g, env))
            return lambda g, env: bool(a(g, env)) or bool(b(g, env))
        if op in ("eq", "ne"):
            a, b = self.expr(node["a"]), self.expr(node["b"])
            if op == "eq":
                return lambda g, env: a(g, env) == b(g, env)
            return lambda g, env: a(g, env) != b(g, env)
        if op in ("lt", "le", "gt", "ge"):
            a, b = self.expr(node["a"]), self.expr(node["b"])
            compare = _order(op)
            return lambda g, env: compare(a(g, env), b(g, env))
        if op in ("add", "sub", "mul", "div", "mod"):
            return self._arith(op, self.expr(node["a"]), self.expr(node["b"]))
        if op == "join":  # cards + cards, players + players: both, in order
            a, b = self.expr(node["a"]), self.expr(node["b"])
            return lambda g, env: as_list(a(g, env)) + as_list(b(g, env))
        if op == "if":
            cond, then, other = (self.expr(node["cond"]), self.expr(node["then"]),
                                 self.expr(node["else"]))
            return lambda g, env: then(g, env) if cond(g, env) else other(g, env)
        if op == "agg":
            return self._agg(node)
        raise RulesError(f"the engine does not know the expression '{op}'")

    def _spaces(self, zone: str, names: list[str], node: IR) -> Expr:
        """A zone of numbered spaces: one space's cards, or all spaces' cards in order."""
        player = self.expr(node["player"]) if node.get("player") is not None else None
        number = self.expr(node["space"]) if node.get("space") is not None else None
        spaces = len(names)

        def cards(g: World, env: Env) -> list[int]:
            seat = player(g, env) if player is not None else None
            if number is None:
                return [c for name in names for c in g.zone_cards(name, seat)]
            value = number(g, env)
            if not isinstance(value, int) or not 1 <= value <= spaces:
                raise RulesError(f"zone '{zone}' has spaces 1 to {spaces}, not {value}")
            return g.zone_cards(names[value - 1], seat)
        return cards

    @staticmethod
    def _arith(op: str, a: Expr, b: Expr) -> Expr:
        # Whole numbers are the usual case: checked inline, and only other values go
        # through _number (which also turns true and false into 1 and 0).
        if op == "add":
            def add(g: World, env: Env) -> int:
                x = a(g, env)
                if type(x) is not int:
                    x = _number(x, "the left side")
                y = b(g, env)
                if type(y) is not int:
                    y = _number(y, "the right side")
                return x + y
            return add
        if op == "sub":
            def sub(g: World, env: Env) -> int:
                x = a(g, env)
                if type(x) is not int:
                    x = _number(x, "the left side")
                y = b(g, env)
                if type(y) is not int:
                    y = _number(y, "the right side")
                return x - y
            return sub
        if op == "mul":
            return lambda g, env: _number(a(g, env), "the left side") * _number(
                b(g, env), "the right side")

        def divide(g: World, env: Env) -> int:
            x, y = _number(a(g, env), "the left side"), _number(b(g, env), "the right side")
            if y == 0:
                raise RulesError("division by zero")
            return x // y if op == "div" else x % y
        return divide

    def _define(self, node: IR) -> Expr:
        name = node["name"]
        args = [self.expr(a) for a in node.get("args") or []]
        defines = self.defines
        if not args:
            return lambda g, env: defines[name](g)
        if len(args) == 1:
            (a0,) = args
            return lambda g, env: defines[name](g, a0(g, env))
        if len(args) == 2:
            a0, a1 = args
            return lambda g, env: defines[name](g, a0(g, env), a1(g, env))
        return lambda g, env: defines[name](g, *[a(g, env) for a in args])

    def _call(self, node: IR) -> Expr:
        fn = self.builtins.get(node["fn"])
        if fn is None:
            raise RulesError(f"the engine has no builtin '{node['fn']}'")
        args = [self.expr(a) for a in node["args"]]
        if not args:
            return lambda g, env: fn(g)
        if len(args) == 1:
            (a0,) = args
            return lambda g, env: fn(g, a0(g, env))
        if len(args) == 2:
            a0, a1 = args
            return lambda g, env: fn(g, a0(g, env), a1(g, env))
        return lambda g, env: fn(g, *[a(g, env) for a in args])

    def owner(self, node: IR | None) -> Expr | None:
        """The ``of`` of a counter or flag: None means the default owner."""
        return None if node is None else self.expr(node)

    def _counter(self, node: IR) -> Expr:
        return self._mark(node, lambda g, name, owner: g.counter_value(name, owner), None)

    def _flag(self, node: IR) -> Expr:
        return self._mark(node, lambda g, name, owner: g.flag_value(name, owner), False)

    def _mark(self, node: IR, read: Callable[[World, str, Any], Any], missing: Any) -> Expr:
        """A counter's or flag's value; of no card or player (none) it is ``missing``."""
        name = node["name"]
        of = self.owner(node.get("of"))
        if of is None:
            return lambda g, env: read(g, name, None)

        def value(g: World, env: Env) -> Any:
            owner = of(g, env)
            return missing if owner is None else read(g, name, owner)
        return value

    def _agg(self, node: IR) -> Expr:
        fn, var = node["fn"], node["var"]
        source = self.expr(node["in"])
        where = self.expr(node["where"]) if node.get("where") else None
        value = self.expr(node["value"]) if node.get("value") else None

        def items(g: World, env: Env) -> list[Any]:
            found = source(g, env)
            if found is None:
                return []
            if where is None:
                return list(found)
            inner = dict(env)
            out = []
            for item in found:
                inner[var] = item
                if where(g, inner):
                    out.append(item)
            return out

        if fn == "select":
            return items
        if fn == "count":
            if where is None:
                return lambda g, env: len(source(g, env) or ())
            return lambda g, env: len(items(g, env))
        if fn in ("any", "all"):
            # any: some item meets the condition; all: every item does.  The condition is
            # 'where' (the checker's spelling of 'all(x in xs where cond)'), and 'value' when
            # both are given ('where' then picks the items that must meet it).
            test = value or where
            pick = where if value is not None else None
            want_all = bool(fn == "all")

            def quantify(g: World, env: Env) -> bool:
                inner = dict(env)
                for item in source(g, env) or ():
                    inner[var] = item
                    if pick is not None and not pick(g, inner):
                        continue
                    met = True if test is None else bool(test(g, inner))
                    if want_all and not met:
                        return False
                    if not want_all and met:
                        return True
                return want_all
            return quantify

        def reduce(g: World, env: Env) -> Any:
            inner = dict(env)
            numbers = []
            for item in items(g, env):
                inner[var] = item
                numbers.append(_number(value(g, inner) if value else item, f"a value in {fn}"))
            if fn == "sum":
                return sum(numbers)
            if not numbers:
                return None
            return min(numbers) if fn == "min" else max(numbers)
        return reduce
