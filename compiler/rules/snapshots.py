"""Which ``let`` values are read after the state they were taken from has changed.

A ``let`` is evaluated once, where it stands.  The player reference normally says a bound
name as the words of its value ("your cubes in the pool"), which is right until a later
step changes what those words describe: after a payment, "your cubes in the pool − your
cubes in the pool" reads as nothing at all, though the engine subtracts the count after
from the count before.  Such a value is a snapshot, and players have to note it.

The test reads the IR alone.  A value reads named counters and flags, the cards' places
("zones": where each card is, in what order, face up or down) or something it can't tell
("any"); a statement writes the same kinds of thing.  Where the IR doesn't say, both err
towards a snapshot, which costs a "Note …" step, never a wrong one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from decklore.compiler.rules.builtins import BUILTINS

IR = dict[str, Any]
Touched = frozenset[tuple[str, str]]

ZONES: Touched = frozenset({("zones", "")})
ANY: Touched = frozenset({("any", "")})
NOTHING: Touched = frozenset()

_PURE_CALLS = frozenset(("greater", "lesser"))
_COUNTER_WRITES = frozenset(("gain", "spend", "set", "clear"))
_PASSIVE = frozenset(("let", "log", "fail", "end", "if", "for_each", "repeat",
                      "repeat_while", "repeat_until_pass", "may", "as", "choose",
                      "choose_one", "choose_number"))
"""Statements that change nothing themselves; those with bodies are judged by them."""


def snapshots(block: list[IR], actions: Mapping[str, IR], defines: Mapping[str, IR]
              ) -> set[int]:
    """The positions of the ``let`` statements in ``block`` whose value is read after a
    statement that may change it."""
    found = set()
    for i, statement in enumerate(block):
        if statement.get("do") != "let":
            continue
        reads = value_reads(statement["value"], defines)
        if not reads:
            continue
        name = statement["name"]
        changed = False
        for later in block[i + 1:]:
            if changed and _uses(later, name):
                found.add(i)
                break
            if later.get("do") == "let" and later.get("name") == name:
                break  # shadowed from here on
            changed = changed or _overlap(reads, writes(later, actions))
    return found


def value_reads(e: IR, defines: Mapping[str, IR], seen: frozenset[str] = frozenset()
                ) -> Touched:
    """What state an expression's value depends on."""
    op = e.get("op")
    own: Touched = NOTHING
    if op in ("counter", "flag"):
        own = frozenset({(str(op), str(e["name"]))})
    elif op == "zone" or op == "agg":
        own = ZONES
    elif op == "call" and e.get("fn") not in _PURE_CALLS:
        own = ZONES if e.get("fn") in BUILTINS else ANY
    elif op == "define":
        name = str(e["name"])
        body = defines.get(name, {}).get("body")
        own = ANY if body is None or name in seen else value_reads(body, defines,
                                                                    seen | {name})
    elif op == "member":
        own = ANY
    for child in _children(e):
        own = own | value_reads(child, defines, seen)
    return own


def writes(statement: IR, actions: Mapping[str, IR], seen: frozenset[str] = frozenset()
           ) -> Touched:
    """What state running ``statement`` may change."""
    do = statement.get("do")
    if do == "call":
        name = str(statement["action"])
        body = actions.get(name, {}).get("body")
        if body is None:
            return ANY
        if name in seen:
            return NOTHING  # a recursive call changes what its first run changes
        out: Touched = NOTHING
        for s in body:
            out = out | writes(s, actions, seen | {name})
        return out
    if do in _COUNTER_WRITES:
        return frozenset({(str(statement.get("kind", "any")), str(statement["name"]))})
    if do == "pay":
        return ANY  # cards and counters both pay
    if do not in _PASSIVE:
        return ZONES
    out = NOTHING
    for s in _statements_in(statement):
        out = out | writes(s, actions, seen)
    return out


def _overlap(reads: Touched, written: Touched) -> bool:
    if not reads or not written:
        return False
    return bool(reads & written) or ("any", "") in reads | written


def _uses(node: Any, name: str) -> bool:
    if isinstance(node, dict):
        if node.get("op") == "local" and node.get("name") == name:
            return True
        return any(_uses(v, name) for v in node.values())
    if isinstance(node, list):
        return any(_uses(v, name) for v in node)
    return False


def _children(e: IR) -> Iterator[IR]:
    for value in e.values():
        if isinstance(value, dict) and "op" in value:
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, dict) and "op" in v)


def _statements_in(node: Any) -> Iterator[IR]:
    """The statements nested anywhere in a statement's bodies and branches."""
    values = node.values() if isinstance(node, dict) else node
    for value in values:
        if isinstance(value, dict):
            if "do" in value:
                yield value
            else:
                yield from _statements_in(value)
        elif isinstance(value, list):
            yield from _statements_in(value)


def value_kind(e: IR, defines: Mapping[str, IR]) -> str:
    """'card', 'cards', 'player', 'bool' or 'value': what a bound name holds, as far as
    the IR tells."""
    op = e.get("op")
    if op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not", "bool", "flag"):
        result = "bool"
    elif op == "call" and e.get("fn") in BUILTINS:
        result = BUILTINS[str(e["fn"])].result
    elif op == "define":
        result = str(defines.get(str(e["name"]), {}).get("type", ""))
    elif op == "zone" or (op == "agg" and e.get("fn") == "select"
                          and e.get("walks") == "cards"):
        result = "cards"
    elif op == "join":
        result = value_kind(e["a"], defines)
    else:
        result = ""
    return result if result in ("card", "cards", "player", "bool") else "value"
