"""The compiler facade: ``compile_pack(path)`` runs every stage and returns tables or errors.

Stages: load and check ``pack.yaml`` (manifest) -> load, schema-check and compile each
deck file (decks) -> pack-wide checks (checks) -> emit canonical tables (emit).  Each
stage collects all its diagnostics; the pipeline stops after a stage that found errors,
so later stages never see half-built data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from decklore.compiler import checks
from decklore.compiler.cache import TableCache, pack_key
from decklore.compiler.collector import collector_paused
from decklore.compiler.diagnostics import (
    Diagnostic,
    Diagnostics,
    PackError,
    Severity,
    Span,
)
from decklore.compiler.emit import COMPILER_VERSION as COMPILER_VERSION
from decklore.compiler.emit import build_tables, seal
from decklore.compiler.load.decks import DeckCompiler, DeckData
from decklore.compiler.load.manifest import Manifest, load_manifest
from decklore.compiler.load.paths import pack_file
from decklore.compiler.load.yaml_loader import read_text
from decklore.compiler.result import CompileResult as CompileResult
from decklore.compiler.result import as_error as _as_error
from decklore.compiler.result import display_path as display_path
from decklore.compiler.result import from_cache as _from_cache
from decklore.compiler.result import is_mod as _is_mod
from decklore.compiler.result import summarize as summarize
from decklore.compiler.rules.check import RulesChecker
from decklore.compiler.rules.parser import parse_rules

# The one version is pyproject.toml's, read from the installed package's metadata.


@collector_paused
def compile_pack(
    path: Path | str,
    *,
    cache: TableCache | None = None,
    warnings_as_errors: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> CompileResult:
    """Compile the pack folder at ``path``; raise ``PackError`` with every error found.

    ``progress(done, total)`` is called as deck files are compiled, for progress bars.
    """
    pack_dir = Path(path)
    shown = display_path(path)
    if not (pack_dir / "pack.yaml").is_file():
        where = Span(f"{shown}/pack.yaml", 1, 1)
        hint = ("run 'decklore new pack NAME' to start one" if pack_dir.is_dir()
                else f"no folder '{shown}'; check the path")
        message = "no pack.yaml in this folder"
        if (pack_dir / "pack.yaml").exists():
            message, hint = "pack.yaml is not a regular file", "make pack.yaml a plain file"
        raise PackError([Diagnostic(Severity.ERROR, "E020", message, where, hint)])
    diags = Diagnostics()
    if _is_mod(pack_dir):  # its cache key covers every pack of its load order
        return _compile_layered(pack_dir, shown, cache, warnings_as_errors, diags, progress)
    # The key includes the path as shown: cached warnings name files by it.
    key = pack_key(pack_dir, shown) if cache is not None else ""
    if cache is not None and (cached := _from_cache(cache, key, warnings_as_errors)):
        return cached

    manifest = load_manifest(pack_dir, shown, diags)
    diags.raise_if_errors()
    assert manifest is not None
    compiler = DeckCompiler(manifest, pack_dir, shown, diags)
    decks: list[DeckData] = []
    total = len(manifest.deck_files)
    for done, (rel, span) in enumerate(manifest.deck_files, start=1):
        deck, _ = compiler.compile_file(rel, span)
        if deck is not None:
            decks.append(deck)
        if progress is not None:
            progress(done, total)
    rules = compile_rules(manifest, pack_dir, shown, diags)
    diags.raise_if_errors()
    _check_pack(manifest, decks, compiler.uses, rules, diags, warnings_as_errors)
    tables = build_tables(manifest, decks, rules)
    tables["templates"] = pack_templates(pack_dir, shown, diags)
    return _finish(tables, diags, cache, key)


def _check_pack(manifest: Manifest, decks: list[DeckData], uses: Any,
                rules: dict[str, Any] | None, diags: Diagnostics,
                warnings_as_errors: bool) -> None:
    """The checks that need every card at once; stops on errors (warnings too, if strict)."""
    checks.run(checks.PackFacts(manifest, decks, uses, rules), diags)
    if warnings_as_errors:
        diags.items[:] = [_as_error(d) for d in diags.items]
    diags.raise_if_errors()


def _finish(tables: dict[str, Any], diags: Diagnostics, cache: TableCache | None,
            key: str) -> CompileResult:
    """Seal the tables, and keep them and their warnings in the cache."""
    diags.raise_if_errors()
    data = seal(tables)
    warnings = diags.sorted()
    summary = summarize(tables)
    if cache is not None:
        cache.put(key, data, {"warnings": [w.to_json() for w in warnings], "summary": summary})
    return CompileResult(data, summary, warnings, _tables=tables)


def _compile_layered(pack_dir: Path, shown: str, cache: TableCache | None,
                     warnings_as_errors: bool, diags: Diagnostics,
                     progress: Callable[[int, int], None] | None) -> CompileResult:
    """A pack that builds on others: every pack of its load order, layered bottom up."""
    from decklore.compiler.mods import layering
    from decklore.compiler.mods.packs import load_order

    layers = load_order(pack_dir, shown, diags)
    diags.raise_if_errors()
    assert layers is not None
    key = ""
    if cache is not None:
        key = hashlib.sha256("".join(pack_key(layer.folder, layer.shown)
                                     for layer in layers).encode()).hexdigest()
        if cached := _from_cache(cache, key, warnings_as_errors):
            return cached
    stack = layering.merge_declarations(layers, diags)
    diags.raise_if_errors()
    decks, compilers = layering.compile_decks(stack, diags, progress)
    if diags.has_errors:  # the rules need no cards: check them too, to report every error
        _layered_rules(stack, diags)
        diags.raise_if_errors()
    layering.Patcher(stack, decks, compilers, diags).run()
    rules = _layered_rules(stack, diags)
    diags.raise_if_errors()
    _check_pack(stack.merged, decks, layering.joined_uses(compilers), rules, diags,
                warnings_as_errors)
    tables = build_tables(stack.merged, decks, rules, layers=layers)
    tables["templates"] = {}
    for layer in layers:
        tables["templates"].update(pack_templates(layer.folder, layer.shown, diags))
    return _finish(tables, diags, cache, key)


def _layered_rules(stack: Any, diags: Diagnostics) -> dict[str, Any] | None:
    from decklore.compiler.mods import layering

    added, replacing = layering.rules_sources(stack)
    if not added and not replacing:
        return None
    top = stack.layers[-1]

    before = len(diags.errors)
    programs = _parse_rules_files([(layer.folder, layer.shown, rel, span)
                                   for layer, rel, span in added], diags)
    replacements = _parse_rules_files([(layer.folder, layer.shown, rel, span)
                                       for layer, rel, span in replacing], diags)
    if len(diags.errors) > before:
        return None
    programs = layering.replace_declarations(programs, replacements, diags)
    if len(diags.errors) > before:
        return None
    below = {f"{layer.shown}/": layer.id for layer in stack.layers if layer is not top}
    ir = RulesChecker(stack.merged, diags, pack_prefix=f"{top.shown}/",
                      other_packs=below).check(programs)
    ir["files"] = [f"{layer.id}:{rel}" if layer is not top else rel
                   for layer, rel, _ in added + replacing]
    return ir


TEMPLATE_SUFFIXES = (".j2", ".css")
MAX_TEMPLATE_BYTES = 256 * 1024


def pack_templates(pack_dir: Path, shown: str, diags: Diagnostics) -> dict[str, str]:
    """The pack's own sheet templates and CSS (``templates/*.j2``, ``templates/*.css``).

    They replace the built-in ones of the same name and render in the same sandbox.  They
    go into the tables, so sheets can be printed from the tables alone.  What they may
    contain is judged on the rendered sheet, not on their source: a template can assemble
    any text, so only its output tells (``sheet_sandbox.check_rendered``).
    """
    folder = pack_dir / "templates"
    if not folder.is_dir():
        return {}
    try:  # a templates folder linked from elsewhere is not listed, let alone read
        inside = folder.resolve().is_relative_to(pack_dir.resolve())
    except (OSError, RuntimeError):
        inside = False
    if not inside:
        diags.error("E141", "the folder 'templates' leaves the pack folder",
                    Span(f"{shown}/templates", 1, 1),
                    "a symlink may not point outside the pack; copy the files in instead")
        return {}
    found: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if not path.name.endswith(TEMPLATE_SUFFIXES):
            continue
        rel = f"templates/{path.name}"
        safe = pack_file(pack_dir, rel, Span(f"{shown}/{rel}", 1, 1), diags)
        if safe is None:
            continue
        if safe.stat().st_size > MAX_TEMPLATE_BYTES:
            diags.error("E143", f"template '{rel}' is too large (the limit is "
                        f"{MAX_TEMPLATE_BYTES:,} bytes)", Span(f"{shown}/{rel}", 1, 1),
                        "split it, or move shared parts into a macro file")
            continue
        text = read_text(safe, f"{shown}/{rel}", diags)
        if text is not None:  # what it renders is checked by sheets (sheet_sandbox, E144)
            found[path.name] = text
    return found


def _parse_rules_files(files: list[tuple[Path, str, str, Span]],
                       diags: Diagnostics) -> list[Any]:
    """Parse rules files, each (pack folder, folder as shown, path in the pack, where named)."""
    programs = []
    for folder, shown, rel, span in files:
        path = pack_file(folder, rel, span, diags)
        if path is None:
            continue
        text = read_text(path, f"{shown}/{rel}", diags)
        if text is not None:
            programs.append(parse_rules(text, f"{shown}/{rel}", diags))
    return programs


def compile_rules(manifest: Manifest, pack_dir: Path, shown: str,
                  diags: Diagnostics) -> dict[str, Any] | None:
    """Parse every rules file, then check and lower them together (they share one scope).

    Errors found earlier (a deck file that is not YAML) do not stop the check: the rules
    only need the manifest, and every error of a run is reported at once.
    """
    if not manifest.rules_files:
        return None
    before = len(diags.errors)
    programs = _parse_rules_files([(pack_dir, shown, rel, span)
                                   for rel, span in manifest.rules_files], diags)
    if len(diags.errors) > before:
        return None
    ir = RulesChecker(manifest, diags, pack_prefix=f"{shown}/").check(programs)
    ir["files"] = [rel for rel, _ in manifest.rules_files]
    return ir
