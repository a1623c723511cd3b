"""The commands that run games: ``play``, ``simulate``, ``replay`` and ``test``.

They sit apart from the compiling and printing commands in ``decklore/__init__.py`` and
are added to the same ``decklore`` group by :func:`register`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from decklore import EXIT_INVALID, EXIT_OK, _guard


@click.command(name="test")
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("-q", "--quiet", is_flag=True, help="Print failures and the summary only.")
@_guard
def test_command(paths: tuple[Path, ...], quiet: bool) -> None:
    """Run the scenario files under PATHS and report every failed check."""
    from decklore.compiler.diagnostics import PackError, SourceCache, render_all
    from decklore.compiler.scenarios import compiled_tables, find_scenarios, run_file
    from decklore.runtime.tables import Tables

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


def register(group: click.Group) -> None:
    for command in (test_command,):
        group.add_command(command)
