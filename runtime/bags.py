"""Drawing from a bag: the zone option ``bag`` makes every draw a random pick.

A bag is a zone whose cards have no order: what it holds may be known, but never which card
comes out next.  The engine's ``draw`` asks this module which card of the source to take;
for a bag it is one picked by the game's seeded generator (so the same seed and choices
draw the same cards), for any other zone the top card.  Kept apart from the engine so the
statement handlers there stay a table of small hooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decklore.runtime.world import World


def card_to_draw(g: World, zone: str, source: list[int]) -> int:
    """The card a draw takes from ``source`` (the live, non-empty list of ``zone``): a random
    one from a bag, the top one otherwise."""
    if g.program.zones[zone].get("bag"):
        return source[g.state.rng.below(len(source))]
    return source[0]
