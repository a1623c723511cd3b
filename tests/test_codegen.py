"""Generated code for the rules' expressions plays exactly as the closures, and stays data.

``runtime/codegen.py`` lowers a pack's defines and expressions to Python source.  These tests
hold it to three promises: every pinned seed gives the same log with generated code on and
off; errors still name the rules line, with the interpreter's words; and nothing a pack
says ever becomes code (hostile names and strings stay literals, and every identifier in the
source is one the generator made).
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_log_hashes import CASES, PINNED, UNO, Case, case_id, play, tables_of

from decklore import cli
from decklore.compiler.cache import TableCache
from decklore.compiler.pipeline import compile_pack
from decklore.runtime import codegen
from decklore.runtime.agents import RandomAgent
from decklore.runtime.expressions import RulesError
from decklore.runtime.game import Game
from decklore.runtime.program import Program
from decklore.runtime.tables import Tables, loads_tables


@pytest.mark.parametrize("on", [True, False], ids=["generated", "closures"])
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pinned_hashes_with_generated_code_on_and_off(case: Case, on: bool) -> None:
    with codegen.generated(on):
        game = play(case)
        assert (game.program.generated is not None) is on
    assert game.log_hash() == PINNED[case_id(case)]


def test_every_bundled_pack_lowers_without_falling_back() -> None:
    """The generator knows every operator the bundled packs use (a fallback would be slow
    but correct, so this guards speed, not behaviour)."""
    for pack in ("era", "era-of-kingdoms", "renaissance", "uno"):
        generated = Program(tables_of(pack), generated=True).generated
        assert generated is not None
        assert generated.fallbacks == 0, pack


# --- hostile packs ------------------------------------------------------------------------

HOSTILE = "x'); __import__('os').system('echo owned'); ('\n\"\"\"#"
"""Quotes of both kinds, a newline, a comment and a call of __import__."""


def _retabled(raw: dict[str, Any]) -> Tables:
    body = {k: v for k, v in raw.items() if k != "content_hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    raw["content_hash"] = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    return loads_tables(json.dumps(raw))


def _rename(node: Any, define: str, new: str) -> Any:
    if isinstance(node, dict):
        out = {k: _rename(v, define, new) for k, v in node.items()}
        if out.get("op") == "define" and out.get("name") == define:
            out["name"] = new
        return out
    if isinstance(node, list):
        return [_rename(v, define, new) for v in node]
    return node


def _rename_local(node: Any, old: str, new: str) -> Any:
    if isinstance(node, dict):
        out = {k: _rename_local(v, old, new) for k, v in node.items()}
        if out.get("op") == "local" and out.get("name") == old:
            out["name"] = new
        return out
    if isinstance(node, list):
        return [_rename_local(v, old, new) for v in node]
    return node


def hostile_uno() -> Tables:
    """Uno with a define, its parameter and a text literal named with hostile text.

    The checker would refuse such names; tables are data, so the runtime must not trust
    that they passed it."""
    raw = json.loads(compile_pack(UNO, cache=TableCache()).data)
    rules = raw["rules"]
    spec = rules["defines"].pop("matches")
    (param,) = spec["params"]
    spec["params"] = [HOSTILE + "p"]
    spec["body"] = _rename_local(spec["body"], param, HOSTILE + "p")
    spec["at"] = HOSTILE + "at"
    rules["defines"][HOSTILE] = spec
    raw["rules"] = _rename(rules, "matches", HOSTILE)
    raw["rules"]["defines"]["says"] = {
        "params": [], "at": "rules/uno.rules:1", "body": {"op": "text", "value": HOSTILE}}
    return _retabled(raw)


GENERATED = re.compile(r"[abdefnstv][0-9]+|g|env|memo|key|value|exc")
"""The identifiers the generator writes: its own numbered names and its functions' locals."""


def test_hostile_names_and_strings_stay_data() -> None:
    tables = hostile_uno()
    program = Program(tables, generated=True)
    assert program.generated is not None
    tree = ast.parse(program.generated.source)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    names |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments) for a in n.args}
    assert {n for n in names if not GENERATED.fullmatch(n)} <= codegen.PASSED_NAMES
    strings = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)}
    assert HOSTILE in strings and HOSTILE + "at" in strings
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    assert attributes <= {"state", "info", "zones", "counters", "flags", "rows", "get", "memo",
                          "owned", "add", "at", "zone_cards", "counter_value", "flag_value",
                          "players"}  # a table per seat is made only for a seat of the game
    game = Game.new(tables, 2, 1)
    assert program.defines["says"](game) == HOSTILE


