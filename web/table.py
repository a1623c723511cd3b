"""The table the web server keeps: one game of one pack, its seats, and the pack's live reload.

Nothing here knows HTTP. The server asks this module what a seat may see (built only from
``Game.observation(seat)``, the seat's legal actions and the log as that seat may read it)
and passes it the seat's answers, each checked against the table's version so that an
answer given to a position that has moved on changes nothing. A designer's view, which
shows everything, is a separate call, so no seat's page is ever built from it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.runtime.agents import Agent, make_agent
from decklore.runtime.describe import event_text
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game, StepBudgetExceeded
from decklore.runtime.state import StateError
from decklore.runtime.tables import Tables, loads_tables

MAX_PACK_FILES = 2000
"""The most files of a pack watched for live reload: a pack is a few dozen."""


class TableError(Exception):
    """A client's request the table refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


Compiler = Callable[[Path], "tuple[Tables | None, str]"]
"""Compiles a pack folder: its tables, or None and the diagnostics as text."""


def compile_folder(pack: Path) -> tuple[Tables | None, str]:
    """The pack's tables (cached by content, as the CLI compiles), or its diagnostics."""
    from decklore.compiler import PackError, SourceCache, TableCache, compile_pack, render_all

    try:
        result = compile_pack(pack, cache=TableCache())
    except PackError as exc:
        return None, render_all(exc.diagnostics, SourceCache())
    tables = loads_tables(result.data)
    if not tables.raw.get("rules"):
        return None, f"pack {tables.pack['id']} has no rules to play (add rules files to " \
                     "pack.yaml)"
    return tables, ""


@dataclass
class Reload:
    """What the last live reload found: when, and its diagnostics when the pack broke."""

    at: float = 0.0
    errors: str = ""
    reloads: int = 0
    message: str = ""


