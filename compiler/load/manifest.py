"""Read ``pack.yaml`` into a checked ``Manifest``: symbols, card kinds, declared fields.

The manifest is the vocabulary every later stage checks cards against, so its own
mistakes (duplicate symbols, a default that breaks its field's type, a stacking rule that
names no field) are reported here, before any card is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.paths import pack_file, read_icon
from decklore.compiler.load.schema_check import checker_for
from decklore.compiler.load.yaml_loader import LocatedDict, LocatedList, load_file
from decklore.schema import load_schema

FORMAT_VERSION = 1
CORE_CARD_FIELDS = ("id", "name", "kind", "copies", "unique", "symbols", "text", "flavor", "tags")
FIELD_TYPES = ("int", "bool", "text", "enum", "lock", "symbols", "symbol_value", "card",
               "cards")
DEFAULT_INT_RANGE = (-1_000_000, 1_000_000)


@dataclass(frozen=True, slots=True)
class SymbolDef:
    """A symbol of the pack's vocabulary."""

    id: str
    name: str
    kind: str
    icon: str
    meaning: str
    argument: str
    receiver: str
    color: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class FieldDef:
    """A card field the pack declares, with its type and bounds."""

    name: str
    type: str
    description: str
    label: str
    min: int | None
    max: int | None
    values: tuple[str, ...]
    default: Any
    required: bool
    span: Span
    face: str = "footer"
    icon: str | None = None
    """The symbol whose icon the face draws with the value (pips, needs, points)."""
    short: str | None = None
    """The words the face prints with the value, when shorter than the label."""


@dataclass(frozen=True, slots=True)
class DeckRule:
    """A composition rule checked on every deck with the given tag."""

    id: str
    description: str
    tag: str | None
    kind: str | None
    exactly: int | None
    min: int | None
    max: int | None
    span: Span


@dataclass
class Manifest:
    """The checked contents of ``pack.yaml``."""

    id: str
    name: str
    version: str
    description: str
    players: tuple[int, int]
    symbols: dict[str, SymbolDef]
    kinds: dict[str, dict[str, Any]]
    fields: dict[str, FieldDef]
    stacking: dict[str, Any] | None
    deck_files: list[tuple[str, Span]]
    rules_files: list[tuple[str, Span]]
    deck_rules: list[DeckRule]
    meta: dict[str, Any] = field(default_factory=dict)
    automated: dict[int, int] = field(default_factory=dict)
    """Seats the rules play, by player count (a solo mode's automated rival)."""
    ai: Any = None
    balance: Any = None
    """The ``balance`` section as loaded: played zones and report bands."""
    boards: Any = None
    """The ``boards`` section as loaded (with positions): what the board sheet draws."""
    """The ``ai`` section as loaded (with positions), checked against the rules later."""
    raw: Any = None
    """pack.yaml as loaded, with positions: the relations between packs are read from it."""
    owners: dict[str, str] = field(default_factory=dict)
    """For a mod: which pack declares each symbol it may use (its own are not listed)."""
    replaces: list[tuple[str, Span]] = field(default_factory=list)
    patches: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def extends(self) -> str | None:
        value = self.raw.get("extends") if self.raw is not None else None
        return None if value is None else str(value)
    file: str = ""

    def qualify(self, name: str) -> str:
        """``hamlet`` -> ``era:hamlet``; names already qualified are kept.

        In a mod, a symbol declared by a pack below it is qualified by that pack's id.
        """
        if ":" in name:
            return name
        return f"{self.owners.get(name, self.id)}:{name}"

    def local(self, name: str) -> str | None:
        """``era:hamlet`` -> ``hamlet`` if the name belongs to this pack (or, in a mod, to
        the pack below it that declares that symbol)."""
        if ":" not in name:
            return name
        prefix, _, rest = name.partition(":")
        return rest if prefix == self.id or self.owners.get(rest) == prefix else None


