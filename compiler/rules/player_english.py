"""English for players: the rules' IR said as a rulebook says it.

``PlayerEnglish`` turns expressions and statements into the player reference's words:
variables become nouns ("the card", "they", "the chosen card"), unworded helper actions
fold into the step that uses them, constants and values fixed by the player count are
inlined, negations turn the verb round.  ``player`` lays those steps out as the
reference's sections; ``english`` holds the exact rendering both build on.
"""

from __future__ import annotations

import re
from typing import Any

from decklore.compiler.rules.english import (
    PLURAL_VERBS,
    SINGULAR_VERBS,
    English,
    Step,
    _limit,
    _plural_word,
)
from decklore.compiler.rules.says import PLACEHOLDER as _FILLED
from decklore.compiler.rules.snapshots import snapshots, value_kind

IR = dict[str, Any]

_DOUBLED = re.compile(r"\b(\w+)(\s+)\1\b", re.IGNORECASE)
_MAX_SAID = 60  # characters an unworded value may take where it is used, said by its body
MAX_FOLD = 4  # statements an unworded helper action may have to be folded into its caller
_NOTED = {"card": ("the noted card", "Note which card is {}.", "its"),
          "cards": ("the noted cards", "Note which cards are {}.", "their"),
          "player": ("the noted player", "Note who is {}.", "")}
"""A noted value of each kind: how later steps name it, the step that notes it, and its
owner (a player's is the noun's own)."""


