"""The fast schema gate (fastjsonschema, draft-07) and jsonschema (2020-12) agree.

The compiler trusts the gate to wave valid files through, so any document the gate accepts
must be one jsonschema accepts too; this checks it on generated cards and manifests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.load.decks import card_schema
from decklore.compiler.load.manifest import load_manifest
from decklore.compiler.load.schema_check import checker_for, gate_code, gate_form
from decklore.schema import load_schema

ROOT = Path(__file__).resolve().parent.parent
_diags = Diagnostics()
_manifest = load_manifest(ROOT / "cards" / "era", "cards/era", _diags)
assert _manifest is not None
DECK = checker_for(card_schema(_manifest))
PACK = checker_for(load_schema("pack"))

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 30), st.integers(), st.floats(allow_nan=False),
    st.sampled_from(["A", "a", "AB", "", "hamlet", "Hamlet", "ruin 2 +3", "#12ab34", "x" * 90]),
    st.text(max_size=8),
)
keys = st.sampled_from(["id", "name", "kind", "cost", "flourish_cost", "lock", "stars",
                        "copies", "unique", "symbols", "text", "tags", "defense", "costs", "Id"])
card = st.dictionaries(keys, st.one_of(scalars, st.lists(scalars, max_size=3)), max_size=8)
deck = st.fixed_dictionaries(
    {"deck": st.one_of(st.fixed_dictionaries({"id": st.sampled_from(["d", "D", "1"]),
                                              "name": st.sampled_from(["D", ""])}), scalars),
     "cards": st.lists(card, max_size=3)}
)


def _agree(checker: Any, doc: Any) -> None:
    try:
        checker.gate(doc)
        gate_ok = True
    except fastjsonschema.JsonSchemaException:
        gate_ok = False
    full_ok = not any(True for _ in checker.validator.iter_errors(doc))
    assert gate_ok == full_ok, doc


@settings(max_examples=400, deadline=None)
@given(deck)
def test_gate_agrees_on_deck_files(doc: dict[str, Any]) -> None:
    _agree(DECK, doc)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["format", "id", "name", "version", "players",
                                        "symbols", "decks", "extra"]), scalars, max_size=7))
def test_gate_agrees_on_manifests(doc: dict[str, Any]) -> None:
    _agree(PACK, doc)


def test_gate_passes_the_bundled_pack() -> None:
    diags = Diagnostics()
    from decklore.compiler.load.yaml_loader import load_file

    for path in sorted((ROOT / "cards" / "era" / "decks").glob("*.yaml")):
        data = load_file(path, path.name, diags).data
        assert DECK.check(data, path.name, diags), diags.items


def _era_card(**changes: Any) -> dict[str, Any]:
    card = {"id": "hamlet", "name": "Hamlet", "cost": 2, "symbols": "progress"}
    card.update(changes)
    return {"deck": {"id": "d", "name": "D"}, "cards": [card]}


def test_only_whole_floats_split_the_gate_from_the_validator() -> None:
    """Why a file with ``2.0`` skips the gate, and a file with ``2.5`` need not."""
    assert DECK.is_valid(_era_card())
    DECK.gate(_era_card(cost=2.0))  # the gate, like JSON Schema, takes 2.0 for an integer
    assert any(True for _ in DECK.validator.iter_errors(_era_card(cost=2.0)))
    with pytest.raises(fastjsonschema.JsonSchemaException):
        DECK.gate(_era_card(cost=2.5))
    assert any(True for _ in DECK.validator.iter_errors(_era_card(cost=2.5)))


GATE_SCHEMA = json.dumps({"$schema": "http://json-schema.org/draft-07/schema#",
                          "type": "object", "required": ["a"]}, sort_keys=True)


def test_the_gate_is_generated_once_and_kept(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    name, _ = gate_code(GATE_SCHEMA)
    saved = list((tmp_path / "schema-gate").iterdir())
    assert len(saved) == 1 and (tmp_path / "schema-gate").stat().st_mode & 0o077 == 0

    def no_generating(*_: Any, **__: Any) -> str:
        raise AssertionError("the gate was generated again")

    monkeypatch.setattr(fastjsonschema, "compile_to_code", no_generating)
    again_name, again = gate_code(GATE_SCHEMA)
    namespace: dict[str, Any] = {}
    exec(again, namespace)
    assert again_name == name and namespace[name]({"a": 1}) == {"a": 1}
    with pytest.raises(fastjsonschema.JsonSchemaException):
        namespace[name]({})


def test_a_damaged_gate_file_is_generated_again(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    name, _ = gate_code(GATE_SCHEMA)
    (saved,) = (tmp_path / "schema-gate").iterdir()
    saved.write_bytes(b"\x00not marshal data")
    assert gate_code(GATE_SCHEMA)[0] == name
    assert saved.read_bytes() != b"\x00not marshal data"


def test_a_gate_folder_others_may_write_is_not_used(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECKLORE_CACHE_DIR", str(tmp_path))
    (tmp_path / "schema-gate").mkdir()
    (tmp_path / "schema-gate").chmod(0o777)
    name, code = gate_code(GATE_SCHEMA)
    assert name and code is not None
    assert not list((tmp_path / "schema-gate").iterdir())


def test_the_gate_form_checks_the_else_branch_first() -> None:
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"if": {"type": "string"}, "then": {"type": "integer"}},
              "if": {"required": ["a"]}, "then": {}, "else": {"required": ["b"]}}
    form = gate_form(schema)
    assert form["properties"] == schema["properties"]  # properties named like keywords stay
    assert form["allOf"] == [{"anyOf": [{"required": ["b"]}, {"required": ["a"]}]}]
    assert not {"if", "then", "else"} & form.keys()
    plain, rewritten = fastjsonschema.compile(schema), fastjsonschema.compile(form)
    for doc in ({}, {"a": 1}, {"b": 1}, {"if": "x"}, {"if": 1, "b": 1}, {"then": "x", "a": 1},
                {"a": 1, "b": 2}, []):
        outcomes = []
        for gate in (plain, rewritten):
            try:
                gate(doc)
                outcomes.append(True)
            except fastjsonschema.JsonSchemaException:
                outcomes.append(False)
        assert outcomes[0] == outcomes[1], doc
