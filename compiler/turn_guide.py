"""The player turn guide: the turn on one card, drawn from the rules' flow.

Games ship a card per player that recalls the phases of a turn and what may be done in
each; the turn reference (``rules_english``) is for looking a rule up, this is for the
table. Each phase of the turn is listed with the questions its player is asked there: the
options of a ``choose one`` and the labels of ``may``, ``choose`` and ``repeat until pass``,
read through the actions the phase runs. A question is one line: what its answer leads
to (an option's body, the card chosen) is not another thing the player is asked in that
phase, and questions another player answers (``as``) are theirs. A phase that asks nothing
is marked as automatic, with the lines its rules log.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

IR = Mapping[str, Any]


@dataclass(frozen=True)
class GuidePhase:
    """One phase (or step) of the turn as the guide shows it."""

    title: str
    asks: tuple[str, ...]
    """The questions and options, in the order the rules reach them."""
    notes: tuple[str, ...]
    """For a phase that asks nothing: the lines its rules log."""


@dataclass(frozen=True)
class TurnGuide:
    title: str
    phases: tuple[GuidePhase, ...]


def turn_guide(rules: IR | None) -> TurnGuide | None:
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
        phases.append(GuidePhase(flow["label"], tuple(_unique(asks)),
                                 () if asks else tuple(_unique(notes))))
    return TurnGuide(turn["label"], tuple(phases))


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
