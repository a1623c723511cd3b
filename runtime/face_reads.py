"""Where the cards lie whose faces a define reads: what a determinized copy may keep.

A determinized copy (``determinize.py``) deals the faces of hidden cards again, and those
cards lie in a few zones (the decks, the opponents' hands).  A remembered define value
that read only the faces of cards elsewhere (a kingdom's lands, face up on the table) is
the same in every such copy, so the copy may keep it.  ``reads.py`` says *that* a define
reads faces (the tag ``faces``); this module says *whose*, from the rules IR alone, as a
set of **origins** for each define:

- ``z:NAME`` the cards of zone NAME (``z:-under`` the cards tucked under others);
- ``("p", i)`` the card passed as the define's i-th argument (and the cards stacked with
  it, which lie in its zone): the copy keeps such a value only when that argument is no
  card of a zone where it dealt one;
- ``*`` a card that may lie anywhere: the value is never kept.

A card a define can name comes from a zone, a loop over cards, an argument, or a builtin
of cards (``units``, ``top_of``, ``stack_of``, ``top``...: cards of the same zone;
``tucked``: cards under others).  Anything else that could stand for a card (a counter's
value, a number, ``cards_of``, ``zone_of``, an expression this module does not know) may
be any card, so its origin is ``*``: reading more than a define really reads only costs a
value forgotten, reading less would be a wrong value kept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from decklore.runtime.reads import ANY, FACES, Reads, ir_children, zone_tag
from decklore.runtime.state import UNDER

Origin = str | tuple[str, int]
"""A zone tag, ``*``, or ``("p", i)``: the define's i-th argument."""

UNDER_TAG = zone_tag(UNDER)

SAME_ZONE = frozenset({"units", "top_of", "stack_of", "top", "bottom", "top_card"})
"""Builtins whose cards lie where the cards of their first argument do."""

FACE_ARGS: dict[str, tuple[int, ...]] = {
    "printed": (1,), "has_tag": (0,), "same_name": (0, 1), "owner": (0,),
    "controller": (0,), "symbols_on": (1,), "matched": (2, 3)}
"""Builtins that read the faces (or owners) of some of their arguments, by position."""

NOT_CARDS = frozenset({"text", "bool", "none", "symbol", "kind", "not", "and", "or", "eq",
                       "ne", "lt", "le", "gt", "ge"})
"""Expressions whose value is never a card instance (texts, symbols, truth values)."""


