"""A pack's rules IR made ready to run: numbered statements, compiled expressions, flows.

Loading does the work a playout must not repeat: every expression becomes a closure
(``expressions``), every statement list gets a block number, and every flow block a flow
number, so a position in the rules is a pair of small integers that a saved game can hold
(``docs/design/engine-plan.md``).  Nothing here changes during a game, so one Program
serves every game played from the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import decklore.runtime.parts as pt
from decklore.runtime import blockgen, codegen
from decklore.runtime.builtins import BUILTINS
from decklore.runtime.card_refs import card_list_fields
from decklore.runtime.codegen import Generated
from decklore.runtime.expressions import Compiler, Env, Expr, RulesError
from decklore.runtime.memo import SEATS, MemoKeys, seat_keys, split_positions
from decklore.runtime.moves import MovePlan
from decklore.runtime.reads import OUT as OUT_TAG
from decklore.runtime.reads import Reads, zone_tag
from decklore.runtime.seat_reads import SeatReads, symbols_per_seat
from decklore.runtime.state import SPACE, space_names, zone_rows
from decklore.runtime.tables import Tables

IR = Mapping[str, Any]
Location = Callable[[Any, Env], tuple[str, int | None]]
_LOOP_SUBJECT: dict[str | None, str] = {"cards": "card", "players": "player"}
"""What a decision inside a loop names, from what the checker says the loop walks: the
loop's current card or player (the option's label, then the card's name in brackets)."""


P = TypeVar("P")


@dataclass(slots=True)
class Stmt(Generic[P]):
    """One statement: what it does, where it is written, and its compiled parts (one of
    the ``TypedDict`` kinds in ``runtime/parts.py``)."""

    do: str
    at: str
    x: P


@dataclass(slots=True)
class Flow:
    """A flow block (setup, game, era, round, turn, phase, step) with numbered parts."""

    id: int
    kind: str
    name: str
    label: str
    at: str
    start: int | None
    end: int | None
    body: int | None
    order: Expr | None
    children: list[int] = field(default_factory=list)


@dataclass(slots=True)
class Trigger:
    event: str
    params: list[str]
    where: Expr | None
    body: int
    at: str


@dataclass(slots=True)
class Outcome:
    kind: str
    var: str
    when: Expr
    label: str
    at: str