@dataclass
class Table:
    """One game at a local table: who sits where, the game, and the pack it came from.

    ``seats`` names each player's agent (``human`` for a person). ``version`` grows with
    every change of the game; every answer a client sends carries the version it saw.
    """

    pack: Path
    tables: Tables
    seats: list[str]
    seed: int = 1
    decks: list[str] | None = None
    save_path: Path | None = None
    compiler: Compiler = compile_folder
    reload_every: float = 0.5
    """Seconds between two looks at the pack's files, however many pages poll."""
    game: Game = field(init=False)
    agents: list[Agent | None] = field(init=False)
    version: int = field(init=False, default=0)
    seen: dict[int, int] = field(init=False, default_factory=dict)
    """For each seat, the log length when it last moved: its log shows what came since."""
    reload: Reload = field(init=False, default_factory=Reload)
    stopped: str = field(init=False, default="")
    """Why the game cannot go on (a rules error), or empty."""
    lock: threading.RLock = field(init=False, default_factory=threading.RLock)
    _mtimes: dict[str, float] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        low, high = self.tables.pack["players"]["min"], self.tables.pack["players"]["max"]
        if not low <= len(self.seats) <= high:
            raise TableError(400, f"{self.tables.pack['name']} takes {low} to {high} players; "
                             f"give one agent for each (got {len(self.seats)})")
        self._mtimes = self._scan()
        self.restart()

    # --- starting and restarting ----------------------------------------------------------

    def restart(self, game: Game | None = None) -> None:
        """A new game on the current tables (or ``game``, loaded), seats' agents fresh."""
        with self.lock:
            if game is None:
                game = Game.new(self.tables, len(self.seats), self.seed, self.decks)
            self.game = game
            self.agents = []
            for i, name in enumerate(self.seats):
                self.agents.append(None if name == "human"
                                   else make_agent(name, self.seed + 1 + i, self.tables.raw))
            self.agents += [None] * len(game.state.info.get("automated", []))
            self.seen = {i: len(game.state.log) for i in range(len(self.seats))}
            self.stopped = ""
            self.version += 1

    def humans(self) -> list[int]:
        return [i for i, name in enumerate(self.seats) if name == "human"]

    def check_seat(self, seat: int) -> int:
        """A seat number from a URL (1 for the first) as an index, or a 404."""
        if not 1 <= seat <= len(self.seats):
            raise TableError(404, f"there is no seat {seat}: this table has seats 1 to "
                             f"{len(self.seats)}")
        return seat - 1

    def _check_version(self, version: int) -> None:
        if version != self.version:
            raise TableError(409, f"the game has moved on since you looked (you saw "
                             f"position {version}, it is now at {self.version}); the table "
                             "shows the new position")

    def _check_going(self) -> None:
        if self.game.terminal:
            raise TableError(409, "the game is over: nothing is left to decide")
        if self.stopped or self.game.current_player() is None:
            raise TableError(409, "the game stopped on an error in the rules; restart it "
                             "from the designer view")

    # --- what a seat may see ----------------------------------------------------------------

    def seat_view(self, seat: int) -> dict[str, Any]:
        """Everything one seat's page shows, made from what that seat may know only."""
        with self.lock:
            game = self.game
            obs = game.observation(seat)
            current = game.current_player()
            actions = []
            if current == seat and not game.terminal:
                actions = [{"index": a.index, "description": a.description}
                           for a in game.legal_actions()]
            since = self.seen.get(seat, 0)
            log = [text for event in game.state.log[since:]
                   if (text := event_text(game, event, seat))]
            waiting_on = None
            if current is not None and current != seat:
                waiting_on = {"seat": current + 1, "agent": self.seats[current]
                              if current < len(self.seats) else "rules"}
            return {"seat": seat + 1, "version": self.version, "observation": obs,
                    "actions": actions, "log": log, "waiting_on": waiting_on,
                    "agent_to_move": self.agent_to_move(), "terminal": game.terminal,
                    "result": game.result, "scores": self.scores(),
                    "stopped": bool(self.stopped),
                    "reload": {"errors": self.reload.errors, "reloads": self.reload.reloads}}

    def scores(self) -> list[int] | None:
        """Each player's score by the pack's rule, at the end of the game only: during play
        a score may count cards a seat cannot see."""
        game = self.game
        score = game.program.score
        if score is None or not game.terminal:
            return None
        var, value = score
        return [int(value(game, {var: p})) for p in range(game.state.players)]

    def agent_to_move(self) -> bool:
        current = self.game.current_player()
        return current is not None and self.agents[current] is not None

    # --- answers ----------------------------------------------------------------------------

    def act(self, seat: int, version: int, index: int) -> None:
        """Seat ``seat`` takes its ``index``-th legal action in position ``version``."""
        with self.lock:
            self._check_version(version)
            game = self.game
            self._check_going()
            current = game.current_player()
            if current != seat:
                raise TableError(409, f"it is not your move: Player {(current or 0) + 1} "
                                 "decides now")
            if self.agents[seat] is not None:
                raise TableError(403, f"seat {seat + 1} is played by an agent")
            count = game.option_count()
            if not 0 <= index < count:
                raise TableError(422, f"there is no action {index}: choose one of 0 to "
                                 f"{count - 1}")
            self.seen[seat] = len(game.state.log)
            self._apply(index)

    def advance(self, version: int, *, through: bool = False) -> bool:
        """Let the agent whose move it is make one move, if ``version`` is still current;
        ``through``: every move until a person must decide or the game ends (agents that
        need not be watched, as with no delay).

        Several pages may ask at once; only the first one at a position moves, the others
        see the new position. Returns whether a move was made."""
        with self.lock:
            if version != self.version or not self.agent_to_move() or self.stopped:
                return False
            while self.agent_to_move():
                current = self.game.current_player()
                assert current is not None
                agent = self.agents[current]
                assert agent is not None
                if not self._apply(agent.choose(self.game)) or not through:
                    break
            return True

    def step(self, version: int, index: int | None) -> None:
        """The designer's step: one decision, by its seat's agent or the one named."""
        with self.lock:
            self._check_version(version)
            game = self.game
            self._check_going()
            current = game.current_player()
            assert current is not None
            if index is None:
                agent = self.agents[current] or make_agent("random", self.version,
                                                           self.tables.raw)
                index = agent.choose(game)
            count = game.option_count()
            if not 0 <= index < count:
                raise TableError(422, f"there is no action {index}: choose one of 0 to "
                                 f"{count - 1}")
            if current < len(self.seats):
                self.seen[current] = len(game.state.log)
            self._apply(index)

    def _apply(self, index: int) -> bool:
        """Apply one action; a rules error stops the game where it is (the designer view
        says where) instead of failing the request. Returns whether it went through."""
        try:
            self.game.apply(index)
            return True
        except StepBudgetExceeded as exc:
            self.stopped = f"the game ran out of steps: {exc}"
        except RulesError as exc:
            self.stopped = f"rules error: {exc}"
        finally:
            self.version += 1
        return False

    # --- saving and loading -------------------------------------------------------------------

    def save(self) -> Path:
        """Write the game to the table's save file (never to a page: it holds every secret)."""
        from decklore.compiler import write_atomic

        if self.save_path is None:
            raise TableError(409, "this table has no save file: start it with --save FILE")
        with self.lock:
            write_atomic(self.save_path, self.game.to_json().encode("utf-8"))
        return self.save_path

    def load(self, version: int) -> None:
        """Resume the game in the save file, checked as ``decklore play --load`` checks it."""
        from decklore.compiler.load import read_regular

        if self.save_path is None:
            raise TableError(409, "this table has no save file: start it with --save FILE")
        with self.lock:
            self._check_version(version)
            try:
                data = read_regular(self.save_path, 64 * 1024 * 1024)
            except OSError as exc:
                raise TableError(409, f"cannot read {self.save_path}: "
                                 f"{exc.strerror or exc}") from None
            try:
                game = Game.from_json(self.tables, data)
            except (StateError, RulesError) as exc:
                raise TableError(422, f"{self.save_path}: {exc}") from None
            if game.state.players != len(self.seats):
                raise TableError(422, f"{self.save_path}: the saved game has "
                                 f"{game.state.players} players, this table "
                                 f"{len(self.seats)}")
            self.restart(game)

    # --- live reload ---------------------------------------------------------------------------

    def _scan(self) -> dict[str, float]:
        found: dict[str, float] = {}
        for path in sorted(self.pack.rglob("*")):
            if len(found) >= MAX_PACK_FILES:
                break
            if path.is_file() and not any(p.startswith(".") for p in path.parts):
                found[str(path)] = path.stat().st_mtime_ns / 1e9
        return found

    def check_reload(self) -> bool:
        """Recompile when a file of the pack changed; restart the game on the new tables
        when it compiles, keep the game and show the diagnostics when it does not. At most
        one look every ``reload_every`` seconds. Returns whether anything changed."""
        now = time.monotonic()
        if now - self.reload.at < self.reload_every:
            return False
        with self.lock:
            self.reload.at = now
            mtimes = self._scan()
            if mtimes == self._mtimes:
                return False
            self._mtimes = mtimes
            tables, errors = self.compiler(self.pack)
            self.reload.errors = errors
            if tables is None:
                self.version += 1  # the pages show the diagnostics
                return True
            try:  # the new rules may fail at once, or no longer know a deck in play
                game = Game.new(tables, len(self.seats), self.seed, self.decks)
            except (RulesError, StateError) as exc:
                self.reload.errors = f"the changed pack cannot start a game: {exc}"
                self.version += 1
                return True
            self.tables = tables
            self.reload.reloads += 1
            self.reload.message = "the pack changed: a new game on the new tables"
            self.restart(game)
            return True

    # --- the designer's view ---------------------------------------------------------------

    def designer_view(self) -> dict[str, Any]:
        """The whole state, every secret included, for the designer's page only."""
        with self.lock:
            game, state, program = self.game, self.game.state, self.game.program
            zones: list[dict[str, Any]] = []
            for name, spec in program.zones.items():
                lists = state.zones[name]
                owners: list[int | None] = (list(range(len(lists))) if spec["per"] == "player"
                                            else [None])
                for owner, cards in zip(owners, lists, strict=False):
                    if cards:
                        zones.append({"label": spec["label"], "name": name, "owner": owner,
                                      "visibility": spec["visibility"],
                                      "cards": [_card_line(game, c) for c in cards]})
            counters = [{"name": n, "label": s["label"], "per": s["per"],
                         "values": _slot_values(game, s["per"], state.counters[n], s["start"])}
                        for n, s in program.counters.items()]
            flags = [{"name": n, "label": s["label"], "per": s["per"],
                      "values": _slot_values(game, s["per"], state.flags[n], False)}
                     for n, s in program.flags.items()]
            pending = state.pending
            actions = [{"index": a.index, "description": a.description}
                       for a in game.legal_actions()]
            return {"version": self.version, "pack": self.tables.pack, "seats": self.seats,
                    "turn": state.info["turn"], "round": state.info["round"],
                    "phase": state.info["phase"],
                    "current": None if pending is None else pending["player"] + 1,
                    "step": None if pending is None else {
                        "at": pending.get("at"), "kind": pending["kind"],
                        "label": pending["label"]},
                    "actions": actions, "zones": zones, "counters": counters,
                    "flags": flags, "result": game.result, "log_length": len(state.log),
                    "stopped": self.stopped,
                    "decisions": state.info["decisions"], "steps": state.info["steps"],
                    "reload": {"errors": self.reload.errors, "reloads": self.reload.reloads,
                               "message": self.reload.message},
                    "agent_to_move": self.agent_to_move()}


