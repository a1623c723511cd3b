"""Statement blocks as generated Python: one function per block, the run loop's fast path.

The interpreter (``machine.Machine.run``) visits the loop once per statement: it reads the
top frame, counts a step, looks the handler up by kind, and the handler reads every part
of the statement out of a dictionary.  A block's statements are known when the program is
built, so this module writes each block as one Python function (a *runner*) that runs the
statements from the frame's ``pc`` in a row, with each statement's parts bound as names
of the module and its constants (counter names, whose turn a flag is for, where a card
goes) written into the source.  ``docs/design/compiled-rules.md`` (Round 5) has the
figures that chose this shape.

A runner is the interpreter, unrolled; every promise of the loop holds statement by
statement:

- **Steps.**  The loop counts the step of the statement it hands over; the runner counts
  one more before each further statement it runs, before the end of the block (the visit
  that pops it) and before a branch it enters, and stops the game at the same step when
  the budget runs out.
- **Where it stops.**  After each statement the runner goes back to the loop when a
  decision is pending, the game is over, or the statement pushed a frame (a call, a loop,
  a trigger): the loop then does what it did before (a forced offer resolved where it
  was).  Otherwise it checks the outcomes if the statement changed the world, as the loop
  would, and goes on.
- **Resumable.**  ``pc`` is moved past each statement as it starts, as the handlers do, so
  a decision, an error or the budget leaves the frame stack exactly as the interpreter
  would.  An ``if`` or ``as`` pushes its branch as a frame as before, and then runs the
  branch's runner at once (the visit the loop would make next): nesting is fixed by the
  rules' text, so the Python stack stays shallow.
- **Errors name the rules line.**  Each block's ``at`` lines are a constant tuple of the
  module and the runner knows which statement is running, so the same errors are raised
  with the same words as in the loop; what the loop lets pass unannotated (the budget,
  an outcome's error) passes so here too.

Statements the generator does not write (decisions, payments, draws, reveals, stacks,
calls with a use limit, ``fail``) call their interpreter handler, with the same checks
around them.  The module also holds one visit of each flow block's frame (``v3``), as
``flows.f_flow`` makes it but with the flow's kind, name, hooks and parts known: a phase's
visit is a few lines.  ``DECKLORE_GENERATED=0`` turns both off with the generated
expressions (``codegen``); ``tests/test_blockgen.py`` compares steps, frames, the pending
question and the log at every decision with the runners on and off, and
``tests/test_codegen.py`` plays every pinned seed both ways.

As in ``codegen``, no pack text becomes code: every value from the pack enters the source
as ``repr`` of a plain ``int``, ``str``, ``bool`` or ``None`` after an exact type check
(``codegen._literal``), otherwise the statement goes through its handler; every name in
the source is one this module made (``k3`` a runner, ``v3`` a flow's visit, ``A3`` a
block's lines, ``x5`` a compiled part, a handler or a statement handed to it) or a local
of a runner; the module runs with empty ``__builtins__``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import CodeType
from typing import TYPE_CHECKING, Any

from decklore.runtime import outcomes
from decklore.runtime.codegen import _literal, runtime_version
from decklore.runtime.expressions import RulesError, as_list
from decklore.runtime.frames import Block, Each, FlowFrame, Repeat, UntilPass, While

if TYPE_CHECKING:
    from decklore.runtime.program import Flow, Program, Stmt

Runner = Callable[[Any, Block], None]
"""A block's generated function: the game and the block frame on top of the stack."""


def _endless(at: str) -> RulesError:
    return RulesError("a definition calls itself without end", at)


def _wrong_kind(exc: TypeError, at: str) -> RulesError:
    return RulesError(f"a value is missing or of the wrong kind ({exc})", at)


def _owner(of: Any, name: str) -> Any:
    """Whose counter or flag a statement changes, as ``statements._owner`` says it."""
    if of is None:
        raise RulesError(f"'{name}' of none: the card or player it belongs to is "
                         "missing here (an empty zone's top card?)")
    return of


def _no_player() -> RulesError:
    return RulesError("'as' names no player (none)")


_STEP = ['info["steps"] = steps = info["steps"] + 1', "if steps > budget:",
         "    g._out_of_steps()"]
