"""Plain-English rendering of a compiled rules program, for turn references and players.

It reads the IR in the tables (not the source), so a printed reference says exactly what
the engine runs.  The result is an outline of sections and numbered steps; ``{symbol}``
tokens mark where a sheet may draw a symbol's icon, as in card text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.rules.builtins import BUILTINS

IR = dict[str, Any]


@dataclass
class Step:
    """One instruction, with the instructions nested under it."""

    text: str
    children: list[Step] = field(default_factory=list)


@dataclass
class Section:
    """A titled part of the reference: setup, a phase, an action, the end of the game."""

    title: str
    steps: list[Step]
    kind: str = "section"


_COMPARE = {"eq": "is", "ne": "is not", "lt": "is less than", "le": "is at most",
            "gt": "is more than", "ge": "is at least"}
_ARITH = {"add": "+", "sub": "−", "mul": "×", "div": "÷", "mod": "mod"}
_PRECEDENCE = {"add": 1, "sub": 1, "mul": 2, "div": 2, "mod": 2}
PLURAL_VERBS = {"is": "are", "has": "have", "holds": "hold", "does": "do"}
"""The verbs generated text puts after a card or player, as 'you' and 'they' say them."""
SINGULAR_VERBS = {many: one for one, many in PLURAL_VERBS.items()}
_YOU = (("you's", "your"), *((f"you {one} ", f"you {many} ") for one, many in PLURAL_VERBS.items()))
_EVENTS = {"destroyed": "a card {} is destroyed", "played": "a card {} is played",
           "stacked": "a card {} is stacked on {}", "tucked": "a card {} is tucked under {}",
           "drawn": "a card {} is drawn", "revealed": "a card {} is revealed",
           "turn_start": "the turn of {} starts", "turn_end": "the turn of {} ends"}


def _lower_first(text: str) -> str:
    """'Draw pile' -> 'draw pile' for use inside a sentence; 'ERA deck' stays, and so does
    a name whose later words are capitalised too ('Dark Ages', 'Age of Enlightenment')."""
    words = text.split()
    if len(text) > 1 and text[0].isupper() and not text[1].isupper() and not any(
            w[:1].isupper() for w in words[1:]):
        return text[0].lower() + text[1:]
    return text


_END = {"turn": "End the turn now.", "round": "End the round now.",
        "phase": "End this phase now.", "era": "End the era now.",
        "game": "The game ends now."}


def _tested(where: IR | None) -> bool:
    """Whether a hook's condition says anything: ``where true`` is no condition at all."""
    return where is not None and where != {"op": "bool", "value": True}


_PREPOSITIONS = frozenset(("in", "of", "on", "for", "from", "to", "under", "with", "at",
                           "by"))
_PARTICIPLES = frozenset(("made", "taken", "kept", "chosen", "given", "paid", "built",
                          "drawn", "shown", "won", "lost", "held", "left"))


def _head(name: str) -> tuple[str, str]:
    """A name split after its head noun: 'attackers' + ' in this attack', 'harvest tokens'
    + ' made this phase', 'military symbols' + ' blocked' (but 'kept cards' is one noun:
    a participle ends the head only after a plural)."""
    words = name.split(" ")
    for index, word in enumerate(words[1:], 1):
        after_plural = _plural_word(words[index - 1]) and (
            word in _PARTICIPLES or (word.endswith("ed") and len(word) > 3))
        if word in _PREPOSITIONS or after_plural:
            return " ".join(words[:index]), " " + " ".join(words[index:])
    return name, ""


