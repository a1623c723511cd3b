"""Saved games and logs are untrusted: check them completely before any of it is used.

A save is a whole game state as JSON (``GameState.to_json``, format ``version`` 2, described
for tools by ``schema/save.schema.json``; ``migrate_save`` reads version 1).  Someone may
hand over a save or a log that was edited, truncated or made up, so loading goes through three
gates, each refusing with a ``SaveFormatError`` that says what is wrong and where (a JSON
path such as ``cards[12].zone``):

1. **reading**: UTF-8, JSON without ``NaN``/``Infinity``, nested at most ``MAX_DEPTH``
   deep, numbers of sane size (``parse_json``);
2. **shape**: every field of the state has the type and range the engine relies on
   (``check_state_shape``), with no tables needed;
3. **meaning**, against the tables being played (``check_state``): the zones, counters and
   flags are the rules' own, every card instance is a known card lying in exactly one zone
   (the one it records), owners and players are seats of the game, counters are whole
   numbers within their bounds.  When the save names the very tables it is loaded with,
   the game is also replayed from its start with its logged decisions and must come out
   identical: that is what proves the parts no schema can (the position of execution, the
   pending options, the generator's state) were not edited (``check_replays``).

Logs (``decklore replay``) are checked line by line with ``check_log_line``.  Standard
library only, like the rest of the runtime.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

SAVE_VERSION = 2
"""The save format this runtime writes (``GameState.to_json``'s ``version``).

Version 2 names every field of an execution frame (``{"kind": "flow", "stage": 1, ...}``);
version 1 wrote one-letter keys (``{"t": "fl", "st": 1, ...}``) and is upgraded on load."""
OLDEST_VERSION = 1
"""The oldest save format ``migrate_save`` reads."""
MAX_DEPTH = 64
"""How deeply a save's or log line's JSON may nest (a real save nests under 15 deep)."""
MAX_INT = 2 ** 64
"""The largest magnitude any number in a save may have (seeds and generator state)."""
MAX_PLAYERS = 64
MAX_BUDGET = 10_000_000
"""The largest step budget a save or log may ask for (the default is 100,000)."""
MAX_CARDS = 100_000


class SaveFormatError(ValueError):
    """A save or log that is not what decklore writes; the message says what and where."""


# --- reading -------------------------------------------------------------------------------


def _refuse_constant(name: str) -> Any:
    raise SaveFormatError(f"the JSON has {name}, which is not a number decklore writes")


def parse_json(data: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text from an untrusted file: strict UTF-8, bounded depth, finite numbers."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveFormatError(f"the file is not valid UTF-8 (byte {exc.start})") from None
    else:
        text = data
    if _max_depth(text, max_depth) > max_depth:
        raise SaveFormatError(f"the JSON nests deeper than {max_depth} levels (the limit)")
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except SaveFormatError:
        raise
    except (ValueError, RecursionError) as exc:
        raise SaveFormatError(f"the file is not valid JSON ({exc})") from None


def _max_depth(text: str, limit: int) -> int:
    """How deeply brackets nest in JSON text (strings skipped), counting up to past ``limit``.

    Checked before parsing, so a 10,000-deep document never reaches the parser's recursion.
    """
    depth = deepest = 0
    for match in _BRACKETS.finditer(text):  # strings are matched whole, so skipped
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif char in "]}":
            depth -= 1
    return deepest


_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')


# --- shape ---------------------------------------------------------------------------------


def _int(value: Any) -> bool:
    return type(value) is int and -MAX_INT <= value <= MAX_INT


def _fail(where: str, message: str) -> SaveFormatError:
    return SaveFormatError(f"{where}: {message}" if where else message)


def _need(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise _fail(where, message)


def _seat(value: Any, players: int, where: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    _need(_int(value) and 0 <= value < players, where,
          f"must be a seat number from 0 to {players - 1}" + (" or null" if optional else "")
          + f" (got {_shown(value)})")


def _shown(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _plain_json(value: Any, where: str, depth: int = 0) -> None:
    """Only JSON types, finite numbers and bounded ints, at most MAX_DEPTH deep."""
    _need(depth <= MAX_DEPTH, where, "nests too deeply")
    kind = type(value)
    if kind is dict:
        for key, item in value.items():
            _plain_json(item, f"{where}.{key}", depth + 1)
    elif kind is list:
        for index, item in enumerate(value):
            _plain_json(item, f"{where}[{index}]", depth + 1)
    elif kind is float:
        _need(math.isfinite(value), where, "must be a finite number")
    elif kind is int:
        _need(_int(value), where, "is a number too large for a saved game")
    else:
        _need(value is None or kind in (str, bool), where, "is not plain JSON data")


_INFO_INTS = ("turn", "round", "steps", "budget", "decisions", "turn_began")


# Version 1's frame kinds and keys, by what version 2 calls them.
_V1_KINDS = {"root": "root", "b": "block", "fl": "flow", "each": "each", "rep": "repeat",
             "while": "while", "rp": "until_pass", "pick": "pick", "pay": "pay",
             "destroy": "destroy"}
_V1_KEYS = {"root": {"i": "next"}, "block": {"b": "block"},
            "flow": {"f": "flow", "st": "stage", "i": "child", "p": "player",
                     "oi": "order_index", "bd": "body_done", "abort": "aborted"},
            "each": {"s": "stmt", "i": "index"}}
_V1_STMT = {"s": "stmt"}


def migrate_save(data: Any) -> Any:
    """A decoded save in the current format: a version-1 save's frames get version 2's
    names; anything else is returned as it is (``check_state_shape`` judges it)."""
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(
            data.get("frames"), list):
        return data
    frames = []
    for index, frame in enumerate(data["frames"]):
        _need(isinstance(frame, dict) and frame.get("t") in _V1_KINDS, f"frames[{index}]",
              "is not an execution frame of save format 1")
        kind = _V1_KINDS[frame["t"]]
        keys = _V1_KEYS.get(kind, _V1_STMT)
        new = {"kind": kind}
        for key, value in frame.items():
            if key != "t":
                new[keys.get(key, key)] = value
        frames.append(new)
    return {**data, "version": SAVE_VERSION, "frames": frames}


# What each field of a frame holds, by frame kind (``runtime/frames.py``): required fields
# first, then the optional ones.
_INT, _SEAT, _BOOL, _ENV, _LIST = "int", "seat", "bool", "env", "list"
_FRAME_FIELDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "root": ({}, {"next": _INT}),
    "flow": ({"flow": _INT}, {"stage": "stage", "child": _INT, "player": _SEAT,
                              "order": "seats", "order_index": _INT, "held": _BOOL,
                              "free": _BOOL, "body_done": _BOOL, "aborted": _BOOL}),
    "block": ({"block": _INT, "pc": _INT, "env": _ENV}, {"about": _LIST, "by": _SEAT}),
    "each": ({"stmt": _INT, "items": _LIST, "index": _INT, "env": _ENV}, {}),
    "repeat": ({"stmt": _INT, "left": _INT, "env": _ENV}, {}),
    "while": ({"stmt": _INT, "env": _ENV}, {}),
    "until_pass": ({"stmt": _INT, "env": _ENV}, {}),
    "pick": ({"stmt": _INT, "picked": _LIST, "env": _ENV}, {}),
    "pay": ({"stmt": _INT, "due": "number", "env": _ENV}, {}),
    "destroy": ({"cards": "cards", "to": "place"}, {}),
}


def _check_frame(frame: Any, where: str, players: int) -> None:
    _need(isinstance(frame, dict) and frame.get("kind") in _FRAME_FIELDS, where,
          "must be an execution frame (an object whose 'kind' is one of "
          + ", ".join(_FRAME_FIELDS) + ")")
    required, optional = _FRAME_FIELDS[frame["kind"]]
    for key in frame:
        _need(key == "kind" or key in required or key in optional, f"{where}.{key}",
              f"is not a field of a {frame['kind']} frame")
    for key, kind in [*required.items(), *optional.items()]:
        if key not in frame:
            _need(key not in required, where, f"a {frame['kind']} frame needs '{key}'")
            continue
        value, at = frame[key], f"{where}.{key}"
        if kind == _INT:
            _need(_int(value) and value >= 0, at, "must be a whole number, 0 or more")
        elif kind == "number":
            _need(_int(value), at, "must be a whole number")
        elif kind == "stage":
            _need(_int(value) and 0 <= value <= 3, at, "must be a stage from 0 to 3")
        elif kind == _SEAT:
            _seat(value, players, at, optional=True)
        elif kind == "seats":
            _need(value is None or (isinstance(value, list) and all(
                _int(v) and 0 <= v < players for v in value)), at, "must be a list of seats")
        elif kind == _BOOL:
            _need(type(value) is bool, at, "must be true or false")
        elif kind == _ENV:
            _need(isinstance(value, dict), at, "must be an object of names")
        elif kind == _LIST:
            _need(value is None or isinstance(value, list), at, "must be a list")
        elif kind == "cards":
            _need(isinstance(value, list) and all(_int(v) and v >= 0 for v in value), at,
                  "must be a list of card instances")
        else:  # a place: [zone, seat or null]
            _need(isinstance(value, list) and len(value) == 2 and isinstance(value[0], str),
                  at, "must be a zone and a seat (or null)")
            _seat(value[1], players, f"{at}[1]", optional=True)


def check_state_shape(data: Any) -> None:
    """Refuse a decoded save whose fields do not have the types and ranges the engine uses.

    Needs no tables: ``check_state`` adds what only the rules can tell.
    """
    _need(isinstance(data, dict), "", "not a saved game: the file holds no JSON object")
    _need("version" in data, "", "not a saved game: it has no state version")
    _need(data["version"] == SAVE_VERSION, "version",
          f"saved game has state version {_shown(data['version'])}, this decklore reads "
          f"{OLDEST_VERSION} to {SAVE_VERSION}")
    for key in ("players", "seed", "rng", "decks", "shared_zones", "cards", "zones",
                "counters", "flags", "log", "frames", "pending", "info"):
        _need(key in data, "", f"not a saved game: it has no '{key}'")
    _plain_json(data, "")
    players = data["players"]
    _need(_int(players) and 1 <= players <= MAX_PLAYERS, "players",
          f"must be a whole number from 1 to {MAX_PLAYERS}")
    _need(_int(data["seed"]), "seed", "must be a whole number")
    rng = data["rng"]
    _need(isinstance(rng, list) and len(rng) == 2 and all(_int(v) and v >= 0 for v in rng),
          "rng", "must be the generator's two whole numbers")
    _need(isinstance(data["decks"], list) and len(data["decks"]) == players
          and all(isinstance(d, str) for d in data["decks"]), "decks",
          f"must name one deck for each of the {players} seats")
    _need(isinstance(data["shared_zones"], list) and all(
        isinstance(z, str) for z in data["shared_zones"]), "shared_zones",
          "must be a list of zone names")
    cards = data["cards"]
    _need(isinstance(cards, list) and len(cards) <= MAX_CARDS, "cards",
          f"must be a list of at most {MAX_CARDS:,} card instances")
    for index, card in enumerate(cards):
        where = f"cards[{index}]"
        _need(isinstance(card, dict), where, "must be an object")
        _need(isinstance(card.get("card"), str), f"{where}.card", "must be a card id")
        _need(isinstance(card.get("zone"), str), f"{where}.zone", "must be a zone name")
        _seat(card.get("player"), players, f"{where}.player", optional=True)
        _seat(card.get("owner"), players, f"{where}.owner", optional=True)
        _need(type(card.get("face_up")) is bool, f"{where}.face_up", "must be true or false")
        for key in ("above", "under", "seen"):
            if card.get(key) is not None:
                _need(isinstance(card[key], list) and all(
                    _int(v) and 0 <= v < max(len(cards), players) for v in card[key]),
                      f"{where}.{key}", "must be a list of card instances")
        if card.get("base") is not None:
            _need(_int(card["base"]) and 0 <= card["base"] < len(cards), f"{where}.base",
                  "must be a card instance")
    for group in ("zones", "counters", "flags"):
        _need(isinstance(data[group], dict), group, "must be an object")
        for name, slots in data[group].items():
            _need(isinstance(slots, list), f"{group}.{name}", "must be a list")
    for name, per in data["zones"].items():
        for index, ids in enumerate(per):
            _need(isinstance(ids, list) and all(_int(i) and 0 <= i < len(cards) for i in ids),
                  f"zones.{name}[{index}]", "must be a list of card instances")
    for name, values in data["counters"].items():
        for index, value in enumerate(values):
            _need(_int(value), f"counters.{name}[{index}]",
                  f"must be a whole number (got {_shown(value)})")
    for name, values in data["flags"].items():
        for index, value in enumerate(values):
            _need(type(value) is bool, f"flags.{name}[{index}]",
                  f"must be true or false (got {_shown(value)})")
    log = data["log"]
    _need(isinstance(log, list) and all(isinstance(e, list) and e and isinstance(e[0], str)
                                        for e in log), "log", "must be a list of events")
    if log:
        check_start_event(log[0], "log[0]")
    frames = data["frames"]
    _need(isinstance(frames, list), "frames", "must be a list of execution frames")
    for index, frame in enumerate(frames):
        _check_frame(frame, f"frames[{index}]", players)
    pending = data["pending"]
    if pending is not None:
        _need(isinstance(pending, dict), "pending", "must be an object or null")
        _seat(pending.get("player"), players, "pending.player")
        _need(isinstance(pending.get("options"), list) and pending["options"],
              "pending.options", "must be a non-empty list")
    _need(isinstance(data["info"], dict), "info", "must be an object")


def check_info(info: dict[str, Any], players: int) -> None:
    """A game's ``info``: turn, round, steps, result and the rest, as the engine keeps them."""
    for key in _INFO_INTS:
        _need(_int(info.get(key)) and info[key] >= 0, f"info.{key}",
              "must be a whole number, 0 or more")
    _seat(info.get("me"), players, "info.me", optional=True)
    for key in ("out", "automated"):
        _need(isinstance(info.get(key), list), f"info.{key}", "must be a list of seats")
        for index, seat in enumerate(info[key]):
            _seat(seat, players, f"info.{key}[{index}]")
    _need(isinstance(info.get("uses"), dict), "info.uses", "must be an object")
    _need(info.get("phase") is None or isinstance(info["phase"], str), "info.phase",
          "must be a phase name or null")
    _need(isinstance(info.get("rules_hash"), str), "info.rules_hash", "must be a string")
    result = info.get("result")
    if result is not None:
        _need(isinstance(result, dict) and isinstance(result.get("winners"), list),
              "info.result", "must be null or an object with the winners")
        for index, seat in enumerate(result["winners"]):
            _seat(seat, players, f"info.result.winners[{index}]")


def check_start_event(event: Any, where: str) -> None:
    """A log's first event: pack id, tables hash, players, seed, decks, budget (rules hash)."""
    _need(isinstance(event, list) and 7 <= len(event) <= 8 and event[0] == "start", where,
          "not a saved game: its log does not begin with the game's start")
    _, pack, tables, players, seed, decks, budget, *rules = event
    _need(isinstance(pack, str) and isinstance(tables, str), where,
          "the start event must name the pack and its tables")
    _need(_int(players) and 1 <= players <= MAX_PLAYERS, where,
          "the start event's player count is not a seat count")
    _need(_int(seed), where, "the start event's seed must be a whole number")
    _need(isinstance(decks, list) and all(isinstance(d, str) for d in decks), where,
          "the start event's decks must be deck ids")
    _need(budget is None or (_int(budget) and 0 < budget <= MAX_BUDGET), where,
          f"the start event's step budget must be a whole number from 1 to {MAX_BUDGET:,}")
    _need(not rules or rules[0] is None or isinstance(rules[0], str), where,
          "the start event's rules hash must be a string")


def check_log_line(event: Any, where: str) -> None:
    """One line of a game log: a JSON list naming its event; decisions are seat and index."""
    _need(isinstance(event, list) and bool(event) and isinstance(event[0], str), where,
          "not a log event (a JSON list beginning with the event's name expected)")
    if event[0] == "decide":
        _need(len(event) == 3 and _int(event[1]) and 0 <= event[1] < MAX_PLAYERS
              and _int(event[2]) and 0 <= event[2] < 10 ** 9, where,
              "a decision must be [\"decide\", seat, option number]")
    _plain_json(event, where)


# --- meaning -------------------------------------------------------------------------------


def check_state(data: dict[str, Any], program: Any, known_cards: set[str],
                renamed: Mapping[str, str]) -> None:
    """Refuse a well-shaped save that does not fit the rules it is loaded with.

    ``program`` is the runtime ``Program`` (zones, counters and flags of the rules);
    ``known_cards`` the card ids of the tables, ``renamed`` their old ids.
    """
    players = data["players"]
    cards = data["cards"]
    shared = set(data["shared_zones"])
    zone_names = set(program.zones) | {"-out", "-under"}
    expected_shared = {n for n, z in program.zones.items() if z["per"] != "player"} | {
        "-out", "-under"}
    _need(set(data["zones"]) == zone_names, "zones",
          "the zones are not the ones the rules declare (" + _difference(
              set(data["zones"]), zone_names) + ")")
    _need(shared == expected_shared, "shared_zones",
          "the shared zones are not the ones the rules declare")
    for name, per in data["zones"].items():
        want = 1 if name in shared else players
        _need(len(per) == want, f"zones.{name}",
              f"must have {want} {'list' if want == 1 else 'lists'} (one "
              f"{'for the table' if want == 1 else 'per seat'})")
    placed: dict[int, tuple[str, int | None]] = {}
    for name, per in data["zones"].items():
        for index, ids in enumerate(per):
            for instance in ids:
                _need(instance not in placed, f"zones.{name}[{index}]",
                      f"card instance {instance} is in two places")
                placed[instance] = (name, None if name in shared else index)
    for instance, card in enumerate(cards):
        where = f"cards[{instance}]"
        card_id = renamed.get(card["card"], card["card"])
        _need(card_id in known_cards, f"{where}.card",
              f"this game has card '{card['card']}', which the pack no longer has; "
              "declare its new id under 'renamed'")
        _need(card["zone"] in zone_names, f"{where}.zone", f"no zone '{card['zone']}'")
        _need(placed.get(instance) == (card["zone"], card["player"]), where,
              f"card instance {instance} is not in the zone it records ({card['zone']})")
    for group, specs in (("counters", program.counters), ("flags", program.flags)):
        _need(set(data[group]) == set(specs), group,
              f"the {group} are not the ones the rules declare (" + _difference(
                  set(data[group]), set(specs)) + ")")
        for name, spec in specs.items():
            want = {"player": players, "card": len(cards), "game": 1}[spec["per"]]
            _need(len(data[group][name]) == want, f"{group}.{name}",
                  f"must have {want} values (one per {spec['per']})")
    for name, spec in program.counters.items():
        for index, value in enumerate(data["counters"][name]):
            low, high = spec.get("min"), spec.get("max")
            _need((low is None or value >= low) and (high is None or value <= high),
                  f"counters.{name}[{index}]",
                  f"{value} is outside the counter's bounds ({low} to "
                  f"{'no limit' if high is None else high})")
    _need(data["pending"] is None or data["info"]["result"] is None, "pending",
          "a finished game waits for no decision")


_PENDING_FRAMES = {"again": "until_pass", "cards": "pick", "pay": "pay", "may": "block",
                   "card": "block", "number": "block", "one": "block"}
"""The frame a pending decision of each kind is asked from (and answered into)."""


def check_frames(frames: list[Any], program: Any, cards: int, pending: Any) -> None:
    """Refuse frames that point past the rules' blocks, statements or flow blocks, or a
    pending decision that the top frame did not ask.

    A save made with these very tables is replayed too, which proves the rest; for one
    made with another version of the pack, this is what keeps the engine from running
    off its rules.
    """
    for index, frame in enumerate(frames):
        where = f"frames[{index}]"
        kind = frame.KIND
        if kind == "block":
            _need(frame.block < len(program.blocks), f"{where}.block",
                  f"the rules have no block {frame.block}")
            _need(frame.pc <= len(program.blocks[frame.block]), f"{where}.pc",
                  f"block {frame.block} has {len(program.blocks[frame.block])} statements")
        elif kind == "flow":
            _need(frame.flow < len(program.flows), f"{where}.flow",
                  f"the rules have no flow block {frame.flow}")
        elif kind == "destroy":
            _need(all(c < cards for c in frame.cards), f"{where}.cards",
                  f"the game has {cards} card instances")
            _need(frame.to[0] in program.zones or frame.to[0] in ("-out", "-under"),
                  f"{where}.to", f"no zone '{frame.to[0]}'")
        elif kind != "root":
            _need(frame.stmt < len(program.stmts), f"{where}.stmt",
                  f"the rules have no statement {frame.stmt}")
    if pending is not None:
        want = _PENDING_FRAMES.get(pending.get("kind"))
        _need(want is not None, "pending.kind", f"no decision kind {_shown(pending.get('kind'))}")
        top = frames[-1].KIND if frames else None
        _need(top == want, "pending",
              f"a '{pending['kind']}' decision is asked from a {want} frame, not "
              f"{'no frame' if top is None else 'a ' + top + ' frame'}")
        if want == "block":
            frame = frames[-1]
            _need(frame.pc < len(program.blocks[frame.block]), "frames",
                  "the decision's frame has no statement left to ask it")


def _difference(have: set[str], want: set[str]) -> str:
    extra = sorted(have - want)[:3]
    missing = sorted(want - have)[:3]
    parts = ([f"unknown {', '.join(extra)}"] if extra else []) + (
        [f"missing {', '.join(missing)}"] if missing else [])
    return "; ".join(parts)


def check_replays(data: dict[str, Any], tables: Any, text: str) -> None:
    """Refuse a save that its own start and decisions do not reproduce exactly.

    Only for a save made with these very tables (same content hash): the game is played
    again from its start event with the logged decisions, and the state must equal the
    saved one (``text``, as this format writes it) byte for byte.
    """
    from decklore.runtime.expressions import RulesError
    from decklore.runtime.game import Game, StepBudgetExceeded
    from decklore.runtime.state import StateError

    _, _, _, players, seed, decks, budget, *_ = data["log"][0]
    choices = [event[2] for event in data["log"] if event[0] == "decide"]
    try:
        game = Game.new(tables, players, seed, decks, budget=budget or data["info"]["budget"])
        for choice in choices:
            if game.terminal or game.state.pending is None:
                break
            game.apply(choice)
    except StepBudgetExceeded:
        pass
    except (RulesError, StateError, TypeError, IndexError, KeyError) as exc:
        raise SaveFormatError(f"the saved game cannot be replayed from its start ({exc}); "
                              "it was changed after it was saved") from None
    if game.to_json() != text:
        raise SaveFormatError("the saved position does not follow from the game's own start "
                              "and decisions; it was changed after it was saved")


def check_save(state: Any, program: Any, tables: Any) -> None:
    """Every check that needs the tables (``check_state``, then ``check_replays``).

    Raises ``StateError``, as the engine's other refusals of a save do.
    """
    from decklore.runtime.state import StateError

    data = {"players": state.players, "cards": state.cards, "zones": state.zones,
            "shared_zones": state.shared_zones, "counters": state.counters,
            "flags": state.flags, "pending": state.pending, "info": state.info,
            "frames": state.frames, "log": state.log}
    known = {row["id"] for row in tables.raw["cards"]}
    try:
        _need(bool(state.log) and state.log[0][0] == "start", "log",
              "not a saved game: its log does not begin with the game's start")
        check_info(state.info, state.players)
        check_state(data, program, known, tables.raw.get("renamed") or {})
        check_frames(state.frames, program, len(state.cards), state.pending)
        if state.log[0][2] == tables.content_hash:
            check_replays(data, tables, state.to_json())  # canonical, in this format
    except SaveFormatError as exc:
        raise StateError(str(exc)) from None
