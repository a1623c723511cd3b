"""Resolve names, check types and lower a parsed rules program to its IR, in one walk.

Every name is looked up against the program (zones, counters, flags, constants,
definitions, actions, locals) and the pack (symbols, card kinds, card fields); a misspelled
name gets a ``did you mean``.  Each check returns the expression's type and its IR, so a
program that checks cleanly is already lowered.  The IR is plain JSON data, documented in
``docs/rules-ir.md``; the runtime interprets it and knows no game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.manifest import Manifest
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.builtins import (
    BUILTINS,
    CARD_PROPERTIES,
    COUNTER_OPTIONS,
    EVENTS,
    FLAG_OPTIONS,
    FLOW_NESTING,
    PERIODS,
    VISIBILITY,
    ZONE_OPTIONS,
)
from decklore.compiler.rules.says import check_wording

IR = dict[str, Any]
FIELD_TYPES = {"int": "number", "bool": "bool", "text": "text", "enum": "text", "lock": "lock",
               "symbols": "any", "symbol_value": "value", "card": "card"}
VALUE_MEMBERS = {"symbol": "symbol", "value": "number", "per_stacked": "number"}
COLLECTIONS = {"cards": "card", "zone": "card", "players": "player"}
WALKS = {"cards": "cards", "zone": "cards", "players": "players"}
"""What a loop, an aggregate or a choice walks, written into the IR as ``walks`` so the
runtime need not guess it from builtin names (null: the checker cannot tell, as for a
definition's parameter)."""


def _compatible(actual: str, wanted: str) -> bool:
    """Whether a value of type ``actual`` may stand where ``wanted`` is expected."""
    if "any" in (actual, wanted) or actual == wanted:
        return True
    # One card (player) stands for a list of one; a text may name a lock letter.
    return (actual, wanted) in {("card", "cards"), ("player", "players"), ("text", "lock"),
                                ("zone", "cards")}


@dataclass
class _Decl:
    """A declared name, where it is, and whether anything used it."""

    kind: str
    node: Any
    span: Span
    used: bool = False


@dataclass
class _Scope:
    """Local names of a block, chained to the enclosing block."""

    names: dict[str, str] = field(default_factory=dict)
    parent: _Scope | None = None

    def lookup(self, name: str) -> str | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def child(self, **names: str) -> _Scope:
        return _Scope(dict(names), self)

    def visible(self) -> set[str]:
        out: set[str] = set()
        scope: _Scope | None = self
        while scope is not None:
            out |= set(scope.names)
            scope = scope.parent
        return out


class RulesChecker:
    """Checks the rules files of one pack against its manifest and lowers them to IR."""

    def __init__(self, manifest: Manifest, diags: Diagnostics, pack_prefix: str = "",
                 other_packs: dict[str, str] | None = None) -> None:
        self.m = manifest
        self.diags = diags
        self.prefix = pack_prefix  # display path of the pack folder, stripped from origins
        # In a mod: the display path of each pack below -> 'id:' put before its files' names
        self.other_packs = other_packs or {}
        self.decls: dict[str, _Decl] = {}
        self.filled: set[str] = set()  # zones that some rule puts cards into
        self.chosen_from: list[tuple[str, Span]] = []
        self.define_types: dict[str, str] = {}
        self._defining: set[str] = set()
        self.player_var = "p"
        self.worded: list[tuple[n.Says, Any]] = []  # says lines and what each describes

    # --- entry point -------------------------------------------------------------------

    def check(self, programs: Iterable[n.Program]) -> IR:
        programs = list(programs)
        for program in programs:
            for decl in program.declarations:
                self._declare(decl)
        ir: IR = {"zones": [], "counters": [], "flags": [], "consts": {}, "defines": {},
                  "actions": {}, "flow": [], "triggers": [], "outcomes": [], "score": None,
                  "tiebreak": []}
        looping: n.Flow | None = None
        for decl in [d for p in programs for d in p.declarations]:
            if isinstance(decl, n.Flow):
                if looping is not None:
                    self.diags.warning("W203", f"this '{decl.kind}' block never runs",
                                       decl.span, f"the '{looping.kind}' block above repeats "
                                       "until the game ends; put this block before it",
                                       notes=[(looping.span, "repeats until the game ends")])
                elif decl.kind in ("round", "turn"):
                    looping = decl
            self._lower_decl(decl, ir)
        self._warn_unused()
        self._warn_unfilled()
        if not self.diags.has_errors:
            check_wording(ir, self.worded, {s.split(":")[-1] for s in self.m.symbols},
                          self.diags)
        return ir

    # --- declarations ------------------------------------------------------------------

    def _declare(self, decl: n.Declaration) -> None:
        name: str | None = None
        kind = ""
        if isinstance(decl, n.StateDecl):
            name, kind = decl.name, decl.kind
        elif isinstance(decl, n.ConstDecl):
            name, kind = decl.name, "const"
        elif isinstance(decl, n.DefineDecl):
            name, kind = decl.name, "define"
        elif isinstance(decl, n.ActionDecl):
            name, kind = decl.name, "action"
        if isinstance(decl, n.ScoreDecl):
            self.player_var = decl.player  # the tiebreak reads the score's player name
        if name is None:
            return
        if name in self.decls:
            first = self.decls[name]
            self.diags.error("R100", f"'{name}' is already declared (as a {first.kind})",
                             decl.span, "give each zone, counter, flag, constant, definition "
                             "and action its own name", notes=[(first.span, "declared here")])
            return
        clash = self._pack_name_kind(name)
        if clash:
            self.diags.error("R101", f"'{name}' is already the name of a {clash} in the pack",
                             decl.span, "choose another name, so rules can still name the "
                             f"{clash}")
        if name in BUILTINS or name == "me":
            self.diags.error("R101", f"'{name}' is a builtin name", decl.span,
                             "choose another name")
        self.decls[name] = _Decl(kind, decl, decl.span)
        if kind == "define" and isinstance(decl, n.DefineDecl):
            self.define_types.setdefault(name, "")

    def _pack_name_kind(self, name: str) -> str:
        if name in self.m.symbols:
            return "symbol"
        if name in self.m.kinds:
            return "card kind"
        return ""

    def _origin(self, span: Span) -> str:
        for folder, pack in self.other_packs.items():
            if span.file.startswith(folder):
                return f"{pack}:{span.file.removeprefix(folder)}:{span.line}"
        return f"{span.file.removeprefix(self.prefix)}:{span.line}"

    def _lower_decl(self, decl: n.Declaration, ir: IR) -> None:
        if isinstance(decl, n.StateDecl):
            if self.decls.get(decl.name, _Decl("", None, decl.span)).node is decl:
                ir[decl.kind + "s"].append(self._state(decl))
        elif isinstance(decl, n.ConstDecl):
            _, value = self._expr(decl.value, _Scope())
            ir["consts"][decl.name] = value
        elif isinstance(decl, n.DefineDecl):
            params = decl.params or ()
            scope = _Scope({p: "any" for p in params})
            kind, body = self._expr(decl.body, scope)
            ir["defines"][decl.name] = {"params": list(params), "body": body, "type": kind,
                                        "at": self._origin(decl.span)}
            if decl.says is not None:
                ir["defines"][decl.name]["says"] = decl.says.text
                self.worded.append((decl.says, decl.name))
        elif isinstance(decl, n.ActionDecl):
            params = decl.params or ()
            scope = _Scope({p: "any" for p in params})
            ir["actions"][decl.name] = {
                "params": list(params), "label": decl.label or decl.name.replace("_", " "),
                "limit": self._limit(decl.limit), "body": self._block(decl.body, scope),
                "at": self._origin(decl.span),
            }
            if decl.says is not None:
                ir["actions"][decl.name]["says"] = decl.says.text
                self.worded.append((decl.says, decl.name))
        elif isinstance(decl, n.Flow):
            ir["flow"].append(self._flow(decl, "", _Scope()))
        elif isinstance(decl, n.Trigger):
            ir["triggers"].append(self._trigger(decl))
        elif isinstance(decl, n.Outcome):
            scope = _Scope({decl.player: "player"})
            ir["outcomes"].append({
                "kind": decl.kind, "player": decl.player,
                "when": self._condition(decl.condition, scope),
                "label": decl.label or "", "at": self._origin(decl.span),
            })
            if decl.says is not None:
                ir["outcomes"][-1]["says"] = decl.says.text
                self.worded.append((decl.says, ir["outcomes"][-1]))
        elif isinstance(decl, n.ScoreDecl):
            if ir["score"] is not None:
                self.diags.error("R100", "the game already has a score", decl.span,
                                 "keep one 'score' declaration")
            _, value = self._typed(decl.expr, _Scope({decl.player: "player"}), "number")
            ir["score"] = {"player": decl.player, "value": value, "at": self._origin(decl.span)}
            if decl.says is not None:
                ir["score"]["says"] = decl.says.text
                self.worded.append((decl.says, ir["score"]))
        elif isinstance(decl, n.TiebreakDecl):
            scope = _Scope({self.player_var: "player"})
            ir["tiebreak"] = [self._typed(e, scope, "number")[1] for e in decl.exprs]

    def _state(self, decl: n.StateDecl) -> IR:
        allowed = {"zone": ZONE_OPTIONS, "counter": COUNTER_OPTIONS, "flag": FLAG_OPTIONS}[
            decl.kind]
        seen: dict[str, n.Option] = {}
        for option in decl.options:
            if option.name not in allowed:
                self.diags.error("R102", f"unknown {decl.kind} option '{option.name}'",
                                 option.span, suggest(option.name, allowed) or
                                 f"{decl.kind} options: {', '.join(allowed)}")
                continue
            wants = allowed[option.name]
            if wants is not None and wants.endswith("?"):  # the value may be left out
                wants = None if option.value is None else wants[:-1]
            if wants is None and option.value is not None:
                self.diags.error("R102", f"{decl.kind} option '{option.name}' takes no value",
                                 option.span, f"write just '{option.name}'")
            elif wants is not None and option.value is None:
                self.diags.error("R102", f"{decl.kind} option '{option.name}' needs a value",
                                 option.span, f"write '{option.name} <{wants}>'")
            elif wants == "number" and not isinstance(option.value, int):
                self.diags.error("R102", f"{decl.kind} option '{option.name}' needs a number",
                                 option.span, f"write '{option.name} 0'")
            elif wants == "period" and option.value == "moved":
                if not any(o.name == "per_card" for o in decl.options):
                    self.diags.error("R102", "'until moved' is for marks on cards: it needs "
                                     "per_card", option.span,
                                     "add per_card, or use a period: " + ", ".join(PERIODS))
            elif wants == "symbol" and str(option.value) not in self.m.symbols:
                self.diags.error("R110", f"unknown symbol '{option.value}'", option.span,
                                 suggest(str(option.value), self.m.symbols) or
                                 "name a symbol of the pack")
            elif wants == "symbol" and not any(o.name == "per_card" for o in decl.options):
                self.diags.error("R102", f"'{option.name}' is for marks on cards: it needs "
                                 "per_card", option.span, "add per_card")
            elif wants == "period" and option.value not in PERIODS:
                self.diags.error("R102", f"'until' needs a period, not '{option.value}'",
                                 option.span, f"use one of: {', '.join(PERIODS)}, or moved "
                                 "(per_card)")
            seen[option.name] = option
        scopes = [s for s in ("per_player", "per_card", "global", "shared") if s in seen]
        if len(scopes) > 1:
            self.diags.error("R103", f"{decl.kind} '{decl.name}' has more than one scope "
                             f"({', '.join(scopes)})", decl.span, "keep one")
        out: IR = {"name": decl.name, "label": decl.label or decl.name.replace("_", " "),
                   "at": self._origin(decl.span)}
        if decl.kind == "zone":
            visibility = [v for v in VISIBILITY if v in seen]
            if len(visibility) > 1:
                self.diags.error("R103", f"zone '{decl.name}' has more than one visibility "
                                 f"({', '.join(visibility)})", decl.span, "keep one")
            refill, spent = seen.get("refill"), seen.get("spent")
            for ref in (refill, spent):
                if ref is None:
                    continue
                target = self.decls.get(str(ref.value))
                if target is None or target.kind != "zone":
                    self.diags.error("R110", f"unknown zone '{ref.value}'", ref.span,
                                     suggest(str(ref.value), self._names("zone")) or
                                     "declare the zone with 'zone NAME: ...'")
                else:
                    target.used = True
                    if ref is spent:
                        self.filled.add(str(ref.value))
            if "deck" in seen or "holds" in seen:
                self.filled.add(decl.name)
            out.update(
                per="shared" if "shared" in seen or "per_player" not in seen else "player",
                ordered="ordered" in seen,
                visibility=visibility[0] if visibility else "public",
                stacks="stacks" in seen, symbols="symbols" in seen,
                deck=(seen["deck"].value or True) if "deck" in seen else False,
                holds=seen["holds"].value if "holds" in seen else None,
                refill=refill.value if refill else None,
                spent=spent.value if spent else None,
                slots=seen["slots"].value if "slots" in seen else None,
                spaces=seen["spaces"].value if "spaces" in seen else None,
            )
            for word in ("distinct", "for_opponents", "bag"):  # written only when used
                if word in seen:
                    out[word] = True
            if "bag" in seen and "ordered" in seen:
                self.diags.error("R103", f"zone '{decl.name}' is a bag and ordered: a bag has "
                                 "no order", seen["bag"].span,
                                 "drop 'ordered': cards are drawn from a bag at random")
        else:
            scope = scopes[0] if scopes else "per_player"
            out["per"] = {"per_player": "player", "per_card": "card", "global": "game",
                          "shared": "game"}[scope]
            if decl.kind == "counter":
                low = seen["min"].value if "min" in seen else 0
                high = seen["max"].value if "max" in seen else None
                out.update(min=low, max=high,
                           start=seen["start"].value if "start" in seen else low,
                           until=seen["until"].value if "until" in seen else None)
                if "blocks" in seen:
                    out["blocks"] = self.m.qualify(str(seen["blocks"].value))
            else:
                out["until"] = seen["until"].value if "until" in seen else None
                if "removes" in seen:
                    out["removes"] = self.m.qualify(str(seen["removes"].value))
        return out

    # --- flow, triggers ------------------------------------------------------------------

    def _flow(self, flow: n.Flow, parent: str, scope: _Scope) -> IR:
        allowed = FLOW_NESTING.get(parent, ())
        where = f"inside '{parent}'" if parent else "at the top of a file"
        if flow.kind not in allowed:
            self.diags.error("R130", f"a '{flow.kind}' block cannot stand {where}", flow.span,
                             f"here you can use: {', '.join(allowed)}" if allowed else
                             f"a '{parent}' holds statements, not blocks")
        out: IR = {"kind": flow.kind, "name": flow.name or flow.kind,
                   "label": flow.label or (flow.name or flow.kind).replace("_", " "),
                   "start": [], "end": [], "order": None, "body": [], "children": [],
                   "at": self._origin(flow.span)}
        names: dict[str, Span] = {}
        body: list[n.Statement] = []
        for member in flow.members:
            if isinstance(member, n.Flow):
                if member.name and member.name in names:
                    self.diags.error("R100", f"two '{member.kind}' blocks named "
                                     f"'{member.name}' in one '{flow.kind}'", member.span,
                                     "give each its own name",
                                     notes=[(names[member.name], "first here")])
                names[member.name or ""] = member.span
                out["children"].append(self._flow(member, flow.kind, scope))
            elif isinstance(member, n.Hook):
                out[member.time] = self._block(member.body, scope)
            elif isinstance(member, n.Order):
                out["order"] = self._typed(member.expr, scope, "players")[1]
            elif isinstance(member, n.Says):
                out.setdefault("says", []).append(member.text)
                self.worded.append((member, out))
            elif isinstance(member, n.Note):
                out.setdefault("notes", []).append(member.text)
            else:
                body.append(member)
        if body and out["children"]:
            self.diags.error("R131", f"'{flow.kind}' mixes statements with nested blocks",
                             self._span_of(body[0]), "put the statements in an 'at start:' "
                             "hook or in a block of their own")
        out["body"] = self._block(tuple(body), scope)
        return out

    def _trigger(self, trigger: n.Trigger) -> IR:
        types = EVENTS.get(trigger.event)
        if types is None:
            self.diags.error("R120", f"unknown event '{trigger.event}'", trigger.span,
                             suggest(trigger.event, EVENTS) or
                             f"events: {', '.join(EVENTS)}")
            types = tuple("any" for _ in trigger.params)
        elif len(trigger.params) != len(types):
            self.diags.error("R121", f"event '{trigger.event}' gives {len(types)} value"
                             f"{'s' if len(types) != 1 else ''} "
                             f"({', '.join(types)}), not {len(trigger.params)}", trigger.span,
                             f"write when {trigger.event}({', '.join(t[0] for t in types)})")
        scope = _Scope(dict(zip(trigger.params, types, strict=False)))
        out: IR = {"event": trigger.event, "params": list(trigger.params),
                   "where": self._condition(trigger.where, scope) if trigger.where else None,
                   "body": self._block(trigger.body, scope), "at": self._origin(trigger.span)}
        if trigger.says is not None:
            out["says"] = trigger.says.text
            self.worded.append((trigger.says, out))
        return out

    def _limit(self, limit: n.Limit | None) -> IR | None:
        return None if limit is None else {"count": limit.count, "per": limit.period}

    # --- statements ----------------------------------------------------------------------

    def _span_of(self, node: Any) -> Span:
        span: Span = node.span
        return span

    def _block(self, block: n.Block, parent: _Scope) -> list[IR]:
        scope = parent.child()
        out: list[IR] = []
        ended: n.Statement | None = None
        for statement in block:
            if ended is not None:
                self.diags.warning("W201", "this statement can never run", statement.span,
                                   f"the '{_word(ended)}' above always stops the block first")
                ended = None
            out.append(self._statement(statement, scope))
            if isinstance(statement, n.End | n.Fail):
                ended = statement
        return out

    def _statement(self, s: n.Statement, scope: _Scope) -> IR:
        at = self._origin(s.span)
        ir: IR
        if isinstance(s, n.Move):
            ir = {"do": "move", "what": self._cards(s.what, scope),
                  "to": self._zone(s.to, scope), "facing": s.facing, "position": s.position}
            if s.depth is not None:
                ir["depth"] = self._typed(s.depth, scope, "number")[1]
        elif isinstance(s, n.Draw):
            ir = {"do": "draw", "count": self._typed(s.count, scope, "number")[1],
                  "from": self._zone(s.source, scope, filling=False),
                  "to": self._zone(s.to, scope), "facing": s.facing}
        elif isinstance(s, n.Shuffle):
            ir = {"do": "shuffle", "zone": self._zone(s.zone, scope, filling=False)}
        elif isinstance(s, n.Reveal):
            ir = {"do": "reveal", "what": self._cards(s.what, scope),
                  "to": self._typed(s.to, scope, "player")[1] if s.to else None}
        elif isinstance(s, n.Destroy):
            ir = {"do": "destroy", "what": self._cards(s.what, scope),
                  "to": self._zone(s.to, scope) if s.to is not None else None}
        elif isinstance(s, n.Stack | n.Tuck):
            other = s.onto if isinstance(s, n.Stack) else s.under
            ir = {"do": "stack" if isinstance(s, n.Stack) else "tuck",
                  "what": self._typed(s.what, scope, "card")[1],
                  "onto": self._typed(other, scope, "card")[1]}
        elif isinstance(s, n.Gain | n.Spend):
            ir = {"do": "gain" if isinstance(s, n.Gain) else "spend",
                  "amount": self._typed(s.amount, scope, "number")[1],
                  **self._counter_target(s.counter, s.owner, s.span, scope, ("counter",))}
        elif isinstance(s, n.SetValue):
            owner_expr = s.owner.expr if s.owner is not None else None
            if isinstance(owner_expr, n.Binary) and owner_expr.op == "=" and s.value is None:
                self.diags.error("R141", "'set' takes 'to', not '='", owner_expr.span,
                                 f"write 'set {s.name} for PLAYER to VALUE'")
                return {"do": "log", "message": "", "at": at}
            target = self._counter_target(s.name, s.owner, s.span, scope, ("flag", "counter"))
            if target.get("kind") == "counter" and s.value is None:
                self.diags.error("R141", f"'set {s.name}' needs a value: it is a counter",
                                 s.span, f"write 'set {s.name} to N', or 'gain N {s.name}'")
            if target.get("kind") == "flag" and s.value is not None:
                self.diags.error("R141", f"'{s.name}' is a flag: it is set or cleared, without "
                                 "a value", s.span, f"write 'set {s.name}'")
            ir = {"do": "set", **target,
                  "value": self._expr(s.value, scope)[1] if s.value else None}
        elif isinstance(s, n.Clear):
            ir = {"do": "clear",
                  **self._counter_target(s.name, s.owner, s.span, scope, ("flag", "counter"))}
        elif isinstance(s, n.Pay):
            ir = {"do": "pay", "amount": self._typed(s.amount, scope, "number")[1],
                  "sources": [self._pay_source(src, scope) for src in s.sources],
                  "change": None if s.change is None else self._counter_target(
                      s.change.counter, s.change.owner, s.change.span, scope, ("counter",))}
        elif isinstance(s, n.Let):
            kind, value = self._expr(s.value, scope)
            if scope.lookup(s.name) is not None:
                self.diags.error("R104", f"'{s.name}' is already a name here", s.span,
                                 "choose another name")
            scope.names[s.name] = kind
            ir = {"do": "let", "name": s.name, "value": value}
        elif isinstance(s, n.Do):
            ir = {"do": "call", "action": s.action, "args": self._action_args(s, scope)}
        elif isinstance(s, n.End):
            ir = {"do": "end", "period": s.period}
        elif isinstance(s, n.Fail | n.Log):
            ir = {"do": "fail" if isinstance(s, n.Fail) else "log", "message": s.message}
        elif isinstance(s, n.If):
            ir = {"do": "if",
                  "branches": [{"when": self._condition(cond, scope),
                                "then": self._block(body, scope)} for cond, body in s.branches],
                  "else": self._block(s.orelse, scope) if s.orelse is not None else None}
        elif isinstance(s, n.ForEach):
            source_type, source = self._collection(s.source, scope)
            inner = scope.child(**{s.var: COLLECTIONS.get(source_type, "any")})
            ir = {"do": "for_each", "var": s.var, "in": source,
                  "walks": WALKS.get(source_type),
                  "where": self._condition(s.where, inner) if s.where else None,
                  "body": self._block(s.body, inner)}
        elif isinstance(s, n.RepeatTimes):
            ir = {"do": "repeat", "times": self._typed(s.count, scope, "number")[1],
                  "body": self._block(s.body, scope)}
        elif isinstance(s, n.RepeatWhile):
            ir = {"do": "repeat_while", "while": self._condition(s.condition, scope),
                  "body": self._block(s.body, scope)}
        elif isinstance(s, n.RepeatPass):
            ir = {"do": "repeat_until_pass", "label": s.label or "Continue",
                  "while": self._condition(s.guard, scope) if s.guard is not None else None,
                  "body": self._block(s.body, scope)}
        elif isinstance(s, n.May):
            ir = {"do": "may", "label": s.label or "", "body": self._block(s.body, scope)}
        elif isinstance(s, n.AsPlayer):
            ir = {"do": "as", "player": self._typed(s.player, scope, "player")[1],
                  "body": self._block(s.body, scope)}
        elif isinstance(s, n.Choose):
            ir = self._choose(s, scope)
        elif isinstance(s, n.ChooseNumber):
            inner = scope.child(**{s.var: "number"})
            ir = {"do": "choose_number", "var": s.var, "walks": "numbers",
                  "low": self._typed(s.low, scope, "number")[1],
                  "high": self._typed(s.high, scope, "number")[1],
                  "where": self._condition(s.where, inner) if s.where else None,
                  "label": s.label or f"Choose {s.var}", "body": self._block(s.body, inner)}
        elif isinstance(s, n.ChooseOne):
            names: dict[str, Span] = {}
            options = []
            for option in s.options:
                if option.name in names:
                    self.diags.error("R100", f"two options named '{option.name}'",
                                     option.span, "give each option its own name",
                                     notes=[(names[option.name], "first here")])
                names[option.name] = option.span
                options.append({
                    "name": option.name,
                    "label": option.label or option.name.replace("_", " ").capitalize(),
                    "when": self._condition(option.when, scope) if option.when else None,
                    "limit": self._limit(option.limit),
                    "body": self._block(option.body, scope), "at": self._origin(option.span),
                })
            ir = {"do": "choose_one", "label": s.label or "Choose one", "options": options}
        else:  # pragma: no cover - the parser makes no other statements
            raise AssertionError(f"unknown statement {type(s).__name__}")
        ir["at"] = at
        return ir

    def _choose(self, s: n.Choose, scope: _Scope) -> IR:
        source_type, source = self._collection(s.source, scope)
        element = COLLECTIONS.get(source_type, "any")
        if s.kind in ("card", "cards") and element == "player":
            self.diags.error("R140", f"'choose {s.kind}' takes cards, but this gives players",
                             s.source.span, "write 'choose player' to choose among players")
        if s.kind == "player" and element == "card":
            self.diags.error("R140", "'choose player' takes players, but this gives cards",
                             s.source.span, "write 'choose card' to choose among cards")
        if s.kind == "random" and s.optional:
            self.diags.error("R140", "'choose random' always picks one item when there is one; "
                             "'optional' does not go with it", s.span,
                             "remove 'optional', or wrap the choice in 'may'")
        if s.count is not None and s.kind != "cards":
            self.diags.error("R140", f"'{s.count.kind}' only goes with 'choose cards'",
                             s.count.span, f"write 'choose cards {s.var} ...'")
        if isinstance(s.source, n.Call) and s.source.func in self.decls and \
                self.decls[s.source.func].kind == "zone":
            self.chosen_from.append((s.source.func, s.source.span))
        var_type = "cards" if s.kind == "cards" else element
        inner = scope.child(**{s.var: var_type})
        where_scope = scope.child(**{s.var: element})
        return {
            "do": "choose", "kind": s.kind, "var": s.var, "from": source,
            "walks": WALKS.get(source_type),
            "where": self._condition(s.where, where_scope) if s.where else None,
            "count": None if s.count is None else {
                "kind": s.count.kind, "n": self._typed(s.count.count, scope, "number")[1]},
            "label": s.label or (f"Pick {s.var} at random" if s.kind == "random"
                                 else f"Choose {s.kind} {s.var}"), "optional": s.optional,
            "body": self._block(s.body, inner),
        }

    def _action_args(self, s: n.Do, scope: _Scope) -> list[IR]:
        decl = self.decls.get(s.action)
        if decl is None or decl.kind != "action":
            hint = suggest(s.action, self._names("action")) or "declare it with 'action NAME:'"
            what = f"'{s.action}' is a {decl.kind}, not an action" if decl else \
                f"unknown action '{s.action}'"
            self.diags.error("R111", what, s.span, hint)
            return [self._expr(a, scope)[1] for a in s.args]
        decl.used = True
        params = decl.node.params or ()
        if len(params) != len(s.args):
            self.diags.error("R112", f"action '{s.action}' takes {len(params)} argument"
                             f"{'s' if len(params) != 1 else ''}, not {len(s.args)}", s.span,
                             f"write do {s.action}({', '.join(params)})" if params
                             else f"write do {s.action}")
        return [self._expr(a, scope)[1] for a in s.args]

    def _pay_source(self, src: n.PaySource, scope: _Scope) -> IR:
        out: IR
        if isinstance(src.source, n.Attribute):
            _, value = self._expr(src.source, scope)
            if value.get("op") != "counter":
                self.diags.error("R142", "a cost is paid from a zone or a counter",
                                 src.source.span, "name a zone such as ZONE(me), or a "
                                 "counter such as me.COUNTER")
            out = {"counter": value}
        else:
            out = {"zone": self._zone(src.source, scope, filling=False)}
        if src.valued is not None:
            if not isinstance(src.valued, n.Name) or (
                    self.decls.get(src.valued.id) is None
                    or self.decls[src.valued.id].kind != "define"
                    or len(self.decls[src.valued.id].node.params or ()) != 1):
                self.diags.error("R142", "'valued' names a definition with one parameter, "
                                 "the card", src.valued.span,
                                 "declare 'define value_of(c) = ...' and write 'valued value_of'")
            else:
                self.decls[src.valued.id].used = True
                out["valued"] = src.valued.id
            if "counter" in out:
                self.diags.error("R142", "'valued' applies to cards, not to a counter",
                                 src.valued.span, "each unit of a counter is worth 1")
        out.setdefault("valued", None)
        return out

    def _counter_target(self, name: str, owner: n.Owner | None, span: Span, scope: _Scope,
                        kinds: tuple[str, ...]) -> IR:
        decl = self.decls.get(name)
        if decl is None or decl.kind not in kinds:
            what = " or ".join(kinds)
            hint = suggest(name, [d for d, v in self.decls.items() if v.kind in kinds]) or \
                f"declare it with '{kinds[0]} {name}: per_player'"
            self.diags.error("R110", f"unknown {what} '{name}'" if decl is None else
                             f"'{name}' is a {decl.kind}, not a {what}", span, hint)
            return {"kind": kinds[0], "name": name, "of": None}
        decl.used = True
        per = self._per(decl.node)
        of: IR | None = None
        if owner is None:
            if per == "card":
                self.diags.error("R143", f"'{name}' is kept on each card: say which",
                                 span, f"add 'on CARD', as in '... {name} on c'")
            elif per == "player":
                of = {"op": "me"}
        else:
            wanted = {"player": "player", "card": "card"}[owner.kind]
            if per == "game":
                self.diags.error("R143", f"'{name}' is global: it belongs to no player or card",
                                 owner.span, f"remove '{'for' if wanted == 'player' else 'on'}"
                                 " ...'")
            elif per != wanted:
                right = "on CARD" if per == "card" else "for PLAYER"
                self.diags.error("R143", f"'{name}' is kept per {per}, so it takes "
                                 f"'{right}'", owner.span, f"write '{right}'")
            of = self._typed(owner.expr, scope, wanted)[1]
        return {"kind": decl.kind, "name": name, "of": of}

    @staticmethod
    def _per(decl: n.StateDecl) -> str:
        words = {o.name for o in decl.options}
        if "per_card" in words:
            return "card"
        if "global" in words or "shared" in words:
            return "game"
        return "player"

    # --- expressions ---------------------------------------------------------------------

    def _condition(self, expr: n.Expr | None, scope: _Scope) -> IR:
        assert expr is not None
        return self._typed(expr, scope, "bool")[1]

    def _typed(self, expr: n.Expr, scope: _Scope, wanted: str) -> tuple[str, IR]:
        kind, ir = self._expr(expr, scope)
        if not _compatible(kind, wanted):
            self.diags.error("R150", f"expected {_a(wanted)} here, but this is {_a(kind)}",
                             expr.span, _type_hint(wanted, kind))
        return kind, ir

    def _cards(self, expr: n.Expr, scope: _Scope) -> IR:
        kind, ir = self._expr(expr, scope)
        if kind not in ("card", "cards", "zone", "any"):
            self.diags.error("R150", f"expected cards here, but this is {_a(kind)}", expr.span,
                             "name a card, or cards such as top(ZONE(me), 2)")
        return ir

    def _collection(self, expr: n.Expr, scope: _Scope) -> tuple[str, IR]:
        kind, ir = self._expr(expr, scope)
        if kind not in ("cards", "zone", "players", "any"):
            self.diags.error("R150", f"expected cards or players to go through, but this is "
                             f"{_a(kind)}", expr.span, "name a zone such as ZONE(me), or "
                             "players()")
        return kind, ir

    def _zone(self, expr: n.Expr, scope: _Scope, *, filling: bool = True) -> IR:
        errors = len(self.diags.errors)
        kind, ir = self._expr(expr, scope)
        if ir.get("op") == "zone":
            if filling:
                self.filled.add(ir["zone"])
        elif kind == "zone":  # a definition or a conditional that gives a zone
            self.filled.update(self.decls)  # cannot tell which: assume any zone may fill
        elif len(self.diags.errors) == errors:  # say nothing more about a name already wrong
            self.diags.error("R144", "expected a zone here", expr.span,
                             "name a zone with its player, such as ZONE(me)")
        return ir

    def _expr(self, e: n.Expr, scope: _Scope) -> tuple[str, IR]:
        if isinstance(e, n.IntLit):
            return "number", {"op": "int", "value": e.value}
        if isinstance(e, n.StrLit):
            return "text", {"op": "text", "value": e.value}
        if isinstance(e, n.BoolLit):
            return "bool", {"op": "bool", "value": e.value}
        if isinstance(e, n.NoneLit):
            return "any", {"op": "none"}
        if isinstance(e, n.Name):
            return self._name(e, scope)
        if isinstance(e, n.Call):
            return self._call(e, scope)
        if isinstance(e, n.Attribute):
            return self._attribute(e, scope)
        if isinstance(e, n.Unary):
            wanted = "bool" if e.op == "not" else "number"
            _, operand = self._typed(e.operand, scope, wanted)
            return wanted, {"op": "not" if e.op == "not" else "neg", "x": operand}
        if isinstance(e, n.Binary):
            return self._binary(e, scope)
        if isinstance(e, n.IfExpr):
            cond = self._condition(e.condition, scope)
            then_type, then = self._expr(e.then, scope)
            else_type, orelse = self._expr(e.orelse, scope)
            if not (_compatible(then_type, else_type) or _compatible(else_type, then_type)):
                self.diags.error("R150", f"the two values of this 'if' differ: "
                                 f"{_a(then_type)} and {_a(else_type)}", e.span,
                                 "give both branches the same kind of value")
            kind = then_type if then_type == else_type else (
                else_type if then_type == "any" else then_type if else_type == "any" else "any")
            return kind, {"op": "if", "cond": cond, "then": then, "else": orelse}
        if isinstance(e, n.Aggregate):
            return self._aggregate(e, scope)
        raise AssertionError(f"unknown expression {type(e).__name__}")  # pragma: no cover

    def _binary(self, e: n.Binary, scope: _Scope) -> tuple[str, IR]:
        if e.op in ("and", "or"):
            a = self._condition(e.left, scope)
            b = self._condition(e.right, scope)
            return "bool", {"op": e.op, "a": a, "b": b}
        if e.op in ("=", "!="):
            left_type, a = self._expr(e.left, scope)
            right_type, b = self._expr(e.right, scope)
            if not (_compatible(left_type, right_type) or _compatible(right_type, left_type)):
                self.diags.warning("W150", f"comparing {_a(left_type)} with {_a(right_type)} "
                                   "is never equal", e.span, "compare values of one kind")
            return "bool", {"op": "eq" if e.op == "=" else "ne", "a": a, "b": b}
        if e.op == "+":
            return self._plus(e, scope)
        _, a = self._typed(e.left, scope, "number")
        _, b = self._typed(e.right, scope, "number")
        if e.op in ("<", "<=", ">", ">="):
            return "bool", {"op": {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[e.op],
                            "a": a, "b": b}
        return "number", {"op": {"+": "add", "-": "sub", "*": "mul", "//": "div",
                                 "%": "mod"}[e.op], "a": a, "b": b}

    def _plus(self, e: n.Binary, scope: _Scope) -> tuple[str, IR]:
        """``+`` adds numbers, and joins cards (or players): ``lands(p) + people(p)`` is every
        card of both, in that order, so one aggregate can go through them."""
        left_type, a = self._expr(e.left, scope)
        right_type, b = self._expr(e.right, scope)
        for group, members in (("cards", ("card", "cards", "zone")),
                               ("players", ("player", "players"))):
            if (left_type in members and right_type in (*members, "any")) or (
                    right_type in members and left_type == "any"):
                return group, {"op": "join", "a": a, "b": b}
        for side, kind in ((e.left, left_type), (e.right, right_type)):
            if not _compatible(kind, "number"):
                self.diags.error("R150", f"expected a number here, but this is {_a(kind)}",
                                 side.span, "'+' adds two numbers, or joins cards to cards "
                                 "(or players to players)")
        return "number", {"op": "add", "a": a, "b": b}

    def _aggregate(self, e: n.Aggregate, scope: _Scope) -> tuple[str, IR]:
        source_type, source = self._collection(e.source, scope)
        element_type = COLLECTIONS.get(source_type, "any")
        inner = scope.child(**{e.var: element_type})
        where = self._condition(e.where, inner) if e.where is not None else None
        element: IR | None = None
        if e.func in ("sum", "min", "max"):
            if e.element is None:
                self.diags.error("R151", f"'{e.func}' needs a value for each item", e.span,
                                 f"write {e.func}(c.FIELD for c in ...)")
            else:
                element = self._typed(e.element, inner, "number")[1]
        elif e.element is not None:
            self.diags.error("R151", f"'{e.func}' takes no 'for' value", e.element.span,
                             f"write {e.func}({e.var} in ... where ...)")
        result = {"count": "number", "sum": "number", "min": "number", "max": "number",
                  "any": "bool", "all": "bool",
                  "select": "cards" if source_type == "zone" else source_type}[e.func]
        return result, {"op": "agg", "fn": e.func, "var": e.var, "in": source,
                        "walks": WALKS.get(source_type), "where": where, "value": element}

    def _name(self, e: n.Name, scope: _Scope) -> tuple[str, IR]:
        name = e.id
        local = scope.lookup(name)
        if local is not None:
            return local, {"op": "local", "name": name}
        if name == "me":
            return "player", {"op": "me"}
        decl = self.decls.get(name)
        if decl is not None:
            decl.used = True
            if decl.kind == "const":
                return self._define_type(name, decl), {"op": "const", "name": name}
            if decl.kind == "define":
                if decl.node.params:
                    self.diags.error("R112", f"'{name}' takes {len(decl.node.params)} "
                                     f"argument{'s' if len(decl.node.params) != 1 else ''}",
                                     e.span, f"write {name}({', '.join(decl.node.params)})")
                return self._define_type(name, decl), {"op": "define", "name": name,
                                                       "args": []}
            if decl.kind == "zone":
                if self._zone_per(decl) == "player":
                    self.diags.error("R112", f"zone '{name}' belongs to each player: say whose",
                                     e.span, f"write {name}(me) or {name}(p)")
                return "zone", {"op": "zone", "zone": name, "player": None}
            if decl.kind in ("counter", "flag") and self._per(decl.node) == "game":
                return ("number" if decl.kind == "counter" else "bool"), {
                    "op": decl.kind, "name": name, "of": None}
            self.diags.error("R113", f"'{name}' is a {decl.kind}: read it from its owner",
                             e.span, f"write me.{name} or p.{name}")
            return "any", {"op": "none"}
        if name in self.m.symbols:
            return "symbol", {"op": "symbol", "id": self.m.qualify(name)}
        if name in self.m.kinds:
            return "kind", {"op": "kind", "id": name}
        if name in BUILTINS:
            self.diags.error("R112", f"'{name}' is a function: call it", e.span,
                             f"write {name}({', '.join(BUILTINS[name].params)})")
            return BUILTINS[name].result, {"op": "none"}
        candidates = scope.visible() | set(self.decls) | set(self.m.symbols) | \
            set(self.m.kinds) | {"me"}
        self.diags.error("R110", f"unknown name '{name}'", e.span,
                         suggest(name, candidates) or "declare it, or check the spelling")
        return "any", {"op": "none"}

    def _define_type(self, name: str, decl: _Decl) -> str:
        known = self.define_types.get(name)
        if known:
            return known
        if name in self._defining:
            return "any"  # recursion: the engine's step budget stops a runaway definition
        self._defining.add(name)
        node = decl.node
        body = node.value if isinstance(node, n.ConstDecl) else node.body
        params = getattr(node, "params", None) or ()
        quiet = Diagnostics()
        saved, self.diags = self.diags, quiet
        try:
            kind, _ = self._expr(body, _Scope({p: "any" for p in params}))
        finally:
            self.diags = saved
            self._defining.discard(name)
        self.define_types[name] = kind
        return kind

    def _zone_per(self, decl: _Decl) -> str:
        words = {o.name for o in decl.node.options}
        return "player" if "per_player" in words else "game"

    def _call(self, e: n.Call, scope: _Scope) -> tuple[str, IR]:
        name = e.func
        decl = self.decls.get(name)
        if decl is not None and decl.kind == "zone":
            decl.used = True
            per = self._zone_per(decl)
            spaced = any(o.name == "spaces" for o in decl.node.options)
            players = 1 if per == "player" else 0
            extra = len(e.args) - players
            if per == "player" and (len(e.args) < 1 or extra > (1 if spaced else 0)):
                self.diags.error("R112", f"zone '{name}' takes one player"
                                 + (" and, for one space, its number" if spaced else ""),
                                 e.span, f"write {name}(me)" + (f" or {name}(me, 1)"
                                                                 if spaced else ""))
            if per == "game" and extra > (1 if spaced else 0):
                self.diags.error("R112", f"zone '{name}' is shared: it takes no player"
                                 + (", only a space's number" if spaced else ""), e.span,
                                 f"write {name}()" + (f" or {name}(1)" if spaced else ""))
            if players and len(e.args) == 1 and not spaced:
                kind, many = self._expr(e.args[0], scope)
                if kind == "players":  # every one of these players' zones, joined in order
                    return "cards", {"op": "zone", "zone": name, "players": many}
                if not _compatible(kind, "player"):
                    self._typed(e.args[0], scope, "player")
                return "zone", {"op": "zone", "zone": name, "player": many}
            player = self._typed(e.args[0], scope, "player")[1] if players and e.args else None
            space = (self._typed(e.args[players], scope, "number")[1]
                     if spaced and len(e.args) > players else None)
            out: IR = {"op": "zone", "zone": name, "player": player}
            if space is not None:
                out["space"] = space
            return "zone", out
        if decl is not None and decl.kind == "define":
            decl.used = True
            params = decl.node.params or ()
            if len(params) != len(e.args):
                self.diags.error("R112", f"'{name}' takes {len(params)} argument"
                                 f"{'s' if len(params) != 1 else ''}, not {len(e.args)}",
                                 e.span, f"write {name}({', '.join(params)})")
            args = [self._expr(a, scope)[1] for a in e.args]
            return self._define_type(name, decl), {"op": "define", "name": name,
                                                   "args": args}
        builtin = BUILTINS.get(name)
        if builtin is None:
            known = set(BUILTINS) | {d for d, v in self.decls.items()
                                     if v.kind in ("zone", "define")}
            what = f"'{name}' is a {decl.kind}, not a function" if decl else \
                f"unknown function '{name}'"
            self.diags.error("R111", what, e.span,
                             suggest(name, known) or "see the builtin table in "
                             "docs/rules-language.md")
            for arg in e.args:
                self._expr(arg, scope)
            return "any", {"op": "none"}
        if len(builtin.params) != len(e.args):
            self.diags.error("R112", f"'{name}' takes {len(builtin.params)} argument"
                             f"{'s' if len(builtin.params) != 1 else ''}, not {len(e.args)}",
                             e.span, f"write {name}({', '.join(builtin.params)})")
        args = [self._typed(arg, scope, wanted)[1]
                for arg, wanted in zip(e.args, builtin.params, strict=False)]
        return builtin.result, {"op": "call", "fn": name, "args": args}

    def _attribute(self, e: n.Attribute, scope: _Scope) -> tuple[str, IR]:
        kind, obj = self._expr(e.obj, scope)
        name = e.name
        decl = self.decls.get(name)
        if decl is not None and decl.kind in ("counter", "flag") and kind in ("player",
                                                                              "card", "any"):
            per = self._per(decl.node)
            if kind != "any" and per != kind:
                self.diags.error("R143", f"'{name}' is kept per {per}, not per {kind}",
                                 e.span, f"read it from a {per}")
            decl.used = True
            return ("number" if decl.kind == "counter" else "bool"), {
                "op": decl.kind, "name": name, "of": obj}
        if kind in ("card", "any"):
            if name in CARD_PROPERTIES:
                return CARD_PROPERTIES[name], {"op": "field", "name": name, "of": obj}
            if name in self.m.fields:
                return FIELD_TYPES[self.m.fields[name].type], {"op": "field", "name": name,
                                                               "of": obj}
        if kind in ("value", "any") and name in VALUE_MEMBERS:
            return VALUE_MEMBERS[name], {"op": "member", "name": name, "of": obj}
        options: set[str] = set()
        if kind in ("card", "any"):
            options |= set(CARD_PROPERTIES) | set(self.m.fields)
        if kind == "value":
            options |= set(VALUE_MEMBERS)
        options |= {d for d, v in self.decls.items() if v.kind in ("counter", "flag")}
        options.discard(name)
        if decl is not None and decl.kind in ("counter", "flag"):
            hint = f"'{name}' is kept per {self._per(decl.node)}: read it from one"
        else:
            hint = suggest(name, options) or ("card fields are declared under card_fields "
                                              "in pack.yaml; counters and flags in the rules")
        self.diags.error("R114", f"{_a(kind)} has no '{name}'", e.span, hint)
        return "any", {"op": "none"}

    # --- warnings ------------------------------------------------------------------------

    def _names(self, kind: str) -> list[str]:
        return [name for name, decl in self.decls.items() if decl.kind == kind]

    def _warn_unused(self) -> None:
        ai = self.m.ai or {}
        weighed = set((ai.get("weights") or {}).get("defines") or {})  # read by the agent
        for name, decl in self.decls.items():
            if name in weighed and decl.kind == "define":
                continue
            if not decl.used and decl.kind in ("const", "define", "action"):
                self.diags.warning("W200", f"{decl.kind} '{name}' is never used", decl.span,
                                   "use it, or remove it")

    def _warn_unfilled(self) -> None:
        if self.diags.has_errors:  # a misspelt zone elsewhere would make this a false alarm
            return
        for zone, span in self.chosen_from:
            if zone not in self.filled:
                self.diags.warning("W202", f"nothing ever puts cards into '{zone}', so this "
                                   "choice never has an option", span,
                                   "move or draw cards into the zone, or give it 'deck' or "
                                   "'holds TAG'")


def _a(kind: str) -> str:
    words = {"any": "a value", "number": "a number", "bool": "a yes/no condition",
             "zone": "a zone",
             "text": "a text", "card": "a card", "cards": "cards", "player": "a player",
             "players": "players", "symbol": "a symbol", "kind": "a card kind",
             "lock": "a lock letter", "value": "a symbol value"}
    return words.get(kind, kind)


def _type_hint(wanted: str, actual: str) -> str:
    if wanted == "bool" and actual == "number":
        return "compare it, as in '... > 0'"
    if wanted == "number" and actual in ("cards", "card", "zone"):
        return "count cards with size(...) or count(c in ... where ...)"
    if wanted == "player" and actual == "players":
        return "choose one of them, or go through them with 'for each'"
    return "see the types in docs/rules-language.md"


def _word(statement: n.Statement) -> str:
    return f"end {statement.period}" if isinstance(statement, n.End) else "fail"
