"""Mods: one pack built from several, each adding to and changing the ones below it.

The packs of a load order (``packs.load_order``) are layered bottom up:

- **declarations** (symbols, card kinds, card fields, deck rules) are added; a name two packs
  both declare is an error that shows both places, never a silent override;
- **decks and cards** of every pack are compiled, each pack's own ids qualified by its id;
- **patch files** then change or remove cards and decks of the packs below, each operation
  explicit (``set``, ``unset``, ``add``, ``remove``), lists addressed by value, never by
  position; a patch that names no card is an error unless marked ``optional``, and a file
  applies whole or not at all;
- **rules files** are added in load order, and a pack's ``replaces:`` files replace the
  declarations (and flow blocks) of the same name.

Every change is recorded on the card it touched (``changes`` in the tables: which pack, file
and line, which fields), which ``decklore explain`` shows. Two mods that do not order each
other and set the same field differently get warning W171, unless one acknowledges the other.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.load.decks import DeckCompiler, DeckData, Uses, card_schema
from decklore.compiler.rules import nodes as n
from decklore.compiler.rules.node_class import replace as replace_node

__all__ = ["Patcher", "Stack", "compile_decks", "joined_uses", "merge_declarations",
           "replace_declarations", "rules_sources"]
from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.manifest import Manifest
from decklore.compiler.load.paths import pack_file
from decklore.compiler.load.schema_check import checker_for
from decklore.compiler.load.yaml_loader import LocatedDict, load_file
from decklore.compiler.mods.packs import Layer
from decklore.schema import load_schema

CORE_UNSET = {"text": "", "flavor": "", "tags": [], "unique": False, "copies": 1}
"""Core card fields a patch may clear, and what they become."""
LIST_FIELDS = ("tags",)
TARGETS = ("card", "deck", "remove_card", "remove_deck")
"""The keys that name a patch's target; a patch names exactly one."""


@dataclass
class Stack:
    """The merged declarations of a load order, and one view of them per pack."""

    merged: Manifest
    views: dict[str, Manifest]
    layers: list[Layer]


def merge_declarations(layers: list[Layer], diags: Diagnostics) -> Stack:
    """Symbols, kinds, fields and deck rules of every pack, each declared once."""
    symbols: dict[str, Any] = {}
    owners: dict[str, str] = {}
    kinds: dict[str, dict[str, Any]] = {}
    fields: dict[str, Any] = {}
    deck_rules: list[Any] = []
    rule_ids: dict[str, Span] = {}
    stacking: tuple[dict[str, Any], str] | None = None
    players = (0, 0)
    automated: dict[int, int] = {}
    ai: dict[str, Any] | None = None
    balance: dict[str, Any] | None = None
    boards: list[Any] = []

    def clash(what: str, name: str, span: Span, first: Span, owner: str, layer: Layer) -> None:
        diags.error("E165", f"{what} '{name}' is declared by both {owner} and {layer.id}",
                    span, f"a mod adds new {what}s; to change {owner}'s, use a patch or a "
                    "'replaces' file", notes=[(first, f"declared by {owner} here")])

    for layer in layers:
        m = layer.manifest
        for sid, sdef in m.symbols.items():
            if sid in symbols:
                clash("symbol", sid, sdef.span, symbols[sid].span, owners[sid], layer)
                continue
            symbols[sid], owners[sid] = sdef, m.id
        for kid, kind in m.kinds.items():
            if kid in kinds:
                clash("card kind", kid, kind["_span"], kinds[kid]["_span"],
                      kinds[kid]["_pack"], layer)
                continue
            kinds[kid] = {**kind, "_pack": m.id}
        for name, fdef in m.fields.items():
            if name in fields:
                clash("card field", name, fdef.span, fields[name][0].span, fields[name][1],
                      layer)
                continue
            fields[name] = (fdef, m.id)
        for rule in m.deck_rules:
            if rule.id in rule_ids:
                diags.error("E165", f"deck rule '{rule.id}' is declared twice", rule.span,
                            "give it another id", notes=[(rule_ids[rule.id], "first here")])
                continue
            rule_ids[rule.id] = rule.span
            deck_rules.append(rule)
        if m.stacking is not None:
            if stacking is not None:
                diags.error("E165", f"stacking is declared by both {stacking[1]} and {m.id}",
                            m.raw.value_span("stacking"), "a pack has one stacking rule; "
                            "remove this one")
            else:
                stacking = (m.stacking, m.id)
        if "players" in m.raw:
            players, automated = m.players, m.automated
        if m.ai:
            ai = _merge_ai(ai, m.ai)
        if m.balance:
            balance = _merge_balance(balance, m.balance)
        if m.boards:  # a mod's board of the same id replaces the base's, others add
            ids = {b["id"] for b in m.boards}
            boards = [b for b in boards if b["id"] not in ids] + list(m.boards)
    top = layers[-1].manifest
    plain_kinds = {k: {x: y for x, y in v.items() if x != "_pack"} for k, v in kinds.items()}
    plain_fields = {k: v[0] for k, v in fields.items()}
    stacked = stacking[0] if stacking else None
    merged = dataclasses.replace(
        top, symbols=symbols, kinds=plain_kinds, fields=plain_fields, stacking=stacked,
        deck_rules=deck_rules, players=players, automated=automated, ai=ai, balance=balance,
        boards=boards or None, owners={s: o for s, o in owners.items() if o != top.id})
    views = {layer.id: dataclasses.replace(
        layer.manifest, symbols=symbols, kinds=plain_kinds, fields=plain_fields,
        stacking=stacked, owners={s: o for s, o in owners.items() if o != layer.id})
        for layer in layers}
    return Stack(merged, views, layers)


