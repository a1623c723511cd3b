"""Generated block functions (``runtime/blockgen.py``) run the rules exactly as the loop does.

A runner runs a block's statements in a row where the interpreter visits its loop once per
statement.  These tests hold it to the interpreter, with the same program and generated
expressions both ways (only the runners switched off): the same step count, frame stack,
pending question and log at every decision of seeded games of every kind of pack; the
same step, log and message when the budget stops a game, for every budget up to a few
hundred steps; the same error, naming the same rules line, with the frames left where the
interpreter leaves them; and no pack text in the generated source.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_codegen import HOSTILE, _retabled
from test_log_hashes import UNO, tables_of

from decklore.compiler.cache import TableCache
from decklore.compiler.pipeline import compile_pack
from decklore.runtime import blockgen
from decklore.runtime.agents import RandomAgent
from decklore.runtime.expressions import RulesError
from decklore.runtime.frames import frame_to_json
from decklore.runtime.game import Game
from decklore.runtime.program import Program, program_for
from decklore.runtime.simulate import deal_decks
from decklore.runtime.tables import Tables


@contextmanager
def runners(program: Program, on: bool) -> Iterator[None]:
    """Run this program's games with its block functions on or off."""
    kept = program.blocks_generated
    assert kept is not None
    program.blocks_generated = kept if on else None
    try:
        yield
    finally:
        program.blocks_generated = kept


def _position(game: Game) -> Any:
    state = game.state
    return (json.dumps(state.info, sort_keys=True), [frame_to_json(f) for f in state.frames],
            json.dumps(state.pending, sort_keys=True), len(state.log))


def _trace(tables: Tables, players: int, seed: int, budget: int, on: bool) -> list[Any]:
    """Where the game stands after every decision of seeded random play (and how it ended)."""
    program = program_for(tables)
    with runners(program, on):
        game = Game.prepare(tables, players, seed,
                            deal_decks(tables, players, seed) or None, budget=budget)
        agent = RandomAgent(seed)
        trace = []
        try:
            game.resume()
            trace.append(_position(game))
            while not game.terminal:
                game.apply(agent.choose(game))
                trace.append(_position(game))
        except RulesError as exc:
            trace.append((type(exc).__name__, str(exc), exc.at, _position(game)))
        trace.append(game.log_hash())
    return trace


@pytest.mark.parametrize(("pack", "players", "seed"), [
    ("era", 2, 1), ("era", 3, 2), ("era-of-kingdoms", 3, 3), ("era-of-kingdoms-trade-route", 2, 4),
    ("renaissance", 2, 5), ("rise-of-empires", 2, 6), ("embers-of-empire", 4, 7), ("uno", 3, 8)])
def test_every_decision_finds_the_game_where_the_interpreter_does(
        pack: str, players: int, seed: int) -> None:
    tables = tables_of(pack)
    on = _trace(tables, players, seed, 6000, True)
    off = _trace(tables, players, seed, 6000, False)
    assert len(on) > 10
    assert on == off


@pytest.mark.parametrize("pack", ["era", "uno"])
def test_the_budget_stops_the_game_at_the_same_step(pack: str) -> None:
    """Every budget from 1 to 400 steps: the same step, log, message and place both ways
    (a budget can run out inside a block, before its end or before a branch)."""
    tables = tables_of(pack)
    for budget in range(1, 401):
        on = _trace(tables, 2, 3, budget, True)
        off = _trace(tables, 2, 3, budget, False)
        assert on == off, budget
        assert on[-2][0] == "StepBudgetExceeded", budget
        assert f'"steps": {budget + 1},' in on[-2][3][0], budget


def _uno_with(statements: list[dict[str, Any]]) -> Tables:
    """Uno whose first turn starts with these statements (then the turn as written)."""
    raw = json.loads(compile_pack(UNO, cache=TableCache()).data)

    def visit(node: Any) -> bool:
        if isinstance(node, dict):
            if node.get("kind") == "turn":
                node["start"] = [*statements, *(node.get("start") or [])]
                return True
            return any(visit(v) for v in node.values())
        if isinstance(node, list):
            return any(visit(v) for v in node)
        return False
    assert visit(raw["rules"]["flow"])
    return _retabled(raw)


AT = "rules/uno.rules:77"


@pytest.mark.parametrize("bad", [
    {"do": "gain", "at": AT, "kind": "counter", "name": "score",
     "amount": {"op": "add", "a": {"op": "none"}, "b": {"op": "int", "value": 1}}},
    {"do": "if", "at": AT, "branches": [{"when": {"op": "mul", "a": {"op": "text", "value": "x"},
                                                  "b": {"op": "int", "value": 1}},
                                         "then": []}]},
    {"do": "repeat", "at": AT, "times": {"op": "text", "value": "x"}, "body": []},
    {"do": "fail", "at": AT, "message": "stop here"},
], ids=["none-plus-one", "text-times-one", "repeat-text", "fail"])
def test_an_error_mid_block_reads_and_stands_as_in_the_interpreter(bad: dict[str, Any]) -> None:
    good = {"do": "log", "at": "rules/uno.rules:76", "message": "first"}
    tables = _uno_with([good, bad])
    program = program_for(tables)
    seen = []
    for on in (True, False):
        with runners(program, on):
            game = Game.prepare(tables, 2, 1)
            with pytest.raises(RulesError) as caught:
                game.resume()
            seen.append((str(caught.value), _position(game)))
    assert seen[0] == seen[1]
    assert seen[0][0].startswith(AT + ": ")
    assert _trace(tables, 2, 1, 1000, True) == _trace(tables, 2, 1, 1000, False)


