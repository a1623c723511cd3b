"""The ``decklore`` command line: thin commands over the compiler and runtime facades.

Every command parses its options, calls one facade function, renders the result or the
diagnostics, and returns an exit code: 0 ok, 1 invalid input, 2 usage, 3 a bug in
decklore.  Heavy imports happen inside commands so ``decklore --help`` stays instant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from decklore.compiler import CompileResult, Diagnostic

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_BUG = 0, 1, 2, 3
F = TypeVar("F", bound=Callable[..., Any])

# The path types of the options, made once and shared: click names each new one through
# gettext, which looks for a translation file on disk every time (8 of them cost about
# 5 ms of every run, a cached validate included).  A type holds no state of an option.
FILE_PATH = click.Path(dir_okay=False, path_type=Path)
FOLDER_PATH = click.Path(file_okay=False, path_type=Path)
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


def _guard(func: F) -> F:
    """Map errors to exit codes in one place; only a real bug shows a traceback."""

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except OSError as exc:
            if not exc.filename:
                raise
            # The file system said no (permission, a file where a folder must be, a full
            # disk): the user's to fix, so say which path and why, without a traceback.
            click.echo(f"error: {exc.filename}: {_os_reason(exc)}", err=True)
            sys.exit(EXIT_INVALID)
        except Exception:
            import traceback

            click.echo("internal error: this is a bug in decklore, not in your pack. "
                       "Please report it with the text below.", err=True)
            click.echo(traceback.format_exc(), err=True)
            sys.exit(EXIT_BUG)

    return wrapper  # type: ignore[return-value]


def _os_reason(exc: OSError) -> str:
    """An ``OSError``'s reason in lower case, as the rest of a message reads."""
    import errno

    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        return "a file is in the way where a folder is needed"
    if exc.errno == errno.EISDIR:
        return "is a folder, where a file is needed"
    reason = exc.strerror or str(exc)
    return reason[:1].lower() + reason[1:]


def _pack_path(value: str) -> Path:
    """A pack folder, or the name of a bundled pack (``era``); a usage error when neither."""
    path = Path(value)
    if path.exists() or "/" in value or "\\" in value:
        return path
    from decklore.cards import BUNDLED, bundled_pack

    found = bundled_pack(value)
    if found is None:
        raise click.BadParameter(f"no folder '{value}', and no bundled pack has that name "
                                 f"(bundled packs: {', '.join(BUNDLED)})", param_hint="PACK")
    return found


def complete_pack(_ctx: click.Context, _param: click.Parameter, incomplete: str
                  ) -> list[click.shell_completion.CompletionItem]:
    """Shell completion of a pack: the bundled packs' names, then folders."""
    from click.shell_completion import CompletionItem

    from decklore.cards import BUNDLED

    names = [CompletionItem(name) for name in BUNDLED if name.startswith(incomplete)]
    return [*names, CompletionItem(incomplete, type="dir")]


def _report(diagnostics: list[Diagnostic], fmt: str) -> None:
    from decklore.compiler import SourceCache, render_all
    from decklore.compiler import diagnostics_to_json as to_json

    if fmt == "json":
        click.echo(to_json(diagnostics))
    elif diagnostics:
        click.echo(render_all(diagnostics, SourceCache()), err=True)


def _compile(pack: str, fmt: str, use_cache: bool, strict: bool) -> CompileResult | None:
    from decklore.compiler import PackError, TableCache, cached_compile
    from decklore.progress import progress

    try:
        hit = cached_compile(_pack_path(pack), TableCache(), strict) if use_cache else None
        if hit is not None:  # the compiler itself is not even imported
            if fmt != "json":
                _report(hit.warnings, fmt)
            return hit
        from decklore.compiler import compile_pack

        with progress("compiling", "deck files") as advance:
            result = compile_pack(_pack_path(pack), cache=TableCache() if use_cache else None,
                                  warnings_as_errors=strict, progress=advance)
    except PackError as exc:
        _report(exc.diagnostics, fmt)
        return None
    if fmt != "json":
        _report(result.warnings, fmt)
    return result


def json_option(func: F) -> F:
    """``--json``: the one spelling of machine output on every command."""
    return click.option("--json", "as_json", is_flag=True,
                        help="Print the result (and any problems) as JSON, for tools.")(func)


