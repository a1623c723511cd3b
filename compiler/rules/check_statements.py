"""The rules checker's statement pass: flow blocks, triggers, blocks and statements,
checked and lowered to IR.

A statement's parts are expressions (``check_expressions``); what a statement adds is its
own rules: a counter changed ``for`` a player or ``on`` a card as it is kept, a ``choose``
over cards or players as it says, an action called with its arguments, statements after
``end`` or ``fail`` that can never run.
"""

from __future__ import annotations

from decklore.compiler.diagnostics import Span, suggest
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.builtins import EVENTS, FLOW_NESTING
from decklore.compiler.rules.check_expressions import ExpressionChecker
from decklore.compiler.rules.context import COLLECTIONS, IR, WALKS, Scope


class StatementChecker(ExpressionChecker):
    """Checks and lowers flow blocks, triggers and statements."""

    def _flow(self, flow: n.Flow, parent: str, scope: Scope) -> IR:
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
                if member.says is not None:
                    out[f"{member.time}_says"] = member.says.text
                    self.worded.append((member.says, {"body": out[member.time]}))
            elif isinstance(member, n.Order):
                out["order"] = self._typed(member.expr, scope, "players")[1]
            elif isinstance(member, n.Says):
                out.setdefault("says", []).append(member.text)
                self.worded.append((member, out))
            elif isinstance(member, n.Note):
                out.setdefault("notes", []).append(member.text)
            elif isinstance(member, n.Term):
                out.setdefault("terms", []).append([member.word, member.text])
                # A term explains the game, not one rule: only its placeholders are checked.
                self.worded.append((n.Says(member.text, member.span), None))
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
        scope = Scope(dict(zip(trigger.params, types, strict=False)))
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

    def _block(self, block: n.Block, parent: Scope) -> list[IR]:
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

    def _statement(self, s: n.Statement, scope: Scope) -> IR:
        """A statement checked and lowered by the method for its kind (``_s_*``)."""
        at = self._origin(s.span)
        lower = getattr(self, _LOWERING[type(s)])
        ir: IR = lower(s, scope)
        ir["at"] = at
        return ir

    def _s_move(self, s: n.Move, scope: Scope) -> IR:
        ir: IR = {"do": "move", "what": self._cards(s.what, scope),
                  "to": self._zone(s.to, scope), "facing": s.facing, "position": s.position}
        if s.depth is not None:
            ir["depth"] = self._typed(s.depth, scope, "number")[1]
        return ir

    def _s_draw(self, s: n.Draw, scope: Scope) -> IR:
        return {"do": "draw", "count": self._typed(s.count, scope, "number")[1],
                "from": self._zone(s.source, scope, filling=False),
                "to": self._zone(s.to, scope), "facing": s.facing}

    def _s_shuffle(self, s: n.Shuffle, scope: Scope) -> IR:
        return {"do": "shuffle", "zone": self._zone(s.zone, scope, filling=False)}

    def _s_reveal(self, s: n.Reveal, scope: Scope) -> IR:
        return {"do": "reveal", "what": self._cards(s.what, scope),
                "to": self._typed(s.to, scope, "player")[1] if s.to else None}

    def _s_destroy(self, s: n.Destroy, scope: Scope) -> IR:
        return {"do": "destroy", "what": self._cards(s.what, scope),
                "to": self._zone(s.to, scope) if s.to is not None else None}

    def _s_stack(self, s: n.Stack | n.Tuck, scope: Scope) -> IR:
        other = s.onto if isinstance(s, n.Stack) else s.under
        return {"do": "stack" if isinstance(s, n.Stack) else "tuck",
                "what": self._typed(s.what, scope, "card")[1],
                "onto": self._typed(other, scope, "card")[1]}

    def _s_gain(self, s: n.Gain | n.Spend, scope: Scope) -> IR:
        return {"do": "gain" if isinstance(s, n.Gain) else "spend",
                "amount": self._typed(s.amount, scope, "number")[1],
                **self._counter_target(s.counter, s.owner, s.span, scope, ("counter",))}

    def _s_set(self, s: n.SetValue, scope: Scope) -> IR:
        owner_expr = s.owner.expr if s.owner is not None else None
        if isinstance(owner_expr, n.Binary) and owner_expr.op == "=" and s.value is None:
            self.diags.error("R141", "'set' takes 'to', not '='", owner_expr.span,
                             f"write 'set {s.name} for PLAYER to VALUE'")
            return {"do": "log", "message": ""}
        target = self._counter_target(s.name, s.owner, s.span, scope, ("flag", "counter"))
        if target.get("kind") == "counter" and s.value is None:
            self.diags.error("R141", f"'set {s.name}' needs a value: it is a counter",
                             s.span, f"write 'set {s.name} to N', or 'gain N {s.name}'")
        if target.get("kind") == "flag" and s.value is not None:
            self.diags.error("R141", f"'{s.name}' is a flag: it is set or cleared, without "
                             "a value", s.span, f"write 'set {s.name}'")
        return {"do": "set", **target,
                "value": self._expr(s.value, scope)[1] if s.value else None}

    def _s_clear(self, s: n.Clear, scope: Scope) -> IR:
        return {"do": "clear",
                **self._counter_target(s.name, s.owner, s.span, scope, ("flag", "counter"))}

    def _s_pay(self, s: n.Pay, scope: Scope) -> IR:
        return {"do": "pay", "amount": self._typed(s.amount, scope, "number")[1],
                "sources": [self._pay_source(src, scope) for src in s.sources],
                "change": None if s.change is None else self._counter_target(
                    s.change.counter, s.change.owner, s.change.span, scope, ("counter",))}

    def _s_let(self, s: n.Let, scope: Scope) -> IR:
        kind, value = self._expr(s.value, scope)
        if scope.lookup(s.name) is not None:
            self.diags.error("R104", f"'{s.name}' is already a name here", s.span,
                             "choose another name")
        scope.names[s.name] = kind
        return {"do": "let", "name": s.name, "value": value}

    def _s_do(self, s: n.Do, scope: Scope) -> IR:
        return {"do": "call", "action": s.action, "args": self._action_args(s, scope)}

    def _s_end(self, s: n.End, scope: Scope) -> IR:
        return {"do": "end", "period": s.period}

    def _s_message(self, s: n.Fail | n.Log, scope: Scope) -> IR:
        return {"do": "fail" if isinstance(s, n.Fail) else "log", "message": s.message}

    def _s_if(self, s: n.If, scope: Scope) -> IR:
        return {"do": "if",
                "branches": [{"when": self._condition(cond, scope),
                              "then": self._block(body, scope)} for cond, body in s.branches],
                "else": self._block(s.orelse, scope) if s.orelse is not None else None}

    def _s_for_each(self, s: n.ForEach, scope: Scope) -> IR:
        source_type, source = self._collection(s.source, scope)
        inner = scope.child(**{s.var: COLLECTIONS.get(source_type, "any")})
        return {"do": "for_each", "var": s.var, "in": source,
                "walks": WALKS.get(source_type),
                "where": self._condition(s.where, inner) if s.where else None,
                "body": self._block(s.body, inner)}

    def _s_repeat(self, s: n.RepeatTimes, scope: Scope) -> IR:
        return {"do": "repeat", "times": self._typed(s.count, scope, "number")[1],
                "body": self._block(s.body, scope)}

    def _s_repeat_while(self, s: n.RepeatWhile, scope: Scope) -> IR:
        return {"do": "repeat_while", "while": self._condition(s.condition, scope),
                "body": self._block(s.body, scope)}

    def _s_repeat_until_pass(self, s: n.RepeatPass, scope: Scope) -> IR:
        return {"do": "repeat_until_pass", "label": s.label or "Continue",
                "while": self._condition(s.guard, scope) if s.guard is not None else None,
                "body": self._block(s.body, scope)}

    def _s_may(self, s: n.May, scope: Scope) -> IR:
        return {"do": "may", "label": s.label or "", "body": self._block(s.body, scope)}

    def _s_as(self, s: n.AsPlayer, scope: Scope) -> IR:
        return {"do": "as", "player": self._typed(s.player, scope, "player")[1],
                "body": self._block(s.body, scope)}

    def _s_choose_number(self, s: n.ChooseNumber, scope: Scope) -> IR:
        inner = scope.child(**{s.var: "number"})
        return {"do": "choose_number", "var": s.var, "walks": "numbers",
                "low": self._typed(s.low, scope, "number")[1],
                "high": self._typed(s.high, scope, "number")[1],
                "where": self._condition(s.where, inner) if s.where else None,
                "label": s.label or f"Choose {s.var}", "body": self._block(s.body, inner)}

    def _s_choose_one(self, s: n.ChooseOne, scope: Scope) -> IR:
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
        return {"do": "choose_one", "label": s.label or "Choose one", "options": options}

    def _choose(self, s: n.Choose, scope: Scope) -> IR:
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

    def _action_args(self, s: n.Do, scope: Scope) -> list[IR]:
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

    def _pay_source(self, src: n.PaySource, scope: Scope) -> IR:
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

    def _counter_target(self, name: str, owner: n.Owner | None, span: Span, scope: Scope,
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



def _word(statement: n.Statement) -> str:
    """The statement that stops a block, as a warning names it."""
    return f"end {statement.period}" if isinstance(statement, n.End) else "fail"


_LOWERING: dict[type, str] = {
    n.Move: "_s_move",
    n.Draw: "_s_draw",
    n.Shuffle: "_s_shuffle",
    n.Reveal: "_s_reveal",
    n.Destroy: "_s_destroy",
    n.Stack: "_s_stack",
    n.Tuck: "_s_stack",
    n.Gain: "_s_gain",
    n.Spend: "_s_gain",
    n.SetValue: "_s_set",
    n.Clear: "_s_clear",
    n.Pay: "_s_pay",
    n.Let: "_s_let",
    n.Do: "_s_do",
    n.End: "_s_end",
    n.Fail: "_s_message",
    n.Log: "_s_message",
    n.If: "_s_if",
    n.ForEach: "_s_for_each",
    n.RepeatTimes: "_s_repeat",
    n.RepeatWhile: "_s_repeat_while",
    n.RepeatPass: "_s_repeat_until_pass",
    n.May: "_s_may",
    n.AsPlayer: "_s_as",
    n.Choose: "_choose",
    n.ChooseNumber: "_s_choose_number",
    n.ChooseOne: "_s_choose_one",
}
"""The method that checks and lowers each kind of statement."""
