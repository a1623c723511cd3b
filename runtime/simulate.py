"""Many games at once: seeded, optionally in parallel, summarised with confidence intervals.

Game ``i`` of a run with seed ``s`` always gets the same seed, decks and agents, whichever
worker plays it, so ``--jobs 2`` gives exactly the results of ``--jobs 1`` (a test checks
this).  Workers receive the tables as bytes and rebuild the program once each.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from decklore.runtime.agents import make_agent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import DEFAULT_BUDGET, Game, StepBudgetExceeded
from decklore.runtime.results import GameRecord
from decklore.runtime.rng import Rng
from decklore.runtime.state import automated_seats, playable_decks
from decklore.runtime.tables import Tables, loads_tables
from decklore.runtime.tally import tally


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``base``: independent of the job split."""
    digest = hashlib.sha256(f"decklore:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_agents(agents: Sequence[str], players: int, index: int = 0,
                rotate: bool = False) -> list[str]:
    """The agent of each seat in game ``index``: the list repeated round the table, and with
    ``rotate`` moved ``index`` seats on, so over a run every agent plays every seat equally
    often and a seat's advantage does not pass for an agent's strength."""
    names = [agents[i % len(agents)] for i in range(players)]
    if not rotate:
        return names
    shift = index % players
    return names[players - shift:] + names[:players - shift]


def deal_decks(tables: Tables, players: int, seed: int) -> list[str]:
    """Decks for one game: different ones for each player while there are enough."""
    decks = playable_decks(tables)
    if not decks:
        return []
    rng = Rng(seed, stream=7)
    order = list(decks)
    rng.shuffle(order)
    return [order[i % len(order)] for i in range(players)]


def play_game(tables: Tables, players: int, seed: int, agents: Sequence[str], *,
              index: int = 0, decks: Sequence[str] | None = None,
              budget: int = DEFAULT_BUDGET, log_dir: str | None = None) -> GameRecord:
    """Play one game to its end with the named agents; its log goes into ``log_dir``."""
    extra = automated_seats(tables, players)
    chosen = list(decks) if decks else deal_decks(tables, players + extra, seed)
    names = seat_agents(agents, players) + ["rules"] * extra
    game = None
    try:
        game = Game.new(tables, players, seed, chosen or None, budget=budget)
        seats = [make_agent(name, seed + 1 + i, tables.raw) if name != "rules" else None
                 for i, name in enumerate(names)]
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            agent = seats[player]
            assert agent is not None  # the engine never asks an automated seat
            game.apply(agent.choose(game))
    except StepBudgetExceeded as exc:
        record = _record(index, seed, chosen, names, game, "step budget", budget_hit=True,
                         error=str(exc))
    except RulesError as exc:
        record = _record(index, seed, chosen, names, game, "rules error", error=str(exc))
    else:
        result = game.result or {}
        record = _record(index, seed, chosen, names, game, str(result.get("reason", "")),
                         winners=list(result.get("winners", [])))
    if game is not None:
        record = replace(record, plays=card_plays(game))
    if log_dir is not None and game is not None:
        write_log(game, Path(log_dir) / f"game-{index:05d}.log")
    return record


