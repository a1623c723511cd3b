"""The rules language's builtin functions, as the engine computes them.

One function per builtin of ``decklore.compiler.rules.builtins`` (a test checks the two
lists agree), each taking the running game first.  They read the state through the game's
helpers and never change it.  Symbol questions all go through the game's cached
:class:`~decklore.runtime.symbols.SymbolView`, so a turn that asks for the same totals
fifty times computes them once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from decklore.runtime.expressions import RulesError
from decklore.runtime.state import PLACES, UNDER
from decklore.runtime.symbols import printed as printed_on

if TYPE_CHECKING:
    from decklore.runtime.world import World


def _players(g: World) -> list[int]:
    return g.live_players()


def opponent(g: World, p: int) -> int:
    live = g.live_players()
    others = [q for q in live if q != p]
    if len(others) != 1:
        raise RulesError("'opponent' needs exactly two players in the game; use 'opponents'")
    return others[0]


def opponents(g: World, p: int) -> list[int]:
    return [q for q in players_from(g, p) if q != p]


def players_from(g: World, p: int) -> list[int]:
    n = g.state.players
    live = set(g.live_players())
    return [q for q in ((p + i) % n for i in range(n)) if q in live]


def owner(g: World, c: int | None) -> int | None:
    return None if c is None else g.state.cards[c]["owner"]


def seat(g: World, p: int | None) -> int | None:
    return None if p is None else p + 1


def player_at(g: World, n: int | None) -> int:
    if n is None:
        raise RulesError("player_at needs a seat number, not none")
    return (n - 1) % g.state.players


def automated(g: World, p: int | None) -> bool:
    return p is not None and p in g.state.info.get("automated", ())


def controller(g: World, c: int | None) -> int | None:
    return None if c is None else g.controller(c)


def size(g: World, cards: Any) -> int:
    return 0 if cards is None else len(cards)


def top(g: World, cards: list[int], n: int) -> list[int]:
    return list(cards[:max(n, 0)])


def bottom(g: World, cards: list[int], n: int) -> list[int]:
    return list(cards[len(cards) - n:]) if n > 0 else []


def top_card(g: World, cards: list[int]) -> int | None:
    return cards[0] if cards else None


def units(g: World, cards: list[int]) -> list[int]:
    rows = g.state.cards
    return [c for c in cards if rows[c].get("base") is None]


def stack_of(g: World, c: int | None) -> list[int]:
    if c is None:
        return []
    base = g.base(c)
    return [base, *g.state.cards[base].get("above", ())]


def top_of(g: World, c: int | None) -> int | None:
    return stack_of(g, c)[-1] if c is not None else None


def stack_size(g: World, c: int | None) -> int:
    return len(stack_of(g, c))


def tucked(g: World, c: int | None) -> list[int]:
    return [] if c is None else list(g.state.cards[c].get("under", ()))


def zone_of(g: World, c: int | None) -> list[int]:
    if c is None:
        return []
    zone, player = g.location(c)
    return g.zone_cards(zone, player)


def space_of(g: World, c: int | None) -> int | None:
    if c is None:
        return None
    zone, _ = g.location(c)
    spec = g.program.zones.get(zone)
    return None if spec is None else spec.get("space")


def position_of(g: World, c: int | None) -> int | None:
    """Counted from 1 at the top, within the card's space in a zone of spaces; a tucked card
    has no place of its own (it goes where its host goes)."""
    if c is None or g.state.cards[c]["zone"] in PLACES:
        return None
    row = g.state.cards[c]
    return g.zone_cards(row["zone"], row["player"]).index(c) + 1


def cards_of(g: World, p: int) -> list[int]:
    if type(p) is not int:
        return [i for i, card in enumerate(g.state.cards) if card["owner"] == p]
    return list(g.cards_by_owner().get(p, ()))


def same_name(g: World, a: int | None, b: int | None) -> bool:
    return a is not None and b is not None and g.rows[a]["name"] == g.rows[b]["name"]


def has_tag(g: World, c: int | None, tag: str) -> bool:
    return c is not None and tag in g.rows[c]["all_tags"]


def is_face_up(g: World, c: int | None) -> bool:
    return c is not None and bool(g.state.cards[c]["face_up"])


def symbols(g: World, s: str, p: int) -> int:
    return g.symbol_view().total(s, p)


def symbols_on(g: World, s: str, c: int | None) -> int:
    if c is None:
        return 0
    view = g.symbol_view()  # first: the units it makes are the ones g.unit then returns
    unit = g.unit(c)
    if unit is None:
        return 0
    player = None
    if unit.for_opponents:  # a shared force counts for whoever of its rivals is playing
        me = g.me()
        player = me if me is not None and me != unit.controller else next(
            (p for p in g.live_players() if p != unit.controller), unit.controller)
    return view.on_unit(s, unit, player)


def printed(g: World, s: str, c: int | None) -> int:
    return 0 if c is None else printed_on(s, g.rows[c])


def matched(g: World, s: str, p: int, first: list[int], second: list[int]) -> int:
    view = g.symbol_view()  # before the units, so that g.unit finds them made
    a = [u for u in (g.unit(c) for c in first) if u is not None]
    b = [u for u in (g.unit(c) for c in second) if u is not None]
    return view.matched(s, p, a, b)


def blocks_on(g: World, s: str, p: int) -> int:
    return g.symbol_view().blocks_on(s, p)


def blocks_from(g: World, s: str, p: int, cards: list[int]) -> int:
    """Only cards in zones that count symbols block anything (a card in a hand does not).

    Most of the time no unit of the view shows a block of ``s`` at all: then only a
    tucked card among ``cards`` could (its unit is made apart from the view's), and the
    cards are not looked at one by one."""
    view = g.symbol_view()  # first: its units are the ones g.unit returns
    if not view.blocks_any(s):
        under = g.state.zones.get(UNDER)
        if not under or not under[0]:
            return 0
        asked = set(cards)
        cards = [c for c in under[0] if c in asked]
    in_view = g.view_units  # a base card in a zone that counts symbols, and its unit
    rows = g.state.cards
    units = []
    bases: set[int] = set()
    for c in cards:  # each unit once, in the order of the first of its cards
        base = rows[c].get("base")
        if base is None:
            base = c
        unit = in_view.get(base)
        if unit is None:
            if rows[base]["zone"] != UNDER:
                continue  # in no zone that counts symbols: no unit, nothing to remember
            spec = g.program.zones.get(g.location(base)[0])  # tucked: where its host is
            unit = g.unit(base) if spec is not None and spec["symbols"] else None
        if base in bases:
            continue
        bases.add(base)
        if unit is not None:
            units.append(unit)
    return view.blocks_from(s, p, units)


def locked_symbols(g: World, s: str, c: int | None, p: int) -> int:
    if c is None:
        return 0
    view = g.symbol_view()
    return sum(item["count"] for item in g.rows[c]["symbols"]
               if item["symbol"] == s and item["lock"] and not view.has_key(p, item["lock"]))


def has_key(g: World, p: int, letter: str | None) -> bool:
    return g.symbol_view().has_key(p, letter)


def unlocked(g: World, c: int | None, p: int) -> bool:
    if c is None:
        return False
    view = g.symbol_view()
    row = g.rows[c]
    return all(view.has_key(p, row.get(name)) for name in g.program.lock_fields)


def turn_number(g: World) -> int:
    return int(g.state.info["turn"])


def first_turn(g: World) -> bool:
    return int(g.state.info["turn"]) == 1


def round_number(g: World) -> int:
    return int(g.state.info["round"])


def lesser(g: World, a: int, b: int) -> int:
    return min(a, b)


def greater(g: World, a: int, b: int) -> int:
    return max(a, b)


BUILTINS: dict[str, Callable[..., Any]] = {
    "opponent": opponent, "opponents": opponents, "players": _players, "owner": owner,
    "seat": seat, "player_at": player_at, "players_from": players_from,
    "controller": controller, "automated": automated, "size": size, "top": top, "bottom": bottom,
    "top_card": top_card, "units": units, "stack_of": stack_of, "top_of": top_of,
    "stack_size": stack_size,
    "tucked": tucked, "zone_of": zone_of, "space_of": space_of,
    "position_of": position_of, "cards_of": cards_of,
    "same_name": same_name,
    "has_tag": has_tag, "is_face_up": is_face_up, "symbols": symbols,
    "symbols_on": symbols_on, "printed": printed, "matched": matched,
    "blocks_on": blocks_on, "blocks_from": blocks_from, "locked_symbols": locked_symbols,
    "has_key": has_key,
    "unlocked": unlocked, "turn_number": turn_number, "first_turn": first_turn,
    "round_number": round_number, "lesser": lesser, "greater": greater,
}
