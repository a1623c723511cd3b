"""The rules' statements that change the game or steer its blocks, one handler each.

A handler runs one statement (``program.stmts``) of the block frame ``f``: it advances the
frame's ``pc`` past itself, then changes the world through its public interface
(``runtime/world.py``) or pushes frames for what runs next (a branch, an action's body).
Statements that ask a player live in ``decisions``, loops in ``loops``.  ``HANDLERS`` maps
each statement kind of the rules IR to its handler; the run loop (``machine``) dispatches on
it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import decklore.runtime.parts as pt
from decklore.runtime.bags import card_to_draw
from decklore.runtime.expressions import Env, RulesError, as_list
from decklore.runtime.frames import Block, Destroy
from decklore.runtime.program import Stmt
from decklore.runtime.state import OUT

if TYPE_CHECKING:
    from decklore.runtime.machine import Machine

Handler = Callable[["Machine", Stmt[Any], Block], None]
"""A statement handler: the game, the statement, the block frame running it."""


def block(body: int, env: Env, var: str | None = None, value: Any = None,
          about: str | None = None) -> Block:
    """A frame running block ``body`` with a copy of ``env`` (and ``var`` bound to
    ``value``); ``about`` names what the value is, for the descriptions of decisions."""
    inner = dict(env)
    if var is not None:
        inner[var] = value
    frame = Block(body, 0, inner)
    if about is not None and value is not None:
        frame.about = [about, value]
    return frame


def stmt_id(g: Machine, f: Block) -> int:
    """The number of the statement frame ``f`` is at (loop and decision frames keep it)."""
    return int(g.program.blocks[f.block][f.pc])


def s_move(g: Machine, s: Stmt[pt.MoveParts], f: Block) -> None:
    x, env = s.x, f.env
    f.pc += 1
    cards = as_list(x["what"](g, env))
    zone, player = x["to"](g, env)
    face = None if x["facing"] is None else x["facing"] == "up"
    top = None if x["position"] is None else x["position"] == "top"
    if x["position"] == "depth":  # the first card under N cards, the next one under it...
        depth = x["depth"](g, env) if x["depth"] is not None else None
        if type(depth) is not int or depth < 0:
            raise RulesError(f"a card cannot go under {depth!r} cards: a depth is a whole "
                             "number from 0 (the top)")
        for offset, card in enumerate(cards):
            g.move(card, zone, player, face_up=face, depth=depth + offset)
        return
    g.move_all(cards, zone, player, top=top, face_up=face)


def s_draw(g: Machine, s: Stmt[pt.DrawParts], f: Block) -> None:
    x, env = s.x, f.env
    f.pc += 1
    count = x["count"](g, env) or 0
    src_zone, src_player = x["src"](g, env)
    zone, player = x["to"](g, env)
    face = None if x["facing"] is None else x["facing"] == "up"
    refill = g.program.zones[src_zone].get("refill")
    if type(count) is int and count > 1:
        g.hold()  # one forget for the cards drawn (``World.move_all``)
    try:
        for _ in range(count):
            source = g.zone_cards(src_zone, src_player)
            if not source and refill:
                for card in list(g.zone_cards(refill, src_player)):
                    g.move(card, src_zone, src_player, face_up=False)
                g.shuffle(src_zone, src_player)
                source = g.zone_cards(src_zone, src_player)
            if not source:
                break
            card = card_to_draw(g, src_zone, source)
            g.move(card, zone, player, face_up=face)
            g.fire("drawn", [card])
    finally:
        g.release()


def s_shuffle(g: Machine, s: Stmt[pt.ShuffleParts], f: Block) -> None:
    f.pc += 1
    zone, player = s.x["zone"](g, f.env)
    g.shuffle(zone, player)


def s_reveal(g: Machine, s: Stmt[pt.RevealParts], f: Block) -> None:
    f.pc += 1
    to = s.x["to"](g, f.env) if s.x["to"] else None
    for card in as_list(s.x["what"](g, f.env)):
        g.reveal(card, to)


def s_destroy(g: Machine, s: Stmt[pt.DestroyParts], f: Block) -> None:
    """Destroyed cards stay until their ``destroyed`` triggers have run (a trigger may still
    read them where they lie), then go out of the game or where the statement says."""
    x, env = s.x, f.env
    f.pc += 1
    cards = [g.base(c) for c in as_list(x["what"](g, env))]
    to = x["to"](g, env) if x["to"] else (OUT, None)
    g.state.frames.append(Destroy(cards, list(to)))
    for card in reversed(cards):
        g.fire("destroyed", [card])


def f_destroy(g: Machine, f: Destroy) -> None:
    g.state.frames.pop()
    zone, player = f.to
    for card in f.cards:
        g.log_event("destroy", card)
        g.move(card, zone, player, face_up=True)


def s_stack(g: Machine, s: Stmt[pt.StackParts], f: Block) -> None:
    f.pc += 1
    onto = s.x["onto"](g, f.env)
    for card in as_list(s.x["what"](g, f.env)):
        if s.do == "stack":
            g.stack(card, onto)
        else:
            g.tuck(card, onto)


def _owner(g: Machine, x: pt.GainParts | pt.SetParts, env: Env) -> Any:
    """Whose counter or flag a statement changes: None means the default owner."""
    if x["of"] is None:
        return None
    of = x["of"](g, env)
    if of is None:
        raise RulesError(f"'{x['name']}' of none: the card or player it belongs to is "
                         "missing here (an empty zone's top card?)")
    return of


def s_gain(g: Machine, s: Stmt[pt.GainParts], f: Block) -> None:
    x, env = s.x, f.env
    f.pc += 1
    amount = x["amount"](g, env) or 0
    of = _owner(g, x, env)
    value = g.counter_value(x["name"], of)
    g.change_counter(x["name"], of, value + amount if s.do == "gain" else value - amount)


def s_set(g: Machine, s: Stmt[pt.SetParts], f: Block) -> None:
    x, env = s.x, f.env
    f.pc += 1
    of = _owner(g, x, env)
    if x["kind"] == "flag":
        g.change_flag(x["name"], of, s.do == "set")
    elif s.do == "set":
        g.change_counter(x["name"], of, x["value"](g, env) if x["value"] else 1)
    else:
        g.change_counter(x["name"], of, g.program.counters[x["name"]]["start"])


def s_let(g: Machine, s: Stmt[pt.LetParts], f: Block) -> None:
    f.pc += 1
    value = s.x["value"](g, f.env)
    f.env[s.x["name"]] = list(value) if isinstance(value, list) else value


def s_call(g: Machine, s: Stmt[pt.CallParts], f: Block) -> None:
    """Run an action's body with its arguments, unless its use limit is spent (logged)."""
    x, env = s.x, f.env
    f.pc += 1
    action = g.program.actions[x["action"]]
    if action["limit"]:
        key = f"action:{x['action']}"
        if not g.within_limit(key, action["limit"]):
            g.log_event("limit", x["action"])
            return
        g.use_limit(key, action["limit"])
    args = [a(g, env) for a in x["args"]]
    g.state.frames.append(Block(action["body"], 0,
                                dict(zip(action["params"], args, strict=True))))


