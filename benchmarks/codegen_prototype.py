"""A prototype for docs/design/compiled-rules.md: the pack's defines as generated Python.

Today every expression of the rules IR is a tree of closures (``runtime/expressions.py``):
reading ``p.coins + size(hand(p))`` calls five closures, each looking up its children and
checking its operands.  The design note proposes lowering the IR to Python source per pack,
cached by content hash.  This prototype does that for one hot path, the defines, and
measures it against the closures on the same positions:

- it plays seeded random games of a bundled pack and keeps positions along the way;
- for every define of at most two parameters, with every argument in {0, 1} (a seat, or a
  card instance), it evaluates the closure and the generated function, each with an empty
  memo for the top-level call (inner calls are remembered alike, as the engine does);
- it checks that both give the same value or fail alike, and prints CPU time for each and
  their ratio.

Operators the generator does not know fall back to the closure, so the figures are a lower
bound of what generated code gains.  ``--dump`` prints the generated module.

    python benchmarks/codegen_prototype.py [--pack era] [--positions 150] [--dump]
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Mapping
from typing import Any

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import RandomAgent
from decklore.runtime.builtins import BUILTINS
from decklore.runtime.expressions import RulesError, _number, as_list
from decklore.runtime.game import Game
from decklore.runtime.simulate import deal_decks

IR = Mapping[str, Any]


class Generator:
    """Python source for a program's defines: one function per define, memo included."""

    def __init__(self, game: Game) -> None:
        self.program = game.program
        self.rules = game.program.rules
        self.fallbacks: list[Callable[..., Any]] = []
        self.lines: list[str] = []
        self.temp = itertools.count()
        self.per_player = {n for n, z in self.program.zones.items() if z["per"] == "player"}

    def name(self, define: str) -> str:
        return f"d_{define}"

    def var(self, name: str) -> str:
        return f"v_{name}"

    def t(self) -> str:
        return f"t{next(self.temp)}"

    def module(self) -> str:
        for name, spec in self.rules["defines"].items():
            params = [self.var(p) for p in spec["params"]]
            head = ", ".join(["g", *params])
            key = "(" + "".join(f"{p}," for p in params) + ")"
            body = self.expr(spec["body"], set(spec["params"]))
            self.lines += [
                f"def {self.name(name)}({head}):",
                f"    t = g.memo.get({name!r})",
                "    if t is not None:",
                "        try:",
                f"            return t[{key}]",
                "        except KeyError:",
                "            pass",
                "        except TypeError:",
                f"            return b_{name}({head})",
                f"    v = b_{name}({head})",
                "    if type(v) is list:",
                "        v = list(v)",
                "    if t is None:",
                f"        g.memo[{name!r}] = {{{key}: v}}",
                "    else:",
                f"        t[{key}] = v",
                "    return v",
                "",
                f"def b_{name}({head}):",
                f"    return {body}",
                "",
            ]
        return "\n".join(self.lines)

    def fallback(self, node: IR, scope: set[str]) -> str:
        """The closure, called with the locals in scope as its environment."""
        self.fallbacks.append(self.program.compiler.expr(node))
        env = "{" + ", ".join(f"{n!r}: {self.var(n)}" for n in sorted(scope)) + "}"
        return f"FALLBACK[{len(self.fallbacks) - 1}](g, {env})"

    def expr(self, node: IR | None, scope: set[str]) -> str:
        if node is None:
            return "None"
        op = node["op"]
        e = self.expr
        if op in ("int", "text", "bool"):
            return repr(node["value"])
        if op in ("symbol", "kind"):
            return repr(node["id"])
        if op == "none":
            return "None"
        if op == "local":
            return self.var(node["name"])
        if op == "me":
            return 'g.state.info["me"]'
        if op == "const":
            return f"CONSTS[{node['name']!r}]"
        if op == "define":
            args = ", ".join(["g", *(e(a, scope) for a in node.get("args") or [])])
            return f"{self.name(node['name'])}({args})"
        if op == "zone" and node["zone"] not in self.program.spaced:
            zone = node["zone"]
            if node.get("player") is None:
                return f"g.state.zones[{zone!r}][0]"
            if zone in self.per_player:
                seat = self.t()
                return (f"(g.state.zones[{zone!r}][{seat}] if type({seat} := "
                        f"{e(node['player'], scope)}) is int else g.zone_cards({zone!r}, {seat}))")
            return f"g.zone_cards({zone!r}, {e(node['player'], scope)})"
        if op == "call":
            args = ", ".join(["g", *(e(a, scope) for a in node["args"])])
            return f"BUILTINS[{node['fn']!r}]({args})"
        if op == "field":
            card = self.t()
            return (f"(None if ({card} := {e(node['of'], scope)}) is None "
                    f"else g.rows[{card}].get({node['name']!r}))")
        if op in ("counter", "flag"):
            read = "g.counter_value" if op == "counter" else "g.flag_value"
            missing = "None" if op == "counter" else "False"
            if node.get("of") is None:
                return f"{read}({node['name']!r}, None)"
            owner = self.t()
            return (f"({missing} if ({owner} := {e(node['of'], scope)}) is None "
                    f"else {read}({node['name']!r}, {owner}))")
        if op == "member":
            value = self.t()
            return (f"(None if ({value} := {e(node['of'], scope)}) is None "
                    f"else {value}.get({node['name']!r}))")
        if op == "not":
            return f"(not {e(node['x'], scope)})"
        if op == "neg":
            return f"(-NUMBER({e(node['x'], scope)}, 'the value'))"
        if op in ("and", "or"):
            return f"(bool({e(node['a'], scope)}) {op} bool({e(node['b'], scope)}))"
        if op in ("eq", "ne"):
            sign = "==" if op == "eq" else "!="
            return f"({e(node['a'], scope)} {sign} {e(node['b'], scope)})"
        if op in ("lt", "le", "gt", "ge"):
            return f"ORDER_{op}({e(node['a'], scope)}, {e(node['b'], scope)})"
        if op in ("add", "sub", "mul"):
            sign = {"add": "+", "sub": "-", "mul": "*"}[op]
            x, y = self.t(), self.t()
            return (f"(({x} if type({x} := {e(node['a'], scope)}) is int else "
                    f"NUMBER({x}, 'the left side')) {sign} ({y} if type({y} := "
                    f"{e(node['b'], scope)}) is int else NUMBER({y}, 'the right side')))")
        if op == "join":
            return f"(AS_LIST({e(node['a'], scope)}) + AS_LIST({e(node['b'], scope)}))"
        if op == "if":
            return (f"({e(node['then'], scope)} if {e(node['cond'], scope)} "
                    f"else {e(node['else'], scope)})")
        if op == "agg":
            return self.agg(node, scope)
        return self.fallback(node, scope)

    def agg(self, node: IR, scope: set[str]) -> str:
        fn, var = node["fn"], node["var"]
        inner = scope | {var}
        v = self.var(var)
        # Python forbids ':=' in a comprehension's iterable, so the collection is
        # evaluated outside, as the argument of a one-line function.
        given = self.expr(node["in"], scope)
        source = "(s or ())"
        where = self.expr(node["where"], inner) if node.get("where") else None
        value = self.expr(node["value"], inner) if node.get("value") else None
        keep = f" if {where}" if where else ""
        if fn == "count" and where is None:
            return f"len({given} or ())"
        if fn == "select":
            body = f"[{v} for {v} in {source}{keep}]"
        elif fn == "count":
            body = f"len([{v} for {v} in {source}{keep}])"
        elif fn in ("any", "all"):
            test = value or where or "True"
            pick = f" if {where}" if value is not None and where else ""
            body = f"{fn}(bool({test}) for {v} in {source}{pick})"
        else:
            numbers = f"[NUMBER({value or v}, 'a value in {fn}') for {v} in {source}{keep}]"
            body = f"sum({numbers})" if fn == "sum" else f"EXTREME({fn}, {numbers})"
        return f"(lambda s: {body})({given})"


