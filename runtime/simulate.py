"""Many games at once: seeded, optionally in parallel, summarised with confidence intervals.

Game ``i`` of a run with seed ``s`` always gets the same seed, decks and agents, whichever
worker plays it, so ``--jobs 2`` gives exactly the results of ``--jobs 1`` (a test checks
this).  Workers receive the tables as bytes and rebuild the program once each.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from decklore.runtime.agents import make_agent
from decklore.runtime.engine import DEFAULT_BUDGET, Game, StepBudgetExceeded
from decklore.runtime.expressions import RulesError
from decklore.runtime.rng import Rng
from decklore.runtime.state import automated_seats, playable_decks
from decklore.runtime.tables import Tables, loads_tables


@dataclass(frozen=True)
class GameRecord:
    """How one game went."""

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


def game_seed(base: int, index: int) -> int:
    """The seed of game ``index`` in a run seeded ``base``: independent of the job split."""
    digest = hashlib.sha256(f"decklore:{base}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


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
    names = [agents[i % len(agents)] for i in range(players)] + ["rules"] * extra
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
            error: str | None = None) -> GameRecord:
    info = game.state.info if game is not None else {"turn": 0, "decisions": 0, "steps": 0}
    return GameRecord(index, seed, decks, agents, winners or [], reason, info["turn"],
                      info["decisions"], info["steps"], budget_hit, error,
                      game.log_hash() if game is not None else "")


# --- many games -----------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(data: bytes) -> None:
    _WORKER["tables"] = loads_tables(data, verify=False)


def _play_job(job: tuple[int, int, int, list[str], list[str] | None, int, str | None]
              ) -> GameRecord:
    index, base, players, agents, decks, budget, log_dir = job
    return play_game(_WORKER["tables"], players, game_seed(base, index), agents, index=index,
                     decks=decks, budget=budget, log_dir=log_dir)


def simulate(data: bytes, n: int, seed: int, players: int, agents: Sequence[str], *,
             decks: Sequence[str] | None = None, jobs: int = 1,
             budget: int = DEFAULT_BUDGET, log_dir: str | None = None,
             advance: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Play ``n`` games from the tables in ``data``; records come back in game order."""
    jobs_list = [(i, seed, players, list(agents), list(decks) if decks else None, budget,
                  log_dir) for i in range(n)]
    records: list[GameRecord] = []
    if jobs <= 1:
        _init_worker(data)
        for job in jobs_list:
            records.append(_play_job(job))
            if advance:
                advance(1)
        return records
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Pool(jobs, initializer=_init_worker, initargs=(data,)) as pool:
        for record in pool.imap_unordered(_play_job, jobs_list, chunksize=max(1, n // (jobs * 8))):
            records.append(record)
            if advance:
                advance(1)
    records.sort(key=lambda r: r.index)
    return records


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate: sound even near 0% and 100%."""
    if games == 0:
        return 0.0, 0.0
    p = wins / games
    denominator = 1 + z * z / games
    middle = (p + z * z / (2 * games)) / denominator
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, middle - spread), min(1.0, middle + spread)


def summarize(records: Sequence[GameRecord], players: int) -> dict[str, Any]:
    """Wins by seat, by deck and by agent with 95% intervals, turns, reasons, budget hits.

    Seats the rules play (a solo mode's rival) are counted as seats, with the agent 'rules'.
    Every game without a winner is counted, by its cause (the step budget, a rules error, a
    pack without a score); a game two or more players share counts as a win for each.
    """
    n = len(records)
    players = max([players, *(len(r.agents) for r in records)])
    finished = [r for r in records if not r.budget_hit and r.error is None]

    def rate(wins: int, games: int) -> dict[str, Any]:
        low, high = wilson(wins, games)
        return {"games": games, "wins": wins, "rate": round(wins / games, 4) if games else 0.0,
                "ci95": [round(low, 4), round(high, 4)]}

    seats = [rate(sum(1 for r in records if seat in r.winners), n) for seat in range(players)]
    deck_games: Counter[str] = Counter()
    deck_wins: Counter[str] = Counter()
    agent_games: Counter[str] = Counter()
    agent_wins: Counter[str] = Counter()
    for r in records:
        for seat, deck in enumerate(r.decks):
            deck_games[deck] += 1
            deck_wins[deck] += seat in r.winners
        for seat, agent in enumerate(r.agents):
            agent_games[agent] += 1
            agent_wins[agent] += seat in r.winners
    turns = [r.turns for r in finished]
    return {
        "games": n,
        "players": players,
        "wins_by_seat": {str(seat + 1): s for seat, s in enumerate(seats)},
        "wins_by_deck": {d: rate(deck_wins[d], deck_games[d]) for d in sorted(deck_games)},
        "wins_by_agent": {a: rate(agent_wins[a], agent_games[a]) for a in sorted(agent_games)},
        "no_winner": sum(1 for r in records if not r.winners),
        "no_winner_by_cause": dict(sorted(Counter(r.reason for r in records
                                                  if not r.winners).items(),
                                          key=lambda kv: (-kv[1], kv[0]))),
        "shared_wins": sum(1 for r in records if len(r.winners) > 1),
        "average_turns": round(sum(turns) / len(turns), 2) if turns else 0.0,
        "turns_range": [min(turns), max(turns)] if turns else [0, 0],
        "average_decisions": round(sum(r.decisions for r in records) / n, 1) if n else 0.0,
        "reasons": dict(sorted(Counter(r.reason for r in records).items(),
                               key=lambda kv: (-kv[1], kv[0]))),
        "step_budget_hit": sum(1 for r in records if r.budget_hit),
        "rules_errors": sorted({r.error for r in records if r.error and not r.budget_hit}),
        "first_rules_error": next(({"game": r.index, "seed": r.seed, "error": r.error}
                                   for r in records if r.error and not r.budget_hit), None),
        "results_hash": results_hash(records),
    }


def results_hash(records: Sequence[GameRecord]) -> str:
    """One hash over every game's log: equal for equal runs, whatever the job split."""
    digest = hashlib.sha256()
    for r in records:
        digest.update(json.dumps(asdict(r), sort_keys=True).encode())
    return digest.hexdigest()[:16]

