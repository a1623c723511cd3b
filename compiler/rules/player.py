"""The player reference: the rules program told to players, short and in a rulebook voice.

``rules_english`` renders the program exactly and completely, for a designer checking the
rules; this module renders the same IR for the table: a goal box (how to win, how the game
ends), setup as numbered steps, each phase of the turn as short imperatives with the numbers
inlined, the decisions as "You may…", helper actions folded into the step that uses them,
and values that depend on the number of players as a small table.  No variable letters and
no cross-references: a chosen card is "the card", a player looped over is "they" (the
words are ``player_english``'s; this module lays them out as sections).

A pack steers the wording where the program does not read well, with ``says "…"`` lines
next to the rule (a block, an action, a definition) and ``note "…"`` lines under a section
(docs/rules-language.md); ``{name}`` in them prints a constant's value or a symbol's icon.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.rules.english import Step, _limit, _tested
from decklore.compiler.rules.player_english import MAX_FOLD, PlayerEnglish, tidy, value_when

IR = dict[str, Any]

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


@dataclass
class PlayerSection:
    """A titled part of the player reference, numbered when it is a phase of the turn."""

    title: str
    steps: list[Step]
    kind: str = "section"
    number: int | None = None
    notes: list[str] = field(default_factory=list)
    automatic: bool = False
    """Nothing is asked of the player here: the steps just happen."""
    heading: tuple[str, str] | None = None
    """On the first section of each kind of turn: the turn's title and how players take
    turns (a pack whose eras play different rounds has several)."""


@dataclass
class CountTable:
    """Values that depend on how many play: one row per value, one column per count."""

    counts: list[int]
    rows: list[tuple[str, list[str]]]
    solo: list[int] = field(default_factory=list)
    """Counts played against automated seats (pack.yaml ``players.automated``): their
    column reads "1 (solo)"."""

    @property
    def headers(self) -> list[str]:
        return [f"{n} (solo)" if n in self.solo else str(n) for n in self.counts]


@dataclass
class PlayerReference:
    """Everything the player reference prints, in reading order."""

    goal: list[str]
    setup: list[Step]
    turn_title: str
    turn_order: str
    phases: list[PlayerSection]
    actions: list[PlayerSection]
    always: list[Step]
    table: CountTable | None
    notes: list[str]
    terms: list[tuple[str, str]] = field(default_factory=list)
    """The pack's glossary (``term`` lines): each word the steps use, and what it means."""

    def sections(self) -> Iterator[PlayerSection]:
        yield PlayerSection("How to win", [Step(t) for t in self.goal], kind="goal")
        if self.setup:
            yield PlayerSection("Setup", self.setup, kind="setup")
        yield from self.phases
        yield from self.actions
        if self.always:
            yield PlayerSection("At any time", self.always, kind="triggers")






def _title(label: str) -> str:
    return label[:1].upper() + label[1:]


def _phase_title(label: str) -> str:
    """'I. Actions' -> 'Actions': the sheet numbers phases itself, so it is not said twice."""
    return _title(re.sub(r"^[IVXLC]+\.\s+|^\d+\.\s+", "", label))


def _flows(flows: list[IR]) -> Iterator[IR]:
    for flow in flows:
        yield flow
        yield from _flows(flow.get("children") or [])


_ASKING = ("may", "choose", "choose_one", "choose_number", "repeat_until_pass")


def asks(node: Any, actions: IR, seen: set[str] | None = None) -> bool:
    """Whether a block asks its player anything, read through the actions it runs (a
    question another player answers, inside ``as``, does not count)."""
    seen = set() if seen is None else seen
    if isinstance(node, list):
        return any(asks(item, actions, seen) for item in node)
    if not isinstance(node, dict):
        return False
    kind = node.get("do")
    if kind == "as":
        return False
    if kind in _ASKING and not (kind == "choose" and node.get("kind") == "random"):
        return True
    if kind == "call" and node["action"] not in seen:
        seen.add(str(node["action"]))
        if asks(actions.get(node["action"], {}).get("body"), actions, seen):
            return True
    return any(asks(value, actions, seen) for key, value in node.items()
               if isinstance(value, list | dict) and key not in ("where", "when"))