def format_option(func: F) -> F:
    """``--json`` for machine output, as on every command; ``fmt`` is 'text' or 'json'.

    The older ``--format text|json`` of validate, compile and build still works, with a
    note on stderr: ``--format`` now only ever names a file format (print, diff).
    """

    @wraps(func)
    def wrapper(*args: Any, as_json: bool, old_format: str | None, **kwargs: Any) -> Any:
        if old_format is not None:
            _deprecated(f"--format {old_format}", "--json" if old_format == "json" else "")
        kwargs["fmt"] = "json" if as_json or old_format == "json" else "text"
        return func(*args, **kwargs)

    wrapper = click.option("--format", "old_format", type=click.Choice(["text", "json"]),
                           default=None, hidden=True)(wrapper)
    return json_option(wrapper)  # type: ignore[return-value]


def _deprecated(old: str, new: str) -> None:
    """Say on stderr that an old spelling still works, and what replaces it."""
    instead = f"; use {new}" if new else "; leave it out for text"
    click.echo(f"note: {old} is deprecated{instead}", err=True)


cache_option = click.option(
    "--cache/--no-cache", default=True, show_default=True,
    help="Reuse tables compiled from identical sources.",
)
strict_option = click.option("--strict", is_flag=True, help="Treat warnings as errors.")


class _Commands(click.Group):
    """The ``decklore`` group. The commands defined in other modules (``play``: play,
    simulate, replay, test; ``balance``; ``serve``) are added the first time a command not
    defined here is asked for, or the list of them all: ``validate`` never imports the
    game loop, and a cached validate is mostly Python's own start-up."""

    LATER = ("decklore.play", "decklore.balance", "decklore.serve")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._added = False

    def _add_later(self) -> None:
        if not self._added:
            self._added = True
            for module in self.LATER:
                import_module(module).register(self)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and not self._added:
            self._add_later()
            found = super().get_command(ctx, cmd_name)
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_later()
        return super().list_commands(ctx)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="decklore", prog_name="decklore")  # pyproject.toml's
def cli() -> None:
    """Compile card-game packs into runtime tables, and play, print and test them."""


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@format_option
@cache_option
@strict_option
@_guard
def validate(pack: str, fmt: str, cache: bool, strict: bool) -> None:
    """Check PACK (a pack folder) and report every problem found."""
    result = _compile(pack, fmt, cache, strict)
    if result is None:
        sys.exit(EXIT_INVALID)
    if fmt == "json":
        _report(result.warnings, "json")
    else:
        s = result.summary
        click.echo(f"{s['id']} {s['version']}: ok ({s['decks']} decks, {s['cards']} cards, "
                   f"{s['copies']} with copies)")


@cli.command(name="compile")
@click.argument("pack", shell_complete=complete_pack)
@click.option("-o", "--output", type=FILE_PATH,
              help="Where to write the tables (JSON).")
@click.option("--dump-ir", is_flag=True,
              help="Print the rules program's IR (indented JSON) to standard output.")
@click.option("--dump-python", is_flag=True,
              help="Print the Python module the engine generates from the rules.")
@format_option
@cache_option
@strict_option
@_guard
def compile_command(pack: str, output: Path | None, dump_ir: bool, dump_python: bool,
                    fmt: str, cache: bool, strict: bool) -> None:
    """Compile PACK into runtime tables written to OUTPUT."""
    import json

    from decklore.compiler import write_atomic

    if output is None and not dump_ir and not dump_python:
        raise click.UsageError("give -o FILE for the tables, --dump-ir to print the IR, or "
                               "--dump-python to print the generated code")
    result = _compile(pack, fmt, cache, strict)
    if result is None:
        sys.exit(EXIT_INVALID)
    if dump_ir:
        click.echo(json.dumps(result.tables["rules"], indent=2, sort_keys=True,
                              ensure_ascii=False))
    if dump_python:
        from decklore.runtime.codegen import dump_python as source
        from decklore.runtime.expressions import RulesError
        from decklore.runtime.tables import loads_tables

        try:
            module = source(loads_tables(result.data))
        except RulesError as exc:  # a pack of cards alone: there is no program to generate
            click.echo(f"error: {exc}; --dump-python prints the code generated from a pack's "
                       "rules", err=True)
            sys.exit(EXIT_INVALID)
        click.echo(module, nl=False)
    if output is None:
        return
    write_atomic(output, result.data)
    if fmt == "json":
        _report(result.warnings, "json")
    else:
        click.echo(f"wrote {output} ({len(result.data):,} bytes"
                   f"{', from cache' if result.from_cache else ''})")


