"""Pack-wide checks that need every card at once: ids, references, locks, deck rules,
backs, AI weights and balance bands.

Each check is one function of the pack's facts and the diagnostics; ``PASSES`` runs them in
order and ``run`` is what the pipeline calls. A new check is a function added to the tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from decklore.compiler.diagnostics import Diagnostics, Span, suggest
from decklore.compiler.load.decks import DeckData, Uses
from decklore.compiler.load.manifest import Manifest


@dataclass(frozen=True)
class PackFacts:
    """What the pack-wide checks read: the merged manifest, every deck, the rules IR."""

    manifest: Manifest
    decks: list[DeckData]
    uses: Uses
    rules: dict[str, Any] | None
    cards: dict[str, dict[str, Any]] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", {c["id"]: c for d in self.decks for c in d.cards})


def check_ids(facts: PackFacts, diags: Diagnostics) -> None:
    """Every deck id and card id is defined once in the pack."""
    decks = facts.decks
    deck_seen: dict[str, Span] = {}
    card_seen: dict[str, Span] = {}
    for deck in decks:
        did = deck.row["id"]
        if did in deck_seen:
            diags.error("E121", f"duplicate deck id '{did}'", deck.id_span,
                        "give each deck its own id",
                        notes=[(deck_seen[did], "first defined here")])
        else:
            deck_seen[did] = deck.id_span
        for card, span in zip(deck.cards, deck.card_spans, strict=True):
            cid = card["id"]
            if cid in card_seen:
                diags.error("E120", f"duplicate card id '{cid}'", span,
                            "give each card its own id; raise 'copies' for more of one card",
                            notes=[(card_seen[cid], "first defined here")])
            else:
                card_seen[cid] = span


def check_references(facts: PackFacts, diags: Diagnostics) -> None:
    """Fields of type ``card`` name cards that exist."""
    cards, uses = facts.cards, facts.uses
    for ref, span in uses.card_refs:
        if ref not in cards:
            diags.error("E138", f"no card '{ref}' in the pack", span,
                        suggest(ref, cards) or "name a card id defined in a deck file")


def check_locks(facts: PackFacts, diags: Diagnostics) -> None:
    """Warn about locks no key opens and keys that open nothing: both are likely typos."""
    uses = facts.uses
    for letter, spans in sorted(uses.locks.items()):
        if letter not in uses.keys:
            first = min(spans)
            more = f" (and {len(spans) - 1} more place{'s' if len(spans) > 2 else ''})" \
                if len(spans) > 1 else ""
            diags.warning("W160", f"lock {letter} is never opened: no card in the pack has "
                          f"key({letter}){more}", first,
                          f"add key({letter}) to a card, or correct the letter")
    for letter, spans in sorted(uses.keys.items()):
        if letter not in uses.locks:
            diags.warning("W161", f"key({letter}) opens nothing: no card or symbol has lock "
                          f"{letter}", min(spans), "correct the letter, or remove the key")


def check_deck_rules(facts: PackFacts, diags: Diagnostics) -> None:
    """Each deck matching a composition rule has the number of cards the rule asks for."""
    manifest, decks = facts.manifest, facts.decks
    for rule in manifest.deck_rules:
        for deck in decks:
            if rule.tag is not None and rule.tag not in deck.row["tags"]:
                continue
            count = sum(c["copies"] for c in deck.cards
                        if rule.kind is None or c["kind"] == rule.kind)
            what = f"{rule.kind} cards" if rule.kind else "cards"
            problem = ""
            if rule.exactly is not None and count != rule.exactly:
                problem = f"exactly {rule.exactly}"
            elif rule.min is not None and count < rule.min:
                problem = f"at least {rule.min}"
            elif rule.max is not None and count > rule.max:
                problem = f"at most {rule.max}"
            if problem:
                diags.error("E150", f"deck '{deck.row['id']}' has {count} {what} (copies "
                            f"counted); rule '{rule.id}' asks for {problem}", deck.id_span,
                            rule.description, notes=[(rule.span, "rule defined here")])


def check_backs(facts: PackFacts, diags: Diagnostics) -> None:
    """Cards that start in one zone must share a back (W170): a face-down card whose back
    names its deck tells an opponent where it came from (ERA's conflict cards, shuffled into
    the other player's deck, would be seen coming)."""
    decks, rules = facts.decks, facts.rules
    for zone in (rules or {}).get("zones", []):
        tag = zone.get("deck") if isinstance(zone.get("deck"), str) else zone.get("holds")
        if not tag:
            continue
        members = [d for d in decks if tag in d.row["tags"]]
        backs = {d.row.get("back", d.row["name"]) for d in members}
        if len(backs) > 1:
            first = members[0]
            other = next(d for d in members
                         if d.row.get("back", d.row["name"]) != first.row.get(
                             "back", first.row["name"]))
            diags.warning("W170", f"cards of decks '{first.row['id']}' and "
                          f"'{other.row['id']}' start in '{zone['name']}' but their backs "
                          f"differ ('{first.row.get('back', first.row['name'])}', "
                          f"'{other.row.get('back', other.row['name'])}'), so a face-down "
                          "card shows which deck it came from", other.id_span,
                          "give these decks one 'back:' in their deck header",
                          notes=[(first.id_span, "this deck's back")])


def check_ai(facts: PackFacts, diags: Diagnostics) -> None:
    """The greedy agent's weights must name a player's counter, a symbol or a player's zone."""
    manifest, rules = facts.manifest, facts.rules
    ai = manifest.ai
    if not ai or not ai.get("weights"):
        return
    weights = ai["weights"]
    rules = rules or {}
    known = {
        "counters": [c["name"] for c in rules.get("counters", []) if c["per"] == "player"],
        "zones": [z["name"] for z in rules.get("zones", []) if z["per"] == "player"],
        "symbols": list(manifest.symbols),
    }
    known["defines"] = [name for name, d in rules.get("defines", {}).items()
                        if len(d["params"]) == 1 and d.get("type") == "number"]
    what = {"counters": "per-player counter", "zones": "per-player zone",
            "symbols": "symbol", "defines": "numeric define of one player"}
    for group, names in known.items():
        entries: Any = weights.get(group) or {}
        for name in entries:
            bare = manifest.local(name) if group == "symbols" else name
            if bare in names:
                continue
            hint = suggest(str(bare), names) or (
                f"weights may name the pack's {what[group]}s: " + ", ".join(sorted(names))
                if names else f"the pack has no {what[group]}s")
            diags.error("E145", f"ai weight names no {what[group]} '{name}'",
                        entries.key_span(name), hint)


def check_balance(facts: PackFacts, diags: Diagnostics) -> None:
    """The played zones of ``balance:`` are zones of the rules, and each band is low to high."""
    manifest, rules = facts.manifest, facts.rules
    balance = manifest.balance
    if not balance:
        return
    zones = [z["name"] for z in (rules or {}).get("zones", [])]
    played: Any = balance.get("played") or []
    for i, name in enumerate(played):
        if name not in zones:
            hint = suggest(name, zones) or (f"zones of the rules: {', '.join(sorted(zones))}"
                                            if zones else "the pack's rules declare no zones")
            diags.error("E148", f"balance names no zone '{name}'", played.item_span(i), hint)
    bands: Any = balance.get("bands") or {}
    for key, band in bands.items():
        low, high = band
        if low > high:
            diags.error("E149", f"band '{key}' runs from {low} down to {high}",
                        bands.value_span(key), f"write it low first: [{high}, {low}]")


def _board_form(board: Any, diags: Diagnostics) -> bool:
    """A board is a map (spaces, size, positions) or a board of rows, and each row says
    how many spaces it has in one way; False (after an E195) when it is neither."""
    name = board["id"]
    map_keys = [k for k in ("spaces", "size", "positions") if k in board]
    if "rows" in board:
        extra = [k for k in ("spaces", "positions", "links", "shows") if k in board]
        if extra:
            diags.error("E195", f"board '{name}' has rows and also '{extra[0]}', which only "
                        "a map board has", board.key_span(extra[0]),
                        "make it a board of rows or a map, not both")
            return False
        rows: Any = board["rows"]
        ok = True
        for index, row in enumerate(rows):
            given = [k for k in ("count", "numbers") if k in row]
            if len(given) != 1 or ("first" in row and "numbers" in row):
                what = "both count and numbers" if len(given) == 2 else \
                    "first with numbers" if given == ["numbers"] else "no count or numbers"
                diags.error("E195", f"row '{row['label']}' of board '{name}' gives {what}",
                            rows.item_span(index), "give count (and first), or numbers: "
                            "the number in each space, left to right")
                ok = False
        return ok
    if len(map_keys) < 3:
        missing = next(k for k in ("spaces", "size", "positions") if k not in board)
        diags.error("E195", f"board '{name}' has no '{missing}': a map board needs spaces, "
                    "size and positions, a board of rows needs rows",
                    board.key_span("id"), "add it, or give rows instead")
        return False
    return True


def check_boards(facts: PackFacts, diags: Diagnostics) -> None:
    """Each board's spaces are a card kind, its links a ``cards`` field and its shown fields
    declared; every card of that kind has one position, inside the board."""
    manifest = facts.manifest
    boards: Any = manifest.boards or []
    for board in boards:
        name = board["id"]
        if not _board_form(board, diags):
            continue
        if "rows" in board:  # a board of rows draws no cards
            continue
        kind = board["spaces"]
        if kind not in manifest.kinds:
            diags.error("E190", f"board '{name}' has spaces of kind '{kind}', which is not a "
                        "declared card kind", board.value_span("spaces"),
                        suggest(kind, list(manifest.kinds)) or "name a kind under card_kinds")
            continue
        links = board.get("links")
        if links is not None:
            spec = manifest.fields.get(links)
            if spec is None or spec.type != "cards":
                what = "is not a declared card field" if spec is None else \
                    f"is of type {spec.type}, not cards"
                options = [f for f, d in manifest.fields.items() if d.type == "cards"]
                diags.error("E191", f"board '{name}' links spaces by '{links}', which {what}",
                            board.value_span("links"), suggest(links, options) or
                            "name a card field of type cards (the spaces each space joins)")
        shows: Any = board.get("shows") or []
        for index, field_name in enumerate(shows):
            if field_name not in manifest.fields:
                diags.error("E191", f"board '{name}' shows '{field_name}', which is not a "
                            "declared card field", shows.item_span(index),
                            suggest(field_name, list(manifest.fields))
                            or "name a field under card_fields")
        # Positions name cards as their decks do; tables qualify ids with the pack's.
        spaces = [cid.split(":")[-1] for cid, card in facts.cards.items()
                  if card.get("kind") == kind]
        positions: Any = board["positions"]
        width, height = board["size"]
        for cid, (x, y) in positions.items():
            if cid not in spaces:
                diags.error("E192", f"board '{name}' places '{cid}', which is not a card of "
                            f"kind '{kind}'", positions.key_span(cid),
                            suggest(cid, spaces) or f"place only cards of kind '{kind}'")
            elif x > width or y > height:
                diags.error("E194", f"board '{name}' places '{cid}' at {x:g}, {y:g} mm, "
                            f"outside the board's {width:g} × {height:g} mm",
                            positions.value_span(cid), "move it onto the board, or make the "
                            "board larger")
        missing = [cid for cid in spaces if cid not in positions]
        if missing:
            diags.error("E193", f"board '{name}' gives no position to {len(missing)} "
                        f"{kind} card(s): {', '.join(missing)}", board.key_span("positions"),
                        "give every space an [x, y] position in millimetres")


PASSES: tuple[Callable[[PackFacts, Diagnostics], None], ...] = (
    check_ids,
    check_references,
    check_locks,
    check_deck_rules,
    check_backs,
    check_ai,
    check_balance,
    check_boards,
)


def run(facts: PackFacts, diags: Diagnostics) -> None:
    """Run every pack-wide check in order; each adds its findings to ``diags``."""
    for check in PASSES:
        check(facts, diags)
