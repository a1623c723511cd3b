"""The player turn guide: the turn on one card, drawn from the rules' flow.

Games ship a card per player that recalls the phases of a turn and what may be done in
each; the turn reference (``rules_english``) is for looking a rule up, this is for the
table. Each phase of the turn is listed with the questions its player is asked there: the
options of a ``choose one`` and the labels of ``may``, ``choose`` and ``repeat until pass``,
read through the actions the phase runs. A question is one line: what its answer leads
to (an option's body, the card chosen) is not another thing the player is asked in that
phase, and questions another player answers (``as``) are theirs. A phase that asks nothing
says what happens in it, in the first sentence of each of its steps in the player reference
(``rules_player``), or else the lines its rules log. The card ends with how to win.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from decklore.compiler.rules.player import PlayerReference, _phase_title

IR = Mapping[str, Any]


@dataclass(frozen=True)
class GuidePhase:
    """One phase (or step) of the turn as the guide shows it."""

    title: str
    asks: tuple[str, ...]
    """The questions and options, in the order the rules reach them."""
    notes: tuple[str, ...]
    """For a phase that asks nothing: the lines its rules log."""
    does: tuple[str, ...] = ()
    """What happens, as the player reference says it: every step of a phase that asks
    nothing, the first sentence of a phase the pack words itself."""


@dataclass(frozen=True)
class TurnGuide:
    title: str
    phases: tuple[GuidePhase, ...]
    goal: tuple[str, ...] = ()
    """How to win and how the game ends, from the player reference."""


def turn_guide(rules: IR | None, player: PlayerReference | None = None) -> TurnGuide | None:
    """The guide for a rules program, or None when it has no turn with phases."""
    if not rules:
        return None
    turn = next((f for f in _flows(rules["flow"]) if f["kind"] == "turn"), None)
    if turn is None or not turn.get("children"):
        return None
    actions = rules.get("actions") or {}
    phases = []
    for flow in turn["children"]:
        body = [*(flow.get("start") or []), *(flow.get("body") or []), *(flow.get("end") or [])]
        asks: list[str] = []
        notes: list[str] = []
        _read(body, actions, asks, notes, set())
        for child in flow.get("children") or []:  # steps: each a line of its own
            asks.append(child["label"])
        title = _phase_title(str(flow["label"]))
        does: tuple[str, ...] = ()
        section = next((p for p in player.phases if p.title == title), None) \
            if player is not None else None
        if section is not None and not asks:
            does = tuple(s.text for s in section.steps)  # all of it: nothing else says it
        elif section is not None and flow.get("says") and section.steps:
            does = (_first_sentence(section.steps[0].text),)  # the pack's lead line
        phases.append(GuidePhase(title, tuple(_unique(asks)),
                                 () if asks else tuple(_unique(notes)), does))
    goal = tuple(player.goal) if player is not None else ()
    return TurnGuide(turn["label"], tuple(phases), goal)


def _first_sentence(text: str) -> str:
    """A guide line is short: the first sentence of a step (a bracket is kept whole)."""
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "." and depth == 0 and text[index + 1:index + 2] in (" ", ""):
            return text[:index + 1]
    return text


def _flows(flows: list[IR]) -> Iterator[IR]:
    for flow in flows:
        yield flow
        yield from _flows(flow.get("children") or [])


def _read(body: list[IR], actions: Mapping[str, IR], asks: list[str], notes: list[str],
          seen: set[str]) -> None:
    """Collect the questions a block asks, reading into the actions it calls (each once)."""
    for stmt in body:
        kind = stmt["do"]
        if kind == "as":
            continue  # another player's questions, not the turn's player's
        if kind == "choose_one":
            asks.extend(option["label"] for option in stmt["options"])
            continue
        if kind in ("may", "repeat_until_pass", "choose_number") or (
                kind == "choose" and stmt["kind"] != "random"):
            if stmt.get("label"):
                asks.append(stmt["label"])
                continue  # what the answer leads to is not another line of the phase
        elif kind == "log":
            notes.append(stmt["message"])
        elif kind == "call" and stmt["action"] not in seen:
            seen.add(stmt["action"])
            _read(actions[stmt["action"]]["body"], actions, asks, notes, seen)
        for key in ("body", "then", "else"):
            inner = stmt.get(key)
            if isinstance(inner, list):
                _read(inner, actions, asks, notes, seen)
        for branch in stmt.get("branches") or []:
            _read(branch["then"], actions, asks, notes, seen)


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