def _card_line(game: Game, card: int) -> str:
    """A card as the designer reads it: name, face down or up, what it carries."""
    row = game.state.cards[card]
    text = str(game.rows[card]["name"])
    if not row["face_up"]:
        text += " (face down)"
    if row.get("above"):
        text += " with " + ", ".join(str(game.rows[c]["name"]) for c in row["above"])
    if row.get("under"):
        text += " over " + ", ".join(str(game.rows[c]["name"]) for c in row["under"])
    return text


def _slot_values(game: Game, per: str, values: list[Any], start: Any) -> list[str]:
    """A counter's or flag's values that differ from its start, each with its holder."""
    def said(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)

    if per == "game":
        return [said(values[0])]
    shown = []
    for slot, value in enumerate(values):
        if value == start:
            continue
        holder = f"Player {slot + 1}" if per == "player" else str(game.rows[slot]["name"])
        shown.append(f"{holder}: {said(value)}")
    return shown


def seat_list(value: str) -> list[str]:
    """The ``--players`` list: each seat's agent, checked; ``human`` for a person."""
    from decklore.runtime.agents import check_agent

    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names:
        raise ValueError("name one agent per seat, e.g. human,mcts")
    for name in names:
        if name == "human":
            continue
        problem = check_agent(name)
        if problem is not None:
            raise ValueError(problem)
    return names