class Program:
    """The runnable form of one pack's rules."""

    def __init__(self, tables: Tables, *, generated: bool | None = None) -> None:
        rules = tables.raw.get("rules")
        if not rules:
            raise RulesError(f"pack {tables.pack['id']} has no rules to play")
        self.tables = tables
        self.rules = rules
        self.zones: dict[str, IR] = {z["name"]: z for z in zone_rows(rules)}
        self.spaced: dict[str, list[str]] = {
            z["name"]: space_names(z["name"], int(z["spaces"]))
            for z in rules["zones"] if z.get("spaces")}
        """Zones made of numbered spaces, and the zones their spaces are kept as."""
        self.counters: dict[str, IR] = {c["name"]: c for c in rules["counters"]}
        self.flags: dict[str, IR] = {f["name"]: f for f in rules["flags"]}
        self.resets: dict[str, list[tuple[str, Any]]] = {}
        """Per period, the counters (name, start value) and flags (name, None) it resets."""
        for spec in rules["counters"]:
            if spec["until"]:
                self.resets.setdefault(spec["until"], []).append((spec["name"], spec["start"]))
        for spec in rules["flags"]:
            if spec["until"]:
                self.resets.setdefault(spec["until"], []).append((spec["name"], None))
        self.marks_cleared_on_move = self.resets.get("moved", [])
        """Per-card counters and flags a card loses when it moves (``until moved``)."""
        self.move_plans: dict[tuple[str, str], MovePlan | None] = {}
        """What a plain move between two zones forgets, by (from, to), made as moves
        happen (``runtime/moves.py``)."""
        self.card_marks = (tuple(c["name"] for c in rules["counters"] if c["per"] == "card"),
                           tuple(f["name"] for f in rules["flags"] if f["per"] == "card"))
        """The counters and flags of cards: a determinized copy deals them again with the
        faces (``determinize.py``)."""
        self.block_marks: list[tuple[str, str]] = [
            (c["name"], c["blocks"]) for c in rules["counters"] if c.get("blocks")]
        """Per-card counters that place blocks of a symbol on a card (``blocks SYMBOL``)."""
        self.removing_marks: list[tuple[str, str]] = [
            (f["name"], f["removes"]) for f in rules["flags"] if f.get("removes")]
        """Per-card flags that take a symbol off a card (``removes SYMBOL``)."""
        self.symbol_marks = frozenset(name for name, _ in self.block_marks + self.removing_marks)
        """The marks whose change changes symbol totals."""
        self.lock_fields = [spec["name"] for spec in tables.raw["card_fields"]
                            if spec["type"] == "lock"]
        self.unblockable_kinds = frozenset(
            k["id"] for k in tables.raw["card_kinds"] if k.get("unblockable"))
        self.under_kinds = frozenset(
            k["id"] for k in tables.raw["card_kinds"] if k.get("counts_under"))
        deck_tags = {d["id"]: d["tags"] for d in tables.raw["decks"]}
        self.card_rows: dict[str, dict[str, Any]] = {
            row["id"]: {**row, "all_tags": frozenset(
                [*row.get("tags", ()), *deck_tags.get(row["deck"], ())])}
            for row in tables.raw["cards"]}
        """Each card's row; ``all_tags`` adds its deck's tags to its own (a card has the tags
        of the deck it is in)."""
        self.symbol_ids = [s["id"] for s in tables.raw["symbols"]]
        self.consts: dict[str, Any] = {}
        self.defines: dict[str, Callable[..., Any]] = {}
        self.compiler = Compiler(self.defines, self.consts, BUILTINS, self.spaced, frozenset(
            name for name, z in self.zones.items() if z["per"] == "player"),
            card_list_fields(tables.raw["card_fields"]))
        self.copies_by_layout: dict[tuple[int, tuple[str, ...]], dict[str, list[int]]] = {}
        """Each card id's copies, per game layout (see ``card_refs``)."""
        self.stmts: list[Stmt[Any]] = []
        self.blocks: list[list[int]] = []
        self.flows: list[Flow] = []
        self.reads = Reads(rules["defines"])
        """What each define reads, so that a change forgets only the values it affects."""
        self.seat_reads = SeatReads(rules["defines"], self.reads, frozenset(
            name.split(SPACE)[0] for name, z in self.zones.items() if z["per"] == "player"))
        """Whose zones, counters and symbols each define reads, by its arguments: a change
        of one seat's forgets only the values about that seat."""
        self.memo_split = split_positions(self.seat_reads, self.reads, self.counters,
                                          self.flags)
        """The defines remembered in one table per seat, by the argument that is the seat
        (``memo``): the generated defines and ``_define`` lay their tables out so."""
        most = tables.pack.get("players", {}).get("max")
        seats = max(SEATS, most) if type(most) is int else SEATS
        self.memo_seat_keys = {name: seat_keys(name, seats) for name in self.memo_split}
        """The keys of each per-seat define's tables, by seat."""
        self.memo_owner = {key: name for name, keys in self.memo_seat_keys.items()
                           for key in keys}
        """The define each per-seat table belongs to, by its key."""
        self._memo_keys: dict[int, MemoKeys] = {}
        self._load_consts(rules["consts"])
        self.generated: Generated | None = None
        """The generated module (``codegen``), or None when the closures run everything."""
        if codegen.enabled() if generated is None else generated:
            self.generated = codegen.generate(self)
            self.defines.update(self.generated.defines)
            self.compiler = codegen.GeneratedCompiler(self.compiler, self.generated.roots)
        else:
            for name, spec in rules["defines"].items():
                self.defines[name] = self._define(name, spec)
        self.actions: dict[str, dict[str, Any]] = {}
        for name, spec in rules["actions"].items():
            self.actions[name] = {"params": list(spec["params"]), "label": spec.get("label"),
                                  "limit": spec.get("limit"), "at": spec["at"],
                                  "body": self.add_body(spec["body"])}
        self.top_flows = [self._flow(f) for f in rules["flow"]]
        self.triggers: dict[str, list[Trigger]] = {}
        for spec in rules["triggers"]:
            self.triggers.setdefault(spec["event"], []).append(Trigger(
                spec["event"], list(spec["params"]), self._opt(spec.get("where")),
                self.add_body(spec["body"]), spec["at"]))
        self.outcomes = [Outcome(o["kind"], o["player"], self.expr(o["when"]),
                                 o.get("label") or o["kind"], o["at"])
                         for o in rules["outcomes"]]
        self.symbols_per_seat = symbols_per_seat(self.card_rows.values(), self.zones)
        """Whether a seat's symbol totals are made of its own units alone (``seat_reads``)."""
        self.outcome_reads = [self.reads.of(o["when"]) | {OUT_TAG} for o in rules["outcomes"]]
        """What each outcome reads (and who is still in), so it is checked only after a
        change to one of them."""
        self.outcomes_read: frozenset[str] = frozenset().union(*self.outcome_reads)
        """What any outcome reads: a change to none of it needs no outcome looked at."""
        self.zone_tags = {name: zone_tag(name.split(SPACE)[0]) for name in self.zones}
        """The tag of each zone the state keeps: a space's is its zone's."""
        score = rules.get("score")
        self.score: tuple[str, Expr] | None = (
            (score["player"], self.expr(score["value"])) if score else None)
        self.tiebreak = [self.expr(e) for e in rules.get("tiebreak") or []]
        self.blocks_generated: blockgen.Runners | None = (
            None if self.generated is None else blockgen.generate(self))
        """Every block as a generated function (``blockgen``), or None: the run loop
        interprets the statements (with generated code off)."""

    def memo_keys(self, players: int) -> MemoKeys:
        """What each kind of change forgets of the memo of a game of ``players`` seats."""
        found = self._memo_keys.get(players)
        if found is None:
            found = self._memo_keys[players] = MemoKeys(
                self.reads, self.seat_reads, self.memo_seat_keys, players)
        return found

    # --- expressions ------------------------------------------------------------------

    def expr(self, node: IR) -> Expr:
        return self.compiler.expr(node)

    def _opt(self, node: IR | None) -> Expr | None:
        return None if node is None else self.compiler.expr(node)

    def _load_consts(self, consts: Mapping[str, IR]) -> None:
        pending = dict(consts)
        while pending:
            progressed = False
            for name, node in list(pending.items()):
                try:
                    self.consts[name] = self.compiler.expr(node)(None, {})  # type: ignore[arg-type]
                except (KeyError, AttributeError, TypeError):
                    continue
                del pending[name]
                progressed = True
            if not progressed:
                raise RulesError("constants that depend on each other in a loop: "
                                 + ", ".join(sorted(pending)))

    def _define(self, name: str, spec: IR) -> Callable[..., Any]:
        """A define as a function of the game and its arguments, remembered until something
        it reads changes (``reads``): between two such changes the rules ask the same
        questions many times (every legal action of a phase re-reads what can be played).
        ``g.memo`` holds one table per define (or per define and seat, ``memo``), keyed by
        the arguments; a clone shares its parent's tables, and each copies a table before
        writing to it (``g.owned``: the tables this game may write)."""
        body = self.compiler.expr(spec["body"])
        params = list(spec["params"])
        single = len(params) == 1
        at = spec["at"]
        split = self.memo_split.get(name)  # one table per seat (``memo``), or None
        keys = self.memo_seat_keys.get(name, ())

        def run(g: Any, *args: Any) -> Any:
            try:
                key = name if split is None else keys[args[split]]
            except (TypeError, IndexError):  # a list or no seat there, arguments missing
                return evaluate(g, args)
            memo = g.memo.get(key)
            if memo is not None:
                try:
                    return memo[args]
                except KeyError:
                    pass
                except TypeError:  # a list argument: not worth remembering
                    return evaluate(g, args)
            elif any(type(a) is list for a in args):
                return evaluate(g, args)  # cards or players as an argument: not a key
            value = evaluate(g, args)
            if type(value) is list:
                value = list(value)  # not a zone's own list, which may change under a clone
            if split is not None and not (
                    type(seat := args[split]) is int and 0 <= seat < g.state.players):
                return value  # about no seat of the game: not remembered
            if memo is None:
                g.memo[key] = {args: value}
                g.owned.add(key)
            elif key in g.owned:
                memo[args] = value
            else:  # shared with a clone since: copied before it is written
                memo = g.memo[key] = dict(memo)
                memo[args] = value
                g.owned.add(key)
            return value

        def evaluate(g: Any, args: tuple[Any, ...]) -> Any:
            try:
                return body(g, {params[0]: args[0]} if single else dict(
                    zip(params, args, strict=True)))
            except RulesError as exc:
                if exc.at is None:
                    exc.at = at
                raise
            except RecursionError:
                raise RulesError(f"'{name}' calls itself without end", at) from None
        return run

    def _space_name(self, zone: str, node: IR) -> Callable[[Any, Env], str]:
        """The zone a location names: for a zone of spaces, the numbered space."""
        names = self.spaced.get(zone)
        if names is None:
            return lambda g, env: zone
        spaces = len(names)
        if node.get("space") is None:
            raise RulesError(f"zone '{zone}' has {spaces} spaces: say which, as "
                             f"{zone}(p, 1)")
        number = self.compiler.expr(node["space"])

        def name(g: Any, env: Env) -> str:
            value = number(g, env)
            if not isinstance(value, int) or not 1 <= value <= spaces:
                raise RulesError(f"zone '{zone}' has spaces 1 to {spaces}, not {value}")
            return names[value - 1]
        return name

    def location(self, node: IR) -> Location:
        """A zone expression read as a place to put cards rather than the cards in it."""
        if node.get("op") == "zone":
            zone = node["zone"]
            name = self._space_name(zone, node)
            if node.get("player") is None:
                return lambda g, env: (name(g, env), None)
            player = self.compiler.expr(node["player"])
            return lambda g, env: (name(g, env), player(g, env))
        if node.get("op") == "call" and node.get("fn") == "zone_of":
            card = self.compiler.expr(node["args"][0])
            return lambda g, env: g.location(card(g, env))
        raise RulesError("a zone is needed here: name one with its player, such as ZONE(me)")

    # --- statements -------------------------------------------------------------------

    def add_body(self, statements: list[IR] | None) -> int:
        """Number a statement list (its statements first, so nested blocks come later)."""
        ids = [self._stmt(s) for s in statements or []]
        self.blocks.append(ids)
        return len(self.blocks) - 1

    def _stmt(self, s: IR) -> int:
        do = s["do"]
        e, opt = self.expr, self._opt
        x: Any
        if do == "move":
            x = pt.MoveParts(what=e(s["what"]), to=self.location(s["to"]),
                             facing=s.get("facing"), position=s.get("position"),
                             depth=opt(s.get("depth")))
        elif do == "draw":
            x = pt.DrawParts(count=e(s["count"]), src=self.location(s["from"]),
                             to=self.location(s["to"]), facing=s.get("facing"))
        elif do == "shuffle":
            x = pt.ShuffleParts(zone=self.location(s["zone"]))
        elif do == "reveal":
            x = pt.RevealParts(what=e(s["what"]), to=opt(s.get("to")))
        elif do == "destroy":
            x = pt.DestroyParts(what=e(s["what"]),
                                to=self.location(s["to"]) if s.get("to") else None)
        elif do in ("stack", "tuck"):
            x = pt.StackParts(what=e(s["what"]), onto=e(s["onto"]))
        elif do in ("gain", "spend"):
            x = pt.GainParts(amount=e(s["amount"]), kind=s["kind"], name=s["name"],
                             of=opt(s.get("of")))
        elif do in ("set", "clear"):
            x = pt.SetParts(kind=s["kind"], name=s["name"], of=opt(s.get("of")),
                            value=opt(s.get("value")))
        elif do == "pay":
            sources: list[pt.PaySource] = []
            for src in s["sources"]:
                if "zone" in src:
                    sources.append(("zone", self.location(src["zone"]), src.get("valued")))
                else:
                    counter = src["counter"]
                    sources.append(("counter", counter["name"], opt(counter.get("of"))))
            change = s.get("change")
            x = pt.PayParts(amount=e(s["amount"]), sources=sources,
                            change=None if change is None else (change["name"],
                                                                opt(change.get("of"))))
        elif do == "let":
            x = pt.LetParts(name=s["name"], value=e(s["value"]))
        elif do == "call":
            x = pt.CallParts(action=s["action"], args=[e(a) for a in s["args"]])
        elif do == "end":
            x = pt.EndParts(period=s["period"])
        elif do in ("fail", "log"):
            x = pt.MessageParts(message=s["message"])
        elif do == "if":
            x = pt.IfParts(branches=[(e(b["when"]), self.add_body(b["then"]))
                                     for b in s["branches"]],
                           otherwise=None if s.get("else") is None else self.add_body(s["else"]))
        elif do == "for_each":
            x = pt.ForEachParts(var=s["var"], items=e(s["in"]), where=opt(s.get("where")),
                                body=self.add_body(s["body"]),
                                about=_LOOP_SUBJECT.get(s.get("walks")))
        elif do == "repeat":
            x = pt.RepeatParts(times=e(s["times"]), body=self.add_body(s["body"]))
        elif do == "repeat_while":
            x = pt.WhileParts(cond=e(s["while"]), body=self.add_body(s["body"]))
        elif do == "repeat_until_pass":
            x = pt.UntilPassParts(label=s.get("label"), cond=opt(s.get("while")),
                                  body=self.add_body(s["body"]))
        elif do == "may":
            x = pt.MayParts(label=s.get("label"), body=self.add_body(s["body"]))
        elif do == "as":
            x = pt.AsParts(player=e(s["player"]), body=self.add_body(s["body"]))
        elif do == "choose":
            count = s.get("count")
            x = pt.ChooseParts(kind=s["kind"], var=s["var"], items=e(s["from"]),
                               where=opt(s.get("where")),
                               count=None if count is None else (count["kind"], e(count["n"])),
                               label=s.get("label"), optional=bool(s.get("optional")),
                               body=self.add_body(s["body"]))
        elif do == "choose_number":
            x = pt.ChooseNumberParts(var=s["var"], low=e(s["low"]), high=e(s["high"]),
                                     where=opt(s.get("where")), label=s.get("label"),
                                     body=self.add_body(s["body"]))
        elif do == "choose_one":
            x = pt.ChooseOneParts(label=s.get("label"), options=[
                pt.OptionParts(name=o["name"],
                               label=o.get("label") or o["name"].replace("_", " "),
                               when=opt(o.get("when")), limit=o.get("limit"),
                               body=self.add_body(o["body"]), at=o.get("at", s["at"]))
                for o in s["options"]])
        else:
            raise RulesError(f"the engine does not know the statement '{do}'", s.get("at"))
        self.stmts.append(Stmt(do, s["at"], x))
        return len(self.stmts) - 1

    def _flow(self, spec: IR) -> int:
        flow = Flow(len(self.flows), spec["kind"], spec.get("name") or spec["kind"],
                    spec.get("label") or spec.get("name") or spec["kind"], spec["at"],
                    None, None, None, self._opt(spec.get("order")))
        self.flows.append(flow)
        if spec.get("start"):
            flow.start = self.add_body(spec["start"])
        if spec.get("end"):
            flow.end = self.add_body(spec["end"])
        if spec.get("body"):
            flow.body = self.add_body(spec["body"])
        flow.children = [self._flow(child) for child in spec.get("children") or []]
        return flow.id


_PROGRAMS: dict[tuple[str, bool], Program] = {}


def program_for(tables: Tables) -> Program:
    """The Program of these tables, built once per content hash (and per evaluator: with
    generated code or with the closures alone, ``codegen.enabled``)."""
    on = codegen.enabled()
    key = (tables.content_hash, on)
    found = _PROGRAMS.get(key)
    if found is None:
        found = Program(tables, generated=on)
        _PROGRAMS[key] = found
    return found
