"""Simulation results as JSON lines on disk: one header, then one line per game, in order.

A run of a million games must not live in memory, and a run stopped halfway must be able to
go on where it stopped. So every game is written as soon as it is played, as one line, and
the file is read back one line at a time. The first line is the run's header (pack, content
hash, seed, players, agents, decks, budget, games): ``--resume`` carries on only a file whose
header matches the new run exactly, and drops a last line cut short by a killed run.

The file is untrusted input when read back (``decklore report``): every line is checked
before use and a bad one is reported with its line number.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import IO, Any

RESULTS_FORMAT = 1
MAX_LINE_BYTES = 1 << 20


class ResultsError(ValueError):
    """A results file that can't be read or resumed: the message says where and why."""


@dataclass(frozen=True)
class RunHeader:
    """What a run plays: equal headers mean the same games, game for game."""

    pack: str
    content_hash: str
    seed: int
    players: int
    agents: list[str]
    decks: list[str] | None
    budget: int
    games: int
    format: int = RESULTS_FORMAT
    rotate: bool = False
    """Whether the agents move one seat on each game (``simulate --rotate-seats``)."""

    def to_json(self) -> dict[str, Any]:
        body = asdict(self)
        if not self.rotate:  # files of runs without it read as before
            del body["rotate"]
        return {"header": body}

    def same_games(self, other: RunHeader) -> bool:
        """Whether ``other`` plays the same games (it may ask for more or fewer of them)."""
        this, that = asdict(self), asdict(other)
        this.pop("games")
        that.pop("games")
        return this == that


@dataclass(frozen=True)
class GameRecord:
    """How one game went; ``plays`` lists [card id, seat, times, first turn] per card played."""

    index: int
    seed: int
    decks: list[str]
    agents: list[str]
    winners: list[int]
    reason: str
    turns: int
    decisions: int
    steps: int
    budget_hit: bool = False
    error: str | None = None
    log_hash: str = ""
    plays: list[list[Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_RECORD_TYPES: dict[str, tuple[type, ...]] = {
    "index": (int,), "seed": (int,), "decks": (list,), "agents": (list,), "winners": (list,),
    "reason": (str,), "turns": (int,), "decisions": (int,), "steps": (int,),
    "budget_hit": (bool,), "error": (str, type(None)), "log_hash": (str,), "plays": (list,),
}


def _record(row: Any, where: str) -> GameRecord:
    if not isinstance(row, dict) or set(row) != {f.name for f in fields(GameRecord)}:
        raise ResultsError(f"{where}: not a game record (expected the keys "
                           f"{', '.join(sorted(_RECORD_TYPES))})")
    for key, types in _RECORD_TYPES.items():
        value = row[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ResultsError(f"{where}: '{key}' has the wrong type")
    if not all(isinstance(s, str) for s in row["decks"] + row["agents"]) or \
            not all(type(w) is int and 0 <= w < len(row["agents"]) for w in row["winners"]):
        raise ResultsError(f"{where}: decks, agents or winners are not valid")
    for play in row["plays"]:
        if not (isinstance(play, list) and len(play) == 4 and isinstance(play[0], str)
                and all(type(x) is int for x in play[1:])
                and 0 <= play[1] < len(row["agents"]) and play[2] >= 1):
            raise ResultsError(f"{where}: a play must be [card id, seat, times, first turn]")
    return GameRecord(**row)


def _header(row: Any, where: str) -> RunHeader:
    body = row.get("header") if isinstance(row, dict) and set(row) == {"header"} else None
    names = {f.name for f in fields(RunHeader)}
    if not isinstance(body, dict) or set(body) not in (names, names - {"rotate"}):
        raise ResultsError(f"{where}: not a decklore results file (its first line must be "
                           "the run's header)")
    if body["format"] != RESULTS_FORMAT:
        raise ResultsError(f"{where}: results format {body['format']!r}; this decklore "
                           f"reads format {RESULTS_FORMAT}")
    ok = (isinstance(body["pack"], str) and isinstance(body["content_hash"], str)
          and all(type(body[k]) is int for k in ("seed", "players", "budget", "games"))
          and isinstance(body["agents"], list)
          and all(isinstance(a, str) for a in body["agents"])
          and type(body.get("rotate", False)) is bool
          and (body["decks"] is None or (isinstance(body["decks"], list)
                                         and all(isinstance(d, str) for d in body["decks"]))))
    if not ok:
        raise ResultsError(f"{where}: the header's values have the wrong types")
    return RunHeader(**body)


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, ended with a newline) for each line, one at a time."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ResultsError(f"{path}: can't read it ({exc.strerror or exc})") from None
    with handle:
        number = 0
        while True:
            line = handle.readline(MAX_LINE_BYTES + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE_BYTES:
                raise ResultsError(f"{path}:{number}: line longer than {MAX_LINE_BYTES:,} "
                                   "bytes")
            yield number, line, line.endswith(b"\n")


def _parse(path: Path, number: int, line: bytes) -> Any:
    try:
        return json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ResultsError(f"{path}:{number}: not a JSON line") from None


def read_results(path: Path) -> tuple[RunHeader, Iterator[GameRecord]]:
    """The header of a results file and an iterator over its games, checked line by line.

    A last line without its newline is a game a killed run did not finish writing: it is
    skipped, as ``--resume`` would.
    """
    lines = _lines(path)
    first = next(lines, None)
    if first is None:
        raise ResultsError(f"{path}: the file is empty")
    header = _header(_parse(path, first[0], first[1]), f"{path}:1")

    def games() -> Iterator[GameRecord]:
        for expected, (number, line, whole) in enumerate(lines):
            if not whole:
                return
            record = _record(_parse(path, number, line), f"{path}:{number}")
            if record.index != expected:
                raise ResultsError(f"{path}:{number}: game {record.index} where game "
                                   f"{expected} was expected (the games are in order)")
            yield record

    return header, games()


class ResultsWriter:
    """Appends games to a results file as they finish; ``done`` games are already there."""

    def __init__(self, path: Path, header: RunHeader, *, resume: bool) -> None:
        self.path = path
        self.done = 0
        handle: IO[bytes]
        if resume and path.exists():
            self.done, keep = self._resumable(header)
            handle = path.open("r+b")
            handle.truncate(keep)
            handle.seek(keep)
        else:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                handle = path.open("wb")
            except OSError as exc:
                raise ResultsError(f"{path}: can't write it ({exc.strerror or exc})") from None
            handle.write(_line(header.to_json()))
        self._handle = handle

    def _resumable(self, header: RunHeader) -> tuple[int, int]:
        """How many games the file holds and the byte length that keeps just those."""
        old, games = read_results(self.path)
        if not old.same_games(header):
            raise ResultsError(f"{self.path}: it holds another run (pack, seed, players, "
                               "agents, decks or budget differ); give a new file, or drop "
                               "--resume to start over")
        done = sum(1 for _ in games)  # every whole line checked; a cut-off last one skipped
        return done, _whole_lines_length(self.path)

    def write(self, record: GameRecord) -> None:
        self._handle.write(_line(record.to_json()))
        self._handle.flush()

    def close(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _whole_lines_length(path: Path) -> int:
    """The file's length up to its last newline: what is left once a line a killed run cut
    short is dropped (only the file's tail is read)."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - MAX_LINE_BYTES - 1))
        tail = handle.read()
    return size - len(tail) + tail.rfind(b"\n") + 1


def _line(row: dict[str, Any]) -> bytes:
    return (json.dumps(row, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
            + "\n").encode("utf-8")