def _plural_word(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and \
        word not in ("has", "was", "does")


def _plural(name: str) -> bool:
    """'your routes' and 'your attackers in this attack' take 'are'; 'your status' and
    'the class' keep 'is'."""
    return _plural_word(_head(name)[0].rsplit(" ", 1)[-1])


def singular(name: str) -> str:
    """A counter's name after the number 1: '1 shot', '1 progress token', '1 bounty',
    '1 attacker in this attack'; a name that is not a plural ('gold', 'progress') stays as
    it is."""
    if not _plural(name):
        return name
    head, rest = _head(name)
    if head.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return head[:-2] + rest
    if head.endswith("ies"):
        return head[:-3] + "y" + rest
    return head[:-1] + rest


class English:
    """Renders IR expressions and statements of one program as English."""

    def __init__(self, tables: dict[str, Any]) -> None:
        rules = tables.get("rules") or {}
        self.rules = rules
        self.consts = rules.get("consts", {})
        self.defines = rules.get("defines", {})
        self.actions = rules.get("actions", {})
        self.labels: dict[str, str] = {
            str(z["name"]): _lower_first(str(z["label"])) for key in ("zones", "counters",
                                                                     "flags")
            for z in rules.get(key, [])}
        self.kinds: dict[str, str] = {str(k["id"]): str(k["name"])
                                      for k in tables.get("card_kinds", [])}
        self.fields: dict[str, str] = {str(f["name"]): str(f["label"]).lower()
                                       for f in tables.get("card_fields", [])}

    # expressions
    def expr(self, e: IR | None) -> str:
        if e is None:
            return "nothing"
        op = e["op"]
        method = getattr(self, f"_e_{op}", None)
        if method is None:
            raise ValueError(f"no English for expression op {op!r}")
        text: str = method(e)
        return text

    def _e_int(self, e: IR) -> str:
        return str(e["value"])

    def _e_text(self, e: IR) -> str:
        return f"“{e['value']}”"

    def _e_bool(self, e: IR) -> str:
        return "yes" if e["value"] else "no"

    def _e_none(self, e: IR) -> str:
        return "nothing"

    def _e_local(self, e: IR) -> str:
        return str(e["name"])

    def _e_me(self, e: IR) -> str:
        return "you"

    def _e_const(self, e: IR) -> str:
        value = self.consts.get(e["name"])
        return self.expr(value) if value is not None else str(e["name"]).replace("_", " ")

    def _e_define(self, e: IR) -> str:
        name = str(e["name"]).replace("_", " ")
        if not e["args"]:
            return name
        args = [self.expr(a) for a in e["args"]]
        if self.defines.get(e["name"], {}).get("type") == "bool":
            return f"“{name}” holds for {' and '.join(args)}"
        head, _, last = name.rpartition(" ")
        if len(e["args"]) == 1:
            # 'defense_of(p)' is 'your defense'; another last word belongs to the name
            # ('your cards to pay from')
            return f"{self._owner(e['args'][0])} {head if last == 'of' and head else name}"
        # A name that ends in a preposition ('targets in') joins its last argument with it,
        # the others follow 'of' (or own it, when the first is a player: 'your cubes in the
        # region'), so that none reads as a bare list.
        joint = "for"
        if head and last in _PREPOSITIONS:
            name, joint = head, last
        # every argument follows a preposition: 'they' (a player a loop walks) is 'them'
        *first, rest = ["them" if a == "they" else a for a in args]
        if e["args"][0]["op"] == "me" and len(first) == 1:
            return f"{self._owner(e['args'][0])} {name} {joint} {rest}"
        return f"the {name} of {' and '.join(first)} {joint} {rest}"

    def _e_symbol(self, e: IR) -> str:
        return "{" + str(e["id"]).split(":")[-1] + "}"

    def _e_kind(self, e: IR) -> str:
        return self.kinds.get(str(e["id"]), str(e["id"])).lower()

    def _owner(self, e: IR | None) -> str:
        if e is None:
            return "the"
        if e["op"] == "me":
            return "your"
        return f"{self.expr(e)}'s"

    def _e_zone(self, e: IR) -> str:
        label = self.labels.get(str(e["zone"]), str(e["zone"])).lower()
        space = f" {self.expr(e['space'])}" if e.get("space") is not None else ""
        if e.get("player") is None:
            return f"the {label}{space}"
        return f"{self._owner(e['player'])} {label}{space}"

    def _e_call(self, e: IR) -> str:
        if e["fn"] in ("top", "bottom") and e["args"][1] == {"op": "int", "value": 1}:
            return f"the {e['fn']} card of {self.expr(e['args'][0])}"
        builtin = BUILTINS.get(e["fn"])
        args = [self._argument(a) for a in e["args"]]
        if e["fn"] in ("top", "bottom") and " " in args[1] and not args[1].startswith("(") \
                and args[1] not in ("that many", "half that many"):
            # a noun: 'the top your cards to flip cards of …' would read as nonsense
            return f"as many cards from the {e['fn']} of {self.expr(e['args'][0])} as " \
                f"{args[1]}"
        if builtin is None:
            return f"{e['fn']}({', '.join(args)})"
        text = builtin.english.format(*args)
        for wrong, right in _YOU:
            text = text.replace(wrong, right)
        return text

    def _argument(self, e: IR) -> str:
        """An argument inside a builtin's sentence: arithmetic gets brackets."""
        text = self.expr(e)
        if e["op"] in ("add", "sub", "mul") and self._folded(e) is not None:
            return text
        if e["op"] in ("add", "sub", "mul", "div", "mod", "if"):
            return f"({text})"
        # a named value said by its body can be a choice too: '(2 if …, otherwise 3)'
        return f"({text})" if ", otherwise " in text and not text.startswith("(") else text

    def _possessive(self, of: IR | None, name: str, owner: str | None = None) -> str:
        """'your gold', 'the card's damage'; 'the gold of the owner of the card' when the
        owner is a phrase of its own, where "'s" would attach to the wrong noun."""
        owner = self._owner(of) if owner is None else owner
        if owner.endswith("'s") and " of " in owner:
            return f"the {name} of {owner[:-2]}"
        return f"{owner} {name}"

    def _e_field(self, e: IR) -> str:
        return self._possessive(e["of"], self.fields.get(e["name"], e["name"].replace("_", " ")))

    def _e_counter(self, e: IR) -> str:
        return self._possessive(e["of"], self.labels.get(e["name"], str(e["name"])))

    def _e_flag(self, e: IR) -> str:
        label = self.labels.get(e["name"], e["name"])
        if e["of"] is None:
            return f"“{label}” is marked"
        where = "for" if e["of"]["op"] in ("me", "local") else "on"
        return f"“{label}” is marked {where} {self.expr(e['of'])}"

    def _e_member(self, e: IR) -> str:
        return f"the {e['name'].replace('_', ' ')} of {self.expr(e['of'])}"

    def _e_not(self, e: IR) -> str:
        return f"not ({self.expr(e['x'])})"

    def _e_neg(self, e: IR) -> str:
        return f"minus {self.expr(e['x'])}"

    def _e_and(self, e: IR) -> str:
        return f"{self._grouped(e['a'], 'or')} and {self._grouped(e['b'], 'or')}"

    def _e_or(self, e: IR) -> str:
        return f"{self._grouped(e['a'], 'and')} or {self._grouped(e['b'], 'and')}"

    def _grouped(self, e: IR, other: str) -> str:
        """Bracket an 'or' inside an 'and' (and the reverse), so the reading is clear."""
        text = self.expr(e)
        return f"({text})" if e["op"] == other else text

    def _compare(self, e: IR) -> str:
        left = self.expr(e["a"])
        verb = _COMPARE[e["op"]]
        if e["a"]["op"] in ("define", "counter") and _plural(left):
            verb = verb.replace("is", "are", 1)
        return f"{left} {verb} {self.expr(e['b'])}"

    _e_eq = _e_ne = _e_lt = _e_le = _e_gt = _e_ge = _compare

    def _arith(self, e: IR) -> str:
        folded = self._folded(e)
        if folded is not None:
            return str(folded)
        op = e["op"]
        return f"{self._operand(e['a'], op, False)} {_ARITH[op]} {self._operand(e['b'], op, True)}"

    def _operand(self, e: IR, outer: str, right: bool) -> str:
        """One side of + − × ÷: brackets where the reading would otherwise change, as in
        '(your gold + 1) × 2' and '10 − (your gold − 1)'; a sum worked out needs none."""
        text = self.expr(e)
        inner = e["op"]
        if inner == "if":
            return f"({text})"
        if inner not in _PRECEDENCE or self._folded(e) is not None:
            return text
        if _PRECEDENCE[inner] < _PRECEDENCE[outer] or (
                right and _PRECEDENCE[inner] == _PRECEDENCE[outer]
                and outer in ("sub", "div", "mod")):
            return f"({text})"
        return text

    def _number(self, e: IR) -> int | None:
        """The value of a plain number (or a constant naming one, or sums of them)."""
        if e["op"] == "int":
            return int(e["value"])
        if e["op"] == "const":
            value = self.consts.get(e["name"])
            return self._number(value) if value is not None else None
        return self._folded(e)

    def _folded(self, e: IR) -> int | None:
        """'-1 + 3' reads as '2' on a player sheet: only +, − and × of plain numbers are
        worked out, since they mean the same in every reading."""
        if e["op"] not in ("add", "sub", "mul"):
            return None
        a, b = self._number(e["a"]), self._number(e["b"])
        if a is None or b is None:
            return None
        return a + b if e["op"] == "add" else a - b if e["op"] == "sub" else a * b

    _e_add = _e_sub = _e_mul = _e_div = _e_mod = _arith

    def _e_join(self, e: IR) -> str:
        return f"{self.expr(e['a'])} and {self.expr(e['b'])}"

    def _e_if(self, e: IR) -> str:
        return f"{self._argument(e['then'])} if {self.expr(e['cond'])}, otherwise " \
               f"{self._argument(e['else'])}"

    def _e_agg(self, e: IR) -> str:
        where = f" where {self.expr(e['where'])}" if e["where"] else ""
        source = self.expr(e["in"])
        var = e["var"]
        fn = e["fn"]
        if fn == "count":
            return f"the number of {var} in {source}{where}"
        if fn == "sum":
            return f"the total of {self.expr(e['value'])} for each {var} in {source}{where}"
        if fn in ("min", "max"):
            word = "smallest" if fn == "min" else "largest"
            value = self.expr(e["value"]).removeprefix("the ")  # not 'the smallest the …'
            return f"the {word} {value} among {var} in {source}{where}"
        if fn == "any":
            return f"some {var} in {source}{where.replace(' where', ' has')}" if where else \
                f"{source} is not empty"
        if fn == "all":
            return f"every {var} in {source}{where.replace(' where', ' has')}"
        return f"the {var} in {source}{where}"

    # statements
    def steps(self, block: list[IR]) -> list[Step]:
        out: list[Step] = []
        for statement in block:
            step = self.statement(statement)
            if step is not None:
                out.append(step)
        return out

    def statement(self, s: IR) -> Step | None:
        method = getattr(self, f"_s_{s['do']}", None)
        if method is None:
            raise ValueError(f"no English for statement {s['do']!r}")
        step: Step | None = method(s)
        return step

    def _s_move(self, s: IR) -> Step:
        facing = f" face {s['facing']}" if s["facing"] else ""
        depth = self.expr(s["depth"]) if s.get("depth") else ""
        position = ((f" with {depth} cards above it" if depth.isdigit() else
                     f", with as many cards above it as {depth}") if depth
                    else f" on the {s['position']}" if s["position"] else "")
        return Step(f"Move {self.expr(s['what'])} to {self.expr(s['to'])}{facing}{position}.")

    def _s_draw(self, s: IR) -> Step:
        facing = f", face {s['facing']}" if s["facing"] else ""
        return Step(f"Draw {self.expr(s['count'])} from {self.expr(s['from'])} into "
                    f"{self.expr(s['to'])}{facing}.")

    def _s_shuffle(self, s: IR) -> Step:
        return Step(f"Shuffle {self.expr(s['zone'])}.")

    def _s_reveal(self, s: IR) -> Step:
        to = f" to {self.expr(s['to'])}" if s["to"] else ""
        return Step(f"Reveal {self.expr(s['what'])}{to}.")

    def _s_destroy(self, s: IR) -> Step:
        to = f", to {self.expr(s['to'])}" if s["to"] else ""
        return Step(f"Destroy {self.expr(s['what'])}{to}.")

    def _s_stack(self, s: IR) -> Step:
        return Step(f"Stack {self.expr(s['what'])} on {self.expr(s['onto'])}.")

    def _s_tuck(self, s: IR) -> Step:
        return Step(f"Tuck {self.expr(s['what'])} under {self.expr(s['onto'])}.")

    def _target(self, s: IR) -> str:
        label = self.labels.get(str(s["name"]), str(s["name"]))
        if s["of"] is None:
            return label
        if s["of"]["op"] == "me":
            return f"your {label}"
        return self._possessive(s["of"], label, f"{self.expr(s['of'])}'s")

    def _inline_amount(self, e: IR, text: str) -> bool:
        """Whether an amount reads before the counter's name ('Gain 2 gold') rather than
        after it ('Gain gold equal to …')."""
        return e["op"] in ("int", "const", "local") or text.lstrip("-").isdigit()

    def _amount(self, verb: str, s: IR) -> str:
        """'Gain 2 money tokens' for plain numbers; 'Gain money tokens equal to ...' else."""
        label = self.labels.get(s["name"], str(s["name"]))
        amount = self.expr(s["amount"])
        if self._inline_amount(s["amount"], amount):
            return f"{verb} {amount} {singular(label) if amount == '1' else label}"
        return f"{verb} {label} equal to {amount}"

    def _s_gain(self, s: IR) -> Step:
        if s["of"] is None or s["of"]["op"] == "me":
            return Step(self._amount("Gain", s) + ".")
        return Step(f"Add {self._argument(s['amount'])} to {self._target(s)}.")

    def _s_spend(self, s: IR) -> Step:
        if s["of"] is None or s["of"]["op"] == "me":
            return Step(self._amount("Spend", s) + ".")
        return Step(f"Take {self._argument(s['amount'])} from {self._target(s)}.")

    def _s_set(self, s: IR) -> Step:
        if s["value"] is not None:
            return Step(f"Set {self._target(s)} to {self.expr(s['value'])}.")
        return Step(f"Mark “{self.labels.get(s['name'], s['name'])}”{self._on(s)}.")

    def _s_clear(self, s: IR) -> Step:
        if s["kind"] == "flag":
            return Step(f"Remove the mark “{self.labels.get(s['name'], s['name'])}”"
                        f"{self._on(s, 'from')}.")
        return Step(f"Set {self._target(s)} back to its start.")

    def _on(self, s: IR, word: str = "") -> str:
        if s["of"] is None:
            return ""
        of = s["of"]
        who = "you" if of["op"] == "me" else self.expr(of)
        return f" {word or ('for' if of['op'] in ('me', 'local') else 'on')} {who}"

    def _s_pay(self, s: IR) -> Step:
        parts = []
        for source in s["sources"]:
            if "counter" in source:
                parts.append(self.expr(source["counter"]))
            else:
                worth = f" (each card worth its {source['valued'].replace('_', ' ')})" \
                    if source["valued"] else ""
                parts.append(self.expr(source["zone"]) + worth)
        change = "no change is given" if s["change"] is None else \
            f"what is paid over goes to {self._target(s['change'])}"
        return Step(f"Pay {self.expr(s['amount'])} from {' or '.join(parts)}, "
                    f"one at a time; {change}.")

    def _s_let(self, s: IR) -> Step | None:
        return Step(f"Let {s['name']} be {self.expr(s['value'])}.")

    def _s_call(self, s: IR) -> Step | None:
        action = self.actions.get(s["action"], {})
        label = action.get("label", s["action"].replace("_", " "))
        params = action.get("params", [])
        given = ", ".join(f"{p} = {self.expr(a)}" for p, a in zip(params, s["args"],
                                                                   strict=False))
        with_args = f", with {given}" if given else ""
        return Step(f"{label[:1].upper()}{label[1:]} (see “{label}”{with_args}).")

    def _s_end(self, s: IR) -> Step:
        return Step(_END[s["period"]])

    def _s_fail(self, s: IR) -> None:
        return None

    def _s_log(self, s: IR) -> None:
        return None

    def _s_if(self, s: IR) -> Step | None:
        """An 'if' reads as one step whose text carries every branch, in order."""
        branches = [Step(f"If {self.expr(b['when'])}:" if i == 0 else
                         f"Otherwise, if {self.expr(b['when'])}:", self.steps(b["then"]))
                    for i, b in enumerate(s["branches"])]
        if s["else"]:
            branches.append(Step("Otherwise:", self.steps(s["else"])))
        if len(branches) == 1:
            return branches[0]
        return Step("Depending on the case:", branches)

    def _s_for_each(self, s: IR) -> Step:
        where = f" where {self.expr(s['where'])}" if s["where"] else ""
        return Step(f"For each {s['var']} in {self.expr(s['in'])}{where}:",
                    self.steps(s["body"]))

    def _s_repeat(self, s: IR) -> Step:
        times = self.expr(s["times"])
        head = f"Do this {times} times:" if times.isdigit() else \
            f"Do this as many times as {times}:"
        return Step(head, self.steps(s["body"]))

    def _s_repeat_while(self, s: IR) -> Step:
        return Step(f"As long as {self.expr(s['while'])}:", self.steps(s["body"]))

    def _s_repeat_until_pass(self, s: IR) -> Step:
        guard = f" while {self.expr(s['while'])}" if s["while"] else ""
        return Step(f"{s['label']}, as often as you like{guard}, until you pass:",
                    self.steps(s["body"]))

    def _s_as(self, s: IR) -> Step:
        return Step(f"Decided by {self.expr(s['player'])}:", self.steps(s["body"]))

    def _s_may(self, s: IR) -> Step:
        label = f" {s['label'][:1].lower()}{s['label'][1:]}" if s["label"] else ""
        return Step(f"You may{label}:", self.steps(s["body"]))

    def _s_choose(self, s: IR) -> Step:
        where = f" where {self.expr(s['where'])}" if s["where"] else ""
        count = ""
        if s["count"]:
            count = f" ({s['count']['kind']} {self.expr(s['count']['n'])})"
        optional = " You may choose none." if s["optional"] else ""
        if s["kind"] == "random":
            return Step(f"Pick one {s['var']} at random from {self.expr(s['from'])}{where}:",
                        self.steps(s["body"]))
        what = {"card": "a card", "cards": "cards", "player": "a player",
                "target": "a target"}[s["kind"]]
        return Step(f"{s['label']}: choose {what} {s['var']} from {self.expr(s['from'])}"
                    f"{where}{count}.{optional}", self.steps(s["body"]))

    def _s_choose_number(self, s: IR) -> Step:
        where = f" where {self.expr(s['where'])}" if s["where"] else ""
        return Step(f"{s['label']}: choose a number {s['var']} from {self.expr(s['low'])} to "
                    f"{self.expr(s['high'])}{where}.", self.steps(s["body"]))

    def _s_choose_one(self, s: IR) -> Step:
        step = Step(f"{s['label']}:")
        for option in s["options"]:
            notes = []
            if option["when"]:
                notes.append(f"only if {self.expr(option['when'])}")
            if option["limit"]:
                notes.append(_limit(option["limit"]))
            suffix = f" ({'; '.join(notes)})" if notes else ""
            step.children.append(Step(f"{option['label']}{suffix}:",
                                      self.steps(option["body"])))
        return step


def _limit(limit: IR) -> str:
    count = limit["count"]
    times = "once" if count == 1 else ("twice" if count == 2 else f"up to {count} times")
    return f"{times} per {limit['per']}"


def outline(tables: dict[str, Any]) -> list[Section]:
    """The whole program as sections: flow in order, then actions, triggers and the end."""
    rules = tables.get("rules")
    if not rules:
        return []
    english = English(tables)
    sections: list[Section] = []

    def walk(flow: IR, depth: int) -> None:
        steps = english.steps(flow["start"]) + english.steps(flow["body"])
        if flow["order"] is not None:
            steps.insert(0, Step(f"Players take turns in this order: "
                                 f"{english.expr(flow['order'])}."))
        for child in flow["children"]:
            steps.append(Step(child["label"][:1].upper() + child["label"][1:],
                              []))
        steps += english.steps(flow["end"])
        sections.append(Section(flow["label"][:1].upper() + flow["label"][1:], steps,
                                kind=flow["kind"]))
        for child in flow["children"]:
            walk(child, depth + 1)

    for flow in rules["flow"]:
        walk(flow, 0)
    for action in _in_source_order(rules["actions"].values(), rules.get("files", [])):
        label = action["label"]
        limit = f" ({_limit(action['limit'])})" if action["limit"] else ""
        sections.append(Section(f"{label[:1].upper()}{label[1:]}{limit}",
                                english.steps(action["body"]), kind="action"))
    if rules["triggers"]:
        steps = []
        for trigger in rules["triggers"]:
            where = f", if {english.expr(trigger['where'])}" if _tested(trigger["where"]) else ""
            event = _EVENTS.get(trigger["event"], trigger["event"] + " ({})")
            steps.append(Step(f"Whenever {event.format(*trigger['params'])}{where}:",
                              english.steps(trigger["body"])))
        sections.append(Section("Whenever…", steps, kind="triggers"))
    end_steps = []
    for outcome in rules["outcomes"]:
        verb = {"win": "wins", "lose": "loses", "eliminate": "is out of the game"}[
            outcome["kind"]]
        label = f" ({outcome['label']})" if outcome["label"] else ""
        end_steps.append(Step(f"A player {outcome['player']} {verb} as soon as "
                              f"{english.expr(outcome['when'])}{label}."))
    if rules["score"]:
        end_steps.append(Step(f"Score of {rules['score']['player']}: "
                              f"{english.expr(rules['score']['value'])}."))
    if rules["tiebreak"]:
        end_steps.append(Step("Ties are broken by: " +
                              "; then ".join(english.expr(t) for t in rules["tiebreak"]) +
                              "."))
    if end_steps:
        sections.append(Section("End of the game", end_steps, kind="end"))
    return sections


def to_text(sections: list[Section]) -> str:
    """The outline as indented, numbered plain text (for the terminal and tests)."""
    lines: list[str] = []

    def put(steps: list[Step], depth: int) -> None:
        for number, step in enumerate(steps, start=1):
            lines.append(f"{'   ' * depth}{number}. {step.text}")
            put(step.children, depth + 1)

    for section in sections:
        lines.append(section.title)
        lines.append("=" * len(section.title))
        put(section.steps, 0)
        lines.append("")
    return "\n".join(lines)


def _in_source_order(actions: Iterable[IR], files: list[str]) -> list[IR]:
    """Actions in the order the pack's files write them.  The tables keep them by name, and
    tables read back from the cache come in key order, not source order: the text must not
    depend on which."""
    def place(action: IR) -> tuple[int, int, str]:
        file, _, line = str(action.get("at") or "").rpartition(":")
        where = files.index(file) if file in files else len(files)
        return where, int(line) if line.isdigit() else 0, str(action.get("name", ""))
    return sorted(actions, key=place)
