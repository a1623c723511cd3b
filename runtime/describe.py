"""What a player may see: card visibility, readable action descriptions, observations.

A card's face is seen by a player when it lies face up in a zone whose visibility includes
them (``public``: everyone, ``owner``: the zone's player), or when it was revealed to them
since it last moved.  Face-down cards are hidden from everyone, their owner included, unless
revealed: a card a player commits face down stays unknown even to that player.

Observations never carry the instance number of a card the viewer cannot see, because
instance numbers follow deck order and would give the card away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from decklore.runtime.frames import Block
from decklore.runtime.looking import zone_views
from decklore.runtime.state import PLACES

if TYPE_CHECKING:
    from decklore.runtime.game import Game
    from decklore.runtime.program import Program


def visible(game: Game, card: int, viewer: int | None) -> bool:
    """Whether ``viewer`` (None: an onlooker who is no player) sees the card's face."""
    row = game.state.cards[card]
    if viewer is not None and viewer in row.get("seen", ()):
        return True
    if row.get("host") is not None or not row["face_up"]:
        return False
    spec = game.program.zones.get(row["zone"])
    if spec is None:
        return True
    if spec["visibility"] == "public":
        return True
    if spec["visibility"] == "owner":
        holder = row["player"] if row["player"] is not None else row["owner"]
        return viewer is not None and viewer == holder
    return False


def player_name(player: int | None) -> str:
    return "nobody" if player is None else f"Player {player + 1}"


def zone_phrase(game: Game, card: int, viewer: int | None) -> str:
    zone, player = game.location(card)
    spec = game.program.zones.get(zone)
    label = spec["label"] if spec else PLACES.get(zone, zone)
    if player is None:
        return label.lower() if spec else label
    whose = "your" if player == viewer else f"{player_name(player)}'s"
    return f"{whose} {label.lower()}"


def card_phrase(game: Game, card: int, viewer: int | None) -> str:
    """How the viewer can name a card: its name where it sits, or 'a face-down card'."""
    where = zone_phrase(game, card, viewer)
    if game.state.cards[card].get("host") is not None:
        host = game.state.cards[card]["host"]
        where = f"under {game.rows[host]['name']}"
    if not visible(game, card, viewer):
        return f"a face-down card ({where})"
    name = str(game.rows[card]["name"])
    above = game.state.cards[card].get("above")
    if above:
        name += f" (a stack of {len(above) + 1})"
    return f"{name} ({where})"


def describe_option(game: Game, pending: dict[str, Any], value: Any) -> str:
    """One legal action in words, as the deciding player may read it."""
    kind, label, viewer = pending["kind"], pending["label"], pending["player"]
    about = pending.get("about")
    if about is not None and kind in ("may", "again", "number", "one"):
        subject = (player_name(about[1]) if about[0] == "player"
                   else card_phrase(game, about[1], viewer))
        label = f"{label} [{subject}]" if label else subject
    if kind == "may":
        return (label or "Yes") if value else (f"Don't {_lower_first(label)}" if label else "No")
    if kind == "again":
        return (label or "Again") if value else "Pass"
    if kind == "number":
        return f"{label}: {value}" if label else str(value)
    if kind == "one":
        stmt = _stmt_at(game, pending)
        option = stmt.x["options"][value] if stmt else None
        return str(option["label"]) if option else str(value)
    if kind == "pay":
        due = pending.get("due")
        if value[0] == "card":
            stmt = _stmt_at(game, pending)
            worth = 1
            if stmt is not None:
                valued = stmt.x["sources"][value[1]][2]
                worth = game.program.defines[valued](game, value[2]) if valued else 1
            return (f"Pay {worth} of {due} with {card_phrase(game, value[2], viewer)}")
        counter = game.program.counters.get(_counter_name(game, pending, value), {})
        return f"Pay 1 of {due} with {str(counter.get('label', 'a token')).lower()}"
    if kind in ("card", "cards"):
        if value is None:
            return "Done" if kind == "cards" else "None"
        what = (player_name(value) if pending.get("choose") == "player"
                else card_phrase(game, value, viewer))
        return f"{label}: {what}" if label else what
    return f"{label}: {value}"


