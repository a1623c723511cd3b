"""The rules' loops: ``for each``, ``repeat N times``, ``repeat while``, ``repeat until pass``.

A loop statement pushes a loop frame (``runtime/frames.py``) that stays on the stack
between turns of the loop; the frame handler runs one turn at a time by pushing the body
as a block, so a decision inside the body (or a save between turns) finds the loop's
position in the frame, never in Python's stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import decklore.runtime.parts as pt
from decklore.runtime.expressions import as_list
from decklore.runtime.frames import Block, Each, Repeat, UntilPass, While
from decklore.runtime.program import Stmt
from decklore.runtime.statements import Handler, block, stmt_id

if TYPE_CHECKING:
    from decklore.runtime.machine import Machine


def s_for_each(g: Machine, s: Stmt[pt.ForEachParts], f: Block) -> None:
    sid = stmt_id(g, f)
    f.pc += 1
    items = as_list(s.x["items"](g, f.env))
    if items:
        g.state.frames.append(Each(sid, items, 0, dict(f.env)))


def f_each(g: Machine, f: Each) -> None:
    """Run the body for the next item that passes the loop's ``where``, or end the loop."""
    x = g.program.stmts[f.stmt].x
    items = f.items
    while f.index < len(items):
        item = items[f.index]
        f.index += 1
        if x["where"] is not None:
            env = dict(f.env)
            env[x["var"]] = item
            if not x["where"](g, env):
                continue
        g.state.frames.append(block(x["body"], f.env, x["var"], item, x["about"]))
        return
    # The loop's own frame is the last one (the run loop visits the top frame): popped, not
    # looked for by value, which compared every frame below it field by field and would
    # take an equal frame further down (the same loop, called again from its own body).
    g.state.frames.pop()


def s_repeat(g: Machine, s: Stmt[pt.RepeatParts], f: Block) -> None:
    sid = stmt_id(g, f)
    f.pc += 1
    times = s.x["times"](g, f.env) or 0
    if times > 0:
        g.state.frames.append(Repeat(sid, times, dict(f.env)))


def f_repeat(g: Machine, f: Repeat) -> None:
    if f.left <= 0:
        g.state.frames.pop()
        return
    f.left -= 1
    g.state.frames.append(block(g.program.stmts[f.stmt].x["body"], f.env))


def s_repeat_while(g: Machine, s: Stmt[pt.WhileParts], f: Block) -> None:
    sid = stmt_id(g, f)
    f.pc += 1
    g.state.frames.append(While(sid, dict(f.env)))


def f_while(g: Machine, f: While) -> None:
    x = g.program.stmts[f.stmt].x
    if x["cond"](g, f.env):
        g.state.frames.append(block(x["body"], f.env))
    else:
        g.state.frames.pop()


def s_repeat_until_pass(g: Machine, s: Stmt[pt.UntilPassParts], f: Block) -> None:
    sid = stmt_id(g, f)
    f.pc += 1
    g.state.frames.append(UntilPass(sid, dict(f.env)))


def f_until_pass(g: Machine, f: UntilPass) -> None:
    """Ask the player whether to go again (while the loop's condition, if any, holds); the
    answer is taken by ``decisions.resolve``."""
    stmt = g.program.stmts[f.stmt]
    cond = stmt.x["cond"]
    if cond is not None and not cond(g, f.env):
        g.state.frames.pop()
        return
    g.offer("again", stmt.x["label"], [True, False], stmt.at)


HANDLERS: dict[str, Handler] = {
    "for_each": s_for_each, "repeat": s_repeat, "repeat_while": s_repeat_while,
    "repeat_until_pass": s_repeat_until_pass}
"""The loop statements, by kind."""
