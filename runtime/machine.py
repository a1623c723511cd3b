"""The machine that runs the rules: the run loop over the frame stack, offers and answers,
use limits, the step budget, and the calls into outcomes and flows.

The loop runs the top frame until a player has to decide (``state.pending``), the game
ends, a pause point is reached, or the step budget runs out.  A block frame runs its next
statement through the handler tables (``statements``, ``loops``, ``decisions``); any other
frame kind has its own handler.  A decision with a single legal answer is taken at once and
logged as forced, so players, agents and scripts are asked only real questions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from decklore.runtime import decisions, flows, loops, outcomes, statements
from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import (
    LOOPS,
    Block,
    Destroy,
    Each,
    FlowFrame,
    Frame,
    Pay,
    Pick,
    Repeat,
    Root,
    UntilPass,
    While,
)
from decklore.runtime.program import Program
from decklore.runtime.state import GameState
from decklore.runtime.world import World

DEFAULT_BUDGET = 100_000
"""Steps one game may run (a statement or a loop turn each): a bundled pack's game takes
2,000 to 20,000."""


class StepBudgetExceeded(RulesError):
    """The game ran out of steps: a rule loops without end, or the game does not finish."""


HANDLERS: dict[str, statements.Handler] = {
    **statements.HANDLERS, **loops.HANDLERS, **decisions.HANDLERS}
"""Every statement kind of the rules IR, with its handler."""

FRAME_HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    Root: flows.f_root, FlowFrame: flows.f_flow, Each: loops.f_each, Repeat: loops.f_repeat,
    While: loops.f_while, UntilPass: loops.f_until_pass, Pick: decisions.f_pick,
    Pay: decisions.f_pay, Destroy: statements.f_destroy}
"""The handler of every frame kind but ``Block`` (which the loop runs itself)."""


class Machine(World):
    """A world with the rules running on it."""

    def __init__(self, program: Program, state: GameState) -> None:
        super().__init__(program, state)
        self.pause_at: set[str] = set()
        """Flow blocks to stop at, before they start (for scenarios and tools)."""
        self.paused: str | None = None
        """The flow block the game is stopped at, or None."""

    # --- the run loop ---------------------------------------------------------------------

    def run(self) -> None:
        """Run until a decision is pending, the game ends or a pause point is reached."""
        state = self.state
        frames = state.frames
        info = state.info
        stmts, blocks = self.program.stmts, self.program.blocks
        handlers = HANDLERS
        frame_handlers = FRAME_HANDLERS
        budget = info["budget"]
        generated = self.program.blocks_generated
        runners = None if generated is None else generated.runners
        visits = None if generated is None else generated.flows
        # "not state.pending": a pending decision is never empty, and the checker then
        # keeps its type below, where a handler may have set it.
        while not state.pending and info["result"] is None and self.paused is None:
            if not frames:
                self.end_by_score("The rules ran to their end")
                return
            frame = frames[-1]
            steps = info["steps"] = info["steps"] + 1
            if steps > budget:
                self._out_of_steps()
            if type(frame) is Block:
                if runners is not None:  # the block's generated function (``blockgen``)
                    runners[frame.block](self, frame)
                else:
                    code = blocks[frame.block]
                    pc = frame.pc
                    if pc >= len(code):
                        frames.pop()
                        continue
                    stmt = stmts[code[pc]]
                    try:
                        handlers[stmt.do](self, stmt, frame)
                    except RulesError as exc:
                        if exc.at is None:
                            exc.at = stmt.at
                        raise
                    except RecursionError:
                        raise RulesError("a definition calls itself without end",
                                         stmt.at) from None
                    except TypeError as exc:
                        raise RulesError(f"a value is missing or of the wrong kind ({exc})",
                                         stmt.at) from None
            elif visits is not None and type(frame) is FlowFrame:
                visits[frame.flow](self, frame)
            else:
                frame_handlers[type(frame)](self, frame)
            if self._dirty:
                self._dirty = False
                outcomes.check_outcomes(self)
            pending = state.pending  # a handler may have set it
            if pending is not None and len(pending["options"]) == 1:
                state.pending = None
                self.log_event("forced", pending["player"])
                decisions.resolve(self, pending, pending["options"][0])

    def _out_of_steps(self) -> None:
        """End the game as out of steps, and raise the error that says where it looped."""
        info = self.state.info
        budget = info["budget"]
        at = None
        if info["steps"] - info.get("turn_began", 0) < budget // 2:
            message = (f"the game used its {budget} steps and reached turn {info['turn']} "
                       "with no winner: nothing in the rules moved the game to its end (or "
                       "the players never did)")
        else:
            at = self.looping_at()
            message = (f"this rule ran {info['steps'] - info.get('turn_began', 0)} steps in "
                       "one turn without ending; it loops without end")
        outcomes.finish(self, [], "step budget", at)
        self.state.info["result"]["error"] = message
        raise StepBudgetExceeded(message, at)

    def looping_at(self) -> str | None:
        """Where the innermost running loop or flow block is written (``file:line``)."""
        for frame in reversed(self.state.frames):
            if isinstance(frame, LOOPS):
                return self.program.stmts[frame.stmt].at
            if type(frame) is FlowFrame:
                return self.program.flows[frame.flow].at
        return None

    # --- decisions ------------------------------------------------------------------------

    def offer(self, kind: str, label: str | None, options: list[Any], at: str,
              **extra: Any) -> None:
        """Ask a decision: the player is the one an enclosing ``as`` names, or whose turn it
        is; what it is about comes from the nearest block that says."""
        me = self.state.info["me"]
        pending = {"player": 0 if me is None else me, "kind": kind, "label": label or "",
                   "options": options, "at": at, **extra}
        found_about = found_by = False
        for frame in reversed(self.state.frames):
            if type(frame) is not Block:
                continue
            if frame.about is not None and not found_about:
                pending["about"], found_about = frame.about, True
            if frame.by is not None and not found_by:
                pending["player"], found_by = frame.by, True
            if found_about and found_by:
                break
        if pending["player"] in self.state.info.get("automated", ()):
            raise RulesError(f"Player {pending['player'] + 1} is played by the rules and cannot "
                             f"decide '{pending['label']}': write that seat's part without "
                             "decisions (automated(p) tells the seats apart)", at)
        self.state.pending = pending

    def use_limit(self, key: str, limit: dict[str, Any]) -> None:
        """Count one use of something limited to N uses per period."""
        uses = self.state.info["uses"].setdefault(limit["per"], {})
        uses[key] = uses.get(key, 0) + 1

    def within_limit(self, key: str, limit: dict[str, Any] | None) -> bool:
        """Whether a limited thing has uses left in its period (no limit: always)."""
        if not limit:
            return True
        used: int = self.state.info["uses"].get(limit["per"], {}).get(key, 0)
        return used < int(limit["count"])

    # --- periods and the end --------------------------------------------------------------

    def end_period(self, period: str) -> None:
        """End the innermost running period of this kind (``flows.end_period``)."""
        flows.end_period(self, period)

    def end_by_score(self, reason: str) -> None:
        """End the game on the score (``outcomes.end_by_score``)."""
        outcomes.end_by_score(self, reason)

    def top_frame(self) -> Frame | None:
        """The frame that runs next (the one a pending decision belongs to), or None."""
        frames = self.state.frames
        return frames[-1] if frames else None