def test_most_statements_of_the_bundled_packs_are_written_out() -> None:
    """Decisions and a few rare statements go through their handler; the rest is source."""
    for pack in ("era", "era-of-kingdoms", "uno"):
        generated = Program(tables_of(pack), generated=True).blocks_generated
        assert generated is not None
        assert generated.written > 3 * generated.handled, pack


def test_no_runners_without_generated_code() -> None:
    assert Program(tables_of("uno"), generated=False).blocks_generated is None


NAMES = re.compile(r"[Akvx][0-9]+|g|f|i|pc|state|frames|info|env|budget|steps|exc|c|run|cards"
                   r"|card|zone|player|amount|of|value|items|times|stage|pushed|child|out|order|live"
                   r"|later|p")
"""The identifiers the block generator writes: numbered names and its runners' locals."""


def test_hostile_names_and_strings_stay_data_in_blocks() -> None:
    tables = _uno_with([
        {"do": "log", "at": HOSTILE, "message": HOSTILE},
        {"do": "let", "at": HOSTILE, "name": HOSTILE, "value": {"op": "int", "value": 1}}])
    program = Program(tables, generated=True)
    generated = program.blocks_generated
    assert generated is not None
    tree = ast.parse(generated.source)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    names |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}
    assert {n for n in names if not NAMES.fullmatch(n)} <= blockgen.PASSED_NAMES
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert HOSTILE in strings
    scope = generated.runners[0].__globals__
    assert scope["__builtins__"] == {}
    game = Game.new(tables, 2, 1)
    assert ["say", HOSTILE] in game.state.log


@pytest.mark.parametrize("pack", ["era", "uno"])
def test_a_pause_point_stops_where_the_interpreter_stops(pack: str) -> None:
    """Each flow block as a pause point: the game stops before it with the same frames, and
    goes on from there alike (the generated visit of a flow checks the pause first)."""
    tables = tables_of(pack)
    program = program_for(tables)
    for name in sorted({flow.name for flow in program.flows}):
        seen = []
        for on in (True, False):
            with runners(program, on):
                game = Game.prepare(tables, 2, 5)
                game.pause_at = {name}
                game.resume()
                agent = RandomAgent(5)
                stops = []
                for _ in range(30):
                    stops.append((game.paused, _position(game)))
                    if game.terminal:
                        break
                    if game.paused is not None:
                        game.resume()
                    else:
                        game.apply(agent.choose(game))
                seen.append(stops)
        assert seen[0] == seen[1], name
        assert any(paused == name for paused, _ in seen[0]) or name == "setup", name


def test_a_limit_per_phase_is_used_up_in_its_phase_only(tmp_path: Path) -> None:
    """The language's rule for limits: "the action may run only that often in each period"
    (docs/rules-language.md); a phase written out by the generator ends its uses too."""
    from test_engine import choose, descriptions, play

    game = play(tmp_path, """
round:
  turn:
    phase act:
      repeat 2 times:
        choose one "Act":
          option earn "Earn a point" once per phase:
            gain 1 points
          option rest "Rest":
            gain 1 gold
win p when p.points >= 2
""")
    assert game.program.blocks_generated is not None
    choose(game, "Earn a point")
    # Only Rest was left in this phase, so it was forced; the next phase is seat 2's.
    assert game.state.counters["gold"] == [1, 0] and game.current_player() == 1
    assert descriptions(game) == ["Earn a point", "Rest"]


@pytest.mark.parametrize("rules", ["""
era first:
  round:
    turn:
      phase one:
        choose one "Act":
          option gain "Gain":
            gain 1 points
          option stop "Stop the era":
            end era
      phase two:
        gain 1 gold
era second:
  round:
    turn:
      gain 2 points
win p when p.points >= 4
""", """
turn:
  choose one "Act":
    option gain "Gain":
      gain 1 points
    option skip "Skip the rest":
      end turn
  gain 1 gold
win p when p.points >= 4
"""], ids=["end-era", "free-turn-end-turn"])
def test_ended_rounds_and_free_turns_go_on_as_in_the_interpreter(tmp_path: Path,
                                                                   rules: str) -> None:
    """A round ended with its era does not start again; a turn outside any round passes to
    the next seat (the generated flow stages write both out)."""
    from test_engine import play

    tables = play(tmp_path, rules).program.tables
    for seed in range(4):
        assert _trace(tables, 3, seed, 3000, True) == _trace(tables, 3, seed, 3000, False)


@pytest.mark.parametrize(("pack", "players"), [("era", 2), ("uno", 3)])
def test_a_game_saved_by_one_path_resumes_on_the_other(pack: str, players: int) -> None:
    """The frames a runner leaves are the interpreter's own: a game saved at a decision with
    the runners on plays on with them off (and the other way) to the same log."""
    tables = tables_of(pack)
    program = program_for(tables)

    def finish(game: Game, agent: RandomAgent, on: bool) -> str:
        with runners(program, on):
            try:
                while not game.terminal:
                    game.apply(agent.choose(game))
            except RulesError:
                pass
        return game.log_hash()

    for stop in (3, 20):
        hashes = set()
        for first, then in ((True, True), (True, False), (False, True)):
            with runners(program, first):
                game = Game.new(tables, players, stop, budget=2500)
                agent = RandomAgent(stop)
                for _ in range(stop):
                    if not game.terminal:
                        game.apply(agent.choose(game))
                saved = game.to_json()
            resumed = Game.from_json(tables, saved)
            hashes.add(finish(resumed, agent, then))
        assert len(hashes) == 1, stop
