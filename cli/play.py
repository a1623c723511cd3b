"""The commands that run games: ``play``, ``simulate``, ``replay`` and ``test``.

They sit apart from the compiling and printing commands in ``decklore/__init__.py`` and
are added to the same ``decklore`` group by :func:`register`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from decklore import EXIT_INVALID, EXIT_OK, _compile, _guard

if TYPE_CHECKING:
    from decklore.runtime.engine import Game
    from decklore.runtime.tables import Tables


@click.command(name="test")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
@_guard
def test_command(paths: tuple[Path, ...], quiet: bool) -> None:
    """Run the scenario files under PATHS and report every failed check."""
    from decklore.compiler.diagnostics import PackError, SourceCache, render_all
    from decklore.compiler.scenarios import compiled_tables, find_scenarios, run_file

    files = find_scenarios(paths)
    if not files:
        click.echo("no scenario files (*.yaml) found", err=True)
        sys.exit(EXIT_INVALID)
    cache: dict[Path, Tables] = {}

    def tables_for(pack: Path) -> Tables:
        key = pack.resolve()
        if key not in cache:
            cache[key] = compiled_tables(pack)
        return cache[key]

    passed = failed = broken = 0
    sources = SourceCache()
    for path in files:
        shown = path.as_posix()
        try:
            outcome = run_file(path, shown, tables_for)
        except PackError as exc:
            broken += 1
            click.echo(render_all(exc.diagnostics, sources), err=True)
            continue
        if outcome.passed:
            passed += 1
            if not quiet:
                click.echo(f"ok    {shown}  {outcome.name}")
            continue
        failed += 1
        click.echo(f"FAIL  {shown}  {outcome.name}")
        for span, message in outcome.failures:
            click.echo(f"  {span}: {message}")
    summary = f"{passed} passed, {failed} failed"
    if broken:
        summary += f", {broken} could not run"
    click.echo(summary)
    sys.exit(EXIT_OK if not failed and not broken else EXIT_INVALID)


# --- shared helpers -----------------------------------------------------------------------

def _tables(pack: str) -> tuple[Tables, bytes]:
    from decklore.runtime.tables import loads_tables

    result = _compile(pack, "text", True, False)
    if result is None:
        sys.exit(EXIT_INVALID)
    tables = loads_tables(result.data)
    if not tables.raw.get("rules"):
        click.echo(f"error: pack {tables.pack['id']} has no rules to play (add rules files "
                   "to pack.yaml)", err=True)
        sys.exit(EXIT_INVALID)
    return tables, result.data


def _decks(tables: Tables, value: str | None, players: int) -> list[str] | None:
    """The decks named on the command line, by full id or by the part after the pack."""
    if not value:
        return None
    from decklore.runtime.state import automated_seats, decks_named

    known = [d["id"] for d in tables.decks]
    decks = []
    for name in (d.strip() for d in value.split(",")):
        matches = decks_named(tables, name)
        if len(matches) != 1:
            problem = "no deck" if not matches else "several decks match"
            raise click.BadParameter(f"{problem} '{name}'; decks: {', '.join(known)}",
                                     param_hint="--decks")
        decks.append(matches[0])
    seats = players + automated_seats(tables, players)
    if len(decks) != seats:
        raise click.BadParameter(f"give {seats} decks, one per seat (got {len(decks)})",
                                 param_hint="--decks")
    return decks


# --- play ------------------------------------------------------------------------------------

@click.command()
@click.argument("pack")
@click.option("--players", "seats", default="human,random", show_default=True,
              help="One agent per seat: human, random or greedy, comma-separated.")
@click.option("--seed", type=int, default=1, show_default=True, help="The game's seed.")
@click.option("--decks", default=None, help="Each seat's deck, comma-separated "
              "(ERA: two of ancient, medieval, industrial, atomic).")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the game here when you quit (type 's' at a prompt to save now).")
@click.option("--load", "load", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Resume a saved game.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the game's event log (JSON lines) here, for decklore replay.")
@_guard
def play(pack: str, seats: str, seed: int, decks: str | None, save: Path | None,
         load: Path | None, log_path: Path | None) -> None:
    """Play a game of PACK in the terminal, against agents or other people."""
    from rich.console import Console

    from decklore.runtime.agents import make_agent
    from decklore.runtime.engine import Game, StepBudgetExceeded
    from decklore.runtime.expressions import RulesError
    from decklore.runtime.state import StateError

    tables, _ = _tables(pack)
    names = [s.strip() for s in seats.split(",") if s.strip()]
    console = Console()
    try:
        if load is not None:
            game = Game.from_json(tables, load.read_text(encoding="utf-8"))
        else:
            game = Game.new(tables, len(names), seed, _decks(tables, decks, len(names)))
    except (StateError, RulesError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    automated = list(game.state.info.get("automated", []))
    if len(names) != game.state.players - len(automated):
        raise click.BadParameter(f"the saved game has {game.state.players - len(automated)} "
                                 "players; give one agent for each", param_hint="--players")
    agents: list[Any] = []
    for i, name in enumerate(names):
        if name == "human":
            agents.append(None)
            continue
        try:
            agents.append(make_agent(name, seed + 1 + i, tables.raw))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--players") from None
    agents += [None] * len(automated)  # never asked: the rules play these seats
    shown = {i: len(game.state.log) for i in range(len(names))}
    try:
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            agent = agents[player]
            if agent is not None:
                game.apply(agent.choose(game))
                continue
            _show(console, game, player, shown[player])
            shown[player] = len(game.state.log)
            choice = _ask(console, game, save)
            if choice is None:
                break
            game.apply(choice)
    except StepBudgetExceeded as exc:
        console.print(f"the game ran out of steps: {exc}")
    except RulesError as exc:
        click.echo(f"rules error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    finally:
        if save is not None:
            from decklore.compiler.emit import write_atomic

            write_atomic(save, game.to_json().encode("utf-8"))
            console.print(f"saved to {save}")
        if log_path is not None:
            from decklore.runtime.simulate import write_log

            write_log(game, log_path)
    if game.terminal:
        viewer = next((i for i, a in enumerate(agents) if a is None), None)
        _show(console, game, viewer, shown.get(viewer or 0, 0))


def _show(console: Any, game: Game, viewer: int | None, since: int) -> None:
    from rich.panel import Panel
    from rich.table import Table

    from decklore.runtime.describe import event_text

    lines = [t for e in game.state.log[since:] if (t := event_text(game, e, viewer))]
    if lines:
        console.print("\n".join(lines[-40:]), style="dim")
    obs = game.observation(viewer)
    phases = {flow.name: flow.label for flow in game.program.flows}
    phase = phases.get(obs["phase"] or "", obs["phase"] or "")
    table = Table(title=f"Turn {obs['turn']} · {phase} · you are Player {(viewer or 0) + 1}",
                  show_lines=False)
    table.add_column("")
    automated = game.state.info.get("automated", [])
    for p in obs["players"]:
        note = (" (you)" if p["seat"] - 1 == viewer
                else " (automated)" if p["seat"] - 1 in automated else "")
        table.add_column(f"Player {p['seat']}{note}")
    symbols = {s["id"]: s["name"] for s in game.program.tables.raw["symbols"]}
    shown_symbols = [sid for sid in symbols if any(sid in p["symbols"] for p in obs["players"])]
    for sid in shown_symbols:
        table.add_row(f"{symbols[sid]} symbols",
                      *[str(p["symbols"].get(sid, 0)) for p in obs["players"]])
    counters = obs["players"][0]["counters"]
    for name in counters:  # a counter at 0 for everyone says nothing
        values = [p["counters"][name] for p in obs["players"]]
        if any(values):
            label = game.program.counters[name]["label"]
            table.add_row(label, *[str(v) for v in values])
    shared = []
    for name, spec in game.program.zones.items():
        if spec["per"] != "player":
            cards = game.zone_cards(name, None)
            if cards:
                shared.append((spec["label"], _cards_text(game, cards, viewer)))
            continue
        cells = [_cards_text(game, game.zone_cards(name, seat), viewer)
                 for seat in range(game.state.players)]
        if any(cells):  # an empty zone of every player is left out
            table.add_row(spec["label"], *[cell or "—" for cell in cells])
    console.print(table)
    if shared:
        console.print("  ·  ".join(f"[b]{label}[/b]: {text}" for label, text in shared))
    if game.terminal:
        result = obs["result"] or {}
        winners = ", ".join(f"Player {w + 1}" for w in result.get("winners", [])) or "Nobody"
        console.print(Panel(f"{winners} won: {result.get('reason', '')}", title="Game over"))


def _cards_text(game: Game, cards: list[int], viewer: int | None) -> str:
    """A zone's cards as the viewer may see them: names, stacks, what lies under, face down."""
    from decklore.runtime.describe import visible

    seen = []
    for c in cards:
        if not visible(game, c, viewer) or game.state.cards[c].get("base") is not None:
            continue
        text = str(game.rows[c]["name"])
        above = game.state.cards[c].get("above")
        if above:  # a stack: "Hamlet ×3" when all alike, else top first ("Farm on Field")
            names = [str(game.rows[u]["name"]) for u in reversed(above)]
            text = (f"{text} ×{len(above) + 1}" if all(n == text for n in names)
                    else " on ".join([*names, text]))
        under = game.state.cards[c].get("under") or []
        if under:  # kept cards: their names only for whoever may see them
            names = [str(game.rows[u]["name"]) for u in under
                     if visible(game, u, viewer)]
            text += f" [{', '.join(names)}" if names else " ["
            rest = len(under) - len(names)
            text += (", " if names and rest else "") + (
                f"{rest} face down" if rest else "") + "]"
        seen.append(text)
    hidden = sum(1 for c in cards if not visible(game, c, viewer))
    text = ", ".join(seen[:12]) + (f" …+{len(seen) - 12}" if len(seen) > 12 else "")
    if hidden:
        text += (", " if text else "") + f"{hidden} face down"
    return text


