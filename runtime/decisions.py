"""The statements that ask a player: ``may``, ``choose``, ``choose number``, ``choose one``,
``pay``, and how each answer is taken (``resolve``).

A decision is offered (``Machine.offer``) as a pending question with its options; the
statement's frame stays where it is until the answer comes back through ``resolve``, which
moves the frame on and pushes what the answer runs.  Multi-part decisions are broken into
small ones: ``choose cards`` asks for one card at a time (a ``Pick`` frame) and ``pay`` for
one payment at a time (a ``Pay`` frame), which keeps every question's options few, for
players and for search agents alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import decklore.runtime.parts as pt
from decklore.runtime.expressions import Env, RulesError, as_list
from decklore.runtime.frames import Block, Pay, Pick, UntilPass
from decklore.runtime.program import Stmt
from decklore.runtime.state import OUT
from decklore.runtime.statements import Handler, block, stmt_id
from decklore.runtime.world import short_number

if TYPE_CHECKING:
    from decklore.runtime.machine import Machine

MAX_NUMBER_CHOICES = 10_000
"""The most numbers one ``choose number`` may offer: each is an option agents look at."""


def s_may(g: Machine, s: Stmt[pt.MayParts], f: Block) -> None:
    g.offer("may", s.x["label"], [True, False], s.at)


def candidates(g: Machine, x: pt.ChooseParts, env: Env, exclude: Sequence[Any] = ()
               ) -> list[Any]:
    """The items a choice may take: those of ``items`` that pass ``where`` (and are not
    excluded: cards already picked)."""
    items = as_list(x["items"](g, env))
    where, var = x["where"], x["var"]
    if where is None:
        return [i for i in items if i not in exclude]
    inner = dict(env)
    out = []
    for item in items:
        if item in exclude:
            continue
        inner[var] = item
        if where(g, inner):
            out.append(item)
    return out


def s_choose(g: Machine, s: Stmt[pt.ChooseParts], f: Block) -> None:
    x, env = s.x, f.env
    if x["kind"] == "cards":
        sid = stmt_id(g, f)
        f.pc += 1
        g.state.frames.append(Pick(sid, [], dict(env)))
        return
    options = candidates(g, x, env)
    if x["kind"] == "random":
        f.pc += 1
        if options:
            pick = options[g.state.rng.below(len(options))]
            g.log_event("random", x["var"], pick)
            g.state.frames.append(block(x["body"], env, x["var"], pick))
        return
    if x["optional"]:
        options.append(None)
    if not options:
        f.pc += 1
        return
    g.offer("card", x["label"], options, s.at, choose=x["kind"])


def _count_bounds(g: Machine, x: pt.ChooseParts, env: Env) -> tuple[int, int | None]:
    if x["count"] is None:
        return 0, None
    kind, n = x["count"][0], x["count"][1](g, env)
    if kind == "up to":
        return 0, n
    if kind == "at least":
        return n, None
    return n, n


def f_pick(g: Machine, f: Pick) -> None:
    """Offer the next card of a ``choose cards``, with None (done) once enough are picked
    or none is left."""
    stmt = g.program.stmts[f.stmt]
    x = stmt.x
    low, high = _count_bounds(g, x, f.env)
    picked = f.picked
    options: list[Any] = [] if high is not None and len(picked) >= high else candidates(
        g, x, f.env, picked)
    if len(picked) >= low or not options:
        options.append(None)
    g.offer("cards", x["label"], options, stmt.at, choose="cards", picked=len(picked))


def s_choose_number(g: Machine, s: Stmt[pt.ChooseNumberParts], f: Block) -> None:
    x, env = s.x, f.env
    low, high = x["low"](g, env), x["high"](g, env)
    if low is not None and high is not None and high - low + 1 > MAX_NUMBER_CHOICES:
        raise RulesError(f"a number choice from {short_number(low)} to {short_number(high)} "
                         f"offers more than {MAX_NUMBER_CHOICES:,} numbers; bound it more "
                         "tightly", s.at)
    numbers = list(range(low, high + 1)) if low is not None and high is not None else []
    if x["where"] is not None:
        inner = dict(env)
        allowed = []
        for n in numbers:
            inner[x["var"]] = n
            if x["where"](g, inner):
                allowed.append(n)
        numbers = allowed
    if not numbers:
        f.pc += 1
        return
    g.offer("number", x["label"], numbers, s.at)


def s_choose_one(g: Machine, s: Stmt[pt.ChooseOneParts], f: Block) -> None:
    env = f.env
    options = [i for i, o in enumerate(s.x["options"])
               if (o["when"] is None or o["when"](g, env))
               and g.within_limit(f"{s.at}:{o['name']}", o["limit"])]
    if not options:
        f.pc += 1
        return
    g.offer("one", s.x["label"], options, s.at)


def s_pay(g: Machine, s: Stmt[pt.PayParts], f: Block) -> None:
    sid = stmt_id(g, f)
    f.pc += 1
    amount = s.x["amount"](g, f.env) or 0
    if amount <= 0:
        return
    frame = Pay(sid, amount, dict(f.env))
    available = sum(worth for _, worth in pay_items(g, frame, group=False))
    if available < amount:
        raise RulesError(f"cannot pay {amount}: only {available} can be paid from the "
                         "sources; check that the amount can be met before paying")
    g.state.frames.append(frame)


def pay_items(g: Machine, frame: Pay, *, group: bool) -> list[tuple[list[Any], int]]:
    """What can pay, with its worth: each card of a source zone (worth by its define, or
    1), or one unit of a source counter.  ``group`` offers one of each kind of payment
    (same source, worth and face), which is all a player needs to tell apart."""
    stmt = g.program.stmts[frame.stmt]
    env = frame.env
    items: list[tuple[list[Any], int]] = []
    seen: set[tuple[Any, ...]] = set()
    for index, source in enumerate(stmt.x["sources"]):
        if source[0] == "zone":
            zone, player = source[1](g, env)
            valued = source[2]
            for card in g.zone_cards(zone, player):
                worth = g.program.defines[valued](g, card) if valued else 1
                if not worth or worth <= 0:
                    continue
                face = g.rows[card]["id"] if g.state.cards[card]["face_up"] else None
                key = (index, worth, face)
                if group and key in seen:
                    continue
                seen.add(key)
                items.append((["card", index, card], worth))
        else:
            of = source[2](g, env) if source[2] else None
            value = g.counter_value(source[1], of)
            if value > 0:
                if group:
                    items.append((["counter", index, of], 1))
                else:
                    items.extend((["counter", index, of], 1) for _ in range(value))
    return items


def f_pay(g: Machine, f: Pay) -> None:
    """Ask for the next payment while something is due; then give the change, if any."""
    stmt = g.program.stmts[f.stmt]
    if f.due > 0:
        items = pay_items(g, f, group=True)
        if not items:
            raise RulesError(f"nothing left to pay the last {f.due} with", stmt.at)
        g.offer("pay", f"Pay {f.due} more", [item for item, _ in items], stmt.at, due=f.due)
        return
    g.state.frames.pop()
    change = stmt.x["change"]
    if change is not None and f.due < 0:
        name, of_expr = change
        of = of_expr(g, f.env) if of_expr else None
        g.change_counter(name, of, g.counter_value(name, of) - f.due)


def _pay_item(g: Machine, f: Pay, item: list[Any]) -> None:
    stmt = g.program.stmts[f.stmt]
    source = stmt.x["sources"][item[1]]
    if item[0] == "card":
        card = item[2]
        worth = g.program.defines[source[2]](g, card) if source[2] else 1
        zone, player = source[1](g, f.env)
        spent = g.program.zones[zone].get("spent")
        if spent:
            g.move(card, spent, player if g.program.zones[spent]["per"] == "player" else None,
                   face_up=True)
        else:
            g.move(card, OUT, None, face_up=True)
        f.due -= worth
    else:
        of = item[2]
        g.change_counter(source[1], of, g.counter_value(source[1], of) - 1)
        f.due -= 1


def resolve(g: Machine, pending: dict[str, Any], value: Any) -> None:
    """Take the answer ``value`` to the pending decision: move the asking frame on and push
    what the answer runs."""
    frames = g.state.frames
    frame = frames[-1]
    kind = pending["kind"]
    program = g.program
    if kind == "again":
        assert isinstance(frame, UntilPass)
        if value:
            frames.append(block(program.stmts[frame.stmt].x["body"], frame.env))
        else:
            frames.pop()
        return
    if kind == "cards":
        assert isinstance(frame, Pick)
        if value is None:
            frames.pop()
            stmt = program.stmts[frame.stmt]
            frames.append(block(stmt.x["body"], frame.env, stmt.x["var"], frame.picked))
        else:
            frame.picked.append(value)
        return
    if kind == "pay":
        assert isinstance(frame, Pay)
        _pay_item(g, frame, value)
        return
    assert isinstance(frame, Block)
    stmt = program.stmts[program.blocks[frame.block][frame.pc]]
    frame.pc += 1
    x = stmt.x
    if kind == "may":
        if value:
            frames.append(block(x["body"], frame.env))
    elif kind == "card":
        if value is not None:
            about = "player" if x["kind"] == "player" else "card"
            frames.append(block(x["body"], frame.env, x["var"], value, about))
    elif kind == "number":
        frames.append(block(x["body"], frame.env, x["var"], value))
    elif kind == "one":
        option = x["options"][value]
        if option["limit"]:
            g.use_limit(f"{stmt.at}:{option['name']}", option["limit"])
        frames.append(block(option["body"], frame.env))


HANDLERS: dict[str, Handler] = {
    "may": s_may, "choose": s_choose, "choose_number": s_choose_number,
    "choose_one": s_choose_one, "pay": s_pay}
"""The statements that ask, by kind."""