def _lower_first(text: str) -> str:
    """'Use the tactics option' as it reads after "Don't": lower case, unless a name."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def _stmt_at(game: Game, pending: dict[str, Any]) -> Any:
    frame = game.top_frame()
    if frame is None:
        return None
    if isinstance(frame, Block):
        return game.program.stmts[game.program.blocks[frame.block][frame.pc]]
    stmt = getattr(frame, "stmt", None)
    return None if stmt is None else game.program.stmts[stmt]


def _counter_name(game: Game, pending: dict[str, Any], value: Any) -> str:
    stmt = _stmt_at(game, pending)
    return "" if stmt is None else str(stmt.x["sources"][value[1]][1])


def card_view(game: Game, card: int, viewer: int | None) -> dict[str, Any]:
    row = game.state.cards[card]
    seen = visible(game, card, viewer)
    view: dict[str, Any] = {"face_up": bool(row["face_up"])}
    if seen:
        view.update(instance=card, card=game.rows[card]["id"], name=game.rows[card]["name"])
    if row.get("above"):
        view["stack"] = [card_view(game, c, viewer) for c in row["above"]]
    if row.get("under"):
        view["under"] = [card_view(game, c, viewer) for c in row["under"]]
    if not seen:
        return view
    marks = {}
    counters, flags = _card_marks(game.program)
    for name, start in counters:
        value = game.state.counters[name][card]
        if value != start:
            marks[name] = value
    for name in flags:
        if game.state.flags[name][card]:
            marks[name] = True
    if marks:
        view["marks"] = marks
    return view


_CARD_MARKS: WeakKeyDictionary[Program, tuple[list[tuple[str, Any]], list[str]]] = (
    WeakKeyDictionary())


def _card_marks(program: Program) -> tuple[list[tuple[str, Any]], list[str]]:
    """The per-card counters (with their start) and flags, found once per program: an
    observation looks at every card."""
    found = _CARD_MARKS.get(program)
    if found is None:
        found = ([(n, s["start"]) for n, s in program.counters.items() if s["per"] == "card"],
                 [n for n, s in program.flags.items() if s["per"] == "card"])
        _CARD_MARKS[program] = found
    return found


_PLAYER_MARKS: WeakKeyDictionary[Program, tuple[list[str], list[str]]] = WeakKeyDictionary()


def _player_marks(program: Program) -> tuple[list[str], list[str]]:
    """The per-player counters and flags, in the program's order, found once per program:
    an observation shows each of them for every seat."""
    found = _PLAYER_MARKS.get(program)
    if found is None:
        found = ([n for n, s in program.counters.items() if s["per"] == "player"],
                 [n for n, s in program.flags.items() if s["per"] == "player"])
        _PLAYER_MARKS[program] = found
    return found


def observation(game: Game, viewer: int | None) -> dict[str, Any]:
    """Everything ``viewer`` may know now, as plain data (None: a spectator)."""
    state, program = game.state, game.program
    view = game.symbol_view()
    players = []
    counter_names, flag_names = _player_marks(program)
    counter_lists = [(n, state.counters[n]) for n in counter_names]
    flag_lists = [(n, state.flags[n]) for n in flag_names]
    total = view.total
    for p in range(state.players):
        counters = {n: values[p] for n, values in counter_lists}
        flags = sorted(n for n, values in flag_lists if values[p])
        symbols = {s: n for s in program.symbol_ids if (n := total(s, p))}
        players.append({"seat": p + 1, "deck": state.decks[p], "counters": counters,
                        "flags": flags, "out": p in state.info["out"],
                        "automated": p in state.info.get("automated", ()),
                        "symbols": symbols})
    zones: dict[str, Any] = {}
    views = zone_views(game, viewer, _card_marks(program))  # card_view, made faster
    for name, spec in program.zones.items():
        lists = state.zones[name]
        if spec["per"] == "player":
            zones[name] = [views(cards) for cards in lists]
        else:
            zones[name] = views(lists[0])
    pending = state.pending
    decision = None
    if pending is not None:
        decision = {"player": pending["player"] + 1, "label": pending["label"]}
        if viewer == pending["player"]:
            decision["actions"] = [a.description for a in game.legal_actions()]
    return {
        "viewer": None if viewer is None else viewer + 1,
        "turn": state.info["turn"], "round": state.info["round"],
        "current": None if state.info["me"] is None else state.info["me"] + 1,
        "phase": state.info["phase"],
        "players": players,
        "game": {n: state.counters[n][0] for n, s in program.counters.items()
                 if s["per"] == "game"},
        "zones": zones, "decision": decision, "result": state.info["result"],
    }


def event_text(game: Game, event: list[Any], viewer: int | None) -> str | None:
    """One log event in words, as ``viewer`` may know it (None: not worth a line).

    Card names appear only when the viewer sees the card where it ends up; a card moving
    face down between hidden places is 'a card'.
    """
    kind = event[0]
    program = game.program
    if kind == "move":
        card, zone, player = event[1], event[2], event[3]
        spec = program.zones.get(zone)
        where = spec["label"].lower() if spec else PLACES.get(zone, zone)
        if player is not None:
            where = ("your " if player == viewer else f"{player_name(player)}'s ") + where
        shown = event[4] and (spec is None or spec["visibility"] == "public" or (
            spec["visibility"] == "owner" and player == viewer))
        name = game.rows[card]["name"] if shown else "a card"
        return f"{name} → {where}"
    if kind == "reveal":
        # Those a card was shown to read its name here, even once it has been shuffled
        # away again (a guess that failed); the others only learn that a card was shown.
        card, to = event[1], event[2]
        name = game.rows[card]["name"]
        if to is None:
            return f"Revealed to everyone: {name}"
        if to == viewer:
            return f"Revealed to you: {name}"
        return f"{player_name(to)} looks at a card"
    if kind == "counter":
        name, slot, value = event[1], event[2], event[3]
        spec = program.counters[name]
        if spec["per"] == "player":
            return f"{player_name(slot)}: {spec['label']} {value}"
        if spec["per"] == "card":
            return f"{game.rows[slot]['name']}: {spec['label']} {value}"
        return f"{spec['label']}: {value}"
    if kind == "flag":
        name, slot, value = event[1], event[2], event[3]
        spec = program.flags[name]
        owner = (player_name(slot) if spec["per"] == "player"
                 else game.rows[slot]["name"] if spec["per"] == "card" else "")
        label = str(spec["label"])
        said = label if value else f"{label} ends" if owner else f"no longer: {label}"
        return f"{owner}: {said}" if owner else said
    if kind == "turn":
        return f"— turn {event[1]}: {player_name(event[2])} —"
    if kind == "phase":
        flows = {f.name: f.label for f in program.flows}
        return f"{flows.get(event[1], event[1])}"
    if kind == "shuffle":
        return f"{player_name(event[2]) + ' shuffles ' if event[2] is not None else 'shuffle '}" \
               f"{program.zones[event[1]]['label'].lower()}"
    if kind == "destroy":
        return f"{game.rows[event[1]]['name']} is destroyed"
    if kind == "say":
        return str(event[1])
    if kind == "end":
        winners = ", ".join(player_name(w) for w in event[1]) or "nobody"
        return f"Game over: {winners} won ({event[2]})"
    if kind == "out":
        return ", ".join(player_name(p) for p in event[1]) + f" out: {event[2]}"
    return None
