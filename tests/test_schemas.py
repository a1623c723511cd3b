"""The JSON Schemas: valid 2020-12, documented, usable by editors, and the source of hints."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft7Validator, Draft202012Validator

from decklore.compiler import PackError, compile_pack
from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.load.decks import card_schema
from decklore.compiler.load.manifest import load_manifest
from decklore.schema import DRAFT_07, SCHEMA_NAMES, editor_variant, load_schema

Files = dict[str, "str | bytes | None"]
SCHEMA_FILES = sorted(p.name for p in files("decklore.schema").iterdir()
                      if p.name.endswith(".schema.json"))


def test_every_schema_file_is_named() -> None:
    named = sorted(f"{name}.schema.json" for name in SCHEMA_NAMES)
    assert named == SCHEMA_FILES


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_is_valid_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = schema
        for part in ref[2:].split("/"):
            target = target[part]
        return {**target, **node}
    return node


def _properties(node: Any, path: str = "#") -> Iterator[tuple[str, Any]]:
    """Every (path, subschema) under a ``properties`` keyword, at any depth."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    yield f"{path}/properties/{name}", sub
            yield from _properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _properties(value, f"{path}/{index}")


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_every_property_has_a_description(name: str) -> None:
    schema = load_schema(name)
    found = list(_properties(schema))
    assert found
    missing = [path for path, sub in found
               if not (isinstance(sub, dict) and _resolve(schema, sub).get("description"))]
    assert missing == []


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_editor_variant_is_draft_07_without_defs(name: str) -> None:
    variant = editor_variant(load_schema(name))
    Draft7Validator.check_schema(variant)
    assert variant["$schema"] == DRAFT_07
    text = json.dumps(variant)
    assert "$defs" not in text
    assert "#/definitions/" in text or "definitions" not in variant


def test_editor_variant_leaves_the_original_alone() -> None:
    schema = load_schema("deck")
    before = json.dumps(schema, sort_keys=True)
    editor_variant(schema)
    assert json.dumps(schema, sort_keys=True) == before


def test_load_schema_gives_fresh_copies() -> None:
    load_schema("pack")["properties"].clear()
    assert load_schema("pack")["properties"]
    with pytest.raises(KeyError, match="no schema named 'nope'"):
        load_schema("nope")


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_both_spellings_accept_the_mini_pack(mini_pack: Path) -> None:
    for name, path in (("pack", mini_pack / "pack.yaml"),
                       ("deck", mini_pack / "decks" / "one.yaml")):
        doc = _yaml(path)
        schema = load_schema(name)
        assert list(Draft202012Validator(schema).iter_errors(doc)) == []
        assert list(Draft7Validator(editor_variant(schema)).iter_errors(doc)) == []


def test_both_spellings_refuse_the_same_mistake(mini_pack: Path) -> None:
    doc = _yaml(mini_pack / "pack.yaml")
    doc["symbols"][0]["colour"] = "#ffffff"
    schema = load_schema("pack")
    new = [e.message for e in Draft202012Validator(schema).iter_errors(doc)]
    old = [e.message for e in Draft7Validator(editor_variant(schema)).iter_errors(doc)]
    assert new == old and len(new) == 1


def test_deck_schema_is_closed_over_the_pack(mini_pack: Path) -> None:
    manifest = load_manifest(mini_pack, "mini", Diagnostics())
    assert manifest is not None
    schema = card_schema(manifest)
    Draft202012Validator.check_schema(schema)
    card = schema["$defs"]["card"]
    assert card["additionalProperties"] is False
    assert card["properties"]["kind"]["enum"] == ["unit", "event"]
    assert card["properties"]["cost"] == {"description": "What it costs.",
                                          "type": ["integer", "null"], "minimum": 0, "maximum": 9}
    assert card["properties"]["era"]["enum"] == ["early", "late", None]
    assert {"gate", "guard", "needs", "upgrades_from", "elite", "lore", "upgrade"} <= set(
        card["properties"])
    Draft7Validator.check_schema(editor_variant(schema))


# --- hints from the schema ------------------------------------------------------------------


def _first_error(tmp_path: Path, write_pack: Callable[[Path, Files], Path], files: Files
                 ) -> tuple[str, str, str]:
    pack = write_pack(tmp_path, files)
    with pytest.raises(PackError) as info:
        compile_pack(pack)
    d = info.value.diagnostics[0]
    return d.code, d.message, d.hint


def test_unknown_card_key_suggests_the_close_one(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    deck = mini_text("decks/one.yaml").replace("    cost: 3\n", "    cots: 1\n")
    assert _first_error(tmp_path, write_pack, {"decks/one.yaml": deck}) == (
        "E100", "unknown key 'cots' in cards[1]", "did you mean 'cost'?")


def test_unknown_key_in_a_nested_manifest_mapping(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    pack = mini_text("pack.yaml").replace("players: {min: 1, max: 3}",
                                          "players: {min: 1, maxx: 3}")
    found = write_pack(tmp_path, {"pack.yaml": pack})
    with pytest.raises(PackError) as info:
        compile_pack(found)
    assert [(d.code, d.message, d.hint) for d in info.value.diagnostics] == [
        ("E102", "missing required key 'max' in players", "add 'max:' to players"),
        ("E100", "unknown key 'maxx' in players", "did you mean 'max'?"),
    ]


def test_unknown_key_without_a_close_one_lists_the_allowed(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    deck = mini_text("decks/one.yaml").replace("  tags: [main]", "  zzz: 1")
    assert _first_error(tmp_path, write_pack, {"decks/one.yaml": deck}) == (
        "E100", "unknown key 'zzz' in deck", "allowed keys: back, description, id, name, tags")


def test_wrong_case_key_suggests_the_right_case(
    tmp_path: Path, write_pack: Callable[[Path, Files], Path], mini_text: Callable[[str], str]
) -> None:
    deck = mini_text("decks/one.yaml").replace("    elite: true\n", "    ELITE: true\n")
    code, _, hint = _first_error(tmp_path, write_pack, {"decks/one.yaml": deck})
    assert code == "E100" and hint == "did you mean 'elite'?"
