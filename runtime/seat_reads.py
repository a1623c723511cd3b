"""Which of a define's arguments say whose zone, counter, flag or symbols it reads.

A change to one seat's zone (a card played into one kingdom's lands), to one seat's
counter or flag, or to the symbols of one seat's units changes only what can see that
seat.  ``reads.py`` says *that* a define reads a zone, a counter or the symbol view (a
**tag**); this module says, from the rules IR alone, *whose*: for each define and tag,
the positions of the arguments through which every read of that tag names its seat (or
its card, for a counter or flag of cards), or ``None`` when some read names it otherwise
(the player on turn, a player looped over, a number worked out): then the whole table is
forgotten, as before.  ``have(r, p)`` reads the lands of ``p`` and the symbols of ``p``
only, so a card played into seat 1's lands forgets the values ``have(r, 1)`` and keeps
``have(r, 0)`` and ``have(r, 2)``.

Stacks are placed by where their cards lie: ``have`` reads the stacks of the cards of
``units(lands(p))`` only, and a stack changes only in the zone its cards lie in, so a card
joining or leaving a stack in seat 1's lands keeps ``have(r, 0)``.  Where cards lie is
worked out as ``face_reads.py`` does, with each zone's seat (a loop over ``lands(p)``, a
card passed on to a define that reads its stack); a card of a shared zone, or of anywhere,
leaves the define's stack reads unplaced.

The symbol view is per seat only when every symbol of every card goes to its unit's own
controller and no zone acts for opponents (``symbols_per_seat``): then a seat's totals
are made of its own units alone.  A symbol that goes to opponents, a shared force or a
block a rival places makes every change of the view forget every value that reads it.

Reading more than a define really reads only costs a recomputation; so anything this
module does not place (an expression it does not know, a define missing from the IR) is
``None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from decklore.runtime.reads import (
    ANY,
    BUILTIN_READS,
    STACKS,
    SYMBOLS,
    Reads,
    counter_tag,
    flag_tag,
    ir_children,
    zone_tag,
)

Places = dict[str, frozenset[int] | None]
"""For each tag a define reads per seat, the argument positions that name the seat."""

Plan = tuple[frozenset[str],
             dict[str, tuple[tuple[tuple[int, int], ...], tuple[int, ...]]],
             frozenset[str]]
"""What one kind of change forgets (``SeatReads.plan``): the defines forgotten outright,
those forgotten per seat (with the arguments to look at), and both together."""

CardOrigin = tuple[str, int] | str
"""Where the cards of an expression lie, for ``stacks``: ``("seat", i)`` a zone of the seat
passed as the define's i-th argument, ``("card", i)`` where the card passed as its i-th
argument lies, ``*`` anywhere."""

STACK_ARG = frozenset({"units", "stack_of", "top_of", "stack_size", "tucked"})
"""Builtins that read the stacks of the cards of their first argument only (the cards
stacked with them or tucked under them, which lie where they do)."""

SAME_PLACE = frozenset({"units", "top_of", "stack_of", "top", "bottom", "top_card"})
"""Builtins whose cards lie where the cards of their first argument do."""

NOT_CARDS = frozenset({"int", "text", "bool", "none", "symbol", "kind", "not", "and", "or",
                       "eq", "ne", "lt", "le", "gt", "ge"})
"""Expressions whose value is never a card instance."""

SEAT_ARG: dict[str, int] = {
    "symbols": 1, "blocks_on": 1, "has_key": 0, "locked_symbols": 2, "unlocked": 1}
"""Builtins that read the symbol view of one receiver only, and which argument it is."""


def symbols_per_seat(card_rows: Iterable[Mapping[str, Any]],
                     zones: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether each seat's symbol totals are made of the units it controls alone."""
    if any(spec.get("for_opponents") for spec in zones.values()):
        return False
    return all(item["to"] == "self" for row in card_rows for item in row["symbols"])


def _merge(places: Places, tag: str, found: frozenset[int] | None) -> None:
    if tag in places:
        old = places[tag]
        places[tag] = None if old is None or found is None else old | found
    else:
        places[tag] = found


