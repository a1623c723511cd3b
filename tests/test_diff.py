"""``decklore diff``: what changed between two packs, field by field, as text and JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from decklore import cli
from decklore.compiler import compile_pack
from decklore.compiler.tools.diff import diff_tables, notation, to_text

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "packs" / "mini"


@pytest.fixture
def changed(tmp_path: Path) -> Path:
    pack = tmp_path / "mini2"
    shutil.copytree(MINI, pack)
    deck = (pack / "decks" / "one.yaml").read_text(encoding="utf-8")
    deck = deck.replace("    cost: 3\n", "    cost: 4\n", 1)  # the knight costs more
    deck = deck.replace('symbols: "coin - sword"', 'symbols: "2 coin - sword"')
    deck = deck.replace("  - id: ambush\n", "  - id: raid\n").replace("Ambush", "Raid")
    (pack / "decks" / "one.yaml").write_text(deck, encoding="utf-8")
    manifest = (pack / "pack.yaml").read_text(encoding="utf-8")
    (pack / "pack.yaml").write_text(manifest.replace("version: 0.1.0", "version: 0.2.0"),
                                    encoding="utf-8")
    return pack


def test_no_changes() -> None:
    tables = compile_pack(MINI).tables
    diff = diff_tables(tables, tables)
    assert diff.empty
    assert to_text(diff) == "mini 0.1.0 → mini 0.1.0: no changes\n"


def test_cards_added_removed_and_changed_field_by_field(changed: Path) -> None:
    diff = diff_tables(compile_pack(MINI).tables, compile_pack(changed).tables)
    assert to_text(diff) == (
        "mini 0.1.0 → mini 0.2.0\n"
        "cards: 1 added, 1 removed, 2 changed\n"
        "  + mini:raid (Raid)\n"
        "  - mini:ambush (Ambush)\n"
        "  ~ mini:knight (Knight)\n"
        "      cost: 3 → 4\n"
        "  ~ mini:squire (Squire)\n"
        "      symbols: coin - sword → 2 coin - sword\n"
        "decks: 1 changed\n"
        "  ~ mini:one (Deck One)\n"
        "      cards: +mini:raid; -mini:ambush\n"
    )


def test_json_output(changed: Path) -> None:
    result = CliRunner().invoke(cli, ["diff", str(MINI), str(changed), "--json", "--no-cache"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["before"] == "mini 0.1.0" and data["after"] == "mini 0.2.0"
    knight = next(c for c in data["sections"]["cards"] if c["id"] == "mini:knight")
    assert knight == {"change": "changed", "id": "mini:knight", "label": "Knight",
                      "fields": [{"field": "cost", "before": 3, "after": 4}]}


def test_tables_files_compare_too(changed: Path, tmp_path: Path) -> None:
    before = tmp_path / "before.json"
    before.write_bytes(compile_pack(MINI).data)
    result = CliRunner().invoke(cli, ["diff", str(before), str(changed), "--no-cache"])
    assert result.exit_code == 0
    assert "  ~ mini:knight (Knight)\n      cost: 3 → 4\n" in result.output


def test_rules_changes_are_listed(tmp_path: Path) -> None:
    era = ROOT / "cards" / "era"
    pack = tmp_path / "era"
    shutil.copytree(era, pack)
    state = pack / "rules" / "state.rules"
    state.write_text(state.read_text(encoding="utf-8").replace(
        "const progress_to_win = 15", "const progress_to_win = 12"), encoding="utf-8")
    diff = diff_tables(compile_pack(era).tables, compile_pack(pack).tables)
    assert "  ~ constant progress_to_win\n      value: 15 → 12\n" in to_text(diff)


def test_notation_round_trips_the_symbol_lists_of_the_bundled_pack() -> None:
    from decklore.compiler.load.symbol_notation import parse_symbol_list

    for card in compile_pack(ROOT / "cards" / "era").tables["cards"]:
        text = notation(card["symbols"])
        parsed = parse_symbol_list(text)
        assert not hasattr(parsed, "message"), (card["id"], text)
        assert len(parsed.items) == len(card["symbols"]), (card["id"], text)  # type: ignore[union-attr]
