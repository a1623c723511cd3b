"""The compiler facade: ``compile_pack(path)`` runs every stage and returns tables or errors.

Stages: load and check ``pack.yaml`` (manifest) -> load, schema-check and compile each
deck file (decks) -> pack-wide checks (checks) -> emit canonical tables (emit).  Each
stage collects all its diagnostics; the pipeline stops after a stage that found errors,
so later stages never see half-built data.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.compiler import checks
from decklore.compiler.cache import TableCache, pack_key
from decklore.compiler.decks import DeckCompiler, DeckData
from decklore.compiler.diagnostics import (
    Diagnostic,
    Diagnostics,
    PackError,
    Severity,
    Span,
)
from decklore.compiler.emit import TABLES_FORMAT_VERSION, seal
from decklore.compiler.manifest import Manifest, load_manifest
from decklore.compiler.packs import RELATION_KEYS
from decklore.compiler.paths import pack_file
from decklore.compiler.rules_check import RulesChecker
from decklore.compiler.rules_parser import parse_rules
from decklore.compiler.yaml_loader import read_text

COMPILER_VERSION = "0.1.0"


@dataclass
class CompileResult:
    """Compiled tables as canonical bytes, a summary, and the warnings found.

    ``tables`` is parsed from ``data`` on first use, so a cached recompile that only
    writes the bytes out never pays for decoding them.
    """

    data: bytes
    summary: dict[str, Any]
    warnings: list[Diagnostic] = field(default_factory=list)
    from_cache: bool = False
    _tables: dict[str, Any] | None = None

    @property
    def tables(self) -> dict[str, Any]:
        if self._tables is None:
            self._tables = json.loads(self.data)
        return self._tables


def summarize(tables: dict[str, Any]) -> dict[str, Any]:
    """What the CLI reports about a compile, kept with cached tables."""
    pack = tables["pack"]
    return {
        "id": pack["id"], "name": pack["name"], "version": pack["version"],
        "decks": len(tables["decks"]), "cards": len(tables["cards"]),
        "copies": sum(c["copies"] for c in tables["cards"]),
    }


def display_path(path: Path | str) -> str:
    """The pack folder as the user named it, with '/' separators, for messages."""
    text = Path(path).as_posix()
    return text.rstrip("/") or "."


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
        raise PackError([Diagnostic(Severity.ERROR, "E020", "no pack.yaml in this folder",
                                    where, hint)])
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
    checks.check_ids(decks, diags)
    cards = {c["id"]: c for d in decks for c in d.cards}
    checks.check_references(cards, uses, diags)
    checks.check_locks(uses, diags)
    checks.check_deck_rules(manifest, decks, diags)
    checks.check_ai(manifest, rules, diags)
    checks.check_balance(manifest, rules, diags)
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


_RELATION = re.compile(rf"^({'|'.join(RELATION_KEYS)})\s*:", re.MULTILINE)


def _from_cache(cache: TableCache, key: str, warnings_as_errors: bool) -> CompileResult | None:
    """The cached compile under ``key``, with its warnings (errors under --strict)."""
    hit = cache.get(key)
    if hit is None:
        return None
    data, meta = hit
    warnings = [_diagnostic_from_json(w) for w in meta["warnings"]]
    if warnings_as_errors and warnings:
        raise PackError([_as_error(w) for w in warnings])
    return CompileResult(data, meta["summary"], warnings, from_cache=True)


def _is_mod(pack_dir: Path) -> bool:
    """Whether pack.yaml names other packs (a cheap look, before any parsing)."""
    try:
        return bool(_RELATION.search((pack_dir / "pack.yaml").read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError):
        return False


def _compile_layered(pack_dir: Path, shown: str, cache: TableCache | None,
                     warnings_as_errors: bool, diags: Diagnostics,
                     progress: Callable[[int, int], None] | None) -> CompileResult:
    """A pack that builds on others: every pack of its load order, layered bottom up."""
    from decklore.compiler import layering
    from decklore.compiler.packs import load_order

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
    from decklore.compiler import layering

    added, replacing = layering.rules_sources(stack)
    if not added and not replacing:
        return None
    top = stack.layers[-1]

    programs = _parse_rules_files([(layer.folder, layer.shown, rel, span)
                                   for layer, rel, span in added], diags)
    replacements = _parse_rules_files([(layer.folder, layer.shown, rel, span)
                                       for layer, rel, span in replacing], diags)
    if _failed(diags):
        return None
    programs = layering.replace_declarations(programs, replacements, diags)
    if _failed(diags):
        return None
    below = {f"{layer.shown}/": layer.id for layer in stack.layers if layer is not top}
    ir = RulesChecker(stack.merged, diags, pack_prefix=f"{top.shown}/",
                      other_packs=below).check(programs)
    ir["files"] = [f"{layer.id}:{rel}" if layer is not top else rel
                   for layer, rel, _ in added + replacing]
    return ir


def _failed(diags: Diagnostics) -> bool:
    return diags.has_errors


TEMPLATE_SUFFIXES = (".j2", ".css")
MAX_TEMPLATE_BYTES = 256 * 1024


def pack_templates(pack_dir: Path, shown: str, diags: Diagnostics) -> dict[str, str]:
    """The pack's own sheet templates and CSS (``templates/*.j2``, ``templates/*.css``).

    They replace the built-in ones of the same name and render in the same sandbox.  They
    go into the tables, so sheets can be printed from the tables alone.
    """
    folder = pack_dir / "templates"
    if not folder.is_dir():
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
        if text is not None and _template_is_safe(text, f"{shown}/{rel}", rel, diags):
            found[path.name] = text
    return found


# What a pack's template or CSS may not contain: sheets are opened in browsers, so anything
# that runs code or loads from elsewhere would let an untrusted pack act on the reader.
_UNSAFE_TEMPLATE = re.compile(
    r"<\s*(script|iframe|object|embed|link|base|meta|form)\b"
    r"|javascript\s*:"
    r"|\son[a-z]+\s*="
    r"|<\s*/\s*style"
    r"|@import"
    r"|\b(?:src|href|action)\s*=\s*[\"']?(?!data:|#)[a-z0-9./]"
    r"|url\(\s*[\"']?(?!data:|#)",
    re.IGNORECASE)


def _template_is_safe(text: str, display: str, rel: str, diags: Diagnostics) -> bool:
    match = _UNSAFE_TEMPLATE.search(text)
    if match is None:
        return True
    line = text.count("\n", 0, match.start()) + 1
    column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    found = " ".join(match.group(0).split())
    diags.error("E144", f"template '{rel}' contains '{found}', which is not allowed",
                Span(display, line, column, line, column + len(match.group(0))),
                "sheet templates may not run code or load anything: draw with HTML and CSS, "
                "and inline images as data: URLs")
    return False


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
    """Parse every rules file, then check and lower them together (they share one scope)."""
    if not manifest.rules_files:
        return None
    programs = _parse_rules_files([(pack_dir, shown, rel, span)
                                   for rel, span in manifest.rules_files], diags)
    if diags.has_errors:
        return None
    ir = RulesChecker(manifest, diags, pack_prefix=f"{shown}/").check(programs)
    ir["files"] = [rel for rel, _ in manifest.rules_files]
    return ir


def build_tables(manifest: Manifest, decks: list[DeckData],
                 rules: dict[str, Any] | None = None,
                 layers: list[Any] | None = None) -> dict[str, Any]:
    """The runtime tables: plain data, every row carrying the place it came from."""
    m = manifest

    prefix = m.file.removesuffix("pack.yaml")
    places = [(f"{layer.shown}/", layer.id) for layer in layers or []]

    def origin(span: Span) -> dict[str, Any]:
        for start, pack in places:
            if span.file.startswith(start):
                return {"pack": pack, "file": span.file.removeprefix(start),
                        "line": span.line}
        return {"pack": m.id, "file": span.file.removeprefix(prefix), "line": span.line}

    return {
        "format_version": TABLES_FORMAT_VERSION,
        "compiler": f"decklore {COMPILER_VERSION}",
        "pack": {
            "id": m.id,
            "name": m.name,
            "version": m.version,
            "description": " ".join(m.description.split()),
            "players": {"min": m.players[0], "max": m.players[1],
                        **({"automated": {str(k): v for k, v in sorted(m.automated.items())}}
                           if m.automated else {})},
            **m.meta,
        },
        "packs": [{"id": layer.id, "version": layer.manifest.version}
                  for layer in layers] if layers else [{"id": m.id, "version": m.version}],
        "symbols": [
            {
                "id": m.qualify(s.id), "name": s.name, "kind": s.kind, "meaning": s.meaning,
                "argument": s.argument, "receiver": s.receiver, "color": s.color,
                "icon_svg": s.icon, "origin": origin(s.span),
            }
            for s in m.symbols.values()
        ],
        "card_kinds": [
            {k: v for k, v in kind.items() if k != "_span"} | {"origin": origin(kind["_span"])}
            for kind in m.kinds.values()
        ],
        "card_fields": [
            {
                "name": f.name, "type": f.type, "label": f.label, "description": f.description,
                "min": f.min, "max": f.max, "values": list(f.values), "default": f.default,
                "required": f.required, "face": f.face,
            }
            for f in m.fields.values()
        ],
        "stacking": m.stacking,
        "deck_rules": [
            {"id": r.id, "description": r.description, "decks_tagged": r.tag, "kind": r.kind,
             "exactly": r.exactly, "min": r.min, "max": r.max}
            for r in m.deck_rules
        ],
        "decks": [d.row for d in decks],
        "cards": [c for d in decks for c in d.cards],
        "rules": rules,
        "ai": _plain_ai(m),
        **({"balance": _plain(m.balance)} if m.balance else {}),
        "renamed": _renamed(layers or [], m),
    }


def _renamed(layers: list[Any], m: Manifest) -> dict[str, str]:
    """Every pack's old ids mapped to their new ones, both qualified by the pack's id."""
    out: dict[str, str] = {}
    for manifest in [layer.manifest for layer in layers] or [m]:
        for old, new in ((manifest.raw or {}).get("renamed") or {}).items():
            out[manifest.qualify(str(old))] = manifest.qualify(str(new))
    return dict(sorted(out.items()))


def _plain(value: Any) -> Any:
    """Loaded YAML (located dicts and lists) as plain JSON data."""
    return json.loads(json.dumps(value))


def _plain_ai(m: Manifest) -> dict[str, Any] | None:
    if not m.ai:
        return None
    weights = m.ai.get("weights") or {}
    out: dict[str, Any] = {}
    for group in ("counters", "zones", "defines"):
        out[group] = dict(sorted((weights.get(group) or {}).items()))
    out["symbols"] = dict(sorted((m.qualify(k), v)
                                 for k, v in (weights.get("symbols") or {}).items()))
    out["opponents"] = weights.get("opponents", 100)
    return {"weights": out}


def _as_error(d: Diagnostic) -> Diagnostic:
    return Diagnostic(Severity.ERROR, d.code, d.message, d.span, d.hint, d.notes)


def _diagnostic_from_json(row: dict[str, Any]) -> Diagnostic:
    span = Span(row["file"], row["line"], row["column"], row["end_line"], row["end_column"])
    notes = []
    for note in row.get("notes", []):
        file, line, column = note["location"].rsplit(":", 2)
        notes.append((Span(file, int(line), int(column)), note["message"]))
    return Diagnostic(Severity(row["severity"]), row["code"], row["message"], span,
                      row["hint"], tuple(notes))
