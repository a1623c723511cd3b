"""Which ``let`` values are read after the state they were taken from has changed.

A ``let`` is evaluated once, where it stands.  The player reference normally says a bound
name as the words of its value ("your cubes in the pool"), which is right until a later
step changes what those words describe: after a payment, "your cubes in the pool − your
cubes in the pool" reads as nothing at all, though the engine subtracts the count after
from the count before.  Such a value is a snapshot, and players have to note it.

The test reads the IR alone, in tags: a named counter or flag, where the cards lie
(``zones``: each card's place, its order, its facing) or anything (``*``: an action or
definition the IR doesn't have, a payment).  A value reads tags and a statement writes
them; where the IR doesn't say, both err towards a snapshot, which costs a "Note …" step,
never a wrong one.  (The engine's define cache, ``runtime/reads.py``, tags reads more
finely for its own purpose; the compiler does not import the runtime outside its scenario
runner, and a printed note needs no more than this.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from decklore.compiler.rules.builtins import BUILTINS
from decklore.compiler.rules.says import ir_nodes

IR = dict[str, Any]

ANY = "*"
ZONES = "zones"
_PURE_CALLS = frozenset(("greater", "lesser"))
_PASSIVE = frozenset(("let", "log", "fail", "end", "if", "for_each", "repeat",
                      "repeat_while", "repeat_until_pass", "may", "as", "choose",
                      "choose_one", "choose_number"))
"""Statements that change nothing themselves (the statements inside them may)."""


def snapshots(block: list[IR], actions: Mapping[str, IR], defines: Mapping[str, IR]
              ) -> set[int]:
    """The positions of the ``let`` statements in ``block`` whose value is read after a
    statement that may change it."""
    found = set()
    for i, statement in enumerate(block):
        if statement.get("do") != "let":
            continue
        read = reads(statement["value"], defines)
        name = statement["name"]
        changed = False
        for later in block[i + 1:]:
            if changed and any(n.get("op") == "local" and n.get("name") == name
                               for n in ir_nodes(later)):
                found.add(i)
                break
            if later.get("do") == "let" and later.get("name") == name:
                break  # shadowed from here on
            changed = changed or _overlap(read, writes(later, actions))
    return found


def reads(e: IR, defines: Mapping[str, IR], seen: frozenset[str] = frozenset()
          ) -> frozenset[str]:
    """The tags an expression's value depends on, through the definitions it reads."""
    out: set[str] = set()
    for node in ir_nodes(e):
        op = node.get("op")
        if op in ("counter", "flag"):
            out.add(f"{op}:{node['name']}")
        elif op in ("zone", "agg"):
            out.add(ZONES)
        elif op == "call" and node.get("fn") not in _PURE_CALLS:
            out.add(ZONES if node.get("fn") in BUILTINS else ANY)
        elif op == "member":
            out.add(ANY)
        elif op == "define":
            name = str(node["name"])
            body = defines.get(name, {}).get("body")
            out |= {ANY} if body is None or name in seen else reads(body, defines,
                                                                    seen | {name})
    return frozenset(out)


def writes(statement: IR, actions: Mapping[str, IR], seen: frozenset[str] = frozenset()
           ) -> frozenset[str]:
    """The tags running ``statement`` may change, through the actions it calls."""
    out: set[str] = set()
    for node in ir_nodes(statement):
        do = node.get("do")
        if do is None or do in _PASSIVE:
            continue
        if do == "call":
            name = str(node["action"])
            body = actions.get(name, {}).get("body")
            if body is None:
                return frozenset({ANY})
            if name not in seen:  # a recursive call changes what its first run changes
                for s in body:
                    out |= writes(s, actions, seen | {name})
        elif do in ("gain", "spend", "set", "clear"):
            out.add(f"{node.get('kind', ANY)}:{node['name']}")
        elif do == "pay":
            return frozenset({ANY})  # cards and counters both pay
        else:
            out.add(ZONES)
    return frozenset(out)


def _overlap(read: frozenset[str], written: frozenset[str]) -> bool:
    return bool(read and written) and (bool(read & written) or ANY in read | written)


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
