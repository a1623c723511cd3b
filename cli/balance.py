"""Balance work: streaming simulation results, reports a designer reads, and comparisons.

``simulate`` (in ``decklore.play``) plays the games; the helpers here stream them through a
results file and a tally, on the local or the Ray backend, and render reports. ``report``
rebuilds a report from a results file; ``balance`` plays two packs on the same seeds and
says which figures changed beyond noise.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from decklore import EXIT_INVALID, _guard

if TYPE_CHECKING:
    from decklore.runtime.results import GameRecord, RunHeader
    from decklore.runtime.tables import Tables
    from decklore.runtime.tally import Tally

BACKENDS = ("local", "ray")
REPORT_SUFFIXES = (".html", ".pdf")


def stream_games(data: bytes, header: RunHeader, *, jobs: int, backend: str,
                 address: str | None, log_dir: str | None, start: int = 0
                 ) -> Iterator[GameRecord]:
    """The run's games from ``start`` on, in order, from the chosen backend."""
    if backend == "ray":
        from decklore.integrations.ray_backend import iter_games as ray_games

        yield from ray_games(data, header.games, header.seed, header.players, header.agents,
                             decks=header.decks, budget=header.budget, start=start,
                             address=address, rotate=header.rotate)
        return
    from decklore.runtime.simulate import iter_games

    yield from iter_games(data, header.games, header.seed, header.players, header.agents,
                          decks=header.decks, jobs=jobs, budget=header.budget,
                          log_dir=log_dir, start=start, rotate=header.rotate)


def run(tables: Tables, data: bytes, header: RunHeader, *, jobs: int = 1,
        backend: str = "local", address: str | None = None, log_dir: str | None = None,
        results: Path | None = None, resume: bool = False,
        advance: Callable[[int], None] | None = None) -> Tally:
    """Play the run (or its rest, with ``resume``), writing each game to ``results``."""
    from decklore.runtime.results import ResultsError, ResultsWriter, read_results
    from decklore.runtime.tally import Tally

    tally = Tally(header.players)
    if backend == "ray" and log_dir is not None:
        raise click.BadParameter("game logs are written by the local backend only",
                                 param_hint="--logs")
    try:
        writer = ResultsWriter(results, header, resume=resume) if results else None
        if writer is not None and writer.done:
            _, done = read_results(results)  # type: ignore[arg-type]
            for record, _ in zip(done, range(writer.done), strict=False):
                tally.add(record)
            if advance:
                advance(writer.done)
    except ResultsError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    start = writer.done if writer else 0
    try:
        for record in stream_games(data, header, jobs=jobs, backend=backend, address=address,
                                   log_dir=log_dir, start=start):
            tally.add(record)
            if writer is not None:
                writer.write(record)
            if advance:
                advance(1)
    except ImportError as exc:  # pragma: no cover - the extra is part of the test install
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    finally:
        if writer is not None:
            writer.close()
    return tally


def header_for(tables: Tables, games: int, seed: int, players: int, agents: Sequence[str],
               decks: Sequence[str] | None, budget: int, rotate: bool = False) -> RunHeader:
    from decklore.runtime.results import RunHeader
    from decklore.runtime.simulate import seat_agents

    return RunHeader(pack=tables.pack["id"], content_hash=tables.content_hash, seed=seed,
                     players=players, agents=seat_agents(agents, players),
                     decks=list(decks) if decks else None, budget=budget, games=games,
                     rotate=rotate)


def pack_view(tables: Tables) -> dict[str, Any]:
    """What a report says of the pack: its name, version and whether it declares bands."""
    balance = tables.raw.get("balance") or {}
    return {"id": tables.pack["id"], "name": tables.pack["name"],
            "version": tables.pack["version"], "has_bands": bool(balance.get("bands")),
            "decks": {d["id"]: d.get("name") or d["id"] for d in tables.decks}}


def figures_of(tables: Tables, tally: Tally) -> dict[str, Any]:
    balance = tables.raw.get("balance") or {}
    names = {c["id"]: c["name"] for c in tables.cards}
    return tally.figures(balance.get("bands"), names)


def check_report_path(path: Path | None) -> None:
    if path is not None and path.suffix not in REPORT_SUFFIXES:
        raise click.BadParameter(f"a report is {' or '.join(REPORT_SUFFIXES)}, not "
                                 f"'{path.suffix or path.name}'", param_hint="--report")


def write_report(path: Path, html: str) -> None:
    """The report as HTML, or as PDF when the name ends in .pdf; written whole or not at all."""
    from decklore.compiler import write_atomic

    if path.suffix == ".pdf":
        from decklore.compiler.printing import PdfError, html_to_pdf

        try:
            data = html_to_pdf(html)
        except PdfError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_INVALID)
    else:
        data = html.encode("utf-8")
    try:
        write_atomic(path, data)
    except OSError as exc:
        click.echo(f"error: can't write {path}: {exc.strerror or exc}", err=True)
        sys.exit(EXIT_INVALID)
    click.echo(f"wrote {path}", err=True)


