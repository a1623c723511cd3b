"""The turn structure: the pack's flow blocks (game, era, round, turn, phase, step) run in
their stages, and ``end`` statements that cut a period short.

A flow block's frame (``FlowFrame``) moves through four stages: on ``ENTER`` it counts the
round or turn, logs it and runs its start hook; in ``BODY`` it runs its statements or enters
its parts in order (a round enters its turn once for each seat of its order still in the
game); on ``LEAVE`` its end hook runs; when ``DONE`` it is popped, the counters and flags
that last until its period are reset, and a round (or a turn outside any round) starts
again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decklore.runtime.builtins import players_from
from decklore.runtime.expressions import RulesError, as_list
from decklore.runtime.frames import BODY, DONE, ENTER, LEAVE, FlowFrame, Frame, Root
from decklore.runtime.program import Flow, Program
from decklore.runtime.statements import block

if TYPE_CHECKING:
    from decklore.runtime.machine import Machine

PERIODS_RESET = ("turn", "round", "phase", "era", "game")
"""The flow kinds whose end resets what lasts ``until`` them."""


def f_root(g: Machine, f: Root) -> None:
    tops = g.program.top_flows
    if f.next >= len(tops):
        g.state.frames.pop()
        return
    flow = g.program.flows[tops[f.next]]
    f.next += 1
    g.state.frames.append(FlowFrame(flow.id))


def f_flow(g: Machine, f: FlowFrame) -> None:
    """Move a flow block through its stages: enter, statements or parts, leave, finish.

    Stages that push nothing run on in the same call, so a phase without hooks costs one
    step of the budget, not four.
    """
    flow = g.program.flows[f.flow]
    frames = g.state.frames
    while True:
        stage = f.stage
        pushed = len(frames)
        if stage == ENTER:
            if flow.name in g.pause_at and not f.held:
                f.held = True
                g.paused = flow.name
                return
            f.stage = BODY
            _enter(g, flow, f)
        elif stage == BODY:
            if flow.body is not None and not f.body_done:
                f.body_done = True
                frames.append(block(flow.body, {}))
                return
            if _enter_next_part(g, flow, f):
                return
            f.stage = LEAVE
        elif stage == LEAVE:
            f.stage = DONE
            if flow.end is not None:
                frames.append(block(flow.end, {}))
            if flow.kind == "turn":
                g.fire("turn_end", [f.player])
        else:
            _finish_flow(g, flow, f)
            return
        if len(frames) != pushed or g.state.pending is not None:
            return


def _enter(g: Machine, flow: Flow, f: FlowFrame) -> None:
    """A flow block starts: count and log a round or turn, name the phase, run its start."""
    info = g.state.info
    frames = g.state.frames
    if flow.kind == "round":
        info["round"] += 1
        g.touch_all()
        g.log_event("round", info["round"])
        order = flow.order(g, {}) if flow.order is not None else g.live_players()
        f.order = as_list(order)
    elif flow.kind == "turn":
        if f.player is None:
            f.player, f.free = g.live_players()[0], True
        g.touch_all()
        info["me"] = f.player
        info["turn"] += 1
        info["turn_began"] = info["steps"]
        g.log_event("turn", info["turn"], f.player)
        if flow.start is not None:
            frames.append(block(flow.start, {}))
        g.fire("turn_start", [f.player])
    elif flow.kind in ("phase", "step"):
        info["phase"] = flow.name
        g.log_event(flow.kind, flow.name)
    if flow.start is not None and flow.kind != "turn":
        frames.append(block(flow.start, {}))


def _enter_next_part(g: Machine, flow: Flow, f: FlowFrame) -> bool:
    """Push the next part of a flow block (a round's turn for its next seat still in the
    game); False when every part has run."""
    children = flow.children
    out = g.state.info["out"]
    while f.child < len(children):
        child = g.program.flows[children[f.child]]
        if child.kind == "turn" and flow.kind == "round":
            order = [p for p in f.order or () if p not in out]
            if f.order_index < len(order):
                f.order_index += 1
                g.state.frames.append(FlowFrame(child.id, player=order[f.order_index - 1]))
                return True
            f.order_index = 0
            f.child += 1
            continue
        f.child += 1
        g.state.frames.append(FlowFrame(child.id))
        return True
    return False


def _finish_flow(g: Machine, flow: Flow, f: FlowFrame) -> None:
    """Pop a finished flow block, reset its period's counters, and start a round (or a turn
    outside any round, for the next seat) again unless it was ended."""
    frames = g.state.frames
    frames.pop()
    if flow.kind in PERIODS_RESET:
        g.reset_period(flow.kind)
    if flow.kind == "turn":
        g.state.info["phase"] = None
    repeats = flow.kind == "round" or (flow.kind == "turn" and f.free)
    if repeats and not f.aborted:
        again = FlowFrame(flow.id)
        if flow.kind == "turn":
            live = g.live_players()
            later = [p for p in live if f.player is not None and p > f.player]
            again.player, again.free = (later or live)[0], True
        frames.append(again)


def end_period(g: Machine, period: str) -> None:
    """End the innermost running period of this kind (turn, round, phase, ...) with the
    blocks inside it; for ``game``, end the game, decided by the score."""
    if period == "game":
        g.end_by_score("The game ended")
        return
    frames = g.state.frames
    target = None
    for i in range(len(frames) - 1, -1, -1):
        frame = frames[i]
        if type(frame) is FlowFrame and g.program.flows[frame.flow].kind == period:
            target = i
            break
    if target is None:
        raise RulesError(f"'end {period}' outside any {period}")
    remaining = frames[:target + 1]
    for frame in frames[target + 1:]:
        if type(frame) is FlowFrame and frame.stage < LEAVE:
            frame.stage, frame.aborted = LEAVE, True
            remaining.append(frame)
    ended = remaining[target]
    assert type(ended) is FlowFrame
    if ended.stage < LEAVE:
        ended.stage = LEAVE
    frames[:] = remaining


def flow_path(program: Program, name: str) -> tuple[int, list[tuple[int, int]]] | None:
    """Where a named flow block sits: its top-level index and (flow, child index) pairs."""
    def search(flow_id: int) -> list[tuple[int, int]] | None:
        flow = program.flows[flow_id]
        if flow.name == name:
            return [(flow_id, -1)]
        for index, child in enumerate(flow.children):
            found = search(child)
            if found is not None:
                return [(flow_id, index), *found]
        return None
    for top_index, flow_id in enumerate(program.top_flows):
        found = search(flow_id)
        if found is not None:
            return top_index, found
    return None


def frames_at(g: Machine, name: str, player: int, turn: int
              ) -> tuple[list[Frame], int, str | None]:
    """The frame stack that begins the flow block ``name`` in ``player``'s turn, as if the
    blocks around it had been entered (without running their start hooks), with the turn
    number and phase name the game has there.  Changes nothing."""
    path = flow_path(g.program, name)
    if path is None:
        names = sorted({f.name for f in g.program.flows})
        raise RulesError(f"no phase, step, turn or round named '{name}'; the rules have: "
                         + ", ".join(names))
    top_index, chain = path
    phase = g.state.info["phase"]
    frames: list[Frame] = [Root(top_index + 1)]
    for depth, (flow_id, child_index) in enumerate(chain):
        flow = g.program.flows[flow_id]
        frame = FlowFrame(flow.id, player=player if flow.kind == "turn" else None)
        if flow.kind == "turn" and depth == 0:
            frame.free = True  # a turn outside any round repeats in seat order
        if depth == len(chain) - 1:
            if flow.kind == "turn":
                turn -= 1  # entering the turn counts it
            frames.append(frame)
            break
        frame.stage, frame.child, frame.body_done = BODY, child_index + 1, True
        if flow.kind == "round":
            frame.order = players_from(g, player)
            child = g.program.flows[flow.children[child_index]]
            if child.kind == "turn":
                frame.child = child_index
                frame.order_index = frame.order.index(player) + 1
        if flow.kind in ("phase", "step"):
            phase = flow.name
        frames.append(frame)
    return frames, turn, phase
