"""The commands that run games: ``play``, ``simulate``, ``replay`` and ``test``.

They sit apart from the compiling and printing commands in ``decklore/__init__.py`` and
are added to the same ``decklore`` group by :func:`register`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from decklore import (
    EXIT_INVALID,
    EXIT_OK,
    _compile,
    _guard,
    _pack_path,
    complete_pack,
    json_option,
)

EXIT_INTERRUPTED = 130  # the shell's convention for a program stopped by Ctrl-C
LOG_LINES = 6  # log lines above the table, so that a common turn fits 80x24
CELL_NAMES = 6  # card names in one cell of the table, then 'and 3 more' (c NAME shows one)


def fold_log(lines: list[str]) -> list[str]:
    """Fold runs of alike log lines: '8 cards → Player 2's hand', 'Farm, Mill → your hand'.

    Cards moving one after another to the same place become one line (hidden ones
    counted, seen ones named), and a line repeated in a row is said once with its count.
    """
    folded: list[str] = []
    run: list[str] = []
    place = None

    def flush() -> None:
        if not run:
            return
        hidden = sum(1 for name in run if name == "a card")
        named = [name for name in run if name != "a card"]
        parts = [*named[:6]]
        if len(named) > 6:
            parts.append(f"{len(named) - 6} more")
        if hidden:
            parts.append("a card" if hidden == 1 else f"{hidden} cards")
        folded.append(f"{', '.join(parts)} → {place}")
        run.clear()

    for line in lines:
        name, arrow, where = line.partition(" → ")
        if arrow and "," not in name:
            if where != place:
                flush()
                place = where
            run.append(name)
            continue
        flush()
        place = None
        if folded and (folded[-1] == line or folded[-1].startswith(f"{line} ×")):
            count = int(folded[-1].rpartition(" ×")[2]) + 1 if " ×" in folded[-1][len(line):] \
                else 2
            folded[-1] = f"{line} ×{count}"
        else:
            folded.append(line)
    flush()
    return folded

if TYPE_CHECKING:
    from decklore.runtime.game import Game
    from decklore.runtime.tables import Tables


@click.command(name="test")
@click.argument("paths", nargs=-1, required=True, shell_complete=complete_pack)
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
@json_option
@_guard
def test_command(paths: tuple[str, ...], quiet: bool, as_json: bool) -> None:
    """Run the scenario files under PATHS (or a pack's scenarios/) and report every failed
    check. A bundled pack's name (era) runs its scenarios."""
    from decklore.compiler import PackError, SourceCache, render_all
    from decklore.compiler.tools import compiled_tables, find_scenarios, run_file

    files = find_scenarios([_scenario_path(value) for value in paths])
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
    say = (lambda _text: None) if as_json else click.echo
    report: list[dict[str, Any]] = []
    for path in files:
        shown = path.as_posix()
        try:
            outcome = run_file(path, shown, tables_for)
        except PackError as exc:
            broken += 1
            click.echo(render_all(exc.diagnostics, sources), err=True)
            report.append({"file": shown, "result": "could not run"})
            continue
        report.append({"file": shown, "name": outcome.name,
                       "result": "passed" if outcome.passed else "failed",
                       "failures": [{"at": str(span), "message": message}
                                    for span, message in outcome.failures]})
        if outcome.passed:
            passed += 1
            if not quiet:
                say(f"ok    {shown}  {outcome.name}")
            continue
        failed += 1
        say(f"FAIL  {shown}  {outcome.name}")
        for span, message in outcome.failures:
            say(f"  {span}: {message}")
    summary = f"{passed} passed, {failed} failed"
    if broken:
        summary += f", {broken} could not run"
    if as_json:
        click.echo(json.dumps({"passed": passed, "failed": failed, "could_not_run": broken,
                               "scenarios": report}, indent=2, ensure_ascii=False))
    else:
        click.echo(summary)
    sys.exit(EXIT_OK if not failed and not broken else EXIT_INVALID)


def _scenario_path(value: str) -> Path:
    """A scenario file or folder; a pack (folder or bundled name) means its scenarios/."""
    path = _pack_path(value)
    if not path.exists():
        raise click.BadParameter(f"Path '{value}' does not exist.", param_hint="PATHS")
    if (path / "pack.yaml").is_file() and (path / "scenarios").is_dir():
        return path / "scenarios"
    return path


# --- shared helpers -----------------------------------------------------------------------

MAX_SAVE_BYTES = 64 * 1024 * 1024
"""The largest saved game or log read (an ERA game's save is about 100 KB)."""


def _read_untrusted(path: Path, what: str) -> bytes:
    """A save or log file's bytes: a regular file of bounded size, or a clear error."""
    from decklore.compiler.load import read_regular

    try:
        return read_regular(path, MAX_SAVE_BYTES)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        click.echo(f"error: {path}: cannot read the {what}: {reason[:1].lower()}{reason[1:]}",
                   err=True)
        sys.exit(EXIT_INVALID)

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


def agent_names(value: str) -> list[str]:
    """The ``--agents`` list, each checked (``mcts:iters=400`` settings too): a usage error
    names the first one that is wrong."""
    from decklore.runtime.agents import check_agent

    names = [a.strip() for a in value.split(",") if a.strip()]
    if not names:
        raise click.BadParameter("name at least one agent, e.g. greedy,random",
                                 param_hint="--agents")
    for name in names:
        problem = check_agent(name)
        if problem is not None:
            raise click.BadParameter(problem, param_hint="--agents")
    return names


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
@click.argument("pack", shell_complete=complete_pack)
@click.option("--players", "--agents", "seats", default="human,random", show_default=True,
              help="One agent per seat: human, random, greedy or mcts (mcts:seconds=1), "
              "comma-separated.")
@click.option("--seed", type=int, default=1, show_default=True, help="The game's seed.")
@click.option("--decks", default=None, help="Each seat's deck, comma-separated, named by "
              "the deck's id in the pack.")
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
    from decklore.runtime.expressions import RulesError
    from decklore.runtime.game import Game, StepBudgetExceeded
    from decklore.runtime.state import StateError

    tables, _ = _tables(pack)
    if save is None:
        save = load  # a loaded game keeps saving to its file unless --save names another
    names = [s.strip() for s in seats.split(",") if s.strip()]
    if not names:
        raise click.BadParameter("name one agent per seat, e.g. human,greedy",
                                 param_hint="--players")
    low, high = tables.pack["players"]["min"], tables.pack["players"]["max"]
    if load is None and not low <= len(names) <= high:
        raise click.BadParameter(f"{tables.pack['name']} takes {low} to {high} players; give "
                                 f"one agent for each (got {len(names)})",
                                 param_hint="--players")
    console = Console()
    try:
        if load is not None:
            game = Game.from_json(tables, _read_untrusted(load, "saved game"))
        else:
            game = Game.new(tables, len(names), seed, _decks(tables, decks, len(names)))
    except (StateError, RulesError) as exc:
        where = f"{load}: " if load is not None and isinstance(exc, StateError) else ""
        click.echo(f"error: {where}{exc}", err=True)
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
    interrupted = False
    try:
        while not game.terminal:
            player = game.current_player()
            assert player is not None
            agent = agents[player]
            if agent is not None:
                game.apply(agent.choose(game))
                continue
            _show(console, game, player, shown[player])
            since, shown[player] = shown[player], len(game.state.log)
            choice = _ask(console, game, save, since)
            if choice is None:
                break
            game.apply(choice)
    except (click.Abort, KeyboardInterrupt, EOFError):
        interrupted = True  # Ctrl-C or Ctrl-D at a prompt: save, then exit 130
    except StepBudgetExceeded as exc:
        console.print(f"the game ran out of steps: {exc}")
    except RulesError as exc:
        click.echo(f"rules error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    finally:
        if save is not None:
            from decklore.compiler import write_atomic

            write_atomic(save, game.to_json().encode("utf-8"))
            console.print(f"saved to {save}")
        if log_path is not None:
            from decklore.runtime.simulate import write_log

            write_log(game, log_path)
    if interrupted:
        click.echo("\ninterrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if game.terminal:
        viewer = next((i for i, a in enumerate(agents) if a is None), None)
        _show(console, game, viewer, shown.get(viewer or 0, 0))


def _show(console: Any, game: Game, viewer: int | None, since: int) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from decklore.runtime.describe import event_text

    obs = game.observation(viewer)
    phases = {flow.name: flow.label for flow in game.program.flows}
    phase = phases.get(obs["phase"] or "", obs["phase"] or "")
    title = [f"Turn {obs['turn']}" if obs["turn"] else "Setting up", phase,
             f"you are Player {viewer + 1}" if viewer is not None else "watching"]
    heading = " · ".join(part for part in title if part)  # a line of its own: never wrapped
    table = Table(show_lines=False, box=None, pad_edge=False, header_style="bold")
    table.add_column("")
    automated = game.state.info.get("automated", [])
    decks = {d["id"]: d["name"] for d in game.program.tables.raw["decks"]}
    for p in obs["players"]:
        note = (" (you)" if p["seat"] - 1 == viewer
                else " (automated)" if p["seat"] - 1 in automated else "")
        deck = decks.get(p["deck"] or "", "")
        table.add_column(f"Player {p['seat']}{note}" + (f" · {deck}" if deck else ""))
    symbols = {s["id"]: s["name"] for s in game.program.tables.raw["symbols"]}
    shown_symbols = [sid for sid in symbols if any(sid in p["symbols"] for p in obs["players"])]
    if shown_symbols:  # one row for all symbols: the board must fit 80x24
        table.add_row("Symbols", *[", ".join(f"{p['symbols'][sid]} {symbols[sid]}"
                                             for sid in shown_symbols if sid in p["symbols"])
                                   or "—" for p in obs["players"]])
    counters = obs["players"][0]["counters"]
    for name in counters:  # a counter at 0 for everyone says nothing
        values = [p["counters"][name] for p in obs["players"]]
        if any(values):
            label = game.program.counters[name]["label"]
            table.add_row(label, *[str(v) for v in values])
    flags = [", ".join(str(game.program.flags[f]["label"]) for f in p["flags"])
             for p in obs["players"]]
    if any(flags):  # marks on players: an exhaustion token, the first player
        table.add_row("Marks", *[text or "—" for text in flags])
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
    board: list[Any] = [Text(heading, style="bold"), table]
    if shared:
        line = "  ·  ".join(f"{label}: {text}" for label, text in shared)
        if len(heading) + 5 + len(line) <= console.width:  # beside the title: a row saved
            board[0] = Text.assemble((heading, "bold"), "  ·  " + line)
        else:
            board.append("  ·  ".join(f"[b]{label}[/b]: {text}" for label, text in shared))
    # The log gets what the screen has left once the board, the options and the prompt
    # are shown, so the turn's title stays in sight on 80x24; a longer log is said to be.
    used = sum(len(console.render_lines(part, pad=False)) for part in board)
    asks = 0 if _label_in_options(game) else 1
    room = max(1, min(LOG_LINES, console.height - used - len(option_lines(game)) - asks - 1))
    lines = fold_log([t for e in game.state.log[since:] if (t := event_text(game, e, viewer))])
    lines = [line[:77] + "…" if len(line) > 78 else line for line in lines]  # one row each
    if len(lines) > room:  # said, never cut silently: 'log' at the prompt shows all
        kept = lines[len(lines) - room + 1:]
        lines = [f"… {len(lines) - len(kept)} earlier lines since your last move (type log "
                 "to see them)", *kept]
    if lines:
        console.print("\n".join(lines), style="dim", markup=False)
    for part in board:
        console.print(part)
    if game.terminal:
        result = obs["result"] or {}
        console.print(Panel(outcome_text(result), title="Game over"))


def outcome_text(result: dict[str, Any]) -> str:
    """How a game ended, in words: one winner, a shared win, or nobody."""
    seats = [f"Player {w + 1}" for w in result.get("winners", [])]
    reason = result.get("reason", "")
    if not seats:
        return f"Nobody won: {reason}"
    if len(seats) == 1:
        return f"{seats[0]} won: {reason}"
    return f"{', '.join(seats[:-1])} and {seats[-1]} share the win: {reason}"


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
        marks = _card_marks(game, c)
        if marks:  # harvest tokens on it, a spent harvest: read from the state, never stale
            text += f" ({marks})"
        seen.append(text)
    hidden = sum(1 for c in cards if not visible(game, c, viewer))
    alike: dict[str, int] = {}  # separate cards of one name: '3 Kingdom Produce'
    for name in seen:
        alike[name] = alike.get(name, 0) + 1
    seen = [name if n == 1 else f"{n} {name}" for name, n in alike.items()]
    text = ", ".join(seen[:CELL_NAMES]) + (f" and {len(seen) - CELL_NAMES} more"
                                           if len(seen) > CELL_NAMES else "")
    if hidden:
        text += (", " if text else "") + f"{hidden} face down"
    return text


def option_keys(game: Game) -> list[str]:
    """What the player types for each option: its number in the list, or, when the
    question asks for a number (a tile, a count), that number itself, so the two agree."""
    actions = game.legal_actions()
    pending = game.state.pending or {}
    values = [a.value for a in actions]
    if pending.get("kind") == "number" and all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        return [str(v) for v in values]
    return [str(a.index) for a in actions]


def _card_marks(game: Game, card: int) -> str:
    """The counters and flags a card carries now, in words: 'Harvest tokens 2, Harvest spent'."""
    program, state = game.program, game.state
    marks = [f"{spec['label']} {state.counters[name][card]}"
             for name, spec in program.counters.items()
             if spec["per"] == "card" and state.counters[name][card] != spec["start"]]
    marks += [str(spec["label"]) for name, spec in program.flags.items()
              if spec["per"] == "card" and state.flags[name][card]]
    return ", ".join(marks)


def _label_in_options(game: Game) -> bool:
    """Whether every option already says the question, so it need not be asked above."""
    label = str((game.state.pending or {}).get("label") or "").casefold()
    return bool(label) and all(label in a.description.casefold() for a in game.legal_actions())


def option_lines(game: Game) -> list[str]:
    """The options as printed, one a line; a run of numbers asked for is one line."""
    from rich.markup import escape

    actions = game.legal_actions()
    keys = option_keys(game)
    values = [a.value for a in actions]
    pending = game.state.pending or {}
    if (pending.get("kind") == "number" and len(values) > 4 and keys[0] == str(values[0])
            and values == list(range(values[0], values[0] + len(values)))):
        label = actions[0].description.rpartition(": ")[0] or "a number"
        return [f"  [cyan]{keys[0]}[/cyan] to [cyan]{keys[-1]}[/cyan]  {escape(label)}"]
    return [f"  [cyan]{key}[/cyan]  {escape(action.description)}"
            for key, action in zip(keys, actions, strict=True)]


def _ask(console: Any, game: Game, save: Path | None, since: int = 0) -> int | None:
    """The player's answer: an option's index, or None to quit; commands in between."""
    from rich.markup import escape

    from decklore.runtime.describe import event_text

    pending = game.state.pending or {}
    keys = option_keys(game)
    if not _label_in_options(game):
        console.print(f"[bold]{escape(pending.get('label') or 'Choose')}[/bold]")
    for line in option_lines(game):
        console.print(line)
    chosen = {key: index for index, key in enumerate(keys)}
    hint = "number, ? for help" + (", s to save" if save is not None else "") + ", q to quit"
    unsaved = save is None
    while True:
        answer = click.prompt(f"your choice ({hint})", default="", show_default=False,
                              prompt_suffix=": ").strip()
        word, _, rest = answer.partition(" ")
        word = word.lower()
        if word in ("?", "h", "help"):
            console.print(_help_text(save is not None))
        elif word == "q":
            if not unsaved:
                return None
            if click.confirm("this game is not saved (start with --save FILE to keep it); "
                             "quit anyway?", default=False):
                return None
        elif word == "s":
            if save is None:
                console.print("saving needs a file: start the game with --save FILE")
                continue
            from decklore.compiler import write_atomic

            write_atomic(save, game.to_json().encode("utf-8"))
            console.print(f"saved to {save}")
        elif word in ("c", "card", "look"):
            what = rest.strip()
            if what in chosen:
                what = str(chosen[what])
            console.print(_look(game, what, pending.get("player")), markup=False)
        elif word == "why":
            from decklore.why import why_not

            console.print(why_not(game, rest.strip(), pending.get("player"))
                          if rest.strip() else "say which card: why NAME")
        elif word == "log":
            viewer = pending.get("player")
            lines = fold_log([t for e in game.state.log[since:]
                              if (t := event_text(game, e, viewer))])
            console.print("\n".join(lines) or "nothing happened since your last move",
                          markup=False)
        elif answer in chosen:
            return chosen[answer]
        else:
            console.print(f"type one of {', '.join(keys)}, or ? for help" if len(keys) <= 12
                          else f"type one of {keys[0]} to {keys[-1]}, or ? for help")


def _option_card(game: Game, number: int, viewer: int | None) -> int | None:
    """The card instance an option is about, when the player may see it."""
    from decklore.runtime.describe import visible

    actions = game.legal_actions()
    pending = game.state.pending or {}
    if number >= len(actions):
        return None
    value = actions[number].value
    card = None
    if pending.get("kind") in ("card", "cards") and pending.get("choose") != "player":
        card = value if isinstance(value, int) else None
    elif pending.get("kind") == "pay" and value and value[0] == "card":
        card = value[2]
    elif pending.get("about") and pending["about"][0] == "card":
        card = pending["about"][1]
    return card if card is not None and visible(game, card, viewer) else None


def _look(game: Game, what: str, viewer: int | None) -> str:
    """A card's face as the card list shows it, by option number or by name."""
    cards = game.program.tables.raw["cards"]
    if not what:
        return "say which card: c NAME, or c NUMBER for the card of an option"
    if what.isdigit():
        instance = _option_card(game, int(what), viewer)
        if instance is None:
            return f"option {what} is not about a card you can see"
        found = [c for c in cards if c["id"] == game.rows[instance]["id"]]
    else:
        wanted = what.casefold()
        found = [c for c in cards if str(c["name"]).casefold() == wanted] or [
            c for c in cards if wanted in str(c["name"]).casefold()]
    names = sorted({str(c["name"]) for c in found})
    if not found:
        return f"no card is called '{what}'"
    if len(names) > 1:
        return f"several cards match '{what}': {', '.join(names[:8])}"
    return face_text(dict(game.program.tables.raw), found[0]["id"])


def face_text(tables: dict[str, Any], card_id: str) -> str:
    """One card's face in plain lines: name, kind and deck, cost, symbols, defense, text."""
    from decklore.compiler.printing import list_rows

    row = next(r for r in list_rows(tables) if r["id"] == card_id)
    # The face's slots under the pack's own labels (a Level or a Cost, a Defense), as the
    # card list heads its columns.
    label = {f["face"]: str(f.get("label") or f["name"]).lower()
             for f in tables["card_fields"] if f.get("face")}
    head = [str(row["name"]), *(x for x in (row["kind_name"], row["deck_name"]) if x)]
    lines = [" · ".join(head)]
    facts = []
    if row["cost"] is not None:
        facts.append(f"{label.get('cost', 'cost')} {row['cost']}")
    if row["symbols_text"]:
        facts.append(f"symbols: {row['symbols_text']}")
    if row["defense"]:
        bonus = f" +{row['defense']['bonus']}" if row["defense"]["bonus"] else ""
        facts.append(f"{label.get('defense', 'defense')}: {row['defense']['name']} "
                     f"{row['defense']['value']}{bonus}")
    if row["stars"]:
        facts.append(f"{label.get('stars', 'stars')} {row['stars']}")
    facts += [f"{item['label']}: {item['value']}" for item in row["footer"]]
    if facts:
        lines.append("  " + " · ".join(facts))
    text = str(row["text_plain"]).strip()
    if text:
        lines.append(f"  {text}")
    return "\n".join(lines)


def _help_text(can_save: bool) -> str:
    lines = ["  NUMBER      take that option",
             "  c NAME      show a card's face (c NUMBER: the card of that option)",
             "  why NAME    say why a card you see cannot be chosen now",
             "  log         everything that happened since your last move"]
    if can_save:
        lines.append("  s           save the game now (it is saved when you quit, too)")
    lines.append("  q           quit" + (" (saving first)" if can_save else ""))
    return "\n".join(lines)


# --- simulate --------------------------------------------------------------------------------

@click.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("-n", "games", type=click.IntRange(1, 10_000_000), default=100, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the whole run.")
@click.option("--players", type=int, default=None,
              help="Players per game (default: the pack's smallest count).")
@click.option("--agents", default="random", show_default=True,
              help="Agents by seat, comma-separated (random, greedy, mcts or mcts:iters=400), "
              "repeated round the table.")
@click.option("--decks", default=None, help="Fix each seat's deck (default: dealt per game).")
@click.option("--rotate-seats", "rotate", is_flag=True,
              help="Move the agents one seat round the table each game, so each plays every "
              "seat equally often (decks stay with their seats).")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes; results are the same for any number.")
@click.option("--budget", type=click.IntRange(1000, 10_000_000), default=None,
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
             decks: str | None, rotate: bool, jobs: int, budget: int | None, as_json: bool,
             log_dir: Path | None, results: Path | None, resume: bool,
             report_path: Path | None, backend: str, address: str | None) -> None:
    """Play many seeded games of PACK with agents and summarise who wins and how."""
    from decklore import balance
    from decklore.runtime.game import DEFAULT_BUDGET

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
    names = agent_names(agents)
    chosen = _decks(tables, decks, count)
    from decklore.progress import progress

    with progress("playing", "games") as advance:
        done = [0]

        def played(k: int) -> None:
            done[0] += k
            if advance is not None:
                advance(done[0], games)

        header = balance.header_for(tables, games, seed, count, names, chosen,
                                    budget or DEFAULT_BUDGET, rotate)
        tally = balance.run(tables, data, header, jobs=jobs, backend=backend,
                            address=address,
                            log_dir=str(log_dir) if log_dir is not None else None,
                            results=results, resume=resume, advance=played)
    summary = tally.summary()
    if report_path is not None:
        run_view = {"agents": header.agents, "seed": seed, "decks": header.decks,
                    "rotate": rotate}
        html = balance.render_report_or_exit(balance.figures_of(tables, tally), run_view,
                                             balance.pack_view(tables))
        balance.write_report(report_path, html)
    summary["pack"] = tables.pack["id"]
    from decklore.runtime.simulate import seat_agents

    summary["agents"] = seat_agents(names, count)
    summary["rotate_seats"] = rotate
    summary["seed"] = seed
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        _print_summary(summary)
    _fail_on_rules_errors(summary)


def _pct(entry: dict[str, Any]) -> str:
    low, high = entry["ci95"]
    return (f"{entry['wins']:>6} / {entry['games']:<6} {entry['rate'] * 100:5.1f}%  "
            f"(95% CI {low * 100:4.1f}–{high * 100:4.1f}%)")


def _print_summary(s: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{s['pack']}[/bold]: {s['games']} games, {s['players']} players, "
                  f"agents {', '.join(s['agents'])}"
                  f"{' (one seat on each game)' if s.get('rotate_seats') else ''}, "
                  f"seed {s['seed']}")
    for title, key, label in (("Wins by seat", "wins_by_seat", "Player "),
                              ("Wins by deck", "wins_by_deck", ""),
                              ("Wins by agent", "wins_by_agent", "")):
        if not s[key]:  # a pack whose seats have no decks has no deck table
            continue
        table = Table(title=title, title_justify="left")
        table.add_column("")
        table.add_column("wins / games, rate (95% interval)")
        for name, entry in s[key].items():
            table.add_row(f"{label}{name}", _pct(entry))
        console.print(table)
    console.print(f"average turns {s['average_turns']} (from {s['turns_range'][0]} to "
                  f"{s['turns_range'][1]}), average decisions {s['average_decisions']}")
    console.print("how games ended: " + ", ".join(f"{escape(k)} {v}"
                                                  for k, v in s["reasons"].items()))
    if s["shared_wins"]:
        games = "1 game" if s["shared_wins"] == 1 else f"{s['shared_wins']} games"
        console.print(f"shared wins: {games}, each a win for every player who shared it")
    causes = ", ".join(f"{escape(k)} {v}" for k, v in s["no_winner_by_cause"].items())
    console.print(f"without a winner: {s['no_winner']}" + (f" ({causes})" if causes else ""))
    for error in s["rules_errors"]:
        console.print(f"[red]rules error[/red] {escape(error)}")
    console.print(f"results hash {s['results_hash']}")


def _fail_on_rules_errors(s: dict[str, Any]) -> None:
    """A game stopped by a rules error is a pack to fix: say where, and exit 1."""
    first = s["first_rules_error"]
    if first is None:
        return
    count = s["no_winner_by_cause"].get("rules error", 0)
    click.echo(f"error: {count} of {s['games']} games stopped on a rules error; the first, "
               f"game {first['game'] + 1} (seed {first['seed']}):\n  {first['error']}",
               err=True)
    sys.exit(EXIT_INVALID)


# --- replay ----------------------------------------------------------------------------------

@click.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--pack", default=None, shell_complete=complete_pack,
              help="The pack the game was played with (default: the bundled pack of the "
              "log's id).")
@json_option
@_guard
def replay(log: Path, pack: str | None, as_json: bool) -> None:
    """Re-run a game's log (from play --log) and check it reproduces event for event."""

    def fail(message: str) -> NoReturn:
        click.echo(message, err=True)
        if as_json:
            click.echo(json.dumps({"reproduced": False, "error": message}, indent=2))
        sys.exit(EXIT_INVALID)

    from decklore.runtime.game import Game
    from decklore.runtime.replay import ReplayError, replay_log
    from decklore.runtime.save_format import (
        SaveFormatError,
        check_log_line,
        check_start_event,
        parse_json,
    )

    data = _read_untrusted(log, "log")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data.count(b"\n", 0, exc.start) + 1
        fail(f"{log}:{bad}: not a log line (the file is not valid UTF-8)")
    events = []
    for number, line in enumerate(text.splitlines(), start=1):
        try:
            event = parse_json(line)
        except SaveFormatError as exc:
            fail(f"{log}:{number}: not a log line (JSON expected): {exc}")
        try:
            check_log_line(event, "")
        except SaveFormatError as exc:
            fail(f"{log}:{number}: not a log line: {exc}")
        events.append(event)
    if not events or events[0][:1] != ["start"]:
        fail(f"{log}:1: not a decklore game log (it must begin with a start event)")
    try:
        check_start_event(events[0], "")
    except SaveFormatError as exc:
        fail(f"{log}:1: the start event is damaged: {exc}")
    tables, _ = _tables(pack or str(events[0][1]))
    try:
        done = replay_log(tables, events, Game.new)
    except ReplayError as exc:
        fail(f"{log}:{exc.line}: {exc}" if exc.line else f"{log}: {exc}")
    if done.newer_tables:
        click.echo("the pack changed since this game (its rules did not); replaying with "
                   "this version", err=True)
    log_hash = done.game.log_hash()
    if as_json:
        click.echo(json.dumps({"reproduced": True, "events": done.events,
                               "decisions": done.decisions, "log_hash": log_hash}, indent=2))
        return
    click.echo(f"reproduced: {done.events} events, {done.decisions} decisions, "
               f"log hash {log_hash[:16]}")


def register(group: click.Group) -> None:
    for command in (test_command, play, simulate, replay):
        group.add_command(command)