class SeatReads:
    """For each define, the arguments that say whose zones, counters, flags and symbols
    it reads (``places``), and what a change of one seat's things forgets (``plan``)."""

    def __init__(self, defines: Mapping[str, Mapping[str, Any]], reads: Reads,
                 per_player: frozenset[str] = frozenset()) -> None:
        self._defines = defines
        self._reads = reads
        self._per_player = per_player
        """The zones each player has (a shared zone's cards lie at no seat)."""
        self.places: dict[str, Places] = {name: {} for name in defines}
        changed = True
        while changed:  # each pass only adds positions (or None), so this ends
            changed = False
            for name, spec in defines.items():
                env = {p: i for i, p in enumerate(spec["params"])}
                found: Places = {}
                self._walk(spec["body"], env, found)
                merged = dict(self.places[name])
                for tag, at in found.items():
                    _merge(merged, tag, at)
                if merged != self.places[name]:
                    self.places[name] = merged
                    changed = True
        self._stack_places(defines)
        self.useful: frozenset[str] = frozenset(
            tag for name, found in self.places.items() if ANY not in reads.defines[name]
            for tag, at in found.items() if at is not None)
        """The tags some define reads through its arguments alone: for any other tag a
        change of one seat forgets as much as a change of all, so it is told as one."""
        self._plans: dict[tuple[tuple[str, ...], tuple[str, ...]], Plan] = {}

    def _stack_places(self, defines: Mapping[str, Mapping[str, Any]]) -> None:
        """Place ``stacks`` by the seats whose zones hold the cards whose stacks a define
        reads (``units(lands(p))``, a card looped over ``lands(p)``, a card passed on to a
        define that reads its stack): a stack changes only where its cards lie, so a card
        joining or leaving a stack in one kingdom keeps what was read of the others'.  A
        fixpoint over the defines' calls, as ``face_reads.py`` works out where the faces a
        define reads lie, with each zone's seat."""
        self._stacks: dict[str, frozenset[CardOrigin]] = {name: frozenset() for name in defines}
        self._returns: dict[str, frozenset[CardOrigin]] = {name: frozenset() for name in defines}
        changed = True
        while changed:  # each pass only adds origins, so this ends
            changed = False
            for name, spec in defines.items():
                env: dict[str, frozenset[CardOrigin]] = {
                    p: frozenset({("card", i)}) for i, p in enumerate(spec["params"])}
                seats: dict[str, int | None] = {p: i for i, p in enumerate(spec["params"])}
                read: set[CardOrigin] = set()
                returned = self._cards(spec["body"], env, seats, read)
                if not read <= self._stacks[name] or not returned <= self._returns[name]:
                    self._stacks[name] = self._stacks[name] | read
                    self._returns[name] = self._returns[name] | returned
                    changed = True
        for name, found in self._stacks.items():
            if STACKS not in self._reads.defines.get(name, ()):
                continue
            at: set[int] = set()
            for origin in found:
                if isinstance(origin, str) or origin[0] != "seat":
                    self.places[name][STACKS] = None
                    break
                at.add(origin[1])
            else:
                self.places[name][STACKS] = frozenset(at)

    def _cards(self, node: Mapping[str, Any] | None, env: Mapping[str, frozenset[CardOrigin]],
               seats: Mapping[str, int | None], read: set[CardOrigin]
               ) -> frozenset[CardOrigin]:
        """Where the cards ``node`` may evaluate to lie; where the cards lie whose stacks
        it reads is added to ``read``.  Anything this does not know lies anywhere."""
        if node is None:
            return frozenset()
        op = node.get("op")
        anywhere: frozenset[CardOrigin] = frozenset({ANY})
        if op == "zone":
            for key in ("player", "players", "space"):
                self._cards(node.get(key), env, seats, read)
            if node.get("players") is None and node["zone"] in self._per_player:
                at = _param(node.get("player"), seats)
                if at is not None:
                    return frozenset(("seat", i) for i in at)
            return anywhere
        if op == "local":
            return env.get(node["name"], anywhere)
        if op == "call":
            fn = node["fn"]
            args = [self._cards(a, env, seats, read) for a in node.get("args", ())]
            if fn in STACK_ARG:
                read.update(args[0] if args else anywhere)
            elif STACKS in BUILTIN_READS.get(fn, (STACKS,)):
                read.add(ANY)  # a stack read this does not place
            if fn in SAME_PLACE:
                return args[0] if args else frozenset()
            return anywhere
        if op == "define":
            name = node["name"]
            args = [self._cards(a, env, seats, read) for a in node.get("args", ())]
            positions = [_param(a, seats) for a in node.get("args", ())]
            if name not in self._stacks:
                read.add(ANY)
                return anywhere
            read.update(_bound_cards(self._stacks[name], args, positions))
            return _bound_cards(self._returns[name], args, positions)
        if op == "agg":
            source = self._cards(node.get("in"), env, seats, read)
            inner = {**env, node["var"]: source}
            hidden = {**seats, node["var"]: None}  # a loop's card, not an argument
            self._cards(node.get("where"), inner, hidden, read)
            self._cards(node.get("value"), inner, hidden, read)
            return source if node.get("fn") == "select" else anywhere
        if op == "if":
            self._cards(node.get("cond"), env, seats, read)
            return (self._cards(node.get("then"), env, seats, read)
                    | self._cards(node.get("else"), env, seats, read))
        if op == "join":
            return (self._cards(node.get("a"), env, seats, read)
                    | self._cards(node.get("b"), env, seats, read))
        for child in ir_children(node):
            self._cards(child, env, seats, read)
        return frozenset() if op in NOT_CARDS else anywhere

    def plan(self, tags: tuple[str, ...], seated: tuple[str, ...]) -> Plan:
        """What a change that touches ``tags`` for everyone and the k-th of ``seated`` for
        one seat only must forget: the defines it forgets outright, and for each of the
        others the (k, argument position) pairs of the values to drop, with the positions
        alone (for the usual change, whose seated tags all name one seat).  Worked out
        once for each such change (the third part: the first two together, so that the
        memo is looked over once)."""
        key = (tags, seated)
        found = self._plans.get(key)
        if found is not None:
            return found
        reads = self._reads
        whole = set(reads.readers_of_all(tags)) if tags else set()
        partial: dict[str, set[tuple[int, int]]] = {}
        for k, tag in enumerate(seated):
            for name in reads.readers_of_all((tag,)):
                if name in whole:
                    continue
                at = self.places.get(name, {}).get(tag)
                if at is None or ANY in reads.defines.get(name, (ANY,)):
                    whole.add(name)
                    partial.pop(name, None)
                else:
                    partial.setdefault(name, set()).update((k, i) for i in at)
        found = self._plans[key] = (frozenset(whole), {
            name: (tuple(sorted(at)), tuple(sorted({i for _, i in at})))
            for name, at in sorted(partial.items())}, frozenset(whole | partial.keys()))
        return found

    def _walk(self, node: Mapping[str, Any] | None, env: Mapping[str, int | None],
              found: Places) -> None:
        if node is None:
            return
        op = node.get("op")
        if op == "zone":
            at = None if node.get("players") is not None else _param(node.get("player"), env)
            _merge(found, zone_tag(node["zone"]), at)
        elif op in ("counter", "flag"):
            tag = (counter_tag if op == "counter" else flag_tag)(node["name"])
            _merge(found, tag, _param(node.get("of"), env))
        elif op == "call":
            fn = node["fn"]
            if fn in SEAT_ARG:
                args = node.get("args", ())
                index = SEAT_ARG[fn]
                _merge(found, SYMBOLS, _param(args[index], env) if index < len(args) else None)
            elif SYMBOLS in BUILTIN_READS.get(fn, (SYMBOLS,)):
                _merge(found, SYMBOLS, None)  # a view read this module does not place
        elif op == "define":
            name = node["name"]
            args = node.get("args", ())
            callee = self.places.get(name)
            if callee is None:
                return  # not in the IR: ``reads`` says ``*``, so it is never placed
            for tag, at in callee.items():
                if at is None:
                    _merge(found, tag, None)
                    continue
                mapped: set[int] = set()
                for j in at:
                    here = _param(args[j], env) if j < len(args) else None
                    if here is None:
                        _merge(found, tag, None)
                        break
                    mapped |= here
                else:
                    _merge(found, tag, frozenset(mapped))
        elif op == "agg":
            inner = {**env, node["var"]: None}
            self._walk(node.get("in"), env, found)
            self._walk(node.get("where"), inner, found)
            self._walk(node.get("value"), inner, found)
            return
        for child in ir_children(node):
            self._walk(child, env, found)


def _param(node: Mapping[str, Any] | None, env: Mapping[str, int | None]
           ) -> frozenset[int] | None:
    """The argument position a seat (or card) expression is, if it is a bare argument."""
    if node is not None and node.get("op") == "local":
        at = env.get(node["name"])
        if at is not None:
            return frozenset({at})
    return None


def _bound_cards(origins: frozenset[CardOrigin], args: list[frozenset[CardOrigin]],
                 positions: list[frozenset[int] | None]) -> frozenset[CardOrigin]:
    """A callee's card origins in its caller's terms: a seat argument becomes the caller's
    argument passed there (if it is a bare one), a card argument where the caller's card
    lies."""
    out: set[CardOrigin] = set()
    for origin in origins:
        if isinstance(origin, str):
            out.add(origin)
            continue
        kind, index = origin
        if index >= len(args):
            out.add(ANY)
        elif kind == "card":
            out |= args[index]
        else:
            at = positions[index]
            if at is None:
                out.add(ANY)
            else:
                out.update(("seat", i) for i in at)
    return frozenset(out)