def _order(op: str) -> Callable[[Any, Any], bool]:
    compare = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
               "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}[op]
    return lambda a, b: a is not None and b is not None and compare(a, b)


def compile_defines(game: Game, dump: bool = False) -> dict[str, Callable[..., Any]]:
    generator = Generator(game)
    source = generator.module()
    if dump:
        print(source)
    namespace: dict[str, Any] = {
        "BUILTINS": BUILTINS, "CONSTS": game.program.consts, "NUMBER": _number,
        "AS_LIST": as_list, "FALLBACK": generator.fallbacks,
        "EXTREME": lambda fn, xs: None if not xs else fn(xs),
        **{f"ORDER_{op}": _order(op) for op in ("lt", "le", "gt", "ge")}}
    exec(compile(source, "<generated rules>", "exec"), namespace)
    return {name: namespace[generator.name(name)] for name in game.program.rules["defines"]}


def positions(pack: str, players: int, count: int) -> list[Game]:
    tables = compiled_tables(bundled_pack(pack))  # type: ignore[arg-type]
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None,
                        budget=20_000)
        agent = RandomAgent(seed)
        step = 0
        try:
            while not game.terminal and len(found) < count:
                game.apply(agent.choose(game))
                step += 1
                if step % 7 == 0:
                    found.append(game.clone())
        except RulesError:
            pass
        seed += 1
    return found


def run(calls: list[tuple[Game, Callable[..., Any], tuple[int, ...]]]) -> tuple[float, list[Any]]:
    out: list[Any] = []
    start = time.process_time()
    for game, define, args in calls:
        game.memo = {}
        try:
            out.append(define(game, *args))
        except (RulesError, TypeError, IndexError, KeyError, AttributeError) as exc:
            out.append(type(exc).__name__)
    return time.process_time() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pack", default="era")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--dump", action="store_true")
    args = parser.parse_args()
    games = positions(args.pack, args.players, args.positions)
    generated = compile_defines(games[0], args.dump)
    if args.dump:
        return
    specs = games[0].program.rules["defines"]
    calls_old, calls_new = [], []
    for game in games:
        for name, spec in specs.items():
            if len(spec["params"]) > 2:
                continue
            for values in itertools.product((0, 1), repeat=len(spec["params"])):
                calls_old.append((game, game.program.defines[name], values))
                calls_new.append((game, generated[name], values))
    rounds = []
    for _ in range(args.rounds):
        old, old_out = run(calls_old)
        new, new_out = run(calls_new)
        assert old_out == new_out, "generated defines disagree with the closures"
        rounds.append(old / new)
    rounds.sort()
    print(f"{args.pack}: {len(calls_old):,} define calls over {len(games)} positions; "
          f"closures {old:.3f} s, generated {new:.3f} s (CPU, last round); "
          f"closures / generated, median of {args.rounds} rounds: {rounds[len(rounds) // 2]:.2f}x")


if __name__ == "__main__":
    main()