_NEXT = ['if state.pending is not None or frames[-1] is not f or info["result"] is not None:',
         "    return",  # the loop goes on from here: a decision, a frame pushed, the end
         "if g._dirty and OUTCOMES(g):", "    return", *_STEP]
"""After a statement: back to the loop, or the outcomes checked if the world changed (as
the loop checks them) and the next statement's step counted."""


def _outcomes(g: Any) -> bool:
    """Check the outcomes after a change, as the loop does; True when the game is over."""
    g._dirty = False
    outcomes.check_outcomes(g)
    return g.state.info["result"] is not None


_HELPERS: dict[str, Any] = {
    "RulesError": RulesError, "RecursionError": RecursionError, "TypeError": TypeError,
    "isinstance": isinstance, "list": list, "dict": dict, "Block": Block, "Each": Each,
    "Repeat": Repeat, "While": While, "UntilPass": UntilPass, "AS_LIST": as_list,
    "OUTCOMES": _outcomes, "ENDLESS": _endless, "WRONG_KIND": _wrong_kind,
    "OWNER": _owner, "NO_PLAYER": _no_player, "FlowFrame": FlowFrame, "len": len,
    "type": type, "int": int,
}
"""Every name a runner may use besides its own runners, parts and handlers."""

PASSED_NAMES = frozenset(_HELPERS)
"""The names :func:`generate` hands the module besides those it numbers itself."""


@dataclass(frozen=True, slots=True)
class Runners:
    """A program's generated block functions and their source."""

    source: str
    runners: list[Runner]
    """One per block, by block number."""
    flows: list[Callable[[Any, FlowFrame], None]]
    """One visit of each flow block's frame, by flow number (``flows.f_flow``, unrolled)."""
    written: int
    """How many statements the source writes out (the others call their handler)."""
    handled: int
    """How many statements call their interpreter handler."""