def s_end(g: Machine, s: Stmt[pt.EndParts], f: Block) -> None:
    f.pc += 1
    g.end_period(s.x["period"])


def s_fail(g: Machine, s: Stmt[pt.MessageParts], f: Block) -> None:
    raise RulesError(s.x["message"], s.at)


def s_log(g: Machine, s: Stmt[pt.MessageParts], f: Block) -> None:
    f.pc += 1
    g.log_event("say", s.x["message"])


def s_if(g: Machine, s: Stmt[pt.IfParts], f: Block) -> None:
    env = f.env
    f.pc += 1
    for cond, then in s.x["branches"]:
        if cond(g, env):
            g.state.frames.append(block(then, env))
            return
    if s.x["otherwise"] is not None:
        g.state.frames.append(block(s.x["otherwise"], env))


def s_as(g: Machine, s: Stmt[pt.AsParts], f: Block) -> None:
    """Hand the decisions of the body to the named player."""
    f.pc += 1
    player = s.x["player"](g, f.env)
    if player is None:
        raise RulesError("'as' names no player (none)")
    frame = block(s.x["body"], f.env)
    frame.by = player
    g.state.frames.append(frame)


HANDLERS: dict[str, Handler] = {
    "move": s_move, "draw": s_draw, "shuffle": s_shuffle, "reveal": s_reveal,
    "destroy": s_destroy, "stack": s_stack, "tuck": s_stack, "gain": s_gain,
    "spend": s_gain, "set": s_set, "clear": s_set, "let": s_let, "call": s_call,
    "end": s_end, "fail": s_fail, "log": s_log, "if": s_if, "as": s_as,
}
"""The handlers of this module, by statement kind (``machine`` adds the others')."""