def _print_options(paper: str, card_size: str, duplex: str, back_offset: str, theme: str,
                   print_shop: bool, bleed: str, alignment_page: bool) -> Any:
    import math

    from decklore.compiler.printing import BLEEDS, PrintOptions

    custom = None
    if "x" in card_size.lower():
        try:
            w, h = (float(v) for v in card_size.lower().split("x"))
        except ValueError:
            raise click.BadParameter("write a custom size as WIDTHxHEIGHT in mm, e.g. 60x90",
                                     param_hint="--card-size") from None
        low, high = CUSTOM_CARD_MM
        if not all(math.isfinite(v) and low <= v <= high for v in (w, h)):
            raise click.BadParameter(f"a card's width and height must each be from {low:g} to "
                                     f"{high:g} mm (got {card_size})",
                                     param_hint="--card-size")
        custom, card_size = (w, h), "custom"
    elif card_size not in CARD_SIZES:
        raise click.BadParameter(f"use one of {', '.join(CARD_SIZES)}, or WIDTHxHEIGHT in mm",
                                 param_hint="--card-size")
    try:
        dx, dy = (float(v) for v in back_offset.split(","))
        if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in (dx, dy)):
            raise ValueError(back_offset)
    except ValueError:
        raise click.BadParameter(f"write the offset as X,Y in mm, each from "
                                 f"-{MAX_BACK_OFFSET_MM:g} to {MAX_BACK_OFFSET_MM:g}, e.g. "
                                 "0.5,-0.3", param_hint="--back-offset") from None
    return PrintOptions(paper=paper, card_size=card_size, custom_card=custom, duplex=duplex,
                        back_offset=(dx, dy), theme=theme, print_shop=print_shop,
                        bleed=BLEEDS[bleed], alignment_page=alignment_page)


# The names printing options accept, kept here so importing decklore stays light (importing
# decklore.runtime must not load the compiler); a test checks they match compiler.layout.
PAPERS = ("a4", "letter")
CARD_SIZES = ("poker", "bridge", "tarot", "euro", "mini")
BLEEDS = ("3mm", "1/8in")
CUSTOM_CARD_MM = (20.0, 300.0)
"""The sizes a custom card may have: from a small token to a large board tile."""
MAX_BACK_OFFSET_MM = 20.0


