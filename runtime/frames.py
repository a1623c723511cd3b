"""Where execution stands: the engine's stack of frames, as typed records.

The engine never keeps its place in a Python call stack: a game is a stack of these frames
plus the pending decision, so it clones with a copy, saves to JSON mid-turn and resumes
exactly (``docs/design/engine-plan.md``).  Each record is slotted (cheap to make, copy and
read in the run loop) and names its fields as a reader would; ``frame_to_json`` and
``frame_from_json`` give a saved game the same names (save format 2;
``save_format.migrate_save`` reads format 1's one-letter dictionaries).

The kinds:

- ``Root``: the game's top level, walking the pack's top-level flow blocks in order;
- ``FlowFrame``: one running turn, round, phase, step, era or game block, moving through
  its stages (``ENTER``, ``BODY``, ``LEAVE``, ``DONE``);
- ``Block``: a block of statements and the index of the next one;
- ``Each``, ``Repeat``, ``While``, ``UntilPass``: loops between their turns;
- ``Pick``: a ``choose cards`` collecting its picks one by one;
- ``Pay``: a ``pay`` with the amount still due;
- ``Destroy``: destroyed cards waiting for their ``destroyed`` triggers to run first.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar, TypeAlias

Env: TypeAlias = dict[str, Any]
"""The names a block's statements see (loop variables, ``let`` values, parameters)."""

ENTER, BODY, LEAVE, DONE = 0, 1, 2, 3
"""A flow block's stages: its start hook runs on entering, then its statements or its
parts, then its end hook on leaving; when done it is popped (and may run again)."""


def copy_plain(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists and scalars): environments, loop
    items, and the state's pending decision and info (``GameState.clone``)."""
    kind = type(value)
    if kind is dict:  # scalars are taken as they are, without a call each
        return {k: copy_plain(v) if type(v) in _NESTED else v for k, v in value.items()}
    if kind is list:
        return [copy_plain(v) if type(v) in _NESTED else v for v in value]
    return value


_NESTED = (dict, list)
"""The kinds ``copy_plain`` copies; everything else in plain data is immutable."""


@dataclass(slots=True)
class Root:
    """The top level: ``next`` is the index of the top-level flow block to run next."""

    KIND: ClassVar[str] = "root"
    next: int = 0

    def copy(self) -> Root:
        return Root(self.next)


@dataclass(slots=True)
class FlowFrame:
    """A running flow block (``program.flows[flow]``).

    ``child`` is the index of the next part to enter; a round walks its turns in ``order``
    (seats), ``order_index`` being how many it has started.  ``held``: paused here once
    (``pause_at``) and not to pause again; ``free``: a turn outside any round, repeating in
    seat order; ``body_done``: its statements were pushed; ``aborted``: ended by ``end``,
    so it does not repeat.
    """

    KIND: ClassVar[str] = "flow"
    flow: int
    stage: int = ENTER
    child: int = 0
    player: int | None = None
    order: list[int] | None = None
    order_index: int = 0
    held: bool = False
    free: bool = False
    body_done: bool = False
    aborted: bool = False

    def copy(self) -> FlowFrame:
        return FlowFrame(self.flow, self.stage, self.child, self.player,
                         None if self.order is None else list(self.order), self.order_index,
                         self.held, self.free, self.body_done, self.aborted)


@dataclass(slots=True)
class Block:
    """Statements running: ``program.blocks[block]``, next at ``pc``.

    ``about`` (``["card", 12]`` or ``["player", 1]``) is what a decision inside is about,
    for descriptions; ``by`` is the seat an ``as`` block hands its decisions to.
    """

    KIND: ClassVar[str] = "block"
    block: int
    pc: int
    env: Env
    about: list[Any] | None = None
    by: int | None = None

    def copy(self) -> Block:
        return Block(self.block, self.pc, copy_plain(self.env),
                     None if self.about is None else list(self.about), self.by)


@dataclass(slots=True)
class Each:
    """A ``for each`` (statement ``stmt``) between items: ``items[index]`` is next."""

    KIND: ClassVar[str] = "each"
    stmt: int
    items: list[Any]
    index: int
    env: Env

    def copy(self) -> Each:
        return Each(self.stmt, copy_plain(self.items), self.index, copy_plain(self.env))


@dataclass(slots=True)
class Repeat:
    """A ``repeat N times`` with ``left`` turns still to run."""

    KIND: ClassVar[str] = "repeat"
    stmt: int
    left: int
    env: Env

    def copy(self) -> Repeat:
        return Repeat(self.stmt, self.left, copy_plain(self.env))


@dataclass(slots=True)
class While:
    """A ``repeat while``: its condition is asked again before every turn."""

    KIND: ClassVar[str] = "while"
    stmt: int
    env: Env

    def copy(self) -> While:
        return While(self.stmt, copy_plain(self.env))


@dataclass(slots=True)
class UntilPass:
    """A ``repeat until pass``: the player is asked before every turn."""

    KIND: ClassVar[str] = "until_pass"
    stmt: int
    env: Env

    def copy(self) -> UntilPass:
        return UntilPass(self.stmt, copy_plain(self.env))


@dataclass(slots=True)
class Pick:
    """A ``choose cards`` collecting its choices: ``picked`` so far, in order."""

    KIND: ClassVar[str] = "pick"
    stmt: int
    picked: list[Any]
    env: Env

    def copy(self) -> Pick:
        return Pick(self.stmt, list(self.picked), copy_plain(self.env))


@dataclass(slots=True)
class Pay:
    """A ``pay`` with ``due`` still to pay (below 0: change owed)."""

    KIND: ClassVar[str] = "pay"
    stmt: int
    due: int
    env: Env

    def copy(self) -> Pay:
        return Pay(self.stmt, self.due, copy_plain(self.env))


@dataclass(slots=True)
class Destroy:
    """Destroyed cards, moved to ``to`` (zone, seat) once their triggers have run."""

    KIND: ClassVar[str] = "destroy"
    cards: list[int]
    to: list[Any]

    def copy(self) -> Destroy:
        return Destroy(list(self.cards), list(self.to))


Frame: TypeAlias = (Root | FlowFrame | Block | Each | Repeat | While | UntilPass | Pick | Pay
                    | Destroy)
"""One entry of the stack."""

LOOPS = (Each, Repeat, While, UntilPass)
"""The frames of loops, which name the statement that runs them (``stmt``)."""

KINDS: dict[str, type[Frame]] = {cls.KIND: cls for cls in (
    Root, FlowFrame, Block, Each, Repeat, While, UntilPass, Pick, Pay, Destroy)}
"""Frame classes by the ``kind`` a saved game writes."""

FIELDS: dict[str, tuple[tuple[str, bool], ...]] = {
    kind: tuple((f.name, f.default is MISSING) for f in fields(cls))
    for kind, cls in KINDS.items()}
"""Each kind's fields in order, with whether the field is required (has no default)."""


def frame_to_json(frame: Frame) -> dict[str, Any]:
    """A frame as a saved game writes it: ``kind`` and every field by name."""
    out: dict[str, Any] = {"kind": frame.KIND}
    for name, _ in FIELDS[frame.KIND]:
        out[name] = getattr(frame, name)
    return out


def frame_from_json(data: dict[str, Any]) -> Frame:
    """A frame from a saved game's object, whose shape ``save_format`` has checked."""
    cls = KINDS[data["kind"]]
    return cls(**{name: data[name] for name, _ in FIELDS[cls.KIND] if name in data})