def _merge_ai(below: dict[str, Any] | None, above: Any) -> dict[str, Any]:
    """A mod's weights replace the ones of the same name below, group by group."""
    out: dict[str, Any] = {"weights": {}}
    for source in (below or {}, above):
        for group, value in (source.get("weights") or {}).items():
            if isinstance(value, dict):
                out["weights"].setdefault(group, {}).update(value)
            else:
                out["weights"][group] = value
    return out


def _merge_balance(below: dict[str, Any] | None, above: Any) -> dict[str, Any]:
    """A mod's played zones replace the ones below; its bands replace those of that name."""
    out: dict[str, Any] = {k: v for k, v in (below or {}).items() if k != "bands"}
    bands = dict((below or {}).get("bands") or {})
    for key, value in above.items():
        if key == "bands":
            bands.update(value)
        else:
            out[key] = value
    if bands:
        out["bands"] = bands
    return out


def compile_decks(stack: Stack, diags: Diagnostics,
                  progress: Callable[[int, int], None] | None = None
                  ) -> tuple[list[DeckData], dict[str, DeckCompiler]]:
    """Every pack's deck files, in load order, with templates shared between packs."""
    templates: dict[str, LocatedDict] = {}
    decks: list[DeckData] = []
    compilers: dict[str, DeckCompiler] = {}
    files = [(layer, rel, span) for layer in stack.layers
             for rel, span in layer.manifest.deck_files]
    for done, (layer, rel, span) in enumerate(files, start=1):
        if layer.id not in compilers:
            compilers[layer.id] = DeckCompiler(stack.views[layer.id], layer.folder,
                                               layer.shown, diags, templates)
        deck, _ = compilers[layer.id].compile_file(rel, span)
        if deck is not None:
            decks.append(deck)
        if progress is not None:
            progress(done, len(files))
    for layer in stack.layers:  # packs without decks still patch: they need a compiler
        compilers.setdefault(layer.id, DeckCompiler(stack.views[layer.id], layer.folder,
                                                    layer.shown, diags, templates))
    return decks, compilers


def joined_uses(compilers: dict[str, DeckCompiler]) -> Uses:
    """Locks, keys and card references noted by every pack's compiler (patches included)."""
    uses = Uses()
    for compiler in compilers.values():
        _join_uses(uses, compiler.uses)
    return uses


def _join_uses(into: Uses, more: Uses) -> None:
    for letter, spans in more.locks.items():
        into.locks.setdefault(letter, []).extend(spans)
    for letter, spans in more.keys.items():
        into.keys.setdefault(letter, []).extend(spans)
    into.card_refs.extend(more.card_refs)


# --- patches ---------------------------------------------------------------------------------

@dataclass
class _Setter:
    pack: str
    value: Any
    span: Span