def test_a_hostile_pack_plays_as_with_the_closures() -> None:
    tables = hostile_uno()
    logs = []
    for on in (True, False):
        with codegen.generated(on):
            game = Game.new(tables, 3, 4, budget=20_000)
            agent = RandomAgent(4)
            while not game.terminal:
                game.apply(agent.choose(game))
            logs.append(game.log_hash())
    assert logs[0] == logs[1]


def test_generated_code_has_no_builtins() -> None:
    """A name the runtime did not pass in is unknown to generated code, even ``open``."""
    program = Program(tables_of("uno"), generated=True)
    assert program.generated is not None
    define = program.generated.defines["step"]
    scope = define.__globals__
    assert scope["__builtins__"] == {}
    assert "open" not in scope and "__import__" not in scope


# --- errors -------------------------------------------------------------------------------


def _with_define(body: dict[str, Any], params: list[str] | None = None) -> Tables:
    raw = json.loads(compile_pack(UNO, cache=TableCache()).data)
    raw["rules"]["defines"]["broken"] = {"params": params or [], "at": "rules/uno.rules:99",
                                         "body": body}
    return _retabled(raw)


@pytest.mark.parametrize("body", [
    {"op": "add", "a": {"op": "none"}, "b": {"op": "int", "value": 1}},
    {"op": "div", "a": {"op": "int", "value": 1}, "b": {"op": "int", "value": 0}},
    {"op": "agg", "fn": "sum", "var": "c", "in": {"op": "zone", "zone": "hand",
                                                   "player": {"op": "int", "value": 0}},
     "value": {"op": "text", "value": "x"}},
    {"op": "local", "name": "nobody"},
    {"op": "define", "name": "broken", "args": []},
], ids=["none-plus-one", "division-by-zero", "sum-of-text", "unbound-local", "endless"])
def test_errors_name_the_rules_line_as_the_closures_do(body: dict[str, Any]) -> None:
    tables = _with_define(body)
    messages = []
    for on in (True, False):
        program = Program(tables, generated=on)
        game = Game.new(tables, 2, 1)
        with pytest.raises(RulesError) as caught:
            program.defines["broken"](game)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("rules/uno.rules:99: ")


# --- inspecting ---------------------------------------------------------------------------


def test_dump_python_prints_the_generated_module(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["compile", str(UNO), "--dump-python"],
                                env={"DECKLORE_CACHE_DIR": str(tmp_path)})
    assert result.exit_code == 0, result.output
    tree = ast.parse(result.output)
    functions = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
    assert "d0" in functions and "e0" in functions
    assert "k0" in functions and "v0" in functions  # the blocks and the flow stages
    assert "'can_play\\x000', 'can_play\\x001'" in result.output  # a table per seat
    assert "g.memo.get('matches')" in result.output


# --- every define, value for value -----------------------------------------------------


def _outcome(define: Any, game: Game, args: tuple[Any, ...]) -> Any:
    game.memo = {}
    try:
        return define(game, *args)
    except Exception as exc:  # a failure must be the same failure both ways
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize(("pack", "players"), [("era", 2), ("era-of-kingdoms", 3)])
def test_every_define_gives_the_closures_value_or_error(pack: str, players: int) -> None:
    """Each define of at most two parameters, at positions along a seeded game, with seats,
    cards and none as arguments (wrong kinds too: a failure must read the same)."""
    from test_observation_views import positions

    tables = tables_of(pack)
    closures = Program(tables, generated=False).defines
    generated = Program(tables, generated=True).defines
    specs = tables.raw["rules"]["defines"]
    compared = 0
    for game in positions(pack, players, 5, 25, 6):
        for name, spec in specs.items():
            if len(spec["params"]) > 2:
                continue
            for args in itertools.product((0, 1, 2, None), repeat=len(spec["params"])):
                assert (_outcome(generated[name], game, args)
                        == _outcome(closures[name], game, args)), (name, args)
                compared += 1
    assert compared > 1000


def test_dump_python_of_a_pack_without_rules_says_so(tmp_path: Path) -> None:
    mini = Path(__file__).resolve().parent / "packs" / "mini"
    result = CliRunner().invoke(cli, ["compile", str(mini), "--dump-python"],
                                env={"DECKLORE_CACHE_DIR": str(tmp_path)})
    assert result.exit_code == 1
    assert result.output == ("error: pack mini has no rules to play; --dump-python prints the "
                             "code generated from a pack's rules\n")