def load_manifest(pack_dir: Path, display_dir: str, diags: Diagnostics) -> Manifest | None:
    """Load and check ``pack.yaml``; None when it is too broken to read cards against."""
    display = f"{display_dir}/pack.yaml"
    # pack.yaml itself may be a symlink: it must stay inside the pack like every other file.
    path = pack_file(pack_dir, "pack.yaml", Span(display, 1, 1), diags)
    if path is None:
        return None
    loaded = load_file(path, display, diags)
    data = loaded.data
    if data is None:
        if not diags.has_errors:
            diags.error("E020", "pack.yaml is empty", Span(display, 1, 1),
                        "run 'decklore new pack NAME' for a starting point")
        return None
    if not isinstance(data, LocatedDict):
        diags.error("E020", "pack.yaml must be a mapping of keys such as id, name, symbols",
                    Span(display, 1, 1), "see docs/pack-format.md")
        return None
    if not checker_for(load_schema("pack")).check(data, display, diags,
                                                 gate=not loaded.has_floats):
        return None
    return _build(data, pack_dir, display, diags)


FORMAT_2_KEYS = ("extends", "requires", "optional", "conflicts", "load_after", "acknowledge",
                 "patches", "replaces", "renamed")
"""What a pack may say only in format 2: the relations and operations of mods."""
CURRENT_FORMAT = 2
RENAMED_FACES = {"cost2_lock": "cost2_mark", "title_lock": "title_mark", "stars": "pips"}
"""Face slots named after one game, and their generic names: the old names still load,
with warning W173, and ``decklore migrate`` rewrites them."""


def _build(data: LocatedDict, pack_dir: Path, display: str, diags: Diagnostics) -> Manifest:
    is_mod = "extends" in data
    if data["format"] < 2:
        for key in FORMAT_2_KEYS:
            if key in data:
                diags.error("E129", f"'{key}' needs pack format 2, and this pack says format "
                            f"{data['format']}", data.key_span(key),
                            "run 'decklore migrate PACK' to move the pack to format 2")
    players = data.get("players") or {"min": 0, "max": 0}
    if players["min"] > players["max"]:
        diags.error("E128", f"players: min ({players['min']}) is more than max "
                    f"({players['max']})", data.value_span("players"), "swap the two numbers")
    symbols = _symbols(data, pack_dir, diags)
    kinds: dict[str, dict[str, Any]] = {}
    for i, kind in enumerate(data.get("card_kinds", [])):
        if kind["id"] in kinds:
            diags.error("E123", f"duplicate card kind '{kind['id']}'",
                        kind.value_span("id"), "give each kind its own id",
                        notes=[(kinds[kind["id"]]["_span"], "first defined here")])
            continue
        kinds[kind["id"]] = {
            "id": kind["id"], "name": kind["name"],
            "description": kind.get("description", ""),
            "layout": kind.get("layout", "portrait"), "border": kind.get("border"),
            "unblockable": bool(kind.get("unblockable", False)),
            "counts_under": bool(kind.get("counts_under", False)),
            "_span": data["card_kinds"].item_span(i),
        }  # fmt: skip
        if "face_hides" in kind:  # only when given, so other packs' tables stay as they were
            kinds[kind["id"]]["face_hides"] = list(kind["face_hides"])
        if "punch_out" in kind:
            kinds[kind["id"]]["punch_out"] = {"shape": kind["punch_out"]["shape"],
                                              "size": kind["punch_out"]["size"]}
    fields = _fields(data, diags)
    for kind in data.get("card_kinds", []):
        hides: Any = kind.get("face_hides") or []
        for index, name in enumerate(hides):
            if name not in fields:
                diags.error("E172", f"card kind '{kind['id']}' hides '{name}', which is not a "
                            "declared card field", hides.item_span(index),
                            suggest(name, list(fields)) or "name a field under card_fields")
    if not is_mod:  # a mod's icons may be its base pack's symbols, checked with the base
        for name, fdef in fields.items():
            if fdef.icon is not None and fdef.icon not in symbols:
                diags.error("E173", f"card field '{name}' draws icon '{fdef.icon}', which is "
                            "not a declared symbol",
                            data["card_fields"][name].value_span("icon"),
                            suggest(fdef.icon, list(symbols)) or "name a symbol under symbols")
    stacking = _stacking(data, fields, diags)
    deck_rules = _deck_rules(data, kinds, diags)
    deck_files = _paths(data, "decks")
    if not deck_files and not is_mod:
        diags.error("E021", "the pack lists no deck files", data.value_span("decks"),
                    "add at least one deck file under 'decks:'")
    meta = {k: data[k] for k in ("authors", "license") if k in data}
    if "notes" in data:
        pack_file(pack_dir, data["notes"], data.value_span("notes"), diags)
        meta["notes"] = data["notes"]
    return Manifest(
        id=data["id"],
        name=data["name"],
        version=data["version"],
        description=data.get("description", ""),
        players=(players["min"], players["max"]),
        automated={int(k): int(v) for k, v in (players.get("automated") or {}).items()},
        symbols=symbols,
        kinds=kinds,
        fields=fields,
        stacking=stacking,
        deck_files=deck_files,
        rules_files=_paths(data, "rules"),
        deck_rules=deck_rules,
        meta=meta,
        file=display,
        ai=data.get("ai"),
        balance=data.get("balance"),
        boards=data.get("boards"),
        raw=data,
        replaces=_paths(data, "replaces"),
        patches=_paths(data, "patches"),
    )