class PlayerEnglish(English):
    """English for players: variables become nouns, helpers fold in, numbers are inlined."""

    def __init__(self, tables: dict[str, Any], counts: list[int]) -> None:
        super().__init__(tables)
        self.counts = counts
        # A variable in scope: how to name it as a subject and as an owner.
        self.nouns: dict[str, tuple[str, str]] = {}
        self.folding: list[str] = []
        self.reading: list[str] = []  # unworded definitions being said by their bodies
        self.calls: dict[str, int] = {}
        self.sectioned: set[str] = set()
        self.referenced: list[str] = []  # sectioned actions a printed step names
        self.noting: list[list[str]] = []  # kinds of the values noted, block by block
        # Definitions a wording restricts to some player counts ({name:2-4}): the table
        # leaves their other counts blank.
        self.only: dict[str, list[int]] = {}
        self.symbols = {str(s["id"]).split(":")[-1] for s in tables.get("symbols", [])}
        self.starts = {str(c["name"]): c["start"] for c in self.rules.get("counters", [])}

    # --- wording the pack gave -----------------------------------------------------------

    def fill(self, text: str) -> str:
        """A ``says`` text with ``{const}`` values inlined (symbol tokens stay for icons)."""

        def one(match: re.Match[str]) -> str:
            name = match.group(1)
            counts = _counts_in(match, self.counts)
            if counts != self.counts:
                self.only[name] = counts
            if name in self.consts:
                return self.expr(self.consts[name])
            define = self.defines.get(name)
            if define is not None and not define["params"]:
                value = self.constant(define["body"])
                if value is not None:
                    return value
                by_count = self.by_count(define["body"], counts)
                if by_count is not None:
                    return by_count
            if name in self.starts:
                return str(self.starts[name])
            return match.group(0)

        return _FILLED.sub(one, text)

    def by_count(self, e: IR, counts: list[int] | None = None) -> str | None:
        """'2 (1–2 players), 3 (3–4 players)' for a value that depends on the count."""
        counts = self.counts if counts is None else counts
        values = [value_when(e, n, self.rules) for n in counts]
        if any(v is None or isinstance(v, bool) for v in values):
            return None
        groups: list[tuple[list[int], int | bool | None]] = []
        for n, value in zip(counts, values, strict=True):
            if groups and groups[-1][1] == value:
                groups[-1][0].append(n)
            else:
                groups.append(([n], value))
        parts = []
        for ns, value in groups:
            span = str(ns[0]) if len(ns) == 1 else f"{ns[0]}–{ns[-1]}"
            parts.append(f"{value} ({span} player{'s' if ns != [1] else ''})")
        return ", ".join(parts)

    def constant(self, e: IR) -> str | None:
        """The value of a simple expression as players read it, or None when it varies."""
        op = e["op"]
        if op == "int":
            return str(e["value"])
        if op == "const":
            return self.constant(self.consts[e["name"]]) if e["name"] in self.consts else None
        if op == "define" and not e["args"]:
            define = self.defines.get(e["name"])
            return self.constant(define["body"]) if define else None
        if op == "if" and e["cond"] == {"op": "call", "fn": "first_turn", "args": []}:
            first, usual = self.constant(e["then"]), self.constant(e["else"])
            if first is not None and usual is not None:
                return f"{usual} ({first} on the first turn of the game)"
        return None

    # --- expressions -----------------------------------------------------------------------

    def _e_local(self, e: IR) -> str:
        noun = self.nouns.get(str(e["name"]))
        return noun[0] if noun else str(e["name"]).replace("_", " ")

    def _owner(self, e: IR | None) -> str:
        if e is not None and e["op"] == "local" and str(e["name"]) in self.nouns:
            return self.nouns[str(e["name"])][1]
        if e is not None and e["op"] == "const":
            return f"the {str(e['name']).replace('_', ' ')}"
        return super()._owner(e)

    def _e_zone(self, e: IR) -> str:
        label = self.labels.get(str(e["zone"]), str(e["zone"])).lower()
        label = label.removeprefix("the ")
        space = f" {self.expr(e['space'])}" if e.get("space") is not None else ""
        if e.get("player") is None:
            return f"the {label}{space}"
        return self._possessive(e["player"], label) + space

    def _e_define(self, e: IR) -> str:
        define = self.defines.get(e["name"], {})
        if define.get("says"):
            return self._worded(define, e["args"])
        if not e["args"]:
            value = self.constant(define.get("body") or {"op": "none"})
            if value is not None:
                return value
            if define.get("type") == "player":
                return f"the {str(e['name']).replace('_', ' ')}"
            if define.get("type") != "bool" and define.get("body") and \
                    e["name"] not in self.reading:
                # An unworded value is said as what it is: its name is the pack's, not
                # the players'.
                self.reading.append(str(e["name"]))
                try:
                    said = self.expr(define["body"])
                finally:
                    self.reading.pop()
                if len(said) <= _MAX_SAID:  # a long one reads worse than its name
                    return said
        if e["args"] and e["args"][0]["op"] == "const":  # a deck or level named by a constant
            return f"{str(e['name']).replace('_', ' ')} of {self._owner(e['args'][0])}"
        return super()._e_define(e)

    def _worded(self, define: IR, args: list[IR]) -> str:
        """A define's ``says`` text, with 'your' read as the owner it is asked about."""
        text = self.fill(str(define["says"]))
        if args and args[0]["op"] != "me":
            owner = self._owner(args[0])
            text = re.sub(r"\byour\b", owner, text)
            text = re.sub(r"\byou\b", self.expr(args[0]), text)
        return text

    def _compare(self, e: IR) -> str:
        """'you have at least 15 progress tokens' rather than 'your … is at least 15'."""
        a = e["a"]
        if a["op"] == "counter" and e["b"]["op"] in ("int", "const"):
            words = {"eq": "exactly", "ne": "other than", "lt": "fewer than",
                     "le": "at most", "gt": "more than", "ge": "at least"}[e["op"]]
            owner = a["of"]
            who = "you" if owner is None or owner["op"] == "me" else self.expr(owner)
            verb = "have" if who in ("you", "they") else "has"
            label = self.labels.get(a["name"], a["name"])
            if " " not in label or any(_plural_word(w) for w in label.split(" ")):
                # '3 shots', '3 gold', '0 discoveries this era'; not '3 kingdom level'
                return f"{who} {verb} {words} {self.expr(e['b'])} {label}"
        return super()._compare(e)

    _e_eq = _e_ne = _e_lt = _e_le = _e_gt = _e_ge = _compare

    def _e_not(self, e: IR) -> str:
        """'you have at least 3 shots' for not (fewer than 3), and a sentence's own verb
        negated ('“storm” is not marked') where there is one to negate."""
        x = e["x"]
        if x["op"] in _OPPOSITE:
            return self.expr({**x, "op": _OPPOSITE[x["op"]]})
        if x["op"] == "not":
            return self.expr(x["x"])
        return _negated(self.expr(x))

    def _e_and(self, e: IR) -> str:
        for side, other in (("a", "b"), ("b", "a")):  # 'true and X' is X
            if e[side] == {"op": "bool", "value": True}:
                return self.expr(e[other])
        return super()._e_and(e)

    def _e_or(self, e: IR) -> str:
        for side, other in (("a", "b"), ("b", "a")):  # 'false or X' is X
            if e[side] == {"op": "bool", "value": False}:
                return self.expr(e[other])
        return super()._e_or(e)

    def _e_div(self, e: IR) -> str:
        """'half your gold, rounded down': the engine divides whole numbers, rounding down,
        and a player needs to be told so."""
        if e["b"] == {"op": "int", "value": 2}:
            return f"half {self._half_of(self.expr(e['a']))} (rounded down)"
        return f"{self._operand(e['a'], 'div', False)} ÷ {self._operand(e['b'], 'div', True)}" \
            " (rounded down)"

    @staticmethod
    def _half_of(text: str) -> str:
        return text if text.startswith(("the ", "your ", "their ", "its ", "that ")) or \
            text.isdigit() else f"of {text}"

    def _argument(self, e: IR) -> str:
        if e["op"] == "div":  # 'half that many, rounded down' needs no brackets
            return self.expr(e)
        return super()._argument(e)

    def _inline_amount(self, e: IR, text: str) -> bool:
        # A named value reads where it is used, so 'Gain the total … gold' is avoided.
        return text.lstrip("-").isdigit() or text in ("that many", "half that many") or (
            e["op"] == "const" and len(text.split()) <= 2)

    def _e_call(self, e: IR) -> str:
        if e["fn"] == "size" and e["args"][0].get("op") == "call" and \
                e["args"][0]["fn"] in _COUNTED_AS_SAID:
            return f"the number of {self.expr(e['args'][0]).removeprefix('the ')}"
        if e["fn"] == "automated":
            return f"{self.expr(e['args'][0])} is an automated player"
        if e["fn"] == "players_from":
            return f"players in seat order, starting with {self.expr(e['args'][0])}"
        if e["fn"] == "player_at" and e["args"][0]["op"] not in ("int", "const"):
            return f"the player whose seat number is {self.expr(e['args'][0])}"
        if e["fn"] == "opponent" and e["args"][0]["op"] == "local" and \
                self.nouns.get(str(e["args"][0]["name"]), ("", ""))[0] == "you":
            return "your opponent"
        return super()._e_call(e)

    def _e_agg(self, e: IR) -> str:
        source_ir = e["in"]
        players = _lists_players(source_ir)
        one, many = ("player", "players") if players else ("card", "cards")
        var = str(e["var"])
        saved = self.nouns.get(var)
        self.nouns[var] = (f"that {one}", "their" if players else "its")
        try:
            kind = self._kind_test(e["where"], var)
            where = "" if e["where"] is None or kind else f" where {self.expr(e['where'])}"
            source = self.expr(source_ir)
            label = f"{kind} {many}" if kind else many
            fn = e["fn"]
            said = source_ir.get("op") == "call" and source_ir.get("fn") in _COUNTED_AS_SAID
            if fn == "count":
                if said and not where and not kind:  # 'the number of cards tucked under …'
                    return f"the number of {source.removeprefix('the ')}"
                return f"the number of {label} in {source}{where}".replace(
                    " in every player", "")
            value = self.expr(e["value"])
            if fn == "sum":
                if value.startswith("its ") and not where:  # 'the total price of …'
                    cards = source if source_ir.get("fn") in _CARDS_AS_SAID else \
                        f"the {label} in {source}"
                    return f"the total {value.removeprefix('its ')} of {cards}"
                return f"the total of {value} for the {label} in {source}{where}"
            if fn in ("min", "max"):
                if players and value.startswith("their ") and not where:
                    word = "least" if fn == "min" else "most"
                    who = "any player" if source_ir.get("fn") == "players" else \
                        f"any of {source}"
                    return f"the {word} {value.removeprefix('their ')} {who} has"
                word = "smallest" if fn == "min" else "largest"
                return f"the {word} {value} among the {label} in {source}"
            test = "" if e["where"] is None or kind else self.expr(e["where"])
            subject = f"that {one} "
            if fn == "any":
                if test.startswith(subject):  # 'a card in your hand that is face up'
                    return f"there is a {kind or one} in {source} that {test[len(subject):]}"
                return f"there is a {kind or one} in {source}{where}"
            if fn == "all":
                every = "every player" if source_ir.get("fn") == "players" and not kind \
                    else f"every {kind or one} in {source}"
                if test.count(f"that {one}") == 1 and not test.startswith(subject):
                    # '“done” is marked for every player'
                    return test.replace(f"that {one}", every)
                if test.startswith(subject):  # 'every card in your hand is face up'
                    return f"every {kind or one} in {source} {test[len(subject):]}"
                if test:
                    return f"for every {kind or one} in {source}, {test}"
                return f"every {kind or one} in {source}"
            if players and test.startswith(subject):
                return self._players_who(source_ir, test[len(subject):])
            return f"the {label} in {source}{where}"
        finally:
            if saved is None:
                self.nouns.pop(var, None)
            else:
                self.nouns[var] = saved

    def _players_who(self, source: IR, test: str) -> str:
        """'the players who have more than 0 gold, in seat order, starting with …' for a
        selection of players by a test on that player."""
        test = re.sub(r"^(is|has|holds)\b", lambda m: PLURAL_VERBS[m.group(1)], test)
        if source["fn"] == "players_from":
            return (f"the players who {test}, in seat order, starting with "
                    f"{self.expr(source['args'][0])}")
        if source["fn"] == "players":
            return f"the players who {test}"
        return f"{self.expr(source)} who {test}"

    def _kind_test(self, where: IR | None, var: str) -> str:
        """'conflict' for ``c.kind = conflict``, so "the conflict cards in …" reads well."""
        if (where is not None and where["op"] == "eq" and where["a"].get("op") == "field"
                and where["a"]["name"] == "kind" and where["a"]["of"] == {"op": "local",
                                                                         "name": var}
                and where["b"]["op"] == "kind"):
            return self.kinds.get(str(where["b"]["id"]), "").lower().removesuffix(" card")
        return ""

    # --- statements ----------------------------------------------------------------------

    def _bind(self, var: str, subject: str, owner: str) -> tuple[str, tuple[str, str] | None]:
        saved = self.nouns.get(var)
        self.nouns[var] = (subject, owner)
        return var, saved

    def _unbind(self, bound: tuple[str, tuple[str, str] | None]) -> None:
        var, saved = bound
        if saved is None:
            self.nouns.pop(var, None)
        else:
            self.nouns[var] = saved

    def steps(self, block: list[IR]) -> list[Step]:
        noted = snapshots(block, self.actions, self.defines)
        self.noting.append([value_kind(block[i]["value"], self.defines) for i in noted])
        out: list[Step] = []
        try:
            for i, statement in enumerate(block):
                step = self._noted(statement) if i in noted else self.statement(statement)
                if step is not None:
                    out.append(step)
        finally:
            self.noting.pop()
        return out

    def _noted(self, s: IR) -> Step:
        """A value read after the state it comes from has changed: players note it first,
        and the later steps say it as noted ("the noted card"; "the noted card (the top
        card of …)" where two cards are noted at once)."""
        value = s["value"]
        said = self.expr(value)
        kind = value_kind(value, self.defines)
        if kind in _NOTED:
            noun, step, owner = _NOTED[kind]
            if sum(kinds.count(kind) for kinds in self.noting) > 1:
                noun = f"{noun} ({said})"
            owner = owner or f"{noun}'s"
        elif kind == "bool":
            noun, step, owner = f"{said} when noted", "Note whether {}.", ""
        else:
            noun, step, owner = f"{said} as noted", "Note {}.", ""
        self.nouns[str(s["name"])] = (noun, owner)
        return Step(step.format(said))

    def _s_let(self, s: IR) -> None:
        # The value is read where the name is used: no "Let x be …" step.
        self.nouns[str(s["name"])] = (self.expr(s["value"]), self._owner(s["value"]))
        return None

    def _s_call(self, s: IR) -> Step | None:
        name = str(s["action"])
        action = self.actions.get(name, {})
        label = str(action.get("label", name.replace("_", " ")))
        title = label[:1].upper() + label[1:]
        if action.get("says"):
            return Step(self.fill(str(action["says"])))
        if (name in self.sectioned or name in self.folding
                or len(self.folding) >= 2 or _size(action.get("body")) > MAX_FOLD):
            self.sectioned.add(name)  # explained once, in a section of its own
            self.referenced.append(name)
            return Step(f"{title}.")
        bound = [self._bind(str(p), self.expr(a), self._owner(a))
                 for p, a in zip(action.get("params", []), s["args"], strict=False)]
        self.folding.append(name)
        try:
            steps = self.steps(action.get("body") or [])
        finally:
            self.folding.pop()
            for b in reversed(bound):
                self._unbind(b)
        if not steps:
            return None
        if len(steps) == 1 and not steps[0].children:
            return steps[0]
        return Step(f"{title}:", steps)

    def _s_for_each(self, s: IR) -> Step:
        source = s["in"]
        listed = _lists_players(source)
        players = listed or s.get("walks") == "players"
        var = str(s["var"])
        bound = self._bind(var, "they" if players else "the card",
                           "their" if players else "its")
        try:
            body = self.steps(s["body"])
            if players:
                where = f" {self._who(s['where'])}" if s["where"] else ""
                head = "Each player" if source.get("fn") == "players" else \
                    f"Each of {self.expr(source)}" if listed else \
                    self._each_player_in(self.expr(source))
                step = Step(f"{head}{where}:", body)
            else:
                kind = self._kind_test(s["where"], var)
                where = "" if s["where"] is None or kind else f" where {self.expr(s['where'])}"
                self.nouns[var] = ("the card", "its")
                step = Step(f"For each {kind + ' ' if kind else ''}card in "
                            f"{self.expr(source)}{where}:", body)
        finally:
            self._unbind(bound)
        return step

    @staticmethod
    def _each_player_in(said: str) -> str:
        """'For each player in draft order', or 'For each player in seat order, …' where
        the list's own words begin with 'players'."""
        if said.startswith("players "):
            return f"For each player {said.removeprefix('players ')}"
        return f"For each player in {said}"

    def _who(self, where: IR) -> str:
        """The players a test picks: 'who is …' where the test is said of them, otherwise
        'for whom …' ('for whom the number of cards in their row is more than 0')."""
        text = self.expr(where).replace("not (they is played by the rules)",
                                        "they is not played by the rules")
        subject, _, rest = text.partition(" ")
        verb, _, tail = rest.partition(" ")
        if subject == "they" and verb in (*PLURAL_VERBS, *SINGULAR_VERBS):
            return f"who {SINGULAR_VERBS.get(verb, verb)} {tail}"
        return f"for whom {text}"

    def _s_as(self, s: IR) -> Step:
        who = self.expr(s["player"])
        head = "They decide:" if who == "they" else f"{who[:1].upper()}{who[1:]} decides:"
        return Step(head, self.steps(s["body"]))

    def _s_choose(self, s: IR) -> Step:
        var = str(s["var"])
        kind = s["kind"]
        noun = {"card": ("the card", "its"), "cards": ("those cards", "their"),
                "player": ("that player", "their"), "target": ("the target", "its"),
                "random": ("the card", "its")}[kind]
        subject = noun[0]
        if subject.startswith("the ") and any(
                said == subject for name, (said, _) in self.nouns.items() if name != var):
            # A card already called 'the card' is in play: the candidates the test picks
            # are 'that card', and the one chosen is 'the chosen card'.
            that, chosen = subject.replace("the ", "that ", 1), \
                subject.replace("the ", "the chosen ", 1)
            tested, noun = (that, f"{that}'s"), (chosen, f"{chosen}'s")
        else:
            tested = noun
        bound = self._bind(var, *tested)
        try:
            where = f" where {self.expr(s['where'])}" if s["where"] else ""
            source = self.expr(s["from"])
        finally:
            self._unbind(bound)
        bound = self._bind(var, *noun)
        try:
            body = self.steps(s["body"])
        finally:
            self._unbind(bound)
        what = {"card": "a card", "cards": "cards", "player": "a player",
                "target": "a target", "random": "a card at random"}[kind]
        if kind == "player" and source.endswith(" opponents") and not where:
            what, source = "one", f"of {source}"  # 'Choose one of your opponents.'
        if s["count"]:
            n = self.expr(s["count"]["n"])
            what = f"{s['count']['kind']} {n} {'card' if n == '1' else 'cards'}"
        label = str(s.get("label") or "")
        if label in (f"Choose {kind} {var}", f"Pick {var} at random"):
            label = ""  # the compiler's prompt, naming the variable: not for players
        verb = "Pick" if kind == "random" else ("You may choose" if s["optional"] else
                                                 "Choose")
        text = f"{verb} {what} {'' if source.startswith('of ') else 'from '}{source}{where}."
        return Step(_led(label, text) if label and kind != "random" else text, body)

    def _s_choose_number(self, s: IR) -> Step:
        bound = self._bind(str(s["var"]), "that many", "that many")
        try:
            body = self.steps(s["body"])
        finally:
            self._unbind(bound)
        low, high = self.expr(s["low"]), self.expr(s["high"])
        label = str(s.get("label") or "")
        if label in ("", f"Choose {s['var']}"):  # the compiler's prompt names the variable
            return Step(f"Choose how many, from {low} to {high}.", body)
        return Step(_led(label, f"choose how many, from {low} to {high}."), body)

    def _s_may(self, s: IR) -> Step:
        body = self.steps(s["body"])
        if s["label"]:
            text = str(s["label"])
            return Step(f"You may {text[:1].lower()}{text[1:]}.", body)
        return Step("You may:", body)

    def _s_repeat_until_pass(self, s: IR) -> Step:
        label = str(s["label"] or "Act")
        return Step(f"{label}, as often as you like, until you pass:", self.steps(s["body"]))

    def _s_choose_one(self, s: IR) -> Step:
        label = str(s["label"] or "")
        step = Step("Choose one." if label in ("", "Choose one") else _led(label, "choose one."))
        for option in s["options"]:
            suffix = f" ({_limit(option['limit'])})" if option["limit"] else ""
            body = self.steps(option["body"])
            text = str(option["label"] or option["name"]).replace("_", " ")
            if len(body) == 1 and not body[0].children and body[0].text.rstrip(".") == text:
                body = []
            step.children.append(Step(f"{text}{suffix}" + (":" if body else "."), body))
        return step

    def _s_if(self, s: IR) -> Step | None:
        """The branches in order, leaving out what players never see: a last branch that
        only logs or fails is no step, and an 'if' with nothing to do is none at all."""
        branches = [(b["when"], self.steps(b["then"])) for b in s["branches"]]
        otherwise = self.steps(s["else"]) if s["else"] else []
        if not otherwise:
            while branches and not branches[-1][1]:
                branches.pop()
        if not branches and not otherwise:
            return None
        steps = [Step(f"{'If' if i == 0 else 'Otherwise, if'} {self.expr(when)}:",
                      then or [Step("Nothing happens.")])
                 for i, (when, then) in enumerate(branches)]
        if otherwise:
            if not any(then for _, then in branches):  # only the 'else' does anything
                return Step(f"Unless {' or '.join(self.expr(w) for w, _ in branches)}:",
                            otherwise)
            steps.append(Step("Otherwise:", otherwise))
        return steps[0] if len(steps) == 1 else Step("Do the first of these that applies:", steps)

    def statement(self, s: IR) -> Step | None:
        step = super().statement(s)
        if step is not None:
            tidy(step)
        return step


