"""The fast schema gate (fastjsonschema, draft-07) and jsonschema (2020-12) agree.

The compiler trusts the gate to wave valid files through, so any document the gate accepts
must be one jsonschema accepts too; this checks it on generated cards and manifests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastjsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from decklore.compiler.diagnostics import Diagnostics
from decklore.compiler.load.decks import card_schema
from decklore.compiler.load.manifest import load_manifest
from decklore.compiler.load.schema_check import checker_for
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