@dataclass
class Patcher:
    """Applies the patch files of every pack, in load order."""

    stack: Stack
    decks: list[DeckData]
    compilers: dict[str, DeckCompiler]
    diags: Diagnostics
    setters: dict[tuple[str, str], list[_Setter]] = field(default_factory=dict)

    def run(self) -> None:
        for layer in self.stack.layers:
            for rel, span in layer.manifest.patches:
                self._file(layer, rel, span)
        self._warn_rivals()

    def _find_card(self, card_id: str) -> tuple[DeckData, int] | None:
        for deck in self.decks:
            for index, card in enumerate(deck.cards):
                if card["id"] == card_id:
                    return deck, index
        return None

    def _find_deck(self, deck_id: str) -> DeckData | None:
        return next((d for d in self.decks if d.row["id"] == deck_id), None)

    def _file(self, layer: Layer, rel: str, span: Span) -> None:
        path = pack_file(layer.folder, rel, span, self.diags)
        if path is None:
            return
        display = f"{layer.shown}/{rel}"
        local = Diagnostics()
        loaded = load_file(path, display, local)
        data = loaded.data
        if data is not None and not local.has_errors:
            checker_for(load_schema("patch")).check(data, display, local,
                                                    gate=not loaded.has_floats)
        if local.has_errors or not isinstance(data, LocatedDict):
            self.diags.extend(local.items)
            return
        missing = [op for op in data["patches"] if not op.get("optional")
                   and self._target_missing(op)]
        if missing and data.get("optional"):
            first = missing[0]
            key = _target_key(first)
            self.diags.warning("W172", f"patch file skipped: '{first[key]}' is not loaded",
                               first.value_span(key), "the file is optional, so it changes "
                               "nothing when one of its targets is missing")
            return
        # Keep a copy, to put back unless the whole file goes through.
        backup = [(d, copy.deepcopy(d.row), copy.deepcopy(d.cards), list(d.card_spans))
                  for d in self.decks]
        decks_before = list(self.decks)
        lines = loaded.text.splitlines()
        compiler = self.compilers[layer.id]
        for op in data["patches"]:
            self._op(layer, rel, op, compiler, lines, local)
        self.diags.extend(local.items)
        if local.errors:  # the file had none when its changes began
            self.decks[:] = decks_before
            for deck, row, cards, spans in backup:
                deck.row.clear()
                deck.row.update(row)
                deck.cards[:] = cards
                deck.card_spans[:] = spans

    def _target_missing(self, op: LocatedDict) -> bool:
        if "card" in op or "remove_card" in op:
            return self._find_card(op.get("card") or op["remove_card"]) is None
        if "deck" in op or "remove_deck" in op:
            return self._find_deck(op.get("deck") or op["remove_deck"]) is None
        return False

    def _op(self, layer: Layer, rel: str, op: LocatedDict, compiler: DeckCompiler,
            lines: list[str], diags: Diagnostics) -> None:
        targets = [k for k in TARGETS if k in op]
        if len(targets) != 1:
            diags.error("E168", "a patch names exactly one of card, deck, remove_card and "
                        f"remove_deck (this one names {len(targets)})", op.span,
                        "split it into one patch per target")
            return
        key = targets[0]
        target = str(op[key])
        if ":" not in target:
            diags.error("E168", f"write the full id, with its pack: '{layer.id}:{target}' or "
                        f"another pack's", op.value_span(key), "a patch can change any "
                        "pack's cards, so it names them by full id ('era:hamlet')")
            return
        if key in ("card", "remove_card"):
            found = self._find_card(target)
            if found is None:
                if not op.get("optional"):
                    cards = [c["id"] for d in self.decks for c in d.cards]
                    diags.error("E166", f"patch targets no card '{target}'",
                                op.value_span(key), suggest(target, cards) or
                                "mark the patch 'optional: true' if the card may be absent")
                return
            deck, index = found
            if key == "remove_card":
                self._remove_card(deck, index, op, diags)
            else:
                self._patch_card(layer, rel, deck.cards[index], op, compiler, lines, diags)
            return
        deck_found = self._find_deck(target)
        if deck_found is None:
            if not op.get("optional"):
                diags.error("E166", f"patch targets no deck '{target}'", op.value_span(key),
                            suggest(target, [d.row["id"] for d in self.decks]) or
                            "mark the patch 'optional: true' if the deck may be absent")
            return
        if key == "remove_deck":
            for index in range(len(deck_found.cards) - 1, -1, -1):
                self._remove_card(deck_found, index, op, diags)
            self.decks.remove(deck_found)
            return
        for name, value in (op.get("set") or {}).items():
            if name not in ("name", "description", "tags"):
                diags.error("E168", f"a deck patch sets name, description or tags, not "
                            f"'{name}'", op["set"].key_span(name), "cards are patched one "
                            "by one, with 'card:'")
                continue
            deck_found.row[name] = list(value) if name == "tags" else value

    def _remove_card(self, deck: DeckData, index: int, op: LocatedDict,
                     diags: Diagnostics) -> None:
        card_id = deck.cards[index]["id"]
        users = [c["id"] for d in self.decks for c in d.cards if c["id"] != card_id
                 and any(v == card_id for v in c.values())]
        if users:
            diags.error("E167", f"cannot remove '{card_id}': {', '.join(sorted(users))} "
                        "still refer to it", op.span, "patch or remove those cards first")
            return
        del deck.cards[index]
        del deck.card_spans[index]
        deck.row["cards"] = [c["id"] for c in deck.cards]

    def _patch_card(self, layer: Layer, rel: str, card: dict[str, Any], op: LocatedDict,
                    compiler: DeckCompiler, lines: list[str], diags: Diagnostics) -> None:
        changes = op.get("set") or LocatedDict(op.file, op.pos)
        schema = _patch_card_schema(compiler)
        before = len(diags.items)
        if changes:
            checker_for(schema).check(changes, op.file, diags)
        if len(diags.items) > before:
            return
        values = compiler.patch_values(changes, lines)
        done: dict[str, list[str]] = {"set": [], "unset": [], "add": [], "remove": []}
        for name, value in values.items():
            card[name] = value
            done["set"].append(name)
            self.setters.setdefault((card["id"], name), []).append(
                _Setter(layer.id, value, changes.value_span(name)))
        declared = {f.name: f for f in compiler.field_items}
        unset: Any = op.get("unset") or []
        for i, name in enumerate(unset):
            if name in declared:
                card[name] = declared[name].default
            elif name in CORE_UNSET:
                card[name] = CORE_UNSET[name]
            else:
                diags.error("E168", f"cannot unset '{name}'", unset.item_span(i),
                            "unset clears a declared field or text, flavor, tags, unique or "
                            "copies; id, name and kind always have a value")
                continue
            done["unset"].append(name)
        for verb in ("add", "remove"):
            lists: Any = op.get(verb) or {}
            for name, items in lists.items():
                if name not in LIST_FIELDS:
                    diags.error("E168", f"'{verb}' works on list fields ({', '.join(LIST_FIELDS)}"
                                f"), not '{name}'", lists.key_span(name),
                                "replace other fields whole with 'set'")
                    continue
                current = list(card.get(name) or [])
                for j, item in enumerate(items):
                    if verb == "add" and item not in current:
                        current.append(item)
                    elif verb == "remove":
                        if item not in current:
                            diags.error("E168", f"cannot remove '{item}' from {name}: it is "
                                        f"not there ({', '.join(current) or 'empty'})",
                                        items.item_span(j), "remove only what the card has")
                            continue
                        current.remove(item)
                card[name] = current
                done[verb].append(name)
        record = {"pack": layer.id, "file": rel, "line": op.span.line,
                  **{k: sorted(v) for k, v in done.items() if v}}
        if op.get("note"):
            record["note"] = op["note"]
        card.setdefault("changes", []).append(record)

    def _warn_rivals(self) -> None:
        order = {layer.id: layer for layer in self.stack.layers}
        for (card_id, name), setters in sorted(self.setters.items()):
            for i, a in enumerate(setters):
                for b in setters[i + 1:]:
                    if a.pack == b.pack or a.value == b.value:
                        continue
                    if _ordered(order, a.pack, b.pack) or _acknowledges(order, a.pack, b.pack):
                        continue
                    self.diags.warning(
                        "W171", f"{a.pack} and {b.pack} both set {name} of {card_id}, "
                        f"differently, and neither loads after the other", b.span,
                        f"{b.pack} wins by pack id; if that is meant, add '{a.pack}' to "
                        f"{b.pack}'s acknowledge list, or order them with load_after",
                        notes=[(a.span, f"{a.pack} sets it here")])