def _lists_players(source: IR) -> bool:
    """Whether a loop's source is one of the builtins that list players by seat."""
    return source.get("op") == "call" and source.get("fn") in ("players", "opponents",
                                                             "players_from")


_QUOTED = re.compile(r"“[^”]*”")
_OPPOSITE = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "gt": "le", "le": "gt"}
# Builtins giving cards that a count reads as they are said ('the number of units in …').
_COUNTED_AS_SAID = ("tucked", "units")
_CARDS_AS_SAID = ("top", "bottom", "tucked")
_NEGATIONS = {"is": "is not", "are": "are not", "has": "does not have",
              "have": "do not have", "holds": "does not hold", "hold": "do not hold"}


def _led(label: str, text: str) -> str:
    """A step led by the pack's name for it: 'Gunners: choose …', 'What now? Choose …'."""
    if label.endswith(("?", "!", ".")):
        return f"{label} {text[:1].upper()}{text[1:]}"
    return f"{label}: {text[:1].lower()}{text[1:]}"


def _negated(text: str) -> str:
    """A sentence turned round by its verb, when it has just one clause and one verb;
    otherwise 'it is not so that …', which any sentence can take."""
    if text.startswith("there is a "):
        return "there is no " + text.removeprefix("there is a ")
    if text.startswith("every "):
        return f"not {text}"
    bare = _QUOTED.sub("“”", text)  # a quoted name's words are not the sentence's
    verbs = re.findall(r"\b(?:is|are|has|have|holds|hold)\b", bare)
    if len(verbs) == 1 and not re.search(r"\b(?:and|or|if|that|who)\b", bare):
        quoted = _QUOTED.findall(text)
        turned = re.sub(r"\b(is|are|has|have|holds|hold)\b",
                        lambda m: _NEGATIONS[m.group(1)], bare, count=1)
        for name in quoted:
            turned = turned.replace("“”", name, 1)
        return turned
    return f"it is not so that {text}"