def _paths(data: LocatedDict, key: str) -> list[tuple[str, Span]]:
    items = data.get(key, [])
    assert isinstance(items, LocatedList | list)
    return [(p, items.item_span(i) if isinstance(items, LocatedList) else data.span)
            for i, p in enumerate(items)]


def _symbols(data: LocatedDict, pack_dir: Path, diags: Diagnostics) -> dict[str, SymbolDef]:
    symbols: dict[str, SymbolDef] = {}
    for entry in data.get("symbols", []):
        sid = entry["id"]
        if sid in symbols:
            diags.error("E122", f"duplicate symbol '{sid}'", entry.value_span("id"),
                        "give each symbol its own id",
                        notes=[(symbols[sid].span, "first defined here")])
            continue
        icon_path = pack_file(pack_dir, entry["icon"], entry.value_span("icon"), diags)
        icon = (read_icon(icon_path, entry["icon"], entry.value_span("icon"), diags)
                if icon_path else None)
        symbols[sid] = SymbolDef(
            id=sid,
            name=entry["name"],
            kind=entry["kind"],
            icon=icon or "",
            meaning=" ".join(entry["meaning"].split()),
            argument=entry.get("argument", "none"),
            receiver=entry.get("receiver", "self"),
            color=entry.get("color"),
            span=entry.value_span("id"),
        )
    return symbols


def _fields(data: LocatedDict, diags: Diagnostics) -> dict[str, FieldDef]:
    fields: dict[str, FieldDef] = {}
    declared = data.get("card_fields", {})
    for name, spec in declared.items():
        span = declared.key_span(name)
        if name in CORE_CARD_FIELDS:
            diags.error("E124", f"card field '{name}' is a core field and cannot be declared",
                        span, f"the core fields are {', '.join(CORE_CARD_FIELDS)}; "
                        "pick another name")
            continue
        ftype = spec["type"]
        low, high = spec.get("min"), spec.get("max")
        if ftype != "int" and (low is not None or high is not None):
            diags.error("E125", f"card field '{name}' has min/max but is of type {ftype}",
                        span, "min and max apply to int fields only")
        if low is not None and high is not None and low > high:
            diags.error("E125", f"card field '{name}': min ({low}) is more than max ({high})",
                        spec.value_span("min"), "swap the two numbers")
        values = tuple(spec.get("values", ()))
        if ftype == "enum" and not values:
            diags.error("E125", f"enum field '{name}' lists no values", span,
                        "add 'values: [a, b]'")
        if ftype != "enum" and values:
            diags.error("E125", f"card field '{name}' has values but is of type {ftype}",
                        spec.value_span("values"), "values apply to enum fields only")
        face = spec.get("face", "footer")
        if face in RENAMED_FACES:
            diags.warning("W173", f"card field '{name}': face slot '{face}' is now called "
                          f"'{RENAMED_FACES[face]}'", spec.value_span("face"),
                          f"write 'face: {RENAMED_FACES[face]}' (decklore migrate PACK does it)")
            face = RENAMED_FACES[face]
        fdef = FieldDef(name, ftype, " ".join(spec["description"].split()),
                        spec.get("label", name.replace("_", " ").capitalize()),
                        low, high, values, spec.get("default"), spec.get("required", False), span,
                        face, spec.get("icon"), spec.get("short"))
        if "default" in spec and (ftype != "enum" or values):
            problem = default_problem(fdef, spec["default"])
            if problem:
                diags.error("E125", f"card field '{name}': default {problem}",
                            spec.value_span("default"), "change the default to fit the type")
        fields[name] = fdef
    return fields


