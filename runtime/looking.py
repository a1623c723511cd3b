"""Every card of an observation at once: ``describe.card_view`` with the lookups hoisted.

An observation describes every card in every zone (ERA: about a hundred), and
``card_view`` asks the game, the program and the card's record for the same things for each
one.  :func:`card_views` makes one function per observation that holds them as locals and
decides visibility inline, with the rules of ``describe.visible``.  ``card_view`` stays the
reference: ``tests/test_codegen.py`` checks that both give the same views, key order
included, for every card of positions of every bundled pack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decklore.runtime.game import Game

PLAIN_KEYS = frozenset({"zone", "player", "face_up", "card", "owner"})
"""A card record with only these keys is seen by nobody in particular, hosts nothing and
is in no stack: its view needs none of the other lookups."""


def card_views(game: Game, viewer: int | None,
               marks: tuple[list[tuple[str, Any]], list[str]]) -> Callable[[int], dict[str, Any]]:
    """A function from a card instance to its view for ``viewer`` (as ``card_view``).

    ``marks`` are the per-card counters (with their start values) and flags."""
    state = game.state
    cards, rows, zones = state.cards, game.rows, game.program.zones
    counter_marks = [(state.counters[name], name, start) for name, start in marks[0]]
    flag_marks = [(state.flags[name], name) for name in marks[1]]
    plain = len(PLAIN_KEYS)

    def view_of(card: int) -> dict[str, Any]:
        row = cards[card]
        simple = len(row) == plain
        if not simple and viewer is not None and viewer in row.get("seen", ()):
            seen = True
        elif not row["face_up"] or (not simple and row.get("host") is not None):
            seen = False
        else:
            spec = zones.get(row["zone"])
            if spec is None:
                seen = True
            else:
                shown = spec["visibility"]
                if shown == "public":
                    seen = True
                elif shown == "owner":
                    holder = row["player"] if row["player"] is not None else row["owner"]
                    seen = viewer is not None and viewer == holder
                else:
                    seen = False
        view: dict[str, Any] = {"face_up": bool(row["face_up"])}
        if seen:
            face = rows[card]
            view["instance"] = card
            view["card"] = face["id"]
            view["name"] = face["name"]
        if not simple:
            if row.get("above"):
                view["stack"] = [view_of(c) for c in row["above"]]
            if row.get("under"):
                view["under"] = [view_of(c) for c in row["under"]]
        if not seen:
            return view
        found = {}
        for values, name, start in counter_marks:
            value = values[card]
            if value != start:
                found[name] = value
        for values, name in flag_marks:
            if values[card]:
                found[name] = True
        if found:
            view["marks"] = found
        return view

    return view_of


def zone_views(game: Game, viewer: int | None,
               marks: tuple[list[tuple[str, Any]], list[str]]
               ) -> Callable[[list[int]], list[dict[str, Any]]]:
    """A function from a zone's cards to their views for ``viewer``, as ``card_views``
    gives them one by one.

    Most cards of an observation lie face down with a plain record (a draw pile), which
    nobody sees and which hold nothing: their view is ``{"face_up": False}``, made here
    without a call per card."""
    cards = game.state.cards
    view_of = card_views(game, viewer, marks)
    plain = len(PLAIN_KEYS)

    def views(instances: list[int]) -> list[dict[str, Any]]:
        out = []
        for card in instances:
            row = cards[card]
            if not row["face_up"] and len(row) == plain:
                out.append({"face_up": False})
            else:
                out.append(view_of(card))
        return out

    return views