class _Writer:
    """The source of every block's runner and every flow's visit."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.names: dict[str, Any] = {}
        self.ids: dict[int, str] = {}
        self.lines: list[str] = []
        self.written = 0
        self.handled = 0

    def part(self, value: Any) -> str:
        """A compiled part (an expression, a place) as a module name (``x5``)."""
        known = self.ids.get(id(value))
        if known is not None:
            return known
        name = f"x{len(self.ids)}"
        self.ids[id(value)] = name
        self.names[name] = value
        return name

    def module(self) -> str:
        self.lines.append("# generated by decklore.runtime.blockgen from the pack's blocks")
        for number, code in enumerate(self.program.blocks):
            self.block(number, code)
        for flow in self.program.flows:
            self.flow(flow)
        return "\n".join(self.lines) + "\n"

    def block(self, number: int, code: list[int]) -> None:
        """One block's runner.  One ``try`` covers its statements; ``i`` says which one is
        running (-1 between them: the step, the outcome check and a branch entered, whose
        errors pass as the loop lets them pass), so an error is told as the loop tells it."""
        ats = []
        body: list[str] = []
        for index, sid in enumerate(code):
            stmt = self.program.stmts[sid]
            lines, after, handled = self.statement(sid, stmt)
            at = _literal(stmt.at) if type(stmt.at) is str else None
            ats.append(f"{self.part(stmt)}.at" if at is None else at)
            body += [f"if pc <= {index}:", f"    i = {index}"]
            if not handled:  # a handler moves pc on itself (not while it asks)
                body.append(f"    f.pc = {index + 1}")
            body += [f"    {line}" for line in [*lines, "i = -1", *after, *_NEXT]]
        body.append("frames.pop()")
        self.lines += [
            "", f"A{number} = ({''.join(f'{a}, ' for a in ats)})", "",
            f"def k{number}(g, f):", "    pc = f.pc", "    state = g.state",
            "    frames = state.frames", f"    if pc >= {len(code)}:", "        frames.pop()",
            "        return", "    info = state.info", "    env = f.env",
            '    budget = info["budget"]', "    i = -1", "    try:",
            *[f"        {line}" for line in body],
            "    except RulesError as exc:", "        if i >= 0 and exc.at is None:",
            f"            exc.at = A{number}[i]", "        raise",
            "    except RecursionError:", "        if i < 0:", "            raise",
            f"        raise ENDLESS(A{number}[i]) from None",
            "    except TypeError as exc:", "        if i < 0:", "            raise",
            f"        raise WRONG_KIND(exc, A{number}[i]) from None"]

    # --- statements -------------------------------------------------------------------

    def statement(self, sid: int, stmt: Stmt[Any]) -> tuple[list[str], list[str], bool]:
        """The lines that run one statement (inside its ``try``), those after it (a
        branch entered: outside, so that the branch's errors keep their own line), and
        whether the statement goes through its interpreter handler."""
        written = self.write(sid, stmt)
        if written is None:
            self.handled += 1
            from decklore.runtime.machine import HANDLERS  # which imports the program

            handler = self.part(HANDLERS[stmt.do])
            return [f"{handler}(g, {self.part(stmt)}, f)"], [], True
        self.written += 1
        return (*written, False)

    def write(self, sid: int, stmt: Stmt[Any]) -> tuple[list[str], list[str]] | None:
        do, x = stmt.do, stmt.x
        p = self.part
        if do == "move":
            if x["position"] == "depth":
                return None
            face = None if x["facing"] is None else x["facing"] == "up"
            top = None if x["position"] is None else x["position"] == "top"
            return [f"cards = AS_LIST({p(x['what'])}(g, env))",
                    f"zone, player = {p(x['to'])}(g, env)",
                    f"g.move_all(cards, zone, player, top={top!r}, face_up={face!r})"], []
        if do == "shuffle":
            return [f"zone, player = {p(x['zone'])}(g, env)", "g.shuffle(zone, player)"], []
        if do in ("gain", "spend", "set", "clear"):
            return self.mark(stmt)
        if do == "let":
            name = _literal(x["name"])
            if type(x["name"]) is not str or name is None:
                return None
            return [f"value = {p(x['value'])}(g, env)",
                    f"env[{name}] = list(value) if isinstance(value, list) else value"], []
        if do == "call":
            return self.call(stmt)
        if do == "end":
            period = _literal(x["period"])
            if period is None:
                return None
            return [f"g.end_period({period})"], []
        if do == "log":
            message = _literal(x["message"])
            if type(x["message"]) is not str or message is None:
                return None
            return [f"g.log_event('say', {message})"], []
        if do == "if":
            return self.branch(stmt)
        if do == "as":
            body = x["body"]
            return ([f"player = {p(x['player'])}(g, env)", "if player is None:",
                     "    raise NO_PLAYER()", f"c = Block({body}, 0, dict(env), None, player)",
                     f"run = k{body}"], self.enter())
        if do == "for_each":
            return [f"items = AS_LIST({p(x['items'])}(g, env))", "if items:",
                    f"    frames.append(Each({sid}, items, 0, dict(env)))"], []
        if do == "repeat":
            return [f"times = {p(x['times'])}(g, env) or 0", "if times > 0:",
                    f"    frames.append(Repeat({sid}, times, dict(env)))"], []
        if do == "repeat_while":
            return [f"frames.append(While({sid}, dict(env)))"], []
        if do == "repeat_until_pass":
            return [f"frames.append(UntilPass({sid}, dict(env)))"], []
        return None

    def mark(self, stmt: Stmt[Any]) -> tuple[list[str], list[str]] | None:
        """``gain``, ``spend``, ``set`` and ``clear`` of a counter or flag."""
        do, x = stmt.do, stmt.x
        name = _literal(x["name"])
        if type(x["name"]) is not str or name is None:
            return None
        owner = "of = None" if x["of"] is None else (
            f"of = OWNER({self.part(x['of'])}(g, env), {name})")
        if do in ("gain", "spend"):
            sign = "+" if do == "gain" else "-"
            spec = self.program.counters.get(x["name"])
            read = f"g.counter_value({name}, of)"  # the world's fast paths, inline:
            if spec is not None and spec["per"] == "game":
                read = f"state.counters[{name}][0]"
            elif spec is not None and x["of"] is not None:
                read = f"state.counters[{name}][of] if type(of) is int else {read}"
            return [f"amount = {self.part(x['amount'])}(g, env) or 0", owner,
                    f"value = {read}", f"g.change_counter({name}, of, value {sign} amount)"], []
        if x["kind"] == "flag":
            return [owner, f"g.change_flag({name}, of, {do == 'set'!r})"], []
        if do == "set":
            value = f"{self.part(x['value'])}(g, env)" if x["value"] else "1"
            return [owner, f"g.change_counter({name}, of, {value})"], []
        spec = self.program.counters.get(x["name"])
        start = _literal(spec["start"]) if spec is not None else None
        if spec is None or type(spec["start"]) is not int or start is None:
            return None
        return [owner, f"g.change_counter({name}, of, {start})"], []

    def call(self, stmt: Stmt[Any]) -> tuple[list[str], list[str]] | None:
        """An action without a use limit: its body pushed with the arguments bound."""
        x = stmt.x
        action = self.program.actions.get(x["action"])
        if action is None or action["limit"] or len(action["params"]) != len(x["args"]):
            return None
        keys = [_literal(name) if type(name) is str else None for name in action["params"]]
        if any(k is None for k in keys):
            return None
        pairs = ", ".join(f"{k}: {self.part(a)}(g, env)"
                          for k, a in zip(keys, x["args"], strict=True))
        return [f"frames.append(Block({action['body']}, 0, {{{pairs}}}))"], []

    def branch(self, stmt: Stmt[Any]) -> tuple[list[str], list[str]]:
        """An ``if``: the first branch whose condition holds (or ``else``) is entered."""
        x = stmt.x
        lines: list[str] = []
        for number, (cond, then) in enumerate(x["branches"]):
            lines += [f"{'if' if number == 0 else 'elif'} {self.part(cond)}(g, env):",
                      f"    c = Block({then}, 0, dict(env))", f"    run = k{then}"]
        if lines:
            lines.append("else:")
        otherwise = x["otherwise"]
        chosen = ["c = None"] if otherwise is None else [
            f"c = Block({otherwise}, 0, dict(env))", f"run = k{otherwise}"]
        lines += [f"    {line}" for line in chosen] if lines else chosen
        return lines, self.enter(optional=True)

    def enter(self, *, optional: bool = False) -> list[str]:
        """Push the branch ``c`` and run it at once: the loop's next visit, step and all."""
        lines = ["frames.append(c)", *_STEP, "run(g, c)"]
        if optional:
            return ["if c is not None:", *[f"    {line}" for line in lines]]
        return lines

    # --- flow blocks ------------------------------------------------------------------

    def flow(self, flow: Flow) -> None:
        """One visit of a flow block's frame, as ``flows.f_flow`` makes it, with what the
        flow is (its kind, hooks and parts) known here: its stages run on in the same visit
        until one pushes a frame, as there."""
        from decklore.runtime import flows  # which imports the statements

        name = _literal(flow.name) if type(flow.name) is str else None
        if name is None or flow.kind not in _FLOW_KINDS:
            self.lines += ["", f"v{flow.id} = {self.part(flows.f_flow)}"]
            return
        kind = flow.kind
        out = ["", f"def v{flow.id}(g, f):", "    state = g.state", "    frames = state.frames",
               "    stage = f.stage", "    if stage == 0:",
               f"        if {name} in g.pause_at and not f.held:", "            f.held = True",
               f"            g.paused = {name}", "            return", "        f.stage = 1"]
        pushes = flow.start is not None or kind == "turn"
        if pushes:
            out.append("        pushed = len(frames)")
        out += [f"        {line}" for line in self.flow_start(flow)]
        if pushes:
            out += ["        if len(frames) != pushed or state.pending is not None:",
                    "            return"]
        out += ["        stage = 1", "    if stage == 1:"]
        if flow.body is not None:
            out += ["        if not f.body_done:", "            f.body_done = True",
                    f"            frames.append(Block({flow.body}, 0, {{}}))", "            return"]
        if kind == "round" and flow.children:
            out += [f"        {line}" for line in self.round_parts(flow)]
        elif flow.children:
            parts = "".join(f"{c}, " for c in flow.children)
            out += ["        child = f.child", f"        if child < {len(flow.children)}:",
                    "            f.child = child + 1",
                    f"            frames.append(FlowFrame(({parts})[child]))", "            return"]
        out += ["        f.stage = 2", "        stage = 2", "    if stage == 2:",
                "        f.stage = 3"]
        if flow.end is not None or kind == "turn":
            out.append("        pushed = len(frames)")
            if flow.end is not None:
                out.append(f"        frames.append(Block({flow.end}, 0, {{}}))")
            if kind == "turn":
                out.append("        g.fire('turn_end', [f.player])")
            out += ["        if len(frames) != pushed or state.pending is not None:",
                    "            return"]
        out += ["    frames.pop()", f"    g.reset_period({kind!r})"] if kind in (
            flows.PERIODS_RESET) else ["    frames.pop()"]
        if kind == "round":  # a round starts again, unless it was ended
            out += ["    if not f.aborted:", f"        frames.append(FlowFrame({flow.id}))"]
        elif kind == "turn":  # a turn outside any round: the next seat's turn
            out += ["    state.info['phase'] = None", "    if f.free and not f.aborted:",
                    "        live = g.live_players()",
                    "        later = [p for p in live if f.player is not None and p > f.player]",
                    f"        frames.append(FlowFrame({flow.id}, 0, 0, (later or live)[0], "
                    "None, 0, False, True))"]
        self.lines += out

    def round_parts(self, flow: Flow) -> list[str]:
        """A round's next part (``flows._enter_next_part``): its turn once for each seat of
        its order still in the game, in turn; any other part once."""
        program = self.program
        out = ["while True:", "    child = f.child"]
        for index, child in enumerate(flow.children):
            out.append(f"    if child == {index}:")
            if program.flows[child].kind == "turn":
                out += ["        out = state.info['out']",
                        "        order = [p for p in f.order or () if p not in out]",
                        "        if f.order_index < len(order):",
                        "            f.order_index += 1",
                        f"            frames.append(FlowFrame({child}, 0, 0, "
                        "order[f.order_index - 1]))", "            return",
                        "        f.order_index = 0", f"        f.child = {index + 1}",
                        "        continue"]
            else:
                out += [f"        f.child = {index + 1}",
                        f"        frames.append(FlowFrame({child}))", "        return"]
        out.append("    break")
        return out

    def flow_start(self, flow: Flow) -> list[str]:
        """A flow block starts (``flows._enter``): count and log a round or turn, name the
        phase, push its start hook."""
        kind = flow.kind
        start = [] if flow.start is None else [f"frames.append(Block({flow.start}, 0, {{}}))"]
        if kind == "round":
            order = ("g.live_players()" if flow.order is None
                     else f"{self.part(flow.order)}(g, {{}})")
            return ["info = state.info", 'info["round"] += 1', "g.touch_all()",
                    "state.log.append(['round', info['round']])",
                    f"f.order = AS_LIST({order})", *start]
        if kind == "turn":
            return ["info = state.info", "if f.player is None:",
                    "    f.player, f.free = g.live_players()[0], True", "g.touch_all()",
                    'info["me"] = f.player', 'info["turn"] += 1',
                    'info["turn_began"] = info["steps"]',
                    "state.log.append(['turn', info['turn'], f.player])", *start,
                    "g.fire('turn_start', [f.player])"]
        if kind in ("phase", "step"):
            name = _literal(flow.name)
            return [f"state.info['phase'] = {name}", f"state.log.append([{kind!r}, {name}])",
                    *start]
        return start


_FLOW_KINDS = frozenset({"setup", "game", "era", "round", "turn", "phase", "step"})
"""The flow kinds written out; another (none today) visits through ``flows.f_flow``."""


_CODE: dict[tuple[str, str], tuple[str, CodeType]] = {}
"""Compiled modules by (tables' content hash, runtime version), for this process, as in
``codegen``: the source is written again for every program (its parts are the program's
own) and compared, so a hit saves only ``compile``, most of the cost (ERA: 50 ms)."""


def generate(program: Program) -> Runners:
    """Write, compile and run the runners of every block of a program."""
    writer = _Writer(program)
    source = writer.module()
    key = (program.tables.content_hash, runtime_version())
    cached = _CODE.get(key)
    if cached is None or cached[0] != source:
        cached = (source, compile(source, f"<blocks of {key[0][:19]}>", "exec"))
        _CODE[key] = cached
    code = cached[1]
    namespace: dict[str, Any] = {"__builtins__": {}, **_HELPERS, **writer.names}
    exec(code, namespace)  # the source holds no pack text: see the module docstring
    runners = [namespace[f"k{number}"] for number in range(len(program.blocks))]
    visits = [namespace[f"v{flow.id}"] for flow in program.flows]
    return Runners(source, runners, visits, writer.written, writer.handled)
