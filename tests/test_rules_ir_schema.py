"""The rules IR schema: the contract every compiled pack's IR keeps and the runtime reads.

The schema (``schema/rules-ir.schema.json``) is the reference for the IR's shape; these tests
hold the compiler to it for every bundled pack and the starter pack, and show that a node the
schema does not know (a new kind without its entry, a stray field) is refused.
"""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from decklore.compiler import compile_pack
from decklore.compiler.tools.scaffold import new_pack
from decklore.schema import load_schema, registry

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted(p.parent.name for p in (ROOT / "cards").glob("*/pack.yaml"))
SCHEMA = load_schema("rules-ir")
VALIDATOR = Draft202012Validator(SCHEMA)


@cache
def _rules(pack: str) -> dict[str, Any]:
    rules: dict[str, Any] = compile_pack(ROOT / "cards" / pack).tables["rules"]
    return rules


def _errors(rules: Any) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in VALIDATOR.iter_errors(rules)]


def test_the_bundled_packs_are_the_ones_we_mean() -> None:
    assert BUNDLED == ["embers-of-empire", "era", "era-deck-race", "era-of-kingdoms",
                       "era-of-kingdoms-trade-route", "renaissance", "rise-of-empires"]


def test_schema_is_valid_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("pack", BUNDLED)
def test_every_bundled_pack_ir_validates(pack: str) -> None:
    rules = _rules(pack)
    assert rules is not None and rules["flow"]
    assert _errors(rules) == []


def test_the_starter_pack_ir_validates(tmp_path: Path) -> None:
    new_pack("Starter", tmp_path / "starter")
    rules = compile_pack(tmp_path / "starter").tables["rules"]
    assert rules is not None
    assert _errors(rules) == []


def test_the_tables_schema_refers_to_it_for_rules() -> None:
    tables = compile_pack(ROOT / "cards" / "era").tables
    validator = Draft202012Validator(load_schema("tables"), registry=registry())
    assert list(validator.iter_errors(tables)) == []
    tables["rules"]["flow"][0]["start"].append({"do": "teleport", "at": "x:1"})
    assert not validator.is_valid(tables)


def _first_block(rules: dict[str, Any]) -> list[dict[str, Any]]:
    block: list[dict[str, Any]] = rules["flow"][0]["start"] or rules["flow"][0]["body"]
    assert block
    return block


def _planted(change: Any) -> str:
    rules = copy.deepcopy(_rules("era"))
    change(rules)
    error = best_match(VALIDATOR.iter_errors(rules))
    assert error is not None, "the planted node passed the schema"
    return f"{error.json_path}: {error.message}"


def test_a_statement_kind_without_an_entry_fails() -> None:
    found = _planted(lambda r: _first_block(r).append({"do": "teleport", "at": "x:1"}))
    assert "'teleport' is not one of" in found
    assert found.startswith("$.flow[0].")


def test_an_expression_kind_without_an_entry_fails() -> None:
    def plant(rules: dict[str, Any]) -> None:
        rules["consts"]["planted"] = {"op": "sqrt", "x": {"op": "int", "value": 4}}
    assert _planted(plant).startswith("$.consts.planted.op: 'sqrt' is not one of")


def test_a_stray_field_on_a_known_node_fails() -> None:
    def plant(rules: dict[str, Any]) -> None:
        rules["consts"]["planted"] = {"op": "int", "value": 4, "units": "gold"}
    assert _planted(plant) == ("$.consts.planted: Additional properties are not allowed "
                               "('units' was unexpected)")


def test_a_missing_field_fails_deep_in_a_block() -> None:
    def plant(rules: dict[str, Any]) -> None:
        loops = [s for a in rules["actions"].values() for s in a["body"]
                 if s["do"] == "for_each"]
        assert loops
        del loops[0]["walks"]
    assert _planted(plant).endswith("'walks' is a required property")


def test_a_wrong_walks_value_fails() -> None:
    def plant(rules: dict[str, Any]) -> None:
        rules["consts"]["planted"] = {"op": "agg", "fn": "count", "var": "c",
                                      "in": {"op": "zone", "zone": "hand", "player": None},
                                      "walks": "card", "where": None, "value": None}
    assert "'card' is not one of ['cards', 'players', None]" in _planted(plant)


@pytest.mark.parametrize(("key", "prefix", "root"), [("do", "do_", "statement"),
                                                     ("op", "op_", "expr")])
def test_each_kind_has_one_entry_one_branch_and_one_name(key: str, prefix: str,
                                                         root: str) -> None:
    """Adding a node kind takes an entry ``do_KIND``/``op_KIND``, its name in the dispatch's
    enum and its if/then branch; this keeps the three in step."""
    defs = SCHEMA["$defs"]
    entries = sorted(name.removeprefix(prefix) for name in defs if name.startswith(prefix))
    dispatch = defs[root]
    named = sorted(dispatch["properties"][key]["enum"])
    branches = [(b["if"]["properties"][key]["const"], b["then"]["$ref"])
                for b in dispatch["allOf"]]
    assert entries == named
    assert sorted(kind for kind, _ in branches) == named
    assert all(target == f"#/$defs/{prefix}{kind}" for kind, target in branches)
    for kind in entries:
        entry = defs[prefix + kind]
        assert entry["additionalProperties"] is False
        assert entry["properties"][key] == {"description": f"This node is a '{kind}'.",
                                            "const": kind}


def test_every_definition_and_field_is_described() -> None:
    defs = SCHEMA["$defs"]
    assert [name for name, entry in defs.items() if not entry.get("description")] == []

    def undescribed(node: Any, path: str) -> list[str]:
        out: list[str] = []
        if isinstance(node, dict):
            for name, sub in (node.get("properties") or {}).items():
                if not (sub.get("description") or sub.get("$ref", "").startswith("#/$defs/")):
                    out.append(f"{path}/{name}")
            for key, value in node.items():
                out += undescribed(value, f"{path}/{key}")
        elif isinstance(node, list):
            for index, value in enumerate(node):
                out += undescribed(value, f"{path}/{index}")
        return out

    assert undescribed(SCHEMA, "#") == []
    assert set(SCHEMA["properties"]) == {
        "zones", "counters", "flags", "consts", "defines", "actions", "flow", "triggers",
        "outcomes", "score", "tiebreak", "files"}


def test_the_editor_variant_judges_alike() -> None:
    from jsonschema import Draft7Validator

    from decklore.schema import editor_variant

    old = Draft7Validator(editor_variant(SCHEMA))
    rules = copy.deepcopy(_rules("era"))
    assert list(old.iter_errors(rules)) == []
    _first_block(rules).append({"do": "teleport", "at": "x:1"})
    assert not old.is_valid(rules)
    tables = editor_variant(load_schema("tables"))
    assert tables["properties"]["rules"]["anyOf"][1] == {
        "$ref": "rules-ir.draft-07.schema.json"}
