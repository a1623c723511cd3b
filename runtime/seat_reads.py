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

    def __init__(self, defines: Mapping[str, Mapping[str, Any]], reads: Reads) -> None:
        self._defines = defines
        self._reads = reads
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
        self.useful: frozenset[str] = frozenset(
            tag for name, found in self.places.items() if ANY not in reads.defines[name]
            for tag, at in found.items() if at is not None)
        """The tags some define reads through its arguments alone: for any other tag a
        change of one seat forgets as much as a change of all, so it is told as one."""
        self._plans: dict[tuple[tuple[str, ...], tuple[str, ...]], Plan] = {}

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