class FaceReads:
    """The origins of the faces each define reads (``faces``), and of the cards it may
    return (``returns``), found together by a fixpoint over the defines' calls."""

    def __init__(self, defines: Mapping[str, Mapping[str, Any]],
                 card_lists: frozenset[str] = frozenset()) -> None:
        self._defines = defines
        self._card_lists = card_lists
        self.faces: dict[str, frozenset[Origin]] = {name: frozenset() for name in defines}
        self.returns: dict[str, frozenset[Origin]] = {name: frozenset() for name in defines}
        changed = True
        while changed:  # each pass only adds origins, so this ends
            changed = False
            for name, spec in defines.items():
                params = list(spec["params"])
                env: dict[str, frozenset[Origin]] = {
                    p: frozenset({("p", i)}) for i, p in enumerate(params)}
                read: set[Origin] = set()
                returned = self._origin(spec["body"], env, read)
                if frozenset(read) != self.faces[name] or returned != self.returns[name]:
                    self.faces[name] = self.faces[name] | read
                    self.returns[name] = self.returns[name] | returned
                    changed = True
        self.zones: dict[str, frozenset[str]] = {}
        """The zone tags (or ``*``) of the cards each define reads the faces of, beyond
        its arguments."""
        self.params: dict[str, tuple[int, ...]] = {}
        """The arguments each define reads the faces of (by position)."""
        for name, found in self.faces.items():
            self.zones[name] = frozenset(o for o in found if isinstance(o, str))
            self.params[name] = tuple(sorted(o[1] for o in found if not isinstance(o, str)))
        self._forgets: dict[tuple[frozenset[str], tuple[str, ...]],
                            tuple[frozenset[str], dict[str, tuple[int, ...]]]] = {}

    def forgets(self, reads: Reads, places: frozenset[str], tags: tuple[str, ...]
                ) -> tuple[frozenset[str], dict[str, tuple[int, ...]]]:
        """What a draw that deals cards lying in ``places`` (zone tags), and changes what
        ``tags`` name (the symbol view, marks), must forget: the defines it forgets
        outright, and those of which it forgets the values asked with a card lying there
        (with the arguments to look at).  Worked out once for each such draw."""
        key = (places, tags)
        found = self._forgets.get(key)
        if found is not None:
            return found
        forgotten = set(reads.readers_of_all(tags)) if tags else set()
        forgotten |= reads.anything_set
        by_argument: dict[str, tuple[int, ...]] = {}
        for name, read in reads.defines.items():
            zones = self.zones.get(name, frozenset())
            params = self.params.get(name, ())
            if FACES not in read and not zones and not params:
                continue  # reads no face
            if ANY in zones or not zones.isdisjoint(places) or not (zones or params):
                forgotten.add(name)  # (a face read this module did not place: forgotten)
            elif params:
                by_argument[name] = params
        found = self._forgets[key] = (frozenset(forgotten), by_argument)
        return found

    def _origin(self, node: Mapping[str, Any] | None, env: Mapping[str, frozenset[Origin]],
                read: set[Origin]) -> frozenset[Origin]:
        """Where the cards ``node`` may evaluate to lie; the origins of the faces it reads
        are added to ``read``."""
        if node is None:
            return frozenset()
        op = node.get("op")
        if op == "zone":
            for key in ("player", "players", "space"):
                self._origin(node.get(key), env, read)
            return frozenset({zone_tag(node["zone"])})
        if op == "local":
            return env.get(node["name"], frozenset({ANY}))
        if op == "field":
            of = self._origin(node["of"], env, read)
            read.update(of)
            return frozenset({ANY}) if node["name"] in self._card_lists else frozenset()
        if op == "call":
            fn = node["fn"]
            args = [self._origin(a, env, read) for a in node.get("args", ())]
            for index in FACE_ARGS.get(fn, ()):
                if index < len(args):
                    read.update(args[index])
            if fn == "cards_of":
                read.add(ANY)  # every card of an owner, wherever it lies
            if fn in SAME_ZONE:
                return args[0] if args else frozenset()
            if fn == "tucked":
                return frozenset({UNDER_TAG})
            return frozenset({ANY})  # a player, a number, or cards of anywhere
        if op == "define":
            name = node["name"]
            args = [self._origin(a, env, read) for a in node.get("args", ())]
            if name not in self._defines:
                read.add(ANY)
                return frozenset({ANY})
            read.update(_bound(self.faces[name], args))
            return _bound(self.returns[name], args)
        if op == "agg":
            source = self._origin(node["in"], env, read)
            inner = {**env, node["var"]: source}
            self._origin(node.get("where"), inner, read)
            value = self._origin(node.get("value"), inner, read)
            if node["fn"] == "select":
                return source
            return value | frozenset({ANY}) if node.get("value") else frozenset({ANY})
        if op == "if":
            self._origin(node["cond"], env, read)
            return self._origin(node["then"], env, read) | self._origin(node["else"], env,
                                                                          read)
        if op == "join":
            return self._origin(node["a"], env, read) | self._origin(node["b"], env, read)
        found: frozenset[Origin] = frozenset()
        for child in ir_children(node):
            found |= self._origin(child, env, read)
        if op in NOT_CARDS:
            return frozenset()
        return frozenset({ANY})  # a number, a counter's value, a constant: any card


def _bound(origins: frozenset[Origin], args: Sequence[frozenset[Origin]]) -> frozenset[Origin]:
    """A callee's origins with its arguments' replaced by where the caller's lie."""
    out: set[Origin] = set()
    for origin in origins:
        if isinstance(origin, str):
            out.add(origin)
        elif origin[1] < len(args):
            out |= args[origin[1]]
        else:
            out.add(ANY)
    return frozenset(out)