def render_report_or_exit(figures: dict[str, Any], run_view: dict[str, Any],
                          pack: dict[str, Any]) -> str:
    from decklore.compiler.printing import ReportError, render_report

    try:
        return render_report(figures, run_view, pack)
    except ReportError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)


# --- report ---------------------------------------------------------------------------------

@click.command()
@click.argument("results", type=click.Path(dir_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="The report (.html or .pdf; default: beside RESULTS).")
@click.option("--pack", default=None,
              help="The pack the games were played with (default: the bundled pack of the "
                   "results' id).")
@_guard
def report(results: Path, output: Path | None, pack: str | None) -> None:
    """Build a balance report from a results file written by simulate --results."""
    from decklore.play import _tables
    from decklore.runtime.results import ResultsError, read_results
    from decklore.runtime.tally import Tally

    output = output or results.with_suffix(".html")
    check_report_path(output)
    try:
        header, games = read_results(results)
        tables, _ = _tables(pack or header.pack)
        tally = Tally(header.players)
        for record in games:
            tally.add(record)
    except ResultsError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    if tables.content_hash != header.content_hash:
        click.echo(f"warning: {tables.pack['id']} has changed since these games were played; "
                   "card names are today's", err=True)
    run_view = {"agents": header.agents, "seed": header.seed, "decks": header.decks,
                "rotate": header.rotate}
    html = render_report_or_exit(figures_of(tables, tally), run_view, pack_view(tables))
    write_report(output, html)


# --- balance --------------------------------------------------------------------------------

@click.command()
@click.argument("before")
@click.argument("after")
@click.option("-n", "games", type=click.IntRange(1, 10_000_000), default=200, show_default=True,
              help="Games of each pack.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of both runs.")
@click.option("--players", type=int, default=None,
              help="Players per game (default: the smallest count both packs take).")
@click.option("--agents", default="random", show_default=True,
              help="Agents by seat, comma-separated, the same in both runs.")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; results are the same for any number.")
@click.option("--budget", type=click.IntRange(1000), default=None, help="Step budget per game.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write the comparison as a page (.html or .pdf).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@_guard
def balance(before: str, after: str, games: int, seed: int, players: int | None, agents: str,
            jobs: int, budget: int | None, report_path: Path | None, fmt: str) -> None:
    """Play BEFORE and AFTER (two packs, or a pack and its mod) on the same seeds and agents,
    and report which figures changed beyond noise."""
    from decklore.play import _tables, agent_names
    from decklore.runtime.game import DEFAULT_BUDGET
    from decklore.runtime.simulate import seat_agents
    from decklore.runtime.tally import compare

    check_report_path(report_path)
    names = agent_names(agents)
    packs = [_tables(before), _tables(after)]
    lows = [t.pack["players"]["min"] for t, _ in packs]
    highs = [t.pack["players"]["max"] for t, _ in packs]
    count = players or max(lows)
    if not max(lows) <= count <= min(highs):
        raise click.BadParameter(f"both packs take {max(lows)} to {min(highs)} players",
                                 param_hint="--players")
    figures = []
    for tables, data in packs:
        header = header_for(tables, games, seed, count, names, None, budget or DEFAULT_BUDGET)
        tally = run(tables, data, header, jobs=jobs)
        figures.append(figures_of(tables, tally))
    views = [pack_view(t) for t, _ in packs]
    rows = compare(figures[0], figures[1], deck_names={**views[0]["decks"], **views[1]["decks"]})
    run_view = {"games": games, "seed": seed,
                "agents": seat_agents(names, count)}
    if fmt == "json":
        click.echo(json.dumps({"before": views[0], "after": views[1], "run": run_view,
                               "rows": rows}, indent=2))
    else:
        _print_rows(rows, views[0], views[1], run_view)
    if report_path is not None:
        from decklore.compiler.printing import render_comparison

        write_report(report_path, render_comparison(rows, views[0], views[1], run_view))


def _print_rows(rows: Sequence[dict[str, Any]], a: dict[str, Any], b: dict[str, Any],
                run_view: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{a['name']}[/bold] → [bold]{b['name']}[/bold]: {run_view['games']} "
                  f"games each, agents {', '.join(run_view['agents'])}, seed {run_view['seed']}")
    table = Table(title_justify="left")
    for column in ("figure", "before", "after", "change (95% interval)"):
        table.add_column(column)
    changed = 0
    for r in rows:
        c = r["change"]
        changed += c["significant"]
        mark = " [bold red]changed[/bold red]" if c["significant"] else ""
        table.add_row(r["figure"], f"{r['before']['rate'] * 100:.1f}%",
                      f"{r['after']['rate'] * 100:.1f}%",
                      f"{c['delta'] * 100:+.1f} ({c['ci95'][0] * 100:+.1f} to "
                      f"{c['ci95'][1] * 100:+.1f}){mark}")
    console.print(table)
    console.print(f"{changed} of {len(rows)} figures changed beyond noise")


def register(group: click.Group) -> None:
    for command in (report, balance):
        group.add_command(command)
