"""Resolve names, check types and lower a parsed rules program to its IR.

``RulesChecker.check`` runs the passes in order: every declaration is collected (so a
rule may use a name declared further down or in another file), then each is checked and
lowered (state declarations here, flow blocks and statements in ``check_statements``,
expressions in ``check_expressions``), then the warnings that need the whole program
(unused names, zones nothing fills) and the wordings' checks (``says``).  A program that
checks cleanly is already lowered: the IR is plain JSON data (``schema/rules-ir.schema.json``,
``docs/rules-ir.md``); the runtime interprets it and knows no game.
"""

from __future__ import annotations

from collections.abc import Iterable

from decklore.compiler.diagnostics import suggest
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.builtins import (
    BUILTINS,
    COUNTER_OPTIONS,
    FLAG_OPTIONS,
    PERIODS,
    VISIBILITY,
    ZONE_OPTIONS,
)
from decklore.compiler.rules.check_statements import StatementChecker
from decklore.compiler.rules.context import IR, Decl, Scope
from decklore.compiler.rules.says import check_wording


class RulesChecker(StatementChecker):
    """Checks the rules files of one pack against its manifest and lowers them to IR."""

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
        self.decls[name] = Decl(kind, decl, decl.span)
        if kind == "define" and isinstance(decl, n.DefineDecl):
            self.define_types.setdefault(name, "")

    def _pack_name_kind(self, name: str) -> str:
        if name in self.m.symbols:
            return "symbol"
        if name in self.m.kinds:
            return "card kind"
        return ""

    def _lower_decl(self, decl: n.Declaration, ir: IR) -> None:
        if isinstance(decl, n.StateDecl):
            if self.decls.get(decl.name, Decl("", None, decl.span)).node is decl:
                ir[decl.kind + "s"].append(self._state(decl))
        elif isinstance(decl, n.ConstDecl):
            _, value = self._expr(decl.value, Scope())
            ir["consts"][decl.name] = value
        elif isinstance(decl, n.DefineDecl):
            params = decl.params or ()
            scope = Scope({p: "any" for p in params})
            kind, body = self._expr(decl.body, scope)
            ir["defines"][decl.name] = {"params": list(params), "body": body, "type": kind,
                                        "at": self._origin(decl.span)}
            if decl.says is not None:
                ir["defines"][decl.name]["says"] = decl.says.text
                self.worded.append((decl.says, decl.name))
        elif isinstance(decl, n.ActionDecl):
            params = decl.params or ()
            scope = Scope({p: "any" for p in params})
            ir["actions"][decl.name] = {
                "params": list(params), "label": decl.label or decl.name.replace("_", " "),
                "limit": self._limit(decl.limit), "body": self._block(decl.body, scope),
                "at": self._origin(decl.span),
            }
            if decl.says is not None:
                ir["actions"][decl.name]["says"] = decl.says.text
                self.worded.append((decl.says, decl.name))
        elif isinstance(decl, n.Flow):
            ir["flow"].append(self._flow(decl, "", Scope()))
        elif isinstance(decl, n.Trigger):
            ir["triggers"].append(self._trigger(decl))
        elif isinstance(decl, n.Outcome):
            scope = Scope({decl.player: "player"})
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
            _, value = self._typed(decl.expr, Scope({decl.player: "player"}), "number")
            ir["score"] = {"player": decl.player, "value": value, "at": self._origin(decl.span)}
            if decl.says is not None:
                ir["score"]["says"] = decl.says.text
                self.worded.append((decl.says, ir["score"]))
        elif isinstance(decl, n.TiebreakDecl):
            scope = Scope({self.player_var: "player"})
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

    # --- warnings ------------------------------------------------------------------------

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