def default_problem(fdef: FieldDef, value: Any) -> str:
    """Why ``value`` cannot be the default of ``fdef``, or an empty string."""
    if value is None:
        return ""
    kind = fdef.type
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return "must be a whole number"
        low, high = fdef.min, fdef.max
        if (low is not None and value < low) or (high is not None and value > high):
            return f"{value} is outside {low}..{high}"
        return ""
    if kind == "bool":
        return "" if isinstance(value, bool) else "must be true or false"
    if kind == "enum":
        return "" if value in fdef.values else f"must be one of {', '.join(fdef.values)}"
    if kind == "lock":
        ok = isinstance(value, str) and len(value) == 1 and value.isupper()
        return "" if ok else "must be one capital letter"
    return "" if isinstance(value, str) else "must be text"


def _stacking(
    data: LocatedDict, fields: dict[str, FieldDef], diags: Diagnostics
) -> dict[str, Any] | None:
    spec = data.get("stacking")
    if spec is None:
        return None
    for key, wanted in (("cost_field", "int"), ("lock_field", "lock")):
        name = spec.get(key)
        if name is None:
            continue
        if name not in fields:
            diags.error("E126", f"stacking {key} names no declared card field '{name}'",
                        spec.value_span(key),
                        suggest(name, fields) or "declare it under card_fields")
        elif fields[name].type != wanted:
            diags.error("E126", f"stacking {key} '{name}' must be a field of type {wanted}, "
                        f"not {fields[name].type}", spec.value_span(key),
                        f"point {key} at a field of type {wanted}")
    return {
        "cost_field": spec["cost_field"],
        "lock_field": spec.get("lock_field"),
        "same": spec.get("same", "name"),
        "verb": spec.get("verb", "stack"),
    }


def _deck_rules(
    data: LocatedDict, kinds: dict[str, dict[str, Any]], diags: Diagnostics
) -> list[DeckRule]:
    rules: list[DeckRule] = []
    seen: set[str] = set()
    for rule in data.get("deck_rules", []):
        span = rule.value_span("id")
        if rule["id"] in seen:
            diags.error("E127", f"duplicate deck rule '{rule['id']}'", span,
                        "give each rule its own id")
        seen.add(rule["id"])
        kind = rule.get("kind")
        if kind is not None and kind not in kinds:
            diags.error("E127", f"deck rule '{rule['id']}' names unknown card kind '{kind}'",
                        rule.value_span("kind"), suggest(kind, kinds) or
                        "use a kind listed under card_kinds")
        if not any(k in rule for k in ("exactly", "min", "max")):
            diags.error("E127", f"deck rule '{rule['id']}' sets no count", span,
                        "add 'exactly: N', 'min: N' or 'max: N'")
        rules.append(DeckRule(rule["id"], rule["description"], rule.get("decks_tagged"), kind,
                              rule.get("exactly"), rule.get("min"), rule.get("max"), span))
    return rules
