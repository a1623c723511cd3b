"""Read deck files and turn each card into a table row, checked against the manifest.

This is the compiler's hot path (a 10,000-card pack runs it 10,000 times), so the per-card
work is kept flat: the symbol notation of a card is parsed and resolved once per distinct
text, and positions are only turned into spans when something is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.manifest import DEFAULT_INT_RANGE, FieldDef, Manifest
from decklore.compiler.load.paths import pack_file
from decklore.compiler.load.schema_check import checker_for
from decklore.compiler.load.symbol_notation import (
    NotationError,
    SymbolList,
    notation_words,
    parse_symbol_list,
    parse_symbol_value,
)
from decklore.compiler.load.yaml_loader import LoadedFile, LocatedDict, LocatedList, load_file
from decklore.schema import load_schema

RECEIVERS = ("self", "opponent", "opponents", "all")
_TEXT_TOKEN = re.compile(r"\{([^{}]*)\}")


@dataclass
class DeckData:
    """A compiled deck: its header row and its card rows, with where they came from."""

    row: dict[str, Any]
    cards: list[dict[str, Any]]
    card_spans: list[Span]
    id_span: Span


@dataclass
class Uses:
    """Where lock letters, keys and card references appear, for the cross-card checks."""

    locks: dict[str, list[Span]] = field(default_factory=dict)
    keys: dict[str, list[Span]] = field(default_factory=dict)
    card_refs: list[tuple[str, Span]] = field(default_factory=list)


CARD_REF = "^([a-z][a-z0-9_-]{0,39}:)?[a-z][a-z0-9_-]{0,59}$"
"""A card id, short or qualified by its pack."""


def card_schema(manifest: Manifest) -> dict[str, Any]:
    """The deck schema closed over this pack's card kinds and declared fields."""
    schema = load_schema("deck")
    card = schema["$defs"]["card"]
    card["additionalProperties"] = False
    card.pop("propertyNames", None)
    if manifest.kinds:
        card["properties"]["kind"] = {
            "description": card["properties"]["kind"]["description"],
            "enum": list(manifest.kinds),
        }
    for fdef in manifest.fields.values():
        card["properties"][fdef.name] = _field_schema(fdef)
        if fdef.required:
            card["required"].append(fdef.name)
    return schema


def _field_schema(fdef: FieldDef) -> dict[str, Any]:
    kind = fdef.type
    out: dict[str, Any] = {"description": fdef.description}
    if kind == "int":
        low = fdef.min if fdef.min is not None else DEFAULT_INT_RANGE[0]
        high = fdef.max if fdef.max is not None else DEFAULT_INT_RANGE[1]
        out.update(type=["integer", "null"], minimum=low, maximum=high)
    elif kind == "bool":
        out["type"] = ["boolean", "null"]
    elif kind == "enum":
        out["enum"] = [*fdef.values, None]
    elif kind == "lock":
        out.update(type=["string", "null"], pattern="^[A-Z]$")
    elif kind == "card":
        out.update(type=["string", "null"], pattern=CARD_REF)
    elif kind == "cards":
        out.update(type=["array", "null"], items={"type": "string", "pattern": CARD_REF},
                   maxItems=100, uniqueItems=True)
    else:  # text, symbols, symbol_value
        out.update(type=["string", "null"], maxLength=2000 if kind == "text" else 500)
    return out


class MergedDict(LocatedDict):
    """A card made from a template and its own keys: each key keeps the file it came from."""

    __slots__ = ("files",)

    def __init__(self, file: str, pos: Any) -> None:
        super().__init__(file, pos)
        self.files: dict[str, str] = {}

    def key_span(self, key: str) -> Span:
        return Span(self.files.get(key, self.file), *self.key_pos.get(key, self.pos))

    def value_span(self, key: str) -> Span:
        return Span(self.files.get(key, self.file), *self.value_pos.get(key, self.pos))


