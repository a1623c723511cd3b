"""What a plain move forgets, worked out once per pair of zones (``World.move``'s fast path).

Most moves of a game are plain: a card that is in no stack, holds nothing tucked under
it and is seen by nobody extra goes from one zone to another, neither of which counts
symbols, keeps stacks or has a number of slots.  For such a move everything the general
path decides card by card depends on the two zones alone: whether the target belongs to
each player, whether it is ordered, which read tags the move touches for everyone and
which for one seat only (``World.touch_seats``).  ``move_plan`` works that out the first
time a pair of zones is seen, exactly as ``World._move`` would, and the world keeps it in
``Program.move_plans``.  A move that resets a mark, a card in a stack or a zone that
counts symbols takes the general path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from decklore.runtime.reads import CARDS, SYMBOLS

if TYPE_CHECKING:
    from decklore.runtime.program import Program


@dataclass(frozen=True)
class MovePlan:
    """How a plain move from one zone to another changes the world's caches."""

    per_player: bool
    """The target zone belongs to each player (else the move's player is None)."""
    ordered: bool
    """Where a card goes when the move says neither top nor bottom: the top if ordered."""
    touched: tuple[str, ...]
    """The tags touched for everyone while a symbol view is kept."""
    touched_unseen: tuple[str, ...]
    """The tags touched for everyone while no view is kept (``symbols`` added, as the
    general path does: what read the last view is remade)."""
    seated: tuple[str, ...]
    """The tags touched for one seat only: the left zone's (for the card's seat before the
    move) first when ``left_seated``, then the target's (for the move's player) when
    ``to_seated``."""
    left_seated: bool
    to_seated: bool


def _plain(spec: Mapping[str, Any]) -> bool:
    return not (spec["symbols"] or spec["stacks"] or spec.get("slots") is not None)


def move_plan(program: Program, left: str, zone: str) -> MovePlan | None:
    """The plan of a plain move from ``left`` to ``zone``, or None when either zone
    counts symbols, keeps stacks, has slots or is not a zone of the rules (out of the
    game, under a card): such a move takes the general path."""
    old, spec = program.zones.get(left), program.zones.get(zone)
    if old is None or spec is None or not _plain(old) or not _plain(spec):
        return None
    tags = program.zone_tags
    a, b = tags.get(left, left), tags.get(zone, zone)
    useful = program.seat_reads.useful
    left_per = old["per"] == "player"
    to_per = spec["per"] == "player"
    touched: tuple[str, ...]
    seated: tuple[str, ...] = ()
    left_seated = to_seated = False
    if useful and (a in useful or b in useful or SYMBOLS in useful):
        touched = (CARDS,)
        if left_per and a in useful:
            seated += (a,)
            left_seated = True
        else:
            touched += (a,)
        if to_per and b in useful:
            seated += (b,)
            to_seated = True
        else:
            touched += (b,)
    else:
        touched = (CARDS, a, b)
    # No counting zone: with symbols each seat's own, the seats whose totals change are
    # none, so the view's tag goes per seat (to nobody) where it is placed at all.
    unseen = touched if program.symbols_per_seat and SYMBOLS in useful else (
        *touched, SYMBOLS)
    return MovePlan(to_per, bool(spec["ordered"]), touched, unseen, seated, left_seated,
                    to_seated)