def tidy(step: Step) -> None:
    """Doubled words and 'you is' are artefacts of joining phrases: remove them."""
    text = _DOUBLED.sub(r"\1", step.text)
    text = text.replace("they's", "their").replace("you's", "your")
    text = re.sub(r"\b(for|from|to|on|by|under|with) they\b", r"\1 them", text)
    # 'you'/'they' as the subject of a clause take the plural verb; as an object they stay.
    text = re.sub(r"(^|\b(?:[Ii]f|when|and|or|while|that|where) )(you|they) (is|has|holds)\b",
                  lambda m: f"{m.group(1)}{m.group(2)} "
                  f"{PLURAL_VERBS[m.group(3)]}", text)
    text = text.replace("every card of you", "all your cards")
    step.text = text[:1].upper() + text[1:]


def _size(node: Any) -> int:
    """How many statements a block holds, nested ones included."""
    if isinstance(node, list):
        return sum(_size(item) for item in node)
    if isinstance(node, dict):
        own = 1 if "do" in node else 0
        return own + sum(_size(v) for k, v in node.items()
                         if k in ("body", "then", "else", "branches", "options"))
    return 0


def _counts_in(match: re.Match[str], counts: list[int]) -> list[int]:
    """The player counts a ``{name:2-4}`` placeholder speaks of (all of them without one)."""
    if match.group(2) is None:
        return counts
    low = int(match.group(2))
    high = int(match.group(3)) if match.group(3) is not None else low
    return [n for n in counts if low <= n <= high] or counts


