"""Saved games and logs are untrusted: every damaged one is refused clearly, never a crash.

The hostile cases are those an attack suite found: invalid UTF-8, deep JSON, cards in two
zones, counters below their minimum or not numbers, string seeds, replaced pending options,
unknown cards, seats out of range.  The property tests damage one to four JSON leaves of a
real save (and a real log) and accept only two outcomes: the save loads (and then it is
the genuine game, since it replays identically), or a ``StateError`` / exit code 1 with a
message; never another exception or exit code 3.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decklore import cli
from decklore.compiler import compile_pack
from decklore.runtime.agents import make_agent
from decklore.runtime.game import Game
from decklore.runtime.save_format import MAX_DEPTH, SaveFormatError, parse_json
from decklore.runtime.state import GameState, StateError
from decklore.runtime.tables import Tables, loads_tables

ROOT = Path(__file__).resolve().parents[1]
ERA = ROOT / "cards" / "era"


@cache
def era() -> Tables:
    return loads_tables(compile_pack(ERA).data)


@cache
def saved_game() -> str:
    """A real save of an ERA game 30 decisions in (a few dozen milliseconds to replay)."""
    game = Game.new(era(), 2, 5)
    agents = [make_agent("random", 11, era().raw), make_agent("random", 12, era().raw)]
    for _ in range(30):
        player = game.current_player()
        assert player is not None
        game.apply(agents[player].choose(game))
    return game.to_json()


def edited(change: Any) -> str:
    data = json.loads(saved_game())
    change(data)
    return json.dumps(data)


def refusal(text: str | bytes) -> str:
    with pytest.raises(StateError) as error:
        Game.from_json(era(), text)
    return str(error.value)


def test_a_genuine_save_loads_and_plays_on() -> None:
    game = Game.from_json(era(), saved_game())
    assert game.to_json() == saved_game()
    game.apply(0)


def _set(path: list[Any], value: Any) -> Any:
    def change(data: Any) -> None:
        for key in path[:-1]:
            data = data[key]
        data[path[-1]] = value
    return change


def _card_in_two_zones(data: dict[str, Any]) -> None:
    hand = data["zones"]["draw_pile"][0]
    data["zones"]["draw_pile"][1].append(hand[0])


def _replaced_options(data: dict[str, Any]) -> None:
    data["pending"]["options"] = [*reversed(data["pending"]["options"]), 0]


@pytest.mark.parametrize(("text", "expected"), [
    (b"\xff\xfe{}", "the file is not valid UTF-8 (byte 0)"),
    ("[" * 10_000 + "]" * 10_000, "the JSON nests deeper than 64 levels (the limit)"),
    ("{\"version\": 1, \"seed\": NaN}", "the JSON has NaN, which is not a number decklore writes"),
    ("[]", "not a saved game: the file holds no JSON object"),
    (lambda: edited(_set(["cards"], [])), "must be a list of card instances"),
    (lambda: edited(_set(["seed"], "7")), "seed: must be a whole number"),
    (lambda: edited(_set(["counters", "progress_tokens", 0], -1000)),
     "counters.progress_tokens[0]: -1000 is outside the counter's bounds (0 to no limit)"),
    (lambda: edited(_set(["counters", "progress_tokens", 0], "x")),
     "counters.progress_tokens[0]: must be a whole number (got \"x\")"),
    (lambda: edited(_set(["cards", 0, "owner"], 7)),
     "cards[0].owner: must be a seat number from 0 to 1 or null (got 7)"),
    (lambda: edited(_set(["cards", 0, "player"], -1)),
     "cards[0].player: must be a seat number from 0 to 1 or null (got -1)"),
    (lambda: edited(_set(["cards", 0, "card"], "era:nothing")),
     "cards[0].card: this game has card 'era:nothing', which the pack no longer has"),
    (lambda: edited(_set(["cards", 0, "zone"], "nowhere")), "cards[0].zone: no zone 'nowhere'"),
    (lambda: edited(_card_in_two_zones), "is in two places"),
    (lambda: edited(_set(["frames"], [{"kind": "block", "block": 10 ** 6, "pc": 0,
                                        "env": {}}])),
     "frames[0].block: the rules have no block 1000000"),
    (lambda: edited(_set(["frames"], [{"kind": "block", "block": 0, "pc": 0, "env": {},
                                        "jump": 3}])),
     "frames[0].jump: is not a field of a block frame"),
    (lambda: edited(_set(["frames"], [{"kind": "loop", "stmt": 0}])),
     "frames[0]: must be an execution frame (an object whose 'kind' is one of root, flow, "
     "block, each, repeat, while, until_pass, pick, pay, destroy)"),
    (lambda: edited(_set(["frames"], [{"kind": "root", "next": 0}])),
     "frame, not a root frame"),  # pending: a '<kind>' decision is asked from a ...
    (lambda: edited(_replaced_options),
     "the saved position does not follow from the game's own start and decisions"),
    (lambda: edited(_set(["pending"], {"player": 0, "options": []})),
     "pending.options: must be a non-empty list"),
    (lambda: edited(_set(["info"], {})), "info.turn: must be a whole number, 0 or more"),
    (lambda: edited(_set(["players"], 5)), "decks: must name one deck for each of the 5 seats"),
])
def test_hostile_saves_are_refused(text: Any, expected: str) -> None:
    assert expected in refusal(text() if callable(text) else text)


def test_deep_json_is_refused_before_parsing() -> None:
    with pytest.raises(SaveFormatError, match=f"deeper than {MAX_DEPTH} levels"):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    assert parse_json('["[[[[", {"a": "]]]"}]') == ["[[[[", {"a": "]]]"}]


def test_a_state_without_rules_still_round_trips() -> None:
    state = GameState.from_json(saved_game())
    assert state.to_json() == saved_game()


# --- damaged saves: a property test -----------------------------------------------------------

_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.sampled_from(
    [-1, 2 ** 70, 1.5, "", "x", "era:pyramid", "hand", [], {}, [0], {"t": "b"}]))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _paths(v, (*prefix, k))] or [prefix]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _paths(v, (*prefix, i))] or [prefix]
    return [prefix]


@cache
def _save_leaves() -> list[tuple[Any, ...]]:
    return [p for p in _paths(json.loads(saved_game())) if p]


@settings(max_examples=60, deadline=10_000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10 ** 6), _LEAVES), min_size=1, max_size=4))
def test_damaged_saves_load_genuinely_or_are_refused(edits: list[tuple[int, Any]]) -> None:
    data = json.loads(saved_game())
    leaves = _save_leaves()
    for pick, value in edits:
        path = leaves[pick % len(leaves)]
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    text = json.dumps(data)
    try:
        game = Game.from_json(era(), text)
    except StateError as exc:
        assert str(exc)
        return
    # It loaded: then it is the real game (its replay matched), and it plays on.
    assert json.loads(game.to_json()) == json.loads(saved_game())


# --- logs -------------------------------------------------------------------------------------


@cache
def game_log() -> list[str]:
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        result = CliRunner().invoke(cli, ["play", str(ERA), "--players", "random,random",
                                          "--seed", "3", "--log", "game.log"])
        assert result.exit_code == 0, result.output
        return Path("game.log").read_text(encoding="utf-8").splitlines()


def replay(lines: list[str] | bytes) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder, contextlib.chdir(folder):
        data = lines if isinstance(lines, bytes) else ("\n".join(lines) + "\n").encode()
        Path("game.log").write_bytes(data)
        result = CliRunner().invoke(cli, ["replay", "game.log", "--pack", str(ERA)])
    return result.exit_code, result.output


def _decide_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith('["decide"'))


@pytest.mark.parametrize(("damage", "expected"), [
    (lambda ls, i: ls.__setitem__(i, '["decide",0,"1"]'),
     'a decision must be ["decide", seat, option number]'),
    (lambda ls, i: ls.__setitem__(i, '["decide",0,1.5]'),
     'a decision must be ["decide", seat, option number]'),
    (lambda ls, i: ls.__setitem__(i, '["decide",0,[1]]'),
     'a decision must be ["decide", seat, option number]'),
    (lambda ls, i: ls.__setitem__(i, '["decide",0,'), "not a log line (JSON expected)"),
    (lambda ls, i: ls.__setitem__(i, "[" * 5000 + "]" * 5000), "not a log line (JSON expected)"),
    (lambda ls, i: ls.__setitem__(i, '["decide",0,999]'), "the replay stopped: no action 999"),
    (lambda ls, i: ls.__setitem__(0, '["start","era","x",2,"seed",[],1]'),
     "the start event is damaged"),
])
def test_hostile_logs_are_refused_with_the_line(damage: Any, expected: str) -> None:
    lines = list(game_log())
    index = _decide_line(lines)
    damage(lines, index)
    code, output = replay(lines)
    assert code == 1, output
    assert expected in output
    assert f"game.log:{1 if 'start' in expected else index + 1}:" in output


def test_a_log_that_is_not_utf8_names_its_line() -> None:
    code, output = replay(b'["start"]\n\xff\n')
    assert code == 1
    assert "game.log:2: not a log line (the file is not valid UTF-8)" in output


@settings(max_examples=25, deadline=20_000, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6), _LEAVES),
                min_size=1, max_size=4))
def test_damaged_logs_replay_or_are_refused(edits: list[tuple[int, int, Any]]) -> None:
    lines = list(game_log())
    for line_pick, leaf_pick, value in edits:
        index = line_pick % len(lines)
        event = json.loads(lines[index])
        spot = leaf_pick % len(event)
        event[spot] = value
        lines[index] = json.dumps(event)
    code, output = replay(lines)
    assert code in (0, 1), output
    assert "internal error" not in output


def test_the_save_schema_describes_real_saves_and_refuses_edited_ones() -> None:
    import jsonschema

    from decklore.schema import load_schema

    validator = jsonschema.Draft202012Validator(load_schema("save"))
    assert list(validator.iter_errors(json.loads(saved_game()))) == []
    for edit in (_set(["seed"], "7"), _set(["version"], 3), _set(["cards", 0, "owner"], 99),
                 _set(["counters", "progress_tokens", 0], 10 ** 12)):
        assert list(validator.iter_errors(json.loads(edited(edit))))


# --- save format 1 -------------------------------------------------------------------------

_V1_NAMES = {"root": ("root", {"next": "i"}), "block": ("b", {"block": "b"}),
             "flow": ("fl", {"flow": "f", "stage": "st", "child": "i", "player": "p",
                             "order_index": "oi", "body_done": "bd", "aborted": "abort"}),
             "each": ("each", {"stmt": "s", "index": "i"}), "repeat": ("rep", {}),
             "while": ("while", {}), "until_pass": ("rp", {}), "pick": ("pick", {}),
             "pay": ("pay", {}), "destroy": ("destroy", {})}
"""How save format 1 (decklore before the engine's frames were typed) wrote each frame:
its kind under ``t`` and one-letter keys; optional fields only when set."""


def _as_format_1(text: str) -> str:
    data = json.loads(text)
    frames = []
    for frame in data["frames"]:
        kind, keys = _V1_NAMES[frame.pop("kind")]
        old: dict[str, Any] = {"t": kind}
        for key, value in frame.items():
            if key in ("held", "free", "body_done", "aborted", "about", "by") and not value:
                continue  # format 1 left unset optional fields out
            old[keys.get(key, "s" if key == "stmt" else key)] = value
        frames.append(old)
    return json.dumps({**data, "version": 1, "frames": frames})


def test_a_format_1_save_loads_as_the_same_game() -> None:
    """Saves written before the frames had names load, replay-checked, and play on."""
    old = _as_format_1(saved_game())
    assert json.loads(old)["frames"][1]["t"] == "fl"
    game = Game.from_json(era(), old)
    assert game.to_json() == saved_game()
    before = game.log_hash()
    game.apply(0)
    assert game.log_hash() != before


def test_a_save_of_an_unknown_format_says_which_it_reads() -> None:
    text = json.dumps({**json.loads(saved_game()), "version": 7})
    assert "version: saved game has state version 7, this decklore reads 1 to 2" in refusal(text)