def write_log(game: Game, path: Path) -> None:
    """The game's events as JSON lines, for ``decklore replay``, written whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.tmp")
    scratch.write_text("".join(json.dumps(event, separators=(",", ":")) + "\n"
                               for event in game.state.log), encoding="utf-8")
    os.replace(scratch, path)


def _record(index: int, seed: int, decks: list[str], agents: list[str], game: Game | None,
            reason: str, *, winners: list[int] | None = None, budget_hit: bool = False,
            error: str | None = None, plays: list[list[Any]] | None = None) -> GameRecord:
    info = game.state.info if game is not None else {"turn": 0, "decisions": 0, "steps": 0}
    return GameRecord(index, seed, decks, agents, winners or [], reason, info["turn"],
                      info["decisions"], info["steps"], budget_hit, error,
                      game.log_hash() if game is not None else "", plays or [])


def played_zones(tables: Tables) -> set[str]:
    """The zones a card enters when its player plays it, for per-card figures.

    The pack names them under ``balance: played:``; without that, every public zone of a
    player counts, entered from a zone that is not public (a hand, a face-down pile).
    """
    declared = (tables.raw.get("balance") or {}).get("played")
    zones = (tables.raw.get("rules") or {}).get("zones", [])
    if declared:
        return set(declared)
    return {z["name"] for z in zones if z["per"] == "player" and z["visibility"] == "public"}


def card_plays(game: Game) -> list[list[Any]]:
    """[card id, seat, times played, first turn] for each card a seat played.

    A play is a move into a played zone from elsewhere, read from the game's event log, so
    it costs nothing while the game runs. Setup moves (before the first turn) are not
    plays. Grouped by card and seat, so a game's record stays small.
    """
    tables = game.program.tables
    into = played_zones(tables)
    cards = game.state.cards
    where: dict[int, str] = {}
    turn = 0
    seen: dict[tuple[str, int], list[Any]] = {}
    for event in game.state.log:
        kind = event[0]
        if kind == "turn":
            turn = event[1]
        elif kind == "move":
            card, player = event[1], event[3]
            zone = event[2].partition("#")[0]  # a space of a zone of spaces: the zone
            before = where.get(card)
            where[card] = zone
            if turn and zone in into and player is not None and before not in into:
                key = (cards[card]["card"], player)
                if key in seen:
                    seen[key][2] += 1
                else:
                    seen[key] = [key[0], player, 1, turn]
    return [seen[key] for key in sorted(seen)]


# --- many games -----------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(data: bytes) -> None:
    _WORKER["tables"] = loads_tables(data, verify=False)


def _play_job(job: tuple[int, int, int, list[str], list[str] | None, int, str | None]
              ) -> GameRecord:
    index, base, players, agents, decks, budget, log_dir = job
    return play_game(_WORKER["tables"], players, game_seed(base, index), agents, index=index,
                     decks=decks, budget=budget, log_dir=log_dir)


def iter_games(data: bytes, n: int, seed: int, players: int, agents: Sequence[str], *,
               decks: Sequence[str] | None = None, jobs: int = 1,
               budget: int = DEFAULT_BUDGET, log_dir: str | None = None,
               start: int = 0, rotate: bool = False) -> Iterator[GameRecord]:
    """Games ``start`` to ``n - 1`` of a run, in game order, as they finish (with
    ``rotate``, the agents move one seat on each game: ``seat_agents``).

    Workers may finish out of order; results are released in order with only the games
    still in flight held back, so memory stays flat however long the run is.
    """
    jobs_list = ((i, seed, players, seat_agents(agents, players, i, rotate),
                  list(decks) if decks else None, budget, log_dir) for i in range(start, n))
    if jobs <= 1:
        _init_worker(data)
        for job in jobs_list:
            yield _play_job(job)
        return
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    chunk = max(1, min(64, (n - start) // (jobs * 8)))
    with context.Pool(jobs, initializer=_init_worker, initargs=(data,)) as pool:
        yield from pool.imap(_play_job, jobs_list, chunksize=chunk)


def simulate(data: bytes, n: int, seed: int, players: int, agents: Sequence[str], *,
             decks: Sequence[str] | None = None, jobs: int = 1,
             budget: int = DEFAULT_BUDGET, log_dir: str | None = None,
             advance: Callable[[int], None] | None = None,
             rotate: bool = False) -> list[GameRecord]:
    """Play ``n`` games from the tables in ``data``; records come back in game order."""
    records: list[GameRecord] = []
    for record in iter_games(data, n, seed, players, agents, decks=decks, jobs=jobs,
                             budget=budget, log_dir=log_dir, rotate=rotate):
        records.append(record)
        if advance:
            advance(1)
    return records


def summarize(records: Iterable[GameRecord], players: int) -> dict[str, Any]:
    """Wins by seat, by deck and by agent with 95% intervals, turns, reasons, budget hits.

    Seats the rules play (a solo mode's rival) are counted as seats, with the agent 'rules'.
    Every game without a winner is counted, by its cause (the step budget, a rules error, a
    pack without a score); a game two or more players share counts as a win for each.
    One pass over the records, so a stream of any length summarises in constant memory.
    """
    return tally(records, players).summary()


def results_hash(records: Iterable[GameRecord]) -> str:
    """One hash over every game's log: equal for equal runs, whatever the job split."""
    digest = hashlib.sha256()
    for r in records:
        digest.update(json.dumps(asdict(r), sort_keys=True).encode())
    return digest.hexdigest()[:16]
