"""Why a card cannot be chosen now: the condition of the pending choice that it fails.

At a 'choose a card' decision a player sees which cards are offered, not why the others
are not.  ``why NAME`` at the ``play`` prompt finds the rule that asks, evaluates its
``where`` condition for that card part by part (opening the pack's own definitions), and
says in words which part fails, with the numbers that make it fail.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklore.runtime.game import Game

_COMPARISONS = {"ge", "gt", "le", "lt", "eq", "ne"}
_MAX_DEPTH = 8  # definitions opened inside definitions, before answering with the outer one


def why_not(game: Game, name: str, viewer: int | None) -> str:
    """Why the card called ``name`` is not among the options of the pending choice."""
    from decklore.runtime.describe import visible

    pending = game.state.pending or {}
    if pending.get("kind") not in ("card", "cards") or pending.get("choose") == "player":
        return "this decision is not a choice of cards"
    node, env = _choice(game, pending)
    if node is None:
        return "the rule behind this choice cannot be found"
    wanted = name.casefold()
    cards = [c for c in range(len(game.state.cards)) if visible(game, c, viewer)
             and str(game.rows[c]["name"]).casefold() == wanted]
    if not cards:
        return f"you see no card called '{name}'"
    offered = {a.value for a in game.legal_actions()}
    if any(c in offered for c in cards):
        return f"{game.rows[cards[0]]['name']} can be chosen now"
    label = pending.get("label") or "this choice"
    card = cards[0]
    if node.get("where") is None:
        return (f"{game.rows[card]['name']} is not where '{label}' takes its cards from "
                f"({pending.get('at')})")
    inner = dict(env)
    inner[node["var"]] = card
    source = game.program.compiler.expr(node["from"])(game, inner)
    if card not in _as_list(source):
        return f"{game.rows[card]['name']} is not where '{label}' takes its cards from"
    reasons = _failing(game, node["where"], inner, {node["var"]: "card"}, viewer, 0)
    told = "; and ".join(reasons) if reasons else "its condition does not hold"
    return (f"{game.rows[card]['name']} cannot be chosen for '{label}' "
            f"({pending.get('at')}): {told}")


def _as_list(value: Any) -> list[Any]:
    from decklore.runtime.expressions import as_list

    return as_list(value)


def _choice(game: Game, pending: dict[str, Any]) -> tuple[dict[str, Any] | None,
                                                          dict[str, Any]]:
    """The IR of the pending choose statement, and the names bound where it runs."""
    frame = game.top_frame()
    env = dict(getattr(frame, "env", None) or {})
    at = pending.get("at")

    def find(node: Any) -> dict[str, Any] | None:
        if isinstance(node, Mapping):  # the tables are read-only mappings and tuples
            if node.get("do") == "choose" and node.get("at") == at:
                return dict(node)
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            return None
        for child in children:
            if (found := find(child)) is not None:
                return found
        return None

    return find(game.program.tables.raw.get("rules")), env


def _failing(game: Game, node: dict[str, Any], env: dict[str, Any], kinds: dict[str, str],
             viewer: int | None, depth: int) -> list[str]:
    """The parts of a condition that are false for these names, in words.

    ``kinds`` says which names hold a card and which a player, so that the words can
    name them ("Walls", "you") instead of the rule's letters.
    """
    if _value(game, node, env):
        return []
    op = node["op"]
    if op == "and":
        return (_failing(game, node["a"], env, kinds, viewer, depth)
                + _failing(game, node["b"], env, kinds, viewer, depth))
    if op == "if":  # only the branch this card takes can be why it fails
        branch = node["then"] if _value(game, node["cond"], env) else node["else"]
        return _failing(game, branch, env, kinds, viewer, depth)
    if op == "define" and depth < _MAX_DEPTH:
        spec = game.program.tables.raw["rules"]["defines"].get(node["name"], {})
        if spec.get("type") == "bool":
            pairs = list(zip(spec["params"], node["args"], strict=False))
            inner = {param: _value(game, arg, env) for param, arg in pairs}
            inner_kinds = {param: kind for param, arg in pairs
                           if (kind := _kind(arg, kinds)) is not None}
            return _failing(game, spec["body"], inner, inner_kinds, viewer, depth + 1)
    return [_words(game, node, env, kinds, viewer)]


def _kind(node: dict[str, Any], kinds: dict[str, str]) -> str | None:
    if node.get("op") == "me":
        return "player"
    if node.get("op") == "local":
        return kinds.get(str(node["name"]))
    return None


def _value(game: Game, node: dict[str, Any], env: dict[str, Any]) -> Any:
    return game.program.compiler.expr(node)(game, env)


def _words(game: Game, node: dict[str, Any], env: dict[str, Any], kinds: dict[str, str],
           viewer: int | None) -> str:
    """A false condition in the reference's English, its names replaced by what they hold."""
    from decklore.compiler.rules import English

    english = English(dict(game.program.tables.raw))
    text = english.expr(_named(game, node, env, kinds, viewer))
    if node["op"] in _COMPARISONS:
        a, b = _value(game, node["a"], env), _value(game, node["b"], env)
        text += f" (here {_shown(game, a)} against {_shown(game, b)})"
    symbols = {str(s["id"]).split(":", 1)[-1]: str(s["name"]).lower()
               for s in game.program.tables.raw["symbols"]}
    return re.sub(r"\{([\w-]+)\}", lambda m: symbols.get(m.group(1), m.group(1)), text)


def _shown(game: Game, value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _named(game: Game, node: Any, env: dict[str, Any], kinds: dict[str, str],
           viewer: int | None) -> Any:
    """The node with each card or player name replaced by the card or player it holds."""
    if isinstance(node, list | tuple):
        return [_named(game, item, env, kinds, viewer) for item in node]
    if not isinstance(node, Mapping):
        return node
    if node.get("op") == "local" and isinstance(env.get(node["name"]), int):
        value, kind = env[node["name"]], kinds.get(node["name"])
        if kind == "player":
            return {"op": "me"} if value == viewer else {"op": "text",
                                                         "value": f"Player {value + 1}"}
        if kind == "card":
            return {"op": "text", "value": str(game.rows[value]["name"])}
    return {key: _named(game, item, env, kinds, viewer) for key, item in node.items()}
