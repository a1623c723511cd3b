"""The ``serve`` command: a pack's table in the browser (the optional ``[web]`` extra).

It is added to the ``decklore`` group like the game commands; the web stack is imported
only when the command runs, and its absence is a clear message naming the extra.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from decklore import EXIT_INVALID, _guard, _pack_path, complete_pack

WEB_EXTRA = "pip install 'decklore[web]'"


def _web_missing() -> str | None:
    """The module of the web extra that cannot be imported, or None when all are there."""
    from importlib.util import find_spec

    for module in ("starlette", "uvicorn"):
        if find_spec(module) is None:
            return module
    return None


@click.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("--players", "--agents", "seats", default="human,greedy", show_default=True,
              help="One agent per seat: human, random, greedy or mcts (mcts:seconds=1), "
              "comma-separated; two humans play hot seat.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (the default lets only this computer in).")
@click.option("--seed", type=int, default=1, show_default=True, help="The game's seed.")
@click.option("--decks", default=None, help="Each seat's deck, comma-separated.")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="The file the page's Save and Load buttons use.")
@click.option("--load", "load", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Start from a saved game (and save to it, unless --save names another).")
@click.option("--delay", type=click.FloatRange(0, 10), default=0.6, show_default=True,
              help="Seconds an agent waits before each move, so people see it happen.")
@_guard
def serve(pack: str, seats: str, port: int, host: str, seed: int, decks: str | None,
          save: Path | None, load: Path | None, delay: float) -> None:
    """Play PACK in the browser: a table per seat with real card faces, hot seat, and a
    designer view that reloads the pack when its files change."""
    missing = _web_missing()
    if missing is not None:
        click.echo(f"error: decklore serve needs the web extra ({missing} is not installed); "
                   f"install it with: {WEB_EXTRA}", err=True)
        sys.exit(EXIT_INVALID)
    from decklore.play import _decks
    from decklore.runtime.expressions import RulesError
    from decklore.runtime.game import Game
    from decklore.runtime.state import StateError
    from decklore.web import Table, TableError, compile_folder, seat_list
    from decklore.web import serve as run

    folder = _pack_path(pack)
    try:
        names = seat_list(seats)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--players") from None
    tables, errors = compile_folder(folder)
    if tables is None:
        click.echo(errors, err=True)
        sys.exit(EXIT_INVALID)
    try:
        table = Table(folder, tables, names, seed=seed,
                      decks=_decks(tables, decks, len(names)), save_path=save or load)
        if load is not None:
            from decklore.play import _read_untrusted

            game = Game.from_json(tables, _read_untrusted(load, "saved game"))
            if game.state.players != len(names):
                raise click.BadParameter(f"the saved game has {game.state.players} players; "
                                         "give one agent for each", param_hint="--players")
            table.restart(game)
    except TableError as exc:
        raise click.BadParameter(exc.message, param_hint="--players") from None
    except (StateError, RulesError) as exc:
        click.echo(f"error: {load}: {exc}" if load else f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    run(table, host=host, port=port, delay=delay)


def register(group: click.Group) -> None:
    group.add_command(serve)