class DeckCompiler:
    """Compiles the deck files of one pack; holds the per-compile notation caches."""

    def __init__(self, manifest: Manifest, pack_dir: Path, display_dir: str,
                 diags: Diagnostics, templates: dict[str, LocatedDict] | None = None) -> None:
        self.m = manifest
        self.templates: dict[str, LocatedDict] = {} if templates is None else templates
        """Abstract cards by full id, shared by the packs of a load order."""
        self.pack_dir = pack_dir
        self.display_dir = display_dir
        self.diags = diags
        schema = card_schema(manifest)
        self.schema = checker_for(schema)
        self.card_only = checker_for({"$schema": schema["$schema"], "$defs": schema["$defs"],
                                      "$ref": "#/$defs/card"})
        self.uses = Uses()
        self.default_kind = next(iter(manifest.kinds), None)
        self._symbols: dict[str, list[dict[str, Any]]] = {}
        self._values: dict[str, dict[str, Any]] = {}
        self._texts: set[str] = set()
        stacking = manifest.stacking
        self.stack_cost = stacking["cost_field"] if stacking else None
        self.words = notation_words(
            ((sid, spec.argument, spec.receiver) for sid, spec in manifest.symbols.items()),
            stacking["verb"] if stacking else None)
        """The examples notation messages give, in this pack's own symbols and verb."""
        self.field_items = list(manifest.fields.values())

    def compile_file(self, rel: str, span: Span) -> tuple[DeckData | None, LoadedFile | None]:
        path = pack_file(self.pack_dir, rel, span, self.diags)
        if path is None:
            return None, None
        display = f"{self.display_dir}/{rel}"
        loaded = load_file(path, display, self.diags)
        data = loaded.data
        if data is None:
            if loaded.read and loaded.text.strip() == "":
                self.diags.error("E022", "deck file is empty", Span(display, 1, 1),
                                 "a deck file has a 'deck:' header and a 'cards:' list")
            return None, loaded
        if not isinstance(data, LocatedDict):
            self.diags.error("E022", "a deck file must be a mapping with 'deck' and 'cards'",
                             Span(display, 1, 1), "see docs/pack-format.md")
            return None, loaded
        if not self.schema.check(data, display, self.diags, gate=not loaded.has_floats):
            self._check_valid_cards(data, rel, loaded)
            return None, loaded
        return self._deck(data, rel, display, loaded), loaded

    def _check_valid_cards(self, data: LocatedDict, rel: str, loaded: LoadedFile) -> None:
        """After schema errors, still check the cards that passed, so one run reports all."""
        items = data.get("cards")
        if not isinstance(items, LocatedList):
            return
        lines = loaded.text.splitlines()
        for index, raw in enumerate(items):
            if (isinstance(raw, LocatedDict) and not loaded.has_floats
                    and self.card_only.is_valid(raw)):
                self._card_slow(raw, "", rel, items.item_pos[index][0], lines)

    def _deck(self, data: LocatedDict, rel: str, display: str, loaded: LoadedFile) -> DeckData:
        header = data["deck"]
        m = self.m
        deck_id = m.qualify(header["id"])
        origin_file = rel
        cards: list[dict[str, Any]] = []
        spans: list[Span] = []
        items = data["cards"]
        lines: list[str] | None = None
        for index, raw in enumerate(items):
            pos = items.item_pos[index]
            if raw.get("abstract"):
                self.templates[m.qualify(raw["id"])] = raw
                continue
            if "extends" in raw:
                raw = self._from_template(raw)
                if raw is None:
                    continue
            row = self._card(raw, deck_id, origin_file, pos[0])
            if row is None:
                if lines is None:
                    lines = loaded.text.splitlines()
                row = self._card_slow(raw, deck_id, origin_file, pos[0], lines)
            cards.append(row)
            spans.append(Span(display, pos[0], pos[1]))
        deck_row = {
            "id": deck_id,
            "name": header["name"],
            "description": " ".join(header.get("description", "").split()),
            "tags": list(header.get("tags", [])),
            "cards": [c["id"] for c in cards],
            "origin": {"pack": m.id, "file": rel, "line": data.key_pos["deck"][0]},
        }
        if "back" in header:  # only when given, so packs without backs keep their tables
            deck_row["back"] = header["back"]
        return DeckData(deck_row, cards, spans, header.value_span("id"))

    def _from_template(self, raw: LocatedDict) -> LocatedDict | None:
        """The card a template and a card's own keys make together.

        Merge rule: the card's keys replace the template's, key by key (a notation or a list
        is replaced whole, not merged); ``abstract`` is not inherited.  A template may
        itself extend another.  Positions follow each key to the file that set it.
        """
        chain: list[LocatedDict] = [raw]
        seen = {self.m.qualify(raw["id"])}
        while "extends" in chain[-1]:
            name = self.m.qualify(chain[-1]["extends"])
            parent = self.templates.get(name)
            if parent is None or name in seen:
                problem = "extends itself" if name in seen else f"no template '{name}'"
                hint = ("a template is a card with 'abstract: true', listed before the cards "
                        "that extend it" + (f"; {found}" if (found := suggest(
                            name, self.templates)) else ""))
                self.diags.error("E139", f"card '{raw['id']}': {problem}",
                                 chain[-1].value_span("extends"), hint)
                return None
            seen.add(name)
            chain.append(parent)
        merged = MergedDict(raw.file, raw.pos)
        for part in reversed(chain):
            for key, value in part.items():
                if key in ("abstract", "extends"):
                    continue
                merged[key] = value
                merged.key_pos[key] = part.key_pos[key]
                merged.value_pos[key] = part.value_pos[key]
                merged.files[key] = part.file
        if "name" not in merged:
            self.diags.error("E139", f"card '{raw['id']}' has no name, and neither has its "
                             "template", raw.span, "give the card or its template a name")
            return None
        return merged

    def patch_values(self, changes: LocatedDict, lines: list[str]) -> dict[str, Any]:
        """Compile the fields a patch sets, as a deck file's card would have them.

        Problems are reported at the patch's own lines: a mod's bad value is the mod's.
        """
        out: dict[str, Any] = {}
        fields = {f.name: f for f in self.field_items}
        for key, value in changes.items():
            if key == "symbols":
                out[key] = self._symbol_list(changes, value or "", lines)
                self._note_locks(changes, out[key])
            elif key == "text":
                if value:
                    self._check_text(changes, value)
                out[key] = value or ""
            elif key == "tags":
                out[key] = list(value or [])
            elif key in fields:
                fdef = fields[key]
                if value is None:
                    out[key] = fdef.default
                elif fdef.type == "symbol_value":
                    out[key] = self._symbol_value(changes, key, value, lines)
                elif fdef.type == "symbols":
                    out[key] = self._symbol_list(changes, value, lines, key=key)
                elif fdef.type == "card":
                    out[key] = self.m.qualify(value)
                    self.uses.card_refs.append((out[key], changes.value_span(key)))
                elif fdef.type == "cards":
                    out[key] = self._card_list(value, changes.value_span(key))
                else:
                    out[key] = value
            else:
                out[key] = value
        return out

    def _card(self, raw: LocatedDict, deck: str, file: str, line: int) -> dict[str, Any] | None:
        """Fast path: a row from a card whose notations are already known good, else None."""
        sym_text = raw.get("symbols") or ""
        symbols = self._symbols.get(sym_text)
        if symbols is None:
            return None
        text = raw.get("text") or ""
        if text and text not in self._texts and not self._text_ok(text):
            return None
        row = self._core(raw, deck, file, line, symbols, text)
        values = self._values
        for fdef in self.field_items:
            value = raw.get(fdef.name)
            if value is None:
                value = fdef.default
            elif fdef.type == "symbol_value":
                value = values.get(value)
                if value is None:
                    return None
            elif fdef.type in ("card", "cards", "symbols"):
                return None
            row[fdef.name] = value
        if symbols and symbols[-1]["per_stacked"] and (
            self.stack_cost is None or row.get(self.stack_cost) is None
        ):
            return None
        self._note_locks(raw, symbols)
        return row

    def _card_list(self, value: list[str], span: Span) -> list[str]:
        """A field naming other cards: each id qualified, and checked later where written."""
        out = [self.m.qualify(v) for v in value]
        for i, ref in enumerate(out):
            here = value.item_span(i) if isinstance(value, LocatedList) else None
            self.uses.card_refs.append((ref, here or span))
        return out

    def _core(self, raw: LocatedDict, deck: str, file: str, line: int,
              symbols: list[dict[str, Any]], text: str) -> dict[str, Any]:
        return {
            "id": self.m.qualify(raw["id"]),
            "name": raw["name"],
            "deck": deck,
            "kind": raw.get("kind", self.default_kind),
            "copies": raw.get("copies", 1),
            "unique": raw.get("unique", False),
            "symbols": symbols,
            "text": text,
            "flavor": raw.get("flavor") or "",
            "tags": list(raw.get("tags", ())),
            "origin": {"pack": self.m.id, "file": file, "line": line},
        }

    def _card_slow(self, raw: LocatedDict, deck: str, file: str, line: int,
                   lines: list[str]) -> dict[str, Any]:
        """Full path: parse and check every notation, reporting problems at their place."""
        sym_text = raw.get("symbols") or ""
        symbols = self._symbol_list(raw, sym_text, lines)
        text = raw.get("text") or ""
        if text:
            self._check_text(raw, text)
        row = self._core(raw, deck, file, line, symbols, text)
        for fdef in self.field_items:
            value = raw.get(fdef.name)
            if value is None:
                row[fdef.name] = fdef.default
                continue
            if fdef.type == "symbol_value":
                value = self._symbol_value(raw, fdef.name, value, lines)
            elif fdef.type == "symbols":
                value = self._symbol_list(raw, value, lines, key=fdef.name)
            elif fdef.type == "card":
                value = self.m.qualify(value)
                self.uses.card_refs.append((value, raw.value_span(fdef.name)))
            elif fdef.type == "cards":
                value = self._card_list(value, raw.value_span(fdef.name))
            row[fdef.name] = value
        if symbols and symbols[-1]["per_stacked"] and (
            self.stack_cost is None or row.get(self.stack_cost) is None
        ):
            if self.stack_cost is None:
                hint = "this pack declares no 'stacking:'; remove the dash"
            else:
                hint = f"give the card a value for '{self.stack_cost}', or remove the dash"
            self.diags.error("E135", f"card '{raw['id']}' has {self.words['a_dash']} but "
                             "cannot be stacked", raw.value_span("symbols"), hint)
        self._note_locks(raw, symbols)
        return row

    def _note_locks(self, raw: LocatedDict, symbols: list[dict[str, Any]]) -> None:
        """Record lock letters and keys, for the pack-wide lock/key check."""
        uses = self.uses
        for fdef in self.field_items:
            if fdef.type == "lock":
                letter = raw.get(fdef.name)
                if letter:
                    uses.locks.setdefault(letter, []).append(raw.value_span(fdef.name))
        where: Span | None = None  # the notation's place, made once per card
        for entry in symbols:
            if entry["lock"]:
                where = where or raw.value_span("symbols")
                uses.locks.setdefault(entry["lock"], []).append(where)
            if entry["key"]:
                where = where or raw.value_span("symbols")
                uses.keys.setdefault(entry["argument"], []).append(where)

    def _shift(self, raw: LocatedDict, key: str, rel: Span, lines: list[str]) -> Span:
        """Move a span relative to a notation to its place in the file.

        Exact only when the notation sits on one line as typed (plain or quoted, no
        escapes); otherwise the whole value is the best place that is sure to be right.
        """
        line, col, end_line, _ = raw.value_pos.get(key, raw.pos)
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        quoted = 1 if col - 1 < len(source) and source[col - 1] in "'\"" else 0
        text = raw.get(key)
        start = col - 1 + quoted
        if (end_line != line or not isinstance(text, str)
                or source[start:start + len(text)] != text):
            return raw.value_span(key)
        return Span(raw.file, rel.line, rel.column, rel.end_line, rel.end_column).shifted(
            line - 1, col - 1 + quoted
        )

    def _symbol_list(self, raw: LocatedDict, text: str, lines: list[str],
                     key: str = "symbols") -> list[dict[str, Any]]:
        cached = self._symbols.get(text)
        if cached is not None:
            return cached
        parsed = parse_symbol_list(text)
        diags = self.diags
        if isinstance(parsed, NotationError):
            span = self._shift(raw, key, Span("", parsed.line, parsed.column), lines)
            message, hint = parsed.worded(self.words)
            diags.error("E130", f"in {key}: {message}", span, hint)
            return []
        before = len(diags.items)
        entries = self._resolve_symbols(raw, key, parsed, lines)
        if len(diags.items) == before:
            self._symbols[text] = entries
        return entries

    def _resolve_symbols(self, raw: LocatedDict, key: str, parsed: SymbolList,
                         lines: list[str]) -> list[dict[str, Any]]:
        m = self.m
        entries: list[dict[str, Any]] = []
        for item in parsed.items:
            local = m.local(item.symbol)
            sdef = m.symbols.get(local) if local else None
            if sdef is None:
                diags_hint = suggest(item.symbol, m.symbols) or (
                    "symbols are declared under 'symbols:' in pack.yaml")
                self.diags.error("E131", f"unknown symbol '{item.symbol}'",
                                 self._shift(raw, key, item.name_span, lines), diags_hint)
                continue
            argument: str | None = None
            if sdef.argument == "none" and item.argument is not None:
                self.diags.error("E132", f"symbol '{sdef.id}' takes no argument",
                                 self._shift(raw, key, item.name_span, lines),
                                 f"write '{sdef.id}' without brackets")
            elif sdef.argument != "none" and item.argument is None:
                example = f"{sdef.id}(A)" if sdef.argument == "lock" else f"{sdef.id}(name)"
                what = "a lock letter" if sdef.argument == "lock" else "a symbol"
                self.diags.error("E132", f"symbol '{sdef.id}' needs {what} in brackets",
                                 self._shift(raw, key, item.name_span, lines),
                                 f"write it as {example}")
            elif sdef.argument == "lock":
                assert item.argument is not None and item.argument_span is not None
                if not (len(item.argument) == 1 and item.argument.isupper()):
                    self.diags.error("E133", f"'{sdef.id}' needs a lock letter, not "
                                     f"'{item.argument}'",
                                     self._shift(raw, key, item.argument_span, lines),
                                     "a lock letter is one capital letter, as in key(B)")
                argument = item.argument
            elif sdef.argument == "symbol":
                assert item.argument is not None and item.argument_span is not None
                target = m.local(item.argument)
                if target is None or target not in m.symbols:
                    self.diags.error("E133", f"'{sdef.id}' names unknown symbol "
                                     f"'{item.argument}'",
                                     self._shift(raw, key, item.argument_span, lines),
                                     suggest(item.argument, m.symbols) or
                                     "name a symbol declared in pack.yaml")
                else:
                    argument = m.qualify(target)
            receiver = item.receiver or sdef.receiver
            if item.receiver is not None and item.receiver not in RECEIVERS:
                assert item.receiver_span is not None
                self.diags.error("E134", f"unknown receiver '{item.receiver}'",
                                 self._shift(raw, key, item.receiver_span, lines),
                                 suggest(item.receiver, RECEIVERS) or
                                 f"use one of: {', '.join(RECEIVERS)}")
            entries.append({
                "symbol": m.qualify(sdef.id),
                "count": item.count,
                "argument": argument,
                "key": sdef.argument == "lock",
                "lock": item.lock,
                "to": receiver,
                "per_stacked": item.per_stacked,
            })
        return entries

    def _symbol_value(self, raw: LocatedDict, key: str, text: str,
                      lines: list[str]) -> dict[str, Any] | None:
        cached = self._values.get(text)
        if cached is not None:
            return cached
        parsed = parse_symbol_value(text)
        if isinstance(parsed, NotationError):
            where = self._shift(raw, key, Span("", parsed.line, parsed.column), lines)
            message, hint = parsed.worded(self.words)
            self.diags.error("E130", message, where, hint)
            return None
        local = self.m.local(parsed.symbol)
        if local is None or local not in self.m.symbols:
            self.diags.error("E137", f"unknown symbol '{parsed.symbol}'",
                             self._shift(raw, key, parsed.name_span, lines),
                             suggest(parsed.symbol, self.m.symbols) or
                             "name a symbol declared in pack.yaml")
            return None
        value = {"symbol": self.m.qualify(local), "value": parsed.value,
                 "per_stacked": parsed.per_stacked}
        self._values[text] = value
        return value

    def _text_ok(self, text: str) -> bool:
        """Whether every ``{symbol}`` token in a card text names a symbol (no reporting)."""
        local = self.m.local
        symbols = self.m.symbols
        for match in _TEXT_TOKEN.finditer(text):
            name = local(match.group(1).strip())
            if name is None or name not in symbols:
                return False
        return True

    def _check_text(self, raw: LocatedDict, text: str) -> None:
        ok = True
        for match in _TEXT_TOKEN.finditer(text):
            name = match.group(1).strip()
            local = self.m.local(name)
            if local is None or local not in self.m.symbols:
                ok = False
                self.diags.error("E136", f"card text names unknown symbol '{{{name}}}'",
                                 raw.value_span("text"),
                                 suggest(name, self.m.symbols) or
                                 "write {symbol} with a symbol id from pack.yaml")
        if ok:
            self._texts.add(text)
