"""Checks of a pack's own wording (``says "…"``) against the rules it describes.

A ``says`` line replaces what the player reference would generate for a block, an action
or a definition, so it can drift from the rule when the rule changes.  The compiler cannot
read English, but it can see the game's nouns: a wording that names a zone or counter the
rule never touches (read through the actions and definitions it uses) is probably stale,
and a ``{name}`` placeholder (in a ``says``, or in a ``term``'s meaning) must be a
constant, a counter (its starting value), a definition without parameters or a symbol, or
it would print raw.  A term explains the whole game, so only its placeholders are checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.rules.nodes import Says

IR = dict[str, Any]
# ``{name}``, or ``{name:2-4}`` for a value that applies only to 2 to 4 players (a solo
# mode that sets it another way, say): the player reference shows only those counts.
PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(?::([0-9]+)(?:-([0-9]+))?)?\}")


def touched(node: Any, rules: IR, known: dict[str, tuple[set[str], list[str]]] | None = None
            ) -> set[str]:
    """Zone and counter names an IR fragment reads or changes, through actions and defines.

    ``known`` keeps what each action or define touches itself and which it calls, so that
    the wordings of one pack walk each body once, not once per wording that reaches it
    (that walk was most of the rules check of ERA)."""
    known = {} if known is None else known
    found, calls = _direct(node)
    found = set(found)
    seen: set[str] = set()
    while calls:
        pending: list[str] = []
        for called in calls:
            if called in seen:
                continue
            seen.add(called)
            if called not in known:
                target = rules["actions"].get(called) or rules["defines"].get(called) or {}
                known[called] = _direct(target.get("body"))
            names, further = known[called]
            found |= names
            pending.extend(further)
        calls = pending
    return found


def _direct(node: Any) -> tuple[set[str], list[str]]:
    """The zone and counter names a fragment names itself, and the actions and defines it
    calls."""
    found: set[str] = set()
    calls: list[str] = []
    for item in ir_nodes(node):
        if item.get("op") == "zone":
            found.add(str(item["zone"]))
        elif item.get("op") == "counter" or item.get("do") in ("gain", "spend", "set",
                                                                  "clear"):
            found.add(str(item.get("name")))
        elif item.get("do") == "pay" and item.get("change"):
            found.add(str(item["change"].get("name")))
        called = (item["action"] if item.get("do") == "call" else
                  item["name"] if item.get("op") == "define" else None)
        if called is not None:
            calls.append(called)
    return found, calls


def ir_nodes(node: Any) -> Iterator[IR]:
    """Every node of an IR fragment, statements and expressions, the fragment first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from ir_nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from ir_nodes(value)


def check_wording(rules: IR, worded: list[tuple[Says, Any]], symbols: set[str],
                  diags: Diagnostics) -> None:
    """Warn about each wording that names state its rule never touches (W210) or has an
    unknown placeholder (W211)."""
    nouns = {str(z["name"]): str(z["label"]) for key in ("zones", "counters")
             for z in rules[key]}
    known: dict[str, tuple[set[str], list[str]]] = {}
    for says, target in worded:
        if target is None:  # a term: it describes the whole game, so any noun may appear
            _check_placeholders(rules, says, symbols, diags)
            continue
        rule = target if isinstance(target, dict) else (
            rules["actions"].get(target) or rules["defines"].get(target) or {})
        body = rule if isinstance(target, dict) else rule.get("body")
        used = touched(body, rules, known)
        text = says.text.lower()
        for name, label in sorted(nouns.items()):
            words = label.lower()
            named = f"{{{name}}}" in says.text or re.search(
                rf"(?<![a-z]){re.escape(words)}(?![a-z])", text) is not None
            if named and name not in used:
                diags.warning("W210", f"this wording names '{label}', which the rule it "
                              "describes never uses", says.span,
                              f"say what the rule does, or make the rule use '{name}'")
        _check_placeholders(rules, says, symbols, diags)


def _check_placeholders(rules: IR, says: Says, symbols: set[str], diags: Diagnostics) -> None:
    """W211 for each ``{name}`` in a wording that would print as it is."""
    counters = {str(c["name"]) for c in rules["counters"]}
    for match in PLACEHOLDER.finditer(says.text):
        name = match.group(1)
        define = rules["defines"].get(name)
        if name in rules["consts"] or name in symbols or name in counters or (
                define is not None and not define["params"]):
            continue
        diags.warning("W211", f"'{{{name}}}' is not a constant, a counter, a definition "
                      "without parameters or a symbol, so it would print as it is",
                      says.span, "name a constant, a counter (for its starting value), a "
                      "definition without parameters or a symbol")
