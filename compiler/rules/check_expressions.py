"""The rules checker's expression pass: each expression's type, checked, and its IR.

Every name is looked up against the program (zones, counters, flags, constants,
definitions, locals) and the pack (symbols, card kinds, card fields); a misspelled name
gets a ``did you mean``.  Each method returns the expression's type and its IR, so an
expression that checks cleanly is already lowered.
"""

from __future__ import annotations

from decklore.compiler.diagnostics import Diagnostics, suggest
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.builtins import BUILTINS, CARD_PROPERTIES
from decklore.compiler.rules.context import (
    COLLECTIONS,
    FIELD_TYPES,
    IR,
    VALUE_MEMBERS,
    WALKS,
    CheckContext,
    Decl,
    Scope,
    a_kind,
    compatible,
    type_hint,
)


class ExpressionChecker(CheckContext):
    """Types and lowers expressions."""

    def _condition(self, expr: n.Expr | None, scope: Scope) -> IR:
        assert expr is not None
        return self._typed(expr, scope, "bool")[1]

    def _typed(self, expr: n.Expr, scope: Scope, wanted: str) -> tuple[str, IR]:
        kind, ir = self._expr(expr, scope)
        if not compatible(kind, wanted):
            self.diags.error("R150", f"expected {a_kind(wanted)} here, but this is {a_kind(kind)}",
                             expr.span, type_hint(wanted, kind))
        return kind, ir

    def _cards(self, expr: n.Expr, scope: Scope) -> IR:
        kind, ir = self._expr(expr, scope)
        if kind not in ("card", "cards", "zone", "any"):
            self.diags.error("R150", f"expected cards here, but this is {a_kind(kind)}", expr.span,
                             "name a card, or cards such as top(ZONE(me), 2)")
        return ir

    def _collection(self, expr: n.Expr, scope: Scope) -> tuple[str, IR]:
        kind, ir = self._expr(expr, scope)
        if kind not in ("cards", "zone", "players", "any"):
            self.diags.error("R150", f"expected cards or players to go through, but this is "
                             f"{a_kind(kind)}", expr.span, "name a zone such as ZONE(me), or "
                             "players()")
        return kind, ir

    def _zone(self, expr: n.Expr, scope: Scope, *, filling: bool = True) -> IR:
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

    def _expr(self, e: n.Expr, scope: Scope) -> tuple[str, IR]:
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
            if not (compatible(then_type, else_type) or compatible(else_type, then_type)):
                self.diags.error("R150", f"the two values of this 'if' differ: "
                                 f"{a_kind(then_type)} and {a_kind(else_type)}", e.span,
                                 "give both branches the same kind of value")
            kind = then_type if then_type == else_type else (
                else_type if then_type == "any" else then_type if else_type == "any" else "any")
            return kind, {"op": "if", "cond": cond, "then": then, "else": orelse}
        if isinstance(e, n.Aggregate):
            return self._aggregate(e, scope)
        raise AssertionError(f"unknown expression {type(e).__name__}")  # pragma: no cover

    def _binary(self, e: n.Binary, scope: Scope) -> tuple[str, IR]:
        if e.op in ("and", "or"):
            a = self._condition(e.left, scope)
            b = self._condition(e.right, scope)
            return "bool", {"op": e.op, "a": a, "b": b}
        if e.op in ("=", "!="):
            left_type, a = self._expr(e.left, scope)
            right_type, b = self._expr(e.right, scope)
            if not (compatible(left_type, right_type) or compatible(right_type, left_type)):
                self.diags.warning("W150", f"comparing {a_kind(left_type)} with "
                                   f"{a_kind(right_type)} is never equal", e.span,
                                   "compare values of one kind")
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

    def _plus(self, e: n.Binary, scope: Scope) -> tuple[str, IR]:
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
            if not compatible(kind, "number"):
                self.diags.error("R150", f"expected a number here, but this is {a_kind(kind)}",
                                 side.span, "'+' adds two numbers, or joins cards to cards "
                                 "(or players to players)")
        return "number", {"op": "add", "a": a, "b": b}

    def _aggregate(self, e: n.Aggregate, scope: Scope) -> tuple[str, IR]:
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

    def _name(self, e: n.Name, scope: Scope) -> tuple[str, IR]:
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

    def _define_type(self, name: str, decl: Decl) -> str:
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
            kind, _ = self._expr(body, Scope({p: "any" for p in params}))
        finally:
            self.diags = saved
            self._defining.discard(name)
        self.define_types[name] = kind
        return kind

    def _zone_per(self, decl: Decl) -> str:
        words = {o.name for o in decl.node.options}
        return "player" if "per_player" in words else "game"

    def _call(self, e: n.Call, scope: Scope) -> tuple[str, IR]:
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
                if not compatible(kind, "player"):
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

    def _attribute(self, e: n.Attribute, scope: Scope) -> tuple[str, IR]:
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
        self.diags.error("R114", f"{a_kind(kind)} has no '{name}'", e.span, hint)
        return "any", {"op": "none"}