def _patch_card_schema(compiler: DeckCompiler) -> dict[str, Any]:
    schema = card_schema(compiler.m)
    card = schema["$defs"]["card"]
    card["required"] = []
    for key in ("id", "abstract", "extends", "if", "then", "else"):
        card["properties"].pop(key, None)
        card.pop(key, None)
    return {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/card"}


def _needs_all(order: dict[str, Layer], pack: str) -> set[str]:
    seen: set[str] = set()
    todo = [pack]
    while todo:
        for dep in order[todo.pop()].needs:
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def _ordered(order: dict[str, Layer], a: str, b: str) -> bool:
    return a in _needs_all(order, b) or b in _needs_all(order, a)


def _acknowledges(order: dict[str, Layer], a: str, b: str) -> bool:
    def acks(x: str) -> set[str]:
        return set(order[x].manifest.raw.get("acknowledge") or [])
    return a in acks(b) or b in acks(a)


def _target_key(op: LocatedDict) -> str:
    return next(k for k in TARGETS if k in op)


# --- rules -----------------------------------------------------------------------------------

def _decl_key(decl: n.Declaration) -> tuple[str, str] | None:
    name = getattr(decl, "name", None)
    if isinstance(decl, n.Flow):
        return ("flow", decl.name) if decl.name else None
    if isinstance(decl, n.StateDecl):
        return ("state", str(name))
    if isinstance(decl, n.ConstDecl | n.DefineDecl | n.ActionDecl):
        return (type(decl).__name__, str(name))
    return None


def _describe(key: tuple[str, str]) -> str:
    return {"flow": "flow block", "state": "zone, counter or flag", "ConstDecl": "constant",
            "DefineDecl": "definition", "ActionDecl": "action"}[key[0]] + f" '{key[1]}'"


def replace_declarations(programs: list[n.Program], replacing: Iterable[n.Program],
                         diags: Diagnostics) -> list[n.Program]:
    """The programs with each declaration of ``replacing`` put in place of its namesake.

    Flow blocks are found by name at any depth (a mod can replace one phase of a turn).
    A replacement that names nothing is an error: a typo would otherwise change nothing.
    """
    programs = list(programs)
    for program in replacing:
        for decl in program.declarations:
            key = _decl_key(decl)
            if key is None:
                diags.error("R160", "only named declarations can replace others", decl.span,
                            "triggers, outcomes and scores are added in 'rules:' files")
                continue
            for index, target in enumerate(programs):
                new_decls, hit = _swap(target.declarations, key, decl)
                if hit:
                    programs[index] = replace_node(target, declarations=new_decls)
                    break
            else:
                names = [k[1] for p in programs for d in p.declarations
                         if (k := _decl_key(d)) is not None and k[0] == key[0]]
                diags.error("R160", f"replaces nothing: no {_describe(key)} in the packs "
                            "below", decl.span, suggest(key[1], names) or
                            "add new declarations in a 'rules:' file instead")
    return programs


def _swap(members: tuple[Any, ...], key: tuple[str, str], new: Any) -> tuple[tuple[Any, ...], bool]:
    out = list(members)
    for index, member in enumerate(members):
        if _decl_key(member) == key:
            if isinstance(member, n.Flow) and isinstance(new, n.Flow) and member.kind != new.kind:
                continue
            out[index] = new
            return tuple(out), True
        if isinstance(member, n.Flow) and key[0] == "flow":
            inner, hit = _swap(member.members, key, new)
            if hit:
                out[index] = replace_node(member, members=inner)
                return tuple(out), True
    return members, False


def rules_sources(stack: Stack) -> tuple[list[tuple[Layer, str, Span]],
                                         list[tuple[Layer, str, Span]]]:
    """The rules files to add and the ones that replace, over every pack in order."""
    added = [(layer, rel, span) for layer in stack.layers
             for rel, span in layer.manifest.rules_files]
    replacing = [(layer, rel, span) for layer in stack.layers
                 for rel, span in layer.manifest.replaces]
    return added, replacing

