"""Agent strength: win rates with 95% intervals, for each pairing of agents, seat-swapped.

For each pack and each pairing (MCTS against random, MCTS against greedy, greedy against
random) it plays ``--games`` games, half with the first agent in seat 1 and half in seat 2
(with more players, the first agent takes one seat, a new one each game, and the second
agent all the others), and prints the first agent's win rate with its Wilson 95% interval,
the draws and unfinished games, and the seconds per decision each agent took: wall clock
(on the machine of the run, as loaded as it was then, and slower still under ``nice``) and
CPU (the agent's own work, which a busy machine changes less). Game ``i`` of a pairing
always gets the same seed, decks and agent seeds, so a run replays exactly for a budget in
iterations, whatever ``--jobs`` is. Era of Kingdoms plays with two players here, so that
one opponent faces the searching agent as in ERA.

A long table can be spread over time in chunks: with ``--out FILE`` every game is appended
to FILE as one JSON line as soon as it ends, games already in FILE are not played again,
and ``--chunk N`` stops each pairing after N new games. Run the same command as often as
there is time, then ``--report FILE`` prints the table of everything recorded (chunks of
the same pairing, pack and seed add up, in one file or several; a game recorded twice
counts once).

The issue's full table (200 games per pairing at the search agent's default budget):

    python benchmarks/strength.py --games 200 --jobs 2

The same, forty new games a pairing at a time, then the table so far:

    nice -n 19 python benchmarks/strength.py --games 200 --chunk 40 --out strength.jsonl
    python benchmarks/strength.py --report strength.jsonl

A sized-down run for a shared machine:

    python benchmarks/strength.py --games 20 --mcts mcts:iters=60
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from decklore.cards import bundled_pack
from decklore.compiler.tools.scenarios import compiled_tables
from decklore.runtime.agents import make_agent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.simulate import deal_decks, game_seed
from decklore.runtime.tables import Tables
from decklore.runtime.tally import wilson

PACKS = ("era", "era-of-kingdoms")

Job = tuple[str, int, str, str, int, int]
"""One game to play: pack, players, first agent, second agent, seed of the run, index."""


@dataclass(frozen=True)
class Outcome:
    """One game of a pairing: whether the first agent won, drew, and the time it took."""

    won: bool
    drawn: bool
    unfinished: bool
    seconds: tuple[float, float]
    decisions: tuple[int, int]
    cpu: tuple[float, float] = (0.0, 0.0)
    rules: str = ""
    """The content hash of the pack's tables the game was played on ("" in games recorded
    before it was kept): a table played over many sittings says when the rules changed."""


_TABLES: dict[str, Tables] = {}


def _tables(pack: str) -> Tables:
    if pack not in _TABLES:
        found = bundled_pack(pack)
        assert found is not None, pack
        _TABLES[pack] = compiled_tables(found)
    return _TABLES[pack]


def seating(players: int, index: int) -> int:
    """The seat of the first agent in game ``index`` of a pairing: it goes round the
    table, one seat a game (with two players, seat 1 on even games, seat 2 on odd ones),
    and the second agent takes every other seat."""
    return index % players


def play(job: Job) -> Outcome:
    """Game ``index`` of a pairing: the first agent in one seat (``seating``), the second
    agent in all the others."""
    pack, players, first, second, base, index = job
    tables = _tables(pack)
    seed = game_seed(base, index)
    mine = seating(players, index)
    names = [first if seat == mine else second for seat in range(players)]
    game = Game.new(tables, players, seed, deal_decks(tables, players, seed) or None)
    agents = [make_agent(name, seed + 1 + i, tables.raw) for i, name in enumerate(names)]
    seconds = [0.0, 0.0]
    cpu = [0.0, 0.0]
    decisions = [0, 0]
    try:
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            start, used = time.perf_counter(), time.process_time()
            choice = agents[player].choose(game)
            side = 0 if player == mine else 1
            seconds[side] += time.perf_counter() - start
            cpu[side] += time.process_time() - used
            decisions[side] += 1
            game.apply(choice)
    except RulesError:
        pass
    result = game.result or {"winners": [], "reason": "step budget"}
    winners = result["winners"]
    return Outcome(mine in winners, not winners and result["reason"] != "step budget",
                   result["reason"] == "step budget", (seconds[0], seconds[1]),
                   (decisions[0], decisions[1]), (cpu[0], cpu[1]), tables.content_hash)


def _played(job: Job) -> tuple[Job, Outcome]:
    return job, play(job)


def record(job: Job, outcome: Outcome) -> str:
    """One game as a line of a results file: what was played, and how it went."""
    pack, players, first, second, base, index = job
    line = {"pack": pack, "players": players, "agent": first, "opponent": second,
            "seed": base, "index": index, "seat": seating(players, index), **asdict(outcome)}
    return json.dumps(line, sort_keys=True)


def read_records(lines: Iterable[str]) -> dict[Job, Outcome]:
    """The games of a results file by what was played; a game recorded twice counts once."""
    found: dict[Job, Outcome] = {}
    for text in lines:
        if not text.strip():
            continue
        line = json.loads(text)
        if line["players"] > 2 and "seat" not in line:
            continue  # played before the agent had one seat among more players: not valid
        job = (line["pack"], line["players"], line["agent"], line["opponent"], line["seed"],
               line["index"])
        found.setdefault(job, Outcome(line["won"], line["drawn"], line["unfinished"],
                                      tuple(line["seconds"]), tuple(line["decisions"]),
                                      tuple(line.get("cpu", (0.0, 0.0))),
                                      str(line.get("rules", ""))))
    return found


def pairing(pack: str, players: int, first: str, second: str, games: int, seed: int,
            jobs: int, *, done: Iterable[Job] = (), chunk: int = 0) -> Iterator[
                tuple[Job, Outcome]]:
    """The games of a pairing not in ``done`` (at most ``chunk`` of them when it is set),
    each as it ends: in order of index with one job, in any order with several."""
    skip = set(done)
    work = [job for job in ((pack, players, first, second, seed, i) for i in range(games))
            if job not in skip]
    if chunk:
        work = work[:chunk]
    if jobs <= 1:
        yield from map(_played, work)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_played, work)


def row(first: str, second: str, seed: int, outcomes: Sequence[Outcome]) -> str:
    n = len(outcomes)
    wins = sum(o.won for o in outcomes)
    low, high = wilson(wins, n)
    draws = sum(o.drawn for o in outcomes)
    unfinished = sum(o.unfinished for o in outcomes)

    def per_decision(side: int, cpu: bool = False) -> str:
        made = sum(o.decisions[side] for o in outcomes)
        spent = sum((o.cpu if cpu else o.seconds)[side] for o in outcomes)
        return f"{spent / made:.3f}" if made and spent else "-"

    rate = wins / n if n else 0.0
    return (f"{first:>24} v {second:<8} {n:>5} {wins:>5} {rate:>6.1%}  "
            f"[{low:.1%}, {high:.1%}]  {draws:>5} {unfinished:>5}   "
            f"{per_decision(0):>7} {per_decision(1):>7}   "
            f"{per_decision(0, True):>7} {per_decision(1, True):>7} {seed:>5}")


def heading(pack: str, players: int, games: str) -> str:
    seats = ("seats swapped every other game" if players == 2 else
             f"the agent in one seat, a new one each game, against {players - 1} opponents "
             f"(chance: {100 / players:.0f}%)")
    return (f"\n{pack}, {players} players, {games} games a pairing, {seats}"
            f"\n{'agent':>24} v {'opponent':<8} {'games':>5} {'wins':>5} "
            f"{'rate':>6}  {'95% interval':<16} {'draws':>5} {'unfin':>5}   "
            "s/dec(a) s/dec(o)  cpu(a)  cpu(o)  seed")


def report(results: dict[Job, Outcome]) -> str:
    """The table of every pairing in a results file, pack by pack, in the order first met."""
    tables: dict[tuple[str, int], dict[tuple[str, str, int], list[Outcome]]] = {}
    for (pack, players, first, second, base, _), outcome in results.items():
        tables.setdefault((pack, players), {}).setdefault((first, second, base),
                                                          []).append(outcome)
    lines: list[str] = []
    for (pack, players), rows in tables.items():
        counts = sorted({len(o) for o in rows.values()})
        lines.append(heading(pack, players, "/".join(map(str, counts))))
        lines += [row(first, second, seed, outcomes)
                  for (first, second, seed), outcomes in rows.items()]
        lines += _versions([o for outcomes in rows.values() for o in outcomes])
    return "\n".join(lines)


def _versions(outcomes: Sequence[Outcome]) -> list[str]:
    """A line under a pack's table when its games were not all played on the same rules."""
    kept = sorted({o.rules for o in outcomes if o.rules})
    unknown = sum(not o.rules for o in outcomes)
    if len(kept) + bool(unknown) <= 1:
        return []
    parts = [f"{len(kept)} versions of the rules" if len(kept) > 1 else "1 version of the rules"]
    if unknown:
        parts.append(f"{unknown} game{'s' if unknown != 1 else ''} from before versions "
                     "were recorded")
    return [f"  played on {', '.join(parts)}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--mcts", default="mcts", help="the search agent with its settings "
                        "(mcts:iters=N:...)")
    parser.add_argument("--iters", type=int, default=None, help="MCTS iterations a decision")
    parser.add_argument("--depth", type=int, default=None, help="MCTS playout length")
    parser.add_argument("--packs", default=",".join(PACKS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--pairings", default="mcts-greedy,mcts-random,greedy-random")
    parser.add_argument("--seed", type=int, default=1, help="seed of the whole run")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="append each game to this JSON-lines file "
                        "and skip the games it already holds")
    parser.add_argument("--chunk", type=int, default=0,
                        help="play at most this many new games a pairing (with --out)")
    parser.add_argument("--report", type=Path, nargs="+", help="print the table of results "
                        "files (the chunks of one or more runs) and play nothing")
    args = parser.parse_args()
    if args.report is not None:
        print(report(read_records(line for path in args.report
                                  for line in path.read_text(encoding="utf-8").splitlines())))
        return
    mcts = args.mcts + (f":iters={args.iters}" if args.iters else "") + (
        f":depth={args.depth}" if args.depth else "")
    names = {"mcts": mcts, "greedy": "greedy", "random": "random"}
    pairs = [(names[a], names[b]) for a, b in
             (pair.split("-") for pair in args.pairings.split(","))]
    done: dict[Job, Outcome] = {}
    if args.out is not None and args.out.exists():
        done = read_records(args.out.read_text(encoding="utf-8").splitlines())
    for pack in args.packs.split(","):
        print(heading(pack, args.players, str(args.games)))
        for first, second in pairs:
            start = time.perf_counter()
            outcomes = [o for (p, n, a, b, s, _), o in done.items()
                        if (p, n, a, b, s) == (pack, args.players, first, second, args.seed)]
            for job, outcome in pairing(pack, args.players, first, second, args.games,
                                        args.seed, args.jobs, done=done, chunk=args.chunk):
                outcomes.append(outcome)
                if args.out is not None:
                    with args.out.open("a", encoding="utf-8") as out:
                        out.write(record(job, outcome) + "\n")
            print(row(first, second, args.seed, outcomes),
                  f"  ({time.perf_counter() - start:.0f} s)",
                  flush=True)


if __name__ == "__main__":
    main()