def print_options(func: F) -> F:
    """The options every printing command shares."""
    options = [
        click.option("--paper", type=click.Choice(PAPERS), default="a4",
                     show_default=True, help="Paper size."),
        click.option("--card-size", default="poker", show_default=True,
                     help=f"{', '.join(CARD_SIZES)}, or WIDTHxHEIGHT in mm."),
        click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long",
                     show_default=True, help="Backs mirrored for long- or short-edge duplex, "
                     "or no back pages."),
        click.option("--back-offset", default="0,0", show_default=True,
                     help="Shift the backs by X,Y mm to match your printer."),
        click.option("--theme", type=click.Choice(["standard", "ink-saver"]),
                     default="standard", show_default=True, help="Colour theme."),
        click.option("--print-shop", is_flag=True,
                     help="One card a page with real bleed and a safe zone, for print shops."),
        click.option("--bleed", type=click.Choice(BLEEDS),
                     default="3mm", show_default=True, help="Bleed in print-shop mode."),
        click.option("--alignment-page", is_flag=True,
                     help="Add a duplex alignment test page to the card sheet."),
        click.option("--engine", type=click.Choice(["weasyprint", "chromium"]),
                     default="weasyprint", show_default=True, help="PDF engine."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _write_sheet(tables: dict[str, Any], sheet: str, fmt: str, options: Any, engine: str,
                 target: Path) -> list[Path]:
    """Render one sheet into TARGET (and its HTML beside a PDF); the paths written."""
    from decklore.compiler import write_atomic
    from decklore.compiler.printing import render, sheet_pdf

    text = render(tables, sheet, fmt, options, tables.get("templates") or None)
    if fmt != "pdf":
        write_atomic(target, text.encode("utf-8"))
        return [target]
    html_path = target.with_suffix(".html")
    write_atomic(html_path, text.encode("utf-8"))
    write_atomic(target, sheet_pdf(tables, sheet, text, options, engine,
                                   tables.get("templates") or None))
    return [target, html_path]


def _write_sheets(tables: dict[str, Any], sheets: list[tuple[str, str]], options: Any,
                  engine: str, folder: Path, jobs: int | None,
                  advance: Callable[[int, int], None] | None) -> list[str]:
    """Render every sheet into FOLDER; the PDFs are made side by side (``batch``). The
    names written, in the order of SHEETS (a PDF's HTML after it)."""
    from decklore.compiler import write_atomic
    from decklore.compiler.printing import PdfJob, default_jobs, make_pdfs, render

    templates = tables.get("templates") or None
    names: dict[int, list[str]] = {}
    pdfs: list[PdfJob] = []
    pdf_at: list[int] = []
    done = 0
    for position, (sheet, kind) in enumerate(sheets):
        text = render(tables, sheet, kind, options, templates)
        target = folder / f"{sheet}.{kind}"
        if kind == "pdf":
            html_path = target.with_suffix(".html")
            write_atomic(html_path, text.encode("utf-8"))
            names[position] = [target.name, html_path.name]
            pdfs.append(PdfJob(sheet, text))
            pdf_at.append(position)
        else:
            write_atomic(target, text.encode("utf-8"))
            names[position] = [target.name]
            done += 1
            if advance is not None:
                advance(done, len(sheets))
    for index, data in make_pdfs(tables, pdfs, options, engine, templates,
                                 jobs or default_jobs()):
        write_atomic(folder / f"{pdfs[index].sheet}.pdf", data)
        done += 1
        if advance is not None:
            advance(done, len(sheets))
    return [name for position in sorted(names) for name in names[position]]


@cli.command(name="print")
@click.argument("pack", shell_complete=complete_pack)
@click.option("--sheet", type=click.Choice(["cards", "list", "reference", "guide", "legend",
                                           "tokens", "board"]),
              default="cards", show_default=True, help="What to print.")
@click.option("--format", "fmt", type=click.Choice(["pdf", "html", "md", "csv"]),
              default="pdf", show_default=True, help="Output format.")
@click.option("-o", "--output", type=FILE_PATH,
              help="Where to write it (default: build/<pack>/<sheet>.<format>, a variant "
              "named apart: cards-letter.pdf, cards-print-shop.pdf).")
@print_options
@cache_option
@_guard
def print_command(pack: str, sheet: str, fmt: str, output: Path | None, paper: str,
                  card_size: str, duplex: str, back_offset: str, theme: str, print_shop: bool,
                  bleed: str, alignment_page: bool, engine: str, cache: bool) -> None:
    """Print one sheet of PACK: cards, card list, turn reference, turn guide or legend."""
    from decklore.compiler.printing import FORMATS, LayoutError, PdfError, SheetError

    if fmt not in FORMATS[sheet]:
        raise click.UsageError(f"the {sheet} sheet prints as {', '.join(FORMATS[sheet])}")
    options = _print_options(paper, card_size, duplex, back_offset, theme, print_shop, bleed,
                             alignment_page)
    result = _compile(pack, "text", cache, False)
    if result is None:
        sys.exit(EXIT_INVALID)
    if sheet == "guide" and not _has_guide(result.tables):
        click.echo("error: this pack's rules have no turn with phases to make a turn guide of",
                   err=True)
        sys.exit(EXIT_INVALID)
    if sheet in ("tokens", "board") and not _sheet_applies(result.tables, sheet):
        click.echo("error: this pack marks no card kind as punch_out" if sheet == "tokens"
                   else "error: this pack declares no boards", err=True)
        sys.exit(EXIT_INVALID)
    name = "-".join([sheet, *_variant(paper, card_size, duplex, theme, print_shop, bleed)])
    target = output or Path("build") / result.summary["id"] / f"{name}.{fmt}"
    replacing = target.exists()
    try:
        for path in _write_sheet(result.tables, sheet, fmt, options, engine, target):
            click.echo(f"wrote {path}" + (" (replacing the earlier one)"
                                          if replacing and path == target else ""))
    except (LayoutError, PdfError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    except SheetError as exc:
        _report([_sheet_diagnostic(exc, pack)], "text")
        sys.exit(EXIT_INVALID)


def _variant(paper: str, card_size: str, duplex: str, theme: str, print_shop: bool,
             bleed: str) -> list[str]:
    """The parts of a sheet's default file name that set it apart from the standard one,
    so a letter or print-shop sheet never overwrites the A4 one: cards-letter.pdf."""
    parts = [] if paper == "a4" else [paper]
    parts += [] if card_size == "poker" else [card_size.lower()]
    parts += [] if duplex == "long" else [f"duplex-{duplex}"]
    parts += [] if theme == "standard" else [theme]
    if print_shop:
        parts += ["print-shop"] + ([] if bleed == "3mm" else [f"bleed-{bleed.replace('/', '-')}"])
    return parts


BUILD_SHEETS = (("cards", "pdf"), ("list", "pdf"), ("list", "md"), ("list", "csv"),
                ("reference", "pdf"), ("reference", "md"), ("guide", "pdf"), ("guide", "md"),
                ("legend", "pdf"), ("legend", "md"), ("tokens", "pdf"), ("board", "pdf"))


def _sheet_applies(tables: dict[str, Any], sheet: str) -> bool:
    """Whether a pack has anything for SHEET: a turn guide needs a turn with phases, the
    tokens sheet punch-out kinds, the board sheet a board, the card sheet a full-size card."""
    from decklore.compiler.printing import has_tokens

    if sheet == "guide":
        return _has_guide(tables)
    if sheet == "tokens":
        return has_tokens(tables)
    if sheet == "board":
        return bool(tables.get("boards"))
    if sheet == "cards":
        punched = {k["id"] for k in tables["card_kinds"] if k.get("punch_out")}
        return any(card["kind"] not in punched for card in tables["cards"])
    return True


def _sheet_diagnostic(exc: Any, pack: str) -> Diagnostic:
    """A sheet that failed to render, as a diagnostic naming the pack's template file."""
    from decklore.compiler import Diagnostic, Severity, Span, display_path

    file = exc.file
    if file.startswith("templates/"):
        folder = display_path(_pack_path(pack))
        if (Path(folder) / file).is_file():
            file = f"{folder}/{file}"
    return Diagnostic(Severity.ERROR, exc.code, exc.message,
                      Span(file, exc.line, exc.column), exc.hint)


def _has_guide(tables: dict[str, Any]) -> bool:
    from decklore.compiler.printing import make_turn_guide as turn_guide

    return turn_guide(tables.get("rules")) is not None


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("-o", "--out-dir", type=FOLDER_PATH,
              default=Path("build"), show_default=True, help="Folder for the build output.")
@click.option("--no-sheets", is_flag=True, help="Only compile the tables.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="PDFs made at the same time (default: one per core).")
@print_options
@format_option
@cache_option
@_guard
def build(pack: str, out_dir: Path, no_sheets: bool, jobs: int | None, paper: str,
          card_size: str, duplex: str, back_offset: str, theme: str, print_shop: bool,
          bleed: str, alignment_page: bool, engine: str, fmt: str, cache: bool) -> None:
    """Compile PACK and write its tables and every sheet into OUT_DIR/<pack id>/."""
    from decklore.compiler import staged_folder, write_atomic
    from decklore.compiler.printing import LayoutError, PdfError, SheetError

    options = _print_options(paper, card_size, duplex, back_offset, theme, print_shop, bleed,
                             alignment_page)
    result = _compile(pack, fmt, cache, False)
    if result is None:
        sys.exit(EXIT_INVALID)
    s = result.summary
    target = out_dir / s["id"]
    names = ["tables.json"]
    try:
        # Written into a staging folder, moved into place only when every sheet succeeded:
        # a failing template, a full disk or a kill never leaves half a build behind.
        with staged_folder(target) as staging:
            write_atomic(staging / "tables.json", result.data)
            if not no_sheets:
                from decklore.progress import progress

                sheets = [(sheet, kind) for sheet, kind in BUILD_SHEETS
                          if _sheet_applies(result.tables, sheet)]
                with progress("printing", "sheets") as advance:
                    names += _write_sheets(result.tables, sheets, options, engine, staging,
                                           jobs, advance)
    except (LayoutError, PdfError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    except SheetError as exc:
        _report([_sheet_diagnostic(exc, pack)], fmt)
        sys.exit(EXIT_INVALID)
    written = [target / name for name in names]
    if fmt == "json":
        _report(result.warnings, "json")
    else:
        click.echo(f"built {s['name']} {s['version']}: {s['decks']} decks, {s['cards']} cards "
                   f"({s['copies']} with copies)")
        for path in written:
            click.echo(f"  {path}")


@cli.command()
@click.option("-o", "--out-dir", type=FOLDER_PATH,
              default=Path("schemas"), show_default=True, help="Folder to write the schemas to.")
@click.option("--pack", "pack", default=None, shell_complete=complete_pack,
              help="Close the deck schema over this pack's card kinds and fields.")
@_guard
def schema(out_dir: Path, pack: str | None) -> None:
    """Write the JSON Schemas (2020-12, and draft-07 variants for editors)."""
    import json

    from decklore.compiler import write_atomic
    from decklore.schema import SCHEMA_NAMES, editor_variant, load_schema

    schemas = {name: load_schema(name) for name in SCHEMA_NAMES}
    if pack is not None:
        from decklore.compiler import Diagnostics, display_path
        from decklore.compiler.load import card_schema, load_manifest

        diags = Diagnostics()
        path = _pack_path(pack)
        manifest = load_manifest(path, display_path(path), diags)
        if manifest is None or diags.has_errors:
            _report(diags.sorted(), "text")
            sys.exit(EXIT_INVALID)
        schemas["deck"] = card_schema(manifest)
    for name, body in schemas.items():
        for suffix, variant in ((".schema.json", body),
                                (".draft-07.schema.json", editor_variant(body))):
            text = json.dumps(variant, indent=2, ensure_ascii=False) + "\n"
            write_atomic(out_dir / f"{name}{suffix}", text.encode("utf-8"))
            click.echo(f"wrote {out_dir / (name + suffix)}")


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("--exact", is_flag=True,
              help="Every rule, exactly as the engine runs it (for designers), instead of "
              "the player reference.")
@cache_option
@format_option
@_guard
def reference(pack: str, exact: bool, cache: bool, fmt: str) -> None:
    """Print PACK's rules in plain English: the player reference, or --exact."""
    from decklore.compiler.rules import (
        outline,
        player_reference,
        player_to_text,
        rules_to_text,
        symbol_names,
    )

    result = _compile(pack, fmt, cache, False)
    if result is None:
        sys.exit(EXIT_INVALID)
    sections = outline(result.tables)
    player = player_reference(result.tables) if sections and not exact else None
    if fmt == "json":
        import json
        from dataclasses import asdict

        body: dict[str, Any] = {"sections": [asdict(section) for section in sections]}
        if player is not None:
            body["player"] = asdict(player)  # the player form, beside the exact one
        click.echo(json.dumps(body, indent=2, ensure_ascii=False))
        return
    if not sections:
        click.echo(f"{result.summary['id']} has no rules files yet", err=True)
        return
    if exact or player is None:
        click.echo(rules_to_text(sections), nl=False)
        return
    click.echo(player_to_text(player, symbol_names(result.tables)), nl=False)

@cli.command(name="fmt")
@click.argument("files", nargs=-1, required=True,
                type=EXISTING_FILE)
@click.option("--write", "-w", is_flag=True, help="Rewrite the files in place.")
@click.option("--check", is_flag=True,
              help="Change nothing; exit 1 if a file is not in canonical form.")
@_guard
def fmt_command(files: tuple[Path, ...], write: bool, check: bool) -> None:
    """Print rules FILES in canonical form (or rewrite them with --write)."""
    from decklore.compiler import Diagnostics, SourceCache, render_all, write_atomic
    from decklore.compiler.load import read_text
    from decklore.compiler.rules import format_program, parse_rules

    diags = Diagnostics()
    outputs: list[tuple[Path, str, str]] = []
    for path in files:
        text = read_text(path, path.as_posix(), diags)
        if text is None:
            continue
        before = len(diags.items)
        program = parse_rules(text, path.as_posix(), diags)
        if len(diags.items) == before:
            outputs.append((path, text, format_program(program)))
    if diags.items:
        click.echo(render_all(diags.sorted(), SourceCache()), err=True)
        sys.exit(EXIT_INVALID)
    changed = [path for path, text, formatted in outputs if text != formatted]
    if check:
        for path in changed:
            click.echo(f"would reformat {path}", err=True)
        sys.exit(EXIT_INVALID if changed else EXIT_OK)
    for path, text, formatted in outputs:
        if write:
            if text != formatted:
                write_atomic(path, formatted.encode("utf-8"))
                click.echo(f"reformatted {path}", err=True)
        else:
            click.echo(formatted, nl=False)


@cli.command()
@click.argument("before", shell_complete=complete_pack)
@click.argument("after", shell_complete=complete_pack)
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html", "pdf"]),
              default="text", show_default=True,
              help="html and pdf make a printable changelog sheet (with -o).")
@click.option("-o", "--output", type=FILE_PATH,
              help="Write the changelog here (default: changelog.html or .pdf).")
@cache_option
@_guard
def diff(before: str, after: str, as_json: bool, fmt: str, output: Path | None,
         cache: bool) -> None:
    """List what changed from pack BEFORE to pack AFTER (folders or tables files)."""
    import json

    from decklore.compiler.tools import diff_tables
    from decklore.compiler.tools import diff_to_text as to_text

    sides = []
    for item in (before, after):
        path = Path(item)
        if path.exists() and not path.is_dir():
            sides.append(_tables_file(path))
            continue
        result = _compile(item, "text", cache, False)
        if result is None:
            sys.exit(EXIT_INVALID)
        sides.append(result.tables)
    try:
        changes = diff_tables(sides[0], sides[1])
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # schema-valid, yet odd
        click.echo(f"error: the tables cannot be compared ({type(exc).__name__}: {exc})",
                   err=True)
        sys.exit(EXIT_INVALID)
    if fmt == "json":
        _deprecated("--format json", "--json")
    if as_json or fmt == "json":
        click.echo(json.dumps(changes.to_json(), indent=2, ensure_ascii=False))
    elif fmt in ("html", "pdf"):
        from decklore.compiler import write_atomic
        from decklore.compiler.printing import render_changelog

        html = render_changelog(changes, sides[1])
        target = output or Path(f"changelog.{fmt}")
        if fmt == "pdf":
            from decklore.compiler.printing import html_to_pdf

            write_atomic(target, html_to_pdf(html))
        else:
            write_atomic(target, html.encode("utf-8"))
        click.echo(f"wrote {target}")
    else:
        click.echo(to_text(changes), nl=False)


MAX_TABLES_BYTES = 64 * 1024 * 1024


def _tables_file(path: Path) -> dict[str, Any]:
    """A compiled tables file given to ``diff``, checked against the tables schema first.

    It may be any file: it is read only if regular and not too large, parsed with a depth
    bound, and refused with the first schema error (and where it is) if it is not tables.
    """
    from decklore.compiler.load import read_regular
    from decklore.runtime.save_format import SaveFormatError, parse_json

    try:
        data = parse_json(read_regular(path, MAX_TABLES_BYTES))
    except OSError as exc:
        click.echo(f"error: {path}: cannot read tables: {_os_reason(exc)}", err=True)
        sys.exit(EXIT_INVALID)
    except SaveFormatError as exc:
        click.echo(f"error: {path}: not decklore tables: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    import jsonschema

    from decklore.schema import load_schema

    validator = jsonschema.Draft202012Validator(load_schema("tables"))
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        click.echo(f"error: {path}: not decklore tables: at {where}: {error.message[:200]}",
                   err=True)
        sys.exit(EXIT_INVALID)
    assert isinstance(data, dict)
    return data


@cli.group()
def new() -> None:
    """Start something new: a pack, or a mod of a pack."""


@new.command(name="pack")
@click.argument("name")
@click.option("-d", "--dir", "folder", type=FOLDER_PATH,
              help="Where to write it (default: a folder named for the pack).")
@_guard
def new_pack_command(name: str, folder: Path | None) -> None:
    """Write a small, valid pack called NAME to start a game from."""
    from decklore.compiler.tools import ScaffoldError, new_pack, pack_id

    target = folder or Path(pack_id(name) or "new-pack")
    try:
        written = new_pack(name, target)
    except ScaffoldError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    click.echo(f"wrote a new pack '{pack_id(name)}' in {target}/ ({len(written)} files)")
    click.echo(f"  next: decklore validate {target.as_posix()}   "
               f"then: decklore build {target.as_posix()}")


@new.command(name="mod")
@click.argument("name")
@click.option("--extends", "base", required=True, shell_complete=complete_pack,
              help="The pack the mod builds on: a folder or a bundled pack's name.")
@click.option("-d", "--dir", "folder", type=FOLDER_PATH,
              help="Where to write it (default: a folder named for the mod).")
@_guard
def new_mod_command(name: str, base: str, folder: Path | None) -> None:
    """Write a mod called NAME that extends a pack, valid as it is, to change from there."""
    from decklore.compiler import PackError
    from decklore.compiler.tools import ScaffoldError, new_mod, pack_id

    target = folder or Path(pack_id(name) or "new-mod")
    try:
        written = new_mod(name, target, _pack_path(base))
    except ScaffoldError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    except PackError as exc:
        _report(exc.diagnostics, "text")
        sys.exit(EXIT_INVALID)
    click.echo(f"wrote a new mod '{pack_id(name)}' of {base} in {target}/ "
               f"({len(written)} files)")
    click.echo(f"  next: decklore validate {target.as_posix()}   "
               f"then: decklore diff {base} {target.as_posix()}")


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("--json", "as_json", is_flag=True, help="Print the order as JSON.")
@_guard
def order(pack: str, as_json: bool) -> None:
    """Print the order PACK and the packs it needs load in, and why."""
    import json

    from decklore.compiler import Diagnostics, SourceCache, display_path, render_all
    from decklore.compiler.mods import load_order

    diags = Diagnostics()
    path = _pack_path(pack)
    layers = load_order(path, display_path(path), diags)
    if diags.items:
        click.echo(render_all(diags.sorted(), SourceCache()), err=True)
    if layers is None:
        sys.exit(EXIT_INVALID)
    if as_json:
        click.echo(json.dumps([{"id": layer.id, "version": layer.manifest.version,
                                "folder": layer.shown, "after": sorted(layer.needs)}
                               for layer in layers], indent=2))
        return
    for number, layer in enumerate(layers, start=1):
        after = f"  (after {', '.join(sorted(layer.needs))})" if layer.needs else ""
        click.echo(f"{number}. {layer.id} {layer.manifest.version}  {layer.shown}{after}")


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@click.option("--check", is_flag=True, help="Only say what would change (exit 1 if anything).")
@format_option
@_guard
def migrate(pack: str, check: bool, fmt: str) -> None:
    """Rewrite PACK from an older pack format in the current one, then validate it."""
    from decklore.compiler.mods import MigrateError
    from decklore.compiler.mods import migrate_pack as run

    path = _pack_path(pack)
    try:
        changes = run(path, write=not check)
    except MigrateError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    if fmt == "json":
        import json

        validates = None  # unknown until written: a check or a pack already current
        if changes and not check:  # problems go to stderr, so stdout stays one JSON text
            validates = _compile(pack, "text", False, False) is not None
        click.echo(json.dumps({"changes": changes, "written": bool(changes) and not check,
                               "validates": validates}, indent=2))
        sys.exit(EXIT_INVALID if (check and changes) or validates is False else EXIT_OK)
    if not changes:
        click.echo(f"{pack}: already in the current format")
        return
    for change in changes:
        click.echo(("would change " if check else "changed ") + change)
    if check:
        sys.exit(EXIT_INVALID)
    result = _compile(pack, "text", False, False)
    if result is None:
        sys.exit(EXIT_INVALID)
    click.echo(f"{pack}: migrated, and it validates")


@cli.command()
@click.argument("pack", shell_complete=complete_pack)
@click.argument("card")
@click.option("--json", "as_json", is_flag=True, help="Print it as JSON.")
@_guard
def explain(pack: str, card: str, as_json: bool) -> None:
    """Show where each field of CARD comes from, and every mod that changed it."""
    import json

    from decklore.compiler import PackError
    from decklore.compiler.mods import ExplainError
    from decklore.compiler.mods import explain_pack as run
    from decklore.compiler.mods import explain_to_text as to_text

    try:
        report = run(_pack_path(pack), card)
    except PackError as exc:
        _report(exc.diagnostics, "text")
        sys.exit(EXIT_INVALID)
    except ExplainError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INVALID)
    click.echo(json.dumps(report, indent=2, ensure_ascii=False) if as_json
               else to_text(report), nl=False)


def main() -> None:
    """Entry point of the ``decklore`` script."""
    cli(prog_name="decklore")

