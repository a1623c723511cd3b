"""The world of a game: what the rules read and how they change it, every change logged.

``World`` holds a game's state with the caches derived from it (symbol units, define
values, which outcomes may have changed) and is the public effects interface the
statements and builtins use: reads (``zone_cards``, ``location``, ``counter_value``, the
symbol view...) and changes (``move``, ``stack``, ``tuck``, ``change_counter``,
``shuffle``...).  Every change appends an event to ``state.log`` and ``touch``-es the read
tags it affects (``runtime/reads.py``), so remembered define values and outcome checks are
dropped exactly when something they read changed (a run of moves from one statement
touches once, at its end: ``move_all``; a plain move is planned per pair of zones:
``runtime/moves.py``).  ``fire`` pushes the pack's triggers for
an event onto the frame stack; the run loop (``machine``) runs them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import Block
from decklore.runtime.memo import MemoKeys, Partial
from decklore.runtime.moves import move_plan
from decklore.runtime.program import Program
from decklore.runtime.reads import CARDS, STACKS, SYMBOLS, counter_tag, flag_tag
from decklore.runtime.state import PLAIN_CARD, UNDER, GameState
from decklore.runtime.symbols import SymbolView, Unit

NO_SEAT = -1
"""The seat a change of something no seat holds names (a stack in a shared zone): it
forgets what is not placed by seat, and no value of one seat."""

MAX_COUNTER = 1_000_000_000
"""The largest size a counter may reach either way: past it the rules are in error (a value
that doubles every turn would otherwise grow until memory or int printing gives out)."""


def short_number(value: int) -> str:
    """A number for a message, shortened when it has more digits than anyone reads."""
    if abs(value) < 10 ** 30:
        return str(value)
    return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"


class World:
    """A game's state, what is derived from it, and every read and change of it."""

    def __init__(self, program: Program, state: GameState) -> None:
        self.program = program
        self.state = state
        self.rows: list[dict[str, Any]] = [program.card_rows[c["card"]] for c in state.cards]
        self._view: SymbolView | None = None
        self._stale: tuple[SymbolView, frozenset[int]] | None = None
        """The last symbol view dropped by changes of a few seats' units only, and those
        seats: the next view takes the other seats' totals from it (``symbol_view``)."""
        self.view_units: dict[int, Unit] = {}
        """The units of the symbol view by their base card, made with it: valid after
        ``symbol_view()``, until the view is dropped."""
        self._units: dict[int, Unit] = {}
        """The unit of each base card in a zone that counts symbols, once made, kept until
        something it is made of changes (``_drop_unit``): a move rebuilds only the units it
        touched, not every unit on the table.  Shared with a clone until one of them drops
        a unit (``_units_owned``)."""
        self._units_owned = True
        self._dirty = False
        """Something changed that an outcome may read: check them before going on."""
        self.memo: dict[str, dict[Any, Any]] = {}
        """Each define's remembered values, by arguments, until something it reads changes:
        one table per define, or per define and seat (``memo.py``)."""
        self.owned: set[str] = set()
        """The memo tables this game alone holds (others it shares with a clone)."""
        self._keys: MemoKeys = program.memo_keys(state.players)
        """What each kind of change forgets of the memo (its answers looked up inline)."""
        self.changed: set[str] | None = None
        """What changed since the outcomes were last checked (None: anything may have)."""
        self._owners: tuple[list[dict[str, Any]], dict[Any, list[int]]] | None = None
        """The card instances of each owner (``cards_by_owner``), with the card list they
        were read from."""

    # --- reads ----------------------------------------------------------------------------

    def me(self) -> int | None:
        """The seat whose turn it is (the rules' ``me``), or None outside any turn."""
        me: int | None = self.state.info["me"]
        return me

    def live_players(self) -> list[int]:
        """The seats still in the game (not eliminated), in seat order."""
        out = self.state.info["out"]
        if not out:  # the usual case: nobody is out yet
            return list(range(self.state.players))
        return [p for p in range(self.state.players) if p not in out]

    def cards_by_owner(self) -> dict[Any, list[int]]:
        """The card instances of each owner (None: the shared cards), in instance order.

        Owners never change while the rules run, so this is read once; only a
        determinized copy deals owners again, and it has a card list of its own (a clone
        copies the list), which is how a stale answer is told apart."""
        cards = self.state.cards
        found = self._owners
        if found is None or found[0] is not cards:
            owners: dict[Any, list[int]] = {}
            for instance, card in enumerate(cards):
                owners.setdefault(card["owner"], []).append(instance)
            found = self._owners = (cards, owners)
        return found[1]

    def zone_cards(self, zone: str, player: int | None) -> list[int]:
        """The card instances of one stored zone, in its order: the live list, not a copy.

        ``player`` says whose, for a zone each player has; a shared zone ignores it."""
        per = self.state.zones[zone]
        if len(per) == 1 and zone in self.state.shared_zones:
            return per[0]
        if player is None:
            raise RulesError(f"zone '{zone}' belongs to each player: say whose")
        return per[player]

    def cards_in(self, zone: str, player: int | None) -> list[int]:
        """A zone's cards as the rules name it: a zone of spaces gives every space's."""
        names = self.program.spaced.get(zone)
        if names is None:
            return self.zone_cards(zone, player)
        return [c for name in names for c in self.zone_cards(name, player)]

    def location(self, card: int | None) -> tuple[str, int | None]:
        """The zone a card is in and whose it is (None: shared); a tucked card is where its
        host is."""
        if card is None:
            raise RulesError("no card here (none)")
        row = self.state.cards[card]
        if row["zone"] == UNDER:
            return self.location(row["host"])
        return row["zone"], row["player"]

    def controller(self, card: int) -> int | None:
        """The player whose zone the card lies in, or, in a shared zone, its owner."""
        _, player = self.location(card)
        if player is None:
            owner: int | None = self.state.cards[card]["owner"]
            return owner
        return player

    def base(self, card: int) -> int:
        """The bottom card of the stack a card is part of (the card itself when unstacked)."""
        base: int | None = self.state.cards[card].get("base")
        return card if base is None else base

    def unit(self, card: int) -> Unit | None:
        """The unit a card belongs to, if it lies in a zone whose cards count symbols."""
        found = self._units.get(card)  # kept for base cards only, and only while valid
        if found is not None:
            return found
        base = self.base(card)
        if base != card:
            found = self._units.get(base)
            if found is not None:
                return found
        zone, _ = self.location(base)
        spec = self.program.zones.get(zone)
        if spec is None or (not spec["stacks"] and not spec["symbols"]):
            return Unit((self.rows[base],), self.controller(base) or 0)
        cards = [base, *self.state.cards[base].get("above", ())]
        attached: tuple[dict[str, Any], ...] = ()
        if self.program.under_kinds:
            attached = tuple(self.rows[u] for c in cards
                             for u in self.state.cards[c].get("under", ())
                             if self.rows[u]["kind"] in self.program.under_kinds)
        removed, assigned = self._symbol_marks(cards)
        unit = Unit(tuple(self.rows[c] for c in cards), self.controller(base) or 0, attached,
                    removed, assigned, bool(spec.get("for_opponents")))
        if spec["symbols"] and self.state.cards[base]["zone"] != UNDER:
            # a tucked card's unit is not kept: it moves with its host, unseen by the drops
            if not self._units_owned:
                self._units = dict(self._units)
                self._units_owned = True
            self._units[base] = unit
        return unit

    def _drop_unit(self, *cards: int | None, view: bool = True) -> None:
        """Forget the units these base cards head: what they are made of changed (a card
        came or went, a mark changed).  The symbol view goes too (unless ``view`` is
        false: the caller decides); the next one is made from the units kept and the few
        made again."""
        if view:
            self._view = None
            self._stale = None
        if not self._units_owned:
            self._units = dict(self._units)
            self._units_owned = True
        units = self._units
        for card in cards:
            if card is not None:
                units.pop(card, None)

    def _drop_mark(self, name: str, slot: int) -> None:
        """A symbol mark changed on ``slot``: only its unit changes when the mark is a
        card's, every unit may when it is not."""
        spec = self.program.counters.get(name) or self.program.flags[name]
        if spec["per"] == "card":
            self._drop_unit(self.base(slot))
        else:
            self.forget_symbols()

    def _symbol_marks(self, cards: list[int]
                      ) -> tuple[frozenset[str], tuple[tuple[str, int], ...]]:
        """The symbols a unit's marks take off it, and the blocks placed on it."""
        program = self.program
        if not program.symbol_marks:
            return frozenset(), ()
        flags, counters = self.state.flags, self.state.counters
        removed = frozenset(symbol for name, symbol in program.removing_marks
                            if any(flags[name][c] for c in cards))
        assigned = tuple((symbol, total) for name, symbol in program.block_marks
                         if (total := sum(counters[name][c] for c in cards)))
        return removed, assigned

    def symbol_view(self) -> SymbolView:
        """Every unit in a zone that counts symbols, ready for symbol counts and blocks.

        Built once and kept until a card in a counting zone moves, stacks or is tucked, or
        a symbol mark changes; then made again, in the zones' order, from the units kept
        (``_units``) and the ones the change dropped, made afresh."""
        if self._view is None:
            units = []
            by_base: dict[int, Unit] = {}
            cards = self.state.cards
            known = self._units
            for name, spec in self.program.zones.items():
                if not spec["symbols"]:
                    continue
                for listed in self.state.zones[name]:
                    for c in listed:
                        unit = known.get(c)
                        if unit is None:
                            if cards[c].get("base") is not None:
                                continue
                            unit = self.unit(c)
                            known = self._units  # a copy, if it was shared with a clone
                        if unit is not None:
                            units.append(unit)
                            by_base[c] = unit
            self.view_units = by_base
            kinds = self.program.unblockable_kinds
            self._view = SymbolView(units, self.state.players,
                                    unblockable=lambda card: card["kind"] in kinds)
            stale = self._stale
            if stale is not None:
                self._view.keep_totals(stale[0], stale[1])
                self._stale = None
        return self._view

    def _slot(self, spec: Mapping[str, Any], of: Any, name: str) -> int:
        per = spec["per"]
        if per == "game":
            return 0
        if of is None:
            if per == "card":
                raise RulesError(f"'{name}' belongs to each card: say which, with 'on CARD'")
            of = self.state.info["me"]
            if of is None:
                raise RulesError(f"'{name}' belongs to each player, and no turn is running: "
                                 "say whose, with 'for PLAYER'")
        if not isinstance(of, int) or isinstance(of, bool):
            raise RulesError(f"'{name}' needs a {per}, not {of!r}")
        return of

    def counter_value(self, name: str, of: Any) -> int:
        """A counter's value on a player or card (``of``; None: the current player, or the
        game for a game-wide counter)."""
        spec = self.program.counters[name]
        if type(of) is int and spec["per"] != "game":  # the usual case, read often
            fast: int = self.state.counters[name][of]
            return fast
        value: int = self.state.counters[name][self._slot(spec, of, name)]
        return value

    def flag_value(self, name: str, of: Any) -> bool:
        """Whether a flag is set on a player or card (``of`` as for ``counter_value``)."""
        spec = self.program.flags[name]
        if type(of) is int and spec["per"] != "game":
            return bool(self.state.flags[name][of])
        return bool(self.state.flags[name][self._slot(spec, of, name)])

    # --- changing the state ---------------------------------------------------------------
    # --- changes --------------------------------------------------------------------------

    def log_event(self, *event: Any) -> None:
        """Append one event to the log (a list of plain JSON values)."""
        self.state.log.append(list(event))

    def touch(self, *tags: str) -> None:
        """Something these tags name changed: forget the define values that read it, and
        have the outcomes that read it checked."""
        memo = self.memo
        if memo:
            found = self._keys.whole.get(tags)
            for key in memo.keys() & (self._keys.of(tags) if found is None else found):
                del memo[key]
        changed = self.changed
        if changed is not None:
            changed.update(tags)

    def touch_seats(self, tags: tuple[str, ...], seated: tuple[str, ...],
                    seats: tuple[int, ...]) -> None:
        """As ``touch``, but what ``seated[k]`` names changed for seat (or card)
        ``seats[k]`` only: of a define that sees that seat only through its arguments
        (``seat_reads``), only the values asked about that seat are forgotten: the
        define's table for that seat, when it has one per seat (``memo``)."""
        memo = self.memo
        if memo:
            plan = self._keys.by_seat.get((tags, seated, seats))
            keys, partial = self._keys.seated(tags, seated, seats) if plan is None else plan
            for key in memo.keys() & keys:
                del memo[key]
            if partial:
                self._forget_about(partial, seats)
        changed = self.changed
        if changed is not None:
            changed.update(tags)
            changed.update(seated)

    def _forget_about(self, partial: Partial, seats: tuple[int, ...]) -> None:
        """Drop from the tables of defines kept in one table the values asked about
        these seats (or cards) at the arguments ``partial`` says."""
        memo = self.memo
        seat = seats[0]
        one = len(seats) == 1 or seats.count(seat) == len(seats)
        for name in partial.keys() & memo.keys():
            table = memo[name]
            pairs, positions = partial[name]
            if one and len(positions) == 1:  # the usual case: one seat, one argument
                i = positions[0]
                if len(table) == 1:  # often: one question asked since the last change
                    for args in table:
                        if args[i] == seat:
                            del memo[name]
                    continue
                rest = {args: value for args, value in table.items() if args[i] != seat}
            else:
                hits = {(i, seat) for i in positions} if one else {
                    (i, seats[k]) for k, i in pairs}
                rest = {args: value for args, value in table.items()
                        if not any(args[i] == s for i, s in hits)}
            if len(rest) == len(table):
                continue  # nothing about these seats: the table stays, shared or not
            if rest:
                memo[name] = rest
                self.owned.add(name)
            else:
                del memo[name]

    def touch_all(self) -> None:
        """A new turn or round: whose turn it is, and the turn and round numbers, changed.

        Only the values that read them are forgotten: a define of the cards alone (which
        cards a player owns, a card's printed worth) outlives the turn."""
        self.touch("me", "turn", "round")

    def change_counter(self, name: str, of: Any, value: int) -> None:
        """Set a counter, logged: below its minimum is a rules error, above its maximum it
        stops at the maximum."""
        spec = self.program.counters[name]
        slot = self._slot(spec, of, name)
        if value < spec["min"]:
            raise RulesError(f"{spec['label']} would go below {spec['min']} "
                             f"({value}); the rules must check before spending")
        if spec["max"] is not None and value > spec["max"]:
            value = spec["max"]
        if not -MAX_COUNTER <= value <= MAX_COUNTER:
            raise RulesError(f"{spec['label']} would reach {short_number(value)}, beyond the "
                             f"limit of {MAX_COUNTER:,} a counter may hold; give the counter "
                             "a 'max'")
        if self.state.counters[name][slot] != value:
            self.state.counter_to_change(name)[slot] = value
            self.log_event("counter", name, slot, value)
            self._dirty = True
            tag = counter_tag(name)
            if spec["per"] == "game" or tag not in self.program.seat_reads.useful:
                self.touch(tag)
            else:
                self.touch_seats((), (tag,), (slot,))
            if name in self.program.symbol_marks:  # a block placed or a symbol taken off
                self._drop_mark(name, slot)
                self.touch(CARDS, SYMBOLS)

    def change_flag(self, name: str, of: Any, value: bool) -> None:
        """Set or clear a flag, logged when it changes."""
        spec = self.program.flags[name]
        slot = self._slot(spec, of, name)
        if self.state.flags[name][slot] != value:
            self.state.flag_to_change(name)[slot] = value
            self.log_event("flag", name, slot, value)
            self._dirty = True
            tag = flag_tag(name)
            if spec["per"] == "game" or tag not in self.program.seat_reads.useful:
                self.touch(tag)
            else:
                self.touch_seats((), (tag,), (slot,))
            if name in self.program.symbol_marks:  # a block placed or a symbol taken off
                self._drop_mark(name, slot)
                self.touch(CARDS, SYMBOLS)

    plain_moves = True
    """Whether a plain move takes the fast path (``runtime/moves.py``); off, every move
    takes the general one (the tests compare the two)."""

    _holding = False
    """Inside ``move_all``: the moves' forgetting is held (``_note``) and done once."""
    _held: tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]] | None = None
    """The forgetting held back, (tags, seated tags, their seats), not done yet."""

    def move(self, card: int, zone: str, player: int | None, *, top: bool | None = None,
             face_up: bool | None = None, depth: int | None = None) -> None:
        """Move a card with every card stacked on it and every card tucked under it.

        A plain move (a card in no stack, with nothing under it and no extra viewer,
        between two zones that count no symbols, keep no stacks and have no slots, and
        no mark to reset) is done here in a few lines, with what it forgets planned once
        per pair of zones (``runtime/moves.py``); the rest go through ``_move``."""
        state = self.state
        row = state.cards[card]
        left = row["zone"]
        program = self.program
        try:
            plan = program.move_plans[left, zone]
        except KeyError:  # the first move between these two zones
            plan = program.move_plans[left, zone] = move_plan(program, left, zone)
        if (plan is None or len(row) != PLAIN_CARD or not self.plain_moves
                or (plan.per_player and player is None)):
            self._move(card, zone, player, top=top, face_up=face_up, depth=depth)
            return
        marks = program.marks_cleared_on_move
        if marks:  # a mark to reset on the card: the general path resets and logs it
            counters, flags = state.counters, state.flags
            for name, start in marks:
                if (counters[name][card] != start if start is not None
                        else flags[name][card]):
                    self._move(card, zone, player, top=top, face_up=face_up, depth=depth)
                    return
        if not plan.per_player:
            player = None
        left_seat = row["player"]
        units = self._units
        if units and card in units:
            self._drop_unit(card, view=False)
        state.move(card, zone, player, top=plan.ordered if top is None else top,
                   face_up=face_up, depth=depth)
        state.log.append(["move", card, zone, player, state.cards[card]["face_up"]])
        self._dirty = True
        touched = plan.touched if self._view is not None else plan.touched_unseen
        seated = plan.seated
        seats: tuple[int, ...] = ()
        if seated:  # a seated target zone is each player's: ``player`` is a seat
            seats = ((left_seat,) if plan.left_seated else ()) + (
                (cast(int, player),) if plan.to_seated else ())
        if self._holding:
            self._note(touched, seated, seats)
        elif seated:
            self.touch_seats(touched, seated, seats)
        else:
            self.touch(*touched)

    def move_all(self, cards: list[int], zone: str, player: int | None, *,
                 top: bool | None = None, face_up: bool | None = None) -> None:
        """Move these cards in turn, as ``move`` does one, forgetting once for the run.

        A draw of several cards or a move of a zone's every card makes the same change
        for each card (the same tags for the same seats), and nothing reads a remembered
        value between them: what the run forgets is forgotten once, at its end (or before
        a trigger's condition is read, or when a move raises), which leaves the memo and
        the outcomes to check exactly as one forget per card would."""
        if len(cards) < 2:
            for card in cards:
                self.move(card, zone, player, top=top, face_up=face_up)
            return
        self.hold()
        try:
            for card in cards:
                self.move(card, zone, player, top=top, face_up=face_up)
        finally:
            self.release()

    def hold(self) -> None:
        """Hold back what the moves from now on forget, until ``release`` (see
        ``move_all``): the caller reads no remembered value in between, except through a
        trigger's condition, before which the world releases what it holds."""
        self._holding = True

    def release(self) -> None:
        """Forget what the moves since ``hold`` forget, once, and stop holding."""
        self._holding = False
        self._release()

    def _note(self, touched: tuple[str, ...], seated: tuple[str, ...],
              seats: tuple[int, ...]) -> None:
        """Hold a move's forgetting: the same as the one held is already held, another
        one does the held one first (forgetting commutes, and nothing is read between)."""
        held = self._held
        if held is not None:
            if held[2] == seats and held[0] == touched and held[1] == seated:
                return
            self._release()
        self._held = (touched, seated, seats)

    def _release(self) -> None:
        """Do the forgetting held back, if any."""
        held = self._held
        if held is not None:
            self._held = None
            if held[1]:
                self.touch_seats(*held)
            else:
                self.touch(*held[0])

    def _move(self, card: int, zone: str, player: int | None, *, top: bool | None = None,
              face_up: bool | None = None, depth: int | None = None) -> None:
        """The general path of ``move``: stacks, tucks, marks, zones that count symbols."""
        state = self.state
        cards = state.cards
        program = self.program
        row = state.card_to_change(card)
        spec = program.zones.get(zone)
        if spec is not None:
            if spec["per"] != "player":
                player = None
            elif player is None:
                raise RulesError(f"zone '{zone}' belongs to each player: say whose")
        left = row["zone"]
        left_seat = row["player"]
        was, was_seat = (left, left_seat) if left != UNDER else self.location(card)
        host = row.get("host")
        base = row.get("base")
        if self._units:  # none kept (as in the setup): none to drop
            self._drop_unit(card, base, None if host is None else self.base(host), view=False)
        if host is not None or base is not None:
            self._detach(card)
        above = row.pop("above", [])
        if above and self._units:
            self._drop_unit(*above, view=False)
        keep_stack = spec is not None and spec["stacks"]
        under = row.get("under", []) if keep_stack else row.pop("under", [])
        if top is None:
            top = bool(spec and spec["ordered"])
        state.move(card, zone, player, top=top, face_up=face_up, depth=depth)
        row.pop("seen", None)
        state.log.append(["move", card, zone, player, row["face_up"]])
        marks = program.marks_cleared_on_move
        if marks:
            self._clear_marks([card, *above])
        for other in above:
            state.card_to_change(other).pop("seen", None)
            state.move(other, zone, player, top=top, face_up=face_up, depth=depth)
            state.log.append(["move", other, zone, player, cards[other]["face_up"]])
            if not keep_stack:
                state.card_to_change(other).pop("base", None)
        if keep_stack and above:
            row["above"] = above
        if not keep_stack:
            for other in under:
                state.card_to_change(other).pop("host", None)
                state.move(other, zone, player, top=top)
                state.log.append(["move", other, zone, player, cards[other]["face_up"]])
        old = program.zones.get(was)
        per_seat = program.symbols_per_seat
        on: tuple[int, ...] | None = None
        if (spec is None or spec["symbols"] or spec["stacks"] or old is None
                or old["symbols"] or old["stacks"]):
            # symbol totals change only when a counting zone does, and only its seat's
            if per_seat:
                on = self._symbol_seats(((old, left_seat if left != UNDER else None),
                                         (spec, player)))
                self._drop_view(on)
            else:
                self._view = None
        elif per_seat:
            on = ()
        self._dirty = True
        tags = program.zone_tags
        a, b = tags.get(left, left), tags.get(zone, zone)
        useful = program.seat_reads.useful
        seated: tuple[str, ...] = ()
        seats: tuple[int, ...] = ()
        if useful and (a in useful or b in useful or SYMBOLS in useful):
            touched: tuple[str, ...] = (CARDS,)
            for tag, seat in ((a, left_seat), (b, player)):
                if seat is None or tag not in useful:
                    touched += (tag,)
                else:  # a zone each player has: only that player's changed
                    seated += (tag,)
                    seats += (seat,)
        else:
            touched = (CARDS, a, b)
        if under and not keep_stack:
            touched += (tags.get(UNDER, UNDER),)
        if host is not None or base is not None or above or under:
            # a stack it was or is part of changed: the stacks of the seats it left and
            # joined (``seat_reads``: what reads another seat's stacks is kept; a shared
            # zone's cards lie at no seat, and what is placed by seat never reads them)
            if STACKS in useful and spec is not None and old is not None:
                held = tuple(s for s in (was_seat, player) if s is not None)
                held = held[:1] if held[1:] == held[:1] else held or (NO_SEAT,)
                seated += (STACKS,) * len(held)
                seats += held
            else:
                touched += (STACKS,)
        if self._view is None:  # dropped now or before: what read it is remade
            if on is None or SYMBOLS not in useful:
                touched += (SYMBOLS,)
            else:
                seated += (SYMBOLS,) * len(on)
                seats += on
        for name, _ in marks:
            touched += (counter_tag(name), flag_tag(name))
        if self._holding:
            self._note(touched, seated, seats)
        elif seated:
            self.touch_seats(touched, seated, seats)  # one pass over the memo for all
        else:
            self.touch(*touched)
        if spec is not None and spec.get("slots") is not None and len(
                self.zone_cards(zone, player)) > spec["slots"]:
            raise RulesError(f"zone '{zone}' holds at most {spec['slots']} cards")
        if spec is not None and spec["symbols"] and (old is None or not old["symbols"]):
            self.fire("played", [card])

    def _drop_view(self, seats: tuple[int, ...] | None) -> None:
        """Drop the symbol view after a change of these seats' units (None: anyone's),
        keeping it aside so that the next view takes the other seats' totals from it."""
        view = self._view
        if seats is None:
            self._stale = None
        elif view is not None:
            self._stale = (view, frozenset(seats))
        elif self._stale is not None:
            self._stale = (self._stale[0], self._stale[1] | frozenset(seats))
        self._view = None

    def _symbol_seats(self, places: tuple[tuple[Mapping[str, Any] | None, int | None], ...]
                      ) -> tuple[int, ...] | None:
        """The seats whose symbol totals a change of these (zone, seat) places may change,
        or None: anyone's (a shared or unknown zone that counts, or totals that are not
        each seat's own, ``seat_reads.symbols_per_seat``)."""
        if not self.program.symbols_per_seat:
            return None
        seats: list[int] = []
        for spec, seat in places:
            if spec is None:
                return None
            if spec["symbols"] or spec["stacks"]:
                if seat is None:
                    return None
                if seat not in seats:
                    seats.append(seat)
        return tuple(seats)

    def _clear_marks(self, cards: list[int]) -> None:
        """Marks that last ``until moved`` go back to their start on the cards that moved."""
        state = self.state
        for name, start in self.program.marks_cleared_on_move:
            counter = start is not None
            values = state.counters[name] if counter else state.flags[name]
            reset = start if counter else False
            for card in cards:
                if values[card] != reset:  # the list may be a clone's: made this one's first
                    values = (state.counter_to_change if counter else state.flag_to_change)(name)
                    values[card] = reset
                    self.log_event("counter" if start is not None else "flag", name, card, reset)
                    if name in self.program.symbol_marks:
                        self._drop_unit(card)  # the card's symbols change with the mark

    def _detach(self, card: int) -> None:
        writable = self.state.card_to_change
        row = writable(card)
        host = row.pop("host", None)
        if host is not None:
            held = writable(host)
            held["under"].remove(card)
            if not held["under"]:
                del held["under"]
        base = row.pop("base", None)
        if base is not None:
            held = writable(base)
            held["above"].remove(card)
            if not held["above"]:
                del held["above"]

    def stack(self, card: int, onto: int) -> None:
        """Put a card (and what is stacked on it) on top of the unit ``onto`` belongs to,
        face up, then run the ``stacked`` triggers."""
        base = self.base(onto)
        zone, player = self.location(base)
        self.move(card, zone, player, top=False, face_up=True)
        writable = self.state.card_to_change
        for other in [card, *writable(card).pop("above", [])]:
            writable(other)["base"] = base
            writable(base).setdefault("above", []).append(other)
        self.log_event("stack", card, base)
        self._drop_unit(base)
        if player is not None and STACKS in self.program.seat_reads.useful:
            self.touch_seats((CARDS, SYMBOLS), (STACKS,), (player,))  # that seat's stacks
        else:
            self.touch(CARDS, STACKS, SYMBOLS)
        self.fire("stacked", [card, onto])

    def tuck(self, card: int, host: int) -> None:
        """Put a card face down under ``host``, where it goes wherever the host goes; then
        run the ``tucked`` triggers.

        The cards stacked on it and those tucked under it go under ``host`` too, after it:
        a tucked card holds nothing of its own, so they follow the host from now on."""
        row = self.state.cards[card]
        carried = [*row.get("above", ()), *row.get("under", ())]
        self.move(card, UNDER, None, top=False, face_up=False)
        for tucked in (card, *carried):
            self.state.card_to_change(tucked)["host"] = host
            self.state.card_to_change(host).setdefault("under", []).append(tucked)
        self.log_event("tuck", card, host)
        self._drop_unit(self.base(host))
        self.touch(CARDS, STACKS, SYMBOLS)
        self.fire("tucked", [card, host])

    def reveal(self, card: int, to: int | None) -> None:
        """Let one player (None: everyone) see a card's face until it moves; then run the
        ``revealed`` triggers."""
        row = self.state.card_to_change(card)
        seen = row.setdefault("seen", [])
        viewers = range(self.state.players) if to is None else [to]
        for p in viewers:
            if p not in seen:
                seen.append(p)
        seen.sort()
        self.log_event("reveal", card, to)
        self.fire("revealed", [card])

    def shuffle(self, zone: str, player: int | None) -> None:
        """Shuffle a zone with the game's seeded generator, logged; nobody can tell any more
        which face-down card went where, so what was revealed of them is forgotten (a card
        guessed at and shuffled back is unknown again)."""
        self.state.shuffle(zone, player)
        cards = self.state.cards
        for card in self.zone_cards(zone, player):
            if not cards[card]["face_up"] and "seen" in cards[card]:
                self.state.card_to_change(card).pop("seen", None)
        self.log_event("shuffle", zone, player, len(self.zone_cards(zone, player)))
        self._dirty = True
        self.touch(CARDS, self.program.zone_tags.get(zone, zone))

    def reset_period(self, period: str) -> None:
        """Counters and flags that last ``until`` this period go back to their start."""
        for name, start in self.program.resets.get(period, ()):
            values = self.state.counters[name] if start is not None else self.state.flags[name]
            if start is None:
                if True in values:
                    self.state.flag_to_change(name)[:] = [False] * len(values)
                    self.log_event("reset", name)
                    self.touch(flag_tag(name))
                else:
                    continue
            elif values.count(start) != len(values):
                self.state.counter_to_change(name)[:] = [start] * len(values)
                self.log_event("reset", name)
                self.touch(counter_tag(name))
            else:
                continue
            if name in self.program.symbol_marks:  # blocks placed for the period go
                self.forget_symbols()
                self.touch(CARDS, SYMBOLS)
        self.state.info["uses"].pop(period, None)  # limits: read by no define or outcome

    def fire(self, event: str, args: list[Any]) -> None:
        """Push the triggers of ``event`` whose condition holds, to run before anything
        else (the first trigger in the file runs first)."""
        triggers = self.program.triggers.get(event)
        if not triggers:
            return
        self._release()  # a condition may read what a held move forgets
        chosen: list[Block] = []
        for trig in triggers:
            env = dict(zip(trig.params, args, strict=False))
            if trig.where is None or trig.where(self, env):
                chosen.append(Block(trig.body, 0, env))
        self.state.frames.extend(reversed(chosen))

    # --- the run loop ---------------------------------------------------------------------

    def forget_symbols(self, cards: Iterable[int] | None = None) -> None:
        """Drop the symbol view and the units made of ``cards`` (None: every unit): these
        cards were changed from outside the rules (a determinized copy re-dealt them, face,
        owner and marks), or a mark of every unit changed."""
        if cards is None:
            self._view = None
            self._stale = None
            self._units = {}
            self._units_owned = True
            return
        rows = self.state.cards
        dropped: list[int | None] = []
        for card in cards:
            host = rows[card].get("host")
            dropped.append(self.base(card))  # the unit it is part of
            if host is not None:
                dropped.append(self.base(host))  # the unit it is attached to
        self._drop_unit(*dropped)