def value_when(e: IR, n: int, rules: IR) -> int | bool | None:
    """The value of an expression when ``n`` play, if it depends on nothing else."""
    op = e["op"]
    if op == "int":
        return int(e["value"])
    if op == "const":
        value = rules["consts"].get(e["name"])
        return value_when(value, n, rules) if value else None
    if op == "define" and not e["args"]:
        define = rules["defines"].get(e["name"])
        return value_when(define["body"], n, rules) if define else None
    if op == "agg" and e["fn"] == "count" and e["in"] == {"op": "call", "fn": "players",
                                                           "args": []}:
        return n
    if op == "if":
        cond = value_when(e["cond"], n, rules)
        if cond is None:
            return None
        return value_when(e["then"] if cond else e["else"], n, rules)
    if op in ("eq", "ne", "lt", "le", "gt", "ge", "add", "sub", "mul", "div"):
        a, b = value_when(e["a"], n, rules), value_when(e["b"], n, rules)
        if a is None or b is None:
            return None
        x, y = int(a), int(b)
        return {"eq": x == y, "ne": x != y, "lt": x < y, "le": x <= y, "gt": x > y,
                "ge": x >= y, "add": x + y, "sub": x - y, "mul": x * y,
                "div": x // y if y else 0}[op]
    return None