def _count_calls(node: Any, calls: dict[str, int]) -> None:
    if isinstance(node, dict):
        if node.get("do") == "call":
            calls[str(node["action"])] = calls.get(str(node["action"]), 0) + 1
        for value in node.values():
            _count_calls(value, calls)
    elif isinstance(node, list):
        for value in node:
            _count_calls(value, calls)


def player_reference(tables: dict[str, Any]) -> PlayerReference | None:
    """The player reference of a pack, or None when it has no rules."""
    rules = tables.get("rules")
    if not rules:
        return None
    players = tables.get("pack", {}).get("players") or {"min": 2, "max": 2}
    counts = list(range(int(players.get("min", 2)), int(players.get("max", 2)) + 1))
    english = PlayerEnglish(tables, counts)
    calls: dict[str, int] = {}
    _count_calls(rules["flow"], calls)
    _count_calls(rules["actions"], calls)
    _count_calls(rules["triggers"], calls)
    # A long helper used from several places is explained once, in a section of its own.
    english.sectioned = {name for name, action in rules["actions"].items()
                         if not action.get("says") and calls.get(name, 0) > 1
                         and len(action["body"]) > MAX_FOLD // 2}
    setup: list[Step] = []
    phases: list[PlayerSection] = []
    notes: list[str] = []
    turns: list[tuple[str, str]] = []  # each turn's title and order, as the flow has them
    order, era = "", ""
    eras: list[str] = []  # the era each turn is played in, when the flow has eras
    headed: list[tuple[PlayerSection, int]] = []  # the first section of each turn
    round_ends: list[PlayerSection] = []
    robot_turn: list[PlayerSection] = []
    terms: list[tuple[str, str]] = []
    for flow in _flows(rules["flow"]):
        notes += [english.fill(n) for n in flow.get("notes") or [] if flow["kind"] not in
                  ("phase", "step")]
        terms += [(str(word), english.fill(str(text))) for word, text in flow.get("terms") or []]
        if flow["kind"] == "era":
            era = _title(str(flow["label"]))
        if flow["kind"] == "setup":
            setup += _flow_steps(english, flow)
        elif flow["kind"] in ("round", "game", "era") and flow.get("order") is not None:
            said = [english.fill(str(text)) for text in flow.get("says") or []]
            order = " ".join(said) if said else "Take turns in seat order." if flow["order"] == \
                {"op": "call", "fn": "players", "args": []} else \
                _take_turns(english.expr(flow["order"]))
        if flow["kind"] == "round":
            # What ends the previous round (an automated seat's turn, the round's end)
            # comes after that round's turns, before the next round's.
            phases += robot_turn + round_ends
            robot_turn, round_ends = [], []
            # A round's hooks are the table's own phases around the players' turns (new
            # tiles before, food and scoring after): each is a section of its own.
            for hook, title, into in (("start", "At the start of each round", phases),
                                      ("end", "At the end of each round", round_ends)):
                steps = _hook_steps(english, flow, hook)
                if steps:
                    into.append(PlayerSection(title, steps, kind="phase",
                                              automatic=not asks(flow.get(hook),
                                                                 rules["actions"])))
        elif flow["kind"] == "turn":
            turns.append((_title(str(flow["label"])), order))
            eras.append(era)
            opened = len(phases)
            own, automated = _automated_turn(flow.get("start") or [])
            if automated:
                # The automated seat's turn is a section of its own, not a step of yours.
                steps = english.steps(automated)
                if steps and not steps[-1].children:
                    steps[-1].text = _then_ends(steps[-1].text)
                else:
                    steps.append(Step("Then its turn ends."))
                robot_turn.append(PlayerSection("An automated player's turn", steps,
                                                kind="phase", automatic=True))
            start = [Step(english.fill(str(flow["start_says"])))] if flow.get("start_says") \
                else english.steps(own)
            if start:
                phases.append(PlayerSection("At the start of your turn", start, kind="phase",
                                            automatic=not asks(flow.get("start"),
                                                               rules["actions"])))
            body = english.steps(flow.get("body") or [])
            if body:  # a turn with no phases: its statements are the turn
                asked = asks(flow.get("body"), rules["actions"])
                phases.append(PlayerSection("What to do" if asked else "What happens", body,
                                            kind="phase", automatic=not asked))
            for number, phase in enumerate(flow.get("children") or [], start=1):
                steps = _flow_steps(english, phase)
                phases.append(PlayerSection(
                    _phase_title(str(phase["label"])), steps, kind="phase", number=number,
                    notes=[english.fill(n) for n in phase.get("notes") or []] + [
                        english.fill(n) for c in phase.get("children") or []
                        for n in c.get("notes") or []],
                    automatic=not asks(phase, rules["actions"])))
            end = _hook_steps(english, flow, "end")
            if end:
                phases.append(PlayerSection("At the end of your turn", end, kind="phase",
                                            automatic=not asks(flow.get("end"),
                                                               rules["actions"])))
            if len(phases) > opened:  # the turn's heading goes on its first section
                headed.append((phases[opened], len(turns) - 1))
    phases += robot_turn + round_ends
    actions = []
    done: set[str] = set()
    while english.referenced:  # sections may name further sections
        name = english.referenced.pop(0)
        if name in done or name not in english.sectioned:
            continue
        done.add(name)
        action = rules["actions"][name]
        english.folding.append(name)
        params = [english._bind(str(p), _param_noun(str(p)), "its") for p in action["params"]]
        try:
            steps = english.steps(action["body"])
        finally:
            english.folding.pop()
            for b in reversed(params):
                english._unbind(b)
        limit = f" ({_limit(action['limit'])})" if action["limit"] else ""
        actions.append(PlayerSection(_title(str(action["label"])) + limit, steps,
                                     kind="action"))
    always = []
    for trigger in rules["triggers"]:
        bound = [english._bind(str(p), "the card" if i == 0 else "the other card", "its")
                 for i, p in enumerate(trigger["params"])]
        if trigger["event"] in ("turn_start", "turn_end"):
            bound = [english._bind(str(trigger["params"][0]), "that player", "their")]
        if trigger.get("says"):
            step = Step(english.fill(str(trigger["says"])))
            tidy(step)
            always.append(step)
            for b in reversed(bound):
                english._unbind(b)
            continue
        try:
            where = f", if {english.expr(trigger['where'])}" if _tested(trigger["where"]) else ""
            event = {"destroyed": "a card is destroyed", "played": "a card is played",
                     "stacked": "a card is stacked on another", "tucked":
                     "a card is tucked under another", "drawn": "a card is drawn",
                     "revealed": "a card is revealed", "turn_start": "a player's turn starts",
                     "turn_end": "a player's turn ends"}.get(str(trigger["event"]),
                                                             str(trigger["event"]))
            body = english.steps(trigger["body"])
            if not body:  # it only logs: nothing for players to do
                continue
            step = Step(f"Whenever {event}{where}:", body)
            tidy(step)
            always.append(step)
        finally:
            for b in reversed(bound):
                english._unbind(b)
    if len(set(turns)) > 1 and all(eras):  # eras that play different turns say which
        turns = [(f"{title} — {era}", order) for (title, order), era in zip(turns, eras,
                                                                          strict=True)]
    for section, index in headed:
        section.heading = turns[index]
    turn_title, turn_order = turns[0] if turns else ("Your turn", "")
    return PlayerReference(_goal(english, rules), setup, turn_title, turn_order, phases,
                           actions, always, _count_table(english, rules, players), notes,
                           sorted(terms, key=lambda t: t[0].lower()))


def _take_turns(order: str) -> str:
    """'Take turns in round order.', 'Take turns in seat order, starting with …', or
    'Take turns in this order: …' for a list of players the pack gave no words."""
    if order.startswith("players in "):
        return f"Take turns {order.removeprefix('players ')}."
    if order.endswith(" order") and " " not in order.removesuffix(" order"):
        return f"Take turns in {order}."
    return f"Take turns in this order: {order}."


def _hook_steps(english: PlayerEnglish, flow: IR, hook: str) -> list[Step]:
    """An ``at start:``/``at end:`` hook's steps: the pack's wording, or its statements."""
    said = flow.get(f"{hook}_says")
    if said:
        step = Step(english.fill(str(said)))
        tidy(step)
        return [step]
    return english.steps(flow.get(hook) or [])


_AUTOMATED_ME = {"op": "call", "fn": "automated", "args": [{"op": "me"}]}


def _automated_turn(start: list[IR]) -> tuple[list[IR], list[IR]]:
    """A turn's start hook split into the player's own statements and what an automated
    seat does instead of its turn (``if automated(me): …; end turn``, with no ``else``),
    with that final ``end turn`` taken off: players read it as "its turn", not a branch."""
    own: list[IR] = []
    automated: list[IR] = []
    for s in start:
        branches = s.get("branches") or []
        if (s.get("do") == "if" and not s.get("else") and len(branches) == 1
                and branches[0]["when"] == _AUTOMATED_ME and branches[0]["then"]
                and branches[0]["then"][-1] == {**branches[0]["then"][-1], "do": "end",
                                                "period": "turn"}):
            automated += branches[0]["then"][:-1]
        else:
            own.append(s)
    return own, automated


def _then_ends(text: str) -> str:
    """A last step with "then its turn ends" folded into its sentence."""
    return f"{text.rstrip()} Then its turn ends." if text.rstrip().endswith(".") else \
        f"{text.rstrip()}; then its turn ends."


def _param_noun(name: str) -> str:
    return {"p": "the player", "c": "the card", "t": "the target"}.get(name, "the card") \
        if len(name) == 1 else f"the {name.replace('_', ' ')}"


def _flow_steps(english: PlayerEnglish, flow: IR) -> list[Step]:
    """A block's steps: its own wording, or its statements, or one step per child block."""
    if flow.get("says"):
        texts = [english.fill(str(text)) for text in flow["says"]]
        # An action the block runs that has wording of its own (a mod's, say) still shows.
        texts += [english.fill(str(english.actions[name]["says"]))
                  for name in _direct_calls(flow) if english.actions.get(name, {}).get("says")]
        steps = [Step(text) for text in texts]
        for step in steps:
            tidy(step)
        return steps
    steps = english.steps(flow.get("start") or []) + english.steps(flow.get("body") or [])
    for child in flow.get("children") or []:
        inner = _flow_steps(english, child)
        label = _title(str(child["label"]))
        if child.get("says") or (len(inner) == 1 and not inner[0].children):
            steps += inner
        else:
            steps.append(Step(f"{label}:", inner))
    steps += english.steps(flow.get("end") or [])
    return steps


def _direct_calls(node: Any) -> list[str]:
    """The actions a block runs itself (not those its actions run), in order."""
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("do") == "call":
            found.append(str(node["action"]))
        for value in node.values():
            found += [n for n in _direct_calls(value) if n not in found]
    elif isinstance(node, list):
        for value in node:
            found += [n for n in _direct_calls(value) if n not in found]
    return found




def _goal(english: PlayerEnglish, rules: IR) -> list[str]:
    """How to win and how the game ends, as a few sentences."""
    lines = []
    for outcome in rules["outcomes"]:
        verb = {"win": "WIN", "lose": "LOSE",
                "eliminate": "OUT OF THE GAME"}[outcome["kind"]]
        if outcome.get("says"):
            lines.append(f"{verb}: {english.fill(str(outcome['says']))}")
            continue
        bound = english._bind(str(outcome["player"]), "you", "your")
        try:
            when = english.expr(outcome["when"])
        finally:
            english._unbind(bound)
        verb = {"win": "WIN", "lose": "LOSE",
                "eliminate": "OUT OF THE GAME"}[outcome["kind"]]
        step = Step(f"{verb} at once when {when}.")
        tidy(step)
        lines.append(step.text)
    ends = [t for t in rules["triggers"] if _ends_game(t["body"])]
    for trigger in ends:
        if trigger.get("says"):
            lines.append(f"GAME END: {english.fill(str(trigger['says']))}")
            continue
        bound = english._bind(str(trigger["params"][0]) if trigger["params"] else "_",
                              "a player", "their")
        try:
            where = f" and {english.expr(trigger['where'])}" if trigger["where"] else ""
        finally:
            english._unbind(bound)
        step = Step(f"GAME END: the game ends when a player's turn ends{where}.")
        tidy(step)
        lines.append(step.text)
    if rules["score"]:
        bound = english._bind(str(rules["score"]["player"]), "you", "your")
        try:
            value = english.expr(rules["score"]["value"])
            ties = [english.expr(t) for t in rules["tiebreak"]]
        finally:
            english._unbind(bound)
        said = rules["score"].get("says")
        if said:
            filled = english.fill(str(said))
            text = f"SCORE: {filled}" + ("" if filled.endswith((".", "!", "?")) else ".")
        else:
            text = f"SCORE: then the highest score wins; your score is {value}."
        if ties:
            text += " Ties go to the " + ", then the ".join(_tie(t) for t in ties) + "."
        step = Step(text)
        tidy(step)
        lines.append(step.text)
    return lines


def _tie(text: str) -> str:
    """A tie-breaker as players say it: 'most gold', or 'fewest' for a negated count."""
    negated = text.startswith("minus ")
    text = text.removeprefix("minus ").removeprefix("the number of ").removeprefix("your ")
    if text.startswith("the total of "):  # "the highest total of", not "most the total"
        return f"{'lowest' if negated else 'highest'} {text.removeprefix('the ')}"
    return f"{'fewest' if negated else 'most'} {text.removeprefix('the ')}"


def _ends_game(body: list[IR]) -> bool:
    return any(s.get("do") == "end" and s.get("period") == "game" for s in body)


def _count_table(english: PlayerEnglish, rules: IR, players: IR) -> CountTable | None:
    """Defines whose value depends only on the number of players, for each count."""
    if len(english.counts) < 2:
        return None
    rows = []
    for name, define in rules["defines"].items():
        if define["params"]:
            continue
        only = english.only.get(name, english.counts)
        values = [value_when(define["body"], n, rules) for n in only]
        if any(v is None or isinstance(v, bool) for v in values) or len(set(values)) < 2 \
                or values == only:  # the number of players itself
            continue
        label = english.fill(str(define["says"])) if define.get("says") else \
            name.replace("_", " ")
        shown = dict(zip(only, values, strict=True))
        rows.append((label[:1].upper() + label[1:],
                     [str(shown[n]) if n in shown else "–" for n in english.counts]))
    automated = players.get("automated") or {}
    solo = [n for n in english.counts if str(n) in automated]
    return CountTable(english.counts, rows, solo) if rows else None




def symbol_names(tables: dict[str, Any]) -> dict[str, str]:
    """Each symbol's name by its local id: how plain text prints a ``{symbol}`` token."""
    return {str(s["id"]).split(":")[-1]: str(s["name"]) for s in tables.get("symbols", [])}


def to_text(reference: PlayerReference, names: dict[str, str] | None = None) -> str:
    """The player reference as numbered plain text (for the terminal and tests); with
    ``names``, symbol tokens print as the symbols' names."""
    lines: list[str] = []

    def put(steps: list[Step], depth: int) -> None:
        for number, step in enumerate(steps, start=1):
            lines.append(f"{'   ' * depth}{number}. {step.text}")
            put(step.children, depth + 1)

    for section in reference.sections():
        title = f"{section.number}. {section.title}" if section.number else section.title
        if section.heading:
            head, order = section.heading
            lines += [head, "=" * len(head)]
            if order:
                lines += [order, ""]
        lines += [title, "-" * len(title) if section.kind == "phase" else "=" * len(title)]
        if section.kind == "goal":
            lines += [f"- {s.text}" for s in section.steps]
        else:
            put(section.steps, 0)
        lines += [f"Note: {n}" for n in section.notes]
        lines.append("")
    if reference.table:
        table = reference.table
        lines += ["By number of players", "====================",
                  " | ".join(["Players", *table.headers])]
        lines += [" | ".join([label, *values]) for label, values in table.rows]
        lines.append("")
    if reference.notes:
        lines += ["Remember", "========"] + [f"- {n}" for n in reference.notes] + [""]
    if reference.terms:
        lines += ["Terms", "====="] + [f"- {w}: {t}" for w, t in reference.terms] + [""]
    text = "\n".join(lines)
    if names:
        text = _PLACEHOLDER.sub(lambda m: names.get(m.group(1), m.group(0)), text)
        text = re.sub(r" +([.,;:!?)])", r"\1", text)
    return text
