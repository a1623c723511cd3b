"""Card fields that name other cards (``type: cards``), read as the cards of this game.

A deck file writes such a field as a list of card ids (a region's neighbours, the cards an
upgrade may replace); the compiled row keeps the ids. The rules read the field as a
collection of cards, so it works with ``any``, ``count``, ``for each`` and ``=`` like any
zone's cards: every copy in the game of every card named, in the order the field names
them. Copies are numbered when the game is set up, so the ids are turned into copies once
per game layout and remembered on the program, which every clone and every game of that
layout shares.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklore.runtime.world import World


def copies_of(g: World, ids: list[str] | None) -> list[int]:
    """Every copy in this game of the cards ``ids`` names, in the order named."""
    if not ids:
        return []
    state = g.state
    key = (len(state.cards), tuple(state.decks))
    index: dict[str, list[int]] | None = g.program.copies_by_layout.get(key)
    if index is None:
        index = {}
        for instance, card in enumerate(state.cards):
            index.setdefault(card["card"], []).append(instance)
        g.program.copies_by_layout[key] = index
    return [c for card_id in ids for c in index.get(card_id, ())]


def card_list_fields(card_fields: list[dict[str, Any]]) -> frozenset[str]:
    """The names of the pack's fields of type ``cards``."""
    return frozenset(str(f["name"]) for f in card_fields if f.get("type") == "cards")