def _ask(console: Any, game: Game, save: Path | None) -> int | None:
    actions = game.legal_actions()
    pending = game.state.pending or {}
    console.print(f"[bold]{pending.get('label') or 'Choose'}[/bold]")
    for action in actions:
        console.print(f"  [cyan]{action.index}[/cyan]  {action.description}")
    while True:
        answer = click.prompt("your choice (number, s to save, q to quit)", default="",
                              show_default=False).strip().lower()
        if answer == "q":
            return None
        if answer == "s":
            if save is None:
                console.print("start with --save FILE to save")
            else:
                from decklore.compiler.emit import write_atomic

                write_atomic(save, game.to_json().encode("utf-8"))
                console.print(f"saved to {save}")
            continue
        if answer.isdigit() and int(answer) < len(actions):
            return int(answer)
        console.print(f"type a number from 0 to {len(actions) - 1}")


# --- simulate --------------------------------------------------------------------------------

@click.command()
@click.argument("pack")
@click.option("-n", "games", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the whole run.")
@click.option("--players", type=int, default=None,
              help="Players per game (default: the pack's smallest count).")
@click.option("--agents", default="random", show_default=True,
              help="Agents by seat, comma-separated (random, greedy), repeated round the table.")
@click.option("--decks", default=None, help="Fix each seat's deck (default: dealt per game).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; results are the same for any number.")
@click.option("--budget", type=click.IntRange(1000), default=None,
              help="Step budget per game.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--logs", "log_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write each game's log here (game-00000.log, ...) for decklore replay.")
@click.option("--results", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Stream every game to this file as a JSON line, as it finishes.")
@click.option("--resume", is_flag=True,
              help="Carry on the run in --results where it stopped.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Write a balance report (.html or .pdf).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="Where games run: worker processes here, or Ray.")
@click.option("--address", default=None,
              help="The Ray cluster to join (default: RAY_ADDRESS, or a local instance).")
@_guard
def simulate(pack: str, games: int, seed: int, players: int | None, agents: str,
             decks: str | None, jobs: int, budget: int | None, as_json: bool,
             log_dir: Path | None, results: Path | None, resume: bool,
             report_path: Path | None, backend: str, address: str | None) -> None:
    """Play many seeded games of PACK with agents and summarise who wins and how."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from decklore import balance
    from decklore.runtime.agents import AGENT_NAMES
    from decklore.runtime.engine import DEFAULT_BUDGET

    if resume and results is None:
        raise click.BadParameter("--resume carries on a --results file; name it",
                                 param_hint="--resume")
    balance.check_report_path(report_path)

    tables, data = _tables(pack)
    low, high = tables.pack["players"]["min"], tables.pack["players"]["max"]
    count = players or low
    if not low <= count <= high:
        raise click.BadParameter(f"{tables.pack['name']} takes {low} to {high} players",
                                 param_hint="--players")
    names = [a.strip() for a in agents.split(",") if a.strip()]
    for name in names:
        if name not in AGENT_NAMES:
            raise click.BadParameter(f"no agent '{name}'; agents: {', '.join(AGENT_NAMES)}",
                                     param_hint="--agents")
    chosen = _decks(tables, decks, count)
    console = Console(stderr=True)
    show = not as_json and console.is_terminal
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                  disable=not show) as bar:
        task = bar.add_task("playing", total=games)
        header = balance.header_for(tables, games, seed, count, names, chosen,
                                    budget or DEFAULT_BUDGET)
        tally = balance.run(tables, data, header, jobs=jobs, backend=backend,
                            address=address,
                            log_dir=str(log_dir) if log_dir is not None else None,
                            results=results, resume=resume,
                            advance=lambda k: bar.advance(task, k))
    summary = tally.summary()
    if report_path is not None:
        run_view = {"agents": header.agents, "seed": seed, "decks": header.decks}
        html = balance.render_report_or_exit(balance.figures_of(tables, tally), run_view,
                                             balance.pack_view(tables))
        balance.write_report(report_path, html)
    summary["pack"] = tables.pack["id"]
    summary["agents"] = [names[i % len(names)] for i in range(count)]
    summary["seed"] = seed
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    _print_summary(summary)


def _pct(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return (f"{entry['wins']:>6} / {entry['games']:<6} {entry['rate'] * 100:5.1f}%  "
            f"(95% CI {low * 100:4.1f}–{high * 100:4.1f}%)")


def _print_summary(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{s['pack']}[/bold]: {s['games']} games, {s['players']} players, "
                  f"agents {', '.join(s['agents'])}, seed {s['seed']}")
    for title, key, label in (("Wins by seat", "wins_by_seat", "Player "),
                              ("Wins by deck", "wins_by_deck", ""),
                              ("Wins by agent", "wins_by_agent", "")):
        table = Table(title=title, title_justify="left")
        table.add_column("")
        table.add_column("wins / games, rate (95% interval)")
        for name, entry in s[key].items():
            table.add_row(f"{label}{name}", _pct(entry))
        console.print(table)
    console.print(f"average turns {s['average_turns']} (from {s['turns_range'][0]} to "
                  f"{s['turns_range'][1]}), average decisions {s['average_decisions']}")
    console.print("how games ended: " + ", ".join(f"{k} {v}" for k, v in s["reasons"].items()))
    console.print(f"games that hit the step budget: {s['step_budget_hit']}; "
                  f"without a winner: {s['no_winner']}")
    for error in s["rules_errors"]:
        console.print(f"[red]rules error[/red] {error}")
    console.print(f"results hash {s['results_hash']}")


# --- replay ----------------------------------------------------------------------------------

@click.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--pack", default=None, help="The pack the game was played with "
              "(default: the bundled pack of the log's id).")
@_guard
def replay(log: Path, pack: str | None) -> None:
    """Re-run a game's log (from play --log) and check it reproduces event for event."""
    from decklore.runtime.engine import Game, StepBudgetExceeded
    from decklore.runtime.expressions import RulesError
    from decklore.runtime.state import StateError

    events = []
    for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            events.append(json.loads(line))
        except ValueError:
            click.echo(f"{log}:{number}: not a log line (JSON expected)", err=True)
            sys.exit(EXIT_INVALID)
    if not events or not isinstance(events[0], list) or events[0][:1] != ["start"]:
        click.echo(f"{log}:1: not a decklore game log (it must begin with a start event)",
                   err=True)
        sys.exit(EXIT_INVALID)
    start = [*events[0], *[None] * 8][:8]  # logs from before the rules hash have 7 fields
    _, pack_id, content_hash, players, seed, decks, budget, played_rules = start
    if not isinstance(pack_id, str) or not isinstance(players, int) or not isinstance(
            seed, int) or not isinstance(decks, list):
        click.echo(f"{log}:1: the start event is damaged", err=True)
        sys.exit(EXIT_INVALID)
    tables, _ = _tables(pack or pack_id)
    if tables.content_hash != content_hash:
        from decklore.runtime.engine import rules_hash

        if played_rules != rules_hash(tables):
            click.echo(f"{log}:1: the game was played with other rules (tables "
                       f"{content_hash[:12]}…, this pack is {tables.content_hash[:12]}…)",
                       err=True)
            sys.exit(EXIT_INVALID)
        renamed = tables.raw.get("renamed") or {}
        decks = [renamed.get(d, d) for d in decks]
        click.echo("the pack changed since this game (its rules did not); replaying with "
                   "this version", err=True)
    choices = [e[2] for e in events if e[0] == "decide"]
    game = None
    try:
        game = Game.new(tables, players, seed, decks, budget=budget or 100_000)
        for choice in choices:
            if game.terminal:
                break
            game.apply(choice)
    except StepBudgetExceeded:
        pass  # the original ran out of steps too, or the comparison below says where not
    except (RulesError, StateError) as exc:
        click.echo(f"the replay stopped: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    if game is None:
        click.echo("the replay could not start", err=True)
        sys.exit(EXIT_INVALID)
    again = game.state.log
    for number, (want, got) in enumerate(zip(events, again, strict=False), start=1):
        if number == 1 and want[:2] == got[:2]:
            continue  # the start event names the tables, which may be a newer version
        if want != got:
            click.echo(f"{log}:{number}: differs: the log has {json.dumps(want)}, the "
                       f"replay gives {json.dumps(got)}", err=True)
            sys.exit(EXIT_INVALID)
    if len(events) != len(again):
        click.echo(f"{log}: the log has {len(events)} events, the replay {len(again)}",
                   err=True)
        sys.exit(EXIT_INVALID)
    click.echo(f"reproduced: {len(events)} events, {len(choices)} decisions, "
               f"log hash {game.log_hash()[:16]}")


def register(group: click.Group) -> None:
    for command in (test_command, play, simulate, replay):
        group.add_command(command)
